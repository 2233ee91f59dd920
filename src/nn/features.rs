//! Network inputs ("planes") per game and their symmetries, in one place (as minigo and KataGo
//! keep features and symmetries together).
//!
//! Every encoding is from the **side to move's perspective**, so one net plays both sides:
//! - **Tic-Tac-Toe**: 18 inputs, plane 0 = the side to move's stones (cells 0..9, `row·3+col`),
//!   plane 1 = the opponent's; 9 policy outputs (the cells). Symmetries: the 8 of the square
//!   (rotations and reflections, the dihedral group D4).
//! - **Hex n×n** (no swap rule): 2n² inputs, plane 0 = own stones, plane 1 = the opponent's;
//!   n² policy outputs. Black (player 0) connects top and bottom; for White (player 1) to move
//!   the board is **transposed**, cell (r, c) read as (c, r), which maps White's left–right goal
//!   onto top–bottom and keeps Hex's neighbourhood (the six neighbours of (r, c) transpose to
//!   the six of (c, r)); policy outputs are transposed back. So the net always sees "I connect
//!   top and bottom". Symmetry: the 180° rotation (r, c) → (n−1−r, n−1−c), which keeps both
//!   goals (Hex has no other symmetry that keeps them).
//!
//! Pentago has no encoding yet (no net ships for it); [`Encoding::for_spec`] returns `None`.

use crate::game::Player;

/// The most cells an encoding has (Hex 19×19): the size of the evaluator's stack buffers.
pub const MAX_CELLS: usize = 19 * 19;

/// The input encoding of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// Tic-Tac-Toe: 18 inputs, 9 outputs.
    TicTacToe,
    /// Hex n×n without the swap rule: 2n² inputs, n² outputs.
    Hex {
        /// Board side n.
        n: usize,
    },
}

impl Encoding {
    /// The encoding of a game spec (`tictactoe`, `hex:N`); `None` for games without one
    /// (Pentago, Hex with the swap rule).
    pub fn for_spec(spec: &str) -> Option<Encoding> {
        let parts: Vec<&str> = spec.split(':').collect();
        match parts.as_slice() {
            ["tictactoe"] => Some(Encoding::TicTacToe),
            ["hex", n] => n.parse().ok().filter(|&n| (1..=19).contains(&n)).map(|n| Encoding::Hex { n }),
            _ => None,
        }
    }

    /// Board cells (= policy outputs): 9 or n².
    pub fn cells(self) -> usize {
        match self {
            Encoding::TicTacToe => 9,
            Encoding::Hex { n } => n * n,
        }
    }

    /// Network inputs: two planes of [`Encoding::cells`].
    pub fn inputs(self) -> usize {
        2 * self.cells()
    }

    /// The network's index of board cell `cell` (`row·cols + col`) for `to_move`: the cell
    /// itself, or (Hex, White to move) its transpose. Its own inverse.
    #[inline]
    pub fn canonical(self, cell: usize, to_move: Player) -> usize {
        match self {
            Encoding::Hex { n } if to_move == 1 => (cell % n) * n + cell / n,
            _ => cell,
        }
    }

    /// Writes the input planes of a position into `x` (length [`Encoding::inputs`]): `owners`
    /// as from [`crate::game::Game::cell_owners`], `to_move` the side to move.
    pub fn encode(self, owners: &[i8], to_move: Player, x: &mut [f32]) {
        let cells = self.cells();
        x[..2 * cells].fill(0.0);
        for (cell, &o) in owners.iter().enumerate().take(cells) {
            if let Some(i) = self.input(cell, o, to_move) {
                x[i] = 1.0;
            }
        }
    }

    /// The input that a stone of owner `o` (−1: empty, no input) on `cell` sets to 1, seen by
    /// `to_move`: plane 0 (own stones) or 1 (the opponent's), at the cell's canonical index.
    #[inline]
    fn input(self, cell: usize, o: i8, to_move: Player) -> Option<usize> {
        (o >= 0).then(|| (if o as Player == to_move { 0 } else { self.cells() }) + self.canonical(cell, to_move))
    }

