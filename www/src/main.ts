// The playground page: the app. It owns the page state (state.ts, a store) and is the game's
// controller: it talks to the engine worker, turns the person's clicks and the engine's moves into
// state, and mounts the features (overlay/mount.ts: analysis, step-through, compare, arena;
// share/hooks.ts: URL, records, embed, lessons), which read and subscribe to the same store.
// play/panel.ts builds and draws the chrome around the board; board/ draws the board.
//
// The page holds no rules: the engine worker owns the game (engine.ts → worker.ts → wasm) and
// answers every change with a `Snapshot`; the page draws it and decides whose turn it is.
// URL parameters (all optional): `game=SPEC` (e.g. hex:11:swap, tictactoe, pentago:twist),
// `p0=person|engine`, `p1=person|engine`, `preset=NAME`, `ms=N` or `playouts=N` (the budget).

import './style.css';
import {
  createRenderer,
  initialState,
  moveCursor,
  parseCell,
  playerName,
  cellName,
  type BoardRenderer,
  type BoardState,
  type Quadrant,
} from './board';
import { EngineClient, EngineDied, EngineError, SearchCancelled, type SearchHandle, type SearchOptions } from './engine';
import { HelperPool, searchParallel, workerChoices } from './parallel';
import type { Budget, NetInfo, Player, Response, SearchProgress, Snapshot } from './protocol';
import { mountVisualisation } from './overlay/mount';
import { addSearch, archiveQuery, behindLabel, entryBytes, rootSummary, searchBehind, type MoveSearch } from './play/searches';
import { teach } from './share/hooks';
import { winRate } from './lib/format';
import { abbreviate, cannotLoadMessage, MAX_MESSAGE_CHARS } from './lib/echo';
import { parseSides } from './share/url';
import { fallbackMessage, isNoNetError, netFreeFallback } from './play/net-fallback';
import { labelPresetOptions, loadUserNet, mountNetControls, type NetsHooks } from './play/nets';
import type { LoadResult, SideSettings, Who } from './types';
import { createPageStore, movesKey, personToMove as isPersonToMove, type PageState } from './state';
import { solveUnavailable } from './overlay/solve';
import { reviewVerdict as verdictOf } from './overlay/verdict';
import {
  buildPage,
  drawPanel as drawPanel_,
  HEX_SIZES,
  option,
  showProgress as showProgress_,
  specOf,
  type GameChoice,
} from './play/panel';

// ---- settings -------------------------------------------------------------------------------

const PREFERRED_PRESETS = ['best', 'grave', 'rave', 'uct'];
const HINT_BUDGET: Budget = { kind: 'millis', value: 1000 };
/** Pause between moves when two engines play, so a person can follow. */
const ENGINE_PACE_MS = 120;

// ---- DOM (play/panel.ts builds and draws it) ----------------------------------------------------

const ui = buildPage(document.getElementById('app')!);
const {
  message,
  boardHost,
  swapBtn,
  gameSel,
  sizeSel,
  swapChk,
  hexOpts,
  newBtn,
  sides,
  workersSel,
  undoBtn,
  redoBtn,
  hintBtn,
  stopBtn,
  pauseBtn,
  readout,
  movesList,
  reviewBar,
  reviewText,
  reviewVerdict,
  liveBtn,
} = ui;

// ---- state ----------------------------------------------------------------------------------

// The page's state (snapshot, presets, what the engine does, pause, restoring, view, hint) is in
// the store, shared with the features; what is left here is the game controller's own machinery.
const store = createPageStore();
const st = () => store.get();

let engine: EngineClient;
let board: BoardState | null = null;
let renderer: BoardRenderer | null = null;
let rendererKey = '';
let refusals = 0;
/** Bumped whenever the game changes, so stale engine answers are ignored. */
let epoch = 0;
/** The game engine's running search (the store has what it is for: `thinking`). */
let search: { handle: SearchHandle; purpose: 'move' | 'hint'; side: Player; epoch: number } | null = null;
let firstPlayable = true;

