//! Backpropagation: visits and rewards along the path (with quality-based bonuses), AMAF
//! updates, the playout policies' learning, MCTS-Solver proofs, and the edges' cached statistics.

use super::Search;
use crate::game::{Game, MoveSets, Outcome, Player};
use crate::mcts::amaf::AMAF_MAX;
use crate::mcts::config::{LgrMode, MastMode};
use crate::mcts::mcts_solver;
use crate::mcts::playout::qb_bonus;
use crate::mcts::tree::Proof;

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
                let p = mcts_solver::compute_proof(&self.tree, id);
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
            if let Some(empty) = &self.tree.amaf.derived[t as usize] {
                // Player 1's row is derived while every update credits each cell empty at the
                // node to one player and the counts stay below AMAF_MAX; otherwise it is stored
                // first (`AmafTables::materialize`, the same values).
                let full = empty.iter().zip(&sets.by[0]).zip(&sets.by[1]).all(|((&e, &a), &b)| e & !(a | b) == 0);
                if !full || self.tree.amaf.updates[t as usize] + 1 >= AMAF_MAX as u64 {
                    self.tree.amaf.materialize(t, ms);
                }
            }
            let u = &mut self.tree.amaf.updates[t as usize];
            // No entry has more samples than the table has had updates: below AMAF_MAX none can
            // saturate, and the rows are credited eight entries at a time (`credit_row`).
            let dense = *u < AMAF_MAX as u64;
            *u += 1;
            let gains = &mut self.tree.amaf.gains[t as usize];
            for (gain, &r) in gains.iter_mut().zip(&r2) {
                *gain = gain.wrapping_add((r > 0) as u32);
            }
            if self.tree.amaf.derived[t as usize].is_some() {
                // Player 0's row only (player 1's follows from it and R₀).
                self.tree.amaf.r0[t as usize] += r2[0] as u64;
                let base = self.tree.amaf.off[t as usize];
                credit_row(&mut self.tree.amaf.n[base..base + ms], &mut self.tree.amaf.w2[base..base + ms], &sets.by[0], r2[0]);
                continue;
            }
            for (p, &r) in r2.iter().enumerate() {
                let base = self.tree.amaf.off[t as usize] + p * ms;
                let (ns, ws) = (&mut self.tree.amaf.n[base..base + ms], &mut self.tree.amaf.w2[base..base + ms]);
                if dense {
                    credit_row(ns, ws, &sets.by[p], r);
                    continue;
                }
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

/// The lanes of a byte as masks: lane `l` of entry `b` is all ones where bit `l` of `b` is set,
/// else 0 (8 KiB, read by [`credit_row`]).
const BYTE_MASKS: [[u32; 8]; 256] = {
    let mut t = [[0u32; 8]; 256];
    let mut i = 0;
    while i < 256 {
        let mut l = 0;
        while l < 8 {
            if (i >> l) & 1 == 1 {
                t[i][l] = u32::MAX;
            }
            l += 1;
        }
        i += 1;
    }
    t
};

/// One AMAF sample with reward `r` (half points) for every move of `set` (bit `i` of word
/// `i / 64` is move `i`; bits at or past the row's length are ignored), on a row of counts `ns`
/// and sums `ws` of equal length (the move space).
///
/// Eight entries per step: each byte of the set selects its eight lane masks from
/// [`BYTE_MASKS`]; a count takes minus the mask (+1 where set), a sum the mask AND `r`, so the
/// adds are vector adds (SSE2, wasm simd128) with no branch and no multiply per move. The caller
/// guarantees that no entry saturates (fewer than [`AMAF_MAX`] updates of the table so far). The
/// result is that of adding bit by bit (the saturating loop in `update_amaf`); on Hex 11×11,
/// with a filled board's ~60 moves per row, this made `rave` 10 % faster (fixed-work A/B, `mcts
/// search --iterations 300000 --seed 3`). Lanes extracted with shifts instead of the table
/// vectorised badly (13 % slower); 0/1 lanes times `r` cost SSE2 an emulated 32-bit multiply.
#[inline(always)]
fn credit_row(ns: &mut [u32], ws: &mut [u32], set: &[u64], r: u32) {
    let ms = ns.len();
    let whole = ms / 8 * 8;
    let (nh, nt) = ns.split_at_mut(whole);
    let (wh, wt) = ws.split_at_mut(whole);
    for (k, (n8, w8)) in nh.chunks_exact_mut(8).zip(wh.chunks_exact_mut(8)).enumerate() {
        // Byte k of the set by a shift (a `flat_map` over each word's bytes kept its state in
        // memory in V8's code, a load and two stores per step).
        let byte = (set[k / 8] >> (k % 8 * 8)) as u8;
        let mask = &BYTE_MASKS[byte as usize];
        // Through arrays: LLVM vectorises these (it kept adds to memory scalar).
        let mut a: [u32; 8] = (&*n8).try_into().unwrap();
        let mut b: [u32; 8] = (&*w8).try_into().unwrap();
        for l in 0..8 {
            a[l] = a[l].wrapping_sub(mask[l]);
            b[l] += mask[l] & r;
        }
        n8.copy_from_slice(&a);
        w8.copy_from_slice(&b);
    }
    for (j, (n, w)) in nt.iter_mut().zip(wt.iter_mut()).enumerate() {
        let i = whole + j;
        let b = ((set[i / 64] >> (i % 64)) & 1) as u32;
        *n += b;
        *w += b * r;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng64;

    /// The row credit adds exactly one sample per set bit below the row's length, for row
    /// lengths around the step of eight and the word of 64 (9: Tic-Tac-Toe, 121: Hex 11×11,
    /// 362: Hex 19×19 with the swap).
    #[test]
    fn credit_row_matches_bit_by_bit() {
        let mut rng = Rng64::new(5);
        for ms in [1, 7, 8, 9, 63, 64, 65, 121, 128, 289, 362] {
            for density in [0u64, 3, 8, 15] {
                let set: Vec<u64> = (0..crate::game::MOVE_WORDS)
                    .map(|_| (0..64).fold(0, |w, b| w | (u64::from(rng.below(16) < density as u32) << b)))
                    .collect();
                let n0: Vec<u32> = (0..ms).map(|_| rng.below(1000)).collect();
                let w0: Vec<u32> = n0.iter().map(|&n| rng.below(2 * n + 1)).collect();
                for r in 0..=2 {
                    let (mut n, mut w) = (n0.clone(), w0.clone());
                    credit_row(&mut n, &mut w, &set, r);
                    for i in 0..ms {
                        let b = (set[i / 64] >> (i % 64)) & 1 == 1;
                        assert_eq!(n[i], n0[i] + b as u32, "ms {ms} density {density} r {r} move {i}");
                        assert_eq!(w[i], w0[i] + if b { r } else { 0 }, "ms {ms} density {density} r {r} move {i}");
                    }
                }
            }
        }
    }
}
