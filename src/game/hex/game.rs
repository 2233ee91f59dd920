//! [`Hex`]: the game on the smallest bit set that holds the board ([`Board`]), with the swap
//! rule, Zobrist hashing and the [`Game`] interface.

use super::bitset::W6;
use super::core::{list_cells, shuffle, Core};
use super::{Bits, DEFAULT_SIZE, MAX_CELLS, MAX_SIZE};
use crate::game::registry::{Choice, EndgameRefusal, ExactSolverKind, GameFacts, Registered, SizeFacts, SolverFacts};
use crate::game::{
    cell_name, parse_cell, zobrist_key, BoardView, Game, MoveError, MoveList, MoveParseError, MoveSets, MoveSink, Outcome, Player,
    MOVE_WORDS,
};
use crate::rng::Rng64;

/// The position on the smallest bitboard type that holds it. Not boxed: a position is plain
/// data the search clones every iteration, and a box would allocate on every clone.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug)]
pub(super) enum Board {
    Small(Core<u64>),
    Medium(Core<u128>),
    Large(Core<W6>),
}

macro_rules! with_core {
    ($b:expr, $c:ident => $body:expr) => {
        match $b {
            Board::Small($c) => $body,
            Board::Medium($c) => $body,
            Board::Large($c) => $body,
        }
    };
}

/// Adds to each player's set of `sets` the cells that player gained from `before` to `after`
/// (each side's stones): a playout's moves from the board's difference.
#[inline(always)]
fn add_gained<B: Bits>(sets: &mut MoveSets, before: [B; 2], after: [B; 2]) {
    for ((set, &now), &was) in sets.by.iter_mut().zip(&after).zip(&before) {
        for (s, a) in set.iter_mut().zip(stone_words(now & !was)) {
            *s |= a;
        }
    }
}

/// The cells of `b` as [`MOVE_WORDS`] 64-bit words (cell i = bit i % 64 of word i / 64).
#[inline(always)]
fn stone_words<B: Bits>(b: B) -> [u64; MOVE_WORDS] {
    let mut out = [0u64; MOVE_WORDS];
    for (o, w) in out.iter_mut().zip(b.words().as_ref()) {
        *o = *w;
    }
    out
}

/// Zobrist keys: `KEYS[p][cell]` for a stone of player p.
static KEYS: [[u64; MAX_CELLS]; 2] = {
    let mut t = [[0u64; MAX_CELLS]; 2];
    let mut p = 0;
    while p < 2 {
        let mut c = 0;
        while c < MAX_CELLS {
            t[p][c] = zobrist_key(0x4E58_0000 + (p as u64) * 1024 + c as u64);
            c += 1;
        }
        p += 1;
    }
    t
};
/// Key XORed in when White (player 1) is to move.
const SIDE_KEY: u64 = zobrist_key(0x4E58_FFFF);

/// A Hex position. Moves are `u16`: a cell index `row * n + col`, or `n²` for the swap move.
#[derive(Clone, Debug)]
pub struct Hex {
    size: u8,
    swap: bool,
    pub(super) to_move: Player,
    pub(super) ply: u16,
    pub(super) outcome: Option<Outcome>,
    last: Option<u16>,
    hash: u64,
    /// Set by the fast playout, which skips the incremental hash; `hash()` then recomputes it.
    hash_stale: bool,
    pub(super) board: Board,
}

/// Why the options after `hex:` (or a board size) were refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HexOptionError {
    /// The size is not in `1..=MAX_SIZE` (19); `size` is the option as written.
    #[error("size {} out of range: Hex sizes are 1 to {MAX_SIZE}", crate::limits::abbreviate(size))]
    SizeOutOfRange {
        /// The size as written.
        size: String,
    },
    /// An option is empty (a stray `:`).
    #[error("empty option (expected hex, hex:N or hex:N:swap)")]
    EmptyOption,
    /// `swap` appears twice.
    #[error("option 'swap' given twice")]
    SwapTwice,
    /// Two sizes; `size` is the second.
    #[error("size given twice ('{}')", crate::limits::abbreviate(size))]
    SizeTwice {
        /// The second size as written.
        size: String,
    },
    /// An option that is neither a size nor `swap`.
    #[error("unknown option '{}' (expected a size from 1 to {MAX_SIZE}, or 'swap')", crate::limits::abbreviate(option))]
    UnknownOption {
        /// The option as written.
        option: String,
    },
}

