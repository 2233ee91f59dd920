//! The AMAF tables of RAVE, GRAVE and PoolRAVE ([`AmafTables`]): per node that has one, each
//! player's count and reward sum for every dense move, with player 1's row derived from player 0's
//! while the playouts fill the board ([`AmafRow`]), and the bounds the selection keeps on them
//! ([`UntriedBound`] for the untried moves' values, [`ChildBound`] for the children's scores).

use crate::game::{Player, MOVE_WORDS};
use crate::mcts::slots::{reserve_step, NIL};

/// The largest AMAF count of one entry, 2³⁰ − 1: its reward sum in half points (≤ 2n) then
/// fits an `i32`, which the untried-move scan converts to `f32` in one vector instruction. An
/// entry stops counting there (the saturating update of `update_amaf`).
pub const AMAF_MAX: u32 = u32::MAX / 4;

/// Dense AMAF tables (RAVE, GRAVE, PoolRAVE), one per node that has one: for each player and
/// each dense move, the number of simulations through the node in which that player played the
/// move afterwards (first occurrence) and the sum of that player's rewards, in half points
/// (rewards are 0, ½ or 1). `2 × move_space` entries of 8 bytes per table (one row, half
/// that, while player 1's row is derived).
///
/// **The second player's row derived.** When every simulation through a node credits every
/// cell empty there to exactly one player (a placement game whose playouts fill the board,
/// `fill_playouts`, and no swap move to come), the second player's (player 1's) row follows
/// from the first's: with U updates of the table and R₀ the sum of player 0's rewards over
/// them (half points; the two players' rewards sum to 2 in every simulation), an empty cell i
/// has `n₁ = U − n₀` and `w₁ = Σ_{updates where 1 played i} (2 − r₀) = 2·n₁ − R₀ + w₀`. Such
/// a table ([`AmafTables::derived`]) is credited in player 0's row only, which halves the
/// AMAF update (about a tenth of a hex:11 rave search); readers see the same values through
/// [`AmafRow`]. An update that leaves a cell of the node empty (a game ended inside the tree),
/// or the [`AMAF_MAX`] cap coming near, first stores the row ([`AmafTables::materialize`]) and
/// the table is kept in two rows from then on; so the values are exactly those of two rows
/// throughout.
#[derive(Clone, Debug, Default)]
pub struct AmafTables {
    /// Entries of a table with both rows stored (2 × move space; a derived table holds half).
    pub width: usize,
    /// Table index per node ([`NIL`] = none); empty when AMAF is off.
    pub of_node: Vec<u32>,
    /// AMAF visit counts, `width` per table.
    pub n: Vec<u32>,
    /// AMAF reward sums in half points, `width` per table.
    pub w2: Vec<u32>,
    /// Updates per table: the simulations that credited it (one per iteration through its node,
    /// kept across tree reuse). No entry's count exceeds it (first-occurrence AMAF credits an
    /// entry at most once per update), so below [`AMAF_MAX`] no entry can be saturated.
    pub updates: Vec<u64>,
    /// Per table and player, the updates that gave that player a positive reward (a win or a
    /// draw; wrapping): only those can raise an entry of the player's row, so they are the `d`
    /// of [`UntriedBound`].
    pub gains: Vec<[u32; 2]>,
    /// Per node: what the last scan of its untried moves' AMAF values proved
    /// ([`UntriedBound`]); empty when AMAF is off.
    pub untried: Vec<UntriedBound>,
    /// Per node: what the last full pass over its children's blended values proved
    /// ([`ChildBound`]); empty unless `Tree::with_child_bounds`.
    pub children: Vec<ChildBound>,
    /// Per table: while player 1's row is derived (see the type's doc), the dense moves empty at
    /// the table's node (bit `i % 64` of word `i / 64`); `None` when both rows are stored.
    pub derived: Vec<Option<[u64; MOVE_WORDS]>>,
    /// Per table: R₀, the sum of player 0's rewards over its updates in half points (read while
    /// player 1's row is derived).
    pub r0: Vec<u64>,
    /// Per table: where its entries start in `n` and `w2`: player 0's row, then player 1's
    /// when stored (a derived table holds one row, half a `width`).
    pub off: Vec<usize>,
    /// Single rows left by tables whose second row was stored since ([`AmafTables::materialize`]
    /// moves a table to two new rows at the end), for the next derived table.
    spare: Vec<usize>,
}

