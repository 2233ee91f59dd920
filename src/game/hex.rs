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
//! - With decisive and anti-decisive moves ([`Game::decisive_playout`]): the empty cells are
//!   shuffled the same way and played in that order move by move, except where the kept
//!   winning-cell sets offer a win (taken) or show a threat (a uniformly drawn threat is
//!   blocked); the next shuffled cell still empty is a uniformly random empty cell. Until the
//!   first threat the moves are dealt in blocks, each checked afterwards (the same moves).
//! - Filling the board ([`Game::fill_playout`], search option `fill_playouts`, as MoHex): the
//!   outcome-only split, each player's gained cells returned as sets for AMAF; recorded, they
//!   are listed alternately in an order drawn from a copy of the generator.
//!   [`Game::fill_rest`] deals the empty cells of a finished game the same way.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};
use std::sync::OnceLock;

use super::{
    cell_name, parse_cell, zobrist_key, BoardView, Game, MoveError, MoveList, MoveParseError, MoveSets, MoveSink, Outcome, Player,
    MOVE_WORDS,
};
use crate::bits::{byte_prefix_counts, mul_small, select64, select64_pre};
use crate::rng::Rng64;

pub mod dfpn;
pub(crate) mod ice;
pub(crate) mod position;
pub(crate) mod resist;
pub(crate) mod tt;
pub(crate) mod vc;

/// Largest supported board side.
pub const MAX_SIZE: usize = 19;
/// Board side of plain `hex`.
pub const DEFAULT_SIZE: usize = 11;
const MAX_CELLS: usize = MAX_SIZE * MAX_SIZE;

// ---------------------------------------------------------------------------------------------
// Bit sets
// ---------------------------------------------------------------------------------------------

/// A set of cells as a bitboard (bit `row * n + col`).
pub(crate) trait Bits:
    Copy
    + Eq
    + fmt::Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    const ZERO: Self;
    fn bit(i: usize) -> Self;
    fn shl(self, k: u32) -> Self;
    fn shr(self, k: u32) -> Self;
    fn is_zero(self) -> bool;
    fn count(self) -> u32;
    /// Index of the lowest set bit (`self` non-empty).
    fn lowest(self) -> usize;
    fn without_lowest(self) -> Self;
    /// The geometry table for side `n` (built once per size and type).
    fn geo(n: usize) -> &'static Geo<Self>;
    /// The cells of `self`, each kept independently with probability 1/2 (one random 64-bit
    /// word per word of the set that holds cells).
    fn random_half(self, rng: &mut Rng64) -> Self;
    /// Index of the `r`-th lowest set bit, counting from 0 (`r < self.count()`).
    fn select(self, r: u32) -> usize;
    /// The rows of an n×n board (n ≤ 19) into `out[..n]`, bit c = column c.
    fn to_rows(self, n: u32, out: &mut [u32; MAX_SIZE]);
    /// The set as 64-bit words, lowest cells first (1, 2 or 6 words).
    fn words(self) -> impl AsRef<[u64]>;
    /// Kogge–Stone stages that fill a whole row of this type's largest board (rows of up to
    /// 2^stages cells): 3 for n ≤ 8, 4 for n ≤ 11, 5 for n ≤ 19.
    const ROW_STAGES: usize;
    /// Flips bit `i`.
    #[inline(always)]
    fn toggle(&mut self, i: usize) {
        *self = *self ^ Self::bit(i);
    }

    #[inline(always)]
    fn test(self, i: usize) -> bool {
        !(self & Self::bit(i)).is_zero()
    }
    #[inline(always)]
    fn any(self) -> bool {
        !self.is_zero()
    }
}

macro_rules! prim_bits {
    ($t:ty, $max:expr, $stages:expr, $bit:expr, $shl:expr, $shr:expr, $rand:expr, $select:expr, $words:expr) => {
        impl Bits for $t {
            const ZERO: Self = 0;
            #[inline(always)]
            fn words(self) -> impl AsRef<[u64]> {
                ($words)(self)
            }
            const ROW_STAGES: usize = $stages;
            #[inline(always)]
            fn random_half(self, rng: &mut Rng64) -> Self {
                ($rand)(self, rng)
            }
            #[inline(always)]
            fn select(self, r: u32) -> usize {
                ($select)(self, r)
            }
            #[inline(always)]
            fn to_rows(self, n: u32, out: &mut [u32; MAX_SIZE]) {
                let mask = (1u32 << n) - 1;
                let mut x = self;
                for row in out.iter_mut().take(n as usize) {
                    *row = (x as u32) & mask;
                    x = x.shr(n);
                }
            }
            #[inline(always)]
            fn bit(i: usize) -> Self {
                ($bit)(i)
            }
            #[inline(always)]
            fn shl(self, k: u32) -> Self {
                ($shl)(self, k)
            }
            #[inline(always)]
            fn shr(self, k: u32) -> Self {
                ($shr)(self, k)
            }
            #[inline(always)]
            fn is_zero(self) -> bool {
                self == 0
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline(always)]
            fn without_lowest(self) -> Self {
                self & (self - 1)
            }
            fn geo(n: usize) -> &'static Geo<Self> {
                static TABLE: [OnceLock<Geo<$t>>; $max + 1] = [const { OnceLock::new() }; $max + 1];
                TABLE[n].get_or_init(|| Geo::build(n))
            }
        }
    };
}
prim_bits!(
    u64,
    8,
    3,
    |i: usize| 1u64 << i,
    |x: u64, k: u32| x << k,
    |x: u64, k: u32| x >> k,
    |x: u64, rng: &mut Rng64| x & rng.next_u64(),
    select64,
    |x: u64| [x]
);
// u128: a table instead of a variable 128-bit shift, and shift counts known to be below 64
// (n ≤ 11) so the compiler emits a double-word shift without the ≥ 64 case. Boards of side
// 9..=11 have more than 64 cells, so both words hold cells.
prim_bits!(
    u128,
    11,
    4,
    |i: usize| BIT128[i],
    |x: u128, k: u32| x << (k & 63),
    |x: u128, k: u32| x >> (k & 63),
    |x: u128, rng: &mut Rng64| {
        let lo = rng.next_u64() as u128;
        x & ((rng.next_u64() as u128) << 64 | lo)
    },
    select128,
    |x: u128| [x as u64, (x >> 64) as u64]
);

/// [`select64`] on two words.
#[inline(always)]
fn select128(x: u128, r: u32) -> usize {
    let (lo, hi) = (x as u64, (x >> 64) as u64);
    let pre = byte_prefix_counts(lo);
    let c = (pre >> 56) as u32;
    if r < c {
        select64_pre(lo, pre, r)
    } else {
        64 + select64_pre(hi, byte_prefix_counts(hi), r - c)
    }
}

/// `BIT128[i] = 1 << i`.
static BIT128: [u128; 128] = {
    let mut t = [0u128; 128];
    let mut i = 0;
    while i < 128 {
        t[i] = 1u128 << i;
        i += 1;
    }
    t
};

/// 384-bit set (six words) for boards of side 12..=19.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct W6([u64; 6]);

macro_rules! w6_op {
    ($tr:ident, $f:ident, $op:tt, $tra:ident, $fa:ident) => {
        impl $tr for W6 {
            type Output = W6;
            #[inline(always)]
            fn $f(self, o: W6) -> W6 {
                let mut r = [0u64; 6];
                for i in 0..6 {
                    r[i] = self.0[i] $op o.0[i];
                }
                W6(r)
            }
        }
        impl $tra for W6 {
            #[inline(always)]
            fn $fa(&mut self, o: W6) {
                for i in 0..6 {
                    self.0[i] = self.0[i] $op o.0[i];
                }
            }
        }
    };
}
w6_op!(BitAnd, bitand, &, BitAndAssign, bitand_assign);
w6_op!(BitOr, bitor, |, BitOrAssign, bitor_assign);

impl BitXor for W6 {
    type Output = W6;
    #[inline(always)]
    fn bitxor(self, o: W6) -> W6 {
        W6(std::array::from_fn(|i| self.0[i] ^ o.0[i]))
    }
}

impl Not for W6 {
    type Output = W6;
    #[inline(always)]
    fn not(self) -> W6 {
        W6(self.0.map(|w| !w))
    }
}

