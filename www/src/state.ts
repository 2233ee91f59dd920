// The page's one state, owned by the app (main.ts, app/) and shared with the features through a store
// (lib/store.ts): features read it, subscribe to it, and change it through `update`, never
// through attributes on <body>. (app/board.ts mirrors a few fields onto <body> as `data-*` attributes
// for the browser tests and the CSS; nothing in the page reads them back.)

import { PANE_PARAMS } from './lib/pane-params';
import { createStore, type Store } from './lib/store';
import type {
  BoardView,
  Budget,
  FullStats,
  NetInfo,
  Player,
  ShippedNet,
  Snapshot,
  SolveEnd,
  ExactValue,
  SolveMoveValue,
  TreeSnapshot,
  Variation,
} from './protocol';
import type { TeachLevel } from './review/judge';
import type { ReviewPly, ReviewReport } from './review/report';

/** Who plays a side. */
export type Who = 'person' | 'engine';

/** One side's settings as the Players box shows them. */
export interface SideSettings {
  who: Who;
  /** The engine's preset name (`uct`, `rave`, ...). */
  preset: string;
  budgetKind: Budget['kind'];
  /** Milliseconds or playouts per move, a positive integer. */
  budgetValue: number;
}

/** The page's views (tabs; the URL's `#hash` and `view=`). */
export const VIEWS = ['play', 'compare', 'arena', 'train'] as const;
export type View = (typeof VIEWS)[number];

/** The board overlays (analysis), in the order of their toggles and of the URL's `overlays=`.
 * `exact`: the exact solver's values of the root moves (the Solve control). */
export const OVERLAY_KEYS = ['visits', 'q', 'amaf', 'proven', 'pv', 'prior', 'exact'] as const;
export type OverlayKey = (typeof OVERLAY_KEYS)[number];

/** A compare pane's fields as typed (blank: the preset's value / the common budget). */
export const PANE_KEYS = ['preset', ...PANE_PARAMS, 'budget'] as const;
export type PaneKey = (typeof PANE_KEYS)[number];
export type PaneFields = Partial<Record<PaneKey, string>>;

/** The Compare view's form: the position, the budget mode, the common budget and seed, and one
 * entry per pane (2 to 4), all as typed. */
export interface CompareSettings {
  game: string;
  moves: string;
  /** Equal playouts (`playouts`, the default: every pane searches the same number of playouts) or
   * equal time (`millis`: every pane searches for the same milliseconds). */
  mode: CompareMode;
  /** The common budget, in the mode's unit (playouts or milliseconds). */
  budget: string;
  seed: string;
  /** Seeds each pane runs (`1`, or `8`: the seed and the next ones, for the spread of when each
   * found its move; URL `cmpseeds=`); absent: 1. */
  seeds?: string;
  panes: PaneFields[];
  /** Set by a shared link (`cmprun=1`): run the panes once the form is filled; never written back. */
  run?: boolean;
}

/** How the Compare panes share their budget: equal playouts or equal time (URL `cmpmode=playouts|ms`). */
export type CompareMode = 'playouts' | 'millis';

export interface PageState {
  /** The two sides' settings (the Players box, the URL's p0, p1, preset, ms, playouts...). */
  sides: readonly [SideSettings, SideSettings];
  /** The game as the page shows it (null before the engine's first answer). */
  snapshot: Snapshot | null;
  /** The engine's preset names (empty until it said hello, or in a build without search). */
  presets: string[];
  /** What the game's engine is doing: searching a move for `side`, a hint for `side`, or nothing. */
  thinking: { purpose: 'move' | 'hint'; side: Player } | null;
  /** Engine against engine is paused. */
  paused: boolean;
  /** A new engine worker is being given the game after the old one died: the page waits. */
  restoring: boolean;
  /** Workers for the game's engine searches (moves and hints): 1 (the default) is the one
   * worker, reproducible for a seed; more is a root-parallel search (`parallel.ts`). */
  workers: number;
  /** The open view. */
  view: View;
  /** Moves the last hint suggested (shown on the board until the position changes). */
  hint: string[];
  /** The board overlays switched on, in `OVERLAY_KEYS` order. */
  overlays: readonly OverlayKey[];
  /** The Compare view's form (null until the view is mounted). */
  compare: CompareSettings | null;
  /** The searches behind the moves played (play/searches.ts), oldest first. */
  searches: SearchLog;
  /** The move looked at on the analysis board (1-based move number of the live line,
   * `snapshot.moves`: the board shows the position before it, with the move marked, and the views
   * the search that chose it when one was kept; a move played there starts a variation), or null
   * for the live position. Every move of the line can be looked at. */
  review: number | null;
  /** What the position before the reviewed move looks like (from the worker's `viewPosition`,
   * or the kept search's), once known; null while not reviewing or not yet known. `key`:
   * `movesKey` of that position. */
  reviewView: { key: string; view: BoardView; legal: readonly string[] } | null;
  /** The game review (Review game: every position of the main line searched, and solved where
   * the solver reaches) as far as it has got, or null: `report` once every position is done,
   * `done` of `total` positions meanwhile (review/report.ts). */
  gameReview: GameReviewState | null;
  /** The networks (play/nets.ts): which presets need one, the nets shipped with the page, and the
   * nets the user loaded (e.g. trained in the page), which replace the shipped net of their game
   * in every engine worker until the page reloads. */
  nets: NetsState;
  /** The exact solver's values of the position the Solve control is on (overlay/solve.ts): the
   * live position, or the one before the reviewed move; null when that position has none. */
  exact: ExactValues | null;
  /** Learn from your mistakes (app/learn.ts), while it runs: the board shows the position before
   * each mistake of the reviewed main line in turn, and a move on it is a try (judged, not played). */
  learn: LearnState | null;
  /** The game's tree of variations (the analysis board): its main line and the variations off
   * it. The live game (`snapshot.moves`) is one line of the tree: the main line or a variation.
   * Null before the first snapshot. Records (the game JSON, Hex SGF) carry it both ways. */
  gameTree: GameTree | null;
  /** The teaching game (the URL's `teach=`): off, or the least class of a person's move against
   * the engine that is pointed out at once (review/judge.ts, app/teach-game.ts). */
  teach: TeachLevel;
  /** The teaching game's hold on the engine, or null: the person's move that led to position
   * `key` (`positionKey`) is being judged, or its notice is shown; the engine replies only once
   * the hold is gone (Keep playing, or a verdict under the threshold). */
  teaching: TeachingHold | null;
  /** A match Compare asks the Arena to set up (two of its panes); the Arena fills its form with
   * it and clears it. */
  arenaSetup: ArenaSetup | null;
}