// The state on <body> as `data-*` attributes, for the browser tests and the CSS (the page never
// reads them back), then the board and the panel: both follow every change of the state.
function reflect(s: PageState): void {
  const b = document.body.dataset;
  b.view = s.view;
  if (!s.snapshot) return;
  b.game = s.snapshot.view.spec;
  b.ply = String(s.snapshot.view.ply);
  b.over = s.snapshot.outcome ? 'true' : 'false';
  b.thinking = s.thinking?.purpose ?? '';
  b.review = s.review === null ? '' : String(s.review);
}
/** The Players controls show the state's sides. */
function drawSides(s: PageState): void {
  for (const p of [0, 1] as const) {
    const set = s.sides[p];
    const c = sides[p];
    c.who.value = set.who;
    c.preset.value = set.preset;
    c.unit.value = set.budgetKind;
    c.budget.value = String(set.budgetValue);
  }
}

function commitSides(): void {
  store.update({ sides: [readSide(0), readSide(1)] });
}

store.subscribe(reflect);
store.subscribe((s, prev) => {
  if (s.sides !== prev.sides) drawSides(s);
});
store.subscribe(() => render());
reflect(st());

/** The running search, read through a call (TypeScript keeps no stale narrowing of it). */
function runningSearch(): typeof search {
  return search;
}

function setSearch(s: typeof search): void {
  search = s;
  store.update({ thinking: s ? { purpose: s.purpose, side: s.side } : null });
}

/** One side's settings: the page state's. */
function sideSettings(p: Player): SideSettings {
  return st().sides[p];
}

/** The Players controls of one side as the person set them (a budget not understood is 1000). */
function readSide(p: Player): SideSettings {
  const s = sides[p];
  const v = Math.max(1, Math.round(Number(s.budget.value) || 1000));
  return { who: s.who.value as Who, preset: s.preset.value, budgetKind: s.unit.value as Budget['kind'], budgetValue: v };
}

function showMessage(text: string, kind: 'info' | 'error' = 'info'): void {
  // Every message is a sentence or two: whatever it quotes, it never fills the page.
  message.textContent = abbreviate(text, MAX_MESSAGE_CHARS);
  message.className = `message ${kind}`;
}

// ---- engine lifecycle -----------------------------------------------------------------------

function startEngine(): EngineClient {
  const e = new EngineClient();
  e.onDeath = (why) => void recoverFromDeath(why);
  return e;
}

async function recoverFromDeath(why: string): Promise<void> {
  epoch++;
  showMessage(`The engine worker stopped (${why}). Starting a new one…`, 'error');
  setSearch(null);
  store.update({ restoring: true });
  engine = startEngine();
  try {
    await engine.hello();
    const snap = st().snapshot;
    if (snap) {
      const s = await engine.newGame(snap.view.spec, [...snap.moves, ...snap.redo]);
      let cur = s;
      for (let k = 0; k < snap.redo.length; k++) cur = await engine.undo();
      store.update({ restoring: false });
      show(cur);
    }
    store.update({ restoring: false });
    showMessage(`The engine worker stopped (${why}). A new one was started; the game is kept.`, 'error');
    maybeEngineMove();
  } catch (e) {
    store.update({ restoring: false });
    showMessage(`The engine could not be restarted: ${errText(e)}`, 'error');
  }
}

function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Runs an engine call for the game; EngineDied is handled by the death hook. */
async function guarded<T>(p: Promise<T>, handled?: (e: unknown) => boolean): Promise<T | null> {
  try {
    return await p;
  } catch (e) {
    if (e instanceof EngineDied || e instanceof SearchCancelled) return null;
    if (handled?.(e)) return null;
    showMessage(errText(e), 'error');
    return null;
  }
}

/** When `e` says the game has no trained network for side `side`'s preset, switches that side
 * to a net-free preset and says so; false when `e` is another error (or no preset fits). */
function fallBackFromNet(side: Player, preset: string, spec: string, e: unknown): boolean {
  if (!(e instanceof EngineError) || !isNoNetError(e.message)) return false;
  const fb = netFreeFallback(st().presets);
  if (!fb) return false;
  const next: [SideSettings, SideSettings] = [st().sides[0], st().sides[1]];
  next[side] = { ...next[side], preset: fb };
  store.update({ sides: next });
  showMessage(fallbackMessage(preset, spec, fb, e.message), 'error');
  return true;
}

// ---- drawing --------------------------------------------------------------------------------

