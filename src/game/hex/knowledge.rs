//! Hex knowledge for the search tree, as MoHex computes it at a node that has been visited
//! `knowledge_threshold` times (Arneson, Hayward & Henderson, "Monte Carlo Tree Search in Hex",
//! IEEE TCIAIG 2(4), 2010, section IV; Huang, Arneson, Hayward, Müller & Pawlewicz, "MoHex 2.0:
//! a pattern-based MCTS Hex player", Computers and Games 2013; benzene's
//! `MoHexThreadState::ComputeKnowledge` and `EndgameUtil::MovesToConsider`): the moves worth
//! considering at a position, on the same inferior-cell fill-in as the exact solver
//! ([`super::ice`], generic over the board's bit set) and a must-play region from the
//! opponent's edge-to-edge semi-connections.
//!
//! # The consider set ([`consider`])
//! With P the side to move and Q the opponent, in this order:
//! 1. P has a cell that joins its edges: those cells (each wins at once).
//! 2. Q has two or more such cells: P has lost; nothing is pruned. Exactly one: that cell (any
//!    other move loses to it).
//! 3. The fill-in F of the position ([`super::ice::fillin`]: dead cells, and cells captured by
//!    either colour, filled to a fixed point) gives a board with the same value for either side
//!    to move. If Q is connected on it, P has lost: nothing is pruned. If P is connected on it,
//!    or F covers every empty cell, every cell outside F is kept (the solver's rule: when P wins
//!    and the filled board has an empty cell, a winning move of the filled position is a winning
//!    move of the real one, because F stays a valid fill-in after any move outside it; see the
//!    module doc of [`super::ice`]). Otherwise the cells of F are pruned.
//! 4. The must-play region, on the filled board: Q's *virtual components* are Q's stone
//!    groups and its two edges joined by full connections whose carriers are pairwise
//!    disjoint (a stone group touching its edge; two groups, or a group and an edge, with two
//!    common empty neighbours: the bridge and the edge template II, carrier the two cells),
//!    merged greedily. If Q's two edges are in one component, Q is connected virtually and P
//!    has lost: nothing is pruned. Otherwise every empty cell k that joins the component of Q's
//!    first edge and that of its second (adjacent to each, or with two common empty neighbours
//!    with it, all carriers disjoint) is the key of a Q semi-connection whose carrier is k, the
//!    two components' carriers and the two links' cells. A P move outside such a carrier loses
//!    (Q plays k and is connected whatever P does), so P's children are kept only inside every
//!    carrier: their intersection is the must-play region (Hayward, Björnsson, Johanson, Kan,
//!    Po & van Rijswijck, "Solving 7×7 Hex: virtual connections and game-state reduction",
//!    2003; benzene's `EndgameUtil::MovesToConsider`). When it holds no cell left by step 3,
//!    Q's semis show that P has lost: nothing more is pruned.
//! 5. P has a semi-connection itself (the same construction with the colours swapped): its key
//!    wins, and it alone is kept when it survives the steps above.
//!
//! The exact solver ([`super::dfpn`]) computes its must-play region with full H-search
//! ([`super::vc`], boards up to 8×8); the search uses the cheaper bridge-and-template-II
//! components above on any board: they find a subset of the semi-connections H-search finds,
//! so the region is larger (less pruned) but every pruned cell is still a losing move.
//!
//! Every step only prunes moves that cannot be the only winning ones, so whenever P has a
//! winning move, one is kept (checked against the exact solver on every 5×5 position of random
//! games and on 6×6 positions, `tests` below).

use super::ice::{fillin, IceBits};
use super::position::Pos;
use super::Bits;

/// The result of [`consider`]: the moves kept and why the others were pruned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Consider<B> {
    /// The cells worth considering (a subset of the empty cells, never empty when the position
    /// has an empty cell).
    pub moves: B,
    /// The fill-in's cells (dead and captured), pruned unless step 3 kept them.
    pub filled: B,
    /// The must-play region found (all cells when none was found).
    pub mustplay: B,
}

