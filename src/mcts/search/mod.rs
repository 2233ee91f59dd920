//! [`Search`]: the anytime, resumable MCTS loop (selection, lazy expansion, playout,
//! backpropagation, AMAF, solver) over the arena tree.

use crate::game::{Game, MoveList, NoTrace, Outcome, Player};
use crate::mcts::config::{ConfigError, FinalMove, PriorKind, SearchConfig, Selection, ValueEstimate};
use crate::mcts::evaluator::{normalise, Evaluator, TacticalPrior, UniformPrior};
use crate::mcts::playout::{qb_bonus, PolicyState};
use crate::mcts::selection::secure;
use crate::mcts::solver;
use crate::mcts::stats::{ChildStats, PolicyStats, SearchStats, TreeExport, TreeNodeExport};
use crate::mcts::transposition::{table_bytes, TransTable};
use crate::mcts::tree::{Edge, Node, Proof, Tree, AFFINE, ALIAS, NIL, TERMINAL, UNKNOWN};
use crate::mcts::{Budget, Clock, RunReport, StopReason};
use crate::rng::Rng64;
use score::{plain_ucb1, Scorer};

mod score;
pub mod trace;

/// Why a search could not be created, reconfigured or advanced.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SearchError {
    /// The configuration was refused.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The move is not legal at the root.
    #[error("illegal move {0} at the root")]
    IllegalMove(String),
    /// The move text could not be read (the game's message).
    #[error("{0}")]
    BadMove(String),
}

/// One step of the current descent.
#[derive(Clone, Copy, Debug)]
struct Step {
    /// Index of the edge taken into the node ([`NIL`] for the root).
    edge: u32,
    /// The node.
    node: u32,
}

enum Choice<M> {
    Expand(M, f32),
    Descend(u32),
    Leaf,
}

/// An MCTS search over a game `G` from a root position. See the module docs of `mcts`.
pub struct Search<G: Game> {
    root: G,
    config: SearchConfig,
    tree: Tree,
    rng: Rng64,
    tt: Option<TransTable>,
    policy: PolicyState,
    evaluator: Box<dyn Evaluator<G>>,
    /// Depth-2 root filter: allowed dense indices (None = all legal moves).
    root_filter: Option<Vec<bool>>,
    depth2_note: String,
    depth2_firings: u64,
    iterations: u64,
    playouts: u64,
    elapsed_ms: f64,
    max_depth: u32,
    // scratch
    path: Vec<Step>,
    seq: Vec<G::Move>,
    seq_idx: Vec<u16>,
    legal: MoveList<G::Move>,
    priors: Vec<f32>,
    stamp: u32,
    mark: Vec<u32>,
    amaf_stamp: Vec<u32>,
    amaf_ply: Vec<u32>,
    ms: usize,
    /// Record every playout's moves even when nothing reads them (step-through; see
    /// [`Search::set_record_playouts`]).
    record_playouts: bool,
    /// Length of `path` when the current iteration's playout started (`usize::MAX`: no playout).
    sel_len: usize,
    /// Whether the current iteration expanded a node in the tree descent.
    expanded: bool,
    /// The score of the move the current iteration expanded, as `choose` ranked it.
    expand_score: f64,
}

impl<G: Game> Search<G> {
    /// A search from `root` with `config` (validated).
    ///
    /// # Errors
    /// An invalid configuration.
    pub fn new(root: G, config: SearchConfig) -> Result<Self, SearchError> {
        config.validate()?;
        let ms = root.move_space();
        let evaluator: Box<dyn Evaluator<G>> = match config.prior {
            PriorKind::Uniform => Box::new(UniformPrior),
            PriorKind::Tactical => Box::new(TacticalPrior),
        };
        let mut s = Search {
            rng: Rng64::new(config.seed),
            tt: None,
            policy: PolicyState::new(ms, &config),
            evaluator,
            root_filter: None,
            depth2_note: "off".into(),
            depth2_firings: 0,
            iterations: 0,
            playouts: 0,
            elapsed_ms: 0.0,
            max_depth: 0,
            path: Vec::with_capacity(512),
            seq: Vec::with_capacity(512),
            seq_idx: Vec::with_capacity(512),
            legal: MoveList::new(),
            priors: Vec::new(),
            stamp: 0,
            mark: vec![0; ms],
            amaf_stamp: vec![0; ms],
            amaf_ply: vec![0; ms],
            ms,
            record_playouts: false,
            sel_len: usize::MAX,
            expanded: false,
            expand_score: f64::NEG_INFINITY,
            tree: Tree::default(),
            root,
            config,
        };
        s.reset_tree();
        Ok(s)
    }

    /// Replaces the prior evaluator (PUCT); the hook for a learned policy.
    pub fn set_evaluator(&mut self, e: Box<dyn Evaluator<G>>) {
        self.evaluator = e;
    }

    /// A fresh tree laid out for the configuration (priors for PUCT, AMAF tables when needed).
    fn new_tree(&self) -> Tree {
        let width = if self.config.needs_amaf() { 2 * self.ms } else { 0 };
        Tree::with_root(self.config.selection == Selection::Puct, width)
    }

    fn reset_tree(&mut self) {
        self.tree = self.new_tree();
        self.tt = if self.config.transpositions {
            let mut t = TransTable::default();
            t.insert(self.root.hash(), 0);
            Some(t)
        } else {
            None
        };
        self.init_root();
    }

