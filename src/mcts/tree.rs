//! The search tree: an arena of compact position nodes (`Vec<Node>`, `u32` ids) and an arena of
//! edges in which the children of a node form one **contiguous run**.
//!
//! Children are expanded lazily, one per visit. A node's run starts with room for one edge and
//! grows by about 1.5× when full (sizes [`RUN_SIZES`]: 1, 2, 3, 4, 6, 8, 12, … capped at the
//! number of legal moves); a run that outgrows its room is copied to a run of the next size
//! and its old room goes to a free list of its size, which the next node needing that size
//! reuses (a larger free run is split when no run of the size asked for is free). So a node with k children holds at most 1.5k edge slots, and selection scans its children in one contiguous array instead of
//! chasing scattered sibling links (that scan was most of the time per iteration on Pentago,
//! 288 moves).
//!
//! Each edge caches the selection statistics of its child (`n`, `q` as `f32`, and `k = 1/√n`,
//! so the UCB1 exploration term is `c·√(ln N)·k`: one multiply-add per child, no division or
//! square root in the scan). Backpropagation refreshes them. With transpositions a node can have
//! several parents and its edges' cached copies can lag, so the search then reads the node.
//!
//! With transpositions a position reached by a second path is linked into the second parent by
//! an edge flagged [`ALIAS`] that points at the shared node (no extra node).
//!
//! Sizes: [`Node`] 24 bytes, [`Edge`] 20 bytes (pinned by tests). Optional per-node and per-edge
//! arrays exist only when a configuration needs them: PUCT priors (4 bytes per edge) and the
//! AMAF tables of RAVE/GRAVE (see [`AmafTables`]).

use crate::game::{Player, MOVE_WORDS};

/// The largest AMAF count of one entry, 2³⁰ − 1: its reward sum in half points (≤ 2n) then
/// fits an `i32`, which the untried-move scan converts to `f32` in one vector instruction. An
/// entry stops counting there (the saturating update of `update_amaf`).
pub const AMAF_MAX: u32 = u32::MAX / 4;

/// "No node / no edge / no run" marker.
pub const NIL: u32 = u32::MAX;
/// `n_legal` not computed yet.
pub const UNKNOWN: u16 = u16::MAX;

/// Edge flag: the edge links a shared node of another parent (transpositions).
pub const ALIAS: u8 = 1;
/// Node flag: the position is terminal.
pub const TERMINAL: u8 = 2;
/// Node flag: all children so far were expanded in the node's seeded affine order (see `search.rs`).
pub const AFFINE: u8 = 4;

/// A result proven by MCTS-Solver, from the view of one player; serialised as `"win"`,
/// `"loss"` or `"draw"` (the `proven` fields of the JSON views).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Proven {
    /// A proven win.
    Win,
    /// A proven loss.
    Loss,
    /// A proven draw.
    Draw,
}

impl Proven {
    /// `"win"`, `"loss"` or `"draw"`, as serialised.
    pub fn name(self) -> &'static str {
        match self {
            Proven::Win => "win",
            Proven::Loss => "loss",
            Proven::Draw => "draw",
        }
    }
}

impl std::fmt::Display for Proven {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Proof status, from the view of the player who made the move into the node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Proof {
    /// Not proven.
    Unknown = 0,
    /// The move into this node wins (game-theoretic value).
    Win = 1,
    /// The move into this node loses.
    Loss = 2,
    /// The move into this node draws.
    Draw = 3,
}

impl Proof {
    /// From the stored byte.
    #[inline]
    pub fn from_u8(b: u8) -> Proof {
        match b {
            1 => Proof::Win,
            2 => Proof::Loss,
            3 => Proof::Draw,
            _ => Proof::Unknown,
        }
    }
    /// The same result seen by the other player.
    #[inline]
    pub fn flip(self) -> Proof {
        match self {
            Proof::Win => Proof::Loss,
            Proof::Loss => Proof::Win,
            p => p,
        }
    }
    /// The proven result, `None` when not proven.
    pub fn proven(self) -> Option<Proven> {
        match self {
            Proof::Win => Some(Proven::Win),
            Proof::Loss => Some(Proven::Loss),
            Proof::Draw => Some(Proven::Draw),
            Proof::Unknown => None,
        }
    }
    /// The game-theoretic reward of a proven result in [0, 1] (win 1, draw 0.5, loss 0).
    pub fn value(self) -> Option<f64> {
        match self {
            Proof::Win => Some(1.0),
            Proof::Loss => Some(0.0),
            Proof::Draw => Some(0.5),
            Proof::Unknown => None,
        }
    }
}

/// One position of the tree. 24 bytes.
///
/// Statistics are from the view of the player who made the move into the node (the player to
/// move at the parent): `w` is the sum of rewards in [0, 1], `n` the visits.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct Node {
    /// Sum of rewards (playouts through this node), mover-into's view.
    pub w: f64,
    /// Visit count n.
    pub n: u32,
    /// Start of the child run in the edge arena, [`NIL`] before the first expansion.
    pub edges: u32,
    /// Number of children expanded so far (edges in use at the start of the run).
    pub n_children: u16,
    /// Number of legal moves (after the depth-2 root filter), [`UNKNOWN`] until first needed.
    pub n_legal: u16,
    /// Edge slots reserved in the run.
    pub cap: u16,
    /// [`Proof`] as a byte.
    pub proof: u8,
    /// [`TERMINAL`], [`AFFINE`].
    pub flags: u8,
}

