// What the game's controller offers a lesson (lessons/catalogue.ts names): the game's states (the
// moves played, the hint, the review, Pentago's pending placement and twist preview), its intents
// (review a move, back to live, Hint, a click on a cell or a twist) and its targets (the board,
// Pentago's twist buttons and quadrants, the move list). Each intent calls what the page's own
// input calls; one the page would refuse now says why.

import { cellName, parseCell, QUADRANTS, type Quadrant } from '../board';
import { searchBehind } from '../play/searches';
import { type App, st } from './context';
import { hint } from './hint';
import { setReview } from './review';

const str = (v: unknown) => (typeof v === 'string' ? v : String(v));

/** A cell of the game's board by name, or an error naming it. */
function cellOf(app: App, name: string): number {
  const v = st(app).snapshot?.view;
  if (!v) throw new Error('there is no game on the board yet');
  const cell = parseCell(name, v.rows, v.cols);
  if (cell === null) throw new Error(`${name} is not a cell of this board`);
  return cell;
}

export function bindLessons(app: App): void {
  const b = app.lessons;
  b.watch(app.store);
  b.state('game.moves', () => st(app).snapshot?.moves.length ?? 0);
  b.state('game.hints', () => st(app).hint.length);
  b.state('review', () => st(app).review);
  b.state('review.moves', () => {
    const { snapshot: s, searches } = st(app);
    if (!s) return [];
    return s.moves.map((_, i) => i + 1).filter((n) => searchBehind(searches, s.view.spec, s.moves, n));
  });
  b.state('board.pending', () => {
    const p = app.board?.pending ?? null;
    const cols = st(app).snapshot?.view.cols;
    return p === null || cols === undefined ? null : cellName(p, cols);
  });
  b.state('board.preview', () => app.renderer?.previewing?.() ?? null);
  app.boardEvents.onPreview = () => b.changed();

  b.intent('review.open', (a) => {
    const n = Number(a.move);
    const s = st(app).snapshot;
    if (!s || !searchBehind(st(app).searches, s.view.spec, s.moves, n)) throw new Error(`move ${n} has no kept search to review`);
    setReview(app, n);
  });
  b.intent('review.live', () => setReview(app, null));
  b.intent('game.hint', () => {
    if (app.ui.hintBtn.disabled) throw new Error('Hint is not available now (it is not a person’s turn, or the engine is busy)');
    hint(app);
  });
  b.intent('game.playHint', () => {
    const m = st(app).hint[0];
    if (m === undefined) throw new Error('no hint is shown on the board');
    app.boardEvents.onCell(cellOf(app, m));
  });
  b.intent('board.place', (a) => app.boardEvents.onCell(cellOf(app, str(a.cell))));
  b.intent('board.twist', (a) => {
    const [q, dir] = str(a.twist).split('-');
    if (!QUADRANTS.includes(q as Quadrant) || !dir) throw new Error(`"${str(a.twist)}" is not a twist (e.g. TL-cw)`);
    app.boardEvents.onTwist(q as Quadrant, dir);
  });
  b.intent('board.previewTwist', (a) => {
    if (!app.renderer?.focusTwist?.(str(a.twist))) throw new Error(`no twist button ${str(a.twist)} is shown on the board`);
  });

  b.target('board', () => app.ui.boardHost);
  b.target('board.twists', () => app.renderer?.part?.('twists') ?? null);
  for (const q of QUADRANTS) b.target(`board.quadrant.${q}`, () => app.renderer?.part?.(q) ?? null);
  b.target('game.moves', () => app.ui.movesList);
}
