//! `mcts search`: one position searched, plain or root-parallel, and its report.

use serde_json::json;

use super::ReportError;
use crate::game::AnyGame;
use crate::mcts::parallel::{search_root_parallel, worker_seed};
use crate::mcts::{AnySearch, Budget, SearchConfig, SearchStats};

/// The result of [`search`]: the root statistics (merged over the threads of a root-parallel
/// search) and, with more than one thread, each thread's own.
#[derive(Clone, Debug)]
pub struct SearchReport {
    /// The root statistics ([`SearchStats`]; the merged ones with several threads).
    pub stats: SearchStats,
    /// Threads searched (1: the plain search).
    pub threads: usize,
    /// With `threads > 1`: each thread's statistics, thread `i` seeded [`worker_seed`]`(seed, i)`.
    pub workers: Vec<SearchStats>,
    /// The configuration's seed (thread 0's).
    pub seed: u64,
}

/// Searches `game` with `config` for `budget` on `threads` threads (1: the plain search, bit for
/// bit; more: root-parallel, [`crate::mcts::parallel`]), timing it on the wall clock.
///
/// # Errors
/// [`ReportError::GameOver`] for a finished game; a configuration the engine refuses; a thread
/// count outside 1 ..= 64.
pub fn search(game: &AnyGame, config: &SearchConfig, budget: Budget, threads: usize) -> Result<SearchReport, ReportError> {
    if game.outcome().is_some() {
        return Err(ReportError::GameOver);
    }
    if threads == 1 {
        let mut s = AnySearch::new(game, config.clone()).map_err(ReportError::engine)?;
        let t0 = std::time::Instant::now();
        let clock = move || t0.elapsed().as_secs_f64() * 1000.0;
        s.run(budget, &clock);
        return Ok(SearchReport { stats: s.stats(), threads, workers: Vec::new(), seed: config.seed });
    }
    let r = search_root_parallel(game, config, budget, threads).map_err(ReportError::engine)?;
    Ok(SearchReport { stats: r.merged, threads, workers: r.workers, seed: config.seed })
}

impl SearchReport {
    /// The report as `mcts search --json` prints it: the statistics' keys (`best_move`, `pv`,
    /// `proven`, `value`, `iterations`, `children`, `policy`, ...); with several threads also
    /// `threads` and `workers` (`[{seed, iterations, best_move, iterations_per_s}]`).
    ///
    /// # Errors
    /// Encoding failed (a bug).
    pub fn to_json(&self) -> Result<String, ReportError> {
        if self.threads == 1 {
            return Ok(serde_json::to_string(&self.stats)?);
        }
        let mut v = serde_json::to_value(&self.stats)?;
        v["threads"] = json!(self.threads);
        v["workers"] = self
            .workers
            .iter()
            .enumerate()
            .map(|(i, w)| {
                json!({"seed": worker_seed(self.seed, i), "iterations": w.iterations, "best_move": w.best_move, "iterations_per_s": w.iterations_per_s})
            })
            .collect();
        Ok(v.to_string())
    }
}
