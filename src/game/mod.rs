//! Game rules behind one trait, [`Game`], and the game spec strings that name them.
//!
//! Conventions shared by every game (they follow `../shared/reference/README.md`, i.e. OpenSpiel):
//! - two players, `0` moves first; in Hex and Pentago player 0 is Black (`X`), in Tic-Tac-Toe `X`;
//! - cells are numbered `row * cols + col`, row 0 on top; text notation is column letter + row
//!   number with row 1 on top (`a1`, `k11`);
//! - every move has a dense index in `0..move_space()` that does not depend on the position, so
//!   per-move tables (AMAF, Last-Good-Reply, MAST) are plain arrays;
//! - board strings are rows top to bottom joined by `/`, with `.`, `X` (player 0), `O` (player 1).
//!
//! Game spec strings: `tictactoe`, `hex:N` (1 ≤ N ≤ 19), `hex:N:swap`, `hex` (= `hex:11`),
//! `pentago` (= `pentago:official`), `pentago:official`, `pentago:openspiel`, `pentago:twist`,
//! and for Pentago the option `:dedup` (e.g. `pentago:twist:dedup`) that removes moves leading
//! to the same position from the legal-move list.

use std::fmt;

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use crate::rng::Rng64;

pub mod connect4;
pub mod hex;
pub mod pentago;
pub mod registry;
pub mod tictactoe;

pub use connect4::{ConnectFour, ConnectFourOptionError};
pub use hex::bridges::BridgeRings;
pub use hex::{Hex, HexOptionError};
pub use pentago::{Pentago, PentagoBoardError, PentagoOptionError, PentagoRules};
pub use tictactoe::TicTacToe;

/// The registry: calls the macro `$callback` (a `#[macro_export]`ed macro of this crate, by name)
/// with `$args` followed by `;` and the games as `Variant: Type` pairs, one per game. **Adding a
/// game is one line here** (beside its `pub mod` and `pub use` above: the Rust side of a
/// registration is this file; `docs/adding-a-game.md`). The variant is the game's name in
/// [`AnyGame`] and the
/// other per-game enums.
#[doc(hidden)]
#[macro_export]
macro_rules! registered_games {
    ($callback:ident ! ($($args:tt)*)) => {
        $crate::$callback! { $($args)* ;
            TicTacToe: $crate::game::TicTacToe,
            Hex: $crate::game::Hex,
            Pentago: $crate::game::Pentago,
            ConnectFour: $crate::game::ConnectFour,
        }
    };
}

/// A player: `0` moves first (Black / X), `1` second (White / O).
pub type Player = u8;

/// The most legal moves any supported position has (Hex 19×19 plus the swap move).
pub const MAX_MOVES: usize = 19 * 19 + 1;

/// Fixed-capacity move list: generating moves never allocates.
pub type MoveList<M> = ArrayVec<M, MAX_MOVES>;

/// Where a playout writes the moves it plays: a `Vec` records them (for AMAF, LGR, replay);
/// [`NoTrace`] records nothing, which lets a game take a faster path that only finds the outcome.
pub trait MoveSink<M> {
    /// Whether pushed moves are kept. Games may skip producing moves when this is `false`.
    const RECORDS: bool;
    /// Records one move.
    fn push(&mut self, m: M);
    /// Records `ms` in order.
    #[inline(always)]
    fn push_all(&mut self, ms: &[M])
    where
        M: Copy,
    {
        for &m in ms {
            self.push(m);
        }
    }
}

impl<M: Copy> MoveSink<M> for Vec<M> {
    const RECORDS: bool = true;
    #[inline(always)]
    fn push(&mut self, m: M) {
        Vec::push(self, m)
    }
    #[inline(always)]
    fn push_all(&mut self, ms: &[M]) {
        self.extend_from_slice(ms);
    }
}

/// A [`MoveSink`] that drops every move: for playouts whose moves nobody reads (plain UCT).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTrace;

impl<M> MoveSink<M> for NoTrace {
    const RECORDS: bool = false;
    #[inline(always)]
    fn push(&mut self, _m: M) {}
}

/// 64-bit words of a [`MoveSets`] set: enough for [`MAX_MOVES`] dense move indices.
pub const MOVE_WORDS: usize = MAX_MOVES.div_ceil(64);

/// The moves of one playout as **one set of dense move indices per player** (bit `i % 64` of
/// word `i / 64` = dense move `i`, see [`Game::move_index`]; Hex: cell `row*n + col`, the swap
/// move n²), and the playout's length in moves. A move index played twice in one playout is in
/// the set of the player who played it first (the first occurrence AMAF credits, Gelly & Silver
/// 2007). What AMAF needs of a playout, without a list: the backpropagation iterates the set bits
/// (`src/mcts/search/backprop.rs`). Filled by [`Game::random_playout_sets`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveSets {
    /// Per player (0, 1), the set of the dense moves that player played.
    pub by: [[u64; MOVE_WORDS]; 2],
    /// Moves played (plies).
    pub len: u32,
}