impl Node {
    /// A fresh node.
    #[inline]
    pub fn new() -> Node {
        Node { w: 0.0, n: 0, edges: NIL, n_children: 0, n_legal: UNKNOWN, cap: 0, proof: 0, flags: 0 }
    }
    /// Mean value Q = w/n (0.5 when unvisited).
    #[inline]
    pub fn q(&self) -> f64 {
        if self.n == 0 {
            0.5
        } else {
            self.w / self.n as f64
        }
    }
    /// One more visit with reward `r` in [0, 1]. Saturating: at n = `u32::MAX` (about an hour of
    /// a Hex 11×11 UCT search at the root) n and w stop changing, so Q stays the mean of the
    /// first 2³² − 1 playouts instead of wrapping to nonsense.
    #[inline(always)]
    pub fn add_visit(&mut self, r: f64) {
        if self.n != u32::MAX {
            self.n += 1;
            self.w += r;
        }
    }
    /// The proof status.
    #[inline]
    pub fn proof(&self) -> Proof {
        Proof::from_u8(self.proof)
    }
    /// Whether the position is terminal.
    #[inline]
    pub fn is_terminal(&self) -> bool {
        self.flags & TERMINAL != 0
    }
}

impl Default for Node {
    fn default() -> Self {
        Node::new()
    }
}

/// One expanded move of a node: the child and a cached copy of its selection statistics.
/// 20 bytes.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct Edge {
    /// The child node (for an [`ALIAS`], the shared node).
    pub child: u32,
    /// Visits: without transpositions the child's n; with transpositions the visits through
    /// this edge, n(s,a) (the shared child's n is in its node).
    pub n: u32,
    /// The child's Q when last backed up through this edge.
    pub q: f32,
    /// `1/√n` (∞ when n = 0): the UCB1 exploration term is `c·√(ln N)·k`.
    pub k: f32,
    /// Dense index of the move.
    pub mv: u16,
    /// The child's proof when last backed up through this edge.
    pub proof: u8,
    /// [`ALIAS`].
    pub flags: u8,
}

impl Edge {
    /// An edge to `child` by move `mv`, no visits yet.
    #[inline]
    pub fn new(child: u32, mv: u16) -> Edge {
        Edge { child, n: 0, q: 0.5, k: f32::INFINITY, mv, proof: 0, flags: 0 }
    }
    /// Refreshes the cached statistics from the child's node (n too: callers that count per
    /// edge restore it).
    #[inline]
    pub fn sync(&mut self, node: &Node) {
        self.n = node.n;
        self.q = node.q() as f32;
        self.k = if node.n == 0 { f32::INFINITY } else { 1.0 / (node.n as f32).sqrt() };
        self.proof = node.proof;
    }
}

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
    /// ([`ChildBound`]); empty unless [`Tree::with_child_bounds`].
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
/// ([`Tree::with_child_bounds`]).
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
    /// `(n, w)` of player `p`'s move `mv` in table `t` (w in reward units); `(0, 0)` for a move
    /// not empty at the node of a table whose player-1 row is derived (as a stored row has it).
    #[inline]
    pub fn get(&self, t: u32, p: u8, mv: usize, ms: usize) -> (u32, f64) {
        if let Some(empty) = &self.derived[t as usize] {
            if empty[mv / 64] >> (mv % 64) & 1 == 0 {
                return (0, 0.0);
            }
        }
        let (n, w2) = self.row(t, p, ms).at(mv);
        (n, w2 as f64 * 0.5)
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
        let row: Vec<(u32, u32)> = (0..ms)
            .map(|i| {
                let (n, w) = self.get(t, 1, i, ms);
                (n, (w * 2.0) as u32)
            })
            .collect();
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

/// The arenas.
#[derive(Clone, Debug, Default)]
pub struct Tree {
    /// All nodes; id 0 is the root.
    pub nodes: Vec<Node>,
    /// All edges, in runs (one per expanded node).
    pub edges: Vec<Edge>,
    /// PUCT prior of each edge (parallel to `edges`); empty unless `with_priors`.
    pub priors: Vec<f32>,
    /// Whether `priors` is kept.
    pub with_priors: bool,
    /// AMAF tables (empty unless enabled).
    pub amaf: AmafTables,
    /// Whether every node gets an `amaf.of_node` slot.
    pub with_amaf: bool,
    /// Whether the nodes keep a [`ChildBound`] (MC-RAVE with c = 0, the only selection that
    /// reads one): 20 bytes per node.
    pub with_child_bounds: bool,
    /// Free runs by size class (index into [`RUN_SIZES`]).
    free: [Vec<u32>; RUN_SIZES.len()],
    /// Edge slots in `free`.
    free_total: usize,
}

/// Run sizes (edge slots): about ×1.5 per step, so a run is never more than a third empty.
pub const RUN_SIZES: [u16; 24] = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096];

