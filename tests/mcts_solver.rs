//! MCTS-Solver proofs with default settings and random playouts: the Tic-Tac-Toe draw is in
//! `mcts_core.rs`; here Hex 3×3 and 4×4 first-player wins (the first player wins Hex on every
//! board size by Nash's strategy-stealing argument).

use mcts_playground::game::AnyGame;
use mcts_playground::mcts::{AnySearch, Budget, Proven, SearchConfig, StopReason};

/// Proves the root of `spec` within `budget` iterations; returns the proof, iterations and nodes.
fn prove(spec: &str, cfg: SearchConfig, budget: u64) -> (String, u64, u64) {
    let g = AnyGame::from_spec(spec).unwrap_or_else(|e| panic!("the game spec {spec:?} is not known to the library: {e}"));
    let mut s = AnySearch::new(&g, cfg).unwrap();
    let r = s.run(Budget::iterations(budget), &|| 0.0);
    assert_eq!(r.stop, StopReason::RootProven, "{spec}: not proven after {} iterations", r.iterations);
    let st = s.stats();
    let best = st.children.iter().find(|c| Some(&c.mv) == st.best_move.as_ref()).unwrap();
    assert_eq!(best.proven, Some(Proven::Win), "{spec}: the best move is a proven win");
    eprintln!("{spec}: proven {:?} in {} iterations, {} nodes, best {}", st.proven, r.iterations, st.nodes, best.mv);
    (st.proven.unwrap().to_string(), r.iterations, st.nodes)
}

#[test]
fn hex3_first_player_win() {
    let (p, _, _) = prove("hex:3", SearchConfig::preset("solver").unwrap(), 200_000);
    assert_eq!(p, "win");
}

#[test]
fn hex4_first_player_win() {
    let (p, _, _) = prove("hex:4", SearchConfig::preset("solver").unwrap(), 3_000_000);
    assert_eq!(p, "win");
}

#[test]
fn hex4_with_transpositions() {
    let cfg = SearchConfig { transpositions: true, ..SearchConfig::preset("solver").unwrap() };
    let (p, _, _) = prove("hex:4", cfg, 3_000_000);
    assert_eq!(p, "win");
}
