// The play view: the page's chrome around the board (game chooser, players, buttons, engine
// readout, move list) and its drawing from the page state. No engine, no game logic: the app
// (app/, the game's controller) wires the controls and feeds the store; this module builds and draws.

import { type GameEntry, findGame, GAME_LIST, playerName } from '../games';
import { h } from '../lib/dom';
import { count, duration, iterationsWord, perSecond, winRateFor } from '../lib/format';
import type { Player, SearchProgress, Snapshot } from '../protocol';
import { boardInteractive, personToMove, type PageState } from '../state';
import { moveListItems } from './move-list';

/** The game the page starts with when the URL names none. */
export const DEFAULT_GAME = 'hex';

/** The spec the game controls choose: the chooser's entry (a registered game's `choices`), with
 * the size and the swap rule where the game has them. */
export function specOf(choice: string, size: number, swap: boolean): string {
  const game = findGame(choice);
  if (!game) return choice;
  const sized = game.facts.sizes ? `${game.name}:${size}` : choice;
  return swap && game.swapOption ? `${sized}:swap` : sized;
}

/** The size chooser's entries for `game` (its offered sides, `n×n`); none without sizes. */
export function sizeOptions(game: GameEntry | null): HTMLOptionElement[] {
  return (game?.facts.sizes?.offered ?? []).map((n) => option(String(n), `${n}×${n}`));
}

export function option(value: string, label: string): HTMLOptionElement {
  return h('option', { value }, label);
}

function sideControls(p: Player) {
  const who = h('select', { id: `who-${p}`, 'aria-label': `Player ${p + 1}` }, option('person', 'Person'), option('engine', 'Engine'));
  const preset = h('select', { id: `preset-${p}`, 'aria-label': `Engine preset for player ${p + 1}` });
  const budget = h('input', {
    id: `budget-${p}`,
    type: 'number',
    min: '1',
    step: '1',
    value: '1000',
    'aria-label': `Engine budget for player ${p + 1}`,
  });
  const unit = h(
    'select',
    { id: `unit-${p}`, 'aria-label': `Budget unit for player ${p + 1}` },
    option('millis', 'ms'),
    option('playouts', 'playouts'),
  );
  const name = h('span', { class: `side-name p${p}` });
  const engineBox = h('span', { class: 'engine-opts' }, preset, budget, unit);
  const row = h('div', { class: 'side' }, h('span', { class: `swatch p${p}`, 'aria-hidden': 'true' }), name, who, engineBox);
  return { who, preset, budget, unit, name, engineBox, row };
}

/** Builds the page into `app` and returns its element handles: the one object through which
 * the app and the features reach the page's chrome (no feature looks elements up by selector). */