/// The most nodes of the virtual components: Q's two edges (0 and 1), then Q's stone groups
/// (at most 181 on 19×19, where a colour has at most ⌈361 / 2⌉ stones; so never reached).
const MAX_NODES: usize = 2 + 19 * 19 / 2 + 2;

/// Q's virtual components on a board ([`components`]).
struct Components<B> {
    /// The component of each node (index of its root node).
    comp: [u16; MAX_NODES],
    /// Per node: the cells of the node (stones; for an edge, its row or column of cells that
    /// touch it, empty or not), and its empty neighbourhood (cells that join it when Q plays).
    cells: [B; MAX_NODES],
    nbh: [B; MAX_NODES],
    /// Per component root: the union of its links' carriers.
    carrier: [B; MAX_NODES],
    /// Number of nodes.
    len: usize,
}

impl<B: Bits> Components<B> {
    /// The root of node `i`'s component.
    fn root(&self, mut i: usize) -> usize {
        while self.comp[i] as usize != i {
            i = self.comp[i] as usize;
        }
        i
    }

    /// The empty cells adjacent to some node of component `r` (its nodes' neighbourhoods).
    fn nbh_of(&self, r: usize) -> B {
        let mut out = B::ZERO;
        for i in 0..self.len {
            if self.root(i) == r {
                out |= self.nbh[i];
            }
        }
        out
    }
}

/// The two lowest cells of `s` (at least two).
#[inline]
fn two_of<B: Bits>(s: B) -> B {
    let a = B::bit(s.lowest());
    a | B::bit(s.without_lowest().lowest())
}

/// Q's virtual components on `pos` (Q = `q`): edges and stone groups joined by a group touching
/// its edge (empty carrier), or by two common empty neighbours (carrier those two cells)
/// disjoint from the carriers of both components so far, merged greedily in node order.
fn components<B: Bits>(pos: &Pos<B>, q: usize) -> Components<B> {
    let g = pos.geo();
    let empty = pos.empty();
    let own = pos.stones[q];
    let mut c =
        Components { comp: [0; MAX_NODES], cells: [B::ZERO; MAX_NODES], nbh: [B::ZERO; MAX_NODES], carrier: [B::ZERO; MAX_NODES], len: 0 };
    for e in 0..2 {
        c.cells[e] = g.edge[q][e];
        c.nbh[e] = g.edge[q][e] & empty;
        c.comp[e] = e as u16;
    }
    c.len = 2;
    let mut rest = own;
    while rest.any() && c.len < MAX_NODES {
        let grp = g.flood(B::bit(rest.lowest()), own);
        rest &= !grp;
        let i = c.len;
        c.cells[i] = grp;
        c.nbh[i] = g.grow(grp) & empty;
        c.comp[i] = i as u16;
        c.len += 1;
        // A group on its edge's row touches the edge.
        for e in 0..2 {
            if (grp & g.edge[q][e]).any() {
                let (a, b) = (c.root(e), c.root(i));
                if a != b {
                    c.comp[b] = a as u16;
                    c.carrier[a] |= c.carrier[b];
                }
            }
        }
    }
    // Two-cell links (bridges, template II), greedily.
    for i in 0..c.len {
        for j in i + 1..c.len {
            let (a, b) = (c.root(i), c.root(j));
            if a == b {
                continue;
            }
            let free = c.nbh[i] & c.nbh[j] & !(c.carrier[a] | c.carrier[b]);
            if free.count() >= 2 {
                let link = two_of(free);
                c.comp[b] = a as u16;
                c.carrier[a] = c.carrier[a] | c.carrier[b] | link;
            }
        }
    }
    c
}

