// Generated from the engine's Rust types by ts-rs (src/protocol_types.rs). Do not edit: change the
// Rust type, then run `bash scripts/protocol-types.sh` (a Rust test fails while this file is stale).

import type { GameName } from './schema';

export type StopReason = "iterations" | "time" | "root_proven" | "node_cap" | "game_over" | "memory_cap";

export type RunReport = { 
/**
 * Iterations run in this call.
 */
iterations: number, 
/**
 * Milliseconds spent in this call (injected clock).
 */
elapsed_ms: number, 
/**
 * Why it returned.
 */
stop: StopReason, };

export type TreeCap = "node_cap" | "memory_cap";

export type Proven = "win" | "loss" | "draw";

export type FinalMove = "robust" | "max" | "secure";

export type LeafEval = "rollout" | "value" | "mix";

export type PolicyStats = { 
/**
 * Names of the active playout policies, e.g. `["decisive", "lgrf2"]` (`["random"]` if none).
 */
active: Array<string>, 
/**
 * Decisive moves played in playouts so far.
 */
decisive_moves_played: number, 
/**
 * Anti-decisive (blocking) moves played in playouts so far.
 */
anti_decisive_moves_played: number, 
/**
 * Stored replies played (LGR family).
 */
lgr_replies_played: number, 
/**
 * Pool moves played (PoolRAVE).
 */
pool_moves_played: number, 
/**
 * MAST-chosen moves played.
 */
mast_moves_played: number, 
/**
 * Save-bridge answers played (`save_bridge`, Hex).
 */
save_bridge_moves_played: number, 
/**
 * Depth-2 root search result for the current root: `"off"`, `"win: c3"`,
 * `"excluded 4 of 9 moves"`, `"no critical move"`.
 */
depth2: string, 
/**
 * Times the depth-2 search changed the root's move set (win found or moves excluded).
 */
depth2_firings: number, 
/**
 * Stored LGR-1/LGRF-1 replies `[previous move, reply]` (capped at 50 per player, player 0 first).
 */
lgr_replies: Array<[string, string]>, 
/**
 * Number of stored 1-move replies and 2-move replies.
 */
lgr_table_size: [number, number], 
/**
 * Current PoolRAVE pool of the last playout, best AMAF first.
 */
pool: Array<string>, 
/**
 * MAST: the 10 moves with the highest mean reward `[move, q, n]` for the side to move at the root.
 */
mast_top: Array<[string, number, number]>, 
/**
 * QB: running mean and standard deviation of the simulation length (moves from the root)
 * of wins, per player.
 */
qb_length_mean: [number, number], 
/**
 * QB standard deviations.
 */
qb_length_std: [number, number], };

export type ChildStats = { 
/**
 * Move in the game's notation.
 */
move: string, 
/**
 * Dense move index.
 */
index: number, 
/**
 * Visit count n.
 */
visits: number, 
/**
 * Mean value Q in [0, 1] from the side to move's view.
 */
q: number, 
/**
 * AMAF visits of this move at the root (0 when AMAF is off).
 */
amaf_visits: number, 
/**
 * AMAF mean (null when no AMAF data).
 */
amaf_q: number | null, 
/**
 * RAVE/GRAVE weight β used in selection (null without RAVE/GRAVE).
 */
beta: number | null, 
/**
 * Prior P (null without PUCT).
 */
prior: number | null, 
/**
 * `"win"`, `"loss"`, `"draw"` (side to move's view) or null.
 */
proven: Proven | null, 
/**
 * PUCT's exploration term `c·P·√N / (1 + n)` (Silver et al. 2017; N the root's visits,
 * n this child's; [`crate::mcts::selection::puct`]) as selection sees it now; the child's
 * score is Q (first-play urgency `fpu` when unvisited) plus this. Null without PUCT.
 */
puct_u: number | null, };

