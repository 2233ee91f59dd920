//! Expansion: what the descent does at a node (`choose`: descend into a child or add one), which
//! untried move comes next (`pick_unexpanded`: PUCT priors, decisive moves, AMAF order, seeded
//! random or the seeded affine order of plain UCT), and adding the child to the tree (with
//! transpositions, an alias edge to the shared node).

use super::score::{
    amaf_part, plain_ucb1, puct_score, rave_beta_from, ucb1_or_untried, uct_score, untried_amaf_value, untried_amaf_value_f32, value,
    ChildStat, Scorer,
};
use super::{Choice, Search, Step};
use crate::game::{Game, MoveList, Player, MOVE_WORDS};
use crate::mcts::amaf::{AmafRow, AmafTables, ChildBound, UntriedBound};
use crate::mcts::config::{SearchConfig, Selection, ValueEstimate};
use crate::mcts::mcts_solver;
use crate::mcts::selection::grave_beta;
use crate::mcts::tree::{Edge, Node, AFFINE, ALIAS, NIL, TERMINAL, UNKNOWN};
use crate::rng::Rng64;

impl<G: Game> Search<G> {
    /// Whether plain UCT expansion may use the affine order (no other ordering rule in force:
    /// RAVE and GRAVE order expansions by AMAF value, decisive moves come first).
    #[inline]
    pub(super) fn fast_order_ok(&self) -> bool {
        !self.config.decisive
            && !self.config.anti_decisive
            && self.config.value == ValueEstimate::Mean
            && !self.config.rollout_expand
            && self.config.progressive_bias == 0.0
    }

    /// Legal moves at `g` into `self.legal`, filtered at the root by depth-2.
    pub(super) fn gen_legal(&mut self, g: &G, at_root: bool) {
        g.legal_moves(&mut self.legal);
        if at_root {
            if let Some(f) = &self.root_filter {
                self.legal.retain(|m| f[g.move_index(*m)]);
            }
        }
    }

    /// Chooses what to do at node `cur` (position `g`); `src` is the AMAF source node or [`NIL`].
    /// Every score compared here comes from `score.rs` ([`Search::child_score`],
    /// [`Search::untried_score`]); the score of an expanded move is kept in `expand_score` for
    /// the trace.
    ///
    /// UCT: UCB1 on the (RAVE-blended) value; without an AMAF table every untried move comes
    /// before any revisit (n = 0 → infinite bonus). With RAVE/GRAVE, existing children and the
    /// best untried move are ranked alike: an untried move (n = 0, β = 1) is worth its AMAF
    /// value (`fpu` without AMAF data) plus `c·√(ln N)` (Gelly & Silver 2011 found c = 0 best
    /// with RAVE; Cazenave's GRAVE has no exploration term). PUCT: the best untried move
    /// (highest prior, V = fpu) is ranked with the existing children.
    pub(super) fn choose(&mut self, cur: u32, g: &G, at_root: bool, src: u32, cap: usize) -> Choice<G::Move> {
        if self.tree.nodes[cur as usize].n_legal == UNKNOWN {
            // Counted (Hex: a popcount), listed only where the depth-2 filter applies.
            let n = if at_root && self.root_filter.is_some() {
                self.gen_legal(g, at_root);
                self.legal.len()
            } else {
                g.legal_count()
            };
            self.tree.nodes[cur as usize].n_legal = n as u16;
        }
        let node = self.tree.nodes[cur as usize];
        let can_expand = node.n_children < node.n_legal && self.tree.len() < cap;
        let sc = self.scorer(cur, g, src);
        if !sc.plain {
            if self.amaf_scan_ok(&sc, at_root) {
                return self.choose_by_amaf(cur, g, &sc, can_expand);
            }
            if self.puct_scan_ok(&sc) {
                return self.choose_by_puct(cur, g, at_root, &sc, can_expand);
            }
        }
        if can_expand && self.untried_first(&sc) {
            let jump = self.config.jump && node.n_children > 0 && (self.rng.below(node.n_legal as u32) as u16) < node.n_children;
            if !jump {
                // An untried move scores +∞ here (`untried_first`).
                self.expand_score = f64::INFINITY;
                if !at_root && self.fast_order_ok() && (node.n_children == 0 || node.flags & AFFINE != 0) {
                    // Fast path: the k-th child is the k-th move of a seeded affine permutation
                    // of the legal moves, so no scan of the existing children is needed.
                    // (Not at the root, so `n_legal` is the unfiltered legal move count.)
                    let n = node.n_legal as usize;
                    let i = affine_index(g.hash() ^ self.config.seed, n, node.n_children as usize);
                    if let Some(m) = g.nth_legal(i) {
                        self.tree.nodes[cur as usize].flags |= AFFINE;
                        return Choice::Expand(m, 0.0);
                    }
                }
                self.tree.nodes[cur as usize].flags &= !AFFINE;
                return self.pick_unexpanded(cur, g, at_root, &sc);
            }
        }
        // Select among the existing children.
        let range = self.tree.children(cur);
        let mut best = NIL;
        let mut best_score;
        if sc.plain {
            // UCB1 from the edges' cached (q, 1/√n): one multiply-add per child.
            let run = &self.tree.edges[range.start as usize..range.end as usize];
            // With 0 < cs < ∞ an unvisited child's `q + cs·k` is already +∞ (k = ∞), so the
            // `n = 0` test can go: the same scores.
            let folded = sc.cs > 0.0 && sc.cs.is_finite();
            let (j, bs) = match (self.config.solver, folded) {
                (false, true) => plain_children::<false, true>(run, sc.cs),
                (true, true) => plain_children::<true, true>(run, sc.cs),
                (false, false) => plain_children::<false, false>(run, sc.cs),
                (true, false) => plain_children::<true, false>(run, sc.cs),
            };
            if j != NIL {
                best = range.start + j;
            }
            best_score = bs as f64;
        } else {
            best_score = f64::NEG_INFINITY;
            for e in range {
                let s = self.child_score(&sc, e).value;
                if s > best_score {
                    best_score = s;
                    best = e;
                }
            }
        }
        if can_expand && !self.untried_first(&sc) {
            // PUCT, or RAVE/GRAVE with c = 0: the best untried move competes with the children.
            if let Choice::Expand(m, pr) = self.pick_unexpanded(cur, g, at_root, &sc) {
                if best == NIL || self.expand_score > best_score {
                    return Choice::Expand(m, pr);
                }
            }
        }
        if best != NIL {
            Choice::Descend(best)
        } else if can_expand {
            self.tree.nodes[cur as usize].flags &= !AFFINE;
            self.pick_unexpanded(cur, g, at_root, &sc)
        } else {
            Choice::Leaf
        }
    }

    /// Whether [`Search::choose_by_amaf`] makes `choose`'s decision at this node: UCT selection
    /// on an AMAF blend (RAVE, GRAVE: `sc` has a table), without transpositions, a pie move to
    /// stand in for, or the depth-2 filter at the root. Elsewhere the general code decides.
    #[inline(always)]
    fn amaf_scan_ok(&self, sc: &Scorer, at_root: bool) -> bool {
        sc.table != NIL
            && sc.pie.0 == NIL
            && self.config.selection == Selection::Uct
            && self.tt.is_none()
            && !(at_root && self.root_filter.is_some())
            && self.config.progressive_bias == 0.0
    }

