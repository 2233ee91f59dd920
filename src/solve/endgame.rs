//! An exact solver for small positions of games with draws (Tic-Tac-Toe, Pentago endgames), over
//! the [`Game`] trait: the value of a position for its side to move — win, draw or loss with
//! perfect play — a move that keeps it, and the exact value of every move of the root.
//!
//! # The search
//! Negamax with alpha-beta pruning (Knuth & Moore 1975, "An analysis of alpha-beta pruning",
//! Artificial Intelligence 6) over the three values {loss, draw, win} = {−1, 0, 1}, fail-soft,
//! searched with the full window (−1, 1) at the root so the root's value is exact. Around it:
//! - **immediate results first**: a position where the side to move has a move that wins at once
//!   ([`Game::find_winning_move`], the games' bitboard threat tests) is a win without search;
//!   every child is played once and, when it ends the game or leaves the opponent a move that
//!   wins at once, takes that value without a recursive search (an opponent's immediate win is a
//!   loss for the mover whatever else the child holds);
//! - **a transposition table** (Greenblatt, Eastlake & Crocker 1967; the bound-storing form of
//!   Marsland 1986, "A review of game-tree pruning", ICCA Journal 9): each entry keeps a lower
//!   and an upper bound of the position's value and the move that reached the lower bound,
//!   keyed by [`Game::exact_key`] (both colours' stone sets for Tic-Tac-Toe and Pentago: no two
//!   positions share a key, so a hit is never another position's value) in buckets of two, one
//!   slot keeping the entry with the larger subtree, the other the newest;
//! - **move ordering**: the table's move first, then the history heuristic (Schaeffer 1989, "The
//!   history heuristic and alpha-beta search enhancements in practice", IEEE PAMI 11): moves that
//!   caused cut-offs elsewhere, weighted by the number of moves at that node.
//!
//! # Slices, budget and stop
//! The caller's `stop` callback is asked every [`STOP_EVERY`] positions; when it says stop, the
//! search unwinds at once and reports nothing ("unknown"): a value is only ever read from a
//! finished search. Everything finished stays in the table, so the next call (the page's worker
//! runs solves in slices of about 10 ms) walks back down to where it stopped through table hits
//! and goes on. [`ExactSession`] solves the root and then each of its moves, slice by slice, as
//! the Hex proof-number solver's session does ([`super::hex::dfpn::SolveSession`]).
//!
//! # Where it runs
//! [`check`] says which positions are small enough: every Tic-Tac-Toe position (the empty board
//! is a draw in 479 positions), and Pentago positions with at most [`PENTAGO_MAX_EMPTY`] empty
//! cells. The limit was measured on the 64 positions of `tests/data/pentago-endgames.jsonl`
//! (eight each with 4, 6, …, 18 empty cells; `examples/pentago_endgames.rs --solve`): the
//! slowest root took about 6 s natively with 14 empty cells and 3 s with 16, but 26 s with 18
//! (docs/limits.md). Hex has the proof-number solver ([`super::hex::dfpn`]), which knows Hex's
//! connections.

use super::table::{try_extend, try_filled, TableMemoryError, INITIAL_LOG2};
use crate::game::registry::{EndgameRefusal, Registered};
use crate::game::{AnyGame, Game, MoveList, Outcome, Player};
#[cfg(test)]
use crate::game::{Pentago, TicTacToe};

/// The value of a position for its side to move, with perfect play by both sides (serialised
/// `"win"`, `"draw"`, `"loss"`, as [`Value::name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Value {
    /// The side to move loses.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// The side to move wins.
    Win,
}