impl Hex {
    /// The empty n×n board, Black to move.
    ///
    /// # Errors
    /// [`HexOptionError::SizeOutOfRange`] for `size` outside `1..=19` ("size 20 out of range: Hex sizes are 1 to 19").
    pub fn new(size: usize, swap: bool) -> Result<Hex, HexOptionError> {
        if !(1..=MAX_SIZE).contains(&size) {
            return Err(HexOptionError::SizeOutOfRange { size: size.to_string() });
        }
        let board = if size <= 8 {
            Board::Small(Core::new(size))
        } else if size <= 11 {
            Board::Medium(Core::new(size))
        } else {
            Board::Large(Core::new(size))
        };
        Ok(Hex { size: size as u8, swap, to_move: 0, ply: 0, outcome: None, last: None, hash: 0, hash_stale: false, board })
    }

    /// Builds from the options after `hex:` in a spec string: an optional size `N` (default 11)
    /// and an optional `swap`, e.g. `["7"]`, `["11", "swap"]`, `[]`.
    ///
    /// # Errors
    /// [`HexOptionError`] naming the problem: "size 20 out of range 1..=19", "unknown option 'foo'",
    /// "size given twice", "empty option".
    pub fn from_options(opts: &[&str]) -> Result<Hex, HexOptionError> {
        let mut size: Option<usize> = None;
        let mut swap = false;
        for raw in opts {
            let o = raw.trim();
            if o.is_empty() {
                return Err(HexOptionError::EmptyOption);
            }
            if o.eq_ignore_ascii_case("swap") {
                if swap {
                    return Err(HexOptionError::SwapTwice);
                }
                swap = true;
            } else if o.bytes().all(|b| b.is_ascii_digit()) {
                if size.is_some() {
                    return Err(HexOptionError::SizeTwice { size: o.to_string() });
                }
                let n: usize = o.parse().unwrap_or(usize::MAX);
                if !(1..=MAX_SIZE).contains(&n) {
                    return Err(HexOptionError::SizeOutOfRange { size: o.to_string() });
                }
                size = Some(n);
            } else {
                return Err(HexOptionError::UnknownOption { option: o.to_string() });
            }
        }
        Hex::new(size.unwrap_or(DEFAULT_SIZE), swap)
    }

    /// Board side n.
    pub fn size(&self) -> usize {
        self.size as usize
    }

    /// Whether the swap rule is on.
    pub fn swap_enabled(&self) -> bool {
        self.swap
    }

    /// The dense index (and move) of the swap move, n² (a move only with the swap option).
    pub fn swap_move(&self) -> u16 {
        (self.size as u16) * (self.size as u16)
    }

    /// A random playout's first move when the swap rule offers it (ply 1): the swap, drawn with
    /// probability 1/(legal moves) as a uniform move would be, and played; `None` (nothing
    /// played, one draw made) otherwise, or no draw when the swap is not legal.
    fn draw_swap(&mut self, rng: &mut Rng64) -> Option<u16> {
        if !self.swap_legal() {
            return None;
        }
        let legal = self.legal_count();
        (rng.index(legal) == legal - 1).then(|| {
            let m = self.swap_move();
            self.play_unchecked(m);
            m
        })
    }

    /// The stone on `cell` (`row * n + col`), if any; `None` also for cells off the board.
    pub fn stone_at(&self, cell: usize) -> Option<Player> {
        if cell >= self.cells() {
            return None;
        }
        with_core!(&self.board, c => {
            if c.stones[0].test(cell) {
                Some(0)
            } else if c.stones[1].test(cell) {
                Some(1)
            } else {
                None
            }
        })
    }

    /// The neighbours of `cell` in ascending order (empty for cells off the board):
    /// (r−1,c) (r−1,c+1) (r,c−1) (r,c+1) (r+1,c−1) (r+1,c) where on the board.
    pub fn neighbours(&self, cell: usize) -> Vec<usize> {
        if cell >= self.cells() {
            return Vec::new();
        }
        with_core!(&self.board, c => {
            let mut x = c.geo.nb[cell];
            let mut v = Vec::with_capacity(6);
            while x.any() {
                v.push(x.lowest());
                x = x.without_lowest();
            }
            v
        })
    }

    #[inline(always)]
    fn cells(&self) -> usize {
        self.size as usize * self.size as usize
    }

    fn swap_legal(&self) -> bool {
        self.swap && self.ply == 1 && self.outcome.is_none()
    }

    fn play_swap(&mut self) {
        let n = self.size as usize;
        let s = with_core!(&self.board, c => c.stones[0].lowest());
        let t = (s % n) * n + s / n;
        with_core!(&mut self.board, c => c.reset_to_white(t));
        self.hash ^= KEYS[0][s] ^ KEYS[1][t] ^ SIDE_KEY;
        self.to_move = 0;
        self.ply += 1;
        self.last = Some(self.swap_move());
    }

