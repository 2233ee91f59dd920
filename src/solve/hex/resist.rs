//! Move ordering for the exact solver by circuit resistance (Anshelevich 2002, "A hierarchical
//! approach to computer Hex", Artificial Intelligence 134; the evaluation of Hexy and Six, and of
//! benzene's `Resistance.cpp`, which orders its DFPN solver's children by it).
//!
//! For each colour, the board is an electric circuit: the nodes are the colour's stone groups
//! (its two edges among them, merged with the stones that touch them) and the empty cells;
//! opponent stones are not in the circuit. Two adjacent nodes are joined by a conductance of 1
//! between two empty cells and 2 between a group and an empty cell (benzene's
//! `ConductanceValues`). One unit of current flows from the colour's first edge to its second
//! (grounded); the voltages solve the node equations G·V = I, and a cell's score for the colour
//! is the energy through it, |G_sink,i V_i| + Σⱼ |G_ij (V_i − V_j)|. A cell's score is the sum of
//! both colours' scores: a cell that carries much current for either player matters. Children
//! are searched best score first.
//!
//! With the colour's virtual connections (benzene's `ResistanceUtil::AddAdjacencies`), two nodes
//! joined by a full connection are linked too, with the conductance divided by 1 + the number of
//! cells every full between them needs (the intersection of their carriers): a bridge conducts
//! as well as an adjacency.

use crate::game::hex::position::{Pos, MAX_N};

/// Nodes of one circuit: at most the cells plus the two edges.
const MAX_NODES: usize = MAX_N * MAX_N + 2;

/// A tiny conductance from every node to the ground, so that a node cut off from both edges (an
/// empty cell walled in by the opponent) keeps the system non-singular; it changes the voltages
/// by about one part in 10⁹.
const LEAK: f64 = 1e-9;

/// Scores of the empty cells of `pos` (index = cell; occupied cells score 0): the sum over both
/// colours of the energy dissipated in the cell (see the module documentation).
pub(crate) fn scores(pos: &Pos) -> [f64; MAX_N * MAX_N] {
    let mut out = [0.0; MAX_N * MAX_N];
    for color in 0..2 {
        energy(pos, color, &mut out);
    }
    out
}

/// Adds `color`'s energies to `out`.
fn energy(pos: &Pos, color: usize, out: &mut [f64; MAX_N * MAX_N]) {
    energy_with(pos, color, None, out);
}

