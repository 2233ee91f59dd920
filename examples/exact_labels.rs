//! Benchmark (figures, never a pass/fail): how fast the exact solver labels Hex self-play
//! positions for training with exact targets (`mcts_playground::nn::train::exact`). Plays
//! self-play games with the shipped net (Gumbel root, as the shipped hex:7 net was trained), then
//! labels every row's position with one [`Labeller`] per game and prints, per budget, positions
//! labelled per second of CPU time on this thread, the share settled, and the share of settled
//! won positions whose every move was settled (so the policy target is the whole winning set).
//!
//! Also printed: the solver's work per position (MID calls, nodes expanded) and the thread CPU
//! time per expanded node, which is where the time goes (each new node computes the fill-in and
//! two H-search builds).
//!
//! ```sh
//! cargo run --release --features train --example exact_labels -- hex:7 20 2000,20000 uniform
//! ```
//! Arguments (optional): the game (default hex:7), self-play games (20), the budgets in df-pn
//! MID calls per solve (2000,20000) and the policy target (`uniform`, `visits`: the moves of won
//! positions are solved; `none`: the value alone, the position itself solved).

use mcts_playground::game::{Game, Hex};
use mcts_playground::nn::train::exact::{ExactTargets, Labeller};
use mcts_playground::nn::train::selfplay::self_play_record;
use mcts_playground::nn::train::TrainConfig;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let spec = args.first().cloned().unwrap_or_else(|| "hex:7".into());
    let games: u64 = args.get(1).map(|s| s.parse().expect("games")).unwrap_or(20);
    let budgets: Vec<u64> =
        args.get(2).map(|s| s.split(',').map(|b| b.parse().expect("a budget")).collect()).unwrap_or_else(|| vec![2_000, 20_000]);
    let policy = args.get(3).map(|p| ExactTargets::parse(&format!("policy={p}")).expect("a policy").policy).unwrap_or_default();
    let net = mcts_playground::nn::models::load(&spec).expect("a shipped net for the game");
    let n: usize = spec.strip_prefix("hex:").and_then(|n| n.parse().ok()).expect("hex:N");
    let start = Hex::new(n, false).expect("a Hex board");
    let cfg = TrainConfig { game: spec.clone(), playouts: 128, root: mcts_playground::mcts::RootRule::Gumbel, ..TrainConfig::default() };
    // The positions: every row of `games` self-play games, replayed from their records.
    let mut positions: Vec<Vec<Hex>> = Vec::new();
    for seed in 0..games {
        let rec = self_play_record(&net, &start, &cfg, seed);
        let mut g = start.clone();
        let mut ply = 0;
        let mut game = Vec::new();
        for &at in &rec.row_plies {
            while ply < at {
                g.play_unchecked(g.move_from_index(rec.moves[ply]).expect("a played move"));
                ply += 1;
            }
            game.push(g.clone());
        }
        positions.push(game);
    }
    let total: usize = positions.iter().map(Vec::len).sum();
    println!("{spec}: {games} self-play games (128 playouts, Gumbel root), {total} positions");
    for &solve_nodes in &budgets {
        let e = ExactTargets { solve_nodes, policy, ..ExactTargets::default() };
        let t0 = cpu_time::ThreadTime::now();
        let (mut proven, mut won, mut complete) = (0usize, 0usize, 0usize);
        let (mut mid_calls, mut expansions) = (0u64, 0u64);
        for game in &positions {
            let mut l = Labeller::new(&e).expect("a table");
            for g in game {
                if let Some(label) = l.label(g) {
                    proven += 1;
                    if label.mover_wins() {
                        won += 1;
                        complete += (label.unknown_moves == 0) as usize;
                    }
                }
            }
            mid_calls += l.stats().mid_calls;
            expansions += l.stats().expansions;
        }
        let s = t0.elapsed().as_secs_f64();
        println!(
            "solve_nodes {solve_nodes:>9}: {total} positions in {s:.2} s of thread CPU time, {:.1} positions/s; settled {proven} ({:.1}%); won {won}, every move settled in {complete}",
            total as f64 / s,
            100.0 * proven as f64 / total.max(1) as f64
        );
        println!(
            "    {policy:?}: {:.0} MID calls and {:.0} nodes expanded per position, {:.0} µs of thread CPU per expanded node",
            mid_calls as f64 / total.max(1) as f64,
            expansions as f64 / total.max(1) as f64,
            1e6 * s / expansions.max(1) as f64
        );
    }
}