export function buildPage(app: HTMLElement) {
  app.replaceChildren();
  const el = {
    /** The page's root (`#app`): the views are appended to it. */
    app,
    header: h('header', {}),
    version: h('span', { class: 'version', id: 'version' }),
    /** The play view's layout (`main.layout`): the board section and the side panel. */
    layout: h('main', { class: 'layout' }),
    /** The side panel (`aside.panel`). */
    panel: h('aside', { class: 'panel' }),
    /** The heading over the move list: features insert their boxes before it. */
    movesHeading: h('h2', {}, 'Moves'),
    status: h('div', { id: 'status', class: 'status', role: 'status', 'aria-live': 'polite' }, 'Loading…'),
    message: h('div', { id: 'message', class: 'message', 'aria-live': 'assertive' }),
    boardHost: h('div', {
      id: 'board',
      class: 'board-host',
      tabindex: '0',
      'aria-label': 'Board: arrow keys move the cursor, Enter plays',
    }),
    swapBtn: h('button', { id: 'swap', type: 'button', hidden: '' }, 'Swap (take Black’s first stone)'),
    help: h('p', { class: 'help' }),
    // Reviewing a move (the search behind it): what is shown, and the way back.
    reviewBar: h('div', { id: 'review-bar', class: 'review-bar', role: 'status', hidden: '' }),
    reviewText: h('span', { id: 'review-text' }),
    // The exact solver's verdict on the reviewed move (was it a winning move?), when it has one.
    reviewVerdict: h('div', { id: 'review-verdict', class: 'review-verdict', hidden: '' }),
    liveBtn: h(
      'button',
      { id: 'live', type: 'button', class: 'primary', title: 'Back to the live position (Esc or End)', 'aria-keyshortcuts': 'Escape End' },
      'Back to live position',
    ),
    // Every registered game's chooser entries, Hex first (the page's default game).
    gameSel: h(
      'select',
      { id: 'game', 'aria-label': 'Game' },
      ...[...GAME_LIST]
        .sort((a, b) => Number(b.name === DEFAULT_GAME) - Number(a.name === DEFAULT_GAME))
        .flatMap((g) => g.facts.choices.map((c) => option(c.spec, c.label))),
    ),
    // The board size and the swap rule, for the games that have them (app/game.ts shows them).
    sizeSel: h('select', { id: 'hex-size', 'aria-label': 'Board size' }, ...sizeOptions(findGame(DEFAULT_GAME))),
    swapChk: h('input', { id: 'hex-swap', type: 'checkbox' }),
    swapLabel: h('label', {}),
    hexOpts: h('span', { class: 'hex-opts' }),
    newBtn: h('button', { id: 'new-game', type: 'button' }, 'New game'),
    sides: [sideControls(0), sideControls(1)] as const,
    // Root-parallel search (parallel.ts): off (1) by default; the app fills the choices.
    workersSel: h('select', { id: 'workers', 'aria-describedby': 'workers-help' }),
    undoBtn: h('button', { id: 'undo', type: 'button' }, 'Undo'),
    redoBtn: h('button', { id: 'redo', type: 'button' }, 'Redo'),
    hintBtn: h('button', { id: 'hint', type: 'button' }, 'Hint'),
    stopBtn: h('button', { id: 'stop', type: 'button', disabled: '' }, 'Stop'),
    pauseBtn: h('button', { id: 'pause', type: 'button', hidden: '' }, 'Pause'),
    readout: h('div', { id: 'thinking', class: 'thinking', 'aria-live': 'off' }),
    movesList: h('ol', { id: 'moves', class: 'moves' }),
  };
  el.reviewBar.append(el.reviewText, el.reviewVerdict, el.liveBtn);
  el.swapLabel.append(el.swapChk, ' swap rule');
  el.hexOpts.append(el.sizeSel, el.swapLabel);
  const workersRow = h(
    'div',
    { class: 'side workers-row' },
    h('label', { for: 'workers' }, 'Engine workers'),
    el.workersSel,
    h(
      'span',
      { class: 'muted small', id: 'workers-help' },
      'More than 1: root-parallel search, each worker with its own seed, root visits and wins summed. 1 is reproducible for a seed.',
    ),
  );
  el.header.append(h('h1', {}, 'MCTS playground'), el.version);
  el.panel.append(
    h('fieldset', {}, h('legend', {}, 'Game'), h('div', { class: 'row' }, el.gameSel, el.hexOpts), h('div', { class: 'row' }, el.newBtn)),
    h('fieldset', {}, h('legend', {}, 'Players'), el.sides[0].row, el.sides[1].row, workersRow),
    h('div', { class: 'row buttons' }, el.undoBtn, el.redoBtn, el.hintBtn, el.stopBtn, el.pauseBtn),
    el.readout,
    el.movesHeading,
    h(
      'p',
      { class: 'muted small moves-help', id: 'moves-help' },
      'Click a move to see the position before it (← → Home End step through the game); a move played there starts a variation. Underlined moves keep the search that chose them.',
    ),
    el.movesList,
  );
  el.layout.append(
    h(
      'section',
      { class: 'play' },
      el.status,
      el.reviewBar,
      el.boardHost,
      h('div', { class: 'under-board' }, el.swapBtn, el.message),
      el.help,
    ),
    el.panel,
  );
  app.append(el.header, el.layout);
  return el;
}

/** The page's element handles (`buildPage`). */
export type PageUi = ReturnType<typeof buildPage>;

/** The result line of a finished game. */
export function resultText(s: Snapshot): string {
  const kind = s.view.kind;
  const w = s.outcome?.winner;
  if (w === null || w === undefined) return 'Game over: a draw.';
  const goal = findGame(kind)?.facts.goals[w] ?? '';
  const how = goal ? ` (${goal})` : '';
  return `Game over: ${playerName(kind, w)} wins${how}.`;
}