    /// The indices of the ones of [`Encoding::encode`]'s input, ascending, into `out` (length ≥
    /// the stones on the board); returns how many. `encode` sets exactly these to 1.
    pub fn active(self, owners: &[i8], to_move: Player, out: &mut [u16]) -> usize {
        let cells = self.cells();
        let mut k = 0;
        for (cell, &o) in owners.iter().enumerate().take(cells) {
            if let Some(i) = self.input(cell, o, to_move) {
                out[k] = i as u16;
                k += 1;
            }
        }
        out[..k].sort_unstable();
        k
    }

    /// The symmetries used for data augmentation, as permutations of the cells in the net's
    /// frame (`perm[i]` = image of cell i); the identity first. Tic-Tac-Toe: 8; Hex: 2.
    pub fn symmetries(self) -> Vec<Vec<usize>> {
        match self {
            Encoding::TicTacToe => {
                let f = |g: &dyn Fn(usize, usize) -> (usize, usize)| -> Vec<usize> {
                    (0..9).map(|i| g(i / 3, i % 3)).map(|(r, c)| r * 3 + c).collect()
                };
                vec![
                    f(&|r, c| (r, c)),
                    f(&|r, c| (c, 2 - r)),
                    f(&|r, c| (2 - r, 2 - c)),
                    f(&|r, c| (2 - c, r)),
                    f(&|r, c| (r, 2 - c)),
                    f(&|r, c| (2 - r, c)),
                    f(&|r, c| (c, r)),
                    f(&|r, c| (2 - c, 2 - r)),
                ]
            }
            Encoding::Hex { n } => vec![(0..n * n).collect(), (0..n * n).map(|i| n * n - 1 - i).collect()],
        }
    }

    /// Applies symmetry `perm` to an input vector (both planes) in place of `out`.
    pub fn permute_input(self, perm: &[usize], x: &[f32], out: &mut [f32]) {
        let cells = self.cells();
        for p in 0..2 {
            for (i, &j) in perm.iter().enumerate() {
                out[p * cells + j] = x[p * cells + i];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Hex};

    #[test]
    fn hex_white_sees_a_transposed_board() {
        let mut g = Hex::new(3, false).unwrap();
        g.play_text("b1").unwrap(); // Black at (0,1); White to move
        let enc = Encoding::for_spec(&g.spec()).unwrap();
        let mut owners = vec![0i8; 9];
        g.cell_owners(&mut owners);
        let mut x = vec![0.0; 18];
        enc.encode(&owners, g.to_move(), &mut x);
        // The opponent's stone at (0,1) appears at (1,0) = index 3 of plane 1.
        assert_eq!(x[9 + 3], 1.0);
        assert_eq!(x.iter().sum::<f32>(), 1.0);
        assert_eq!(enc.canonical(enc.canonical(5, 1), 1), 5);
        // `active` lists exactly the ones of `encode`, ascending, for either side to move.
        for moves in ["b1 a3 c2", "b1 a3 c2 c3"] {
            let mut g = Hex::new(3, false).unwrap();
            moves.split(' ').for_each(|m| {
                g.play_text(m).unwrap();
            });
            g.cell_owners(&mut owners);
            enc.encode(&owners, g.to_move(), &mut x);
            let mut active = [0u16; 18];
            let k = enc.active(&owners, g.to_move(), &mut active);
            let ones: Vec<u16> = (0..18).filter(|&i| x[i as usize] == 1.0).collect();
            assert_eq!(&active[..k], &ones[..], "{moves}");
        }
    }

    #[test]
    fn symmetries_are_permutations() {
        for enc in [Encoding::TicTacToe, Encoding::Hex { n: 5 }] {
            let syms = enc.symmetries();
            for p in &syms {
                let mut seen = vec![false; enc.cells()];
                p.iter().for_each(|&j| seen[j] = true);
                assert!(seen.iter().all(|&s| s));
            }
            assert_eq!(syms[0], (0..enc.cells()).collect::<Vec<_>>());
        }
        assert_eq!(Encoding::for_spec("pentago"), None);
        assert_eq!(Encoding::for_spec("hex:7:swap"), None);
    }

    /// The registry's `net_input` fact (what the schema tells the page) says what this module
    /// encodes: a game with an encoding here is marked, and only such a game.
    #[test]
    fn the_registry_says_which_games_have_an_encoding() {
        for f in crate::game::registry::GAMES {
            let spec = crate::game::AnyGame::from_spec(f.default_spec).unwrap().spec();
            assert_eq!(Encoding::for_spec(&spec).is_some(), f.net_input, "{}", f.name);
        }
    }
}
