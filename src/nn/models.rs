//! The nets the search can use: the trained nets of `models/` (see `models/README.md` for how
//! each was trained and how strong it is) and nets registered at run time.
//!
//! - **Native** (the `mcts` binary, the tests): every shipped file is embedded with
//!   `include_bytes!` and parsed once, on first use.
//! - **WebAssembly** (the page): nothing is embedded, so the module stays small; the worker
//!   fetches `models/<file>` (the [`SHIPPED`] file of the game) the first time a network preset
//!   is used for a game and hands the bytes to [`register`]. Until then [`load`] answers
//!   [`NetError::NotLoaded`].
//!
//! [`register`] also takes a net trained elsewhere (the page's Train panel, a file the user
//! picks): it replaces the shipped net of its game until the registry is [`reset`] (on the page:
//! until reload). Searches already built keep the net they were built with.
//!
//! Adding a shipped net is one line in the `shipped!` table below.

use super::features::Encoding;
use super::{Net, NetError};
use crate::mcts::config::Preset;
use serde::Serialize;
use std::sync::{Arc, Mutex, OnceLock};

/// One shipped net: the game spec it plays and its file name in `models/` (copied to the
/// page's `models/` directory by the build).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "ShippedNet"))]
pub struct Shipped {
    /// Game spec (`tictactoe`, `hex:5`, ...).
    pub spec: &'static str,
    /// File name in `models/` (`tictactoe.mctsnet`).
    pub file: &'static str,
}

/// The table of shipped nets: `"spec" => "file in models/"`, one line per net. Generates
/// [`SHIPPED`], [`AVAILABLE`] and (native only) the embedded bytes.
macro_rules! shipped {
    ($($spec:literal => $file:literal),* $(,)?) => {
        /// The shipped nets, one per game spec.
        pub const SHIPPED: &[Shipped] = &[$(Shipped { spec: $spec, file: $file }),*];
        /// Game specs with a shipped net.
        pub const AVAILABLE: &[&str] = &[$($spec),*];
        /// The embedded weights file of `spec` (native builds only).
        #[cfg(not(target_arch = "wasm32"))]
        fn embedded(spec: &str) -> Option<&'static [u8]> {
            match spec {
                $($spec => Some(include_bytes!(concat!("../../models/", $file))),)*
                _ => None,
            }
        }
    };
}

shipped! {
    "tictactoe" => "tictactoe.mctsnet",
    "hex:5" => "hex5.mctsnet",
    "hex:7" => "hex7.mctsnet",
}

/// The WebAssembly build embeds no weights: they are fetched and [`register`]ed.
#[cfg(target_arch = "wasm32")]
fn embedded(_spec: &str) -> Option<&'static [u8]> {
    None
}

/// The embedded weights file of `spec`: `Some` natively when a net ships for the game; always
/// `None` in the WebAssembly build (which fetches `models/<file>` instead, see [`file`]).
pub fn bytes(spec: &str) -> Option<&'static [u8]> {
    embedded(spec)
}

/// The file name in `models/` of the net shipped for `spec`, if one ships.
pub fn file(spec: &str) -> Option<&'static str> {
    SHIPPED.iter().find(|s| s.spec == spec).map(|s| s.file)
}

/// Where a registered net came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The file shipped in `models/` for the game.
    Shipped,
    /// Bytes handed to [`register`] by the user (a net trained in the page, a file).
    User,
}

/// A net's trunk: fully connected (weights file version 1) or convolutional (version 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Trunk {
    /// Dense layers ([`super::Mlp`]).
    Mlp,
    /// 3×3 convolutions over the board ([`super::ConvNet`]).
    Conv,
}

/// What a registered net is: the page shows it, the worker answers `loadNet` with it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct NetInfo {
    /// The game spec the net plays.
    pub spec: String,
    /// The name given at registration (the file name for shipped nets).
    pub name: String,
    /// Shipped or user-given.
    pub source: Source,
    /// Weights and biases.
    pub parameters: usize,
    /// Layer widths: inputs, each hidden layer, policy outputs (e.g. `[18, 128, 128, 9]`). For a
    /// convolutional net each trunk layer's width is its units, channels × cells (`[98, 1568,
    /// 1568, 49]`: hex:7, 32 channels, the first convolution and one residual block; see
    /// `Net::layers`).
    pub layers: Vec<usize>,
    /// Size of the weights file in bytes.
    pub bytes: usize,
    /// The trunk: `"mlp"` or `"conv"`.
    pub trunk: Trunk,
    /// A convolutional net's channels C (absent for an MLP).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub channels: Option<usize>,
    /// A convolutional net's residual blocks, the 3×3 convolutions after the first (absent for
    /// an MLP).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub blocks: Option<usize>,
    /// A convolutional net's value head units H (absent for an MLP).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub value_hidden: Option<usize>,
}

impl NetInfo {
    /// What `net`, read from a file of `bytes` bytes, is.
    fn of(net: &Net, name: &str, source: Source, bytes: usize) -> NetInfo {
        let conv = net.as_conv();
        NetInfo {
            spec: net.spec().to_string(),
            name: name.to_string(),
            source,
            parameters: net.parameters(),
            layers: net.layers(),
            bytes,
            trunk: if conv.is_some() { Trunk::Conv } else { Trunk::Mlp },
            channels: conv.map(|c| c.channels()),
            blocks: conv.map(|c| c.blocks()),
            value_hidden: conv.map(|c| c.value_hidden_units()),
        }
    }
}

