// Guided lessons: each a preset position and configuration (URL parameters) plus a few sentences.
// `?lesson=ID` opens one; the lesson's parameters are defaults that explicit URL parameters
// override. The card sits above the views, so it stays visible in the compare view.

import { h } from '../lib/dom';

export interface Lesson {
  id: string;
  title: string;
  /** URL parameters, as in docs.html. */
  params: Record<string, string>;
  /** Short paragraphs. */
  text: string[];
}

export const LESSONS: Lesson[] = [
  {
    id: 'ucb1',
    title: 'UCB1: exploration against exploitation',
    params: {
      game: 'hex:5',
      moves: 'c3 b3',
      view: 'compare',
      panes: '3',
      pane1: 'preset:uct,c:0.1',
      pane2: 'preset:uct,c:0.7',
      pane3: 'preset:uct,c:3',
      cmpgame: 'hex:5',
      cmpmoves: 'c3 b3',
      cmpbudget: '20000',
      cmpseed: '1',
    },
    text: [
      'UCT picks the child maximising Q + c·√(ln N / n) (UCB1, Auer et al. 2002; Kocsis & Szepesvári 2006): the mean value Q exploits what looks good, the second term explores moves tried rarely.',
      'The three panes search the same position with c = 0.1, 0.7 and 3. Press “Run all” and compare the visit bars: a small c piles visits on one move early (and can stay wrong), a large c spreads them almost evenly. Change the c field of a pane and run again.',
    ],
  },
  {
    id: 'rave',
    title: 'Why RAVE speeds up Hex',
    params: {
      game: 'hex:7',
      view: 'compare',
      panes: '2',
      pane1: 'preset:uct',
      pane2: 'preset:rave',
      cmpgame: 'hex:7',
      cmpbudget: '20000',
      cmpseed: '1',
    },
    text: [
      'RAVE (Gelly & Silver 2007) also credits a move with the results of every playout in which it was played later (all-moves-as-first, AMAF), mixed with its own mean by a weight β that fades as real visits grow.',
      'In Hex a stone is good largely wherever it is played in the playout, so AMAF values are informative from the first few hundred playouts. Run both panes (20,000 playouts, seed 1): the RAVE pane puts its visits on central cells (e3, c4, d3 — the strong openings), while plain UCT’s visits are still spread over edge cells such as f2 and b6.',
    ],
  },
  {
    id: 'decisive',
    title: 'What decisive moves fix',
    params: {
      game: 'hex:5',
      moves: 'b1 a5 b2 e1 b3 e2 b4',
      p0: 'person',
      p1: 'person',
      view: 'compare',
      panes: '2',
      pane1: 'preset:uct',
      pane2: 'preset:decisive',
      cmpgame: 'hex:5',
      cmpmoves: 'b1 a5 b2 e1 b3 e2 b4',
      cmpbudget: '300',
      cmpseed: '2',
    },
    text: [
      'Random playouts miss one-move wins and fail to stop the opponent’s, so a position that is one move from the end still looks uncertain. Decisive and anti-decisive moves (Teytaud & Teytaud 2010) make the playout take a winning move when there is one and block the opponent’s.',
      'Black’s column b1–b4 is one stone from the bottom edge: White must play b5 now. With only 300 playouts, plain UCT gives b5 a minority of its visits and still rates White’s chances near 60%; the “decisive” preset, whose playouts block the threat and take wins, puts almost every visit on b5 and sees the position as it is. Raise the budget and watch UCT catch up.',
    ],
  },
  {
    id: 'lgr',
    title: 'How LGR learns replies',
    params: { game: 'hex:7', view: 'play', p0: 'engine', p1: 'engine', preset: 'lgrf2', playouts: '5000', seed: '1' },
    text: [
      'Last-Good-Reply (Drake 2009; with forgetting, LGRF, Baier & Drake 2010) remembers, for each opponent move, the reply that won a playout, and plays it in later playouts when it is legal; a losing playout forgets it.',
      'Two engines with the LGRF-2 preset (lgrf2) play each other. Open “Policy internals” under the board: the stored reply table fills as the search runs, and the counter of replies played grows.',
    ],
  },
  {
    id: 'solver',
    title: 'How the solver proves Tic-Tac-Toe a draw',
    params: {
      game: 'tictactoe',
      p0: 'person',
      p1: 'person',
      view: 'compare',
      panes: '2',
      pane1: 'preset:uct',
      pane2: 'preset:solver',
      cmpgame: 'tictactoe',
      cmpbudget: '100000',
      cmpseed: '1',
    },
    text: [
      'MCTS-Solver (Winands, Björnsson & Saito 2008) backs up proven wins and losses: a node is a proven loss for the mover when one child wins for the opponent, a proven win when every child loses, and so on up the tree.',
      'Run both panes on the empty board: plain UCT still rates X at about 60% after 100,000 playouts and never knows the result; the solver pane proves the root a draw after about 56,000 playouts (seed 1) and stops there.',
    ],
  },
];

/** Called at import: merges the lesson's parameters into the URL as defaults. Returns an error
 * sentence for an unknown lesson. */
export function applyLessonDefaults(): string | null {
  const q = new URLSearchParams(location.search);
  const id = q.get('lesson');
  if (id === null) return null;
  const lesson = LESSONS.find((l) => l.id === id);
  if (!lesson) return `lesson=${id}: no such lesson (there are ${LESSONS.map((l) => l.id).join(', ')})`;
  let changed = false;
  for (const [k, v] of Object.entries(lesson.params)) {
    if (!q.has(k)) {
      q.set(k, v);
      changed = true;
    }
  }
  const view = q.get('view');
  const hash = view && view !== 'play' ? `#${view}` : location.hash;
  if (changed) history.replaceState(null, '', `${location.pathname}?${q.toString()}${hash}`);
  else if (hash !== location.hash) history.replaceState(null, '', `${location.pathname}${location.search}${hash}`);
  return null;
}

export function mountLessonCard(): void {
  const id = new URLSearchParams(location.search).get('lesson');
  const lesson = LESSONS.find((l) => l.id === id);
  const header = document.querySelector('header');
  if (!header) return;
  // A lesson menu in the header, and the lesson card under it.
  const menu = h('select', { id: 'lesson-menu', 'aria-label': 'Guided lessons' });
  menu.append(new Option('Lessons…', ''), ...LESSONS.map((l) => new Option(l.title, l.id)));
  menu.value = lesson?.id ?? '';
  menu.addEventListener('change', () => {
    if (menu.value) location.href = `${location.pathname}?lesson=${menu.value}`;
  });
  header.append(menu);
  if (!lesson) return;
  const card = h(
    'section',
    { id: 'lesson', class: 'lesson-card', 'aria-label': 'Lesson' },
    h('h2', {}, `Lesson: ${lesson.title}`),
    ...lesson.text.map((t) => h('p', {}, t)),
  );
  const style = h('style');
  style.textContent =
    '.lesson-card{margin:0.6rem auto 0;max-width:1400px;padding:0.6rem 1rem;border:1px solid var(--border);border-left:5px solid var(--accent);border-radius:8px;background:var(--panel)}.lesson-card h2{font-size:1.05rem;margin:0 0 0.3rem}.lesson-card p{margin:0.3rem 0;max-width:75ch}';
  document.head.append(style);
  header.after(card);
}
