//! `SearchSession`: an anytime MCTS search that follows a `GameSession`, and the presets.

use std::collections::BTreeMap;

use wasm_bindgen::prelude::*;

use super::game::GameSession;
use super::{clock, js_err, to_js};
use crate::mcts::{parallel, AnySearch, ParamInput, ParamValue, SearchConfig, SearchStats};
use crate::report::SearchReport;
use crate::request::{engine_config, run_budget, typed_params, SettingsError};

/// The engine's preset names (`uct`, `rave`, `grave`, ..., `best`), in the engine's order.
#[wasm_bindgen]
pub fn presets() -> Vec<String> {
    SearchConfig::PRESETS.iter().map(|s| s.to_string()).collect()
}

pub use crate::limits::PAGE_NODE_CAP;

/// Root-parallel search in the page (`www/src/parallel.ts`): the merged root statistics of the
/// workers' searches of one position ([`crate::mcts::parallel::merge_root_stats`], the same merge
/// as `mcts search --threads N`). `parts` is an array of `SearchStats` objects (worker 0 first,
/// as `stats()` returns them); `preset` and `params` are the workers' engine settings, whose
/// final-move rule (robust, max or secure child) chooses the move. Returns a `SearchStats`.
///
/// # Errors
/// `parts` not an array of statistics, an empty array, statistics of different positions, or
/// bad engine settings (the message names it).
#[wasm_bindgen(js_name = mergeRootStats)]
pub fn merge_root_stats(parts: JsValue, preset: &str, params: JsValue) -> Result<JsValue, JsError> {
    let parts: Vec<SearchStats> = serde_wasm_bindgen::from_value(parts).map_err(|e| js_err(format!("statistics to merge: {e}")))?;
    let (config, _) = build_config(preset, params).map_err(js_err)?;
    let merged = parallel::merge_root_stats(&parts, config.final_move, config.secure_a).map_err(js_err)?;
    to_js(&merged)
}

/// The report of a root-parallel search in the page, as `mcts search --threads N --json` prints
/// it ([`crate::report::SearchReport::root_parallel`]: the same code as the command line): the
/// merged statistics' keys, `threads` and `workers` (`[{seed, iterations, best_move,
/// iterations_per_s}]`). `parts`, `preset` and `params` as `mergeRootStats`. Returns the JSON text.
///
/// # Errors
/// As `mergeRootStats`.
#[wasm_bindgen(js_name = rootParallelReport)]
pub fn root_parallel_report(parts: JsValue, preset: &str, params: JsValue) -> Result<String, JsError> {
    let parts: Vec<SearchStats> = serde_wasm_bindgen::from_value(parts).map_err(|e| js_err(format!("statistics to merge: {e}")))?;
    let (config, _) = build_config(preset, params).map_err(js_err)?;
    let report = SearchReport::root_parallel(parts, &config).map_err(js_err)?;
    report.to_json().map_err(js_err)
}

/// A configuration from a preset name and field overrides by serde name, typed
/// (`{ c: 0.7, rave_k: 500, solver: true, value: "grave" }`: the page's
/// `Record<ParamName, ParamValue>`, decoded by serde-wasm-bindgen into [`ParamValue`]s); a string
/// value is read as `mcts search --set` reads its text (`{ c: "0.7" }`, the protocol's older
/// form). `params` may be `undefined`/`null` (no overrides). A value of the wrong type
/// (`c: true`, `rave_k: "abc"`, `selection: 3`, `c: null`) is refused naming the parameter, the
/// value and what the parameter takes. Without a `node_cap` or `memory_cap_mib` override the
/// caps are the page's ([`crate::limits::PAGE_TREE_LIMITS`]: [`PAGE_NODE_CAP`] nodes, 512 MiB).
/// The checks are the core's ([`crate::request::engine_config`]). Returns the configuration and
/// the overrides as given.
///
/// # Errors
/// [`SettingsError`] naming the bad parameters, preset or field.
pub(super) fn build_config(preset: &str, params: JsValue) -> Result<(SearchConfig, BTreeMap<String, ParamValue>), SettingsError> {
    let params = decode_params(&params)?;
    let config = engine_config(preset, &params, Some(crate::limits::PAGE_TREE_LIMITS))?;
    Ok((config, params))
}

/// The engine parameters of a request, typed (see [`build_config`]); none for `undefined`/`null`.
///
/// # Errors
/// [`SettingsError::Params`] when `params` is not an object; [`SettingsError::Field`] for a
/// value no parameter takes (`null`, a list, an object).
pub(super) fn decode_params(params: &JsValue) -> Result<BTreeMap<String, ParamValue>, SettingsError> {
    if params.is_undefined() || params.is_null() {
        return Ok(BTreeMap::new());
    }
    if !params.is_object() || js_sys::Array::is_array(params) {
        // Said plainly: the decoder's own words for a number or a list are about JavaScript
        // internals ("Reflect.get called on non-object").
        let what = if let Some(x) = params.as_f64() {
            format!("the number {x}")
        } else if let Some(s) = params.as_string() {
            format!("the text {s:?}")
        } else if js_sys::Array::is_array(params) {
            "a list".to_string()
        } else {
            format!("a value of type {}", params.js_typeof().as_string().unwrap_or_default())
        };
        return Err(SettingsError::Params(format!("got {what}")));
    }
    let raw: BTreeMap<String, ParamInput> =
        serde_wasm_bindgen::from_value(params.clone()).map_err(|e| SettingsError::Params(e.to_string()))?;
    typed_params(raw)
}