    /// The cell the last move put a stone on (for a swap, the mirrored stone).
    fn last_cell(&self) -> Option<usize> {
        let m = self.last? as usize;
        if m == self.cells() {
            with_core!(&self.board, c => Some(c.stones[1].lowest()))
        } else {
            Some(m)
        }
    }

    /// One shortest path of the winner's stones from its first edge to its second (breadth-first
    /// search inside the winning group), in order from the first edge; empty while the game goes on.
    fn winning_path(&self) -> Vec<usize> {
        let Some(Outcome::Win(p)) = self.outcome else { return Vec::new() };
        let n = self.size as usize;
        let mine = |cell: usize| self.stone_at(cell) == Some(p);
        let on_start = |r: usize, c: usize| if p == 0 { r == 0 } else { c == 0 };
        let on_end = |r: usize, c: usize| if p == 0 { r == n - 1 } else { c == n - 1 };
        let mut prev = vec![usize::MAX; n * n];
        let mut seen = vec![false; n * n];
        let mut queue = std::collections::VecDeque::new();
        for (cell, seen) in seen.iter_mut().enumerate() {
            if mine(cell) && on_start(cell / n, cell % n) {
                *seen = true;
                queue.push_back(cell);
            }
        }
        const D: [(isize, isize); 6] = [(-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)];
        while let Some(cell) = queue.pop_front() {
            let (r, c) = (cell / n, cell % n);
            if on_end(r, c) {
                let mut path = vec![cell];
                let mut x = cell;
                while prev[x] != usize::MAX {
                    x = prev[x];
                    path.push(x);
                }
                path.reverse();
                return path;
            }
            for (dr, dc) in D {
                let (rr, cc) = (r as isize + dr, c as isize + dc);
                if rr < 0 || cc < 0 || rr >= n as isize || cc >= n as isize {
                    continue;
                }
                let nb = rr as usize * n + cc as usize;
                if !seen[nb] && mine(nb) {
                    seen[nb] = true;
                    prev[nb] = cell;
                    queue.push_back(nb);
                }
            }
        }
        Vec::new()
    }

    /// Pushes the cells of a set in ascending order, one 64-bit word at a time (on 11×11,
    /// `u128` lowest-bit steps cost twice the instructions).
    #[inline]
    fn push_cells<B: Bits>(x: B, out: &mut MoveList<u16>) {
        for (k, &word) in x.words().as_ref().iter().enumerate() {
            let mut w = word;
            while w != 0 {
                out.push((k * 64) as u16 + w.trailing_zeros() as u16);
                w &= w - 1;
            }
        }
    }
}

impl Registered for Hex {
    const FACTS: GameFacts = GameFacts {
        name: "hex",
        title: "Hex",
        aliases: &[],
        syntax: "hex:N[:swap]",
        default_spec: "hex:11",
        examples: &["hex:7", "hex:11", "hex:11:swap"],
        test_specs: &["hex:1", "hex:2", "hex:5", "hex:19", "hex:4:swap"],
        choices: &[Choice { spec: "hex", label: "Hex" }],
        players: ["black", "white"],
        goals: ["top and bottom connected", "left and right connected"],
        rules: "Black joins top and bottom, White joins left and right.",
        draws: false,
        sizes: Some(SizeFacts {
            min: 1,
            max: MAX_SIZE as u32,
            default: DEFAULT_SIZE as u32,
            offered: &[7, 11, 3, 4, 5, 6, 8, 9, 10, 12, 13, 14, 15, 16, 17, 18, 19],
            syntax: "hex:N",
        }),
        notation: "a cell: column letter and row number, row 1 on top (d4); swap under the swap rule",
        example_moves: "f6 e7 g5",
        solver: Some(SolverFacts {
            kind: ExactSolverKind::ProofNumber,
            takes: "boards up to 8×8 without the swap rule",
            max_side: Some(crate::game::hex::MAX_SOLVE_SIZE as u32),
            max_empty: None,
            swap: false,
        }),
        net_input: true,
        patterns: true,
    };

    /// The options of [`Hex::from_options`].
    fn from_options(options: &[&str]) -> Result<Self, String> {
        Hex::from_options(options).map_err(|e| e.to_string())
    }

    /// Never: Hex has the proof-number solver.
    fn endgame_table_log2(&self) -> Result<u32, EndgameRefusal> {
        Err(EndgameRefusal::ProofNumber)
    }
}

impl Game for Hex {
    type Move = u16;

