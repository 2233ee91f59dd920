// The play view's drawing: a new snapshot from the engine goes into the store (with a new board
// renderer when the game changed), and every change of the state redraws the board, the panel
// and the Players controls, and mirrors a few fields onto <body> for the browser tests and CSS.

import { initialState } from '../board';
import { cellOfMove, createRenderer } from '../games';
import { drawPanel, showProgress as showProgressIn } from '../play/panel';
import type { Player, SearchProgress, Snapshot } from '../protocol';
import { learnMarks } from '../review/learn';
import { plyMark } from '../review/marks';
import { type PageState, personToMove } from '../state';
import { type App, st } from './context';
import { drawReview, reviewedPosition } from './review';

/** Takes a new snapshot from the engine: a new renderer when the game changed, then the store
 * (whose listeners draw the board, the panel and the features). */
export function show(app: App, s: Snapshot): void {
  const prev = st(app).snapshot;
  const v = s.view;
  if (!app.renderer || app.rendererKey !== v.spec || !app.board) {
    app.renderer = createRenderer(v, app.boardEvents);
    app.rendererKey = v.spec;
    app.ui.boardHost.replaceChildren(app.renderer.element);
    app.board = initialState(v);
  }
  const newPosition = prev?.view.ply !== v.ply;
  if (newPosition) app.board.pending = null;
  app.store.update(newPosition ? { snapshot: s, hint: [] } : { snapshot: s });
}

/** Whether the board takes a move now: a person's turn in the live position (the engine not
 * thinking of a move), or any move in a position looked at (it starts a variation). */
function interactive(app: App): boolean {
  const state = st(app);
  if (state.review !== null) {
    const pos = reviewedPosition(app);
    return !state.restoring && !!pos?.shown && pos.shown.view.to_move !== null;
  }
  return personToMove(state) && app.search?.purpose !== 'move';
}

/** Draws the board and the panel from the state. */
export function render(app: App): void {
  const { snapshot: s, hint } = st(app);
  const { renderer, board } = app;
  if (!renderer || !board || !s) return;
  const pos = reviewedPosition(app);
  drawPanel(app.ui, st(app));
  drawReview(app, pos);
  // Looking at move N: the position before it, with the move that was played marked (kept as it
  // was until the worker has said what that position looks like).
  if (pos && !pos.shown) return;
  const v = pos?.shown?.view ?? s.view;
  board.view = v;
  board.legal = new Set(pos?.shown?.legal ?? s.legal);
  board.interactive = interactive(app);
  const marked = learnMarks(st(app)) ?? (pos ? [pos.move] : hint);
  board.hint = marked.map((m) => cellOfMove(v, m)).filter((c): c is number => c !== null);
  // The game review's glyph on the last-move marker, for the main-line move that led to the
  // position shown.
  board.lastMark = lastMoveMark(app, pos ? pos.before : s.moves);
  renderer.update(board);
  document.body.dataset.shownPly = String(v.ply);
  if (app.firstPlayable && board.interactive && !pos) {
    app.firstPlayable = false;
    document.body.dataset.readyMs = performance.now().toFixed(0);
  }
}

/** The review's mark of the last move of `line` when the game review covers it (a main-line
 * move of the game reviewed). */
function lastMoveMark(app: App, line: readonly string[]): ReturnType<typeof plyMark> | null {
  const report = st(app).gameReview?.report;
  if (!report || line.length === 0 || line.length > report.plies.length) return null;
  if (!line.every((m, i) => report.moves[i] === m)) return null;
  return plyMark(report.plies[line.length - 1]!);
}

/** Redraws the board alone (the cursor, a pending Pentago stone, a refusal). */
export function redrawBoard(app: App): void {
  if (app.renderer && app.board && st(app).snapshot) {
    app.board.interactive = interactive(app);
    app.renderer.update(app.board);
  }
  // Pentago's pending placement is the board's own state, not the store's.
  app.lessons.changed();
}

/** The engine readout: playouts, speed, best move, win rate for `side`, the line. */
export function showProgress(app: App, p: SearchProgress, label: string, side: Player): void {
  showProgressIn(app.ui, st(app).snapshot, p, label, side);
}

// The state on <body> as `data-*` attributes, for the browser tests and the CSS (the page never
// reads them back).
function reflect(s: PageState): void {
  const b = document.body.dataset;
  b.view = s.view;
  if (!s.snapshot) return;
  b.game = s.snapshot.view.spec;
  b.kind = s.snapshot.view.kind;
  b.ply = String(s.snapshot.view.ply);
  b.over = s.snapshot.outcome ? 'true' : 'false';
  b.thinking = s.thinking?.purpose ?? '';
  b.review = s.review === null ? '' : String(s.review);
}

/** The Players controls show the state's sides. */
function drawSides(app: App, s: PageState): void {
  for (const p of [0, 1] as const) {
    const set = s.sides[p];
    const c = app.ui.sides[p];
    c.who.value = set.who;
    c.preset.value = set.preset;
    c.unit.value = set.budgetKind;
    c.budget.value = String(set.budgetValue);
  }
}

/** The board, the panel and <body> follow every change of the state. */
export function bindBoard(app: App): void {
  app.store.subscribe(reflect);
  app.store.subscribe((s, prev) => {
    if (s.sides !== prev.sides) drawSides(app, s);
  });
  app.store.subscribe(() => render(app));
  reflect(st(app));
}
