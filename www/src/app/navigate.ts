// The analysis board's navigation: the move list's buttons (any line of the game's tree), ← → Home
// End, the game graph. A move played while an earlier move is looked at that differs from the
// game's starts a variation: the game goes on in it, the old line stays in the tree (state
// `gameTree`, play/tree.ts, which follows the live line), and the move list shows both (promote,
// delete). Esc, End or "Back to live position" return to the live position. Going to another line
// loads it into the game's worker and holds the engine there (as Back does) until a person moves
// or Resume.

import { addContinuation, addLine, deleteVariation, fullLine, inTree, mainPrefix, promote, singleLine } from '../play/tree';
import { movesKey } from '../state';
import { type App, showMessage, st } from './context';
import { loadGame } from './game';
import { fetchReviewView, reviewedPosition, setReview, stepReview } from './review';

/** Holds the engine (as Back does, share/hooks.ts): a line looked at is not played on by it until
 * a person moves or Resume. Engine against engine is paused. */
function hold(app: App): void {
  const sides = st(app).sides;
  // Between two people there is no engine to hold (and no Resume to offer).
  if (!st(app).paused && sides.some((x) => x.who === 'engine')) app.store.update({ paused: true });
}

/** Looks at the last move of `line` (a line of the game's tree): on the live line at once, else
 * the game goes over to the tree's whole line through it (the engine held there). */
export async function showLine(app: App, line: readonly string[], atEnd = false): Promise<void> {
  const s = st(app).snapshot;
  const tree = st(app).gameTree;
  if (!s) return;
  const onLive = line.length <= s.moves.length && line.every((m, i) => s.moves[i] === m);
  showMessage(app, '');
  if (!onLive) {
    const whole = tree ? fullLine(tree, line) : [...line];
    hold(app);
    const r = await loadGame(app, s.view.spec, whole, { keepTree: true });
    if (!r.ok) return;
  }
  setReview(app, atEnd || line.length === 0 ? (line.length === 0 ? 1 : null) : line.length);
}

/** Looks at position `k` of the main line (after `k` moves; its end: the main line's live end). */
export async function showMainPosition(app: App, k: number | null): Promise<void> {
  const tree = st(app).gameTree;
  const s = st(app).snapshot;
  if (!tree || !s) return;
  const main = tree.moves;
  if (k === null || k >= main.length) {
    const liveIsMain = s.moves.length === main.length && mainPrefix(tree, s.moves) === main.length;
    if (!liveIsMain) {
      hold(app);
      const r = await loadGame(app, s.view.spec, [...main], { keepTree: true });
      if (!r.ok) return;
    }
    setReview(app, null);
    return;
  }
  await showLine(app, main.slice(0, k + 1));
}

/** A move played on the board while move `n` is looked at: the game's own move steps forward; a
 * move of the tree goes to its line; another starts a variation, and the game goes on in it. */
export async function playAtReview(app: App, move: string): Promise<void> {
  const pos = reviewedPosition(app);
  const s = st(app).snapshot;
  if (!pos || !s) return;
  if (move === pos.move) return stepReview(app, 1);
  const line = [...pos.before, move];
  const tree = st(app).gameTree;
  if (tree && inTree(tree, line)) {
    // Already a variation: go there and look at the position after the move.
    const whole = fullLine(tree, line);
    hold(app);
    const r = await loadGame(app, pos.spec, whole, { keepTree: true });
    if (r.ok) setReview(app, whole.length > line.length ? line.length + 1 : null);
    return;
  }
  // A new variation: a person's move ends the hold (as playPerson does; engine against engine
  // stays paused until Resume).
  const sides = st(app).sides;
  if (st(app).paused && !(sides[0].who === 'engine' && sides[1].who === 'engine')) app.store.update({ paused: false });
  app.explicitVariation = movesKey(pos.spec, line);
  const r = await loadGame(app, pos.spec, line, { keepTree: true });
  if (r.ok)
    showMessage(app, `A variation: ${move} instead of ${pos.move} at move ${pos.n}; the game goes on in it (the move list keeps both).`);
}

/** Makes the variation the live line is in the main line at its branch (one level). */
export function promoteLive(app: App): void {
  const { gameTree: tree, snapshot: s } = st(app);
  if (!tree || !s) return;
  const next = promote(tree, s.moves);
  if (next !== tree) app.store.update({ gameTree: next });
}

/** Deletes the variation the live line is in; the game goes back to the line it left, looking at
 * the move where it branched. */