impl MoveSets {
    /// Empties both sets, length 0.
    #[inline]
    pub fn clear(&mut self) {
        *self = MoveSets::default();
    }
    /// Whether dense move `i` is in either player's set.
    #[inline(always)]
    pub fn contains(&self, i: usize) -> bool {
        (self.by[0][i / 64] | self.by[1][i / 64]) >> (i % 64) & 1 == 1
    }
    /// Adds dense move `i` to `player`'s set unless either set holds it (first occurrence), and
    /// counts one move.
    #[inline(always)]
    pub fn push_first(&mut self, player: Player, i: usize) {
        if !self.contains(i) {
            self.by[player as usize & 1][i / 64] |= 1 << (i % 64);
        }
        self.len += 1;
    }
    /// The sets of the moves of `moves` (dense indices), played alternately from `first`, first
    /// occurrences only.
    pub fn from_indices(first: Player, moves: impl IntoIterator<Item = usize>) -> MoveSets {
        let mut s = MoveSets::default();
        for (j, i) in moves.into_iter().enumerate() {
            s.push_first(first ^ (j & 1) as Player, i);
        }
        s
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// The given player won.
    Win(Player),
    /// Nobody won.
    Draw,
}

impl Outcome {
    /// Reward in [0, 1] for `player`: win 1, draw 0.5, loss 0 (the engine's convention).
    #[inline(always)]
    pub fn reward(self, player: Player) -> f64 {
        match self {
            Outcome::Win(p) if p == player => 1.0,
            Outcome::Win(_) => 0.0,
            Outcome::Draw => 0.5,
        }
    }

    /// OpenSpiel's returns `[r0, r1]`: +1 win, −1 loss, 0 draw.
    pub fn returns(self) -> [f64; 2] {
        match self {
            Outcome::Win(0) => [1.0, -1.0],
            Outcome::Win(_) => [-1.0, 1.0],
            Outcome::Draw => [0.0, 0.0],
        }
    }

    /// The winner, if any.
    pub fn winner(self) -> Option<Player> {
        match self {
            Outcome::Win(p) => Some(p),
            Outcome::Draw => None,
        }
    }
}

/// Why a move was refused. The position is left untouched whenever one of these is returned.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a move in this game's notation; `reason` says what is wrong.
    #[error("cannot read move '{}': {reason}", crate::limits::abbreviate(text))]
    Parse {
        /// The text as given.
        text: String,
        /// What is wrong with it.
        reason: MoveParseError,
    },
    /// The move is well formed but not legal here (an occupied cell, a swap after the second
    /// move).
    #[error("illegal move {mv}: not a legal move in this position")]
    Illegal {
        /// The move in the game's notation.
        mv: String,
    },
    /// The game is already over.
    #[error("the game is over")]
    GameOver,
}

/// Why a text is not a move in a game's notation ([`MoveError::Parse`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveParseError {
    /// The cell part is not a cell of the board.
    #[error(transparent)]
    Cell(#[from] CellError),
    /// Hex: `swap` in a game without the swap rule; `size` is the board side.
    #[error("the swap move needs the swap rule (spec hex:{size}:swap)")]
    SwapNeedsRule {
        /// Board side n.
        size: usize,
    },
    /// Pentago: not `<cell>-<quadrant>-<twist>`.
    #[error("a Pentago move is <cell>-<TL|TR|BR|BL>-<{}>, e.g. d4-BR-cw", if *rules == PentagoRules::Twist { "cw|flip" } else { "cw|ccw" })]
    PentagoShape {
        /// The rule set, which decides the twists.
        rules: PentagoRules,
    },
    /// Pentago: a quadrant other than TL, TR, BR, BL.
    #[error("unknown quadrant '{}'; expected TL, TR, BR or BL", crate::limits::abbreviate(.0))]
    Quadrant(String),
    /// Pentago-Twist: `ccw`, which only the rotation rule sets have.
    #[error("Pentago-Twist has no counter-clockwise rotation; the twists are cw and flip")]
    TwistHasNoCcw,
    /// Pentago (official or OpenSpiel rules): `flip`, which only Pentago-Twist has.
    #[error("'flip' exists only in Pentago-Twist; under the {} rules a quadrant turns cw or ccw", rules.name())]
    FlipNeedsTwist {
        /// The rule set in force.
        rules: PentagoRules,
    },
    /// Pentago: a twist that no rule set has.
    #[error("unknown twist '{}'; expected {}", crate::limits::abbreviate(twist), if *rules == PentagoRules::Twist { "cw or flip" } else { "cw or ccw" })]
    Twist {
        /// The twist as written.
        twist: String,
        /// The rule set in force.
        rules: PentagoRules,
    },
    /// Connect Four: not a column letter `a`..`last` or a column number `1`..`cols`.
    #[error("a Connect Four move is a column letter a..{last} or a column number 1..{cols}")]
    Column {
        /// Last column letter of the board.
        last: char,
        /// Columns of the board.
        cols: usize,
    },
    /// A dense move index at or past the move space.
    #[error("move index out of range 0..{space}")]
    IndexOutOfRange {
        /// The game's move space.
        space: usize,
    },
}

/// Why `a1`-style cell text could not be read ([`parse_cell`]). `last` is the last column letter
/// of the board (`'k'` on 11 columns), `rows` its number of rows.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CellError {
    /// Nothing but white space.
    #[error("empty cell name")]
    Empty,
    /// The first character is not a letter.
    #[error("a cell starts with a column letter a..{last}")]
    NoColumnLetter {
        /// Last column letter of the board.
        last: char,
    },
    /// The letter is not followed by one or two digits.
    #[error("a cell is a column letter followed by a row number 1..{rows}")]
    NoRowNumber {
        /// Rows of the board.
        rows: usize,
    },
    /// The column letter is past the last column.
    #[error("column '{letter}' is off the board (columns a..{last})")]
    ColumnOffBoard {
        /// The letter as written.
        letter: char,
        /// Last column letter of the board.
        last: char,
    },
    /// The row number is 0 or past the last row.
    #[error("row {row} is off the board (rows 1..{rows})")]
    RowOffBoard {
        /// The row number as written (1-based).
        row: usize,
        /// Rows of the board.
        rows: usize,
    },
}