/// An anytime search that follows a [`GameSession`]: `path` is the list of moves from the
/// game's start to the search root, so `follow` can re-root the tree on the game's current
/// position by advancing through the moves played since (tree reuse, statistics kept), or start
/// a fresh tree when the game went elsewhere (undo, another game).
#[wasm_bindgen]
pub struct SearchSession {
    pub(super) search: AnySearch,
    spec: String,
    path: Vec<String>,
    preset: String,
    params: BTreeMap<String, ParamValue>,
}

#[wasm_bindgen]
impl SearchSession {
    /// A search of the game's current position with a preset (see `presets()`) and field
    /// overrides by serde name, typed, e.g. `{ c: 0.7, rave_k: 500, seed: 7 }` (see
    /// [`build_config`]; text values such as `"0.7"` are read as the command line reads them).
    ///
    /// # Errors
    /// Unknown preset, unknown field, value out of range (the message names it).
    #[wasm_bindgen(constructor)]
    pub fn new(game: &GameSession, preset: &str, params: JsValue) -> Result<SearchSession, JsError> {
        let (config, params) = build_config(preset, params).map_err(js_err)?;
        let search = crate::nn::search::any_search(game.current(), config).map_err(js_err)?;
        Ok(SearchSession { search, spec: game.spec(), path: game.moves(), preset: preset.to_string(), params })
    }

    /// Changes the configuration; the tree is kept where the engine can keep it.
    /// Returns false when nothing changed.
    ///
    /// # Errors
    /// As `new`; the search is untouched on error.
    pub fn configure(&mut self, preset: &str, params: JsValue) -> Result<bool, JsError> {
        let (config, params) = build_config(preset, params).map_err(js_err)?;
        if preset == self.preset && params == self.params {
            return Ok(false);
        }
        self.search.set_config(config).map_err(js_err)?;
        self.preset = preset.to_string();
        self.params = params;
        Ok(true)
    }

    /// Re-roots the search on the game's current position. When the game is this search's root
    /// plus some moves, the tree advances through them (tree reuse) and this returns true;
    /// otherwise a fresh tree is started and this returns false.
    ///
    /// # Errors
    /// Only if the engine refuses a move the game accepted (a bug).
    pub fn follow(&mut self, game: &GameSession) -> Result<bool, JsError> {
        let moves = game.moves();
        let spec = game.spec();
        if spec == self.spec && moves.len() >= self.path.len() && moves[..self.path.len()] == self.path[..] {
            for mv in &moves[self.path.len()..] {
                self.search.advance_text(mv).map_err(js_err)?;
            }
            self.path = moves;
            return Ok(true);
        }
        self.reset(game)?;
        Ok(false)
    }

    /// Starts a fresh tree at the game's current position (configuration kept).
    ///
    /// # Errors
    /// Only if the configuration became invalid (a bug).
    pub fn reset(&mut self, game: &GameSession) -> Result<(), JsError> {
        let config = self.search.config().clone();
        self.search = crate::nn::search::any_search(game.current(), config).map_err(js_err)?;
        self.spec = game.spec();
        self.path = game.moves();
        Ok(())
    }

    /// Runs one chunk: at most `millis` milliseconds (by `performance.now()`) and, when given,
    /// at most `iterations` iterations. Returns the engine's `RunReport`:
    /// `{ iterations, elapsed_ms, stop: "iterations" | "time" | "root_proven" | "node_cap" | "game_over" }`.
    ///
    /// # Errors
    /// A budget that is negative, larger than 2^53 − 1 or not a number
    /// ([`crate::request::run_budget`]).
    pub fn run(&mut self, millis: f64, iterations: Option<f64>) -> Result<JsValue, JsError> {
        let budget = run_budget(millis, iterations).map_err(js_err)?;
        let report = self.search.run(budget, &clock);
        to_js(&report)
    }

    /// The statistics snapshot (the engine's `SearchStats`: best_move, pv, value, iterations,
    /// playouts, nodes, children sorted by visits, ...).
    ///
    /// # Errors
    /// Only if encoding fails (a bug).
    pub fn stats(&self) -> Result<JsValue, JsError> {
        to_js(&self.search.stats())
    }

    /// The report of this tree's search as `mcts search --json` prints it (the JSON text, built by
    /// [`crate::report::SearchReport`], the command line's own code): the statistics' keys
    /// (`best_move`, `pv`, `value`, `iterations`, `children`, `policy`, ...). A tree kept from
    /// earlier searches (tree reuse) counts their iterations too, as `stats()` does.
    ///
    /// # Errors
    /// Only if encoding fails (a bug).
    pub fn report(&self) -> Result<String, JsError> {
        SearchReport::single(self.search.stats(), self.search.config().seed).to_json().map_err(js_err)
    }

    /// The move the engine would play now (its final-move rule), or `undefined` at the end.
    #[wasm_bindgen(js_name = bestMove)]
    pub fn best_move(&self) -> Option<String> {
        self.search.best_move_text()
    }

    /// The top of the tree: `top_k` children per node, `depth` levels (the engine's `TreeExport`).
    ///
    /// # Errors
    /// Only if encoding fails (a bug).
    #[wasm_bindgen(js_name = treeExport)]
    pub fn tree_export(&self, top_k: usize, depth: usize) -> Result<JsValue, JsError> {
        to_js(&self.search.tree_export(top_k, depth))
    }

    /// The configuration's node cap (`node_cap`, [`PAGE_NODE_CAP`] unless set): at the cap the
    /// tree stops growing and the search goes on improving the statistics of its nodes (or, with
    /// `stop_at_node_cap`, `run` reports `node_cap`).
    #[wasm_bindgen(js_name = nodeCap)]
    pub fn node_cap(&self) -> f64 {
        self.search.config().node_cap as f64
    }

    /// Nodes in the tree.
    #[wasm_bindgen(js_name = nodeCount)]
    pub fn node_count(&self) -> usize {
        self.search.node_count()
    }
}