function personToMove(): boolean {
  return isPersonToMove(st());
}

/** Takes a new snapshot from the engine: a new renderer when the game changed, then the store
 * (whose listeners draw the board, the panel and the features). */
function show(s: Snapshot): void {
  const prev = st().snapshot;
  const v = s.view;
  if (!renderer || rendererKey !== v.spec || !board) {
    renderer = createRenderer(v.kind, v.kind === 'hex' ? v.rows : v.kind === 'pentago' ? 6 : 3, { onCell, onTwist, onCancelPending });
    rendererKey = v.spec;
    boardHost.replaceChildren(renderer.element);
    board = initialState(v);
  }
  const newPosition = prev?.view.ply !== v.ply;
  if (newPosition) board.pending = null;
  store.update(newPosition ? { snapshot: s, hint: [] } : { snapshot: s });
}

/** Draws the board and the panel from the state and the Players controls. */
function render(): void {
  const { snapshot: s, hint } = st();
  if (!renderer || !board || !s) return;
  const reviewed = reviewedSearch();
  // Reviewing move N: the position before it, read-only, with the move that was played marked.
  const v = reviewed?.view ?? s.view;
  board.view = v;
  board.legal = new Set(reviewed ? [] : s.legal);
  board.interactive = !reviewed && personToMove() && search?.purpose !== 'move';
  const marked = reviewed ? [reviewed.summary.move] : hint;
  board.hint = marked.map((m) => parseCell(m, v.rows, v.cols)).filter((c): c is number => c !== null);
  renderer.update(board);
  drawReview(reviewed);
  drawPanel();
  if (firstPlayable && board.interactive) {
    firstPlayable = false;
    document.body.dataset.readyMs = performance.now().toFixed(0);
  }
}

// ---- the search behind each move (play/searches.ts) and review ---------------------------------

/** Asks the worker for the final statistics and tree of `slot`'s search of `pos` (which chose
 * `move`) and adds them to the page's log. */
async function keepSearch(slot: string, preset: string, pos: Snapshot, move: string, playouts: number): Promise<void> {
  const r = await guarded(engine.inspect(slot, archiveQuery(playouts)));
  if (!r?.stats) return;
  const e: MoveSearch = {
    spec: pos.view.spec,
    before: [...pos.moves],
    summary: rootSummary(r.stats, move, pos.moves.length + 1, preset, 'engine'),
    view: pos.view,
    legal: pos.legal,
    stats: r.stats,
    tree: r.tree,
  };
  store.update((st) => ({ searches: addSearch(st.searches, e) }));
}

/** The search of the move being reviewed (undefined: the live position). */
function reviewedSearch(): MoveSearch | undefined {
  const { review, snapshot: s, searches } = st();
  if (review === null || !s) return undefined;
  return searchBehind(searches, s.view.spec, s.moves, review);
}

/** Reviews move `n` (1-based; null: back to the live position). */
function setReview(n: number | null): void {
  const s = st().snapshot;
  if (n !== null && (!s || !searchBehind(st().searches, s.view.spec, s.moves, n))) return;
  if (board) board.pending = null;
  store.update({ review: n });
}

function drawReview(reviewed: MoveSearch | undefined): void {
  reviewBar.hidden = !reviewed;
  if (!reviewed) return;
  const gone = reviewed.stats
    ? ''
    : reviewed.fromRecord
      ? ' (from the loaded record: root statistics only)'
      : ' (its tree is gone: only the last 200 engine moves keep theirs)';
  reviewText.textContent = `Reviewing move ${reviewed.summary.ply} (${reviewed.summary.move}): the position before it, read-only. ${behindLabel(reviewed.summary)}${gone}.`;
  // The exact solver's verdict on the move played, from the values of the position before it
  // (never those of another position); nothing for a position the solver does not take.
  const v = reviewed.view;
  const exact = st().exact;
  const verdict = solveUnavailable({ view: v, outcome: null })
    ? null
    : verdictOf(
        reviewed.summary.move,
        playerName(v.kind, reviewed.summary.player),
        playerName(v.kind, reviewed.summary.player === 0 ? 1 : 0),
        exact?.key === movesKey(reviewed.spec, reviewed.before) ? exact : null,
      );
  reviewVerdict.hidden = !verdict;
  reviewVerdict.textContent = verdict?.text ?? '';
  reviewVerdict.dataset.verdict = verdict?.state ?? '';
}