impl Value {
    /// `"win"`, `"draw"` or `"loss"` (the JSON of `mcts solve` and the page's protocol).
    pub fn name(self) -> &'static str {
        match self {
            Value::Win => "win",
            Value::Draw => "draw",
            Value::Loss => "loss",
        }
    }

    /// The value for the other player.
    pub fn flip(self) -> Value {
        match self {
            Value::Win => Value::Loss,
            Value::Draw => Value::Draw,
            Value::Loss => Value::Win,
        }
    }

    /// The value of a finished game for `player`.
    pub fn of_outcome(o: Outcome, player: Player) -> Value {
        match o {
            Outcome::Win(p) if p == player => Value::Win,
            Outcome::Win(_) => Value::Loss,
            Outcome::Draw => Value::Draw,
        }
    }

    /// The winner when `to_move` has this value (`None` for a draw).
    pub fn winner(self, to_move: Player) -> Option<Player> {
        match self {
            Value::Win => Some(to_move),
            Value::Loss => Some(1 - to_move),
            Value::Draw => None,
        }
    }

    /// −1 for a loss, 0 for a draw, +1 for a win (the negamax score).
    pub fn score(self) -> i8 {
        self as i8 - 1
    }

    fn from_score(s: i8) -> Value {
        match s {
            1.. => Value::Win,
            0 => Value::Draw,
            _ => Value::Loss,
        }
    }
}

/// The most empty cells a Pentago position may have for [`check`] (docs/limits.md; how it was
/// measured: the module documentation). Pentago's fact, defined with its rules.
pub use crate::game::pentago::PENTAGO_MAX_EMPTY;

/// How often (in positions) the `stop` callback is asked.
pub const STOP_EVERY: u64 = 1024;

/// Why a position is not solved.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ExactError {
    /// A Pentago position with more than [`PENTAGO_MAX_EMPTY`] empty cells.
    #[error(
        "Pentago with {empty} empty cells is too large for the exact solver: it takes positions with at most {limit} empty cells ({} or more stones placed)",
        36 - limit
    )]
    TooLarge {
        /// Empty cells of the position.
        empty: usize,
        /// [`PENTAGO_MAX_EMPTY`].
        limit: usize,
    },
    /// Hex, which the proof-number solver takes instead ([`super::hex::dfpn`]).
    #[error("Hex positions are solved by the proof-number solver (hex:N, N <= 8, without the swap rule), not by the endgame solver")]
    Hex,
    /// The search visited this many positions without an answer.
    #[error("not solved within {0} positions (--max-nodes); positions with fewer empty cells solve faster")]
    Budget(u64),
    /// The search ran for its time limit (seconds) without an answer.
    #[error("not solved within {0} s (--time); positions with fewer empty cells solve faster")]
    Time(f64),
    /// The system refused the transposition table's memory.
    #[error(transparent)]
    Memory(#[from] TableMemoryError),
}

/// Whether the endgame solver takes `g`: as its game says
/// ([`Registered::endgame_table_log2`]): every Tic-Tac-Toe position; Pentago with at most
/// [`PENTAGO_MAX_EMPTY`] empty cells.
///
/// # Errors
/// [`ExactError::TooLarge`] for a larger Pentago position, [`ExactError::Hex`] for Hex.
pub fn check(g: &AnyGame) -> Result<(), ExactError> {
    crate::with_game!(g, g => g.endgame_table_log2().map(|_| ()).map_err(ExactError::from))
}

impl From<EndgameRefusal> for ExactError {
    fn from(r: EndgameRefusal) -> ExactError {
        match r {
            EndgameRefusal::TooLarge { empty, limit } => ExactError::TooLarge { empty, limit },
            EndgameRefusal::ProofNumber => ExactError::Hex,
        }
    }
}

/// The solver's settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExactConfig {
    /// log2 of the most entries (24 bytes each) the transposition table may grow to: 23 =
    /// 192 MiB, 21 = 48 MiB. Clamped to 10..=30. The table starts at 1,024 entries and doubles
    /// only when a bucket would lose an entry ([`crate::solve::table`]).
    pub tt_log2: u32,
}

impl Default for ExactConfig {
    /// 2^23 entries (192 MiB).
    fn default() -> Self {
        ExactConfig { tt_log2: 23 }
    }
}

impl ExactConfig {
    /// The largest table of at most `mib` MiB (at least 2^10 entries).
    pub fn with_mib(mib: u32) -> ExactConfig {
        let entries = ((mib as u64) << 20) / std::mem::size_of::<Slot>() as u64;
        ExactConfig { tt_log2: (63 - entries.max(1).leading_zeros()).clamp(10, 30) }
    }
}

