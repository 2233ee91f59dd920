//! Connect Four: the game to read after [`super::tictactoe`], showing what a game does when its
//! moves are not cells (a move is a column; the disc falls) and how a game overrides the
//! [`Game`] trait's provided methods with bitboard fast paths.
//!
//! # Rules
//! Milton Bradley's rules (1974), as OpenSpiel's `connect_four`: a vertical board of 7 columns
//! and 6 rows; `X` (player 0) and `O` (player 1) alternately drop a disc into a column that is
//! not full, and it falls to the lowest empty cell of that column. Four discs of one player in a
//! row — horizontally, vertically or diagonally — win at once; a full board without four is a
//! draw. Other sizes are the same game on `cols × rows` (spec `connect4:COLSxROWS`).
//!
//! # Spec and notation
//! - `connect4` is 7 columns × 6 rows; `connect4:COLSxROWS` (e.g. `connect4:6x5`,
//!   `connect4:8x7`) another size, with 4 ≤ COLS ≤ 9, 4 ≤ ROWS ≤ 9 and COLS·(ROWS+1) ≤ 64 (the
//!   bitboard below must fit in a `u64`): 9×6, 8×7, 7×8, 6×9 are the largest. `spec()` writes
//!   `connect4` for 7×6 and `connect4:CxR` otherwise.
//! - A move is a column: its dense index is the column number from 0 (left) to `cols − 1`;
//!   notation is the column letter `a`…`g` (as Tromp's and Pons's databases and most GUIs write
//!   them), and [`Game::parse_move`] also reads the column number `1`…`7` and upper case.
//! - Board strings and [`BoardView`] cells are rows top to bottom (row 0 on top, as every game
//!   here), cell index `row * cols + col`.
//!
//! # Representation
//! The bitboard of John Tromp's *Fhourstones* benchmark (1996–2008,
//! <https://tromp.github.io/c4/fhour.html>) as Pascal Pons describes it ("Solving Connect 4: how
//! to build a perfect AI", blog.gamesolver.org, 2019, part 6 "Bitboard"): column `c` holds bits
//! `c·(rows+1)` … `c·(rows+1) + rows − 1` from the bottom up, plus one always-empty sentinel bit on
//! top so that shifting a line never wraps into the next column. Two `u64`s describe a position:
//! `mask` (every disc) and `current` (the discs of the side to move). Playing column `c` is
//! `current ^= mask; mask |= mask + bottom(c)`; four in a row is found with shifts by 1
//! (vertical), rows+1 (horizontal), rows (diagonal ↘) and rows+2 (diagonal ↗); the cells where a
//! player would complete four are Pons's `compute_winning_position`.
//!
//! # Fast paths
//! Every provided method of [`Game`] that a search calls per move is overridden on the bitboard:
//! the legal moves are the playable cells `(mask + bottom) & board` (so [`Game::legal_count`] is
//! a population count and [`Game::nth_legal`] the i-th set bit), the winning moves and the
//! opponent's threats are the playable cells among the winning cells, and the non-losing moves are
//! Pons's `possibleNonLosingMoves` (plus the winning moves); [`Game::random_playout`] plays on
//! local words. Each equals the trait's default (the tests compare them on random games).
//!
//! # Exact solving
//! The generic endgame solver ([`crate::solve::endgame`]) solves Connect Four with these fast paths and
//! Pons's move ordering through [`Game::exact_move_order`] (the number of cells the move makes a
//! threat on, then the centre first); its immediate-result checks are Pons's anticipation of
//! losing moves, its table keyed by [`Game::exact_key`] (`current` and `mask`). Measured on this
//! project's 2-core machine against Pons's own solver in its weak mode (CPU time, one after the
//! other): 1.15× its time on 60 positions after 10–20 random moves, 1.5× on 13 positions after 8
//! and 12 random moves (1.2–2× its positions searched, each a little cheaper), 3× on 6×5's empty
//! board, with a table of 2^18 entries; larger tables are slower here (memory latency).
//! The first move d of 7×6 took 899 s (3.27·10^9 positions, a table of 2^20 entries, on a
//! shared machine): the empty board and its first moves need a long run or an opening book.

