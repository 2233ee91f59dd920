//! `SolveSession`: the exact Hex solver ([`crate::game::hex::dfpn::SolveSession`], depth-first
//! proof-number search) on the position of a `GameSession`, run in slices against the clock the
//! searches use, for the page's "Solve" control: the root's value and every root move's value
//! for the side to move, as they are proven.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::game::GameSession;
use super::{clock, js_err, to_js};
use crate::game::hex::dfpn::{self, DfpnConfig, DfpnStats};
use crate::game::{AnyGame, Game, Hex};
use crate::request::run_budget;

/// log2 of the page's transposition-table entries: 2^20 entries of 64 bytes = 64 MiB
/// (docs/limits.md).
pub const PAGE_SOLVER_TT_LOG2: u32 = 20;

/// Why a position cannot be solved in the page, besides the solver's own
/// [`crate::game::hex_solve::SolveError`] (board too large, swap rule).
#[derive(Debug, thiserror::Error)]
pub enum SolveSessionError {
    /// The game is not Hex.
    #[error("the exact solver is for Hex (hex:N with N up to 8, without the swap rule); this game is '{0}'")]
    NotHex(String),
}

/// One root move and its value for the side to move, once proven.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MoveValue {
    /// The move in notation (`d4`).
    #[serde(rename = "move")]
    mv: String,
    /// Whether the side to move wins after playing it (null: not proven yet).
    mover_wins: Option<bool>,
}

/// The solver's counters, camelCase ([`DfpnStats`]).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct StatsJs {
    mid_calls: u64,
    expansions: u64,
    terminal: u64,
    tt_used: u64,
    tt_replaced: u64,
}

impl From<DfpnStats> for StatsJs {
    fn from(s: DfpnStats) -> Self {
        StatsJs { mid_calls: s.mid_calls, expansions: s.expansions, terminal: s.terminal, tt_used: s.tt_used, tt_replaced: s.tt_replaced }
    }
}

/// What `progress()` returns.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ProgressJs {
    /// Whether the side to move at the root wins, once proven (null: not yet).
    root_wins: Option<bool>,
    /// A winning move of the side to move, once proven (null: not yet, or the root is a loss).
    winning_move: Option<String>,
    /// The side to move at the root (0 or 1).
    to_move: u8,
    /// Every legal move of the root, ascending cell index, with its value for the side to move.
    moves: Vec<MoveValue>,
    stats: StatsJs,
    /// Whether the root and every move are proven.
    done: bool,
    /// Bytes of the solver's transposition table.
    tt_bytes: usize,
}

/// A resumable exact solve of a Hex position (up to 8×8, no swap rule) and of each of its moves,
/// with a 64 MiB transposition table ([`PAGE_SOLVER_TT_LOG2`]). Each `run` continues where the
/// last one stopped.
#[wasm_bindgen(js_name = SolveSession)]
pub struct SolveSessionJs {
    inner: dfpn::SolveSession,
    hex: Hex,
}

#[wasm_bindgen(js_class = SolveSession)]
impl SolveSessionJs {
    /// A solve of the game's current position.
    ///
    /// # Errors
    /// A JS `Error` with the engine's sentence: the game is not Hex, the board is larger than
    /// 8×8, or the game has the swap rule.
    #[wasm_bindgen(constructor)]
    pub fn new(game: &GameSession) -> Result<SolveSessionJs, JsError> {
        let hex = match game.current() {
            AnyGame::Hex(h) => h.clone(),
            other => return Err(js_err(SolveSessionError::NotHex(other.spec()))),
        };
        let inner = dfpn::SolveSession::new(&hex, DfpnConfig { tt_log2: PAGE_SOLVER_TT_LOG2, ..DfpnConfig::default() }).map_err(js_err)?;
        Ok(SolveSessionJs { inner, hex })
    }

    /// Runs for at most about `millis` milliseconds (by `performance.now()`; the solver looks at
    /// the clock every few hundred MID calls). Returns true once everything is proven.
    ///
    /// # Errors
    /// A budget that is negative, too large or not a number.
    pub fn run(&mut self, millis: f64) -> Result<bool, JsError> {
        run_budget(millis, None).map_err(js_err)?;
        let t0 = clock();
        let mut stop = |_: &DfpnStats| clock() - t0 >= millis;
        Ok(self.inner.run(&mut stop))
    }

    /// The results so far: `{ rootWins, winningMove, toMove, moves: [{ move, moverWins }],
    /// stats: { midCalls, expansions, terminal, ttUsed, ttReplaced }, done, ttBytes }`.
    ///
    /// # Errors
    /// Only if encoding fails (a bug).
    pub fn progress(&self) -> Result<JsValue, JsError> {
        let p = self.inner.progress();
        let name = |m: u16| self.hex.format_move(m);
        to_js(&ProgressJs {
            root_wins: p.root_wins,
            winning_move: p.winning_move.map(name),
            to_move: self.hex.to_move(),
            moves: p.moves.iter().map(|&(m, w)| MoveValue { mv: name(m), mover_wins: w }).collect(),
            stats: p.stats.into(),
            done: p.done,
            tt_bytes: self.inner.tt_bytes(),
        })
    }
}
