//! The search tree: an arena of compact position nodes (`Vec<Node>`, `u32` ids) and an arena of
//! edges in which the children of a node form one **contiguous run**.
//!
//! Children are expanded lazily, one per visit. A node's run starts with room for one edge and
//! grows by about 1.5× when full (sizes [`RUN_SIZES`]: 1, 2, 3, 4, 6, 8, 12, … capped at the
//! number of legal moves); a run that outgrows its room is copied to a run of the next size
//! and its old room goes to a free list of its size, which the next node needing that size
//! reuses (a larger free run is split when no run of the size asked for is free). So a node with k children holds at most 1.5k edge slots, and selection scans its children in one contiguous array instead of
//! chasing scattered sibling links (that scan was most of the time per iteration on Pentago,
//! 288 moves).
//!
//! Each edge caches the selection statistics of its child (`n`, `q` as `f32`, and `k = 1/√n`,
//! so the UCB1 exploration term is `c·√(ln N)·k`: one multiply-add per child, no division or
//! square root in the scan). Backpropagation refreshes them. With transpositions a node can have
//! several parents and its edges' cached copies can lag, so the search then reads the node.
//!
//! With transpositions a position reached by a second path is linked into the second parent by
//! an edge flagged [`ALIAS`] that points at the shared node (no extra node).
//!
//! Sizes: [`Node`] 24 bytes, [`Edge`] 20 bytes (pinned by tests). Optional per-node and per-edge
//! arrays exist only when a configuration needs them: PUCT priors (4 bytes per edge) and the
//! AMAF tables of RAVE/GRAVE (see [`crate::mcts::amaf`]).

pub use super::slots::NIL;
use crate::game::MOVE_WORDS;
use crate::mcts::amaf::{AmafTables, ChildBound, UntriedBound};
pub(crate) use crate::mcts::slots::reserve_step;
/// `n_legal` not computed yet.
pub const UNKNOWN: u16 = u16::MAX;

/// Edge flag: the edge links a shared node of another parent (transpositions).
pub const ALIAS: u8 = 1;
/// Node flag: the position is terminal.
pub const TERMINAL: u8 = 2;
/// Node flag: all children so far were expanded in the node's seeded affine order (see `search.rs`).
pub const AFFINE: u8 = 4;
/// Node flag: the node's Hex knowledge was computed (search option `knowledge`; see
/// `search/knowledge.rs`).
pub const KNOWN: u8 = 8;

/// A result proven by MCTS-Solver, from the view of one player; serialised as `"win"`,
/// `"loss"` or `"draw"` (the `proven` fields of the JSON views).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Proven {
    /// A proven win.
    Win,
    /// A proven loss.
    Loss,
    /// A proven draw.
    Draw,
}

impl Proven {
    /// `"win"`, `"loss"` or `"draw"`, as serialised.
    pub fn name(self) -> &'static str {
        match self {
            Proven::Win => "win",
            Proven::Loss => "loss",
            Proven::Draw => "draw",
        }
    }
}

impl std::fmt::Display for Proven {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Proof status, from the view of the player who made the move into the node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Proof {
    /// Not proven.
    Unknown = 0,
    /// The move into this node wins (game-theoretic value).
    Win = 1,
    /// The move into this node loses.
    Loss = 2,
    /// The move into this node draws.
    Draw = 3,
}

impl Proof {
    /// From the stored byte.
    #[inline]
    pub fn from_u8(b: u8) -> Proof {
        match b {
            1 => Proof::Win,
            2 => Proof::Loss,
            3 => Proof::Draw,
            _ => Proof::Unknown,
        }
    }
    /// The same result seen by the other player.
    #[inline]
    pub fn flip(self) -> Proof {
        match self {
            Proof::Win => Proof::Loss,
            Proof::Loss => Proof::Win,
            p => p,
        }
    }
    /// The proven result, `None` when not proven.
    pub fn proven(self) -> Option<Proven> {
        match self {
            Proof::Win => Some(Proven::Win),
            Proof::Loss => Some(Proven::Loss),
            Proof::Draw => Some(Proven::Draw),
            Proof::Unknown => None,
        }
    }
    /// The game-theoretic reward of a proven result in [0, 1] (win 1, draw 0.5, loss 0).
    pub fn value(self) -> Option<f64> {
        match self {
            Proof::Win => Some(1.0),
            Proof::Loss => Some(0.0),
            Proof::Draw => Some(0.5),
            Proof::Unknown => None,
        }
    }
}

/// One position of the tree. 24 bytes.
///
/// Statistics are from the view of the player who made the move into the node (the player to
/// move at the parent): `w` is the sum of rewards in [0, 1], `n` the visits.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct Node {
    /// Sum of rewards (playouts through this node), mover-into's view.
    pub w: f64,
    /// Visit count n.
    pub n: u32,
    /// Start of the child run in the edge arena, [`NIL`] before the first expansion.
    pub edges: u32,
    /// Number of children expanded so far (edges in use at the start of the run).
    pub n_children: u16,
    /// Number of legal moves (after the depth-2 root filter), [`UNKNOWN`] until first needed.
    pub n_legal: u16,
    /// Edge slots reserved in the run.
    pub cap: u16,
    /// [`Proof`] as a byte.
    pub proof: u8,
    /// [`TERMINAL`], [`AFFINE`], [`KNOWN`].
    pub flags: u8,
}