    fn spec(&self) -> String {
        if self.swap {
            format!("hex:{}:swap", self.size)
        } else {
            format!("hex:{}", self.size)
        }
    }
    fn move_space(&self) -> usize {
        self.cells() + self.swap as usize
    }
    fn move_index(&self, m: u16) -> usize {
        m as usize
    }
    fn move_from_index(&self, index: usize) -> Option<u16> {
        (index < self.move_space()).then_some(index as u16)
    }
    fn to_move(&self) -> Player {
        self.to_move
    }
    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    fn ply(&self) -> usize {
        self.ply as usize
    }

    fn legal_moves(&self, out: &mut MoveList<u16>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        with_core!(&self.board, c => Hex::push_cells(c.empty(), out));
        if self.swap_legal() {
            out.push(self.swap_move());
        }
    }

    fn legal_move_set(&self, out: &mut [u64; MOVE_WORDS]) {
        if self.outcome.is_some() {
            *out = [0; MOVE_WORDS];
            return;
        }
        *out = with_core!(&self.board, c => stone_words(c.empty()));
        if self.swap_legal() {
            let i = self.swap_move() as usize;
            out[i / 64] |= 1 << (i % 64);
        }
    }

    fn legal_count(&self) -> usize {
        if self.outcome.is_some() {
            return 0;
        }
        with_core!(&self.board, c => c.empty().count() as usize) + self.swap_legal() as usize
    }

    fn nth_legal(&self, i: usize) -> Option<u16> {
        if self.outcome.is_some() {
            return None;
        }
        let empty = with_core!(&self.board, c => {
            let e = c.empty();
            let k = e.count() as usize;
            if i < k {
                return Some(e.select(i as u32) as u16);
            }
            k
        });
        (i == empty && self.swap_legal()).then(|| self.swap_move())
    }

    /// A stone is placed on an empty cell and nothing else changes, except the swap move (legal
    /// at ply 1 only, with the swap rule).
    fn legal_moves_only_shrink(&self) -> bool {
        !self.swap || self.ply >= 2
    }

    /// While the game goes on and no swap move can come (no swap rule, or ply ≥ 2): a Hex
    /// board filled to the end has exactly one connected player, the first to connect.
    fn fill_playouts(&self) -> bool {
        self.outcome.is_none() && self.legal_moves_only_shrink()
    }

    /// The consider set of [`super::knowledge::consider`] on this board's bit set; nothing
    /// while the swap move is legal (the knowledge assumes no swap) or the game is over.
    fn knowledge_moves(&self, out: &mut [u64; crate::game::MOVE_WORDS]) -> bool {
        if self.outcome.is_some() || self.pie_move().is_some() {
            return false;
        }
        let (n, to_move) = (self.size as usize, self.to_move);
        with_core!(&self.board, c => super::knowledge::consider_into(n, c.stones, to_move, out))
    }