/// Adds `color`'s energies to `out`, on the circuit of adjacencies or, with `links`, of the
/// colour's full connections: (x, y, s) for endpoints x, y of [`VcBuilder`](super::vc::VcBuilder)
/// (a cell or a group's captain `0..n²`, the colour's edges `n²` and `n² + 1`) with a full
/// connection whose carriers all share `s` cells ([`full_links`](super::vc::VcBuilder::full_links)
/// of a build for `color` on `pos`). Adjacent endpoints have a full of empty carrier, so the
/// links include every adjacency.
pub(crate) fn energy_with(pos: &Pos, color: usize, links: Option<&[(u8, u8, u8)]>, out: &mut [f64; MAX_N * MAX_N]) {
    let geo = pos.geo();
    let cells = (pos.n as usize) * (pos.n as usize);
    let own = pos.stones[color];
    let empty = pos.empty();
    // Node of each cell (usize::MAX = not in the circuit). Node 0 = source (first edge), node 1 =
    // sink (second edge), then stone groups and empty cells.
    let mut node = [usize::MAX; MAX_N * MAX_N];
    let mut kind_empty = [false; MAX_NODES];
    let src = geo.flood(geo.edge[color][0] & own, own);
    let snk = geo.flood(geo.edge[color][1] & own, own);
    let mut count = 2;
    let mut rest = own;
    while rest != 0 {
        let c = rest.trailing_zeros() as usize;
        let group = geo.flood(1 << c, own);
        rest &= !group;
        let id = if group & src != 0 {
            0
        } else if group & snk != 0 {
            1
        } else {
            count += 1;
            count - 1
        };
        let mut g = group;
        while g != 0 {
            node[g.trailing_zeros() as usize] = id;
            g &= g - 1;
        }
    }
    let mut e = empty;
    while e != 0 {
        let c = e.trailing_zeros() as usize;
        e &= e - 1;
        node[c] = count;
        kind_empty[count] = true;
        count += 1;
    }
    // Conductance matrix over all nodes (the sink included), each adjacent pair counted once.
    let mut g = [[0.0f64; MAX_NODES]; MAX_NODES];
    let link = |a: usize, b: usize, shared: u8, g: &mut [[f64; MAX_NODES]; MAX_NODES]| {
        let c = if kind_empty[a] && kind_empty[b] { 1.0 } else { 2.0 } / (1.0 + shared as f64);
        if a == b || g[a][b] >= c {
            return;
        }
        g[a][b] = c;
        g[b][a] = c;
    };
    if let Some(links) = links {
        let end = |x: u8| match (x as usize).checked_sub(cells) {
            Some(e) => e,
            None => node[x as usize],
        };
        for &(x, y, s) in links {
            let (a, b) = (end(x), end(y));
            if a != usize::MAX && b != usize::MAX {
                link(a, b, s, &mut g);
            }
        }
    }
    for cell in 0..cells {
        if links.is_some() {
            break;
        }
        let a = node[cell];
        if a == usize::MAX {
            continue;
        }
        let mut nb = geo.nb[cell] & !pos.stones[color ^ 1];
        while nb != 0 {
            let d = nb.trailing_zeros() as usize;
            nb &= nb - 1;
            link(a, node[d], 0, &mut g);
        }
        for (edge, id) in [(0, 0), (1, 1)] {
            if geo.edge[color][edge] >> cell & 1 == 1 {
                link(a, id, 0, &mut g);
            }
        }
    }
    // Node equations for every node but the sink (index shift: node k ≥ 2 → k − 1, source → 0).
    let n = count - 1;
    let idx = |k: usize| if k == 0 { 0 } else { k - 1 };
    let mut m = vec![0.0f64; n * (n + 1)];
    for a in (0..count).filter(|&a| a != 1) {
        let i = idx(a);
        let mut diag = LEAK;
        for b in 0..count {
            let c = g[a][b];
            if c == 0.0 {
                continue;
            }
            diag += c;
            if b != 1 {
                m[i * (n + 1) + idx(b)] -= c;
            }
        }
        m[i * (n + 1) + i] += diag;
    }
    m[n] = 1.0; // one unit of current into the source
    let v = solve_dense(&mut m, n);
    let volt = |k: usize| if k == 1 { 0.0 } else { v[idx(k)] };
    for cell in 0..cells {
        if empty >> cell & 1 == 0 {
            continue;
        }
        let a = node[cell];
        let va = volt(a);
        let mut sum = 0.0;
        for (b, &c) in g[a][..count].iter().enumerate() {
            if c != 0.0 {
                sum += (c * (va - volt(b))).abs();
            }
        }
        out[cell] += sum;
    }
}

/// Solves the augmented `n × (n + 1)` system in `m` (row-major) by Gaussian elimination with
/// partial pivoting; returns the solution.
fn solve_dense(m: &mut [f64], n: usize) -> Vec<f64> {
    let w = n + 1;
    for col in 0..n {
        let piv = (col..n).max_by(|&a, &b| m[a * w + col].abs().total_cmp(&m[b * w + col].abs())).unwrap_or(col);
        if piv != col {
            for k in 0..w {
                m.swap(col * w + k, piv * w + k);
            }
        }
        let p = m[col * w + col];
        if p.abs() < 1e-300 {
            continue;
        }
        for r in col + 1..n {
            let f = m[r * w + col] / p;
            if f != 0.0 {
                for k in col..w {
                    m[r * w + k] -= f * m[col * w + k];
                }
            }
        }
    }
    let mut x = vec![0.0; n];
    for r in (0..n).rev() {
        let mut s = m[r * w + n];
        for k in r + 1..n {
            s -= m[r * w + k] * x[k];
        }
        let p = m[r * w + r];
        x[r] = if p.abs() < 1e-300 { 0.0 } else { s / p };
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_symmetric_under_the_180_degree_rotation() {
        let p = Pos::empty_board(5);
        let s = scores(&p);
        for c in 0..25 {
            assert!((s[c] - s[24 - c]).abs() < 1e-6 * s[c].max(1.0), "cell {c}");
        }
    }

    #[test]
    fn a_walled_in_cell_scores_nothing() {
        // White stones around b1's neighbours cut a1 off from Black's circuit and White's edges
        // still reach it; nothing panics and every score is finite.
        let mut p = Pos::empty_board(4);
        p.stones[1] = 1 << 1 | 1 << 4;
        let s = scores(&p);
        assert!(s.iter().all(|x| x.is_finite()));
    }
}