/// One player's row of an AMAF table as the readers see it: entry `i` by [`AmafRow::at`], the
/// stored `(n, w2)` or, for a derived row ([`AmafTables`]), `(U − n₀, w₀ + 2·n₁ − R₀)` from
/// player 0's entries by four integer operations ([`AmafRow::read`], no branch: the untried-move
/// scan is compiled apart for each kind and still vectorises). A derived row's entries are
/// meaningful for the cells empty at the table's node only (the moves any reader asks about);
/// [`AmafTables::get`] answers for every move.
#[derive(Clone, Copy, Debug)]
pub struct AmafRow<'a> {
    /// The stored counts (player 0's for a derived row), one per dense move.
    pub n: &'a [u32],
    /// The stored reward sums in half points, likewise.
    pub w2: &'a [u32],
    /// Whether the row is derived.
    derived: bool,
    /// U, the table's updates (derived row).
    u: u32,
    /// `2U − R₀` (derived row).
    c: u32,
}

/// An [`AmafRow`] before it borrows the entries ([`AmafTables::row_ref`]).
#[derive(Clone, Copy, Debug)]
pub struct RowRef {
    base: usize,
    derived: bool,
    u: u32,
    c: u32,
}

impl RowRef {
    /// The row over the tables' entries `n` and `w2` ([`AmafTables::n`], [`AmafTables::w2`]),
    /// `ms` moves.
    #[inline(always)]
    pub fn on<'a>(self, n: &'a [u32], w2: &'a [u32], ms: usize) -> AmafRow<'a> {
        let (b, e) = (self.base, self.base + ms);
        AmafRow { n: &n[b..e], w2: &w2[b..e], derived: self.derived, u: self.u, c: self.c }
    }
}

impl AmafRow<'_> {
    /// A stored row: entries as they are.
    pub fn stored<'b>(n: &'b [u32], w2: &'b [u32]) -> AmafRow<'b> {
        AmafRow { n, w2, derived: false, u: 0, c: 0 }
    }
    /// Moves in the row.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.n.len()
    }
    /// Whether the row has no moves.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.n.is_empty()
    }
    /// `(n, w2)` of dense move `i`: the AMAF count and reward sum in half points. (A branch on
    /// [`AmafRow::is_derived`], the same for a whole pass over a row: a stored row's entries
    /// are read as they are.)
    #[inline(always)]
    pub fn at(&self, i: usize) -> (u32, u32) {
        if self.is_derived() {
            self.read(self.n[i], self.w2[i])
        } else {
            (self.n[i], self.w2[i])
        }
    }
    /// Whether the row is derived from player 0's entries (else stored).
    #[inline(always)]
    pub fn is_derived(&self) -> bool {
        self.derived
    }
    /// A derived row's `(n₁, w₁)` from player 0's entries `(n₀, w₀)` at a move: `U − n₀` and
    /// `w₀ + 2·n₁ − R₀ = (2U − R₀) + w₀ − 2·n₀` (wrapping, exact: the true values fit).
    #[inline(always)]
    pub fn read(&self, n0: u32, w0: u32) -> (u32, u32) {
        (self.u.wrapping_sub(n0), self.c.wrapping_add(w0).wrapping_sub(n0 << 1))
    }
}