    /// The rings of this board's side ([`BridgeRings::hex`](crate::game::BridgeRings::hex)), for save-bridge playouts.
    fn bridge_rings(&self) -> Option<&'static crate::game::BridgeRings> {
        Some(crate::game::BridgeRings::hex(self.size as usize))
    }

    /// [`Core::settle_fill`]: the stones placed (one bit each), one row sweep for the winner
    /// of the full board, then the winner's stones in order until it connects; the later
    /// stones are taken off.
    fn settle_fill(&mut self, moves: &[u16]) -> (Outcome, usize) {
        debug_assert!(!moves.is_empty() && self.outcome.is_none());
        let first = self.to_move as usize;
        let (w, k) = with_core!(&mut self.board, c => c.settle_fill(first, moves));
        self.ply += k as u16;
        self.to_move = ((first + k) & 1) as Player;
        self.last = Some(moves[k - 1]);
        self.outcome = Some(Outcome::Win(w as Player));
        self.hash_stale = true;
        (Outcome::Win(w as Player), k)
    }

    /// [`Core::decisive_playout`]; `None` while a swap move can still come (the caller plays
    /// move by move then). `sets` is the board's difference (the cells are distinct). Not
    /// inlined: inlined into the policy's playout, V8 compiled its loop 12 % slower
    /// (`tests/bench/wasm-ratio.mjs`, preset best).
    #[inline(never)]
    fn decisive_playout<T: MoveSink<u16>>(
        &mut self,
        rng: &mut Rng64,
        decisive: bool,
        anti: bool,
        sets: &mut MoveSets,
        trace: &mut T,
        counts: &mut [u64; 2],
    ) -> Option<Outcome> {
        sets.clear();
        if let Some(o) = self.outcome {
            return Some(o);
        }
        if !self.legal_moves_only_shrink() {
            return None;
        }
        let tm = self.to_move as usize;
        let (w, k, last) = with_core!(&mut self.board, c => {
            let before = c.stones;
            let r = c.decisive_playout::<T, true>(tm, rng, decisive, anti, trace, counts);
            add_gained(sets, before, c.stones);
            r
        });
        sets.len = k as u32;
        self.ply += k as u16;
        self.last = Some(last);
        self.to_move ^= (k & 1) as u8;
        self.outcome = Some(Outcome::Win(w as Player));
        self.hash_stale = true;
        Some(Outcome::Win(w as Player))
    }

    /// `swap` (n²) at ply 1 with the swap rule: the only move that never recurs later.
    #[inline(always)]
    fn pie_move(&self) -> Option<usize> {
        self.swap_legal().then(|| self.cells())
    }

    fn is_legal(&self, m: u16) -> bool {
        if self.outcome.is_some() {
            return false;
        }
        let m = m as usize;
        if m < self.cells() {
            with_core!(&self.board, c => c.empty().test(m))
        } else {
            m == self.cells() && self.swap_legal()
        }
    }

    #[inline]
    fn play_unchecked(&mut self, m: u16) {
        debug_assert!(self.is_legal(m), "illegal move {m}");
        if m as usize == self.cells() {
            self.play_swap();
            return;
        }
        let p = self.to_move;
        let win = with_core!(&mut self.board, c => c.place(p as usize, m as usize));
        self.hash ^= KEYS[p as usize][m as usize] ^ SIDE_KEY;
        self.ply += 1;
        self.last = Some(m);
        self.to_move = 1 - p;
        if win {
            self.outcome = Some(Outcome::Win(p));
        }
    }

    fn hash(&self) -> u64 {
        if self.hash_stale {
            self.hash_from_scratch()
        } else {
            self.hash
        }
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = if self.to_move == 1 { SIDE_KEY } else { 0 };
        with_core!(&self.board, c => {
            for (&stones, keys) in c.stones.iter().zip(&KEYS) {
                let mut x = stones;
                while x.any() {
                    h ^= keys[x.lowest()];
                    x = x.without_lowest();
                }
            }
        });
        h
    }

    fn parse_move(&self, text: &str) -> Result<u16, MoveError> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("swap") || t.eq_ignore_ascii_case("swap-pieces") {
            return if self.swap {
                Ok(self.swap_move())
            } else {
                Err(MoveError::Parse { text: text.to_string(), reason: MoveParseError::SwapNeedsRule { size: self.size as usize } })
            };
        }
        let n = self.size as usize;
        parse_cell(t, n, n).map(|(r, c)| (r * n + c) as u16).map_err(|e| MoveError::Parse { text: text.to_string(), reason: e.into() })
    }

    fn format_move(&self, m: u16) -> String {
        let n = self.size as usize;
        let m = m as usize;
        if m == n * n {
            "swap".into()
        } else {
            cell_name(m / n, m % n)
        }
    }

    fn board_string(&self) -> String {
        let n = self.size as usize;
        let mut s = String::with_capacity(n * (n + 1));
        for cell in 0..n * n {
            if cell > 0 && cell % n == 0 {
                s.push('/');
            }
            s.push(match self.stone_at(cell) {
                Some(0) => 'X',
                Some(_) => 'O',
                None => '.',
            });
        }
        s
    }

    /// `winning_cells` is one shortest chain of the winner's stones joining its two edges (found
    /// by breadth-first search inside the winning group), listed from the winner's first edge
    /// (top for Black, left for White) to the second. `last_cells` is the placed stone (after a
    /// swap, the mirrored White stone).
    /// All empty, then each player's stones by their set bits: per stone, not per cell (the
    /// save-bridge playouts read it once per playout).
    fn pattern_keys(&self, moves: &[u16], out: &mut Vec<u64>) -> bool {
        let n = self.size as usize;
        let mut owners = [0i8; MAX_CELLS];
        self.cell_owners(&mut owners[..n * n]);
        let mover = self.to_move as usize;
        out.clear();
        out.extend(moves.iter().map(|&m| {
            if (m as usize) < n * n {
                super::patterns::key(&owners[..n * n], n, m as usize, mover)
            } else {
                super::patterns::NO_PATTERN
            }
        }));
        true
    }

    fn cell_owners(&self, out: &mut [i8]) {
        let n = self.cells().min(out.len());
        out[..n].fill(-1);
        with_core!(&self.board, c => {
            for (owner, stones) in [(0i8, c.stones[0]), (1, c.stones[1])] {
                let mut s = stones;
                while s.any() {
                    let i = s.lowest();
                    if let Some(o) = out[..n].get_mut(i) {
                        *o = owner;
                    }
                    s = s.without_lowest();
                }
            }
        })
    }

    fn view(&self) -> BoardView {
        let n = self.size as usize;
        BoardView {
            kind: "hex".into(),
            spec: self.spec(),
            rows: n,
            cols: n,
            cells: (0..n * n).map(|c| self.stone_at(c).map_or(-1, |p| p as i8)).collect(),
            to_move: self.outcome.is_none().then_some(self.to_move),
            last_move: self.last.map(|m| self.format_move(m)),
            last_cells: self.last_cell().into_iter().collect(),
            winning_cells: self.winning_path(),
            outcome: self.outcome,
            ply: self.ply(),
        }
    }

    /// Fast paths (see the [`hex`](super) module documentation). With [`NoTrace`](crate::game::NoTrace): a random
    /// split of the empty cells and one connection test; `self` becomes the full board dealt
    /// (a terminal position with the same winner, hash recomputed on demand), so only
    /// `outcome()` means what the game reached. With a recording sink: a shuffle, the winner of
    /// the full board, and the trace stopped at the real end of the game, which `self` becomes.
    /// With the swap rule at ply 1, the swap move is drawn with probability 1/(legal moves) first.
    fn random_playout<T: MoveSink<u16>>(&mut self, rng: &mut Rng64, trace: &mut T) -> Outcome {
        if let Some(o) = self.outcome {
            return o;
        }
        if let Some(m) = self.draw_swap(rng) {
            trace.push(m);
        }
        let tm = self.to_move as usize;
        if !T::RECORDS {
            // Outcome only: a random split of the empty cells and one connection test. `self`
            // becomes the full board (a valid terminal position with the same winner).
            let (w, e, last) = with_core!(&mut self.board, c => c.split_playout(tm, rng));
            self.ply += e as u16;
            self.last = Some(last as u16);
            self.to_move ^= (e & 1) as u8;
            self.outcome = Some(Outcome::Win(w as Player));
            self.hash_stale = true;
            return Outcome::Win(w as Player);
        }
        let (w, k, last) = with_core!(&mut self.board, c => c.deal_playout(tm, rng, trace));
        self.ply += k as u16;
        self.last = Some(last);
        self.to_move ^= (k & 1) as u8;
        self.outcome = Some(Outcome::Win(w as Player));
        self.hash_stale = true;
        Outcome::Win(w as Player)
    }

    /// The recorded playout ([`Hex::random_playout`] with a `Vec`: the same shuffle, the same
    /// game, the same random numbers) returned as sets: the cells each player gained between the
    /// position before the deal and the end of the game, plus the swap move (dense index n²,
    /// White's) when the playout drew it. No list is written.
    fn random_playout_sets(&mut self, rng: &mut Rng64, sets: &mut MoveSets, _scratch: &mut Vec<u16>) -> Outcome {
        sets.clear();
        if let Some(o) = self.outcome {
            return o;
        }
        let mover = self.to_move;
        if let Some(m) = self.draw_swap(rng) {
            sets.push_first(mover, m as usize);
        }
        let tm = self.to_move as usize;
        let (w, k, last) = with_core!(&mut self.board, c => {
            let before = c.stones;
            let r = c.deal_playout(tm, rng, &mut crate::game::NoTrace);
            add_gained(sets, before, c.stones);
            r
        });
        sets.len += k as u32;
        self.ply += k as u16;
        self.last = Some(last);
        self.to_move ^= (k & 1) as u8;
        self.outcome = Some(Outcome::Win(w as Player));
        self.hash_stale = true;
        Outcome::Win(w as Player)
    }

    /// The board filled by the random split of the outcome-only playout (`Core::split`: the
    /// same random numbers, the same winner), the cells each player gained as `sets`. A
    /// recording `trace` gets them alternately, the mover's first, each side's in an order
    /// shuffled by a generator seeded from a copy of `rng` (so `rng` advances exactly as
    /// without recording).
    fn fill_playout<T: MoveSink<u16>>(&mut self, rng: &mut Rng64, sets: &mut MoveSets, trace: &mut T) -> Option<Outcome> {
        sets.clear();
        if let Some(o) = self.outcome {
            return Some(o);
        }
        let mover = self.to_move;
        if let Some(m) = self.draw_swap(rng) {
            sets.push_first(mover, m as usize);
            trace.push(m);
        }
        let tm = self.to_move as usize;
        let mut order = if T::RECORDS { Some(Rng64::new(rng.clone().next_u64() ^ 0x9e37_79b9_7f4a_7c15)) } else { None };
        let (w, e, last) = with_core!(&mut self.board, c => {
            let empty = c.empty();
            let r = c.split_playout(tm, rng);
            for (set, &stones) in sets.by.iter_mut().zip(&c.stones) {
                for (s, a) in set.iter_mut().zip(stone_words(stones & empty)) {
                    *s |= a;
                }
            }
            if let Some(order) = order.as_mut() {
                let mut lists = [[0u16; MAX_CELLS], [0u16; MAX_CELLS]];
                let mut lens = [0usize; 2];
                for (k, p) in [tm, 1 - tm].into_iter().enumerate() {
                    let gained = c.stones[p] & empty;
                    lens[k] = list_cells(gained, &mut lists[k]);
                    shuffle(&mut lists[k][..lens[k]], order);
                }
                let [mover, other] = &lists;
                for (j, &c) in mover[..lens[0]].iter().enumerate() {
                    trace.push(c);
                    if let Some(&d) = other[..lens[1]].get(j) {
                        trace.push(d);
                    }
                }
            }
            r
        });
        sets.len += e as u32;
        self.ply += e as u16;
        self.last = Some(last as u16);
        self.to_move ^= (e & 1) as u8;
        self.outcome = Some(Outcome::Win(w as Player));
        self.hash_stale = true;
        Some(Outcome::Win(w as Player))
    }

    /// The empty cells of a finished game split at random (the outcome-only playout's split
    /// without its connection test), the player to move taking ⌈e/2⌉.
    fn fill_rest(&self, rng: &mut Rng64, sets: &mut MoveSets) -> bool {
        if self.outcome.is_none() {
            return false;
        }
        let tm = self.to_move as usize;
        with_core!(&self.board, c => {
            let (s, other) = c.random_split(rng);
            for (set, part) in [(tm, s), (1 - tm, other)] {
                for (w, a) in sets.by[set].iter_mut().zip(stone_words(part)) {
                    *w |= a;
                }
            }
        });
        true
    }

    /// Empty cells touching (or on) both of the mover's edge-connected sets.
    fn winning_moves(&self, out: &mut MoveList<u16>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        let p = self.to_move as usize;
        with_core!(&self.board, c => Hex::push_cells(c.winning_cells(p), out));
    }

    fn find_winning_move(&self) -> Option<u16> {
        if self.outcome.is_some() {
            return None;
        }
        let p = self.to_move as usize;
        with_core!(&self.board, c => {
            let w = c.winning_cells(p);
            w.any().then(|| w.lowest() as u16)
        })
    }

    fn threats(&self, out: &mut MoveList<u16>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        let o = 1 - self.to_move as usize;
        with_core!(&self.board, c => Hex::push_cells(c.winning_cells(o), out));
    }

    /// The k-th cell (ascending, as `threats` lists them) of the opponent's winning-cell set,
    /// k drawn by `rng.index(count)`: no list is built.
    #[inline]
    fn random_threat(&self, rng: &mut Rng64, _scratch: &mut MoveList<u16>) -> Option<u16> {
        if self.outcome.is_some() {
            return None;
        }
        let o = 1 - self.to_move as usize;
        with_core!(&self.board, c => {
            let t = c.winning_cells(o);
            if t.is_zero() {
                None
            } else {
                let k = rng.index(t.count() as usize);
                Some(t.select(k as u32) as u16)
            }
        })
    }

    /// A stone never creates or removes threats of the opponent except on its own cell, so:
    /// no opponent threat → every move; one threat → that cell and the mover's winning cells;
    /// two or more → only the mover's winning cells. The swap move is checked by playing it.
    fn non_losing_moves(&self, out: &mut MoveList<u16>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        let p = self.to_move as usize;
        with_core!(&self.board, c => {
            let w = c.winning_cells(p);
            let t = c.winning_cells(1 - p);
            let ok = match t.count() {
                0 => c.empty(),
                1 => t | w,
                _ => w,
            };
            Hex::push_cells(ok, out);
        });
        if self.swap_legal() {
            let mut g = self.clone();
            g.play_swap();
            if g.find_winning_move().is_none() {
                out.push(self.swap_move());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `nth_legal(i)` is the `i`-th move of `legal_moves` (the swap move last), `None` past
    /// the end, on every board type, with and without the swap rule, along random games.
    #[test]
    fn nth_legal_is_the_ith_legal_move() {
        let mut rng = Rng64::new(21);
        for (n, swap) in [(3, false), (5, true), (8, false), (11, true), (13, false), (19, true)] {
            for _ in 0..10 {
                let mut g = Hex::new(n, swap).unwrap();
                loop {
                    let mut l = MoveList::new();
                    g.legal_moves(&mut l);
                    for i in 0..=l.len() {
                        assert_eq!(g.nth_legal(i), l.get(i).copied(), "size {n}, swap {swap}, ply {}, i {i}", g.ply);
                    }
                    if l.is_empty() {
                        break;
                    }
                    g.play_unchecked(l[rng.index(l.len())]);
                }
            }
        }
    }

    /// A decisive playout with its quiet blocks ([`Core::deal_quiet`]) plays the same game as
    /// the one that places every move on its own: the same moves, winner, forced-move counts,
    /// final board and random numbers, from random positions on every board type (from the
    /// empty board to a few cells from the end, where threats come early), for each policy.
    #[test]
    fn quiet_blocks_play_the_same_games() {
        let mut rng = Rng64::new(29);
        let modes = [(true, true), (true, false), (false, true), (false, false)];
        for n in [1usize, 2, 3, 4, 5, 7, 8, 9, 11, 12, 13, 19] {
            for (decisive, anti) in modes {
                for _ in 0..60 {
                    let mut g = Hex::new(n, false).unwrap();
                    let fill = rng.below((n * n) as u32 + 1);
                    for _ in 0..fill {
                        if g.outcome().is_some() {
                            break;
                        }
                        let mut l = MoveList::new();
                        g.legal_moves(&mut l);
                        g.play_unchecked(l[rng.index(l.len())]);
                    }
                    if g.outcome().is_some() {
                        continue;
                    }
                    let tm = g.to_move as usize;
                    let seed = rng.next_u64();
                    with_core!(&g.board, c => {
                        let run = |quiet: bool| {
                            let (mut pos, mut r, mut trace, mut counts) = (*c, Rng64::new(seed), Vec::new(), [0u64; 2]);
                            let out = if quiet {
                                pos.decisive_playout::<_, true>(tm, &mut r, decisive, anti, &mut trace, &mut counts)
                            } else {
                                pos.decisive_playout::<_, false>(tm, &mut r, decisive, anti, &mut trace, &mut counts)
                            };
                            (out, trace, counts, pos.stones, r.next_u64())
                        };
                        assert_eq!(run(true), run(false), "hex:{n} after {fill} moves, policy {decisive}/{anti}");
                    });
                }
            }
        }
    }

    /// The incrementally kept winning cells equal those computed from the reach sets, for both
    /// players, along random games on every board type (and after a swap).
    #[test]
    fn winning_cells_kept_incrementally() {
        let mut rng = Rng64::new(17);
        for n in [1usize, 2, 3, 5, 8, 9, 11, 12, 19] {
            for swap in [false, true] {
                for _ in 0..20 {
                    let mut g = Hex::new(n, swap).unwrap();
                    while g.outcome().is_none() {
                        with_core!(&g.board, c => for p in 0..2 {
                            assert_eq!(c.winning_cells(p), c.compute_winning_cells(p), "n={n} ply={}", g.ply);
                            for e in 0..2 {
                                let reach = c.geo.flood(c.stones[p] & c.geo.edge[p][e], c.stones[p]);
                                assert_eq!(c.reach(p, e), reach);
                                assert_eq!(c.touch[p][e], c.geo.grow(reach) | c.geo.edge[p][e]);
                            }
                        });
                        let mut l = MoveList::new();
                        g.legal_moves(&mut l);
                        g.play_unchecked(l[rng.index(l.len())]);
                    }
                }
            }
        }
    }

    /// `random_threat` draws the same threat as the generic way (list the threats, pick
    /// `rng.index(len)`), with the same random numbers, and `None` exactly without threats;
    /// along random games on every board type.
    #[test]
    fn random_threat_is_the_listed_threat() {
        let mut rng = Rng64::new(23);
        for n in [3usize, 5, 8, 9, 11, 12, 19] {
            for _ in 0..20 {
                let mut g = Hex::new(n, false).unwrap();
                loop {
                    let mut t = MoveList::new();
                    g.threats(&mut t);
                    let seed = rng.next_u64();
                    let want = (!t.is_empty()).then(|| t[Rng64::new(seed).index(t.len())]);
                    assert_eq!(g.random_threat(&mut Rng64::new(seed), &mut MoveList::new()), want, "n={n} ply={}", g.ply);
                    if g.outcome().is_some() {
                        break;
                    }
                    let mut l = MoveList::new();
                    g.legal_moves(&mut l);
                    g.play_unchecked(l[rng.index(l.len())]);
                }
            }
        }
    }
}