impl Bits for W6 {
    const ZERO: Self = W6([0; 6]);
    #[inline(always)]
    fn words(self) -> impl AsRef<[u64]> {
        self.0
    }
    const ROW_STAGES: usize = 5;
    #[inline(always)]
    fn random_half(self, rng: &mut Rng64) -> Self {
        let mut r = self.0;
        for w in r.iter_mut() {
            if *w != 0 {
                *w &= rng.next_u64();
            }
        }
        W6(r)
    }
    #[inline(always)]
    fn select(self, mut r: u32) -> usize {
        for i in 0..5 {
            let c = self.0[i].count_ones();
            if r < c {
                return 64 * i + select64(self.0[i], r);
            }
            r -= c;
        }
        320 + select64(self.0[5], r)
    }
    #[inline(always)]
    fn to_rows(self, n: u32, out: &mut [u32; MAX_SIZE]) {
        let mask = (1u32 << n) - 1;
        for (r, row) in out.iter_mut().enumerate().take(n as usize) {
            let start = r as u32 * n;
            let (i, off) = ((start >> 6) as usize, start & 63);
            let mut v = self.0[i] >> off;
            if off + n > 64 {
                v |= self.0[i + 1] << (64 - off);
            }
            *row = (v as u32) & mask;
        }
    }
    #[inline(always)]
    fn toggle(&mut self, i: usize) {
        self.0[i >> 6] ^= 1u64 << (i & 63);
    }
    #[inline(always)]
    fn bit(i: usize) -> Self {
        let mut r = [0u64; 6];
        r[i >> 6] = 1u64 << (i & 63);
        W6(r)
    }
    #[inline(always)]
    fn shl(self, k: u32) -> Self {
        if k == 0 {
            return self;
        }
        let a = self.0;
        let mut r = [0u64; 6];
        r[0] = a[0] << k;
        for i in 1..6 {
            r[i] = (a[i] << k) | (a[i - 1] >> (64 - k));
        }
        W6(r)
    }
    #[inline(always)]
    fn shr(self, k: u32) -> Self {
        if k == 0 {
            return self;
        }
        let a = self.0;
        let mut r = [0u64; 6];
        for i in 0..5 {
            r[i] = (a[i] >> k) | (a[i + 1] << (64 - k));
        }
        r[5] = a[5] >> k;
        W6(r)
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        self.0.iter().fold(0, |acc, &w| acc | w) == 0
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline(always)]
    fn lowest(self) -> usize {
        for i in 0..6 {
            if self.0[i] != 0 {
                return i * 64 + self.0[i].trailing_zeros() as usize;
            }
        }
        usize::MAX
    }
    #[inline(always)]
    fn without_lowest(self) -> Self {
        let mut r = self.0;
        for w in r.iter_mut() {
            if *w != 0 {
                *w &= *w - 1;
                break;
            }
        }
        W6(r)
    }
    fn geo(n: usize) -> &'static Geo<Self> {
        static TABLE: [OnceLock<Geo<W6>>; MAX_SIZE + 1] = [const { OnceLock::new() }; MAX_SIZE + 1];
        TABLE[n].get_or_init(|| Geo::build(n))
    }
}

/// Masks of one board size.
#[derive(Debug)]
pub(crate) struct Geo<B> {
    n: u32,
    /// All n² cells.
    board: B,
    /// All cells but column 0 / but column n−1.
    not_first: B,
    not_last: B,
    /// `edge[p][0]`, `edge[p][1]`: player p's two edges (Black: top, bottom; White: left, right).
    edge: [[B; 2]; 2],
    /// `nb[cell]`: the neighbours of `cell` (without the cell itself).
    nb: Vec<B>,
}

impl<B: Bits> Geo<B> {
    fn build(n: usize) -> Geo<B> {
        let mut g = Geo { n: n as u32, board: B::ZERO, not_first: B::ZERO, not_last: B::ZERO, edge: [[B::ZERO; 2]; 2], nb: Vec::new() };
        for r in 0..n {
            for c in 0..n {
                let b = B::bit(r * n + c);
                g.board |= b;
                if c != 0 {
                    g.not_first |= b;
                } else {
                    g.edge[1][0] |= b;
                }
                if c != n - 1 {
                    g.not_last |= b;
                } else {
                    g.edge[1][1] |= b;
                }
                if r == 0 {
                    g.edge[0][0] |= b;
                }
                if r == n - 1 {
                    g.edge[0][1] |= b;
                }
            }
        }
        g.nb = (0..n * n).map(|c| g.grow(B::bit(c)) & !B::bit(c)).collect();
        g
    }

    /// Adds stone `cell` (already in `stones`) to the reach set `reach` of edge `edge` when it
    /// touches it, with the stones it joins; returns whether `reach` changed.
    #[inline(always)]
    fn join(&self, cell: usize, stones: B, reach: &mut B, edge: B) -> bool {
        let b = B::bit(cell);
        let nbc = self.nb[cell];
        if ((nbc & *reach) | (b & edge)).is_zero() {
            return false;
        }
        let outside = stones & !*reach;
        let more = nbc & outside;
        *reach |= if more.is_zero() { b } else { self.flood(b | more, outside) };
        true
    }

    /// [`Geo::join`] on the touch set alone: `touch` = `grow(reach) | edge` (the cells on or
    /// next to an edge's reach set), the reach set being `touch & stones` (every stone next to
    /// it or on the edge is connected to it). Stone `cell`, just added to `stones`, joins when
    /// it lies in `touch`: a stone that joins alone adds its neighbour mask, a merge adds the
    /// grown flood. Returns whether it joined.
    #[inline(always)]
    fn join_touch(&self, cell: usize, stones: B, touch: &mut B) -> bool {
        let b = B::bit(cell);
        if (*touch & b).is_zero() {
            return false;
        }
        let nbc = self.nb[cell];
        // The reach set before the stone, and the stones outside it (the new one among them).
        let outside = stones & !(*touch & (stones ^ b));
        let more = nbc & outside;
        if more.is_zero() {
            *touch |= nbc;
        } else {
            *touch |= self.grow(self.flood(b | more, outside));
        }
        true
    }

    /// `x` plus all its neighbours on the board.
    #[inline(always)]
    fn grow(&self, x: B) -> B {
        let n = self.n;
        let a = x & self.not_last; // may step to c+1
        let b = x & self.not_first; // may step to c−1
        (x | x.shl(n) | x.shr(n) | a.shl(1) | a.shr(n - 1) | b.shr(1) | b.shl(n - 1)) & self.board
    }

