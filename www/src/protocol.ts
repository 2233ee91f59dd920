// The worker protocol: every message between the page and an engine worker.
//
// Requests carry a positive integer `id`; every response names the request it answers by that id
// (`null` only when the request was too malformed to have one, or for a fatal error not tied to a
// request). Both sides switch on `type` exhaustively (`assertNever`), so adding a message is a
// compile error until both sides handle it.
//
// Shapes below that come from Rust are the serde shapes of `src/game/mod.rs` (`BoardView`) and
// `src/mcts` (`SearchStats`), encoded JSON-style by `src/wasm.rs` (None → null).

/** Player 0 moves first (Black in Hex and Pentago, X in Tic-Tac-Toe); player 1 second. */
export type Player = 0 | 1;

/** Which game a board shows. */
export type GameKind = 'tictactoe' | 'hex' | 'pentago';

/** A read-only picture of a position (Rust `BoardView`). Cells are `row * cols + col`, row 0 on top. */
export interface BoardView {
  kind: GameKind;
  /** Game spec string, e.g. `hex:7`, `pentago:twist`. */
  spec: string;
  rows: number;
  cols: number;
  /** `rows * cols` entries: -1 empty, 0 player 0, 1 player 1. */
  cells: number[];
  /** Side to move; null once the game is over. */
  to_move: Player | null;
  /** The last move in the reference notation (`b2`, `d4`, `d4-BR-cw`, `swap`). */
  last_move: string | null;
  /** Cells touched by the last move (for Pentago: where the stone ended after the twist). */
  last_cells: number[];
  /** The winning line or chain (both players' fives in a Pentago double-five draw). */
  winning_cells: number[];
  /** serde's externally tagged `Outcome`: `{ Win: p }` or `"Draw"`; null while the game goes on. */
  outcome: { Win: Player } | 'Draw' | null;
  /** Moves played. */
  ply: number;
}

/** Everything the page draws after a change to the game (Rust `Snapshot` in src/wasm.rs). */
export interface Snapshot {
  view: BoardView;
  /** Legal moves in notation, ascending dense index; empty once the game is over. */
  legal: string[];
  /** Moves from the start to the current position. */
  moves: string[];
  /** Moves `redo` would replay, in order. */
  redo: string[];
  /** `{ winner }` once over (null winner = draw), else null. */
  outcome: { winner: Player | null } | null;
}

/** How long the engine thinks about one move. */
export type Budget = { kind: 'millis'; value: number } | { kind: 'playouts'; value: number };

/** The engine's algorithm: a preset name (`uct`, `rave`, `grave`, ... from the engine's list) and
 * optional overrides of single fields by their serde names (`c`, `rave_k`, `seed`, ...). */
export interface EngineSettings {
  preset: string;
  params: Record<string, string>;
}

/** One child of the search root (a subset of Rust `SearchStats.children[]`). */
export interface ChildStats {
  move: string;
  visits: number;
  /** Mean value in [0, 1] from the side to move's view. */
  q: number;
  proven: 'win' | 'loss' | 'draw' | null;
}

/** The engine's statistics snapshot (the JSON of Rust `SearchStats`; fields the page uses). */
export interface SearchStats {
  game: string;
  to_move: number;
  best_move: string | null;
  pv: string[];
  proven: 'win' | 'loss' | 'draw' | null;
  /** Mean Q of the best move in [0, 1], side to move's view. */
  value: number;
  iterations: number;
  playouts: number;
  nodes: number;
  max_depth: number;
  elapsed_ms: number;
  iterations_per_s: number;
  children: ChildStats[];
}

/** What the page shows while the engine thinks (several times a second) and when it is done. */
export interface SearchProgress {
  /** Playouts in this search so far (this move only, not counting reused ones). */
  playouts: number;
  /** Playouts per second over this search. */
  playoutsPerS: number;
  /** Milliseconds since the search started. */
  elapsedMs: number;
  /** Of those, milliseconds spent inside the engine's `run` chunks (the rest is the worker's
   * scheduling and messages between chunks). */
  engineMs: number;
  /** The move the engine would play now. */
  bestMove: string | null;
  /** Its estimated win rate in [0, 1] for the side to move (null before any playout). */
  winRate: number | null;
  /** Principal variation, best move first. */
  pv: string[];
  /** A solved root (MCTS-Solver), side to move's view. */
  proven: 'win' | 'loss' | 'draw' | null;
  /** Nodes in the tree. */
  nodes: number;
}

/** Why a search ended. */
export type SearchEnd = 'budget' | 'stopped' | 'proven' | 'gameOver' | 'nodeCap';

/** A finished search. `move` is the engine's choice (null only when the game is over). */
export interface SearchResult extends SearchProgress {
  move: string | null;
  end: SearchEnd;
}

/** Page → worker. */
export type Request =
  /** Which version, presets and example specs the engine has. Answer: `hello`. */
  | { type: 'hello'; id: number }
  /** Start a game from a spec and replay `moves` (restoring a game in a fresh worker). Answer: `state`. */
  | { type: 'newGame'; id: number; spec: string; moves: string[] }
  /** Play one move, checked. Answer: `state`, or `error` with the position untouched. */
  | { type: 'play'; id: number; move: string }
  /** Step back / forward one move. Answer: `state` (unchanged at either end). */
  | { type: 'undo'; id: number }
  | { type: 'redo'; id: number }
  /** Search the current position. `slot` names the tree kept for reuse (e.g. `p0`, `p1`, `hint`).
   * Answers: `progress` every `progressMs` or so, then `searchDone` (or `cancelled`). */
  | { type: 'search'; id: number; slot: string; engine: EngineSettings; budget: Budget; progressMs: number }
  /** End search `target` now; it answers `searchDone` with the best move so far. Answer: `ack`. */
  | { type: 'stop'; id: number; target: number }
  /** Abandon search `target`; it answers `cancelled`. Answer: `ack`. */
  | { type: 'cancel'; id: number; target: number }
  /** Test hook: make the engine panic. Answer: `fatal` with the panic message. */
  | { type: 'debugPanic'; id: number };

/** Worker → page. */
export type Response =
  | { type: 'hello'; id: number; version: string; presets: string[]; specs: string[] }
  | { type: 'state'; id: number; snapshot: Snapshot }
  | { type: 'progress'; id: number; progress: SearchProgress }
  | { type: 'searchDone'; id: number; result: SearchResult; stats: SearchStats }
  | { type: 'cancelled'; id: number }
  | { type: 'ack'; id: number }
  /** The request failed; the worker is fine and its state untouched. */
  | { type: 'error'; id: number | null; message: string }
  /** The worker can no longer be used (a panic, a failed load); the page starts a new one. */
  | { type: 'fatal'; id: number | null; message: string };

export type RequestType = Request['type'];
export type ResponseType = Response['type'];

/** Compile-time exhaustiveness check for switches over the unions above. */
export function assertNever(x: never): never {
  throw new Error(`unhandled message: ${JSON.stringify(x)}`);
}
