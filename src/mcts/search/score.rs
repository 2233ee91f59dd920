//! The score of a child at its parent and the AMAF source node: the one place where the
//! selection rules are applied. The descent (`choose`, `pick_unexpanded` and the scans of
//! `expand.rs`) and the step-through trace all call these functions, so a traced iteration
//! reports the very scores its descent compared.
//!
//! A score is seen by the player to move at the parent, values in [0, 1]:
//! - the value V of a child is its mean Q, or under RAVE/GRAVE the blend `(1−β)·Q + β·Q_AMAF`
//!   with the AMAF statistics of the source node's table (Gelly & Silver 2007, 2011; GRAVE:
//!   Cazenave 2015); β by `beta`;
//! - UCT: UCB1 `V + c·√(ln N / n)` (Auer et al. 2002; Kocsis & Szepesvári 2006), +∞ when n = 0;
//!   plain UCT (no AMAF, no transpositions) reads the edges' cached `q` and `k = 1/√n` and costs
//!   one `f32` multiply-add per child ([`plain_ucb1`]);
//! - PUCT: `V + c·P·√N / (1 + n)` (Silver et al. 2017), V = `fpu` (first-play urgency) when n = 0;
//! - progressive bias (UCT with `progressive_bias` c_pb > 0; MoHex 2.0, Huang et al. 2013,
//!   benzene `SgUctSearch::GetBound`): `+ c_pb·P/√(n+1)` on a visited child's UCT score and
//!   `+ c_pb·P` on an untried move's, P the child's prior (`prior = patterns`: γ/Σγ of the
//!   moves' local patterns) kept per edge in the tree ([`progressive_bias`]). Only the general
//!   path ([`Search::child_score`], [`Search::untried_score`]) applies it: the scans of
//!   `expand.rs` are not used while it is on, and with c_pb = 0 nothing changes;
//! - MCTS-Solver (Winands, Björnsson & Saito 2008): a proven child scores −∞, so it is never
//!   selected again;
//! - a move not yet in the tree ("untried") scores by `untried_score`: +∞ under UCT without an
//!   AMAF table (untried moves first), else its PUCT score with V = fpu, or (RAVE/GRAVE) its
//!   AMAF value (n = 0, so β = 1; `fpu` without AMAF data) plus `c·√(ln N)`, the UCB1 bonus
//!   of one visit (nothing when c = 0);
//! - a child not visited yet (n = 0: Hex knowledge adds the consider set's missing moves as
//!   children at once, `knowledge.rs`) scores as the untried move it stands for: +∞ without an
//!   AMAF table, else its `untried_score` (MoHex likewise ranks a child without visits by its
//!   RAVE value and prior, benzene `SgUctSearch::GetValueEstimateRave`), so that a pruning
//!   does not force one visit to each of them;
//! - transpositions: Q and n of the shared node (UCT1), or with `transposition_rule = uct2`
//!   the visits through the edge in the exploration term (Childs, Brodeur & Kocsis 2008);
//! - the pie (swap) move ([`Game::pie_move`]) under RAVE/GRAVE: its AMAF entry is replaced by
//!   the pie rule's symmetry value (see [`Scorer::pie`] and [`Search::scorer`]).
//!
//! # Each formula once: who calls what
//! Three layers. The formulas are pure functions in [`crate::mcts::selection`], each with its
//! display text beside it ([`crate::mcts::selection::Formula`]): `ucb1` (= q + `ucb1_bonus`),
//! its `f32` factored form `ucb1_factored` with `ucb1_parent_factor` and `ucb1_child_factor`
//! (the edge's cached `k`, `Edge::sync`), `puct` (= q + `puct_bonus`), `blend`, `amaf_mean`,
//! `rave_beta_sqrt`, `rave_beta_linear`, `grave_beta`, `secure`. The rules around them are the
//! generic `#[inline(always)]` functions of this file, over the statistic a child offers
//! ([`ChildStat`]: an [`Edge`]'s cache, or a [`ChildView`] of the shared node under
//! transpositions): [`uct_score`] (solver −∞, unvisited +∞, else a formula), [`plain_ucb1`]
//! (`uct_score` with `ucb1_factored`), [`puct_score`] (solver −∞, fpu when unvisited, then
//! `puct_bonus`), [`value`] (`blend` or Q), [`amaf_part`] (`amaf_mean` and β),
//! [`untried_amaf_value`] (`amaf_mean` or fpu) and its branch-free `f32` form
//! [`untried_amaf_value_f32`]. The callers:
//!
//! | caller | rules it calls | formulas reached |
//! |---|---|---|
//! | [`Search::child_score`] (general path, and the trace) | `plain_ucb1`, or `uct_score` / `puct_score` with `value`, `amaf_part` | `ucb1_factored`, `ucb1`, `puct_bonus`, `blend`, `amaf_mean`, β |
//! | `expand.rs::plain_children` (plain UCT's scan) | `plain_ucb1` | `ucb1_factored` |
//! | `expand.rs::amaf_children`, `amaf_children_bounded` (RAVE/GRAVE's pass) | `uct_score`, `value`, `amaf_part` | `blend`, `amaf_mean`, β (`rave_beta_from`, `grave_beta` or `Search::beta`), `ucb1` when c > 0 |
//! | `expand.rs::puct_children` (PUCT's pass) | `puct_score` | `puct_bonus` |
//! | `expand.rs::best_untried_by_amaf`, `best_untried_in_set`, [`untried_value_in`] | `untried_amaf_value`, `untried_amaf_value_f32` | `amaf_mean` |
//! | [`Search::untried_score`] | `untried_value`, `untried_bonus` | `puct`, `ucb1_bonus` |
//! | [`Search::scorer`] | | `ucb1_parent_factor`, [`ln_visits`] |
//! | `trace.rs::selection_formula` | [`Search::formula_text`] | the `Formula` texts (`UCB1`, `PUCT`, `BLEND`, `RAVE_BETA_SQRT`, `RAVE_BETA_LINEAR`, `GRAVE_BETA`) and [`UNTRIED_AMAF`], [`UNTRIED_FIRST`] |
//! | `report.rs`, `parallel.rs` (root statistics, final move) | | `puct_bonus`, `secure`, `amaf_mean` |
//!
//! The test `fast_paths_score_each_child_as_child_score` (`expand.rs`) checks that every scan
//! scores each child bit for bit as `child_score`. Callgrind's instructions per iteration of
//! every preset, before and after the scans called these functions: `docs/speed-history.md`
//! ("One score function").