/// Q's edge-to-edge semi-connections through one key joining the components of its two edges
/// (see the module doc, step 4): the intersection of their carriers (keys included) and one
/// key, or `None` when none was found. `Err(())`: Q's edges are already virtually connected.
fn semis<B: Bits>(pos: &Pos<B>, q: usize) -> Result<Option<(B, usize)>, ()> {
    let c = components(pos, q);
    let (a, b) = (c.root(0), c.root(1));
    if a == b {
        return Err(());
    }
    let g = pos.geo();
    let empty = pos.empty();
    let (ca, cb) = (c.carrier[a], c.carrier[b]);
    if (ca & cb).any() {
        return Ok(None);
    }
    let (na, nb) = (c.nbh_of(a), c.nbh_of(b));
    // A key next to both components, or next to one and two cells from the other.
    let near = |n: B| n | (g.grow(n) & empty);
    let mut keys = near(na) & near(nb) & empty & !(ca | cb);
    let mut inter = !B::ZERO;
    let mut found = None;
    while keys.any() {
        let k = keys.lowest();
        keys = keys.without_lowest();
        let kb = B::bit(k);
        let around = g.nb[k] & empty & !(ca | cb);
        // The link from k to a component: none when k is in its neighbourhood, else two
        // common empty neighbours outside `avoid`.
        let link = |n: B, avoid: B| -> Option<B> {
            if (n & kb).any() {
                return Some(B::ZERO);
            }
            let free = around & n & !avoid;
            (free.count() >= 2).then(|| two_of(free))
        };
        // Link to A avoiding B's candidate cells when possible, then B avoiding A's link.
        let Some(la) = link(na, around & nb).or_else(|| link(na, B::ZERO)) else { continue };
        let Some(lb) = link(nb, la) else { continue };
        let carrier = ca | cb | la | lb | kb;
        inter &= carrier;
        found = Some(k);
    }
    Ok(found.map(|k| (inter, k)))
}

/// The moves worth considering at `pos` (see the module doc), with the fill-in and must-play
/// region it found.
pub(crate) fn consider<B: IceBits>(pos: &Pos<B>) -> Consider<B> {
    let all = pos.empty();
    let me = pos.to_move as usize & 1;
    let keep = |moves: B| Consider { moves, filled: B::ZERO, mustplay: !B::ZERO };
    let win = pos.winning_cells(me);
    if win.any() {
        return keep(win);
    }
    let threats = pos.winning_cells(me ^ 1);
    match threats.count() {
        0 => {}
        1 => return keep(threats),
        _ => return keep(all),
    }
    let f = fillin(pos);
    let kb = f.apply(pos);
    let open = kb.empty();
    if kb.connected(me ^ 1) {
        return keep(all);
    }
    if kb.connected(me) || open.is_zero() {
        return Consider { moves: if open.any() { open } else { all }, filled: f.cells(), mustplay: !B::ZERO };
    }
    let mut out = Consider { moves: open, filled: f.cells(), mustplay: !B::ZERO };
    match semis(&kb, me ^ 1) {
        // Q connects virtually on the filled board: lost, keep the fill-in's pruning only.
        Err(()) => return out,
        Ok(Some((region, _))) => {
            out.mustplay = region;
            if (open & region).any() {
                out.moves = open & region;
            }
        }
        Ok(None) => {}
    }
    // P's own semi-connection: its key wins.
    if let Ok(Some((_, key))) = semis(&kb, me) {
        if out.moves.test(key) {
            out.moves = B::bit(key);
        }
    }
    out
}