/// A game spec string that names no supported game, or options its game does not take.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// The spec is empty.
    #[error("empty game spec; expected e.g. tictactoe, hex:7, pentago:twist")]
    Empty,
    /// The name before the first `:` is not a game we have.
    #[error(
        "unknown game '{}' in spec '{}'; expected {}",
        crate::limits::abbreviate(name),
        crate::limits::abbreviate(spec),
        registry::syntax_list()
    )]
    UnknownGame {
        /// The game name, lower-cased.
        name: String,
        /// The whole spec.
        spec: String,
    },
    /// The game's options are wrong (Hex size outside 1..=19, an unknown option, an option
    /// given twice, Tic-Tac-Toe given any).
    #[error("bad spec '{}': {reason}", crate::limits::abbreviate(spec))]
    Options {
        /// The whole spec.
        spec: String,
        /// What is wrong with the options (the game's own sentence).
        reason: String,
    },
}

/// A read-only picture of a position for renderers (the page, `mcts replay`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct BoardView {
    /// The game's registered name ([`registry::GameFacts::name`]: `tictactoe`, `hex`, `pentago`,
    /// `connect4`), the key of the page's renderers.
    #[cfg_attr(test, ts(type = "GameName"))]
    pub kind: String,
    /// The game spec string, e.g. `hex:7`.
    pub spec: String,
    /// Board height in cells.
    pub rows: usize,
    /// Board width in cells.
    pub cols: usize,
    /// `rows * cols` entries, index `row * cols + col`: −1 empty, 0 player 0, 1 player 1.
    pub cells: Vec<i8>,
    /// Side to move, `None` when the game is over.
    #[cfg_attr(test, ts(type = "0 | 1 | null"))]
    pub to_move: Option<Player>,
    /// The last move in the game's notation, if any.
    pub last_move: Option<String>,
    /// Cells touched by the last move (the placed stone; for Pentago after its rotation).
    pub last_cells: Vec<usize>,
    /// Cells of the winning line or chain (both sides' fives in a Pentago draw by double five).
    pub winning_cells: Vec<usize>,
    /// The outcome once the game is over (serde's externally tagged `Outcome`: `{ "Win": p }` or
    /// `"Draw"`).
    #[cfg_attr(test, ts(type = "{ Win: 0 | 1 } | 'Draw' | null"))]
    pub outcome: Option<Outcome>,
    /// Number of moves played.
    pub ply: usize,
}

