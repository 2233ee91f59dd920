//! The playout phase: the policy playout or the game's random playout (outcome-only when nothing
//! reads the moves), rollout-expand, and the PoolRAVE pools the policy draws from.

use super::Search;
use crate::game::{Game, NoTrace, Outcome};
use crate::mcts::tree::UNKNOWN;

impl<G: Game> Search<G> {
    /// Runs the playout from the leaf (policy or fast random), with rollout-expand if on.
    pub(super) fn playout(&mut self, g: &mut G, cap: usize) -> Outcome {
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
    pub(super) fn rollout_expand(&mut self, start: usize, cap: usize) {
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

    /// PoolRAVE pools (Rimmel, Teytaud et al. 2010): for each player, the `pool_k` moves with
    /// the best AMAF value (at least `pool_min_amaf` AMAF visits) in the table of the deepest
    /// node of the current path that has one, best first.
    pub(super) fn build_pools(&mut self) {
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
}

/// Orders PoolRAVE candidates `(amaf_q, move)` best first (ties by move index) and keeps `k`.
pub fn pool_order(mut cands: Vec<(f64, u16)>, k: usize) -> Vec<u16> {
    cands.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal).then(a.1.cmp(&b.1)));
    cands.into_iter().take(k).map(|(_, m)| m).collect()
}