/// What the last scan of a node's untried moves against its AMAF table (its own or an
/// ancestor's; RAVE/GRAVE, the fast scan `choose_by_amaf`) proves for its later visits.
///
/// At the scan, no untried move had an AMAF value above `best` (`v*`), and each had at least
/// `n_min` samples. An entry with `n` samples and mean `v = w/n` has after `k` more samples
/// (rewards at most 1) a mean of at most `(w+k)/(n+k) = (v·n + k)/(n+k)`, which grows with `v`
/// and falls with `n`, so it is at most `(v*·n_min + k)/(n_min + k) = v* + k(1−v*)/(n_min+k)`
/// (`1` when `n_min` = 0: an unseen move's first-play value `fpu` ≤ `v*` ≤ 1); and
/// first-occurrence AMAF gives an entry at most one sample per update of the table. Only an
/// update that gives the row's player a positive reward (a win, or a draw) can raise an entry:
/// a loss adds a sample and nothing to the sum. So after `d` more such updates of the table
/// ([`AmafTables::gains`] of the player to move; the other updates only lower the values) no
/// untried move's value exceeds `v* + d(1−v*)/(n_min + d)`, and the untried moves only leave
/// the set (they are expanded). A later visit whose best child scores
/// at least that plus the untried bonus would not expand, and skips the scan (its decision is
/// the same; the only difference is the random draw the scan would have made to break ties).
/// The bound loosens as the table gains samples, but slowly where the untried moves have many,
/// so it also holds across the visits of a node that reads an ancestor's table (which gains an
/// update from every iteration through the ancestor): in a 1,000,000-iteration `rave` search on
/// Hex 11×11, 5.3 scans per iteration fell to 3.3 (bound `v* + d/(n_min + d)`, `d` every
/// update), to 2.65 once `d` counted only the player's gains, to 2.09 with the factor
/// `1 − v*`, and to 1.84 once a scan that expands its best move leaves the best value of the
/// others (about one scan per iteration is the expansion itself).
/// 16 bytes per node (RAVE/GRAVE searches only).
#[derive(Clone, Copy, Debug)]
pub struct UntriedBound {
    /// The table scanned ([`NIL`]: no bound yet).
    pub table: u32,
    /// The scanned player's gain count ([`AmafTables::gains`]) at the scan.
    pub at: u32,
    /// `v*`, the best untried value at the scan (rounded up to `f32`).
    pub best: f32,
    /// The fewest AMAF samples of an untried move at the scan.
    pub n_min: u32,
}

impl UntriedBound {
    /// No bound known.
    pub const NONE: UntriedBound = UntriedBound { table: NIL, at: 0, best: f32::INFINITY, n_min: 0 };

    /// The bound of a scan of `table` at `at` updates that found `best` (rounded up to `f32`:
    /// the next float above when rounding lowered it) and `n_min`.
    pub fn new(table: u32, at: u32, best: f64, n_min: u32) -> UntriedBound {
        let b = best as f32;
        let b = if (b as f64) < best { b.next_up() } else { b };
        UntriedBound { table, at, best: b, n_min }
    }

    /// The bound on any untried move's AMAF value when `table` has had `updates` gains of the
    /// scanned player (`+∞` when this bound is of another table): `(v*·n_min + d)/(n_min + d)`,
    /// `d` the gains since the scan.
    #[inline(always)]
    pub fn at_updates(&self, table: u32, updates: u32) -> f64 {
        if self.table != table {
            return f64::INFINITY;
        }
        let d = updates.wrapping_sub(self.at) as f64;
        let (b, n) = (self.best as f64, self.n_min as f64);
        if d == 0.0 {
            b
        } else {
            (b * n + d) / (n + d)
        }
    }
}

/// What the last full pass over a node's children (MC-RAVE with c = 0, `choose_by_amaf`) proves
/// for its later visits, so that a visit can often score one child instead of all of them.
///
/// At the pass (against table `table`, the scanned player's gain count then `at`) the node had
/// `children` children; the best was the one at position `best` of its run, and every other
/// scored at most `others` (rounded up to `f32`) and had at least `n_min` AMAF samples. A child other than the one descended into keeps its visits n and its Q (only a
/// visit through this node changes them; no transpositions here), so its β(n) too, and only its
/// AMAF value v moves: after `d` more gains of the player's row (see [`UntriedBound`]: an update
/// adds at most one sample per entry, and only a gain can raise a mean), `v' ≤ (v·a + d)/(a +
/// d)`, so its score `(1 − β)·Q + β·v` rises by at most `β·d(1 − v)/(a + d) ≤ d/(n_min + d)`
/// (no bound when `n_min` = 0 and `d` > 0: a child without AMAF samples scores its Q until it
/// gets one, and quality-based rewards can put a Q outside [0, 1]). A proof only lowers a
/// score to −∞. So when the best child's fresh score is above `others + d/(n_min + d)` (plus a
/// margin for rounding), no other child can reach it and the pass would choose it again: the
/// decision is the same. Counted in a 300,000-iteration `rave` search on
/// Hex 11×11 (seed 3): 1.41 M visits scored one child where the pass would have scored 50.6 M,
/// 0.9 M full passes scored 11.2 M. 20 bytes per node, in MC-RAVE searches with c = 0 only
/// (`Tree::with_child_bounds`).
#[derive(Clone, Copy, Debug)]
pub struct ChildBound {
    /// The table read at the pass ([`NIL`]: no pass yet).
    pub table: u32,
    /// The scanned player's gain count ([`AmafTables::gains`]) at the pass.
    pub at: u32,
    /// The best score of the children other than `best`, rounded up to `f32` (−∞ without any;
    /// +∞: no pass yet).
    pub others: f32,
    /// The fewest AMAF samples of those children (`u32::MAX` without any).
    pub n_min: u32,
    /// The best child's position in the node's run of children.
    pub best: u16,
    /// The node's number of children at the pass.
    pub children: u16,
}

