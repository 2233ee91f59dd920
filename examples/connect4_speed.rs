//! Connect Four's speed: uniformly random playouts per second from the empty board, and the
//! exact solver's time on positions (the endgame solver of `src/solve/endgame.rs`, with Connect
//! Four's bitboard fast paths and Pons's move ordering).
//!
//! ```sh
//! cargo run --release --example connect4_speed -- playouts [SPEC] [SECONDS]
//! cargo run --release --example connect4_speed -- solve [SPEC] [MOVES...]   # one position per argument, moves as "dd" or "4 4"
//! cargo run --release --example connect4_speed -- first [SPEC]              # the empty board's every first move
//! cargo run --release --example connect4_speed -- file PATH [MAX]            # Pons's test set lines "MOVES SCORE"
//! ```
//! Each solve prints the value for the side to move, the positions searched and the
//! milliseconds; `file` also checks the value against the sign of Pons's score. The environment
//! variable `TT_LOG2` sets the solver's largest table (default 18: 2^18 entries, 6 MiB); the
//! search is bound by the table's memory latency, and a table larger than the caches is slower
//! (measured on 6×5's empty board: 0.95 s with 2^18 entries, 1.5 s with 2^20, 2.9 s with 2^24).

use std::time::Instant;

use mcts_playground::game::{ConnectFour, Game, NoTrace};
use mcts_playground::rng::Rng64;
use mcts_playground::solve::endgame::{Exact, ExactConfig, Value};

fn game(spec: &str) -> ConnectFour {
    let opts: Vec<&str> = spec.split(':').skip(1).collect();
    ConnectFour::from_options(&opts).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

/// Plays moves written as column numbers 1.. (Pons's format "4453") or letters.
fn play(g: &mut ConnectFour, moves: &str) {
    let chars: Vec<String> = if moves.contains(' ') {
        moves.split_whitespace().map(str::to_string).collect()
    } else {
        moves.chars().map(|c| c.to_string()).collect()
    };
    for m in chars {
        g.play_text(&m).unwrap_or_else(|e| panic!("{moves}: {e}"));
    }
}

fn solve(g: &ConnectFour) -> (Value, u64, f64) {
    let tt_log2 = std::env::var("TT_LOG2").ok().and_then(|s| s.parse().ok()).unwrap_or(18);
    let mut s = Exact::<ConnectFour>::new(ExactConfig { tt_log2 }).unwrap();
    let t = Instant::now();
    let v = s.solve(g, &mut |_| false).unwrap().value;
    (v, s.stats().nodes, t.elapsed().as_secs_f64() * 1e3)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let verb = args.first().map(String::as_str).unwrap_or("playouts");
    match verb {
        "playouts" => {
            let g = game(args.get(1).map(String::as_str).unwrap_or("connect4"));
            let secs: f64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(3.0);
            let mut rng = Rng64::new(1);
            let mut wins = [0u64; 3];
            let t = Instant::now();
            let mut n = 0u64;
            while t.elapsed().as_secs_f64() < secs {
                for _ in 0..10_000 {
                    let mut c = g;
                    match c.random_playout(&mut rng, &mut NoTrace) {
                        mcts_playground::game::Outcome::Win(p) => wins[p as usize] += 1,
                        mcts_playground::game::Outcome::Draw => wins[2] += 1,
                    }
                }
                n += 10_000;
            }
            let el = t.elapsed().as_secs_f64();
            println!(
                "{}: {n} playouts in {el:.2} s = {:.0} playouts/s; X wins {:.3}, O wins {:.3}, draws {:.3}",
                g.spec(),
                n as f64 / el,
                wins[0] as f64 / n as f64,
                wins[1] as f64 / n as f64,
                wins[2] as f64 / n as f64
            );
        }
        "solve" => {
            let g0 = game(&args[1]);
            for moves in &args[2..] {
                let mut g = g0;
                play(&mut g, moves);
                let (v, nodes, ms) = solve(&g);
                println!("{moves}: {} for the side to move, {nodes} positions, {ms:.0} ms", v.name());
            }
        }
        "first" => {
            let g0 = game(args.get(1).map(String::as_str).unwrap_or("connect4"));
            for c in 0..g0.cols() as u8 {
                let mut g = g0;
                g.play_unchecked(c);
                let (v, nodes, ms) = solve(&g);
                println!("first move {}: {} for the first player, {nodes} positions, {ms:.0} ms", g.format_move(c), v.flip().name());
            }
        }
        "file" => {
            let text = std::fs::read_to_string(&args[1]).unwrap();
            let max: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(usize::MAX);
            let mut times = Vec::new();
            let mut bad = 0;
            for line in text.lines().take(max) {
                let mut it = line.split_whitespace();
                let (Some(moves), Some(score)) = (it.next(), it.next()) else { continue };
                let score: i32 = score.parse().unwrap();
                let mut g = ConnectFour::new();
                play(&mut g, moves);
                let want = match score.signum() {
                    1 => Value::Win,
                    0 => Value::Draw,
                    _ => Value::Loss,
                };
                let (v, nodes, ms) = solve(&g);
                if v != want {
                    bad += 1;
                    println!("MISMATCH {moves}: {} vs {}", v.name(), want.name());
                }
                times.push((ms, nodes));
            }
            times.sort_by(|a, b| a.0.total_cmp(&b.0));
            let n = times.len();
            let sum: f64 = times.iter().map(|t| t.0).sum();
            let nodes: u64 = times.iter().map(|t| t.1).sum();
            println!(
                "{n} positions, {bad} mismatches; ms median {:.2}, mean {:.2}, max {:.1}; mean positions {:.0}",
                times[n / 2].0,
                sum / n as f64,
                times[n - 1].0,
                nodes as f64 / n as f64
            );
        }
        _ => eprintln!("verbs: playouts, solve, first, file"),
    }
}
