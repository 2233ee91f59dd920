//! An exact solver for small Hex boards: whether the side to move wins, and a winning move.
//!
//! Hex has no draws (the board filled in always connects one pair of edges: Gale 1979, "The game
//! of Hex and the Brouwer fixed-point theorem"), so a position is a win or a loss for the side
//! to move and the solver is a negamax over that one bit ("the mover wins if some move leaves the
//! opponent a loss"), which cuts off at the first winning move, with:
//! - a transposition table keyed exactly by the two colours' stone sets (no hash collisions; at
//!   most 64 cells, so boards up to 8×8);
//! - the tactics the engine keeps incrementally ([`Game::find_winning_move`],
//!   [`Game::threats`]): a mover with a winning cell wins; a mover facing two or more of the
//!   opponent's winning cells loses (one stone blocks one cell, and a stone does not take away
//!   the opponent's stones, so the other cell still wins); facing exactly one, the mover must
//!   play it (every other move loses at once);
//! - proof sets: once a move of the loser is refuted, only its moves inside the refutation's
//!   proof set are tried (see `Solver::first_win`);
//! - moves ordered by the history heuristic (Schaeffer 1989, "The history heuristic and
//!   alpha-beta search enhancements in practice": a move that proved a win at some node is tried
//!   early at the others, weighted by the depth it was found at), ties centre first.
//!
//! There are no virtual connections or dead-cell reductions (Henderson, Arneson & Hayward 2009,
//! "Solving 8x8 Hex"), so the solver is for small boards: 4×4 empty in 8,459 positions (a few
//! milliseconds); every 5×5 opening in 1.4 to 40 million positions, 313 million for all 25 (68 s
//! of CPU time on one core in total); 6×6 and larger only with many stones on the board. The
//! node budget ([`SolveLimits::max_nodes`]) and the clock ([`SolveLimits::seconds`]) stop it
//! with an error instead of running for hours; the transposition table has at most
//! 2^[`SolveLimits::tt_log2`] slots of 32 bytes (by default [`TT_SLOTS`], 256 MiB, and never
//! more than 2^cells), a new result replacing the one in its slot, so memory does not grow with
//! the budget. It starts at 1,024 slots and doubles instead of replacing until it reaches that
//! size, which gives the same search as the whole table up front
//! ([`crate::solve::table`]). The swap rule is not handled (a different game at ply 1).

use super::SolveError;
use crate::game::hex::MAX_SOLVE_SIZE;
use crate::game::{Game, Hex, MoveList, Outcome, Player};
use crate::solve::table::{try_extend, try_filled, TableMemoryError, INITIAL_LOG2};

/// Slots of the transposition table by default (one position each; a result replaces the one in
/// its slot): 2^23 of 32 bytes, 256 MiB.
pub const TT_SLOTS: usize = 1 << 23;

/// Bytes of one slot of the negamax's table.
pub const TT_SLOT_BYTES: usize = std::mem::size_of::<Slot>();

/// How often (in positions) the negamax looks at the clock when it has a time limit.
const CLOCK_EVERY: u64 = 4096;

/// Limits of one solve.
#[derive(Debug, Clone, Copy)]
pub struct SolveLimits {
    /// Positions the search may visit (each call of the negamax counts one) before it gives up
    /// with [`SolveError::Budget`].
    pub max_nodes: u64,
    /// Seconds the search may run before it gives up with [`SolveError::Time`] (0: no limit; the
    /// clock is read every few thousand positions).
    pub seconds: f64,
    /// log2 of the most slots (32 bytes each) the transposition table may grow to (clamped to
    /// 1..=30, and to the board's cells: 2^cells slots at most).
    pub tt_log2: u32,
}

impl Default for SolveLimits {
    /// 200 million positions (minutes on one core; every 5×5 opening needs far fewer), no time
    /// limit, a table of at most [`TT_SLOTS`] slots (256 MiB).
    fn default() -> Self {
        SolveLimits { max_nodes: 200_000_000, seconds: 0.0, tt_log2: TT_SLOTS.trailing_zeros() }
    }
}

/// The result of [`solve`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solved {
    /// The player who wins with perfect play from the position.
    pub winner: Player,
    /// A winning move of the side to move (a cell, `row * size + col`) when it is the winner and
    /// the game is not over; `None` otherwise.
    pub winning_move: Option<u16>,
    /// Positions the negamax visited (transposition-table hits included).
    pub nodes: u64,
}

