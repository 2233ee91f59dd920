//! Tic-Tac-Toe perft and the game-tree facts every reference agrees on.
use std::collections::HashSet;

use mcts_playground::game::{Game, MoveList, TicTacToe};

fn perft(g: &TicTacToe, depth: u32) -> u64 {
    if depth == 0 || g.is_terminal() {
        return 1;
    }
    let mut l = MoveList::new();
    g.legal_moves(&mut l);
    l.iter()
        .map(|&m| {
            let mut c = *g;
            c.play_unchecked(m);
            perft(&c, depth - 1)
        })
        .sum()
}

fn complete_games(g: &TicTacToe) -> u64 {
    if g.is_terminal() {
        return 1;
    }
    let mut l = MoveList::new();
    g.legal_moves(&mut l);
    l.iter()
        .map(|&m| {
            let mut c = *g;
            c.play_unchecked(m);
            complete_games(&c)
        })
        .sum()
}

fn reachable(g: &TicTacToe, seen: &mut HashSet<u64>) {
    if !seen.insert(g.hash()) {
        return;
    }
    let mut l = MoveList::new();
    g.legal_moves(&mut l);
    for &m in &l {
        let mut c = *g;
        c.play_unchecked(m);
        reachable(&c, seen);
    }
}

#[test]
fn perft_depths_1_to_5() {
    let g = TicTacToe::new();
    let got: Vec<u64> = (1..=5).map(|d| perft(&g, d)).collect();
    assert_eq!(got, vec![9, 72, 504, 3024, 15120]);
}

#[test]
fn complete_game_count() {
    assert_eq!(complete_games(&TicTacToe::new()), 255_168);
}

#[test]
fn reachable_positions() {
    let mut seen = HashSet::new();
    reachable(&TicTacToe::new(), &mut seen);
    assert_eq!(seen.len(), 5_478);
}