/// [`consider`] on a position given by its stones (side `n`, `to_move`), written as dense move
/// indices (bit `row * n + col`) into `out` (cleared first); returns whether it pruned any
/// empty cell.
pub(crate) fn consider_into<B: IceBits>(n: usize, stones: [B; 2], to_move: u8, out: &mut [u64]) -> bool {
    let p = Pos { n: n as u8, stones, to_move };
    let c = consider(&p);
    out.iter_mut().for_each(|w| *w = 0);
    for (o, w) in out.iter_mut().zip(c.moves.words().as_ref()) {
        *o = *w;
    }
    c.moves != p.empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::hex::bitset::W6;
    use crate::game::hex::Hex;
    use crate::game::Game;
    use crate::rng::Rng64;
    use crate::solve::hex::dfpn::{Dfpn, DfpnConfig};

    /// Whether the side to move wins `g` (exact).
    fn wins(s: &mut Dfpn, g: &Hex) -> bool {
        let r = s.solve(g, &mut |_| false).expect("a legal position").expect("solved");
        r.winner == g.to_move()
    }

    /// Checks `consider` on `g`: the kept set is non-empty, inside the empty cells, the same on
    /// `u64` and `u128`, and holds a winning move whenever the mover wins. Returns (pruned
    /// cells, whether the mover wins).
    fn check(s: &mut Dfpn, g: &Hex) -> (u32, bool) {
        let p = Pos::from_hex(g);
        let c = consider(&p);
        assert!(c.moves.any() && c.moves & !p.empty() == 0, "{p:?}: {c:?}");
        let wide = consider(&Pos::<u128> { n: p.n, stones: [p.stones[0] as u128, p.stones[1] as u128], to_move: p.to_move });
        assert_eq!(wide.moves, c.moves as u128, "u64 and u128 differ on {p:?}");
        let w = wins(s, g);
        if w {
            let mut cand = c.moves;
            let mut found = false;
            while cand != 0 && !found {
                let m = cand.trailing_zeros() as u16;
                cand &= cand - 1;
                let mut child = g.clone();
                child.play_unchecked(m);
                found = child.outcome().is_some() || !wins(s, &child);
            }
            assert!(found, "no winning move kept at {p:?}: kept {:#x}, {c:?}", c.moves);
        }
        ((p.empty() & !c.moves).count_ones(), w)
    }

    /// Every position of `games` random games of side `n` (both to move as played).
    fn random_games(n: usize, games: usize, seed: u64) -> (u32, u32, u32) {
        let mut rng = Rng64::new(seed);
        let mut s = Dfpn::new(DfpnConfig { tt_log2: 18, ..DfpnConfig::default() }).unwrap();
        let (mut positions, mut pruned, mut pruned_at) = (0, 0, 0);
        for _ in 0..games {
            let mut g = Hex::new(n, false).unwrap();
            while g.outcome().is_none() {
                let (k, _) = check(&mut s, &g);
                positions += 1;
                pruned += k;
                pruned_at += (k > 0) as u32;
                let mut moves = crate::game::MoveList::new();
                g.legal_moves(&mut moves);
                let m = moves[rng.below(moves.len() as u32) as usize];
                g.play_unchecked(m);
            }
        }
        (positions, pruned, pruned_at)
    }

    #[test]
    fn knowledge_keeps_a_winning_move_in_every_5x5_position_of_random_games() {
        let (positions, pruned, at) = random_games(5, 60, 1);
        println!("5x5: {positions} positions, {pruned} cells pruned at {at}");
        assert!(at > positions / 4, "knowledge pruned at {at} of {positions} positions only");
    }

    #[test]
    fn knowledge_keeps_a_winning_move_in_6x6_openings_and_random_games() {
        let mut s = Dfpn::new(DfpnConfig { tt_log2: 20, ..DfpnConfig::default() }).unwrap();
        for cell in 0..36u16 {
            let mut g = Hex::new(6, false).unwrap();
            g.play_unchecked(cell);
            check(&mut s, &g);
        }
        let (positions, _, at) = random_games(6, 12, 2);
        assert!(at > positions / 4, "{at} of {positions}");
    }

    #[test]
    fn templates_and_bridges_make_components_and_semis() {
        let at = |r: usize, c: usize| 1u64 << (r * 5 + c);
        // 5×5: Black c2 (row 1) has template II to the top (c1, d1), c2–b4 is a bridge (b3, c3)
        // and b4 (row 3) has template II to the bottom (a5, b5): Black is virtually connected.
        let p = Pos { n: 5, stones: [at(1, 2) | at(3, 1), at(2, 4)], to_move: 1 };
        assert!(semis(&p, 0).is_err());
        // Black c2 and c4 (rows 1 and 3, one common neighbour c3): each joins its edge by
        // template II; c3 joins them, a semi-connection whose carrier holds the four template
        // cells and c3.
        let p = Pos { n: 5, stones: [at(1, 2) | at(3, 2), at(4, 4)], to_move: 1 };
        let (region, _) = semis(&p, 0).unwrap().expect("a Black semi");
        let templates = at(0, 2) | at(0, 3) | at(4, 1) | at(4, 2);
        assert_eq!(region & templates, templates, "{region:#x}");
        assert_ne!(region & at(2, 2), 0, "{region:#x}");
        // White to move there: whatever is kept lies outside the fill-in.
        let c = consider(&p);
        assert_eq!(c.moves & c.filled, 0, "{c:?}");
    }

    /// The position after `plies` uniformly random moves on an empty n×n board, or `None` when
    /// the game ended on the way.
    fn random_position(n: usize, plies: usize, rng: &mut Rng64) -> Option<Hex> {
        let mut g = Hex::new(n, false).unwrap();
        for _ in 0..plies {
            let mut moves = crate::game::MoveList::new();
            g.legal_moves(&mut moves);
            g.play_unchecked(moves[rng.below(moves.len() as u32) as usize]);
            if g.outcome().is_some() {
                return None;
            }
        }
        Some(g)
    }

    #[test]
    fn the_set_types_agree_on_9x9_to_13x13() {
        let mut rng = Rng64::new(3);
        let mut pruned = 0;
        for n in [9usize, 11, 13] {
            for _ in 0..20 {
                let plies = rng.below((n * n / 2) as u32) as usize;
                let Some(g) = random_position(n, plies, &mut rng) else { continue };
                let mut st = [W6::ZERO; 2];
                let mut narrow = [0u128; 2];
                for c in 0..n * n {
                    if let Some(p) = g.stone_at(c) {
                        st[p as usize] |= W6::bit(c);
                        // The u128 board holds 128 cells (11×11); 13×13 is W6 only.
                        if c < 128 {
                            narrow[p as usize] |= 1u128 << c;
                        }
                    }
                }
                let mut wide = [0u64; 6];
                pruned += consider_into(n, st, g.to_move(), &mut wide) as u32;
                assert!(wide.iter().any(|&w| w != 0));
                if n <= 11 {
                    let mut small = [0u64; 6];
                    consider_into(n, narrow, g.to_move(), &mut small);
                    assert_eq!(small, wide, "u128 and W6 differ, n = {n}");
                }
            }
        }
        assert!(pruned > 10, "{pruned}");
    }

    /// Measurement (release, ignored): the cost of [`consider`] on 11×11 positions of random
    /// games and what it prunes. `cargo test --release --lib hex::knowledge::tests::measure --
    /// --ignored --nocapture`.
    #[test]
    #[ignore]
    fn measure_consider_on_11x11() {
        let mut rng = Rng64::new(11);
        let mut positions = Vec::new();
        while positions.len() < 4000 {
            let plies = 4 + rng.below(60) as usize;
            if let Some(g) = random_position(11, plies, &mut rng) {
                let mut st = [0u128; 2];
                for c in 0..121 {
                    if let Some(p) = g.stone_at(c) {
                        st[p as usize] |= 1 << c;
                    }
                }
                positions.push(Pos::<u128> { n: 11, stones: st, to_move: g.to_move() });
            }
        }
        let (mut filled, mut region, mut pruned, mut cut) = (0u64, 0u64, 0u64, 0u64);
        for p in &positions {
            let c = consider(p);
            filled += (c.filled & p.empty()).count_ones() as u64;
            region += (c.mustplay != !0u128) as u64;
            let k = (p.empty() & !c.moves).count_ones() as u64;
            pruned += k;
            cut += (k > 0) as u64;
        }
        let start = std::time::Instant::now();
        let mut sink = 0u128;
        for _ in 0..5 {
            for p in &positions {
                sink ^= std::hint::black_box(consider(std::hint::black_box(p))).moves;
            }
        }
        let us = start.elapsed().as_secs_f64() * 1e6 / (5 * positions.len()) as f64;
        let n = positions.len() as f64;
        println!(
            "11x11, 4-63 random plies, {} positions: {us:.1} us per consider; pruned at {:.2} of them, {:.1} cells pruned on average, {:.1} filled, a must-play region at {:.2} ({})",
            positions.len(),
            cut as f64 / n,
            pruned as f64 / n,
            filled as f64 / n,
            region as f64 / n,
            sink.count_ones()
        );
    }
}
