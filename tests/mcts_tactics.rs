//! Tactics: with decisive moves or depth-2 on, every `win` record of `tests/data/tactics_*.jsonl`
//! is answered with a winning move and every `block` record with a non-losing move, at a small
//! budget. A spec the library does not know, or a file with no such record, fails the test.

mod common;

use common::{records, spec_of, strings};
use mcts_playground::game::AnyGame;
use mcts_playground::mcts::{AnySearch, Budget, SearchConfig};

/// Runs `preset` on every win/block record of `file`; `iters(legal_count)` is the budget.
fn check(file: &str, key: &str, preset: &str, iters: impl Fn(u64) -> u64, every: usize) {
    let spec = spec_of(key);
    if let Err(e) = AnyGame::from_spec(spec) {
        panic!("{file}: the game spec {spec:?} is not known to the library: {e}");
    }
    let mut checked = 0;
    let mut wrong = Vec::new();
    for (i, r) in records(file).iter().enumerate() {
        let kind = r["kind"].as_str().unwrap();
        if (kind != "win" && kind != "block") || i % every != 0 {
            continue;
        }
        let mut g = AnyGame::from_spec(spec).unwrap();
        for m in r["moves"].as_array().unwrap() {
            g.play_text(m.as_str().unwrap()).unwrap();
        }
        let good = if kind == "win" { strings(&r["winning_moves"]) } else { strings(&r["non_losing_moves"]) };
        let cfg = SearchConfig { seed: i as u64, ..SearchConfig::preset(preset).unwrap() };
        let mut s = AnySearch::new(&g, cfg).unwrap();
        s.run(Budget::iterations(iters(g.legal_count() as u64)), &|| 0.0);
        let best = s.best_move_text().unwrap();
        checked += 1;
        if !good.contains(&best) {
            wrong.push(format!("record {i} ({kind}, board {}): played {best}, want one of {good:?}", r["board"]));
        }
    }
    eprintln!("{file} with {preset}: {checked} records, {} wrong", wrong.len());
    assert!(checked > 0, "{file} with {preset}: no win or block record was checked");
    assert!(wrong.is_empty(), "{} of {checked} wrong:\n{}", wrong.len(), wrong.join("\n"));
}

#[test]
fn tictactoe_depth2() {
    check("tactics_tic_tac_toe.jsonl", "tic_tac_toe", "depth2", |_| 50, 1);
}

#[test]
fn tictactoe_decisive() {
    check("tactics_tic_tac_toe.jsonl", "tic_tac_toe", "decisive", |l| 3 * l + 100, 1);
}

#[test]
fn hex_depth2() {
    for (f, k) in [("tactics_hex5.jsonl", "hex5"), ("tactics_hex7.jsonl", "hex7"), ("tactics_hex11.jsonl", "hex11")] {
        check(f, k, "depth2", |l| l + 50, 1);
    }
}

#[test]
fn hex_decisive() {
    for (f, k) in [("tactics_hex5.jsonl", "hex5"), ("tactics_hex7.jsonl", "hex7"), ("tactics_hex11.jsonl", "hex11")] {
        check(f, k, "decisive", |l| 3 * l + 100, 1);
    }
}

#[test]
fn pentago_depth2() {
    check("tactics_pentago.jsonl", "pentago", "depth2", |l| l + 50, 1);
}

#[test]
fn pentago_decisive() {
    check("tactics_pentago.jsonl", "pentago", "decisive", |l| 3 * l + 100, 1);
}
