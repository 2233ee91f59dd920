//! Virtual connections for the exact solver, by H-search (Anshelevich 2002, "A hierarchical
//! approach to computer Hex", Artificial Intelligence 134).
//!
//! A *virtual connection* (VC) of one colour between two endpoints x and y is a set of empty
//! cells, its *carrier*, inside which the colour can join x and y whatever the opponent does,
//! the opponent playing only inside the carrier and the colour answering inside it:
//! - a *full* connection holds with the opponent to move (the colour moves second);
//! - a *semi*-connection holds with the colour to move; it has a *key*, the cell to play first.
//!
//! Endpoints are small ids: a cell `0..n²` (an empty cell, or a stone group of the colour by its
//! lowest cell, its captain) and the colour's two edges at `n²` and `n² + 1`. Opponent stones are
//! walls. An empty endpoint counts as the colour's stone (a VC x–y between empty cells says what
//! the colour gets once it holds both). Carriers hold only empty cells, never their endpoints.
//!
//! H-search builds them bottom-up (Anshelevich 2002, section 3):
//! - base: adjacent endpoints are fully connected with the empty carrier;
//! - the AND rule: fulls x–z (carrier A) and z–y (carrier B) with A ∩ B = ∅, x ∉ B and y ∉ A
//!   give, through an empty cell z, a semi x–y with carrier A ∪ B ∪ {z} and key z (the colour
//!   plays z, then both fulls hold); through a stone group z, a full x–y with carrier A ∪ B. There
//!   is no AND through an edge (two cells touching the same edge are not joined by it);
//! - the OR rule: semis x–y whose carriers have an empty common intersection give a full x–y
//!   with the union of their carriers (wherever the opponent plays, one of the semis survives
//!   and the colour plays its key). As benzene's old builder (`max_ors = 4`), a new semi is
//!   combined with at most three semis already known for its pair.
//!
//! Each endpoint pair keeps at most [`FULL_CAP`] fulls and [`SEMI_CAP`] semis (when a list is
//! full, a smaller carrier replaces its largest). A new connection whose carrier is a superset of
//! a known one of the same kind (or of a known full, for a semi) is dropped, and a new full
//! removes the known semis and fulls that are supersets of it. As benzene's defaults
//! (`limit_fulls`, `limit_or` in its `VCS.cpp`), a new full that removes no known full is kept
//! only if it does not contain the intersection of the pair's fulls, and a pair's semis are ORed
//! only once they have an empty common intersection. The work queue ANDs each new full at both
//! its ends; semis are ORed as they arrive. So a build is bounded; every connection reported is
//! sound (each is derived by the rules above), while some are missed. The solver reads the
//! edge-to-edge lists ([`EdgeVcs`]).

use super::position::{Pos, MAX_N};

/// Endpoint ids: the cells of an 8×8 board and the two edges.
const MAX_ENDS: usize = MAX_N * MAX_N + 2;
/// Unordered endpoint pairs (x < y).
const MAX_PAIRS: usize = MAX_ENDS * (MAX_ENDS - 1) / 2;
/// The most full connections kept per endpoint pair.
pub(crate) const FULL_CAP: usize = 16;
/// The most semi-connections kept per endpoint pair.
pub(crate) const SEMI_CAP: usize = 32;
/// The most semis one OR combines (the new one among them), benzene's old `max_ors`.
const MAX_OR: usize = 4;
/// No endpoint (an opponent stone).
const NONE: u8 = u8::MAX;

/// Index of the unordered pair {x, y} (x ≠ y).
#[inline(always)]
fn pair(x: usize, y: usize) -> usize {
    let (a, b) = if x < y { (x, y) } else { (y, x) };
    b * (b - 1) / 2 + a
}

/// Edge-to-edge virtual connections of one colour on a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) struct EdgeVcs {
    /// The smallest carrier (empty cells) found of an edge-to-edge full connection (the colour
    /// connects its edges even moving second), if any.
    pub full: Option<u64>,
    /// The smallest semi-connection found (connects moving first): (carrier including the key,
    /// key cell), if any.
    pub semi: Option<(u64, u8)>,
    /// The intersection of the carriers (keys included) of all edge-to-edge semi-connections
    /// found; all board cells when none was found.
    pub semi_intersection: u64,
}

