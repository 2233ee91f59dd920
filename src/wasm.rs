//! The WebAssembly boundary: the only file that uses wasm-bindgen.
//!
//! One thin layer in the shape of the wasm-bindgen examples: decode the parameters, call the pure
//! core ([`crate::game`], [`crate::mcts`]), encode the result, and turn every error into a JS
//! `Error` with a readable message. Nothing here panics by design; a panic hook (installed by
//! [`start`]) records any bug's message so the worker can report it (see [`take_panic_message`])
//! instead of dying silently.
//!
//! Exported to JavaScript (names as JS sees them):
//! - `GameSession`: a game from a spec string with its history of positions (undo/redo), legal
//!   moves, checked play, the board view and the outcome.
//! - `version()`, `exampleSpecs()`, `takePanicMessage()`.
//!
//! Objects cross the boundary through `serde-wasm-bindgen` in its JSON-compatible mode: `Option`
//! becomes `null`, maps become plain objects, so the TypeScript types in `www/src/protocol.ts` are
//! exactly the serde shapes of [`BoardView`] and friends.

use std::cell::RefCell;

use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::game::{AnyGame, BoardView, Outcome, EXAMPLE_SPECS};

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
    EXAMPLE_SPECS.iter().map(|s| s.to_string()).collect()
}

/// Encodes a serde value as a plain JS value (`null` for `None`, objects for maps and structs).
fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&format!("cannot encode value for JavaScript: {e}")))
}

/// The outcome as the page reads it: `{ "winner": 0 | 1 | null }` (null winner = draw), or
/// `null` while the game goes on.
#[derive(Serialize)]
struct OutcomeJs {
    winner: Option<u8>,
}

fn outcome_js(o: Option<Outcome>) -> Option<OutcomeJs> {
    o.map(|o| OutcomeJs { winner: o.winner() })
}

/// Everything the page draws after a change, in one object (one crossing per update).
#[derive(Serialize)]
struct Snapshot {
    /// The position as the renderers read it.
    view: BoardView,
    /// Legal moves in notation, ascending dense index (empty once over).
    legal: Vec<String>,
    /// Moves played from the start to the current position, in notation.
    moves: Vec<String>,
    /// Moves that `redo` would replay, in order.
    redo: Vec<String>,
    /// `{ winner }` once the game is over, else `null`.
    outcome: Option<OutcomeJs>,
}

/// A game and its history: `positions[0]` is the start, `positions[cursor]` the current
/// position; `moves[i]` leads from `positions[i]` to `positions[i + 1]`. Undo moves the cursor
/// back; redo forward; a new move after an undo drops the redo tail.
#[wasm_bindgen]
pub struct GameSession {
    positions: Vec<AnyGame>,
    moves: Vec<String>,
    cursor: usize,
}

impl GameSession {
    /// The current position.
    pub fn current(&self) -> &AnyGame {
        &self.positions[self.cursor]
    }
}

#[wasm_bindgen]
impl GameSession {
    /// The start position of the game named by `spec` (`tictactoe`, `hex:7`, `hex:11:swap`,
    /// `pentago:twist`, ...).
    ///
    /// # Errors
    /// A JS `Error` naming what is wrong with the spec.
    #[wasm_bindgen(constructor)]
    pub fn new(spec: &str) -> Result<GameSession, JsError> {
        let g = AnyGame::from_spec(spec).map_err(|e| JsError::new(&e.0))?;
        Ok(GameSession { positions: vec![g], moves: Vec::new(), cursor: 0 })
    }

    /// The spec string of the game, normalised (e.g. `hex` → `hex:11`).
    pub fn spec(&self) -> String {
        self.current().spec()
    }

    /// Legal moves of the current position in notation, ascending dense index.
    #[wasm_bindgen(js_name = legalMoves)]
    pub fn legal_moves(&self) -> Vec<String> {
        self.current().legal_moves_text()
    }

    /// Plays a move given in notation (`b2`, `d4-BR-cw`, `swap`), checked. Returns the move
    /// as the game writes it (normalised, e.g. `B2` → `b2`).
    ///
    /// # Errors
    /// A JS `Error` saying why the move was refused (unreadable, illegal, game over); the
    /// session is untouched.
    pub fn play(&mut self, mv: &str) -> Result<String, JsError> {
        let mut next = self.current().clone();
        let index = next.play_text(mv).map_err(|e| JsError::new(&e.to_string()))?;
        let text = self.current().format_index(index).unwrap_or_else(|| mv.to_string());
        self.positions.truncate(self.cursor + 1);
        self.moves.truncate(self.cursor);
        self.positions.push(next);
        self.moves.push(text.clone());
        self.cursor += 1;
        Ok(text)
    }

    /// Steps back one move; false (and nothing changes) at the start.
    pub fn undo(&mut self) -> bool {
        if self.cursor == 0 {
            return false;
        }
        self.cursor -= 1;
        true
    }

    /// Replays the next undone move; false (and nothing changes) when there is none.
    pub fn redo(&mut self) -> bool {
        if self.cursor + 1 >= self.positions.len() {
            return false;
        }
        self.cursor += 1;
        true
    }

    /// Number of moves played to reach the current position.
    pub fn ply(&self) -> usize {
        self.cursor
    }

    /// Side to move (0 or 1); meaningless once the game is over.
    #[wasm_bindgen(js_name = toMove)]
    pub fn to_move(&self) -> u8 {
        self.current().to_move()
    }

    /// Whether the game is over.
    #[wasm_bindgen(js_name = isOver)]
    pub fn is_over(&self) -> bool {
        self.current().outcome().is_some()
    }

    /// Moves from the start to the current position, in notation.
    pub fn moves(&self) -> Vec<String> {
        self.moves[..self.cursor].to_vec()
    }

    /// The board view (`BoardView`'s serde shape: kind, spec, rows, cols, cells, to_move,
    /// last_move, last_cells, winning_cells, outcome, ply).
    ///
    /// # Errors
    /// Only if encoding fails (a bug).
    pub fn view(&self) -> Result<JsValue, JsError> {
        to_js(&self.current().view())
    }

    /// `{ winner: 0 | 1 | null }` once the game is over (null winner = draw), else `null`.
    ///
    /// # Errors
    /// Only if encoding fails (a bug).
    pub fn outcome(&self) -> Result<JsValue, JsError> {
        to_js(&outcome_js(self.current().outcome()))
    }

    /// Everything the page draws in one object: `{ view, legal, moves, redo, outcome }`.
    ///
    /// # Errors
    /// Only if encoding fails (a bug).
    pub fn snapshot(&self) -> Result<JsValue, JsError> {
        let g = self.current();
        to_js(&Snapshot {
            view: g.view(),
            legal: g.legal_moves_text(),
            moves: self.moves[..self.cursor].to_vec(),
            redo: self.moves[self.cursor..].to_vec(),
            outcome: outcome_js(g.outcome()),
        })
    }
}
