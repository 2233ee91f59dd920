//! The reports of the command-line verbs `mcts search`, `mcts arena` and `mcts solve`: the work
//! and the JSON each prints with `--json`, built here once for every door to the engine — the
//! `mcts` tool (`src/bin/mcts/`) and the Python package (`python/`) call the same functions, so
//! the same seed and budget give the same report, key for key.
//!
//! - [`search`]: one position searched (plain or root-parallel), [`SearchReport`];
//! - [`arena`]: a match of two configurations, game by game ([`Match::play`], for callers that
//!   spread the games over machines) or on threads ([`Match::play_all`]), and its report;
//! - [`review`]: a whole game reviewed position by position (win probability before and after each
//!   move, Lichess's classes and accuracy, exact values where a solver reaches), resumable and
//!   free of threads and clocks, so the page's workers drive the same core; [`review::review_threads`]
//!   is native;
//! - [`solve`]: the exact Hex solvers on a position or on every move of it, [`SolveReport`].
//!
//! The page's wasm module (`src/wasm/search.rs`) builds the report of a search it ran with the
//! same [`SearchReport`], so a search finished in the page reaches its host (the embed's
//! `searchFinished`, the notebook widget) as `mcts search --json` prints it. The rest is native
//! only (threads, clocks, files): [`arena`], [`solve`], [`search::search`], [`register_net`].

#[cfg(not(target_arch = "wasm32"))]
pub mod arena;
pub mod review;
pub mod search;
#[cfg(not(target_arch = "wasm32"))]
pub mod solve;

#[cfg(not(target_arch = "wasm32"))]
pub use arena::{openings_from, Clock, Match, MatchSpec};
pub use search::SearchReport;
#[cfg(not(target_arch = "wasm32"))]
pub use solve::{SolveOptions, SolveReport, Solver};

use crate::arena::{ArenaError, OpeningsError};
use crate::game::registry::Registered;
use crate::game::{AnyGame, MoveError, Player, SpecError};
use crate::limits::abbreviate;
use crate::mcts::{Budget, SearchConfig};

/// Why a verb could not make its report. The messages are the sentences `mcts` prints after
/// `mcts: ` (and the Python package raises).
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// The game spec names no game we have.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// Move `index` (1-based) of a move list, written `text`, is unreadable or illegal.
    #[error("move {index} ('{}'): {source}", abbreviate(text))]
    Move {
        /// 1-based index in the list.
        index: usize,
        /// The move as written.
        text: String,
        /// Why the game refused it.
        source: MoveError,
    },
    /// An override that is not `key=value`.
    #[error("--set expects key=value, got '{}'", abbreviate(.0))]
    SetSyntax(String),
    /// The engine refused a preset, an override, a configuration, a net or a solve; the message
    /// is the engine's (whatever error type the engine returns).
    #[error("{0}")]
    Engine(String),
    /// A search of a finished game.
    #[error("the game is over: nothing to search")]
    GameOver,
    /// Game `index` (0-based) of an arena match failed.
    #[error("game {index}: {source}")]
    ArenaGame {
        /// 0-based game index.
        index: usize,
        /// What went wrong.
        source: ArenaError,
    },
    /// A file of openings could not be read.
    #[error("--openings {}: {source}", abbreviate(path))]
    OpeningsFile {
        /// The file as given.
        path: String,
        /// Why it could not be read.
        source: std::io::Error,
    },
    /// A line of a file of openings is not an opening of the game (the first bad line).
    #[error("--openings {}: {source}", abbreviate(path))]
    Openings {
        /// The file as given.
        path: String,
        /// The line and what is wrong with it.
        source: OpeningsError,
    },
    /// Encoding a report as JSON failed (a bug).
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

impl ReportError {
    /// An engine error as its message.
    pub fn engine(e: impl std::fmt::Display) -> ReportError {
        ReportError::Engine(e.to_string())
    }
}

