//! The geometry of one board size: the board, column and edge masks and each cell's neighbour
//! set ([`Geo`]), with the set operations on them (grow, flood fill, joining an edge's reach set).

use super::Bits;

/// Masks of one board size.
#[derive(Debug)]
pub(crate) struct Geo<B> {
    pub(crate) n: u32,
    /// All n² cells.
    pub(crate) board: B,
    /// All cells but column 0 / but column n−1.
    pub(crate) not_first: B,
    pub(crate) not_last: B,
    /// `edge[p][0]`, `edge[p][1]`: player p's two edges (Black: top, bottom; White: left, right).
    pub(crate) edge: [[B; 2]; 2],
    /// `nb[cell]`: the neighbours of `cell` (without the cell itself).
    pub(crate) nb: Vec<B>,
}

impl<B: Bits> Geo<B> {
    pub(crate) fn build(n: usize) -> Geo<B> {
        let mut g = Geo { n: n as u32, board: B::ZERO, not_first: B::ZERO, not_last: B::ZERO, edge: [[B::ZERO; 2]; 2], nb: Vec::new() };
        for r in 0..n {
            for c in 0..n {
                let b = B::bit(r * n + c);
                g.board |= b;
                if c != 0 {
                    g.not_first |= b;
                } else {
                    g.edge[1][0] |= b;
                }
                if c != n - 1 {
                    g.not_last |= b;
                } else {
                    g.edge[1][1] |= b;
                }
                if r == 0 {
                    g.edge[0][0] |= b;
                }
                if r == n - 1 {
                    g.edge[0][1] |= b;
                }
            }
        }
        g.nb = (0..n * n).map(|c| g.grow(B::bit(c)) & !B::bit(c)).collect();
        g
    }

    /// Adds stone `cell` (already in `stones`) to the reach set `reach` of edge `edge` when it
    /// touches it, with the stones it joins; returns whether `reach` changed.
    #[inline(always)]
    pub(crate) fn join(&self, cell: usize, stones: B, reach: &mut B, edge: B) -> bool {
        let b = B::bit(cell);
        let nbc = self.nb[cell];
        if ((nbc & *reach) | (b & edge)).is_zero() {
            return false;
        }
        let outside = stones & !*reach;
        let more = nbc & outside;
        *reach |= if more.is_zero() { b } else { self.flood(b | more, outside) };
        true
    }

    /// [`Geo::join`] on the touch set alone: `touch` = `grow(reach) | edge` (the cells on or
    /// next to an edge's reach set), the reach set being `touch & stones` (every stone next to
    /// it or on the edge is connected to it). Stone `cell`, just added to `stones`, joins when
    /// it lies in `touch`: a stone that joins alone adds its neighbour mask, a merge adds the
    /// grown flood. Returns whether it joined.
    #[inline(always)]
    pub(crate) fn join_touch(&self, cell: usize, stones: B, touch: &mut B) -> bool {
        let b = B::bit(cell);
        if (*touch & b).is_zero() {
            return false;
        }
        let nbc = self.nb[cell];
        // The reach set before the stone, and the stones outside it (the new one among them).
        let outside = stones & !(*touch & (stones ^ b));
        let more = nbc & outside;
        if more.is_zero() {
            *touch |= nbc;
        } else {
            *touch |= self.grow(self.flood(b | more, outside));
        }
        true
    }

    /// `x` plus all its neighbours on the board.
    #[inline(always)]
    pub(crate) fn grow(&self, x: B) -> B {
        let n = self.n;
        let a = x & self.not_last; // may step to c+1
        let b = x & self.not_first; // may step to c−1
        (x | x.shl(n) | x.shr(n) | a.shl(1) | a.shr(n - 1) | b.shr(1) | b.shl(n - 1)) & self.board
    }

    /// The cells of `within` connected to `seed` (`seed ⊆ within`) inside `within`.
    #[inline(always)]
    pub(crate) fn flood(&self, seed: B, within: B) -> B {
        let mut r = seed;
        loop {
            let g = self.grow(r) & within;
            if g == r {
                return r;
            }
            r = g;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::bitset::W6;
    use super::*;

    #[test]
    fn geometry_grow_matches_neighbour_list() {
        for n in [1usize, 2, 5, 8, 11, 12, 19] {
            for cell in 0..n * n {
                let (r, c) = ((cell / n) as isize, (cell % n) as isize);
                let want: Vec<usize> = [(-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)]
                    .iter()
                    .map(|(dr, dc)| (r + dr, c + dc))
                    .filter(|&(rr, cc)| rr >= 0 && cc >= 0 && rr < n as isize && cc < n as isize)
                    .map(|(rr, cc)| rr as usize * n + cc as usize)
                    .collect();
                let check = |got: Vec<usize>| {
                    let mut w = want.clone();
                    w.push(cell);
                    w.sort();
                    assert_eq!(got, w, "n={n} cell={cell}");
                };
                let ones = |mut x: W6| {
                    let mut v = vec![];
                    while x.any() {
                        v.push(x.lowest());
                        x = x.without_lowest();
                    }
                    v
                };
                check(ones(W6::geo(n).grow(W6::bit(cell))));
                if n <= 11 {
                    let g = u128::geo(n).grow(u128::bit(cell));
                    check((0..128).filter(|&i| g.test(i)).collect());
                }
                if n <= 8 {
                    let g = u64::geo(n).grow(u64::bit(cell));
                    check((0..64).filter(|&i| g.test(i)).collect());
                }
            }
        }
    }
}