/** Learn from your mistakes' progress (`learn`). */
export interface LearnState {
  /** Whose mistakes: a player's name as the review writes movers, or `both`. */
  side: string;
  /** The move numbers (1-based, main line) of the mistakes, in the game's order. */
  queue: readonly number[];
  /** Which of them is asked now (an index into `queue`; `queue.length` once all are done). */
  at: number;
  /** find (waiting for a try), judging, right, wrong (try again), shown (the answer asked for). */
  feedback: 'find' | 'judging' | 'right' | 'wrong' | 'shown';
  /** The last try's verdict (null before the first try of this mistake). */
  verdict: { move: string; ok: boolean; text: string } | null;
  /** Move numbers found (a try accepted), for the final count. */
  solved: readonly number[];
}

/** A game's tree of variations: the spec, the main line, and the variations off it (protocol
 * `Variation`: each leaves its parent line after `at` of its moves). */
export interface GameTree {
  spec: string;
  /** The main line from the start. */
  moves: readonly string[];
  variations: readonly Variation[];
}

/** The teaching game's hold (`teaching`): judging the move, or its notice with the judged ply. */
export type TeachingHold = { key: string; status: 'judging' } | { key: string; status: 'notice'; ply: ReviewPly };

/** The game review's progress and result (`gameReview`). */
export interface GameReviewState {
  /** `movesKey` of the main line reviewed (app/game-review.ts `mainLineKey`): a review belongs
   * to one main line. */
  key: string;
  /** Positions reviewed so far, of `total` (the main line's moves + 1). */
  done: number;
  total: number;
  /** running, stopped (Stop; Review again continues), or finished. */
  status: 'running' | 'stopped' | 'finished';
  /** The report once every position is reviewed (`mcts review --json`'s shape). */
  report: ReviewReport | null;
}

/** One side of an Arena match as its form takes it: a preset and `key=value` parameters. */
export interface ArenaSide {
  preset: string;
  /** `key=value` pairs separated by spaces (the form's parameters field). */
  sets: string;
}

/** An Arena match to set up: the game, the two configurations, the budget per move and the seed. */
export interface ArenaSetup {
  game: string;
  a: ArenaSide;
  b: ArenaSide;
  budget: number;
  unit: 'iterations' | 'millis';
  seed: string;
  /** Where it comes from, for the Arena's status line. */
  from: string;
}

/** The exact solver's values of one position, as far as its solve got (overlay/solve.ts writes
 * them; the review line reads them). */
export interface ExactValues {
  /** The position solved (`positionKey`: its spec and moves). */
  key: string;
  /** The side to move there; every value is for that player. */
  toMove: Player;
  /** Whether the side to move wins with perfect play (null: not proven; false for a draw). */
  rootWins: boolean | null;
  /** The position's value for the side to move: win, draw or loss (null: not proven; absent:
   * `rootWins` says win or loss). */
  rootValue?: ExactValue | null;
  /** Every legal move with its value for the side to move (null: not proven). */
  moves: readonly SolveMoveValue[];
  /** How the solve ended (null: it is still running). */
  end: SolveEnd | null;
  /** The solve's budget in seconds. */
  budgetS: number;
}

/** A net the user loaded: what the engine said of it, and its bytes (to give it again to a new
 * worker: a restarted engine, a compare pane, an arena worker). */
export interface UserNet {
  info: NetInfo;
  bytes: ArrayBuffer;
}