/// Solves `g` exactly: who wins with perfect play and, if it is the side to move, one winning
/// move (the first one found).
///
/// # Errors
/// [`SolveError::TooLarge`] above 8×8, [`SolveError::Swap`] with the swap rule,
/// [`SolveError::Budget`] when `limits.max_nodes` positions did not settle it,
/// [`SolveError::Time`] when `limits.seconds` did not, [`SolveError::Memory`] when the system
/// refused the table's first slots.
pub fn solve(g: &Hex, limits: SolveLimits) -> Result<Solved, SolveError> {
    solve_with_table(g, limits).map(|(s, _)| s)
}

/// What the negamax's table came to in one [`solve_with_table`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableUse {
    /// Bytes allocated when the solve ended (the table only grows).
    pub bytes: usize,
    /// The most bytes it could have grown to.
    pub max_bytes: usize,
    /// The doubling the system refused, if one was (the search went on with the table it had).
    pub refused: Option<TableMemoryError>,
}

/// [`solve`], and what its table came to.
///
/// # Errors
/// As [`solve`].
pub fn solve_with_table(g: &Hex, limits: SolveLimits) -> Result<(Solved, TableUse), SolveError> {
    let n = g.size();
    if n > MAX_SOLVE_SIZE {
        return Err(SolveError::TooLarge(n));
    }
    if g.swap_enabled() {
        return Err(SolveError::Swap);
    }
    if let Some(Outcome::Win(p)) = g.outcome() {
        return Ok((Solved { winner: p, winning_move: None, nodes: 0 }, TableUse { bytes: 0, max_bytes: 0, refused: None }));
    }
    let mut stones = [0u64; 2];
    for cell in 0..n * n {
        if let Some(p) = g.stone_at(cell) {
            stones[p as usize] |= 1 << cell;
        }
    }
    // Cells centre first (squared distance to the centre; ties by index).
    let c = (n as i64 - 1) as f64 / 2.0;
    let mut order: Vec<u16> = (0..(n * n) as u16).collect();
    order.sort_by(|&a, &b| {
        let d = |x: u16| {
            let (r, col) = ((x as usize / n) as f64, (x as usize % n) as f64);
            (r - c).powi(2) + (col - c).powi(2)
        };
        d(a).total_cmp(&d(b)).then(a.cmp(&b))
    });
    // 2^(cells) slots at most: small boards get a small table.
    let max_bits = ((n * n) as u32).min(limits.tt_log2).clamp(1, 30);
    let bits = max_bits.min(INITIAL_LOG2);
    let deadline = (limits.seconds > 0.0).then(|| (std::time::Instant::now(), limits.seconds));
    let mut s = Solver {
        order,
        history: [0; 64],
        tt: try_filled(1 << bits, Slot::default())?,
        bits,
        max_bits,
        refused: None,
        nodes: 0,
        max_nodes: limits.max_nodes,
        deadline,
    };
    let me = g.to_move();
    let mut best = None;
    let r = s.first_win(g, stones, Some(&mut best))?;
    let table = TableUse { bytes: s.tt.capacity() * TT_SLOT_BYTES, max_bytes: TT_SLOT_BYTES << max_bits, refused: s.refused };
    Ok((Solved { winner: if r.wins { me } else { 1 - me }, winning_move: if r.wins { best } else { None }, nodes: s.nodes }, table))
}

/// A solved position: whether the side to move wins, and a proof set of the winner's win.
#[derive(Clone, Copy)]
struct Proof {
    /// Whether the side to move wins.
    wins: bool,
    /// Empty cells (bit `cell`) such that the winner still wins if every other empty cell were
    /// the loser's stone (and the winner only ever needs to play inside the set).
    set: u64,
}

/// The negamax's state.
struct Solver {
    /// Cells centre first: the order among equal history scores.
    order: Vec<u16>,
    /// History heuristic score per cell: the sum of 4^(empty cells) over the nodes where the
    /// cell was the winning move found.
    history: [u64; 64],
    /// Solved positions by the hash of (Black's stones, White's stones) (the side to move follows
    /// from the stone counts): `2^bits` slots, growing up to `2^max_bits`.
    tt: Vec<Slot>,
    /// log2 of the table's size.
    bits: u32,
    /// log2 of the most slots the table may grow to.
    max_bits: u32,
    /// The doubling the system refused, if one was (the table then stays at its size).
    refused: Option<TableMemoryError>,
    /// Positions visited.
    nodes: u64,
    /// The budget.
    max_nodes: u64,
    /// When the search started and the seconds it may run, with a time limit.
    deadline: Option<(std::time::Instant, f64)>,
}