use super::registry::{Choice, EndgameRefusal, ExactSolverKind, GameFacts, Registered, SolverFacts};
use super::{zobrist_key, BoardView, CellError, Game, MoveError, MoveList, MoveParseError, MoveSink, Outcome, Player, MOVE_WORDS};
use crate::rng::Rng64;

/// Columns of the standard board.
pub const DEFAULT_COLS: usize = 7;
/// Rows of the standard board.
pub const DEFAULT_ROWS: usize = 6;
/// Fewest columns and fewest rows a board may have (a line of four must fit both ways).
pub const MIN_SIDE: usize = 4;
/// Most columns and most rows a board may have (a column letter `a`…`i`, a digit `1`…`9`);
/// besides, `cols · (rows + 1)` must be at most 64 bits.
pub const MAX_SIDE: usize = 9;

/// Why the options after `connect4:` were refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConnectFourOptionError {
    /// An option is empty (a stray `:`).
    #[error("empty option (expected connect4 or connect4:COLSxROWS, e.g. connect4:6x5)")]
    EmptyOption,
    /// The option is not `COLSxROWS`.
    #[error("unknown option '{}' (expected a board size COLSxROWS, e.g. connect4:6x5)", crate::limits::abbreviate(option))]
    UnknownOption {
        /// The option as written.
        option: String,
    },
    /// A second option after the size.
    #[error("connect4 takes one option, the board size COLSxROWS; got a second one '{}'", crate::limits::abbreviate(option))]
    ExtraOption {
        /// The second option as written.
        option: String,
    },
    /// Columns or rows outside `4..=9`.
    #[error("a {cols}x{rows} board is out of range: columns and rows are {MIN_SIDE} to {MAX_SIDE}")]
    SideOutOfRange {
        /// Columns as read.
        cols: usize,
        /// Rows as read.
        rows: usize,
    },
    /// `cols · (rows + 1)` over 64: the board does not fit the 64-bit bitboard.
    #[error("a {cols}x{rows} board needs {} bits, more than the 64 of the bitboard (columns × (rows + 1) ≤ 64; e.g. 9x6, 8x7, 7x8)", cols * (rows + 1))]
    TooLarge {
        /// Columns.
        cols: usize,
        /// Rows.
        rows: usize,
    },
}

/// Zobrist keys: `KEYS[player][bit]` for a disc of `player` on bitboard bit `bit` (0..64).
static KEYS: [[u64; 64]; 2] = {
    let mut t = [[0u64; 64]; 2];
    let mut b = 0;
    while b < 64 {
        t[0][b] = zobrist_key(0xC4C4_0000 + b as u64);
        t[1][b] = zobrist_key(0xC4C4_0100 + b as u64);
        b += 1;
    }
    t
};
/// Key XORed in when player 1 is to move.
const SIDE_KEY: u64 = zobrist_key(0xC4C4_FFFF);

/// A Connect Four position on a `cols × rows` board (Tromp's and Pons's bitboard, see the module
/// documentation). A move is a column `0..cols` (`u8`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnectFour {
    cols: u8,
    rows: u8,
    /// Discs of the side to move.
    current: u64,
    /// Every disc.
    mask: u64,
    /// Bit 0 of every column (Pons's `bottom_mask`).
    bottom: u64,
    /// Every playable cell, sentinels excluded (Pons's `board_mask`).
    board: u64,
    ply: u8,
    outcome: Option<Outcome>,
    /// Column of the last move.
    last: Option<u8>,
    hash: u64,
}

impl Default for ConnectFour {
    /// The standard 7×6 board.
    fn default() -> Self {
        ConnectFour::new()
    }
}

impl ConnectFour {
    /// The empty standard board (7 columns × 6 rows), `X` to move.
    pub fn new() -> ConnectFour {
        // 7 × 7 ≤ 64.
        ConnectFour::with_size(DEFAULT_COLS, DEFAULT_ROWS).unwrap_or_else(|_| unreachable!())
    }

