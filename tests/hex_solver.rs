//! The proof-number solver against independent ground truth: the published Hex 6×6 opening results
//! and the positions of `tests/data/hex7-solve.jsonl` and `hex5-*.jsonl` (labelled by MoHex's
//! solver). A position the solver does not settle within its node budget is "unknown", which is
//! allowed (a budget, not a clock); a settled one must be right, and a winning move must win.

use mcts_playground::game::{Game, Hex};
use mcts_playground::solve::hex::dfpn::{Dfpn, DfpnConfig};

fn position(n: usize, moves: &str) -> Hex {
    let mut g = Hex::new(n, false).unwrap();
    for m in moves.split_whitespace() {
        let mv = g.parse_move(m).unwrap();
        assert!(g.is_legal(mv), "{moves}: {m}");
        g.play_unchecked(mv);
    }
    g
}

/// Solves `g` within `max_nodes` nodes created: Some(winner) or None.
fn solve(s: &mut Dfpn, g: &Hex, max_nodes: u64) -> Option<u8> {
    let start = s.stats().expansions;
    let r = s.solve(g, &mut |st| st.expansions - start >= max_nodes).unwrap()?;
    if r.winner == g.to_move() {
        // The winning move leaves the opponent a proven loss.
        let mut c = g.clone();
        c.play_unchecked(r.winning_move.expect("a winning move"));
        if c.outcome().is_none() {
            let after = s.solve(&c, &mut |_| false).unwrap().unwrap();
            assert_eq!(after.winner, g.to_move(), "{g:?}: the winning move does not win");
        }
    }
    Some(r.winner)
}

/// 6×6: Black (the first player) wins with 24 of the 36 openings, these (rows 1–6 of benzene's
/// regression table `dfpn-solve-6x6`).
#[test]
fn six_by_six_openings_as_published() {
    let table = [".....B", ".BBBBB", "BBBBBB", "BBBBBB", "BBBBB.", "B....."];
    let mut s = Dfpn::new(DfpnConfig { tt_log2: 20, ..DfpnConfig::default() }).unwrap();
    for (r, row) in table.iter().enumerate() {
        for (c, mark) in row.chars().enumerate() {
            let m = format!("{}{}", (b'a' + c as u8) as char, r + 1);
            let g = position(6, &m);
            let winner = solve(&mut s, &g, 2_000_000).unwrap_or_else(|| panic!("6x6 {m} not solved"));
            assert_eq!(winner == 0, mark == 'B', "6x6 opening {m}");
        }
    }
}

/// The 7×7 positions with 14 or more stones (the cheap ones; `tests/bench/solver.mjs --set
/// positions` runs all 100): every settled result equals MoHex's.
#[test]
fn seven_by_seven_positions_agree_with_mohex() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/hex7-solve.jsonl")).unwrap();
    let mut s = Dfpn::new(DfpnConfig { tt_log2: 20, ..DfpnConfig::default() }).unwrap();
    let (mut checked, mut settled) = (0, 0);
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if v["stones"].as_u64().unwrap() < 14 {
            continue;
        }
        let g = position(7, v["moves"].as_str().unwrap());
        let want = if v["winner"] == "black" { 0 } else { 1 };
        checked += 1;
        if let Some(w) = solve(&mut s, &g, 200_000) {
            assert_eq!(w, want, "{}", v["moves"]);
            settled += 1;
        }
    }
    assert!(checked >= 10, "{checked} positions with 14 or more stones");
    // Most settle within the budget (a count of nodes, the same on every machine).
    assert!(settled * 2 >= checked, "{settled} of {checked} settled");
}

/// Hex 5×5, `tests/data/hex5-openings.jsonl` and `hex5-solve.jsonl` (the value-head sets of the
/// 5×5 net, labelled by MoHex's solver): our solver settles every one of the 125 and agrees.
#[test]
fn five_by_five_sets_agree_with_mohex() {
    let mut s = Dfpn::new(DfpnConfig { tt_log2: 18, ..DfpnConfig::default() }).unwrap();
    let mut black = 0;
    for file in ["hex5-openings.jsonl", "hex5-solve.jsonl"] {
        let text = std::fs::read_to_string(format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        assert_eq!(lines.len(), if file.contains("openings") { 25 } else { 100 }, "{file}");
        for line in lines {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(v["game"], "hex:5");
            let g = position(5, v["moves"].as_str().unwrap());
            let want = if v["winner"] == "black" { 0 } else { 1 };
            black += usize::from(file.contains("openings") && want == 0);
            let got = solve(&mut s, &g, 2_000_000).unwrap_or_else(|| panic!("{file}: {} not settled", v["moves"]));
            assert_eq!(got, want, "{file}: {}", v["moves"]);
        }
    }
    // Black wins with 13 of the 25 first moves (as `mcts solve --game hex:5 --openings` finds).
    assert_eq!(black, 13);
}

/// `mcts solve --openings --threads 2`: the moves shared between two solvers give the same
/// results, in the same order, as one solver (5×5 openings; the centre and the published
/// first-player wins).
#[test]
fn openings_on_two_threads_equal_one_thread() {
    use mcts_playground::report::{solve::solve_position, SolveOptions};
    let run = |threads| {
        let opts = SolveOptions { openings: true, threads, tt_mib: 16, ..SolveOptions::default() };
        solve_position("hex:5", "", &opts).unwrap().json().clone()
    };
    let (one, two) = (run(1), run(2));
    let rows = |v: &serde_json::Value| -> Vec<(String, serde_json::Value)> {
        v["openings"].as_array().unwrap().iter().map(|o| (o["move"].as_str().unwrap().to_string(), o["winner"].clone())).collect()
    };
    assert_eq!(rows(&one), rows(&two));
    assert_eq!(one["unknown"], 0);
    assert_eq!(two["mover_wins"], one["mover_wins"]);
    let bad = SolveOptions { openings: true, threads: 0, ..SolveOptions::default() };
    let e = solve_position("hex:5", "", &bad).err().unwrap().to_string();
    assert!(e.contains("threads 0"), "{e}");
}