export type SearchStats = { 
/**
 * Game spec.
 */
game: string, 
/**
 * Side to move at the root.
 */
to_move: number, 
/**
 * Best move by the final-move rule, or null.
 */
best_move: string | null, 
/**
 * Principal variation (robust child at each level).
 */
pv: Array<string>, 
/**
 * Proven value of the root from the side to move's view.
 */
proven: Proven | null, 
/**
 * Q of the best move.
 */
value: number, 
/**
 * Iterations run in total on this tree (including before tree reuse in the visits).
 */
iterations: number, 
/**
 * Playouts run (iterations that reached a non-terminal leaf).
 */
playouts: number, 
/**
 * Arena entries.
 */
nodes: number, 
/**
 * Deepest node reached.
 */
max_depth: number, 
/**
 * Time spent in `run`, milliseconds (from the injected clock).
 */
elapsed_ms: number, 
/**
 * iterations / seconds (0 when no time elapsed).
 */
iterations_per_s: number, 
/**
 * Tree storage bytes / nodes.
 */
bytes_per_node: number, 
/**
 * Tree storage bytes (arena capacity plus the transposition table).
 */
tree_bytes: number, 
/**
 * The cap that holds the tree at its size (it is kept, stops growing, and playouts go on
 * refining its statistics): `"node_cap"`, `"memory_cap"`, or null while it may grow.
 */
tree_cap: TreeCap | null, 
/**
 * The memory cap in bytes (`memory_cap_mib` × 2^20).
 */
memory_cap_bytes: number, 
/**
 * Root children by visits, descending.
 */
children: Array<ChildStats>, 
/**
 * Playout-policy internals.
 */
policy: PolicyStats, 
/**
 * Name of the prior evaluator when PUCT is on.
 */
evaluator: string | null, 
/**
 * PUCT's exploration constant c when PUCT is on (null otherwise), for the formula
 * `Q + c·P·√N / (1 + n)` beside [`ChildStats::puct_u`].
 */
puct_c: number | null, 
/**
 * Visits N of the root (the N of the PUCT and UCB1 terms).
 */
root_visits: number, 
/**
 * The final-move rule that chose `best_move` (`"robust"`: most visits, `"max"`: highest Q,
 * `"secure"`: highest `Q − A/√n`; a proven win always first, a proven loss last); null after
 * a Gumbel root search (sequential halving chose the move) and in statistics written before
 * the key existed.
 */
final_move: FinalMove | null, 
/**
 * How a new leaf was valued: `"rollout"` (a playout to the end: `playouts` counts them),
 * `"value"` (the evaluator's value head, no playout) or `"mix"` (both, AlphaGo's blend);
 * null in statistics written before the key existed.
 */
leaf: LeafEval | null, };

export type Source = "shipped" | "user";

export type Trunk = "mlp" | "conv";

export type NetInfo = { 
/**
 * The game spec the net plays.
 */
spec: string, 
/**
 * The name given at registration (the file name for shipped nets).
 */
name: string, 
/**
 * Shipped or user-given.
 */
source: Source, 
/**
 * Weights and biases.
 */
parameters: number, 
/**
 * Layer widths: inputs, each hidden layer, policy outputs (e.g. `[18, 128, 128, 9]`). For a
 * convolutional net each trunk layer's width is its units, channels × cells (`[98, 1568,
 * 1568, 49]`: hex:7, 32 channels, the first convolution and one residual block; see
 * `Net::layers`).
 */
layers: Array<number>, 
/**
 * Size of the weights file in bytes.
 */
bytes: number, 
/**
 * The trunk: `"mlp"` or `"conv"`.
 */
trunk: Trunk, 
/**
 * A convolutional net's channels C (absent for an MLP).
 */
channels?: number, 
/**
 * A convolutional net's residual blocks, the 3×3 convolutions after the first (absent for
 * an MLP).
 */
blocks?: number, 
/**
 * A convolutional net's value head units H (absent for an MLP).
 */
value_hidden?: number, };

export type MovePrior = { 
/**
 * The move in the game's notation.
 */
move: string, 
/**
 * Its dense index (cells as `row·cols + col`; see `Game::move_index`).
 */
index: number, 
/**
 * P(s, a), the priors of all legal moves summing to 1.
 */
p: number, };

export type PositionEval = { 
/**
 * The evaluator's name (`uniform`, `tactical`, `net`).
 */
evaluator: string, 
/**
 * P per legal move, in the engine's legal-move order (empty once the game is over).
 */
priors: Array<MovePrior>, 
/**
 * The value head's estimate in [0, 1] for the side to move (the engine's reward scale:
 * 1 a sure win, 0.5 a draw); `None` without a network or once the game is over.
 */
value: number | null, 
/**
 * The net that answered (`None` without a network).
 */
net: NetInfo | null, };

