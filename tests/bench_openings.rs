//! The fixed opening sets of the matches against MoHex (`tests/bench/openings/hexN-20.txt`, read
//! by `scripts/mohex-match.sh` and `mcts arena --openings`): each holds 20 distinct first moves of
//! its board, no two related by the 180° rotation (Hex's only symmetry: cell (r, c) ↦
//! (n−1−r, n−1−c)), so no opening repeats another.

use mcts_playground::game::{Game, Hex};
use std::collections::BTreeSet;

#[test]
fn every_opening_set_holds_twenty_distinct_first_moves_up_to_rotation() {
    for n in [7usize, 9, 11] {
        let path = format!("{}/tests/bench/openings/hex{n}-20.txt", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        let g = Hex::new(n, false).unwrap();
        let mut seen = BTreeSet::new();
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
            let cell = g.move_index(g.parse_move(line).unwrap_or_else(|e| panic!("{path}: {line}: {e}")));
            let rotated = n * n - 1 - cell;
            assert!(!seen.contains(&rotated) || rotated == cell, "{path}: {line} is the rotation of an earlier opening");
            assert!(seen.insert(cell), "{path}: {line} twice");
        }
        assert_eq!(seen.len(), 20, "{path}");
    }
}
