//! Hex's pattern priors on the page: the WebAssembly build embeds no pattern weights, so the
//! worker fetches the shipped file (`models/hex-patterns.mctspat`) the first time a request's
//! configuration has `prior = patterns` on Hex, and registers it here (as `loadShippedNet` does
//! for the nets).

use wasm_bindgen::prelude::*;

use super::js_err;
use super::search::build_config;
use crate::game::hex::patterns;
use crate::mcts::config::PriorKind;

/// Registers a pattern weights file (`MCTSPAT` format, e.g. the fetched
/// `models/hex-patterns.mctspat`): every search built afterwards with `prior = patterns` uses it.
/// Returns the number of patterns stored.
///
/// # Errors
/// A corrupt or foreign file (magic, version, pattern size, length, unordered or non-canonical
/// key, a γ that is not finite and positive), with its reason; nothing is registered then.
#[wasm_bindgen(js_name = loadPatterns)]
pub fn load_patterns(bytes: &[u8]) -> Result<usize, JsError> {
    patterns::register(bytes).map_err(js_err)
}

/// Whether pattern weights are registered.
#[wasm_bindgen(js_name = patternsLoaded)]
pub fn patterns_loaded() -> bool {
    patterns::loaded()
}

/// The shipped pattern weights file, relative to the site's `models/` directory.
#[wasm_bindgen(js_name = shippedPatterns)]
pub fn shipped_patterns() -> String {
    patterns::SHIPPED_FILE.to_string()
}

/// Whether the configuration of `preset` with overrides `params` (built as `usesNet` builds it)
/// has `prior = patterns`, i.e. needs the pattern weights on Hex.
///
/// # Errors
/// As `SearchSession`'s constructor: unknown preset or field, value out of range.
#[wasm_bindgen(js_name = usesPatterns)]
pub fn uses_patterns(preset: &str, params: JsValue) -> Result<bool, JsError> {
    let (c, _) = build_config(preset, params).map_err(js_err)?;
    Ok(c.prior == PriorKind::Patterns)
}
