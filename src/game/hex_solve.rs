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
//! - moves ordered by the history heuristic (Schaeffer 1989, "The history heuristic and
//!   alpha-beta search enhancements in practice": a move that proved a win at some node is tried
//!   early at the others, weighted by the depth it was found at), ties centre first.
//!
//! There are no virtual connections, dead-cell or mustplay reductions (Henderson, Arneson &
//! Hayward 2009, "Solving 8x8 Hex"), and without them the proofs grow fast: boards up to 4×4
//! solve in milliseconds (4×4 empty: 94,542 positions), a 5×5 position with one stone takes from
//! a minute (after a1: White wins, 100.7 million positions, 49 s) to more than the default budget
//! (after c3), so the 5×5 openings are out of reach of this solver; 5×5 positions with a few more
//! stones, and endgames of larger boards, are in reach. The node budget
//! ([`SolveLimits::max_nodes`]) stops it with an error instead of running for hours. The swap
//! rule is not handled (a different game at ply 1).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::{Game, Hex, MoveList, Outcome, Player};

/// The largest board the solver takes (its keys are one 64-bit set per colour).
pub const MAX_SOLVE_SIZE: usize = 8;

/// Why a position was not solved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The board has more than [`MAX_SOLVE_SIZE`] cells a side.
    #[error("the exact solver takes boards up to {MAX_SOLVE_SIZE}x{MAX_SOLVE_SIZE}; this one is {0}x{0}")]
    TooLarge(usize),
    /// The game has the swap (pie) rule, which the solver does not handle.
    #[error("the exact solver does not handle the swap rule (use hex:N without :swap)")]
    Swap,
    /// The search visited `max_nodes` positions without an answer.
    #[error("not solved within {0} positions (--max-nodes); smaller boards or more stones solve faster")]
    Budget(u64),
}

/// Limits of one solve.
#[derive(Debug, Clone, Copy)]
pub struct SolveLimits {
    /// Positions the search may visit (each call of the negamax counts one) before it gives up
    /// with [`SolveError::Budget`].
    pub max_nodes: u64,
}

impl Default for SolveLimits {
    /// 200 million positions (minutes on one core; every 5×5 opening needs far fewer).
    fn default() -> Self {
        SolveLimits { max_nodes: 200_000_000 }
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
/// move (the first found in centre-first order).
///
/// # Errors
/// [`SolveError::TooLarge`] above 8×8, [`SolveError::Swap`] with the swap rule,
/// [`SolveError::Budget`] when `limits.max_nodes` positions did not settle it.
pub fn solve(g: &Hex, limits: SolveLimits) -> Result<Solved, SolveError> {
    let n = g.size();
    if n > MAX_SOLVE_SIZE {
        return Err(SolveError::TooLarge(n));
    }
    if g.swap_enabled() {
        return Err(SolveError::Swap);
    }
    if let Some(Outcome::Win(p)) = g.outcome() {
        return Ok(Solved { winner: p, winning_move: None, nodes: 0 });
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
    let mut s = Solver { order, history: [0; 64], tt: HashMap::default(), nodes: 0, max_nodes: limits.max_nodes };
    let me = g.to_move();
    let mut best = None;
    let wins = s.first_win(g, stones, Some(&mut best))?;
    Ok(Solved { winner: if wins { me } else { 1 - me }, winning_move: if wins { best } else { None }, nodes: s.nodes })
}

/// The negamax's state.
struct Solver {
    /// Cells centre first: the order among equal history scores.
    order: Vec<u16>,
    /// History heuristic score per cell: the sum of 4^(empty cells) over the nodes where the
    /// cell was the winning move found.
    history: [u64; 64],
    /// Whether the side to move wins, keyed by (Black's stones, White's stones) (the side to move
    /// follows from the stone counts).
    tt: HashMap<(u64, u64), bool, BuildHasherDefault<KeyHasher>>,
    /// Positions visited.
    nodes: u64,
    /// The budget.
    max_nodes: u64,
}

impl Solver {
    /// Whether the side to move in `g` (not over) wins; `stones` are `g`'s stones by colour.
    /// With `best`, the winning move found is written there.
    fn first_win(&mut self, g: &Hex, stones: [u64; 2], best: Option<&mut Option<u16>>) -> Result<bool, SolveError> {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return Err(SolveError::Budget(self.max_nodes));
        }
        if let Some(m) = g.find_winning_move() {
            if let Some(b) = best {
                *b = Some(m);
            }
            return Ok(true);
        }
        let key = (stones[0], stones[1]);
        if best.is_none() {
            if let Some(&w) = self.tt.get(&key) {
                return Ok(w);
            }
        }
        let mut threats: MoveList<u16> = MoveList::new();
        g.threats(&mut threats);
        let wins = match threats.len() {
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
                let mut found = None;
                for &m in &cand {
                    if !self.after(g, stones, m)? {
                        found = Some(m);
                        break;
                    }
                }
                if let Some(m) = found {
                    let empty = cand.len() as u32;
                    self.history[m as usize] += 1u64 << (2 * empty).min(62);
                }
                if let (Some(b), Some(m)) = (best, found) {
                    *b = Some(m);
                }
                found.is_some()
            }
            // The one move that does not lose at once.
            1 => {
                let m = threats[0];
                let w = !self.after(g, stones, m)?;
                if let (Some(b), true) = (best, w) {
                    *b = Some(m);
                }
                w
            }
            _ => false,
        };
        self.tt.insert(key, wins);
        Ok(wins)
    }

    /// Whether the opponent, to move after `m`, wins.
    fn after(&mut self, g: &Hex, stones: [u64; 2], m: u16) -> Result<bool, SolveError> {
        let me = g.to_move() as usize;
        let mut child = g.clone();
        child.play_unchecked(m);
        if child.outcome().is_some() {
            // Only the mover can have connected.
            return Ok(false);
        }
        let mut next = stones;
        next[me] |= 1 << m;
        self.first_win(&child, next, None)
    }
}

/// The transposition table's hasher: the two stone sets mixed by multiplication (the keys are
/// already uniform bits; SipHash's collision resistance is not needed here).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(29) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
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
        let mut rng = crate::rng::Rng64::new(5);
        let mut checked = 0;
        while checked < 40 {
            let mut c = Hex::new(4, false).unwrap();
            let plies = 4 + rng.index(6);
            for _ in 0..plies {
                let mut moves = MoveList::new();
                c.legal_moves(&mut moves);
                if c.outcome().is_some() {
                    break;
                }
                c.play_unchecked(moves[rng.index(moves.len())]);
            }
            if c.outcome().is_none() {
                assert_eq!(solved_wins(&c), brute(&c), "{:?}", c);
                checked += 1;
            }
        }
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

    #[test]
    fn errors_instead_of_panics() {
        assert_eq!(solve(&Hex::new(9, false).unwrap(), SolveLimits::default()), Err(SolveError::TooLarge(9)));
        assert_eq!(solve(&Hex::new(4, true).unwrap(), SolveLimits::default()), Err(SolveError::Swap));
        assert_eq!(solve(&Hex::new(5, false).unwrap(), SolveLimits { max_nodes: 10 }), Err(SolveError::Budget(10)));
    }
}