use super::Search;
use crate::game::{Game, Player};
use crate::mcts::amaf::AmafTables;
use crate::mcts::config::{RaveSchedule, SearchConfig, Selection, TranspositionRule, ValueEstimate};
use crate::mcts::selection::{
    amaf_mean, blend, grave_beta, progressive_bias, puct, puct_bonus, rave_beta_linear, rave_beta_sqrt, ucb1, ucb1_bonus, ucb1_factored,
    ucb1_parent_factor, Formula, BLEND, GRAVE_BETA, PROGRESSIVE_BIAS, PUCT, RAVE_BETA_LINEAR, RAVE_BETA_SQRT, UCB1,
};
use crate::mcts::tree::{Edge, NIL};

/// The rule for untried moves under UCT without an AMAF table ([`Search::untried_first`]), as
/// displayed.
pub(crate) const UNTRIED_FIRST: &str = "untried moves first";

/// The score of an untried move under RAVE/GRAVE ([`Search::untried_score`]: its AMAF value,
/// n = 0 so β = 1, plus the UCB1 bonus of one visit), as displayed.
pub(crate) const UNTRIED_AMAF: Formula = Formula { expr: "Q_AMAF + c·√(ln N)", source: "Gelly & Silver 2007" };

/// What the scores of the children of one parent depend on, computed once per parent.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scorer {
    /// The parent's visits N.
    pub(crate) parent_n: u32,
    /// ln N (N at least 1).
    pub(crate) ln_n: f64,
    /// `c·√(ln N)` in `f32`: the plain-UCT exploration factor of the edges' cached `1/√n`.
    pub(crate) cs: f32,
    /// The AMAF table the values blend in ([`NIL`]: V = Q).
    pub(crate) table: u32,
    /// The player to move at the parent (whose AMAF entries are read).
    pub(crate) player: Player,
    /// Plain UCT: no AMAF blend and no transpositions, so the edges' cache is all a score needs.
    pub(crate) plain: bool,
    /// The pie move's dense index ([`NIL`]: none legal here, or no AMAF blend) and its AMAF
    /// stand-in `(n, Q)`: the visits of the other children and `1 −` their mean value, for the
    /// player to move (`n = 0`: no stand-in yet). See [`Search::scorer`].
    pub(crate) pie: (u32, u32, f64),
}

/// One child's score and the parts it was computed from.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Score {
    /// Visits n of the child (through the edge, or of the shared node with transpositions).
    pub(crate) n: u32,
    /// Mean value Q of the child.
    pub(crate) q: f64,
    /// `(Q_AMAF, β)` when the AMAF table has data on the move.
    pub(crate) amaf: Option<(f64, f64)>,
    /// Prior P (PUCT).
    pub(crate) prior: Option<f64>,
    /// The score; −∞ for a proven child under MCTS-Solver, +∞ for n = 0 under UCT.
    pub(crate) value: f64,
}

/// What a child offers the score rules: its visits, its mean value and whether it is proven. An
/// [`Edge`]'s cache is all that plain UCT and the scans of `expand.rs` read; the general path
/// ([`Search::child_score`]) reads a [`ChildView`] (the shared node's statistics under
/// transpositions).
pub(crate) trait ChildStat {
    /// Visits n.
    fn n(&self) -> u32;
    /// Mean value Q, the mover's view.
    fn q(&self) -> f64;
    /// Whether MCTS-Solver proved the child (win, loss or draw).
    fn proven(&self) -> bool;
    /// The n of the exploration term: n itself, or under UCT2 the visits through the edge.
    #[inline(always)]
    fn explore_n(&self) -> u32 {
        self.n()
    }
}

impl ChildStat for Edge {
    #[inline(always)]
    fn n(&self) -> u32 {
        self.n
    }
    #[inline(always)]
    fn q(&self) -> f64 {
        self.q as f64
    }
    #[inline(always)]
    fn proven(&self) -> bool {
        self.proof != 0
    }
}

/// A child's statistics as [`Search::child_score`] reads them: the edge's cache, or with
/// transpositions the shared node's n, Q and proof, with `explore_n` the visits through the edge
/// under UCT2 (Childs, Brodeur & Kocsis 2008).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ChildView {
    n: u32,
    q: f64,
    proof: u8,
    explore_n: u32,
}

impl ChildStat for ChildView {
    #[inline(always)]
    fn n(&self) -> u32 {
        self.n
    }
    #[inline(always)]
    fn q(&self) -> f64 {
        self.q
    }
    #[inline(always)]
    fn proven(&self) -> bool {
        self.proof != 0
    }
    #[inline(always)]
    fn explore_n(&self) -> u32 {
        self.explore_n
    }
}

/// A score type: `f32` (plain UCT's scan) or `f64`, with its infinities.
pub(crate) trait ScoreValue: Copy {
    /// +∞: an unvisited child under UCT.
    const INFINITY: Self;
    /// −∞: a proven child under MCTS-Solver.
    const NEG_INFINITY: Self;
}