/// A player's name in the reports of `g`, its registry's [`GameFacts::players`]: `x` and `o` in
/// Tic-Tac-Toe, `black` and `white` in Hex and Pentago (player 0 first).
///
/// [`GameFacts::players`]: crate::game::registry::GameFacts::players
pub fn player_name<G: Registered>(_: &G, p: Player) -> &'static str {
    G::FACTS.players[p as usize & 1]
}

/// The position after `moves` (reference notation; each entry one move) from the start of the
/// game `spec`.
///
/// # Errors
/// A bad spec, or a move that cannot be read or is illegal, named with its 1-based index.
pub fn position<S: AsRef<str>>(spec: &str, moves: &[S]) -> Result<AnyGame, ReportError> {
    let mut g = AnyGame::from_spec(spec)?;
    for (i, m) in moves.iter().enumerate() {
        let m = m.as_ref();
        g.play_text(m).map_err(|source| ReportError::Move { index: i + 1, text: m.to_string(), source })?;
    }
    Ok(g)
}

/// A configuration from a preset name, `key=value` overrides (applied in order) and an optional
/// seed.
///
/// # Errors
/// Unknown preset, an override that is not `key=value`, unknown key or out-of-range value.
pub fn config_from<S: AsRef<str>>(preset: &str, sets: &[S], seed: Option<u64>) -> Result<SearchConfig, ReportError> {
    let mut c = SearchConfig::preset(preset).map_err(ReportError::engine)?;
    for kv in sets {
        let kv = kv.as_ref();
        let (k, v) = kv.split_once('=').ok_or_else(|| ReportError::SetSyntax(kv.to_string()))?;
        c.set(k.trim(), v.trim()).map_err(ReportError::engine)?;
    }
    if let Some(s) = seed {
        c.seed = s;
    }
    Ok(c)
}

/// A budget from optional iterations and milliseconds (10,000 iterations when both are absent,
/// as every verb's default).
pub fn budget_from(iterations: Option<u64>, ms: Option<f64>) -> Budget {
    if iterations.is_none() && ms.is_none() {
        Budget { iterations: Some(10_000), millis: None }
    } else {
        Budget { iterations, millis: ms }
    }
}

/// Checks a time budget in milliseconds: 0 ..= 2^53 − 1, not NaN, not infinite (a search
/// without end would only stop at the node cap, and then go on forever).
///
/// # Errors
/// The sentence `mcts` gives for such a `--ms`.
pub fn check_ms(ms: f64) -> Result<f64, ReportError> {
    if ms.is_finite() && (0.0..=crate::limits::MAX_BUDGET).contains(&ms) {
        Ok(ms)
    } else {
        Err(ReportError::Engine(format!("{ms} is out of range: milliseconds are 0 ..= 2^53-1")))
    }
}

/// Reads a network weights file (`.mctsnet`) in bounded memory and time and registers it as the
/// net of its game for the rest of the process ([`crate::nn::models::register`]), in place of
/// the shipped one; `spec`, when given, is the game it must be for.
///
/// # Errors
/// As [`crate::nn::file::read_net`]; a net that does not load, or is for a game other than
/// `spec`. Each message starts with the path.
#[cfg(not(target_arch = "wasm32"))]
pub fn register_net(path: &std::path::Path, spec: Option<&str>) -> Result<crate::nn::models::NetInfo, ReportError> {
    let at = |e: &dyn std::fmt::Display| ReportError::Engine(format!("{}: {e}", path.display()));
    let bytes = crate::nn::file::read_net(path).map_err(ReportError::engine)?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let net = crate::nn::Net::from_bytes(&bytes).map_err(|e| at(&e))?;
    if let Some(spec) = spec.filter(|&s| s != net.spec()) {
        return Err(at(&format!("a net for '{}', not '{spec}'", abbreviate(net.spec()))));
    }
    crate::nn::models::register(&bytes, name.as_deref()).map_err(|e| at(&e))
}
