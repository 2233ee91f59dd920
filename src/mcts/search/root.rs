//! The root: its initialisation (terminal flag, AMAF table, depth-2 filter), tree reuse
//! (`advance`: the subtree below the move played becomes the tree) and the depth-2 critical-move
//! filter.

use super::{Search, SearchError};
use crate::game::{Game, MoveList};
use crate::mcts::solver;
use crate::mcts::tree::{Edge, NIL, TERMINAL, UNKNOWN};

impl<G: Game> Search<G> {
    /// Sets the root node's terminal flag, its AMAF table and the depth-2 filter.
    pub(super) fn init_root(&mut self) {
        // AMAF table ids change with a new or compacted tree.
        self.pool_cache.clear();
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
