//! Root-parallel search: several independent searches of the same position, their root
//! statistics merged (Cazenave & Jouandeau 2007, "On the parallelization of UCT", single-run
//! parallelisation; Chaslot, Winands & van den Herik 2008, "Parallel Monte-Carlo Tree Search",
//! *root parallelization*). Off by default everywhere: one worker is today's search, bit for bit.
//!
//! - Worker `i` of `W` searches with the seed [`worker_seed`]`(seed, i) = seed + i` (wrapping, so
//!   worker 0 keeps the configured seed); each has its own tree and random generator, nothing is
//!   shared while they run.
//! - An iteration budget is the total over the workers: [`split_iterations`] gives worker `i`
//!   ⌊T/W⌋ playouts, plus one for `i < T mod W`. A time budget applies to each worker (they run
//!   side by side).
//! - The memory cap (`memory_cap_mib`) bounds the whole native search: each of `W` threads gets
//!   ⌊cap/W⌋ MiB (at least 1). In the page each Web Worker is its own WebAssembly memory and
//!   keeps the whole cap.
//! - [`merge_root_stats`] sums, per root move, the visits N and the wins W = N·Q (so Q = ΣW/ΣN),
//!   the AMAF visits and AMAF wins; keeps a proof only when no worker contradicts it (proofs are
//!   exact, so they agree unless a worker is wrong); and chooses the move by the configuration's
//!   final-move rule (robust, max or secure child, a proven win first, a proven loss last) over the
//!   merged children, as [`crate::mcts::Search::best_move`] does over one tree.
//! - Natively [`search_root_parallel`] runs the workers on `std::thread::scope` threads (the `mcts`
//!   CLI's `--threads N`); in the browser each worker is a Web Worker and the page merges their
//!   statistics with this same function (through `mergeRootStats` in `src/wasm/search.rs`).

use std::cmp::Ordering;
use std::collections::BTreeMap;

use crate::mcts::config::FinalMove;
use crate::mcts::selection::{puct_bonus, secure};
use crate::mcts::stats::{ChildStats, SearchStats};
use crate::mcts::tree::Proven;

/// Most workers of a root-parallel search (threads natively, Web Workers in the page): 64.
pub const MAX_WORKERS: usize = 64;

/// Errors of a root-parallel search or merge.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ParallelError {
    /// No statistics to merge.
    #[error("nothing to merge: no worker statistics")]
    Empty,
    /// A worker count outside 1 ..= [`MAX_WORKERS`].
    #[error("{0} workers is out of range: 1 ..= {MAX_WORKERS}")]
    Workers(usize),
    /// Workers that searched different positions (different game or side to move).
    #[error("worker {worker} searched another position ({found}, not {expected})")]
    Mismatch {
        /// Index of the worker that differs.
        worker: usize,
        /// Game and side to move of worker 0.
        expected: String,
        /// Game and side to move of that worker.
        found: String,
    },
    /// The search itself refused (bad configuration, game over).
    #[error("{0}")]
    Search(String),
}

/// The seed of worker `worker`: `seed + worker` (wrapping). Worker 0 keeps `seed`, so one worker
/// is the plain search; the generator (Xoshiro256++, seeded through `seed_from_u64`) makes nearby
/// seeds independent streams.
pub fn worker_seed(seed: u64, worker: usize) -> u64 {
    seed.wrapping_add(worker as u64)
}

/// Worker `worker`'s share of a total of `total` iterations (playouts) over `workers` workers:
/// ⌊total/workers⌋, plus one for the first `total mod workers` workers (the shares sum to `total`).
pub fn split_iterations(total: u64, workers: usize, worker: usize) -> u64 {
    let w = workers.max(1) as u64;
    total / w + u64::from((worker as u64) < total % w)
}

/// A proof kept by the merge: the workers' proofs of one move agree, or the merge keeps none.
fn merge_proof(a: Option<Option<Proven>>, b: Option<Proven>) -> Option<Option<Proven>> {
    match (a, b) {
        (None, b) => Some(b),
        (Some(None), b) => Some(b),
        (Some(Some(x)), None) => Some(Some(x)),
        (Some(Some(x)), Some(y)) if x == y => Some(Some(x)),
        // Contradicting proofs (a bug in one worker): keep neither.
        (Some(Some(_)), Some(_)) => Some(None),
    }
}

