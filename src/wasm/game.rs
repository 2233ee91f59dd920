//! `GameSession`: a game and its history of positions, for the page's board.

use wasm_bindgen::prelude::*;

use super::{js_err, to_js};
use crate::game::AnyGame;
use crate::page::{OutcomeView, Snapshot};

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
        let g = AnyGame::from_spec(spec).map_err(js_err)?;
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
        let index = next.play_text(mv).map_err(js_err)?;
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
        to_js(&OutcomeView::of(self.current().outcome()))
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
            outcome: OutcomeView::of(g.outcome()),
        })
    }
}
