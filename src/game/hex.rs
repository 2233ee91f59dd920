//! Hex on an n×n rhombus, 1 ≤ n ≤ 19, with an optional swap (pie) rule.
//!
//! # Rules (as `../shared/reference/README.md`, i.e. OpenSpiel)
//! - Cells are numbered `row * n + col`, row 0 on top; notation is column letter + row number with
//!   row 1 on top (`a1` … `s19`).
//! - Player 0 (Black, `X`) moves first and connects the top and bottom edges; player 1 (White,
//!   `O`) connects the left and right edges.
//! - The neighbours of (r, c) are (r−1, c) (r−1, c+1) (r, c−1) (r, c+1) (r+1, c−1) (r+1, c):
//!   `a1` and the opposite corner are the acute corners (2 neighbours), the two others obtuse (3).
//! - A move places a stone of the mover's colour on an empty cell; a player who connects their
//!   two edges wins. Hex has no draws: a full board always holds exactly one winning chain.
//!
//! # Swap rule (option `swap`, off by default)
//! Implemented as the *piece swap* of HexWiki ("Swap rule", variant 2,
//! <http://hexwiki.amecy.com/index.php/Swap_rule>): on White's first turn only (ply 1), White may
//! play the move `swap` (dense index n²). Black's stone at (r, c) is removed and a White stone is
//! placed on its mirror image across the long diagonal `a1`–(n, n), (c, r); then it is Black's
//! turn again. Mirroring across that diagonal maps the neighbour relation onto itself and the
//! top/bottom edges onto the left/right edges, so the White stone is worth exactly what the Black
//! stone was, and colours stay tied to edges (player 0 is always Black). HexGui and Benzene/MoHex
//! call this move `swap-pieces` (`HexPoint.SWAP_PIECES` in HexGui's `HexPoint.java`, "swap" is
//! accepted as its alias there and on Little Golem); HexGui keeps the stone in place on its Hex
//! board and only marks it (a colour-designation swap), which is the same position up to that
//! reflection. We change the board, as HexWiki's variant 2 and most game sites do. Both `swap`
//! and `swap-pieces` parse; the move is written `swap`. After a swap the ply counter is 2 and the
//! board holds one White stone.
//!
//! # Representation
//! Bitboards, bit `row * n + col`: `u64` for n ≤ 8, `u128` for n ≤ 11, six `u64` words for
//! n ≤ 19, behind one generic core. Neighbours of a whole set are six shifts (±1, ±n, ±(n−1))
//! with first/last-column masks. For each player and each of its edges, the stones connected
//! to that edge form a *reach set*; the core keeps its *touch set*, the cells on or next to it
//! (the reach set itself is the touch set's stones), updated on every move by a flood fill from
//! the placed stone only when it lies in one. A placed stone wins when it joins both; an empty
//! cell is a *decisive move* (Teytaud & Teytaud 2010) when it lies in both touch sets, which
//! makes `winning_moves`, `threats` and `non_losing_moves` a handful of bitboard operations.
//!
//! # Random playouts
//! Legality never changes in Hex and a full board has exactly one winner, so uniformly random
//! play to the end is a uniformly random order of the empty cells, dealt alternately, and the
//! winner is the player connected on the full board.
//!
//! - Outcome only ([`NoTrace`](super::NoTrace)): the mover's cells are a uniformly random
//!   subset of ⌈e/2⌉ of the e empty cells, drawn as independent fair bits (one 64-bit word per
//!   64 cells) corrected by a few uniformly chosen additions or removals (rank-select without
//!   `pdep`: Vigna 2008), and one row-sweep flood fill tells whether Black connects.
//! - Recorded moves (a `Vec`): the empty cells are shuffled (an unbiased Fisher–Yates shuffle
//!   whose indices are drawn six at a time from one 64-bit word: Brackett-Rozinsky & Lemire,
//!   "Batched Ranged Random Integer Generation", 2024) and dealt alternately; the same row
//!   sweep finds the winner of that full board, and the winner's stones alone are then added in
//!   order with the incremental edge-reach check until it connects (the loser never does), so
//!   the returned trace is the uniformly random game actually played, up to its last move.
//! - With decisive and anti-decisive moves ([`Game::decisive_playout`](super::Game::decisive_playout)): the empty cells are
//!   shuffled the same way and played in that order move by move, except where the kept
//!   winning-cell sets offer a win (taken) or show a threat (a uniformly drawn threat is
//!   blocked); the next shuffled cell still empty is a uniformly random empty cell. Until the
//!   first threat the moves are dealt in blocks, each checked afterwards (the same moves).
//! - Filling the board ([`Game::fill_playout`](super::Game::fill_playout), search option `fill_playouts`, as MoHex): the
//!   outcome-only split, each player's gained cells returned as sets for AMAF; recorded, they
//!   are listed alternately in an order drawn from a copy of the generator.
//!   [`Game::fill_rest`](super::Game::fill_rest) deals the empty cells of a finished game the same way.

//!
//! # Files
//! - [`bridges`]: each cell's neighbour rings and the save-bridge answer (the playout rule
//!   `save_bridge`, `docs/save-bridge.md`);
//! - `bitset`: the bit sets (`Bits`: `u64`, `u128` and six words) the other parts are generic over;
//! - `geo`: the masks and neighbour sets of one board size (`Geo`);
//! - `core`: a position on one bit-set type (`Core`: stones, touch and winning-cell sets) and its
//!   playouts;
//! - `game`: [`Hex`], the [`Game`](super::Game) on the smallest bit set that holds the board;
//! - [`patterns`]: the local 12-cell patterns of cells and their trained weights (MoHex 2.0's
//!   prior, `docs/pattern-priors.md`);
//! - the knowledge the search and the exact solver (`crate::solve::hex`) share: `ice` (dead and
//!   captured cells, fill-in), `position` (the knowledge's board) and `knowledge` (the search
//!   tree's consider set).

pub(crate) mod bitset;
pub mod bridges;
pub(crate) mod core;
pub(crate) mod game;
pub(crate) mod geo;
pub(crate) mod ice;
pub(crate) mod knowledge;
pub mod patterns;
pub(crate) mod position;

pub(crate) use bitset::Bits;
// `ice`'s tests build positions through the board (`crate::game::hex::Board`).
#[cfg(test)]
use game::Board;
pub use game::{Hex, HexOptionError};
pub(crate) use geo::Geo;

/// The largest board the exact solvers take (their keys are one 64-bit set per colour:
/// `crate::solve::hex`).
pub const MAX_SOLVE_SIZE: usize = 8;

/// Largest supported board side.
pub const MAX_SIZE: usize = 19;
/// Board side of plain `hex`.
pub const DEFAULT_SIZE: usize = 11;
const MAX_CELLS: usize = MAX_SIZE * MAX_SIZE;
