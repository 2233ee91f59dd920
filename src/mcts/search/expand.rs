//! Expansion: what the descent does at a node (`choose`: descend into a child or add one), which
//! untried move comes next (`pick_unexpanded`: PUCT priors, decisive moves, AMAF order, seeded
//! random or the seeded affine order of plain UCT), and adding the child to the tree (with
//! transpositions, an alias edge to the shared node).

use super::score::{plain_ucb1, Scorer};
use super::{Choice, Search, Step};
use crate::game::{Game, MoveList, Player};
use crate::mcts::config::{Selection, ValueEstimate};
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