/// The size class of a run of exactly `size` slots, if it is one of [`RUN_SIZES`].
#[inline]
fn run_class(size: usize) -> Option<usize> {
    RUN_SIZES.iter().position(|&s| s as usize == size)
}

/// The smallest run size above `cap` (or `cap + 1` beyond the table).
#[inline]
fn next_run_size(cap: usize) -> usize {
    RUN_SIZES.iter().map(|&s| s as usize).find(|&s| s > cap).unwrap_or(cap + 1)
}

/// Grows a vector by 25 % steps (bounded slack) before a push of `more` entries: by a quarter
/// of its length, at least 1,024 entries and at least `more`. Every arena of the tree grows
/// this way, which is what the memory cap's bound assumes (`Search::memory_bound`).
#[inline]
pub(crate) fn reserve_step<T>(v: &mut Vec<T>, more: usize) {
    if v.len() + more > v.capacity() {
        let extra = (v.len() / 4).max(1024).max(more);
        v.reserve_exact(extra);
    }
}

impl Tree {
    /// A tree with only a root; `priors`: keep PUCT priors per edge; `amaf_width`: entries per
    /// AMAF table (0 = no AMAF tables); `child_bounds`: keep a [`ChildBound`] per node (with
    /// AMAF tables only).
    pub fn with_root(priors: bool, amaf_width: usize, child_bounds: bool) -> Tree {
        let mut t = Tree {
            nodes: Vec::with_capacity(1024),
            edges: Vec::with_capacity(1024),
            with_priors: priors,
            with_amaf: amaf_width > 0,
            with_child_bounds: child_bounds && amaf_width > 0,
            amaf: AmafTables { width: amaf_width, ..AmafTables::default() },
            ..Tree::default()
        };
        t.push(Node::new());
        t
    }

    /// Drops every [`ChildBound`] (a new configuration may have visited children another way
    /// since) and keeps them from now on if `on` (and the tree has AMAF tables).
    pub fn reset_child_bounds(&mut self, on: bool) {
        self.with_child_bounds = on && self.with_amaf;
        self.amaf.children.clear();
        if self.with_child_bounds {
            self.amaf.children.resize(self.nodes.len(), ChildBound::NONE);
        }
    }

    /// Number of nodes.
    #[inline]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Always false (there is a root).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Bytes of the two largest single arenas (allocations) together: what one iteration's
    /// growth may copy to new blocks at once (the AMAF counts and rewards grow together).
    pub fn two_largest_arenas_bytes(&self) -> usize {
        let a = &self.amaf;
        let mut sizes = [
            self.nodes.capacity() * std::mem::size_of::<Node>(),
            self.edges.capacity() * std::mem::size_of::<Edge>(),
            self.priors.capacity() * 4,
            a.n.capacity() * 4,
            a.w2.capacity() * 4,
            a.untried.capacity() * std::mem::size_of::<UntriedBound>(),
            a.children.capacity() * std::mem::size_of::<ChildBound>(),
            a.derived.capacity() * std::mem::size_of::<Option<[u64; MOVE_WORDS]>>(),
        ];
        sizes.sort_unstable();
        sizes[sizes.len() - 1] + sizes[sizes.len() - 2]
    }