impl Solver {
    /// Solves `g` (not over) for the side to move; `stones` are `g`'s stones by colour. With
    /// `best`, the winning move found is written there.
    ///
    /// Proof sets (the pruning): if the winner W still wins when every empty cell outside a set
    /// S is a stone of the loser L, then L's moves outside S lose too, because a stone of L at
    /// one more cell and an empty cell where L's stone was can only help W (Hex is monotone:
    /// a stone never hurts its owner). So at a node where the mover loses, once the first
    /// move's refutation has proof set S₁, only the mover's moves inside S₁ are tried, and
    /// inside the intersection of the sets of all refutations found so far; the node's set is
    /// their union. A winning move w gives {w} ∪ the child's set; a winning cell c gives {c};
    /// two of the opponent's winning cells give those two. This is the "mustplay from proofs"
    /// of Hex solvers (Hayward, Björnsson, Johanson, Kan, Po & van Rijswijck 2005, "Solving
    /// 7×7 Hex: virtual connections and game-state reduction", where the sets also come from
    /// virtual connections, which this solver does not have).
    fn first_win(&mut self, g: &Hex, stones: [u64; 2], best: Option<&mut Option<u16>>) -> Result<Proof, SolveError> {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return Err(SolveError::Budget(self.max_nodes));
        }
        if let Some((t0, secs)) = self.deadline {
            if self.nodes.is_multiple_of(CLOCK_EVERY) && t0.elapsed().as_secs_f64() >= secs {
                return Err(SolveError::Time(secs));
            }
        }
        if let Some(m) = g.find_winning_move() {
            if let Some(b) = best {
                *b = Some(m);
            }
            return Ok(Proof { wins: true, set: 1 << m });
        }
        let slot = slot_of(stones, self.bits);
        if best.is_none() {
            let e = &self.tt[slot];
            if e.state != 0 && e.stones == stones {
                return Ok(Proof { wins: e.state == 2, set: e.set });
            }
        }
        let mut threats: MoveList<u16> = MoveList::new();
        g.threats(&mut threats);
        let proof = match threats.len() {
            0 => {
                let occupied = stones[0] | stones[1];
                let mut cand: MoveList<u16> = MoveList::new();
                for &m in &self.order {
                    if occupied >> m & 1 == 0 {
                        cand.push(m);
                    }
                }
                // Stable: equal scores keep the centre-first order.
                let history = &self.history;
                cand.sort_by_key(|&m| std::cmp::Reverse(history[m as usize]));
                // The moves still to try (the intersection of the refutations' sets) and the
                // union of those sets.
                let (mut must, mut union) = (!occupied, 0u64);
                let mut found = None;
                for &m in &cand {
                    if must >> m & 1 == 0 {
                        continue;
                    }
                    let child = self.after(g, stones, m)?;
                    if !child.wins {
                        found = Some((m, child.set));
                        break;
                    }
                    must &= child.set;
                    union |= child.set;
                }
                match found {
                    Some((m, set)) => {
                        let empty = cand.len() as u32;
                        self.history[m as usize] += 1u64 << (2 * empty).min(62);
                        if let Some(b) = best {
                            *b = Some(m);
                        }
                        Proof { wins: true, set: set | 1 << m }
                    }
                    None => Proof { wins: false, set: union },
                }
            }
            // The one move that does not lose at once (every other move loses to `t`).
            1 => {
                let t = threats[0];
                let child = self.after(g, stones, t)?;
                if let (Some(b), false) = (best, child.wins) {
                    *b = Some(t);
                }
                Proof { wins: !child.wins, set: child.set | 1 << t }
            }
            // The opponent plays whichever of two winning cells is left.
            _ => Proof { wins: false, set: 1 << threats[0] | 1 << threats[1] },
        };
        self.store(stones, Slot { stones, set: proof.set, state: 1 + proof.wins as u8 });
        Ok(proof)
    }

    /// Stores a result in its slot; a slot that holds another position doubles the table
    /// instead while it may grow, else is overwritten.
    fn store(&mut self, stones: [u64; 2], e: Slot) {
        loop {
            let slot = slot_of(stones, self.bits);
            let old = &self.tt[slot];
            if old.state != 0 && old.stones != stones && self.bits < self.max_bits && self.refused.is_none() && self.grow() {
                continue;
            }
            self.tt[slot] = e;
            return;
        }
    }

    /// Doubles the table in place: slot `s`'s position goes to `2s` or `2s + 1`. False when the
    /// system refused the memory (recorded in `refused`; the table is unchanged).
    fn grow(&mut self) -> bool {
        let old = self.tt.len();
        if let Err(e) = try_extend(&mut self.tt, 2 * old, Slot::default()) {
            self.refused = Some(e);
            return false;
        }
        self.bits += 1;
        // From the last slot down: slots 2s and 2s + 1 are then already moved out (or new).
        for s in (0..old).rev() {
            let e = std::mem::take(&mut self.tt[s]);
            if e.state != 0 {
                self.tt[slot_of(e.stones, self.bits)] = e;
            }
        }
        true
    }

    /// The opponent's result, to move after `m`.
    fn after(&mut self, g: &Hex, stones: [u64; 2], m: u16) -> Result<Proof, SolveError> {
        let me = g.to_move() as usize;
        let mut child = g.clone();
        child.play_unchecked(m);
        if child.outcome().is_some() {
            // Only the mover can have connected, with `m`.
            return Ok(Proof { wins: false, set: 1 << m });
        }
        let mut next = stones;
        next[me] |= 1 << m;
        self.first_win(&child, next, None)
    }
}

