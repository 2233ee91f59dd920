//! The root: its initialisation (terminal flag, AMAF table, depth-2 filter), tree reuse
//! (`advance`: the subtree below the move played becomes the tree) and the depth-2 critical-move
//! filter, and Gumbel AlphaZero's root (`run_gumbel`: Gumbel-top-k and sequential halving).

use super::{Choice, Search, SearchError};
use crate::game::{Game, MoveList};
use crate::mcts::mcts_solver;
use crate::mcts::tree::{Edge, KNOWN, NIL, TERMINAL, UNKNOWN};

impl<G: Game> Search<G> {
    /// Sets the root node's terminal flag, its AMAF table and the depth-2 filter.
    pub(super) fn init_root(&mut self) {
        // AMAF table ids change with a new or compacted tree.
        self.pool_cache.clear();
        if let Some(o) = self.root.outcome() {
            let r = &mut self.tree.nodes[0];
            r.flags |= TERMINAL;
            r.n_legal = 0;
            r.proof = mcts_solver::terminal_proof(o, 1 - self.root.to_move()) as u8;
        }
        if self.tree.with_amaf && self.tree.amaf.table(0).is_none() {
            let derived = self.derived_amaf(&self.root);
            self.tree.amaf.alloc(0, derived);
        }
        self.root_filter = None;
        self.gumbel_choice = None;
        self.forced_root = None;
        // The root's prior list is recomputed: after tree reuse its legal moves may be filtered
        // differently (depth-2).
        self.node_priors.forget(0);
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
            // Its legal moves are recounted: its knowledge is computed again (`knowledge.rs`).
            self.tree.nodes[0].flags &= !KNOWN;
        }
    }

    /// Tree reuse: the subtree below `m` becomes the root, statistics kept; the rest is freed.
    /// The quality-based rewards' length statistics restart (they are relative to the root).
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
        // Quality-based rewards measure playout lengths from the root: lengths measured from the
        // old root are one move longer, so the running mean and σ start afresh (Pepels et al.
        // 2014 keep them per search).
        self.policy.qb = Default::default();
        match entry {
            Some(e) => {
                let new_root = self.tree.child(e);
                self.compact(new_root);
            }
            // A move the tree never tried: a fresh tree, and with it fresh per-node prior lists
            // and transposition table (node ids restart at 0: a kept prior list would belong to
            // another position and could offer an illegal move).
            None => {
                self.reset_tree();
                return Ok(());
            }
        }
        self.init_root();
        Ok(())
    }

    /// Copies the part of the tree reachable from `new_root` into fresh arenas (id 0 = root).
    pub(super) fn compact(&mut self, new_root: u32) {
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
        t.amaf.untried.clear();
        t.amaf.children.clear();
        t.nodes.reserve_exact(order.len() + order.len() / 4);
        for &id in &order {
            let mut n = old.nodes[id as usize];
            n.edges = NIL;
            n.n_children = 0;
            n.cap = 0;
            let nid = t.push(n);
            if let Some(ot) = old.amaf.table(id) {
                let nt = t.amaf.alloc(nid, old.amaf.derived[ot as usize]);
                let (o, e) = (old.amaf.entries(ot), t.amaf.entries(nt));
                t.amaf.n[e.clone()].copy_from_slice(&old.amaf.n[o.clone()]);
                t.amaf.w2[e].copy_from_slice(&old.amaf.w2[o]);
                let nt = nt as usize;
                t.amaf.updates[nt] = old.amaf.updates[ot as usize];
                t.amaf.gains[nt] = old.amaf.gains[ot as usize];
                t.amaf.r0[nt] = old.amaf.r0[ot as usize];
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
        self.node_priors.remap(&new_id);
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

/// What a Gumbel root search (`Search::run_gumbel`) found.
#[derive(Clone, Debug, PartialEq)]
pub struct GumbelReport {
    /// The chosen root move (dense index): the survivor of sequential halving.
    pub action: usize,
    /// The improved policy `π' = softmax(logit(a) + σ(completedQ(a)))` over the root's legal
    /// moves as (dense index, probability), summing to 1: Gumbel AlphaZero's policy target.
    pub policy: Vec<(usize, f32)>,
    /// The moves Gumbel-top-k sampled (dense indices), best `g + logit` first.
    pub considered: Vec<usize>,
    /// Iterations run (the budget, unless the root has one legal move... it still spends them).
    pub iterations: u64,
}

/// The visits each of `m` considered moves has received after sequential halving of `n`
/// playouts, in rank order (the moves that survive longest first): DeepMind mctx's
/// `get_sequence_of_considered_visits` (Danihelka et al. 2022, §3.2 and Appendix). Each phase
/// gives `max(1, ⌊n / (⌈log₂ m⌉ · k)⌋)` visits to each of the k moves still considered, then
/// halves k (never below 2) until the n playouts are spent. `n = 16, m = 4`: [6, 6, 2, 2].
pub fn sequential_halving_visits(n: u64, m: usize) -> Vec<u64> {
    let mut visits = vec![0u64; m];
    if m == 0 {
        return visits;
    }
    if m == 1 {
        visits[0] = n;
        return visits;
    }
    let log2m = (m as f64).log2().ceil() as u64;
    let mut k = m;
    let mut done = 0u64;
    while done < n {
        let extra = (n / (log2m * k as u64)).max(1);
        for _ in 0..extra {
            for v in visits.iter_mut().take(k) {
                if done == n {
                    return visits;
                }
                *v += 1;
                done += 1;
            }
        }
        k = (k / 2).max(2);
    }
    visits
}

impl<G: Game> Search<G> {
    /// The root choice while `forced_root` is set: descend into that move's child, or add it.
    pub(super) fn forced_choice(&mut self, a: u16, g: &G) -> Choice<G::Move> {
        if let Some(e) = self.tree.children(0).find(|&e| self.tree.edges[e as usize].mv == a) {
            return Choice::Descend(e);
        }
        let prior = self.node_priors.of(0).and_then(|(m, p)| m.iter().position(|&x| x == a).map(|k| p[k])).unwrap_or(0.0);
        Choice::Expand(g.move_from_index(a as usize).expect("a legal root move"), prior)
    }

    /// Gumbel AlphaZero's root (Danihelka, Guez, Schrittwieser & Silver 2022, "Policy
    /// improvement by planning with Gumbel", ICLR; constants from `config.gumbel_*`), spending
    /// `n` iterations:
    /// 1. the evaluator's priors p at the root, logit(a) = ln p(a); Gumbel noise
    ///    g(a) = −ln(−ln u), u ~ U(0, 1) from the search's seeded generator;
    /// 2. the m = min(`gumbel_m`, legal moves) moves with the highest g(a) + logit(a);
    /// 3. sequential halving ([`sequential_halving_visits`]): each phase visits every move still
    ///    considered (every iteration starts with that root move, PUCT below), then keeps the
    ///    better half by g(a) + logit(a) + σ(q̂(a)),
    ///    `σ(q) = (c_visit + max_b N(b)) · c_scale · q`;
    /// 4. the chosen move: the best survivor by that score; the policy target:
    ///    `softmax(logit + σ(completedQ))`, where an unvisited move's Q is completed with
    ///    `v_mix = (v̂ + ΣN / Σ_{N(b)>0} p(b) · Σ_{N(b)>0} p(b)·q(b)) / (1 + ΣN)` (eq. 33), v̂
    ///    the evaluator's root value (0.5 without a value head), and completed Q values rescaled
    ///    to [0, 1] by their min and max (as mctx's `qtransform_completed_by_mix_value`).
    ///
    /// Q is the root player's win rate in [0, 1]. The tree is kept (statistics add to earlier
    /// runs'); `best_move` then returns the chosen move until the next `run` or `advance`.
    /// `None` at a terminal root.
    pub fn run_gumbel(&mut self, n: u64) -> Option<GumbelReport> {
        if self.root.is_terminal() {
            return None;
        }
        let root = self.root.clone();
        self.node_priors.forget(0);
        let v_hat = self.evaluate_node(0, &root, true, false).unwrap_or(0.5);
        let (moves, p) = self.node_priors.of(0)?;
        let (moves, p): (Vec<u16>, Vec<f32>) = (moves.to_vec(), p.to_vec());
        if moves.is_empty() {
            return None;
        }
        let logit: Vec<f64> = p.iter().map(|&x| (x.max(1e-30) as f64).ln()).collect();
        let gumbel: Vec<f64> = (0..moves.len())
            .map(|_| {
                let u = self.rng.unit().clamp(1e-300, 1.0 - 1e-16);
                -(-u.ln()).ln()
            })
            .collect();
        let mut order: Vec<usize> = (0..moves.len()).collect();
        order.sort_by(|&a, &b| (gumbel[b] + logit[b]).total_cmp(&(gumbel[a] + logit[a])));
        let m = self.config.gumbel_m.min(moves.len()).max(1);
        let considered: Vec<usize> = order[..m].to_vec();
        let mut alive = considered.clone();
        let log2m = (m as f64).log2().ceil().max(1.0) as u64;
        let mut done = 0u64;
        let mut k = m;
        while done < n {
            let extra = if m == 1 { n } else { (n / (log2m * k as u64)).max(1) };
            'phase: for _ in 0..extra {
                for &i in alive.iter().take(k) {
                    if done == n {
                        break 'phase;
                    }
                    self.forced_root = Some(moves[i]);
                    self.iterate();
                    done += 1;
                }
            }
            self.forced_root = None;
            // Rank the survivors by g + logit + σ(q̂) and keep the better half (at least 2).
            let (q, sigma) = self.completed_q(&moves, &p, v_hat);
            let take = k.min(alive.len());
            let mut head: Vec<usize> = alive[..take].to_vec();
            head.sort_by(|&a, &b| {
                let sa = gumbel[a] + logit[a] + sigma * q[a];
                let sb = gumbel[b] + logit[b] + sigma * q[b];
                sb.total_cmp(&sa)
            });
            alive.splice(..take, head);
            k = (k / 2).max(2).min(m);
        }
        self.forced_root = None;
        let (scaled, sigma) = self.completed_q(&moves, &p, v_hat);
        let action = moves[alive[0]] as usize;
        let z: Vec<f64> = (0..moves.len()).map(|i| logit[i] + sigma * scaled[i]).collect();
        let zmax = z.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let e: Vec<f64> = z.iter().map(|&x| (x - zmax).exp()).collect();
        let es: f64 = e.iter().sum();
        let policy = moves.iter().zip(&e).map(|(&mv, &x)| (mv as usize, (x / es) as f32)).collect();
        self.gumbel_choice = Some(action as u16);
        Some(GumbelReport { action, policy, considered: considered.iter().map(|&i| moves[i] as usize).collect(), iterations: done })
    }

    /// Per root move (in `moves`' order, priors `p`): the completed Q for the root player —
    /// its child's Q if visited, else `v_mix` (eq. 33 of Danihelka et al. 2022) — rescaled to
    /// [0, 1] by the min and max over the moves (mctx); and σ's factor
    /// `(c_visit + max_b N(b)) · c_scale`.
    fn completed_q(&self, moves: &[u16], p: &[f32], v_hat: f64) -> (Vec<f64>, f64) {
        let mut q = vec![None; moves.len()];
        let mut max_n = 0.0f64;
        let mut sum_n = 0.0;
        for e in self.tree.children(0) {
            let mv = self.tree.edges[e as usize].mv;
            let c = &self.tree.nodes[self.tree.child(e) as usize];
            if let Some(i) = moves.iter().position(|&x| x == mv) {
                if c.n > 0 {
                    q[i] = Some(c.q());
                    max_n = max_n.max(c.n as f64);
                    sum_n += c.n as f64;
                }
            }
        }
        let (mut pq, mut pv) = (0.0, 0.0);
        for (i, qi) in q.iter().enumerate() {
            if let Some(qi) = qi {
                pv += p[i] as f64;
                pq += p[i] as f64 * qi;
            }
        }
        let v_mix = if pv > 0.0 { (v_hat + sum_n / pv * pq) / (1.0 + sum_n) } else { v_hat };
        let completed: Vec<f64> = q.iter().map(|x| x.unwrap_or(v_mix)).collect();
        let (lo, hi) = completed.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &x| (l.min(x), h.max(x)));
        let scaled = completed.iter().map(|&x| (x - lo) / (hi - lo).max(1e-8)).collect();
        (scaled, (self.config.gumbel_c_visit + max_n) * self.config.gumbel_c_scale)
    }
}