    /// Bytes held by the arenas (capacities × sizes) and the AMAF tables.
    pub fn bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.edges.capacity() * std::mem::size_of::<Edge>()
            + self.priors.capacity() * 4
            + self.amaf.bytes()
    }

    /// Appends a node and returns its id.
    #[inline]
    pub fn push(&mut self, node: Node) -> u32 {
        reserve_step(&mut self.nodes, 1);
        let id = self.nodes.len() as u32;
        self.nodes.push(node);
        if self.with_amaf {
            reserve_step(&mut self.amaf.of_node, 1);
            self.amaf.of_node.push(NIL);
            reserve_step(&mut self.amaf.untried, 1);
            self.amaf.untried.push(UntriedBound::NONE);
            if self.with_child_bounds {
                reserve_step(&mut self.amaf.children, 1);
                self.amaf.children.push(ChildBound::NONE);
            }
        }
        id
    }

    /// A run of `size` edge slots (from the free list when one of that size is there).
    fn alloc_run(&mut self, size: usize) -> u32 {
        if let Some(c) = run_class(size) {
            if let Some(s) = self.free[c].pop() {
                self.free_total -= size;
                return s;
            }
        }
        // Else carve it from the smallest larger free run; the rest goes back in class pieces.
        if let Some(c) = (0..RUN_SIZES.len()).find(|&c| RUN_SIZES[c] as usize > size && !self.free[c].is_empty()) {
            let s = self.free[c].pop().unwrap();
            self.free_total -= size;
            let mut at = s + size as u32;
            let mut rest = RUN_SIZES[c] as usize - size;
            while rest > 0 {
                let k = (0..RUN_SIZES.len()).rev().find(|&k| RUN_SIZES[k] as usize <= rest).unwrap();
                self.free[k].push(at);
                at += RUN_SIZES[k] as u32;
                rest -= RUN_SIZES[k] as usize;
            }
            return s;
        }
        reserve_step(&mut self.edges, size);
        let start = self.edges.len() as u32;
        self.edges.resize(self.edges.len() + size, Edge::new(NIL, 0));
        if self.with_priors {
            reserve_step(&mut self.priors, size);
            self.priors.resize(self.edges.len(), 0.0);
        }
        start
    }

    /// Between iterations (no edge index held anywhere): when the edge arena is nearly full and
    /// an eighth of it is free room, slides the runs together instead of letting it grow (a UCT
    /// tree on Hex 11×11 held 23 % free room at a quarter: 62 bytes per node, 58 at an eighth).
    pub fn tidy(&mut self) {
        if self.edges.capacity() - self.edges.len() < 4096 && self.free_total * 8 >= self.edges.len() {
            self.compact_edges();
        }
    }

    /// Slides every run down over the free room (in arena order), empties the free lists.
    fn compact_edges(&mut self) {
        let mut runs: Vec<(u32, u32)> =
            self.nodes.iter().enumerate().filter(|(_, n)| n.edges != NIL).map(|(i, n)| (n.edges, i as u32)).collect();
        runs.sort_unstable();
        let mut at = 0usize;
        for (start, id) in runs {
            let cap = self.nodes[id as usize].cap as usize;
            let s = start as usize;
            if s != at {
                self.edges.copy_within(s..s + cap, at);
                if self.with_priors {
                    self.priors.copy_within(s..s + cap, at);
                }
            }
            self.nodes[id as usize].edges = at as u32;
            at += cap;
        }
        self.edges.truncate(at);
        if self.with_priors {
            self.priors.truncate(at);
        }
        self.free.iter_mut().for_each(|v| v.clear());
        self.free_total = 0;
    }

    /// Appends `edge` to `parent`'s run (growing the run when full) and returns the edge index.
    pub fn add_edge(&mut self, parent: u32, edge: Edge, prior: f32) -> u32 {
        let p = self.nodes[parent as usize];
        if p.n_children >= p.cap {
            let want = next_run_size(p.cap as usize);
            let limit = if p.n_legal == UNKNOWN { usize::MAX } else { p.n_legal as usize };
            let size = want.min(limit).max(p.n_children as usize + 1);
            let start = self.alloc_run(size);
            let len = p.n_children as usize;
            if len > 0 {
                let old = p.edges as usize;
                self.edges.copy_within(old..old + len, start as usize);
                if self.with_priors {
                    self.priors.copy_within(old..old + len, start as usize);
                }
                if let Some(c) = run_class(p.cap as usize) {
                    self.free[c].push(p.edges);
                    self.free_total += p.cap as usize;
                }
            }
            let pn = &mut self.nodes[parent as usize];
            pn.edges = start;
            pn.cap = size as u16;
        }
        let pn = &mut self.nodes[parent as usize];
        let i = pn.edges + pn.n_children as u32;
        pn.n_children += 1;
        self.edges[i as usize] = edge;
        if self.with_priors {
            self.priors[i as usize] = prior;
        }
        i
    }

    /// Replaces the children of `parent` by `kept` (edge copies, in order) in a fresh run.
    pub fn set_children(&mut self, parent: u32, kept: &[(Edge, f32)]) {
        let p = self.nodes[parent as usize];
        let len = kept.len();
        let (mut start, mut size) = (NIL, 0usize);
        if len > 0 {
            let limit = if p.n_legal == UNKNOWN { usize::MAX } else { p.n_legal as usize };
            size = RUN_SIZES.iter().map(|&s| s as usize).find(|&s| s >= len).unwrap_or(len).min(limit).max(len);
            start = self.alloc_run(size);
            for (j, &(e, pr)) in kept.iter().enumerate() {
                self.edges[start as usize + j] = e;
                if self.with_priors {
                    self.priors[start as usize + j] = pr;
                }
            }
        }
        let pn = &mut self.nodes[parent as usize];
        pn.edges = start;
        pn.n_children = len as u16;
        pn.cap = size as u16;
    }

    /// Edge slots held in free runs.
    pub fn free_slots(&self) -> usize {
        self.free_total
    }

    /// The edge indices of `id`'s children.
    #[inline]
    pub fn children(&self, id: u32) -> std::ops::Range<u32> {
        let n = &self.nodes[id as usize];
        if n.edges == NIL {
            0..0
        } else {
            n.edges..n.edges + n.n_children as u32
        }
    }

    /// The child node of edge `e`.
    #[inline(always)]
    pub fn child(&self, e: u32) -> u32 {
        self.edges[e as usize].child
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_pinned() {
        assert_eq!(std::mem::size_of::<Node>(), 24);
        assert_eq!(std::mem::size_of::<Edge>(), 20);
    }

    #[test]
    fn runs_grow_contiguously_and_reuse_freed_room() {
        let mut t = Tree::with_root(false, 0, false);
        t.nodes[0].n_legal = 5;
        for m in 0..5u16 {
            let c = t.push(Node::new());
            t.add_edge(0, Edge::new(c, m), 0.0);
        }
        let kids: Vec<u16> = t.children(0).map(|e| t.edges[e as usize].mv).collect();
        assert_eq!(kids, vec![0, 1, 2, 3, 4]);
        assert_eq!(t.nodes[0].n_children, 5);
        assert_eq!(t.nodes[0].cap, 5, "capped at the legal moves");
        // runs of 1, 2, 3 and 4 were freed; a second node reuses them as it grows
        let before = t.edges.len();
        t.nodes[1].n_legal = 3;
        for m in 0..3u16 {
            let c = t.push(Node::new());
            t.add_edge(1, Edge::new(c, m), 0.0);
        }
        assert_eq!(t.edges.len(), before, "freed runs reused");
        let kids: Vec<u16> = t.children(1).map(|e| t.edges[e as usize].mv).collect();
        assert_eq!(kids, vec![0, 1, 2]);
        assert_eq!(t.children(0).map(|e| t.edges[e as usize].mv).collect::<Vec<_>>(), vec![0, 1, 2, 3, 4]);
        // sliding the runs together keeps every child list and empties the free lists
        let live: usize = t.nodes.iter().map(|n| n.cap as usize).sum();
        t.compact_edges();
        assert_eq!(t.edges.len(), live);
        assert_eq!(t.free_slots(), 0);
        assert_eq!(t.children(0).map(|e| t.edges[e as usize].mv).collect::<Vec<_>>(), vec![0, 1, 2, 3, 4]);
        assert_eq!(t.children(1).map(|e| t.edges[e as usize].mv).collect::<Vec<_>>(), vec![0, 1, 2]);
        assert!(t.children(0).chain(t.children(1)).all(|e| t.edges[e as usize].child != NIL));
    }

    #[test]
    fn edge_sync_caches_ucb_terms() {
        let mut n = Node::new();
        n.n = 4;
        n.w = 3.0;
        let mut e = Edge::new(1, 0);
        assert!(e.k.is_infinite());
        e.sync(&n);
        assert_eq!((e.n, e.q, e.k), (4, 0.75, 0.5));
    }
}