/// The merged statistics of root-parallel workers (see the module docs for what is summed).
///
/// `parts[0]` is worker 0: its playout-policy internals (`policy`), evaluator name and, where the
/// merged best move is its own, principal variation are kept. `final_move` and `secure_a` are the
/// configuration's (`SearchConfig::final_move`, `SearchConfig::secure_a`). `elapsed_ms` is the
/// longest worker's (they run side by side), `iterations_per_s` the total iterations over it.
/// The root's `proven` is the workers' when they agree (a proven-win child also proves the root).
///
/// # Errors
/// [`ParallelError::Empty`] for no parts; [`ParallelError::Mismatch`] when the parts searched
/// different games or sides to move.
pub fn merge_root_stats(parts: &[SearchStats], final_move: FinalMove, secure_a: f64) -> Result<SearchStats, ParallelError> {
    let first = parts.first().ok_or(ParallelError::Empty)?;
    for (i, p) in parts.iter().enumerate().skip(1) {
        if p.game != first.game || p.to_move != first.to_move {
            return Err(ParallelError::Mismatch {
                worker: i,
                expected: format!("{} with player {} to move", first.game, first.to_move),
                found: format!("{} with player {} to move", p.game, p.to_move),
            });
        }
    }
    // Per move index: N, W, AMAF N, AMAF W, the child with the most visits (β, prior), proof.
    struct Acc {
        mv: String,
        n: u64,
        w: f64,
        an: u64,
        aw: f64,
        q_unvisited: f64,
        beta: Option<f64>,
        beta_n: u64,
        prior: Option<f64>,
        proof: Option<Option<Proven>>,
    }
    let mut acc: BTreeMap<usize, Acc> = BTreeMap::new();
    for p in parts {
        for c in &p.children {
            let a = acc.entry(c.index).or_insert_with(|| Acc {
                mv: c.mv.clone(),
                n: 0,
                w: 0.0,
                an: 0,
                aw: 0.0,
                q_unvisited: c.q,
                beta: None,
                beta_n: 0,
                prior: None,
                proof: None,
            });
            a.n += c.visits;
            a.w += c.q * c.visits as f64;
            if let Some(aq) = c.amaf_q {
                a.an += c.amaf_visits;
                a.aw += aq * c.amaf_visits as f64;
            }
            if a.beta.is_none() || c.visits > a.beta_n {
                a.beta = c.beta;
                a.beta_n = c.visits;
            }
            a.prior = a.prior.or(c.prior);
            a.proof = merge_proof(a.proof, c.proven);
        }
    }
    let mut children: Vec<ChildStats> = acc
        .into_iter()
        .map(|(index, a)| ChildStats {
            mv: a.mv,
            index,
            visits: a.n,
            q: if a.n > 0 { a.w / a.n as f64 } else { a.q_unvisited },
            amaf_visits: a.an,
            amaf_q: (a.an > 0).then(|| a.aw / a.an as f64),
            beta: a.beta,
            prior: a.prior,
            proven: a.proof.flatten(),
            // Filled below from the merged N and n.
            puct_u: None,
        })
        .collect();
    // PUCT's exploration term of the merged statistics: c·P·√N/(1+n) with the summed root
    // visits N and child visits n (Silver et al. 2017), as one search of that size would see it.
    let root_visits: u64 = parts.iter().map(|p| p.root_visits).sum();
    if let Some(c) = first.puct_c {
        for ch in &mut children {
            ch.puct_u = ch.prior.map(|p| puct_bonus(p, ch.visits, (root_visits as f64).sqrt(), c));
        }
    }
    // The order of one search's report: visits, then Q, then move index.
    children.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.q.partial_cmp(&a.q).unwrap_or(Ordering::Equal)).then(a.index.cmp(&b.index)));

    // The final-move rule of `Search::best_root_edge`, over the merged children.
    let mut best: Option<(usize, (i32, f64, f64))> = None;
    for (i, c) in children.iter().enumerate() {
        let tier = match c.proven {
            Some(Proven::Win) => 3,
            Some(Proven::Loss) => 0,
            _ => 1,
        };
        let n = c.visits as f64;
        let key = match final_move {
            FinalMove::Robust => (tier, n, c.q),
            FinalMove::Max => (tier, if c.visits == 0 { f64::NEG_INFINITY } else { c.q }, n),
            FinalMove::Secure => (tier, secure(c.q, c.visits, secure_a), n),
        };
        if best.is_none_or(|(_, b)| key.partial_cmp(&b) == Some(Ordering::Greater)) {
            best = Some((i, key));
        }
    }
    let best = best.map(|(i, _)| &children[i]);

    let mut root_proof: Option<Option<Proven>> = None;
    for p in parts {
        root_proof = merge_proof(root_proof, p.proven);
    }
    let mut proven = root_proof.flatten();
    if proven.is_none() && best.is_some_and(|c| c.proven == Some(Proven::Win)) {
        proven = Some(Proven::Win);
    }
    let value = match proven {
        Some(Proven::Win) => 1.0,
        Some(Proven::Loss) => 0.0,
        Some(Proven::Draw) => 0.5,
        None => best.map_or(0.5, |c| match c.proven {
            Some(Proven::Win) => 1.0,
            Some(Proven::Loss) => 0.0,
            Some(Proven::Draw) => 0.5,
            None => c.q,
        }),
    };
    let best_move = best.map(|c| c.mv.clone());
    // The principal variation below the merged best move: that of the worker that visited it
    // most among those whose own line starts with it; otherwise the move alone.
    let pv = match &best_move {
        None => Vec::new(),
        Some(m) => parts
            .iter()
            .filter(|p| p.pv.first() == Some(m))
            .max_by_key(|p| p.children.iter().find(|c| &c.mv == m).map_or(0, |c| c.visits))
            .map_or_else(|| vec![m.clone()], |p| p.pv.clone()),
    };
    let iterations: u64 = parts.iter().map(|p| p.iterations).sum();
    let nodes: u64 = parts.iter().map(|p| p.nodes).sum();
    let tree_bytes: u64 = parts.iter().map(|p| p.tree_bytes).sum();
    let elapsed_ms = parts.iter().map(|p| p.elapsed_ms).fold(0.0, f64::max);
    Ok(SearchStats {
        game: first.game.clone(),
        to_move: first.to_move,
        best_move,
        pv,
        proven,
        value,
        iterations,
        playouts: parts.iter().map(|p| p.playouts).sum(),
        nodes,
        max_depth: parts.iter().map(|p| p.max_depth).max().unwrap_or(0),
        elapsed_ms,
        iterations_per_s: if elapsed_ms > 0.0 { iterations as f64 * 1000.0 / elapsed_ms } else { 0.0 },
        bytes_per_node: if nodes > 0 { (tree_bytes as f64 / nodes as f64 * 10.0).round() / 10.0 } else { 0.0 },
        tree_bytes,
        // A cap that holds any worker's tree (the memory cap first: it is the one to raise).
        tree_cap: parts.iter().filter_map(|p| p.tree_cap).max_by_key(|&c| c == crate::mcts::TreeCap::MemoryCap),
        memory_cap_bytes: parts.iter().map(|p| p.memory_cap_bytes).sum(),
        children,
        policy: first.policy.clone(),
        evaluator: first.evaluator.clone(),
        puct_c: first.puct_c,
        root_visits,
        final_move: Some(final_move),
        leaf: first.leaf,
    })
}

