//! Statistics for people: the JSON shapes the CLI (`mcts search --json`) and the page draw.
//! The key names are a contract (see `notes/ENGINE_API.md`).

use serde::{Deserialize, Serialize};

use crate::mcts::config::{FinalMove, LeafEval};
use crate::mcts::tree::Proven;

/// One root child.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ChildStats {
    /// Move in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Dense move index.
    pub index: usize,
    /// Visit count n.
    pub visits: u64,
    /// Mean value Q in [0, 1] from the side to move's view.
    pub q: f64,
    /// AMAF visits of this move at the root (0 when AMAF is off).
    pub amaf_visits: u64,
    /// AMAF mean (null when no AMAF data).
    pub amaf_q: Option<f64>,
    /// RAVE/GRAVE weight β used in selection (null without RAVE/GRAVE).
    pub beta: Option<f64>,
    /// Prior P (null without PUCT).
    pub prior: Option<f64>,
    /// `"win"`, `"loss"`, `"draw"` (side to move's view) or null.
    pub proven: Option<Proven>,
    /// PUCT's exploration term `c·P·√N / (1 + n)` (Silver et al. 2017; N the root's visits,
    /// n this child's; [`crate::mcts::selection::puct`]) as selection sees it now; the child's
    /// score is Q (first-play urgency `fpu` when unvisited) plus this. Null without PUCT.
    #[serde(default)]
    pub puct_u: Option<f64>,
}

/// Playout-policy internals.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PolicyStats {
    /// Names of the active playout policies, e.g. `["decisive", "lgrf2"]` (`["random"]` if none).
    pub active: Vec<String>,
    /// Decisive moves played in playouts so far.
    pub decisive_moves_played: u64,
    /// Anti-decisive (blocking) moves played in playouts so far.
    pub anti_decisive_moves_played: u64,
    /// Stored replies played (LGR family).
    pub lgr_replies_played: u64,
    /// Pool moves played (PoolRAVE).
    pub pool_moves_played: u64,
    /// MAST-chosen moves played.
    pub mast_moves_played: u64,
    /// Save-bridge answers played (`save_bridge`, Hex).
    #[serde(default)]
    pub save_bridge_moves_played: u64,
    /// Depth-2 root search result for the current root: `"off"`, `"win: c3"`,
    /// `"excluded 4 of 9 moves"`, `"no critical move"`.
    pub depth2: String,
    /// Times the depth-2 search changed the root's move set (win found or moves excluded).
    pub depth2_firings: u64,
    /// Stored LGR-1/LGRF-1 replies `[previous move, reply]` (capped at 50 per player, player 0 first).
    pub lgr_replies: Vec<[String; 2]>,
    /// Number of stored 1-move replies and 2-move replies.
    pub lgr_table_size: [u64; 2],
    /// Current PoolRAVE pool of the last playout, best AMAF first.
    pub pool: Vec<String>,
    /// MAST: the 10 moves with the highest mean reward `[move, q, n]` for the side to move at the root.
    pub mast_top: Vec<(String, f64, u64)>,
    /// QB: running mean and standard deviation of the simulation length (moves from the root)
    /// of wins, per player.
    pub qb_length_mean: [f64; 2],
    /// QB standard deviations.
    pub qb_length_std: [f64; 2],
}

/// The statistics of a search (JSON keys are a contract).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SearchStats {
    /// Game spec.
    pub game: String,
    /// Side to move at the root.
    pub to_move: u8,
    /// Best move by the final-move rule, or null.
    pub best_move: Option<String>,
    /// Principal variation (robust child at each level).
    pub pv: Vec<String>,
    /// Proven value of the root from the side to move's view.
    pub proven: Option<Proven>,
    /// Q of the best move.
    pub value: f64,
    /// Iterations run in total on this tree (including before tree reuse in the visits).
    pub iterations: u64,
    /// Playouts run (iterations that reached a non-terminal leaf).
    pub playouts: u64,
    /// Arena entries.
    pub nodes: u64,
    /// Deepest node reached.
    pub max_depth: u32,
    /// Time spent in `run`, milliseconds (from the injected clock).
    pub elapsed_ms: f64,
    /// iterations / seconds (0 when no time elapsed).
    pub iterations_per_s: f64,
    /// Tree storage bytes / nodes.
    pub bytes_per_node: f64,
    /// Tree storage bytes (arena capacity plus the transposition table).
    pub tree_bytes: u64,
    /// The cap that holds the tree at its size (it is kept, stops growing, and playouts go on
    /// refining its statistics): `"node_cap"`, `"memory_cap"`, or null while it may grow.
    pub tree_cap: Option<crate::mcts::TreeCap>,
    /// The memory cap in bytes (`memory_cap_mib` × 2^20).
    pub memory_cap_bytes: u64,
    /// Root children by visits, descending.
    pub children: Vec<ChildStats>,
    /// Playout-policy internals.
    pub policy: PolicyStats,
    /// Name of the prior evaluator when PUCT is on.
    pub evaluator: Option<String>,
    /// PUCT's exploration constant c when PUCT is on (null otherwise), for the formula
    /// `Q + c·P·√N / (1 + n)` beside [`ChildStats::puct_u`].
    #[serde(default)]
    pub puct_c: Option<f64>,
    /// Visits N of the root (the N of the PUCT and UCB1 terms).
    #[serde(default)]
    pub root_visits: u64,
    /// The final-move rule that chose `best_move` (`"robust"`: most visits, `"max"`: highest Q,
    /// `"secure"`: highest `Q − A/√n`; a proven win always first, a proven loss last); null after
    /// a Gumbel root search (sequential halving chose the move) and in statistics written before
    /// the key existed.
    #[serde(default)]
    pub final_move: Option<FinalMove>,
    /// How a new leaf was valued: `"rollout"` (a playout to the end: `playouts` counts them),
    /// `"value"` (the evaluator's value head, no playout) or `"mix"` (both, AlphaGo's blend);
    /// null in statistics written before the key existed.
    #[serde(default)]
    pub leaf: Option<LeafEval>,
}

/// One node of a tree export.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TreeNodeExport {
    /// Move into this node (null at the root).
    #[serde(rename = "move")]
    pub mv: Option<String>,
    /// Visits.
    pub visits: u64,
    /// Q from the view of the player who moved into the node (root: side to move's view of
    /// the best move).
    pub q: f64,
    /// Proven status from the view of the player who moved into this node.
    pub proven: Option<Proven>,
    /// Children with the most visits, at most `top_k`, descending.
    pub children: Vec<TreeNodeExport>,
    /// Expanded children not shown.
    pub hidden_children: u64,
}

/// A tree export limited by top-k children and depth.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TreeExport {
    /// Game spec.
    pub game: String,
    /// Root position board string.
    pub board: String,
    /// The root.
    pub root: TreeNodeExport,
    /// Total arena entries.
    pub nodes: u64,
}