impl ExactConfig {
    /// These settings with the table no larger than `g` can use
    /// ([`Registered::endgame_table_log2`]: 2^14 entries for Tic-Tac-Toe, 5,478 positions in all;
    /// 2^(12 + 2·empty cells) for Pentago); unchanged for a position the solver does not take.
    pub fn fit(self, g: &AnyGame) -> ExactConfig {
        let cap = crate::with_game!(g, g => g.endgame_table_log2()).unwrap_or(self.tt_log2);
        ExactConfig { tt_log2: self.tt_log2.min(cap) }
    }
}

/// Counters of a solver's work since it was created.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ExactStats {
    /// Positions the alpha-beta entered (table hits included; the children looked at only for an
    /// immediate result are not counted): the solver's "nodes".
    pub nodes: u64,
    /// Positions whose moves were generated and looked at.
    pub expanded: u64,
    /// Positions settled by an immediate win without looking at their moves.
    pub terminal: u64,
    /// Positions answered by the transposition table.
    pub tt_hits: u64,
    /// Table entries in use.
    pub tt_used: u64,
    /// Table entries overwritten by another position.
    pub tt_replaced: u64,
}

/// A solved position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Solved<M> {
    /// Its value for the side to move.
    pub value: Value,
    /// A move that keeps the value (a winning move of a win, a drawing move of a draw); `None`
    /// for a loss.
    pub best: Option<M>,
}

/// One slot of the table: 24 bytes.
#[derive(Clone, Copy, Default)]
struct Slot {
    /// The position's exact key ([`Game::exact_key`], or its hash).
    key: [u64; 2],
    /// Positions searched below it when it was stored (0: empty slot).
    work: u32,
    /// Dense index of the move that reached `lo` (`NO_MOVE`: none).
    best: u16,
    /// Lower and upper bound of the value, −1..=1.
    lo: i8,
    hi: i8,
}

const NO_MOVE: u16 = u16::MAX;

/// The exact solver; it keeps its transposition table between calls.
pub struct Exact<G: Game> {
    /// Buckets of two slots: slot 0 keeps the larger subtree, slot 1 the newest entry.
    tt: Vec<[Slot; 2]>,
    mask: usize,
    /// The most buckets the table may grow to, minus one.
    max_mask: usize,
    /// The doubling the system refused, if one was (the table then stays at its size).
    refused: Option<TableMemoryError>,
    /// History heuristic score per dense move index.
    history: Vec<u32>,
    stats: ExactStats,
    stopped: bool,
    _game: std::marker::PhantomData<fn() -> G>,
}

impl<G: Game> Exact<G> {
    /// A solver with an empty table of 1,024 entries, which grows up to `2^cfg.tt_log2`.
    ///
    /// # Errors
    /// The system refused the table's first entries.
    pub fn new(cfg: ExactConfig) -> Result<Exact<G>, TableMemoryError> {
        let max_log2 = cfg.tt_log2.clamp(10, 30);
        Exact::sized(max_log2.min(INITIAL_LOG2), max_log2)
    }

    /// A solver whose table has `2^log2` entries and may grow to `2^max_log2`.
    fn sized(log2: u32, max_log2: u32) -> Result<Exact<G>, TableMemoryError> {
        let buckets = 1usize << (log2 - 1);
        Ok(Exact {
            tt: try_filled(buckets, [Slot::default(); 2])?,
            mask: buckets - 1,
            max_mask: (1usize << (max_log2 - 1)) - 1,
            refused: None,
            history: Vec::new(),
            stats: ExactStats::default(),
            stopped: false,
            _game: std::marker::PhantomData,
        })
    }

    /// Work counters since the solver was created.
    pub fn stats(&self) -> ExactStats {
        self.stats
    }

    /// Bytes of the transposition table as it stands (it only grows).
    pub fn tt_bytes(&self) -> usize {
        self.tt.capacity() * std::mem::size_of::<[Slot; 2]>()
    }