impl ChildBound {
    /// No pass yet.
    pub const NONE: ChildBound = ChildBound { table: NIL, at: 0, others: f32::INFINITY, n_min: 0, best: 0, children: 0 };

    /// The result of a pass over `children` children against `table` at gain count `at`: the
    /// best at position `best`, the others at most `others` (rounded up to `f32` here) with at
    /// least `n_min` AMAF samples.
    pub fn new(table: u32, at: u32, best: u32, children: usize, others: f64, n_min: u32) -> ChildBound {
        let o = others as f32;
        let o = if (o as f64) < others { o.next_up() } else { o };
        ChildBound { table, at, others: o, n_min, best: best as u16, children: children as u16 }
    }

    /// The score a child other than `best` can have at most, now that `table` has had `gains`
    /// gains of the scanned player and the node has `children` children: `others + d/(n_min +
    /// d)`, `d` the gains since the pass; `+∞` when the bound is of another table or the
    /// children changed, or when `d` > 0 and a child other than the best had no AMAF sample.
    #[inline(always)]
    pub fn others_at(&self, table: u32, gains: u32, children: usize) -> f64 {
        if self.table != table || self.children as usize != children {
            return f64::INFINITY;
        }
        let d = gains.wrapping_sub(self.at) as f64;
        // With `n_min` = 0, no bound once the table has gained: a child without AMAF samples
        // scored its Q, which quality-based rewards can put outside [0, 1], so its first sample
        // can move it by more than 1.
        let slack = if d == 0.0 {
            0.0
        } else if self.n_min == 0 {
            f64::INFINITY
        } else {
            d / (self.n_min as f64 + d)
        };
        self.others as f64 + slack
    }
}

impl AmafTables {
    /// No tables yet, `width` entries per table with both rows stored (2 × move space).
    pub fn with_width(width: usize) -> AmafTables {
        AmafTables { width, ..AmafTables::default() }
    }

