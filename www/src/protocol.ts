// The worker protocol: every message between the page and an engine worker.
//
// Requests carry a positive integer `id`; every response names the request it answers by that id
// (`null` only when the request was too malformed to have one, or for a fatal error not tied to a
// request). Both sides switch on `type` exhaustively (`assertNever`), so adding a message is a
// compile error until both sides handle it.
//
// Shapes that come from Rust are generated from the Rust types (generated/protocol-types.ts,
// src/protocol_types.rs), encoded JSON-style by `src/wasm/` (None → null); the few written here
// are the wasm module's own (`Snapshot`, the solver's camelCase report). Parameter and
// preset names and the limits checked here come from the engine's schema (`generated/schema.ts`,
// written from `mcts schema --json`).

import { type GameName, LIMITS, type ParamName, type ParamValue } from './generated/schema';
import type { ReviewPly, ReviewReport, ReviewSettings } from './review/report';
import type {
  BoardView,
  ChildScore,
  ChildStats as EngineChildStats,
  GameRecordText as EngineGameRecordText,
  SearchStats as EngineSearchStats,
  GameRecord,
  NetInfo,
  PositionEval,
  PositionReview,
  ShippedNet,
  Snapshot,
  SolveMoveValue as EngineSolveMoveValue,
  SolveProgress,
  SolveStats,
  IterationTrace,
  NodeValues,
  PolicyStats,
  Standings,
  TraceNode,
  Variation,
} from './generated/protocol-types';

// The engine's JSON shapes generated from its Rust types (src/protocol_types.rs, ts-rs), under the
// names the page uses: a position's picture (BoardView), an arena game's record and standings, a variation of a game record, a
// search's statistics and playout-policy internals, a registered net, a reviewed position, and an
// iteration's trace of the step-through.
export type { BoardView, GameRecord, IterationTrace, NetInfo, PolicyStats, PositionReview, Standings, TraceNode, Variation };

/** `T` with the keys `K` optional: fields the engine added after the first records (serde
 * `default` in Rust), absent from a game JSON or a saved inspection written before them. */
type Later<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;
/** The keys of Rust `SearchStats` added after the first records. */
type LaterStatsKeys = 'tree_cap' | 'memory_cap_bytes' | 'final_move' | 'leaf' | 'puct_c' | 'root_visits';
/** N, Q (the view of the player who moved into the node) and proof of one node (Rust `NodeValues`). */
export type TraceValues = NodeValues;
/** A child's selection score and its parts (Rust `ChildScore`); `score` null = +∞. */
export type TraceScore = ChildScore;

/** Player 0 moves first (Black in Hex and Pentago, X in Tic-Tac-Toe); player 1 second. */
export type Player = 0 | 1;

/** Which game a board shows: a registered game's name (the engine's registry, generated/schema.ts). */
export type GameKind = GameName;

/** Everything the page draws after a change to the game (Rust `page::Snapshot`, built by
 * `GameSession` in src/wasm/game.rs). */
export type { Snapshot };

/** How long the engine thinks about one move: `playouts` (iterations), or `millis` of search —
 * the time the engine spends in its chunks (the worker's messages between chunks do not count),
 * as `mcts search --ms`. */
export type Budget = { kind: 'millis'; value: number } | { kind: 'playouts'; value: number };

/** Overrides of single search parameters by their serde names (`c`, `rave_k`, `seed`, ...: the
 * engine's `SearchConfig` fields, `ParamName` in the generated schema), typed (`ParamValue`: a
 * number, a whole number, `true`/`false`, or an enum's name, as the schema's `type` says:
 * `{ c: 0.7, pool_k: 10, save_bridge: true, prior: 'patterns' }`). The engine decodes them into
 * its own `ParamValue` and checks each against its type and range; a value of the wrong type
 * (`c: true`) is refused with a sentence naming the parameter. A string for a parameter that is
 * not an enum is still read as `mcts search --set key=value` reads its text (the protocol's
 * older form, kept for compatibility); the page itself reads text once (share/url.ts
 * `paramFromText`) and sends typed values. */
export type EngineParams = Partial<Record<ParamName, ParamValue>>;

/** The engine's algorithm: a preset name (`uct`, `rave`, `grave`, ... from the engine's list, the
 * generated `PRESET_NAMES`) and optional overrides of single parameters. */
export interface EngineSettings {
  preset: string;
  params: EngineParams;
}

/** One child of the search root: the fields of Rust `ChildStats` that progress and results carry. */
export type ChildStats = Pick<EngineChildStats, 'move' | 'visits' | 'q' | 'proven'>;

/** The engine's statistics snapshot (the JSON of Rust `SearchStats`; the fields the page uses,
 * those the engine added later optional). */
export type SearchStats = Pick<
  Later<EngineSearchStats, LaterStatsKeys>,
  | 'game'
  | 'to_move'
  | 'best_move'
  | 'pv'
  | 'proven'
  | 'value'
  | 'iterations'
  | 'playouts'
  | 'nodes'
  | 'max_depth'
  | 'elapsed_ms'
  | 'iterations_per_s'
  | 'tree_cap'
  | 'memory_cap_bytes'
  | 'final_move'
  | 'leaf'
> & { children: ChildStats[] };

/** The report of a finished search as `mcts search --json` prints it, built in the worker by the
 * engine's own code (Rust `report::SearchReport`, the command line's): every key of Rust
 * `SearchStats` (those above and `bytes_per_node`, `tree_bytes`, `policy`, `evaluator`, `puct_c`,
 * `root_visits`, each child's full statistics), and for a root-parallel search (Workers > 1)
 * `threads` and `workers`, as `mcts search --threads N --json`. The statistics are the tree's: a
 * tree kept from earlier searches (tree reuse) counts their iterations too. */
