//! PUCT priors that belong to the node: the evaluator is asked **once** per node, and the legal
//! moves are kept sorted by prior (highest first, ties in seeded random order), so expansion
//! goes by prior rank without asking again. (Before, the evaluator was called at every visit
//! of a node with untried moves: half of PUCT's time with the tactical prior.)
//!
//! Storage: per node id an offset into one list of `(move index, prior)` pairs, [`NIL`] until
//! computed. The root's list holds all its legal moves (after the depth-2 filter); every other
//! node keeps only its first [`PRIOR_KEEP`] by rank (6 bytes each), because most nodes of a tree
//! are leaves that expand one or two children: on Hex 11×11 the full lists made a PUCT tree
//! about 500 bytes per node (1.5 GB of WebAssembly memory in V8 at the page's node cap, after
//! 3 s of search; 330 MB with the cut lists). A node that has all of its kept moves in the tree
//! and wants another asks the evaluator again and keeps its whole list
//! ([`Search::next_by_prior`]; the cut list's slots stay unused until a tree reuse compacts the
//! lists). Ties are ordered by a generator seeded from the position's hash and the search seed,
//! not by the search's own generator, so the list asked again is the same list and the
//! truncation changes no decision (a test compares it with whole lists). Tree reuse remaps the offsets ([`NodePriors::remap`]); the root's entry
//! is recomputed after a reuse (its legal moves may be filtered differently).

use super::{Search, Step};
use crate::game::{Game, MoveList};
use crate::mcts::evaluator::normalise;
use crate::mcts::tree::{reserve_step, NIL};
use crate::rng::Rng64;

/// Moves kept per non-root node's prior list (the highest priors); see the module docs.
pub(crate) const PRIOR_KEEP: usize = 16;

/// The `len` bit that marks a list cut to [`PRIOR_KEEP`] (lists are at most 362 long).
const CUT: u16 = 1 << 15;

/// The sorted prior lists of the nodes that have one.
#[derive(Clone, Debug, Default)]
pub(super) struct NodePriors {
    /// Per node id: start in `moves`/`p`, or [`NIL`].
    start: Vec<u32>,
    /// Per node id: list length, plus [`CUT`] when moves were left out.
    len: Vec<u16>,
    /// Dense move indices, each node's run sorted by prior, highest first.
    moves: Vec<u16>,
    /// The priors, parallel to `moves` (normalised to sum to 1 per node).
    p: Vec<f32>,
}

impl NodePriors {
    /// The `(moves, priors)` of node `id`, if computed.
    #[inline]
    pub(super) fn of(&self, id: u32) -> Option<(&[u16], &[f32])> {
        let s = *self.start.get(id as usize)?;
        if s == NIL {
            return None;
        }
        let (s, l) = (s as usize, (self.len[id as usize] & !CUT) as usize);
        Some((&self.moves[s..s + l], &self.p[s..s + l]))
    }

    /// Whether node `id`'s list was cut to its first moves (its other legal moves left out).
    #[inline]
    fn cut(&self, id: u32) -> bool {
        self.len.get(id as usize).is_some_and(|&l| l & CUT != 0)
    }

    /// Stores the list of node `id` (already sorted); `cut`: moves were left out after it.
    fn set(&mut self, id: u32, pairs: &[(u16, f32)], cut: bool) {
        let i = id as usize;
        if self.start.len() <= i {
            let more = i + 1 - self.start.len();
            reserve_step(&mut self.start, more);
            reserve_step(&mut self.len, more);
            self.start.resize(i + 1, NIL);
            self.len.resize(i + 1, 0);
        }
        reserve_step(&mut self.moves, pairs.len());
        reserve_step(&mut self.p, pairs.len());
        self.start[i] = self.moves.len() as u32;
        self.len[i] = pairs.len() as u16 | if cut { CUT } else { 0 };
        self.moves.extend(pairs.iter().map(|x| x.0));
        self.p.extend(pairs.iter().map(|x| x.1));
    }

    /// Forgets node `id`'s list (it is recomputed on next need).
    pub(super) fn forget(&mut self, id: u32) {
        if let Some(s) = self.start.get_mut(id as usize) {
            *s = NIL;
        }
    }

    /// After tree compaction: node `old` is now `new_id[old]` ([`NIL`] = dropped). The kept
    /// lists are copied into fresh storage.
    pub(super) fn remap(&mut self, new_id: &[u32]) {
        let old = std::mem::take(self);
        for (o, &n) in new_id.iter().enumerate() {
            if n == NIL {
                continue;
            }
            if let Some((m, p)) = old.of(o as u32) {
                let pairs: Vec<(u16, f32)> = m.iter().copied().zip(p.iter().copied()).collect();
                self.set(n, &pairs, old.cut(o as u32));
            }
        }
    }