impl ScoreValue for f32 {
    const INFINITY: f32 = f32::INFINITY;
    const NEG_INFINITY: f32 = f32::NEG_INFINITY;
}

impl ScoreValue for f64 {
    const INFINITY: f64 = f64::INFINITY;
    const NEG_INFINITY: f64 = f64::NEG_INFINITY;
}

/// UCT's rule around its formula: −∞ for a proven child under MCTS-Solver (`solver`; Winands,
/// Björnsson & Saito 2008: never selected again), +∞ for an unvisited one (n = 0, or no visit
/// through the edge under UCT2: the UCB1 bonus of n = 0 is infinite), else `formula(child)`:
/// UCB1 on the value ([`ucb1`], [`ucb1_factored`]), or the value itself when c = 0. Without
/// `unvisited` the caller knows that `formula` gives +∞ for n = 0 itself (plain UCT with
/// `0 < c·√(ln N) < ∞`, where `k = +∞`) and the test is left out.
#[inline(always)]
pub(crate) fn uct_score<S: ChildStat, F: ScoreValue>(s: &S, solver: bool, unvisited: bool, formula: impl FnOnce(&S) -> F) -> F {
    if solver && s.proven() {
        F::NEG_INFINITY
    } else if unvisited && (s.n() == 0 || s.explore_n() == 0) {
        F::INFINITY
    } else {
        formula(s)
    }
}

/// The plain-UCT score of an edge from its cache: [`uct_score`] with UCB1 as one `f32`
/// multiply-add ([`ucb1_factored`], `cs = c·√(ln N)`); `SOLVER`: proven children score −∞;
/// `FOLDED`: no `n = 0` test (only for `0 < cs < ∞`, see [`uct_score`]).
#[inline(always)]
pub(crate) fn plain_ucb1<const SOLVER: bool, const FOLDED: bool>(e: &Edge, cs: f32) -> f32 {
    uct_score(e, SOLVER, !FOLDED, |e| ucb1_factored(e.q, cs, e.k))
}

/// PUCT's rule around its formula: −∞ for a proven child under MCTS-Solver, else [`puct`] on
/// the value (`value(child)`, or the first-play urgency `fpu` when n = 0) with prior `prior`
/// and the parent's `√N` given.
#[inline(always)]
pub(crate) fn puct_score<S: ChildStat>(
    s: &S,
    solver: bool,
    value: impl FnOnce(&S) -> f64,
    fpu: f64,
    prior: f64,
    sqrt_parent: f64,
    c: f64,
) -> f64 {
    if solver && s.proven() {
        f64::NEG_INFINITY
    } else {
        let v = if s.n() == 0 { fpu } else { value(s) };
        v + puct_bonus(prior, s.explore_n() as u64, sqrt_parent, c)
    }
}

/// The value V of a child: Q, or `(1−β)·Q + β·Q_AMAF` ([`blend`]) with `amaf = (Q_AMAF, β)`
/// when the AMAF table has data on the move (Gelly & Silver 2007; GRAVE: Cazenave 2015).
#[inline(always)]
pub(crate) fn value(q: f64, amaf: Option<(f64, f64)>) -> f64 {
    match amaf {
        Some((aq, beta)) => blend(q, aq, beta),
        None => q,
    }
}

/// `(Q_AMAF, β)` of an AMAF entry of `an` samples and reward sum `aw2` in half points for a
/// child with `n` visits, `β = beta(n, an)`; `None` without samples. With [`value`], the RAVE /
/// GRAVE value of a child read from a table row.
#[inline(always)]
pub(crate) fn amaf_part(n: u32, an: u32, aw2: u32, beta: impl FnOnce(u32, u32) -> f64) -> Option<(f64, f64)> {
    (an > 0).then(|| (amaf_mean(an, aw2), beta(n, an)))
}

/// UCB1 on a value `v` of a child with `n` visits; for `n = 0` (a child added unvisited) the
/// bonus of one visit, as an untried move gets ([`Search::untried_score`]), instead of +∞.
#[inline(always)]
pub(crate) fn ucb1_or_untried(v: f64, n: u32, ln_n: f64, c: f64) -> f64 {
    if n == 0 {
        v + ucb1_bonus(1, ln_n, c)
    } else {
        ucb1(v, n, ln_n, c)
    }
}

/// The value of an untried move from its AMAF entry (n = 0, so β = 1): `Q_AMAF`
/// ([`amaf_mean`]), `fpu` without samples (Gelly & Silver 2007, MC-RAVE).
#[inline(always)]
pub(crate) fn untried_amaf_value(an: u32, aw2: u32, fpu: f64) -> f64 {
    if an > 0 {
        amaf_mean(an, aw2)
    } else {
        fpu
    }
}

/// [`untried_amaf_value`] in `f32` without a branch, for the dense scan of `expand.rs`
/// (`best_untried_in_set`), with the count in `f32` too (`f`: the fpu). Without samples
/// `w2 = 0`, so the quotient is 0 and `f` is added (a multiply, not a branch). The scan takes
/// the exact value of the move it picks from [`untried_amaf_value`].
#[inline(always)]
pub(crate) fn untried_amaf_value_f32(n: u32, w2: u32, f: f32) -> (f32, f32) {
    // w2 ≤ 2n ≤ 2·AMAF_MAX < 2³¹: `i32` conversions.
    let q = (w2 as i32) as f32 * 0.5 / (n.max(1) as i32) as f32 + f * ((n == 0) as u32 as f32);
    (q, (n as i32) as f32)
}

/// [`Search::untried_value`] on the tables alone (`table` not [`NIL`], `ms` moves per player;
/// the pie move is valued in `pick_unexpanded`, not here): [`untried_amaf_value`] of player
/// `p`'s move `mv`.
#[inline(always)]
pub(crate) fn untried_value_in(amaf: &AmafTables, table: u32, p: Player, mv: usize, ms: usize, fpu: f64) -> f64 {
    let (an, aw2) = amaf.get(table, p, mv, ms);
    untried_amaf_value(an, aw2, fpu)
}

