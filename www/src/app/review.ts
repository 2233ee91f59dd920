// Review: the search behind a move played. Clicking a move with a kept search shows the position
// before it, read-only, with the move marked; the review bar says what is shown and, when the
// exact solver took that position, whether the move was a winning one. Esc, End or "Back to live
// position" return to the game.

import { playerName } from '../board';
import { solveUnavailable } from '../overlay/solve-controller';
import { reviewVerdict as verdictOf } from '../overlay/verdict';
import { mountGameReview } from '../review/view';
import { behindLabel, searchBehind, type MoveSearch } from '../play/searches';
import { movesKey } from '../state';
import { type App, st } from './context';

/** The search of the move being reviewed (undefined: the live position). */
export function reviewedSearch(app: App): MoveSearch | undefined {
  const { review, snapshot: s, searches } = st(app);
  if (review === null || !s) return undefined;
  return searchBehind(searches, s.view.spec, s.moves, review);
}

/** Reviews move `n` (1-based; null: back to the live position). */
export function setReview(app: App, n: number | null): void {
  const s = st(app).snapshot;
  if (n !== null && (!s || !searchBehind(st(app).searches, s.view.spec, s.moves, n))) return;
  if (app.board) app.board.pending = null;
  app.store.update({ review: n });
}

/** The review bar: what is shown, and the exact solver's verdict on the move played. */
export function drawReview(app: App, reviewed: MoveSearch | undefined): void {
  const { reviewBar, reviewText, reviewVerdict } = app.ui;
  reviewBar.hidden = !reviewed;
  if (!reviewed) return;
  const gone = reviewed.stats
    ? ''
    : reviewed.fromRecord
      ? reviewed.fromLink
        ? ' (from the link: root statistics only)'
        : ' (from the loaded record: root statistics only)'
      : ' (its tree is gone: only the last 200 engine moves keep theirs)';
  reviewText.textContent = `Reviewing move ${reviewed.summary.ply} (${reviewed.summary.move}): the position before it, read-only. ${behindLabel(reviewed.summary)}${gone}.`;
  // The exact solver's verdict on the move played, from the values of the position before it
  // (never those of another position); nothing for a position the solver does not take.
  const v = reviewed.view;
  const exact = st(app).exact;
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

/** The review's inputs: the move list's buttons, Back to live position, Esc / End; and a move
 * that is no longer in the game (undo, another game) ends the review. */
export function bindReview(app: App): void {
  const { movesList, liveBtn, boardHost } = app.ui;
  app.store.subscribe((s, prev) => {
    if (s.review === null || (s.snapshot === prev.snapshot && s.searches === prev.searches)) return;
    if (!reviewedSearch(app)) app.store.update({ review: null });
  });
  movesList.addEventListener('click', (ev) => {
    const b = (ev.target as Element).closest<HTMLElement>('button[data-ply]');
    if (b) setReview(app, st(app).review === Number(b.dataset.ply) ? null : Number(b.dataset.ply));
  });
  liveBtn.addEventListener('click', () => {
    setReview(app, null);
    boardHost.focus({ preventScroll: true });
  });
  // Escape or End returns to the live position from anywhere (a field keeps its own keys).
  document.addEventListener('keydown', (ev) => {
    if (st(app).review === null || (ev.key !== 'Escape' && ev.key !== 'End')) return;
    if ((ev.target as HTMLElement).closest('input, select, textarea, [contenteditable]')) return;
    setReview(app, null);
    ev.preventDefault();
  });
}

/** The "Game review" section (review/view.ts) under the board: its graph and its mistake steps
 * show a position through `setReview` (a move whose search was not kept cannot be shown). */
export function bindGameReview(app: App): void {
  const section = mountGameReview({
    store: app.store,
    goTo: (n) => {
      setReview(app, n);
      return st(app).review === n;
    },
  });
  app.ui.help.after(section);
}
