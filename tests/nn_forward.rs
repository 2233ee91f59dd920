//! The forward pass of every shipped net on fixed positions, against the committed fixture
//! `tests/data/nn_forward.json`. The same fixture is read by `tests/browser/nn-forward.test.mjs`,
//! which runs the WebAssembly build on the same positions: native and wasm agree within 1e-5.
//!
//! A new shipped net (a line in `src/nn/models.rs`) needs its entry:
//! `MCTS_UPDATE_FIXTURES=1 cargo test --test nn_forward` rewrites the fixture from this build.

use mcts_playground::game::AnyGame;
use mcts_playground::mcts::config::PriorKind;
use mcts_playground::nn::models;
use mcts_playground::nn::search::evaluate_position;
use serde_json::{json, Value};

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/nn_forward.json");
/// Native against the fixture it wrote: the same code, so only float formatting may differ.
const NATIVE_TOLERANCE: f64 = 1e-6;

/// Fixed positions of `spec`: the start and 11 lines of 1–8 moves chosen by a fixed rule
/// (move `(7·line + 3·ply + 1) mod legal`), stopping before the game ends.
fn positions(spec: &str) -> Vec<Vec<String>> {
    let mut out = vec![vec![]];
    for line in 1..=11usize {
        let mut g = AnyGame::from_spec(spec).unwrap();
        let mut moves = Vec::new();
        for ply in 0..(line % 8 + 1) {
            let legal = g.legal_moves_text();
            let m = legal[(7 * line + 3 * ply + 1) % legal.len()].clone();
            let mut next = g.clone();
            next.play_text(&m).unwrap();
            if next.outcome().is_some() {
                break;
            }
            g = next;
            moves.push(m);
        }
        out.push(moves);
    }
    out
}

fn native(spec: &str) -> Value {
    let mut rows = Vec::new();
    for moves in positions(spec) {
        let mut g = AnyGame::from_spec(spec).unwrap();
        for m in &moves {
            g.play_text(m).unwrap();
        }
        let e = evaluate_position(&g, PriorKind::Net).unwrap();
        let priors: Vec<Value> = e.priors.iter().map(|p| json!({ "move": p.mv, "p": p.p as f64 })).collect();
        rows.push(json!({ "moves": moves, "priors": priors, "value": e.value }));
    }
    json!({ "spec": spec, "file": models::file(spec), "positions": rows })
}

#[test]
fn shipped_nets_match_the_fixture() {
    let now: Vec<Value> = models::SHIPPED.iter().map(|s| native(s.spec)).collect();
    if std::env::var_os("MCTS_UPDATE_FIXTURES").is_some() {
        let doc = json!({
            "about": "Policy P (softmax over the legal moves) and value head ((tanh+1)/2, side to move) of every shipped net on fixed positions, computed natively by tests/nn_forward.rs; tests/browser/nn-forward.test.mjs checks the wasm build against it within 1e-5.",
            "tolerance": 1e-5,
            "nets": now,
        });
        std::fs::write(FIXTURE, serde_json::to_string_pretty(&doc).unwrap() + "\n").unwrap();
        return;
    }
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(FIXTURE).expect("tests/data/nn_forward.json")).unwrap();
    let fixed = doc["nets"].as_array().unwrap();
    for n in &now {
        let spec = n["spec"].as_str().unwrap();
        let f = fixed.iter().find(|f| f["spec"] == n["spec"]).unwrap_or_else(|| {
            panic!("no fixture for the shipped net of '{spec}': run MCTS_UPDATE_FIXTURES=1 cargo test --test nn_forward")
        });
        let (a, b) = (n["positions"].as_array().unwrap(), f["positions"].as_array().unwrap());
        assert_eq!(a.len(), b.len(), "{spec}");
        for (x, y) in a.iter().zip(b) {
            assert_eq!(x["moves"], y["moves"], "{spec}");
            let close = |u: &Value, v: &Value| (u.as_f64().unwrap() - v.as_f64().unwrap()).abs() <= NATIVE_TOLERANCE;
            assert!(close(&x["value"], &y["value"]), "{spec} {}: value {} vs {}", x["moves"], x["value"], y["value"]);
            let (px, py) = (x["priors"].as_array().unwrap(), y["priors"].as_array().unwrap());
            assert_eq!(px.len(), py.len());
            for (p, q) in px.iter().zip(py) {
                assert_eq!(p["move"], q["move"]);
                assert!(close(&p["p"], &q["p"]), "{spec} {}: P({}) {} vs {}", x["moves"], p["move"], p["p"], q["p"]);
            }
        }
    }
}

#[test]
fn priors_are_a_distribution_and_values_in_range() {
    for s in models::SHIPPED {
        for row in native(s.spec)["positions"].as_array().unwrap() {
            let sum: f64 = row["priors"].as_array().unwrap().iter().map(|p| p["p"].as_f64().unwrap()).sum();
            assert!((sum - 1.0).abs() < 1e-5, "{sum}");
            let v = row["value"].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&v));
        }
    }
}