export interface SearchReportJson extends SearchStats {
  threads?: number;
  workers?: { seed: number; iterations: number; best_move: string | null; iterations_per_s: number }[];
  [key: string]: unknown;
}

/** What the page shows while the engine thinks (several times a second) and when it is done. */
export interface SearchProgress {
  /** Playouts in this search so far (this move only, not counting reused ones). */
  playouts: number;
  /** How the search values its leaves (`value`: the network's value head, no playouts: the
   * iterations counted in `playouts` are evaluations); absent from older workers. */
  leaf?: 'rollout' | 'value' | 'mix' | null;
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
  /** The tree's node cap (engine parameter `node_cap`; 2,000,000 on the page by default) once the
   * tree has reached it, else null. At the cap the tree stops growing and is kept; playouts go on
   * improving the statistics of the nodes it has (docs/limits.md). */
  nodeCap: number | null;
  /** The memory cap in bytes (engine parameter `memory_cap_mib`; 512 MiB on the page by default,
   * counted over the worker's whole WebAssembly memory) once one more growth step of the tree
   * could pass it, else null. The tree is then kept and stops growing, as at the node cap. */
  memoryCap: number | null;
}

/** Why a search ended. */
export type SearchEnd = 'budget' | 'stopped' | 'proven' | 'gameOver' | 'nodeCap' | 'memoryCap';

/** A finished search. `move` is the engine's choice (null only when the game is over). */
export interface SearchResult extends SearchProgress {
  move: string | null;
  end: SearchEnd;
  /** Root-parallel searches only (Workers > 1, `parallel.ts`): the playouts of each worker,
   * worker 0 first; `playouts` is their sum. Absent for a one-worker search. */
  workers?: number[];
}

/** Page → worker. */
export type Request =
  /** Which version, presets and example specs the engine has. Answer: `hello`. */
  | { type: 'hello'; id: number }
  /** Start a game from a spec and replay `moves` (restoring a game in a fresh worker). Answer: `state`. */
  | { type: 'newGame'; id: number; spec: string; moves: string[] }
  /** Play one move, checked. Answer: `state`, or `error` with the position untouched. With
   * `ply`, only when the game is at that ply (moves played): a move chosen on a position the
   * game has since left (a second click before the first move's answer, an engine move after an
   * undo) is refused instead of being played on another position. */
  | { type: 'play'; id: number; move: string; ply?: number }
  /** Step back / forward one move. Answer: `state` (unchanged at either end). */
  | { type: 'undo'; id: number }
  | { type: 'redo'; id: number }
  /** Search the current position. `slot` names the tree kept for reuse (e.g. `p0`, `p1`, `hint`).
   * Answers: `progress` every `progressMs` or so, then `searchDone` (or `cancelled`); with
   * `samples` (a playouts budget), a `sample` too at each of its steps. */
  | { type: 'search'; id: number; slot: string; engine: EngineSettings; budget: Budget; progressMs: number; samples?: SampleQuery }
  /** End search `target` now; it answers `searchDone` with the best move so far. Answer: `ack`. */
  | { type: 'stop'; id: number; target: number }
  /** Abandon search `target`; it answers `cancelled`. Answer: `ack`. */
  | { type: 'cancel'; id: number; target: number }
  /** Test hook: make the engine panic. Answer: `fatal` with the panic message. */
  | { type: 'debugPanic'; id: number }
  /** Root-parallel search (`parallel.ts`): merge the root statistics of several workers'
   * searches of one position (Rust `mcts::parallel::merge_root_stats`: visits and wins summed per
   * move, the move by `engine`'s final-move rule). Answer: `merged`. */
  | { type: 'mergeStats'; id: number; parts: SearchStats[]; engine: EngineSettings }
  // ---- visualisation ----
  /** The statistics of slot `slot`'s tree (while it searches or after) and, when `tree` is
   * given, a compact snapshot of the tree with its icicle layout. Answer: `inspection`. */
  | { type: 'inspect'; id: number; slot: string; tree: TreeQuery | null }
  /** Play one arena game (Rust `arena::play_game`, as `mcts arena`). Answer: `arenaGame`. */
  | { type: 'arenaGame'; id: number; game: ArenaGameSpec }
  /** Standings of A from game records (Rust `arena::Standings`). Answer: `arenaStandings`. */
  | { type: 'arenaStandings'; id: number; records: GameRecord[] }
  // ---- step-through ----
  | StepRequest
  // ---- records ----
  /** Read a game record (a move list, or a Hex SGF as HexGui writes it; Rust `record.rs`).
   * Answer: `record`, or `error` naming what is wrong. */
  | { type: 'parseRecord'; id: number; text: string }
  /** Write the record of a game, `format` `moves` or `sgf` (Hex only). Answer: `recordText`. */
  | {
      type: 'writeRecord';
      id: number;
      spec: string;
      moves: string[];
      format: 'moves' | 'sgf';
      /** The main line's variations (SGF writes them; the move list, which has none, does not). */
      variations?: Variation[];
    }
  // ---- positions ----
  /** What a position looks like, without touching the worker's game or its searches: `spec`
   * and `moves` from the start replayed on a fresh game (the analysis board shows an earlier
   * ply, Learn from your mistakes a mistake's position). Answer: `positionView` (its snapshot's
   * `redo` is empty), or `error` naming the bad move (1-based) as `newGame` does. */
  | { type: 'viewPosition'; id: number; spec: string; moves: string[] }
  // ---- training (the Train panel's own worker) ----
  | TrainRequest
  // ---- networks ----
  /** Register a weights file (`MCTSNET` format, e.g. a net trained in the page): from now on it
   * plays its game (the spec stored in the file) in this worker, replacing the shipped net until
   * the page reloads; the worker's search trees start afresh. `name` labels it (default
   * `user net`). Answer: `netLoaded`, or `error` naming the defect (corrupt file, CRC-32
   * mismatch, a game without network inputs, wrong shapes) with nothing registered. */
  | { type: 'loadNet'; id: number; bytes: ArrayBuffer; name?: string }
  /** What the evaluator of `engine` (a preset and its overrides) thinks of the current position:
   * its prior P per legal move and, for a network, the value head's estimate. Fetches the game's
   * shipped net first when the preset needs one. Answer: `evaluation`. */
  | { type: 'evaluate'; id: number; engine: EngineSettings }
  // ---- exact solver ----
  | SolveRequest
  | ReviewRequest;