// A move that is no longer in the game (undo, another game) ends the review.
store.subscribe((s, prev) => {
  if (s.review === null || (s.snapshot === prev.snapshot && s.searches === prev.searches)) return;
  if (!reviewedSearch()) store.update({ review: null });
});

function redrawBoard(): void {
  if (renderer && board && st().snapshot) {
    board.interactive = st().review === null && personToMove() && search?.purpose !== 'move';
    renderer.update(board);
  }
}

function drawPanel(): void {
  drawPanel_(ui, st());
}

function showProgress(p: SearchProgress, label: string, side: Player): void {
  showProgress_(ui, st().snapshot, p, label, side);
}

// ---- the turn loop --------------------------------------------------------------------------

/** Helper workers of root-parallel searches (Workers > 1); the game's engine is worker 0. */
const helperPool = new HelperPool();

/** The game engine's search of the current position: on the engine alone (Workers 1), or
 * root-parallel on it and Workers − 1 helpers given the same position (parallel.ts). */
function engineSearch(opts: SearchOptions): SearchHandle {
  const n = st().workers;
  const snap = st().snapshot;
  if (n <= 1 || !snap) return engine.search(opts);
  return searchParallel(engine, helperPool.take(n - 1), { spec: snap.view.spec, moves: snap.moves }, opts);
}

function budgetOf(s: SideSettings): Budget {
  return { kind: s.budgetKind, value: s.budgetValue };
}

/** Starts the engine if it is its turn (and nothing else is running). */
function maybeEngineMove(): void {
  const { snapshot: s, paused, restoring, presets } = st();
  if (!s || s.outcome || search || paused || restoring || presets.length === 0) return;
  const side = s.view.to_move;
  if (side === null) return;
  const set = sideSettings(side);
  if (set.who !== 'engine') return;
  const myEpoch = epoch;
  const label = `${playerName(s.view.kind, side)} (engine, ${set.preset}) thinking…`;
  const handle = engineSearch({
    slot: `p${side}`,
    engine: { preset: set.preset, params: teach.engineParams(side) },
    budget: budgetOf(set),
    onProgress: (p) => showProgress(p, label, side),
  });
  setSearch({ handle, purpose: 'move', side, epoch: myEpoch });
  void (async () => {
    const out = await guarded(handle.done, (e) => {
      // A network preset on a game without a trained net: play on with a net-free preset.
      if (runningSearch()?.handle !== handle || epoch !== myEpoch) return false;
      if (!fallBackFromNet(side, set.preset, s.view.spec, e)) return false;
      setSearch(null);
      maybeEngineMove();
      return true;
    });
    if (runningSearch()?.handle !== handle) return;
    setSearch(null);
    if (!out || epoch !== myEpoch) return;
    teach.onSearchFinished(out.result, side, out.report);
    showProgress(out.result, `${playerName(s.view.kind, side)} (engine) played ${out.result.move ?? '–'} (${out.result.end})`, side);
    if (!out.result.move) return;
    // The search behind the move, kept before the move is played (the worker's tree is still the
    // one that chose it): the views go on showing it, and the move list reaches it later.
    await keepSearch(`p${side}`, set.preset, s, out.result.move, out.stats.iterations);
    if (epoch !== myEpoch) return;
    // At the ply searched: refused (not played elsewhere) if the game moved on meanwhile.
    const next = await guarded(engine.play(out.result.move, s.view.ply));
    if (!next || epoch !== myEpoch) return;
    epoch++;
    show(next);
    await renderer?.settled();
    const bothEngines = sideSettings(0).who === 'engine' && sideSettings(1).who === 'engine';
    if (bothEngines) await new Promise((ok) => setTimeout(ok, ENGINE_PACE_MS));
    if (epoch === myEpoch + 1) maybeEngineMove();
  })();
}

