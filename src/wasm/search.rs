//! `SearchSession`: an anytime MCTS search that follows a `GameSession`, and the presets.

use std::collections::BTreeMap;

use wasm_bindgen::prelude::*;

use super::game::GameSession;
use super::{clock, js_err, to_js, WasmError};
use crate::mcts::{AnySearch, Budget, SearchConfig};

/// The engine's preset names (`uct`, `rave`, `grave`, ..., `best`), in the engine's order.
#[wasm_bindgen]
pub fn presets() -> Vec<String> {
    SearchConfig::PRESETS.iter().map(|s| s.to_string()).collect()
}

/// The page's default node cap when the parameters do not set `node_cap`: 2,000,000 nodes
/// (about 96 MB at the engine's 48 bytes per node), a size a browser tab carries comfortably.
pub const PAGE_NODE_CAP: u64 = 2_000_000;

/// Why a preset plus parameters from the page gave no configuration. The engine's own messages
/// are kept as text, whatever error type the engine returns.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// `params` is not an object whose values are all strings.
    #[error("engine parameters must be an object of strings: {0}")]
    Params(String),
    /// The preset name is not one of `presets()`; the message is the engine's.
    #[error("{0}")]
    Preset(String),
    /// A field override the engine refused (unknown field, unreadable or out-of-range value).
    #[error("engine parameter {key} = {value}: {message}")]
    Field {
        /// The field's serde name, e.g. `c`.
        key: String,
        /// The value as given.
        value: String,
        /// The engine's message.
        message: String,
    },
}

/// A configuration from a preset name and field overrides by serde name (`{"c": "0.7"}`);
/// `params` may be `undefined`/`null` (no overrides). Without a `node_cap` override the node cap
/// is [`PAGE_NODE_CAP`]. Returns the configuration and the overrides as given.
///
/// # Errors
/// [`ConfigError`] naming the bad parameters, preset or field.
pub(super) fn build_config(preset: &str, params: JsValue) -> Result<(SearchConfig, BTreeMap<String, String>), ConfigError> {
    let params: BTreeMap<String, String> = if params.is_undefined() || params.is_null() {
        BTreeMap::new()
    } else {
        serde_wasm_bindgen::from_value(params).map_err(|e| ConfigError::Params(e.to_string()))?
    };
    let mut config = SearchConfig::preset(preset).map_err(|e| ConfigError::Preset(e.to_string()))?;
    if !params.contains_key("node_cap") {
        config.node_cap = PAGE_NODE_CAP;
    }
    for (k, v) in &params {
        config.set(k, v).map_err(|e| ConfigError::Field { key: k.clone(), value: v.clone(), message: e.to_string() })?;
    }
    Ok((config, params))
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
    params: BTreeMap<String, String>,
}

#[wasm_bindgen]
impl SearchSession {
    /// A search of the game's current position with a preset (see `presets()`) and field
    /// overrides by serde name, e.g. `{ c: "0.7", rave_k: "500", seed: "7" }`.
    ///
    /// # Errors
    /// Unknown preset, unknown field, value out of range (the message names it).
    #[wasm_bindgen(constructor)]
    pub fn new(game: &GameSession, preset: &str, params: JsValue) -> Result<SearchSession, JsError> {
        let (config, params) = build_config(preset, params).map_err(js_err)?;
        let search = AnySearch::new(game.current(), config).map_err(js_err)?;
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
        self.search = AnySearch::new(game.current(), config).map_err(js_err)?;
        self.spec = game.spec();
        self.path = game.moves();
        Ok(())
    }

    /// Runs one chunk: at most `millis` milliseconds (by `performance.now()`) and, when given,
    /// at most `iterations` iterations. Returns the engine's `RunReport`:
    /// `{ iterations, elapsed_ms, stop: "iterations" | "time" | "root_proven" | "node_cap" | "game_over" }`.
    ///
    /// # Errors
    /// A budget that is negative or not a number.
    pub fn run(&mut self, millis: f64, iterations: Option<f64>) -> Result<JsValue, JsError> {
        if !millis.is_finite() || millis < 0.0 {
            return Err(WasmError::Budget { name: "millis", value: millis }.into());
        }
        let iterations = match iterations {
            None => None,
            Some(n) if n >= 0.0 && n.is_finite() => Some(n as u64),
            Some(n) => return Err(WasmError::Budget { name: "iterations", value: n }.into()),
        };
        let budget = Budget { iterations, millis: Some(millis) };
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

    /// Nodes in the tree.
    #[wasm_bindgen(js_name = nodeCount)]
    pub fn node_count(&self) -> usize {
        self.search.node_count()
    }
}