/// One transposition-table entry: the exact position (both stone sets) and its [`Proof`].
#[derive(Clone, Copy, Default)]
struct Slot {
    /// Black's and White's stones.
    stones: [u64; 2],
    /// The proof set.
    set: u64,
    /// 0 = empty slot, 1 = the side to move loses, 2 = it wins.
    state: u8,
}

/// The slot of a position in a table of `2^bits` slots (`1 ≤ bits ≤ 63`): its two stone sets
/// mixed by multiplication, the top bits (Fibonacci hashing).
#[inline]
fn slot_of(stones: [u64; 2], bits: u32) -> usize {
    let h = (stones[0].wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ stones[1]).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    (h >> (64 - bits)) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain negamax over every move, no pruning and no table: the definition.
    fn brute(g: &Hex) -> bool {
        if let Some(Outcome::Win(p)) = g.outcome() {
            return p == g.to_move();
        }
        let mut moves = MoveList::new();
        g.legal_moves(&mut moves);
        moves.iter().any(|&m| {
            let mut c = g.clone();
            c.play_unchecked(m);
            !brute(&c)
        })
    }

    fn solved_wins(g: &Hex) -> bool {
        solve(g, SolveLimits::default()).unwrap().winner == g.to_move()
    }

    #[test]
    fn the_first_player_wins_every_small_empty_board() {
        for n in 1..=4 {
            let g = Hex::new(n, false).unwrap();
            let s = solve(&g, SolveLimits::default()).unwrap();
            assert_eq!(s.winner, 0, "{n}x{n}");
            // The winning move wins.
            let mut c = g.clone();
            c.play_unchecked(s.winning_move.unwrap());
            assert!(!solved_wins(&c), "{n}x{n}");
        }
    }

    #[test]
    fn agrees_with_brute_force_on_3x3_openings_and_random_4x4_positions() {
        let g = Hex::new(3, false).unwrap();
        for cell in 0..9 {
            let mut c = g.clone();
            c.play_unchecked(cell);
            assert_eq!(solved_wins(&c), brute(&c), "3x3 opening {cell}");
        }
        agree_on_random_positions(4, 4..10, 40, 5);
    }

    /// 4×4: the first player wins with exactly the four cells of the short diagonal (d1 c2 b3 a4),
    /// a set symmetric under the 180° rotation as every Hex result must be.
    #[test]
    fn four_by_four_openings_win_on_the_short_diagonal() {
        let g = Hex::new(4, false).unwrap();
        let wins: Vec<u16> = (0..16)
            .filter(|&cell| {
                let mut c = g.clone();
                c.play_unchecked(cell);
                !solved_wins(&c)
            })
            .collect();
        assert_eq!(wins, vec![3, 6, 9, 12]);
        assert!(wins.iter().all(|&c| wins.contains(&(15 - c))));
    }

    /// 5×5 openings against the known results (13 of 25 win for the first player, the centre
    /// among them; `mcts solve --game hex:5 --openings` lists all 25): the centre and the two
    /// obtuse corners win, the acute corner a1 and the edge cells c1, c5, d1 lose.
    #[test]
    fn five_by_five_openings_known_results() {
        let g = Hex::new(5, false).unwrap();
        for (cell, black_wins) in [(12, true), (4, true), (20, true), (0, false), (2, false), (22, false), (3, false)] {
            let mut c = g.clone();
            c.play_unchecked(cell);
            assert_eq!(!solved_wins(&c), black_wins, "opening {}", g.format_move(cell));
        }
    }

    /// The proof-set pruning against plain negamax on 5×5 positions with 15 or more stones.
    #[test]
    fn agrees_with_brute_force_on_random_5x5_endgames() {
        agree_on_random_positions(5, 15..18, 30, 11);
    }

    /// The solver agrees with [`brute`] on `count` positions of an `n`×`n` board after a random
    /// number of random plies in `plies` (positions already over are skipped).
    fn agree_on_random_positions(n: usize, plies: std::ops::Range<usize>, count: usize, seed: u64) {
        let mut rng = crate::rng::Rng64::new(seed);
        let mut checked = 0;
        while checked < count {
            let mut c = Hex::new(n, false).unwrap();
            for _ in 0..plies.start + rng.index(plies.len()) {
                let mut moves = MoveList::new();
                c.legal_moves(&mut moves);
                if c.outcome().is_some() {
                    break;
                }
                c.play_unchecked(moves[rng.index(moves.len())]);
            }
            if c.outcome().is_none() {
                assert_eq!(solved_wins(&c), brute(&c), "{c:?}");
                checked += 1;
            }
        }
    }

    #[test]
    fn errors_instead_of_panics() {
        assert_eq!(solve(&Hex::new(9, false).unwrap(), SolveLimits::default()), Err(SolveError::TooLarge(9)));
        assert_eq!(solve(&Hex::new(4, true).unwrap(), SolveLimits::default()), Err(SolveError::Swap));
        let ten = SolveLimits { max_nodes: 10, ..SolveLimits::default() };
        assert_eq!(solve(&Hex::new(5, false).unwrap(), ten), Err(SolveError::Budget(10)));
    }

    /// `seconds` stops the negamax with [`SolveError::Time`] (the empty 6×6 board needs far
    /// more than the budget of positions allows in a tiny fraction of a second, so the clock
    /// stops it first; no duration is asserted).
    #[test]
    fn a_time_limit_stops_the_negamax() {
        let limits = SolveLimits { seconds: 1e-9, max_nodes: u64::MAX, ..SolveLimits::default() };
        assert_eq!(solve(&Hex::new(6, false).unwrap(), limits), Err(SolveError::Time(1e-9)));
    }

    /// The table grows only as far as the solve needs, and the search is the one of the whole
    /// table: the same nodes and moves as a table that starts at its largest size (a table of
    /// 2^8 slots, overflowed by 4×4 openings, against the same size given at once).
    #[test]
    fn the_table_grows_as_needed_and_searches_as_the_whole_table() {
        let (s, t) = solve_with_table(&Hex::new(4, false).unwrap(), SolveLimits { tt_log2: 30, ..SolveLimits::default() }).unwrap();
        assert_eq!(t.max_bytes, 32 << 16, "2^cells slots at most");
        assert!(t.bytes <= t.max_bytes, "{} bytes for 4x4 in {} positions", t.bytes, s.nodes);
        let mut g = Hex::new(5, false).unwrap();
        for m in ["a1", "c3", "e5", "b2", "d4", "a5", "e1", "c1", "c5", "b4", "d2"] {
            let m = g.parse_move(m).unwrap();
            g.play_unchecked(m);
        }
        let (s, t) = solve_with_table(&g, SolveLimits { tt_log2: 30, ..SolveLimits::default() }).unwrap();
        assert_eq!(t.max_bytes, 32 << 25);
        assert!(t.bytes <= 32 << 14, "{} bytes for a 5x5 endgame of {} positions", t.bytes, s.nodes);
        // A solver whose table starts at 2^bits slots and may grow to 2^8.
        let solver = |bits: u32| Solver {
            order: (0..16).collect(),
            history: [0; 64],
            tt: vec![Slot::default(); 1 << bits],
            bits,
            max_bits: 8,
            refused: None,
            nodes: 0,
            max_nodes: u64::MAX,
            deadline: None,
        };
        for cell in [0, 5, 10] {
            let mut g = Hex::new(4, false).unwrap();
            g.play_unchecked(cell);
            let (mut grown, mut whole) = (solver(2), solver(8));
            let stones = [1u64 << cell, 0];
            let (a, b) = (grown.first_win(&g, stones, None).unwrap(), whole.first_win(&g, stones, None).unwrap());
            assert_eq!((a.wins, a.set, grown.nodes), (b.wins, b.set, whole.nodes), "opening {cell}");
            assert_eq!(grown.tt.len(), 1 << 8, "grown to its largest size");
            assert!(grown.tt.iter().zip(&whole.tt).all(|(x, y)| x.stones == y.stones && x.state == y.state && x.set == y.set));
        }
    }
}
