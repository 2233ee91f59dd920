//! Virtual connections for the exact solver, by H-search (Anshelevich 2002, "A hierarchical
//! approach to computer Hex", Artificial Intelligence 134) with the captured sets and the list
//! discipline of benzene's VC builder (`src/hex/VCS.cpp`; Pawlewicz, Hayward, Henderson &
//! Arneson, "Stronger virtual connections in Hex", IEEE TCIAIG 7(2), 2015).
//!
//! A *virtual connection* (VC) of one colour between two endpoints x and y is a set of empty
//! cells, its *carrier*, inside which the colour can join x and y whatever the opponent does,
//! the opponent playing only inside the carrier and the colour answering inside it:
//! - a *full* connection holds with the opponent to move (the colour moves second);
//! - a *semi*-connection holds with the colour to move; it has a *key*, the cell to play first.
//!
//! "Joined" counts the colour's two edges as stones: x and y are joined when a chain of the
//! colour's stones and edges links them (so two cells that both reach the top edge are joined;
//! an edge-to-edge connection is the usual win).
//!
//! Endpoints are small ids: a cell `0..n²` (an empty cell, or a stone group of the colour by its
//! lowest cell, its captain) and the colour's two edges at `n²` and `n² + 1`. Opponent stones are
//! walls. An empty endpoint counts as the colour's stone (a VC x–y between empty cells says what
//! the colour gets once it holds both). Carriers hold only empty cells, never their endpoints.
//!
//! **Captured sets** (benzene's `vc-captured-set.txt`, pattern `vc-captured1`): an empty cell p
//! with two adjacent empty neighbours a, b whose three cells beyond (the far neighbours of a and
//! b) are all the colour's stones or its edge *captures* {a, b}: once the colour holds p, an
//! intrusion at a is answered at b and p stays joined to those stones. [`captured_set`] gives
//! them for each empty endpoint.
//!
//! The rules (Anshelevich 2002, section 3; the captured-set forms as benzene's `VCS::AndFull*`
//! and `VCOr`):
//! - base: adjacent endpoints are fully connected with the empty carrier;
//! - the AND rule: fulls x–z (carrier A) and z–y (carrier B) with x ∉ B and y ∉ A, where A and
//!   B are disjoint or meet only inside C, the union of the captured sets of x, z and y, give
//!   through an empty cell z a semi x–y with carrier A ∪ B ∪ {z} (∪ C when they meet) and key z;
//!   through a stone group z, a full x–y with carrier A ∪ B (∪ C). There is no AND through an
//!   edge (benzene's default `and_over_edge = false`);
//! - the OR rule: semis x–y whose carriers have no common cell outside the captured sets of x
//!   and y give a full x–y with the union of their carriers (and those captured sets): wherever
//!   the opponent plays, one of the semis survives and the colour plays its key. As benzene's
//!   `VCOr`, the semis are combined greedily, not in every subset: for a candidate cell a (one
//!   the pair's fulls all need), the semis avoiding a are taken one by one while each shrinks
//!   their intersection.
//!
//! The list discipline is benzene's (`limit_fulls`, `limit_or`): a new connection whose carrier
//! is a superset of a known one of the same kind (or of a known full, for a semi) is dropped, and
//! a new full removes the known semis and fulls that are supersets of it; a new full that removes
//! no known full is kept only if it avoids a cell of the intersection of the pair's fulls; the OR
//! looks only for fulls avoiding such a cell, and runs for a pair once its semis' intersection
//! lies inside the captured sets. Each full is ANDed once at each end, against the fulls already
//! ANDed (benzene's processed marks), so each two fulls meet once. The lists have no cap below
//! [`FULL_CAP`] and [`SEMI_CAP`] (a safety bound for the fixed buffers, rarely reached: past it a
//! smaller carrier replaces the largest). A build is bounded; every connection reported is sound
//! (each is derived by the rules above), while some are missed. The solver reads the edge-to-edge
//! lists ([`EdgeVcs`]).

use crate::game::hex::position::{Pos, MAX_N};