    /// Bytes held.
    pub(super) fn bytes(&self) -> usize {
        self.start.capacity() * 4 + self.len.capacity() * 2 + self.moves.capacity() * 2 + self.p.capacity() * 4
    }
}

impl<G: Game> Search<G> {
    /// Asks the evaluator about node `id` at position `g` (not terminal): stores its legal
    /// moves sorted by prior (highest first; equal priors in an order seeded by `g`'s hash and
    /// the search seed), all of them at the root or when `whole`, else the first
    /// [`PRIOR_KEEP`] (`prior_keep`), and returns the evaluator's value of `g` for the side to
    /// move (`None` without a value head).
    pub(super) fn evaluate_node(&mut self, id: u32, g: &G, at_root: bool, whole: bool) -> Option<f64> {
        self.gen_legal(g, at_root);
        if self.tree.nodes[id as usize].n_legal == crate::mcts::tree::UNKNOWN {
            self.tree.nodes[id as usize].n_legal = self.legal.len() as u16;
        }
        let moves: MoveList<G::Move> = self.legal.clone();
        let mut pri = std::mem::take(&mut self.priors);
        let v = self.evaluate_priors(g, &moves, &mut pri);
        let mut pairs: Vec<(u16, f32)> = moves.iter().zip(&pri).map(|(&m, &p)| (g.move_index(m) as u16, p)).collect();
        // Seeded shuffle, then a stable sort: ties (uniform priors) expand in random order, the
        // same order whenever this position is asked again.
        let mut rng = Rng64::new(g.hash() ^ self.config.seed.rotate_left(32) ^ 0x5052_494f_5253);
        for i in (1..pairs.len()).rev() {
            let j = rng.index(i + 1);
            pairs.swap(i, j);
        }
        pairs.sort_by(|a, b| b.1.total_cmp(&a.1));
        let keep = if at_root || whole { pairs.len() } else { pairs.len().min(self.prior_keep) };
        self.node_priors.set(id, &pairs[..keep], keep < pairs.len());
        self.priors = pri;
        v
    }

    /// One evaluation of position `g` (counted in `evaluations`): the priors of `moves` into
    /// `out`, normalised to sum to 1 (evaluators may give raw weights, as the pattern prior's γ),
    /// and the evaluator's value for the side to move (`None` without a value head).
    pub(super) fn evaluate_priors(&mut self, g: &G, moves: &[G::Move], out: &mut Vec<f32>) -> Option<f64> {
        self.evaluations += 1;
        let v = self.evaluator.evaluate(g, moves, out);
        normalise(out);
        v
    }

    /// The untried move of node `cur` with the highest prior (the next by rank), computing the
    /// node's priors first if needed; `None` when every legal move is in the tree. A node whose
    /// kept moves ([`PRIOR_KEEP`]) are all in the tree asks the evaluator again for its whole
    /// list (the same priors and order, so the same choice as if it had been kept).
    pub(super) fn next_by_prior(&mut self, cur: u32, g: &G, at_root: bool) -> Option<(G::Move, f32)> {
        if self.node_priors.of(cur).is_none() {
            self.evaluate_node(cur, g, at_root, false);
        }
        let stamp = self.mark_children(cur);
        let mut k = self.first_untried(cur, stamp);
        if k.is_none() && self.node_priors.cut(cur) {
            self.evaluate_node(cur, g, at_root, true);
            k = self.first_untried(cur, stamp);
        }
        let (moves, p) = self.node_priors.of(cur).expect("computed above");
        let k = k?;
        let m = g.move_from_index(moves[k] as usize).expect("stored move index");
        Some((m, p[k]))
    }

    /// The rank in node `cur`'s (computed) prior list of its first move not marked `stamp` (not
    /// yet a child, [`Search::mark_children`]).
    fn first_untried(&self, cur: u32, stamp: u32) -> Option<usize> {
        let (moves, _) = self.node_priors.of(cur).expect("computed above");
        moves.iter().position(|&m| self.mark[m as usize] != stamp)
    }

    /// Leaf evaluation of the node just added (`step`, position `g`, not terminal) when the
    /// leaf is valued by the network (`leaf = value | mix`): one evaluation gives the node's
    /// priors and the value v, kept in `leaf_value` as rewards per player for backpropagation.
    pub(super) fn evaluate_leaf(&mut self, step: Step, g: &G) -> f64 {
        let v = match self.node_priors.of(step.node) {
            // A transposition reached an already evaluated node: evaluate for the value only.
            Some(_) => {
                let mut scratch = Vec::new();
                self.gen_legal(g, false);
                let moves: MoveList<G::Move> = self.legal.clone();
                self.evaluate_priors(g, &moves, &mut scratch)
            }
            None => self.evaluate_node(step.node, g, false, false),
        };
        v.unwrap_or(0.5)
    }
}
