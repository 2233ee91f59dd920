//! Backpropagation: visits and rewards along the path (with quality-based bonuses), AMAF
//! updates, the playout policies' learning, MCTS-Solver proofs, and the edges' cached statistics.

use super::Search;
use crate::game::{Game, MoveSets, Outcome, Player};
use crate::mcts::config::{LgrMode, MastMode};
use crate::mcts::playout::qb_bonus;
use crate::mcts::solver;
use crate::mcts::tree::{Proof, AMAF_MAX};

impl<G: Game> Search<G> {
    /// Backpropagation, AMAF, learning, solver.
    pub(super) fn backprop(&mut self, outcome: Outcome) {
        let root_mover = self.root.to_move();
        // Moves from the root to the end of the game (the playout's are in `psets` when it
        // recorded sets).
        let len = (self.seq.len() + if self.sets_valid { self.psets.len as usize } else { 0 }) as f64;
        let net_value = self.leaf_value.take();
        let mut reward = net_value.unwrap_or([outcome.reward(0), outcome.reward(1)]);
        self.last_reward = reward;
        if self.config.qb && net_value.is_none() {
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
        if self.config.lgr != LgrMode::Off || self.config.mast != MastMode::Off {
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
    ///
    /// By sets, not lists: the playout's moves are one bitboard per player ([`MoveSets`]: from
    /// the game's set playout, or built from the recorded list with first occurrences only);
    /// walking the path back from the leaf, the tree move played at each node is added to its
    /// player's set and removed from the other's (that earlier occurrence is now the first), and
    /// every node with a table credits the set bits of both sets. Each entry gets the same one
    /// update per table as a scan of the move list would give, in O(moves) per table with no
    /// first-occurrence bookkeeping.
    pub(super) fn update_amaf(&mut self, outcome: Outcome) {
        let root_mover = self.root.to_move() as usize;
        let last = self.path.len() - 1;
        let ms = self.ms;
        let width = self.tree.amaf.width;
        let r2 = [(outcome.reward(0) * 2.0) as u32, (outcome.reward(1) * 2.0) as u32];
        let mut sets = if self.sets_valid {
            self.psets
        } else {
            let first = (root_mover ^ (last & 1)) as Player;
            let root = &self.root;
            MoveSets::from_indices(first, self.seq[last..].iter().map(|&m| root.move_index(m)))
        };
        if self.fill_valid {
            // The cells dealt after the game's end (`fill_playouts`): empty at the end, so in
            // neither set yet.
            for (set, fill) in sets.by.iter_mut().zip(&self.pfill.by) {
                for (w, f) in set.iter_mut().zip(fill) {
                    *w |= f;
                }
            }
        }
        for d in (0..=last).rev() {
            if d < last {
                let i = self.root.move_index(self.seq[d]);
                let p = (root_mover ^ (d & 1)) & 1;
                sets.by[p][i / 64] |= 1 << (i % 64);
                sets.by[1 - p][i / 64] &= !(1 << (i % 64));
            }
            let Some(t) = self.tree.amaf.table(self.path[d].node) else { continue };
            let u = &mut self.tree.amaf.updates[t as usize];
            *u = u.wrapping_add(1);
            for (p, &r) in r2.iter().enumerate() {
                let base = t as usize * width + p * ms;
                let (ns, ws) = (&mut self.tree.amaf.n[base..base + ms], &mut self.tree.amaf.w2[base..base + ms]);
                for (wi, &word) in sets.by[p].iter().enumerate() {
                    let mut x = word;
                    while x != 0 {
                        let i = wi * 64 + x.trailing_zeros() as usize;
                        x &= x - 1;
                        // `AmafTables::add`, on the row: saturating at AMAF_MAX.
                        let n = ns[i];
                        if n < AMAF_MAX {
                            ns[i] = n + 1;
                            ws[i] += r;
                        }
                    }
                }
            }
        }
    }
}