/// Visits below which the RAVE β of a child is read from a table ([`beta_table`]).
pub(crate) const BETA_TABLE: usize = 1024;

/// The RAVE β of a child with `n` visits under `c`'s schedule: `√(k/(3n+k))` (Gelly & Silver
/// 2007) or the linear `max(0, (V−n)/V)`.
#[inline]
pub(crate) fn rave_beta(c: &SearchConfig, n: u32) -> f64 {
    match c.rave_schedule {
        RaveSchedule::Sqrt => rave_beta_sqrt(n, c.rave_k),
        RaveSchedule::Linear => rave_beta_linear(n, c.rave_v),
    }
}

/// [`rave_beta`] read from `table` ([`beta_table`]) below its length, computed past it: the
/// same values.
#[inline(always)]
pub(crate) fn rave_beta_from(table: &[f64], c: &SearchConfig, n: u32) -> f64 {
    match table.get(n as usize) {
        Some(&b) => b,
        None => rave_beta(c, n),
    }
}

/// β for n = 0 .. [`BETA_TABLE`] − 1 under RAVE (`value = rave`), by [`rave_beta`]; empty for
/// other value estimates (GRAVE's β also depends on the AMAF count).
pub(crate) fn beta_table(c: &SearchConfig) -> Vec<f64> {
    if c.value == ValueEstimate::Rave {
        (0..BETA_TABLE as u32).map(|n| rave_beta(c, n)).collect()
    } else {
        Vec::new()
    }
}

/// Visits below which a node's `ln N` (UCB1's exploration term) is read from a table
/// ([`ln_table`]) instead of computed: 16 KB, the same values. Most nodes a descent passes
/// through have fewer visits; in WebAssembly `ln` is a software routine (about 6% of a UCT
/// search's time on Hex 11×11 in V8, 4% natively, before this table). At and above it,
/// [`ln_visits`] computes `ln N` from the table's top entries.
pub(crate) const LN_TABLE: usize = 2048;

/// `ln max(N, 1)` for N = 0 .. [`LN_TABLE`] − 1, as [`Search::scorer`] computes it; built once
/// per process, shared by every search.
pub(crate) fn ln_table() -> &'static [f64] {
    static TABLE: std::sync::LazyLock<Vec<f64>> =
        std::sync::LazyLock::new(|| (0..LN_TABLE as u32).map(|n| (n.max(1) as f64).ln()).collect());
    &TABLE
}

/// `ln max(N, 1)` for a visit count N, from [`ln_table`] (`table`) below [`LN_TABLE`] and
/// otherwise as `ln N = ln h + s·ln 2 + ln(1 + x)`, with `h = N >> s` the top 11 bits of N
/// (1,024 ≤ h < 2,048, read from the table), `x = (N − h·2^s) / (h·2^s)` in [0, 2⁻¹⁰) and
/// `ln(1 + x)` by its Taylor series to x⁴ (truncation below x⁵/5 < 2⁻⁵² ≈ 2·10⁻¹⁶): within a
/// 2 units in the last place of `f64::ln` (test `ln_visits_is_ln`), and UCB1 uses it
/// through `c·√(ln N)` rounded to `f32`. Why not `f64::ln`: in WebAssembly `ln` is a software
/// routine, and the root and the first plies pass N ≥ 2,048 on every descent (4.4 % of a UCT
/// search on Hex 11×11 in V8); this takes a table read, one division and four multiply-adds.
/// Only IEEE-754 basic operations, so the result is the same on every target.
#[inline(always)]
pub(crate) fn ln_visits(table: &[f64], n: u32) -> f64 {
    if let Some(&l) = table.get(n as usize) {
        return l;
    }
    let s = 21 - n.leading_zeros(); // N < 2^32, N ≥ 2,048: bit length 12..=32, s = length − 11
    let top = n >> s;
    let base = top << s;
    let x = (n - base) as f64 / base as f64;
    table[top as usize] + s as f64 * std::f64::consts::LN_2 + x * (1.0 - x * (0.5 - x * (1.0 / 3.0 - x * 0.25)))
}

impl<G: Game> Search<G> {
    /// The AMAF source once the descent has reached `node`, `src` the source so far ([`NIL`] at
    /// the root): `node` if it has an AMAF table — under GRAVE only with at least `grave_ref`
    /// playouts, unless no source was found yet (Cazenave 2015) — else `src`. Tables hold both
    /// players' moves, so a source at any depth serves.
    #[inline(always)]
    pub(super) fn amaf_source(&self, src: u32, node: u32) -> u32 {
        if self.tree.amaf.of_node[node as usize] == NIL {
            return src;
        }
        let grave = self.config.value == ValueEstimate::Grave;
        if !grave || src == NIL || self.tree.nodes[node as usize].n >= self.config.grave_ref {
            node
        } else {
            src
        }
    }

