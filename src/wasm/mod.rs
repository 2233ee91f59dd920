//! The WebAssembly boundary: the only module that uses wasm-bindgen.
//!
//! One thin layer in the shape of the wasm-bindgen examples: decode the parameters, call the pure
//! core ([`crate::game`], [`crate::mcts`]), encode the result, and turn every error into a JS
//! `Error` with a readable message. Nothing here panics by design; a panic hook (installed by
//! [`start`]) records any bug's message so the worker can report it (see [`take_panic_message`])
//! instead of dying silently.
//!
//! Split by what each file serves (names as JavaScript sees them):
//! - this file: the start hook, `version()`, `exampleSpecs()`, `takePanicMessage()`,
//!   `debugPanic()`, and the helpers every file uses (encoding with serde-wasm-bindgen, errors
//!   to `JsError`, the clock);
//! - [`game`]: `GameSession`, a game from a spec string with its history of positions
//!   (undo/redo), legal moves, checked play, the board view and the outcome;
//! - [`search`]: `SearchSession`, an anytime MCTS search ([`crate::mcts::AnySearch`]) configured
//!   from a preset plus field overrides, run in chunks (milliseconds and/or iterations) against
//!   the clock `performance.now()`, with a statistics snapshot, the best move, reset, and tree
//!   reuse as the game it follows moves on (`follow`); `presets()`; and `mergeRootStats()`, the
//!   root-parallel merge of several workers' statistics;
//! - [`solve`]: `SolveSession`, the exact Hex solver (depth-first proof-number search,
//!   [`crate::solve::hex::dfpn`]) on a `GameSession`'s position, run in slices against the same
//!   clock, with the root's and every root move's proven value (`progress()`);
//! - [`views`]: what the page draws from a search beyond its statistics: the compact tree
//!   snapshot (`treeSnapshot`) and the step-through (`stepIteration`, `setRecordPlayouts`);
//! - [`arena`]: `arenaPlayGame` and `arenaStandings` (the same [`crate::arena`] code as
//!   `mcts arena`, so the page and the command line give the same games);
//! - [`records`]: `parseRecord` and `writeRecord` ([`crate::record`]);
//! - [`review`][]: `ReviewSession` (a game's positions reviewed one per call, as `mcts review`)
//!   and `reviewReport` (the report from every position's result, [`crate::report::review`]);
//! - [`nets`]: the networks of the `alphazero`-style presets: `loadNet` (a user's net),
//!   `loadShippedNet` (a fetched `models/` file), `netInfo`, `shippedNets`, `netPresets`, `usesNet`,
//!   `evaluatePosition` (priors and value head of the position, for the views);
//! - [`patterns`]: Hex's pattern priors: `loadPatterns` (the fetched `models/hex-patterns.mctspat`),
//!   `patternsLoaded`, `shippedPatterns`, `usesPatterns`;
//! - `train` (feature `train`, only in the second package `pkg-train/`): `TrainSession`, the
//!   step-wise AlphaZero trainer of the Train panel ([`crate::nn::train::session`]).
//!
//! Objects cross the boundary through `serde-wasm-bindgen` in its JSON-compatible mode: `Option`
//! becomes `null`, maps become plain objects, so the TypeScript types in `www/src/protocol.ts` are
//! exactly the serde shapes of [`crate::game::BoardView`] and friends.

use std::cell::RefCell;
use std::fmt::Display;

use serde::Serialize;
use wasm_bindgen::prelude::*;

pub mod arena;
pub mod game;
pub mod nets;
pub mod patterns;
pub mod records;
pub mod review;
pub mod search;
pub mod solve;
#[cfg(feature = "train")]
pub mod train;
pub mod views;

pub use game::GameSession;
pub use search::{SearchSession, PAGE_NODE_CAP};
pub use solve::{SolveSessionJs, PAGE_ENDGAME_TT_LOG2, PAGE_SOLVER_TT_LOG2};

#[wasm_bindgen]
extern "C" {
    /// `performance.now()`: milliseconds, monotonic, available in windows and workers.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// The clock the engine runs against: `performance.now()`, in milliseconds.
pub(crate) fn clock() -> f64 {
    performance_now()
}

thread_local! {
    /// The message of the last panic, kept by the panic hook for [`take_panic_message`].
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Runs when the module is instantiated: installs the panic hook, which keeps the panic's
/// message (file, line, text) for [`take_panic_message`] and also writes it to the console.
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        let text = info.to_string();
        LAST_PANIC.with(|p| {
            if let Ok(mut slot) = p.try_borrow_mut() {
                *slot = Some(text);
            }
        });
        console_error_panic_hook::hook(info);
    }));
}

/// The message of the last panic, if any, and forgets it. After a panic the module traps
/// (`RuntimeError: unreachable`); the worker calls this to say what went wrong, then the page
/// starts a fresh worker.
#[wasm_bindgen(js_name = takePanicMessage)]
pub fn take_panic_message() -> Option<String> {
    LAST_PANIC.with(|p| p.try_borrow_mut().ok().and_then(|mut s| s.take()))
}

/// Deliberately panics, so the browser tests can check that a dead worker is reported and
/// replaced without losing the game. Never called by the page itself.
#[wasm_bindgen(js_name = debugPanic)]
pub fn debug_panic(message: &str) {
    panic!("debugPanic: {message}");
}

/// The crate version, e.g. `0.1.0`.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// The game spec strings the page offers as examples (`tictactoe`, `hex:7`, ...).
#[wasm_bindgen(js_name = exampleSpecs)]
pub fn example_specs() -> Vec<String> {
    crate::game::example_specs().into_iter().map(str::to_string).collect()
}

/// Errors of the boundary itself: arguments from JavaScript that do not decode or are out of
/// range, and results that cannot be encoded. Each becomes a JS `Error` with this message (the
/// library's and the engine's errors cross with their own messages, through `js_err`).
#[derive(Debug, thiserror::Error)]
pub enum WasmError {
    /// A result could not be encoded as a JS value (a bug).
    #[error("cannot encode value for JavaScript: {0}")]
    Encode(String),
    /// The tree snapshot object could not be built (a bug).
    #[error("cannot build the tree snapshot object")]
    SnapshotObject,
    /// Arena records that are not `GameRecord` objects.
    #[error("records: {0}")]
    Records(String),
    /// A record format other than `moves` and `sgf`.
    #[error("unknown record format '{}' (expected moves or sgf)", crate::limits::abbreviate(.0))]
    RecordFormat(String),
    /// `variations` given to `writeRecord` that are not a list of `{ at, moves, variations }`.
    #[error("variations must be a list of {{ at, moves, variations }}: {}", crate::limits::abbreviate(.0))]
    Variations(String),
}

/// Encodes a serde value as a plain JS value (`null` for `None`, objects for maps and structs).
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(|e| WasmError::Encode(e.to_string()).into())
}

/// Any error as a JS `Error` whose message is the error's `Display` text: the library's typed
/// errors and the engine's errors (whatever type they have) cross the boundary the same way.
pub(crate) fn js_err(e: impl Display) -> JsError {
    JsError::new(&e.to_string())
}