impl Node {
    /// A fresh node.
    #[inline]
    pub fn new() -> Node {
        Node { w: 0.0, n: 0, edges: NIL, n_children: 0, n_legal: UNKNOWN, cap: 0, proof: 0, flags: 0 }
    }
    /// Mean value Q = w/n (0.5 when unvisited).
    #[inline]
    pub fn q(&self) -> f64 {
        if self.n == 0 {
            0.5
        } else {
            self.w / self.n as f64
        }
    }
    /// One more visit with reward `r` in [0, 1]. Saturating: at n = `u32::MAX` (about an hour of
    /// a Hex 11×11 UCT search at the root) n and w stop changing, so Q stays the mean of the
    /// first 2³² − 1 playouts instead of wrapping to nonsense.
    #[inline(always)]
    pub fn add_visit(&mut self, r: f64) {
        if self.n != u32::MAX {
            self.n += 1;
            self.w += r;
        }
    }
    /// The proof status.
    #[inline]
    pub fn proof(&self) -> Proof {
        Proof::from_u8(self.proof)
    }
    /// Whether the position is terminal.
    #[inline]
    pub fn is_terminal(&self) -> bool {
        self.flags & TERMINAL != 0
    }
}

impl Default for Node {
    fn default() -> Self {
        Node::new()
    }
}

/// One expanded move of a node: the child and a cached copy of its selection statistics.
/// 20 bytes.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct Edge {
    /// The child node (for an [`ALIAS`], the shared node).
    pub child: u32,
    /// Visits: without transpositions the child's n; with transpositions the visits through
    /// this edge, n(s,a) (the shared child's n is in its node).
    pub n: u32,
    /// The child's Q when last backed up through this edge.
    pub q: f32,
    /// `1/√n` (∞ when n = 0): the UCB1 exploration term is `c·√(ln N)·k`
    /// ([`crate::mcts::selection::ucb1_factored`]).
    pub k: f32,
    /// Dense index of the move.
    pub mv: u16,
    /// The child's proof when last backed up through this edge.
    pub proof: u8,
    /// [`ALIAS`].
    pub flags: u8,
}

impl Edge {
    /// An edge to `child` by move `mv`, no visits yet.
    #[inline]
    pub fn new(child: u32, mv: u16) -> Edge {
        Edge { child, n: 0, q: 0.5, k: f32::INFINITY, mv, proof: 0, flags: 0 }
    }
    /// Refreshes the cached statistics from the child's node (n too: callers that count per
    /// edge restore it).
    #[inline]
    pub fn sync(&mut self, node: &Node) {
        self.n = node.n;
        self.q = node.q() as f32;
        self.k = crate::mcts::selection::ucb1_child_factor(node.n);
        self.proof = node.proof;
    }
}

