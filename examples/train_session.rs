//! Benchmark (a figure, never a pass/fail): the Train panel's training run natively, through the
//! same step-wise API the browser's worker uses ([`TrainSession`]), with the panel's settings.
//! Prints one JSON line per iteration (games, seconds, games/s, losses, the raw policy's W/D/L
//! against perfect play) and a summary with the self-play games until the raw policy first lost
//! no evaluation game. `tests/bench/train-page.mjs` runs the same configuration in Chromium.
//!
//! ```sh
//! cargo run --profile wasm-train --features train --example train_session -- '{"iterations":20}'
//! ```
//! The argument (optional) is a `TrainConfig` JSON object over the panel's defaults.

use mcts_playground::nn::train::session::TrainSession;
use mcts_playground::nn::train::TrainConfig;
use std::time::Instant;

fn main() {
    // The Train panel's defaults (www/src/train/figures.ts: TRAIN_DEFAULTS and TRAIN_FIXED).
    let mut panel = serde_json::json!({
        "game": "tictactoe", "hidden": [128, 128], "iterations": 20, "games": 40, "playouts": 64,
        "steps": 100, "batch": 128, "lr": 0.002, "seed": 1, "eval_games": 20, "eval_playouts": 16
    });
    if let Some(arg) = std::env::args().nth(1) {
        let over: serde_json::Value = serde_json::from_str(&arg).expect("a JSON object of TrainConfig fields");
        for (k, v) in over.as_object().expect("a JSON object") {
            panel[k] = v.clone();
        }
    }
    let config: TrainConfig = serde_json::from_value(panel).expect("TrainConfig fields");
    let mut s = TrainSession::new(config.clone(), None).expect("valid settings");
    let t0 = Instant::now();
    let mut unbeaten: Option<(usize, usize)> = None;
    while !s.is_done() {
        let p = s.step();
        if let Some(r) = p.finished {
            let secs = t0.elapsed().as_secs_f64();
            let raw = r.raw.total;
            if unbeaten.is_none() && raw.losses == 0 {
                unbeaten = Some((r.iteration, r.games));
            }
            println!(
                "{}",
                serde_json::json!({
                    "iteration": r.iteration, "games": r.games, "seconds": secs,
                    "games_per_s": r.games as f64 / secs, "policy_loss": r.loss.policy,
                    "value_loss": r.loss.value, "raw_wdl": [raw.wins, raw.draws, raw.losses],
                    "search_wdl": r.search.map(|m| [m.total.wins, m.total.draws, m.total.losses]),
                })
            );
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    let games = s.progress().games;
    println!(
        "{}",
        serde_json::json!({
            "summary": true, "config": config, "games": games, "seconds": secs,
            "games_per_s": games as f64 / secs,
            "raw_unbeaten_at": unbeaten.map(|(i, g)| serde_json::json!({"iteration": i, "games": g})),
        })
    );
}
