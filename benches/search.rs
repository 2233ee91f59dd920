//! MCTS iterations from the start position, per game and preset (criterion).
//!
//! Each sample runs a fixed number of iterations on a fresh tree, so the figure is the time per
//! `ITERS` iterations; iterations per second = ITERS / time. Games not yet available are skipped.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use mcts_playground::game::AnyGame;
use mcts_playground::mcts::{AnySearch, Budget, SearchConfig};

const ITERS: u64 = 20_000;

fn search(c: &mut Criterion) {
    let mut group = c.benchmark_group("mcts_iterations");
    group.sample_size(10);
    group.throughput(Throughput::Elements(ITERS));
    for spec in ["tictactoe", "hex:7", "hex:11", "pentago"] {
        let Ok(g) = AnyGame::from_spec(spec) else {
            eprintln!("skipping {spec}: not available on this branch");
            continue;
        };
        for preset in ["uct", "rave", "decisive", "lgrf2", "solver"] {
            let cfg = SearchConfig::preset(preset).unwrap();
            group.bench_with_input(BenchmarkId::new(preset, spec), &g, |b, g| {
                b.iter(|| {
                    let mut s = AnySearch::new(g, cfg.clone()).unwrap();
                    s.run(Budget::iterations(ITERS), &|| 0.0);
                    s.node_count()
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, search);
criterion_main!(benches);