async function playPerson(move: string): Promise<void> {
  const at = st().snapshot;
  if (!at) return;
  const myEpoch = epoch;
  try {
    // At the ply shown: a second click before the first move's answer is refused by the worker
    // (it would otherwise be played for the other side).
    const next = await engine.play(move, at.view.ply);
    if (epoch !== myEpoch) return;
    epoch++;
    showMessage('');
    show(next);
    await renderer?.settled();
    maybeEngineMove();
  } catch (e) {
    if (e instanceof EngineDied) return;
    if (board) {
      board.pending = null;
      redrawBoard();
    }
    // A stale click (the game moved on before its answer) is dropped without a word.
    if (e instanceof EngineError && e.message.startsWith('stale move')) return;
    showMessage(e instanceof EngineError ? `Refused: ${e.message}` : errText(e), 'error');
  }
}

function refuse(cell: number, why: string): void {
  if (!board) return;
  board.refused = { cell, serial: ++refusals };
  renderer?.update(board);
  showMessage(why, 'error');
}

function onCell(cell: number): void {
  const s = st().snapshot;
  if (!s || !board) return;
  const v = s.view;
  const name = cellName(cell, v.cols);
  board.cursor = cell;
  const r = st().review;
  if (r !== null) return refuse(cell, `Reviewing move ${r} (read-only): press “Back to live position” (Esc) to play.`);
  if (st().restoring) return refuse(cell, 'Wait: the engine is restarting.');
  if (s.outcome) return refuse(cell, 'The game is over: start a new game or undo.');
  if (search?.purpose === 'move') return refuse(cell, 'Wait: the engine is thinking (Stop makes it move now).');
  if (!personToMove()) return refuse(cell, 'It is the engine’s turn.');
  if (v.kind === 'pentago') {
    if (board.pending === cell) return onCancelPending();
    if (board.pending !== null) return refuse(cell, `First pick a twist for ${cellName(board.pending, 6)}, or press Escape.`);
    if (![...board.legal].some((m) => m.startsWith(`${name}-`))) return refuse(cell, `${name} is not empty.`);
    board.pending = cell;
    showMessage(`Now twist a quadrant (arrows by the board) to finish ${name}.`);
    redrawBoard();
    return;
  }
  if (!board.legal.has(name)) return refuse(cell, `${name} is not a legal move: the cell is taken.`);
  cancelHint();
  void playPerson(name);
}

function onTwist(q: Quadrant, dir: string): void {
  if (!board || board.pending === null) return;
  const mv = `${cellName(board.pending, 6)}-${q}-${dir}`;
  if (!board.legal.has(mv)) {
    showMessage(`${mv} is not legal here.`, 'error');
    return;
  }
  cancelHint();
  void playPerson(mv);
}

function onCancelPending(): void {
  if (!board || board.pending === null) return;
  board.pending = null;
  showMessage('');
  redrawBoard();
}

function cancelHint(): void {
  if (search?.purpose === 'hint') {
    search.handle.cancel();
    setSearch(null);
  }
  store.update({ hint: [] });
}

function stopSearch(): void {
  search?.handle.stop();
}

async function newGame(): Promise<void> {
  if (st().restoring) return;
  cancelAll();
  const choice = gameSel.value as GameChoice;
  const wanted = specOf(choice, Number(sizeSel.value), swapChk.checked);
  store.update({ review: null });
  epoch++;
  const myEpoch = epoch;
  try {
    const s = await engine.newGame(wanted, []);
    if (epoch !== myEpoch) return;
    showMessage('');
    readout.replaceChildren();
    show(s);
    maybeEngineMove();
  } catch (e) {
    if (e instanceof EngineDied) return;
    showMessage(`Cannot start ${wanted}: ${errText(e)}`, 'error');
  }
}

function cancelAll(): void {
  if (search) {
    search.handle.cancel();
    setSearch(null);
  }
  store.update({ hint: [] });
}

async function undo(): Promise<void> {
  if (st().restoring) return;
  cancelAll();
  // Only the last command's answer is shown: when Undo/Redo/a new game came after this one, its
  // answer (a later state of the worker's game) follows, and a search started on this one's would
  // run on a position the worker has left.
  const myEpoch = ++epoch;
  let s = await guarded(engine.undo());
  if (!s || epoch !== myEpoch) return;
  // Against the engine, step back to the person's turn.
  const p = s.view.to_move;
  if (p !== null && sideSettings(p).who === 'engine' && sideSettings((1 - p) as Player).who === 'person' && s.moves.length > 0) {
    s = (await guarded(engine.undo())) ?? s;
    if (epoch !== myEpoch) return;
  }
  if (sideSettings(0).who === 'engine' && sideSettings(1).who === 'engine') store.update({ paused: true });
  epoch++;
  show(s);
  maybeEngineMove();
}

