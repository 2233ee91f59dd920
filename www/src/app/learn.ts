// Learn from your mistakes (Lichess's retrospection; review/learn.ts has the rules and sources):
// for a chosen player, the position before each mistake of the reviewed main line in turn,
// "find a better move"; a move on the board is a try, judged by the engine's review core (the
// solver where it takes the position, else the review's search with the review's settings), not
// played; the answer on request; next. The card sits under the review bar, by the board.

import { EngineClient } from '../engine';
import { h } from '../lib/dom';
import { MoveJudge } from '../review/judge';
import { displayName, plyMark } from '../review/marks';
import { answerText, judgeTry, learnQueue, type TryJudgement } from '../review/learn';
import type { ReviewReport } from '../review/report';
import { mountGameReview } from '../review/view';
import type { LearnState } from '../state';
import { type App, showMessage, st } from './context';
import { mainLine } from './game-review';
import { showMainPosition } from './navigate';
import { setReview } from './review';

/** Judges a try: the engine's review of `move` played after `before` (the mistake's position),
 * with the review's settings; null when a later try or Stop made it stale. */
export type LearnJudge = (report: ReviewReport, before: readonly string[], move: string) => Promise<TryJudgement | null>;

/** The judge of the page: the review core's `judge_move` (review/judge.ts `MoveJudge`) on a worker
 * of its own, made at the first try and ended by Stop. */
export function learnJudge(): LearnJudge & { stop(): void } {
  const judge = new MoveJudge(() => new EngineClient());
  const f = (report: ReviewReport, before: readonly string[], move: string) =>
    judge.judge({ spec: report.game, moves: [...before], settings: report.settings }, move);
  return Object.assign(f, { stop: () => judge.stop() });
}

/** The report, when it reviews the game's main line. */
function reviewedReport(app: App): ReviewReport | null {
  const s = st(app);
  const r = s.gameReview?.report;
  const main = mainLine(s);
  return r && r.game === s.snapshot?.view.spec && r.moves.length === main.length && r.moves.every((m, i) => main[i] === m) ? r : null;
}

function setLearn(app: App, next: Partial<LearnState> | null): void {
  const cur = st(app).learn;
  app.store.update({ learn: next === null || !cur ? (next as LearnState | null) : { ...cur, ...next } });
}

/** The mistake asked now: its move number (null once all are done). */
function current(l: LearnState): number | null {
  return l.queue[l.at] ?? null;
}

/** Shows the position before the mistake asked now. */
async function showCurrent(app: App): Promise<void> {
  const l = st(app).learn;
  const n = l && current(l);
  if (n) await showMainPosition(app, n - 1);
}

/** Starts Learn from your mistakes for `side` (a player's name as the review writes movers, or
 * `both`). */
export async function startLearn(app: App, side: string): Promise<void> {
  const report = reviewedReport(app);
  if (!report) return;
  const queue = learnQueue(report, side);
  if (!queue.length) {
    showMessage(app, `No mistakes to learn from${side === 'both' ? '' : ` for ${side}`} in this review.`);
    return;
  }
  app.store.update({ learn: { side, queue, at: 0, feedback: 'find', verdict: null, solved: [] } });
  await showCurrent(app);
}

/** Ends Learn from your mistakes (back to the live position). */
export function stopLearn(app: App): void {
  if (!st(app).learn) return;
  setLearn(app, null);
  setReview(app, null);
}

/** The next mistake (or the end). */
export async function nextMistake(app: App): Promise<void> {
  const l = st(app).learn;
  if (!l) return;
  setLearn(app, { at: Math.min(l.queue.length, l.at + 1), feedback: 'find', verdict: null });
  await showCurrent(app);
}

/** A move on the board while learning: a try at the mistake shown, judged. */
export async function tryMove(app: App, move: string, judge: LearnJudge): Promise<void> {
  const l = st(app).learn;
  const report = reviewedReport(app);
  const n = l && current(l);
  if (!l || !report || !n || (l.feedback !== 'find' && l.feedback !== 'wrong')) return;
  const p = report.plies[n - 1]!;
  setLearn(app, { feedback: 'judging', verdict: { move, ok: false, text: `Judging ${move}…` } });
  let j: TryJudgement | null;
  try {
    j = move === p.move ? { ...p, move } : await judge(report, report.moves.slice(0, n - 1), move);
  } catch (e) {
    if (st(app).learn?.at !== l.at) return;
    setLearn(app, {
      feedback: 'wrong',
      verdict: { move, ok: false, text: `${move} could not be judged: ${e instanceof Error ? e.message : String(e)}` },
    });
    return;
  }
  // A later click, Next or Stop meanwhile: this verdict is stale.
  const now = st(app).learn;
  if (!j || !now || now.at !== l.at || now.feedback !== 'judging' || now.verdict?.move !== move) return;
  const v = judgeTry(p, j);
  setLearn(app, {
    feedback: v.ok ? 'right' : 'wrong',
    verdict: { move, ok: v.ok, text: v.text },
    solved: v.ok && !now.solved.includes(n) ? [...now.solved, n] : now.solved,
  });
}

