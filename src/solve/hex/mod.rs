//! Hex's exact solvers: whether the side to move wins, and a winning move.
//!
//! - [`dfpn`]: depth-first proof-number search (Nagai 2002, as in Benzene) and its session;
//!   `tt` its table, `vc` virtual connections (H-search), `resist` move order; the dead and
//!   captured cells and the knowledge's board it shares with the search are Hex's own
//!   (`crate::game::hex`: `ice`, `position`);
//! - [`negamax`]: the older negamax over one bit, kept as the reference.

use crate::game::hex::MAX_SOLVE_SIZE;
use crate::solve::table::TableMemoryError;

pub mod dfpn;
pub mod negamax;
pub(crate) mod resist;
pub(crate) mod tt;
pub(crate) mod vc;

/// Why a position was not solved.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SolveError {
    /// The board has more than [`MAX_SOLVE_SIZE`] cells a side.
    #[error("the exact solver takes boards up to {MAX_SOLVE_SIZE}x{MAX_SOLVE_SIZE}; this one is {0}x{0}")]
    TooLarge(usize),
    /// The game has the swap (pie) rule, which the solver does not handle.
    #[error("the exact solver does not handle the swap rule (use hex:N without :swap)")]
    Swap,
    /// The search visited `max_nodes` positions without an answer.
    #[error("not solved within {0} positions (--max-nodes); smaller boards or more stones solve faster")]
    Budget(u64),
    /// The search ran for its time limit (seconds) without an answer.
    #[error("not solved within {0} s (--time); smaller boards or more stones solve faster")]
    Time(f64),
    /// The system refused the transposition table's memory.
    #[error(transparent)]
    Memory(#[from] TableMemoryError),
}