/// A two-player, perfect-information, turn-based game position.
///
/// Required methods are the rules; provided methods derive the rest (checked play, playouts,
/// decisive-move detection) and games override them with faster versions where they can.
pub trait Game: Clone + Send + Sync + fmt::Debug + 'static {
    /// A move: a small `Copy` value with a dense index (see [`Game::move_index`]).
    type Move: Copy + Eq + std::hash::Hash + fmt::Debug + Send + Sync + 'static;

    /// The game spec string of this game, e.g. `hex:7:swap`.
    fn spec(&self) -> String;
    /// Size of the dense move index space: 9 (Tic-Tac-Toe), n² (+1 with swap) for Hex, 288 (Pentago).
    fn move_space(&self) -> usize;
    /// Dense index of a move in `0..move_space()`, independent of the position.
    fn move_index(&self, m: Self::Move) -> usize;
    /// The move with a dense index, or `None` when `index >= move_space()`.
    fn move_from_index(&self, index: usize) -> Option<Self::Move>;

    /// The side to move (meaningless once the game is over).
    fn to_move(&self) -> Player;
    /// The outcome, computed when the last move was played; `None` while the game goes on.
    fn outcome(&self) -> Option<Outcome>;
    /// Number of moves played from the start position.
    fn ply(&self) -> usize;

    /// Appends the legal moves, in ascending dense-index order, to `out` (cleared first).
    /// Empty when the game is over.
    fn legal_moves(&self, out: &mut MoveList<Self::Move>);
    /// Whether `m` is legal here (false once the game is over).
    fn is_legal(&self, m: Self::Move) -> bool;
    /// Plays a move known to be legal. Hot path: no checks beyond debug assertions.
    fn play_unchecked(&mut self, m: Self::Move);

    /// 64-bit Zobrist hash, updated incrementally by `play_unchecked`.
    fn hash(&self) -> u64;
    /// The same hash computed from the whole position (tests assert both agree).
    fn hash_from_scratch(&self) -> u64;

    /// A key that tells positions of one game spec apart **exactly** (no two positions with a
    /// different future share it), for the exact solver's transposition table ([`crate::solve::endgame`]); `None`
    /// (the default) when the game has none that fits in 128 bits, and the solver then keys its
    /// table by [`Game::hash`] alone. Tic-Tac-Toe and Pentago return both colours' stone sets
    /// (the side to move follows from the stone counts).
    fn exact_key(&self) -> Option<u128> {
        None
    }

    /// The [`Game::hash`] of the position of this game spec whose [`Game::exact_key`] is `key`
    /// (the exact solver's table, which keeps keys and not hashes, recomputes where each entry
    /// goes when it doubles); `None` (the default) where the game cannot say, and then that table
    /// does not grow past its first size. Tic-Tac-Toe and Pentago compute it from the stone sets.
    fn hash_of_exact_key(&self, key: u128) -> Option<u64> {
        let _ = key;
        None
    }

    /// A static move-ordering score of move `m` (legal here) for the exact solver
    /// ([`crate::solve::endgame`]): among the moves that do not settle at once, higher scores are searched
    /// first, after the table's move and the moves that leave the opponent more immediate
    /// threats to answer, before the history heuristic. `0` (the default) for every move, which
    /// keeps the solver's order as it was (Tic-Tac-Toe, Pentago). Connect Four returns Pons's
    /// ordering (the cells the move makes a four threat on, then the centre first; Pons 2019,
    /// "Solving Connect 4", parts 4 and 10).
    fn exact_move_order(&self, m: Self::Move) -> u32 {
        let _ = m;
        0
    }

    /// Reads a move in the reference notation (e.g. `b2`, `d4-BR-cw`).
    ///
    /// # Errors
    /// [`MoveError::Parse`] naming what is wrong with the text. Legality is not checked.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;
    /// Writes a move in the reference notation.
    fn format_move(&self, m: Self::Move) -> String;
    /// The board in the reference notation, e.g. `X../.O./...`.
    fn board_string(&self) -> String;
    /// A picture of the position for renderers.
    fn view(&self) -> BoardView;

    /// The owner of each board cell into `out` (length rows·cols, index `row * cols + col`):
    /// −1 empty, 0 player 0, 1 player 1; the network input (`src/nn/features.rs`) reads it.
    /// Default: from [`Game::view`]; games override it with an allocation-free version.
    fn cell_owners(&self, out: &mut [i8]) {
        let v = self.view();
        let n = out.len().min(v.cells.len());
        out[..n].copy_from_slice(&v.cells[..n]);
    }

    /// Checked play: legal moves are played; anything else is refused with the state untouched.
    ///
    /// # Errors
    /// [`MoveError::GameOver`] after the end, [`MoveError::Illegal`] for an illegal move.
    fn play(&mut self, m: Self::Move) -> Result<(), MoveError> {
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        if !self.is_legal(m) {
            return Err(MoveError::Illegal { mv: self.format_move(m) });
        }
        self.play_unchecked(m);
        Ok(())
    }

    /// Parses and plays a move in one step.
    ///
    /// # Errors
    /// As [`Game::parse_move`] and [`Game::play`]; the state is untouched on error.
    fn play_text(&mut self, text: &str) -> Result<Self::Move, MoveError> {
        let m = self.parse_move(text)?;
        self.play(m)?;
        Ok(m)
    }

    /// Whether the game is over.
    #[inline]
    fn is_terminal(&self) -> bool {
        self.outcome().is_some()
    }

    /// Whether, from this position to the end of the game, the legal moves after any legal move
    /// `m` are exactly those before it without `m` (placement games: a stone never moves and
    /// every empty cell stays playable). Playout policies then generate the legal moves once per
    /// playout and remove each move played, instead of generating them at every move. Default
    /// `false` (Pentago: twists move stones); Tic-Tac-Toe `true`; Hex `true` unless a swap move
    /// can still become or be legal (swap rule and ply < 2).
    fn legal_moves_only_shrink(&self) -> bool {
        false
    }

    /// Whether a policy playout from here may be a *fill playout*: a playout policy that does
    /// not look at the board (it draws from the legal-move list and its own tables) chooses
    /// moves until no legal move is left, and [`Game::settle_fill`] then plays them and finds
    /// where the game really ended. Only for games whose legal moves only shrink
    /// ([`Game::legal_moves_only_shrink`]) and whose winner is decided by the full board, the
    /// first player to win during play being the winner of the full board (Hex: connection is
    /// monotone and a full board has exactly one connection). The moves before the real end
    /// are those of a playout played move by move, so the policy and the game are unchanged;
    /// only the end-of-game bookkeeping of every move is saved. Default `false`; Hex `true`
    /// while the game goes on and no swap move can still come.
    fn fill_playouts(&self) -> bool {
        false
    }

    /// Ends a fill playout (see [`Game::fill_playouts`], which must hold for `self`): `moves`
    /// are legal moves continuing `self`, the side to move first and alternating, until no
    /// legal move is left. Returns the outcome of that game and how many of `moves` were played
    /// before it ended; `self` becomes the terminal position after `moves[..k]` (its hash
    /// stale, recomputed on demand). Default (games that never fill): plays the moves until the
    /// game is over.
    fn settle_fill(&mut self, moves: &[Self::Move]) -> (Outcome, usize) {
        let mut k = 0;
        while self.outcome().is_none() && k < moves.len() {
            self.play_unchecked(moves[k]);
            k += 1;
        }
        (self.outcome().unwrap_or(Outcome::Draw), k)
    }

    /// A whole playout with decisive moves (`decisive`: a move that wins at once is played,
    /// the first of [`Game::find_winning_move`]) and anti-decisive moves (`anti`: when the
    /// opponent threatens to win at once, one of its threats drawn uniformly is played, as
    /// [`Game::random_threat`]), and otherwise uniformly random legal moves (Teytaud & Teytaud
    /// 2010), played in the game's own loop: each player's moves go to `sets` (cleared first;
    /// first occurrences, as [`MoveSets`]) and, when it records, to `trace` in order; `counts`
    /// gains the decisive and the anti-decisive moves played (`[decisive, anti]`), and the
    /// outcome is returned; `self` becomes the terminal position (its hash may be stale,
    /// recomputed on demand). The same policy as playing it move by move through the trait, so
    /// the same distribution of games; the random numbers are drawn differently. `None`
    /// (default) when the game has no such loop or cannot use it here; the caller then plays
    /// move by move. Hex overrides it (placement only: not while a swap move can still come;
    /// `sets` is the board's difference, as in [`Game::random_playout_sets`]).
    fn decisive_playout<T: MoveSink<Self::Move>>(
        &mut self,
        rng: &mut Rng64,
        decisive: bool,
        anti: bool,
        sets: &mut MoveSets,
        trace: &mut T,
        counts: &mut [u64; 2],
    ) -> Option<Outcome> {
        let _ = (rng, decisive, anti, sets, trace, counts);
        None
    }

    /// The neighbour rings of the board's cells ([`BridgeRings`]) for the save-bridge playout
    /// rule (search option `save_bridge`): games with bridges, Hex; `None` (default) elsewhere,
    /// where the search ignores the option. The cells are the dense move indices below
    /// `cells()`; other moves (Hex's swap) are no intrusion.
    fn bridge_rings(&self) -> Option<&'static BridgeRings> {
        None
    }

    /// The local-pattern keys of `moves` into `out` (cleared first, one per move) for the
    /// pattern prior (`prior = patterns`, [`crate::game::hex::patterns`]): games with local
    /// patterns, Hex, return `true`; others (default) `false`, and the search refuses the prior.
    fn pattern_keys(&self, moves: &[Self::Move], out: &mut Vec<u64>) -> bool {
        let _ = (moves, out);
        false
    }

    /// Hex knowledge for the search tree (search option `knowledge`): writes into `out` the
    /// dense indices of the moves worth considering here (inferior cells and moves outside the
    /// must-play region left out; [`crate::game::hex`]'s `knowledge` module) and returns whether
    /// any legal move was left out. Whenever the side to move has a winning move, one is kept.
    /// `false` (default): the game has no such knowledge, and the search prunes nothing.
    fn knowledge_moves(&self, out: &mut [u64; MOVE_WORDS]) -> bool {
        let _ = out;
        false
    }

    /// The dense index of the *pie* (swap) move when it is legal here, else `None` (default).
    /// A pie move can be played only as the second move of the game, so it never occurs below
    /// this position in a playout or in the tree: its AMAF statistics (Gelly & Silver 2007) are
    /// only its own visits. The search values it instead by the symmetry of the pie rule (see
    /// `Search::scorer`). Hex with the swap option: `swap` (index n²) at ply 1 (HexWiki, "Swap
    /// rule").
    #[inline(always)]
    fn pie_move(&self) -> Option<usize> {
        None
    }

    /// Number of legal moves. Default: lists them (`listed_count`).
    fn legal_count(&self) -> usize {
        listed_count(self)
    }

    /// The `i`-th legal move in [`Game::legal_moves`] order (`i` from 0), `None` past the last.
    /// Default: lists them (`listed_nth`); Hex selects the `i`-th empty cell of its bitboard
    /// (the swap move last) and Pentago the `i / 8`-th empty cell, so plain UCT's expansion does
    /// not list the moves.
    fn nth_legal(&self, i: usize) -> Option<Self::Move> {
        listed_nth(self, i)
    }

    /// Plays uniformly random legal moves to the end and returns the outcome. The moves played are
    /// pushed to `trace` (a `Vec` for AMAF and replays). Games override this with a fast path
    /// equivalent in distribution (e.g. Hex fills the empty cells in random order).
    ///
    /// With a recording sink, `self` ends as the terminal position the recorded moves reach. With
    /// [`NoTrace`], a game may find the outcome by a shortcut that never builds that position
    /// (Hex: a random split of the empty cells and one connection test): then only
    /// `outcome()` of `self` is meaningful afterwards.
    fn random_playout<T: MoveSink<Self::Move>>(&mut self, rng: &mut Rng64, trace: &mut T) -> Outcome {
        let mut moves = MoveList::new();
        loop {
            if let Some(o) = self.outcome() {
                return o;
            }
            self.legal_moves(&mut moves);
            let m = moves[rng.index(moves.len())];
            trace.push(m);
            self.play_unchecked(m);
        }
    }

    /// The legal moves as one set of dense move indices (bit `i % 64` of word `i / 64`, as in
    /// [`MoveSets`]), into `out` (overwritten): the same moves as [`Game::legal_moves`], for
    /// scans that visit them in index order without building a list. Hex overrides it with its
    /// empty-cell bitboard (plus the swap move).
    fn legal_move_set(&self, out: &mut [u64; MOVE_WORDS]) {
        let mut l = MoveList::new();
        self.legal_moves(&mut l);
        *out = [0; MOVE_WORDS];
        for &m in &l {
            let i = self.move_index(m);
            out[i / 64] |= 1 << (i % 64);
        }
    }

    /// [`Game::random_playout`] with the moves returned as per-player sets ([`MoveSets`],
    /// cleared first) instead of a list: the same random numbers drawn, the same game played and
    /// the same outcome returned as `random_playout` with a `Vec` sink, so a search may use either
    /// for the same seeded result. `scratch` is a buffer the default implementation records the
    /// list into (then converts it, first occurrences only); Hex overrides this with the board
    /// difference of its dealt playout and never touches `scratch`.
    fn random_playout_sets(&mut self, rng: &mut Rng64, sets: &mut MoveSets, scratch: &mut Vec<Self::Move>) -> Outcome {
        let first = self.to_move();
        scratch.clear();
        let o = self.random_playout(rng, scratch);
        sets.clear();
        for (j, &m) in scratch.iter().enumerate() {
            sets.push_first(first ^ (j & 1) as Player, self.move_index(m));
        }
        o
    }

    /// A uniformly random playout that **fills the board**, as MoHex plays its playouts
    /// (Arneson, Hayward & Henderson 2010; Benzene's `MoHexThreadState::GeneratePlayoutMove`
    /// stops "when board is filled"), for games where that is meaningful: every empty cell is
    /// played, the side to move first, alternating (with the swap rule, the swap move is drawn
    /// first as in [`Game::random_playout`]). The winner is the game's: a full Hex board has
    /// exactly one winner and connection is monotone, so the moves after the game's end change
    /// nothing but the AMAF statistics, which then credit every cell a player owns at the end.
    /// `sets` (cleared first) gets each player's moves, `sets.len` the moves dealt; `trace`, if
    /// it records, gets the same moves in a uniformly random order drawn from a copy of `rng`,
    /// so recording leaves the search's random numbers as they are. `self` becomes the full
    /// board (hash recomputed on demand). `None` (the default, drawing nothing) for games whose
    /// play stops at the end (Pentago, Tic-Tac-Toe): the caller plays
    /// [`Game::random_playout_sets`] instead. Search option `fill_playouts`.
    fn fill_playout<T: MoveSink<Self::Move>>(&mut self, _rng: &mut Rng64, _sets: &mut MoveSets, _trace: &mut T) -> Option<Outcome> {
        None
    }

    /// At the end of a game that [`Game::fill_playout`] fills, the cells still empty dealt to
    /// the players at random, alternately from the player to move (uniformly, as the end of a
    /// filled board), added to `sets` (not counted in `sets.len`: the game's length stays the
    /// real one); returns whether it did. For playouts that must stop at the game's end (a
    /// playout policy, quality-based rewards) under `fill_playouts`: AMAF then credits the
    /// filled board. `false` (default, drawing nothing) where play stops at the end, or when
    /// the game is not over.
    fn fill_rest(&self, _rng: &mut Rng64, _sets: &mut MoveSets) -> bool {
        false
    }

    /// The moves that win at once for the side to move ("decisive moves", Teytaud & Teytaud 2010),
    /// into `out` (cleared first). Games override this with cheap threat checks.
    fn winning_moves(&self, out: &mut MoveList<Self::Move>) {
        out.clear();
        if self.is_terminal() {
            return;
        }
        let me = self.to_move();
        let mut all = MoveList::new();
        self.legal_moves(&mut all);
        for &m in &all {
            let mut c = self.clone();
            c.play_unchecked(m);
            if c.outcome() == Some(Outcome::Win(me)) {
                out.push(m);
            }
        }
    }

    /// The opponent's threats: the moves that would win at once for the opponent if it were the
    /// opponent's turn now (the `opponent_threats` of the reference tactics), into `out` (cleared
    /// first). Used by anti-decisive playouts: in Hex and Tic-Tac-Toe, playing a threatened cell
    /// blocks it. Empty once the game is over.
    fn threats(&self, out: &mut MoveList<Self::Move>);

    /// One of the opponent's [`Game::threats`] drawn uniformly (one `rng.index(count)`, the
    /// k-th threat in the order `threats` lists them), or `None` without threats: the
    /// anti-decisive move of a playout (Teytaud & Teytaud 2010). `scratch` is a work list.
    /// Games that keep their threats as a set override this without listing them (Hex: the
    /// k-th set bit of the opponent's winning cells).
    fn random_threat(&self, rng: &mut Rng64, scratch: &mut MoveList<Self::Move>) -> Option<Self::Move> {
        self.threats(scratch);
        (!scratch.is_empty()).then(|| scratch[rng.index(scratch.len())])
    }

    /// Some move that wins at once for the side to move, if one exists.
    fn find_winning_move(&self) -> Option<Self::Move> {
        let mut out = MoveList::new();
        self.winning_moves(&mut out);
        out.first().copied()
    }

    /// The moves after which the opponent cannot win at once ("anti-decisive" moves; the
    /// `non_losing_moves` of the reference tactics): a move that ends the game is non-losing
    /// unless it ends in the opponent's win. Into `out` (cleared first).
    fn non_losing_moves(&self, out: &mut MoveList<Self::Move>) {
        out.clear();
        if self.is_terminal() {
            return;
        }
        let me = self.to_move();
        let mut all = MoveList::new();
        self.legal_moves(&mut all);
        for &m in &all {
            let mut c = self.clone();
            c.play_unchecked(m);
            let ok = match c.outcome() {
                Some(Outcome::Win(p)) => p == me,
                Some(Outcome::Draw) => true,
                None => c.find_winning_move().is_none(),
            };
            if ok {
                out.push(m);
            }
        }
    }
}