/// The result of [`search_root_parallel`]: the merged statistics and each worker's own.
#[derive(Clone, Debug)]
pub struct ParallelResult {
    /// The merged root statistics ([`merge_root_stats`]); `best_move` is the move to play.
    pub merged: SearchStats,
    /// Worker `i`'s statistics (seed [`worker_seed`]`(seed, i)`).
    pub workers: Vec<SearchStats>,
}

/// Searches `game` with `workers` threads (root parallelisation, see the module docs): worker `i`
/// runs `config` with seed [`worker_seed`]`(config.seed, i)` for its share of `budget`'s
/// iterations ([`split_iterations`]) and/or `budget`'s milliseconds, each on its own tree, and the
/// root statistics are merged; each worker's evaluators are made by `E` (see
/// [`crate::mcts::search::Evaluators`]). Native only (`std::thread::scope`; wasm32 has no threads
/// here: the page uses Web Workers).
///
/// # Errors
/// [`ParallelError::Workers`] outside 1 ..= [`MAX_WORKERS`]; [`ParallelError::Search`] when the
/// configuration or position is refused (game over, bad configuration).
#[cfg(not(target_arch = "wasm32"))]
pub fn search_root_parallel<E: crate::mcts::search::Evaluators>(
    game: &crate::game::AnyGame,
    config: &crate::mcts::SearchConfig,
    budget: crate::mcts::Budget,
    workers: usize,
) -> Result<ParallelResult, ParallelError> {
    use crate::mcts::{AnySearch, Budget};
    if !(1..=MAX_WORKERS).contains(&workers) {
        return Err(ParallelError::Workers(workers));
    }
    let results: Vec<Result<SearchStats, ParallelError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|i| {
                let mut c = config.clone();
                c.seed = worker_seed(config.seed, i);
                // The memory cap bounds the whole search: each worker's tree gets its share.
                c.memory_cap_mib = (config.memory_cap_mib / workers as u64).max(1);
                let share = Budget { iterations: budget.iterations.map(|t| split_iterations(t, workers, i)), millis: budget.millis };
                scope.spawn(move || {
                    let mut s = AnySearch::with_evaluators::<E>(game, c).map_err(|e| ParallelError::Search(e.to_string()))?;
                    let t0 = std::time::Instant::now();
                    let clock = move || t0.elapsed().as_secs_f64() * 1000.0;
                    if share.iterations != Some(0) {
                        s.run(share, &clock);
                    }
                    Ok(s.stats())
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err(ParallelError::Search("a search thread panicked".into())))).collect()
    });
    let workers = results.into_iter().collect::<Result<Vec<_>, _>>()?;
    let merged = merge_root_stats(&workers, config.final_move, config.secure_a)?;
    Ok(ParallelResult { merged, workers })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::AnyGame;
    use crate::mcts::{AnySearch, Budget, SearchConfig};

    #[test]
    fn shares_sum_to_the_total() {
        for total in [0u64, 1, 2, 7, 10_000, 10_001] {
            for w in 1..=5 {
                let s: Vec<u64> = (0..w).map(|i| split_iterations(total, w, i)).collect();
                assert_eq!(s.iter().sum::<u64>(), total);
                assert!(s.iter().max().unwrap() - s.iter().min().unwrap() <= 1);
            }
        }
        assert_eq!(worker_seed(7, 0), 7);
        assert_eq!(worker_seed(u64::MAX, 1), 0);
    }

    fn searched(spec: &str, preset: &str, seed: u64, n: u64) -> SearchStats {
        let g = AnyGame::from_spec(spec).unwrap();
        let mut c = SearchConfig::preset(preset).unwrap();
        c.seed = seed;
        let mut s = AnySearch::new(&g, c).unwrap();
        s.run(Budget::iterations(n), &|| 0.0);
        s.stats()
    }

    #[test]
    fn one_part_merges_to_itself() {
        for preset in ["uct", "rave", "solver"] {
            let st = searched("hex:5", preset, 3, 3_000);
            let c = SearchConfig::preset(preset).unwrap();
            let m = merge_root_stats(std::slice::from_ref(&st), c.final_move, c.secure_a).unwrap();
            assert_eq!(m.best_move, st.best_move, "{preset}");
            assert_eq!(m.pv, st.pv);
            assert_eq!(m.value, st.value);
            assert_eq!(m.proven, st.proven);
            assert_eq!(
                m.children.iter().map(|c| (c.index, c.visits)).collect::<Vec<_>>(),
                st.children.iter().map(|c| (c.index, c.visits)).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn merge_sums_visits_and_wins_per_move() {
        let a = searched("hex:5", "uct", 1, 2_000);
        let b = searched("hex:5", "uct", 2, 2_000);
        let m = merge_root_stats(&[a.clone(), b.clone()], FinalMove::Robust, 1.0).unwrap();
        assert_eq!(m.iterations, a.iterations + b.iterations);
        assert_eq!(m.playouts, a.playouts + b.playouts);
        for c in &m.children {
            let pa = a.children.iter().find(|x| x.index == c.index);
            let pb = b.children.iter().find(|x| x.index == c.index);
            let n = pa.map_or(0, |x| x.visits) + pb.map_or(0, |x| x.visits);
            let w = pa.map_or(0.0, |x| x.q * x.visits as f64) + pb.map_or(0.0, |x| x.q * x.visits as f64);
            assert_eq!(c.visits, n);
            if n > 0 {
                assert!((c.q - w / n as f64).abs() < 1e-12);
            }
        }
        // Robust child: the most merged visits.
        assert_eq!(m.best_move.as_deref(), Some(m.children[0].mv.as_str()));
        assert_eq!(m.pv.first(), m.best_move.as_ref());
    }

    #[test]
    fn mismatched_positions_and_no_parts_are_errors() {
        let a = searched("hex:5", "uct", 1, 500);
        let b = searched("hex:4", "uct", 1, 500);
        assert!(matches!(merge_root_stats(&[a, b], FinalMove::Robust, 1.0), Err(ParallelError::Mismatch { worker: 1, .. })));
        assert_eq!(merge_root_stats(&[], FinalMove::Robust, 1.0), Err(ParallelError::Empty));
    }

    #[test]
    fn contradicting_proofs_are_dropped_and_agreeing_ones_kept() {
        assert_eq!(merge_proof(Some(Some(Proven::Win)), Some(Proven::Loss)), Some(None));
        assert_eq!(merge_proof(Some(Some(Proven::Win)), None), Some(Some(Proven::Win)));
        assert_eq!(merge_proof(None, Some(Proven::Draw)), Some(Some(Proven::Draw)));
    }

    #[test]
    fn threads_equal_the_same_searches_run_one_by_one() {
        let g = AnyGame::from_spec("hex:5").unwrap();
        let c = SearchConfig::preset("rave").unwrap();
        let r = search_root_parallel::<crate::mcts::search::Builtin>(&g, &c, Budget::iterations(3_001), 2).unwrap();
        assert_eq!(r.workers.len(), 2);
        let a = searched("hex:5", "rave", worker_seed(c.seed, 0), 1_501);
        let b = searched("hex:5", "rave", worker_seed(c.seed, 1), 1_500);
        assert_eq!(r.workers[0].children, a.children);
        assert_eq!(r.workers[1].children, b.children);
        assert_eq!(r.merged.iterations, 3_001);
        let m = merge_root_stats(&[a, b], c.final_move, c.secure_a).unwrap();
        assert_eq!(r.merged.best_move, m.best_move);
        assert_eq!(r.merged.children, m.children);
        assert!(matches!(
            search_root_parallel::<crate::mcts::search::Builtin>(&g, &c, Budget::iterations(10), 0),
            Err(ParallelError::Workers(0))
        ));
    }

    #[test]
    fn a_proven_win_is_chosen_over_more_visits() {
        // Tic-Tac-Toe: X to play with a win at once (c1); the solver proves it in every worker.
        let mut g = AnyGame::from_spec("tictactoe").unwrap();
        for m in ["a1", "a2", "b1", "b2"] {
            g.play_text(m).unwrap();
        }
        let c = SearchConfig::preset("solver").unwrap();
        let r = search_root_parallel::<crate::mcts::search::Builtin>(&g, &c, Budget::iterations(2_000), 2).unwrap();
        assert_eq!(r.merged.best_move.as_deref(), Some("c1"));
        assert_eq!(r.merged.proven, Some(Proven::Win));
        assert_eq!(r.merged.value, 1.0);
    }
}
