//! The search tree: an arena (`Vec<Node>`) of compact nodes addressed by `u32` ids.
//!
//! Children are expanded lazily, one per visit, and linked through `first_child` /
//! `next_sibling`, so a node costs one arena slot only once it has been visited: no edge array
//! is allocated for the moves not yet tried. A node is 48 bytes (pinned by a test); the arena
//! grows by 25 % steps so the slack stays small (see [`Tree::bytes`]).
//!
//! With transpositions a position reached by a second path is linked into the second parent
//! through an *alias* entry (flag [`ALIAS`]) whose `first_child` holds the shared node's id; the
//! alias carries the edge's own visit count and AMAF statistics.

/// "No node" marker for `first_child` / `next_sibling`.
pub const NIL: u32 = u32::MAX;
/// `n_legal` not computed yet.
pub const UNKNOWN: u16 = u16::MAX;

/// Flag: this entry is an alias of a shared node (transpositions); `first_child` is the target.
pub const ALIAS: u8 = 1;
/// Flag: the position is terminal.
pub const TERMINAL: u8 = 2;
/// Flag: all children so far were expanded in the node's seeded affine order (see `search.rs`).
pub const AFFINE: u8 = 4;

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
    /// `"win"`, `"loss"`, `"draw"` or `None`.
    pub fn name(self) -> Option<&'static str> {
        match self {
            Proof::Win => Some("win"),
            Proof::Loss => Some("loss"),
            Proof::Draw => Some("draw"),
            Proof::Unknown => None,
        }
    }
}

/// One tree node (or, with [`ALIAS`], one extra edge to a shared node). 48 bytes.
///
/// Statistics are from the view of the player who made the move into the node (the player to
/// move at the parent): `w` is the sum of rewards in [0, 1], `n` the visits.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct Node {
    /// Sum of rewards (playouts through this node), mover-into's view.
    pub w: f64,
    /// Sum of AMAF rewards of this node's move seen from the parent.
    pub amaf_w: f64,
    /// Visit count n.
    pub n: u32,
    /// AMAF visit count.
    pub amaf_n: u32,
    /// First expanded child, or the shared node for an alias; [`NIL`] if none.
    pub first_child: u32,
    /// Next sibling in the parent's child list, [`NIL`] at the end.
    pub next_sibling: u32,
    /// Prior P of the move into this node (PUCT), 0 when unused.
    pub prior: f32,
    /// Dense index of the move into this node (0 for the root).
    pub mv: u16,
    /// Number of children expanded so far.
    pub n_children: u16,
    /// Number of legal moves (after the depth-2 root filter), [`UNKNOWN`] until first needed.
    pub n_legal: u16,
    /// [`Proof`] as a byte.
    pub proof: u8,
    /// [`ALIAS`], [`TERMINAL`].
    pub flags: u8,
}

impl Node {
    /// A fresh node for the move with dense index `mv`.
    #[inline]
    pub fn new(mv: u16) -> Node {
        Node {
            w: 0.0,
            amaf_w: 0.0,
            n: 0,
            amaf_n: 0,
            first_child: NIL,
            next_sibling: NIL,
            prior: 0.0,
            mv,
            n_children: 0,
            n_legal: UNKNOWN,
            proof: 0,
            flags: 0,
        }
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
    /// AMAF mean (0.5 when empty).
    #[inline]
    pub fn amaf_q(&self) -> f64 {
        if self.amaf_n == 0 {
            0.5
        } else {
            self.amaf_w / self.amaf_n as f64
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
    /// Whether this entry is an alias.
    #[inline]
    pub fn is_alias(&self) -> bool {
        self.flags & ALIAS != 0
    }
}

/// The arena.
#[derive(Clone, Debug, Default)]
pub struct Tree {
    /// All nodes; id 0 is the root.
    pub nodes: Vec<Node>,
}

impl Tree {
    /// A tree with only a root.
    pub fn with_root() -> Tree {
        let mut nodes = Vec::with_capacity(1024);
        nodes.push(Node::new(0));
        Tree { nodes }
    }

    /// Number of arena entries (nodes and aliases).
    #[inline]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Always false (there is a root).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Bytes held by the arena (capacity × node size).
    pub fn bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>()
    }

    /// Appends a node, growing the arena by 25 % steps (bounded slack), and returns its id.
    #[inline]
    pub fn push(&mut self, node: Node) -> u32 {
        if self.nodes.len() == self.nodes.capacity() {
            let extra = (self.nodes.len() / 4).max(1024);
            self.nodes.reserve_exact(extra);
        }
        let id = self.nodes.len() as u32;
        self.nodes.push(node);
        id
    }

    /// Links `child` as the new first child of `parent`.
    #[inline]
    pub fn link(&mut self, parent: u32, child: u32) {
        let p = &mut self.nodes[parent as usize];
        let old = p.first_child;
        p.first_child = child;
        p.n_children += 1;
        self.nodes[child as usize].next_sibling = old;
    }

    /// The node an entry stands for (the target of an alias, else itself).
    #[inline(always)]
    pub fn resolve(&self, id: u32) -> u32 {
        let n = &self.nodes[id as usize];
        if n.flags & ALIAS != 0 {
            n.first_child
        } else {
            id
        }
    }

    /// The child-list entries of a node (aliases not resolved).
    pub fn children(&self, id: u32) -> ChildIter<'_> {
        ChildIter { tree: self, next: self.nodes[id as usize].first_child }
    }
}

/// Iterator over the child-list entries of a node.
pub struct ChildIter<'a> {
    tree: &'a Tree,
    next: u32,
}

impl Iterator for ChildIter<'_> {
    type Item = u32;
    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.next == NIL {
            None
        } else {
            let id = self.next;
            self.next = self.tree.nodes[id as usize].next_sibling;
            Some(id)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_is_48_bytes() {
        assert_eq!(std::mem::size_of::<Node>(), 48);
    }

    #[test]
    fn link_and_iterate() {
        let mut t = Tree::with_root();
        let a = t.push(Node::new(3));
        let b = t.push(Node::new(5));
        t.link(0, a);
        t.link(0, b);
        let kids: Vec<u16> = t.children(0).map(|i| t.nodes[i as usize].mv).collect();
        assert_eq!(kids, vec![5, 3]);
        assert_eq!(t.nodes[0].n_children, 2);
    }
}
