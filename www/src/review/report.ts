// The game review's report: the shape `mcts review --json` prints, the Python `review()` returns
// and the engine's `src/report/review.rs` builds (the page gets the same from its worker). One
// type for the page's review controller (running it), its views (move list marks, the graph, the
// summary) and the game JSON that carries it.

/** A move's class by the mover's loss in win probability (Lichess's thresholds: 0.05 / 0.10 /
 * 0.15, lila `modules/analyse/src/main/Advice.scala`), with exact overrides. */
export const REVIEW_CLASSES = ['best', 'good', 'inaccuracy', 'mistake', 'blunder'] as const;
export type ReviewClass = (typeof REVIEW_CLASSES)[number];

/** An exact value for the mover: win, draw or loss. */
export type ReviewExact = 'win' | 'draw' | 'loss';

/** One move of the main line, as reviewed. Win probabilities are in [0, 1], for the mover. */
export interface ReviewPly {
  /** 0-based: the move from position `ply` to position `ply + 1`. */
  ply: number;
  move: string;
  /** The game's name of the player who moved (`black`/`white` in Hex, `x`/`o`, ...). */
  mover: string;
  /** The mover's win probability before the move (position `ply`, side to move). */
  value_before: number;
  /** The mover's win probability after the move (position `ply + 1`, from the mover's side). */
  value_after: number;
  /** max(0, before − after). */
  loss: number;
  class: ReviewClass;
  /** An exact class's label (`won → lost`, `won → drawn`, `drawn → lost`), else null. */
  label: string | null;
  /** Lichess's per-move accuracy in [0, 100] (lila `AccuracyPercent.scala`). */
  accuracy: number;
  /** The search's best move in position `ply`, and its principal variation. */
  best_move: string | null;
  pv: string[];
  /** Exact values for the mover before and after the move (null: not proven in the budget). */
  exact_before: ReviewExact | null;
  exact_after: ReviewExact | null;
  iterations: number;
  playouts: number;
}

/** Per player: Lichess's game accuracy and the count of each class. */
export type ReviewPlayerSummary = { accuracy: number | null } & Record<ReviewClass, number>;

/** The whole report (`mcts review --json`). */
export interface ReviewReport {
  game: string;
  moves: string[];
  /** The settings it was made with: the preset, the budget per position (`iterations` playouts
   * or `ms` milliseconds; the other null), the solver's budget per position in ms, the seed. */
  settings: ReviewSettings;
  plies: ReviewPly[];
  /** Keyed by player name. */
  summary: Record<string, ReviewPlayerSummary>;
  /** Per position: how long its search and its solve took, and whether it was proven (the only
   * part that differs between two runs with a playout budget). */
  timing?: ReviewTiming[];
}

/** A review's settings (`settings` of the report). */
export interface ReviewSettings {
  preset: string;
  iterations: number | null;
  ms: number | null;
  solve_ms: number;
  seed: number;
}

/** How one position went: its search's and its solve's time (ms) and whether it was proven. */
export interface ReviewTiming {
  position: number;
  search_ms: number;
  solve_ms: number | null;
  proven: boolean;
}