/** Draws the panel and the status line from the state. */
export function drawPanel(ui: PageUi, state: PageState): void {
  const { status, movesList, swapBtn, undoBtn, redoBtn, newBtn, hintBtn, stopBtn, pauseBtn, help, sides } = ui;
  const { snapshot: s, paused, restoring, presets, thinking, review } = state;
  if (!s) return;
  const v = s.view;
  const kind = v.kind;
  for (const p of [0, 1] as const) {
    sides[p].name.textContent = playerName(kind, p);
    sides[p].engineBox.hidden = state.sides[p].who !== 'engine';
  }
  if (review !== null) status.textContent = `Before move ${review} (← → step, Esc: the live position)`;
  else if (s.outcome) status.textContent = resultText(s);
  else {
    const who = playerName(kind, v.to_move ?? 0);
    const teaching = state.teaching?.status === 'judging' ? ' — judging your move…' : state.teaching ? ' — your move was pointed out' : '';
    const doing = thinking?.purpose === 'move' ? ' — the engine is thinking…' : paused ? ' — paused' : teaching;
    status.textContent = `${who} to move${doing}`;
  }
  status.classList.toggle('over', !!s.outcome);
  // The move list: the game's tree, every move a button (play/move-list.ts).
  movesList.replaceChildren(...moveListItems(state));
  // The move looked at (else the newest) in view inside the list's own box only: scrollIntoView
  // would scroll the page.
  const current = movesList.querySelector<HTMLElement>('[aria-current="true"]');
  if (current) {
    const top = current.getBoundingClientRect().top - movesList.getBoundingClientRect().top + movesList.scrollTop;
    movesList.scrollTop = Math.max(0, top - movesList.clientHeight / 2);
  } else movesList.scrollTop = movesList.scrollHeight;
  swapBtn.hidden = !s.legal.includes('swap');
  swapBtn.disabled = !boardInteractive(state);
  const engineBusy = thinking !== null;
  undoBtn.disabled = s.moves.length === 0 || restoring;
  redoBtn.disabled = s.redo.length === 0 || restoring;
  newBtn.disabled = restoring;
  hintBtn.disabled = !personToMove(state) || engineBusy || presets.length === 0 || review !== null;
  stopBtn.disabled = !engineBusy;
  const bothEngines = state.sides[0].who === 'engine' && state.sides[1].who === 'engine';
  // Nothing to pause once the game is over; against a person, Resume shows while Back/Forward
  // hold the engine (share/hooks.ts onPopState).
  pauseBtn.hidden = !(bothEngines || paused) || !!s.outcome;
  pauseBtn.textContent = paused ? 'Resume' : 'Pause';
  const game = findGame(kind);
  help.textContent = game ? `${game.facts.rules} ${game.inputHelp}` : '';
}

/** The engine readout: playouts, speed, best move, win rate for `side`, the line. */
export function showProgress(ui: PageUi, snap: Snapshot | null, p: SearchProgress, label: string, side: Player): void {
  const { readout } = ui;
  const who = snap ? playerName(snap.view.kind, side) : '';
  const rate = p.winRate === null ? '–' : winRateFor(p.winRate, who);
  const proven = p.proven ? ` · proven ${p.proven}` : '';
  readout.replaceChildren(
    h('div', { class: 'label' }, label),
    h(
      'div',
      {},
      // A position proven before any playout (e.g. by the solver from the tree kept) has no rate.
      p.playouts === 0 && p.proven
        ? `proven without new ${iterationsWord(p.leaf)} · ${duration(p.elapsedMs)}`
        : `${count(p.playouts)} ${iterationsWord(p.leaf)} · ${perSecond(p.playoutsPerS, p.playouts)} · ${duration(p.elapsedMs)}`,
    ),
    h('div', {}, `best `, h('strong', { id: 'best-move' }, p.bestMove ?? '–'), ` · win rate ${rate}${proven}`),
    h('div', { class: 'pv' }, p.pv.length ? `line: ${p.pv.slice(0, 8).join(' ')}` : ''),
    ...(p.nodeCap === null
      ? []
      : [
          h(
            'div',
            { class: 'note', id: 'node-cap-note' },
            `The tree reached its cap of ${p.nodeCap.toLocaleString('en')} nodes: it is kept and stops growing; playouts go on refining it.`,
          ),
        ]),
    ...(p.memoryCap === null
      ? []
      : [
          h(
            'div',
            { class: 'note', id: 'memory-cap-note' },
            `The tree reached the engine's memory cap of ${Math.round(p.memoryCap / 2 ** 20).toLocaleString('en')} MiB at ${p.nodes.toLocaleString('en')} nodes: it is kept and stops growing; playouts go on refining it (engine parameter memory_cap_mib).`,
          ),
        ]),
  );
  readout.dataset.nodeCap = p.nodeCap === null ? '' : String(p.nodeCap);
  readout.dataset.memoryCap = p.memoryCap === null ? '' : String(p.memoryCap);
  readout.dataset.playouts = String(p.playouts);
  readout.dataset.rate = p.playoutsPerS.toFixed(0);
  readout.dataset.elapsed = p.elapsedMs.toFixed(1);
  readout.dataset.engineMs = p.engineMs.toFixed(1);
  // A root-parallel search's result: each worker's playouts (their sum is `playouts`).
  const workers = 'workers' in p ? (p as { workers?: number[] }).workers : undefined;
  readout.dataset.workers = workers ? workers.join(',') : '';
  if (workers && workers.length > 1) {
    readout.append(
      h(
        'div',
        { class: 'note', id: 'workers-note' },
        `${workers.length} workers merged: ${workers.map((n) => count(n)).join(' + ')} playouts. Trees and overlays show worker 0's search.`,
      ),
    );
  }
}
