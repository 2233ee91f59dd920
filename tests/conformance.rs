//! Every game runs the same conformance suite (random games, property tests).
mod common;

use mcts_playground::game::{AnyGame, TicTacToe};
use mcts_playground::with_game;
use proptest::prelude::*;

const SPECS: &[&str] = &[
    "tictactoe",
    "hex:1",
    "hex:2",
    "hex:5",
    "hex:7",
    "hex:11",
    "hex:19",
    "hex:4:swap",
    "pentago:official",
    "pentago:openspiel",
    "pentago:twist",
    "pentago:official:dedup",
    "pentago:twist:dedup",
];

#[test]
fn every_game_conforms() {
    for (i, spec) in SPECS.iter().enumerate() {
        let g = AnyGame::from_spec(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
        // Brute-force checks of Pentago's decisive moves cost 288² plays per position: fewer games.
        let games = if spec.starts_with("hex:19") || spec.starts_with("pentago") { 3 } else { 20 };
        with_game!(&g, g => common::conformance(g, games, 1000 + i as u64, true));
    }
}

#[test]
fn tictactoe_conforms_exhaustively_often() {
    common::conformance(&TicTacToe::new(), 500, 7, true);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn random_games_conform(seed in any::<u64>(), which in 0..SPECS.len()) {
        let g = AnyGame::from_spec(SPECS[which]).unwrap();
        with_game!(&g, g => common::conformance(g, 1, seed, which < 8));
    }
}