    /// The most bytes the transposition table may grow to.
    pub fn tt_max_bytes(&self) -> usize {
        (self.max_mask + 1) * std::mem::size_of::<[Slot; 2]>()
    }

    /// The table's doubling the system refused, if one was: the solver went on with the table it
    /// had (its values are exact; the search may have been slower).
    pub fn tt_refused(&self) -> Option<TableMemoryError> {
        self.refused
    }

    /// Solves `g` (not over): its value for the side to move and a move that keeps it. `stop` is
    /// asked every [`STOP_EVERY`] positions with the counters so far; when it returns true the
    /// search returns `None` ("unknown"), and a later call goes on from the table.
    pub fn solve(&mut self, g: &G, stop: &mut dyn FnMut(&ExactStats) -> bool) -> Option<Solved<G::Move>> {
        self.solve_above(g, Value::Loss, stop)
    }

    /// [`Exact::solve`] for a position whose value is known to be at least `floor` (a move of a
    /// root of value R has at most R for its mover, so the position after it at least R flipped
    /// for the opponent): the search window starts at `floor` instead of a loss, which settles
    /// the value with less work (after a drawn root, each move needs only the question "does
    /// the opponent win?"). The value returned is exact if the floor holds; the best move is
    /// `None` when the value equals a floor above a loss.
    pub fn solve_above(&mut self, g: &G, floor: Value, stop: &mut dyn FnMut(&ExactStats) -> bool) -> Option<Solved<G::Move>> {
        if let Some(o) = g.outcome() {
            // Nothing to play: the finished game's value for the player it would be up to.
            return Some(Solved { value: Value::of_outcome(o, g.to_move()), best: None });
        }
        if self.history.len() != g.move_space() {
            self.history = vec![0; g.move_space()];
        }
        self.stopped = false;
        let f = floor.score();
        let (score, best) = self.search(g, f, 1, stop)?;
        // At most the floor: the floor (fail-low, which the floor's bound makes exact).
        let value = Value::from_score(score.max(f));
        let best = if value == Value::Loss || (score <= f && f > -1) { None } else { g.move_from_index(best as usize) };
        Some(Solved { value, best })
    }

    /// The hash and exact key of `g`.
    fn key_of(&self, g: &G) -> (u64, [u64; 2]) {
        let h = g.hash();
        let k = g.exact_key().unwrap_or(h as u128);
        (h, [k as u64, (k >> 64) as u64])
    }

    /// The bucket of hash `h` in a table of `mask + 1` buckets (its low bits, so that doubling
    /// splits bucket `b` into `b` and `b + buckets`).
    #[inline]
    fn bucket(h: u64, mask: usize) -> usize {
        (h ^ h >> 29) as usize & mask
    }

    fn probe(&self, h: u64, key: [u64; 2]) -> Option<Slot> {
        self.tt[Exact::<G>::bucket(h, self.mask)].iter().find(|s| s.work != 0 && s.key == key).copied()
    }

    /// Doubles the table in place, each entry to its bucket in the larger table: two entries
    /// that stay together keep their slots, an entry left alone takes slot 0 (as a table of the
    /// larger size would have them). `g` recomputes the entries' hashes from their keys
    /// ([`Game::hash_of_exact_key`]). False when the system refused the memory (recorded in
    /// `refused`) or the game cannot recompute hashes; the table is unchanged then.
    fn grow(&mut self, g: &G) -> bool {
        let exact = g.exact_key().is_some();
        let hash = |key: [u64; 2]| if exact { g.hash_of_exact_key(key[0] as u128 | (key[1] as u128) << 64) } else { Some(key[0]) };
        if exact && g.exact_key().and_then(|k| g.hash_of_exact_key(k)).is_none() {
            self.max_mask = self.mask;
            return false;
        }
        let old = self.tt.len();
        if let Err(e) = try_extend(&mut self.tt, 2 * old, [Slot::default(); 2]) {
            self.refused = Some(e);
            return false;
        }
        let mask = 2 * old - 1;
        for b in 0..old {
            let [s0, s1] = self.tt[b];
            if s0.work == 0 {
                continue;
            }
            let to = |s: &Slot| hash(s.key).map_or(b, |h| Exact::<G>::bucket(h, mask));
            let n0 = to(&s0);
            if s1.work == 0 || to(&s1) == n0 {
                if n0 != b {
                    self.tt[n0] = [s0, s1];
                    self.tt[b] = [Slot::default(); 2];
                }
            } else {
                let n1 = to(&s1);
                self.tt[b] = [Slot::default(); 2];
                self.tt[n0][0] = s0;
                self.tt[n1][0] = s1;
            }
        }
        self.mask = mask;
        true
    }

