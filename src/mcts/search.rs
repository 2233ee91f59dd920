//! [`Search`]: the anytime, resumable MCTS loop (selection, lazy expansion, playout,
//! backpropagation, AMAF, solver) over the arena tree.

use crate::game::{Game, MoveList, NoTrace, Outcome, Player};
use crate::mcts::config::{FinalMove, PriorKind, SearchConfig, Selection, ValueEstimate};
use crate::mcts::evaluator::{normalise, Evaluator, TacticalPrior, UniformPrior};
use crate::mcts::playout::{qb_bonus, PolicyState};
use crate::mcts::selection::{blend, grave_beta, puct, rave_beta_linear, rave_beta_sqrt, secure, ucb1};
use crate::mcts::solver;
use crate::mcts::stats::{ChildStats, PolicyStats, SearchStats, TreeExport, TreeNodeExport};
use crate::mcts::transposition::{table_bytes, TransTable};
use crate::mcts::tree::{Node, Proof, Tree, AFFINE, ALIAS, NIL, TERMINAL, UNKNOWN};
use crate::mcts::{Budget, Clock, RunReport, StopReason};
use crate::rng::Rng64;

/// One step of the current descent.
#[derive(Clone, Copy, Debug)]
struct Step {
    /// Entry in the parent's child list (an alias or the node itself).
    edge: u32,
    /// The node (alias resolved).
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
    src_stamp: Vec<u32>,
    src_n: Vec<u32>,
    src_w: Vec<f64>,
    ms: usize,
}