/** Worker → page. */
export type Response =
  /** `netPresets`: the presets that need a trained network; `nets`: the shipped nets (the page
   * fetches `models/<file>` on first use). Both absent from engines older than the networks. */
  | { type: 'hello'; id: number; version: string; presets: string[]; specs: string[]; netPresets?: string[]; nets?: ShippedNet[] }
  | { type: 'state'; id: number; snapshot: Snapshot }
  | { type: 'progress'; id: number; progress: SearchProgress }
  /** `report`: the search's `mcts search --json` report (absent from older workers). */
  | { type: 'searchDone'; id: number; result: SearchResult; stats: SearchStats; report?: SearchReportJson }
  | { type: 'cancelled'; id: number }
  | { type: 'ack'; id: number }
  /** `report`: the merged search's `mcts search --threads N --json` report (absent from older workers). */
  | { type: 'merged'; id: number; stats: SearchStats; report?: SearchReportJson }
  /** The request failed; the worker is fine and its state untouched. */
  | { type: 'error'; id: number | null; message: string }
  /** The worker can no longer be used (a panic, a failed load); the page starts a new one. */
  | { type: 'fatal'; id: number | null; message: string }
  // ---- visualisation ----
  | { type: 'inspection'; id: number; stats: FullStats | null; tree: TreeSnapshot | null }
  /** A sample of search `id` at one of its `samples` steps (`step` from 1): the statistics, as
   * `inspection` gives them, and a tree snapshot at every `treeEvery`-th step. */
  | { type: 'sample'; id: number; step: number; stats: FullStats; tree: TreeSnapshot | null }
  | { type: 'arenaGame'; id: number; record: GameRecord }
  | { type: 'arenaStandings'; id: number; standings: Standings }
  // ---- step-through ----
  | StepResponse
  // ---- records ----
  | { type: 'record'; id: number; record: GameRecordText }
  | { type: 'recordText'; id: number; text: string }
  /** The position `viewPosition` asked for. */
  | { type: 'positionView'; id: number; snapshot: Snapshot }
  // ---- training ----
  | TrainResponse
  // ---- networks ----
  | { type: 'netLoaded'; id: number; net: NetInfo }
  | { type: 'evaluation'; id: number; evaluation: PositionEvaluation }
  // ---- exact solver ----
  | SolveResponse
  | ReviewResponse;

// ---- exact solver ----

/** A position named by its game and the moves from the start (a solve does not touch the
 * worker's game: the page's solver worker holds no game of its own). */
export interface SolvePosition {
  spec: string;
  moves: string[];
}

/** An exact value for a player: it wins, draws or loses with perfect play. */
export type ExactValue = 'win' | 'draw' | 'loss';

/** A root move and its exact value for the side to move (null: not proven yet; Rust
 * `page::SolveMoveValue`); `value` is absent from older workers, where `moverWins` says win or
 * loss. */
export type SolveMoveValue = Later<EngineSolveMoveValue, 'value'>;

/** A move's exact value for the side to move, from `value`, or else from `moverWins` (Hex). */
export function exactMoveValue(m: SolveMoveValue): ExactValue | null {
  if (m.value !== undefined) return m.value;
  return m.moverWins === null ? null : m.moverWins ? 'win' : 'loss';
}

/** The root's exact value for the side to move, from `rootValue`, or else from `rootWins`. */
export function exactRootValue(r: { rootWins: boolean | null; rootValue?: ExactValue | null | undefined }): ExactValue | null {
  if (r.rootValue !== undefined) return r.rootValue;
  return r.rootWins === null ? null : r.rootWins ? 'win' : 'loss';
}

/** The solver's counters (Rust `page::SolveCounters`: MID calls, nodes created, nodes settled by
 * knowledge alone, transposition-table entries in use and overwritten). */
export type { SolveStats };

/** Where a solve stands: the engine's `SolveSession.progress()` (Rust `page::SolveProgress`)
 * without `done` and `ttNote`, plus the worker's clock (`ms`: milliseconds since this solve
 * request started; a continued solve counts from its own start) and `continued` (whether this
 * request continues the last unfinished solve of the same position, its table and what it proved
 * kept). `rootValue`, `bestMove` and `solver` are absent from older workers. */
export type SolveReport = Later<Omit<SolveProgress, 'done' | 'ttNote' | 'moves'>, 'rootValue' | 'bestMove' | 'solver'> & {
  moves: SolveMoveValue[];
  ms: number;
  continued: boolean;
};