async function redo(): Promise<void> {
  if (st().restoring) return;
  cancelAll();
  const myEpoch = ++epoch;
  let s = await guarded(engine.redo());
  if (!s || epoch !== myEpoch) return;
  const p = s.view.to_move;
  if (p !== null && sideSettings(p).who === 'engine' && s.redo.length > 0 && sideSettings((1 - p) as Player).who === 'person') {
    s = (await guarded(engine.redo())) ?? s;
    if (epoch !== myEpoch) return;
  }
  epoch++;
  show(s);
  maybeEngineMove();
}

function hint(override?: string, note = ''): void {
  const s = st().snapshot;
  if (!s || search || !personToMove() || s.view.to_move === null) return;
  const p = s.view.to_move;
  const other = sideSettings((1 - p) as Player);
  const preset = override ?? (other.who === 'engine' ? other.preset : sideSettings(p).preset);
  const handle = engineSearch({
    slot: 'hint',
    engine: { preset, params: teach.engineParams(p) },
    budget: HINT_BUDGET,
    onProgress: (pr) => showProgress(pr, 'Hint: thinking…', p),
  });
  const myEpoch = epoch;
  setSearch({ handle, purpose: 'hint', side: p, epoch: myEpoch });
  let fallback: string | null = null;
  void (async () => {
    const out = await guarded(handle.done, (e) => {
      // A network preset without a usable net: the hint comes from a net-free preset.
      if (override !== undefined || !(e instanceof EngineError) || !isNoNetError(e.message)) return false;
      fallback = netFreeFallback(st().presets);
      if (fallback) note = fallbackMessage(preset, s.view.spec, fallback, e.message);
      return fallback !== null;
    });
    if (runningSearch()?.handle === handle) setSearch(null);
    if (fallback && epoch === myEpoch) return hint(fallback, note);
    if (out && epoch === myEpoch && out.result.move) {
      const rate = out.result.winRate === null ? '' : ` (win rate ${winRate(out.result.winRate)})`;
      showMessage(`Hint: ${out.result.move}${rate}${note ? `. ${note}` : ''}`, note ? 'error' : 'info');
      showProgress(out.result, `Hint: ${out.result.move}`, p);
      store.update({ hint: [out.result.move] });
    }
  })();
}

// ---- wiring ---------------------------------------------------------------------------------

function syncGameControls(): void {
  hexOpts.hidden = gameSel.value !== 'hex';
}

gameSel.addEventListener('change', () => {
  syncGameControls();
  void newGame();
});
sizeSel.addEventListener('change', () => void newGame());
swapChk.addEventListener('change', () => void newGame());
newBtn.addEventListener('click', () => void newGame());
undoBtn.addEventListener('click', () => void undo());
redoBtn.addEventListener('click', () => void redo());
hintBtn.addEventListener('click', () => hint());
movesList.addEventListener('click', (ev) => {
  const b = (ev.target as Element).closest<HTMLElement>('button[data-ply]');
  if (b) setReview(st().review === Number(b.dataset.ply) ? null : Number(b.dataset.ply));
});
liveBtn.addEventListener('click', () => {
  setReview(null);
  boardHost.focus({ preventScroll: true });
});
// Escape or End returns to the live position from anywhere (a field keeps its own keys).
document.addEventListener('keydown', (ev) => {
  if (st().review === null || (ev.key !== 'Escape' && ev.key !== 'End')) return;
  if ((ev.target as HTMLElement).closest('input, select, textarea, [contenteditable]')) return;
  setReview(null);
  ev.preventDefault();
});
stopBtn.addEventListener('click', stopSearch);
workersSel.addEventListener('change', () => {
  const n = Math.max(1, Number(workersSel.value) || 1);
  store.update({ workers: n });
  if (n === 1) helperPool.clear();
  // Takes effect from the next search (a running one keeps its workers).
});
swapBtn.addEventListener('click', () => {
  if (board?.legal.has('swap') && personToMove() && !search) void playPerson('swap');
});
pauseBtn.addEventListener('click', () => {
  const paused = !st().paused;
  if (paused && search?.purpose === 'move') cancelAll();
  store.update({ paused });
  maybeEngineMove();
});
for (const p of [0, 1] as const) {
  const onChange = () => {
    commitSides();
    // New settings for a side that is thinking take effect at once: the search restarts with
    // them (the worker keeps the tree where the engine can), or stops if it is a person now.
    if (search && search.side === p && search.purpose === 'move') cancelAll();
    render();
    maybeEngineMove();
  };
  for (const c of [sides[p].who, sides[p].preset, sides[p].budget, sides[p].unit]) c.addEventListener('change', onChange);
}