/// H-search for one colour at a time, with buffers reused from build to build (no allocation
/// per build once the work queue has grown to its working size).
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) struct VcBuilder {
    /// Board side of the last build.
    n: usize,
    /// The colour of the last build.
    color: usize,
    /// The position of the last build.
    pos: Pos,
    /// Endpoint of each cell: the cell itself when empty, its group's captain for the colour's
    /// stones, [`NONE`] for the opponent's.
    end_of: [u8; 64],
    /// Each endpoint's cells (a group's stones, an empty cell's bit, an edge's cells).
    cells_of: [u64; MAX_ENDS],
    /// `full_nb[x]`: the endpoints y with at least one full x–y known (bit y).
    full_nb: [u128; MAX_ENDS],
    /// `adj[x]`: the endpoints y with a full x–y of empty carrier (adjacent), which no derived
    /// connection x–y can improve on.
    adj: [u128; MAX_ENDS],
    /// Fulls per pair: `full_len[p]` carriers at `full[p * FULL_CAP..]`.
    full_len: Vec<u8>,
    full: Vec<u64>,
    /// `full_inter[p]`: the intersection of the fulls of pair `p` (meaningful when it has any).
    full_inter: Vec<u64>,
    /// Semis per pair: `semi_len[p]` carriers at `semi[p * SEMI_CAP..]`, keys in `semi_key`.
    semi_len: Vec<u8>,
    semi: Vec<u64>,
    semi_key: Vec<u8>,
    /// New fulls not yet ANDed: (x, y, carrier).
    queue: Vec<(u8, u8, u64)>,
    /// Fulls found by one OR search, added after it.
    or_out: Vec<u64>,
    /// The caps in use (at most [`FULL_CAP`], [`SEMI_CAP`]).
    full_cap: usize,
    semi_cap: usize,
    /// The largest carrier (cells) kept for a connection between two cells (connections with
    /// an edge are not limited).
    max_inner: u32,
    /// The OR search's candidates: suffix intersections of the pair's semis (the new one left
    /// out), `or_suffix[i]` = the intersection of semis `i..`.
    or_suffix: [u64; SEMI_CAP + 1],
    /// Work counters (test builds): queue items ANDed, AND pairs tried, semis offered, semis
    /// kept, OR search nodes, fulls offered.
    #[cfg(test)]
    stats: [u64; 8],
}

#[cfg_attr(not(test), allow(dead_code))]
impl VcBuilder {
    /// A builder with its lists allocated for boards up to 8×8.
    pub fn new() -> VcBuilder {
        VcBuilder {
            n: 0,
            color: 0,
            pos: Pos::empty_board(1),
            end_of: [NONE; 64],
            cells_of: [0; MAX_ENDS],
            full_nb: [0; MAX_ENDS],
            adj: [0; MAX_ENDS],
            full_len: vec![0; MAX_PAIRS],
            full: vec![0; MAX_PAIRS * FULL_CAP],
            full_inter: vec![0; MAX_PAIRS],
            semi_len: vec![0; MAX_PAIRS],
            semi: vec![0; MAX_PAIRS * SEMI_CAP],
            semi_key: vec![0; MAX_PAIRS * SEMI_CAP],
            queue: Vec::with_capacity(4096),
            or_out: Vec::with_capacity(64),
            full_cap: FULL_CAP,
            semi_cap: SEMI_CAP,
            max_inner: 64,
            or_suffix: [0; SEMI_CAP + 1],
            #[cfg(test)]
            stats: [0; 8],
        }
    }

    /// A builder keeping at most `fulls` fulls and `semis` semis per pair (1..=[`FULL_CAP`],
    /// 1..=[`SEMI_CAP`]) and, between two cells, only carriers of at most `max_inner` cells.
    pub fn with_caps(fulls: usize, semis: usize, max_inner: u32) -> VcBuilder {
        let mut b = VcBuilder::new();
        b.max_inner = max_inner;
        b.full_cap = fulls.clamp(1, FULL_CAP);
        b.semi_cap = semis.clamp(1, SEMI_CAP);
        b
    }

    /// H-search for `color` on `pos` (opponent stones are walls; `color`'s stone groups, empty
    /// cells and its two edges are the endpoints); returns the edge-to-edge connections found.
    pub fn build(&mut self, pos: &Pos, color: usize) -> EdgeVcs {
        let g = pos.geo();
        let n = pos.n as usize;
        let cells = n * n;
        let ends = cells + 2;
        self.n = n;
        self.color = color;
        self.pos = *pos;
        let pairs = ends * (ends - 1) / 2;
        self.full_len[..pairs].fill(0);
        self.semi_len[..pairs].fill(0);
        self.full_nb[..ends].fill(0);
        self.adj[..ends].fill(0);
        self.cells_of[..ends].fill(0);
        self.queue.clear();

        let own = pos.stones[color];
        let empty = pos.empty();
        self.end_of = [NONE; 64];
        let mut rest = own;
        while rest != 0 {
            let c = rest.trailing_zeros() as usize;
            let group = g.flood(1 << c, own);
            rest &= !group;
            self.cells_of[c] = group;
            let mut m = group;
            while m != 0 {
                self.end_of[m.trailing_zeros() as usize] = c as u8;
                m &= m - 1;
            }
        }
        let mut m = empty;
        while m != 0 {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            self.end_of[c] = c as u8;
            self.cells_of[c] = 1 << c;
        }
        self.cells_of[cells] = g.edge[color][0];
        self.cells_of[cells + 1] = g.edge[color][1];

        // Base: adjacent endpoints (a group's neighbours are empty cells or walls, since adjacent
        // stones of one colour are one group).
        let mut m = empty;
        while m != 0 {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            let mut nb = g.nb[c] & (empty | own);
            while nb != 0 {
                let d = nb.trailing_zeros() as usize;
                nb &= nb - 1;
                let e = self.end_of[d] as usize;
                if (d > c || own >> d & 1 == 1) && self.full_len[pair(c, e)] == 0 {
                    self.add_full(c, e, 0);
                }
            }
        }
        for e in 0..2 {
            let edge = g.edge[color][e];
            let mut m = edge & (empty | own);
            while m != 0 {
                let c = m.trailing_zeros() as usize;
                m &= m - 1;
                let x = self.end_of[c] as usize;
                if self.full_len[pair(x, cells + e)] == 0 {
                    self.add_full(x, cells + e, 0);
                }
            }
        }

        // The work queue: each new full is ANDed with the fulls at both its ends; semis are ORed
        // as they are added.
        let mut next = 0;
        while next < self.queue.len() {
            let (x, y, c) = self.queue[next];
            next += 1;
            let (x, y) = (x as usize, y as usize);
            // Skip a full removed since (a subset or a smaller carrier replaced it).
            let p = pair(x, y);
            if !self.full[p * FULL_CAP..p * FULL_CAP + self.full_len[p] as usize].contains(&c) {
                continue;
            }
            #[cfg(test)]
            {
                self.stats[0] += 1;
            }
            self.and_at(y, x, c);
            self.and_at(x, y, c);
        }
        if self.queue.capacity() > 1 << 16 {
            // Keep the retained buffer bounded after a pathological build.
            self.queue = Vec::with_capacity(4096);
        }
        self.edge_vcs()
    }

