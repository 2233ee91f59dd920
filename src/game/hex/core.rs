//! A Hex position on one bit-set type ([`Core`]): the stones, each edge's touch set and each
//! player's winning cells, kept incrementally, and the playouts on them (see the parent module's
//! "Random playouts").

use super::{Bits, Geo, MAX_CELLS, MAX_SIZE};
use crate::bits::mul_small;
use crate::game::MoveSink;
use crate::rng::Rng64;

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
pub(super) struct Core<B: Bits + 'static> {
    pub(super) geo: &'static Geo<B>,
    pub(super) stones: [B; 2],
    /// `win[p]`: the empty cells where a stone of p would win at once (touching, or on, both of
    /// its edge-reach sets). Kept incrementally like `touch`: a move changes the mover's set
    /// only when it joined a reach set, and takes its cell out of the other's (Teytaud &
    /// Teytaud 2010's decisive-move test in O(1) per playout move).
    pub(super) win: [B; 2],
    /// `touch[p][e]` = `grow(reach) | edge[p][e]`, where the *reach set* is player p's stones
    /// connected to its edge e: the cells where a stone of p joins that set. The reach set is
    /// `touch[p][e] & stones[p]` ([`Core::reach`]), so it is not stored. Kept while the game
    /// goes on; not maintained on a finished game (nothing reads it then).
    pub(super) touch: [[B; 2]; 2],
}

impl<B: Bits> Core<B> {
    pub(super) fn new(n: usize) -> Self {
        let geo = B::geo(n);
        let mut c = Core { geo, stones: [B::ZERO; 2], win: [B::ZERO; 2], touch: geo.edge };
        c.win = [c.compute_winning_cells(0), c.compute_winning_cells(1)];
        c
    }

    #[inline(always)]
    pub(super) fn empty(&self) -> B {
        self.geo.board & !(self.stones[0] | self.stones[1])
    }

    /// Player p's stones connected to its edge e (its *reach set*).
    #[inline(always)]
    pub(super) fn reach(&self, p: usize, e: usize) -> B {
        self.touch[p][e] & self.stones[p]
    }

    /// Places a stone of `p` on `cell`; returns whether it wins.
    #[inline(always)]
    pub(super) fn place(&mut self, p: usize, cell: usize) -> bool {
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
    pub(super) fn reset_to_white(&mut self, cell: usize) {
        self.stones = [B::ZERO, B::bit(cell)];
        self.recompute_reach();
    }

    pub(super) fn recompute_reach(&mut self) {
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
    pub(super) fn winning_cells(&self, p: usize) -> B {
        self.win[p]
    }

    /// [`Core::winning_cells`] from the reach sets.
    #[inline(always)]
    pub(super) fn compute_winning_cells(&self, p: usize) -> B {
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
    pub(super) fn split_playout(&mut self, to_move: usize, rng: &mut Rng64) -> (usize, usize, usize) {
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
    pub(super) fn random_split(&self, rng: &mut Rng64) -> (B, B) {
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
    pub(super) fn deal_playout<T: MoveSink<u16>>(&mut self, to_move: usize, rng: &mut Rng64, trace: &mut T) -> (usize, usize, u16) {
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
    pub(super) fn decisive_playout<T: MoveSink<u16>, const QUIET: bool>(
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
    pub(super) fn settle_fill(&mut self, first: usize, moves: &[u16]) -> (usize, usize) {
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
pub(super) fn list_cells<B: Bits>(x: B, out: &mut [u16]) -> usize {
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
pub(super) fn shuffle(c: &mut [u16], rng: &mut Rng64) {
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

#[cfg(test)]
mod tests {
    use super::super::bitset::W6;
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
}