    /// The cells of `within` connected to `seed` (`seed ⊆ within`) inside `within`.
    #[inline(always)]
    fn flood(&self, seed: B, within: B) -> B {
        let mut r = seed;
        loop {
            let g = self.grow(r) & within;
            if g == r {
                return r;
            }
            r = g;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Core position on one bitboard type
// ---------------------------------------------------------------------------------------------

/// The shortest block of moves [`Core::deal_quiet`] deals at once.
const QUIET_BLOCK_MIN: usize = 16;

/// Cell indices 0..361, copied as the empty-cell list of the empty board.
static IDENT: [u16; MAX_CELLS] = {
    let mut t = [0u16; MAX_CELLS];
    let mut i = 0;
    while i < MAX_CELLS {
        t[i] = i as u16;
        i += 1;
    }
    t
};

#[derive(Clone, Copy, Debug)]
struct Core<B: Bits + 'static> {
    geo: &'static Geo<B>,
    stones: [B; 2],
    /// `win[p]`: the empty cells where a stone of p would win at once (touching, or on, both of
    /// its edge-reach sets). Kept incrementally like `touch`: a move changes the mover's set
    /// only when it joined a reach set, and takes its cell out of the other's (Teytaud &
    /// Teytaud 2010's decisive-move test in O(1) per playout move).
    win: [B; 2],
    /// `touch[p][e]` = `grow(reach) | edge[p][e]`, where the *reach set* is player p's stones
    /// connected to its edge e: the cells where a stone of p joins that set. The reach set is
    /// `touch[p][e] & stones[p]` ([`Core::reach`]), so it is not stored. Kept while the game
    /// goes on; not maintained on a finished game (nothing reads it then).
    touch: [[B; 2]; 2],
}

impl<B: Bits> Core<B> {
    fn new(n: usize) -> Self {
        let geo = B::geo(n);
        let mut c = Core { geo, stones: [B::ZERO; 2], win: [B::ZERO; 2], touch: geo.edge };
        c.win = [c.compute_winning_cells(0), c.compute_winning_cells(1)];
        c
    }

    #[inline(always)]
    fn empty(&self) -> B {
        self.geo.board & !(self.stones[0] | self.stones[1])
    }

    /// Player p's stones connected to its edge e (its *reach set*).
    #[inline(always)]
    fn reach(&self, p: usize, e: usize) -> B {
        self.touch[p][e] & self.stones[p]
    }

    /// Places a stone of `p` on `cell`; returns whether it wins.
    #[inline(always)]
    fn place(&mut self, p: usize, cell: usize) -> bool {
        let g = self.geo;
        let b = B::bit(cell);
        self.stones[p] |= b;
        self.win[1 - p] &= !b;
        // Off both touch sets (the common case) the stone joins nothing, and its cell was not
        // a winning cell of p (those lie in both).
        if ((self.touch[p][0] | self.touch[p][1]) & b).is_zero() {
            return false;
        }
        let s = self.stones[p];
        let [t0, t1] = &mut self.touch[p];
        let (j0, j1) = (g.join_touch(cell, s, t0), g.join_touch(cell, s, t1));
        self.win[p] = self.touch[p][0] & self.touch[p][1] & self.empty();
        j0 & j1
    }

    /// The board after a swap: one White stone on `cell`.
    fn reset_to_white(&mut self, cell: usize) {
        self.stones = [B::ZERO, B::bit(cell)];
        self.recompute_reach();
    }

    fn recompute_reach(&mut self) {
        let g = self.geo;
        for p in 0..2 {
            for e in 0..2 {
                self.touch[p][e] = g.grow(g.flood(self.stones[p] & g.edge[p][e], self.stones[p])) | g.edge[p][e];
            }
        }
        self.win = [self.compute_winning_cells(0), self.compute_winning_cells(1)];
    }

    /// Empty cells where a stone of `p` would win at once (kept in `win`; valid while the game
    /// goes on).
    #[inline(always)]
    fn winning_cells(&self, p: usize) -> B {
        self.win[p]
    }

    /// [`Core::winning_cells`] from the reach sets.
    #[inline(always)]
    fn compute_winning_cells(&self, p: usize) -> B {
        let g = self.geo;
        (g.grow(self.reach(p, 0)) | g.edge[p][0]) & (g.grow(self.reach(p, 1)) | g.edge[p][1]) & self.empty()
    }

    /// The outcome of uniformly random play to the end, without playing it: deals the `e` empty
    /// cells as a uniformly random subset of ⌈e/2⌉ cells to `to_move` and the rest to the other
    /// player, and tests once whether Black connects on the full board. Returns
    /// `(winner, e, a cell of the player who got the e-th stone)` and leaves the full board in
    /// `stones` (`touch` and `win` stale). The position must not be over.
    ///
    /// Why this is the same distribution: legality never changes in Hex, so random play to the
    /// end is a uniformly random order of the empty cells, the mover taking the even positions;
    /// the mover's cells are then a uniform ⌈e/2⌉-subset. Connection is monotone and a full
    /// board has exactly one connected player, so the first player to connect during play is
    /// the one connected on the full board.
    ///
    /// The subset: each empty cell is taken with probability 1/2 independently (`random_half`),
    /// then |taken − k| cells are removed one at a time, each uniformly among the taken cells
    /// (or added, each uniformly among the empty cells not taken). Every step commutes with any
    /// permutation of the empty cells, so the result's law is invariant under all of them; it is
    /// supported on k-subsets, on which the permutations act transitively: it is uniform.
    fn split_playout(&mut self, to_move: usize, rng: &mut Rng64) -> (usize, usize, usize) {
        let (s, other, black_wins) = self.split(to_move, rng);
        self.stones[to_move] |= s;
        self.stones[1 - to_move] |= other;
        let e = s.count() + other.count();
        let last = if e & 1 == 1 { s } else { other };
        ((!black_wins) as usize, e as usize, last.lowest())
    }

    /// The random split of [`Core::split_playout`]: `(the mover's cells, the other player's
    /// cells, whether Black connects on the full board)`.
    #[inline(always)]
    fn split(&self, to_move: usize, rng: &mut Rng64) -> (B, B, bool) {
        let (s, other) = self.random_split(rng);
        let black = self.stones[0] | if to_move == 0 { s } else { other };
        let mut rows = [0u32; MAX_SIZE];
        black.to_rows(self.geo.n, &mut rows);
        let black_wins = match B::ROW_STAGES {
            3 => black_connects::<3>(&rows, self.geo.n as usize),
            4 => black_connects::<4>(&rows, self.geo.n as usize),
            _ => black_connects::<5>(&rows, self.geo.n as usize),
        };
        (s, other, black_wins)
    }

    /// The empty cells split uniformly at random into `(s, other)` with `s` holding
    /// ⌈e/2⌉ of the e cells (the cells of the player who plays first when they are dealt
    /// alternately in random order).
    #[inline(always)]
    fn random_split(&self, rng: &mut Rng64) -> (B, B) {
        let empty = self.empty();
        let e = empty.count();
        let k = e.div_ceil(2);
        let mut s = empty.random_half(rng);
        let mut c = s.count();
        while c > k {
            s.toggle(s.select(rng.below(c)));
            c -= 1;
        }
        if c < k {
            let mut free = empty & !s;
            let mut f = e - c;
            while c < k {
                let i = free.select(rng.below(f));
                free.toggle(i);
                s.toggle(i);
                c += 1;
                f -= 1;
            }
        }
        (s, empty & !s)
    }

    /// The empty cells in a uniformly random order into `cells[..e]`; returns e (> 0: the game
    /// goes on).
    #[inline(always)]
    fn shuffled_empty(&self, rng: &mut Rng64, cells: &mut [u16; MAX_CELLS]) -> usize {
        let g = self.geo;
        let n2 = (g.n * g.n) as usize;
        let empty = self.empty();
        let e = if empty == g.board {
            cells[..n2].copy_from_slice(&IDENT[..n2]);
            n2
        } else {
            list_cells(empty, cells)
        };
        debug_assert!(e > 0);
        shuffle(&mut cells[..e], rng);
        e
    }

    /// Plays the empty cells in uniformly random order, `to_move` first, alternating, until a
    /// player connects; returns `(winner, moves played, last cell)`, pushes the moves to `trace`
    /// and leaves the position reached in `stones` (`touch` and `win` stale: the game is over). The
    /// position must not be over.
    ///
    /// The shuffled cells dealt alternately make a full board; one row sweep
    /// ([`black_connects`]) finds its winner, then only the winner's stones are added in order
    /// with the incremental edge-reach check ([`Geo::join`]) until it connects. The loser never
    /// connects on the way (connection is monotone and it is not connected on the full board),
    /// so this is the first connection of the game. Half the incremental checks of playing both
    /// colours: 15% fewer cycles on 11×11, 40% on 19×19, the same on 7×7.
    fn deal_playout<T: MoveSink<u16>>(&mut self, to_move: usize, rng: &mut Rng64, trace: &mut T) -> (usize, usize, u16) {
        let g = self.geo;
        let n = g.n;
        let mut cells = [0u16; MAX_CELLS];
        let e = self.shuffled_empty(rng, &mut cells);
        // Black's cells: even positions when Black moves first, odd ones otherwise.
        let mut black = self.stones[0];
        let mut i = to_move;
        while i < e {
            black.toggle(cells[i] as usize);
            i += 2;
        }
        let mut rows = [0u32; MAX_SIZE];
        black.to_rows(n, &mut rows);
        let black_wins = match B::ROW_STAGES {
            3 => black_connects::<3>(&rows, n as usize),
            4 => black_connects::<4>(&rows, n as usize),
            _ => black_connects::<5>(&rows, n as usize),
        };
        let w = (!black_wins) as usize;
        let mut i = (w != to_move) as usize;
        let (st, en) = (g.edge[w][0], g.edge[w][1]);
        let mut stones = self.stones[w];
        let mut reach = self.reach(w, 0);
        let k = loop {
            // The winner connects by its last cell at the latest.
            let c = cells[i] as usize;
            stones.toggle(c);
            if g.join(c, stones, &mut reach, st) && (reach & en).any() {
                break i + 1;
            }
            i += 2;
        };
        self.stones[w] = stones;
        let mut lost = self.stones[1 - w];
        let mut i = (w == to_move) as usize;
        while i < k {
            lost.toggle(cells[i] as usize);
            i += 2;
        }
        self.stones[1 - w] = lost;
        if T::RECORDS {
            for &c in &cells[..k] {
                trace.push(c);
            }
        }
        (w, k, cells[k - 1])
    }

    /// [`Game::decisive_playout`] on the core: the empty cells are shuffled once (as
    /// [`Core::deal_playout`]) and each move is a decisive move (the lowest cell of `win[me]`),
    /// else an anti-decisive one (a uniformly drawn cell of `win[other]`), else the next cell of
    /// the shuffled list still empty; each is placed with [`Core::place`], which keeps the
    /// winning cells of both players and says when the game is won. Returns `(winner, moves
    /// played, last move)`. The game must not be over.
    ///
    /// With `QUIET` the moves before the first threat are dealt in blocks ([`Core::deal_quiet`]):
    /// the same moves, so the same game and the same random numbers as without it (test
    /// `quiet_blocks_play_the_same_games`). In a decisive playout from the empty 11×11 board
    /// the first threat comes at move 93 of 98 on average.
    ///
    /// Why the list gives uniformly random moves: the shuffled list is a uniformly random order
    /// of the cells that were empty; given the cells taken so far (dealt from the list or forced,
    /// the forced ones decided by the board and by the threat draws, which do not read the
    /// list), the rest of the list is a uniformly random order of the cells not dealt, so its
    /// first cell still empty is uniform over the empty cells, as a uniform draw from the
    /// legal moves at that move would be.
    fn decisive_playout<T: MoveSink<u16>, const QUIET: bool>(
        &mut self,
        to_move: usize,
        rng: &mut Rng64,
        decisive: bool,
        anti: bool,
        trace: &mut T,
        counts: &mut [u64; 2],
    ) -> (usize, usize, u16) {
        let mut cells = [0u16; MAX_CELLS];
        let e = self.shuffled_empty(rng, &mut cells);
        // The moves are kept in a local array and appended once; the position in a local copy
        // and the two players' moves unrolled, so that the player is a constant in each and
        // the bitboards stay in registers.
        let mut played = [0u16; MAX_CELLS];
        let mut pos = *self;
        let quiet = if QUIET { pos.deal_quiet(&cells[..e], to_move) } else { 0 };
        played[..quiet].copy_from_slice(&cells[..quiet]);
        let mut k = quiet;
        let mut next = quiet;
        let mut w = 2;
        if (to_move ^ quiet) & 1 == 1 && pos.decisive_step::<1>(rng, decisive, anti, &cells, &mut next, &mut played, &mut k, counts) {
            w = 1;
        }
        while w == 2 {
            if pos.decisive_step::<0>(rng, decisive, anti, &cells, &mut next, &mut played, &mut k, counts) {
                w = 0;
            } else if pos.decisive_step::<1>(rng, decisive, anti, &cells, &mut next, &mut played, &mut k, counts) {
                w = 1;
            }
        }
        debug_assert!(k <= e);
        *self = pos;
        if T::RECORDS {
            trace.push_all(&played[..k]);
        }
        (w, k, played[k - 1])
    }

    /// The first moves of [`Core::decisive_playout`] while nobody threatens to win: plays
    /// `cells` from the start, `to_move` first, alternating, in blocks, and returns how many it
    /// played (0 when a player already threatens).
    ///
    /// While neither player has a winning cell, every move of a decisive playout is the next
    /// cell of the list, so a block of them is dealt at once and checked afterwards: each
    /// touch set grows monotonically, so a cell that is a winning cell of p at some move of
    /// the block lies in both of p's touch sets at its end and was empty at its start. When no
    /// cell is both, no move of the block was forced (and none won: a winning move is played
    /// on a winning cell), and the block stands; otherwise the block is dropped and tried
    /// again half as long. The touch sets at a block's end: each reach set flooded from its
    /// stones in the old touch set.
    #[inline(always)]
    fn deal_quiet(&mut self, cells: &[u16], to_move: usize) -> usize {
        if (self.win[0] | self.win[1]).any() {
            return 0;
        }
        let g = self.geo;
        let e = cells.len();
        let mut k = 0;
        let mut len = e / 2;
        loop {
            len = len.min((e - k) / 2);
            if len < QUIET_BLOCK_MIN {
                return k;
            }
            let mut stones = self.stones;
            deal_alternately(&mut stones, (to_move ^ k) & 1, &cells[k..k + len]);
            let mut touch = self.touch;
            for p in 0..2 {
                for t in &mut touch[p] {
                    let seed = *t & stones[p];
                    if seed != *t & self.stones[p] {
                        *t |= g.grow(g.flood(seed, stones[p]));
                    }
                }
            }
            let threats = (touch[0][0] & touch[0][1]) | (touch[1][0] & touch[1][1]);
            if (threats & self.empty()).any() {
                len /= 2;
            } else {
                self.stones = stones;
                self.touch = touch;
                k += len;
            }
        }
    }

    /// One move of [`Core::decisive_playout`] by player `P`: a decisive move, else an
    /// anti-decisive one, else the next cell of `cells` still empty (from `next` on); appends
    /// it to `played` at `k` and returns whether it wins.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn decisive_step<const P: usize>(
        &mut self,
        rng: &mut Rng64,
        decisive: bool,
        anti: bool,
        cells: &[u16; MAX_CELLS],
        next: &mut usize,
        played: &mut [u16; MAX_CELLS],
        k: &mut usize,
        counts: &mut [u64; 2],
    ) -> bool {
        let c = if decisive && self.win[P].any() {
            counts[0] += 1;
            self.win[P].lowest()
        } else if anti && self.win[1 - P].any() {
            counts[1] += 1;
            let t = self.win[1 - P];
            t.select(rng.index(t.count() as usize) as u32)
        } else {
            let taken = self.stones[0] | self.stones[1];
            // The game ends before the board is full (a full board is won), so an empty cell
            // is always left in the list.
            while taken.test(cells[*next] as usize) {
                *next += 1;
            }
            *next += 1;
            cells[*next - 1] as usize
        };
        played[*k] = c as u16;
        *k += 1;
        self.place(P, c)
    }

    /// Whether Black connects its two edges with the stones of `black` (a full board: exactly
    /// one player does), by the row sweep of [`black_connects`].
    #[inline(always)]
    fn black_connects_on(&self, black: B) -> bool {
        let n = self.geo.n;
        let mut rows = [0u32; MAX_SIZE];
        black.to_rows(n, &mut rows);
        match B::ROW_STAGES {
            3 => black_connects::<3>(&rows, n as usize),
            4 => black_connects::<4>(&rows, n as usize),
            _ => black_connects::<5>(&rows, n as usize),
        }
    }

    /// Ends a *fill playout*: `moves` (cells, `first` moves first, alternating) fill the board
    /// of a position that is not over; places their stones (no connection bookkeeping) and
    /// finds the first connection of that game as
    /// [`Core::deal_playout`] does: the winner of the full board by one row sweep, then the
    /// winner's stones alone added in order to its first edge's reach set ([`Geo::join`]) until
    /// it reaches the second edge; the loser never connects on the way (connection is
    /// monotone). Takes the moves after that one off the board and returns
    /// `(winner, moves actually played)`. `touch` must be the sets of the position before the
    /// fill; afterwards `touch` and `win` are stale (the game is over).
    fn settle_fill(&mut self, first: usize, moves: &[u16]) -> (usize, usize) {
        let g = self.geo;
        let before = self.stones;
        deal_alternately(&mut self.stones, first, moves);
        let w = (!self.black_connects_on(self.stones[0])) as usize;
        // The winner's stones before the fill.
        let mut stones = before[w];
        let i0 = (w != first) as usize;
        let (st, en) = (g.edge[w][0], g.edge[w][1]);
        let mut reach = self.touch[w][0] & stones;
        let mut i = i0;
        let k = loop {
            // The winner connects by its last cell at the latest (it is connected on the full board).
            let c = moves[i] as usize;
            stones.toggle(c);
            if g.join(c, stones, &mut reach, st) && (reach & en).any() {
                break i + 1;
            }
            i += 2;
        };
        let mut later = B::ZERO;
        for &c in &moves[k..] {
            later.toggle(c as usize);
        }
        self.stones[0] &= !later;
        self.stones[1] &= !later;
        (w, k)
    }
}

/// Places `cells` (empty) on `stones` alternately: player `first` takes those at even
/// positions, the other player the rest.
#[inline(always)]
fn deal_alternately<B: Bits>(stones: &mut [B; 2], first: usize, cells: &[u16]) {
    // Into two local sets, then onto `stones` once: toggled in place (`stones[first]`, an index
    // known only at run time) every cell was a load and a store to memory, each waiting on the
    // last (a third of `settle_fill` in a profile of an lgr search).
    let (mut mine, mut theirs) = (B::ZERO, B::ZERO);
    let mut pairs = cells.chunks_exact(2);
    for p in &mut pairs {
        mine.toggle(p[0] as usize);
        theirs.toggle(p[1] as usize);
    }
    if let [c] = pairs.remainder() {
        mine.toggle(*c as usize);
    }
    stones[first] = stones[first] ^ mine;
    stones[1 - first] = stones[1 - first] ^ theirs;
}

/// The cells of one board row (bit c = column c) connected inside the row, i.e. the runs of
/// `row`, to a cell of `seeds`: upwards in column by one addition (the carry of `row + s` runs
/// from each seed to the end of its run), downwards by a Kogge–Stone occluded fill whose
/// propagators `p[j]` (cells followed by 2^j − 1 more cells of the row) depend on the row
/// only, and are computed here as it goes (one shift and one AND each: cheaper than a table of
/// them per row, which cost a 304-byte zeroing per sweep). `S` stages reach 2^S − 1 cells back.
#[inline(always)]
fn row_fill<const S: usize>(row: u32, seeds: u32) -> u32 {
    let s = seeds & row;
    let mut g = s | (((row + s) ^ row) & row);
    let mut pj = row;
    for j in 0..S {
        if j > 0 {
            pj &= pj >> (1u32 << (j - 1));
        }
        g |= pj & (g >> (1u32 << j));
    }
    g
}

/// Whether Black's cells (`black[r]`: row r, bit c = column c) join the top row to the bottom
/// row of an n×n board. Row sweeps: a downward pass grows the top-connected set row by row
/// (cell (r, c) touches (r−1, c) and (r−1, c+1)), an upward pass grows it back up (cell (r, c)
/// touches (r+1, c−1) and (r+1, c)), each row filled along its runs by [`row_fill`]; the passes
/// alternate until the bottom row is reached or an upward pass adds nothing (then every row is
/// closed under both neighbour rows: the set is the whole top-connected group). An upward pass
/// only breaks the downward closure below the rows it changed, so the next downward pass starts
/// under the topmost changed row.
fn black_connects<const S: usize>(black: &[u32; MAX_SIZE], n: usize) -> bool {
    let last = n - 1;
    let mut reach = [0u32; MAX_SIZE];
    reach[0] = black[0]; // every Black cell of the top row touches the top edge
    if reach[0] == 0 {
        return false;
    }
    let mut from = 1;
    loop {
        let mut r = from;
        while r <= last {
            let a = reach[r - 1];
            let x = row_fill::<S>(black[r], reach[r] | a | (a >> 1));
            if x == 0 {
                break; // nothing below is reached either
            }
            reach[r] = x;
            r += 1;
        }
        if r > last {
            return true;
        }
        let lo = r - 1; // the lowest reached row
        let mut top = usize::MAX;
        for r in (0..lo).rev() {
            let b = reach[r + 1];
            let old = reach[r];
            let x = row_fill::<S>(black[r], old | b | (b << 1));
            if x != old {
                reach[r] = x;
                top = r;
            }
        }
        if top == usize::MAX {
            return false;
        }
        from = top + 1;
    }
}

/// The cells of a set in ascending order into `out`; returns how many. Word by word: on the
/// two-word boards a `u128` lowest-bit loop cost twice the instructions.
#[inline(always)]
fn list_cells<B: Bits>(x: B, out: &mut [u16]) -> usize {
    let mut k = 0;
    for (wi, &w) in x.words().as_ref().iter().enumerate() {
        let base = (wi * 64) as u16;
        let mut w = w;
        while w != 0 {
            out[k] = base + w.trailing_zeros() as u16;
            w &= w - 1;
            k += 1;
        }
    }
    k
}

/// Unbiased Fisher–Yates shuffle drawing up to six indices from one 64-bit word: the word times
/// the product P of the ranges, read as a mixed-radix number, gives the indices; the low word
/// is rejected when below 2⁶⁴ mod P (Lemire's method for range P). Brackett-Rozinsky & Lemire,
/// "Batched Ranged Random Integer Generation", Software: Practice and Experience, 2024.
#[inline(always)]
fn shuffle(c: &mut [u16], rng: &mut Rng64) {
    let len = c.len();
    let mut i = 0;
    // Batches of six ranges n0, n0−1, …, n0−5 (all ≥ 2); 361⁶ < 2⁵², so P fits in 64 bits.
    while len - i > 6 {
        let n0 = (len - i) as u64;
        let bound = n0 * (n0 - 1) * (n0 - 2) * (n0 - 3) * (n0 - 4) * (n0 - 5);
        let d = loop {
            let mut x = rng.next_u64();
            let mut d = [0usize; 6];
            for (j, slot) in d.iter_mut().enumerate() {
                let (hi, lo) = mul_small(x, n0 - j as u64);
                *slot = hi as usize;
                x = lo;
            }
            if x < bound && x < bound.wrapping_neg() % bound {
                continue;
            }
            break d;
        };
        for (j, &dj) in d.iter().enumerate() {
            c.swap(i + j, i + j + dj);
        }
        i += 6;
    }
    while i + 1 < len {
        let j = i + rng.index(len - i);
        c.swap(i, j);
        i += 1;
    }
}

// ---------------------------------------------------------------------------------------------
// The game
// ---------------------------------------------------------------------------------------------

/// The position on the smallest bitboard type that holds it. Not boxed: a position is plain
/// data the search clones every iteration, and a box would allocate on every clone.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug)]
enum Board {
    Small(Core<u64>),
    Medium(Core<u128>),
    Large(Core<W6>),
}

macro_rules! with_core {
    ($b:expr, $c:ident => $body:expr) => {
        match $b {
            Board::Small($c) => $body,
            Board::Medium($c) => $body,
            Board::Large($c) => $body,
        }
    };
}

/// Adds to each player's set of `sets` the cells that player gained from `before` to `after`
/// (each side's stones): a playout's moves from the board's difference.
#[inline(always)]
fn add_gained<B: Bits>(sets: &mut MoveSets, before: [B; 2], after: [B; 2]) {
    for ((set, &now), &was) in sets.by.iter_mut().zip(&after).zip(&before) {
        for (s, a) in set.iter_mut().zip(stone_words(now & !was)) {
            *s |= a;
        }
    }
}

/// The cells of `b` as [`MOVE_WORDS`] 64-bit words (cell i = bit i % 64 of word i / 64).
#[inline(always)]
fn stone_words<B: Bits>(b: B) -> [u64; MOVE_WORDS] {
    let mut out = [0u64; MOVE_WORDS];
    for (o, w) in out.iter_mut().zip(b.words().as_ref()) {
        *o = *w;
    }
    out
}

/// Zobrist keys: `KEYS[p][cell]` for a stone of player p.
static KEYS: [[u64; MAX_CELLS]; 2] = {
    let mut t = [[0u64; MAX_CELLS]; 2];
    let mut p = 0;
    while p < 2 {
        let mut c = 0;
        while c < MAX_CELLS {
            t[p][c] = zobrist_key(0x4E58_0000 + (p as u64) * 1024 + c as u64);
            c += 1;
        }
        p += 1;
    }
    t
};
/// Key XORed in when White (player 1) is to move.
const SIDE_KEY: u64 = zobrist_key(0x4E58_FFFF);

/// A Hex position. Moves are `u16`: a cell index `row * n + col`, or `n²` for the swap move.
#[derive(Clone, Debug)]
pub struct Hex {
    size: u8,
    swap: bool,
    to_move: Player,
    ply: u16,
    outcome: Option<Outcome>,
    last: Option<u16>,
    hash: u64,
    /// Set by the fast playout, which skips the incremental hash; `hash()` then recomputes it.
    hash_stale: bool,
    board: Board,
}

/// Why the options after `hex:` (or a board size) were refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HexOptionError {
    /// The size is not in `1..=MAX_SIZE` (19); `size` is the option as written.
    #[error("size {} out of range: Hex sizes are 1 to {MAX_SIZE}", crate::limits::abbreviate(size))]
    SizeOutOfRange {
        /// The size as written.
        size: String,
    },
    /// An option is empty (a stray `:`).
    #[error("empty option (expected hex, hex:N or hex:N:swap)")]
    EmptyOption,
    /// `swap` appears twice.
    #[error("option 'swap' given twice")]
    SwapTwice,
    /// Two sizes; `size` is the second.
    #[error("size given twice ('{}')", crate::limits::abbreviate(size))]
    SizeTwice {
        /// The second size as written.
        size: String,
    },
    /// An option that is neither a size nor `swap`.
    #[error("unknown option '{}' (expected a size from 1 to {MAX_SIZE}, or 'swap')", crate::limits::abbreviate(option))]
    UnknownOption {
        /// The option as written.
        option: String,
    },
}