    /// Sets the root node's terminal flag, its AMAF table and the depth-2 filter.
    fn init_root(&mut self) {
        if let Some(o) = self.root.outcome() {
            let r = &mut self.tree.nodes[0];
            r.flags |= TERMINAL;
            r.n_legal = 0;
            r.proof = solver::terminal_proof(o, 1 - self.root.to_move()) as u8;
        }
        if self.tree.with_amaf && self.tree.amaf.table(0).is_none() {
            self.tree.amaf.alloc(0);
        }
        self.root_filter = None;
        self.depth2_note = "off".into();
        if self.config.depth2 && !self.root.is_terminal() {
            let (filter, note, fired) = depth2(&self.root);
            self.root_filter = filter;
            self.depth2_note = note;
            if fired {
                self.depth2_firings += 1;
            }
        }
        // Drop root children the filter excludes (after tree reuse).
        if let Some(f) = &self.root_filter {
            let keep: Vec<(Edge, f32)> = self
                .tree
                .children(0)
                .filter(|&e| f[self.tree.edges[e as usize].mv as usize])
                .map(|e| (self.tree.edges[e as usize], if self.tree.with_priors { self.tree.priors[e as usize] } else { 0.0 }))
                .collect();
            self.tree.nodes[0].n_legal = UNKNOWN;
            self.tree.set_children(0, &keep);
        }
        if !self.root.is_terminal() {
            self.tree.nodes[0].n_legal = UNKNOWN;
        }
    }

    /// The root position.
    pub fn root(&self) -> &G {
        &self.root
    }

    /// The configuration.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Tree nodes.
    pub fn node_count(&self) -> usize {
        self.tree.len()
    }

    /// Bytes of tree storage (node and edge arenas, AMAF tables, transposition table).
    pub fn tree_bytes(&self) -> usize {
        self.tree.bytes() + self.tt.as_ref().map_or(0, table_bytes)
    }

    /// Root visit count.
    pub fn root_visits(&self) -> u64 {
        self.tree.nodes[0].n as u64
    }

    /// Proven value of the root from the side to move's view.
    pub fn root_proof(&self) -> Proof {
        self.tree.nodes[0].proof().flip()
    }

    /// Replaces the configuration, keeping the tree where it stays valid: a change of
    /// `transpositions`, `depth2`, `rollout_expand`, of whether AMAF tables are needed or of
    /// PUCT on/off (the tree layout) rebuilds it; a new `seed` reseeds the
    /// generator; playout tables are kept where their shape is unchanged.
    ///
    /// # Errors
    /// An invalid configuration (the search is untouched).
    pub fn set_config(&mut self, c: SearchConfig) -> Result<(), SearchError> {
        c.validate()?;
        let rebuild = c.transpositions != self.config.transpositions
            || c.depth2 != self.config.depth2
            || c.rollout_expand != self.config.rollout_expand
            || c.needs_amaf() != self.config.needs_amaf()
            || (c.selection == Selection::Puct) != (self.config.selection == Selection::Puct);
        if c.seed != self.config.seed {
            self.rng = Rng64::new(c.seed);
        }
        if c.prior != self.config.prior {
            self.evaluator = match c.prior {
                PriorKind::Uniform => Box::new(UniformPrior),
                PriorKind::Tactical => Box::new(TacticalPrior),
            };
        }
        self.policy.reconfigure(&c);
        self.config = c;
        if rebuild {
            self.reset_tree();
        }
        Ok(())
    }

    /// Runs iterations until the budget is spent, the root is proven (solver), the game is
    /// over, or (with `stop_at_node_cap`) the node cap is reached. Anytime and resumable.
    pub fn run(&mut self, budget: Budget, clock: Clock) -> RunReport {
        let t0 = clock();
        let mut done = 0u64;
        let stop;
        if self.root.is_terminal() {
            return RunReport { iterations: 0, elapsed_ms: 0.0, stop: StopReason::GameOver };
        }
        let cap = self.config.node_cap as usize;
        loop {
            if self.config.solver && self.tree.nodes[0].proof() != Proof::Unknown {
                stop = StopReason::RootProven;
                break;
            }
            if let Some(n) = budget.iterations {
                if done >= n {
                    stop = StopReason::Iterations;
                    break;
                }
            }
            if self.config.stop_at_node_cap && self.tree.len() >= cap {
                stop = StopReason::NodeCap;
                break;
            }
            if let Some(ms) = budget.millis {
                if done % 16 == 0 && clock() - t0 >= ms {
                    stop = StopReason::Time;
                    break;
                }
            } else if budget.iterations.is_none() {
                stop = StopReason::Iterations;
                break;
            }
            self.iterate();
            done += 1;
        }
        let elapsed = (clock() - t0).max(0.0);
        self.elapsed_ms += elapsed;
        RunReport { iterations: done, elapsed_ms: elapsed, stop }
    }

    /// Whether plain UCT expansion may use the affine order (no other ordering rule in force:
    /// RAVE and GRAVE order expansions by AMAF value, decisive moves come first).
    #[inline]
    fn fast_order_ok(&self) -> bool {
        !self.config.decisive && !self.config.anti_decisive && self.config.value == ValueEstimate::Mean && !self.config.rollout_expand
    }

    /// Legal moves at `g` into `self.legal`, filtered at the root by depth-2.
    fn gen_legal(&mut self, g: &G, at_root: bool) {
        g.legal_moves(&mut self.legal);
        if at_root {
            if let Some(f) = &self.root_filter {
                self.legal.retain(|m| f[g.move_index(*m)]);
            }
        }
    }

    /// One MCTS iteration.
    #[inline]
    fn iterate(&mut self) {
        self.tree.tidy();
        let outcome = self.descend();
        self.finish(outcome);
    }

