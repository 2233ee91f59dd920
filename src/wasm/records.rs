//! Game records ([`crate::record`]): read a move list or a Hex SGF, write either. The page keeps
//! its own game; these functions only translate text ↔ `{ spec, moves, notes, variations }`.

use wasm_bindgen::prelude::*;

use super::{to_js, WasmError};

/// Reads a record in any format ([`crate::record::parse_any`]: SGF when the text starts with `(`,
/// the page's game JSON with `{` — the page reads that one itself —, else our move list) and
/// replays it with its variations. Returns `{ spec, moves, notes, variations }` (`Record`'s serde
/// shape; `variations` an array of `{ at, moves, variations }`, empty when none).
///
/// # Errors
/// A JS `Error` naming the bad move and its 1-based index, or what in the SGF cannot be read.
#[wasm_bindgen(js_name = parseRecord)]
pub fn parse_record(text: &str) -> Result<JsValue, JsError> {
    let r = crate::record::parse_any(text)?;
    to_js(&r)
}

/// Writes a record: `format` is `"moves"` (our move list: the main line only, the format has no
/// variations) or `"sgf"` (Hex only, HexGui style, with the variations). `variations` is an array
/// of `{ at, moves, variations }` (`record::Variation`) or `undefined`/`null` for none.
///
/// # Errors
/// An unknown format, a non-Hex game for SGF, moves that do not replay, `variations` of another
/// shape or with a bad variation (its place named).
#[wasm_bindgen(js_name = writeRecord)]
pub fn write_record(spec: &str, moves: Vec<String>, format: &str, variations: JsValue) -> Result<String, JsError> {
    let variations: Vec<crate::record::Variation> = if variations.is_undefined() || variations.is_null() {
        Vec::new()
    } else {
        serde_wasm_bindgen::from_value(variations).map_err(|e| WasmError::Variations(e.to_string()))?
    };
    let out = match format {
        "moves" => crate::record::check_tree(spec, &moves, &variations).and_then(|t| crate::record::write_move_list(spec, &t.moves)),
        "sgf" => crate::record::write_sgf(spec, &moves, &variations),
        other => return Err(WasmError::RecordFormat(other.to_string()).into()),
    };
    Ok(out?)
}
