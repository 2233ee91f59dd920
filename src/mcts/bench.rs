//! Speed measurement the CLI's `mcts bench` calls (native only: it reads the wall clock).

#[cfg(not(target_arch = "wasm32"))]
use crate::game::AnyGame;
#[cfg(not(target_arch = "wasm32"))]
use crate::mcts::{AnySearch, Budget, SearchConfig};

/// Why a measurement could not be made.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BenchError {
    /// The game spec was refused (the game's message).
    #[error("{0}")]
    Game(String),
    /// The preset name was refused.
    #[error(transparent)]
    Config(#[from] crate::mcts::config::ConfigError),
    /// The search could not be created.
    #[error(transparent)]
    Search(#[from] crate::mcts::search::SearchError),
}

/// One measurement of MCTS from a position.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BenchResult {
    /// Game spec.
    pub game: String,
    /// Preset name.
    pub preset: String,
    /// Iterations per second of wall time.
    pub iterations_per_s: f64,
    /// Tree storage bytes / nodes at the end.
    pub bytes_per_node: f64,
    /// Tree storage bytes at the end (peak: the arena only grows during a search).
    pub tree_bytes: u64,
    /// Nodes at the end.
    pub nodes: u64,
    /// Iterations run.
    pub iterations: u64,
    /// Milliseconds searched.
    pub elapsed_ms: f64,
}

/// Runs the preset `preset` from the start position of `game` (a spec string) for `ms`
/// milliseconds on one thread and reports iterations per second and memory (the evaluators that
/// need no network: [`crate::mcts::search::Builtin`]).
///
/// # Errors
/// Bad spec or preset.
#[cfg(not(target_arch = "wasm32"))]
pub fn iterations_per_s(game: &str, preset: &str, ms: f64) -> Result<BenchResult, BenchError> {
    iterations_per_s_with::<crate::mcts::search::Builtin>(game, preset, SearchConfig::preset(preset)?, ms)
}

/// [`iterations_per_s`] with the configuration `cfg` (a preset with overrides, `mcts bench
/// --set`), its evaluators made by `E` (see [`crate::mcts::search::Evaluators`]); `preset` names
/// it in the result.
///
/// # Errors
/// Bad spec, or a configuration the search refuses.
#[cfg(not(target_arch = "wasm32"))]
pub fn iterations_per_s_with<E: crate::mcts::search::Evaluators>(
    game: &str,
    preset: &str,
    cfg: SearchConfig,
    ms: f64,
) -> Result<BenchResult, BenchError> {
    let g = AnyGame::from_spec(game).map_err(|e| BenchError::Game(e.to_string()))?;
    let mut s = AnySearch::with_evaluators::<E>(&g, cfg)?;
    let t0 = std::time::Instant::now();
    let clock = move || t0.elapsed().as_secs_f64() * 1000.0;
    let r = s.run(Budget { iterations: None, millis: Some(ms) }, &clock);
    let st = s.stats();
    Ok(BenchResult {
        game: game.to_string(),
        preset: preset.to_string(),
        iterations_per_s: if r.elapsed_ms > 0.0 { r.iterations as f64 * 1000.0 / r.elapsed_ms } else { 0.0 },
        bytes_per_node: st.bytes_per_node,
        tree_bytes: st.tree_bytes,
        nodes: st.nodes,
        iterations: r.iterations,
        elapsed_ms: r.elapsed_ms,
    })
}
