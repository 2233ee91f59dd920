//! # MCTS playground engine
//!
//! Game rules (Tic-Tac-Toe, Hex, Pentago, Connect Four; `game::registry`) and a Monte Carlo Tree Search engine, written to run
//! natively (the `mcts` command-line tool, tests, benchmarks) and as WebAssembly in a Web Worker
//! (`src/wasm/`, the only module that uses wasm-bindgen).
//!
//! ```
//! use mcts_playground::game::{AnyGame, Game};
//! let g = AnyGame::from_spec("tictactoe").unwrap();
//! assert_eq!(g.legal_count(), 9);
//! ```

#![warn(missing_docs)]

pub mod arena;
mod bits;
pub mod game;
pub mod gtp;
pub mod limits;
pub mod mcts;
pub mod nn;
pub mod page;
#[cfg(test)]
mod protocol_types;
pub mod record;
pub mod report;
pub mod request;
pub mod rng;
pub mod solve;

#[cfg(target_arch = "wasm32")]
pub mod wasm;