    /// The empty `cols × rows` board, `X` to move.
    ///
    /// # Errors
    /// [`ConnectFourOptionError::SideOutOfRange`] outside 4..=9, [`ConnectFourOptionError::TooLarge`]
    /// when `cols · (rows + 1) > 64`.
    pub fn with_size(cols: usize, rows: usize) -> Result<ConnectFour, ConnectFourOptionError> {
        if !(MIN_SIDE..=MAX_SIDE).contains(&cols) || !(MIN_SIDE..=MAX_SIDE).contains(&rows) {
            return Err(ConnectFourOptionError::SideOutOfRange { cols, rows });
        }
        if cols * (rows + 1) > 64 {
            return Err(ConnectFourOptionError::TooLarge { cols, rows });
        }
        let h = rows + 1;
        let bottom = (0..cols).fold(0u64, |b, c| b | 1 << (c * h));
        let board = bottom * ((1u64 << rows) - 1);
        Ok(ConnectFour {
            cols: cols as u8,
            rows: rows as u8,
            current: 0,
            mask: 0,
            bottom,
            board,
            ply: 0,
            outcome: None,
            last: None,
            hash: 0,
        })
    }

    /// Builds from the options after `connect4:` in a spec string: nothing (7×6) or one board size
    /// `COLSxROWS` (`x` or `X`), e.g. `[]`, `["6x5"]`.
    ///
    /// # Errors
    /// [`ConnectFourOptionError`] naming the problem ("unknown option 'foo' (expected a board size
    /// COLSxROWS …)", "a 9x9 board needs 90 bits …").
    pub fn from_options(opts: &[&str]) -> Result<ConnectFour, ConnectFourOptionError> {
        let Some(first) = opts.first() else { return Ok(ConnectFour::new()) };
        if let Some(extra) = opts.get(1) {
            return Err(ConnectFourOptionError::ExtraOption { option: extra.trim().to_string() });
        }
        let o = first.trim();
        if o.is_empty() {
            return Err(ConnectFourOptionError::EmptyOption);
        }
        let unknown = || ConnectFourOptionError::UnknownOption { option: o.to_string() };
        let (c, r) = o.split_once(['x', 'X']).ok_or_else(unknown)?;
        let num = |s: &str| -> Result<usize, ConnectFourOptionError> {
            if s.is_empty() || s.len() > 3 || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(unknown());
            }
            s.parse().map_err(|_| unknown())
        };
        ConnectFour::with_size(num(c)?, num(r)?)
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols as usize
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows as usize
    }

    /// Bits per column (rows + 1, with the sentinel).
    #[inline(always)]
    fn h(&self) -> u32 {
        self.rows as u32 + 1
    }

    /// The bitboard of player `p`'s discs (bit `col·(rows+1) + height`, height 0 at the bottom).
    pub fn discs(&self, p: Player) -> u64 {
        if p == self.to_move() {
            self.current
        } else {
            self.current ^ self.mask
        }
    }

    /// The bitboard of every disc.
    pub fn mask(&self) -> u64 {
        self.mask
    }

    /// Every cell of column `c`.
    #[inline(always)]
    fn column_mask(&self, c: usize) -> u64 {
        ((1u64 << self.rows) - 1) << (c as u32 * self.h())
    }

    /// The cell each non-full column would take now (Pons's `possible`).
    #[inline(always)]
    fn possible(&self) -> u64 {
        (self.mask + self.bottom) & self.board
    }

    /// The columns of a set of cells holding at most one cell per column, ascending.
    fn columns_of(&self, cells: u64, out: &mut MoveList<u8>) {
        out.clear();
        for c in 0..self.cols {
            if cells & self.column_mask(c as usize) != 0 {
                out.push(c);
            }
        }
    }

    /// The column of bitboard bit `b`.
    #[inline(always)]
    fn col_of_bit(&self, b: u32) -> u8 {
        (b / self.h()) as u8
    }

    /// Empty cells (anywhere on the board, playable now or not) where the discs `p` would make
    /// four in a row (Pons's `compute_winning_position`).
    #[inline(always)]
    fn winning_cells(&self, p: u64) -> u64 {
        let h = self.h();
        let mut r = (p << 1) & (p << 2) & (p << 3);
        for s in [h, h - 1, h + 1] {
            let m = (p << s) & (p << (2 * s));
            r |= m & (p << (3 * s));
            r |= m & (p >> s);
            let m = (p >> s) & (p >> (2 * s));
            r |= m & (p << s);
            r |= m & (p >> (3 * s));
        }
        r & (self.board ^ self.mask)
    }

    /// Whether the discs `p` hold four in a row.
    #[inline(always)]
    fn has_four(p: u64, h: u32) -> bool {
        for s in [1, h, h - 1, h + 1] {
            let m = p & (p >> s);
            if m & (m >> (2 * s)) != 0 {
                return true;
            }
        }
        false
    }

    /// Every disc of `p` that is part of some four in a row.
    fn four_cells(p: u64, h: u32) -> u64 {
        let mut out = 0;
        for s in [1, h, h - 1, h + 1] {
            let m = p & (p >> s);
            let start = m & (m >> (2 * s));
            out |= start | start << s | start << (2 * s) | start << (3 * s);
        }
        out
    }

    /// The view's cell index (`row * cols + col`, row 0 on top) of bitboard bit `b`.
    fn cell_of_bit(&self, b: u32) -> usize {
        let (c, height) = ((b / self.h()) as usize, (b % self.h()) as usize);
        (self.rows as usize - 1 - height) * self.cols as usize + c
    }

    /// Plays the disc of the side to move on cell `bit` (the lowest empty cell of its column).
    #[inline(always)]
    fn put(&mut self, bit: u64) {
        let p = self.ply as usize & 1;
        let b = bit.trailing_zeros();
        self.hash ^= KEYS[p][b as usize] ^ SIDE_KEY;
        // Pons: the mover's discs become the opponent's "current" after the swap.
        self.current ^= self.mask;
        self.mask |= bit;
        self.ply += 1;
        self.last = Some(self.col_of_bit(b));
        let mover = self.current ^ self.mask;
        if ConnectFour::has_four(mover, self.h()) {
            self.outcome = Some(Outcome::Win(p as Player));
        } else if self.mask == self.board {
            self.outcome = Some(Outcome::Draw);
        }
    }

    /// The side to move's moves that win at once, as cells.
    #[inline(always)]
    fn winning_now(&self) -> u64 {
        self.winning_cells(self.current) & self.possible()
    }

    /// The non-losing moves as cells (see [`Game::non_losing_moves`]): the winning moves, and
    /// Pons's `possibleNonLosingMoves` (a forced block when the opponent threatens one cell,
    /// none when it threatens two, never below an opponent's winning cell).
    fn non_losing_cells(&self) -> u64 {
        let possible = self.possible();
        let win = self.winning_cells(self.current) & possible;
        let opp = self.winning_cells(self.current ^ self.mask);
        let forced = opp & possible;
        let mut rest = possible;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                rest = 0;
            } else {
                rest = forced;
            }
        }
        win | (rest & !(opp >> 1))
    }

    /// The `i`-th set bit of `x` (from the lowest), as a one-bit mask (0 past the last).
    #[inline(always)]
    fn nth_bit(mut x: u64, i: usize) -> u64 {
        for _ in 0..i {
            x &= x.wrapping_sub(1);
        }
        x & x.wrapping_neg()
    }

    /// Move-ordering score of playing column `c` for the exact solver: Pons's score (the
    /// number of cells where the mover then threatens four, playable or not) times 16, plus the
    /// column's closeness to the centre (Pons's centre-first order).
    pub fn order_score(&self, c: u8) -> u32 {
        let bit = (self.mask + (self.bottom & self.column_mask(c as usize))) & self.column_mask(c as usize);
        let after = self.current | bit;
        let threats = (self.winning_cells(after) & !bit).count_ones();
        let centre = self.cols as i32 - (2 * c as i32 - (self.cols as i32 - 1)).abs();
        threats * 16 + centre as u32
    }
}

