//! MCTS-Solver (Winands, Björnsson & Saito 2008): game-theoretic values backed up the tree.
//!
//! Proofs are stored per node from the view of the player who moved into it. A node is:
//! - a **loss** for that player when some child is a win for the player to move there;
//! - once every legal move has a child and every child is proven: a **draw** if the best
//!   child is a draw, a **win** if every child is a loss.
//!
//! Proven children are never selected again ("node closure"): with a proven-draw child the
//! unproven siblings keep being explored (they are the only ones selectable) until they are
//! proven too, so a draw proof completes — the failure mode of solvers that keep selecting the
//! draw child by its rollout average is impossible here. The search stops when the root is proven.

use crate::game::{Outcome, Player};
use crate::mcts::tree::{Proof, Tree};

/// The proof of a terminal position reached by a move of `mover`.
pub fn terminal_proof(o: Outcome, mover: Player) -> Proof {
    match o {
        Outcome::Win(p) if p == mover => Proof::Win,
        Outcome::Win(_) => Proof::Loss,
        Outcome::Draw => Proof::Draw,
    }
}

/// Recomputes the proof of node `id` from its children (see the module docs).
pub fn compute_proof(tree: &Tree, id: u32) -> Proof {
    let node = &tree.nodes[id as usize];
    let mut all_proven = true;
    let mut any_draw = false;
    for e in tree.children(id) {
        match tree.nodes[tree.child(e) as usize].proof() {
            Proof::Win => return Proof::Loss,
            Proof::Draw => any_draw = true,
            Proof::Loss => {}
            Proof::Unknown => all_proven = false,
        }
    }
    if !all_proven || node.n_legal == crate::mcts::tree::UNKNOWN || node.n_children < node.n_legal {
        return Proof::Unknown;
    }
    if any_draw {
        Proof::Draw
    } else {
        Proof::Win
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcts::tree::{Edge, Node};

    fn tree_with(children: &[Proof], n_legal: u16) -> Tree {
        let mut t = Tree::with_root(false, 0, false);
        t.nodes[0].n_legal = n_legal;
        for (i, &p) in children.iter().enumerate() {
            let mut n = Node::new();
            n.proof = p as u8;
            let id = t.push(n);
            t.add_edge(0, Edge::new(id, i as u16), 0.0);
        }
        t
    }

    #[test]
    fn proof_rules() {
        assert_eq!(compute_proof(&tree_with(&[Proof::Unknown, Proof::Win], 3), 0), Proof::Loss);
        assert_eq!(compute_proof(&tree_with(&[Proof::Loss, Proof::Draw], 2), 0), Proof::Draw);
        assert_eq!(compute_proof(&tree_with(&[Proof::Loss, Proof::Loss], 2), 0), Proof::Win);
        assert_eq!(compute_proof(&tree_with(&[Proof::Loss, Proof::Draw], 3), 0), Proof::Unknown, "a move not tried yet");
        assert_eq!(compute_proof(&tree_with(&[Proof::Draw, Proof::Unknown], 2), 0), Proof::Unknown);
        assert_eq!(terminal_proof(Outcome::Win(1), 1), Proof::Win);
        assert_eq!(terminal_proof(Outcome::Win(0), 1), Proof::Loss);
        assert_eq!(terminal_proof(Outcome::Draw, 0), Proof::Draw);
    }
}
