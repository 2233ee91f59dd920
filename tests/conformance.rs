//! Every game runs the same conformance suite (random games, property tests).
mod common;

use mcts_playground::game::registry::{conformance_specs, GAMES};
use mcts_playground::game::{AnyGame, TicTacToe};
use mcts_playground::with_game;
use proptest::prelude::*;

/// Every registered game's specs ([`conformance_specs`]): a game the registry has cannot skip
/// this suite.
fn specs() -> Vec<&'static str> {
    conformance_specs()
}

/// Random games per spec: fewer where brute-force checks of decisive moves cost move space²
/// plays per position (Hex 19×19, Pentago).
fn games_for(g: &AnyGame) -> usize {
    if g.move_space() > 200 {
        3
    } else {
        20
    }
}

#[test]
fn every_game_conforms() {
    let specs = specs();
    for game in GAMES {
        assert!(specs.iter().any(|s| AnyGame::from_spec(s).unwrap().facts().name == game.name), "{} is not in the suite", game.name);
    }
    for (i, spec) in specs.iter().enumerate() {
        let g = AnyGame::from_spec(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
        let games = games_for(&g);
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
    fn random_games_conform(seed in any::<u64>(), which in 0..specs().len()) {
        let g = AnyGame::from_spec(specs()[which]).unwrap();
        with_game!(&g, g => common::conformance(g, 1, seed, true));
    }
}