/** How a solve ended: everything proven, the budget ran out first, or Stop. */
export type SolveEnd = 'proven' | 'unknown' | 'stopped';

/** Page → worker, exact solver (Hex up to 8×8 without the swap rule, Tic-Tac-Toe, Pentago with
 * at most 16 empty cells; the engine refuses others with a sentence).
 * - `solve`: solve `position` and each of its moves, for at most `budgetMs` milliseconds, in
 *   slices (the worker stays responsive). Asking again for the position of the last solve that
 *   did not finish continues it (its table is kept); another position starts afresh. A running
 *   solve ends first (`solveDone` `stopped`). Answers: `solveProgress` every `progressMs`
 *   (default 200), then `solveDone`; `error` naming why the position cannot be solved.
 * - `solveStop`: solve `target` ends now (`solveDone` `stopped`). Answer: `ack`. */
export type SolveRequest =
  | { type: 'solve'; id: number; position: SolvePosition; budgetMs: number; progressMs?: number }
  | { type: 'solveStop'; id: number; target: number };

/** Worker → page, exact solver. */
export type SolveResponse =
  | ({ type: 'solveProgress'; id: number } & SolveReport)
  | ({ type: 'solveDone'; id: number; result: SolveEnd } & SolveReport);

// ---- game review ----

/** The game a review is of: the spec, the main line's moves and the settings (the report's
 * `settings`: preset, `iterations` or `ms` per position, `solve_ms`, `seed`). */
export interface ReviewGame {
  spec: string;
  moves: string[];
  settings: ReviewSettings;
}

/** Page → worker, game review (src/report/review.rs, as `mcts review`):
 * - `reviewPosition`: review position `index` (after `index` moves) of `game`: a search of the
 *   preset and budget seeded `seed + index` on a fresh tree, and an exact solve within
 *   `solve_ms` where a solver takes the position. The worker keeps the game's positions and its
 *   solvers from one request to the next. Answer: `reviewedPosition`; `error` with a sentence for
 *   a bad game, settings or index.
 * - `reviewReport`: the report from every position's `result` (any worker's, any order).
 *   Answer: `reviewReport`; `error` when a position is missing or a result is not of the game.
 * - `judgeMove`: one move judged as the review judges it (Rust `report::review::judge_move`):
 *   `move` played after `moves` is ply `moves.length` of the game `moves + [move]`; the positions
 *   before and after it are reviewed with `settings` (seeds `seed + moves.length` and `+ 1`), so
 *   the ply equals that ply of `reviewReport` for the game with the same settings. The worker
 *   keeps its solvers from one judgement to the next. Answer: `judgedMove` with the report's ply
 *   (`ReviewPly`); `error` with a sentence for a bad game, move or settings. */
export type ReviewRequest =
  | ({ type: 'reviewPosition'; id: number; index: number } & ReviewGame)
  | ({ type: 'reviewReport'; id: number; results: PositionReview[] } & ReviewGame)
  | ({ type: 'judgeMove'; id: number; move: string } & ReviewGame);

/** Worker → page, game review. */
export type ReviewResponse =
  | { type: 'reviewedPosition'; id: number; result: PositionReview }
  | { type: 'reviewReport'; id: number; report: ReviewReport }
  | { type: 'judgedMove'; id: number; ply: ReviewPly };

/** The longest solve a request may ask for (one hour); the page offers 1 to 600 seconds. */
export const MAX_SOLVE_BUDGET_MS = 3_600_000;

// ---- networks ----

/** A net shipped with the page: its game spec and its file in the site's `models/` directory
 * (Rust `nn::models::Shipped`). */
export type { ShippedNet };

/** The evaluator's view of one position (Rust `nn::search::PositionEval`): the priors P per
 * legal move and, for a network, the value head's estimate. */
export type PositionEvaluation = PositionEval;

/** A game record as read (Rust `record::Record`): the game spec, the main line's moves in our
 * notation, notes on what the reader changed or left out, and the variations (the engine always
 * sends them; absent or empty when the record has none). */
export type GameRecordText = Later<EngineGameRecordText, 'variations'>;

export type RequestType = Request['type'];
export type ResponseType = Response['type'];

/** Compile-time exhaustiveness check for switches over the unions above. */
export function assertNever(x: never): never {
  throw new Error(`unhandled message: ${JSON.stringify(x)}`);
}

// ---- visualisation ----

/** One search's own figures (a search request on a slot): the tree's statistics count every
 * iteration since the tree was built, the searches of earlier moves included (tree reuse). */
export interface SearchFigures {
  /** Playouts (iterations) this search ran. */
  playouts: number;
  /** Milliseconds since it started (to its end, once finished). */
  elapsedMs: number;
  /** Of those, milliseconds spent in the engine's chunks. */
  engineMs: number;
}

/** A root child with everything the engine reports (Rust `ChildStats`). */
export type FullChildStats = Later<EngineChildStats, 'puct_u'>;

/** The full statistics (Rust `SearchStats`), and the slot's latest search. */
export interface FullStats extends Later<Omit<EngineSearchStats, 'children'>, LaterStatsKeys> {
  children: FullChildStats[];
  /** The slot's latest search (running, or the last one finished), added by the worker to an
   * inspection; null before any search, absent from older records. */
  search?: SearchFigures | null;
}

/** What part of the tree to snapshot: nodes with at least `minVisits` visits, `topK` children per
 * node, `depth` plies, `maxNodes` in all. */
