//! Bridges, for the *save-bridge* playout rule of MoHex (Arneson, Hayward & Henderson, "Monte
//! Carlo Tree Search in Hex", IEEE Trans. Computational Intelligence and AI in Games 2(4),
//! 2010): when the opponent's last move intrudes into a bridge of the player to move, that
//! player answers in the bridge's other carrier cell, keeping the two ends connected.
//!
//! A *bridge* is two cells of one player that are not adjacent but share two empty neighbours,
//! its *carrier*; a stone on the second row and its edge form one too (the edge template II),
//! the two first-row cells being the carrier. Around a cell x, the six neighbours in cyclic
//! order are each adjacent to the next, and two neighbours one apart (ring positions i and
//! i + 2) are not adjacent and share exactly x and the neighbour between them. So the bridges
//! that a stone at x intrudes into are the ring triples `a b c` with a and c the mover's (a
//! stone or its own edge) and b empty; the answer is b. Edges count as their owner's stones,
//! as on Benzene's board, where an off-board neighbour is the edge and has the edge's colour.
//!
//! Which of several intruded bridges (at most three, when the ring alternates mover, empty,
//! mover, ...) is saved: one drawn uniformly, as MoHex 1.0 did (the program of the paper;
//! Benzene's `HexUctPolicy::GeneratePatternMove` before its 2011 rename to
//! `MoHexPlayoutPolicy`: the one save-bridge pattern of `share/mohex-patterns.txt` matched on
//! the last move in every rotation, one hit drawn uniformly, tried at every playout move,
//! `patternCheckPercent` = 100). MoHex 2.0's `MoHexBoard::SaveBridge` (Benzene's current
//! source) scans the ring from a random direction and takes the first match, which favours a
//! bridge that follows a longer gap; its playouts use 12-cell pattern weights instead
//! (Huang, Arneson, Hayward, Müller & Pawlewicz, "MoHex 2.0", Computers and Games 2013).

use std::sync::OnceLock;

use super::MAX_SIZE;
use crate::rng::Rng64;

/// Entries of a [`Colours`] array: a power of two above the cells of the largest board plus
/// the three pseudo-cells, so an index masked by `COLOURS - 1` needs no bounds check.
pub const COLOURS: usize = 512;

/// The owner of each cell (0, 1 or [`EMPTY`], as [`crate::game::Game::cell_owners`] writes them),
/// then of the pseudo-cells ([`BridgeRings::set_edges`]); the rest unused.
pub type Colours = [i8; COLOURS];

/// A colour in a [`Colours`] array: an empty cell.
pub const EMPTY: i8 = -1;
/// A colour no player has: the off-board diagonal of an obtuse corner, which borders both
/// players' edges.
pub const NOBODY: i8 = 2;

/// The neighbours of each cell of a board in cyclic order, off-board neighbours as three
/// pseudo-cells after the cells: `cells` (player 0's edges), `cells + 1` (player 1's edges),
/// `cells + 2` (nobody's). [`BridgeRings::save_bridge`] reads the owners from a [`Colours`].
#[derive(Clone, Debug)]
pub struct BridgeRings {
    cells: usize,
    ring: Vec<[u16; 6]>,
}