    /// The tactical move to expand first at position `g` when the decisive / anti-decisive
    /// policies are on (Teytaud & Teytaud 2010): the first of `g`'s winning moves that is
    /// `untried`, else the first untried cell of the opponent's threats; `None` when there is
    /// none or both policies are off. `untried` is called only when there is a tactical move
    /// (so a caller may build its untried set on the first call).
    fn untried_tactical(&self, g: &G, mut untried: impl FnMut(G::Move) -> bool) -> Option<G::Move> {
        let mut tac: MoveList<G::Move> = MoveList::new();
        if self.config.decisive {
            g.winning_moves(&mut tac);
            if let Some(&m) = tac.iter().find(|&&m| untried(m)) {
                return Some(m);
            }
        }
        if self.config.anti_decisive {
            g.threats(&mut tac);
            if let Some(&m) = tac.iter().find(|&&m| untried(m)) {
                return Some(m);
            }
        }
        None
    }

    /// The untried moves of node `cur` (position `g`) as a dense move set: the legal move set
    /// ([`Game::legal_move_set`]) minus the children's moves. Built only when a scan or the
    /// tactical order needs it (most visits decide from the children and the bound alone).
    #[inline(always)]
    fn untried_set(&self, g: &G, cur: u32) -> [u64; MOVE_WORDS] {
        let mut cand = [0u64; MOVE_WORDS];
        g.legal_move_set(&mut cand);
        let range = self.tree.children(cur);
        for e in &self.tree.edges[range.start as usize..range.end as usize] {
            let i = e.mv as usize;
            cand[i / 64] &= !(1 << (i % 64));
        }
        cand
    }

    /// `choose` under RAVE/GRAVE ([`Search::amaf_scan_ok`]), with the same scores and the same
    /// decision as the general path (`child_score` / `pick_unexpanded`), without its per-child
    /// dispatch: one pass over the children's edges with the AMAF rows of the player to move cut
    /// once (β from the table, no √ or Option per child), then the best untried move by a dense
    /// scan of the table rows ([`best_untried_in_set`], the candidates being the legal move set
    /// minus the children's moves, [`Search::untried_set`]), skipped when the node's
    /// [`UntriedBound`] shows that no untried move can win. Ties between untried moves are
    /// broken uniformly as there, by other draws (one per scan, and none when the scan is
    /// skipped), and moves whose `f32` values are equal tie.
    #[inline(never)]
    fn choose_by_amaf(&mut self, cur: u32, g: &G, sc: &Scorer, can_expand: bool) -> Choice<G::Move> {
        let ms = self.ms;
        let row = self.tree.amaf.row_ref(sc.table, sc.player, ms).on(&self.tree.amaf.n, &self.tree.amaf.w2, ms);
        let c = self.config.c;
        let range = self.tree.children(cur);
        let edges = &self.tree.edges[range.start as usize..range.end as usize];
        // The children's pass, compiled apart for the presets' cases so that no per-child test
        // remains of what the configuration fixes: MC-RAVE with c = 0 (β from the table, V
        // itself the score), with and without solver proofs, and GRAVE with c = 0; anything
        // else by the general closures. The same operations in the same order, so the same scores.
        let (table_beta, config) = (&self.beta_table, &self.config);
        let rave_beta = |n: u32, _: u32| rave_beta_from(table_beta, config, n);
        let fpu = config.fpu;
        let (best_j, best_score) = match (config.value, c == 0.0, config.solver) {
            // MC-RAVE with c = 0: the last full pass's bound ([`ChildBound`]) often shows that the
            // child it chose is still the best, and only that child is scored.
            (ValueEstimate::Rave, true, solver) => {
                let gains = self.tree.amaf.gains[sc.table as usize][sc.player as usize];
                let scratch = (&mut self.child_scores[..], &mut self.child_counts[..]);
                match (self.tree.amaf.children.get_mut(cur as usize), solver) {
                    (Some(cb), false) => children_by_bound::<false>(cb, (sc.table, gains), edges, row, rave_beta, scratch, fpu),
                    (Some(cb), true) => children_by_bound::<true>(cb, (sc.table, gains), edges, row, rave_beta, scratch, fpu),
                    (None, false) => amaf_children::<false>(edges, row, rave_beta, |v, _| v, fpu),
                    (None, true) => amaf_children::<true>(edges, row, rave_beta, |v, _| v, fpu),
                }
            }
            (ValueEstimate::Grave, true, false) => {
                let bias = config.grave_bias;
                amaf_children::<false>(edges, row, |n, an| grave_beta(n, an, bias), |v, _| v, fpu)
            }
            (_, _, solver) => {
                let score = |v, n| if c == 0.0 { v } else { ucb1_or_untried(v, n, sc.ln_n, c) };
                if solver {
                    amaf_children::<true>(edges, row, |n, an| self.beta(n, an), score, fpu)
                } else {
                    amaf_children::<false>(edges, row, |n, an| self.beta(n, an), score, fpu)
                }
            }
        };
        let best = if best_j == NIL { NIL } else { range.start + best_j };
        // Decisive / anti-decisive moves are expanded first when those policies are on, as in
        // `pick_unexpanded`: an untried winning move, else an untried cell of the opponent's
        // threats, scores +∞ (`untried_score`).
        if can_expand && (self.config.decisive || self.config.anti_decisive) {
            // The untried set only when the position has a winning move or a threat.
            let mut cand = None;
            let untried = |m: G::Move| {
                let cand = cand.get_or_insert_with(|| self.untried_set(g, cur));
                let i = g.move_index(m);
                cand[i / 64] >> (i % 64) & 1 == 1
            };
            if let Some(m) = self.untried_tactical(g, untried) {
                if let Choice::Expand(m, pr) = self.expand(sc, g, Some((m, 0.0)), true) {
                    if best == NIL || self.expand_score > best_score {
                        return Choice::Expand(m, pr);
                    }
                }
                return if best != NIL { Choice::Descend(best) } else { Choice::Leaf };
            }
        }
        // The bound left by the last scan of this node's untried moves ([`UntriedBound`]): when
        // the best child scores at least the bound plus the untried bonus, no untried move
        // would be expanded (that needs a strictly higher score), and the scan is skipped.
        let table = sc.table;
        // The updates that could raise a value of this player's row ([`AmafTables::gains`]).
        let updates = self.tree.amaf.gains[table as usize][sc.player as usize];
        if can_expand && best != NIL {
            let bound = self.tree.amaf.untried[cur as usize].at_updates(table, updates);
            if bound + self.untried_bonus(sc) <= best_score {
                if cfg!(debug_assertions) {
                    // The scan it skips would not have expanded (with a copy of the generator,
                    // so that debug and release builds search alike).
                    let cand = self.untried_set(g, cur);
                    let mut rng = self.rng.clone();
                    let (pick, ..) = best_untried_in_set(&cand, row, self.config.fpu, &mut self.amaf_values, &mut rng);
                    if let Some((_, v)) = pick {
                        debug_assert!(v + self.untried_bonus(sc) <= best_score, "untried {v} above the bound {bound}");
                    }
                }
                return Choice::Descend(best);
            }
        }
        if can_expand {
            let cand = self.untried_set(g, cur);
            let (pick, best_bound, n_min) = best_untried_in_set(&cand, row, self.config.fpu, &mut self.amaf_values, &mut self.rng);
            self.tree.amaf.untried[cur as usize] =
                if pick.is_some() { UntriedBound::new(table, updates, best_bound, n_min) } else { UntriedBound::NONE };
            let picked = pick.map(|(i, _)| i);
            let pick = picked.and_then(|i| g.move_from_index(i).map(|m| (m, 0.0)));
            // As `pick_unexpanded` then `choose`: the untried move is expanded when it beats
            // every child (or there is none).
            if let Choice::Expand(m, pr) = self.expand(sc, g, pick, false) {
                if best == NIL || self.expand_score > best_score {
                    // The expanded move leaves the untried set: the bound is the best of the
                    // others (the scan's values are still in the scratch).
                    if let Some(i) = picked {
                        self.tree.amaf.untried[cur as usize] = match best_of_others(&mut self.amaf_values, ms, i) {
                            Some(b) => UntriedBound::new(table, updates, b, n_min),
                            None => UntriedBound::NONE,
                        };
                    }
                    return Choice::Expand(m, pr);
                }
            }
        }
        if best != NIL {
            Choice::Descend(best)
        } else {
            Choice::Leaf
        }
    }
}

