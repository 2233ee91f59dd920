//! The engine's input limits, in one place (`docs/limits.md` lists them with the page's and the
//! command line's, and what each door answers when a limit is passed).
//!
//! Every limit is answered with a typed error naming the limit; nothing panics and nothing already
//! played is lost.

/// Longest game record read, in bytes (UTF-8): 1,000,000. The longest game of any supported rule
/// set is Hex 19×19 with the swap move, 362 moves, about 2,000 bytes as a move list and 4,000 as
/// HexGui's SGF; the rest of the room is for comments and player names. Longer texts are refused
/// with [`crate::record::RecordError::TooLong`] before anything is parsed.
pub const MAX_RECORD_BYTES: usize = 1_000_000;

/// Largest network weights file read (a `.mctsnet` file, [`crate::nn::Mlp::from_bytes`]), in
/// bytes: 71,442,529, the largest file the format can hold (a spec of 65,535 bytes, 16 hidden
/// layers, every layer [`crate::nn::MAX_WIDTH`] wide), so no file the format allows is refused;
/// the shipped nets are 80–150 kB. A longer file is refused with
/// [`crate::nn::NetError::TooLong`] before anything is read; the page checks a chosen file's
/// size against it and does not read a longer one.
pub const MAX_NET_BYTES: usize = 71_442_529;

/// Longest Go Text Protocol command line `mcts gtp` reads, in bytes: 65,536 (GTP 2, Farnebäck
/// 2002, sets no limit; the longest meaningful command, `play white swap-pieces`, is 23 bytes).
/// A longer line is answered `? command line too long` and skipped up to its end, in bounded
/// memory.
pub const MAX_GTP_LINE_BYTES: usize = 65_536;

/// Largest board side: Hex up to 19×19 (`hex:19`), as HexGui and Little Golem; Tic-Tac-Toe is 3×3
/// and Pentago 6×6. [`crate::game::MAX_MOVES`] follows from it.
pub const MAX_BOARD_SIDE: usize = 19;

/// Largest search budget accepted from the page or a request, in milliseconds or playouts:
/// 2^53 − 1, JavaScript's `Number.MAX_SAFE_INTEGER` (the largest integer a page message carries
/// exactly). A search that long is bounded in memory by the node cap (`SearchConfig::node_cap`).
pub const MAX_BUDGET: f64 = 9_007_199_254_740_991.0;

/// The page's node cap when the engine parameters do not set `node_cap`: 2,000,000 nodes (about
/// 120 MB at the engine's 50–65 bytes per node, measured by `mcts bench`; PUCT presets about
/// 110–120 bytes per node on Hex 11×11, a WebAssembly memory of about 330 MB at the cap), a size
/// a browser tab carries comfortably. Natively the default is
/// `SearchConfig::default().node_cap` (5,000,000); either may be set in 1..=1e9 (`node_cap`).
pub const PAGE_NODE_CAP: u64 = 2_000_000;

/// The page's memory cap per search when the engine parameters do not set `memory_cap_mib`:
/// 512 MiB of the worker's WebAssembly memory (`SearchConfig::memory_cap_mib`; the check counts
/// the module's whole linear memory, which never shrinks). Before it, an Arena on Hex 19×19
/// with `rave_table_visits = 1` grew a worker to about 3.7 GB and killed it ("unreachable").
/// Natively the default is `SearchConfig::default().memory_cap_mib` (2,048 MiB).
pub const PAGE_MEMORY_CAP_MIB: u64 = 512;

/// Defaults for the tree's caps where the engine parameters do not set them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeLimits {
    /// `node_cap`, nodes.
    pub node_cap: u64,
    /// `memory_cap_mib`, MiB.
    pub memory_cap_mib: u64,
}

/// The page's caps: [`PAGE_NODE_CAP`] nodes and [`PAGE_MEMORY_CAP_MIB`] MiB.
pub const PAGE_TREE_LIMITS: TreeLimits = TreeLimits { node_cap: PAGE_NODE_CAP, memory_cap_mib: PAGE_MEMORY_CAP_MIB };

/// Most moves a request or a page message may carry: 1,000 (a game never has more than 362).
pub const MAX_REQUEST_MOVES: usize = 1_000;

/// Most iterations one step-through request (`stepRun`) may run: 100,000 (as `www/src/protocol.ts`).
pub const MAX_STEP_ITERATIONS: u64 = 100_000;

/// Most nodes a tree snapshot request (`inspect`, `stepNew`, `stepRun`) may ask for: 1,000,000
/// (the page asks for at most 200,000; each costs about 30 bytes of message).
pub const MAX_SNAPSHOT_NODES: u64 = 1_000_000;