    /// The edge-to-edge summary of the last build.
    fn edge_vcs(&self) -> EdgeVcs {
        let cells = self.n * self.n;
        let p = pair(cells, cells + 1);
        let full = self.fulls_at(p).iter().copied().min_by_key(|c| c.count_ones());
        let (semis, keys) = self.semis_at(p);
        let mut semi: Option<(u64, u8)> = None;
        let mut inter = self.pos.board();
        for (&s, &k) in semis.iter().zip(keys) {
            inter &= s;
            if semi.is_none_or(|(b, _)| s.count_ones() < b.count_ones()) {
                semi = Some((s, k));
            }
        }
        EdgeVcs { full, semi, semi_intersection: inter }
    }

    /// The bit of endpoint `x` when it is a cell (edges are in no carrier).
    #[inline(always)]
    fn bit(&self, x: usize) -> u64 {
        if x < self.n * self.n {
            1 << x
        } else {
            0
        }
    }

    /// The AND rule with pivot `z` for the new full `x`–`z` of carrier `c`: every full `z`–`w`
    /// of carrier `d` disjoint from `c` (with `x ∉ d`, `w ∉ c`) gives a semi `x`–`w` with key `z`
    /// when `z` is empty, a full when `z` is a stone group, nothing when `z` is an edge.
    fn and_at(&mut self, x: usize, z: usize, c: u64) {
        let cells = self.n * self.n;
        if z >= cells {
            return;
        }
        let z_empty = self.pos.stones[self.color] >> z & 1 == 0;
        let xb = self.bit(x);
        // The partners w ≠ x outside c (cell ids are their bits), not adjacent to x.
        let mut ws = self.full_nb[z] & !(1u128 << x) & !(c as u128) & !self.adj[x];
        while ws != 0 {
            let w = ws.trailing_zeros() as usize;
            ws &= ws - 1;
            #[cfg(test)]
            {
                self.stats[6] += 1;
            }
            let p = pair(z, w);
            // Every full z–w contains the list's intersection: none is disjoint from c (or
            // avoids x) when the intersection is not.
            if self.full_inter[p] & (c | xb) != 0 {
                #[cfg(test)]
                {
                    self.stats[7] += 1;
                }
                continue;
            }
            let base = p * FULL_CAP;
            let mut i = 0;
            // `add_semi`/`add_full` on x–w never change the list z–w (x ≠ z), but read its length
            // each time anyway.
            while i < self.full_len[p] as usize {
                let d = self.full[base + i];
                i += 1;
                #[cfg(test)]
                {
                    self.stats[1] += 1;
                }
                if d & c != 0 || d & xb != 0 {
                    continue;
                }
                if z_empty {
                    self.add_semi(x, w, c | d | 1 << z, z as u8);
                } else {
                    self.add_full(x, w, c | d);
                }
            }
        }
    }