    /// The first three phases of an iteration: selection and expansion (filling `path` and
    /// `seq`), then the playout; returns the outcome reached.
    #[inline(always)]
    fn descend(&mut self) -> Outcome {
        let mut g = self.root.clone();
        self.path.clear();
        self.seq.clear();
        self.sel_len = usize::MAX;
        self.expanded = false;
        self.path.push(Step { edge: NIL, node: 0 });
        let mut cur = 0u32;
        let cap = self.config.node_cap as usize;
        let amaf_on = self.tree.with_amaf;
        let table_visits = self.config.rave_table_visits;
        // The AMAF source node (`amaf_source` in score.rs), updated at each node of the path.
        let mut src = NIL;
        let outcome = loop {
            if let Some(o) = g.outcome() {
                break o;
            }
            if amaf_on {
                if self.tree.amaf.of_node[cur as usize] == NIL && self.tree.nodes[cur as usize].n >= table_visits {
                    self.tree.amaf.alloc(cur);
                }
                src = self.amaf_source(src, cur);
            }
            let depth = self.path.len() - 1;
            match self.choose(cur, &g, depth == 0, src, cap) {
                Choice::Expand(m, prior) => {
                    let mover = g.to_move();
                    g.play_unchecked(m);
                    self.seq.push(m);
                    let step = self.add_child(cur, &g, m, prior, mover);
                    self.path.push(step);
                    self.expanded = true;
                    if let Some(o) = g.outcome() {
                        break o;
                    }
                    break self.playout(&mut g, cap);
                }
                Choice::Descend(edge) => {
                    let e = self.tree.edges[edge as usize];
                    let m = g.move_from_index(e.mv as usize).expect("stored move index");
                    g.play_unchecked(m);
                    self.seq.push(m);
                    self.path.push(Step { edge, node: e.child });
                    cur = e.child;
                }
                Choice::Leaf => break self.playout(&mut g, cap),
            }
        };
        outcome
    }

    /// The last phase of an iteration: counters, then backpropagation of `outcome` along `path`.
    #[inline(always)]
    fn finish(&mut self, outcome: Outcome) {
        self.iterations += 1;
        let depth = (self.path.len() - 1) as u32;
        if depth > self.max_depth {
            self.max_depth = depth;
        }
        self.backprop(outcome);
    }

    /// Runs the playout from the leaf (policy or fast random), with rollout-expand if on.
    fn playout(&mut self, g: &mut G, cap: usize) -> Outcome {
        self.playouts += 1;
        let start = self.seq.len();
        self.sel_len = self.path.len();
        if self.config.poolrave {
            self.build_pools();
        }
        let o = if self.config.policy_playouts() {
            self.policy.playout(&self.config, g, &mut self.rng, &mut self.seq)
        } else if self.config.playout_moves_needed() || self.record_playouts {
            g.random_playout(&mut self.rng, &mut self.seq)
        } else {
            // Nothing reads the playout's moves or length: let the game take its outcome-only
            // shortcut (`g` is left meaningful for `outcome()` only, and is not used again).
            g.random_playout(&mut self.rng, &mut NoTrace)
        };
        if self.config.rollout_expand {
            self.rollout_expand(start, cap);
        }
        o
    }

    /// Rollout-expand: the playout's positions become a chain of nodes below the leaf
    /// (until the cap or the end of the game), updated by this iteration's backpropagation.
    fn rollout_expand(&mut self, start: usize, cap: usize) {
        let mut g = self.root.clone();
        for &m in &self.seq[..start] {
            g.play_unchecked(m);
        }
        let mut cur = self.path.last().unwrap().node;
        let mut j = start;
        while j < self.seq.len() && self.tree.len() < cap && !g.is_terminal() {
            let m = self.seq[j];
            let mover = g.to_move();
            let idx = g.move_index(m) as u16;
            g.play_unchecked(m);
            // Only a child not yet in the tree can be created: keep child lists unique.
            if self.tree.children(cur).any(|e| self.tree.edges[e as usize].mv == idx) {
                break;
            }
            if self.tree.nodes[cur as usize].n_legal == UNKNOWN {
                let mut h = self.root.clone();
                for &x in &self.seq[..j] {
                    h.play_unchecked(x);
                }
                self.gen_legal(&h, cur == 0);
                self.tree.nodes[cur as usize].n_legal = self.legal.len() as u16;
            }
            let step = self.add_child(cur, &g, m, 0.0, mover);
            self.path.push(step);
            cur = step.node;
            j += 1;
        }
    }