struct Entry {
    net: Arc<Net>,
    info: NetInfo,
}

fn registry() -> std::sync::MutexGuard<'static, Vec<Entry>> {
    static REGISTRY: OnceLock<Mutex<Vec<Entry>>> = OnceLock::new();
    REGISTRY.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner())
}

/// Parses and checks a weights file for use by the search: the format ([`Net::from_bytes`],
/// either version), a game with an input encoding, and shapes that match it.
fn checked(bytes: &[u8], name: &str, source: Source) -> Result<Entry, NetError> {
    let net = Net::from_bytes(bytes)?;
    let enc = Encoding::for_spec(net.spec()).ok_or_else(|| NetError::NoEncoding { spec: net.spec().to_string() })?;
    if net.inputs() != enc.inputs() || net.moves() != enc.cells() {
        return Err(NetError::Shape(format!(
            "{} inputs and {} outputs, '{}' needs {} and {}",
            net.inputs(),
            net.moves(),
            net.spec(),
            enc.inputs(),
            enc.cells()
        )));
    }
    let info = NetInfo::of(&net, name, source, bytes.len());
    Ok(Entry { net: Arc::new(net), info })
}

fn insert(e: Entry) -> NetInfo {
    let info = e.info.clone();
    let mut r = registry();
    r.retain(|x| x.info.spec != info.spec);
    r.push(e);
    info
}

/// Registers a weights file: the net then plays its game (the spec stored in the file) for
/// every search built afterwards, replacing the shipped or earlier registered net of that game.
/// `name` labels it (`None`: `user net`). Returns what was registered.
///
/// # Errors
/// Any [`Net::from_bytes`] error (bad magic, version, truncation, CRC-32 mismatch, shapes,
/// non-finite weights); [`NetError::NoEncoding`] for a game without input planes;
/// [`NetError::Shape`] when the layer widths do not fit the game. The registry is unchanged
/// on error.
pub fn register(bytes: &[u8], name: Option<&str>) -> Result<NetInfo, NetError> {
    let e = checked(bytes, name.unwrap_or("user net"), Source::User)?;
    Ok(insert(e))
}

/// Registers the shipped file of `spec` from its bytes (the page fetched `models/<file>`).
///
/// # Errors
/// As [`register`], plus [`NetError::NoModel`] when no net ships for `spec` and
/// [`NetError::WrongGame`] when the file holds a net for another game.
pub fn register_shipped(spec: &str, bytes: &[u8]) -> Result<NetInfo, NetError> {
    let f = file(spec).ok_or_else(|| NetError::NoModel { spec: spec.to_string() })?;
    let e = checked(bytes, f, Source::Shipped)?;
    if e.info.spec != spec {
        return Err(NetError::WrongGame { file: e.info.spec.clone(), want: spec.to_string() });
    }
    Ok(insert(e))
}

/// The net registered for `spec`, if any (natively, shipped nets are registered on first
/// [`load`]).
pub fn loaded(spec: &str) -> Option<NetInfo> {
    registry().iter().find(|e| e.info.spec == spec).map(|e| e.info.clone())
}

/// Forgets every registered net (the shipped ones are parsed again on next use natively).
pub fn reset() {
    registry().clear();
}

/// Whether `spec` has a net: registered, or shipped (embedded natively, fetchable on the page).
pub fn has_net(spec: &str) -> bool {
    file(spec).is_some() || loaded(spec).is_some()
}

/// The preset names usable for `spec`: every preset of [`crate::mcts::SearchConfig::PRESETS`], the
/// network presets only when the game has a net ([`has_net`]).
pub fn presets_for(spec: &str) -> Vec<&'static str> {
    let has = has_net(spec);
    Preset::ALL.into_iter().filter(|p| has || !p.needs_net()).map(|p| p.name()).collect()
}

/// The net of `spec`: the registered one, else (native) the embedded shipped file, parsed once
/// and shared.
///
/// # Errors
/// [`NetError::NoModel`] when no net ships for the game and none was registered;
/// [`NetError::NotLoaded`] in the WebAssembly build when one ships but was not registered yet;
/// a format error if the embedded file is defective (a test checks every shipped file loads).
pub fn load(spec: &str) -> Result<Arc<Net>, NetError> {
    if let Some(e) = registry().iter().find(|e| e.info.spec == spec) {
        return Ok(e.net.clone());
    }
    let Some(f) = file(spec) else {
        return Err(NetError::NoModel { spec: spec.to_string() });
    };
    let b = bytes(spec).ok_or_else(|| NetError::NotLoaded { spec: spec.to_string(), file: f.to_string() })?;
    let e = checked(b, f, Source::Shipped)?;
    if e.info.spec != spec {
        return Err(NetError::WrongGame { file: e.info.spec.clone(), want: spec.to_string() });
    }
    let net = e.net.clone();
    insert(e);
    Ok(net)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_and_files_agree() {
        for s in SHIPPED {
            assert!(AVAILABLE.contains(&s.spec));
            assert_eq!(file(s.spec), Some(s.file));
            assert!(bytes(s.spec).is_some(), "{} is embedded natively", s.spec);
        }
        assert_eq!(file("pentago"), None);
    }
}