/** Samples of a search with a playouts budget, taken by the worker as it searches (Compare's
 * panes): the budget in `steps` equal steps (the k-th ends at round(budget·k/steps) playouts), the
 * statistics after each, with a tree snapshot (`tree`) after every `treeEvery`-th. The search
 * never waits for the page between steps, and its results do not depend on them. */
export interface SampleQuery {
  steps: number;
  tree: TreeQuery | null;
  treeEvery: number;
}

export interface TreeQuery {
  minVisits: number;
  topK: number;
  depth: number;
  maxNodes: number;
}

/** A compact pre-order tree snapshot (Rust `SearchSession::tree_snapshot`) plus the icicle layout
 * (`x0`, `x1` in [0, 1], from d3-hierarchy's partition, area by visits). Typed arrays are
 * transferred, not copied. */
export interface TreeSnapshot {
  /** Nodes in the engine's tree (the snapshot holds `count` of them). */
  total: number;
  count: number;
  /** Move texts indexed by `move` (65535 at the root). */
  moves: string[];
  parent: Int32Array;
  move: Uint16Array;
  visits: Uint32Array;
  /** Q in [0, 1] for the player who made the move into the node. */
  q: Float32Array;
  /** 0 unknown, 1 win, 2 loss, 3 draw (same view as q). */
  proven: Uint8Array;
  depth: Uint8Array;
  /** Expanded children left out of the snapshot. */
  hidden: Uint32Array;
  x0: Float32Array;
  x1: Float32Array;
  /** Milliseconds the worker spent on the snapshot and its layout. */
  buildMs: number;
  /** Bytes of the typed arrays. */
  bytes: number;
}

/** One arena game to play. `iterations` (reproducible) or `millis` per move. */
export interface ArenaGameSpec {
  spec: string;
  a: EngineSettings;
  b: EngineSettings;
  iterations: number | null;
  millis: number | null;
  seed: number;
  index: number;
  /** Every first move of the game, each twice with colours swapped (game `index` starts from
   * first move `(index / 2) mod k`, Rust `arena::opening_of`): `mcts arena --openings all`.
   * Absent: from the empty board. */
  openings?: boolean;
}

// ---- step-through ----

/** Page → worker, step-through. The worker keeps one step session (its own game and tree, in
 * record mode, apart from the game's slots).
 * - `stepNew`: a fresh search of `spec` after `moves` with `engine` (seeded through its params).
 * - `stepRun`: `count` more iterations; the last is traced (record mode makes `count` untraced
 *   iterations the same as `count` traced ones). `count: 0` only re-reads the tree.
 * Both answer `step` with the trace (null for `stepNew` / `count: 0`), a tree snapshot for `tree`,
 * and the statistics. */
export type StepRequest =
  | { type: 'stepNew'; id: number; spec: string; moves: string[]; engine: EngineSettings; tree: TreeQuery }
  | { type: 'stepRun'; id: number; count: number; tree: TreeQuery };

/** Worker → page, step-through. */
export type StepResponse = { type: 'step'; id: number; trace: IterationTrace | null; tree: TreeSnapshot; stats: FullStats };

// ---- training ----

/** Training settings: Rust `TrainConfig`'s fields by serde name (a field left out keeps the
 * engine's default; unknown fields and values out of range are refused with a sentence). */
export interface TrainSettings {
  /** Game spec (the panel trains `tictactoe`). */
  game?: string;
  /** Hidden layer widths (default [128, 128], the ~20k-parameter Tic-Tac-Toe net). */
  hidden?: number[];
  /** Iterations of the run (1–10,000). */
  iterations?: number;
  /** Self-play games per iteration (1–10,000). */
  games?: number;
  /** PUCT playouts per self-play move (1–10,000). */
  playouts?: number;
  /** Adam steps per iteration (1–100,000). */
  steps?: number;
  /** Minibatch rows (1–4,096). */
  batch?: number;
  /** Adam learning rate (0 < lr < 1). */
  lr?: number;
  /** Evaluation games per iteration against the reference (0–1,000; 0: none). */
  eval_games?: number;
  /** Playouts per move of the net's evaluated search (0: the raw policy only). */
  eval_playouts?: number;
  /** Seed of every random choice (weights, games, minibatches). */
  seed?: number;
  /** Exact targets (Rust `exact::ExactTargets`; issue 53): each self-play position the exact
   * solver settles gets the proven value (win 1, draw 0, loss −1) and the moves that keep it
   * mixed into its targets with weight `mix` (0–1). Absent: AlphaZero's self-play targets alone. */
  exact_targets?: {
    mix?: number;
    policy?: 'uniform' | 'visits' | 'none';
    solve_nodes?: number;
    tt_log2?: number;
    early_plies?: number;
    early_nodes?: number;
  };
}

/** Losses (means over Adam steps, Rust `Losses`): policy cross-entropy −πᵀ log p and value MSE
 * (z − v)², and the entropy −pᵀ log p of the net's policy, all in nats. */
export interface TrainLosses {
  policy: number;
  value: number;
  entropy: number;
}

/** Wins, draws and losses of the net (Rust `eval::MatchResult`). */
export interface MatchWdl {
  wins: number;
  draws: number;
  losses: number;
}

/** Results against the reference by the net's colour (first = X, second = O). */
export interface ColourResults {
  first: MatchWdl;
  second: MatchWdl;
  total: MatchWdl;
}