/// The best child by plain UCB1 from the edges' cache ([`plain_ucb1`]): its index in `run` (or
/// [`NIL`] if every score is below −∞, i.e. none) and its score, the first of equal scores
/// winning. `FOLDED` leaves out the `n = 0` test, for `0 < cs < ∞` only (where `q + cs·∞` is
/// +∞ itself); `SOLVER`: proven children score −∞ (MCTS-Solver).
#[inline(always)]
fn plain_children<const SOLVER: bool, const FOLDED: bool>(run: &[Edge], cs: f32) -> (u32, f32) {
    let mut best = NIL;
    let mut bs = f32::NEG_INFINITY;
    for (j, e) in run.iter().enumerate() {
        debug_assert_eq!(e.n == 0, e.k == f32::INFINITY, "an edge's cache is synced as a whole");
        let s = plain_ucb1::<SOLVER, FOLDED>(e, cs);
        if s > bs {
            // A new maximum is rare (about ln n times in n children): as a branch, not the
            // select LLVM would make, the comparisons do not wait on one another. Fixed-work
            // A/B, 1,000,000 hex:11 uct iterations: +7 % iterations/s natively from the branch,
            // +11 % more from the folded `n = 0` test (V8: +11 % for both).
            std::hint::cold_path();
            bs = s;
            best = j as u32;
        }
    }
    (best, bs)
}

/// The larger of `a` and `b`, which are never NaN, by a comparison (`b` only when strictly
/// larger): WebAssembly's `f64.max` propagates NaN where Rust's `f64::max` ignores it, so there
/// `f64::max` compiles to a call of libm's `fmax` (2.6 % of a V8 profile of a hex:11 rave search,
/// from [`amaf_children_bounded`]); the comparison vectorises in [`max_f32`].
#[inline(always)]
fn max_not_nan<T: PartialOrd>(a: T, b: T) -> T {
    if b > a {
        b
    } else {
        a
    }
}

/// [`amaf_children`] for MC-RAVE with c = 0 (the score is the blended value), with what a
/// [`ChildBound`] needs: `(best, its score, the best score of the others, the fewest AMAF
/// samples of the others)`; a proven child (−∞, never chosen again) does not count among the
/// others' samples. The same scores and choice as [`amaf_children`].
///
/// The pass only scores: each child's score and sample count go to `scores` and `counts`
/// (scratch, at least `edges.len()` long), and the best (the first of the highest score), the
/// others' best and their fewest samples come from them afterwards, with the best child's entries
/// cleared. The former single pass carried all four through its loop: fixed-work A/B (`mcts
/// search --game hex:11 --iterations N --seed 3`, median of 5): rave +2.0 %, best +2.2 %, lgr
/// +1.8 %; in V8 level, whose code for that loop spilled them to the stack at every child.
#[inline(always)]
fn amaf_children_bounded<const SOLVER: bool>(
    edges: &[Edge],
    row: AmafRow,
    beta: impl Fn(u32, u32) -> f64,
    scores: &mut [f64],
    counts: &mut [u32],
    fpu: f64,
) -> (u32, f64, f64, u32) {
    let len = edges.len();
    let (scores, counts) = (&mut scores[..len], &mut counts[..len]);
    for ((e, so), co) in edges.iter().zip(scores.iter_mut()).zip(counts.iter_mut()) {
        let (an, aw) = row.at(e.mv as usize);
        // The score of `amaf_children` with c = 0 (the value itself), the samples of a child
        // that can still be chosen.
        *so = uct_score(e, SOLVER, false, |e| {
            if e.n == 0 {
                untried_amaf_value(an, aw, fpu)
            } else {
                value(e.q(), amaf_part(e.n, an, aw, &beta))
            }
        });
        *co = if SOLVER && e.proven() { u32::MAX } else { an };
    }
    let best_score = scores.iter().fold(f64::NEG_INFINITY, |m, &s| max_not_nan(m, s));
    // The first child with the best score (none if every score is −∞).
    let best = if best_score > f64::NEG_INFINITY { scores.iter().position(|&s| s == best_score).map_or(NIL, |j| j as u32) } else { NIL };
    if best != NIL {
        scores[best as usize] = f64::NEG_INFINITY;
        counts[best as usize] = u32::MAX;
    }
    let others = scores.iter().fold(f64::NEG_INFINITY, |m, &s| max_not_nan(m, s));
    let n_min = counts.iter().fold(u32::MAX, |m, &a| m.min(a));
    (best, best_score, others, n_min)
}

/// The best child by [`amaf_children`] under MC-RAVE with c = 0, through the node's
/// [`ChildBound`] `cb` (for `table` at `gains` gains of the player to move): when the child the
/// last full pass chose still scores above the bound on the others, only it is scored (debug
/// builds check that the full pass chooses alike); otherwise the full pass runs and leaves a
/// new bound.
#[inline(always)]
fn children_by_bound<const SOLVER: bool>(
    cb: &mut ChildBound,
    (table, gains): (u32, u32),
    edges: &[Edge],
    row: AmafRow,
    beta: impl Fn(u32, u32) -> f64,
    scratch: (&mut [f64], &mut [u32]),
    fpu: f64,
) -> (u32, f64) {
    let others = cb.others_at(table, gains, edges.len());
    if others < f64::INFINITY {
        let j = cb.best as usize;
        let (k, s) = amaf_children::<SOLVER>(std::slice::from_ref(&edges[j]), row, &beta, |v, _| v, fpu);
        // Above the others' bound by more than rounding can account for.
        if k == 0 && s > others + 1e-12 {
            if cfg!(debug_assertions) {
                let full = amaf_children::<SOLVER>(edges, row, &beta, |v, _| v, fpu);
                debug_assert_eq!(full, (j as u32, s), "the pass the bound skips chooses alike");
            }
            return (j as u32, s);
        }
    }
    let (j, s, o, n_min) = amaf_children_bounded::<SOLVER>(edges, row, &beta, scratch.0, scratch.1, fpu);
    *cb = if j == NIL { ChildBound::NONE } else { ChildBound::new(table, gains, j, edges.len(), o, n_min) };
    (j, s)
}

/// The best child of a RAVE/GRAVE node by its blended value (see [`Search::choose_by_amaf`]):
/// its index among `edges` (or [`NIL`] without children) and its score. `ns`/`ws` are the AMAF
/// row of the player to move (visits, twice the wins), indexed by dense move. A child with
/// `n = 0` (added unvisited by Hex knowledge) scores `score(v, 0)` with v its untried value,
/// its AMAF value or `fpu` without samples, as an untried move would; with `SOLVER`, a proven child scores −∞ (MCTS-Solver, Winands, Björnsson &
/// Saito 2008). The value is `(1 − β)·Q + β·Q_AMAF` (Gelly & Silver 2007) with `β = beta(n,
/// n_AMAF)`, or Q without AMAF data; the score is `score(V, n)` (V itself when c = 0, else UCB1).
/// The first of equal scores wins, as in `choose`.
#[inline(always)]
fn amaf_children<const SOLVER: bool>(
    edges: &[Edge],
    row: AmafRow,
    beta: impl Fn(u32, u32) -> f64,
    score: impl Fn(f64, u32) -> f64,
    fpu: f64,
) -> (u32, f64) {
    let mut best = NIL;
    let mut best_score = f64::NEG_INFINITY;
    for (j, e) in edges.iter().enumerate() {
        // As `child_score` (UCT, no transpositions, no pie move): the same functions; an
        // unvisited child as an untried move (its AMAF value, `fpu` without samples).
        let s = uct_score(e, SOLVER, false, |e| {
            let (an, aw) = row.at(e.mv as usize);
            let v = if e.n == 0 { untried_amaf_value(an, aw, fpu) } else { value(e.q(), amaf_part(e.n, an, aw, &beta)) };
            score(v, e.n)
        });
        if s > best_score {
            best_score = s;
            best = j as u32;
        }
    }
    (best, best_score)
}