    /// Stores `e` for the position of hash `h` (`g`, for a doubling).
    fn store(&mut self, g: &G, h: u64, e: Slot) {
        debug_assert!(
            g.exact_key().is_none_or(|k| g.hash_of_exact_key(k).is_none_or(|x| x == h)),
            "a hash recomputed from the key differs"
        );
        let mut bucket = Exact::<G>::bucket(h, self.mask);
        // A full bucket would lose an entry: double instead while the table may grow.
        while self.mask < self.max_mask
            && self.refused.is_none()
            && self.tt[bucket].iter().all(|s| s.work != 0 && s.key != e.key)
            && self.grow(g)
        {
            bucket = Exact::<G>::bucket(h, self.mask);
        }
        let b = &mut self.tt[bucket];
        if let Some(s) = b.iter_mut().find(|s| s.work != 0 && s.key == e.key) {
            *s = e;
            return;
        }
        // The larger subtree takes slot 0; what was there becomes the newest of slot 1.
        let into = if e.work >= b[0].work { std::mem::replace(&mut b[0], e) } else { e };
        if into.work == 0 {
            self.stats.tt_used += 1;
            return;
        }
        if b[1].work == 0 {
            self.stats.tt_used += 1;
        } else {
            self.stats.tt_replaced += 1;
        }
        b[1] = into;
    }

