//! Hex knowledge in the tree (`knowledge`, `knowledge_threshold`), as MoHex: when a node has
//! been visited `knowledge_threshold` times, the game's consider set
//! ([`Game::knowledge_moves`]: for Hex the inferior cells and the must-play region of
//! `game::hex::knowledge`) replaces its legal moves (benzene's `SgUctSearch::NeedToComputeKnowledge`
//! and `MoHexThreadState::GenerateAllMoves`, which merges the node's children with the new move
//! set, keeping the statistics of the children that remain).
//!
//! In our tree the node's children form one run and untried moves are drawn from the legal
//! moves, so the pruning is done once and for all: the children outside the consider set leave
//! the run (their subtrees stay in the arena, unreachable from this node), the moves of the
//! consider set not expanded yet are added as children at once, and `n_legal` becomes the size
//! of the consider set, so no later expansion can draw a pruned move. The node's statistics
//! (n, w) are kept, as MoHex keeps them. With PUCT priors every child's prior is the
//! evaluator's on the consider set. MoHex also writes the fill-in into the board it descends
//! and plays out from; here the positions and playouts stay on the real board (the fill-in
//! keeps the value, so this only forgoes the playouts' benefit of the filled cells).
//!
//! The flag [`KNOWN`] marks a node whose knowledge was computed (kept by tree reuse; the root's
//! is computed again after a move, as its legal moves are recounted then).

use super::Search;
use crate::game::{Game, MoveList, MOVE_WORDS};
use crate::mcts::amaf::{ChildBound, UntriedBound};
use crate::mcts::tree::{AFFINE, KNOWN};

/// Counts of the knowledge computations of a search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KnowledgeStats {
    /// Nodes whose knowledge was computed (reached the threshold).
    pub nodes: u64,
    /// Of those, the nodes whose children it cut.
    pub pruned_nodes: u64,
    /// Legal moves pruned in all.
    pub pruned_moves: u64,
}

impl<G: Game> Search<G> {
    /// Computes the knowledge of node `cur` (position `g`, not terminal) and cuts its children to
    /// the consider set (see the module doc). Nothing is pruned when the consider set is empty
    /// or holds every legal move, or when adding the missing children would pass the node cap
    /// `cap`.
    pub(super) fn apply_knowledge(&mut self, cur: u32, g: &G, at_root: bool, cap: usize) {
        let node = &mut self.tree.nodes[cur as usize];
        node.flags |= KNOWN;
        if node.is_terminal() {
            return;
        }
        self.know.nodes += 1;
        let mut allowed = [0u64; MOVE_WORDS];
        if !g.knowledge_moves(&mut allowed) {
            return;
        }
        self.gen_legal(g, at_root);
        let ok = |i: usize| allowed[i / 64] >> (i % 64) & 1 == 1;
        let keep: MoveList<G::Move> = self.legal.iter().copied().filter(|&m| ok(g.move_index(m))).collect();
        if keep.is_empty() || keep.len() == self.legal.len() {
            return;
        }
        let stamp = self.mark_children(cur);
        let missing: Vec<G::Move> = keep.iter().copied().filter(|&m| self.mark[g.move_index(m)] != stamp).collect();
        if self.tree.len() + missing.len() > cap {
            return;
        }
        self.know.pruned_nodes += 1;
        self.know.pruned_moves += (self.legal.len() - keep.len()) as u64;
        // The kept children move to the front of the run, in order.
        let run = self.tree.children(cur);
        let mut k = run.start;
        for e in run.clone() {
            if ok(self.tree.edges[e as usize].mv as usize) {
                self.tree.edges[k as usize] = self.tree.edges[e as usize];
                if self.tree.with_priors {
                    self.tree.priors[k as usize] = self.tree.priors[e as usize];
                }
                k += 1;
            }
        }
        let node = &mut self.tree.nodes[cur as usize];
        node.n_children = (k - run.start) as u16;
        node.n_legal = keep.len() as u16;
        node.flags &= !AFFINE;
        let mover = g.to_move();
        for &m in &missing {
            let mut c = g.clone();
            c.play_unchecked(m);
            self.add_child(cur, &c, m, 0.0, mover);
        }
        if self.tree.with_priors {
            // Every child's prior from the evaluator on the consider set, normalised to sum to 1
            // as at the node's first evaluation (`priors.rs`; the pattern prior gives raw γ).
            let mut p = Vec::new();
            self.evaluate_priors(g, &keep, &mut p);
            for e in self.tree.children(cur) {
                let mv = self.tree.edges[e as usize].mv as usize;
                let j = keep.iter().position(|&m| g.move_index(m) == mv).expect("a kept move");
                self.tree.priors[e as usize] = p.get(j).copied().unwrap_or(0.0);
            }
        }
        // The bounds of the last scans saw other children.
        if let Some(b) = self.tree.amaf.children.get_mut(cur as usize) {
            *b = ChildBound::NONE;
        }
        if let Some(b) = self.tree.amaf.untried.get_mut(cur as usize) {
            *b = UntriedBound::NONE;
        }
    }