impl<G: Game> Search<G> {
    /// A search from `root` with `config` (validated).
    ///
    /// # Errors
    /// An invalid configuration.
    pub fn new(root: G, config: SearchConfig) -> Result<Self, String> {
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
            src_stamp: vec![0; ms],
            src_n: vec![0; ms],
            src_w: vec![0.0; ms],
            ms,
            tree: Tree::with_root(),
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

    fn reset_tree(&mut self) {
        self.tree = Tree::with_root();
        self.tt = if self.config.transpositions {
            let mut t = TransTable::default();
            t.insert(self.root.hash(), 0);
            Some(t)
        } else {
            None
        };
        self.init_root();
    }

    /// Sets the root node's terminal flag and the depth-2 filter.
    fn init_root(&mut self) {
        if let Some(o) = self.root.outcome() {
            let r = &mut self.tree.nodes[0];
            r.flags |= TERMINAL;
            r.n_legal = 0;
            r.proof = solver::terminal_proof(o, 1 - self.root.to_move()) as u8;
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
            let kids: Vec<u32> = self.tree.children(0).collect();
            let keep: Vec<u32> = kids.into_iter().filter(|&e| f[self.tree.nodes[e as usize].mv as usize]).collect();
            self.tree.nodes[0].first_child = NIL;
            self.tree.nodes[0].n_children = 0;
            for &e in keep.iter().rev() {
                self.tree.link(0, e);
            }
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

    /// Arena entries.
    pub fn node_count(&self) -> usize {
        self.tree.len()
    }

    /// Bytes of tree storage (arena capacity plus transposition table).
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
    /// `transpositions`, `depth2` or `rollout_expand` rebuilds it; a new `seed` reseeds the
    /// generator; playout tables are kept where their shape is unchanged.
    ///
    /// # Errors
    /// An invalid configuration (the search is untouched).
    pub fn set_config(&mut self, c: SearchConfig) -> Result<(), String> {
        c.validate()?;
        let rebuild = c.transpositions != self.config.transpositions
            || c.depth2 != self.config.depth2
            || c.rollout_expand != self.config.rollout_expand;
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

    /// Whether plain UCT expansion may use the affine order (no other ordering rule in force).
    #[inline]
    fn fast_order_ok(&self) -> bool {
        !self.config.decisive && !self.config.anti_decisive && self.config.value != ValueEstimate::Grave && !self.config.rollout_expand
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
    fn iterate(&mut self) {
        let mut g = self.root.clone();
        self.path.clear();
        self.seq.clear();
        self.path.push(Step { edge: 0, node: 0 });
        let mut cur = 0u32;
        let cap = self.config.node_cap as usize;
        // GRAVE reference nodes per parity of depth.
        let mut tref = [NIL, NIL];
        let outcome = loop {
            if let Some(o) = g.outcome() {
                break o;
            }
            let depth = self.path.len() - 1;
            if self.config.value == ValueEstimate::Grave && self.tree.nodes[cur as usize].n >= self.config.grave_ref {
                tref[depth & 1] = cur;
            }
            let src = if self.config.value == ValueEstimate::Grave && tref[depth & 1] != NIL {
                tref[depth & 1]
            } else {
                cur
            };
            match self.choose(cur, &g, depth == 0, src, cap) {
                Choice::Expand(m, prior) => {
                    let mover = g.to_move();
                    g.play_unchecked(m);
                    self.seq.push(m);
                    let step = self.add_child(cur, &g, m, prior, mover);
                    self.path.push(step);
                    if let Some(o) = g.outcome() {
                        break o;
                    }
                    break self.playout(&mut g, cap);
                }
                Choice::Descend(edge) => {
                    let node = self.tree.resolve(edge);
                    let m = g.move_from_index(self.tree.nodes[edge as usize].mv as usize).expect("stored move index");
                    g.play_unchecked(m);
                    self.seq.push(m);
                    self.path.push(Step { edge, node });
                    cur = node;
                }
                Choice::Leaf => break self.playout(&mut g, cap),
            }
        };
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
        if self.config.poolrave {
            self.build_pools();
        }
        let o = if self.config.policy_playouts() {
            self.policy.playout(&self.config, g, &mut self.rng, &mut self.seq)
        } else if self.config.playout_moves_needed() {
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

    /// Rollout-expand (seed 003): the playout's positions become a chain of nodes below the leaf
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
            g.play_unchecked(m);
            // Only a child not yet in the tree can be created: the leaf had no children of the
            // playout's first move only if it was unexpanded there; check to keep lists unique.
            let idx = g.move_index(m) as u16;
            if self.tree.children(cur).any(|e| self.tree.nodes[e as usize].mv == idx) {
                break;
            }
            let step = self.add_child(cur, &g, m, 0.0, mover);
            self.path.push(step);
            cur = step.node;
            j += 1;
        }
    }

    /// Creates the child of `parent` reached by `m` (`g` is the position after `m`), or links
    /// the shared node of a transposition through an alias.
    fn add_child(&mut self, parent: u32, g: &G, m: G::Move, prior: f32, mover: Player) -> Step {
        let idx = g.move_index(m) as u16;
        if let Some(tt) = &self.tt {
            if let Some(&shared) = tt.get(&g.hash()) {
                let mut a = Node::new(idx);
                a.flags = ALIAS;
                a.first_child = shared;
                a.prior = prior;
                let id = self.tree.push(a);
                self.tree.link(parent, id);
                return Step { edge: id, node: shared };
            }
        }
        let mut n = Node::new(idx);
        n.prior = prior;
        if let Some(o) = g.outcome() {
            n.flags |= TERMINAL;
            n.n_legal = 0;
            n.proof = solver::terminal_proof(o, mover) as u8;
        }
        let id = self.tree.push(n);
        self.tree.link(parent, id);
        if let Some(tt) = &mut self.tt {
            tt.insert(g.hash(), id);
        }
        Step { edge: id, node: id }
    }

    /// Marks the expanded children's moves of `id` with a fresh stamp.
    fn mark_children(&mut self, id: u32) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.iter_mut().for_each(|x| *x = 0);
            self.src_stamp.iter_mut().for_each(|x| *x = 0);
            self.stamp = 1;
        }
        let s = self.stamp;
        let mut e = self.tree.nodes[id as usize].first_child;
        while e != NIL {
            let n = &self.tree.nodes[e as usize];
            self.mark[n.mv as usize] = s;
            e = n.next_sibling;
        }
        s
    }

    /// Loads the AMAF statistics of `src`'s children into the dense source table (GRAVE).
    fn load_source(&mut self, src: u32, stamp: u32) {
        let mut e = self.tree.nodes[src as usize].first_child;
        while e != NIL {
            let n = &self.tree.nodes[e as usize];
            let i = n.mv as usize;
            self.src_stamp[i] = stamp;
            self.src_n[i] = n.amaf_n;
            self.src_w[i] = n.amaf_w;
            e = n.next_sibling;
        }
    }

    /// AMAF statistics of move `i` from the loaded source (or the edge itself).
    #[inline]
    fn amaf_of(&self, edge: &Node, use_src: bool, stamp: u32) -> (u32, f64) {
        if use_src {
            let i = edge.mv as usize;
            if self.src_stamp[i] == stamp {
                (self.src_n[i], self.src_w[i])
            } else {
                (0, 0.0)
            }
        } else {
            (edge.amaf_n, edge.amaf_w)
        }
    }

    /// The selection value of a visited child (without exploration term) and its β.
    #[inline]
    fn value_of(&self, edge: &Node, node: &Node, use_src: bool, stamp: u32) -> (f64, f64) {
        let q = node.q();
        match self.config.value {
            ValueEstimate::Mean => (q, 0.0),
            ValueEstimate::Rave => {
                let (an, aw) = self.amaf_of(edge, use_src, stamp);
                if an == 0 {
                    return (q, 0.0);
                }
                let beta = match self.config.rave_schedule {
                    crate::mcts::config::RaveSchedule::Sqrt => rave_beta_sqrt(node.n, self.config.rave_k),
                    crate::mcts::config::RaveSchedule::Linear => rave_beta_linear(node.n, self.config.rave_v),
                };
                (blend(q, aw / an as f64, beta), beta)
            }
            ValueEstimate::Grave => {
                let (an, aw) = self.amaf_of(edge, use_src, stamp);
                let beta = grave_beta(node.n, an, self.config.grave_bias);
                if an == 0 {
                    return (q, 0.0);
                }
                (blend(q, aw / an as f64, beta), beta)
            }
        }
    }

    /// Chooses what to do at node `cur` (position `g`).
    fn choose(&mut self, cur: u32, g: &G, at_root: bool, src: u32, cap: usize) -> Choice<G::Move> {
        let cfg_sel = self.config.selection;
        if self.tree.nodes[cur as usize].n_legal == UNKNOWN {
            self.gen_legal(g, at_root);
            self.tree.nodes[cur as usize].n_legal = self.legal.len() as u16;
        }
        let node = self.tree.nodes[cur as usize];
        let can_expand = node.n_children < node.n_legal && self.tree.len() < cap;
        let use_src = src != cur;
        let mut stamp = 0;
        if use_src || (can_expand && self.config.value != ValueEstimate::Mean) {
            stamp = self.mark_children(cur);
            if use_src {
                self.load_source(src, stamp);
            }
        }
        if can_expand && cfg_sel == Selection::Uct {
            let jump = self.config.jump
                && node.n_children > 0
                && (self.rng.below(node.n_legal as u32) as u16) < node.n_children;
            if !jump {
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
                return self.pick_unexpanded(cur, g, at_root, use_src, stamp);
            }
        }
        // Select among the expanded children.
        let solver = self.config.solver;
        let c = self.config.c;
        let parent_n = node.n.max(1);
        let ln_n = (parent_n as f64).ln();
        let mut best = NIL;
        let mut best_score = f64::NEG_INFINITY;
        let mut e = node.first_child;
        while e != NIL {
            let edge = &self.tree.nodes[e as usize];
            let next = edge.next_sibling;
            let t = if edge.flags & ALIAS != 0 { edge.first_child } else { e };
            let child = &self.tree.nodes[t as usize];
            if solver && child.proof != 0 {
                e = next;
                continue;
            }
            let score = if cfg_sel == Selection::Puct {
                let v = if child.n == 0 { self.config.fpu } else { self.value_of(edge, child, use_src, stamp).0 };
                puct(v, edge.prior as f64, child.n, node.n, c)
            } else if child.n == 0 {
                f64::INFINITY
            } else {
                ucb1(self.value_of(edge, child, use_src, stamp).0, child.n, ln_n, c)
            };
            if score > best_score {
                best_score = score;
                best = e;
            }
            e = next;
        }
        if can_expand && cfg_sel == Selection::Puct {
            // The best unexpanded move: highest prior, valued at fpu with n = 0.
            if let Choice::Expand(m, p) = self.pick_unexpanded(cur, g, at_root, use_src, stamp) {
                let s = puct(self.config.fpu, p as f64, 0, node.n, c);
                if best == NIL || s > best_score {
                    return Choice::Expand(m, p);
                }
            }
        }
        if best != NIL {
            Choice::Descend(best)
        } else if can_expand {
            self.tree.nodes[cur as usize].flags &= !AFFINE;
            self.pick_unexpanded(cur, g, at_root, use_src, stamp)
        } else {
            Choice::Leaf
        }
    }

    /// An unexpanded legal move of `cur`: PUCT — the highest prior; RAVE/GRAVE — the highest
    /// AMAF value of the source when known; otherwise uniformly random (seeded).
    fn pick_unexpanded(&mut self, cur: u32, g: &G, at_root: bool, use_src: bool, stamp: u32) -> Choice<G::Move> {
        let stamp = if stamp == 0 { self.mark_children(cur) } else { stamp };
        self.gen_legal(g, at_root);
        let puct_on = self.config.selection == Selection::Puct;
        if puct_on {
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
            return match best {
                Some((m, p)) => Choice::Expand(m, p),
                None => Choice::Leaf,
            };
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
                        return Choice::Expand(m, 0.0);
                    }
                }
            }
        }
        // Unexpanded moves in order; with AMAF data from the source, the best AMAF first.
        let mut cands: MoveList<G::Move> = MoveList::new();
        let mut best_amaf: Option<(G::Move, f64)> = None;
        for &m in &self.legal {
            let i = g.move_index(m);
            if self.mark[i] == stamp {
                continue;
            }
            if use_src && self.src_stamp[i] == stamp && self.src_n[i] > 0 {
                let q = self.src_w[i] / self.src_n[i] as f64;
                if best_amaf.is_none_or(|(_, b)| q > b) {
                    best_amaf = Some((m, q));
                }
            }
            cands.push(m);
        }
        if let Some((m, _)) = best_amaf {
            return Choice::Expand(m, 0.0);
        }
        if cands.is_empty() {
            return Choice::Leaf;
        }
        let m = cands[self.rng.index(cands.len())];
        Choice::Expand(m, 0.0)
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
            if step.edge != step.node {
                self.tree.nodes[step.edge as usize].n += 1;
            }
        }
        if self.config.needs_amaf() || self.config.lgr != crate::mcts::config::LgrMode::Off || self.config.mast != crate::mcts::config::MastMode::Off {
            self.seq_idx.clear();
            for &m in &self.seq {
                self.seq_idx.push(self.root.move_index(m) as u16);
            }
        }
        if self.config.needs_amaf() {
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
    }