boardHost.addEventListener('keydown', (ev) => {
  if (!board) return;
  switch (ev.key) {
    case 'ArrowUp':
    case 'ArrowDown':
    case 'ArrowLeft':
    case 'ArrowRight':
      board.cursor = moveCursor(board, ev.key);
      board.showCursor = true;
      redrawBoard();
      ev.preventDefault();
      return;
    case 'Enter':
    case ' ':
      if ((ev.target as Element).closest('[data-twist]')) return;
      board.showCursor = true;
      onCell(board.cursor);
      ev.preventDefault();
      return;
    case 'Escape':
      onCancelPending();
      return;
  }
});
boardHost.addEventListener('pointerdown', () => {
  if (board?.showCursor) {
    board.showCursor = false;
    redrawBoard();
  }
});

// ---- start ----------------------------------------------------------------------------------

function applyUrl(): void {
  const q = new URLSearchParams(location.search);
  const g = q.get('game');
  if (g) {
    const parts = g.toLowerCase().split(':');
    if (parts[0] === 'hex') {
      gameSel.value = 'hex';
      const n = Number(parts[1] ?? 11);
      if (HEX_SIZES.includes(n)) sizeSel.value = String(n);
      swapChk.checked = parts.includes('swap');
    } else if (parts[0] === 'tictactoe') gameSel.value = 'tictactoe';
    else if (parts[0] === 'pentago') gameSel.value = parts[1] === 'twist' ? 'pentago:twist' : 'pentago:official';
  }
  // The sides: p0, p1, preset, ms, playouts (and their per-side forms); the URL feature reports
  // what it could not use.
  store.update({ sides: parseSides(q, st().presets, st().sides).sides });
}

async function start(): Promise<void> {
  engine = startEngine();
  sizeSel.value = '7';
  sides[0].who.value = 'person';
  sides[1].who.value = 'engine';
  try {
    const hello = await engine.hello();
    store.update((s) => ({ presets: hello.presets, nets: { ...s.nets, netPresets: hello.netPresets, shipped: hello.nets } }));
    document.getElementById('version')!.textContent = `engine ${hello.version}`;
  } catch (e) {
    showMessage(`The engine did not start: ${errText(e)}`, 'error');
  }
  const presets = st().presets;
  const dflt = PREFERRED_PRESETS.find((p) => presets.includes(p)) ?? presets[0] ?? '';
  for (const p of [0, 1] as const) {
    sides[p].preset.replaceChildren(...presets.map((n) => option(n, n)));
    sides[p].preset.value = dflt;
    const engineOpt = sides[p].who.querySelector('option[value="engine"]') as HTMLOptionElement;
    if (presets.length === 0) {
      engineOpt.disabled = true;
      sides[p].who.value = 'person';
    }
  }
  workersSel.replaceChildren(...workerChoices().map((n) => option(String(n), n === 1 ? '1 (off)' : String(n))));
  workersSel.value = '1';
  commitSides();
  applyUrl();
  syncGameControls();
  await newGame();
  if (!st().snapshot) {
    // The chosen game could not start (e.g. not built in): fall back to Tic-Tac-Toe.
    const why = message.textContent;
    gameSel.value = 'tictactoe';
    syncGameControls();
    await newGame();
    if (why) showMessage(why, 'error');
  }
  if (presets.length === 0) showMessage('The search engine is not available in this build: person vs person only.', 'error');
  await teach.afterStart();
}