export type BoardView = { 
/**
 * The game's registered name ([`registry::GameFacts::name`]: `tictactoe`, `hex`, `pentago`,
 * `connect4`), the key of the page's renderers.
 */
kind: GameName, 
/**
 * The game spec string, e.g. `hex:7`.
 */
spec: string, 
/**
 * Board height in cells.
 */
rows: number, 
/**
 * Board width in cells.
 */
cols: number, 
/**
 * `rows * cols` entries, index `row * cols + col`: −1 empty, 0 player 0, 1 player 1.
 */
cells: Array<number>, 
/**
 * Side to move, `None` when the game is over.
 */
to_move: 0 | 1 | null, 
/**
 * The last move in the game's notation, if any.
 */
last_move: string | null, 
/**
 * Cells touched by the last move (the placed stone; for Pentago after its rotation).
 */
last_cells: Array<number>, 
/**
 * Cells of the winning line or chain (both sides' fives in a Pentago draw by double five).
 */
winning_cells: Array<number>, 
/**
 * The outcome once the game is over (serde's externally tagged `Outcome`: `{ "Win": p }` or
 * `"Draw"`).
 */
outcome: { Win: 0 | 1 } | 'Draw' | null, 
/**
 * Number of moves played.
 */
ply: number, };

export type OutcomeView = { 
/**
 * The winner (player 0 moves first), or `None` for a draw.
 */
winner: 0 | 1 | null, };

export type Snapshot = { 
/**
 * The position as the renderers read it.
 */
view: BoardView, 
/**
 * Legal moves in notation, ascending dense index (empty once over).
 */
legal: Array<string>, 
/**
 * Moves played from the start to the current position, in notation.
 */
moves: Array<string>, 
/**
 * Moves that `redo` would replay, in order.
 */
redo: Array<string>, 
/**
 * `{ winner }` once the game is over, else `null`.
 */
outcome: OutcomeView | null, };

export type SolveMoveValue = { 
/**
 * The move in notation (`d4`).
 */
move: string, 
/**
 * Whether the side to move wins after playing it (null: not proven yet; false for a draw).
 */
moverWins: boolean | null, 
/**
 * Its exact value for the side to move: `win`, `draw` or `loss` (null: not proven yet).
 */
value: 'win' | 'draw' | 'loss' | null, };

export type SolveStats = { 
/**
 * MID calls (df-pn) or positions searched (alpha-beta).
 */
midCalls: number, 
/**
 * Nodes created (df-pn) or positions searched (alpha-beta): the work.
 */
expansions: number, 
/**
 * Nodes settled without search (knowledge, finished games).
 */
terminal: number, 
/**
 * Transposition-table entries in use.
 */
ttUsed: number, 
/**
 * Transposition-table entries overwritten.
 */
ttReplaced: number, };

export type SolveProgress = { 
/**
 * Whether the side to move at the root wins, once proven (null: not yet; false for a draw).
 */
rootWins: boolean | null, 
/**
 * The root's exact value for the side to move: `win`, `draw` or `loss` (null: not yet).
 */
rootValue: 'win' | 'draw' | 'loss' | null, 
/**
 * A winning move of the side to move, once proven (null: not yet, or the root is not won).
 */
winningMove: string | null, 
/**
 * A move that keeps the root's value, a winning or drawing move (null: not yet, or lost).
 */
bestMove: string | null, 
/**
 * The solver: `dfpn` (Hex, proof-number search) or `alphabeta` (the endgame solver's games,
 * with draws).
 */
solver: 'dfpn' | 'alphabeta', 
/**
 * The side to move at the root (0 or 1).
 */
toMove: 0 | 1, 
/**
 * Every legal move of the root, ascending cell index, with its value for the side to move.
 */
moves: Array<SolveMoveValue>, 
/**
 * The solver's counters.
 */
stats: SolveStats, 
/**
 * Whether the root and every move are proven.
 */
done: boolean, 
/**
 * Bytes of the solver's transposition table as it stands (it grows as the solve needs, up
 * to its budget: 64 MiB for Hex, 48 MiB for the endgame solver; `src/solve/table.rs`).
 */
ttBytes: number, 
/**
 * When the browser refused the table's doubling: a sentence (the solve went on with the
 * table it had; its values are exact). Null otherwise.
 */
ttNote: string | null, };