/** The card's elements and drawing. */
function mountLearnCard(app: App): HTMLElement {
  const title = h('h3', { id: 'learn-title' });
  const ask = h('p', { id: 'learn-ask' });
  const verdict = h('p', { id: 'learn-verdict', class: 'learn-verdict', 'aria-live': 'polite' });
  const answer = h('button', { type: 'button', id: 'learn-answer' }, 'Show answer');
  const next = h('button', { type: 'button', id: 'learn-next', class: 'primary' }, 'Next mistake');
  const stop = h('button', { type: 'button', id: 'learn-stop' }, 'Stop');
  const card = h(
    'section',
    { id: 'learn', class: 'learn-card', hidden: '', 'aria-labelledby': 'learn-title' },
    title,
    ask,
    verdict,
    h('div', { class: 'row' }, answer, next, stop),
  );
  answer.addEventListener('click', () => {
    const l = st(app).learn;
    if (l && l.feedback !== 'judging') setLearn(app, { feedback: 'shown' });
  });
  next.addEventListener('click', () => void nextMistake(app));
  stop.addEventListener('click', () => stopLearn(app));

  const draw = (): void => {
    const l = st(app).learn;
    const report = reviewedReport(app);
    card.hidden = !l;
    if (!l) return;
    if (!report) {
      setLearn(app, null);
      return;
    }
    const who = l.side === 'both' ? 'both sides' : displayName(l.side);
    const n = current(l);
    card.dataset.feedback = n === null ? 'done' : l.feedback;
    card.dataset.move = n === null ? '' : String(n);
    if (n === null) {
      title.textContent = `Learn from your mistakes — ${who}: done`;
      ask.textContent = `You went through ${l.queue.length} mistake${l.queue.length === 1 ? '' : 's'}; ${l.solved.length} found a better move.`;
      verdict.textContent = '';
      answer.hidden = true;
      next.hidden = true;
      stop.textContent = 'Close';
      return;
    }
    const p = report.plies[n - 1]!;
    const mark = plyMark(p);
    title.textContent = `Learn from your mistakes — ${who}: ${l.at + 1} of ${l.queue.length}`;
    const lost = p.label ? ` (${p.label})` : `, ${Math.round(p.loss * 100)} points of win chance`;
    ask.textContent = `Move ${n}: ${displayName(p.mover)} played ${p.move} ${mark?.glyph ?? ''}${lost}. Find a better move for ${displayName(p.mover)}: play it on the board.`;
    const shown = l.feedback === 'shown' || l.feedback === 'right';
    verdict.textContent = [l.verdict?.text ?? '', shown ? answerText(p) : ''].filter(Boolean).join(' ');
    verdict.dataset.ok = l.verdict ? String(l.verdict.ok) : '';
    answer.hidden = shown;
    answer.disabled = l.feedback === 'judging';
    next.hidden = false;
    next.textContent = l.at + 1 < l.queue.length ? (l.feedback === 'right' ? 'Next mistake' : 'Skip to the next mistake') : 'Finish';
    stop.textContent = 'Stop';
  };
  app.store.subscribe((s, prev) => {
    if (s.learn !== prev.learn || s.gameReview !== prev.gameReview || s.gameTree !== prev.gameTree) draw();
    // Started from the review section below the board: the card (by the board) comes into view.
    if (s.learn && !prev.learn) card.scrollIntoView({ block: 'nearest' });
  });
  // Leaving the mistake's position some other way (a move list click, Esc) ends nothing, but a
  // new main line or review does (draw clears it).
  draw();
  return card;
}

/** The "Game review" section (review/view.ts) under the board, whose graph and mistake steps show
 * a position of the main line and whose "Learn from your mistakes" starts the card; the card
 * under the review bar; and a try on the board while learning (app/input.ts calls `learnTry`). */
export function bindGameReview(app: App, judge: LearnJudge & { stop?(): void }): (move: string) => boolean {
  const section = mountGameReview({
    store: app.store,
    goTo: (n) => {
      void showMainPosition(app, n === null ? null : n - 1);
      return true;
    },
    learn: (side) => void startLearn(app, side),
  });
  app.ui.help.after(section);
  app.ui.reviewBar.after(mountLearnCard(app));
  // The judging worker lives while learning.
  app.store.subscribe((s, prev) => {
    if (prev.learn && !s.learn) judge.stop?.();
  });
  return (move) => {
    const l = st(app).learn;
    if (!l || current(l) === null || st(app).review !== current(l)) return false;
    void tryMove(app, move, judge);
    return true;
  };
}
