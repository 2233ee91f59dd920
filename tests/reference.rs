//! Agreement with OpenSpiel 2.0.2 (an independent implementation) on every record in
//! `tests/data` (copied from `../shared/reference`): every position of every random game, every
//! tactics record, and the Pentago corner cases. Pentago is checked under `pentago:openspiel`.

mod common;

use std::collections::BTreeSet;

use common::{records, spec_of, strings};
use mcts_playground::game::AnyGame;

fn returns_of(g: &AnyGame) -> [f64; 2] {
    g.outcome().map(|o| o.returns()).unwrap_or([0.0, 0.0])
}

fn check_playouts(key: &str) {
    let recs = records(&format!("playouts_{key}.jsonl"));
    assert!(!recs.is_empty());
    let mut positions = 0;
    for (gi, r) in recs.iter().enumerate() {
        let mut g = AnyGame::from_spec(spec_of(key)).unwrap();
        let moves: Vec<&str> = r["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
        let actions: Vec<u64> = r["actions"].as_array().unwrap().iter().map(|a| a.as_u64().unwrap()).collect();
        for (ply, p) in r["positions"].as_array().unwrap().iter().enumerate() {
            let ctx = format!("{key} game {gi} ply {ply}");
            assert_eq!(g.board_string(), p["board"].as_str().unwrap(), "{ctx}: board");
            let terminal = p["terminal"].as_bool().unwrap();
            assert_eq!(g.outcome().is_some(), terminal, "{ctx}: terminal");
            assert_eq!(g.legal_count() as u64, p["legal_count"].as_u64().unwrap(), "{ctx}: legal count");
            if terminal {
                let want: Vec<f64> = p["returns"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
                assert_eq!(returns_of(&g).to_vec(), want, "{ctx}: returns");
                assert!(p["to_move"].is_null());
            } else {
                assert_eq!(g.to_move() as u64, p["to_move"].as_u64().unwrap(), "{ctx}: to move");
            }
            if ply < moves.len() {
                // Dense index = OpenSpiel action id, and notation agrees.
                assert_eq!(g.format_index(actions[ply] as usize).as_deref(), Some(moves[ply]), "{ctx}: action {}", actions[ply]);
                let idx = g.play_text(moves[ply]).unwrap_or_else(|e| panic!("{ctx}: {e}"));
                assert_eq!(idx as u64, actions[ply], "{ctx}: dense index of {}", moves[ply]);
            }
            positions += 1;
        }
        let want: Vec<f64> = r["returns"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
        assert_eq!(returns_of(&g).to_vec(), want, "{key} game {gi}: final returns");
        assert_eq!(g.outcome().and_then(|o| o.winner()).map(|w| w as u64), r["winner"].as_u64(), "{key} game {gi}: winner");
    }
    assert!(positions > 0);
}

fn check_tactics(key: &str) {
    let recs = records(&format!("tactics_{key}.jsonl"));
    assert!(!recs.is_empty());
    for (i, r) in recs.iter().enumerate() {
        let mut g = AnyGame::from_spec(spec_of(key)).unwrap();
        for m in r["moves"].as_array().unwrap() {
            g.play_text(m.as_str().unwrap()).unwrap();
        }
        let ctx = format!("{key} tactic {i} ({})", r["kind"]);
        assert_eq!(g.board_string(), r["board"].as_str().unwrap(), "{ctx}");
        assert_eq!(g.to_move() as u64, r["to_move"].as_u64().unwrap(), "{ctx}");
        assert_eq!(g.legal_count() as u64, r["legal_count"].as_u64().unwrap(), "{ctx}");
        let wins: BTreeSet<String> = g.winning_moves_text().into_iter().collect();
        let safe: BTreeSet<String> = g.non_losing_moves_text().into_iter().collect();
        if let Some(t) = r.get("opponent_threats") {
            let threats: BTreeSet<String> = g.threats_text().into_iter().collect();
            assert_eq!(threats, strings(t), "{ctx}: opponent threats");
        }
        match r["kind"].as_str().unwrap() {
            "win" => assert_eq!(wins, strings(&r["winning_moves"]), "{ctx}: winning moves"),
            "block" => {
                assert!(wins.is_empty(), "{ctx}: no immediate win");
                assert_eq!(safe, strings(&r["non_losing_moves"]), "{ctx}: non-losing moves");
            }
            "lost" => {
                assert!(wins.is_empty(), "{ctx}: no immediate win");
                assert!(safe.is_empty(), "{ctx}: every move loses");
            }
            k => panic!("{ctx}: unknown kind {k}"),
        }
    }
}

#[test]
fn tictactoe_playouts() {
    check_playouts("tic_tac_toe");
}
#[test]
fn tictactoe_tactics() {
    check_tactics("tic_tac_toe");
}
#[test]
fn hex5_playouts() {
    check_playouts("hex5");
}
#[test]
fn hex7_playouts() {
    check_playouts("hex7");
}
#[test]
fn hex11_playouts() {
    check_playouts("hex11");
}
#[test]
fn hex5_tactics() {
    check_tactics("hex5");
}
#[test]
fn hex7_tactics() {
    check_tactics("hex7");
}
#[test]
fn hex11_tactics() {
    check_tactics("hex11");
}
#[test]
fn pentago_playouts() {
    check_playouts("pentago");
}
#[test]
fn pentago_tactics() {
    check_tactics("pentago");
}

/// The corner cases of Pentago's end: simultaneous fives, a rotation that makes only the
/// opponent's five, a placement five broken by the rotation, a full board.
#[test]
fn pentago_special_cases() {
    for (i, r) in records("pentago_special.jsonl").iter().enumerate() {
        let mut g = AnyGame::from_spec("pentago:openspiel").unwrap();
        let moves = r["moves"].as_array().unwrap();
        for (j, m) in moves.iter().enumerate() {
            assert!(g.outcome().is_none(), "special {i}: over before move {j}");
            g.play_text(m.as_str().unwrap()).unwrap();
        }
        let ctx = format!("special {i} ({})", r["case"]);
        assert_eq!(g.board_string(), r["board"].as_str().unwrap(), "{ctx}");
        assert_eq!(g.outcome().is_some(), r["terminal"].as_bool().unwrap(), "{ctx}");
        let want: Vec<f64> = r["returns"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
        assert_eq!(returns_of(&g).to_vec(), want, "{ctx}");
    }
}