export type ShippedNet = { 
/**
 * Game spec (`tictactoe`, `hex:5`, ...).
 */
spec: string, 
/**
 * File name in `models/` (`tictactoe.mctsnet`).
 */
file: string, };

export type PositionReview = { 
/**
 * 0-based: the position after this many moves.
 */
index: number, 
/**
 * The position's board in the reference notation ([`AnyGame::board_string`]), which
 * [`Review::insert`] checks.
 */
board: string, 
/**
 * The side to move (0 or 1; in a finished game, the side whose turn it would be).
 */
to_move: 0 | 1, 
/**
 * The win probability of the side to move, in [0, 1] (a draw ½): the exact value when
 * proven, else the search's root value ([`root_value`]).
 */
value: number, 
/**
 * The search's own estimate ([`root_value`]), null for a finished game.
 */
estimate: number | null, 
/**
 * The exact value for the side to move when proven (by the solver, the search's
 * MCTS-Solver, or the rules for a finished game), null otherwise.
 */
exact: 'win' | 'draw' | 'loss' | null, 
/**
 * The best move: the search's (by its final-move rule), unless the position is proven and
 * the search's move is not proven to keep its value within the solve budget: then the
 * solver's winning or drawing move; null for a finished game.
 */
best_move: string | null, 
/**
 * The principal variation of the search (the most visited child at each level), starting
 * with `best_move`; only the solver's move when that replaced the search's.
 */
pv: Array<string>, 
/**
 * MCTS iterations (playouts) the search ran.
 */
iterations: number, 
/**
 * Playouts to the end of the game among them (iterations that reached a new leaf).
 */
playouts: number, 
/**
 * Milliseconds of the search (by the caller's clock; differs from run to run).
 */
search_ms: number, 
/**
 * Milliseconds of the exact solve, null when none was attempted (differs from run to run).
 */
solve_ms: number | null, };

export type Class = "best" | "good" | "inaccuracy" | "mistake" | "blunder";

export type ReviewSettings = { 
/**
 * The search preset ([`crate::mcts::SearchConfig::preset`]); default [`DEFAULT_PRESET`].
 */
preset: string, 
/**
 * Per-position budget in playouts (MCTS iterations); null with a time budget.
 */
iterations: number | null, 
/**
 * Per-position budget in milliseconds; null with a playout budget.
 */
ms: number | null, 
/**
 * Per-position budget of the exact solver in milliseconds (0: no exact solving).
 */
solve_ms: number, 
/**
 * The review's seed; position `i` is searched with [`position_seed`]`(seed, i)`.
 */
seed: number, };

export type PlyReview = { 
/**
 * 0-based: the move from position `ply` to position `ply + 1`.
 */
ply: number, 
/**
 * The move, in the game's notation.
 */
move: string, 
/**
 * The mover's name: `black` / `white` (Hex, Pentago), `x` / `o` (Tic-Tac-Toe).
 */
mover: string, 
/**
 * The mover's win probability before the move, in [0, 1].
 */
value_before: number, 
/**
 * The mover's win probability after the move, in [0, 1].
 */
value_after: number, 
/**
 * `max(0, value_before − value_after)`, in [0, 1].
 */
loss: number, 
/**
 * The move's class.
 */
class: Class, 
/**
 * The exact change of value for a move that made a proven value worse: `won → lost`,
 * `won → drawn` or `drawn → lost`; null otherwise.
 */
label: string | null, 
/**
 * Lichess's accuracy of this move in [0, 100] ([`accuracy_per_move`] on the win % before
 * and after).
 */
accuracy: number, 
/**
 * The best move of position `ply`.
 */
best_move: string | null, 
/**
 * The principal variation of position `ply`'s search.
 */
pv: Array<string>, 
/**
 * The exact value of position `ply` for the mover, null when not proven within the budget.
 */
exact_before: 'win' | 'draw' | 'loss' | null, 
/**
 * The exact value after the move for the mover, null when not proven within the budget.
 */
exact_after: 'win' | 'draw' | 'loss' | null, 
/**
 * MCTS iterations (playouts) of position `ply`'s search.
 */
iterations: number, 
/**
 * Playouts to the end of the game among them.
 */
playouts: number, };