/// A game held by value: the type [`AnyGame`]'s variants hold (see
/// [`registry`]'s enums, whose variants hold a wrapper of the game instead).
pub type Itself<G> = G;

crate::registered_games!(__game_enum!(
    /// Any registered game ([`registry`]), chosen at run time from a spec string. The engine is
    /// generic over [`Game`]; the command line and the WebAssembly boundary dispatch through this
    /// enum (see [`with_game!`](crate::with_game)). One variant per game of the registry, named
    /// as there (`AnyGame::Hex(Hex)`).
    ///
    /// The games are held by value, not boxed: positions are plain data that search clones often,
    /// and a box would add an allocation to each clone.
    #[allow(clippy::large_enum_variant)]
    #[derive(Clone, Debug)]
    pub enum AnyGame of Itself
));

/// Runs an expression with the concrete game inside an [`AnyGame`] bound to a name:
/// `with_game!(any, g => g.legal_count())`. The arms come from the registry
/// ([`registry`]), one per game.
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {{
        use $crate::game::AnyGame;
        $crate::registered_games!(__game_match!(AnyGame, $any, $g, $body))
    }};
}

/// The spec strings the page and the docs offer as examples: every registered game's
/// [`registry::GameFacts::examples`], in registry order.
pub fn example_specs() -> Vec<&'static str> {
    registry::GAMES.iter().flat_map(|f| f.examples.iter().copied()).collect()
}