/** One finished iteration (Rust `session::IterationReport`). */
export interface TrainIteration {
  iteration: number;
  /** Self-play games so far. */
  games: number;
  buffer: number;
  /** Mean losses of the iteration's Adam steps. */
  loss: TrainLosses;
  /** `perfect play` on Tic-Tac-Toe. */
  reference: string;
  /** The raw policy (highest prior, no search) against the reference. */
  raw: ColourResults;
  /** The net's search (`eval_playouts` playouts) against the reference, or null. */
  search: ColourResults | null;
  /** With exact targets: the iteration's rows given to the solver and those it labelled
   * (Rust `setup::ExactCount`); absent without. */
  exact?: { tried: number; proven: number };
}

/** Where a training run is (Rust `session::Progress`). */
export interface TrainProgress {
  /** What the next step does. */
  phase: 'selfPlay' | 'learn' | 'evaluate' | 'done';
  /** Iterations finished, of `iterations`. */
  iteration: number;
  iterations: number;
  /** Self-play games so far, and in the current iteration. */
  games: number;
  iteration_games: number;
  iteration_steps: number;
  adam_steps: number;
  /** Positions (training rows) played so far; rows in the replay buffer. */
  positions: number;
  buffer: number;
  /** Mean losses of the last step's Adam steps (null before the first). */
  loss: TrainLosses | null;
  /** The iteration this step finished, if any (every finished iteration is sent once). */
  finished: TrainIteration | null;
}

/** Page → training worker (a worker made by `EngineClient.trainer()`; the search workers refuse
 * these, so they never load the training package).
 * - `trainStart`: load the training package `pkg-train/` (first time only), start a fresh run
 *   with `settings` and train. Answers: `trainProgress` several times a second and whenever an
 *   iteration ends, then `trainStopped` (paused or done); `error` for settings out of range.
 * - `trainResume`: go on with the run (same answers). `error` without a run.
 * - `trainPause`: the running `trainStart`/`trainResume` ends with `trainStopped` (`paused`)
 *   between two steps. Answer: `ack`.
 * - `trainWeights`: the current net as an `MCTSNET` file. Answer: `trainWeights`. */
export type TrainRequest =
  | { type: 'trainStart'; id: number; settings: TrainSettings }
  | { type: 'trainResume'; id: number }
  | { type: 'trainPause'; id: number }
  | { type: 'trainWeights'; id: number };

/** Training worker → page. `trainMs`: milliseconds spent training so far (all runs). */
export type TrainResponse =
  | { type: 'trainProgress'; id: number; progress: TrainProgress; trainMs: number; parameters: number }
  | { type: 'trainStopped'; id: number; reason: 'paused' | 'done'; progress: TrainProgress; trainMs: number }
  | { type: 'trainWeights'; id: number; bytes: ArrayBuffer };

// ---- validation of incoming messages (both sides) --------------------------------------------
//
// The worker checks every request with `parseRequest` (a page may send anything: tests post
// malformed messages on purpose); the page checks every response with `parseResponse` (a worker
// built from other sources could answer with shapes the page does not know). Each answers the
// message typed, or a sentence saying what is wrong with it. Field checks are shallow for the big
// engine-made objects (statistics, trees), which the engine's serde types define.