export async function deleteLive(app: App): Promise<void> {
  const { gameTree: tree, snapshot: s } = st(app);
  if (!tree || !s) return;
  const d = deleteVariation(tree, s.moves);
  if (!d) return;
  app.store.update({ gameTree: d.tree });
  const whole = fullLine(d.tree, d.at);
  hold(app);
  const r = await loadGame(app, s.view.spec, whole, { keepTree: true });
  if (r.ok) setReview(app, whole.length > d.at.length ? d.at.length + 1 : null);
}

/** The tree follows the live line: a line it does not hold is added; a game of another spec
 * starts a new tree. Where the line leaves the tree, a move played on the board at an earlier move
 * (the analysis board) starts a variation; a move played in the game after Undo (a take-back, the
 * teaching game's too) becomes its line's own continuation there, the line taken back a variation
 * — so the main line stays the game as it was played, and Review game reviews that. */
function followTree(app: App): void {
  const { snapshot: s, gameTree: tree } = st(app);
  if (!s) return;
  const explicit = app.explicitVariation === movesKey(s.view.spec, s.moves);
  app.explicitVariation = null;
  if (!tree || tree.spec !== s.view.spec) {
    app.store.update({ gameTree: singleLine(s.view.spec, s.moves) });
    return;
  }
  const next = explicit ? addLine(tree, s.moves) : addContinuation(tree, s.moves);
  if (next !== tree) app.store.update({ gameTree: next });
}

/** Whether a key press belongs to a field (which keeps its own keys). */
function inField(target: EventTarget | null): boolean {
  return !!(target as HTMLElement | null)?.closest?.('input, select, textarea, [contenteditable]');
}

/** Whether an arrow key belongs to a control that uses it: a field, the board (its cursor), a
 * slider or a tab list. */
function ownArrows(target: EventTarget | null): boolean {
  return inField(target) || !!(target as HTMLElement | null)?.closest?.('#board, [role="slider"], [role="tablist"]');
}

/** The analysis board's inputs: the move list's buttons, the variation buttons, Back to live
 * position, ← → Home End Esc; the tree and the reviewed position's picture follow the game. */
export function bindReview(app: App): void {
  const { movesList, liveBtn, boardHost } = app.ui;
  app.store.subscribe((s, prev) => {
    if (s.snapshot !== prev.snapshot) followTree(app);
    if (s.review !== null && s.snapshot !== prev.snapshot && (!s.snapshot || s.review > s.snapshot.moves.length)) {
      app.store.update({ review: null });
      return;
    }
    if (s.review !== prev.review || s.snapshot !== prev.snapshot || s.searches !== prev.searches) fetchReviewView(app);
  });
  movesList.addEventListener('click', (ev) => {
    const target = ev.target as Element;
    const action = target.closest<HTMLElement>('button[data-variation]');
    if (action) {
      if (action.dataset.variation === 'promote') promoteLive(app);
      else void deleteLive(app);
      return;
    }
    const b = target.closest<HTMLElement>('button[data-line]');
    if (!b) return;
    const line = (b.dataset.line ?? '').split(' ').filter(Boolean);
    const s = st(app).snapshot;
    const n = line.length;
    // A second click on the move looked at returns to the live position.
    const onLive = !!s && n <= s.moves.length && line.every((m, i) => s.moves[i] === m);
    if (onLive && st(app).review === n) setReview(app, null);
    else void showLine(app, line);
  });
  liveBtn.addEventListener('click', () => {
    setReview(app, null);
    boardHost.focus({ preventScroll: true });
  });
  // ← → Home End step through the game, Escape and End return to the live position, from
  // anywhere but a field or the board (whose arrow keys move its cursor). On `window`, after
  // every handler on the document: one that took the key (the step-through's ← →) has it.
  window.addEventListener('keydown', (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.defaultPrevented) return;
    if (st(app).view !== 'play' || !st(app).snapshot) return;
    const key = ev.key;
    if (key === 'Escape' || key === 'End') {
      if (st(app).review === null || inField(ev.target)) return;
      setReview(app, null);
    } else if (key === 'ArrowLeft' || key === 'ArrowRight') {
      if (ownArrows(ev.target)) return;
      stepReview(app, key === 'ArrowLeft' ? -1 : 1);
    } else if (key === 'Home') {
      if (inField(ev.target) || !st(app).snapshot?.moves.length) return;
      setReview(app, 1);
    } else return;
    ev.preventDefault();
  });
}