    /// Fail-soft alpha-beta on `g` (not over) with the window (`alpha`, `beta`): the score for
    /// the side to move (exact inside the window, a bound outside it) and the dense index of the
    /// move that reached it, or `None` when stopped.
    fn search(&mut self, g: &G, alpha: i8, beta: i8, stop: &mut dyn FnMut(&ExactStats) -> bool) -> Option<(i8, u16)> {
        self.stats.nodes += 1;
        if self.stats.nodes.is_multiple_of(STOP_EVERY) && !self.stopped {
            self.stopped = stop(&self.stats);
        }
        if self.stopped {
            return None;
        }
        if let Some(m) = g.find_winning_move() {
            self.stats.terminal += 1;
            return Some((1, g.move_index(m) as u16));
        }
        let (h, key) = self.key_of(g);
        let (mut lo, mut hi, mut hint) = (-1i8, 1i8, NO_MOVE);
        if let Some(e) = self.probe(h, key) {
            (lo, hi, hint) = (e.lo, e.hi, e.best);
            if lo == hi || lo >= beta || hi <= alpha {
                self.stats.tt_hits += 1;
                return Some((if hi <= alpha { hi } else { lo }, hint));
            }
        }
        let (mut alpha, beta) = (alpha.max(lo), beta.min(hi));
        let alpha0 = alpha;
        let nodes0 = self.stats.nodes;
        self.stats.expanded += 1;
        let me = g.to_move();
        let mut moves = MoveList::new();
        g.legal_moves(&mut moves);
        // Every child once: a finished game, or the opponent's immediate win, has its value now.
        let (mut best, mut best_m) = (-2i8, NO_MOVE);
        // The moves left to search, with the mover's immediate threats after each (what the
        // opponent must answer) and the game's ordering score ([`Game::exact_move_order`]).
        let mut todo: MoveList<(G::Move, u16, u32)> = MoveList::new();
        let mut threats = MoveList::new();
        for &m in &moves {
            let mut c = g.clone();
            c.play_unchecked(m);
            let v = match c.outcome() {
                Some(o) => Value::of_outcome(o, me).score(),
                None if c.find_winning_move().is_some() => -1,
                None => {
                    // The mover's threats after the move (what the opponent must answer).
                    c.threats(&mut threats);
                    todo.push((m, threats.len() as u16, g.exact_move_order(m)));
                    continue;
                }
            };
            if v > best {
                (best, best_m) = (v, g.move_index(m) as u16);
                if best >= beta {
                    break;
                }
            }
        }
        if best < beta && !todo.is_empty() {
            alpha = alpha.max(best);
            // The table's move first, then by the threats it leaves, the game's ordering score
            // and history (stable: ties keep the move order).
            let history = &self.history;
            todo.sort_by_key(|&(m, f, o)| {
                let i = g.move_index(m);
                (i as u16 != hint, std::cmp::Reverse(f), std::cmp::Reverse(o), std::cmp::Reverse(history[i]))
            });
            for &(m, _, _) in &todo {
                let mut c = g.clone();
                c.play_unchecked(m);
                let v = -self.search(&c, -beta, -alpha, stop)?.0;
                if v > best {
                    (best, best_m) = (v, g.move_index(m) as u16);
                    if best >= beta {
                        let i = best_m as usize;
                        self.history[i] = self.history[i].saturating_add(moves.len() as u32);
                        break;
                    }
                    alpha = alpha.max(best);
                }
            }
        }
        if best == -2 {
            best = 0; // no legal move in a game that is not over: cannot happen in these games
        }
        // Bounds: at most `best` when no move got above the window, at least `best` otherwise
        // (exact inside the window); merged with what the table knew.
        let (mut new_lo, mut new_hi) = (lo, hi);
        if best <= alpha0 {
            new_hi = new_hi.min(best);
        } else {
            new_lo = new_lo.max(best);
            hint = best_m;
            if best < beta {
                new_hi = new_hi.min(best);
            }
        }
        let work = (self.stats.nodes - nodes0).clamp(1, u32::MAX as u64) as u32;
        self.store(g, h, Slot { key, work, best: hint, lo: new_lo, hi: new_hi.max(new_lo) });
        Some((best, best_m))
    }
}

/// Where an [`ExactSession`] stands.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactProgress<M> {
    /// The root's value for its side to move, once proven.
    pub value: Option<Value>,
    /// A move that keeps the root's value (win or draw), once proven.
    pub best: Option<M>,
    /// Every legal move of the root, in the legal-move order, with its value for the side to
    /// move after playing it, once proven.
    pub moves: Vec<(M, Option<Value>)>,
    /// The solver's counters.
    pub stats: ExactStats,
    /// Whether everything is proven (the root and every move).
    pub done: bool,
}

/// A resumable solve of one position and of each of its moves, for a caller that runs it in
/// slices: the root first, then every legal move in turn (sharing the table). Each
/// [`ExactSession::run`] continues where the last one stopped.
pub struct ExactSession<G: Game> {
    solver: Exact<G>,
    root: G,
    value: Option<Value>,
    best: Option<G::Move>,
    moves: Vec<(G::Move, Option<Value>)>,
    next: usize,
}

impl<G: Game> ExactSession<G> {
    /// A session for `g` with a new solver of settings `cfg`. Any position is taken: the caller
    /// checks its size ([`check`]).
    ///
    /// # Errors
    /// The system refused the table's first entries.
    pub fn new(g: &G, cfg: ExactConfig) -> Result<ExactSession<G>, TableMemoryError> {
        let mut moves = MoveList::new();
        g.legal_moves(&mut moves);
        let value = g.outcome().map(|o| Value::of_outcome(o, g.to_move()));
        Ok(ExactSession {
            solver: Exact::new(cfg)?,
            root: g.clone(),
            value,
            best: None,
            moves: moves.iter().map(|&m| (m, None)).collect(),
            next: 0,
        })
    }

