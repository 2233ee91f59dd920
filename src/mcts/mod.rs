//! Monte Carlo Tree Search, one file per concern:
//!
//! - [`config`]: [`SearchConfig`] (serde), presets, `set(key, value)`;
//! - [`tree`]: 24-byte nodes and 20-byte edges in contiguous per-node runs, lazy one-child-per-visit expansion, dense AMAF tables;
//! - [`selection`]: UCB1, RAVE β (both schedules), GRAVE β, PUCT, secure child as pure functions
//!   (the search applies them in one place, `search/score.rs`);
//! - [`playout`]: decisive/anti-decisive moves, LGR-1/LGRF-1/LGRF-2, PoolRAVE, MAST, QB, one
//!   file per policy;
//! - [`mcts_solver`]: MCTS-Solver with draws; [`transposition`]: Zobrist-keyed DAG (UCT1);
//! - [`evaluator`]: PUCT priors; [`stats`]: the JSON shapes; [`search`]: the loop, one file per
//!   phase (child score and AMAF source, expansion, playout, backpropagation, root, reports, trace);
//! - [`any`]: [`AnySearch`] dispatch; [`bench`]: iterations per second for `mcts bench`;
//! - [`parallel`]: root-parallel search (threads natively, Web Workers in the page), statistics merged.
//!
//! Time enters only through the injected [`Clock`], so the module builds for wasm32.
//!
//! ```
//! use mcts_playground::game::TicTacToe;
//! use mcts_playground::mcts::{Budget, Proven, Search, SearchConfig};
//! let mut s = Search::new(TicTacToe::new(), SearchConfig::preset("solver").unwrap()).unwrap();
//! let r = s.run(Budget { iterations: Some(100_000), millis: None }, &|| 0.0);
//! assert_eq!(s.stats().proven, Some(Proven::Draw));
//! # let _ = r;
//! ```

pub mod amaf;
pub mod any;
pub mod bench;
pub mod config;
pub mod evaluator;
pub mod mcts_solver;
pub mod parallel;
pub mod param;
pub mod playout;
pub mod schema;
pub mod search;
pub mod selection;
pub mod slots;
pub mod stats;
pub mod transposition;
pub mod tree;

pub use any::AnySearch;
pub use bench::BenchError;
pub use config::{
    ConfigError, FinalMove, LgrMode, MastMode, Preset, PriorKind, RaveSchedule, RootRule, SearchConfig, Selection, TranspositionRule,
    ValueEstimate,
};
pub use evaluator::Evaluator;
pub use param::{ParamInput, ParamValue};
pub use search::trace::{ChildScore, IterationTrace, NodeKind, NodeValues, StepError, TraceNode, TraceOutcome};
pub use search::{sequential_halving_visits, Builtin, Evaluators, GumbelReport, Search, SearchError};
pub use stats::{ChildStats, PolicyStats, SearchStats, TreeExport, TreeNodeExport};
pub use tree::Proven;

use serde::{Deserialize, Serialize};

/// How much to search in one `run` call; `None` = unlimited in that dimension. With both `None`
/// nothing is run. The tree is bounded by `SearchConfig::node_cap` (nodes) and
/// `SearchConfig::memory_cap_mib` (bytes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Budget {
    /// Iterations (playouts) to run in this call.
    pub iterations: Option<u64>,
    /// Milliseconds of the injected clock to spend in this call.
    pub millis: Option<f64>,
}

impl Budget {
    /// A budget of `n` iterations.
    pub fn iterations(n: u64) -> Budget {
        Budget { iterations: Some(n), millis: None }
    }
    /// A budget of `ms` milliseconds.
    pub fn millis(ms: f64) -> Budget {
        Budget { iterations: None, millis: Some(ms) }
    }
}

/// Why `run` returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// The iteration budget is spent (or no budget was given).
    Iterations,
    /// The time budget is spent.
    Time,
    /// MCTS-Solver proved the root.
    RootProven,
    /// The node cap was reached and `stop_at_node_cap` is set.
    NodeCap,
    /// The root position is terminal.
    GameOver,
    /// The memory cap (`SearchConfig::memory_cap_mib`) was reached and `stop_at_node_cap` is set.
    MemoryCap,
}

/// The cap that holds a tree at its size: it is kept and stops growing (statistics keep
/// improving). JSON `"node_cap"` or `"memory_cap"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum TreeCap {
    /// `SearchConfig::node_cap` nodes.
    NodeCap,
    /// `SearchConfig::memory_cap_mib`: one more growth step of the tree's storage could pass it.
    MemoryCap,
}

/// What one `run` call did.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RunReport {
    /// Iterations run in this call.
    pub iterations: u64,
    /// Milliseconds spent in this call (injected clock).
    pub elapsed_ms: f64,
    /// Why it returned.
    pub stop: StopReason,
}

/// Wall clock in milliseconds, injected so the core never calls `std::time` on wasm32
/// (native: `Instant`-based; wasm: `performance.now()` passed from `src/wasm/mod.rs`).
pub type Clock<'a> = &'a dyn Fn() -> f64;