impl AnyGame {
    /// The start position of the game a spec string names: the game's name (or an alias) in
    /// the registry, then its options after `:` ([`registry::Registered::from_options`]).
    ///
    /// # Errors
    /// [`SpecError`] naming the problem: unknown game, Hex size outside 1..=19, unknown option.
    pub fn from_spec(spec: &str) -> Result<AnyGame, SpecError> {
        let spec = spec.trim();
        let mut parts = spec.split(':');
        let name = parts.next().unwrap_or("").to_ascii_lowercase();
        let rest: Vec<&str> = parts.collect();
        if name.is_empty() {
            return Err(SpecError::Empty);
        }
        match crate::registered_games!(__game_from_options!(&name, &rest)) {
            Some(Ok(g)) => Ok(g),
            Some(Err(reason)) => Err(SpecError::Options { spec: spec.to_string(), reason }),
            None => Err(SpecError::UnknownGame { name, spec: spec.to_string() }),
        }
    }

    /// The registry's facts of this game.
    pub fn facts(&self) -> &'static registry::GameFacts {
        with_game!(self, g => facts_of_val(g))
    }

    /// Player `p`'s name in reports, lower case (`black`, `x`): [`registry::GameFacts::players`].
    pub fn player_name(&self, p: Player) -> &'static str {
        self.facts().players[p as usize & 1]
    }

    /// The spec string of this game.
    pub fn spec(&self) -> String {
        with_game!(self, g => g.spec())
    }
    /// Side to move.
    pub fn to_move(&self) -> Player {
        with_game!(self, g => g.to_move())
    }
    /// Outcome once over.
    pub fn outcome(&self) -> Option<Outcome> {
        with_game!(self, g => g.outcome())
    }
    /// Number of legal moves.
    pub fn legal_count(&self) -> usize {
        with_game!(self, g => g.legal_count())
    }
    /// Legal moves in notation, ascending dense index.
    pub fn legal_moves_text(&self) -> Vec<String> {
        with_game!(self, g => {
            let mut l = MoveList::new();
            g.legal_moves(&mut l);
            l.iter().map(|&m| g.format_move(m)).collect()
        })
    }
    /// Parses and plays a move; the state is untouched on error. Returns the move's dense index.
    ///
    /// # Errors
    /// [`MoveError`] saying what was wrong.
    pub fn play_text(&mut self, text: &str) -> Result<usize, MoveError> {
        with_game!(self, g => { let m = g.play_text(text)?; Ok(g.move_index(m)) })
    }
    /// Plays a move by dense index, checked.
    ///
    /// # Errors
    /// [`MoveError`] when the index is out of range or the move illegal.
    pub fn play_index(&mut self, index: usize) -> Result<(), MoveError> {
        with_game!(self, g => {
            let m = g.move_from_index(index).ok_or_else(|| MoveError::Parse {
                text: index.to_string(),
                reason: MoveParseError::IndexOutOfRange { space: g.move_space() },
            })?;
            g.play(m)
        })
    }
    /// Reads a move in notation without playing it: its dense index. A move that reads but is
    /// not legal here (an occupied cell) is still read.
    ///
    /// # Errors
    /// [`MoveError::Parse`] saying what is wrong with the text.
    pub fn parse_index(&self, text: &str) -> Result<usize, MoveError> {
        with_game!(self, g => g.parse_move(text).map(|m| g.move_index(m)))
    }
    /// Formats a dense move index in notation (`None` when out of range).
    pub fn format_index(&self, index: usize) -> Option<String> {
        with_game!(self, g => g.move_from_index(index).map(|m| g.format_move(m)))
    }
    /// Board string in the reference notation: rows top to bottom joined by `/`, cells `.`
    /// (empty), `X` (player 0), `O` (player 1).
    pub fn board_string(&self) -> String {
        with_game!(self, g => g.board_string())
    }
    /// The [`BoardView`] renderers draw (cells indexed `row * cols + col`).
    pub fn view(&self) -> BoardView {
        with_game!(self, g => g.view())
    }
    /// The position's 64-bit Zobrist hash (Zobrist 1970, "A new hashing method with application
    /// for game playing"), keyed by [`zobrist_key`].
    pub fn hash(&self) -> u64 {
        with_game!(self, g => g.hash())
    }
    /// Moves played from the start (the swap move counts as one).
    pub fn ply(&self) -> usize {
        with_game!(self, g => g.ply())
    }
    /// Size of the dense move space, every move's index is below it: 9 for Tic-Tac-Toe, n² for
    /// Hex (n² + 1 with the swap rule, the swap move being index n²), 288 for Pentago.
    pub fn move_space(&self) -> usize {
        with_game!(self, g => g.move_space())
    }
    /// Moves that win at once for the side to move, in notation.
    pub fn winning_moves_text(&self) -> Vec<String> {
        with_game!(self, g => {
            let mut l = MoveList::new();
            g.winning_moves(&mut l);
            l.iter().map(|&m| g.format_move(m)).collect()
        })
    }
    /// The opponent's immediate winning moves (if it were its turn), in notation.
    pub fn threats_text(&self) -> Vec<String> {
        with_game!(self, g => {
            let mut l = MoveList::new();
            g.threats(&mut l);
            l.iter().map(|&m| g.format_move(m)).collect()
        })
    }
    /// Moves after which the opponent cannot win at once, in notation.
    pub fn non_losing_moves_text(&self) -> Vec<String> {
        with_game!(self, g => {
            let mut l = MoveList::new();
            g.non_losing_moves(&mut l);
            l.iter().map(|&m| g.format_move(m)).collect()
        })
    }
}