    /// Adds the full `x`–`y` of carrier `c` unless a known full is a subset of it, or (as
    /// benzene's `AndList::TryAdd` with `limit_fulls`) it removes no known full and contains the
    /// intersection of the known ones (so it would not shrink what every full of the pair
    /// needs); removes the fulls and semis that are supersets of it; queues it for the AND rule.
    fn add_full(&mut self, x: usize, y: usize, c: u64) -> bool {
        #[cfg(test)]
        {
            self.stats[5] += 1;
        }
        let cells = self.n * self.n;
        if c.count_ones() > self.max_inner && x < cells && y < cells {
            return false;
        }
        let p = pair(x, y);
        let base = p * FULL_CAP;
        let len = self.full_len[p] as usize;
        let list = &mut self.full[base..base + len];
        if list.iter().any(|&f| f & !c == 0) {
            return false;
        }
        let mut j = 0;
        for i in 0..len {
            let f = list[i];
            if c & !f != 0 {
                list[j] = f;
                j += 1;
            }
        }
        if j == len && len > 0 && self.full_inter[p] & !c == 0 {
            return false;
        }
        if j == self.full_cap {
            // Replace the largest carrier when the new one is smaller.
            let (k, big) = list.iter().enumerate().max_by_key(|(_, f)| f.count_ones()).map(|(k, f)| (k, f.count_ones())).unwrap();
            if c.count_ones() >= big {
                return false;
            }
            list[k] = c;
        } else {
            self.full[base + j] = c;
            j += 1;
        }
        self.full_len[p] = j as u8;
        self.full_inter[p] = self.full[base..base + j].iter().fold(!0, |a, &f| a & f);
        // Semis that are supersets of the new full are useless.
        let sbase = p * SEMI_CAP;
        let slen = self.semi_len[p] as usize;
        let mut k = 0;
        for i in 0..slen {
            let s = self.semi[sbase + i];
            if c & !s != 0 {
                self.semi[sbase + k] = s;
                self.semi_key[sbase + k] = self.semi_key[sbase + i];
                k += 1;
            }
        }
        self.semi_len[p] = k as u8;
        self.full_nb[x] |= 1 << y;
        self.full_nb[y] |= 1 << x;
        if c == 0 {
            self.adj[x] |= 1 << y;
            self.adj[y] |= 1 << x;
        }
        self.queue.push((x as u8, y as u8, c));
        true
    }

    /// Adds the semi `x`–`y` of carrier `c` (key included) and key `key` unless a known full or
    /// semi is a subset of it; removes the semis that are supersets of it; then the OR rule
    /// combines it with up to `MAX_OR − 1` known semis of the pair.
    fn add_semi(&mut self, x: usize, y: usize, c: u64, key: u8) {
        #[cfg(test)]
        {
            self.stats[2] += 1;
        }
        let cells = self.n * self.n;
        if c.count_ones() > self.max_inner && x < cells && y < cells {
            return;
        }
        let p = pair(x, y);
        let fbase = p * FULL_CAP;
        // A full inside c holds the fulls' intersection: scan only when c does too.
        let flen = self.full_len[p] as usize;
        if flen > 0 && self.full_inter[p] & !c == 0 && self.full[fbase..fbase + flen].iter().any(|&f| f & !c == 0) {
            return;
        }
        let base = p * SEMI_CAP;
        let len = self.semi_len[p] as usize;
        let mut sup = false;
        for &s in &self.semi[base..base + len] {
            if s & !c == 0 {
                return;
            }
            sup |= c & !s == 0;
        }
        let mut j = len;
        if sup {
            j = 0;
            for i in 0..len {
                let s = self.semi[base + i];
                if c & !s != 0 {
                    self.semi[base + j] = s;
                    self.semi_key[base + j] = self.semi_key[base + i];
                    j += 1;
                }
            }
        }
        let at = if j == self.semi_cap {
            let list = &self.semi[base..base + j];
            let (k, big) = list.iter().enumerate().max_by_key(|(_, s)| s.count_ones()).map(|(k, s)| (k, s.count_ones())).unwrap();
            if c.count_ones() >= big {
                self.semi_len[p] = j as u8;
                return;
            }
            k
        } else {
            j += 1;
            j - 1
        };
        #[cfg(test)]
        {
            self.stats[3] += 1;
        }
        self.semi[base + at] = c;
        self.semi_key[base + at] = key;
        self.semi_len[p] = j as u8;

        // OR: the new semi with up to MAX_OR − 1 others whose carriers meet c's nowhere in common;
        // none when all the pair's semis share a cell (as benzene, which ORs a list only once its
        // intersection is empty).
        if self.semi[base..base + j].iter().fold(!0, |a, &s| a & s) != 0 {
            return;
        }
        self.or_out.clear();
        // Suffix intersections of the other semis, to stop a branch that cannot reach an empty
        // intersection; and (benzene's `limit_or`) a branch whose union already holds the
        // intersection of the pair's fulls would only give a full `add_full` refuses.
        let mut acc = !0u64;
        self.or_suffix[j] = acc;
        for i in (0..j).rev() {
            if i != at {
                acc &= self.semi[base + i];
            }
            self.or_suffix[i] = acc;
        }
        let fi = if self.full_len[p] > 0 { self.full_inter[p] } else { 0 };
        self.or_search(base, j, at, 0, c, c, 1, fi);
        for k in 0..self.or_out.len() {
            let u = self.or_out[k];
            self.add_full(x, y, u);
        }
    }