    /// The scores' context at `parent` (position `g`), AMAF source `src`: the source's table
    /// when the value estimate blends AMAF (PoolRAVE alone keeps tables but selects on Q).
    ///
    /// The pie move. Where [`Game::pie_move`] names a legal swap move and AMAF is blended, the
    /// swap's AMAF entry holds only its own visits (it is never played later), so with β ≈ 1
    /// and c = 0 a swap that lost its first playout scored Q = 0 and was never tried again. Its
    /// AMAF stand-in is instead exact by symmetry: after a swap the position is the
    /// colour-mirror of the present one with the opponent to move and no swap left (HexWiki,
    /// "Swap rule": the swap makes the first player's opening the second player's), so the
    /// swap is worth, to the player to move, `1 −` what the present position is worth to them
    /// without the swap, estimated as MCTS estimates a node's value: the mean Q over the visits
    /// of the other children (`n_AMAF` = those visits). β then fades it as the swap's own
    /// visits grow, as for any AMAF value. Computed only at such nodes (ply 1 of Hex with
    /// swap), so other games pay one call that returns `None`.
    #[inline(always)]
    pub(super) fn scorer(&self, parent: u32, g: &G, src: u32) -> Scorer {
        let parent_n = self.tree.nodes[parent as usize].n;
        let ln_n = ln_visits(self.ln_table, parent_n);
        let table = if src != NIL && self.config.value != ValueEstimate::Mean { self.tree.amaf.of_node[src as usize] } else { NIL };
        let pie = match g.pie_move() {
            Some(mv) if table != NIL => self.pie_stand_in(parent, mv),
            _ => (NIL, 0, 0.0),
        };
        Scorer {
            parent_n,
            ln_n,
            cs: ucb1_parent_factor(self.config.c, ln_n),
            table,
            player: g.to_move(),
            plain: self.config.selection == Selection::Uct && table == NIL && self.tt.is_none() && self.config.progressive_bias == 0.0,
            pie,
        }
    }

    /// The pie move `mv` and its AMAF stand-in at `parent` (see [`Search::scorer`]):
    /// `(mv, Σn, 1 − Σ(n·Q)/Σn)` over the children of `parent` other than `mv`.
    #[inline(never)]
    fn pie_stand_in(&self, parent: u32, mv: usize) -> (u32, u32, f64) {
        let (mut n, mut w) = (0u64, 0.0f64);
        for e in self.tree.children(parent) {
            let edge = &self.tree.edges[e as usize];
            if edge.mv as usize == mv {
                continue;
            }
            let (cn, cq) = if self.tt.is_some() {
                let ch = &self.tree.nodes[edge.child as usize];
                (ch.n, ch.q())
            } else {
                (edge.n, edge.q as f64)
            };
            n += cn as u64;
            w += cn as f64 * cq;
        }
        if n == 0 {
            (mv as u32, 0, 0.0)
        } else {
            (mv as u32, n.min(u32::MAX as u64) as u32, 1.0 - w / n as f64)
        }
    }

    /// The RAVE weight β of a move with `n` visits and `an` AMAF visits: `√(k/(3n+k))` (Gelly &
    /// Silver 2007) or the linear `max(0, (V−n)/V)`; GRAVE `n_a/(n_a + n + bias·n_a·n)`
    /// (Cazenave 2015); 0 without a blend.
    /// The RAVE schedules depend on n alone: below [`BETA_TABLE`] visits β is read from
    /// `beta_table`, filled by the same formulas ([`beta_table`]), so the values are identical.
    #[inline(always)]
    pub(super) fn beta(&self, n: u32, an: u32) -> f64 {
        match self.config.value {
            ValueEstimate::Mean => 0.0,
            ValueEstimate::Rave => rave_beta_from(&self.beta_table, &self.config, n),
            ValueEstimate::Grave => grave_beta(n, an, self.config.grave_bias),
        }
    }

    /// The score of the child behind edge `e` (see the module docs): [`uct_score`] or
    /// [`puct_score`] on its [`ChildView`] and its [`value`], the AMAF part from the scorer's
    /// table ([`amaf_part`]) or, for the pie move, its symmetry stand-in.
    #[inline(always)]
    pub(super) fn child_score(&self, sc: &Scorer, e: u32) -> Score {
        let edge = &self.tree.edges[e as usize];
        let view = if self.tt.is_some() {
            // Transpositions: the shared node holds the statistics; the edge's cache may lag
            // and its `n` counts the visits through the edge (see `backprop`).
            let ch = &self.tree.nodes[edge.child as usize];
            let en = if self.config.transposition_rule == TranspositionRule::Uct2 { edge.n } else { ch.n };
            ChildView { n: ch.n, q: ch.q(), proof: ch.proof, explore_n: en }
        } else {
            ChildView { n: edge.n, q: edge.q as f64, proof: edge.proof, explore_n: edge.n }
        };
        let n = view.n;
        let amaf = if edge.mv as u32 == sc.pie.0 {
            // The pie move: the symmetry stand-in replaces its own-visits-only AMAF entry.
            (sc.pie.1 > 0).then(|| (sc.pie.2, self.beta(n, sc.pie.1)))
        } else if sc.table != NIL {
            let (an, aw2) = self.tree.amaf.get(sc.table, sc.player, edge.mv as usize, self.ms);
            amaf_part(n, an, aw2, |n, an| self.beta(n, an))
        } else {
            None
        };
        let c = self.config.c;
        let solver = self.config.solver;
        let puct_on = self.config.selection == Selection::Puct;
        // PUCT's P, or the progressive bias's (the tree keeps priors for both).
        let prior = self.tree.with_priors.then(|| self.tree.priors[e as usize] as f64);
        let value_of = |s: &ChildView| value(s.q, amaf);
        let score = if sc.plain {
            // Plain UCT (no transpositions, no AMAF): the edge's cache, as the scan reads it.
            if solver {
                plain_ucb1::<true, false>(edge, sc.cs) as f64
            } else {
                plain_ucb1::<false, false>(edge, sc.cs) as f64
            }
        } else if puct_on {
            puct_score(&view, solver, value_of, self.config.fpu, prior.unwrap_or(0.0), (sc.parent_n as f64).sqrt(), c)
        } else if n == 0 && sc.table != NIL {
            // Not visited yet (added by Hex knowledge): as the untried move it stands for.
            uct_score(&view, solver, false, |_| self.untried_score(sc, edge.mv as usize, prior.unwrap_or(0.0) as f32, false))
        } else {
            let pb = self.config.progressive_bias;
            uct_score(&view, solver, true, |s| {
                let u = ucb1(value_of(s), s.explore_n, sc.ln_n, c);
                if pb > 0.0 {
                    u + progressive_bias(prior.unwrap_or(0.0), s.explore_n, pb)
                } else {
                    u
                }
            })
        };
        Score { n, q: view.q, amaf, prior, value: score }
    }