/// The registry's facts of `g`'s game.
fn facts_of_val<G: registry::Registered>(_: &G) -> &'static registry::GameFacts {
    &G::FACTS
}

/// Column letter + row number (row 1 on top), e.g. `(0, 0)` → `a1`, `(10, 10)` → `k11`.
pub fn cell_name(row: usize, col: usize) -> String {
    format!("{}{}", (b'a' + col as u8) as char, row + 1)
}

/// Reads `a1`-style cell text into `(row, col)` (0-based, row 0 on top) for a `rows × cols` board.
///
/// # Errors
/// [`CellError`] saying what is wrong (no letter, no number, off the board).
pub fn parse_cell(text: &str, rows: usize, cols: usize) -> Result<(usize, usize), CellError> {
    let last = (b'a' + cols as u8 - 1) as char;
    let t = text.trim();
    let mut chars = t.chars();
    let letter = chars.next().ok_or(CellError::Empty)?;
    if !letter.is_ascii_alphabetic() {
        return Err(CellError::NoColumnLetter { last });
    }
    let col = (letter.to_ascii_lowercase() as u8 - b'a') as usize;
    let digits = chars.as_str();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 2 {
        return Err(CellError::NoRowNumber { rows });
    }
    // One or two ASCII digits always parse.
    let row: usize = digits.parse().map_err(|_| CellError::NoRowNumber { rows })?;
    if col >= cols {
        return Err(CellError::ColumnOffBoard { letter, last });
    }
    if row == 0 || row > rows {
        return Err(CellError::RowOffBoard { row, rows });
    }
    Ok((row - 1, col))
}

