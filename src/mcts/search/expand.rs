//! Expansion: what the descent does at a node (`choose`: descend into a child or add one), which
//! untried move comes next (`pick_unexpanded`: PUCT priors, decisive moves, AMAF order, seeded
//! random or the seeded affine order of plain UCT), and adding the child to the tree (with
//! transpositions, an alias edge to the shared node).

use super::score::{plain_ucb1, Scorer};
use super::{Choice, Search, Step};
use crate::game::{Game, MoveList, Player, MOVE_WORDS};
use crate::mcts::config::{Selection, ValueEstimate};
use crate::mcts::selection::{blend, ucb1};
use crate::mcts::solver;
use crate::mcts::tree::{AmafTables, Edge, Node, AFFINE, ALIAS, NIL, TERMINAL, UNKNOWN};
use crate::rng::Rng64;

impl<G: Game> Search<G> {
    /// Whether plain UCT expansion may use the affine order (no other ordering rule in force:
    /// RAVE and GRAVE order expansions by AMAF value, decisive moves come first).
    #[inline]
    pub(super) fn fast_order_ok(&self) -> bool {
        !self.config.decisive && !self.config.anti_decisive && self.config.value == ValueEstimate::Mean && !self.config.rollout_expand
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
            self.gen_legal(g, at_root);
            self.tree.nodes[cur as usize].n_legal = self.legal.len() as u16;
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
                    self.gen_legal(g, false);
                    let n = self.legal.len();
                    let i = affine_index(g.hash() ^ self.config.seed, n, node.n_children as usize);
                    self.tree.nodes[cur as usize].flags |= AFFINE;
                    return Choice::Expand(self.legal[i], 0.0);
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
            let solver = self.config.solver;
            let mut bs = f32::NEG_INFINITY;
            let run = &self.tree.edges[range.start as usize..range.end as usize];
            for (j, e) in run.iter().enumerate() {
                let s = plain_ucb1(e, sc.cs, solver);
                if s > bs {
                    bs = s;
                    best = range.start + j as u32;
                }
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
    /// on an AMAF blend (RAVE, GRAVE: `sc` has a table), without transpositions, tactical
    /// expansion order (decisive / anti-decisive), a pie move to stand in for, or the depth-2
    /// filter at the root. Elsewhere the general code decides.
    #[inline(always)]
    fn amaf_scan_ok(&self, sc: &Scorer, at_root: bool) -> bool {
        sc.table != NIL
            && sc.pie.0 == NIL
            && self.config.selection == Selection::Uct
            && self.tt.is_none()
            && !self.config.decisive
            && !self.config.anti_decisive
            && !(at_root && self.root_filter.is_some())
    }

    /// `choose` under RAVE/GRAVE ([`Search::amaf_scan_ok`]), with the same scores, the same
    /// decision and the same random draws as the general path (`child_score` /
    /// `pick_unexpanded`), without its per-child dispatch: one pass over the children's edges
    /// with the AMAF rows of the player to move cut once (β from the table, no √ or Option per
    /// child), then one pass over the untried moves as a bit set (the legal move set minus the
    /// children's moves, [`Game::legal_move_set`]) in index order instead of a legal-move list
    /// and a stamp table.
    #[inline(never)]
    fn choose_by_amaf(&mut self, cur: u32, g: &G, sc: &Scorer, can_expand: bool) -> Choice<G::Move> {
        let ms = self.ms;
        let base = sc.table as usize * self.tree.amaf.width + sc.player as usize * ms;
        let (ns, ws) = (&self.tree.amaf.n[base..base + ms], &self.tree.amaf.w2[base..base + ms]);
        let c = self.config.c;
        let solver = self.config.solver;
        let range = self.tree.children(cur);
        let mut best = NIL;
        let mut best_score = f64::NEG_INFINITY;
        for (j, e) in self.tree.edges[range.start as usize..range.end as usize].iter().enumerate() {
            let i = e.mv as usize;
            // As `child_score` (UCT, no transpositions, no pie move): the same operations.
            let s = if solver && e.proof != 0 {
                f64::NEG_INFINITY
            } else if e.n == 0 {
                f64::INFINITY
            } else {
                let q = e.q as f64;
                let an = ns[i];
                let v = if an > 0 { blend(q, ws[i] as f64 * 0.5 / an as f64, self.beta(e.n, an)) } else { q };
                // c = 0 (the rave and grave presets): UCB1 is V itself, no √ or division.
                if c == 0.0 {
                    v
                } else {
                    ucb1(v, e.n, sc.ln_n, c)
                }
            };
            if s > best_score {
                best_score = s;
                best = range.start + j as u32;
            }
        }
        if can_expand {
            // The untried moves: the legal move set minus the children's moves.
            let mut cand = [0u64; MOVE_WORDS];
            g.legal_move_set(&mut cand);
            for e in &self.tree.edges[range.start as usize..range.end as usize] {
                let i = e.mv as usize;
                cand[i / 64] &= !(1 << (i % 64));
            }
            let pick = best_untried_in_set(&cand, ns, ws, self.config.fpu, &mut self.rng).map(|(i, _)| i);
            let pick = pick.and_then(|i| g.move_from_index(i).map(|m| (m, 0.0)));
            // As `pick_unexpanded` then `choose`: the untried move is expanded when it beats
            // every child (or there is none).
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
        let c = self.config.c;
        let fpu = self.config.fpu;
        let solver = self.config.solver;
        // `puct(v, p, n, N, c)` = v + c·p·√N/(1 + n), evaluated in the same order.
        let sqrt_n = (sc.parent_n as f64).sqrt();
        let range = self.tree.children(cur);
        let (lo, hi) = (range.start as usize, range.end as usize);
        let mut best = NIL;
        let mut best_score = f64::NEG_INFINITY;
        for (j, (e, &p)) in self.tree.edges[lo..hi].iter().zip(&self.tree.priors[lo..hi]).enumerate() {
            let s = if solver && e.proof != 0 {
                f64::NEG_INFINITY
            } else {
                let v = if e.n == 0 { fpu } else { e.q as f64 };
                v + c * p as f64 * sqrt_n / (1.0 + e.n as f64)
            };
            if s > best_score {
                best_score = s;
                best = range.start + j as u32;
            }
        }
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
        self.gen_legal(g, at_root);
        // Decisive / anti-decisive moves are expanded first when those policies are on (the same
        // knowledge the playouts use, applied to the order of expansion).
        if self.config.decisive || self.config.anti_decisive {
            let mut tac: MoveList<G::Move> = MoveList::new();
            for pass in 0..2 {
                if pass == 0 && self.config.decisive {
                    g.winning_moves(&mut tac);
                } else if pass == 1 && self.config.anti_decisive {
                    g.threats(&mut tac);
                } else {
                    continue;
                }
                for &m in &tac {
                    if self.mark[g.move_index(m)] != stamp && self.legal.contains(&m) {
                        return self.expand(sc, g, Some((m, 0.0)), true);
                    }
                }
            }
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
            n.proof = solver::terminal_proof(o, mover) as u8;
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

/// The `k`-th element (k < n) of a seeded affine permutation `i ↦ (a·i + b) mod n` of `0..n`,
/// with `a` coprime to `n`, both drawn from `seed` by SplitMix64: a random starting move and a
/// random stride, different at every position.
pub fn affine_index(seed: u64, n: usize, k: usize) -> usize {
    debug_assert!(k < n);
    let h = crate::game::zobrist_key(seed);
    let n64 = n as u64;
    let b = h % n64;
    if n <= 2 {
        return ((k as u64 + b) % n64) as usize;
    }
    let mut a = 1 + (h >> 32) % (n64 - 1);
    while gcd(a, n64) != 1 {
        a = a % (n64 - 1) + 1;
    }
    ((a * k as u64 + b) % n64) as usize
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
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
    let base = table as usize * amaf.width + player as usize * ms;
    let (ns, ws) = (&amaf.n[base..base + ms], &amaf.w2[base..base + ms]);
    let mark = &tree.mark[..ms];
    for &m in legal {
        let i = g.move_index(m);
        if i >= ms || mark[i] == tree.stamp {
            continue;
        }
        let an = ns[i];
        let v = if an > 0 { ws[i] as f64 * 0.5 / an as f64 } else { fpu };
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

/// [`best_untried_by_amaf`] over a set of dense move indices (`cand`, bit `i % 64` of word
/// `i / 64`) visited in index order, the AMAF rows `ns`/`ws` of the player to move already cut:
/// the candidate with the highest AMAF value `w/n` (`fpu` without data), ties broken uniformly
/// at random by the same reservoir draws; `None` when `cand` is empty.
#[inline(never)]
fn best_untried_in_set(cand: &[u64; MOVE_WORDS], ns: &[u32], ws: &[u32], fpu: f64, rng: &mut Rng64) -> Option<(usize, f64)> {
    if fpu == 0.5 {
        return best_untried_exact(cand, ns, ws, rng);
    }
    let mut best: Option<(usize, f64)> = None;
    let mut ties = 0u32;
    for (wi, &word) in cand.iter().enumerate() {
        let mut x = word;
        while x != 0 {
            let i = wi * 64 + x.trailing_zeros() as usize;
            x &= x - 1;
            let an = ns[i];
            let v = if an > 0 { ws[i] as f64 * 0.5 / an as f64 } else { fpu };
            match best {
                Some((_, b)) if v < b => {}
                Some((_, b)) if v == b => {
                    ties += 1;
                    if rng.below(ties + 1) == 0 {
                        best = Some((i, v));
                    }
                }
                _ => {
                    best = Some((i, v));
                    ties = 0;
                }
            }
        }
    }
    best
}

/// [`best_untried_in_set`] for `fpu = ½` (the default) without a division per move: each value
/// is the fraction `w₂ / 2n` (`1/2` without data) and two values compare by cross-multiplying
/// in `u64` (`w₂ < 2³²`, `2n ≤ 2³²`: no overflow). Equal fractions are equal `f64` quotients and
/// distinct ones differ in `f64` while `n < 2²⁶`, so the same moves tie and win as in the `f64`
/// scan, with the same random draws.
#[inline(never)]
fn best_untried_exact(cand: &[u64; MOVE_WORDS], ns: &[u32], ws: &[u32], rng: &mut Rng64) -> Option<(usize, f64)> {
    let mut best = usize::MAX;
    let (mut bn, mut bd) = (0u64, 1u64);
    let mut ties = 0u32;
    for (wi, &word) in cand.iter().enumerate() {
        let mut x = word;
        while x != 0 {
            let i = wi * 64 + x.trailing_zeros() as usize;
            x &= x - 1;
            let an = ns[i] as u64;
            let (num, den) = if an > 0 { (ws[i] as u64, 2 * an) } else { (1, 2) };
            let (l, r) = (num * bd, bn * den);
            if best == usize::MAX || l > r {
                best = i;
                (bn, bd) = (num, den);
                ties = 0;
            } else if l == r {
                ties += 1;
                if rng.below(ties + 1) == 0 {
                    best = i;
                    (bn, bd) = (num, den);
                }
            }
        }
    }
    (best != usize::MAX).then(|| (best, bn as f64 / bd as f64))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The division-free scan (fpu = ½) picks the same move with the same value and the same
    /// random draws as the `f64` scan, on rows with many ties and unseen moves.
    #[test]
    fn exact_scan_equals_the_f64_scan() {
        let mut gen = Rng64::new(9);
        for round in 0..2000 {
            let ms = 1 + gen.index(300);
            let ns: Vec<u32> =
                (0..ms).map(|_| if gen.below(4) == 0 { 0 } else { 1 + gen.below(if round % 2 == 0 { 6 } else { 100_000 }) }).collect();
            let ws: Vec<u32> = ns.iter().map(|&n| gen.below(2 * n + 1)).collect();
            let mut cand = [0u64; MOVE_WORDS];
            for i in 0..ms {
                if gen.below(5) != 0 {
                    cand[i / 64] |= 1 << (i % 64);
                }
            }
            let (mut r1, mut r2) = (Rng64::new(round), Rng64::new(round));
            let exact = best_untried_exact(&cand, &ns, &ws, &mut r1);
            let float = best_untried_in_set(&cand, &ns, &ws, 0.5000000000000001, &mut Rng64::new(0)).map(|x| x.1);
            // The f64 scan itself (fpu = ½ spelled so that it does not take the exact path).
            let mut f = None;
            let mut ties = 0u32;
            for i in (0..ms).filter(|&i| cand[i / 64] >> (i % 64) & 1 == 1) {
                let v = if ns[i] > 0 { ws[i] as f64 * 0.5 / ns[i] as f64 } else { 0.5 };
                match f {
                    Some((_, b)) if v < b => {}
                    Some((_, b)) if v == b => {
                        ties += 1;
                        if r2.below(ties + 1) == 0 {
                            f = Some((i, v));
                        }
                    }
                    _ => {
                        f = Some((i, v));
                        ties = 0;
                    }
                }
            }
            assert_eq!(exact, f, "round {round}");
            assert_eq!(r1.next_u64(), r2.next_u64(), "round {round}: the same draws");
            assert_eq!(float.is_some(), exact.is_some());
        }
    }
}
