// The URL parameters the page reads (the book, docs/teach/teaching.md), in one list: `share/hooks.ts` names
// any other parameter as unknown, and `<mcts-playground>` (embed/element.ts) passes its attributes
// of these names into the embedded page's URL. No imports, so the embed script stays small.

/** Every URL parameter the page understands. */
export const URL_PARAMS = [
  'game',
  'moves',
  'p0',
  'p1',
  'preset',
  'ms',
  'playouts',
  'preset0',
  'preset1',
  'ms0',
  'ms1',
  'playouts0',
  'playouts1',
  'seed',
  // The root statistics of the searches behind moves (share/url.ts `formatSearches`).
  'searches',
  // The position looked at on the analysis board: after `ply` moves of the game.
  'ply',
  'view',
  'overlays',
  'panes',
  'pane1',
  'pane2',
  'pane3',
  'pane4',
  'cmpgame',
  'cmpmoves',
  'cmpbudget',
  'cmpseed',
  'cmpseeds',
  'cmpmode',
  'cmprun',
  // Review game on load, its budget per position and seed (share/url.ts `parseReviewLink`).
  'review',
  'reviewplayouts',
  'reviewms',
  'reviewseed',
  'lesson',
  // The teaching game: off, inaccuracy, mistake or blunder (review/judge.ts `TEACH_LEVELS`).
  'teach',
  'show',
  'id',
  'embed',
  'origin',
  // Origins allowed to command an embed and receive its events (embed/commands.ts).
  'allowed-origins',
] as const;

/** The parameters an embedding element passes from its attributes (`embed` and `origin` it sets itself). */
export const EMBED_PARAMS: readonly string[] = URL_PARAMS.filter((k) => k !== 'embed' && k !== 'origin');
