//! Inferior-cell fill-in for the exact solver: dead and captured cells (Björnsson, Hayward,
//! Johanson & van Rijswijck, "Dead cell analysis in Hex and the Shannon game", 2007;
//! Henderson, "Inferior cell analysis and search in Hex", PhD thesis, Alberta 2010; Henderson &
//! Hayward, "Captured-reversible moves and star decomposition domination in Hex", 2013).
//!
//! # Definitions
//! A *completion* of a position colours every empty cell; exactly one player then joins its
//! edges. An empty cell is *dead* when its colour decides the winner of no completion; a set of
//! empty cells is *captured* by P when P, moving second inside the set, can make every cell of
//! it P's or dead. Filling a dead cell with either colour, or a P-captured set with P, keeps the
//! value of the position with either side to move (Henderson 2010; proofs for our rules below).
//!
//! # The rules (all derived here, none copied)
//! The *ring* of an empty cell x is its six neighbours in cyclic order ([`DIRS`]); an off-board
//! neighbour counts as its edge's owner (an obtuse corner's off-board neighbour, which touches
//! both edges, as either colour; see [`Tables`]).
//!
//! - **Ring lemma.** If, for one colour C and every completion, the C-coloured ring positions
//!   form one circular run (or none), x is dead. Proof: consecutive ring positions of colour C
//!   are joined without x (two adjacent cells, a cell on that edge, or the same edge), so
//!   taking x away from C disconnects nothing of C; C's win does not depend on x, and since a
//!   completion has exactly one winner, nobody's does.
//!   The ring states where the lemma applies are exactly the three patterns below (checked over
//!   all 3⁶ states by `ring_lemma_equals_the_three_dead_patterns`):
//!   - `dead-0-4`: four consecutive ring positions of one colour;
//!   - `dead-1-3`: three consecutive of one colour and the position opposite the middle one of
//!     the other colour;
//!   - `dead-2-2`: two adjacent of one colour and the two opposite them of the other colour.
//! - **`dead-region`** (the clique-cutset rule of benzene's `ComputeDeadRegions`, with our own
//!   proof): for a colour Q and a group G of Q's stones with empty neighbourhood N, an empty
//!   cell outside N that reaches neither of Q's edges through empty cells and Q's stones without
//!   entering N ∪ G is dead: a Q chain through it meets N ∪ G on both sides of it, at two cells
//!   joined through G, so the chain can skip it. With G = ∅ this is "x lies in no component of
//!   empty cells and Q stones touching both of Q's edges" (`dead-unreachable`).
//! - **`dead-group`**: the ring lemma with C's connections through its groups: if, for a
//!   component K of C (a group of C's stones with the edges it touches, or a bare edge of C),
//!   every ring position of x is the opponent's, in K, or empty with a ring neighbour in K, then
//!   x is dead. Every C run of a completion then holds a position of K (a C stone outside K is
//!   excluded, and an empty position's K neighbour joins its run), and K joins them without x.
//!   It covers the three ring patterns (away from the obtuse corners) and adds, e.g., a cell
//!   in the bay of one group (its neighbours 0 and 2 in one group, 3, 4 and 5 the opponent's).
//! - **`capt-pair`**: two adjacent empty cells a, b such that a is ring-dead when b is P's and
//!   b is ring-dead when a is P's are captured by P: when the opponent takes one, P takes the
//!   other, and the opponent's stone is dead. It covers the edge bridge (a P stone on the
//!   second row and the two empty cells between it and P's edge) and benzene's `capt-1-3`,
//!   `capt-2-2` and `capt-5` figures.
//!
//! # Filling several at once, and pruning
//! Deadness is kept when stones are added anywhere (fewer completions), and a `capt-pair`
//! condition is kept when stones are added outside the pair (its dead tests only see more
//! stones). So one pass fills, on the same board, all dead cells (any colours), all pairs
//! captured by Black (overlapping pairs too: once one pair is Black, the cell it shares with
//! another makes that one's other cell dead), and the pairs captured by White that share no
//! cell with Black's; in that order each fill is valid on the board the earlier ones left.
//!
//! For the same reason the whole fill-in F of a position stays a valid fill-in after a move
//! outside F (`fillin_stays_valid_after_stones_elsewhere`): if the side to move wins and the
//! filled board has an empty cell, a winning move of the filled position is a winning move of
//! the real one, so the solver may prune the filled cells. When the filled board is already
//! connected for the side to move, every empty cell outside F wins (F is valid after it); when
//! F covers every empty cell there is no such move and the solver must find one by search.
//!
//! # Bit-parallel matching
//! Per board size a [`Tables`] (in a `OnceLock`) holds, for each direction, the shift that maps
//! a set of cells to the cells having a neighbour there and the off-board edge colours. One pass
//! computes the ring masks of both colours (12 shifts), and every pattern is then a few `AND`s
//! and `OR`s over whole boards: all centre cells at once, no allocation.

use std::sync::OnceLock;

use super::bitset::W6;
use super::position::Pos;
#[cfg(test)]
use super::position::MAX_N;
use super::{Bits, Geo, MAX_SIZE};

/// The six neighbour directions `(Δrow, Δcol)` in cyclic order around a cell: consecutive
/// directions point at cells adjacent to each other; direction `i + 3` is opposite `i`.
pub(crate) const DIRS: [(i32, i32); 6] = [(-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1), (0, -1)];

