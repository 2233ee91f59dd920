//! `mcts search`: one position searched, plain or root-parallel, and its report.
//!
//! [`SearchReport`] and its JSON are also built in the page (`src/wasm/search.rs`: the report of
//! a search the page ran, one worker or several merged); [`search`] itself is native only.

use serde_json::json;

use super::ReportError;
use crate::mcts::parallel::{merge_root_stats, worker_seed, ParallelError, MAX_WORKERS};
use crate::mcts::{SearchConfig, SearchStats};
#[cfg(not(target_arch = "wasm32"))]
use crate::{
    game::AnyGame,
    mcts::{parallel::search_root_parallel, Budget},
};

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
#[cfg(not(target_arch = "wasm32"))]
pub fn search(game: &AnyGame, config: &SearchConfig, budget: Budget, threads: usize) -> Result<SearchReport, ReportError> {
    if game.outcome().is_some() {
        return Err(ReportError::GameOver);
    }
    if threads == 1 {
        let mut s = crate::nn::search::any_search(game, config.clone()).map_err(ReportError::engine)?;
        let t0 = std::time::Instant::now();
        let clock = move || t0.elapsed().as_secs_f64() * 1000.0;
        s.run(budget, &clock);
        return Ok(SearchReport { stats: s.stats(), threads, workers: Vec::new(), seed: config.seed });
    }
    let r = search_root_parallel::<crate::nn::search::Nets>(game, config, budget, threads).map_err(ReportError::engine)?;
    Ok(SearchReport { stats: r.merged, threads, workers: r.workers, seed: config.seed })
}

impl SearchReport {
    /// The report of one search (one tree, one thread): its statistics and its configuration's
    /// seed, as [`search`] makes it with `threads` 1.
    pub fn single(stats: SearchStats, seed: u64) -> SearchReport {
        SearchReport { stats, threads: 1, workers: Vec::new(), seed }
    }

    /// The report of a root-parallel search whose workers searched elsewhere (the page's Web
    /// Workers): `parts` are the workers' root statistics, worker `i` seeded
    /// [`worker_seed`]`(config.seed, i)`, merged as [`search`] merges its threads
    /// ([`merge_root_stats`], the move by `config`'s final-move rule). One part is the plain
    /// search's report ([`SearchReport::single`]).
    ///
    /// # Errors
    /// No parts, more than 64, or statistics of different positions.
    pub fn root_parallel(mut parts: Vec<SearchStats>, config: &SearchConfig) -> Result<SearchReport, ReportError> {
        if parts.len() > MAX_WORKERS {
            return Err(ReportError::engine(ParallelError::Workers(parts.len())));
        }
        if parts.len() == 1 {
            return Ok(SearchReport::single(parts.remove(0), config.seed));
        }
        let merged = merge_root_stats(&parts, config.final_move, config.secure_a).map_err(ReportError::engine)?;
        Ok(SearchReport { stats: merged, threads: parts.len(), workers: parts, seed: config.seed })
    }

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{budget_from, config_from, position};

    /// The page builds the report of its root-parallel searches from the workers' statistics
    /// (`SearchReport::root_parallel`, in `src/wasm/search.rs`): the same JSON as the native
    /// threaded search, key for key, for the same workers.
    #[test]
    fn a_report_from_the_workers_statistics_is_the_threaded_searchs() {
        let game = position("hex:5", &["c3"]).unwrap();
        let config = config_from("rave", &["c=0.3"], Some(9)).unwrap();
        let threaded = search(&game, &config, budget_from(Some(600), None), 2).unwrap();
        let rebuilt = SearchReport::root_parallel(threaded.workers.clone(), &config).unwrap();
        assert_eq!(rebuilt.to_json().unwrap(), threaded.to_json().unwrap());
        let v: serde_json::Value = serde_json::from_str(&rebuilt.to_json().unwrap()).unwrap();
        assert_eq!(v["threads"], 2);
        assert_eq!(v["workers"][1]["seed"], 10, "worker 1 seeded seed + 1");

        // One worker: the plain search's report, exactly the statistics' JSON.
        let plain = search(&game, &config, budget_from(Some(300), None), 1).unwrap();
        let one = SearchReport::root_parallel(vec![plain.stats.clone()], &config).unwrap();
        assert_eq!(one.to_json().unwrap(), serde_json::to_string(&plain.stats).unwrap());
        assert_eq!(SearchReport::single(plain.stats.clone(), 9).to_json().unwrap(), plain.to_json().unwrap());
    }

    #[test]
    fn bad_parts_are_named() {
        let config = config_from("uct", &[] as &[&str], None).unwrap();
        let e = SearchReport::root_parallel(Vec::new(), &config).unwrap_err().to_string();
        assert_eq!(e, "nothing to merge: no worker statistics");
        let game = position("tictactoe", &[] as &[&str]).unwrap();
        let s = search(&game, &config, budget_from(Some(50), None), 1).unwrap().stats;
        let e = SearchReport::root_parallel(vec![s; 65], &config).unwrap_err().to_string();
        assert_eq!(e, "65 workers is out of range: 1 ..= 64");
        let other = search(&position("tictactoe", &["b2"]).unwrap(), &config, budget_from(Some(50), None), 1).unwrap().stats;
        let first = search(&game, &config, budget_from(Some(50), None), 1).unwrap().stats;
        let e = SearchReport::root_parallel(vec![first, other], &config).unwrap_err().to_string();
        assert!(e.contains("another position"), "{e}");
    }
}