    /// The counts of the knowledge computations so far (`knowledge`).
    pub fn knowledge_stats(&self) -> KnowledgeStats {
        self.know
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Hex, Pentago, TicTacToe};
    use crate::mcts::config::SearchConfig;
    use crate::mcts::tree::{NIL, UNKNOWN};
    use crate::mcts::Budget;

    /// A position of `moves` (cell names) on `hex:n`.
    fn hex(n: usize, moves: &[&str]) -> Hex {
        let mut g = Hex::new(n, false).unwrap();
        for m in moves {
            g.play_unchecked(g.parse_move(m).unwrap());
        }
        g
    }

    /// Walks the tree below node `id` (position `g`): every node whose knowledge cut its children
    /// holds exactly the legal moves of the consider set, each once; returns the nodes checked.
    fn check_tree(s: &Search<Hex>, id: u32, g: &Hex, depth: u32) -> u32 {
        let node = s.tree.nodes[id as usize];
        let mut checked = 0;
        if node.flags & KNOWN != 0 && node.n_legal != UNKNOWN && !node.is_terminal() {
            let mut allowed = [0u64; MOVE_WORDS];
            let mut legal = MoveList::new();
            g.legal_moves(&mut legal);
            if g.knowledge_moves(&mut allowed) && (depth > 0 || s.root_filter.is_none()) {
                let want: Vec<u16> = legal.iter().copied().filter(|&m| allowed[m as usize / 64] >> (m % 64) & 1 == 1).collect();
                let mut got: Vec<u16> = s.tree.children(id).map(|e| s.tree.edges[e as usize].mv).collect();
                got.sort();
                // Children are only added once the knowledge cut them (or were kept then).
                assert_eq!(got, want, "children of {g:?}");
                assert_eq!(node.n_legal as usize, want.len());
                checked += 1;
            }
        }
        if depth < 6 {
            for e in s.tree.children(id) {
                let ed = s.tree.edges[e as usize];
                let mut c = g.clone();
                c.play_unchecked(ed.mv);
                checked += check_tree(s, ed.child, &c, depth + 1);
            }
        }
        checked
    }

    fn knowledge_search(preset: &str, g: &Hex, threshold: u32, iters: u64) -> Search<Hex> {
        let mut cfg = SearchConfig::preset(preset).unwrap();
        cfg.knowledge = true;
        cfg.knowledge_threshold = threshold;
        cfg.seed = 7;
        let mut s = Search::new(g.clone(), cfg).unwrap();
        s.run(Budget::iterations(iters), &|| 0.0);
        s
    }

    #[test]
    fn knowledge_cuts_children_to_the_consider_set() {
        // A 7×7 middle game and a 9×9 opening; `rave` (AMAF order), `uct` (affine order) and
        // `puct` (priors).
        let positions = [hex(7, &["d4", "c5", "e3", "d2", "b6"]), hex(9, &["e5", "d6", "f3"])];
        for g in &positions {
            for preset in ["rave", "uct", "best", "puct"] {
                let s = knowledge_search(preset, g, 16, 4000);
                let k = s.knowledge_stats();
                assert!(k.nodes > 0 && k.pruned_nodes > 0 && k.pruned_moves > 0, "{preset}: {k:?}");
                let checked = check_tree(&s, 0, g, 0);
                assert!(checked > 0, "{preset}: no cut node checked");
            }
        }
    }

    /// The children a cut adds unvisited are ranked as the untried moves they stand for (their
    /// AMAF value and prior), not +∞: a cut does not force one visit to each of them. Over the
    /// tree of a 7×7 middle-game search, many stay unvisited, and each scores its
    /// `untried_score`.
    #[test]
    fn unvisited_children_of_a_cut_score_as_untried_moves() {
        let g = hex(7, &["d4", "c5", "e3", "d2", "b6"]);
        for (preset, sets) in [("rave", &[][..]), ("mohex", &[][..]), ("rave", &[("c", "0.4")][..])] {
            let mut cfg = SearchConfig::preset(preset).unwrap();
            for (k, v) in sets {
                cfg.set(k, v).unwrap();
            }
            cfg.knowledge = true;
            cfg.knowledge_threshold = 16;
            cfg.seed = 7;
            let mut s = Search::new(g.clone(), cfg).unwrap();
            s.run(Budget::iterations(4000), &|| 0.0);
            assert!(s.knowledge_stats().pruned_nodes > 0, "{preset}: a cut");
            // (node, position, AMAF source before it), as the descent walks.
            let mut stack = vec![(0u32, g.clone(), NIL)];
            let mut unvisited = 0;
            while let Some((id, pos, src_in)) = stack.pop() {
                let src = s.amaf_source(src_in, id);
                let sc = s.scorer(id, &pos, src);
                for e in s.tree.children(id) {
                    let edge = s.tree.edges[e as usize];
                    if edge.n == 0 && s.tree.nodes[edge.child as usize].proof == 0 {
                        let prior = if s.tree.with_priors { s.tree.priors[e as usize] } else { 0.0 };
                        let want = s.untried_score(&sc, edge.mv as usize, prior, false);
                        assert!(want.is_finite(), "{preset}: {want}");
                        assert_eq!(s.child_score(&sc, e).value.to_bits(), want.to_bits(), "{preset}: child {}", edge.mv);
                        unvisited += 1;
                    } else if s.tree.nodes[edge.child as usize].n_children > 0 {
                        let mut next = pos.clone();
                        next.play_unchecked(edge.mv);
                        stack.push((edge.child, next, src));
                    }
                }
            }
            assert!(unvisited > 5, "{preset} {sets:?}: {unvisited} unvisited children");
        }
    }