/// Fill-in of a position: cells whose colour can be fixed without changing the value of the
/// position for either side to move.
#[cfg_attr(not(test), allow(dead_code))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fillin<B = u64> {
    /// Stones added per colour (disjoint from the position's stones and from each other).
    pub added: [B; 2],
    /// The dead cells among them (filled with either colour; which one is recorded in `added`).
    pub dead: B,
}

impl<B: Bits> Default for Fillin<B> {
    fn default() -> Self {
        Fillin { added: [B::ZERO; 2], dead: B::ZERO }
    }
}

#[cfg_attr(not(test), allow(dead_code))]
impl<B: Bits> Fillin<B> {
    /// All filled cells.
    #[inline]
    pub fn cells(&self) -> B {
        self.added[0] | self.added[1]
    }

    /// `pos` with the fill-in's stones added (same side to move).
    #[inline]
    pub fn apply(&self, pos: &Pos<B>) -> Pos<B> {
        Pos { stones: [pos.stones[0] | self.added[0], pos.stones[1] | self.added[1]], ..*pos }
    }
}

/// The rules of the module, for counting which ones fire (tests and measurements).
#[cfg_attr(not(test), allow(dead_code))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rule {
    /// Four consecutive ring positions of one colour.
    Dead04 = 0,
    /// Three consecutive of one colour, the one opposite the middle of the other.
    Dead13 = 1,
    /// Two adjacent of one colour opposite two adjacent of the other.
    Dead22 = 2,
    /// In no component of empty cells and Q's stones touching both of Q's edges.
    DeadUnreachable = 3,
    /// Cut off from both of Q's edges by a Q group and its empty neighbourhood.
    DeadRegion = 4,
    /// A pair captured by Black.
    CaptPairBlack = 5,
    /// A pair captured by White.
    CaptPairWhite = 6,
    /// Every ring position the opponent's, in one component of C, or empty next to it.
    DeadGroup = 7,
}

/// Number of [`Rule`]s.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) const RULES: usize = 8;

/// Cells found per [`Rule`] (a cell matched by several rules in one pass counts for each).
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) type Trace = [u64; RULES];

/// Per-board-size masks for the bit-parallel ring computation.
#[derive(Debug)]
pub(crate) struct Tables<B: 'static> {
    /// The board's geometry (flood fills for the region rules).
    geo: &'static Geo<B>,
    /// `delta[i]` = index offset `Δrow·n + Δcol` of direction `i`.
    delta: [i32; 6],
    /// `valid[i]`: the cells whose neighbour in direction `i` is on the board.
    valid: [B; 6],
    /// `off[p][i]`: the cells whose neighbour in direction `i` is off the board on one of
    /// player p's edges. The two obtuse-corner positions, (−1, n) and (n, −1), touch an edge of
    /// each player and are in both colours' masks: a pattern instance uses such a position in
    /// at most one colour, and either reading is faithful (it is the same edge node as the
    /// ring position next to it of that colour; see the module doc).
    off: [[B; 6]; 2],
    /// `edge_off[p][e][i]`: the cells whose neighbour in direction `i` is off the board on
    /// player p's edge `e` (0: top / left, 1: bottom / right; the corners as in `off`).
    edge_off: [[[B; 6]; 2]; 2],
}

impl<B: IceBits> Tables<B> {
    fn build(n: usize) -> Tables<B> {
        let geo = B::geo(n);
        let z = B::ZERO;
        let mut t = Tables { geo, delta: [0; 6], valid: [z; 6], off: [[z; 6]; 2], edge_off: [[[z; 6]; 2]; 2] };
        let ni = n as i32;
        for (i, &(dr, dc)) in DIRS.iter().enumerate() {
            t.delta[i] = dr * ni + dc;
            for r in 0..ni {
                for c in 0..ni {
                    let bit = B::bit((r * ni + c) as usize);
                    let (rr, cc) = (r + dr, c + dc);
                    let row_in = (0..ni).contains(&rr);
                    let col_in = (0..ni).contains(&cc);
                    if row_in && col_in {
                        t.valid[i] |= bit;
                    } else {
                        // Black's edges are the rows −1 and n, White's the columns −1 and n;
                        // (−1, n) and (n, −1) are both.
                        if !row_in {
                            t.off[0][i] |= bit;
                            t.edge_off[0][(rr >= 0) as usize][i] |= bit;
                        }
                        if !col_in {
                            t.off[1][i] |= bit;
                            t.edge_off[1][(cc >= 0) as usize][i] |= bit;
                        }
                        if !row_in && !col_in {
                            // Off both ways: only the obtuse corners' outer neighbours, which
                            // touch both edges (already in both masks above).
                            debug_assert!((rr, cc) == (-1, ni) || (rr, cc) == (ni, -1));
                        }
                    }
                }
            }
        }
        t
    }

    /// The cells whose neighbour in direction `i` is in `s`.
    #[inline(always)]
    fn nb_in(&self, i: usize, s: B) -> B {
        let d = self.delta[i];
        let shifted = if d >= 0 { s.shr(d as u32) } else { s.shl((-d) as u32) };
        shifted & self.valid[i]
    }