/// The arenas.
#[derive(Clone, Debug, Default)]
pub struct Tree {
    /// All nodes; id 0 is the root.
    pub nodes: Vec<Node>,
    /// All edges, in runs (one per expanded node).
    pub edges: Vec<Edge>,
    /// PUCT prior of each edge (parallel to `edges`); empty unless `with_priors`.
    pub priors: Vec<f32>,
    /// Whether `priors` is kept.
    pub with_priors: bool,
    /// AMAF tables (empty unless enabled).
    pub amaf: AmafTables,
    /// Whether every node gets an `amaf.of_node` slot.
    pub with_amaf: bool,
    /// Whether the nodes keep a [`ChildBound`] (MC-RAVE with c = 0, the only selection that
    /// reads one): 20 bytes per node.
    pub with_child_bounds: bool,
    /// Free runs by size class (index into [`RUN_SIZES`]).
    free: [Vec<u32>; RUN_SIZES.len()],
    /// Edge slots in `free`.
    free_total: usize,
}

/// Run sizes (edge slots): about ×1.5 per step, so a run is never more than a third empty.
pub const RUN_SIZES: [u16; 24] = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096];

/// The size class of a run of exactly `size` slots, if it is one of [`RUN_SIZES`].
#[inline]
fn run_class(size: usize) -> Option<usize> {
    RUN_SIZES.iter().position(|&s| s as usize == size)
}

/// The smallest run size above `cap` (or `cap + 1` beyond the table).
#[inline]
fn next_run_size(cap: usize) -> usize {
    RUN_SIZES.iter().map(|&s| s as usize).find(|&s| s > cap).unwrap_or(cap + 1)
}

impl Tree {
    /// A tree with only a root; `priors`: keep PUCT priors per edge; `amaf_width`: entries per
    /// AMAF table (0 = no AMAF tables); `child_bounds`: keep a [`ChildBound`] per node (with
    /// AMAF tables only).
    pub fn with_root(priors: bool, amaf_width: usize, child_bounds: bool) -> Tree {
        let mut t = Tree {
            nodes: Vec::with_capacity(1024),
            edges: Vec::with_capacity(1024),
            with_priors: priors,
            with_amaf: amaf_width > 0,
            with_child_bounds: child_bounds && amaf_width > 0,
            amaf: AmafTables::with_width(amaf_width),
            ..Tree::default()
        };
        t.push(Node::new());
        t
    }

    /// Drops every [`ChildBound`] (a new configuration may have visited children another way
    /// since) and keeps them from now on if `on` (and the tree has AMAF tables).
    pub fn reset_child_bounds(&mut self, on: bool) {
        self.with_child_bounds = on && self.with_amaf;
        self.amaf.children.clear();
        if self.with_child_bounds {
            self.amaf.children.resize(self.nodes.len(), ChildBound::NONE);
        }
    }

    /// Number of nodes.
    #[inline]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Always false (there is a root).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Bytes of the two largest single arenas (allocations) together: what one iteration's
    /// growth may copy to new blocks at once (the AMAF counts and rewards grow together).
    pub fn two_largest_arenas_bytes(&self) -> usize {
        let a = &self.amaf;
        let mut sizes = [
            self.nodes.capacity() * std::mem::size_of::<Node>(),
            self.edges.capacity() * std::mem::size_of::<Edge>(),
            self.priors.capacity() * 4,
            a.n.capacity() * 4,
            a.w2.capacity() * 4,
            a.untried.capacity() * std::mem::size_of::<UntriedBound>(),
            a.children.capacity() * std::mem::size_of::<ChildBound>(),
            a.derived.capacity() * std::mem::size_of::<Option<[u64; MOVE_WORDS]>>(),
        ];
        sizes.sort_unstable();
        sizes[sizes.len() - 1] + sizes[sizes.len() - 2]
    }