impl Registered for ConnectFour {
    const FACTS: GameFacts = GameFacts {
        name: "connect4",
        title: "Connect Four",
        aliases: &["connectfour", "connect_four"],
        syntax: "connect4[:COLSxROWS]",
        default_spec: "connect4",
        examples: &["connect4", "connect4:6x5"],
        test_specs: &["connect4:4x4", "connect4:9x6", "connect4:6x9", "connect4:8x7"],
        choices: &[Choice { spec: "connect4", label: "Connect Four" }],
        players: ["red", "yellow"],
        goals: ["", ""],
        rules: "Drop a disc into a column; four in a row across, down or diagonally wins.",
        draws: true,
        sizes: None,
        notation: "a column: its letter a–g (or its number 1–7)",
        example_moves: "d d c",
        solver: Some(SolverFacts {
            kind: ExactSolverKind::AlphaBeta,
            takes: "every position",
            max_side: None,
            max_empty: None,
            swap: false,
        }),
        net_input: false,
        patterns: false,
    };

    /// The options of [`ConnectFour::from_options`].
    fn from_options(options: &[&str]) -> Result<Self, String> {
        ConnectFour::from_options(options).map_err(|e| e.to_string())
    }

    /// Every position, with a table of at most 2^20 entries (24 MiB): the solver is bound by the
    /// table's memory latency, and a larger table was slower (the empty 6×5 board: 0.93 s with
    /// 2^18 entries, 1.45 s with 2^20, 2.7 s with 2^24); at most 2^(2·empty cells) for a small
    /// endgame.
    fn endgame_table_log2(&self) -> Result<u32, EndgameRefusal> {
        let empty = self.cols() * self.rows() - self.ply();
        Ok((2 * empty as u32).clamp(10, 20))
    }
}