    /// After a cut, the children's priors are the evaluator's on the consider set normalised
    /// to sum to 1, as a node's first priors are (the pattern prior gives raw γ: unnormalised,
    /// its progressive bias `c_pb·γ/√(n+1)` drowned every value).
    #[test]
    fn priors_after_a_cut_sum_to_one() {
        let g = hex(7, &["d4", "c5", "e3", "d2", "b6"]);
        for preset in ["mohex", "puct"] {
            let mut cfg = SearchConfig::preset(preset).unwrap();
            cfg.knowledge = true;
            cfg.knowledge_threshold = 16;
            cfg.seed = 7;
            let mut s = Search::new(g.clone(), cfg).unwrap();
            s.run(Budget::iterations(3000), &|| 0.0);
            assert!(s.tree.with_priors);
            let mut cut = 0;
            for id in 0..s.tree.len() as u32 {
                let node = s.tree.nodes[id as usize];
                if node.flags & KNOWN != 0 && node.n_children > 0 && node.n_children == node.n_legal {
                    let sum: f32 = s.tree.children(id).map(|e| s.tree.priors[e as usize]).sum();
                    assert!((sum - 1.0).abs() < 1e-3, "{preset}: node {id}'s priors sum to {sum}");
                    cut += 1;
                }
            }
            assert!(cut > 0, "{preset}: no cut node");
        }
    }

    #[test]
    fn seeded_knowledge_searches_are_deterministic() {
        let g = hex(11, &["f6", "e7"]);
        let a = knowledge_search("best", &g, 32, 3000);
        let b = knowledge_search("best", &g, 32, 3000);
        assert_eq!(a.knowledge_stats(), b.knowledge_stats());
        assert!(a.knowledge_stats().pruned_nodes > 0);
        let visits =
            |s: &Search<Hex>| s.tree.children(0).map(|e| (s.tree.edges[e as usize].mv, s.tree.edges[e as usize].n)).collect::<Vec<_>>();
        assert_eq!(visits(&a), visits(&b));
        assert_eq!(a.best_move(), b.best_move());
    }

    /// Without `knowledge` the threshold changes nothing; games without knowledge search
    /// alike with it on.
    #[test]
    fn off_or_without_knowledge_searches_as_before() {
        fn same<G: Game>(g: &G, on: SearchConfig) {
            let off = SearchConfig { knowledge: false, knowledge_threshold: 256, ..on.clone() };
            let (mut a, mut b) = (Search::new(g.clone(), off).unwrap(), Search::new(g.clone(), on).unwrap());
            a.run(Budget::iterations(2000), &|| 0.0);
            b.run(Budget::iterations(2000), &|| 0.0);
            let visits =
                |s: &Search<G>| s.tree.children(0).map(|e| (s.tree.edges[e as usize].mv, s.tree.edges[e as usize].n)).collect::<Vec<_>>();
            assert_eq!(visits(&a), visits(&b));
            assert_eq!(b.knowledge_stats().pruned_nodes, 0);
        }
        let best = SearchConfig::preset("best").unwrap();
        same(&hex(7, &["d4"]), SearchConfig { knowledge_threshold: 8, ..best.clone() });
        same(&Pentago::from_options(&[]).unwrap(), SearchConfig { knowledge: true, knowledge_threshold: 8, ..best.clone() });
        same(&TicTacToe::new(), SearchConfig { knowledge: true, knowledge_threshold: 8, ..best });
    }

    /// After a move the root's knowledge is computed again; the children stay the consider set.
    #[test]
    fn tree_reuse_keeps_the_cut() {
        let g = hex(7, &["d4", "c5"]);
        let mut s = knowledge_search("rave", &g, 8, 3000);
        let m = s.best_move().unwrap();
        s.advance(m).unwrap();
        s.run(Budget::iterations(2000), &|| 0.0);
        let mut g2 = g.clone();
        g2.play_unchecked(m);
        assert!(check_tree(&s, 0, &g2, 0) > 0);
    }
}