impl Hex {
    /// The empty n×n board, Black to move.
    ///
    /// # Errors
    /// [`HexOptionError::SizeOutOfRange`] for `size` outside `1..=19` ("size 20 out of range: Hex sizes are 1 to 19").
    pub fn new(size: usize, swap: bool) -> Result<Hex, HexOptionError> {
        if !(1..=MAX_SIZE).contains(&size) {
            return Err(HexOptionError::SizeOutOfRange { size: size.to_string() });
        }
        let board = if size <= 8 {
            Board::Small(Core::new(size))
        } else if size <= 11 {
            Board::Medium(Core::new(size))
        } else {
            Board::Large(Core::new(size))
        };
        Ok(Hex { size: size as u8, swap, to_move: 0, ply: 0, outcome: None, last: None, hash: 0, hash_stale: false, board })
    }

    /// Builds from the options after `hex:` in a spec string: an optional size `N` (default 11)
    /// and an optional `swap`, e.g. `["7"]`, `["11", "swap"]`, `[]`.
    ///
    /// # Errors
    /// [`HexOptionError`] naming the problem: "size 20 out of range 1..=19", "unknown option 'foo'",
    /// "size given twice", "empty option".
    pub fn from_options(opts: &[&str]) -> Result<Hex, HexOptionError> {
        let mut size: Option<usize> = None;
        let mut swap = false;
        for raw in opts {
            let o = raw.trim();
            if o.is_empty() {
                return Err(HexOptionError::EmptyOption);
            }
            if o.eq_ignore_ascii_case("swap") {
                if swap {
                    return Err(HexOptionError::SwapTwice);
                }
                swap = true;
            } else if o.bytes().all(|b| b.is_ascii_digit()) {
                if size.is_some() {
                    return Err(HexOptionError::SizeTwice { size: o.to_string() });
                }
                let n: usize = o.parse().unwrap_or(usize::MAX);
                if !(1..=MAX_SIZE).contains(&n) {
                    return Err(HexOptionError::SizeOutOfRange { size: o.to_string() });
                }
                size = Some(n);
            } else {
                return Err(HexOptionError::UnknownOption { option: o.to_string() });
            }
        }
        Hex::new(size.unwrap_or(DEFAULT_SIZE), swap)
    }

