//! The knowledge's board: both colours' stones as bit sets of any [`Bits`] type and the side to
//! move, with the connection tests the knowledge starts from. The exact solver uses 64-bit sets
//! (`Pos<u64>`, boards up to 8×8, the default type); the search's Hex knowledge
//! ([`super::knowledge`]) the set type of its board (`u128` up to 11×11, `W6` up to 19×19).
//! Cells are bits `row * n + col` as everywhere in [`Hex`](super::Hex); player 0 (Black) joins
//! the top and bottom rows, player 1 (White) the left and right columns.

use super::{Bits, Geo, Hex};
use crate::game::Game;

/// The largest board side the solver's 64-bit sets hold.
pub(crate) const MAX_N: usize = 8;

/// A Hex position (no swap rule): `stones[p]` = player p's stones (bit `row * n + col`),
/// `to_move` = 0 or 1. `B = u64` for the solver (side ≤ [`MAX_N`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Pos<B = u64> {
    /// Board side, 1..=[`MAX_N`] for `u64`, up to the largest side of `B`.
    pub n: u8,
    /// Black's and White's stones.
    pub stones: [B; 2],
    /// The player to move (0 Black, 1 White).
    pub to_move: u8,
}

impl Pos<u64> {
    #[cfg_attr(not(test), allow(dead_code))]
    /// The empty position of side `n` (1..=[`MAX_N`]), Black to move.
    pub fn empty_board(n: usize) -> Pos {
        debug_assert!((1..=MAX_N).contains(&n));
        Pos { n: n as u8, stones: [0; 2], to_move: 0 }
    }

    /// The position of `g` (side ≤ [`MAX_N`], no swap move on the board).
    pub fn from_hex(g: &Hex) -> Pos {
        let n = g.size();
        debug_assert!(n <= MAX_N);
        let mut stones = [0u64; 2];
        for cell in 0..n * n {
            if let Some(p) = g.stone_at(cell) {
                stones[p as usize] |= 1 << cell;
            }
        }
        Pos { n: n as u8, stones, to_move: g.to_move() }
    }

    /// The position rotated by 180° (cell i ↦ n² − 1 − i), which maps each player's edges onto
    /// themselves: a position and its rotation have the same value.
    #[inline]
    pub fn rotated(&self) -> Pos {
        let cells = (self.n as u32) * (self.n as u32);
        let rot = |x: u64| if x == 0 { 0 } else { x.reverse_bits() >> (64 - cells) };
        Pos { stones: [rot(self.stones[0]), rot(self.stones[1])], ..*self }
    }
}

impl<B: Bits> Pos<B> {
    /// The geometry (masks and neighbour sets) of this board size.
    #[inline]
    pub(crate) fn geo(&self) -> &'static Geo<B> {
        B::geo(self.n as usize)
    }

    /// All cells of the board.
    #[inline]
    pub fn board(&self) -> B {
        self.geo().board
    }

    /// The empty cells.
    #[inline]
    pub fn empty(&self) -> B {
        self.geo().board & !(self.stones[0] | self.stones[1])
    }

    /// The position after the side to move plays `cell` (empty).
    #[inline]
    pub fn play(&self, cell: usize) -> Pos<B> {
        debug_assert!(self.empty().test(cell));
        let mut s = *self;
        s.stones[self.to_move as usize] |= B::bit(cell);
        s.to_move ^= 1;
        s
    }

    /// Player `p`'s stones connected to its first edge (`edge == 0`) or its second.
    #[inline]
    pub fn reach(&self, p: usize, edge: usize) -> B {
        let g = self.geo();
        let own = self.stones[p];
        g.flood(g.edge[p][edge] & own, own)
    }

    /// Whether player `p`'s stones join its two edges.
    #[inline]
    pub fn connected(&self, p: usize) -> bool {
        (self.reach(p, 0) & self.geo().edge[p][1]).any()
    }

    /// The empty cells where a stone of player `p` would join its two edges at once.
    #[inline]
    pub fn winning_cells(&self, p: usize) -> B {
        let g = self.geo();
        let e = self.empty();
        let touch = |edge: usize| (g.grow(self.reach(p, edge)) | g.edge[p][edge]) & e;
        touch(0) & touch(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winning_cells_and_connection_match_the_game() {
        let mut g = Hex::new(4, false).unwrap();
        for m in ["a1", "b1", "a2", "b2", "a3", "b3"] {
            g.play_unchecked(g.parse_move(m).unwrap());
        }
        let p = Pos::from_hex(&g);
        assert_eq!(p.to_move, 0);
        // Black's column a reaches row 3; a4 wins.
        assert_eq!(p.winning_cells(0), 1 << 12);
        assert!(!p.connected(0));
        assert!(p.play(12).connected(0));
        assert_eq!(p.rotated().rotated(), p);
    }
}
