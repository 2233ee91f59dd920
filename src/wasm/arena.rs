//! The arena on the page: one game of a match per call, and the standings of the games played.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::search::build_config;
use super::{clock, js_err, to_js, WasmError};
use crate::arena::{play_game, GameRecord, Standings};
use crate::request::{arena_budget, arena_seed, ArenaRecord};

/// Plays game `index` of an arena match between configuration A (`preset_a` + `params_a`) and
/// B on the game `spec`, exactly as `mcts arena` does (`crate::arena::play_game`: engine seeds
/// derived from `(seed, index)`, A moves first when `index` is even, tree reuse for both sides).
/// The budget per move is `iterations` when given (reproducible: the same records as
/// `mcts arena --iterations N --seed S`), else `millis` milliseconds of `performance.now()`.
/// Returns the `GameRecord`: `{ index, a_first, moves, a_score, winner }`.
///
/// # Errors
/// A bad spec, preset or parameter, a missing budget, or an engine failure (the message says which).
#[wasm_bindgen(js_name = arenaPlayGame)]
#[allow(clippy::too_many_arguments)]
pub fn arena_play_game(
    spec: &str,
    preset_a: &str,
    params_a: JsValue,
    preset_b: &str,
    params_b: JsValue,
    iterations: Option<f64>,
    millis: Option<f64>,
    seed: f64,
    index: usize,
) -> Result<JsValue, JsError> {
    let (a, _) = build_config(preset_a, params_a).map_err(|e| js_err(format!("configuration A: {e}")))?;
    let (b, _) = build_config(preset_b, params_b).map_err(|e| js_err(format!("configuration B: {e}")))?;
    let budget = arena_budget(iterations, millis).map_err(js_err)?;
    let seed = arena_seed(seed).map_err(js_err)?;
    let record = play_game(spec, &a, &b, budget, seed, index, &clock).map_err(js_err)?;
    to_js(&record)
}

/// Standings of A from game records (`GameRecord` objects as `arenaPlayGame` returns them): the
/// same `Standings` as `mcts arena` prints: `{ games, wins, draws, losses, win_rate,
/// win_rate_ci95: [lo, hi] (Wilson 1927, z = 1.959964), elo, elo_ci95 }`, with infinite Elo
/// figures (rates 0 or 1) as null.
///
/// # Errors
/// Records that are not game records (unknown fields, a score other than 0, 0.5, 1, a winner
/// other than 0, 1, null).
#[wasm_bindgen(js_name = arenaStandings)]
pub fn arena_standings(records: JsValue) -> Result<JsValue, JsError> {
    let recs: Vec<ArenaRecord> = serde_wasm_bindgen::from_value(records).map_err(|e| WasmError::Records(e.to_string()))?;
    let recs: Vec<GameRecord> =
        recs.into_iter().map(ArenaRecord::checked).collect::<Result<_, _>>().map_err(|e| WasmError::Records(e.to_string()))?;
    let s = Standings::from_records(&recs);
    let fin = |x: f64| x.is_finite().then_some(x);
    #[derive(Serialize)]
    struct Out {
        games: usize,
        wins: usize,
        draws: usize,
        losses: usize,
        win_rate: f64,
        win_rate_ci95: [f64; 2],
        elo: Option<f64>,
        elo_ci95: [Option<f64>; 2],
    }
    to_js(&Out {
        games: s.games,
        wins: s.wins,
        draws: s.draws,
        losses: s.losses,
        win_rate: s.win_rate,
        win_rate_ci95: s.win_rate_ci95,
        elo: fin(s.elo),
        elo_ci95: [fin(s.elo_ci95[0]), fin(s.elo_ci95[1])],
    })
}