    /// AMAF update (Gelly & Silver 2007): at each node of the path, every child whose move the
    /// node's mover played first (before anyone else played it) later in the simulation gets
    /// the simulation's reward for that player.
    fn update_amaf(&mut self, outcome: Outcome) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.amaf_stamp.iter_mut().for_each(|x| *x = 0);
            self.mark.iter_mut().for_each(|x| *x = 0);
            self.src_stamp.iter_mut().for_each(|x| *x = 0);
            self.stamp = 1;
        }
        let s = self.stamp;
        let root_mover = self.root.to_move();
        let last = self.path.len() - 1;
        // Record first occurrences of plies ≥ last (the playout part), scanning backwards.
        for j in (last..self.seq_idx.len()).rev() {
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
            let mover = root_mover ^ (d as u8 & 1);
            let r = outcome.reward(mover);
            let node = self.path[d].node;
            let mut e = self.tree.nodes[node as usize].first_child;
            while e != NIL {
                let n = &mut self.tree.nodes[e as usize];
                let i = n.mv as usize;
                if self.amaf_stamp[i] == s && (self.amaf_ply[i] as usize - d) & 1 == 0 {
                    n.amaf_n += 1;
                    n.amaf_w += r;
                }
                e = n.next_sibling;
            }
        }
    }

    /// PoolRAVE pools (Rimmel, Teytaud et al. 2010): for each player, the `pool_k` moves with
    /// the best AMAF value (at least `pool_min_amaf` AMAF visits) among the children of the
    /// deepest node of the current path where that player is to move, best first.
    fn build_pools(&mut self) {
        let root_mover = self.root.to_move();
        let last = self.path.len() - 1;
        for p in 0..2u8 {
            // deepest depth d ≤ last with mover p and some children
            let mut pool: Vec<(f64, u16)> = Vec::new();
            for d in (0..=last).rev() {
                if root_mover ^ (d as u8 & 1) != p {
                    continue;
                }
                let node = self.path[d].node;
                if self.tree.nodes[node as usize].n_children == 0 {
                    continue;
                }
                for e in self.tree.children(node) {
                    let n = &self.tree.nodes[e as usize];
                    if n.amaf_n >= self.config.pool_min_amaf.max(1) {
                        pool.push((n.amaf_q(), n.mv));
                    }
                }
                break;
            }
            self.policy.pool[p as usize] = pool_order(pool, self.config.pool_k);
        }
    }

    /// Index of the root child chosen by the final-move rule (proven win first).
    fn best_root_edge(&self, id: u32) -> Option<u32> {
        let mut best: Option<(u32, (i32, f64, f64))> = None;
        for e in self.tree.children(id) {
            let n = &self.tree.nodes[self.tree.resolve(e) as usize];
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
        self.root.move_from_index(self.tree.nodes[e as usize].mv as usize)
    }

    /// Tree reuse: the subtree below `m` becomes the root, statistics kept; the rest is freed.
    ///
    /// # Errors
    /// `m` is not legal at the root (the search is untouched).
    pub fn advance(&mut self, m: G::Move) -> Result<(), String> {
        if !self.root.is_legal(m) {
            return Err(format!("illegal move {} at the root", self.root.format_move(m)));
        }
        let idx = self.root.move_index(m) as u16;
        let entry = self.tree.children(0).find(|&e| self.tree.nodes[e as usize].mv == idx);
        self.root.play_unchecked(m);
        match entry {
            Some(e) => {
                let new_root = self.tree.resolve(e);
                self.compact(new_root);
            }
            None => {
                self.tree = Tree::with_root();
                if let Some(tt) = &mut self.tt {
                    tt.clear();
                    tt.insert(self.root.hash(), 0);
                }
            }
        }
        self.init_root();
        Ok(())
    }

    /// Copies the part of the arena reachable from `new_root` into a fresh arena (id 0 = root).
    fn compact(&mut self, new_root: u32) {
        let old = std::mem::take(&mut self.tree.nodes);
        let mut new_id = vec![NIL; old.len()];
        let mut order: Vec<u32> = vec![new_root];
        new_id[new_root as usize] = 0;
        let mut k = 0;
        while k < order.len() {
            let id = order[k];
            k += 1;
            let n = &old[id as usize];
            if n.flags & ALIAS != 0 {
                let t = n.first_child;
                if new_id[t as usize] == NIL {
                    new_id[t as usize] = order.len() as u32;
                    order.push(t);
                }
                continue;
            }
            let mut e = n.first_child;
            while e != NIL {
                if new_id[e as usize] == NIL {
                    new_id[e as usize] = order.len() as u32;
                    order.push(e);
                }
                e = old[e as usize].next_sibling;
            }
        }
        let mut nodes = Vec::with_capacity(order.len() + order.len() / 4 + 1024);
        for &id in &order {
            let mut n = old[id as usize];
            let map = |x: u32| if x == NIL { NIL } else { new_id[x as usize] };
            n.first_child = map(n.first_child);
            n.next_sibling = map(n.next_sibling);
            nodes.push(n);
        }
        nodes[0].next_sibling = NIL;
        nodes[0].mv = 0;
        drop(old);
        self.tree.nodes = nodes;
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
            let n = &self.tree.nodes[self.tree.resolve(e) as usize];
            if n.n == 0 {
                break;
            }
            let Some(m) = g.move_from_index(self.tree.nodes[e as usize].mv as usize) else { break };
            out.push(g.format_move(m));
            g.play_unchecked(m);
            id = self.tree.resolve(e);
        }
        out
    }

    /// The β and AMAF figures of a root child as used in selection.
    fn child_beta(&self, edge: &Node, node: &Node) -> Option<f64> {
        match self.config.value {
            ValueEstimate::Mean => None,
            ValueEstimate::Rave => Some(match self.config.rave_schedule {
                crate::mcts::config::RaveSchedule::Sqrt => rave_beta_sqrt(node.n, self.config.rave_k),
                crate::mcts::config::RaveSchedule::Linear => rave_beta_linear(node.n, self.config.rave_v),
            }),
            ValueEstimate::Grave => Some(grave_beta(node.n, edge.amaf_n, self.config.grave_bias)),
        }
    }

    /// Statistics (see `stats.rs` for the JSON keys).
    pub fn stats(&self) -> SearchStats {
        let root = &self.tree.nodes[0];
        let mut children: Vec<ChildStats> = self
            .tree
            .children(0)
            .map(|e| {
                let edge = &self.tree.nodes[e as usize];
                let n = &self.tree.nodes[self.tree.resolve(e) as usize];
                let m = self.root.move_from_index(edge.mv as usize).expect("stored move");
                ChildStats {
                    mv: self.root.format_move(m),
                    index: edge.mv as usize,
                    visits: n.n as u64,
                    q: n.q(),
                    amaf_visits: edge.amaf_n as u64,
                    amaf_q: (edge.amaf_n > 0).then(|| edge.amaf_q()),
                    beta: self.child_beta(edge, n),
                    prior: (self.config.selection == Selection::Puct).then_some(edge.prior as f64),
                    proven: n.proof().name().map(String::from),
                }
            })
            .collect();
        children.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.q.partial_cmp(&a.q).unwrap_or(std::cmp::Ordering::Equal)).then(a.index.cmp(&b.index)));
        let best = self.best_root_edge(0);
        let value = best.map_or(0.5, |e| self.tree.nodes[self.tree.resolve(e) as usize].q());
        let bytes = self.tree_bytes();
        let nodes = self.tree.len();
        SearchStats {
            game: self.root.spec(),
            to_move: self.root.to_move(),
            best_move: self.best_move().map(|m| self.root.format_move(m)),
            pv: self.pv(),
            proven: root.proof().flip().name().map(String::from),
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
        let root = self.export_node(0, None, &self.root, top_k, depth);
        TreeExport { game: self.root.spec(), board: self.root.board_string(), root, nodes: self.tree.len() as u64 }
    }

    fn export_node(&self, id: u32, mv: Option<String>, g: &G, top_k: usize, depth: usize) -> TreeNodeExport {
        let n = &self.tree.nodes[id as usize];
        let mut kids: Vec<u32> = self.tree.children(id).collect();
        kids.sort_by_key(|&e| std::cmp::Reverse(self.tree.nodes[self.tree.resolve(e) as usize].n));
        let total = kids.len();
        let mut children = Vec::new();
        if depth > 0 {
            for &e in kids.iter().take(top_k) {
                let t = self.tree.resolve(e);
                let Some(m) = g.move_from_index(self.tree.nodes[e as usize].mv as usize) else { continue };
                let mut h = g.clone();
                h.play_unchecked(m);
                children.push(self.export_node(t, Some(g.format_move(m)), &h, top_k, depth - 1));
            }
        }
        TreeNodeExport {
            mv,
            visits: n.n as u64,
            q: n.q(),
            proven: n.proof().name().map(String::from),
            hidden_children: (total - children.len()) as u64,
            children,
        }
    }

    /// Raw access for tests and tools: (visits, Q) of each root child by dense index.
    pub fn root_children(&self) -> Vec<(usize, u64, f64)> {
        self.tree
            .children(0)
            .map(|e| {
                let n = &self.tree.nodes[self.tree.resolve(e) as usize];
                (self.tree.nodes[e as usize].mv as usize, n.n as u64, n.q())
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

/// Depth-2 critical-move search (seed 002): a move that wins now restricts the root to the
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

    #[test]
    fn pool_order_best_amaf_first() {
        let pool = pool_order(vec![(0.2, 5), (0.9, 1), (0.5, 7), (0.9, 0), (0.1, 3)], 3);
        assert_eq!(pool, vec![0, 1, 7]);
    }
}