/// Endpoint ids: the cells of an 8×8 board and the two edges.
const MAX_ENDS: usize = MAX_N * MAX_N + 2;
/// Unordered endpoint pairs (x < y).
const MAX_PAIRS: usize = MAX_ENDS * (MAX_ENDS - 1) / 2;
/// The most full connections kept per endpoint pair (a bound for the fixed buffers).
pub(crate) const FULL_CAP: usize = 48;
/// The most semi-connections kept per endpoint pair (a bound for the fixed buffers).
pub(crate) const SEMI_CAP: usize = 64;
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
/// per build once the queues have grown to their working size).
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
    /// `captured[x]`: the cells the colour captures once it holds the empty cell x
    /// ([`captured_set`]); 0 for stone groups and edges.
    captured: [u64; MAX_ENDS],
    /// `full_nb[x]`: the endpoints y with at least one full x–y known (bit y).
    full_nb: [u128; MAX_ENDS],
    /// `adj[x]`: the endpoints y with a full x–y of empty carrier (adjacent), which no derived
    /// connection x–y can improve on.
    adj: [u128; MAX_ENDS],
    /// Fulls per pair: `full_len[p]` carriers at `full[p * FULL_CAP..]`, `full_done` marks those
    /// already ANDed (benzene's "old").
    full_len: Vec<u8>,
    full: Vec<u64>,
    full_done: Vec<bool>,
    /// `full_inter[p]`: the intersection of all fulls of pair `p`; `done_inter[p]`: of those
    /// already ANDed (all cells when none).
    full_inter: Vec<u64>,
    done_inter: Vec<u64>,
    /// Semis per pair: `semi_len[p]` carriers at `semi[p * SEMI_CAP..]`, keys in `semi_key`,
    /// `semi_new` marks those not yet seen by an OR.
    semi_len: Vec<u8>,
    semi: Vec<u64>,
    semi_key: Vec<u8>,
    semi_new: Vec<bool>,
    /// Whether pair `p` waits in the OR queue.
    or_queued: Vec<bool>,
    /// New fulls not yet ANDed: (x, y, carrier).
    queue: Vec<(u8, u8, u64)>,
    /// Pairs whose semis wait for the OR rule: (x, y).
    or_queue: Vec<(u8, u8)>,
    /// Scratch for one OR: the pair's semis (carrier, new) and the fulls it found.
    or_semis: Vec<(u64, bool)>,
    or_out: Vec<u64>,
    /// The caps in use (at most [`FULL_CAP`], [`SEMI_CAP`]).
    full_cap: usize,
    semi_cap: usize,
    /// Whether captured sets are used (off: plain H-search, for the ablation).
    use_captured: bool,
    /// Work counters (test builds): fulls ANDed, AND pairs tried, semis offered, semis kept,
    /// ORs run, fulls offered, AND partners, partners rejected.
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
            captured: [0; MAX_ENDS],
            full_nb: [0; MAX_ENDS],
            adj: [0; MAX_ENDS],
            full_len: vec![0; MAX_PAIRS],
            full: vec![0; MAX_PAIRS * FULL_CAP],
            full_done: vec![false; MAX_PAIRS * FULL_CAP],
            full_inter: vec![0; MAX_PAIRS],
            done_inter: vec![0; MAX_PAIRS],
            semi_len: vec![0; MAX_PAIRS],
            semi: vec![0; MAX_PAIRS * SEMI_CAP],
            semi_key: vec![0; MAX_PAIRS * SEMI_CAP],
            semi_new: vec![false; MAX_PAIRS * SEMI_CAP],
            or_queued: vec![false; MAX_PAIRS],
            queue: Vec::with_capacity(4096),
            or_queue: Vec::with_capacity(1024),
            or_semis: Vec::with_capacity(SEMI_CAP),
            or_out: Vec::with_capacity(64),
            full_cap: FULL_CAP,
            semi_cap: SEMI_CAP,
            use_captured: true,
            #[cfg(test)]
            stats: [0; 8],
        }
    }

    /// A builder keeping at most `fulls` fulls and `semis` semis per pair (1..=[`FULL_CAP`],
    /// 1..=[`SEMI_CAP`]), with or without captured sets.
    pub fn with_caps(fulls: usize, semis: usize, captured: bool) -> VcBuilder {
        let mut b = VcBuilder::new();
        b.full_cap = fulls.clamp(1, FULL_CAP);
        b.semi_cap = semis.clamp(1, SEMI_CAP);
        b.use_captured = captured;
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
        self.or_queued[..pairs].fill(false);
        self.full_nb[..ends].fill(0);
        self.adj[..ends].fill(0);
        self.captured[..ends].fill(0);
        self.queue.clear();
        self.or_queue.clear();

        let own = pos.stones[color];
        let empty = pos.empty();
        self.end_of = [NONE; 64];
        let mut rest = own;
        while rest != 0 {
            let c = rest.trailing_zeros() as usize;
            let group = g.flood(1 << c, own);
            rest &= !group;
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
            if self.use_captured {
                self.captured[c] = captured_set(pos, color, c);
            }
        }

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

        // The work queues (benzene's `DoSearch`): every new full is ANDed before any OR runs.
        let mut next = 0;
        loop {
            if next < self.queue.len() {
                let (x, y, c) = self.queue[next];
                next += 1;
                self.and_full(x as usize, y as usize, c);
            } else if let Some((x, y)) = self.or_queue.pop() {
                self.or_semis(x as usize, y as usize);
            } else {
                break;
            }
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

    /// ANDs the full `x`–`y` of carrier `c` at both its ends (benzene's `VCS::AndFull`), once:
    /// nothing when it was removed since it was queued, or already ANDed.
    fn and_full(&mut self, x: usize, y: usize, c: u64) {
        let p = pair(x, y);
        let base = p * FULL_CAP;
        let len = self.full_len[p] as usize;
        let Some(i) = self.full[base..base + len].iter().position(|&f| f == c) else { return };
        if self.full_done[base + i] {
            return;
        }
        self.full_done[base + i] = true;
        self.done_inter[p] &= c;
        #[cfg(test)]
        {
            self.stats[0] += 1;
        }
        self.and_at(x, y, c);
        self.and_at(y, x, c);
    }

    /// The AND rule with pivot `z` for the full `x`–`z` of carrier `c`: every full `z`–`w` of
    /// carrier `d` already ANDed, with `x ∉ d` and `w ∉ c`, whose overlap with `c` (plus `z`) lies
    /// inside the captured sets of x, z and w, gives a semi `x`–`w` with key `z` when `z` is
    /// empty, a full when `z` is a stone group, nothing when `z` is an edge.
    fn and_at(&mut self, x: usize, z: usize, c: u64) {
        let cells = self.n * self.n;
        if z >= cells {
            return;
        }
        let z_empty = self.pos.stones[self.color] >> z & 1 == 0;
        let c = if z_empty { c | 1 << z } else { c };
        let xb = self.bit(x);
        let cap_xz = self.captured[x] | self.captured[z];
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
            let cap = cap_xz | self.captured[w];
            // Every full z–w already ANDed contains their intersection: none fits with c (or
            // avoids x) when the intersection does not.
            if self.done_inter[p] & c & !cap != 0 || self.done_inter[p] & xb != 0 {
                #[cfg(test)]
                {
                    self.stats[7] += 1;
                }
                continue;
            }
            // The captured cells join the carrier only when the carriers meet; they must not
            // hold an endpoint.
            let cap_ok = cap & (xb | self.bit(w)) == 0;
            let base = p * FULL_CAP;
            let mut i = 0;
            // `add_semi`/`add_full` on x–w never change the list z–w (x ≠ z), but read its length
            // each time anyway.
            while i < self.full_len[p] as usize {
                let d = self.full[base + i];
                let done = self.full_done[base + i];
                i += 1;
                #[cfg(test)]
                {
                    self.stats[1] += 1;
                }
                if !done || d & xb != 0 {
                    continue;
                }
                let overlap = d & c;
                let carrier = if overlap == 0 {
                    c | d
                } else if cap_ok && overlap & !cap == 0 {
                    c | d | cap
                } else {
                    continue;
                };
                if z_empty {
                    self.add_semi(x, w, carrier, z as u8, cap);
                } else {
                    self.add_full(x, w, carrier);
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
        let p = pair(x, y);
        let base = p * FULL_CAP;
        let len = self.full_len[p] as usize;
        if self.full[base..base + len].iter().any(|&f| f & !c == 0) {
            return false;
        }
        let mut j = 0;
        for i in 0..len {
            let f = self.full[base + i];
            if c & !f != 0 {
                self.full[base + j] = f;
                self.full_done[base + j] = self.full_done[base + i];
                j += 1;
            }
        }
        if j == len && len > 0 && self.full_inter[p] & !c == 0 {
            return false;
        }
        if j == self.full_cap {
            // The safety bound: replace the largest carrier when the new one is smaller.
            let list = &self.full[base..base + j];
            let (k, big) = list.iter().enumerate().max_by_key(|(_, f)| f.count_ones()).map(|(k, f)| (k, f.count_ones())).unwrap();
            if c.count_ones() >= big {
                return false;
            }
            self.full[base + k] = c;
            self.full_done[base + k] = false;
        } else {
            self.full[base + j] = c;
            self.full_done[base + j] = false;
            j += 1;
        }
        self.full_len[p] = j as u8;
        let (mut all, mut done) = (!0u64, !0u64);
        for i in 0..j {
            all &= self.full[base + i];
            if self.full_done[base + i] {
                done &= self.full[base + i];
            }
        }
        self.full_inter[p] = all;
        self.done_inter[p] = done;
        // Semis that are supersets of the new full are useless.
        let sbase = p * SEMI_CAP;
        let slen = self.semi_len[p] as usize;
        let mut k = 0;
        for i in 0..slen {
            let s = self.semi[sbase + i];
            if c & !s != 0 {
                self.semi[sbase + k] = s;
                self.semi_key[sbase + k] = self.semi_key[sbase + i];
                self.semi_new[sbase + k] = self.semi_new[sbase + i];
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
    /// semi is a subset of it; removes the semis that are supersets of it; queues the pair for
    /// the OR rule once its semis have no common cell outside `cap` (benzene's
    /// `OrList::TryQueue`).
    fn add_semi(&mut self, x: usize, y: usize, c: u64, key: u8, cap: u64) {
        #[cfg(test)]
        {
            self.stats[2] += 1;
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
                    self.semi_new[base + j] = self.semi_new[base + i];
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
        self.semi_new[base + at] = true;
        self.semi_len[p] = j as u8;
        if !self.or_queued[p] && self.semi[base..base + j].iter().fold(!0, |a, &s| a & s) & !cap == 0 {
            self.or_queued[p] = true;
            self.or_queue.push((x as u8, y as u8));
        }
    }

    /// The OR rule for pair `x`–`y` (benzene's `VCS::OrSemis` and `VCOr` with `limit_or`): the
    /// fulls found are added, and the pair's semis are marked seen.
    fn or_semis(&mut self, x: usize, y: usize) {
        let p = pair(x, y);
        self.or_queued[p] = false;
        #[cfg(test)]
        {
            self.stats[4] += 1;
        }
        let base = p * SEMI_CAP;
        let len = self.semi_len[p] as usize;
        self.or_semis.clear();
        for i in 0..len {
            self.or_semis.push((self.semi[base + i], self.semi_new[base + i]));
            self.semi_new[base + i] = false;
        }
        let cands = if self.full_len[p] > 0 { self.full_inter[p] } else { self.pos.board() };
        let (cx, cy) = (self.captured[x], self.captured[y]);
        // Captured cells must not hold an endpoint to join a carrier.
        let ends = self.bit(x) | self.bit(y);
        let (cx, cy) = (if cx & ends == 0 { cx } else { 0 }, if cy & ends == 0 { cy } else { 0 });
        self.or_out.clear();
        vc_or(&mut self.or_semis, cands, cx, cy, &mut self.or_out);
        for k in 0..self.or_out.len() {
            let u = self.or_out[k];
            self.add_full(x, y, u);
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

    /// The endpoint pairs of the last build with at least one full connection, for the
    /// resistance move order: (x, y, cells in the intersection of the pair's full carriers),
    /// into `out` (cleared first).
    pub fn full_links(&self, out: &mut Vec<(u8, u8, u8)>) {
        out.clear();
        let ends = self.n * self.n + 2;
        for y in 1..ends {
            // Pairs of y with a full (bit x of `full_nb[y]`), x < y.
            let mut xs = self.full_nb[y] & ((1u128 << y) - 1);
            while xs != 0 {
                let x = xs.trailing_zeros() as usize;
                xs &= xs - 1;
                let p = pair(x, y);
                if self.full_len[p] > 0 {
                    out.push((x as u8, y as u8, self.full_inter[p].count_ones() as u8));
                }
            }
        }
    }

    /// The endpoint id of `cell` in the last build (the cell when empty, its group's captain for
    /// a stone of the colour), `None` for an opponent stone.
    pub fn endpoint_of(&self, cell: usize) -> Option<usize> {
        let e = self.end_of[cell];
        (e != NONE).then_some(e as usize)
    }
}

/// benzene's `VCOr` (greedy OR): fulls from the semis of one pair (carrier, not yet seen by an
/// OR), each avoiding at least one cell of `cands` (the intersection of the pair's fulls, or the
/// whole board), pushed to `out`. A full must take a semi not seen before (else an earlier OR
/// found it), so the candidates inside every new semi go first; for a candidate a, the semis
/// avoiding a are ORed greedily (each taken only when it shrinks the intersection) until their
/// intersection lies inside the captured sets `cx`, `cy` of the endpoints (added only as
/// needed), which join the carrier.
fn vc_or(semis: &mut Vec<(u64, bool)>, mut cands: u64, cx: u64, cy: u64, out: &mut Vec<u64>) {
    let mut captured = 0u64;
    while cands != 0 {
        // Semis holding every candidate cannot help avoid one.
        semis.retain(|&(s, _)| cands & !s != 0);
        let (mut i_new, mut i_old) = (!0u64, !0u64);
        for &(s, new) in semis.iter() {
            if new {
                i_new &= s;
            } else {
                i_old &= s;
            }
        }
        cands &= !i_new;
        if cands == 0 {
            break;
        }
        let i = i_new & i_old;
        if i & !captured != 0 {
            captured |= cx;
        }
        if i & !captured != 0 {
            captured |= cy;
        }
        if i & !captured != 0 {
            break;
        }
        cands &= !captured;
        if cands == 0 {
            break;
        }
        let a = cands & cands.wrapping_neg();
        let mut i2 = !0u64;
        for &(s, _) in semis.iter() {
            if s & a == 0 {
                i2 &= s;
            }
        }
        if i2 & !captured == 0 {
            let mut u = captured;
            let mut i2 = !0u64;
            for &(s, _) in semis.iter() {
                if s & a != 0 || i2 & !s == 0 {
                    continue;
                }
                i2 &= s;
                u |= s;
                if i2 & !captured == 0 {
                    break;
                }
            }
            out.push(u);
            cands &= u;
        } else {
            cands &= !a;
        }
    }
}

/// The cells `color` captures around the empty cell `p` once it holds `p`: for each pair of
/// adjacent neighbours a, b of p, both empty, whose three neighbours on the far side are all
/// `color`'s stones or beyond its edge, {a, b} (if the opponent takes one, the colour takes the
/// other and p stays joined to those stones). The pattern `vc-captured1` of benzene's VC builder
/// (`share/vc-captured-set.txt`, in its six rotations); on the row next to an edge it is the
/// bridge to the edge.
pub(crate) fn captured_set(pos: &Pos, color: usize, p: usize) -> u64 {
    // The six directions (row, col) in cyclic order around a cell.
    const D: [(i32, i32); 6] = [(-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1), (0, -1)];
    let n = pos.n as i32;
    let (r, c) = ((p / pos.n as usize) as i32, (p % pos.n as usize) as i32);
    let empty = pos.empty();
    let own = pos.stones[color];
    let on = |r: i32, c: i32| (0..n).contains(&r) && (0..n).contains(&c);
    // A cell that is the colour's: its stone, or just beyond one of its edges (Black joins the
    // top and bottom rows, White the left and right columns).
    let owned = |r: i32, c: i32| {
        if on(r, c) {
            own >> (r * n + c) & 1 == 1
        } else if color == 0 {
            (r == -1 || r == n) && (0..n).contains(&c)
        } else {
            (c == -1 || c == n) && (0..n).contains(&r)
        }
    };
    let mut set = 0;
    for i in 0..6 {
        let (di, dj) = (D[i], D[(i + 1) % 6]);
        let (a, b) = ((r + di.0, c + di.1), (r + dj.0, c + dj.1));
        if !on(a.0, a.1) || !on(b.0, b.1) {
            continue;
        }
        let (ab, bb) = (1u64 << (a.0 * n + a.1), 1u64 << (b.0 * n + b.1));
        if empty & ab == 0 || empty & bb == 0 {
            continue;
        }
        let far = [(a.0 + di.0, a.1 + di.1), (a.0 + dj.0, a.1 + dj.1), (b.0 + dj.0, b.1 + dj.1)];
        if far.iter().all(|&(fr, fc)| owned(fr, fc)) {
            set |= ab | bb;
        }
    }
    set
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
    use crate::game::Game;
    use crate::rng::Rng64;
    use crate::solve::hex::negamax::{solve, SolveLimits};
    use std::collections::HashMap;

    /// The brute-force definition of a VC, independent of the builder: with only the cells of
    /// `carrier` playable (by both sides), does `color` end with endpoints `x` and `y` joined by
    /// its stones and edges (a chain may pass through an edge, as in the module's "joined"), moving first (`first`, a semi) or second (a full)? Empty endpoints count as
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
        let edges = g.edge[color];
        // The cells of `within` linked to `seed` through `within` and the colour's two edges.
        let comp = move |seed: u64, within: u64| {
            let mut r = g.flood(seed & within, within);
            loop {
                let before = r;
                for e in edges {
                    if r & e != 0 {
                        r |= g.flood(e & within, within);
                    }
                }
                if r == before {
                    return r;
                }
            }
        };
        #[allow(clippy::too_many_arguments)]
        fn win(
            comp: &dyn Fn(u64, u64) -> u64,
            sx: u64,
            ty: u64,
            own: u64,
            free: u64,
            mine: bool,
            memo: &mut HashMap<(u64, u64, bool), bool>,
        ) -> bool {
            if comp(sx, own) & ty != 0 {
                return true;
            }
            let open = own | free;
            let region = comp(sx, open);
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
                let r =
                    if mine { win(comp, sx, ty, own | b, free & !b, false, memo) } else { win(comp, sx, ty, own, free & !b, true, memo) };
                if r == mine {
                    v = mine;
                    break;
                }
            }
            memo.insert((own, free, mine), v);
            v
        }
        win(&comp, sx, ty, own, carrier, first, &mut memo)
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

    /// The test-local [`exact`] agrees with the crate's oracle, [`negamax::solve`](crate::solve::hex::negamax::solve), on
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
        for (fc, sc, mi) in [(FULL_CAP, SEMI_CAP, true), (FULL_CAP, SEMI_CAP, false), (16, 32, true)] {
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
                "7x7 caps {fc}/{sc}, captured sets {mi}: {builds} builds, {us:.1} µs per build ({cpu_us:.1} µs CPU time); edge full {full}, semi only {semi}, mean empty cells in the semi intersection {mean_region:.1}"
            );
            let per: Vec<u64> = b.stats.iter().map(|&s| s / builds as u64).collect();
            eprintln!("  per build: ANDed fulls, AND pairs, semis offered, semis kept, OR nodes, fulls offered, AND partners, partners rejected: {per:?}");
        }
    }
}
