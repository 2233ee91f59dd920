//! The exact solvers: what a position is worth with perfect play, above the games' rules
//! (`crate::game`) and below the search and the reports that show their answers.
//!
//! - [`endgame`]: alpha-beta over win/draw/loss for the games with draws (Tic-Tac-Toe, Pentago
//!   endgames), `EndgameSession`;
//! - [`hex`]: Hex's proof-number solver (df-pn, with virtual connections and dead-cell
//!   knowledge) and the older negamax kept as its reference;
//! - [`table`]: the transposition tables' growth, shared by the solvers.

pub mod endgame;
pub mod hex;
pub mod table;