    /// The OR search: semis `from..len` of the list at `base` (skipping `skip`, the new one)
    /// added to a combination of intersection `inter` and union `union` of `count` semis; each
    /// combination with an empty intersection goes to `or_out`. A semi is only taken when it
    /// shrinks the intersection; a branch stops when the remaining semis cannot empty the
    /// intersection, or when its union contains `fi` (non-empty: the pair's full intersection).
    #[allow(clippy::too_many_arguments)]
    fn or_search(&mut self, base: usize, len: usize, skip: usize, from: usize, inter: u64, union: u64, count: usize, fi: u64) {
        for i in from..len {
            if inter & self.or_suffix[i] != 0 {
                return;
            }
            if i == skip {
                continue;
            }
            #[cfg(test)]
            {
                self.stats[4] += 1;
            }
            let s = self.semi[base + i];
            let ni = inter & s;
            if ni == inter {
                continue;
            }
            let nu = union | s;
            if fi != 0 && fi & !nu == 0 {
                continue;
            }
            if ni == 0 {
                self.or_out.push(nu);
            } else if count + 1 < MAX_OR {
                self.or_search(base, len, skip, i + 1, ni, nu, count + 1, fi);
            }
        }
    }

    /// The fulls of pair index `p`.
    fn fulls_at(&self, p: usize) -> &[u64] {
        &self.full[p * FULL_CAP..p * FULL_CAP + self.full_len[p] as usize]
    }

    /// The semis of pair index `p`: carriers and keys.
    fn semis_at(&self, p: usize) -> (&[u64], &[u8]) {
        let r = p * SEMI_CAP..p * SEMI_CAP + self.semi_len[p] as usize;
        (&self.semi[r.clone()], &self.semi_key[r])
    }

    /// The full carriers known between endpoints `x` and `y` after the last build.
    pub fn fulls(&self, x: usize, y: usize) -> &[u64] {
        self.fulls_at(pair(x, y))
    }

    /// The semis known between endpoints `x` and `y` after the last build: carriers (keys
    /// included) and keys.
    pub fn semis(&self, x: usize, y: usize) -> (&[u64], &[u8]) {
        self.semis_at(pair(x, y))
    }

    /// The endpoint id of `cell` in the last build (the cell when empty, its group's captain for
    /// a stone of the colour), `None` for an opponent stone.
    pub fn endpoint_of(&self, cell: usize) -> Option<usize> {
        let e = self.end_of[cell];
        (e != NONE).then_some(e as usize)
    }
}