export type PlayerSummary = { 
/**
 * Lichess's game accuracy in [0, 100] ([`game_accuracy`]); null when the player made no
 * move.
 */
accuracy: number | null, 
/**
 * Moves classed `best`.
 */
best: number, 
/**
 * Moves classed `good`.
 */
good: number, 
/**
 * Moves classed `inaccuracy`.
 */
inaccuracy: number, 
/**
 * Moves classed `mistake`.
 */
mistake: number, 
/**
 * Moves classed `blunder`.
 */
blunder: number, };

export type PositionTiming = { 
/**
 * The position (after this many moves).
 */
position: number, 
/**
 * Milliseconds of its search.
 */
search_ms: number, 
/**
 * Milliseconds of its exact solve, null when none was attempted.
 */
solve_ms: number | null, 
/**
 * Whether it was proven (by the solver, the search or the rules).
 */
proven: boolean, };

export type GameReview = { 
/**
 * The game spec, normalised.
 */
game: string, 
/**
 * The main line's moves, normalised.
 */
moves: Array<string>, 
/**
 * The settings.
 */
settings: ReviewSettings, 
/**
 * One entry per move.
 */
plies: Array<PlyReview>, 
/**
 * Per player (by name): accuracy and the count of each class.
 */
summary: Record<string, PlayerSummary>, 
/**
 * Per position: the milliseconds spent.
 */
timing: Array<PositionTiming>, };

export type Variation = { 
/**
 * How many moves of the parent line come before the variation's first move.
 */
at: number, 
/**
 * The variation's moves in the game's notation (at least one).
 */
moves: Array<string>, 
/**
 * The variations that leave this one (each `at` counted in this variation's moves).
 */
variations: Array<Variation>, };

export type GameRecordText = { 
/**
 * Normalised game spec, e.g. `hex:7`, `hex:11:swap`.
 */
spec: string, 
/**
 * The main line: moves from the start in the game's notation.
 */
moves: Array<string>, 
/**
 * Sentences about what the reader changed or left out (empty when nothing).
 */
notes: Array<string>, 
/**
 * The variations of the main line (canonical: see the module doc); empty when none.
 */
variations: Array<Variation>, };

export type GameRecord = { 
/**
 * Index of the game in the match (0-based).
 */
index: number, 
/**
 * Whether configuration A had the first move (player 0).
 */
a_first: boolean, 
/**
 * Moves in the game's notation, the opening's moves first.
 */
moves: Array<string>, 
/**
 * How many of `moves` are the opening's (given, not chosen by an engine). Absent from the
 * JSON when the game started from the empty board.
 */
opening_plies?: number, 
/**
 * Score of configuration A: 1 win, 0.5 draw, 0 loss.
 */
a_score: number, 
/**
 * Winner as a player number (0 moves first), `None` for a draw.
 */
winner: 0 | 1 | null, 
/**
 * A cap that held either side's tree at the end of a move (the memory cap first): the tree
 * stopped growing there. Absent from the JSON when none did.
 */
tree_cap?: TreeCap, };

export type Standings = { 
/**
 * Games finished.
 */
games: number, 
/**
 * Wins, draws and losses of A.
 */
wins: number, 
/**
 * Draws.
 */
draws: number, 
/**
 * Losses of A.
 */
losses: number, 
/**
 * A's score rate, draws counting one half.
 */
win_rate: number, 
/**
 * 95% Wilson score interval of the win rate, `[low, high]`.
 */
win_rate_ci95: [number, number], 
/**
 * Elo difference A − B from the win rate, and its interval from the Wilson bounds
 * (±inf at rates 0 or 1: null in JSON).
 */
elo: number | null, 
/**
 * Elo interval `[low, high]` (an infinite bound: null in JSON).
 */
elo_ci95: [number | null, number | null], 
/**
 * Games in which A was the first player (player 0), and A's wins, draws and losses in them.
 */
a_first_games: number, 
/**
 * A's wins as the first player.
 */
a_first_wins: number, 
/**
 * Draws with A as the first player.
 */
a_first_draws: number, 
/**
 * A's losses as the first player (B's wins as the second player).
 */
a_first_losses: number, 
/**
 * Games in which A was the second player (player 1).
 */
a_second_games: number, 
/**
 * A's wins as the second player.
 */
a_second_wins: number, 
/**
 * Draws with A as the second player.
 */
a_second_draws: number, 
/**
 * A's losses as the second player (B's wins as the first player).
 */
a_second_losses: number, 
/**
 * Games won by the first player, whichever configuration it was.
 */
first_player_wins: number, 
/**
 * Games won by the second player.
 */
second_player_wins: number, };

