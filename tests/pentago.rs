//! Pentago: hand-made tests of every rule corner case (official, openspiel, twist, dedup),
//! notation, and the generic conformance suite on every Pentago spec.
mod common;

use mcts_playground::game::{AnyGame, Game, MoveList, Outcome, Pentago};

#[test]
fn pentago_specs_conform() {
    for (i, spec) in ["pentago:official", "pentago:openspiel", "pentago:twist", "pentago:openspiel:dedup", "pentago:official:dedup", "pentago:twist:dedup"].iter().enumerate() {
        let AnyGame::Pentago(g) = AnyGame::from_spec(spec).unwrap() else { panic!() };
        common::conformance(&g, 4, 77 + i as u64, true);
    }
}