    /// Runs the root only, until proven (true) or `stop` says stop (false).
    pub fn run_root(&mut self, stop: &mut dyn FnMut(&ExactStats) -> bool) -> bool {
        if self.value.is_none() {
            let Some(s) = self.solver.solve(&self.root, stop) else { return false };
            self.value = Some(s.value);
            self.best = s.best;
        }
        true
    }

    /// Runs until everything is proven (returns true) or `stop` says stop (false).
    pub fn run(&mut self, stop: &mut dyn FnMut(&ExactStats) -> bool) -> bool {
        if !self.run_root(stop) {
            return false;
        }
        let me = self.root.to_move();
        while self.next < self.moves.len() {
            let (m, _) = self.moves[self.next];
            let v = if self.value == Some(Value::Loss) {
                // A lost position: every move loses.
                Value::Loss
            } else {
                let mut c = self.root.clone();
                c.play_unchecked(m);
                // The move's value is at most the root's: the opponent's at least its flip.
                let floor = self.value.map_or(Value::Loss, Value::flip);
                match c.outcome() {
                    Some(o) => Value::of_outcome(o, me),
                    None => match self.solver.solve_above(&c, floor, stop) {
                        Some(s) => s.value.flip(),
                        None => return false,
                    },
                }
            };
            self.moves[self.next].1 = Some(v);
            self.next += 1;
        }
        true
    }

    /// The results so far.
    pub fn progress(&self) -> ExactProgress<G::Move> {
        ExactProgress {
            value: self.value,
            best: self.best,
            moves: self.moves.clone(),
            stats: self.solver.stats(),
            done: self.value.is_some() && self.next == self.moves.len(),
        }
    }

    /// The root position.
    pub fn root(&self) -> &G {
        &self.root
    }

    /// Bytes of the solver's table as it stands (it grows up to `2^tt_log2` entries).
    pub fn tt_bytes(&self) -> usize {
        self.solver.tt_bytes()
    }

    /// The table's doubling the system refused, if one was ([`Exact::tt_refused`]).
    pub fn tt_refused(&self) -> Option<TableMemoryError> {
        self.solver.tt_refused()
    }
}

/// [`ExactProgress`] with the moves in notation.
#[derive(Debug, Clone, PartialEq)]
pub struct EndgameProgress {
    /// The root's value for its side to move, once proven.
    pub value: Option<Value>,
    /// A move that keeps it (win or draw), in notation, once proven.
    pub best: Option<String>,
    /// The side to move at the root.
    pub to_move: Player,
    /// Every legal move of the root in notation with its value for the side to move.
    pub moves: Vec<(String, Option<Value>)>,
    /// The solver's counters.
    pub stats: ExactStats,
    /// Whether everything is proven.
    pub done: bool,
}

crate::registered_games!(__game_enum!(
    /// An [`ExactSession`] of whichever game [`check`] takes, chosen at run time (the page's worker
    /// and the Python package hold positions as [`AnyGame`]); one variant per registered game
    /// ([`crate::game::registry`]), of which only those [`check`] takes are ever made.
    // One value per solve, made once: the sizes of the variants' root positions do not matter.
    #[allow(clippy::large_enum_variant)]
    pub enum EndgameSession of ExactSession
));

/// Runs an expression on the [`ExactSession`] inside an [`EndgameSession`].
macro_rules! with_session {
    ($s:expr, $x:ident => $body:expr) => {
        crate::registered_games!(__game_match!(EndgameSession, $s, $x, $body))
    };
}

impl EndgameSession {
    /// A session for `g`, its table no larger than the position needs ([`ExactConfig::fit`]).
    ///
    /// # Errors
    /// What [`check`] refuses; [`ExactError::Memory`] when the system refused the table's first
    /// entries.
    pub fn new(g: &AnyGame, cfg: ExactConfig) -> Result<EndgameSession, ExactError> {
        check(g)?;
        let cfg = cfg.fit(g);
        Ok(crate::registered_games!(__game_map!(AnyGame => EndgameSession, g, x, ExactSession::new(x, cfg)?)))
    }

