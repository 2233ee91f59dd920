//! The arena on the page: one game of a match per call, and the standings of the games played.

use std::collections::BTreeMap;

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::search::build_config;
use super::{clock, js_err, to_js, WasmError};
use crate::arena::{first_move_openings, opening_of, play_game_from, GameRecord, Standings};
use crate::limits::abbreviate;
use crate::mcts::{ConfigError, ParamInput, ParamValue, SearchConfig};
use crate::request::{arena_budget, arena_seed, ArenaRecord};

/// Plays game `index` of an arena match between configuration A (`preset_a` + `params_a`) and
/// B on the game `spec`, exactly as `mcts arena` does (`crate::arena::play_game`: engine seeds
/// derived from `(seed, index)`, A moves first when `index` is even, tree reuse for both sides).
/// The budget per move is `iterations` when given (reproducible: the same records as
/// `mcts arena --iterations N --seed S`), else `millis` milliseconds of `performance.now()`.
/// With `openings` true the match is played on every first move of the game, each twice with
/// colours swapped (`mcts arena --openings all`): game `index` starts from first move
/// `(index / 2) mod k` of the `k` legal first moves (`crate::arena::opening_of`).
/// Returns the `GameRecord`: `{ index, a_first, moves, opening_plies, a_score, winner }`
/// (`opening_plies` absent for a game from the empty board).
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
    openings: Option<bool>,
) -> Result<JsValue, JsError> {
    check_params("A", preset_a, &params_a).map_err(js_err)?;
    check_params("B", preset_b, &params_b).map_err(js_err)?;
    let (a, _) = build_config(preset_a, params_a).map_err(|e| js_err(format!("configuration A: {e}")))?;
    let (b, _) = build_config(preset_b, params_b).map_err(|e| js_err(format!("configuration B: {e}")))?;
    let budget = arena_budget(iterations, millis).map_err(js_err)?;
    let seed = arena_seed(seed).map_err(js_err)?;
    let opening = if openings == Some(true) {
        let all = first_move_openings(spec).map_err(js_err)?;
        all.get(opening_of(index, all.len())).cloned().unwrap_or_default()
    } else {
        Vec::new()
    };
    let record = play_game_from(spec, &opening, &a, &b, budget, seed, index, &clock).map_err(js_err)?;
    to_js(&record)
}

/// Checks a side's parameters before the engine reads them, so that a person sees a sentence
/// rather than a reader's message: an unknown name (with the known ones), or a value that is not
/// of the field's type (a number, a whole number, true or false, one of an option's names). The
/// parameters are typed (`{ c: 0.7, pool_k: 10 }`), decoded as [`build_config`] decodes them; a
/// text value is read as the command line reads it. Ranges are left to the engine, whose messages
/// already give them (`c = 200 is out of range [0, 100]`). `side` is `A` or `B`; an unknown preset
/// is left to `build_config` too.
///
/// # Errors
/// The sentence naming the parameter, what it must be and what was given.
fn check_params(side: &str, preset: &str, params: &JsValue) -> Result<(), String> {
    if params.is_undefined() || params.is_null() {
        return Ok(());
    }
    let map: BTreeMap<String, ParamInput> = serde_wasm_bindgen::from_value(params.clone())
        .map_err(|_| format!("configuration {side}: the parameters must be key=value pairs"))?;
    let Ok(config) = SearchConfig::preset(preset) else { return Ok(()) };
    for (k, v) in &map {
        let key = k.trim();
        if SearchConfig::kind_of(key).is_none() {
            let mut keys: Vec<&str> = SearchConfig::FIELDS.iter().map(|(k, _)| *k).collect();
            keys.sort_unstable();
            return Err(format!("configuration {side}: there is no parameter '{key}' (the parameters are {})", keys.join(", ")));
        }
        let given = match v {
            ParamInput::Value(ParamValue::Text(t)) => t.trim().to_string(),
            ParamInput::Value(v) => v.to_string(),
            ParamInput::Other(what) => what.to_string(),
        };
        let fits = match v {
            ParamInput::Value(v) => !matches!(config.clone().set_value(key, v), Err(ConfigError::BadValue { .. })),
            ParamInput::Other(_) => false,
        };
        if !fits {
            return Err(format!("configuration {side}: {key} must be {}, not '{}'", SearchConfig::expected(key), abbreviate(&given)));
        }
    }
    Ok(())
}

/// Standings of A from game records (`GameRecord` objects as `arenaPlayGame` returns them): the
/// same `Standings` as `mcts arena` prints: `{ games, wins, draws, losses, win_rate,
/// win_rate_ci95: [lo, hi] (Wilson 1927, z = 1.959964), elo, elo_ci95 }`, with infinite Elo
/// figures (rates 0 or 1) as null, and the per-colour split: `a_first_games`, `a_first_wins`,
/// `a_first_draws`, `a_first_losses`, the same four `a_second_*`, `first_player_wins`,
/// `second_player_wins`.
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
        a_first_games: usize,
        a_first_wins: usize,
        a_first_draws: usize,
        a_first_losses: usize,
        a_second_games: usize,
        a_second_wins: usize,
        a_second_draws: usize,
        a_second_losses: usize,
        first_player_wins: usize,
        second_player_wins: usize,
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
        a_first_games: s.a_first_games,
        a_first_wins: s.a_first_wins,
        a_first_draws: s.a_first_draws,
        a_first_losses: s.a_first_losses,
        a_second_games: s.a_second_games,
        a_second_wins: s.a_second_wins,
        a_second_draws: s.a_second_draws,
        a_second_losses: s.a_second_losses,
        first_player_wins: s.first_player_wins,
        second_player_wins: s.second_player_wins,
    })
}