    /// Board side n.
    pub fn size(&self) -> usize {
        self.size as usize
    }

    /// Whether the swap rule is on.
    pub fn swap_enabled(&self) -> bool {
        self.swap
    }

    /// The dense index (and move) of the swap move, n² (a move only with the swap option).
    pub fn swap_move(&self) -> u16 {
        (self.size as u16) * (self.size as u16)
    }

    /// A random playout's first move when the swap rule offers it (ply 1): the swap, drawn with
    /// probability 1/(legal moves) as a uniform move would be, and played; `None` (nothing
    /// played, one draw made) otherwise, or no draw when the swap is not legal.
    fn draw_swap(&mut self, rng: &mut Rng64) -> Option<u16> {
        if !self.swap_legal() {
            return None;
        }
        let legal = self.legal_count();
        (rng.index(legal) == legal - 1).then(|| {
            let m = self.swap_move();
            self.play_unchecked(m);
            m
        })
    }

    /// The stone on `cell` (`row * n + col`), if any; `None` also for cells off the board.
    pub fn stone_at(&self, cell: usize) -> Option<Player> {
        if cell >= self.cells() {
            return None;
        }
        with_core!(&self.board, c => {
            if c.stones[0].test(cell) {
                Some(0)
            } else if c.stones[1].test(cell) {
                Some(1)
            } else {
                None
            }
        })
    }

    /// The neighbours of `cell` in ascending order (empty for cells off the board):
    /// (r−1,c) (r−1,c+1) (r,c−1) (r,c+1) (r+1,c−1) (r+1,c) where on the board.
    pub fn neighbours(&self, cell: usize) -> Vec<usize> {
        if cell >= self.cells() {
            return Vec::new();
        }
        with_core!(&self.board, c => {
            let mut x = c.geo.nb[cell];
            let mut v = Vec::with_capacity(6);
            while x.any() {
                v.push(x.lowest());
                x = x.without_lowest();
            }
            v
        })
    }

    #[inline(always)]
    fn cells(&self) -> usize {
        self.size as usize * self.size as usize
    }

    fn swap_legal(&self) -> bool {
        self.swap && self.ply == 1 && self.outcome.is_none()
    }

    fn play_swap(&mut self) {
        let n = self.size as usize;
        let s = with_core!(&self.board, c => c.stones[0].lowest());
        let t = (s % n) * n + s / n;
        with_core!(&mut self.board, c => c.reset_to_white(t));
        self.hash ^= KEYS[0][s] ^ KEYS[1][t] ^ SIDE_KEY;
        self.to_move = 0;
        self.ply += 1;
        self.last = Some(self.swap_move());
    }

    /// The cell the last move put a stone on (for a swap, the mirrored stone).
    fn last_cell(&self) -> Option<usize> {
        let m = self.last? as usize;
        if m == self.cells() {
            with_core!(&self.board, c => Some(c.stones[1].lowest()))
        } else {
            Some(m)
        }
    }