/// The best child of a PUCT node (see [`Search::choose_by_puct`]): its index among `edges`
/// (or [`NIL`] if every score is −∞, i.e. none) and its score by [`puct_score`] (Silver et al.
/// 2017; a proven child −∞ under MCTS-Solver), `priors` beside `edges`, `√N` of the parent's
/// `parent_n` visits computed once. The first of equal scores wins, as in `choose`.
#[inline(always)]
fn puct_children(edges: &[Edge], priors: &[f32], config: &SearchConfig, parent_n: u32) -> (u32, f64) {
    let (c, fpu, solver) = (config.c, config.fpu, config.solver);
    // `√N` as `child_score` computes it.
    let sqrt_n = (parent_n as f64).sqrt();
    let mut best = NIL;
    let mut best_score = f64::NEG_INFINITY;
    for (j, (e, &p)) in edges.iter().zip(priors).enumerate() {
        let s = puct_score(e, solver, |e| e.q(), fpu, p as f64, sqrt_n, c);
        if s > best_score {
            best_score = s;
            best = j as u32;
        }
    }
    (best, best_score)
}

impl<G: Game> Search<G> {
    /// Whether [`Search::choose_by_puct`] makes `choose`'s decision: PUCT with priors kept
    /// per edge, no AMAF blend and no transpositions.
    #[inline(always)]
    fn puct_scan_ok(&self, sc: &Scorer) -> bool {
        self.config.selection == Selection::Puct && self.tree.with_priors && sc.table == NIL && self.tt.is_none()
    }

    /// `choose` under PUCT ([`Search::puct_scan_ok`]), with the same scores and decision as the
    /// general path (`child_score`, then the next move by prior rank): `√N` once per node
    /// instead of once per child, the priors read from their array beside the edges.
    #[inline(never)]
    fn choose_by_puct(&mut self, cur: u32, g: &G, at_root: bool, sc: &Scorer, can_expand: bool) -> Choice<G::Move> {
        let range = self.tree.children(cur);
        let (lo, hi) = (range.start as usize, range.end as usize);
        let (j, best_score) = puct_children(&self.tree.edges[lo..hi], &self.tree.priors[lo..hi], &self.config, sc.parent_n);
        let best = if j == NIL { NIL } else { range.start + j };
        if can_expand {
            let pick = self.next_by_prior(cur, g, at_root);
            if let Choice::Expand(m, pr) = self.expand(sc, g, pick, false) {
                if best == NIL || self.expand_score > best_score {
                    return Choice::Expand(m, pr);
                }
            }
        }
        if best != NIL {
            Choice::Descend(best)
        } else {
            Choice::Leaf
        }
    }

    /// The untried legal move of `cur` to expand next, its score (by
    /// [`Search::untried_score`]) stored in `expand_score`: PUCT — the highest prior;
    /// decisive / anti-decisive moves first when those policies are on; RAVE/GRAVE (an AMAF
    /// table in `sc`) — the highest [`Search::untried_value`]; otherwise uniformly random. Ties
    /// are broken at random (seeded).
    pub(super) fn pick_unexpanded(&mut self, cur: u32, g: &G, at_root: bool, sc: &Scorer) -> Choice<G::Move> {
        if self.config.selection == Selection::Puct {
            // The node's priors, computed once and sorted (`priors.rs`): the next move by rank.
            let best = self.next_by_prior(cur, g, at_root);
            return self.expand(sc, g, best, false);
        }
        let stamp = self.mark_children(cur);
        if self.config.progressive_bias > 0.0 && !self.config.decisive && !self.config.anti_decisive {
            // Its own list of the legal moves (with their P): no other list is needed.
            return self.pick_by_bias(cur, g, at_root, sc, stamp);
        }
        self.gen_legal(g, at_root);
        // Decisive / anti-decisive moves are expanded first when those policies are on (the same
        // knowledge the playouts use, applied to the order of expansion).
        if let Some(m) = self.untried_tactical(g, |m| self.mark[g.move_index(m)] != stamp && self.legal.contains(&m)) {
            let p = if self.config.progressive_bias > 0.0 { self.prior_of(cur, g, at_root, g.move_index(m)) } else { 0.0 };
            return self.expand(sc, g, Some((m, p)), true);
        }
        if self.config.progressive_bias > 0.0 {
            return self.pick_by_bias(cur, g, at_root, sc, stamp);
        }
        if sc.table != NIL {
            // MC-RAVE: the untried move with the best AMAF value (the bonus is the same for all).
            // An untried pie move is left out of the scan and valued by its stand-in
            // (`Search::scorer`); it wins ties.
            let pie = sc.pie.0 as usize;
            let pie_untried = sc.pie.0 != NIL && self.mark[pie] != stamp && self.legal.iter().any(|&m| g.move_index(m) == pie);
            if pie_untried {
                self.mark[pie] = stamp;
            }
            let untried = Untried { mark: &self.mark, stamp };
            let mut best = best_untried_by_amaf(g, &self.legal, untried, &self.tree.amaf, sc, self.ms, self.config.fpu, &mut self.rng);
            if pie_untried {
                let v = self.untried_value(sc, pie);
                if best.is_none_or(|(_, b)| v >= b) {
                    best = g.move_from_index(pie).map(|m| (m, v));
                }
            }
            return self.expand(sc, g, best.map(|(m, _)| (m, 0.0)), false);
        }
        let mut cands: MoveList<G::Move> = MoveList::new();
        for &m in &self.legal {
            if self.mark[g.move_index(m)] != stamp {
                cands.push(m);
            }
        }
        if cands.is_empty() {
            return Choice::Leaf;
        }
        let m = cands[self.rng.index(cands.len())];
        self.expand(sc, g, Some((m, 0.0)), false)
    }

    /// The whole prior list of node `cur` (computed once, [`Search::evaluate_node`]) under the
    /// progressive bias: every untried move needs its P.
    fn whole_priors(&mut self, cur: u32, g: &G, at_root: bool) {
        let have = self.node_priors.of(cur).is_some_and(|(m, _)| m.len() == self.tree.nodes[cur as usize].n_legal as usize);
        if !have {
            self.evaluate_node(cur, g, at_root, true);
        }
    }

    /// The prior P of move `mv` (dense index) at node `cur` (0 when not legal there).
    fn prior_of(&mut self, cur: u32, g: &G, at_root: bool, mv: usize) -> f32 {
        self.whole_priors(cur, g, at_root);
        let (moves, p) = self.node_priors.of(cur).expect("computed above");
        moves.iter().position(|&m| m as usize == mv).map_or(0.0, |k| p[k])
    }