impl Game for ConnectFour {
    type Move = u8;

    fn spec(&self) -> String {
        if (self.cols as usize, self.rows as usize) == (DEFAULT_COLS, DEFAULT_ROWS) {
            "connect4".into()
        } else {
            format!("connect4:{}x{}", self.cols, self.rows)
        }
    }
    fn move_space(&self) -> usize {
        self.cols as usize
    }
    fn move_index(&self, m: u8) -> usize {
        m as usize
    }
    fn move_from_index(&self, index: usize) -> Option<u8> {
        (index < self.cols as usize).then_some(index as u8)
    }
    fn to_move(&self) -> Player {
        self.ply & 1
    }
    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    fn ply(&self) -> usize {
        self.ply as usize
    }

    fn legal_moves(&self, out: &mut MoveList<u8>) {
        out.clear();
        if self.outcome.is_none() {
            self.columns_of(self.possible(), out);
        }
    }

    fn is_legal(&self, m: u8) -> bool {
        self.outcome.is_none() && m < self.cols && self.possible() & self.column_mask(m as usize) != 0
    }

    #[inline]
    fn play_unchecked(&mut self, m: u8) {
        debug_assert!(self.is_legal(m));
        let bit = self.possible() & self.column_mask(m as usize);
        self.put(bit);
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = if self.to_move() == 1 { SIDE_KEY } else { 0 };
        for p in 0..2u8 {
            let mut d = self.discs(p);
            while d != 0 {
                h ^= KEYS[p as usize][d.trailing_zeros() as usize];
                d &= d - 1;
            }
        }
        h
    }

    /// `current` (the side to move's discs) in the low 64 bits and `mask` in the high ones: the
    /// side to move is the parity of the disc count, so the pair tells positions apart exactly.
    fn exact_key(&self) -> Option<u128> {
        Some(self.current as u128 | (self.mask as u128) << 64)
    }

    fn hash_of_exact_key(&self, key: u128) -> Option<u64> {
        let mut g = *self;
        g.current = key as u64;
        g.mask = (key >> 64) as u64;
        g.ply = g.mask.count_ones() as u8;
        Some(g.hash_from_scratch())
    }

