//! Backpropagation: visits and rewards along the path (with quality-based bonuses), AMAF
//! updates, the playout policies' learning, MCTS-Solver proofs, and the edges' cached statistics.

use super::Search;
use crate::game::{Game, Outcome};
use crate::mcts::config::{LgrMode, MastMode};
use crate::mcts::playout::qb_bonus;
use crate::mcts::solver;
use crate::mcts::tree::Proof;

impl<G: Game> Search<G> {
    /// Backpropagation, AMAF, learning, solver.
    pub(super) fn backprop(&mut self, outcome: Outcome) {
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
            self.tree.nodes[step.node as usize].add_visit(reward[into as usize]);
        }
        if self.config.needs_amaf() || self.config.lgr != LgrMode::Off || self.config.mast != MastMode::Off {
            self.seq_idx.clear();
            for &m in &self.seq {
                self.seq_idx.push(self.root.move_index(m) as u16);
            }
        }
        if self.tree.with_amaf {
            self.update_amaf(outcome);
        }
        if self.config.lgr != LgrMode::Off || self.config.mast != MastMode::Off {
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
        // Refresh the edges' cached statistics along the path. With transpositions an edge's `n`
        // counts the visits through that edge, n(s,a) (read by UCT2), not the shared node's n.
        let per_edge = self.tt.is_some();
        for step in &self.path[1..] {
            let node = self.tree.nodes[step.node as usize];
            let e = &mut self.tree.edges[step.edge as usize];
            let through = e.n;
            e.sync(&node);
            if per_edge {
                e.n = through.saturating_add(1);
            }
        }
    }

    /// AMAF update (Gelly & Silver 2007; two-colour tables as in Cazenave 2015): at each node of
    /// the path that has a table, every move played after the node (its first occurrence from
    /// there) is credited to the player who played it, with that player's reward.
    pub(super) fn update_amaf(&mut self, outcome: Outcome) {
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
                self.tree.amaf.add(base + p * ms + i, r2[p]);
            }
        }
    }
}