    /// The table of `node`, if it has one.
    #[inline]
    pub fn table(&self, node: u32) -> Option<u32> {
        match self.of_node.get(node as usize) {
            Some(&t) if t != NIL => Some(t),
            _ => None,
        }
    }
    /// Allocates an empty table for `node` (which must have none) and returns its index.
    /// `derived`: the dense moves empty at the node when every simulation through it will
    /// credit each of them to one player (player 1's row is then derived, see the type's doc),
    /// else `None`.
    pub fn alloc(&mut self, node: u32, derived: Option<[u64; MOVE_WORDS]>) -> u32 {
        let t = self.off.len() as u32;
        let half = self.width / 2;
        let off = match (derived.is_some(), self.spare.last()) {
            (true, Some(&o)) => {
                self.spare.pop();
                self.n[o..o + half].fill(0);
                self.w2[o..o + half].fill(0);
                o
            }
            (true, None) => self.push_entries(half),
            (false, _) => self.push_entries(self.width),
        };
        reserve_step(&mut self.off, 1);
        reserve_step(&mut self.updates, 1);
        reserve_step(&mut self.gains, 1);
        reserve_step(&mut self.derived, 1);
        reserve_step(&mut self.r0, 1);
        self.off.push(off);
        self.updates.push(0);
        self.gains.push([0; 2]);
        self.derived.push(derived);
        self.r0.push(0);
        self.of_node[node as usize] = t;
        t
    }
    /// `k` zeroed entries at the end of `n` and `w2`; their offset.
    fn push_entries(&mut self, k: usize) -> usize {
        let o = self.n.len();
        reserve_step(&mut self.n, k);
        reserve_step(&mut self.w2, k);
        self.n.resize(o + k, 0);
        self.w2.resize(o + k, 0);
        o
    }
    /// The entries of table `t` in `n` and `w2` (one row while player 1's is derived, else two).
    pub fn entries(&self, t: u32) -> std::ops::Range<usize> {
        let o = self.off[t as usize];
        o..o + if self.derived[t as usize].is_some() { self.width / 2 } else { self.width }
    }
    /// Player `p`'s row of table `t` (`ms` moves per player) as readers see it ([`AmafRow`]).
    #[inline(always)]
    pub fn row(&self, t: u32, p: Player, ms: usize) -> AmafRow<'_> {
        self.row_ref(t, p, ms).on(&self.n, &self.w2, ms)
    }
    /// Where player `p`'s row of table `t` is and how it reads ([`RowRef::on`] then makes the
    /// [`AmafRow`]: for callers that borrow the entries apart from the rest of the tables).
    #[inline(always)]
    pub fn row_ref(&self, t: u32, p: Player, ms: usize) -> RowRef {
        let base = self.off[t as usize];
        if p == 1 && self.derived[t as usize].is_some() {
            // Below AMAF_MAX updates while derived: U and R₀ ≤ 2U fit in u32.
            let (u, r0) = (self.updates[t as usize] as u32, self.r0[t as usize] as u32);
            RowRef { base, derived: true, u, c: (2 * u).wrapping_sub(r0) }
        } else {
            RowRef { base: base + p as usize * ms, derived: false, u: 0, c: 0 }
        }
    }
    /// `(n, w2)` of player `p`'s move `mv` in table `t` (`w2` the reward sum in half points; the
    /// AMAF value is [`crate::mcts::selection::amaf_mean`]); `(0, 0)` for a move not empty at the
    /// node of a table whose player-1 row is derived (as a stored row has it).
    #[inline]
    pub fn get(&self, t: u32, p: u8, mv: usize, ms: usize) -> (u32, u32) {
        if let Some(empty) = &self.derived[t as usize] {
            if empty[mv / 64] >> (mv % 64) & 1 == 0 {
                return (0, 0);
            }
        }
        self.row(t, p, ms).at(mv)
    }
    /// Stores player 1's row of table `t` (`ms` moves per player, half the width) from its
    /// derivation and keeps both rows from now on (nothing when they are stored already): the
    /// same values, exactly. The table moves to two new rows at the end of the entries; its old
    /// row is kept for the next derived table.
    pub fn materialize(&mut self, t: u32, ms: usize) {
        if self.derived[t as usize].is_none() {
            return;
        }
        // Player 1's row as it reads now (`get`: 0 off the node's empty cells, as stored).
        let row: Vec<(u32, u32)> = (0..ms).map(|i| self.get(t, 1, i, ms)).collect();
        self.derived[t as usize] = None;
        let old = self.off[t as usize];
        let base = self.push_entries(2 * ms);
        self.n.copy_within(old..old + ms, base);
        self.w2.copy_within(old..old + ms, base);
        self.spare.push(old);
        self.off[t as usize] = base;
        for (i, (n, w2)) in row.into_iter().enumerate() {
            self.n[base + ms + i] = n;
            self.w2[base + ms + i] = w2;
        }
    }
    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.of_node.capacity() * 4
            + self.n.capacity() * 4
            + self.w2.capacity() * 4
            + self.updates.capacity() * 8
            + self.gains.capacity() * 8
            + self.untried.capacity() * std::mem::size_of::<UntriedBound>()
            + self.children.capacity() * std::mem::size_of::<ChildBound>()
            + self.derived.capacity() * std::mem::size_of::<Option<[u64; MOVE_WORDS]>>()
            + self.r0.capacity() * 8
            + (self.off.capacity() + self.spare.capacity()) * 8
    }
}
