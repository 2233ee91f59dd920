//! The nets on the page: the worker fetches a shipped weights file the first time a network
//! preset is used for a game and registers it here, or registers a net the user trained
//! (`loadNet`). The WebAssembly build embeds no weights (see [`crate::nn::models`]).

use wasm_bindgen::prelude::*;

use super::game::GameSession;
use super::search::build_config;
use super::{js_err, to_js};
use crate::mcts::config::{LeafEval, Preset, PriorKind};
use crate::nn::models;

/// Registers a weights file (`MCTSNET` format) handed over by the page, e.g. a net trained in
/// the Train panel: it then plays its game (the spec stored in the file) in every search built
/// afterwards in this worker, replacing the shipped net until the page reloads. `name` labels
/// it (default `user net`). Returns the engine's `NetInfo`:
/// `{ spec, name, source: "user", parameters, layers: [inputs, hidden..., moves], bytes }`.
///
/// # Errors
/// A corrupt or foreign file (bad magic, version, truncated, CRC-32 mismatch, non-finite
/// weights), a game without network inputs, shapes that do not fit the game; nothing is
/// registered then.
#[wasm_bindgen(js_name = loadNet)]
pub fn load_net(bytes: &[u8], name: Option<String>) -> Result<JsValue, JsError> {
    let info = models::register(bytes, name.as_deref()).map_err(js_err)?;
    to_js(&info)
}

/// Registers the shipped weights file of `spec` (the bytes of `models/<file>`, see
/// `shippedNets`). Returns the engine's `NetInfo` (`source: "shipped"`).
///
/// # Errors
/// No net ships for `spec`, the file is for another game, or any format error of `loadNet`.
#[wasm_bindgen(js_name = loadShippedNet)]
pub fn load_shipped_net(spec: &str, bytes: &[u8]) -> Result<JsValue, JsError> {
    let info = models::register_shipped(spec, bytes).map_err(js_err)?;
    to_js(&info)
}

/// The net registered for `spec` (`NetInfo`), or `null` when none is (yet).
///
/// # Errors
/// Only if encoding fails (a bug).
#[wasm_bindgen(js_name = netInfo)]
pub fn net_info(spec: &str) -> Result<JsValue, JsError> {
    to_js(&models::loaded(spec))
}

/// The shipped nets: `[{ spec, file }]`, `file` relative to the site's `models/` directory.
///
/// # Errors
/// Only if encoding fails (a bug).
#[wasm_bindgen(js_name = shippedNets)]
pub fn shipped_nets() -> Result<JsValue, JsError> {
    to_js(models::SHIPPED)
}

/// The presets that need a network (`alphazero`, `alphago`, `puct-net`).
#[wasm_bindgen(js_name = netPresets)]
pub fn net_presets() -> Vec<String> {
    Preset::ALL.into_iter().filter(|p| p.needs_net()).map(|p| p.name().to_string()).collect()
}

/// Whether the configuration of `preset` with overrides `params` uses the game's network
/// (`prior = net`, or a network leaf value).
///
/// # Errors
/// As `SearchSession`'s constructor: unknown preset or field, value out of range.
#[wasm_bindgen(js_name = usesNet)]
pub fn uses_net(preset: &str, params: JsValue) -> Result<bool, JsError> {
    let (c, _) = build_config(preset, params).map_err(js_err)?;
    Ok(c.prior == PriorKind::Net || c.leaf != LeafEval::Rollout)
}

/// What the evaluator of `preset` (with overrides `params`) thinks of the game's current
/// position: `{ evaluator, priors: [{ move, index, p }], value, net }` (the engine's
/// `PositionEval`; `value` in [0, 1] for the side to move, null without a network). For presets
/// with uniform or tactical priors the priors are those; for the network presets, the policy
/// head's softmax over the legal moves.
///
/// # Errors
/// Bad settings (as `SearchSession`), or a network preset for a game whose net is missing.
#[wasm_bindgen(js_name = evaluatePosition)]
pub fn evaluate_position(game: &GameSession, preset: &str, params: JsValue) -> Result<JsValue, JsError> {
    let (c, _) = build_config(preset, params).map_err(js_err)?;
    let e = crate::nn::search::evaluate_position(game.current(), c.prior).map_err(js_err)?;
    to_js(&e)
}