    /// The untried move of `cur` (children marked `stamp`) with the best untried score under
    /// the progressive bias ([`Search::untried_score`]: with an AMAF table its AMAF value plus
    /// `c_pb·P`; without one every untried move scores +∞ and the highest P comes first),
    /// ties broken uniformly at random (seeded).
    fn pick_by_bias(&mut self, cur: u32, g: &G, at_root: bool, sc: &Scorer, stamp: u32) -> Choice<G::Move> {
        self.whole_priors(cur, g, at_root);
        let (moves, p) = self.node_priors.of(cur).expect("computed above");
        let pb = self.config.progressive_bias;
        let mut best: Option<(usize, f32, f64)> = None;
        let mut ties = 0u32;
        // The player's AMAF row, cut once: the values of `untried_value` (the pie move aside).
        let row = (sc.table != NIL).then(|| self.tree.amaf.row(sc.table, sc.player, self.ms));
        let fpu = self.config.fpu;
        for (k, &mv) in moves.iter().enumerate() {
            let mv = mv as usize;
            if self.mark[mv] == stamp {
                continue;
            }
            // The list is sorted by P: without an AMAF table the first untried move is the pick.
            let v = match &row {
                None => p[k] as f64,
                Some(row) => {
                    let value = if mv as u32 == sc.pie.0 || mv >= self.ms {
                        self.untried_value(sc, mv)
                    } else {
                        let (an, aw2) = row.at(mv);
                        untried_amaf_value(an, aw2, fpu)
                    };
                    value + crate::mcts::selection::progressive_bias(p[k] as f64, 0, pb)
                }
            };
            match best {
                Some((_, _, b)) if v < b => {}
                Some((_, _, b)) if v == b => {
                    ties += 1;
                    if self.rng.below(ties + 1) == 0 {
                        best = Some((mv, p[k], v));
                    }
                }
                _ => {
                    best = Some((mv, p[k], v));
                    ties = 0;
                }
            }
        }
        let pick = best.and_then(|(mv, pr, _)| g.move_from_index(mv).map(|m| (m, pr)));
        self.expand(sc, g, pick, false)
    }

    /// `Expand` the picked move (with its prior), its score kept in `expand_score`; `Leaf` when
    /// nothing was picked.
    #[inline]
    pub(super) fn expand(&mut self, sc: &Scorer, g: &G, pick: Option<(G::Move, f32)>, tactical: bool) -> Choice<G::Move> {
        match pick {
            Some((m, prior)) => {
                self.expand_score = self.untried_score(sc, g.move_index(m), prior, tactical);
                Choice::Expand(m, prior)
            }
            None => {
                self.expand_score = f64::NEG_INFINITY;
                Choice::Leaf
            }
        }
    }

    /// Creates the child of `parent` reached by `m` (`g` is the position after `m`), or links
    /// the shared node of a transposition through an alias edge.
    pub(super) fn add_child(&mut self, parent: u32, g: &G, m: G::Move, prior: f32, mover: Player) -> Step {
        let idx = g.move_index(m) as u16;
        if let Some(tt) = &self.tt {
            if let Some(&shared) = tt.get(&g.hash()) {
                let mut e = Edge::new(shared, idx);
                e.flags = ALIAS;
                e.sync(&self.tree.nodes[shared as usize]);
                // n(s,a) counts the visits through this edge: none yet.
                e.n = 0;
                let ei = self.tree.add_edge(parent, e, prior);
                return Step { edge: ei, node: shared };
            }
        }
        let mut n = Node::new();
        if let Some(o) = g.outcome() {
            n.flags |= TERMINAL;
            n.n_legal = 0;
            n.proof = mcts_solver::terminal_proof(o, mover) as u8;
        }
        let id = self.tree.push(n);
        let mut e = Edge::new(id, idx);
        e.proof = n.proof;
        let ei = self.tree.add_edge(parent, e, prior);
        if let Some(tt) = &mut self.tt {
            tt.insert(g.hash(), id);
        }
        Step { edge: ei, node: id }
    }

    /// A fresh stamp for the `mark` scratch table.
    pub(super) fn next_stamp(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.iter_mut().for_each(|x| *x = 0);
            self.stamp = 1;
        }
        self.stamp
    }

    /// Marks the expanded children's moves of `id` with a fresh stamp.
    pub(super) fn mark_children(&mut self, id: u32) -> u32 {
        let s = self.next_stamp();
        for e in self.tree.children(id) {
            self.mark[self.tree.edges[e as usize].mv as usize] = s;
        }
        s
    }
}

/// The `k`-th element (k < n < 2¹⁶, a node's legal move count) of a seeded affine permutation
/// `i ↦ (a·i + b) mod n` of `0..n`, with `a` coprime to `n`, both drawn from `seed` by
/// SplitMix64: a random starting move and a random stride, different at every position.
///
/// One per expansion under UCT: after the one 64-bit remainder (`b`), 32-bit arithmetic and a
/// binary GCD (Stein 1967), with no division in its loop (the former Euclid on `u64` was 4 % of a
/// V8 profile of a hex:11 uct search); the same permutation.
pub fn affine_index(seed: u64, n: usize, k: usize) -> usize {
    debug_assert!(k < n && n <= u16::MAX as usize + 1);
    let h = crate::game::zobrist_key(seed);
    let n32 = n as u32;
    let b = (h % n as u64) as u32;
    if n <= 2 {
        return ((k as u32 + b) % n32) as usize;
    }
    let mut a = 1 + (h >> 32) as u32 % (n32 - 1);
    while gcd(a, n32) != 1 {
        a = a % (n32 - 1) + 1;
    }
    // a, k, b < n ≤ 2¹⁶: a·k + b ≤ n(n − 1) < 2³².
    ((a * k as u32 + b) % n32) as usize
}

