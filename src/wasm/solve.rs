//! `SolveSession`: an exact solver on the position of a `GameSession`, run in slices against the
//! clock the searches use, for the page's "Solve" control: the root's value and every root move's
//! value for the side to move, as they are proven. Hex goes to the proof-number solver
//! ([`crate::solve::hex::dfpn::SolveSession`], win or loss); Tic-Tac-Toe and Pentago endgames to
//! the alpha-beta endgame solver ([`crate::solve::endgame::EndgameSession`], win, draw or loss).

use wasm_bindgen::prelude::*;

use super::game::GameSession;
use super::{clock, js_err, to_js};
use crate::game::{AnyGame, Game, Hex};
use crate::page::{SolveMoveValue, SolveProgress};
use crate::request::run_budget;
use crate::solve::endgame::{EndgameSession, ExactConfig, ExactStats, Value};
use crate::solve::hex::dfpn::{self, DfpnConfig, DfpnStats};

/// log2 of the most transposition-table entries for Hex in the page: 2^20 entries of 64 bytes =
/// 64 MiB; the table starts at 64 KiB and doubles only as the solve needs (docs/limits.md).
pub const PAGE_SOLVER_TT_LOG2: u32 = 20;

/// log2 of the page's transposition-table entries for the endgame solver: 2^21 entries of 24
/// bytes = 48 MiB at most (a position that needs less gets less, [`ExactConfig::fit`];
/// docs/limits.md).
pub const PAGE_ENDGAME_TT_LOG2: u32 = 21;

/// Which solver a [`SolveSessionJs`] runs (one per page solve: its size does not matter).
#[allow(clippy::large_enum_variant)]
enum Inner {
    /// Hex: the proof-number solver, and the position (for move names).
    Hex(dfpn::SolveSession, Hex),
    /// Tic-Tac-Toe or a Pentago endgame.
    Endgame(EndgameSession),
}

/// A resumable exact solve of a position and of each of its moves: Hex (up to 8×8, no swap rule)
/// with a transposition table of at most 64 MiB ([`PAGE_SOLVER_TT_LOG2`]), Tic-Tac-Toe and
/// Pentago endgames (at most [`crate::solve::endgame::PENTAGO_MAX_EMPTY`] empty cells) with at most
/// 48 MiB ([`PAGE_ENDGAME_TT_LOG2`]); each starts at a few dozen KiB and grows as the solve needs.
/// Each `run` continues where the last one stopped.
#[wasm_bindgen(js_name = SolveSession)]
pub struct SolveSessionJs {
    inner: Inner,
}

#[wasm_bindgen(js_class = SolveSession)]
impl SolveSessionJs {
    /// A solve of the game's current position.
    ///
    /// # Errors
    /// A JS `Error` with the engine's sentence: a Hex board larger than 8×8, the swap rule, a
    /// Pentago position with too many empty cells, or the table's first memory refused.
    #[wasm_bindgen(constructor)]
    pub fn new(game: &GameSession) -> Result<SolveSessionJs, JsError> {
        let inner = match game.current() {
            AnyGame::Hex(h) => {
                let cfg = DfpnConfig { tt_log2: PAGE_SOLVER_TT_LOG2, ..DfpnConfig::default() };
                Inner::Hex(dfpn::SolveSession::new(h, cfg).map_err(js_err)?, h.clone())
            }
            other => Inner::Endgame(EndgameSession::new(other, ExactConfig { tt_log2: PAGE_ENDGAME_TT_LOG2 }).map_err(js_err)?),
        };
        Ok(SolveSessionJs { inner })
    }

    /// Runs for at most about `millis` milliseconds (by `performance.now()`; the solvers look at
    /// the clock every few hundred positions). Returns true once everything is proven.
    ///
    /// # Errors
    /// A budget that is negative, too large or not a number.
    pub fn run(&mut self, millis: f64) -> Result<bool, JsError> {
        run_budget(millis, None).map_err(js_err)?;
        let t0 = clock();
        Ok(match &mut self.inner {
            Inner::Hex(s, _) => s.run(&mut |_: &DfpnStats| clock() - t0 >= millis),
            Inner::Endgame(s) => s.run(&mut |_: &ExactStats| clock() - t0 >= millis),
        })
    }

    /// The results so far: `{ rootWins, rootValue, winningMove, bestMove, solver, toMove, moves:
    /// [{ move, moverWins, value }], stats: { midCalls, expansions, terminal, ttUsed, ttReplaced
    /// }, done, ttBytes, ttNote }`; values are `win`, `draw` or `loss` for the side to move (Hex has no
    /// draws).
    ///
    /// # Errors
    /// Only if encoding fails (a bug).
    pub fn progress(&self) -> Result<JsValue, JsError> {
        let p = match &self.inner {
            Inner::Hex(s, hex) => {
                let p = s.progress();
                let name = |m: u16| hex.format_move(m);
                let value = |w: Option<bool>| w.map(|w| if w { Value::Win } else { Value::Loss });
                SolveProgress {
                    root_wins: p.root_wins,
                    root_value: value(p.root_wins).map(Value::name),
                    winning_move: p.winning_move.map(name),
                    best_move: p.winning_move.map(name),
                    solver: "dfpn",
                    to_move: hex.to_move(),
                    moves: p.moves.iter().map(|&(m, w)| SolveMoveValue::new(name(m), value(w))).collect(),
                    stats: p.stats.into(),
                    done: p.done,
                    tt_bytes: s.tt_bytes(),
                    tt_note: s.tt_refused().map(|e| e.to_string()),
                }
            }
            Inner::Endgame(s) => {
                let p = s.progress();
                SolveProgress {
                    root_wins: p.value.map(|v| v == Value::Win),
                    root_value: p.value.map(Value::name),
                    winning_move: if p.value == Some(Value::Win) { p.best.clone() } else { None },
                    best_move: p.best,
                    solver: "alphabeta",
                    to_move: p.to_move,
                    moves: p.moves.into_iter().map(|(m, v)| SolveMoveValue::new(m, v)).collect(),
                    stats: p.stats.into(),
                    done: p.done,
                    tt_bytes: s.tt_bytes(),
                    tt_note: s.tt_refused().map(|e| e.to_string()),
                }
            }
        };
        to_js(&p)
    }
}
