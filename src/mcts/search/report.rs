//! What the views and the CLI read: the final-move rule, the principal variation, root
//! statistics, the playout policies' internals and tree exports (JSON shapes in `stats.rs`).

use super::Search;
use crate::game::Game;
use crate::mcts::config::{FinalMove, LgrMode, MastMode, Selection, ValueEstimate};
use crate::mcts::selection::{amaf_mean, puct_bonus, secure};
use crate::mcts::stats::{ChildStats, PolicyStats, SearchStats, TreeExport, TreeNodeExport};
use crate::mcts::tree::Proof;

impl<G: Game> Search<G> {
    /// Index of the edge of node `id` chosen by the final-move rule (proven win first).
    pub(super) fn best_root_edge(&self, id: u32) -> Option<u32> {
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
                FinalMove::Secure => (tier, secure(n.q(), n.n as u64, self.config.secure_a), n.n as f64),
            };
            if best.is_none_or(|(_, b)| key.partial_cmp(&b) == Some(std::cmp::Ordering::Greater)) {
                best = Some((e, key));
            }
        }
        best.map(|(e, _)| e)
    }

    /// The move to play by the final-move rule: a proven win first, else robust (most visits,
    /// ties by Q), max or secure child; never a proven loss when another move exists.
    /// After a Gumbel root search (`root = gumbel`), the move sequential halving chose.
    pub fn best_move(&self) -> Option<G::Move> {
        if let Some(a) = self.gumbel_choice {
            return self.root.move_from_index(a as usize);
        }
        let e = self.best_root_edge(0)?;
        self.root.move_from_index(self.tree.edges[e as usize].mv as usize)
    }

    /// Principal variation: from the root, the final-move rule at each level.
    pub(super) fn pv(&self) -> Vec<String> {
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
        let puct_on = self.config.selection == Selection::Puct && self.tree.with_priors;
        let mut children: Vec<ChildStats> = self
            .tree
            .children(0)
            .map(|e| {
                let edge = &self.tree.edges[e as usize];
                let n = &self.tree.nodes[edge.child as usize];
                let m = self.root.move_from_index(edge.mv as usize).expect("stored move");
                let (an, aw2) = root_table.map_or((0, 0), |t| self.tree.amaf.get(t, me, edge.mv as usize, self.ms));
                ChildStats {
                    mv: self.root.format_move(m),
                    index: edge.mv as usize,
                    visits: n.n as u64,
                    q: n.q(),
                    amaf_visits: an as u64,
                    amaf_q: (an > 0).then(|| amaf_mean(an, aw2)),
                    beta: (self.config.value != ValueEstimate::Mean).then(|| self.beta(n.n, an)),
                    prior: puct_on.then(|| self.tree.priors[e as usize] as f64),
                    proven: n.proof().proven(),
                    puct_u: puct_on
                        .then(|| puct_bonus(self.tree.priors[e as usize] as f64, n.n as u64, (root.n as f64).sqrt(), self.config.c)),
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
            tree_cap: self.tree_cap(),
            memory_cap_bytes: self.memory_cap_bytes(),
            children,
            policy: self.policy_stats(),
            evaluator: (self.config.selection == Selection::Puct).then(|| self.evaluator.name().to_string()),
            puct_c: (self.config.selection == Selection::Puct).then_some(self.config.c),
            root_visits: root.n as u64,
            final_move: self.gumbel_choice.is_none().then_some(self.config.final_move),
            leaf: Some(self.config.leaf),
        }
    }

    pub(super) fn policy_stats(&self) -> PolicyStats {
        let c = &self.config;
        let fmt = |i: usize| self.root.move_from_index(i).map(|m| self.root.format_move(m)).unwrap_or_default();
        let mut active = Vec::new();
        if c.decisive {
            active.push("decisive".to_string());
        }
        if c.anti_decisive {
            active.push("anti_decisive".to_string());
        }
        if self.bridges {
            active.push("save_bridge".into());
        }
        if c.lgr != LgrMode::Off {
            active.push(format!("{:?}", c.lgr).to_ascii_lowercase());
        }
        if c.poolrave {
            active.push("poolrave".into());
        }
        if c.mast != MastMode::Off {
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
        if c.mast != MastMode::Off {
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
            save_bridge_moves_played: self.policy.bridge_played,
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

    pub(super) fn export_node(&self, id: u32, mv: Option<String>, g: &G, top_k: usize, depth: usize, min_visits: u64) -> TreeNodeExport {
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
