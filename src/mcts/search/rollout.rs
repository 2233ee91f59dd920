//! The playout phase: the policy playout or the game's random playout (outcome-only when nothing
//! reads the moves; per-player move sets, [`crate::game::MoveSets`], when only AMAF and the length
//! read them; a list when their order matters; with `fill_playouts` on Hex, the filled board),
//! rollout-expand, and the PoolRAVE pools the policy draws from.

use super::Search;
use crate::game::{Game, NoTrace, Outcome, MOVE_WORDS};
use crate::mcts::selection::amaf_mean;
use crate::mcts::tree::UNKNOWN;
#[cfg(doc)]
use crate::mcts::SearchConfig;

impl<G: Game> Search<G> {
    /// Runs the playout from the leaf (policy or fast random), with rollout-expand if on.
    pub(super) fn playout(&mut self, g: &mut G, cap: usize) -> Outcome {
        self.playouts += 1;
        let start = self.seq.len();
        self.sel_len = self.path.len();
        if self.config.poolrave {
            self.build_pools();
        }
        self.sets_valid = false;
        // With `fill_playouts` (Hex): a uniformly random playout whose length nothing reads fills
        // the board itself (`fill_playout`, the outcome-only split); a playout that must stop at
        // the game's end (a policy, quality-based rewards) has the rest of the board dealt
        // after it for AMAF: by its own policy where it chose the whole board (`fill_loop`),
        // else at random (`fill_rest`).
        let fill = self.fill();
        let whole = fill && !self.config.qb;
        let mut filled = false;
        let o = if self.policy_playouts() {
            // The moves as sets when nothing reads their order (the game's own decisive loop
            // may then skip the list).
            let sets = (!self.record_playouts && !self.config.rollout_expand).then_some(&mut self.psets);
            let (o, in_sets) = self.policy.playout(&self.config, g, &mut self.rng, &mut self.seq, sets);
            self.sets_valid = in_sets;
            if fill && self.policy.after_valid {
                self.pfill = self.policy.after_end;
                self.fill_valid = true;
            }
            o
        } else if self.record_playouts || self.config.rollout_expand {
            // The moves in order: the step-through replays them, rollout-expand builds nodes.
            // A filled board is recorded too (the same random numbers as unrecorded).
            match whole.then(|| g.fill_playout(&mut self.rng, &mut self.psets, &mut self.seq)).flatten() {
                Some(o) => {
                    filled = true;
                    o
                }
                None => g.random_playout(&mut self.rng, &mut self.seq),
            }
        } else if self.config.playout_moves_needed() {
            // AMAF and quality-based rewards need each player's moves and the length, not their
            // order: the game's set playout (the same game and random numbers as the list), or
            // the filled board.
            self.sets_valid = true;
            match whole.then(|| g.fill_playout(&mut self.rng, &mut self.psets, &mut NoTrace)).flatten() {
                Some(o) => {
                    filled = true;
                    o
                }
                None => g.random_playout_sets(&mut self.rng, &mut self.psets, &mut self.pscratch),
            }
        } else {
            // Nothing reads the playout's moves or length: let the game take its outcome-only
            // shortcut (`g` is left meaningful for `outcome()` only, and is not used again).
            g.random_playout(&mut self.rng, &mut NoTrace)
        };
        if fill && !filled && !self.fill_valid {
            self.pfill.clear();
            self.fill_valid = g.fill_rest(&mut self.rng, &mut self.pfill);
        }
        self.filled = filled || self.fill_valid;
        if self.config.rollout_expand {
            self.rollout_expand(start, cap);
        }
        o
    }

    /// Whether the playouts follow a policy ([`SearchConfig::policy_playouts`], or save-bridge
    /// on a game with bridges) rather than the game's uniformly random playout.
    #[inline]
    pub(super) fn policy_playouts(&self) -> bool {
        self.config.policy_playouts() || self.bridges
    }

    /// For a new AMAF table at position `g`: the dense moves empty there when player 1's row can
    /// be derived from player 0's ([`crate::mcts::amaf::AmafTables`]), i.e. when every
    /// simulation through `g` will credit each of them to one player: the playouts fill the
    /// board ([`Search::fill`]) and `g` is a position from which they can
    /// ([`Game::fill_playouts`]: the game goes on and no swap move can come). Else `None`.
    pub(super) fn derived_amaf(&self, g: &G) -> Option<[u64; MOVE_WORDS]> {
        (self.fill() && g.fill_playouts()).then(|| {
            let mut empty = [0; MOVE_WORDS];
            g.legal_move_set(&mut empty);
            empty
        })
    }