    /// `ring[p][i]`: the cells whose neighbour in direction `i` is player p's stone or edge.
    #[inline(always)]
    fn rings(&self, stones: [B; 2]) -> [[B; 6]; 2] {
        std::array::from_fn(|p| std::array::from_fn(|i| self.nb_in(i, stones[p]) | self.off[p][i]))
    }
}

/// The bit-set types the fill-in runs on, each with its [`Tables`] per board side, built once:
/// `u64` (the solver's boards, n ≤ 8), `u128` (n ≤ 11) and [`W6`] (n ≤ 19), the search's.
pub(crate) trait IceBits: Bits {
    /// The [`Tables`] of board side `n` (within this type's sides), built on first use.
    fn tables(n: usize) -> &'static Tables<Self>;
}

macro_rules! ice_bits {
    ($t:ty, $max:expr) => {
        impl IceBits for $t {
            fn tables(n: usize) -> &'static Tables<$t> {
                static T: [OnceLock<Tables<$t>>; $max + 1] = [const { OnceLock::new() }; $max + 1];
                T[n].get_or_init(|| Tables::build(n))
            }
        }
    };
}
ice_bits!(u64, 8);
ice_bits!(u128, 11);
ice_bits!(W6, MAX_SIZE);

/// The `u64` [`Tables`] of board side `n` (1..=[`MAX_N`]).
#[cfg(test)]
fn tables(n: usize) -> &'static Tables<u64> {
    debug_assert!(n <= MAX_N);
    <u64 as IceBits>::tables(n)
}

/// The cells matching `dead-0-4`, `dead-1-3` and `dead-2-2` (any colour), from ring masks
/// `b` (Black stone or edge in each direction) and `w` (White). Centres are all cells; the
/// caller keeps the empty ones.
#[inline(always)]
fn dead_parts<B: Bits>(b: &[B; 6], w: &[B; 6]) -> [B; 3] {
    let (mut d04, mut d13, mut d22) = (B::ZERO, B::ZERO, B::ZERO);
    for i in 0..6 {
        let (i1, i2, i3, i4) = ((i + 1) % 6, (i + 2) % 6, (i + 3) % 6, (i + 4) % 6);
        let b3 = b[i] & b[i1] & b[i2];
        let w3 = w[i] & w[i1] & w[i2];
        d04 |= (b3 & b[i3]) | (w3 & w[i3]);
        d13 |= (b3 & w[i4]) | (w3 & b[i4]);
        d22 |= b[i] & b[i1] & w[i3] & w[i4];
    }
    [d04, d13, d22]
}

/// [`dead_parts`] united.
#[inline(always)]
fn dead_any<B: Bits>(b: &[B; 6], w: &[B; 6]) -> B {
    let [a, c, d] = dead_parts(b, w);
    a | c | d
}

/// The cells of `open` (empty cells the pairs may use) in pairs captured by `p` (`capt-pair`).
#[inline(always)]
fn captured_pairs<B: IceBits>(t: &Tables<B>, ring: &[[B; 6]; 2], open: B, p: usize) -> B {
    // dk[k]: cells that are ring-dead when their neighbour in direction k is p's.
    let mut dk = [B::ZERO; 6];
    for (k, d) in dk.iter_mut().enumerate() {
        let mut r = *ring;
        r[p][k] = !B::ZERO;
        r[1 - p][k] = B::ZERO;
        *d = dead_any(&r[0], &r[1]) & open;
    }
    let mut out = B::ZERO;
    for k in 0..3 {
        // x-cells: x and its k-neighbour y open, x dead given y = p, y dead given x = p.
        let x = dk[k] & t.nb_in(k, dk[k + 3]);
        out |= x | t.nb_in(k + 3, x);
    }
    out
}

/// The empty cells found dead by the region rules (`dead-unreachable`, `dead-region`), with
/// the trace.
fn dead_regions<B: IceBits>(t: &Tables<B>, stones: [B; 2], empty: B, trace: &mut Option<&mut Trace>) -> B {
    let g = t.geo;
    let mut dead = B::ZERO;
    for (q, &own) in stones.iter().enumerate() {
        let open = empty | own;
        let (e0, e1) = (g.edge[q][0], g.edge[q][1]);
        let f0 = g.flood(open & e0, open);
        if (f0 & e1).is_zero() {
            // Q can never connect: every empty cell is useless to Q, hence dead.
            if let Some(tr) = trace.as_deref_mut() {
                tr[Rule::DeadUnreachable as usize] += empty.count() as u64;
            }
            return empty;
        }
        let f1 = g.flood(open & e1, open);
        let unreach = empty & !(f0 & f1);
        if let Some(tr) = trace.as_deref_mut() {
            tr[Rule::DeadUnreachable as usize] += unreach.count() as u64;
        }
        dead |= unreach;
        let mut rest = own;
        while rest.any() {
            let grp = g.flood(B::bit(rest.lowest()), own);
            rest &= !grp;
            let nbh = g.grow(grp) & empty;
            let allowed = open & !(nbh | grp);
            // One flood from both edges: the union of the two floods.
            let reach = g.flood(allowed & (e0 | e1), allowed);
            let cut = empty & !nbh & !reach & !dead;
            if let Some(tr) = trace.as_deref_mut() {
                tr[Rule::DeadRegion as usize] += cut.count() as u64;
            }
            dead |= cut;
        }
    }
    dead
}