    /// Bytes held by the arenas (capacities × sizes) and the AMAF tables.
    pub fn bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.edges.capacity() * std::mem::size_of::<Edge>()
            + self.priors.capacity() * 4
            + self.amaf.bytes()
    }

    /// Appends a node and returns its id.
    #[inline]
    pub fn push(&mut self, node: Node) -> u32 {
        reserve_step(&mut self.nodes, 1);
        let id = self.nodes.len() as u32;
        self.nodes.push(node);
        if self.with_amaf {
            reserve_step(&mut self.amaf.of_node, 1);
            self.amaf.of_node.push(NIL);
            reserve_step(&mut self.amaf.untried, 1);
            self.amaf.untried.push(UntriedBound::NONE);
            if self.with_child_bounds {
                reserve_step(&mut self.amaf.children, 1);
                self.amaf.children.push(ChildBound::NONE);
            }
        }
        id
    }

    /// A run of `size` edge slots (from the free list when one of that size is there).
    fn alloc_run(&mut self, size: usize) -> u32 {
        if let Some(c) = run_class(size) {
            if let Some(s) = self.free[c].pop() {
                self.free_total -= size;
                return s;
            }
        }
        // Else carve it from the smallest larger free run; the rest goes back in class pieces.
        if let Some(c) = (0..RUN_SIZES.len()).find(|&c| RUN_SIZES[c] as usize > size && !self.free[c].is_empty()) {
            let s = self.free[c].pop().unwrap();
            self.free_total -= size;
            let mut at = s + size as u32;
            let mut rest = RUN_SIZES[c] as usize - size;
            while rest > 0 {
                let k = (0..RUN_SIZES.len()).rev().find(|&k| RUN_SIZES[k] as usize <= rest).unwrap();
                self.free[k].push(at);
                at += RUN_SIZES[k] as u32;
                rest -= RUN_SIZES[k] as usize;
            }
            return s;
        }
        reserve_step(&mut self.edges, size);
        let start = self.edges.len() as u32;
        self.edges.resize(self.edges.len() + size, Edge::new(NIL, 0));
        if self.with_priors {
            reserve_step(&mut self.priors, size);
            self.priors.resize(self.edges.len(), 0.0);
        }
        start
    }

    /// Between iterations (no edge index held anywhere): when the edge arena is nearly full and
    /// an eighth of it is free room, slides the runs together instead of letting it grow (a UCT
    /// tree on Hex 11×11 held 23 % free room at a quarter: 62 bytes per node, 58 at an eighth).
    pub fn tidy(&mut self) {
        if self.edges.capacity() - self.edges.len() < 4096 && self.free_total * 8 >= self.edges.len() {
            self.compact_edges();
        }
    }

    /// Slides every run down over the free room (in arena order), empties the free lists.
    fn compact_edges(&mut self) {
        let mut runs: Vec<(u32, u32)> =
            self.nodes.iter().enumerate().filter(|(_, n)| n.edges != NIL).map(|(i, n)| (n.edges, i as u32)).collect();
        runs.sort_unstable();
        let mut at = 0usize;
        for (start, id) in runs {
            let cap = self.nodes[id as usize].cap as usize;
            let s = start as usize;
            if s != at {
                self.edges.copy_within(s..s + cap, at);
                if self.with_priors {
                    self.priors.copy_within(s..s + cap, at);
                }
            }
            self.nodes[id as usize].edges = at as u32;
            at += cap;
        }
        self.edges.truncate(at);
        if self.with_priors {
            self.priors.truncate(at);
        }
        self.free.iter_mut().for_each(|v| v.clear());
        self.free_total = 0;
    }

    /// Appends `edge` to `parent`'s run (growing the run when full) and returns the edge index.
    pub fn add_edge(&mut self, parent: u32, edge: Edge, prior: f32) -> u32 {
        let p = self.nodes[parent as usize];
        if p.n_children >= p.cap {
            let want = next_run_size(p.cap as usize);
            let limit = if p.n_legal == UNKNOWN { usize::MAX } else { p.n_legal as usize };
            let size = want.min(limit).max(p.n_children as usize + 1);
            let start = self.alloc_run(size);
            let len = p.n_children as usize;
            if len > 0 {
                let old = p.edges as usize;
                self.edges.copy_within(old..old + len, start as usize);
                if self.with_priors {
                    self.priors.copy_within(old..old + len, start as usize);
                }
                if let Some(c) = run_class(p.cap as usize) {
                    self.free[c].push(p.edges);
                    self.free_total += p.cap as usize;
                }
            }
            let pn = &mut self.nodes[parent as usize];
            pn.edges = start;
            pn.cap = size as u16;
        }
        let pn = &mut self.nodes[parent as usize];
        let i = pn.edges + pn.n_children as u32;
        pn.n_children += 1;
        self.edges[i as usize] = edge;
        if self.with_priors {
            self.priors[i as usize] = prior;
        }
        i
    }

    /// Replaces the children of `parent` by `kept` (edge copies, in order) in a fresh run.
    pub fn set_children(&mut self, parent: u32, kept: &[(Edge, f32)]) {
        let p = self.nodes[parent as usize];
        let len = kept.len();
        let (mut start, mut size) = (NIL, 0usize);
        if len > 0 {
            let limit = if p.n_legal == UNKNOWN { usize::MAX } else { p.n_legal as usize };
            size = RUN_SIZES.iter().map(|&s| s as usize).find(|&s| s >= len).unwrap_or(len).min(limit).max(len);
            start = self.alloc_run(size);
            for (j, &(e, pr)) in kept.iter().enumerate() {
                self.edges[start as usize + j] = e;
                if self.with_priors {
                    self.priors[start as usize + j] = pr;
                }
            }
        }
        let pn = &mut self.nodes[parent as usize];
        pn.edges = start;
        pn.n_children = len as u16;
        pn.cap = size as u16;
    }

    /// Edge slots held in free runs.
    pub fn free_slots(&self) -> usize {
        self.free_total
    }

    /// The edge indices of `id`'s children.
    #[inline]
    pub fn children(&self, id: u32) -> std::ops::Range<u32> {
        let n = &self.nodes[id as usize];
        if n.edges == NIL {
            0..0
        } else {
            n.edges..n.edges + n.n_children as u32
        }
    }

    /// The child node of edge `e`.
    #[inline(always)]
    pub fn child(&self, e: u32) -> u32 {
        self.edges[e as usize].child
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_pinned() {
        assert_eq!(std::mem::size_of::<Node>(), 24);
        assert_eq!(std::mem::size_of::<Edge>(), 20);
    }

    #[test]
    fn runs_grow_contiguously_and_reuse_freed_room() {
        let mut t = Tree::with_root(false, 0, false);
        t.nodes[0].n_legal = 5;
        for m in 0..5u16 {
            let c = t.push(Node::new());
            t.add_edge(0, Edge::new(c, m), 0.0);
        }
        let kids: Vec<u16> = t.children(0).map(|e| t.edges[e as usize].mv).collect();
        assert_eq!(kids, vec![0, 1, 2, 3, 4]);
        assert_eq!(t.nodes[0].n_children, 5);
        assert_eq!(t.nodes[0].cap, 5, "capped at the legal moves");
        // runs of 1, 2, 3 and 4 were freed; a second node reuses them as it grows
        let before = t.edges.len();
        t.nodes[1].n_legal = 3;
        for m in 0..3u16 {
            let c = t.push(Node::new());
            t.add_edge(1, Edge::new(c, m), 0.0);
        }
        assert_eq!(t.edges.len(), before, "freed runs reused");
        let kids: Vec<u16> = t.children(1).map(|e| t.edges[e as usize].mv).collect();
        assert_eq!(kids, vec![0, 1, 2]);
        assert_eq!(t.children(0).map(|e| t.edges[e as usize].mv).collect::<Vec<_>>(), vec![0, 1, 2, 3, 4]);
        // sliding the runs together keeps every child list and empties the free lists
        let live: usize = t.nodes.iter().map(|n| n.cap as usize).sum();
        t.compact_edges();
        assert_eq!(t.edges.len(), live);
        assert_eq!(t.free_slots(), 0);
        assert_eq!(t.children(0).map(|e| t.edges[e as usize].mv).collect::<Vec<_>>(), vec![0, 1, 2, 3, 4]);
        assert_eq!(t.children(1).map(|e| t.edges[e as usize].mv).collect::<Vec<_>>(), vec![0, 1, 2]);
        assert!(t.children(0).chain(t.children(1)).all(|e| t.edges[e as usize].child != NIL));
    }

    #[test]
    fn edge_sync_caches_ucb_terms() {
        let mut n = Node::new();
        n.n = 4;
        n.w = 3.0;
        let mut e = Edge::new(1, 0);
        assert!(e.k.is_infinite());
        e.sync(&n);
        assert_eq!((e.n, e.q, e.k), (4, 0.75, 0.5));
    }
}