export interface NetsState {
  /** Presets that need a trained network (`alphazero`, `alphago`, `puct-net`). */
  netPresets: string[];
  /** Nets shipped with the page (fetched from `models/` on first use). */
  shipped: ShippedNet[];
  /** Nets the user loaded, at most one per game spec (the latest). */
  user: UserNet[];
}

export type PageStore = Store<PageState>;

export function createPageStore(): PageStore {
  return createStore<PageState>({
    sides: [
      { who: 'person', preset: '', budgetKind: 'millis', budgetValue: 1000 },
      { who: 'engine', preset: '', budgetKind: 'millis', budgetValue: 1000 },
    ],
    snapshot: null,
    presets: [],
    thinking: null,
    paused: false,
    restoring: false,
    workers: 1,
    view: 'play',
    hint: [],
    overlays: ['visits', 'proven', 'pv', 'exact'],
    compare: null,
    searches: [],
    review: null,
    reviewView: null,
    gameReview: null,
    nets: { netPresets: [], shipped: [], user: [] },
    exact: null,
    arenaSetup: null,
    gameTree: null,
    learn: null,
    teach: 'off',
    teaching: null,
  });
}

/** A position's identity: the spec and the moves (a new game, a move, undo and redo change it). */
export function positionKey(s: Snapshot | null): string {
  return s ? movesKey(s.view.spec, s.moves) : '';
}

/** The same key for a position named by its spec and the moves from the start. */
export function movesKey(spec: string, moves: readonly string[]): string {
  return `${spec}|${moves.join(' ')}`;
}

/** Calls `f` once with the engine's preset names, as soon as they are known (at once if they are). */
export function whenPresets(store: PageStore, f: (presets: string[]) => void): void {
  const now = store.get().presets;
  if (now.length) return f(now);
  const off = store.subscribe((s) => {
    if (!s.presets.length) return;
    off();
    f(s.presets);
  });
}

/** Whether a person is to move (and the page is not waiting for a restarted engine). */
export function personToMove(s: PageState): boolean {
  const v = s.snapshot?.view;
  return !s.restoring && !!v && v.to_move !== null && s.sides[v.to_move].who === 'person';
}

/** Whether the board takes a person's moves: their turn, and the engine is not thinking of a move. */
export function boardInteractive(s: PageState): boolean {
  return personToMove(s) && s.thinking?.purpose !== 'move';
}

// ---- the searches behind the moves played (play/searches.ts keeps the log) ----

/** One root child as a record carries it: N (visits) and Q as the mover's win rate in [0, 1]. */
export interface MoveFigures {
  move: string;
  /** Visits N of the move at the root. */
  visits: number;
  /** Mean value Q in [0, 1] for the player who chose the move (the side to move at the root). */
  win_rate: number;
  proven: 'win' | 'loss' | 'draw' | null;
}

/** The root statistics of the search behind one move (what a game's JSON record carries). */
export interface RootSummary {
  /** 1-based move number (the move is `moves[ply - 1]`). */
  ply: number;
  /** The move played, in the game's notation. */
  move: string;
  /** The player who chose it. */
  player: Player;
  /** `engine` (the game's engine) or `analysis` (Analyse, then a person played the move). */
  source: 'engine' | 'analysis';
  /** The preset name (`uct`, `rave`, ...). */
  preset: string;
  /** Playouts (iterations) of the search, reused ones included (the root's N). */
  playouts: number;
  /** Playouts this search ran itself (0: it had none to run, e.g. the tree kept from earlier
   * moves already proved the position); absent from older records. */
  search_playouts?: number;
  /** How the search valued its leaves (`value`: the network's value head, no playouts: its
   * iterations are evaluations); absent from older records. */
  leaf?: 'rollout' | 'value' | 'mix' | null;
  /** The move's own figures at the root (null if the search never tried it). */
  chosen: MoveFigures | null;
  /** The most-visited other root move (null with a single legal move). */
  best_rival: MoveFigures | null;
  /** The root's proof (MCTS-Solver), side to move's view. */
  proven: 'win' | 'loss' | 'draw' | null;
}

/** One move's search. */
export interface MoveSearch {
  spec: string;
  /** Moves before this one (the position searched). */
  before: string[];
  summary: RootSummary;
  /** The position searched (before the move). */
  view: BoardView;
  /** Its legal moves (the overlays place figures by them). */
  legal: string[];
  /** The engine's statistics at the end of the search; null once dropped (older than the newest
   * `KEEP_SEARCHES`). */
  stats: FullStats | null;
  /** The tree snapshot (`archiveQuery`); null once dropped. */
  tree: TreeSnapshot | null;
  /** Read from a game's JSON record (or the link's `searches=`): root statistics only, never a tree. */
  fromRecord?: boolean;
  /** Read from the link's (or the reloaded page's) `searches=` rather than a loaded record. */
  fromLink?: boolean;
}

/** The log, oldest first (replaced, never mutated, so the store sees every change). */
export type SearchLog = readonly MoveSearch[];