/** Hooks for the browser tests (the page never calls them). */
declare global {
  interface Window {
    __playground: {
      snapshot(): Snapshot | null;
      debugPanic(): Promise<void>;
      killWorker(): void;
      raw(message: unknown): Promise<Response>;
      /** Loads a user's net from its bytes, as the Load network button does. */
      loadNet(bytes: number[], name?: string): Promise<NetInfo | null>;
      /** Per kept search: its move number, tree nodes and bytes (play/searches.ts `entryBytes`). */
      searchBytes(): { ply: number; nodes: number; bytes: number }[];
    };
  }
}
window.__playground = {
  snapshot: () => st().snapshot,
  loadNet: (bytes: number[], name?: string) => loadUserNet(netsHooks, new Uint8Array(bytes).buffer, name),
  debugPanic: () => engine.debugPanic().catch(() => {}),
  killWorker: () => engine.terminate('the engine worker was terminated (test hook)'),
  searchBytes: () => st().searches.map((e) => ({ ply: e.summary.ply, nodes: e.tree?.count ?? 0, bytes: entryBytes(e) })),
  raw: (m: unknown) =>
    new Promise<Response>((ok) => {
      engine.onRaw = (r) => {
        engine.onRaw = null;
        ok(r);
      };
      engine.postRaw(m);
    }),
};

// ---- networks: the Players box's network line, the preset lists' labels ----
const netsHooks: NetsHooks = { store, engine: () => engine, showMessage };
sides[1].row.after(mountNetControls(netsHooks, () => st().snapshot?.view.spec ?? null));
store.subscribe((s, prev) => {
  if (s.nets === prev.nets && s.presets === prev.presets && s.snapshot?.view.spec === prev.snapshot?.view.spec) return;
  for (const p of [0, 1] as const) labelPresetOptions(sides[p].preset, s.nets, s.snapshot?.view.spec ?? null);
});

// ---- visualisation: overlays, tree views, comparison, arena ----
mountVisualisation({
  store,
  snapshot: () => st().snapshot,
  presets: () => st().presets,
  engine: () => engine,
  loadGame,
  showMessage,
});

// ---- records and embedding: URL state, embed mode, records, lessons ----

/** Selects the game controls that `newGame` reads for `wanted` (a normalised spec). */
function selectSpec(wanted: string): void {
  const parts = wanted.toLowerCase().split(':');
  if (parts[0] === 'hex') {
    gameSel.value = 'hex';
    if (HEX_SIZES.includes(Number(parts[1]))) sizeSel.value = String(Number(parts[1]));
    swapChk.checked = parts.includes('swap');
  } else if (parts[0] === 'tictactoe') gameSel.value = 'tictactoe';
  else if (parts[0] === 'pentago') gameSel.value = parts[1] === 'twist' ? 'pentago:twist' : 'pentago:official';
  syncGameControls();
}

/** Loads a game and moves (checked by the engine); on error the message names the bad move and
 * the page keeps what it had. */
async function loadGame(wanted: string, moves: string[]): Promise<LoadResult> {
  const failed = (reason: string): LoadResult => ({
    ok: false,
    reason,
    message: cannotLoadMessage(wanted, moves, reason),
  });
  if (st().restoring) return failed('the engine is restarting');
  cancelAll();
  store.update({ review: null });
  epoch++;
  const myEpoch = epoch;
  try {
    const s = await engine.newGame(wanted, moves);
    if (epoch !== myEpoch) return failed('another game was started meanwhile');
    selectSpec(s.view.spec);
    readout.replaceChildren();
    show(s);
    maybeEngineMove();
    return { ok: true };
  } catch (e) {
    if (e instanceof EngineDied) return failed(e.message);
    const r = failed(errText(e));
    if (!r.ok) showMessage(r.message, 'error');
    return r;
  }
}

teach.bind({
  store,
  snapshot: () => st().snapshot,
  presets: () => st().presets,
  engine: () => engine,
  sides: () => st().sides,
  setPaused: (paused: boolean) => store.update({ paused }),
  busy: () => search !== null || st().restoring,
  showMessage,
  loadGame,
  play: (m: string) => playPerson(m),
  wake: () => maybeEngineMove(),
  boardElement: () => renderer?.element ?? null,
});

void start();
