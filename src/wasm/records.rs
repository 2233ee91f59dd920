//! Game records ([`crate::record`]): read a move list or a Hex SGF, write either. The page keeps
//! its own game; these functions only translate text ↔ `{ spec, moves, notes }`.

use wasm_bindgen::prelude::*;

use super::{to_js, WasmError};

/// Reads a record in any format ([`crate::record::parse_any`]: SGF when the text starts with `(`,
/// the page's game JSON with `{` — the page reads that one itself —, else our move list) and
/// replays it. Returns `{ spec, moves, notes }` (`Record`'s serde shape).
///
/// # Errors
/// A JS `Error` naming the bad move and its 1-based index, or what in the SGF cannot be read.
#[wasm_bindgen(js_name = parseRecord)]
pub fn parse_record(text: &str) -> Result<JsValue, JsError> {
    let r = crate::record::parse_any(text)?;
    to_js(&r)
}

/// Writes a record: `format` is `"moves"` (our move list) or `"sgf"` (Hex only, HexGui style).
///
/// # Errors
/// An unknown format, a non-Hex game for SGF, or moves that do not replay.
#[wasm_bindgen(js_name = writeRecord)]
pub fn write_record(spec: &str, moves: Vec<String>, format: &str) -> Result<String, JsError> {
    let out = match format {
        "moves" => crate::record::write_move_list(spec, &moves),
        "sgf" => crate::record::write_sgf(spec, &moves),
        other => return Err(WasmError::RecordFormat(other.to_string()).into()),
    };
    Ok(out?)
}