    /// One shortest path of the winner's stones from its first edge to its second (breadth-first
    /// search inside the winning group), in order from the first edge; empty while the game goes on.
    fn winning_path(&self) -> Vec<usize> {
        let Some(Outcome::Win(p)) = self.outcome else { return Vec::new() };
        let n = self.size as usize;
        let mine = |cell: usize| self.stone_at(cell) == Some(p);
        let on_start = |r: usize, c: usize| if p == 0 { r == 0 } else { c == 0 };
        let on_end = |r: usize, c: usize| if p == 0 { r == n - 1 } else { c == n - 1 };
        let mut prev = vec![usize::MAX; n * n];
        let mut seen = vec![false; n * n];
        let mut queue = std::collections::VecDeque::new();
        for (cell, seen) in seen.iter_mut().enumerate() {
            if mine(cell) && on_start(cell / n, cell % n) {
                *seen = true;
                queue.push_back(cell);
            }
        }
        const D: [(isize, isize); 6] = [(-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)];
        while let Some(cell) = queue.pop_front() {
            let (r, c) = (cell / n, cell % n);
            if on_end(r, c) {
                let mut path = vec![cell];
                let mut x = cell;
                while prev[x] != usize::MAX {
                    x = prev[x];
                    path.push(x);
                }
                path.reverse();
                return path;
            }
            for (dr, dc) in D {
                let (rr, cc) = (r as isize + dr, c as isize + dc);
                if rr < 0 || cc < 0 || rr >= n as isize || cc >= n as isize {
                    continue;
                }
                let nb = rr as usize * n + cc as usize;
                if !seen[nb] && mine(nb) {
                    seen[nb] = true;
                    prev[nb] = cell;
                    queue.push_back(nb);
                }
            }
        }
        Vec::new()
    }

    /// Pushes the cells of a set in ascending order, one 64-bit word at a time (on 11×11,
    /// `u128` lowest-bit steps cost twice the instructions).
    #[inline]
    fn push_cells<B: Bits>(x: B, out: &mut MoveList<u16>) {
        for (k, &word) in x.words().as_ref().iter().enumerate() {
            let mut w = word;
            while w != 0 {
                out.push((k * 64) as u16 + w.trailing_zeros() as u16);
                w &= w - 1;
            }
        }
    }
}

impl Game for Hex {
    type Move = u16;

    fn spec(&self) -> String {
        if self.swap {
            format!("hex:{}:swap", self.size)
        } else {
            format!("hex:{}", self.size)
        }
    }
    fn move_space(&self) -> usize {
        self.cells() + self.swap as usize
    }
    fn move_index(&self, m: u16) -> usize {
        m as usize
    }
    fn move_from_index(&self, index: usize) -> Option<u16> {
        (index < self.move_space()).then_some(index as u16)
    }
    fn to_move(&self) -> Player {
        self.to_move
    }
    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    fn ply(&self) -> usize {
        self.ply as usize
    }

    fn legal_moves(&self, out: &mut MoveList<u16>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        with_core!(&self.board, c => Hex::push_cells(c.empty(), out));
        if self.swap_legal() {
            out.push(self.swap_move());
        }
    }

    fn legal_move_set(&self, out: &mut [u64; MOVE_WORDS]) {
        if self.outcome.is_some() {
            *out = [0; MOVE_WORDS];
            return;
        }
        *out = with_core!(&self.board, c => stone_words(c.empty()));
        if self.swap_legal() {
            let i = self.swap_move() as usize;
            out[i / 64] |= 1 << (i % 64);
        }
    }

    fn legal_count(&self) -> usize {
        if self.outcome.is_some() {
            return 0;
        }
        with_core!(&self.board, c => c.empty().count() as usize) + self.swap_legal() as usize
    }

    fn nth_legal(&self, i: usize) -> Option<u16> {
        if self.outcome.is_some() {
            return None;
        }
        let empty = with_core!(&self.board, c => {
            let e = c.empty();
            let k = e.count() as usize;
            if i < k {
                return Some(e.select(i as u32) as u16);
            }
            k
        });
        (i == empty && self.swap_legal()).then(|| self.swap_move())
    }

    /// A stone is placed on an empty cell and nothing else changes, except the swap move (legal
    /// at ply 1 only, with the swap rule).
    fn legal_moves_only_shrink(&self) -> bool {
        !self.swap || self.ply >= 2
    }

    /// While the game goes on and no swap move can come (no swap rule, or ply ≥ 2): a Hex
    /// board filled to the end has exactly one connected player, the first to connect.
    fn fill_playouts(&self) -> bool {
        self.outcome.is_none() && self.legal_moves_only_shrink()
    }