/// The empty cells found dead by `dead-group`, from the ring masks `ring` of `stones`.
fn dead_groups<B: IceBits>(t: &Tables<B>, ring: &[[B; 6]; 2], stones: [B; 2], empty: B) -> B {
    let g = t.geo;
    let er: [B; 6] = std::array::from_fn(|i| t.nb_in(i, empty));
    let mut dead = B::ZERO;
    for (c, &own) in stones.iter().enumerate() {
        let q = 1 - c;
        let reach = [g.flood(own & g.edge[c][0], own), g.flood(own & g.edge[c][1], own)];
        if (reach[0] & reach[1]).any() {
            // C is connected: nothing to gain.
            continue;
        }
        // The component K as (stones, edges touched): each edge with its reach set, then the
        // groups touching no edge.
        let mut test = |kst: B, edges: [bool; 2]| {
            let k: [B; 6] = std::array::from_fn(|i| {
                let mut m = t.nb_in(i, kst);
                for (e, &on) in edges.iter().enumerate() {
                    if on {
                        m |= t.edge_off[c][e][i];
                    }
                }
                // A corner position (both edges) is read as the opponent's only.
                m & !t.off[q][i]
            });
            let mut ok = empty;
            for i in 0..6 {
                ok &= ring[q][i] | k[i] | (er[i] & (k[(i + 5) % 6] | k[(i + 1) % 6]));
            }
            dead |= ok;
        };
        test(reach[0], [true, false]);
        test(reach[1], [false, true]);
        let mut rest = own & !(reach[0] | reach[1]);
        while rest.any() {
            let grp = g.flood(B::bit(rest.lowest()), own);
            rest &= !grp;
            test(grp, [false, false]);
        }
    }
    dead
}

/// Dead and captured cells of `pos`, filled to a fixed point (Henderson & Hayward).
/// `pos.to_move` is the side to move.
///
/// Each pass finds, on the board filled so far, the ring-dead cells, the pairs captured by
/// Black and those captured by White that do not overlap Black's (all on the same board; each
/// group of fills stays valid after the others, see the module doc), fills them, and repeats;
/// when a pass finds nothing, the slower `dead-group` and region rules are tried, and the loop
/// stops when they find nothing either (each round fills at least one cell). A dead cell is
/// given the colour of the majority of its ring (stones and edges), ties to the side to move
/// (benzene's `StoneBoard::PickColor`): which colour does not matter for the value, only for
/// the patterns it enables.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) fn fillin<B: IceBits>(pos: &Pos<B>) -> Fillin<B> {
    fillin_traced(pos, None)
}