impl BridgeRings {
    /// The rings of the Hex board of side `n` (1 ≤ n ≤ 19; other sides are clamped into that
    /// range), built once per side. Cell `row * n + col`; the neighbours of (r, c) in cyclic
    /// order (r−1, c), (r−1, c+1), (r, c+1), (r+1, c), (r+1, c−1), (r, c−1); rows −1 and n are
    /// player 0's edges (top, bottom), columns −1 and n player 1's (left, right).
    pub fn hex(n: usize) -> &'static BridgeRings {
        static TABLES: [OnceLock<BridgeRings>; MAX_SIZE + 1] = [const { OnceLock::new() }; MAX_SIZE + 1];
        let n = n.clamp(1, MAX_SIZE);
        TABLES[n].get_or_init(|| {
            let cells = n * n;
            let at = |r: isize, c: isize| -> u16 {
                let (row_in, col_in) = ((0..n as isize).contains(&r), (0..n as isize).contains(&c));
                match (row_in, col_in) {
                    (true, true) => (r as usize * n + c as usize) as u16,
                    (false, true) => cells as u16,
                    (true, false) => cells as u16 + 1,
                    (false, false) => cells as u16 + 2,
                }
            };
            let ring = (0..cells)
                .map(|i| {
                    let (r, c) = ((i / n) as isize, (i % n) as isize);
                    [at(r - 1, c), at(r - 1, c + 1), at(r, c + 1), at(r + 1, c), at(r + 1, c - 1), at(r, c - 1)]
                })
                .collect();
            BridgeRings { cells, ring }
        })
    }

    /// Cells of the board.
    pub fn cells(&self) -> usize {
        self.cells
    }

    /// Writes the pseudo-cells' owners into `colour[cells..cells + 3]`.
    pub fn set_edges(&self, colour: &mut Colours) {
        colour[self.cells..self.cells + 3].copy_from_slice(&[0, 1, NOBODY]);
    }

    /// The neighbours of `cell` in cyclic order (pseudo-cells for off-board ones).
    pub fn ring(&self, cell: usize) -> &[u16; 6] {
        &self.ring[cell]
    }

    /// The carrier cells that save a bridge of player `me` intruded at `last`, as a set of ring
    /// positions (bit j = [`BridgeRings::ring`]`(last)[j]`): j is in it when ring position j is
    /// empty and both its ring neighbours are `me`'s.
    #[inline(always)]
    pub fn answers(&self, colour: &Colours, last: usize, me: i8) -> u8 {
        let ring = &self.ring[last];
        let (mut mine, mut empty) = (0u8, 0u8);
        for (j, &x) in ring.iter().enumerate() {
            let c = colour[x as usize & (COLOURS - 1)];
            mine |= ((c == me) as u8) << j;
            empty |= ((c == EMPTY) as u8) << j;
        }
        // Ring position j - 1 and j + 1 (cyclic) both mine.
        let before = ((mine << 1) | (mine >> 5)) & 0x3f;
        let after = ((mine >> 1) | (mine << 5)) & 0x3f;
        empty & before & after
    }

    /// The save-bridge answer of player `me` to the opponent's stone at `last` on the board
    /// `colour`: the other carrier cell of a bridge of `me` that `last` intrudes into, one of
    /// them drawn uniformly when there are several (one `rng.index` then; none with one), or
    /// `None` when `last` intrudes into no bridge of `me` (or is not a cell).
    #[inline(always)]
    pub fn save_bridge(&self, colour: &Colours, last: usize, me: i8, rng: &mut Rng64) -> Option<usize> {
        if last >= self.cells {
            return None;
        }
        let mut a = self.answers(colour, last, me);
        if a == 0 {
            return None;
        }
        let k = a.count_ones();
        if k > 1 {
            for _ in 0..rng.index(k as usize) {
                a &= a - 1;
            }
        }
        Some(self.ring[last][a.trailing_zeros() as usize] as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Hex};

    /// The colour array of a Hex position given as moves in notation.
    fn board(n: usize, moves: &[&str]) -> (Hex, Box<Colours>) {
        let mut g = Hex::new(n, false).unwrap();
        for m in moves {
            g.play_text(m).unwrap();
        }
        let rings = BridgeRings::hex(n);
        let mut colour = Box::new([EMPTY; COLOURS]);
        g.cell_owners(&mut colour[..rings.cells()]);
        rings.set_edges(&mut colour);
        (g, colour)
    }

    fn cell(g: &Hex, name: &str) -> usize {
        g.move_index(g.parse_move(name).unwrap())
    }

    /// Every pair of ring positions one apart is a bridge: not adjacent, both adjacent to the
    /// cell between them and to the centre; consecutive ring cells are adjacent. Checked
    /// against the rules' neighbour relation on every cell of Hex 1 to 8 and 11.
    #[test]
    fn rings_are_cyclic_neighbour_orders() {
        for n in [1usize, 2, 3, 4, 5, 8, 11] {
            let rings = BridgeRings::hex(n);
            let adj = |a: usize, b: usize| {
                let (ra, ca, rb, cb) = ((a / n) as isize, (a % n) as isize, (b / n) as isize, (b % n) as isize);
                let (dr, dc) = (rb - ra, cb - ca);
                matches!((dr, dc), (-1, 0) | (-1, 1) | (0, -1) | (0, 1) | (1, -1) | (1, 0))
            };
            for x in 0..n * n {
                let ring = rings.ring(x);
                let on: Vec<usize> = ring.iter().map(|&y| y as usize).filter(|&y| y < n * n).collect();
                let expect = (0..n * n).filter(|&y| adj(x, y)).count();
                assert_eq!(on.len(), expect, "hex:{n} cell {x}: every neighbour once");
                for j in 0..6 {
                    let (a, b, c) = (ring[j] as usize, ring[(j + 1) % 6] as usize, ring[(j + 2) % 6] as usize);
                    if a < n * n && b < n * n {
                        assert!(adj(a, b), "hex:{n} cell {x}: ring {j} and {} adjacent", j + 1);
                    }
                    if a < n * n && c < n * n {
                        assert!(!adj(a, c) && adj(a, b) && adj(c, b), "hex:{n} cell {x}: ring {j}, {} a bridge", j + 2);
                    }
                }
            }
        }
    }

    /// A Black bridge c2–d3 (on Hex 5 c2 is (1, 2) and d3 (2, 3): not adjacent, common
    /// neighbours c3 and d2): White intrudes at c3, Black answers d2, and the other way round.
    /// The same stones White's: White answers, Black does not. A stone next to one end of a
    /// bridge only intrudes into nothing.
    #[test]
    fn answers_an_intrusion_in_the_other_carrier_cell() {
        let mut rng = Rng64::new(1);
        let rings = BridgeRings::hex(5);
        let (g, colour) = board(5, &["c2", "a5", "d3", "c3"]);
        assert_eq!(rings.save_bridge(&colour, cell(&g, "c3"), 0, &mut rng), Some(cell(&g, "d2")));
        let (g, colour) = board(5, &["c2", "a5", "d3", "d2"]);
        assert_eq!(rings.save_bridge(&colour, cell(&g, "d2"), 0, &mut rng), Some(cell(&g, "c3")));
        let (g, colour) = board(5, &["a5", "c2", "e5", "d3", "c3"]);
        assert_eq!(rings.save_bridge(&colour, cell(&g, "c3"), 1, &mut rng), Some(cell(&g, "d2")));
        assert_eq!(rings.save_bridge(&colour, cell(&g, "c3"), 0, &mut rng), None);
        let (g, colour) = board(5, &["c2", "a5", "d3", "e2"]);
        assert_eq!(rings.save_bridge(&colour, cell(&g, "e2"), 0, &mut rng), None);
    }

    /// A bridge already broken (the other carrier cell taken by the opponent before) has no
    /// answer; an answer cell already occupied by the mover (the two ends already joined
    /// through it) has none either.
    #[test]
    fn no_answer_when_the_bridge_is_broken_or_the_cell_occupied() {
        let mut rng = Rng64::new(2);
        let rings = BridgeRings::hex(5);
        // White took d2 earlier, then c3: the bridge c2–d3 was already broken.
        let (g, colour) = board(5, &["c2", "d2", "d3", "c3"]);
        assert_eq!(rings.save_bridge(&colour, cell(&g, "c3"), 0, &mut rng), None);
        // Black already holds d2: c2 and d3 are joined, nothing to save.
        let (g, colour) = board(5, &["c2", "a5", "d3", "e5", "d2", "c3"]);
        assert_eq!(rings.save_bridge(&colour, cell(&g, "c3"), 0, &mut rng), None);
    }

    /// Edge bridges (template II): a Black stone on row 2 with both first-row cells empty is
    /// joined to the top edge; White intruding at one first-row cell is answered at the other.
    /// Player 1's edges are left and right, so White's stone on column b is saved likewise; a
    /// stone on row 2 is not joined to a side edge it does not own.
    #[test]
    fn edge_bridges_are_saved() {
        let mut rng = Rng64::new(3);
        let rings = BridgeRings::hex(5);
        // Black c2 is (1, 2): its first-row neighbours c1 (0, 2) and d1 (0, 3).
        let (g, colour) = board(5, &["c2", "c1"]);
        assert_eq!(rings.save_bridge(&colour, cell(&g, "c1"), 0, &mut rng), Some(cell(&g, "d1")));
        let (g, colour) = board(5, &["c2", "d1"]);
        assert_eq!(rings.save_bridge(&colour, cell(&g, "d1"), 0, &mut rng), Some(cell(&g, "c1")));
        // Bottom edge: Black c4 (3, 2), its last-row neighbours b5 (4, 1) and c5 (4, 2).
        let (g, colour) = board(5, &["c4", "b5"]);
        assert_eq!(rings.save_bridge(&colour, cell(&g, "b5"), 0, &mut rng), Some(cell(&g, "c5")));
        // White b3 (2, 1) and the left edge: carrier a3 (2, 0) and a4 (3, 0).
        let (g, colour) = board(5, &["e5", "b3", "a3"]);
        assert_eq!(rings.save_bridge(&colour, cell(&g, "a3"), 1, &mut rng), Some(cell(&g, "a4")));
        // The same intrusion against Black's stone b3: the left edge is not Black's.
        let (g, colour) = board(5, &["b3", "a3"]);
        assert_eq!(rings.save_bridge(&colour, cell(&g, "a3"), 0, &mut rng), None);
        // Acute corner a1: Black a2 and the top edge, carrier a1 and b1.
        let (g, colour) = board(5, &["a2", "a1"]);
        assert_eq!(rings.save_bridge(&colour, cell(&g, "a1"), 0, &mut rng), Some(cell(&g, "b1")));
    }

    /// Two bridges intruded by one stone: each answer comes about half the time, and only
    /// those; three (the ring alternating) a third each. A one-answer position draws nothing.
    #[test]
    fn several_intruded_bridges_are_drawn_uniformly() {
        let rings = BridgeRings::hex(5);
        // White c3 (2, 2) in the middle of Black c2 (1, 2), d3 (2, 3) and b4 (3, 1): ring of
        // c3 = c2, d2, d3, c4, b4, b3; bridges c2–d3 (answer d2) and d3–b4 (answer c4), b4–c2
        // (answer b3).
        let (g, colour) = board(5, &["c2", "a5", "d3", "e5", "b4", "c3"]);
        let mut rng = Rng64::new(4);
        let mut counts = std::collections::HashMap::new();
        for _ in 0..30_000 {
            *counts.entry(rings.save_bridge(&colour, cell(&g, "c3"), 0, &mut rng).unwrap()).or_insert(0u32) += 1;
        }
        assert_eq!(counts.len(), 3);
        for name in ["d2", "c4", "b3"] {
            let k = counts[&cell(&g, name)];
            assert!((9_400..10_600).contains(&k), "{name}: {k} of 30,000");
        }
        // Two bridges: c2–d3 and d3–b4 (b3 taken by White).
        let (g, colour) = board(5, &["c2", "b3", "d3", "e5", "b4", "c3"]);
        let mut counts = std::collections::HashMap::new();
        for _ in 0..20_000 {
            *counts.entry(rings.save_bridge(&colour, cell(&g, "c3"), 0, &mut rng).unwrap()).or_insert(0u32) += 1;
        }
        assert_eq!(counts.len(), 2);
        for name in ["d2", "c4"] {
            let k = counts[&cell(&g, name)];
            assert!((9_400..10_600).contains(&k), "{name}: {k} of 20,000");
        }
        // One bridge: no random number drawn.
        let (g, colour) = board(5, &["d2", "a5", "c3", "c2"]);
        let before = rng.clone().next_u64();
        rings.save_bridge(&colour, cell(&g, "c2"), 0, &mut rng);
        assert_eq!(rng.next_u64(), before);
    }
}