    /// Whether every untried move comes before any revisit (it scores +∞): UCT without an AMAF
    /// table to value untried moves by (the UCB1 bonus of n = 0 is infinite). With an AMAF table
    /// (RAVE, GRAVE) untried moves are ranked with the children by [`Search::untried_score`],
    /// whatever c.
    #[inline(always)]
    pub(super) fn untried_first(&self, sc: &Scorer) -> bool {
        self.config.selection == Selection::Uct && sc.table == NIL
    }

    /// The value of an untried move `mv` (n = 0, so β = 1): its AMAF value in the scorer's table,
    /// `fpu` without data; for the pie move, its symmetry stand-in ([`Search::scorer`]). Orders
    /// the expansions under RAVE/GRAVE (Gelly & Silver 2007, MC-RAVE).
    #[inline]
    pub(super) fn untried_value(&self, sc: &Scorer, mv: usize) -> f64 {
        if sc.table == NIL {
            return self.config.fpu;
        }
        if mv as u32 == sc.pie.0 {
            return if sc.pie.1 > 0 { sc.pie.2 } else { self.config.fpu };
        }
        untried_value_in(&self.tree.amaf, sc.table, sc.player, mv, self.ms, self.config.fpu)
    }

    /// The score of an untried move `mv` with prior `prior` (PUCT), ranked against the scores of
    /// the existing children: PUCT with V = fpu; +∞ for a decisive / anti-decisive move
    /// (`tactical`) or when untried moves come first (`untried_first`); else (RAVE/GRAVE with an
    /// AMAF table) its `untried_value` plus the UCB1 bonus it would have after one visit,
    /// `c·√(ln N / 1)` (the bonus of n = 0 is infinite, which would force every untried move
    /// before any revisit and drown the AMAF ranking; with c = 0, as Gelly & Silver 2011 and
    /// Cazenave 2015, the AMAF value alone).
    #[inline]
    pub(super) fn untried_score(&self, sc: &Scorer, mv: usize, prior: f32, tactical: bool) -> f64 {
        if self.config.selection == Selection::Puct {
            puct(self.config.fpu, prior as f64, 0, sc.parent_n, self.config.c)
        } else if tactical || self.untried_first(sc) {
            f64::INFINITY
        } else if self.config.progressive_bias > 0.0 {
            // MoHex 2.0's progressive bias at n = 0 (`c_pb·P/√1`).
            self.untried_value(sc, mv) + self.untried_bonus(sc) + progressive_bias(prior as f64, 0, self.config.progressive_bias)
        } else {
            self.untried_value(sc, mv) + self.untried_bonus(sc)
        }
    }

    /// The rules [`Search::child_score`] and [`Search::untried_score`] apply under this
    /// configuration, in words and symbols, with the parameters' values: each formula's text and
    /// source from [`crate::mcts::selection`] (the trace's `formula`).
    pub(super) fn formula_text(&self) -> String {
        let cfg = &self.config;
        // c to 3 decimals (√2 reads 1.414).
        let c = (cfg.c * 1000.0).round() / 1000.0;
        let value = match cfg.value {
            ValueEstimate::Mean => "V = Q".to_string(),
            ValueEstimate::Rave => match cfg.rave_schedule {
                RaveSchedule::Sqrt => {
                    format!("V = {}, β = {}, k = {} ({})", BLEND.expr, RAVE_BETA_SQRT.expr, cfg.rave_k, RAVE_BETA_SQRT.source)
                }
                RaveSchedule::Linear => format!("V = {}, β = {}, V = {}", BLEND.expr, RAVE_BETA_LINEAR.expr, cfg.rave_v),
            },
            ValueEstimate::Grave => format!(
                "V = {}, β = {}, b = {}, AMAF from the nearest node with ≥ {} playouts ({})",
                BLEND.expr, GRAVE_BETA.expr, cfg.grave_bias, cfg.grave_ref, GRAVE_BETA.source
            ),
        };
        let untried = if cfg.value == ValueEstimate::Mean {
            UNTRIED_FIRST.to_string()
        } else {
            format!("an untried move scores {}, c = {c}", UNTRIED_AMAF.expr)
        };
        let bias = if cfg.progressive_bias > 0.0 {
            format!(
                " + {}, c_pb = {}, P = the prior ({}; {})",
                PROGRESSIVE_BIAS.expr,
                cfg.progressive_bias,
                serde_json::to_value(cfg.prior).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default(),
                PROGRESSIVE_BIAS.source
            )
        } else {
            String::new()
        };
        match cfg.selection {
            Selection::Uct => format!("UCT score = {}{bias}, c = {c} ({}); {value}; {untried}", UCB1.expr, UCB1.source),
            Selection::Puct => format!("PUCT score = {}, c = {c} ({}); {value}; unvisited V = fpu = {}", PUCT.expr, PUCT.source, cfg.fpu),
        }
    }