    /// Whether AMAF credits a filled board this search (`fill_playouts` with AMAF statistics;
    /// under quality-based rewards by `fill_rest` after the real end, see `playout`).
    #[inline]
    fn fill(&self) -> bool {
        self.config.fill_playouts && self.config.needs_amaf()
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

    /// PoolRAVE pools (Rimmel, Teytaud et al. 2010; Hoock et al. 2010): for each player, the
    /// `pool_k` moves with the best AMAF value (at least `pool_min_amaf` AMAF visits) in the table
    /// of the deepest node of the current path that has one, best first.
    ///
    /// The pools of a table are cached and rebuilt only when its node has gained an eighth more
    /// visits since the last build ([`POOL_REFRESH`]): a pool is then at most 1/9 of the node's
    /// samples behind, and the cost per playout is a copy of 2·`pool_k` moves instead of a scan
    /// and sort of the move space. A rebuild selects the best `pool_k` by partial selection.
    pub(super) fn build_pools(&mut self) {
        let Some((node, t)) = self.path.iter().rev().find_map(|st| self.tree.amaf.table(st.node).map(|t| (st.node, t))) else {
            self.policy.pool[0].clear();
            self.policy.pool[1].clear();
            return;
        };
        let n = self.tree.nodes[node as usize].n;
        let ti = t as usize;
        if self.pool_cache.len() <= ti {
            let more = ti + 1 - self.pool_cache.len();
            crate::mcts::tree::reserve_step(&mut self.pool_cache, more);
            self.pool_cache.resize_with(ti + 1, PoolEntry::default);
        }
        let built = self.pool_cache[ti].built;
        let stale = built == 0 || n as u64 >= (built as u64 - 1) + ((built as u64 - 1) / POOL_REFRESH).max(1);
        if stale {
            let mut cands = std::mem::take(&mut self.pool_scratch);
            let mut entry = std::mem::take(&mut self.pool_cache[ti]);
            for p in 0..2u8 {
                cands.clear();
                for i in 0..self.ms {
                    let (an, aw2) = self.tree.amaf.get(t, p, i, self.ms);
                    if an >= self.config.pool_min_amaf.max(1) {
                        cands.push((amaf_mean(an, aw2), i as u16));
                    }
                }
                pool_order_into(&mut cands, self.config.pool_k, &mut entry.moves[p as usize]);
            }
            entry.built = n.saturating_add(1);
            self.pool_cache[ti] = entry;
            self.pool_scratch = cands;
        }
        let entry = &self.pool_cache[ti];
        for p in 0..2 {
            self.policy.pool[p].clear();
            self.policy.pool[p].extend_from_slice(&entry.moves[p]);
        }
    }
}

/// A PoolRAVE pool is rebuilt when its node's visits have grown by 1/`POOL_REFRESH` since the
/// last build (12.5 %; at least one visit).
pub const POOL_REFRESH: u64 = 8;

/// The cached PoolRAVE pools of one AMAF table.
#[derive(Clone, Debug, Default)]
pub(super) struct PoolEntry {
    /// The node's visits at the last build, plus one (0: never built).
    built: u32,
    /// The pools per player, best AMAF value first.
    moves: [Vec<u16>; 2],
}

/// Bytes the PoolRAVE pool cache may hold, in O(1): per entry slot its fixed part and two
/// pools of `pool_k` moves (`u16`, plus 16 bytes of allocator header each), built or not.
pub(super) fn pool_bytes(cache: &Vec<PoolEntry>, pool_k: usize) -> usize {
    cache.capacity() * (std::mem::size_of::<PoolEntry>() + 2 * (2 * pool_k + 16))
}

/// The order of PoolRAVE candidates `(amaf_q, move)`: best value first, ties by move index.
fn pool_cmp(a: &(f64, u16), b: &(f64, u16)) -> std::cmp::Ordering {
    b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal).then(a.1.cmp(&b.1))
}

/// The best `k` of `cands` in pool order into `out`: partial selection (`select_nth_unstable`,
/// O(n)) of the best `k`, then a sort of those `k` only.
fn pool_order_into(cands: &mut [(f64, u16)], k: usize, out: &mut Vec<u16>) {
    out.clear();
    let k = k.min(cands.len());
    if k == 0 {
        return;
    }
    if k < cands.len() {
        cands.select_nth_unstable_by(k - 1, pool_cmp);
    }
    let top = &mut cands[..k];
    top.sort_unstable_by(pool_cmp);
    out.extend(top.iter().map(|&(_, m)| m));
}

/// Orders PoolRAVE candidates `(amaf_q, move)` best first (ties by move index) and keeps `k`.
pub fn pool_order(mut cands: Vec<(f64, u16)>, k: usize) -> Vec<u16> {
    let mut out = Vec::with_capacity(k);
    pool_order_into(&mut cands, k, &mut out);
    out
}