impl Default for VcBuilder {
    fn default() -> Self {
        VcBuilder::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::hex::Hex;
    use crate::game::hex_solve::{solve, SolveLimits};
    use crate::game::Game;
    use crate::rng::Rng64;
    use std::collections::HashMap;

    /// The brute-force definition of a VC, independent of the builder: with only the cells of
    /// `carrier` playable (by both sides), does `color` end with endpoints `x` and `y` joined by
    /// its stones, moving first (`first`, a semi) or second (a full)? Empty endpoints count as
    /// the colour's stones. Moves outside the cells still connectable to `x` change nothing
    /// (Hex is monotone: an extra stone never hurts its owner) and are not tried.
    fn holds(pos: &Pos, color: usize, x: usize, y: usize, carrier: u64, first: bool) -> bool {
        let g = pos.geo();
        let cells = pos.n as usize * pos.n as usize;
        assert_eq!(carrier & !pos.empty(), 0, "carrier {carrier:#x} holds a stone");
        let end_bit = |e: usize| if e < cells { 1u64 << e } else { 0 };
        assert_eq!(carrier & (end_bit(x) | end_bit(y)), 0, "carrier holds an endpoint");
        let mask = |e: usize| if e < cells { 1u64 << e } else { g.edge[color][e - cells] };
        let own = pos.stones[color] | (end_bit(x) | end_bit(y));
        let (sx, ty) = (mask(x), mask(y));
        let mut memo = HashMap::new();
        fn win(
            g: &crate::game::hex::Geo<u64>,
            sx: u64,
            ty: u64,
            own: u64,
            free: u64,
            mine: bool,
            memo: &mut HashMap<(u64, u64, bool), bool>,
        ) -> bool {
            if g.flood(sx & own, own) & ty != 0 {
                return true;
            }
            let open = own | free;
            let region = g.flood(sx & open, open);
            if region & ty == 0 {
                return false;
            }
            if let Some(&v) = memo.get(&(own, free, mine)) {
                return v;
            }
            let mut moves = free & region;
            let mut v = !mine;
            while moves != 0 {
                let b = moves & moves.wrapping_neg();
                moves &= moves - 1;
                let r = if mine { win(g, sx, ty, own | b, free & !b, false, memo) } else { win(g, sx, ty, own, free & !b, true, memo) };
                if r == mine {
                    v = mine;
                    break;
                }
            }
            memo.insert((own, free, mine), v);
            v
        }
        win(g, sx, ty, own, carrier, first, &mut memo)
    }

    /// A random position of side `n` after `plies` random moves, or `None` when the game ended.
    fn random_pos(rng: &mut Rng64, n: usize, plies: usize) -> Option<Pos> {
        let mut p = Pos::empty_board(n);
        for _ in 0..plies {
            let e = p.empty();
            if e == 0 {
                return None;
            }
            let cell = pick(rng, e);
            p = p.play(cell);
            if p.connected(0) || p.connected(1) {
                return None;
            }
        }
        Some(p)
    }

    /// A uniformly random cell of the non-empty set `s`.
    fn pick(rng: &mut Rng64, s: u64) -> usize {
        let mut k = rng.index(s.count_ones() as usize);
        let mut m = s;
        while k > 0 {
            m &= m - 1;
            k -= 1;
        }
        m.trailing_zeros() as usize
    }

    /// Checks every edge-to-edge VC of the last build, and up to `inner` inner VCs of random
    /// pairs, by brute force (carriers up to 16 cells). Returns the number checked.
    fn check_build(b: &VcBuilder, pos: &Pos, color: usize, rng: &mut Rng64, inner: usize) -> usize {
        let cells = pos.n as usize * pos.n as usize;
        let mut checked = 0;
        let (e0, e1) = (cells, cells + 1);
        for &f in b.fulls(e0, e1) {
            if f.count_ones() <= 14 {
                assert!(holds(pos, color, e0, e1, f, false), "edge full {f:#x} of {color} fails on {pos:?}");
                checked += 1;
            }
        }
        let (semis, keys) = b.semis(e0, e1);
        for (&s, &k) in semis.iter().zip(keys) {
            assert!(s >> k & 1 == 1, "key outside its carrier");
            if s.count_ones() <= 14 {
                assert!(holds(pos, color, e0, e1, s, true), "edge semi {s:#x} of {color} fails on {pos:?}");
                // The key wins: after it, a full with the rest.
                let mut after = *pos;
                after.stones[color] |= 1 << k;
                assert!(holds(&after, color, e0, e1, s & !(1 << k), false), "semi key {k} fails on {pos:?}");
                checked += 1;
            }
        }
        // Inner VCs between random endpoints.
        let ends: Vec<usize> = (0..cells).filter(|&c| b.endpoint_of(c) == Some(c)).chain([e0, e1]).collect();
        for _ in 0..inner {
            let x = ends[rng.index(ends.len())];
            let y = ends[rng.index(ends.len())];
            if x == y {
                continue;
            }
            for &f in b.fulls(x, y) {
                if f.count_ones() <= 10 {
                    assert!(holds(pos, color, x, y, f, false), "full {x}-{y} {f:#x} of {color} fails on {pos:?}");
                    checked += 1;
                }
            }
            let (semis, _) = b.semis(x, y);
            for &s in semis {
                if s.count_ones() <= 10 {
                    assert!(holds(pos, color, x, y, s, true), "semi {x}-{y} {s:#x} of {color} fails on {pos:?}");
                    checked += 1;
                }
            }
        }
        checked
    }

    #[test]
    fn reported_vcs_hold_by_brute_force_on_random_positions() {
        let mut rng = Rng64::new(7);
        let mut b = VcBuilder::new();
        let mut checked = 0;
        let mut edge_found = 0;
        for n in 3..=6 {
            let mut done = 0;
            while done < 60 {
                let plies = rng.index(n * n * 2 / 3 + 1);
                let Some(pos) = random_pos(&mut rng, n, plies) else { continue };
                done += 1;
                for color in 0..2 {
                    let v = b.build(&pos, color);
                    let (semis, _) = b.semis(n * n, n * n + 1);
                    if semis.is_empty() {
                        assert_eq!(v.semi_intersection, pos.board());
                        assert_eq!(v.semi, None);
                    }
                    for &s in semis {
                        assert_eq!(v.semi_intersection & !s, 0, "intersection not inside a semi");
                    }
                    assert_eq!(v.full, b.fulls(n * n, n * n + 1).iter().copied().min_by_key(|c| c.count_ones()));
                    edge_found += (v.full.is_some() || v.semi.is_some()) as usize;
                    checked += check_build(&b, &pos, color, &mut rng, 6);
                }
            }
        }
        assert!(edge_found > 50, "only {edge_found} edge-to-edge VCs found");
        assert!(checked > 500, "only {checked} VCs checked");
    }

    /// Mover-wins by a plain memoised negamax on [`Pos`] (the definition, no knowledge): a
    /// position where the opponent already connected is lost.
    fn exact(p: Pos, memo: &mut HashMap<[u64; 2], bool>) -> bool {
        let m = p.to_move as usize;
        if p.connected(1 - m) {
            return false;
        }
        if p.winning_cells(m) != 0 {
            return true;
        }
        if let Some(&v) = memo.get(&p.stones) {
            return v;
        }
        let threats = p.winning_cells(1 - m);
        let v = if threats.count_ones() >= 2 {
            false
        } else {
            let mut moves = if threats != 0 { threats } else { p.empty() };
            let mut v = false;
            while moves != 0 {
                let c = moves.trailing_zeros() as usize;
                moves &= moves - 1;
                if !exact(p.play(c), memo) {
                    v = true;
                    break;
                }
            }
            v
        };
        memo.insert(p.stones, v);
        v
    }

    /// The knowledge the solver draws from a build against exact values: a full of the
    /// opponent loses, a full or semi of the mover wins, and a won position has a winning move
    /// inside the must-play region.
    fn agree_with_exact(n: usize, plies: std::ops::Range<usize>, count: usize, seed: u64) -> [usize; 3] {
        let mut rng = Rng64::new(seed);
        let mut b = VcBuilder::new();
        let mut memo = HashMap::new();
        let mut stats = [0; 3];
        let mut done = 0;
        while done < count {
            let k = plies.start + rng.index(plies.len());
            let Some(pos) = random_pos(&mut rng, n, k) else { continue };
            done += 1;
            if memo.len() > 1 << 21 {
                memo.clear();
            }
            let m = pos.to_move as usize;
            let mine = b.build(&pos, m);
            let theirs = b.build(&pos, 1 - m);
            let wins = exact(pos, &mut memo);
            if mine.full.is_some() || mine.semi.is_some() {
                assert!(wins, "mover's VC but the mover loses: {pos:?} {mine:?}");
                stats[0] += 1;
            }
            if theirs.full.is_some() {
                assert!(!wins, "opponent's full but the mover wins: {pos:?} {theirs:?}");
                stats[1] += 1;
            }
            if let Some((s, k)) = mine.semi {
                assert!(!exact(pos.play(k as usize), &mut memo), "the semi's key {k} does not win: {pos:?} {s:#x}");
            }
            if wins {
                let region = pos.empty() & theirs.semi_intersection;
                let mut moves = region;
                let mut found = false;
                while moves != 0 && !found {
                    let c = moves.trailing_zeros() as usize;
                    moves &= moves - 1;
                    found = !exact(pos.play(c), &mut memo);
                }
                assert!(found, "no winning move in the must-play region {region:#x}: {pos:?}");
                stats[2] += (region != pos.empty()) as usize;
            }
        }
        stats
    }

    /// The test-local [`exact`] agrees with the crate's oracle, [`hex_solve::solve`](solve), on
    /// random 4×4 positions, and the builder's claims agree with the oracle there.
    #[test]
    fn claims_agree_with_the_oracle_on_4x4() {
        let mut rng = Rng64::new(3);
        let mut b = VcBuilder::new();
        let mut memo = HashMap::new();
        let mut claims = 0;
        for _ in 0..200 {
            let mut g = Hex::new(4, false).unwrap();
            for _ in 0..rng.index(10) {
                if g.outcome().is_some() {
                    break;
                }
                let mut moves = crate::game::MoveList::new();
                g.legal_moves(&mut moves);
                g.play_unchecked(moves[rng.index(moves.len())]);
            }
            if g.outcome().is_some() {
                continue;
            }
            let pos = Pos::from_hex(&g);
            let wins = solve(&g, SolveLimits::default()).unwrap().winner == g.to_move();
            assert_eq!(exact(pos, &mut memo), wins, "{g:?}");
            let m = pos.to_move as usize;
            let mine = b.build(&pos, m);
            let theirs = b.build(&pos, 1 - m);
            if mine.full.is_some() || mine.semi.is_some() {
                assert!(wins, "{g:?}");
                claims += 1;
            }
            if theirs.full.is_some() {
                assert!(!wins, "{g:?}");
                claims += 1;
            }
        }
        assert!(claims > 20, "{claims}");
        let s = agree_with_exact(4, 0..12, 300, 4);
        assert!(s[0] > 0 && s[1] > 0, "{s:?}");
    }

    #[test]
    fn claims_agree_with_exact_values_on_5x5_and_6x6() {
        let s = agree_with_exact(5, 9..19, 300, 5);
        assert!(s[0] > 20 && s[1] > 20 && s[2] > 10, "5x5 {s:?}");
        let s = agree_with_exact(6, 20..30, 60, 6);
        assert!(s[0] > 5 && s[1] > 5, "6x6 {s:?}");
    }

    /// A position from (row, col) stone lists, Black to move when the counts are equal.
    fn position(n: usize, black: &[(usize, usize)], white: &[(usize, usize)]) -> Pos {
        let set = |l: &[(usize, usize)]| l.iter().fold(0u64, |s, &(r, c)| s | 1 << (r * n + c));
        Pos { n: n as u8, stones: [set(black), set(white)], to_move: (black.len() > white.len()) as u8 }
    }

    #[test]
    fn a_bridge_is_a_full_connection() {
        // With neighbours (r±1, c), (r, c±1), (r−1, c+1), (r+1, c−1), the stones (1, 1) and
        // (2, 2) share exactly the empty neighbours (1, 2) and (2, 1).
        let n = 5;
        let pos = position(n, &[(1, 1), (2, 2)], &[]);
        let mut b = VcBuilder::new();
        b.build(&pos, 0);
        let (x, y) = (n + 1, 2 * n + 2);
        let bridge = 1u64 << (n + 2) | 1 << (2 * n + 1);
        assert!(b.fulls(x, y).contains(&bridge), "{:?}", b.fulls(x, y));
        assert!(holds(&pos, 0, x, y, bridge, false));
        // With White on one of the two cells it is only a semi.
        let pos = position(n, &[(1, 1), (2, 2)], &[(1, 2)]);
        b.build(&pos, 0);
        assert!(b.fulls(x, y).is_empty());
        assert_eq!(b.semis(x, y).0, &[1u64 << (2 * n + 1)]);
    }

    #[test]
    fn template_two_is_a_full_to_the_edge() {
        // Black on the second row: its two row-1 neighbours (0, c) and (0, c+1) carry it.
        let n = 5;
        let pos = position(n, &[(1, 2)], &[]);
        let mut b = VcBuilder::new();
        b.build(&pos, 0);
        let t = 1u64 << 2 | 1 << 3;
        assert!(b.fulls(n + 2, n * n).contains(&t), "{:?}", b.fulls(n + 2, n * n));
        // White's second-row stone to its left edge (column 0): cells (r, 0) and (r+1, 0).
        let pos = position(n, &[], &[(2, 1)]);
        b.build(&pos, 1);
        let t = 1u64 << (2 * n) | 1 << (3 * n);
        assert!(b.fulls(2 * n + 1, n * n).contains(&t), "{:?}", b.fulls(2 * n + 1, n * n));
    }

    /// The ziggurat (template IIIa): a stone on the third row, to the edge, with carrier of 8
    /// cells. H-search derives it (two semis through the two bridge cells ORed).
    #[test]
    fn the_ziggurat_is_found() {
        let n = 6;
        // Black at (2, 2), third row from the top edge.
        let pos = position(n, &[(2, 2)], &[]);
        let mut b = VcBuilder::new();
        b.build(&pos, 0);
        let x = 2 * n + 2;
        let fulls = b.fulls(x, n * n).to_vec();
        assert!(!fulls.is_empty());
        let best = *fulls.iter().min_by_key(|f| f.count_ones()).unwrap();
        assert!(holds(&pos, 0, x, n * n, best, false));
        eprintln!("ziggurat: smallest full carrier has {} cells: {best:#x}", best.count_ones());
        assert_eq!(best.count_ones(), 8, "{best:#x}");
    }

    /// Which edge templates H-search finds for a lone stone (ignored; prints): Black's stone on
    /// rows 2 to 4 of an empty 7×7 board, to the top edge, the smallest full carrier found.
    #[test]
    #[ignore]
    fn measure_lone_stone_templates() {
        let n = 7;
        let mut b = VcBuilder::new();
        for row in 1..4 {
            for col in 0..n {
                let pos = position(n, &[(row, col)], &[]);
                b.build(&pos, 0);
                let best = b.fulls(row * n + col, n * n).iter().map(|f| f.count_ones()).min();
                let semi = b.semis(row * n + col, n * n).0.iter().map(|f| f.count_ones()).min();
                eprintln!("row {} col {}: smallest full {best:?}, smallest semi {semi:?}", row + 1, col + 1);
            }
        }
    }

    /// Release-mode measurement (`cargo test --release --lib hex::vc::tests::measure -- --ignored
    /// --nocapture`): mean time per build on random 7×7 positions with 6–20 stones, and how often
    /// an edge-to-edge full or semi is found.
    #[test]
    #[ignore]
    fn measure_7x7() {
        let mut rng = Rng64::new(1);
        let mut positions = Vec::new();
        while positions.len() < 2000 {
            let k = 6 + rng.index(15);
            if let Some(p) = random_pos(&mut rng, 7, k) {
                positions.push(p);
            }
        }
        for (fc, sc, mi) in [(FULL_CAP, SEMI_CAP, 64), (8, 16, 64), (4, 8, 64)] {
            let mut b = VcBuilder::with_caps(fc, sc, mi);
            let (mut full, mut semi, mut region) = (0, 0, 0u64);
            let t = std::time::Instant::now();
            let cpu = cpu_time::ThreadTime::now();
            for p in &positions {
                for c in 0..2 {
                    let v = b.build(p, c);
                    full += v.full.is_some() as usize;
                    semi += (v.full.is_none() && v.semi.is_some()) as usize;
                    region += (v.semi_intersection & p.empty()).count_ones() as u64;
                }
            }
            let builds = positions.len() * 2;
            let us = t.elapsed().as_secs_f64() * 1e6 / builds as f64;
            let cpu_us = cpu.elapsed().as_secs_f64() * 1e6 / builds as f64;
            let mean_region = region as f64 / builds as f64;
            eprintln!(
                "7x7 caps {fc}/{sc}, inner carriers <= {mi}: {builds} builds, {us:.1} µs per build ({cpu_us:.1} µs CPU time); edge full {full}, semi only {semi}, mean empty cells in the semi intersection {mean_region:.1}"
            );
            let per: Vec<u64> = b.stats.iter().map(|&s| s / builds as u64).collect();
            eprintln!("  per build: ANDed fulls, AND pairs, semis offered, semis kept, OR nodes, fulls offered, AND partners, partners rejected: {per:?}");
        }
    }
}
