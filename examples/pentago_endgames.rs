//! Writes the Pentago endgames of `tests/data/pentago-endgames.jsonl` (the endgame solver's
//! benchmark, `tests/bench/endgame.mjs`): for each number of empty cells, positions reached from
//! the empty board by seeded random *quiet* moves (after which the game goes on and neither side
//! can win at once), kept only when the exact solver needs more than 20 positions for them (the
//! hard ones: most random endgames are decided by an immediate threat). One JSON line per
//! position: `{game, moves, empty}`.
//!
//! ```sh
//! cargo run --release --example pentago_endgames > tests/data/pentago-endgames.jsonl
//! ```
//! Arguments (optional): the numbers of empty cells (default 4,6,…,18) and positions per
//! number (default 8).
//!
//! With `--solve [SECONDS]` it reads such lines from standard input instead and solves each
//! root with the endgame solver directly, whatever its number of empty cells (so also above
//! `exact::PENTAGO_MAX_EMPTY`, which `mcts solve` refuses): value, positions, milliseconds, or
//! "unknown" after SECONDS (default 60). This is how the limit in docs/limits.md was chosen:
//! ```sh
//! cargo run --release --example pentago_endgames -- --solve 120 < tests/data/pentago-endgames.jsonl
//! ```

use mcts_playground::game::{Game, MoveList, Pentago, PentagoRules};
use mcts_playground::rng::Rng64;
use mcts_playground::solve::endgame::{Exact, ExactConfig};

/// A quiet random endgame with `empty` empty cells and its moves, or `None` when stuck.
fn quiet_endgame(empty: usize, rng: &mut Rng64) -> Option<(Pentago, Vec<String>)> {
    let mut g = Pentago::new(PentagoRules::Official, false);
    let mut moves = Vec::new();
    while 36 - g.ply() > empty {
        let mut legal = MoveList::new();
        g.legal_moves(&mut legal);
        let quiet: Vec<u16> = legal
            .iter()
            .copied()
            .filter(|&m| {
                let mut c = g;
                c.play_unchecked(m);
                let mut t = MoveList::new();
                c.threats(&mut t);
                c.outcome().is_none() && c.find_winning_move().is_none() && t.is_empty()
            })
            .collect();
        if quiet.is_empty() {
            return None;
        }
        let m = quiet[rng.index(quiet.len())];
        moves.push(g.format_move(m));
        g.play_unchecked(m);
    }
    Some((g, moves))
}

/// `--solve`: each line of standard input solved, one line of figures each.
fn solve_lines(seconds: f64) {
    use std::io::BufRead;
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("standard input");
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value = serde_json::from_str(&line).expect("a JSON line");
        let mut g = Pentago::new(PentagoRules::Official, false);
        for m in v["moves"].as_str().expect("moves").split_whitespace() {
            g.play_text(m).expect("a legal move");
        }
        let mut s = Exact::<Pentago>::new(ExactConfig::default()).unwrap();
        let t = std::time::Instant::now();
        let r = s.solve(&g, &mut |_| t.elapsed().as_secs_f64() > seconds);
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let value = r.map_or("unknown", |r| r.value.name());
        println!("empty {:>2}  {value:<7}  {:>11} positions  {ms:>9.1} ms", 36 - g.ply(), s.stats().nodes);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--solve") {
        return solve_lines(args.get(2).map_or(60.0, |s| s.parse().expect("seconds")));
    }
    let sizes: Vec<usize> =
        args.get(1).map(|s| s.split(',').map(|x| x.parse().expect("empty cells")).collect()).unwrap_or(vec![4, 6, 8, 10, 12, 14, 16, 18]);
    let per: usize = args.get(2).map(|s| s.parse().expect("positions per size")).unwrap_or(8);
    let mut rng = Rng64::new(36);
    for &empty in &sizes {
        let mut kept = 0;
        while kept < per {
            let Some((g, moves)) = quiet_endgame(empty, &mut rng) else { continue };
            // Hard ones only (more than 20 positions of search; a few thousand at most to tell).
            let mut s = Exact::<Pentago>::new(ExactConfig { tt_log2: 16 }).unwrap();
            if s.solve(&g, &mut |st| st.nodes > 5000).is_some() && s.stats().nodes <= 20 {
                continue;
            }
            kept += 1;
            println!("{}", serde_json::json!({"game": "pentago", "moves": moves.join(" "), "empty": empty}));
        }
    }
}
