// The analysis board's position looked at: every move of the game's line can be looked at (the
// move list, ← → Home End, the game graph). Looking at move N shows the position before it, with
// the move marked, and — when the search that chose it was kept — the views of that search; the
// review bar says what is shown and, when the exact solver took that position, whether the move
// was a winning one. Going to other lines of the game's tree is app/navigate.ts.

import { playerName } from '../games';
import { solveUnavailable } from '../overlay/solve-controller';
import { reviewVerdict as verdictOf } from '../overlay/verdict';
import { behindLabel, searchBehind, type MoveSearch } from '../play/searches';
import { movesKey } from '../state';
import { type App, guarded, st } from './context';

/** The search of the move being reviewed (undefined: the live position, or none was kept). */
export function reviewedSearch(app: App): MoveSearch | undefined {
  const { review, snapshot: s, searches } = st(app);
  if (review === null || !s) return undefined;
  return searchBehind(searches, s.view.spec, s.moves, review);
}

/** The position before the reviewed move: its moves from the start, the move played there, and
 * its picture once known (null: not reviewing). */
export interface ReviewedPosition {
  spec: string;
  /** 1-based number of the move looked at. */
  n: number;
  before: string[];
  move: string;
  search: MoveSearch | undefined;
  /** Its picture and legal moves (null until the worker answered). */
  shown: { view: import('../protocol').BoardView; legal: readonly string[] } | null;
}

export function reviewedPosition(app: App): ReviewedPosition | null {
  const { review, snapshot: s, reviewView } = st(app);
  if (review === null || !s || review > s.moves.length) return null;
  const before = s.moves.slice(0, review - 1);
  const key = movesKey(s.view.spec, before);
  return {
    spec: s.view.spec,
    n: review,
    before,
    move: s.moves[review - 1]!,
    search: reviewedSearch(app),
    shown: reviewView?.key === key ? reviewView : null,
  };
}

/** Looks at move `n` of the live line (1-based; null: back to the live position). */
export function setReview(app: App, n: number | null): void {
  const s = st(app).snapshot;
  if (n !== null && (!s || !Number.isInteger(n) || n < 1 || n > s.moves.length)) return;
  if (app.board) app.board.pending = null;
  app.store.update({ review: n });
}

/** Steps `delta` positions along the live line (the live position is the last). */
export function stepReview(app: App, delta: number): void {
  const s = st(app).snapshot;
  if (!s) return;
  const len = s.moves.length;
  const cur = st(app).review ?? len + 1;
  const next = Math.min(len + 1, Math.max(1, cur + delta));
  setReview(app, next === len + 1 ? null : next);
}

/** The review bar: what is shown, and the exact solver's verdict on the move played. */
export function drawReview(app: App, pos: ReviewedPosition | null): void {
  const { reviewBar, reviewText, reviewVerdict } = app.ui;
  // While learning from mistakes its card says what is shown.
  reviewBar.hidden = !pos || st(app).learn !== null;
  if (!pos) return;
  const reviewed = pos.search;
  const gone = !reviewed
    ? ''
    : reviewed.stats
      ? ''
      : reviewed.fromRecord
        ? reviewed.fromLink
          ? ' (from the link: root statistics only)'
          : ' (from the loaded record: root statistics only)'
        : ' (its tree is gone: only the last 200 engine moves keep theirs)';
  const behind = reviewed ? ` ${behindLabel(reviewed.summary)}${gone}.` : '';
  reviewText.textContent = `Reviewing move ${pos.n} (${pos.move}): the position before it.${behind} A move played here starts a variation.`;
  // The exact solver's verdict on the move played, from the values of the position before it
  // (never those of another position); nothing for a position the solver does not take.
  const v = pos.shown?.view;
  const exact = st(app).exact;
  const mover = (pos.before.length % 2) as 0 | 1;
  const verdict =
    !v || solveUnavailable({ view: v, outcome: null })
      ? null
      : verdictOf(
          pos.move,
          playerName(v.kind, mover),
          playerName(v.kind, mover === 0 ? 1 : 0),
          exact?.key === movesKey(pos.spec, pos.before) ? exact : null,
        );
  reviewVerdict.hidden = !verdict;
  reviewVerdict.textContent = verdict?.text ?? '';
  reviewVerdict.dataset.verdict = verdict?.state ?? '';
}

/** Fetches the picture of the reviewed position from the game's worker (or takes the kept
 * search's) into the state's `reviewView`. */
export function fetchReviewView(app: App): void {
  const { review, snapshot: s, reviewView } = st(app);
  if (review === null || !s || review > s.moves.length) {
    if (reviewView) app.store.update({ reviewView: null });
    return;
  }
  const before = s.moves.slice(0, review - 1);
  const key = movesKey(s.view.spec, before);
  if (reviewView?.key === key) return;
  const e = searchBehind(st(app).searches, s.view.spec, s.moves, review);
  if (e) {
    app.store.update({ reviewView: { key, view: e.view, legal: e.legal } });
    return;
  }
  void guarded(app, app.engine.viewPosition(s.view.spec, before)).then((snap) => {
    if (!snap) return;
    const now = st(app);
    if (now.review === null || !now.snapshot || movesKey(now.snapshot.view.spec, now.snapshot.moves.slice(0, now.review - 1)) !== key)
      return;
    app.store.update({ reviewView: { key, view: snap.view, legal: snap.legal } });
  });
}