    /// The rings of this board's side ([`BridgeRings::hex`]), for save-bridge playouts.
    fn bridge_rings(&self) -> Option<&'static super::BridgeRings> {
        Some(super::BridgeRings::hex(self.size as usize))
    }

    /// [`Core::settle_fill`]: the stones placed (one bit each), one row sweep for the winner
    /// of the full board, then the winner's stones in order until it connects; the later
    /// stones are taken off.
    fn settle_fill(&mut self, moves: &[u16]) -> (Outcome, usize) {
        debug_assert!(!moves.is_empty() && self.outcome.is_none());
        let first = self.to_move as usize;
        let (w, k) = with_core!(&mut self.board, c => c.settle_fill(first, moves));
        self.ply += k as u16;
        self.to_move = ((first + k) & 1) as Player;
        self.last = Some(moves[k - 1]);
        self.outcome = Some(Outcome::Win(w as Player));
        self.hash_stale = true;
        (Outcome::Win(w as Player), k)
    }

    /// [`Core::decisive_playout`]; `None` while a swap move can still come (the caller plays
    /// move by move then). `sets` is the board's difference (the cells are distinct). Not
    /// inlined: inlined into the policy's playout, V8 compiled its loop 12 % slower
    /// (`tests/bench/wasm-ratio.mjs`, preset best).
    #[inline(never)]
    fn decisive_playout<T: MoveSink<u16>>(
        &mut self,
        rng: &mut Rng64,
        decisive: bool,
        anti: bool,
        sets: &mut MoveSets,
        trace: &mut T,
        counts: &mut [u64; 2],
    ) -> Option<Outcome> {
        sets.clear();
        if let Some(o) = self.outcome {
            return Some(o);
        }
        if !self.legal_moves_only_shrink() {
            return None;
        }
        let tm = self.to_move as usize;
        let (w, k, last) = with_core!(&mut self.board, c => {
            let before = c.stones;
            let r = c.decisive_playout::<T, true>(tm, rng, decisive, anti, trace, counts);
            add_gained(sets, before, c.stones);
            r
        });
        sets.len = k as u32;
        self.ply += k as u16;
        self.last = Some(last);
        self.to_move ^= (k & 1) as u8;
        self.outcome = Some(Outcome::Win(w as Player));
        self.hash_stale = true;
        Some(Outcome::Win(w as Player))
    }

    /// `swap` (n²) at ply 1 with the swap rule: the only move that never recurs later.
    #[inline(always)]
    fn pie_move(&self) -> Option<usize> {
        self.swap_legal().then(|| self.cells())
    }

    fn is_legal(&self, m: u16) -> bool {
        if self.outcome.is_some() {
            return false;
        }
        let m = m as usize;
        if m < self.cells() {
            with_core!(&self.board, c => c.empty().test(m))
        } else {
            m == self.cells() && self.swap_legal()
        }
    }

    #[inline]
    fn play_unchecked(&mut self, m: u16) {
        debug_assert!(self.is_legal(m), "illegal move {m}");
        if m as usize == self.cells() {
            self.play_swap();
            return;
        }
        let p = self.to_move;
        let win = with_core!(&mut self.board, c => c.place(p as usize, m as usize));
        self.hash ^= KEYS[p as usize][m as usize] ^ SIDE_KEY;
        self.ply += 1;
        self.last = Some(m);
        self.to_move = 1 - p;
        if win {
            self.outcome = Some(Outcome::Win(p));
        }
    }

    fn hash(&self) -> u64 {
        if self.hash_stale {
            self.hash_from_scratch()
        } else {
            self.hash
        }
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = if self.to_move == 1 { SIDE_KEY } else { 0 };
        with_core!(&self.board, c => {
            for (&stones, keys) in c.stones.iter().zip(&KEYS) {
                let mut x = stones;
                while x.any() {
                    h ^= keys[x.lowest()];
                    x = x.without_lowest();
                }
            }
        });
        h
    }

    fn parse_move(&self, text: &str) -> Result<u16, MoveError> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("swap") || t.eq_ignore_ascii_case("swap-pieces") {
            return if self.swap {
                Ok(self.swap_move())
            } else {
                Err(MoveError::Parse { text: text.to_string(), reason: MoveParseError::SwapNeedsRule { size: self.size as usize } })
            };
        }
        let n = self.size as usize;
        parse_cell(t, n, n).map(|(r, c)| (r * n + c) as u16).map_err(|e| MoveError::Parse { text: text.to_string(), reason: e.into() })
    }

    fn format_move(&self, m: u16) -> String {
        let n = self.size as usize;
        let m = m as usize;
        if m == n * n {
            "swap".into()
        } else {
            cell_name(m / n, m % n)
        }
    }

    fn board_string(&self) -> String {
        let n = self.size as usize;
        let mut s = String::with_capacity(n * (n + 1));
        for cell in 0..n * n {
            if cell > 0 && cell % n == 0 {
                s.push('/');
            }
            s.push(match self.stone_at(cell) {
                Some(0) => 'X',
                Some(_) => 'O',
                None => '.',
            });
        }
        s
    }

    /// `winning_cells` is one shortest chain of the winner's stones joining its two edges (found
    /// by breadth-first search inside the winning group), listed from the winner's first edge
    /// (top for Black, left for White) to the second. `last_cells` is the placed stone (after a
    /// swap, the mirrored White stone).
    /// All empty, then each player's stones by their set bits: per stone, not per cell (the
    /// save-bridge playouts read it once per playout).
    fn cell_owners(&self, out: &mut [i8]) {
        let n = self.cells().min(out.len());
        out[..n].fill(-1);
        with_core!(&self.board, c => {
            for (owner, stones) in [(0i8, c.stones[0]), (1, c.stones[1])] {
                let mut s = stones;
                while s.any() {
                    let i = s.lowest();
                    if let Some(o) = out[..n].get_mut(i) {
                        *o = owner;
                    }
                    s = s.without_lowest();
                }
            }
        })
    }

    fn view(&self) -> BoardView {
        let n = self.size as usize;
        BoardView {
            kind: "hex".into(),
            spec: self.spec(),
            rows: n,
            cols: n,
            cells: (0..n * n).map(|c| self.stone_at(c).map_or(-1, |p| p as i8)).collect(),
            to_move: self.outcome.is_none().then_some(self.to_move),
            last_move: self.last.map(|m| self.format_move(m)),
            last_cells: self.last_cell().into_iter().collect(),
            winning_cells: self.winning_path(),
            outcome: self.outcome,
            ply: self.ply(),
        }
    }

    /// Fast paths (see the module documentation). With [`NoTrace`](super::NoTrace): a random
    /// split of the empty cells and one connection test; `self` becomes the full board dealt
    /// (a terminal position with the same winner, hash recomputed on demand), so only
    /// `outcome()` means what the game reached. With a recording sink: a shuffle, the winner of
    /// the full board, and the trace stopped at the real end of the game, which `self` becomes.
    /// With the swap rule at ply 1, the swap move is drawn with probability 1/(legal moves) first.
    fn random_playout<T: MoveSink<u16>>(&mut self, rng: &mut Rng64, trace: &mut T) -> Outcome {
        if let Some(o) = self.outcome {
            return o;
        }
        if let Some(m) = self.draw_swap(rng) {
            trace.push(m);
        }
        let tm = self.to_move as usize;
        if !T::RECORDS {
            // Outcome only: a random split of the empty cells and one connection test. `self`
            // becomes the full board (a valid terminal position with the same winner).
            let (w, e, last) = with_core!(&mut self.board, c => c.split_playout(tm, rng));
            self.ply += e as u16;
            self.last = Some(last as u16);
            self.to_move ^= (e & 1) as u8;
            self.outcome = Some(Outcome::Win(w as Player));
            self.hash_stale = true;
            return Outcome::Win(w as Player);
        }
        let (w, k, last) = with_core!(&mut self.board, c => c.deal_playout(tm, rng, trace));
        self.ply += k as u16;
        self.last = Some(last);
        self.to_move ^= (k & 1) as u8;
        self.outcome = Some(Outcome::Win(w as Player));
        self.hash_stale = true;
        Outcome::Win(w as Player)
    }

    /// The recorded playout ([`Hex::random_playout`] with a `Vec`: the same shuffle, the same
    /// game, the same random numbers) returned as sets: the cells each player gained between the
    /// position before the deal and the end of the game, plus the swap move (dense index n²,
    /// White's) when the playout drew it. No list is written.
    fn random_playout_sets(&mut self, rng: &mut Rng64, sets: &mut MoveSets, _scratch: &mut Vec<u16>) -> Outcome {
        sets.clear();
        if let Some(o) = self.outcome {
            return o;
        }
        let mover = self.to_move;
        if let Some(m) = self.draw_swap(rng) {
            sets.push_first(mover, m as usize);
        }
        let tm = self.to_move as usize;
        let (w, k, last) = with_core!(&mut self.board, c => {
            let before = c.stones;
            let r = c.deal_playout(tm, rng, &mut super::NoTrace);
            add_gained(sets, before, c.stones);
            r
        });
        sets.len += k as u32;
        self.ply += k as u16;
        self.last = Some(last);
        self.to_move ^= (k & 1) as u8;
        self.outcome = Some(Outcome::Win(w as Player));
        self.hash_stale = true;
        Outcome::Win(w as Player)
    }

    /// The board filled by the random split of the outcome-only playout (`Core::split`: the
    /// same random numbers, the same winner), the cells each player gained as `sets`. A
    /// recording `trace` gets them alternately, the mover's first, each side's in an order
    /// shuffled by a generator seeded from a copy of `rng` (so `rng` advances exactly as
    /// without recording).
    fn fill_playout<T: MoveSink<u16>>(&mut self, rng: &mut Rng64, sets: &mut MoveSets, trace: &mut T) -> Option<Outcome> {
        sets.clear();
        if let Some(o) = self.outcome {
            return Some(o);
        }
        let mover = self.to_move;
        if let Some(m) = self.draw_swap(rng) {
            sets.push_first(mover, m as usize);
            trace.push(m);
        }
        let tm = self.to_move as usize;
        let mut order = if T::RECORDS { Some(Rng64::new(rng.clone().next_u64() ^ 0x9e37_79b9_7f4a_7c15)) } else { None };
        let (w, e, last) = with_core!(&mut self.board, c => {
            let empty = c.empty();
            let r = c.split_playout(tm, rng);
            for (set, &stones) in sets.by.iter_mut().zip(&c.stones) {
                for (s, a) in set.iter_mut().zip(stone_words(stones & empty)) {
                    *s |= a;
                }
            }
            if let Some(order) = order.as_mut() {
                let mut lists = [[0u16; MAX_CELLS], [0u16; MAX_CELLS]];
                let mut lens = [0usize; 2];
                for (k, p) in [tm, 1 - tm].into_iter().enumerate() {
                    let gained = c.stones[p] & empty;
                    lens[k] = list_cells(gained, &mut lists[k]);
                    shuffle(&mut lists[k][..lens[k]], order);
                }
                let [mover, other] = &lists;
                for (j, &c) in mover[..lens[0]].iter().enumerate() {
                    trace.push(c);
                    if let Some(&d) = other[..lens[1]].get(j) {
                        trace.push(d);
                    }
                }
            }
            r
        });
        sets.len += e as u32;
        self.ply += e as u16;
        self.last = Some(last as u16);
        self.to_move ^= (e & 1) as u8;
        self.outcome = Some(Outcome::Win(w as Player));
        self.hash_stale = true;
        Some(Outcome::Win(w as Player))
    }

    /// The empty cells of a finished game split at random (the outcome-only playout's split
    /// without its connection test), the player to move taking ⌈e/2⌉.
    fn fill_rest(&self, rng: &mut Rng64, sets: &mut MoveSets) -> bool {
        if self.outcome.is_none() {
            return false;
        }
        let tm = self.to_move as usize;
        with_core!(&self.board, c => {
            let (s, other) = c.random_split(rng);
            for (set, part) in [(tm, s), (1 - tm, other)] {
                for (w, a) in sets.by[set].iter_mut().zip(stone_words(part)) {
                    *w |= a;
                }
            }
        });
        true
    }

    /// Empty cells touching (or on) both of the mover's edge-connected sets.
    fn winning_moves(&self, out: &mut MoveList<u16>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        let p = self.to_move as usize;
        with_core!(&self.board, c => Hex::push_cells(c.winning_cells(p), out));
    }

    fn find_winning_move(&self) -> Option<u16> {
        if self.outcome.is_some() {
            return None;
        }
        let p = self.to_move as usize;
        with_core!(&self.board, c => {
            let w = c.winning_cells(p);
            w.any().then(|| w.lowest() as u16)
        })
    }

    fn threats(&self, out: &mut MoveList<u16>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        let o = 1 - self.to_move as usize;
        with_core!(&self.board, c => Hex::push_cells(c.winning_cells(o), out));
    }

    /// The k-th cell (ascending, as `threats` lists them) of the opponent's winning-cell set,
    /// k drawn by `rng.index(count)`: no list is built.
    #[inline]
    fn random_threat(&self, rng: &mut Rng64, _scratch: &mut MoveList<u16>) -> Option<u16> {
        if self.outcome.is_some() {
            return None;
        }
        let o = 1 - self.to_move as usize;
        with_core!(&self.board, c => {
            let t = c.winning_cells(o);
            if t.is_zero() {
                None
            } else {
                let k = rng.index(t.count() as usize);
                Some(t.select(k as u32) as u16)
            }
        })
    }

    /// A stone never creates or removes threats of the opponent except on its own cell, so:
    /// no opponent threat → every move; one threat → that cell and the mover's winning cells;
    /// two or more → only the mover's winning cells. The swap move is checked by playing it.
    fn non_losing_moves(&self, out: &mut MoveList<u16>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        let p = self.to_move as usize;
        with_core!(&self.board, c => {
            let w = c.winning_cells(p);
            let t = c.winning_cells(1 - p);
            let ok = match t.count() {
                0 => c.empty(),
                1 => t | w,
                _ => w,
            };
            Hex::push_cells(ok, out);
        });
        if self.swap_legal() {
            let mut g = self.clone();
            g.play_swap();
            if g.find_winning_move().is_none() {
                out.push(self.swap_move());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shuffle_is_a_permutation_and_covers_positions() {
        let mut rng = Rng64::new(3);
        let mut first = [0u32; 10];
        for _ in 0..20000 {
            let mut v: Vec<u16> = (0..10).collect();
            shuffle(&mut v, &mut rng);
            let mut s = v.clone();
            s.sort();
            assert_eq!(s, (0..10).collect::<Vec<u16>>());
            first[v[0] as usize] += 1;
        }
        assert!(first.iter().all(|&c| (1700..2300).contains(&c)), "{first:?}");
    }

    /// `nth_legal(i)` is the `i`-th move of `legal_moves` (the swap move last), `None` past
    /// the end, on every board type, with and without the swap rule, along random games.
    #[test]
    fn nth_legal_is_the_ith_legal_move() {
        let mut rng = Rng64::new(21);
        for (n, swap) in [(3, false), (5, true), (8, false), (11, true), (13, false), (19, true)] {
            for _ in 0..10 {
                let mut g = Hex::new(n, swap).unwrap();
                loop {
                    let mut l = MoveList::new();
                    g.legal_moves(&mut l);
                    for i in 0..=l.len() {
                        assert_eq!(g.nth_legal(i), l.get(i).copied(), "size {n}, swap {swap}, ply {}, i {i}", g.ply);
                    }
                    if l.is_empty() {
                        break;
                    }
                    g.play_unchecked(l[rng.index(l.len())]);
                }
            }
        }
    }

    #[test]
    fn select_finds_the_rank_r_bit() {
        let mut rng = Rng64::new(11);
        for _ in 0..2000 {
            let sparse = rng.next_u64() & rng.next_u64();
            let words = [rng.next_u64(), sparse, rng.next_u64() & rng.next_u64() & rng.next_u64(), 0, u64::MAX, 1 << 63];
            let w6 = W6(words);
            let ones: Vec<usize> = (0..384).filter(|&i| w6.test(i)).collect();
            for (r, &i) in ones.iter().enumerate() {
                assert_eq!(w6.select(r as u32), i);
            }
            let x = (words[1] as u128) << 64 | words[0] as u128;
            let ones: Vec<usize> = (0..128).filter(|&i| x.test(i)).collect();
            for (r, &i) in ones.iter().enumerate() {
                assert_eq!(x.select(r as u32), i);
                if i < 64 && r < words[0].count_ones() as usize {
                    assert_eq!(select64(words[0], r as u32), i);
                }
            }
        }
    }

    /// The row-sweep connection test agrees with a plain flood fill from the top edge on random
    /// boards of every size with Black on 1/2 (critical: winding chains that make the sweeps turn
    /// back and forth), 3/4 and 7/8 of the cells.
    #[test]
    fn black_connects_matches_flood_fill() {
        fn check<B: Bits>(n: usize, rng: &mut Rng64) {
            let g = B::geo(n);
            for density in [1u32, 2, 3] {
                for _ in 0..300 {
                    let mut black = g.board.random_half(rng);
                    for _ in 1..density {
                        // denser Black sets: OR in more random halves
                        black |= g.board.random_half(rng);
                    }
                    let want = (g.flood(black & g.edge[0][0], black) & g.edge[0][1]).any();
                    let mut rows = [0u32; MAX_SIZE];
                    black.to_rows(n as u32, &mut rows);
                    let got = match B::ROW_STAGES {
                        3 => black_connects::<3>(&rows, n),
                        4 => black_connects::<4>(&rows, n),
                        _ => black_connects::<5>(&rows, n),
                    };
                    assert_eq!(got, want, "n={n} black={black:?}");
                    // On a full board exactly one player connects.
                    let white = g.board & !black;
                    let white_wins = (g.flood(white & g.edge[1][0], white) & g.edge[1][1]).any();
                    assert_ne!(want, white_wins, "n={n}");
                }
            }
        }
        let mut rng = Rng64::new(5);
        for n in 1..=19 {
            check::<W6>(n, &mut rng);
            if n <= 11 {
                check::<u128>(n, &mut rng);
            }
            if n <= 8 {
                check::<u64>(n, &mut rng);
            }
        }
    }

    /// A decisive playout with its quiet blocks ([`Core::deal_quiet`]) plays the same game as
    /// the one that places every move on its own: the same moves, winner, forced-move counts,
    /// final board and random numbers, from random positions on every board type (from the
    /// empty board to a few cells from the end, where threats come early), for each policy.
    #[test]
    fn quiet_blocks_play_the_same_games() {
        let mut rng = Rng64::new(29);
        let modes = [(true, true), (true, false), (false, true), (false, false)];
        for n in [1usize, 2, 3, 4, 5, 7, 8, 9, 11, 12, 13, 19] {
            for (decisive, anti) in modes {
                for _ in 0..60 {
                    let mut g = Hex::new(n, false).unwrap();
                    let fill = rng.below((n * n) as u32 + 1);
                    for _ in 0..fill {
                        if g.outcome().is_some() {
                            break;
                        }
                        let mut l = MoveList::new();
                        g.legal_moves(&mut l);
                        g.play_unchecked(l[rng.index(l.len())]);
                    }
                    if g.outcome().is_some() {
                        continue;
                    }
                    let tm = g.to_move as usize;
                    let seed = rng.next_u64();
                    with_core!(&g.board, c => {
                        let run = |quiet: bool| {
                            let (mut pos, mut r, mut trace, mut counts) = (*c, Rng64::new(seed), Vec::new(), [0u64; 2]);
                            let out = if quiet {
                                pos.decisive_playout::<_, true>(tm, &mut r, decisive, anti, &mut trace, &mut counts)
                            } else {
                                pos.decisive_playout::<_, false>(tm, &mut r, decisive, anti, &mut trace, &mut counts)
                            };
                            (out, trace, counts, pos.stones, r.next_u64())
                        };
                        assert_eq!(run(true), run(false), "hex:{n} after {fill} moves, policy {decisive}/{anti}");
                    });
                }
            }
        }
    }

    /// The incrementally kept winning cells equal those computed from the reach sets, for both
    /// players, along random games on every board type (and after a swap).
    #[test]
    fn winning_cells_kept_incrementally() {
        let mut rng = Rng64::new(17);
        for n in [1usize, 2, 3, 5, 8, 9, 11, 12, 19] {
            for swap in [false, true] {
                for _ in 0..20 {
                    let mut g = Hex::new(n, swap).unwrap();
                    while g.outcome().is_none() {
                        with_core!(&g.board, c => for p in 0..2 {
                            assert_eq!(c.winning_cells(p), c.compute_winning_cells(p), "n={n} ply={}", g.ply);
                            for e in 0..2 {
                                let reach = c.geo.flood(c.stones[p] & c.geo.edge[p][e], c.stones[p]);
                                assert_eq!(c.reach(p, e), reach);
                                assert_eq!(c.touch[p][e], c.geo.grow(reach) | c.geo.edge[p][e]);
                            }
                        });
                        let mut l = MoveList::new();
                        g.legal_moves(&mut l);
                        g.play_unchecked(l[rng.index(l.len())]);
                    }
                }
            }
        }
    }

    /// `random_threat` draws the same threat as the generic way (list the threats, pick
    /// `rng.index(len)`), with the same random numbers, and `None` exactly without threats;
    /// along random games on every board type.
    #[test]
    fn random_threat_is_the_listed_threat() {
        let mut rng = Rng64::new(23);
        for n in [3usize, 5, 8, 9, 11, 12, 19] {
            for _ in 0..20 {
                let mut g = Hex::new(n, false).unwrap();
                loop {
                    let mut t = MoveList::new();
                    g.threats(&mut t);
                    let seed = rng.next_u64();
                    let want = (!t.is_empty()).then(|| t[Rng64::new(seed).index(t.len())]);
                    assert_eq!(g.random_threat(&mut Rng64::new(seed), &mut MoveList::new()), want, "n={n} ply={}", g.ply);
                    if g.outcome().is_some() {
                        break;
                    }
                    let mut l = MoveList::new();
                    g.legal_moves(&mut l);
                    g.play_unchecked(l[rng.index(l.len())]);
                }
            }
        }
    }

    #[test]
    fn geometry_grow_matches_neighbour_list() {
        for n in [1usize, 2, 5, 8, 11, 12, 19] {
            for cell in 0..n * n {
                let (r, c) = ((cell / n) as isize, (cell % n) as isize);
                let want: Vec<usize> = [(-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)]
                    .iter()
                    .map(|(dr, dc)| (r + dr, c + dc))
                    .filter(|&(rr, cc)| rr >= 0 && cc >= 0 && rr < n as isize && cc < n as isize)
                    .map(|(rr, cc)| rr as usize * n + cc as usize)
                    .collect();
                let check = |got: Vec<usize>| {
                    let mut w = want.clone();
                    w.push(cell);
                    w.sort();
                    assert_eq!(got, w, "n={n} cell={cell}");
                };
                let ones = |mut x: W6| {
                    let mut v = vec![];
                    while x.any() {
                        v.push(x.lowest());
                        x = x.without_lowest();
                    }
                    v
                };
                check(ones(W6::geo(n).grow(W6::bit(cell))));
                if n <= 11 {
                    let g = u128::geo(n).grow(u128::bit(cell));
                    check((0..128).filter(|&i| g.test(i)).collect());
                }
                if n <= 8 {
                    let g = u64::geo(n).grow(u64::bit(cell));
                    check((0..64).filter(|&i| g.test(i)).collect());
                }
            }
        }
    }
}