    /// A column letter (`a`…, either case) or a column number (`1`…).
    fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
        let cols = self.cols as usize;
        let last = (b'a' + self.cols - 1) as char;
        let t = text.trim();
        let err = |reason: MoveParseError| MoveError::Parse { text: text.to_string(), reason };
        if t.is_empty() {
            return Err(err(CellError::Empty.into()));
        }
        let col = if t.len() == 1 && t.as_bytes()[0].is_ascii_alphabetic() {
            (t.as_bytes()[0].to_ascii_lowercase() - b'a') as usize
        } else if t.len() <= 2 && t.bytes().all(|b| b.is_ascii_digit()) {
            // One or two digits always parse; 0 is off the board.
            t.parse::<usize>().unwrap_or(0).wrapping_sub(1)
        } else {
            return Err(err(MoveParseError::Column { last, cols }));
        };
        if col >= cols {
            return Err(err(MoveParseError::Column { last, cols }));
        }
        Ok(col as u8)
    }

    fn format_move(&self, m: u8) -> String {
        ((b'a' + m) as char).to_string()
    }

    fn board_string(&self) -> String {
        let (rows, cols, h) = (self.rows as u32, self.cols as u32, self.h());
        let x = self.discs(0);
        let mut s = String::with_capacity(((cols + 1) * rows) as usize);
        for r in 0..rows {
            if r > 0 {
                s.push('/');
            }
            for c in 0..cols {
                let b = c * h + (rows - 1 - r);
                s.push(if self.mask >> b & 1 == 0 {
                    '.'
                } else if x >> b & 1 == 1 {
                    'X'
                } else {
                    'O'
                });
            }
        }
        s
    }

    fn cell_owners(&self, out: &mut [i8]) {
        let (rows, cols, h) = (self.rows as u32, self.cols as u32, self.h());
        let x = self.discs(0);
        for (i, o) in out.iter_mut().enumerate().take((rows * cols) as usize) {
            let (r, c) = (i as u32 / cols, i as u32 % cols);
            let b = c * h + (rows - 1 - r);
            *o = if self.mask >> b & 1 == 0 { -1 } else { (x >> b & 1 == 0) as i8 };
        }
    }

    fn view(&self) -> BoardView {
        let mut cells = vec![-1i8; self.rows as usize * self.cols as usize];
        self.cell_owners(&mut cells);
        let last_cells = self
            .last
            .map(|c| {
                let top = 63 - (self.mask & self.column_mask(c as usize)).leading_zeros();
                vec![self.cell_of_bit(top)]
            })
            .unwrap_or_default();
        let mut winning = match self.outcome {
            Some(Outcome::Win(p)) => ConnectFour::four_cells(self.discs(p), self.h()),
            _ => 0,
        };
        let mut winning_cells = Vec::new();
        while winning != 0 {
            winning_cells.push(self.cell_of_bit(winning.trailing_zeros()));
            winning &= winning - 1;
        }
        winning_cells.sort_unstable();
        BoardView {
            kind: "connect4".into(),
            spec: self.spec(),
            rows: self.rows as usize,
            cols: self.cols as usize,
            cells,
            to_move: self.outcome.is_none().then_some(self.to_move()),
            last_move: self.last.map(|m| self.format_move(m)),
            last_cells,
            winning_cells,
            outcome: self.outcome,
            ply: self.ply(),
        }
    }

    fn legal_count(&self) -> usize {
        if self.outcome.is_some() {
            0
        } else {
            self.possible().count_ones() as usize
        }
    }

    /// The `i`-th set bit of the playable cells: columns ascend with the bits.
    fn nth_legal(&self, i: usize) -> Option<u8> {
        if self.outcome.is_some() {
            return None;
        }
        let b = ConnectFour::nth_bit(self.possible(), i);
        (b != 0).then(|| self.col_of_bit(b.trailing_zeros()))
    }

    fn legal_move_set(&self, out: &mut [u64; MOVE_WORDS]) {
        *out = [0; MOVE_WORDS];
        if self.outcome.is_none() {
            for c in 0..self.cols as usize {
                if self.possible() & self.column_mask(c) != 0 {
                    out[0] |= 1 << c;
                }
            }
        }
    }

    /// Fast path: draws the `k`-th playable cell of the bitboard (the same `rng.index(count)` as
    /// the default, the same column order), plays it on local words and tests four in a row.
    fn random_playout<T: MoveSink<u8>>(&mut self, rng: &mut Rng64, trace: &mut T) -> Outcome {
        if let Some(o) = self.outcome {
            return o;
        }
        let h = self.h();
        let (mut current, mut mask, mut hash, mut ply) = (self.current, self.mask, self.hash, self.ply);
        let (bottom, board) = (self.bottom, self.board);
        let (outcome, last) = loop {
            let possible = (mask + bottom) & board;
            let bit = ConnectFour::nth_bit(possible, rng.index(possible.count_ones() as usize));
            let b = bit.trailing_zeros();
            if T::RECORDS {
                trace.push((b / h) as u8);
            }
            hash ^= KEYS[ply as usize & 1][b as usize] ^ SIDE_KEY;
            current ^= mask;
            mask |= bit;
            ply += 1;
            if ConnectFour::has_four(current ^ mask, h) {
                break (Outcome::Win((ply - 1) & 1), b);
            }
            if mask == board {
                break (Outcome::Draw, b);
            }
        };
        self.current = current;
        self.mask = mask;
        self.hash = hash;
        self.ply = ply;
        self.last = Some((last / h) as u8);
        self.outcome = Some(outcome);
        outcome
    }

    fn winning_moves(&self, out: &mut MoveList<u8>) {
        out.clear();
        if self.outcome.is_none() {
            self.columns_of(self.winning_now(), out);
        }
    }

    fn find_winning_move(&self) -> Option<u8> {
        if self.outcome.is_some() {
            return None;
        }
        let w = self.winning_now();
        (w != 0).then(|| self.col_of_bit(w.trailing_zeros()))
    }

    fn threats(&self, out: &mut MoveList<u8>) {
        out.clear();
        if self.outcome.is_none() {
            self.columns_of(self.winning_cells(self.current ^ self.mask) & self.possible(), out);
        }
    }

    /// The `k`-th of the opponent's playable winning cells (the order of [`Game::threats`]).
    fn random_threat(&self, rng: &mut Rng64, _scratch: &mut MoveList<u8>) -> Option<u8> {
        if self.outcome.is_some() {
            return None;
        }
        let t = self.winning_cells(self.current ^ self.mask) & self.possible();
        if t == 0 {
            return None;
        }
        let bit = ConnectFour::nth_bit(t, rng.index(t.count_ones() as usize));
        Some(self.col_of_bit(bit.trailing_zeros()))
    }

    fn non_losing_moves(&self, out: &mut MoveList<u8>) {
        out.clear();
        if self.outcome.is_none() {
            self.columns_of(self.non_losing_cells(), out);
        }
    }

    fn exact_move_order(&self, m: u8) -> u32 {
        self.order_score(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_all(spec_moves: &str) -> ConnectFour {
        let mut g = ConnectFour::new();
        for m in spec_moves.split_whitespace() {
            g.play_text(m).unwrap();
        }
        g
    }

    #[test]
    fn discs_fall_and_board_string() {
        let g = play_all("d d c");
        assert_eq!(g.board_string(), "......./......./......./......./...O.../..XX...");
        assert_eq!(g.view().last_cells, vec![5 * 7 + 2]);
    }

    #[test]
    fn vertical_four_wins() {
        let g = play_all("a b a b a b a");
        assert_eq!(g.outcome(), Some(Outcome::Win(0)));
        assert_eq!(g.view().winning_cells, vec![2 * 7, 3 * 7, 4 * 7, 5 * 7]);
    }

    #[test]
    fn move_is_one_byte() {
        assert_eq!(std::mem::size_of::<<ConnectFour as Game>::Move>(), 1);
    }
}
