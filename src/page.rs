//! The JSON shapes the page's worker receives from the WebAssembly module and no other front end
//! reads: a game session's snapshot and the exact solver's progress. They live outside
//! `src/wasm/` (which builds them and alone touches wasm-bindgen) so that the native test of
//! `protocol_types` generates their TypeScript copies (`www/src/generated/protocol-types.ts`)
//! like the engine's other shapes.

use serde::Serialize;

use crate::game::{BoardView, Outcome};
use crate::solve::endgame::{ExactStats, Value};
use crate::solve::hex::dfpn::DfpnStats;

/// The outcome as the page reads it: `{ "winner": 0 | 1 | null }` (null winner = draw).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct OutcomeView {
    /// The winner (player 0 moves first), or `None` for a draw.
    #[cfg_attr(test, ts(type = "0 | 1 | null"))]
    pub winner: Option<u8>,
}

impl OutcomeView {
    /// The page's view of a finished game's outcome, or `None` while it goes on.
    pub fn of(o: Option<Outcome>) -> Option<OutcomeView> {
        o.map(|o| OutcomeView { winner: o.winner() })
    }
}

/// Everything the page draws after a change to the game, in one object (one crossing of the
/// WebAssembly boundary per update; `GameSession` in `src/wasm/game.rs`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Snapshot {
    /// The position as the renderers read it.
    pub view: BoardView,
    /// Legal moves in notation, ascending dense index (empty once over).
    pub legal: Vec<String>,
    /// Moves played from the start to the current position, in notation.
    pub moves: Vec<String>,
    /// Moves that `redo` would replay, in order.
    pub redo: Vec<String>,
    /// `{ winner }` once the game is over, else `null`.
    pub outcome: Option<OutcomeView>,
}

/// One root move and its exact value for the side to move, once proven.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "SolveMoveValue"))]
pub struct SolveMoveValue {
    /// The move in notation (`d4`).
    #[serde(rename = "move")]
    pub mv: String,
    /// Whether the side to move wins after playing it (null: not proven yet; false for a draw).
    pub mover_wins: Option<bool>,
    /// Its exact value for the side to move: `win`, `draw` or `loss` (null: not proven yet).
    #[cfg_attr(test, ts(type = "'win' | 'draw' | 'loss' | null"))]
    pub value: Option<&'static str>,
}

impl SolveMoveValue {
    /// The move `mv` (in notation) with its value, if proven.
    pub fn new(mv: String, value: Option<Value>) -> SolveMoveValue {
        SolveMoveValue { mv, mover_wins: value.map(|v| v == Value::Win), value: value.map(Value::name) }
    }
}

/// The solver's counters, camelCase: the proof-number solver's ([`DfpnStats`]: MID calls, nodes
/// created — the work —, nodes settled by knowledge alone, table entries in use and overwritten),
/// or the alpha-beta solver's ([`ExactStats`]: positions in both `midCalls` and `expansions`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "SolveStats"))]
pub struct SolveCounters {
    /// MID calls (df-pn) or positions searched (alpha-beta).
    pub mid_calls: u64,
    /// Nodes created (df-pn) or positions searched (alpha-beta): the work.
    pub expansions: u64,
    /// Nodes settled without search (knowledge, finished games).
    pub terminal: u64,
    /// Transposition-table entries in use.
    pub tt_used: u64,
    /// Transposition-table entries overwritten.
    pub tt_replaced: u64,
}

impl From<DfpnStats> for SolveCounters {
    fn from(s: DfpnStats) -> Self {
        SolveCounters {
            mid_calls: s.mid_calls,
            expansions: s.expansions,
            terminal: s.terminal,
            tt_used: s.tt_used,
            tt_replaced: s.tt_replaced,
        }
    }
}

impl From<ExactStats> for SolveCounters {
    /// The alpha-beta's positions in both `midCalls` and `expansions` (the page's "positions").
    fn from(s: ExactStats) -> Self {
        SolveCounters { mid_calls: s.nodes, expansions: s.nodes, terminal: s.terminal, tt_used: s.tt_used, tt_replaced: s.tt_replaced }
    }
}

/// Where a page solve stands (`SolveSession.progress()` in `src/wasm/solve.rs`); the worker adds
/// its clock and whether the solve continued a kept one (`SolveReport` in `www/src/protocol.ts`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SolveProgress {
    /// Whether the side to move at the root wins, once proven (null: not yet; false for a draw).
    pub root_wins: Option<bool>,
    /// The root's exact value for the side to move: `win`, `draw` or `loss` (null: not yet).
    #[cfg_attr(test, ts(type = "'win' | 'draw' | 'loss' | null"))]
    pub root_value: Option<&'static str>,
    /// A winning move of the side to move, once proven (null: not yet, or the root is not won).
    pub winning_move: Option<String>,
    /// A move that keeps the root's value, a winning or drawing move (null: not yet, or lost).
    pub best_move: Option<String>,
    /// The solver: `dfpn` (Hex, proof-number search) or `alphabeta` (the endgame solver's games,
    /// with draws).
    #[cfg_attr(test, ts(type = "'dfpn' | 'alphabeta'"))]
    pub solver: &'static str,
    /// The side to move at the root (0 or 1).
    #[cfg_attr(test, ts(type = "0 | 1"))]
    pub to_move: u8,
    /// Every legal move of the root, ascending cell index, with its value for the side to move.
    pub moves: Vec<SolveMoveValue>,
    /// The solver's counters.
    pub stats: SolveCounters,
    /// Whether the root and every move are proven.
    pub done: bool,
    /// Bytes of the solver's transposition table as it stands (it grows as the solve needs, up
    /// to its budget: 64 MiB for Hex, 48 MiB for the endgame solver; `src/solve/table.rs`).
    pub tt_bytes: usize,
    /// When the browser refused the table's doubling: a sentence (the solve went on with the
    /// table it had; its values are exact). Null otherwise.
    pub tt_note: Option<String>,
}