/// The greatest common divisor of `a` and `b` (binary GCD, Stein 1967; `gcd(0, b) = b`).
fn gcd(mut a: u32, mut b: u32) -> u32 {
    if a == 0 || b == 0 {
        return a | b;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

/// The moves of a node already in the tree: those whose `mark` entry equals `stamp`.
#[derive(Clone, Copy)]
struct Untried<'a> {
    mark: &'a [u32],
    stamp: u32,
}

/// MC-RAVE's choice of an untried move (Gelly & Silver 2007): among the `legal` moves of `g` not
/// in the tree, the one with the highest `untried_value_in` (score.rs: its AMAF value in the scorer's
/// table, `fpu` without data), ties broken uniformly at random (seeded); `None` when every move
/// is in the tree. A function of its own (never inlined), so that its loop keeps the AMAF tables
/// in registers: inlined into `pick_unexpanded` it spilled them to the stack. (Walking the
/// legal moves through an iterator instead of this list cost 10% more instructions.)
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn best_untried_by_amaf<G: Game>(
    g: &G,
    legal: &[G::Move],
    tree: Untried,
    amaf: &AmafTables,
    sc: &Scorer,
    ms: usize,
    fpu: f64,
    rng: &mut Rng64,
) -> Option<(G::Move, f64)> {
    let (table, player) = (sc.table, sc.player);
    let mut best: Option<(G::Move, f64)> = None;
    let mut ties = 0u32;
    // The player's rows of the table, cut once: with `i < ms` checked, the loop indexes them
    // without bounds checks (the same values as `untried_value_in`).
    let row = amaf.row(table, player, ms);
    let mark = &tree.mark[..ms];
    for &m in legal {
        let i = g.move_index(m);
        if i >= ms || mark[i] == tree.stamp {
            continue;
        }
        let (an, aw) = row.at(i);
        let v = untried_amaf_value(an, aw, fpu);
        match best {
            Some((_, b)) if v < b => {}
            Some((_, b)) if v == b => {
                ties += 1;
                if rng.below(ties + 1) == 0 {
                    best = Some((m, v));
                }
            }
            _ => {
                best = Some((m, v));
                ties = 0;
            }
        }
    }
    best
}

/// Bit `j` of a byte as an additive lane mask: entry `b` holds, for `j` in `0..8`, 0.0 where
/// bit `j` of `b` is set and −∞ elsewhere (8 KB): spreads a bit set onto `f32` lanes eight at a
/// time. A finite `x` plus the lane is `x` for a member and −∞ otherwise: one add, no select.
static BYTE_LANES: [[f32; 8]; 256] = {
    let mut t = [[0f32; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut j = 0;
        while j < 8 {
            if b >> j & 1 == 0 {
                t[b][j] = f32::NEG_INFINITY;
            }
            j += 1;
        }
        b += 1;
    }
    t
};

/// The largest of `xs` (−∞ when empty), eight lanes at a time so that it vectorises (the values
/// are never NaN).
#[inline(always)]
fn max_f32(xs: &[f32]) -> f32 {
    let mut acc = [f32::NEG_INFINITY; 8];
    let mut chunks = xs.chunks_exact(8);
    for c in &mut chunks {
        for j in 0..8 {
            acc[j] = max_not_nan(acc[j], c[j]);
        }
    }
    for (a, &x) in acc.iter_mut().zip(chunks.remainder()) {
        *a = max_not_nan(*a, x);
    }
    // Halving the lanes, in fixed steps: V8 compiled the former loop over the lanes and the
    // remainder (`acc.iter().chain(..)`) as a scalar loop with an interrupt check per element,
    // about a fifth of the scan's time in a profile of a hex:11 rave search.
    let mx = max_not_nan::<f32>;
    let h = [mx(acc[0], acc[4]), mx(acc[1], acc[5]), mx(acc[2], acc[6]), mx(acc[3], acc[7])];
    mx(mx(h[0], h[2]), mx(h[1], h[3]))
}

/// Counts at or above 2²⁴ may round up in `f32`: the scan's fewest count is lowered by a
/// relative 10⁻⁶ there, so that it never exceeds the true count ([`UntriedBound`] needs a lower
/// bound).
const F32_EXACT: f32 = 16_777_216.0;

/// The scan's value loop ([`best_untried_in_set`]): each move's value and negated count into
/// `vals` and `counts` (`mask`'s lanes added), from `row`, `DERIVED` as [`AmafRow::is_derived`].
#[inline(always)]
fn scan_values<const DERIVED: bool>(row: AmafRow, f: f32, mask: &[f32], vals: &mut [f32], counts: &mut [f32]) {
    // Equal lengths, so that the loop indexes without bounds checks.
    let m = vals.len();
    let (ns, ws, mask, counts) = (&row.n[..m], &row.w2[..m], &mask[..m], &mut counts[..m]);
    for i in 0..m {
        let (n, w) = if DERIVED { row.read(ns[i], ws[i]) } else { (ns[i], ws[i]) };
        let (q, n) = untried_amaf_value_f32(n, w, f);
        vals[i] = q + mask[i];
        counts[i] = mask[i] - n;
    }
}

/// After [`best_untried_in_set`] over a row of `m` moves left its values in `scratch`: the best
/// value of the candidates other than `i` (raised as the scan's bound is), `None` when there is
/// no other. What [`UntriedBound`] keeps once `i` is expanded.
#[inline(always)]
fn best_of_others(scratch: &mut [f32], m: usize, i: usize) -> Option<f64> {
    let (_, vals, _) = scan_scratch(scratch, m);
    vals[i] = f32::NEG_INFINITY;
    let b = max_f32(vals);
    (b != f32::NEG_INFINITY).then(|| above_f32(b))
}

/// The scan's scratch for a row of `m` moves: the candidate lanes (`m` rounded up to 8), the
/// values (`m`) and the negated counts (`m`), in that order.
#[inline(always)]
fn scan_scratch(scratch: &mut [f32], m: usize) -> (&mut [f32], &mut [f32], &mut [f32]) {
    let (mask, rest) = scratch.split_at_mut(m.div_ceil(8) * 8);
    let (vals, rest) = rest.split_at_mut(m);
    (mask, vals, &mut rest[..m])
}

/// An `f64` above every exact value whose `f32` rounding is `v` (the scan's roundings are a few
/// ulps, relative 2⁻²²): what [`UntriedBound`] keeps.
#[inline(always)]
fn above_f32(v: f32) -> f64 {
    v as f64 + (v as f64).abs() * 1e-6
}

/// [`best_untried_by_amaf`] over a set of dense move indices (`cand`, bit `i % 64` of word
/// `i / 64`), the AMAF rows `ns`/`ws` of the player to move already cut: the candidate with the
/// highest AMAF value `w/n` (`fpu` without data), ties broken uniformly at random; `None` when
/// `cand` is empty. Also what [`UntriedBound`] keeps: a bound on the candidates' values (the
/// best `f32` value, raised by a relative 10⁻⁶ above the `f32` roundings; `+∞` without
/// candidates) and the fewest samples of a candidate (`u32::MAX` without candidates).
///
/// Dense and branch-free, so that it vectorises: the candidate bits are spread onto lanes
/// ([`BYTE_LANES`]), every move's value is computed in `f32` with −∞ for non-candidates
/// and every move's negated sample count with −∞ for non-candidates (both by one add of the lane,
/// [`BYTE_LANES`]; `scratch`: at least `3 × ns.len() + 8` floats), then the largest value and
/// the fewest samples, and the number of candidates that reach the largest (equal `f32` values
/// tie). Only when several do, the k-th of them is
/// taken, k drawn uniformly (one draw per scan). The value returned with the move is its exact
/// `f64` value (`w/n` or `fpu`), as [`Search::untried_value`] computes it.
#[inline(never)]
fn best_untried_in_set(
    cand: &[u64; MOVE_WORDS],
    row: AmafRow,
    fpu: f64,
    scratch: &mut [f32],
    rng: &mut Rng64,
) -> (Option<(usize, f64)>, f64, u32) {
    let m = row.len();
    let (mask, vals, counts) = scan_scratch(scratch, m);
    for (k, chunk) in mask.chunks_exact_mut(8).enumerate() {
        let byte = (cand[k / 8] >> (k % 8 * 8)) as u8;
        chunk.copy_from_slice(&BYTE_LANES[byte as usize]);
    }
    let f = fpu as f32;
    // Each move's value and its negated sample count (both −∞ for non-candidates); then the
    // largest of each, in its own loop (so that each vectorises): the best value and minus the
    // fewest samples. Compiled apart for stored and derived rows (a stored row's reads are the
    // entries themselves).
    if row.is_derived() {
        scan_values::<true>(row, f, mask, vals, counts);
    } else {
        scan_values::<false>(row, f, mask, vals, counts);
    }
    let bv = max_f32(vals);
    let least = -max_f32(counts);
    if bv == f32::NEG_INFINITY {
        return (None, f64::INFINITY, u32::MAX);
    }
    let n_min = if least < F32_EXACT { least as u32 } else { (least as f64 * (1.0 - 1e-6)) as u32 };
    let mut tied = 0u32;
    for &v in vals.iter() {
        tied += (v == bv) as u32;
    }
    // The k-th (in index order) of the candidates with the best value.
    let mut k = if tied > 1 { rng.below(tied) } else { 0 };
    let mut best = 0;
    for (i, &v) in vals.iter().enumerate() {
        if v == bv {
            if k == 0 {
                best = i;
                break;
            }
            k -= 1;
        }
    }
    let (n, w) = row.at(best);
    let value = untried_amaf_value(n, w, fpu);
    // Above every candidate's exact value despite the `f32` roundings.
    (Some((best, value)), above_f32(bv), n_min)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every fast path scores each child exactly as [`Search::child_score`] (the function the
    /// trace reports), bit for bit: plain UCT's `f32` scan (folded and not, with and without
    /// the solver), the RAVE/GRAVE pass with and without an exploration term and with the
    /// solver, and the PUCT pass, at every node of searched trees on Hex 5×5 and Pentago.
    #[test]
    fn fast_paths_score_each_child_as_child_score() {
        let configs: [(&str, &[(&str, &str)]); 14] = [
            ("uct", &[]),
            ("uct", &[("c", "0")]),
            ("solver", &[]),
            ("rave", &[]),
            ("rave", &[("c", "0.7")]),
            ("rave", &[("solver", "true")]),
            ("rave", &[("rave_schedule", "linear")]),
            ("grave", &[]),
            ("grave", &[("c", "0.5"), ("solver", "true")]),
            ("puct", &[]),
            ("puct", &[("solver", "true")]),
            ("best", &[]),
            // Hex knowledge adds children unvisited (n = 0), scored as untried moves.
            ("rave", &[("knowledge", "true"), ("knowledge_threshold", "8")]),
            ("rave", &[("knowledge", "true"), ("knowledge_threshold", "8"), ("c", "0.7")]),
        ];
        for spec in ["hex:5", "pentago"] {
            for (preset, sets) in configs {
                let mut cfg = SearchConfig::preset(preset).unwrap();
                for (k, v) in sets {
                    cfg.set(k, v).unwrap();
                }
                let what = format!("{spec} {preset} {sets:?}");
                let game = crate::game::AnyGame::from_spec(spec).unwrap();
                let checked = crate::with_game!(game, g => check_fast_paths(g, cfg, &what));
                assert!(checked > 100, "{what}: {checked} children checked");
            }
        }
    }

    /// [`fast_paths_score_each_child_as_child_score`] on one game: the number of children checked.
    fn check_fast_paths<G: Game>(g: G, cfg: SearchConfig, what: &str) -> usize {
        let mut s = Search::new(g, cfg).unwrap();
        s.run(crate::mcts::Budget::iterations(3000), &|| 0.0);
        let (c, solver) = (s.config.c, s.config.solver);
        let mut checked = 0;
        // (node, its position, the AMAF source before it), as the descent and the trace walk.
        let mut stack = vec![(0u32, s.root.clone(), NIL)];
        while let Some((node, pos, src_in)) = stack.pop() {
            let src = if s.tree.with_amaf { s.amaf_source(src_in, node) } else { NIL };
            let sc = s.scorer(node, &pos, src);
            let range = s.tree.children(node);
            for e in range.clone() {
                let want = s.child_score(&sc, e).value;
                let edge = &s.tree.edges[e as usize];
                let one = std::slice::from_ref(edge);
                let got = if sc.plain {
                    let folded = sc.cs > 0.0 && sc.cs.is_finite();
                    let (_, bs) = match (solver, folded) {
                        (false, true) => plain_children::<false, true>(one, sc.cs),
                        (true, true) => plain_children::<true, true>(one, sc.cs),
                        (false, false) => plain_children::<false, false>(one, sc.cs),
                        (true, false) => plain_children::<true, false>(one, sc.cs),
                    };
                    Some(bs as f64)
                } else if s.amaf_scan_ok(&sc, false) {
                    let row = s.tree.amaf.row(sc.table, sc.player, s.ms);
                    let score = |v, n| if c == 0.0 { v } else { ucb1_or_untried(v, n, sc.ln_n, c) };
                    let beta = |n, an| s.beta(n, an);
                    let fpu = s.config.fpu;
                    let (_, bs) = if solver {
                        amaf_children::<true>(one, row, beta, score, fpu)
                    } else {
                        amaf_children::<false>(one, row, beta, score, fpu)
                    };
                    Some(bs)
                } else if s.puct_scan_ok(&sc) {
                    let prior = std::slice::from_ref(&s.tree.priors[e as usize]);
                    Some(puct_children(one, prior, &s.config, sc.parent_n).1)
                } else {
                    None
                };
                if let Some(got) = got {
                    assert_eq!(got.to_bits(), want.to_bits(), "{what}: node {node} edge {e}: {got} against child_score {want}");
                    checked += 1;
                }
                if s.tree.nodes[edge.child as usize].n_children > 0 {
                    let mut next = pos.clone();
                    next.play_unchecked(pos.move_from_index(edge.mv as usize).unwrap());
                    stack.push((edge.child, next, src));
                }
            }
        }
        checked
    }

    /// The scan finds the best value of an `f64` scan (up to `f32` near-ties) and a move that
    /// has it, on rows with many ties and unseen moves, for two fpu values, and the fewest samples
    /// of a candidate, with counts up to `AMAF_MAX`.
    #[test]
    fn scan_finds_the_best_value() {
        let mut gen = Rng64::new(9);
        let mut scratch = vec![0f32; 908];
        for round in 0..2000 {
            let fpu = if round % 3 == 0 { 0.7 } else { 0.5 };
            let ms = 1 + gen.index(300);
            let ns: Vec<u32> = (0..ms)
                .map(|_| {
                    if gen.below(4) == 0 {
                        0
                    } else {
                        1 + gen.below([6, 100_000, 6, crate::mcts::amaf::AMAF_MAX - 1][(round % 4) as usize])
                    }
                })
                .collect();
            let ws: Vec<u32> = ns.iter().map(|&n| gen.below(2 * n + 1)).collect();
            let mut cand = [0u64; MOVE_WORDS];
            for i in 0..ms {
                if gen.below(5) != 0 {
                    cand[i / 64] |= 1 << (i % 64);
                }
            }
            let value = |i: usize| if ns[i] > 0 { ws[i] as f64 * 0.5 / ns[i] as f64 } else { fpu };
            let cands: Vec<usize> = (0..ms).filter(|&i| cand[i / 64] >> (i % 64) & 1 == 1).collect();
            let want = cands.iter().map(|&i| value(i)).fold(f64::NEG_INFINITY, f64::max);
            let (pick, _, n_min) = best_untried_in_set(&cand, AmafRow::stored(&ns, &ws), fpu, &mut scratch, &mut Rng64::new(round));
            // The fewest samples: exact below 2²⁴, never above the true count (f32 counts).
            let least = cands.iter().map(|&i| ns[i]).min().unwrap_or(u32::MAX);
            if least < 1 << 24 {
                assert_eq!(n_min, least, "round {round}: fewest samples");
            } else {
                assert!(n_min <= least && n_min as f64 >= least as f64 * (1.0 - 2e-6), "round {round}: {n_min} for {least}");
            }
            match pick {
                None => assert!(cands.is_empty(), "round {round}"),
                Some((i, v)) => {
                    assert!(cands.contains(&i), "round {round}: a candidate");
                    assert_eq!(v, value(i), "round {round}: the move's exact value");
                    assert!(want - v < 1e-6, "round {round}: {v} below the best {want}");
                }
            }
        }
    }

    /// Ties for the best AMAF value are broken uniformly: five tied moves among others, 5,000
    /// seeded scans, each picked 1,000 ± 150 times (about 4.7 standard deviations).
    #[test]
    fn exact_scan_breaks_ties_uniformly() {
        let ns = vec![4u32; 200];
        let mut ws = vec![2u32; 200];
        let tied = [3usize, 64, 65, 130, 199];
        for &i in &tied {
            ws[i] = 6;
        }
        let mut cand = [0u64; MOVE_WORDS];
        for i in 0..200 {
            cand[i / 64] |= 1 << (i % 64);
        }
        let mut counts = [0u32; 200];
        let mut rng = Rng64::new(5);
        let mut scratch = vec![0f32; 608];
        for _ in 0..5000 {
            let (pick, _, _) = best_untried_in_set(&cand, AmafRow::stored(&ns, &ws), 0.5, &mut scratch, &mut rng);
            counts[pick.unwrap().0] += 1;
        }
        for &i in &tied {
            assert!((850..=1150).contains(&counts[i]), "move {i} picked {} times", counts[i]);
        }
        assert_eq!(tied.iter().map(|&i| counts[i]).sum::<u32>(), 5000, "only the tied best moves");
    }

    /// `updates` updates of an AMAF row: each gives one reward to every move it credits (about
    /// two in three; loss 0, draw 1, win 2 half points, mostly wins: the worst case for the
    /// bounds). Returns how many had a positive reward (the gains, `d`).
    fn update_row(gen: &mut Rng64, ns: &mut [u32], ws: &mut [u32], updates: u32) -> u32 {
        let mut d = 0;
        for _ in 0..updates {
            let r = [0, 1, 2, 2, 2, 2, 2, 2, 2, 2][gen.index(10)];
            d += (r > 0) as u32;
            for (n, w) in ns.iter_mut().zip(ws.iter_mut()) {
                if gen.below(3) != 0 {
                    *n += 1;
                    *w += r;
                }
            }
        }
        d
    }

    /// The bound a scan leaves holds: after more updates of the table (each giving a candidate
    /// at most one sample, with one reward per update, mostly wins: the worst case), of which
    /// d gave a positive reward, no candidate's value exceeds `UntriedBound::at_updates` at d;
    /// and it is the scan's best value when nothing changed.
    #[test]
    fn untried_bound_holds_after_more_updates() {
        let mut gen = Rng64::new(17);
        let mut scratch = vec![0f32; 398];
        for round in 0..2000 {
            let ms = 1 + gen.index(130);
            let big = round % 2 == 0;
            let mut ns: Vec<u32> = (0..ms).map(|_| if gen.below(5) == 0 { 0 } else { gen.below(if big { 1 << 26 } else { 50 }) }).collect();
            let mut ws: Vec<u32> = ns.iter().map(|&n| gen.below(2 * n + 1)).collect();
            let mut cand = [0u64; MOVE_WORDS];
            for i in 0..ms {
                if gen.below(4) != 0 {
                    cand[i / 64] |= 1 << (i % 64);
                }
            }
            let fpu = if round % 3 == 0 { 0.9 } else { 0.5 };
            let (pick, best, n_min) = best_untried_in_set(&cand, AmafRow::stored(&ns, &ws), fpu, &mut scratch, &mut Rng64::new(round));
            let Some((_, v_best)) = pick else { continue };
            assert!(v_best <= best, "round {round}: the best value {v_best} above the bound {best}");
            let at = gen.below(u32::MAX);
            let ub = UntriedBound::new(3, at, best, n_min);
            assert_eq!(ub.at_updates(3, at), ub.best as f64, "round {round}: no update, no slack");
            assert_eq!(ub.at_updates(4, at), f64::INFINITY, "round {round}: another table");
            let updates = 1 + gen.below(if round % 4 < 2 { 3 } else { 200 });
            let d = update_row(&mut gen, &mut ns, &mut ws, updates);
            let bound = ub.at_updates(3, at.wrapping_add(d));
            for i in (0..ms).filter(|&i| cand[i / 64] >> (i % 64) & 1 == 1) {
                let v = if ns[i] > 0 { ws[i] as f64 * 0.5 / ns[i] as f64 } else { fpu };
                assert!(v <= bound, "round {round}: move {i} at {v} above the bound {bound} after {d} updates");
            }
        }
    }

    /// The children's bound holds: a pass over random children (visits, Q also outside [0, 1],
    /// AMAF counts and sums, some proven) chooses as `amaf_children`; after more updates of the
    /// table (each giving a move at most one sample, mostly wins), of which d gave a positive
    /// reward, no child other than the best scores above `ChildBound::others_at` at d; with
    /// nothing changed it is the others' best score; a changed child count or table voids it.
    #[test]
    fn child_bound_holds_after_more_updates() {
        let mut gen = Rng64::new(23);
        let c = crate::mcts::SearchConfig::preset("rave").unwrap();
        let table = super::super::score::beta_table(&c);
        let (mut sc, mut cc) = (vec![0.0; 40], vec![0u32; 40]);
        for round in 0..3000 {
            let ms = 2 + gen.index(130);
            let big = round % 2 == 0;
            let mut ns: Vec<u32> = (0..ms).map(|_| if gen.below(6) == 0 { 0 } else { gen.below(if big { 1 << 26 } else { 60 }) }).collect();
            let mut ws: Vec<u32> = ns.iter().map(|&n| gen.below(2 * n + 1)).collect();
            let k = 1 + gen.index(ms.min(40));
            let edges: Vec<Edge> = (0..k)
                .map(|j| {
                    let mut e = Edge::new(j as u32, ((j * 7 + round as usize) % ms) as u16);
                    e.n = 1 + gen.below(if big { 5000 } else { 30 });
                    // Q in [−0.3, 1.3]: quality-based rewards leave [0, 1].
                    e.q = (gen.below(1601) as f32 - 300.0) / 1000.0;
                    e.k = 1.0 / (e.n as f32).sqrt();
                    e.proof = (gen.below(10) == 0) as u8;
                    e
                })
                .collect();
            let beta = |n: u32, _: u32| rave_beta_from(&table, &c, n);
            let solver = round % 3 == 0;
            let (full, bounded) = if solver {
                (
                    amaf_children::<true>(&edges, AmafRow::stored(&ns, &ws), beta, |v, _| v, 0.5),
                    amaf_children_bounded::<true>(&edges, AmafRow::stored(&ns, &ws), beta, &mut sc, &mut cc, 0.5),
                )
            } else {
                (
                    amaf_children::<false>(&edges, AmafRow::stored(&ns, &ws), beta, |v, _| v, 0.5),
                    amaf_children_bounded::<false>(&edges, AmafRow::stored(&ns, &ws), beta, &mut sc, &mut cc, 0.5),
                )
            };
            let (j, s, others, n_min) = bounded;
            assert_eq!(full, (j, s), "round {round}: the same choice as the plain pass");
            if j == NIL {
                continue;
            }
            // The others' best score and fewest samples, child by child.
            let (mut o, mut f) = (f64::NEG_INFINITY, u32::MAX);
            for (_, e) in edges.iter().enumerate().filter(|&(i, _)| i as u32 != j) {
                let one = std::slice::from_ref(e);
                let (_, s) = if solver {
                    amaf_children::<true>(one, AmafRow::stored(&ns, &ws), beta, |v, _| v, 0.5)
                } else {
                    amaf_children::<false>(one, AmafRow::stored(&ns, &ws), beta, |v, _| v, 0.5)
                };
                o = o.max(s);
                f = f.min(if solver && e.proof != 0 { u32::MAX } else { ns[e.mv as usize] });
            }
            assert_eq!((others, n_min), (o, f), "round {round}: the others' best and fewest");
            let at = gen.below(u32::MAX);
            let cb = ChildBound::new(3, at, j, k, others, n_min);
            assert!(cb.others_at(3, at, k) >= others, "round {round}: no update, the others' best");
            assert_eq!(cb.others_at(3, at, k + 1), f64::INFINITY, "round {round}: a new child voids it");
            assert_eq!(cb.others_at(4, at, k), f64::INFINITY, "round {round}: another table");
            let updates = 1 + gen.below(if round % 4 < 2 { 3 } else { 300 });
            let d = update_row(&mut gen, &mut ns, &mut ws, updates);
            let bound = cb.others_at(3, at.wrapping_add(d), k);
            for (i, e) in edges.iter().enumerate().filter(|&(i, _)| i as u32 != j) {
                let (_, s) = if solver {
                    amaf_children::<true>(std::slice::from_ref(e), AmafRow::stored(&ns, &ws), beta, |v, _| v, 0.5)
                } else {
                    amaf_children::<false>(std::slice::from_ref(e), AmafRow::stored(&ns, &ws), beta, |v, _| v, 0.5)
                };
                assert!(s <= bound, "round {round}: child {i} at {s} above the bound {bound} after {d} gains");
            }
        }
    }
}