/// [`fillin`], counting the cells each [`Rule`] finds into `trace`.
pub(crate) fn fillin_traced<B: IceBits>(pos: &Pos<B>, mut trace: Option<&mut Trace>) -> Fillin<B> {
    let t = B::tables(pos.n as usize);
    let board = t.geo.board;
    let mover = pos.to_move as usize & 1;
    let mut stones = pos.stones;
    let mut f = Fillin::default();
    loop {
        let empty = board & !(stones[0] | stones[1]);
        if empty.is_zero() {
            break;
        }
        let ring = t.rings(stones);
        let parts = dead_parts(&ring[0], &ring[1]);
        let mut dead = empty & (parts[0] | parts[1] | parts[2]);
        let cb = captured_pairs(t, &ring, empty, 0);
        let cw = captured_pairs(t, &ring, empty & !cb, 1);
        if let Some(tr) = trace.as_deref_mut() {
            for (r, m) in [Rule::Dead04, Rule::Dead13, Rule::Dead22].into_iter().zip(parts) {
                tr[r as usize] += (m & empty).count() as u64;
            }
            tr[Rule::CaptPairBlack as usize] += cb.count() as u64;
            tr[Rule::CaptPairWhite as usize] += cw.count() as u64;
        }
        if (dead | cb | cw).is_zero() {
            let groups = dead_groups(t, &ring, stones, empty);
            if let Some(tr) = trace.as_deref_mut() {
                tr[Rule::DeadGroup as usize] += groups.count() as u64;
            }
            dead = groups | dead_regions(t, stones, empty, &mut trace);
            if dead.is_zero() {
                break;
            }
        }
        // Dead cells outside the captured pairs: the majority colour of their ring.
        let mut rest = dead & !(cb | cw);
        let mut to = [cb, cw];
        while rest.any() {
            let x = rest.lowest();
            rest = rest.without_lowest();
            let count = |p: usize| ring[p].iter().map(|m| m.test(x) as u32).sum::<u32>();
            let (nb, nw) = (count(0), count(1));
            let c = if nb > nw {
                0
            } else if nw > nb {
                1
            } else {
                mover
            };
            to[c] |= B::bit(x);
        }
        for p in 0..2 {
            stones[p] |= to[p];
            f.added[p] |= to[p];
        }
        f.dead |= dead;
    }
    f
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::game::hex::{Board, Hex};
    use crate::game::Outcome;
    use crate::rng::Rng64;
    use crate::solve::hex::negamax::{solve, SolveLimits};

    /// Cell (r, c) of an n×n board as a bit.
    fn at(n: usize, r: usize, c: usize) -> u64 {
        1 << (r * n + c)
    }

    /// `pos` as a [`Hex`] game (any stone counts, the given side to move) for the reference
    /// solver.
    fn to_hex(pos: &Pos) -> Hex {
        let mut g = Hex::new(pos.n as usize, false).unwrap();
        if let Board::Small(c) = &mut g.board {
            c.stones = pos.stones;
            c.recompute_reach();
        } else {
            unreachable!("boards up to 8x8 are Small");
        }
        g.to_move = pos.to_move;
        g.ply = (pos.stones[0] | pos.stones[1]).count_ones() as u16;
        g.outcome = (0..2).find(|&p| pos.connected(p)).map(|p| Outcome::Win(p as u8));
        g
    }

    /// Brute-force negamax with a memo (exact; the winning-cell shortcuts are the rules of the
    /// game: a mover with a winning cell wins, facing two of the opponent's loses, facing one
    /// must take it).
    #[derive(Default)]
    struct Oracle {
        memo: HashMap<(u64, u64, u8), bool>,
    }

    impl Oracle {
        /// Whether the side to move wins `p` (nobody connected yet).
        fn wins(&mut self, p: &Pos) -> bool {
            let me = p.to_move as usize;
            if p.winning_cells(me) != 0 {
                return true;
            }
            let threats = p.winning_cells(1 - me);
            if threats.count_ones() >= 2 {
                return false;
            }
            let key = (p.stones[0], p.stones[1], p.to_move);
            if let Some(&w) = self.memo.get(&key) {
                return w;
            }
            let mut cand = if threats != 0 { threats } else { p.empty() };
            let mut w = false;
            while cand != 0 {
                let c = cand.trailing_zeros() as usize;
                cand &= cand - 1;
                if !self.wins(&p.play(c)) {
                    w = true;
                    break;
                }
            }
            self.memo.insert(key, w);
            w
        }

        /// The winner of `p` (possibly already connected).
        fn winner(&mut self, p: &Pos) -> usize {
            for q in 0..2 {
                if p.connected(q) {
                    return q;
                }
            }
            if self.wins(p) {
                p.to_move as usize
            } else {
                1 - p.to_move as usize
            }
        }
    }

    /// A random position of side `n` with `stones` stones dealt alternately (Black first) to
    /// random cells, nobody connected, a random side to move; `None` when it came out connected.
    fn random_pos(rng: &mut Rng64, n: usize, stones: usize) -> Option<Pos> {
        let mut p = Pos::empty_board(n);
        for k in 0..stones {
            let e = p.empty();
            let c = e.count_ones();
            if c == 0 {
                break;
            }
            let mut pick = rng.below(c);
            let mut x = e;
            while pick > 0 {
                x &= x - 1;
                pick -= 1;
            }
            p.stones[k % 2] |= 1 << x.trailing_zeros();
        }
        p.to_move = rng.below(2) as u8;
        (!p.connected(0) && !p.connected(1)).then_some(p)
    }

    /// The ring lemma on one ring state (`state[i]`: 0 Black, 1 White, 2 empty) for colour `c`:
    /// in every completion of the empty positions, c's positions form at most one circular run.
    fn ring_lemma(state: [u8; 6], c: u8) -> bool {
        let empties: Vec<usize> = (0..6).filter(|&i| state[i] == 2).collect();
        (0..1u32 << empties.len()).all(|m| {
            let mut col = state;
            for (j, &i) in empties.iter().enumerate() {
                col[i] = (m >> j & 1) as u8;
            }
            // Runs = positions of colour c whose predecessor is not c (a full ring is one run).
            let runs = (0..6).filter(|&i| col[i] == c && col[(i + 5) % 6] != c).count();
            runs <= 1
        })
    }

    #[test]
    fn ring_lemma_equals_the_three_dead_patterns() {
        let mut dead_states = 0;
        for code in 0..729u32 {
            let mut state = [0u8; 6];
            let mut x = code;
            for s in state.iter_mut() {
                *s = (x % 3) as u8;
                x /= 3;
            }
            let b: [u64; 6] = std::array::from_fn(|i| (state[i] == 0) as u64);
            let w: [u64; 6] = std::array::from_fn(|i| (state[i] == 1) as u64);
            let lemma = ring_lemma(state, 0);
            // One colour's lemma holds iff the other's does (a completion has one winner).
            assert_eq!(lemma, ring_lemma(state, 1), "{state:?}");
            assert_eq!(dead_any(&b, &w) == 1, lemma, "{state:?}");
            dead_states += lemma as u32;
        }
        assert!(dead_states > 0);
    }

    #[test]
    fn tables_mark_edges_and_corners() {
        let t = tables(3);
        // (0,0): up and up-right are Black's edge, left and down-left White's.
        assert_eq!(t.off[0][0] & 1, 1);
        assert_eq!(t.off[0][1] & 1, 1);
        assert_eq!(t.off[1][5] & 1, 1);
        assert_eq!(t.off[1][4] & 1, 1);
        assert_eq!(t.valid[2] & 1, 1);
        // (0,2), the obtuse corner: its up-right neighbour (−1,3) is both edges.
        let c = at(3, 0, 2);
        assert_ne!(t.off[0][1] & c, 0);
        assert_ne!(t.off[1][1] & c, 0);
        // Only the two obtuse corners have a position in both masks.
        let both: u64 = (0..6).map(|i| t.off[0][i] & t.off[1][i]).fold(0, |a, m| a | m);
        assert_eq!(both, at(3, 0, 2) | at(3, 2, 0));
        // The ring masks agree with the neighbour lists.
        for n in 1..=MAX_N {
            let t = tables(n);
            for cell in 0..n * n {
                let nb: u64 = (0..6).map(|i| t.nb_in((i + 3) % 6, 1 << cell)).fold(0, |a, m| a | m);
                assert_eq!(nb, t.geo.nb[cell], "n={n} cell={cell}");
            }
        }
    }

    /// Every dead cell of the first pass (ring patterns and regions) of `pos` is dead by the
    /// definition: no completion of the other empty cells has a winner depending on its colour.
    fn check_dead_by_definition(pos: &Pos) -> u32 {
        let t = tables(pos.n as usize);
        let empty = pos.empty();
        let ring = t.rings(pos.stones);
        let dead = (empty & dead_any(&ring[0], &ring[1]))
            | dead_regions(t, pos.stones, empty, &mut None)
            | dead_groups(t, &ring, pos.stones, empty);
        let mut d = dead;
        let mut checked = 0;
        while d != 0 {
            let x = d.trailing_zeros() as usize;
            d &= d - 1;
            let others: Vec<usize> = (0..64).filter(|&i| (empty & !(1 << x)) >> i & 1 == 1).collect();
            for m in 0..1u64 << others.len() {
                let mut black = pos.stones[0];
                for (j, &i) in others.iter().enumerate() {
                    black |= (m >> j & 1) << i;
                }
                let full = |bx: bool| {
                    let b = black | if bx { 1 << x } else { 0 };
                    Pos { stones: [b, pos.board() & !b], ..*pos }.connected(0)
                };
                assert_eq!(full(true), full(false), "cell {x} of {pos:?} decides a completion");
            }
            checked += 1;
        }
        checked
    }

    #[test]
    fn dead_cells_are_dead_by_definition() {
        let mut rng = Rng64::new(11);
        let mut checked = 0;
        for (n, lo, hi, count) in [(3usize, 1u32, 6u32, 300), (4, 4, 12, 400), (5, 13, 18, 150)] {
            for _ in 0..count {
                let k = (lo + rng.below(hi - lo + 1)) as usize;
                if let Some(p) = random_pos(&mut rng, n, k) {
                    checked += check_dead_by_definition(&p);
                }
            }
        }
        assert!(checked > 100, "only {checked} dead cells checked");
    }

    /// Checks 1 and 2 of the brief on `pos`: the winner is the same with the fill-in, and when
    /// the side to move wins, a cell left empty by the fill-in wins in the real position.
    fn check_position(o: &mut Oracle, pos: &Pos, trace: &mut Trace) -> Fillin {
        let f = fillin_traced(pos, Some(trace));
        assert_eq!(f.added[0] & f.added[1], 0);
        assert_eq!(f.cells() & !pos.empty(), 0);
        assert_eq!(f.dead & !f.cells(), 0);
        let filled = f.apply(pos);
        let w = o.winner(pos);
        assert_eq!(o.winner(&filled), w, "value changed by fill-in {f:?} of {pos:?}");
        // When the fill-in leaves no empty cell the filled board is full (and decided): there is
        // no unfilled move to check.
        if w == pos.to_move as usize && filled.empty() != 0 {
            let mut cand = filled.empty();
            let mut found = false;
            while cand != 0 && !found {
                let c = cand.trailing_zeros() as usize;
                cand &= cand - 1;
                let child = pos.play(c);
                found = child.connected(w) || !o.wins(&child);
            }
            assert!(found, "every winning move of {pos:?} is in the fill-in {f:?}");
        }
        f
    }

    /// Runs [`check_position`] on `count` random positions of side `n` with `lo..=hi` stones,
    /// both sides to move; returns the cells each rule filled.
    fn check_random(seed: u64, n: usize, lo: usize, hi: usize, count: usize) -> Trace {
        let mut rng = Rng64::new(seed);
        let mut o = Oracle::default();
        let mut trace: Trace = [0; RULES];
        for _ in 0..count {
            let k = lo + rng.below((hi - lo + 1) as u32) as usize;
            if let Some(p) = random_pos(&mut rng, n, k) {
                for to_move in 0..2 {
                    check_position(&mut o, &Pos { to_move, ..p }, &mut trace);
                }
            }
        }
        println!("{n}x{n}, {lo}-{hi} stones: cells per rule {trace:?}");
        trace
    }

    /// Asserts that every rule fired in `trace`.
    fn all_fired(trace: &Trace) {
        for (r, &c) in trace.iter().enumerate() {
            assert!(c > 0, "rule {r} never fired: {trace:?}");
        }
    }

    /// A random endgame of side `n`: up to `stones` random moves, alternately from a random
    /// first player, never on a cell that would connect (so nobody is connected).
    fn random_endgame(rng: &mut Rng64, n: usize, stones: usize) -> Pos {
        let mut p = Pos { to_move: rng.below(2) as u8, ..Pos::empty_board(n) };
        for _ in 0..stones {
            let cand = p.empty() & !p.winning_cells(p.to_move as usize);
            if cand == 0 {
                break;
            }
            let mut x = cand;
            for _ in 0..rng.below(cand.count_ones()) {
                x &= x - 1;
            }
            p = p.play(x.trailing_zeros() as usize);
        }
        p
    }

    #[test]
    fn fillin_keeps_the_value_and_a_winning_move_on_7x7_and_8x8_endgames() {
        let mut rng = Rng64::new(8);
        let mut o = Oracle::default();
        let mut trace: Trace = [0; RULES];
        for (n, empties) in [(7usize, 12usize), (8, 12)] {
            for _ in 0..60 {
                let p = random_endgame(&mut rng, n, n * n - empties);
                for to_move in 0..2 {
                    check_position(&mut o, &Pos { to_move, ..p }, &mut trace);
                }
            }
        }
        println!("7x7 and 8x8 endgames: cells per rule {trace:?}");
        assert!(trace.iter().sum::<u64>() > 0);
    }

    /// The fill-in of a position stays a valid fill-in after stones of either colour are added
    /// outside it (what makes the solver's pruning of filled cells safe).
    #[test]
    fn fillin_stays_valid_after_stones_elsewhere() {
        let mut rng = Rng64::new(9);
        let mut o = Oracle::default();
        let mut checked = 0;
        for _ in 0..500 {
            let n = 4 + rng.below(2) as usize;
            let k = if n == 4 { rng.below(8) } else { 8 + rng.below(8) } as usize;
            let Some(p) = random_pos(&mut rng, n, k) else { continue };
            let f = fillin(&p);
            let mut q = p;
            for _ in 0..1 + rng.below(3) {
                let free = q.empty() & !f.cells();
                if free == 0 {
                    break;
                }
                let mut x = free;
                for _ in 0..rng.below(free.count_ones()) {
                    x &= x - 1;
                }
                q.stones[rng.below(2) as usize] |= x & x.wrapping_neg();
            }
            if q.connected(0) || q.connected(1) {
                continue;
            }
            for to_move in 0..2 {
                let q = Pos { to_move, ..q };
                assert_eq!(o.winner(&q), o.winner(&f.apply(&q)), "fill-in {f:?} of {p:?} wrong in {q:?}");
            }
            checked += 1;
        }
        assert!(checked > 200, "{checked}");
    }

    #[test]
    fn fillin_keeps_the_value_and_a_winning_move_on_1x1_to_4x4() {
        check_random(10, 1, 0, 1, 10);
        check_random(11, 2, 0, 3, 100);
        check_random(1, 3, 0, 6, 300);
        all_fired(&check_random(2, 4, 0, 12, 600));
    }

    #[test]
    fn fillin_keeps_the_value_and_a_winning_move_on_5x5() {
        all_fired(&check_random(3, 5, 10, 20, 250));
    }

    #[test]
    fn fillin_keeps_the_value_and_a_winning_move_on_6x6_endgames() {
        let trace = check_random(4, 6, 20, 28, 150);
        assert!(trace.iter().sum::<u64>() > 0);
    }

    /// The same checks with the reference solver [`crate::solve::hex::negamax::solve`] (4×4, where its table
    /// is small), which also validates the brute force.
    #[test]
    fn fillin_keeps_the_value_by_the_reference_solver() {
        let mut rng = Rng64::new(5);
        let mut o = Oracle::default();
        let mut tried = 0;
        for _ in 0..200 {
            let k = rng.below(11) as usize;
            let Some(p) = random_pos(&mut rng, 4, k) else { continue };
            let f = fillin(&p);
            let filled = f.apply(&p);
            let real = solve(&to_hex(&p), SolveLimits::default()).unwrap();
            assert_eq!(real.winner as usize, o.winner(&p), "brute force vs solver on {p:?}");
            let after = solve(&to_hex(&filled), SolveLimits::default()).unwrap();
            assert_eq!(after.winner, real.winner, "value changed by {f:?} of {p:?}");
            tried += 1;
        }
        assert!(tried > 100);
    }

    #[test]
    fn every_rule_fires_in_the_random_sample() {
        let mut rng = Rng64::new(6);
        let mut trace: Trace = [0; RULES];
        for _ in 0..3000 {
            let n = 4 + rng.below(4) as usize;
            let k = rng.below((n * n) as u32 * 3 / 4) as usize;
            if let Some(p) = random_pos(&mut rng, n, k) {
                fillin_traced(&p, Some(&mut trace));
            }
        }
        println!("cells per rule {trace:?}");
        for (r, &c) in trace.iter().enumerate() {
            assert!(c > 0, "rule {r} never fired: {trace:?}");
        }
    }

    #[test]
    fn a_surrounded_cell_is_dead() {
        // 4×4, b2 = (1,1) with Black on a2? No: four consecutive neighbours of (1,1) Black:
        // (0,1) (0,2) (1,2) (2,1), White elsewhere far away.
        let n = 4;
        let black = at(n, 0, 1) | at(n, 0, 2) | at(n, 1, 2) | at(n, 2, 1);
        let pos = Pos { n: 4, stones: [black, at(n, 3, 3)], to_move: 1 };
        let mut tr: Trace = [0; RULES];
        let f = fillin_traced(&pos, Some(&mut tr));
        assert_ne!(f.dead & at(n, 1, 1), 0, "{f:?}");
        assert!(tr[Rule::Dead04 as usize] > 0);
        // Its ring is four Black stones and two empty cells: the majority colour is Black.
        assert_ne!(f.added[0] & at(n, 1, 1), 0);
    }

    #[test]
    fn a_cell_in_the_bay_of_one_group_is_dead() {
        // 5×5, x = (2,2): ring positions 0 = (1,2) and 2 = (2,3) are Black stones of one group
        // (through (0,3), (0,4), (1,4)), 1 = (1,3) is empty, 3 = (3,2), 4 = (3,1), 5 = (2,1)
        // are White.
        let n = 5;
        let black = at(n, 1, 2) | at(n, 0, 3) | at(n, 0, 4) | at(n, 1, 4) | at(n, 2, 3);
        let white = at(n, 3, 2) | at(n, 3, 1) | at(n, 2, 1);
        let pos = Pos { n: 5, stones: [black, white], to_move: 0 };
        let t = tables(n);
        let ring = t.rings(pos.stones);
        let x = at(n, 2, 2);
        // Not a ring pattern: (1,3) may be White, splitting Black's (1,2) and (2,3) in the ring.
        assert_eq!(dead_any(&ring[0], &ring[1]) & x, 0);
        assert_ne!(dead_groups(t, &ring, pos.stones, pos.empty()) & x, 0);
        // The fill-in takes x with (1,3) as a pair captured by Black (each cell is ring-dead
        // once the other is Black).
        assert_ne!(fillin(&pos).added[0] & x, 0);
        check_dead_by_definition(&pos);
    }

    #[test]
    fn the_edge_bridge_is_captured() {
        // 5×5, a Black stone on c2 = (1,2): the two top-row cells (0,2) and (0,3) between it
        // and Black's top edge are captured by Black, whoever is to move.
        let n = 5;
        for to_move in 0..2 {
            let pos = Pos { n: 5, stones: [at(n, 1, 2), at(n, 3, 1)], to_move };
            let mut tr: Trace = [0; RULES];
            let f = fillin_traced(&pos, Some(&mut tr));
            let pair = at(n, 0, 2) | at(n, 0, 3);
            assert_eq!(f.added[0] & pair, pair, "{f:?}");
            assert!(tr[Rule::CaptPairBlack as usize] >= 2);
            // The same for White on its left edge: a stone on (2,1) captures (2,0), (3,0).
            let pos = Pos { n: 5, stones: [at(n, 4, 4), at(n, 2, 1)], to_move };
            let f = fillin(&pos);
            let pair = at(n, 2, 0) | at(n, 3, 0);
            assert_eq!(f.added[1] & pair, pair, "{f:?}");
        }
        // Nothing on the empty board.
        assert_eq!(fillin(&Pos::empty_board(7)), Fillin::default());
    }

    /// Measurement (release, ignored): `cargo test --release --lib hex::ice::tests::measure -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn measure_fillin_on_7x7() {
        let mut rng = Rng64::new(7);
        let positions: Vec<Pos> = (0..20_000)
            .filter_map(|_| {
                let k = 6 + rng.below(15) as usize;
                random_pos(&mut rng, 7, k)
            })
            .collect();
        let mut trace: Trace = [0; RULES];
        let mut filled = 0u64;
        for p in &positions {
            filled += fillin_traced(p, Some(&mut trace)).cells().count_ones() as u64;
        }
        let reps = 10;
        let start = std::time::Instant::now();
        let mut sink = 0u64;
        for _ in 0..reps {
            for p in &positions {
                sink = sink.wrapping_add(std::hint::black_box(fillin(std::hint::black_box(p))).added[0]);
            }
        }
        let us = start.elapsed().as_secs_f64() * 1e6 / (reps * positions.len()) as f64;
        // The parts on the real positions: one pattern pass, and the region rules.
        let start = std::time::Instant::now();
        for _ in 0..reps {
            for p in &positions {
                let t = tables(7);
                let ring = t.rings(p.stones);
                let e = p.empty();
                let d = dead_any(&ring[0], &ring[1]) & e;
                let cb = captured_pairs(t, &ring, e, 0);
                sink = sink.wrapping_add(std::hint::black_box(d | cb | captured_pairs(t, &ring, e & !cb, 1)));
            }
        }
        let us_pass = start.elapsed().as_secs_f64() * 1e6 / (reps * positions.len()) as f64;
        let start = std::time::Instant::now();
        for _ in 0..reps {
            for p in &positions {
                let t = tables(7);
                let ring = t.rings(p.stones);
                sink = sink.wrapping_add(dead_regions(t, std::hint::black_box(p.stones), p.empty(), &mut None));
                sink = sink.wrapping_add(dead_groups(t, &ring, std::hint::black_box(p.stones), p.empty()));
            }
        }
        let us_regions = start.elapsed().as_secs_f64() * 1e6 / (reps * positions.len()) as f64;
        println!("one pattern pass {us_pass:.3} us, region and group rules {us_regions:.3} us");
        let cells = filled as f64 / positions.len() as f64;
        println!(
            "7x7, 6-20 stones, {} positions: {us:.3} us per fillin, {cells:.2} cells filled on average; cells per rule {trace:?} ({sink})",
            positions.len()
        );
    }
}