    /// Creates the child of `parent` reached by `m` (`g` is the position after `m`), or links
    /// the shared node of a transposition through an alias edge.
    fn add_child(&mut self, parent: u32, g: &G, m: G::Move, prior: f32, mover: Player) -> Step {
        let idx = g.move_index(m) as u16;
        if let Some(tt) = &self.tt {
            if let Some(&shared) = tt.get(&g.hash()) {
                let mut e = Edge::new(shared, idx);
                e.flags = ALIAS;
                e.sync(&self.tree.nodes[shared as usize]);
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

    /// A fresh stamp for the `mark` / `amaf_stamp` scratch tables.
    fn next_stamp(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.iter_mut().for_each(|x| *x = 0);
            self.amaf_stamp.iter_mut().for_each(|x| *x = 0);
            self.stamp = 1;
        }
        self.stamp
    }

    /// Marks the expanded children's moves of `id` with a fresh stamp.
    fn mark_children(&mut self, id: u32) -> u32 {
        let s = self.next_stamp();
        for e in self.tree.children(id) {
            self.mark[self.tree.edges[e as usize].mv as usize] = s;
        }
        s
    }

    /// Chooses what to do at node `cur` (position `g`); `src` is the AMAF source node or [`NIL`].
    /// Every score compared here comes from `score.rs` ([`Search::child_score`],
    /// [`Search::untried_score`]); the score of an expanded move is kept in `expand_score` for
    /// the trace.
    ///
    /// UCT: UCB1 on the (RAVE-blended) value; with c > 0 every untried move comes before any
    /// revisit (n = 0 → infinite bonus), in the order of their AMAF value under RAVE/GRAVE. With
    /// c = 0 and RAVE/GRAVE, existing children and untried moves are ranked alike: an untried move
    /// (n = 0, β = 1) is worth its AMAF value, or `fpu` without AMAF data (Gelly & Silver 2011,
    /// who found c = 0 best with RAVE). PUCT: the best untried move (highest prior, V = fpu) is
    /// ranked with the existing children.
    fn choose(&mut self, cur: u32, g: &G, at_root: bool, src: u32, cap: usize) -> Choice<G::Move> {
        if self.tree.nodes[cur as usize].n_legal == UNKNOWN {
            self.gen_legal(g, at_root);
            self.tree.nodes[cur as usize].n_legal = self.legal.len() as u16;
        }
        let node = self.tree.nodes[cur as usize];
        let can_expand = node.n_children < node.n_legal && self.tree.len() < cap;
        let sc = self.scorer(cur, g.to_move(), src);
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
    fn pick_unexpanded(&mut self, cur: u32, g: &G, at_root: bool, sc: &Scorer) -> Choice<G::Move> {
        let stamp = self.mark_children(cur);
        self.gen_legal(g, at_root);
        if self.config.selection == Selection::Puct {
            let moves: MoveList<G::Move> = self.legal.clone();
            let mut pri = std::mem::take(&mut self.priors);
            self.evaluator.priors(g, &moves, &mut pri);
            normalise(&mut pri);
            let mut best: Option<(G::Move, f32)> = None;
            let mut ties = 0u32;
            for (i, &m) in moves.iter().enumerate() {
                if self.mark[g.move_index(m)] == stamp {
                    continue;
                }
                let p = pri[i];
                match best {
                    Some((_, bp)) if p < bp => {}
                    Some((_, bp)) if p == bp => {
                        ties += 1;
                        if self.rng.below(ties + 1) == 0 {
                            best = Some((m, p));
                        }
                    }
                    _ => {
                        best = Some((m, p));
                        ties = 0;
                    }
                }
            }
            self.priors = pri;
            return self.expand(sc, g, best, false);
        }
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
            // MC-RAVE: the untried move with the best AMAF value.
            let mut best: Option<(G::Move, f64)> = None;
            let mut ties = 0u32;
            for k in 0..self.legal.len() {
                let m = self.legal[k];
                let i = g.move_index(m);
                if self.mark[i] == stamp {
                    continue;
                }
                let v = self.untried_value(sc, i);
                match best {
                    Some((_, b)) if v < b => {}
                    Some((_, b)) if v == b => {
                        ties += 1;
                        if self.rng.below(ties + 1) == 0 {
                            best = Some((m, v));
                        }
                    }
                    _ => {
                        best = Some((m, v));
                        ties = 0;
                    }
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
    fn expand(&mut self, sc: &Scorer, g: &G, pick: Option<(G::Move, f32)>, tactical: bool) -> Choice<G::Move> {
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

    /// Backpropagation, AMAF, learning, solver.
    fn backprop(&mut self, outcome: Outcome) {
        let root_mover = self.root.to_move();
        let len = self.seq.len() as f64;
        let mut reward = [outcome.reward(0), outcome.reward(1)];
        if self.config.qb {
            if let Some(w) = outcome.winner() {
                let st = self.policy.qb[w as usize];
                let b = qb_bonus(len, st.mean, st.std(), self.config.qb_k);
                // Pepels et al.: r_b = r + sgn(r)·a·b(λ) on r ∈ {−1, 1}; mapped to [0, 1] by (r+1)/2.
                let a = self.config.qb_a;
                reward[w as usize] = 1.0 + a * b / 2.0;
                reward[1 - w as usize] = -a * b / 2.0;
                self.policy.qb[w as usize].push(len);
            }
        }
        for (d, step) in self.path.iter().enumerate() {
            // The player who moved into the node at depth d.
            let into = if d == 0 { 1 - root_mover } else { root_mover ^ ((d as u8 - 1) & 1) };
            let n = &mut self.tree.nodes[step.node as usize];
            n.n += 1;
            n.w += reward[into as usize];
        }
        if self.config.needs_amaf()
            || self.config.lgr != crate::mcts::config::LgrMode::Off
            || self.config.mast != crate::mcts::config::MastMode::Off
        {
            self.seq_idx.clear();
            for &m in &self.seq {
                self.seq_idx.push(self.root.move_index(m) as u16);
            }
        }
        if self.tree.with_amaf {
            self.update_amaf(outcome);
        }
        if self.config.lgr != crate::mcts::config::LgrMode::Off || self.config.mast != crate::mcts::config::MastMode::Off {
            let seq = std::mem::take(&mut self.seq_idx);
            self.policy.learn(&self.config, &seq, root_mover, outcome);
            self.seq_idx = seq;
        }
        if self.config.solver {
            for i in (0..self.path.len()).rev() {
                let id = self.path[i].node;
                if self.tree.nodes[id as usize].proof != 0 {
                    continue;
                }
                let p = solver::compute_proof(&self.tree, id);
                if p == Proof::Unknown {
                    break;
                }
                self.tree.nodes[id as usize].proof = p as u8;
            }
        }
        // Refresh the edges' cached statistics along the path.
        for step in &self.path[1..] {
            let node = self.tree.nodes[step.node as usize];
            self.tree.edges[step.edge as usize].sync(&node);
        }
    }

    /// AMAF update (Gelly & Silver 2007; two-colour tables as in Cazenave 2015): at each node of
    /// the path that has a table, every move played after the node (its first occurrence from
    /// there) is credited to the player who played it, with that player's reward.
    fn update_amaf(&mut self, outcome: Outcome) {
        let s = self.next_stamp();
        let root_mover = self.root.to_move();
        let last = self.path.len() - 1;
        let ms = self.ms;
        let width = self.tree.amaf.width;
        let r2 = [(outcome.reward(0) * 2.0) as u32, (outcome.reward(1) * 2.0) as u32];
        let len = self.seq_idx.len();
        // amaf_ply[i] = first ply ≥ d at which move i was played (filled from the end).
        for j in (last..len).rev() {
            let i = self.seq_idx[j] as usize;
            self.amaf_stamp[i] = s;
            self.amaf_ply[i] = j as u32;
        }
        for d in (0..=last).rev() {
            if d < last {
                let i = self.seq_idx[d] as usize;
                self.amaf_stamp[i] = s;
                self.amaf_ply[i] = d as u32;
            }
            let Some(t) = self.tree.amaf.table(self.path[d].node) else { continue };
            let base = t as usize * width;
            for j in d..len {
                let i = self.seq_idx[j] as usize;
                if self.amaf_ply[i] as usize != j {
                    continue;
                }
                let p = (root_mover as usize ^ (j & 1)) & 1;
                let k = base + p * ms + i;
                self.tree.amaf.n[k] += 1;
                self.tree.amaf.w2[k] += r2[p];
            }
        }
    }

    /// PoolRAVE pools (Rimmel, Teytaud et al. 2010): for each player, the `pool_k` moves with
    /// the best AMAF value (at least `pool_min_amaf` AMAF visits) in the table of the deepest
    /// node of the current path that has one, best first.
    fn build_pools(&mut self) {
        let Some(t) = self.path.iter().rev().find_map(|st| self.tree.amaf.table(st.node)) else {
            self.policy.pool = [Vec::new(), Vec::new()];
            return;
        };
        for p in 0..2u8 {
            let mut pool: Vec<(f64, u16)> = Vec::new();
            for i in 0..self.ms {
                let (an, aw) = self.tree.amaf.get(t, p, i, self.ms);
                if an >= self.config.pool_min_amaf.max(1) {
                    pool.push((aw / an as f64, i as u16));
                }
            }
            self.policy.pool[p as usize] = pool_order(pool, self.config.pool_k);
        }
    }

    /// Index of the edge of node `id` chosen by the final-move rule (proven win first).
    fn best_root_edge(&self, id: u32) -> Option<u32> {
        let mut best: Option<(u32, (i32, f64, f64))> = None;
        for e in self.tree.children(id) {
            let n = &self.tree.nodes[self.tree.child(e) as usize];
            let proof = n.proof();
            let tier = match proof {
                Proof::Win => 3,
                Proof::Loss => 0,
                _ => 1,
            };
            let key = match self.config.final_move {
                FinalMove::Robust => (tier, n.n as f64, n.q()),
                FinalMove::Max => (tier, if n.n == 0 { f64::NEG_INFINITY } else { n.q() }, n.n as f64),
                FinalMove::Secure => (tier, secure(n.q(), n.n, self.config.secure_a), n.n as f64),
            };
            if best.is_none_or(|(_, b)| key.partial_cmp(&b) == Some(std::cmp::Ordering::Greater)) {
                best = Some((e, key));
            }
        }
        best.map(|(e, _)| e)
    }

    /// The move to play by the final-move rule: a proven win first, else robust (most visits,
    /// ties by Q), max or secure child; never a proven loss when another move exists.
    pub fn best_move(&self) -> Option<G::Move> {
        let e = self.best_root_edge(0)?;
        self.root.move_from_index(self.tree.edges[e as usize].mv as usize)
    }

    /// Tree reuse: the subtree below `m` becomes the root, statistics kept; the rest is freed.
    ///
    /// # Errors
    /// `m` is not legal at the root (the search is untouched).
    pub fn advance(&mut self, m: G::Move) -> Result<(), SearchError> {
        if !self.root.is_legal(m) {
            return Err(SearchError::IllegalMove(self.root.format_move(m)));
        }
        let idx = self.root.move_index(m) as u16;
        let entry = self.tree.children(0).find(|&e| self.tree.edges[e as usize].mv == idx);
        self.root.play_unchecked(m);
        match entry {
            Some(e) => {
                let new_root = self.tree.child(e);
                self.compact(new_root);
            }
            None => {
                self.tree = self.new_tree();
                if let Some(tt) = &mut self.tt {
                    tt.clear();
                    tt.insert(self.root.hash(), 0);
                }
            }
        }
        self.init_root();
        Ok(())
    }

    /// Copies the part of the tree reachable from `new_root` into fresh arenas (id 0 = root).
    fn compact(&mut self, new_root: u32) {
        let old = std::mem::take(&mut self.tree);
        let mut new_id = vec![NIL; old.nodes.len()];
        let mut order: Vec<u32> = vec![new_root];
        new_id[new_root as usize] = 0;
        let mut k = 0;
        while k < order.len() {
            let id = order[k];
            k += 1;
            for e in old.children(id) {
                let c = old.edges[e as usize].child;
                if new_id[c as usize] == NIL {
                    new_id[c as usize] = order.len() as u32;
                    order.push(c);
                }
            }
        }
        let mut t = self.new_tree();
        t.nodes.clear();
        t.amaf.of_node.clear();
        t.nodes.reserve_exact(order.len() + order.len() / 4);
        for &id in &order {
            let mut n = old.nodes[id as usize];
            n.edges = NIL;
            n.n_children = 0;
            n.cap = 0;
            let nid = t.push(n);
            if let Some(ot) = old.amaf.table(id) {
                let nt = t.amaf.alloc(nid) as usize;
                let w = old.amaf.width;
                let o = ot as usize * w;
                t.amaf.n[nt * w..(nt + 1) * w].copy_from_slice(&old.amaf.n[o..o + w]);
                t.amaf.w2[nt * w..(nt + 1) * w].copy_from_slice(&old.amaf.w2[o..o + w]);
            }
        }
        let mut kept: Vec<(Edge, f32)> = Vec::new();
        for (k, &id) in order.iter().enumerate() {
            kept.clear();
            for e in old.children(id) {
                let mut ed = old.edges[e as usize];
                ed.child = new_id[ed.child as usize];
                kept.push((ed, if old.with_priors { old.priors[e as usize] } else { 0.0 }));
            }
            t.set_children(k as u32, &kept);
        }
        drop(old);
        self.tree = t;
        if let Some(tt) = &mut self.tt {
            let entries: Vec<(u64, u32)> = tt.iter().map(|(&h, &i)| (h, i)).collect();
            tt.clear();
            for (h, i) in entries {
                if (i as usize) < new_id.len() && new_id[i as usize] != NIL {
                    tt.insert(h, new_id[i as usize]);
                }
            }
            tt.shrink_to_fit();
        }
    }

    /// Principal variation: from the root, the final-move rule at each level.
    fn pv(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut g = self.root.clone();
        let mut id = 0u32;
        while out.len() < 40 {
            let Some(e) = self.best_root_edge(id) else { break };
            let c = self.tree.child(e);
            if self.tree.nodes[c as usize].n == 0 {
                break;
            }
            let Some(m) = g.move_from_index(self.tree.edges[e as usize].mv as usize) else { break };
            out.push(g.format_move(m));
            g.play_unchecked(m);
            id = c;
        }
        out
    }

    /// Statistics (see `stats.rs` for the JSON keys).
    pub fn stats(&self) -> SearchStats {
        let root = &self.tree.nodes[0];
        let me = self.root.to_move();
        let root_table = self.tree.amaf.table(0);
        let mut children: Vec<ChildStats> = self
            .tree
            .children(0)
            .map(|e| {
                let edge = &self.tree.edges[e as usize];
                let n = &self.tree.nodes[edge.child as usize];
                let m = self.root.move_from_index(edge.mv as usize).expect("stored move");
                let (an, aw) = root_table.map_or((0, 0.0), |t| self.tree.amaf.get(t, me, edge.mv as usize, self.ms));
                ChildStats {
                    mv: self.root.format_move(m),
                    index: edge.mv as usize,
                    visits: n.n as u64,
                    q: n.q(),
                    amaf_visits: an as u64,
                    amaf_q: (an > 0).then(|| aw / an as f64),
                    beta: (self.config.value != ValueEstimate::Mean).then(|| self.beta(n.n, an)),
                    prior: (self.config.selection == Selection::Puct).then(|| self.tree.priors[e as usize] as f64),
                    proven: n.proof().proven(),
                }
            })
            .collect();
        children.sort_by(|a, b| {
            b.visits.cmp(&a.visits).then(b.q.partial_cmp(&a.q).unwrap_or(std::cmp::Ordering::Equal)).then(a.index.cmp(&b.index))
        });
        let best = self.best_root_edge(0);
        // A proven result reports its game-theoretic value (win 1, draw ½, loss 0), else Q.
        let value = match root.proof().flip().value() {
            Some(v) => v,
            None => best.map_or(0.5, |e| {
                let n = &self.tree.nodes[self.tree.child(e) as usize];
                n.proof().value().unwrap_or_else(|| n.q())
            }),
        };
        let bytes = self.tree_bytes();
        let nodes = self.tree.len();
        SearchStats {
            game: self.root.spec(),
            to_move: self.root.to_move(),
            best_move: self.best_move().map(|m| self.root.format_move(m)),
            pv: self.pv(),
            proven: root.proof().flip().proven(),
            value,
            iterations: self.iterations,
            playouts: self.playouts,
            nodes: nodes as u64,
            max_depth: self.max_depth,
            elapsed_ms: self.elapsed_ms,
            iterations_per_s: if self.elapsed_ms > 0.0 { self.iterations as f64 * 1000.0 / self.elapsed_ms } else { 0.0 },
            bytes_per_node: (bytes as f64 / nodes as f64 * 10.0).round() / 10.0,
            tree_bytes: bytes as u64,
            children,
            policy: self.policy_stats(),
            evaluator: (self.config.selection == Selection::Puct).then(|| self.evaluator.name().to_string()),
        }
    }

    fn policy_stats(&self) -> PolicyStats {
        let c = &self.config;
        let fmt = |i: usize| self.root.move_from_index(i).map(|m| self.root.format_move(m)).unwrap_or_default();
        let mut active = Vec::new();
        if c.decisive {
            active.push("decisive".to_string());
        }
        if c.anti_decisive {
            active.push("anti_decisive".to_string());
        }
        if c.lgr != crate::mcts::config::LgrMode::Off {
            active.push(format!("{:?}", c.lgr).to_ascii_lowercase());
        }
        if c.poolrave {
            active.push("poolrave".into());
        }
        if c.mast != crate::mcts::config::MastMode::Off {
            active.push("mast".into());
        }
        if active.is_empty() {
            active.push("random".into());
        }
        let mut lgr_replies = Vec::new();
        let mut sizes = [0u64; 2];
        for p in 0..2 {
            let mut shown = 0;
            for (prev, &r) in self.policy.reply1[p].iter().enumerate() {
                if r != 0 {
                    sizes[0] += 1;
                    if shown < 50 {
                        lgr_replies.push([fmt(prev), fmt(r as usize - 1)]);
                        shown += 1;
                    }
                }
            }
            sizes[1] += self.policy.reply2[p].iter().filter(|&&r| r != 0).count() as u64;
        }
        let me = self.root.to_move() as usize;
        let mut mast_top = Vec::new();
        if c.mast != crate::mcts::config::MastMode::Off {
            let mut v: Vec<(f64, usize)> =
                (0..self.ms).filter(|&i| self.policy.mast_n[me][i] > 0).map(|i| (self.policy.mast_q(me, i), i)).collect();
            v.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap().then(a.1.cmp(&b.1)));
            mast_top = v.iter().take(10).map(|&(q, i)| (fmt(i), q, self.policy.mast_n[me][i] as u64)).collect();
        }
        PolicyStats {
            active,
            decisive_moves_played: self.policy.decisive_played,
            anti_decisive_moves_played: self.policy.anti_decisive_played,
            lgr_replies_played: self.policy.lgr_played,
            pool_moves_played: self.policy.pool_played,
            mast_moves_played: self.policy.mast_played,
            depth2: self.depth2_note.clone(),
            depth2_firings: self.depth2_firings,
            lgr_replies,
            lgr_table_size: sizes,
            pool: self.policy.pool[me].iter().map(|&i| fmt(i as usize)).collect(),
            mast_top,
            qb_length_mean: [self.policy.qb[0].mean, self.policy.qb[1].mean],
            qb_length_std: [self.policy.qb[0].std(), self.policy.qb[1].std()],
        }
    }

    /// A tree export: from the root, at most `top_k` children per node (most visits first), down
    /// to `depth` levels below the root.
    pub fn tree_export(&self, top_k: usize, depth: usize) -> TreeExport {
        self.tree_export_min(top_k, depth, 0)
    }

    /// [`Search::tree_export`] with a visit cut: only children with at least `min_visits`
    /// visits are built (the others count in `hidden_children`), so a large tree costs what is
    /// kept rather than every node up to `top_k` × `depth`. The JSON keys are those of
    /// [`TreeExport`].
    pub fn tree_export_min(&self, top_k: usize, depth: usize, min_visits: u64) -> TreeExport {
        let root = self.export_node(0, None, &self.root, top_k, depth, min_visits);
        TreeExport { game: self.root.spec(), board: self.root.board_string(), root, nodes: self.tree.len() as u64 }
    }

    fn export_node(&self, id: u32, mv: Option<String>, g: &G, top_k: usize, depth: usize, min_visits: u64) -> TreeNodeExport {
        let n = &self.tree.nodes[id as usize];
        let total = self.tree.children(id).len();
        let mut children = Vec::new();
        if depth > 0 && top_k > 0 {
            // Only the children that pass the cut are sorted and built.
            let mut kids: Vec<u32> =
                self.tree.children(id).filter(|&e| self.tree.nodes[self.tree.child(e) as usize].n as u64 >= min_visits).collect();
            kids.sort_by_key(|&e| std::cmp::Reverse(self.tree.nodes[self.tree.child(e) as usize].n));
            for &e in kids.iter().take(top_k) {
                let t = self.tree.child(e);
                let Some(m) = g.move_from_index(self.tree.edges[e as usize].mv as usize) else { continue };
                let mut h = g.clone();
                h.play_unchecked(m);
                children.push(self.export_node(t, Some(g.format_move(m)), &h, top_k, depth - 1, min_visits));
            }
        }
        TreeNodeExport {
            mv,
            visits: n.n as u64,
            q: n.q(),
            proven: n.proof().proven(),
            hidden_children: (total - children.len()) as u64,
            children,
        }
    }

    /// Raw access for tests and tools: (dense index, visits, Q) of each root child.
    pub fn root_children(&self) -> Vec<(usize, u64, f64)> {
        self.tree
            .children(0)
            .map(|e| {
                let n = &self.tree.nodes[self.tree.child(e) as usize];
                (self.tree.edges[e as usize].mv as usize, n.n as u64, n.q())
            })
            .collect()
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

/// Orders PoolRAVE candidates `(amaf_q, move)` best first (ties by move index) and keeps `k`.
pub fn pool_order(mut cands: Vec<(f64, u16)>, k: usize) -> Vec<u16> {
    cands.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal).then(a.1.cmp(&b.1)));
    cands.into_iter().take(k).map(|(_, m)| m).collect()
}

/// Depth-2 critical-move search: a move that wins now restricts the root to the
/// winning moves; otherwise the moves after which the opponent wins at once are excluded when
/// some move avoids that. Returns (filter by dense index, note, fired).
pub fn depth2<G: Game>(g: &G) -> (Option<Vec<bool>>, String, bool) {
    let ms = g.move_space();
    let mut w = MoveList::new();
    g.winning_moves(&mut w);
    if !w.is_empty() {
        let mut f = vec![false; ms];
        for &m in &w {
            f[g.move_index(m)] = true;
        }
        let names: Vec<String> = w.iter().map(|&m| g.format_move(m)).collect();
        return (Some(f), format!("win: {}", names.join(" ")), true);
    }
    let mut nl = MoveList::new();
    g.non_losing_moves(&mut nl);
    let total = g.legal_count();
    if !nl.is_empty() && nl.len() < total {
        let mut f = vec![false; ms];
        for &m in &nl {
            f[g.move_index(m)] = true;
        }
        return (Some(f), format!("excluded {} of {} moves", total - nl.len(), total), true);
    }
    if nl.is_empty() {
        return (None, "no critical move (every move loses at once)".into(), false);
    }
    (None, "no critical move".into(), false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcts::selection::{blend, rave_beta_sqrt};

    #[test]
    fn affine_order_is_a_permutation() {
        for n in 1..130 {
            for seed in 0..5u64 {
                let mut seen = vec![false; n];
                for k in 0..n {
                    let i = affine_index(seed * 7919 + n as u64, n, k);
                    assert!(!seen[i], "n {n} seed {seed} repeats {i}");
                    seen[i] = true;
                }
            }
        }
    }

    use crate::game::Hex;

    fn rave_search(c: f64, table_visits: u32) -> Search<Hex> {
        let mut cfg = SearchConfig::preset("rave").unwrap();
        cfg.c = c;
        cfg.rave_table_visits = table_visits;
        Search::new(Hex::new(5, false).unwrap(), cfg).unwrap()
    }

    /// AMAF value (side to move at the root) of dense move `i` in the root's table.
    fn root_amaf(s: &Search<Hex>, i: usize) -> Option<f64> {
        let t = s.tree.amaf.table(0).unwrap();
        let (n, w) = s.tree.amaf.get(t, s.root.to_move(), i, s.ms);
        (n > 0).then(|| w / n as f64)
    }

    #[test]
    fn expansion_order_follows_amaf() {
        // c > 0: every untried root move comes first, the best by the root's AMAF table.
        let mut s = rave_search(std::f64::consts::SQRT_2, 32);
        let mut checked = 0;
        for _ in 0..24 {
            let before: Vec<usize> = s.root_children().iter().map(|c| c.0).collect();
            let untried: Vec<(usize, f64)> =
                (0..25).filter(|i| !before.contains(i)).map(|i| (i, root_amaf(&s, i).unwrap_or(s.config.fpu))).collect();
            s.run(Budget::iterations(1), &|| 0.0);
            let after: Vec<usize> = s.root_children().iter().map(|c| c.0).collect();
            let new: Vec<usize> = after.iter().copied().filter(|i| !before.contains(i)).collect();
            assert_eq!(new.len(), 1, "one root expansion per iteration while untried moves remain");
            let best = untried.iter().map(|x| x.1).fold(f64::NEG_INFINITY, f64::max);
            let v = untried.iter().find(|x| x.0 == new[0]).unwrap().1;
            assert_eq!(v, best, "expanded {} (AMAF {v}) but the best untried AMAF value is {best}", new[0]);
            if untried.iter().any(|x| x.1 != untried[0].1) {
                checked += 1;
            }
        }
        assert!(checked >= 10, "AMAF values must actually differ for the test to mean something ({checked})");
    }

    #[test]
    fn zero_exploration_ranks_untried_moves_with_expanded_ones() {
        // c = 0 (Gelly & Silver 2011): an untried move (β = 1) is expanded only when its AMAF
        // value beats every expanded move's (1−β)·Q + β·AMAF.
        let mut s = rave_search(0.0, 32);
        let mut expanded = 0;
        let mut descended = 0;
        for _ in 0..300 {
            let kids = s.root_children();
            let done: Vec<usize> = kids.iter().map(|c| c.0).collect();
            let me = s.root.to_move();
            let t = s.tree.amaf.table(0).unwrap();
            let best_kid = kids
                .iter()
                .map(|&(i, n, q)| {
                    let (an, aw) = s.tree.amaf.get(t, me, i, s.ms);
                    if an == 0 {
                        q
                    } else {
                        blend(q, aw / an as f64, rave_beta_sqrt(n as u32, 1000.0))
                    }
                })
                .fold(f64::NEG_INFINITY, f64::max);
            let best_untried =
                (0..25).filter(|i| !done.contains(i)).map(|i| root_amaf(&s, i).unwrap_or(s.config.fpu)).fold(f64::NEG_INFINITY, f64::max);
            s.run(Budget::iterations(1), &|| 0.0);
            let grew = s.root_children().len() > kids.len();
            if kids.is_empty() {
                continue;
            }
            // f32 caching of Q can blur near-ties; skip those.
            if (best_untried - best_kid).abs() < 1e-4 {
                continue;
            }
            assert_eq!(grew, best_untried > best_kid, "untried {best_untried} vs expanded {best_kid}");
            if grew {
                expanded += 1;
            } else {
                descended += 1;
            }
        }
        assert!(expanded > 0 && descended > 0, "both cases seen ({expanded}, {descended})");
    }

    #[test]
    fn tables_only_at_visited_nodes_and_counted_in_bytes() {
        let mut s = rave_search(std::f64::consts::SQRT_2, 16);
        s.run(Budget::iterations(3000), &|| 0.0);
        let with_table = (0..s.tree.len() as u32).filter(|&i| s.tree.amaf.table(i).is_some()).count();
        let heavy = s.tree.nodes.iter().filter(|n| n.n >= 16).count();
        assert!(with_table >= heavy.saturating_sub(1) && with_table <= heavy + 1, "{with_table} tables, {heavy} nodes with >= 16 visits");
        assert!(s.tree_bytes() >= with_table * 2 * 25 * 8);
    }

    #[test]
    fn pool_order_best_amaf_first() {
        let pool = pool_order(vec![(0.2, 5), (0.9, 1), (0.5, 7), (0.9, 0), (0.1, 3)], 3);
        assert_eq!(pool, vec![0, 1, 7]);
    }
}
