//! Benchmark (a figure, never a pass/fail): a Hex net's value head against exact results. Reads
//! positions with their proven winner, one JSON object a line (`{"game":"hex:7","moves":"c1 c5
//! ...","winner":"white", ...}`, as `tests/data/hex7-solve.jsonl`, made by
//! `tests/bench/make-hex7-positions.mjs` and proven by the exact solver), and counts the positions
//! where the sign of the value head (for the side to move) agrees with the proven result. The 49
//! openings with their proven winners are `tests/data/hex7-openings.jsonl` (what `mcts solve
//! --game hex:7 --openings --net FILE` measures, solving them again).
//!
//! ```sh
//! cargo run --release --example value_head -- tests/data/hex7-solve.jsonl [models/hex7.mctsnet]
//! cargo run --release --example value_head -- tests/data/hex7-openings.jsonl [models/hex7.mctsnet]
//! cargo run --release --example value_head -- tests/data/hex5-solve.jsonl [models/hex5.mctsnet]
//! ```
//! (Hex 5×5: `tests/data/hex5-solve.jsonl`, 100 positions, and `hex5-openings.jsonl`, the 25 first
//! moves, both labelled by MoHex.)
//! Without a net file, the game's shipped net.

use mcts_playground::game::{Game, Hex};
use mcts_playground::nn::{Net, NetEvaluator};
use std::sync::Arc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().cloned().unwrap_or_else(|| "tests/data/hex7-solve.jsonl".into());
    let text = std::fs::read_to_string(&path).expect("the positions file");
    let (mut agree, mut total) = (0usize, 0usize);
    let mut by_stones: std::collections::BTreeMap<u64, (usize, usize)> = std::collections::BTreeMap::new();
    let mut net: Option<(String, NetEvaluator<Hex>)> = None;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let spec = v["game"].as_str().expect("game").to_string();
        if net.as_ref().is_none_or(|(s, _)| *s != spec) {
            let file: Arc<Net> = match args.get(1) {
                Some(f) => Arc::new(Net::from_bytes(&std::fs::read(f).expect("the net file")).expect("a net")),
                None => mcts_playground::nn::models::load(&spec).expect("a shipped net"),
            };
            net = Some((spec.clone(), NetEvaluator::new(file, &spec).expect("a net for the game")));
        }
        let (_, ev) = net.as_ref().expect("loaded");
        let n: usize = spec.strip_prefix("hex:").and_then(|n| n.parse().ok()).expect("hex:N");
        let mut g = Hex::new(n, false).expect("a board");
        for m in v["moves"].as_str().unwrap_or("").split_whitespace() {
            let m = g.parse_move(m).expect("a legal move");
            g.play(m).expect("a legal move");
        }
        let winner = if v["winner"] == "black" { 0 } else { 1 };
        let mut logits = vec![0f32; n * n];
        let value = ev.forward(&g, &mut logits);
        let ok = (value > 0.0) == (winner == g.to_move());
        agree += ok as usize;
        total += 1;
        let e = by_stones.entry(v["stones"].as_u64().unwrap_or(0) / 10 * 10).or_default();
        e.0 += ok as usize;
        e.1 += 1;
    }
    println!("{path}: the value head's sign agrees with the exact result on {agree} of {total} positions");
    for (s, (a, t)) in by_stones {
        println!("  {s:>2}–{:>2} stones: {a} of {t}", s + 9);
    }
}