export type NodeValues = { 
/**
 * Visit count N.
 */
n: number, 
/**
 * Mean value Q = W/N in [0, 1] (0.5 when N = 0).
 */
q: number, 
/**
 * Proven status (`"win"`, `"loss"`, `"draw"` or null in JSON).
 */
proven: Proven | null, };

export type ChildScore = { 
/**
 * The move into the child.
 */
move: string, 
/**
 * The child's visits n (as the selection saw them).
 */
n: number, 
/**
 * The child's mean value Q (the mover's view).
 */
q: number, 
/**
 * AMAF value of the move in the AMAF source table (RAVE/GRAVE), when it has data.
 */
amaf_q: number | null, 
/**
 * RAVE/GRAVE weight β used with `amaf_q`.
 */
beta: number | null, 
/**
 * Prior P (PUCT).
 */
prior: number | null, 
/**
 * The score; null when infinite (an untried move, or n = 0 under UCB1).
 */
score: number | null, 
/**
 * Whether the move was not yet in the tree (chosen for expansion).
 */
untried: boolean, };

export type NodeKind = "root" | "selected" | "expanded" | "rollout";

export type TraceNode = { 
/**
 * Plies below the root.
 */
depth: number, 
/**
 * The move into the node (null at the root).
 */
move: string | null, 
/**
 * Dense index of that move (cell `row*size+col` in Hex), null at the root.
 */
index: number | null, 
/**
 * The player who made the move into the node (at the root: the player who is not to move).
 */
mover: 0 | 1, 
/**
 * How the node was reached (`"root"`, `"selected"`, `"expanded"` or `"rollout"` in JSON).
 */
kind: NodeKind, 
/**
 * Values before backpropagation.
 */
before: NodeValues, 
/**
 * Values after backpropagation.
 */
after: NodeValues, 
/**
 * The score this node had at its parent when it was chosen (null at the root and for
 * rollout nodes).
 */
chosen: ChildScore | null, 
/**
 * The best-scoring other child of the parent (null when there was none).
 */
rival: ChildScore | null, };

export type TraceOutcome = { 
/**
 * The winner (0 first player, 1 second), null for a draw.
 */
winner: 0 | 1 | null, 
/**
 * Reward of each player (1 win, ½ draw, 0 loss), before any quality-based bonus; with a
 * network leaf value (`leaf = value | mix`) the value backed up instead.
 */
reward: [number, number], };

export type IterationTrace = { 
/**
 * The number of this iteration (1 for the first of the search).
 */
iteration: number, 
/**
 * Game spec.
 */
game: string, 
/**
 * The player to move at the root.
 */
to_move: 0 | 1, 
/**
 * The selection formula in force, in words and symbols.
 */
formula: string, 
/**
 * The nodes of the path with N/Q before and after.
 */
path: Array<TraceNode>, 
/**
 * The move of the node this iteration expanded (null: none, e.g. a terminal leaf or the
 * node cap).
 */
expanded: string | null, 
/**
 * Whether the descent stopped at a terminal position (no playout then).
 */
terminal_leaf: boolean, 
/**
 * Playout moves in notation.
 */
playout: Array<string>, 
/**
 * Playout moves as dense indices.
 */
playout_indices: Array<number>, 
/**
 * When the playout went on past the game's end to fill the board (`fill_playouts`, a
 * uniformly random playout): how many of `playout`'s moves were played up to the end (the
 * winning connection); `None` when the playout ends with the game.
 */
decided_at: number | null, 
/**
 * Whether AMAF credited the filled board (`fill_playouts` in a search with AMAF, on a game
 * that fills): the cells left empty at the end were dealt (by the policy, or at random)
 * when the playout did not list them.
 */
filled: boolean, 
/**
 * The outcome backed up.
 */
outcome: TraceOutcome, 
/**
 * Tree nodes before the iteration.
 */
nodes_before: number, 
/**
 * Tree nodes after the iteration.
 */
nodes_after: number, 
/**
 * Root proven status after the iteration, the side to move's view.
 */
root_proven: Proven | null, };