/// Fixed Zobrist keys: `zobrist_key(i)` is a deterministic 64-bit key for feature `i`
/// (the SplitMix64 finaliser of Steele, Lea & Flood 2014, "Fast splittable pseudorandom number
/// generators", applied to `i`), the same on every target so hashes are reproducible.
#[inline]
pub const fn zobrist_key(i: u64) -> u64 {
    let mut z = i.wrapping_add(0x9E37_79B9_7F4A_7C15).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31) ^ 0x5851_F42D_4C95_7F2D
}

/// [`Game::legal_count`] by listing the moves: the default, and what games with a faster count
/// fall back to in their other cases.
pub(crate) fn listed_count<G: Game>(g: &G) -> usize {
    let mut l = MoveList::new();
    g.legal_moves(&mut l);
    l.len()
}

/// [`Game::nth_legal`] by listing the moves (see [`listed_count`]).
pub(crate) fn listed_nth<G: Game>(g: &G, i: usize) -> Option<G::Move> {
    let mut l = MoveList::new();
    g.legal_moves(&mut l);
    l.get(i).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_reject() {
        assert!(matches!(AnyGame::from_spec("tictactoe"), Ok(AnyGame::TicTacToe(_))));
        assert!(matches!(AnyGame::from_spec("TTT"), Ok(AnyGame::TicTacToe(_))));
        assert_eq!(
            AnyGame::from_spec("chess").unwrap_err().to_string(),
            format!("unknown game 'chess' in spec 'chess'; expected {}", registry::syntax_list())
        );
        assert!(AnyGame::from_spec("hex:7:swap:swap").unwrap_err().to_string().starts_with("bad spec 'hex:7:swap:swap': "));
        assert!(matches!(AnyGame::from_spec("chess"), Err(SpecError::UnknownGame { name, .. }) if name == "chess"));
        assert!(AnyGame::from_spec("chess").unwrap_err().to_string().contains("unknown game"));
        assert!(AnyGame::from_spec("").is_err());
        assert!(AnyGame::from_spec("tictactoe:4").is_err());
    }

    #[test]
    fn cells_round_trip() {
        assert_eq!(cell_name(0, 0), "a1");
        assert_eq!(cell_name(10, 10), "k11");
        assert_eq!(parse_cell("k11", 11, 11), Ok((10, 10)));
        assert_eq!(parse_cell("l1", 11, 11), Err(CellError::ColumnOffBoard { letter: 'l', last: 'k' }));
        assert_eq!(parse_cell("a12", 11, 11), Err(CellError::RowOffBoard { row: 12, rows: 11 }));
        assert_eq!(parse_cell("a0", 11, 11), Err(CellError::RowOffBoard { row: 0, rows: 11 }));
        assert_eq!(parse_cell("1a", 11, 11), Err(CellError::NoColumnLetter { last: 'k' }));
        assert_eq!(parse_cell("l1", 11, 11).unwrap_err().to_string(), "column 'l' is off the board (columns a..k)");
    }
}