    /// The exploration bonus of an untried move under RAVE/GRAVE with c > 0: `c·√(ln N)` (UCB1
    /// at n = 1); 0 when c = 0.
    #[inline(always)]
    pub(super) fn untried_bonus(&self, sc: &Scorer) -> f64 {
        ucb1_bonus(1, sc.ln_n, self.config.c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Hex;
    use crate::mcts::tree::Node;
    use crate::mcts::{Budget, SearchConfig};

    #[test]
    fn plain_ucb1_is_ucb1_in_f32() {
        let mut node = Node::new();
        node.n = 10;
        node.w = 6.0;
        let mut e = Edge::new(1, 0);
        e.sync(&node);
        let ln_n = (100f64).ln();
        let c = std::f64::consts::SQRT_2;
        let cs = ucb1_parent_factor(c, ln_n);
        let want = ucb1(0.6, 10, ln_n, c);
        let got = plain_ucb1::<false, false>(&e, cs);
        assert!((got as f64 - want).abs() < 1e-5, "{got} vs {want}");
        let fresh = Edge::new(1, 0);
        assert_eq!(plain_ucb1::<false, false>(&fresh, cs), f32::INFINITY, "unvisited: +∞");
        assert_eq!(plain_ucb1::<false, true>(&fresh, cs), f32::INFINITY, "folded: +∞ from k = +∞");
        assert_eq!(plain_ucb1::<false, true>(&e, cs), got, "folded: the same score");
        e.proof = 1;
        assert_eq!(plain_ucb1::<true, false>(&e, cs), f32::NEG_INFINITY, "proven under MCTS-Solver: never selected");
        assert_eq!(plain_ucb1::<true, true>(&e, cs), f32::NEG_INFINITY, "proven, folded");
        assert!(plain_ucb1::<false, false>(&e, cs).is_finite(), "proofs matter only with the solver");
    }

    /// The `ln N` table holds exactly the computed values, and the scorer's `ln N` is the same
    /// on both sides of the table's end.
    #[test]
    fn ln_table_is_ln() {
        let t = ln_table();
        assert_eq!(t.len(), LN_TABLE);
        for (n, &l) in t.iter().enumerate() {
            assert_eq!(l.to_bits(), (n.max(1) as f64).ln().to_bits(), "N = {n}");
        }
        let mut s = Search::new(Hex::new(5, false).unwrap(), SearchConfig::default()).unwrap();
        for n in [0, 1, 2, LN_TABLE as u32 - 1, LN_TABLE as u32, 1 << 20, u32::MAX] {
            s.tree.nodes[0].n = n;
            let sc = s.scorer(0, &s.root.clone(), NIL);
            assert_eq!(sc.ln_n.to_bits(), ln_visits(t, n).to_bits(), "N = {n}");
        }
    }

    /// `ln_visits` is the table below its end and within 2 units in the last place of
    /// `f64::ln` above it (every N up to 2^22, then 2^20 drawn up to `u32::MAX`), and
    /// `√2·√(ln N)` as `f32`, what UCB1 reads, is the same as with `f64::ln` for all of them.
    #[test]
    fn ln_visits_is_ln() {
        let t = ln_table();
        let mut differ = 0u32;
        let mut check = |n: u32| {
            let (got, want) = (ln_visits(t, n), (n.max(1) as f64).ln());
            let ulp = (want.to_bits() as i64 - got.to_bits() as i64).abs();
            assert!(ulp <= 2, "N = {n}: {got} against {want} ({ulp} ulp)");
            if (std::f64::consts::SQRT_2 * got.sqrt()) as f32 != (std::f64::consts::SQRT_2 * want.sqrt()) as f32 {
                differ += 1;
            }
            ulp
        };
        let mut worst = 0;
        for n in 0..1u32 << 22 {
            worst = worst.max(check(n));
        }
        let mut rng = crate::rng::Rng64::new(5);
        for _ in 0..1 << 20 {
            worst = worst.max(check(rng.next_u64() as u32));
        }
        worst = worst.max(check(u32::MAX));
        assert_eq!(differ, 0, "f32 exploration terms that differ (worst {worst} ulp)");
    }

    /// The trace's formula text, composed from the formulas' own text ([`Formula`]), reads as it
    /// always has for each kind of rule.
    #[test]
    fn formula_text_names_each_rule() {
        let text = |preset: &str, sets: &[(&str, &str)]| {
            let mut cfg = SearchConfig::preset(preset).unwrap();
            for (k, v) in sets {
                cfg.set(k, v).unwrap();
            }
            Search::new(Hex::new(5, false).unwrap(), cfg).unwrap().selection_formula()
        };
        let uct = "UCT score = V + c·√(ln N / n)";
        let untried = "an untried move scores Q_AMAF + c·√(ln N), c = 0";
        let blend = "V = (1−β)·Q + β·Q_AMAF";
        assert_eq!(text("uct", &[]), format!("{uct}, c = 1.414 (Kocsis & Szepesvári 2006); V = Q; untried moves first"));
        assert_eq!(
            text("rave", &[]),
            format!("{uct}, c = 0 (Kocsis & Szepesvári 2006); {blend}, β = √(k/(3n+k)), k = 1000 (Gelly & Silver 2007); {untried}")
        );
        assert_eq!(
            text("rave", &[("rave_schedule", "linear")]),
            format!("{uct}, c = 0 (Kocsis & Szepesvári 2006); {blend}, β = max(0, (V−n)/V), V = 300; {untried}")
        );
        assert_eq!(
            text("grave", &[]),
            format!(
                "{uct}, c = 0 (Kocsis & Szepesvári 2006); {blend}, β = n_a/(n_a + n + b·n_a·n), b = 0.000001, AMAF from the nearest node \
                 with ≥ 100 playouts (Cazenave 2015); {untried}"
            )
        );
        assert_eq!(text("puct", &[]), "PUCT score = V + c·P·√N / (1 + n), c = 1.5 (Silver et al. 2017); V = Q; unvisited V = fpu = 0.5");
    }

    /// The general formula reproduces the plain path, and RAVE/PUCT scores are the published
    /// formulas applied to the parts the score reports.
    #[test]
    fn child_score_parts_give_the_score() {
        for preset in ["uct", "rave", "grave", "puct"] {
            let mut s = Search::new(Hex::new(5, false).unwrap(), SearchConfig::preset(preset).unwrap()).unwrap();
            s.run(Budget::iterations(2000), &|| 0.0);
            let src = if s.tree.with_amaf { s.amaf_source(NIL, 0) } else { NIL };
            let sc = s.scorer(0, &s.root, src);
            let c = s.config.c;
            let mut checked = 0;
            for e in s.tree.children(0) {
                let x = s.child_score(&sc, e);
                let v = x.amaf.map_or(x.q, |(aq, beta)| blend(x.q, aq, beta));
                let want = match preset {
                    "uct" => {
                        let edge = &s.tree.edges[e as usize];
                        (edge.q + sc.cs * edge.k) as f64
                    }
                    "puct" => puct(if x.n == 0 { s.config.fpu } else { v }, x.prior.unwrap(), x.n, sc.parent_n, c),
                    _ => ucb1(v, x.n, sc.ln_n, c),
                };
                if x.n > 0 {
                    assert!((x.value - want).abs() < 1e-12, "{preset}: {} vs {want}", x.value);
                    checked += 1;
                }
                if preset == "rave" || preset == "grave" {
                    assert!(x.amaf.is_some(), "{preset}: the root's table has data on every tried move");
                }
            }
            assert!(checked > 5, "{preset}");
        }
    }

    /// A RAVE search with the pattern prior and weights that favour one pattern strongly.
    fn biased_search(seed: u64, c_pb: f64) -> Search<Hex> {
        use crate::game::hex::patterns::{PatternWeights, NO_PATTERN};
        use crate::mcts::evaluator::PatternPrior;
        let g = Hex::new(5, false).unwrap();
        let mut keys = Vec::new();
        let mut moves = crate::game::MoveList::new();
        g.legal_moves(&mut moves);
        g.pattern_keys(&moves, &mut keys);
        // The centre's pattern (all empty) weighs 50, the rest 1.
        let centre = keys[12];
        assert_ne!(centre, NO_PATTERN);
        let w = PatternWeights::new(vec![(centre, 50.0)]);
        let mut cfg = SearchConfig::preset("rave").unwrap();
        cfg.set("prior", "patterns").unwrap();
        cfg.set("progressive_bias", &c_pb.to_string()).unwrap();
        cfg.seed = seed;
        Search::with_evaluator(g, cfg, Box::new(PatternPrior::new(std::sync::Arc::new(w)))).unwrap()
    }

    /// Under UCT with `progressive_bias`, a child's score is its UCT score plus
    /// `c_pb·P/√(n+1)` with P its stored prior, and a node's priors are normalised (γ/Σγ over
    /// its legal moves: the whole list sums to 1, its children's to at most 1).
    #[test]
    fn progressive_bias_adds_its_term() {
        use crate::mcts::selection::progressive_bias;
        let mut s = biased_search(3, 2.47);
        s.run(Budget::iterations(3000), &|| 0.0);
        let src = s.amaf_source(NIL, 0);
        let sc = s.scorer(0, &s.root.clone(), src);
        let (mut sum, mut checked) = (0.0, 0);
        for e in s.tree.children(0) {
            let x = s.child_score(&sc, e);
            let p = x.prior.expect("the tree keeps priors under the progressive bias");
            sum += p;
            let v = x.amaf.map_or(x.q, |(aq, beta)| blend(x.q, aq, beta));
            if x.n > 0 {
                let want = ucb1(v, x.n, sc.ln_n, s.config.c) + progressive_bias(p, x.n, 2.47);
                assert!((x.value - want).abs() < 1e-12, "{} vs {want}", x.value);
                checked += 1;
            }
        }
        assert!(checked > 5);
        assert!(sum <= 1.0 + 1e-6, "the children's priors sum to {sum}");
        let (moves, p) = s.node_priors.of(0).expect("the root's prior list");
        assert_eq!(moves.len(), 25, "every legal move has its P");
        let total: f32 = p.iter().sum();
        assert!((total - 1.0).abs() < 1e-5, "the root's priors sum to {total}");
        // The centre (P = 50/74) against a corner (P = 1/74).
        let pri = |mv: u16| p[moves.iter().position(|&m| m == mv).unwrap()] as f64;
        assert!((pri(12) - 50.0 / 74.0).abs() < 1e-6, "{}", pri(12));
        assert!((pri(0) - 1.0 / 74.0).abs() < 1e-6, "{}", pri(0));
        for e in s.tree.children(0) {
            let edge = s.tree.edges[e as usize];
            assert_eq!(s.tree.priors[e as usize] as f64, pri(edge.mv), "a child keeps its node's P");
        }
        assert!(s.formula_text().contains("c_pb·P/√(n+1), c_pb = 2.47, P = the prior (patterns;"), "{}", s.formula_text());
    }

    /// The progressive bias steers the search: with a strong prior on the centre, its visits
    /// grow with c_pb; and a search with it is deterministic for a seed.
    #[test]
    fn progressive_bias_steers_and_is_deterministic() {
        let visits = |c_pb: f64| {
            let mut s = biased_search(9, c_pb);
            s.run(Budget::iterations(400), &|| 0.0);
            let e = s.tree.children(0).find(|&e| s.tree.edges[e as usize].mv == 12).unwrap();
            (s.tree.edges[e as usize].n, s.tree.children(0).map(|e| s.tree.edges[e as usize].n).collect::<Vec<_>>())
        };
        let (none, _) = visits(0.0);
        let (strong, all) = visits(20.0);
        assert!(strong > none, "centre visits {strong} with c_pb = 20, {none} without");
        assert_eq!(visits(20.0).1, all, "the same visits for the same seed");
    }
}
