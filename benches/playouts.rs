//! Criterion benchmark: one random playout from the initial position, per game (the same
//! `Game::random_playout` code paths the search and `mcts bench` use): outcome only (`NoTrace`,
//! plain UCT) and recording the moves (`Vec`, RAVE and the playout policies); for Hex also the
//! playout with decisive and anti-decisive moves (`Game::decisive_playout`, presets `decisive`
//! and `best`).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use mcts_playground::game::{AnyGame, Game, MoveSets, NoTrace};
use mcts_playground::rng::Rng64;
use mcts_playground::with_game;

// `s.clone()` runs for every game through `with_game!`; Hex is not `Copy`, the others are.
#[allow(clippy::clone_on_copy)]
fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_playout");
    group.throughput(Throughput::Elements(1));
    for spec in ["tictactoe", "hex:7", "hex:11", "pentago", "pentago:twist"] {
        let Ok(start) = AnyGame::from_spec(spec) else { continue };
        with_game!(&start, s => {
            let mut rng = Rng64::new(1);
            let mut trace = Vec::with_capacity(512);
            group.bench_function(format!("{spec}/outcome_only"), |b| {
                b.iter(|| {
                    let mut g = s.clone();
                    g.random_playout(&mut rng, &mut NoTrace)
                })
            });
            group.bench_function(format!("{spec}/traced"), |b| {
                b.iter(|| {
                    let mut g = s.clone();
                    trace.clear();
                    g.random_playout(&mut rng, &mut trace)
                })
            });
            let mut counts = [0u64; 2];
            let mut sets = MoveSets::default();
            if s.clone().decisive_playout(&mut rng, true, true, &mut sets, &mut trace, &mut counts).is_some() {
                group.bench_function(format!("{spec}/decisive"), |b| {
                    b.iter(|| {
                        let mut g = s.clone();
                        trace.clear();
                        g.decisive_playout(&mut rng, true, true, &mut sets, &mut trace, &mut counts)
                    })
                });
            }
        });
    }
    group.finish();
}

criterion_group!(benches, playouts);
criterion_main!(benches);