    /// See [`ExactSession::run`].
    pub fn run(&mut self, stop: &mut dyn FnMut(&ExactStats) -> bool) -> bool {
        with_session!(self, s => s.run(stop))
    }

    /// See [`ExactSession::run_root`].
    pub fn run_root(&mut self, stop: &mut dyn FnMut(&ExactStats) -> bool) -> bool {
        with_session!(self, s => s.run_root(stop))
    }

    /// The results so far, moves in notation.
    pub fn progress(&self) -> EndgameProgress {
        with_session!(self, s => {
            let p = s.progress();
            let g = s.root();
            EndgameProgress {
                value: p.value,
                best: p.best.map(|m| g.format_move(m)),
                to_move: g.to_move(),
                moves: p.moves.iter().map(|&(m, v)| (g.format_move(m), v)).collect(),
                stats: p.stats,
                done: p.done,
            }
        })
    }

    /// Bytes of the solver's table as it stands.
    pub fn tt_bytes(&self) -> usize {
        with_session!(self, s => s.tt_bytes())
    }

    /// The table's doubling the system refused, if one was.
    pub fn tt_refused(&self) -> Option<TableMemoryError> {
        with_session!(self, s => s.tt_refused())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Solves `g`'s root and every move on `s`: the values and the counters.
    fn solve_all<G: Game>(s: &mut Exact<G>, g: &G) -> Vec<Value> {
        let mut values = vec![s.solve(g, &mut |_| false).unwrap().value];
        let mut moves = MoveList::new();
        g.legal_moves(&mut moves);
        for &m in &moves {
            let mut c = g.clone();
            c.play_unchecked(m);
            if c.outcome().is_none() {
                values.push(s.solve(&c, &mut |_| false).unwrap().value);
            }
        }
        values
    }

    /// A table that starts small and doubles searches as one of its largest size from the
    /// start: the same values, counters and table, on Tic-Tac-Toe and a Pentago endgame whose
    /// solves overflow the largest size (so that it replaces entries from then on).
    #[test]
    fn a_growing_table_searches_as_the_whole_table() {
        fn check<G: Game>(g: &G, max_log2: u32) {
            let mut grown = Exact::<G>::new(ExactConfig { tt_log2: max_log2 }).unwrap();
            let mut whole = Exact::<G>::sized(max_log2, max_log2).unwrap();
            assert_eq!(grown.tt_bytes(), 24 << INITIAL_LOG2);
            assert_eq!(solve_all(&mut grown, g), solve_all(&mut whole, g));
            assert_eq!(grown.stats(), whole.stats());
            assert!(whole.stats().tt_replaced > 0, "the solves overflow the table");
            assert_eq!(grown.tt_bytes(), whole.tt_bytes());
            assert!(grown.tt.iter().zip(&whole.tt).all(|(a, b)| a.iter().zip(b).all(|(x, y)| x.key == y.key && x.work == y.work)));
        }
        check(&TicTacToe::new(), 11);
        let line = include_str!("../../tests/data/pentago-endgames.jsonl").lines().find(|l| l.contains("\"empty\":10")).unwrap();
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let mut p = Pentago::new(crate::game::PentagoRules::Official, false);
        for m in v["moves"].as_str().unwrap().split_whitespace() {
            let m = p.parse_move(m).unwrap();
            p.play_unchecked(m);
        }
        check(&p, 12);
    }

    /// A small position keeps a small table whatever the budget.
    #[test]
    fn a_small_position_gets_a_small_table() {
        let mut s = Exact::<TicTacToe>::new(ExactConfig { tt_log2: 30 }).unwrap();
        let mut g = TicTacToe::new();
        for m in [4, 0, 8] {
            g.play_unchecked(m);
        }
        solve_all(&mut s, &g);
        assert_eq!(s.tt_bytes(), 24 << INITIAL_LOG2, "{} entries used", s.stats().tt_used);
        assert_eq!(s.tt_max_bytes(), 24 << 30);
        assert_eq!(s.tt_refused(), None);
    }
}