type Check = (v: unknown) => boolean;
type Fields = Record<string, unknown>;
const isObj = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr: Check = (v) => typeof v === 'string';
const isId: Check = (v) => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
const isStrArray: Check = (v) => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isMs: Check = (v) => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** A list of `Variation`s: each `{ at, moves, variations? }` with `at` a non-negative integer and
 * at least one move, nested at most `LIMITS.MAX_VARIATION_DEPTH` deep (`depth` is the list's
 * level, 1 for the main line's variations). The engine checks the moves. */
export function isVariations(v: unknown, depth = 1): v is Variation[] {
  if (!Array.isArray(v) || (v.length > 0 && depth > LIMITS.MAX_VARIATION_DEPTH)) return false;
  return v.every(
    (x) =>
      isObj(x) &&
      Number.isSafeInteger(x.at) &&
      (x.at as number) >= 0 &&
      isStrArray(x.moves) &&
      (x.moves as unknown[]).length > 0 &&
      (x.variations === undefined || isVariations(x.variations, depth + 1)),
  );
}
const isBudget: Check = (v) =>
  isObj(v) && (v.kind === 'millis' || v.kind === 'playouts') && typeof v.value === 'number' && Number.isFinite(v.value) && v.value > 0;
/** A parameter value's shape (`ParamValue`); its type for the parameter is the engine's to check. */
const isParamValue: Check = (x) => typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean';
const isEngine: Check = (v) => isObj(v) && typeof v.preset === 'string' && isObj(v.params) && Object.values(v.params).every(isParamValue);
const isTreeQuery: Check = (v) => isObj(v) && ['minVisits', 'topK', 'depth', 'maxNodes'].every((k) => isMs(v[k]));
const isArenaGame: Check = (v) => {
  if (!isObj(v)) return false;
  const optNum = (x: unknown) => x === null || (typeof x === 'number' && Number.isFinite(x) && x > 0);
  return (
    isStr(v.spec) &&
    isEngine(v.a) &&
    isEngine(v.b) &&
    optNum(v.iterations) &&
    optNum(v.millis) &&
    isMs(v.seed) &&
    isMs(v.index) &&
    (v.openings === undefined || typeof v.openings === 'boolean')
  );
};

/** The fields each request must have (besides `type` and `id`), with their checks. */
const REQUEST_FIELDS: { [K in RequestType]: Record<string, Check> } = {
  hello: {},
  newGame: { spec: isStr, moves: isStrArray },
  play: { move: isStr, ply: (v) => v === undefined || (isMs(v) && Number.isInteger(v)) },
  undo: {},
  redo: {},
  search: {
    slot: isStr,
    engine: isEngine,
    budget: isBudget,
    progressMs: isMs,
    samples: (v) =>
      v === undefined ||
      (isObj(v) &&
        Number.isInteger(v.steps) &&
        (v.steps as number) >= 1 &&
        (v.steps as number) <= 10_000 &&
        Number.isInteger(v.treeEvery) &&
        (v.treeEvery as number) >= 1 &&
        (v.tree === null || isTreeQuery(v.tree))),
  },
  stop: { target: isId },
  cancel: { target: isId },
  debugPanic: {},
  mergeStats: { parts: (v) => Array.isArray(v) && v.length > 0 && v.length <= 64 && v.every(isObj), engine: isEngine },
  // ---- visualisation ----
  inspect: { slot: isStr, tree: (v) => v === null || isTreeQuery(v) },
  arenaGame: { game: isArenaGame },
  arenaStandings: { records: (v) => Array.isArray(v) },
  // ---- step-through ----
  stepNew: { spec: isStr, moves: isStrArray, engine: isEngine, tree: isTreeQuery },
  stepRun: { count: (v) => isMs(v) && Number.isInteger(v) && (v as number) <= LIMITS.MAX_STEP_ITERATIONS, tree: isTreeQuery },
  // ---- records ----
  parseRecord: { text: isStr },
  writeRecord: {
    spec: isStr,
    moves: isStrArray,
    format: (v) => v === 'moves' || v === 'sgf',
    variations: (v) => v === undefined || isVariations(v),
  },
  // ---- positions ----
  viewPosition: { spec: isStr, moves: isStrArray },
  // ---- training (values are checked by the engine) ----
  trainStart: { settings: isObj },
  trainResume: {},
  trainPause: {},
  trainWeights: {},
  // ---- networks ----
  loadNet: { bytes: (v) => v instanceof ArrayBuffer, name: (v) => v === undefined || isStr(v) },
  evaluate: { engine: isEngine },
  // ---- exact solver ----
  solve: {
    position: (v) => isObj(v) && isStr(v.spec) && isStrArray(v.moves),
    budgetMs: (v) => typeof v === 'number' && Number.isFinite(v) && v > 0 && v <= MAX_SOLVE_BUDGET_MS,
    progressMs: (v) => v === undefined || isMs(v),
  },
  solveStop: { target: isId },
  // ---- game review (settings are checked by the engine) ----
  reviewPosition: { spec: isStr, moves: isStrArray, settings: isObj, index: (v) => isMs(v) && Number.isInteger(v) },
  reviewReport: { spec: isStr, moves: isStrArray, settings: isObj, results: (v) => Array.isArray(v) && v.every(isObj) },
  judgeMove: { spec: isStr, moves: isStrArray, settings: isObj, move: isStr },
};

const isSnapshot: Check = (v) =>
  isObj(v) && isObj(v.view) && isStr(v.view.spec) && isStrArray(v.legal) && isStrArray(v.moves) && isStrArray(v.redo);
const isProgress: Check = (v) => isObj(v) && isMs(v.playouts) && isMs(v.elapsedMs) && isStrArray(v.pv);
const isResult: Check = (v) => isProgress(v) && isObj(v) && (v.move === null || isStr(v.move)) && isStr(v.end);
/** A search report (optional): an object with the report's core keys. */
const isReport: Check = (v) =>
  v === undefined || (isObj(v) && isStr(v.game) && isMs(v.iterations) && Array.isArray(v.children) && Array.isArray(v.pv));
const isTree: Check = (v) => isObj(v) && isMs(v.count) && v.parent instanceof Int32Array && isStrArray(v.moves);

const isBoolOrNull: Check = (v) => v === null || typeof v === 'boolean';
/** An optional exact value: absent, null, or win / draw / loss. */
const isExactValue: Check = (v) => v === undefined || v === null || v === 'win' || v === 'draw' || v === 'loss';
const SOLVE_REPORT: Record<string, Check> = {
  rootWins: isBoolOrNull,
  rootValue: isExactValue,
  winningMove: (v) => v === null || isStr(v),
  bestMove: (v) => v === undefined || v === null || isStr(v),
  solver: (v) => v === undefined || isStr(v),
  toMove: (v) => v === 0 || v === 1,
  moves: (v) => Array.isArray(v) && v.every((m) => isObj(m) && isStr(m.move) && isBoolOrNull(m.moverWins) && isExactValue(m.value)),
  stats: (v) => isObj(v) && ['midCalls', 'expansions', 'terminal', 'ttUsed', 'ttReplaced'].every((k) => isMs(v[k])),
  ms: isMs,
  ttBytes: isMs,
  continued: (v) => typeof v === 'boolean',
};

const isTrainProgress: Check = (v) => isObj(v) && isStr(v.phase) && isMs(v.games) && isMs(v.iteration);

/** The fields each response must have (besides `type` and `id`), with their checks. */
const RESPONSE_FIELDS: { [K in ResponseType]: Record<string, Check> } = {
  hello: {
    version: isStr,
    presets: isStrArray,
    specs: isStrArray,
    netPresets: (v) => v === undefined || isStrArray(v),
    nets: (v) => v === undefined || (Array.isArray(v) && v.every((n) => isObj(n) && isStr(n.spec) && isStr(n.file))),
  },
  state: { snapshot: isSnapshot },
  progress: { progress: isProgress },
  searchDone: { result: isResult, stats: isObj, report: isReport },
  cancelled: {},
  ack: {},
  merged: { stats: isObj, report: isReport },
  error: { message: isStr },
  fatal: { message: isStr },
  // ---- visualisation ----
  inspection: { stats: (v) => v === null || isObj(v), tree: (v) => v === null || isTree(v) },
  sample: { step: isMs, stats: isObj, tree: (v) => v === null || isTree(v) },
  arenaGame: { record: isObj },
  arenaStandings: { standings: isObj },
  // ---- step-through ----
  step: { trace: (v) => v === null || isObj(v), tree: isTree, stats: isObj },
  // ---- records ----
  record: {
    record: (v) =>
      isObj(v) && isStr(v.spec) && isStrArray(v.moves) && isStrArray(v.notes) && (v.variations === undefined || isVariations(v.variations)),
  },
  recordText: { text: isStr },
  // ---- positions ----
  positionView: { snapshot: isSnapshot },
  // ---- training ----
  trainProgress: { progress: isTrainProgress, trainMs: isMs, parameters: isMs },
  trainStopped: { reason: (v) => v === 'paused' || v === 'done', progress: isTrainProgress, trainMs: isMs },
  trainWeights: { bytes: (v) => v instanceof ArrayBuffer },
  // ---- networks ----
  netLoaded: { net: (v) => isObj(v) && isStr(v.spec) && isMs(v.parameters) },
  evaluation: { evaluation: (v) => isObj(v) && isStr(v.evaluator) && Array.isArray(v.priors) && (v.value === null || isMs(v.value)) },
  // ---- exact solver ----
  solveProgress: SOLVE_REPORT,
  solveDone: { ...SOLVE_REPORT, result: (v) => v === 'proven' || v === 'unknown' || v === 'stopped' },
  // ---- game review ----
  reviewedPosition: { result: (v) => isObj(v) && isMs(v.index) && isMs(v.value) && isStrArray(v.pv) },
  reviewReport: { report: (v) => isObj(v) && isStr(v.game) && Array.isArray(v.plies) && isObj(v.summary) },
  judgedMove: { ply: (v) => isObj(v) && isMs(v.ply) && isStr(v.move) && isStr(v.class) && isMs(v.loss) && isStrArray(v.pv) },
};

/** What is wrong with a request's size, in the engine's words (its limits: Rust `src/limits.rs`
 * through the generated schema), or null: more moves than `MAX_REQUEST_MOVES` (`newGame`,
 * `stepNew`, `writeRecord`), a tree snapshot of more than `MAX_SNAPSHOT_NODES` nodes, a search
 * budget over `MAX_BUDGET` (2^53 − 1). Checked before the fields, so a huge list is refused
 * without being read. */
function requestSizeError(data: Fields): string | null {
  const budget = data.budget;
  if (isObj(budget) && typeof budget.value === 'number' && budget.value > LIMITS.MAX_BUDGET) {
    return `budget.value = ${budget.value} is out of range (0, 2^53-1]`;
  }
  const moves = data.moves;
  if (Array.isArray(moves) && moves.length > LIMITS.MAX_REQUEST_MOVES) {
    return `${moves.length} moves; a request carries at most ${LIMITS.MAX_REQUEST_MOVES}`;
  }
  const tree = data.tree;
  if (isObj(tree) && typeof tree.maxNodes === 'number' && tree.maxNodes > LIMITS.MAX_SNAPSHOT_NODES) {
    return `tree.maxNodes = ${tree.maxNodes} is out of range [0, ${LIMITS.MAX_SNAPSHOT_NODES}]`;
  }
  return null;
}

/** A parsed message, or what is wrong with it (`id` when the message had a usable one). */
export type Parsed<T> = { ok: T } | { err: string; id: number | null };

/** Checks a message from the page (worker side). */
export function parseRequest(data: unknown): Parsed<Request> {
  if (!isObj(data)) return { err: 'a request must be an object', id: null };
  const id = isId(data.id) ? (data.id as number) : null;
  if (id === null) return { err: 'a request needs a positive integer id', id: null };
  if (typeof data.type !== 'string' || !Object.hasOwn(REQUEST_FIELDS, data.type)) {
    return { err: `unknown request type ${JSON.stringify(data.type)}`, id };
  }
  const tooBig = requestSizeError(data);
  if (tooBig) return { err: `request '${data.type}': ${tooBig}`, id };
  for (const [field, check] of Object.entries(REQUEST_FIELDS[data.type as RequestType])) {
    if (!check(data[field])) return { err: `request '${data.type}': field '${field}' is missing or malformed`, id };
  }
  return { ok: data as unknown as Request };
}

/** Checks a message from the worker (page side). Only `error` and `fatal` may have a null id. */
export function parseResponse(data: unknown): Parsed<Response> {
  if (!isObj(data)) return { err: 'a response must be an object', id: null };
  if (typeof data.type !== 'string' || !Object.hasOwn(RESPONSE_FIELDS, data.type)) {
    return { err: `unknown response type ${JSON.stringify(data.type)}`, id: isId(data.id) ? (data.id as number) : null };
  }
  const type = data.type as ResponseType;
  const id = isId(data.id) ? (data.id as number) : null;
  if (id === null && !(data.id === null && (type === 'error' || type === 'fatal'))) {
    return { err: `response '${type}' needs a positive integer id`, id: null };
  }
  for (const [field, check] of Object.entries(RESPONSE_FIELDS[type])) {
    if (!check(data[field])) return { err: `response '${type}': field '${field}' is missing or malformed`, id };
  }
  return { ok: data as unknown as Response };
}
