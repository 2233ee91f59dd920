//! The trained nets of `models/`, embedded in the binary and the wasm module with
//! `include_bytes!` and parsed once, on first use (see `models/README.md` for how each was
//! trained and how strong it is).

use super::{Mlp, NetError};
use crate::mcts::config::Preset;
use std::sync::{Arc, OnceLock};

/// Game specs with a shipped net.
pub const AVAILABLE: &[&str] = &["tictactoe", "hex:5", "hex:7"];

/// The embedded weights file of `spec`, if one ships.
pub fn bytes(spec: &str) -> Option<&'static [u8]> {
    match spec {
        "tictactoe" => Some(include_bytes!("../../models/tictactoe.mctsnet")),
        "hex:5" => Some(include_bytes!("../../models/hex5.mctsnet")),
        "hex:7" => Some(include_bytes!("../../models/hex7.mctsnet")),
        _ => None,
    }
}

/// The preset names usable for `spec`: every preset of [`crate::mcts::SearchConfig::PRESETS`], the
/// network presets only when a net ships for the game.
pub fn presets_for(spec: &str) -> Vec<&'static str> {
    let has = AVAILABLE.contains(&spec);
    Preset::ALL.into_iter().filter(|p| has || !p.needs_net()).map(|p| p.name()).collect()
}

/// The shipped net of `spec`, parsed once and shared.
///
/// # Errors
/// [`NetError::NoModel`] when none ships; a format error if the embedded file is defective
/// (a test checks every shipped file loads).
pub fn load(spec: &str) -> Result<Arc<Mlp>, NetError> {
    type Cache = std::sync::Mutex<Vec<(String, Arc<Mlp>)>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let mut c = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, n)) = c.iter().find(|(s, _)| s == spec) {
        return Ok(n.clone());
    }
    let b = bytes(spec).ok_or_else(|| NetError::NoModel { spec: spec.to_string() })?;
    let net = Arc::new(Mlp::from_bytes(b)?);
    if net.spec != spec {
        return Err(NetError::WrongGame { file: net.spec.clone(), want: spec.to_string() });
    }
    c.push((spec.to_string(), net.clone()));
    Ok(net)
}
