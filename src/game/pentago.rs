//! Pentago on a 6×6 board of four 3×3 quadrants, under three rule sets.
//!
//! # The game
//! Two players, `X` (player 0, moves first) and `O` (player 1), alternately place a stone on an
//! empty cell and then twist one quadrant. Five stones of one colour in a row, column or diagonal
//! (a six contains a five) ends the game. Which twists exist and when fives are looked for depend
//! on the rule set ([`PentagoRules`]):
//!
//! - **`official`** (default, spec `pentago` or `pentago:official`): the published rules of
//!   Pentago (Tomas Flodén, Mindtwister): after placing, rotate any quadrant 90° clockwise or
//!   counter-clockwise; the rotation is mandatory. A five made by the placement wins at once and
//!   the quadrant is not rotated. Sources: perfect-pentago.net ("If a player makes five a row by
//!   placing a stone, there is no need to rotate a quadrant: the player wins immediately"; "If
//!   both players get five in a row at the same time, or the last move is played with no five in
//!   a row, the game is a tie"); the Wikipedia/Mindtwister description ("a player wins by getting
//!   five of their marbles in a vertical, horizontal or diagonal row (either before or after the
//!   sub-board rotation in their move). If all 36 spaces on the board are occupied without a row
//!   of five being formed then the game is a draw"); the Stanford GGP game description says the
//!   same. After the rotation: fives for both sides = draw, a five for one side only = that side
//!   wins (even if it is the mover's opponent); 36 stones without a five = draw. (Early printings
//!   let the rotation be skipped while every quadrant is rotationally symmetric; the current rule
//!   book makes it mandatory, which is what we implement.)
//! - **`openspiel`** (`pentago:openspiel`): as OpenSpiel 2.0.2 implements it (see
//!   `tests/data/README.md`): the same moves, but fives are looked for only after the rotation,
//!   so a five made by placing and broken by the rotation does not count. Both fives = draw, only
//!   the opponent's five = the opponent wins, 36 stones = draw.
//! - **`twist`** (`pentago:twist`): Pentago-Twist, the McGill COMP 424 course project (the
//!   Pentago player in our seed material). After placing, either rotate a quadrant 90°
//!   **clockwise** or **flip** it left↔right (each row of the quadrant reversed); there is no
//!   counter-clockwise rotation. Fives are checked after the twist; both fives = draw; only the
//!   opponent's five = the opponent's win; 36 stones = draw. Checked against the course's
//!   `pentago_twist/PentagoBoardState.java` (author mgrenander, public student repositories):
//!   move kind 0 = "rotate 90 right" (`tmp2[j][N-1-i] = tmp[i][j]`, i.e. clockwise), kind 1 =
//!   "flip" (`tmp2[j][N-1-i] = tmp[j][i]`, each row reversed); `updateWinner` after the twist:
//!   mover's five and opponent's five = draw, only the opponent's = opponent wins, and a draw
//!   after `MAX_TURNS = 18` moves each (36 stones). The course README (arianomidi/PentagoTwist):
//!   "The player then selects a quadrant, and can choose either to flip or rotate 90 degree
//!   right … If rotating/flipping single quadrant results in a five-in-a-row for both players,
//!   the game also ends in a draw". The course plays White first; here player 0 (`X`) moves first
//!   as in every game of this crate.
//!
//! Option **`:dedup`** (e.g. `pentago:twist:dedup`): the legal-move list keeps one move per
//! distinct resulting position — the one with the lowest dense index — because rotating an
//! empty or symmetric quadrant (or flipping a left–right symmetric one) gives the same position
//! as other moves. [`Game::is_legal`] accepts exactly the listed moves. Off by default (the
//! reference tests use plain `pentago:openspiel`).
//!
//! # Notation and move encoding (OpenSpiel-compatible)
//! Cells are numbered `row * 6 + col`, row 0 on top, written column letter + row number with row
//! 1 on top (`a1` … `f6`). Quadrants `q`: 0 `TL`, 1 `TR`, 2 `BR`, 3 `BL`. A move is the dense
//! index `cell * 8 + 2 * q + d` (0..288, equal to OpenSpiel's action id) with `d` = 0 `ccw`,
//! 1 `cw` under `official`/`openspiel`, and `d` = 0 `flip`, 1 `cw` under `twist`. Text:
//! `<cell>-<TL|TR|BR|BL>-<cw|ccw|flip>`, e.g. `d4-BR-cw`, `d4-BR-flip`.
//!
//! **A placement that wins at once (official rules)** is still one of the 288 moves: the player
//! names a twist as usual (all eight twists at that cell are legal and give the same final
//! position), the dense index and [`Game::format_move`] keep it, but the twist is not applied.
//! [`BoardView::last_move`] then shows only the cell (e.g. `d4`) and
//! [`Pentago::won_on_placement`] is true. With `:dedup` the one listed move for such a cell is
//! `<cell>-TL-ccw` (its lowest index).
//!
//! # Representation
//! One mask per player in a `u64` with rows 7 bits apart: bit `row * 7 + col`, the 7th bit of
//! each row always empty, so a run of five found by shifting can never wrap from one row into
//! the next and five in a row is four shift-and chains (rows, columns, both diagonals) with no
//! masking. A twist extracts the 9 bits of a quadrant, looks the transformed pattern up in a
//! 512-entry table and puts it back. Cells (`row * 6 + col`) are converted at the boundary.

use super::registry::{Choice, EndgameRefusal, ExactSolverKind, GameFacts, Registered, SolverFacts};
use super::{cell_name, parse_cell, zobrist_key, BoardView, Game, MoveError, MoveList, MoveParseError, MoveSink, Outcome, Player};
use crate::bits::select64;
use crate::rng::Rng64;

/// Which Pentago rule set (see the module documentation for the rules and their sources).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PentagoRules {
    /// The published rule book: a five made by the placement wins at once; otherwise fives are
    /// judged after the mandatory 90° rotation (cw or ccw).
    Official,
    /// As OpenSpiel implements it: fives judged only after the rotation.
    OpenSpiel,
    /// Pentago-Twist (McGill COMP 424): rotate a quadrant clockwise or flip it left↔right; fives
    /// judged after the twist.
    Twist,
}

impl PentagoRules {
    /// The spec-string name: `official`, `openspiel` or `twist`.
    pub fn name(self) -> &'static str {
        match self {
            PentagoRules::Official => "official",
            PentagoRules::OpenSpiel => "openspiel",
            PentagoRules::Twist => "twist",
        }
    }
}

/// Number of cells.
pub const CELLS: usize = 36;
/// Bits of the internal board layout (6 rows × 7).
const BITS: usize = 42;
/// Size of the dense move space: 36 cells × 4 quadrants × 2 twists.
pub const MOVE_SPACE: usize = 288;
/// Quadrant names in quadrant order (0 TL, 1 TR, 2 BR, 3 BL).
pub const QUADRANT_NAMES: [&str; 4] = ["TL", "TR", "BR", "BL"];

/// Board bits per row (6 cells and one always-empty guard bit).
const STRIDE: usize = 7;
/// Bit of a cell `row * 6 + col`: `row * 7 + col`.
#[inline(always)]
const fn bit(cell: usize) -> usize {
    cell + cell / 6
}
/// Cell `row * 6 + col` of a bit `row * 7 + col`.
#[inline(always)]
const fn cell(bit: usize) -> usize {
    bit - bit / STRIDE
}
/// Every cell's bit.
const FULL: u64 = {
    let mut m = 0u64;
    let mut r = 0;
    while r < 6 {
        m |= 0x3F << (STRIDE * r);
        r += 1;
    }
    m
};
/// Bit of the top-left cell of each quadrant (TL, TR, BR, BL).
const QBASE: [u32; 4] = [0, 3, 24, 21];
/// The 9 cells of the top-left quadrant; shifted by `QBASE[q]` it gives quadrant `q`.
const QMASK: u64 = 0x7 | 0x7 << 7 | 0x7 << 14;

/// Transform kinds: quadrant-local cell `(r, c)` goes to
/// CCW `(2 - c, r)`, CW `(c, 2 - r)`, FLIP `(r, 2 - c)`.
const CCW: usize = 0;
const CW: usize = 1;
const FLIP: usize = 2;
const INVERSE: [usize; 3] = [CW, CCW, FLIP];

/// Quadrant-local index `3r + c` of the image of `(r, c)` under a transform kind.
const fn image(kind: usize, l: usize) -> usize {
    let (r, c) = (l / 3, l % 3);
    let (nr, nc) = match kind {
        CCW => (2 - c, r),
        CW => (c, 2 - r),
        _ => (r, 2 - c),
    };
    nr * 3 + nc
}

/// `TRANS9[kind][p]`: the 9-bit quadrant pattern `p` (bit `3r + c`) after the transform.
static TRANS9: [[u16; 512]; 3] = {
    let mut t = [[0u16; 512]; 3];
    let mut k = 0;
    while k < 3 {
        let mut p = 0;
        while p < 512 {
            let mut out = 0u16;
            let mut l = 0;
            while l < 9 {
                if p & (1 << l) != 0 {
                    out |= 1 << image(k, l);
                }
                l += 1;
            }
            t[k][p] = out;
            p += 1;
        }
        k += 1;
    }
    t
};

/// `SCATTER[p]`: the 9-bit pattern `p` placed on the board in the top-left quadrant.
static SCATTER: [u64; 512] = {
    let mut t = [0u64; 512];
    let mut p = 0;
    while p < 512 {
        let mut l = 0;
        while l < 9 {
            if p & (1 << l) != 0 {
                t[p] |= 1 << ((l / 3) * STRIDE + l % 3);
            }
            l += 1;
        }
        p += 1;
    }
    t
};

/// `TRANS[kind][p] = SCATTER[TRANS9[kind][p]]`: one lookup per twist on the hot path.
static TRANS: [[u64; 512]; 3] = {
    let mut t = [[0u64; 512]; 3];
    let mut k = 0;
    while k < 3 {
        let mut p = 0;
        while p < 512 {
            t[k][p] = SCATTER[TRANS9[k][p] as usize];
            p += 1;
        }
        k += 1;
    }
    t
};

/// The 9-bit pattern of quadrant `q` of a board mask.
#[inline(always)]
fn pattern(b: u64, q: usize) -> usize {
    let x = b >> QBASE[q];
    ((x & 0x7) | (x >> 4 & 0x38) | (x >> 8 & 0x1C0)) as usize
}

/// A board mask with quadrant `q` transformed by `kind`.
#[inline(always)]
fn apply(b: u64, q: usize, kind: usize) -> u64 {
    let base = QBASE[q];
    (b & !(QMASK << base)) | (TRANS[kind][pattern(b, q)] << base)
}

/// Start bits of the fives in each direction (rows: columns a–b; columns: rows 1–2;
/// diagonals ↘: a1 b1 a2 b2; diagonals ↙: e1 f1 e2 f2), used to list the lines.
const H_START: u64 = {
    let mut m = 0u64;
    let mut r = 0;
    while r < 6 {
        m |= 3 << (STRIDE * r);
        r += 1;
    }
    m
};
const V_START: u64 = 0x3F | 0x3F << 7;
const D_START: u64 = 0x3 | 0x3 << 7;
const A_START: u64 = 0x3 << 4 | 0x3 << 11;

/// Whether a board mask holds five in a row (row, column or diagonal). Thanks to the guard bit
/// of every row, a run of five bits at step 1 (row), 7 (column), 8 (↘) or 6 (↙) is always a
/// real line, so no start masks are needed.
#[inline(always)]
fn has_five(b: u64) -> bool {
    let h = b & (b >> 1);
    let h = h & (h >> 2) & (b >> 4);
    let v = b & (b >> 7);
    let v = v & (v >> 14) & (b >> 28);
    let d = b & (b >> 8);
    let d = d & (d >> 16) & (b >> 32);
    let a = b & (b >> 6);
    let a = a & (a >> 12) & (b >> 24);
    h | v | d | a != 0
}

/// The 32 lines of five cells as masks (internal bit layout).
const LINES: [u64; 32] = {
    let mut l = [0u64; 32];
    let mut n = 0;
    let dirs: [(u64, u32); 4] = [(H_START, 1), (V_START, 7), (D_START, 8), (A_START, 6)];
    let mut d = 0;
    while d < 4 {
        let (starts, step) = dirs[d];
        let mut s = 0;
        while s < 42 {
            if starts & (1 << s) != 0 {
                let mut m = 0u64;
                let mut i = 0;
                while i < 5 {
                    m |= 1 << (s + i * step);
                    i += 1;
                }
                l[n] = m;
                n += 1;
            }
            s += 1;
        }
        d += 1;
    }
    assert!(n == 32);
    l
};

/// Empty cells `x` (from `empty`) such that `m | x` holds a five (lines already full in `m`
/// contribute nothing).
#[inline]
fn completions(m: u64, empty: u64) -> u64 {
    let mut r = 0;
    for &l in LINES.iter() {
        let miss = l & !m;
        if miss & miss.wrapping_sub(1) == 0 {
            r |= miss & empty;
        }
    }
    r
}

/// Zobrist key of a stone of `player` on `cell`.
const fn key(player: usize, cell: usize) -> u64 {
    zobrist_key(0x9E47_0000 + (player as u64) * 64 + cell as u64)
}

/// Key XORed in when player 1 is to move.
const SIDE_KEY: u64 = zobrist_key(0x9E47_FFFF);

/// `QKEY[p][q][pattern]`: XOR of the keys of `p`'s stones in quadrant `q` given its 9-bit
/// pattern (incremental hash updates after a twist).
static QKEY: [[[u64; 512]; 4]; 2] = {
    let mut t = [[[0u64; 512]; 4]; 2];
    let mut p = 0;
    while p < 2 {
        let mut q = 0;
        while q < 4 {
            let mut pat = 0;
            while pat < 512 {
                let mut h = 0u64;
                let mut l = 0;
                while l < 9 {
                    if pat & (1 << l) != 0 {
                        h ^= key(p, cell(QBASE[q] as usize + (l / 3) * STRIDE + l % 3));
                    }
                    l += 1;
                }
                t[p][q][pat] = h;
                pat += 1;
            }
            q += 1;
        }
        p += 1;
    }
    t
};

/// Position of the `k`-th (from 0) set bit of `x`; `k < x.count_ones()` (broadword select,
/// [`crate::bits`]).
#[inline(always)]
fn select(x: u64, k: u32) -> u32 {
    select64(x, k) as u32
}

/// Cells of a mask, ascending.
#[inline]
fn bits(mut m: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(c)
        }
    })
}

/// A Pentago position under one rule set. Plain data (a few words), cheap to copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pentago {
    /// Stones of player 0 and player 1, bit `row * 7 + col`.
    stones: [u64; 2],
    hash: u64,
    rules: PentagoRules,
    dedup: bool,
    to_move: Player,
    outcome: Option<Outcome>,
    /// Stones on the board (= moves played).
    ply: u8,
    /// Dense index of the last move.
    last: Option<u16>,
    /// Where the stone placed by the last move ended up (after its twist).
    last_cell: u8,
    /// Whether the last move won by its placement (official rules; its twist was not applied).
    placement_win: bool,
}

/// Outcome after a move of `p` (fives judged on the final boards; `stones` = stones on board).
#[inline(always)]
fn judge(mine: u64, theirs: u64, p: Player, stones: u32) -> Option<Outcome> {
    match (has_five(mine), has_five(theirs)) {
        (true, true) => Some(Outcome::Draw),
        (true, false) => Some(Outcome::Win(p)),
        (false, true) => Some(Outcome::Win(1 - p)),
        (false, false) => (stones as usize == CELLS).then_some(Outcome::Draw),
    }
}

/// Why the options after `pentago:` were refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PentagoOptionError {
    /// `dedup` appears twice.
    #[error("option 'dedup' given twice")]
    DedupTwice,
    /// An option is empty (a stray `:`).
    #[error("empty pentago option (stray ':')")]
    EmptyOption,
    /// Neither a rule set nor `dedup`.
    #[error(
        "unknown pentago option '{}'; expected a rule set (official, openspiel, twist) optionally followed by dedup",
        crate::limits::abbreviate(option)
    )]
    UnknownOption {
        /// The option as written.
        option: String,
    },
    /// A rule set after `dedup`; `rules` is the rule set's name, lower-cased.
    #[error("the rule set '{option}' must come before 'dedup', e.g. pentago:{rules}:dedup")]
    RulesAfterDedup {
        /// The option as written.
        option: String,
        /// Its name, lower-cased.
        rules: String,
    },
    /// Two rule sets.
    #[error("two rule sets given: '{}' and '{}'", first.name(), crate::limits::abbreviate(second))]
    TwoRuleSets {
        /// The first rule set.
        first: PentagoRules,
        /// The second, lower-cased.
        second: String,
    },
}

/// Why a board string was refused by [`Pentago::from_board`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PentagoBoardError {
    /// The rule options are wrong.
    #[error(transparent)]
    Options(#[from] PentagoOptionError),
    /// Not six rows.
    #[error("a Pentago board has 6 rows joined by '/', got {0}")]
    Rows(usize),
    /// A row without six cells; `row` is 1-based from the top.
    #[error("row {row} has {cells} cells, expected 6")]
    RowLength {
        /// Row number, 1 on top.
        row: usize,
        /// Cells found.
        cells: usize,
    },
    /// A character other than `.`, `X`, `O` (either case).
    #[error("unknown cell '{found}' at {cell}; use '.', 'X' or 'O'")]
    UnknownCell {
        /// The character.
        found: char,
        /// The cell name, e.g. `c4`.
        cell: String,
    },
    /// Stone counts no game reaches: X moves first, so X has as many stones as O or one more.
    #[error("{x} X stones and {o} O stones: X moves first, so X has as many stones as O or one more")]
    StoneCounts {
        /// X stones.
        x: u32,
        /// O stones.
        o: u32,
    },
    /// The board already holds five in a row, so the game would be over.
    #[error("the board already holds five in a row; the game would be over")]
    AlreadyFive,
}

impl Pentago {
    /// The empty board under `rules`, `X` to move; `dedup` removes moves leading to the same
    /// position from the legal-move list (see the module documentation).
    pub fn new(rules: PentagoRules, dedup: bool) -> Self {
        Pentago { stones: [0, 0], hash: 0, rules, dedup, to_move: 0, outcome: None, ply: 0, last: None, last_cell: 0, placement_win: false }
    }

    /// Builds from the options after `pentago:` in a spec string: an optional rule set
    /// (`official`, the default; `openspiel`; `twist`) followed by an optional `dedup`.
    ///
    /// # Errors
    /// [`PentagoOptionError`] naming the unknown, repeated or misplaced option.
    pub fn from_options(opts: &[&str]) -> Result<Pentago, PentagoOptionError> {
        let mut rules = None;
        let mut dedup = false;
        for raw in opts {
            let o = raw.trim().to_ascii_lowercase();
            let r = match o.as_str() {
                "official" => Some(PentagoRules::Official),
                "openspiel" => Some(PentagoRules::OpenSpiel),
                "twist" => Some(PentagoRules::Twist),
                "dedup" => {
                    if dedup {
                        return Err(PentagoOptionError::DedupTwice);
                    }
                    dedup = true;
                    None
                }
                "" => return Err(PentagoOptionError::EmptyOption),
                _ => return Err(PentagoOptionError::UnknownOption { option: raw.to_string() }),
            };
            if let Some(r) = r {
                if dedup {
                    return Err(PentagoOptionError::RulesAfterDedup { option: raw.to_string(), rules: o });
                }
                if let Some(prev) = rules {
                    return Err(PentagoOptionError::TwoRuleSets { first: prev, second: o });
                }
                rules = Some(r);
            }
        }
        Ok(Pentago::new(rules.unwrap_or(PentagoRules::Official), dedup))
    }

    /// A position from a board string in the reference notation (six rows of `.XO` joined by
    /// `/`, top row first) under the rules named by `opts` (as [`Pentago::from_options`]). The
    /// side to move follows from the stone counts (`X` moves first). No last move is recorded.
    ///
    /// # Errors
    /// [`PentagoBoardError`] saying what is wrong: bad options, wrong shape, unknown character,
    /// impossible stone counts, or a board that already holds a five (games end at the first
    /// five, so such a board is not a position to play from).
    pub fn from_board(opts: &[&str], board: &str) -> Result<Pentago, PentagoBoardError> {
        let mut g = Pentago::from_options(opts)?;
        let rows: Vec<&str> = board.trim().split('/').collect();
        if rows.len() != 6 {
            return Err(PentagoBoardError::Rows(rows.len()));
        }
        for (r, row) in rows.iter().enumerate() {
            let chars: Vec<char> = row.chars().collect();
            if chars.len() != 6 {
                return Err(PentagoBoardError::RowLength { row: r + 1, cells: chars.len() });
            }
            for (c, ch) in chars.into_iter().enumerate() {
                match ch {
                    '.' => {}
                    'X' | 'x' => g.stones[0] |= 1 << (r * STRIDE + c),
                    'O' | 'o' => g.stones[1] |= 1 << (r * STRIDE + c),
                    other => return Err(PentagoBoardError::UnknownCell { found: other, cell: cell_name(r, c) }),
                }
            }
        }
        let (x, o) = (g.stones[0].count_ones(), g.stones[1].count_ones());
        g.to_move = match x.checked_sub(o) {
            Some(0) => 0,
            Some(1) => 1,
            _ => return Err(PentagoBoardError::StoneCounts { x, o }),
        };
        if has_five(g.stones[0]) || has_five(g.stones[1]) {
            return Err(PentagoBoardError::AlreadyFive);
        }
        g.ply = (x + o) as u8;
        if g.ply as usize == CELLS {
            g.outcome = Some(Outcome::Draw);
        }
        g.hash = g.hash_from_scratch();
        Ok(g)
    }

    /// The rule set.
    pub fn rules(&self) -> PentagoRules {
        self.rules
    }

    /// Whether the legal-move list is deduplicated (`:dedup`).
    pub fn dedup(&self) -> bool {
        self.dedup
    }

    /// The stones of `player` as a 36-bit mask, bit `row * 6 + col`.
    pub fn stones(&self, player: Player) -> u64 {
        bits(self.stones[player as usize]).fold(0, |m, b| m | 1 << cell(b))
    }

    /// Whether the last move won by its placement (official rules), so its twist was not applied.
    pub fn won_on_placement(&self) -> bool {
        self.placement_win
    }

    #[inline(always)]
    fn empty(&self) -> u64 {
        FULL & !(self.stones[0] | self.stones[1])
    }

    /// Transform kind of twist direction `d` (0 or 1) under these rules.
    #[inline(always)]
    fn kind(&self, d: usize) -> usize {
        if d == 1 {
            CW
        } else if self.rules == PentagoRules::Twist {
            FLIP
        } else {
            CCW
        }
    }

    /// The boards `(mine, theirs)` after `p` plays cell `c` with twist `t` (no legality check).
    #[inline(always)]
    fn result_of(&self, p: Player, c: usize, t: usize) -> (u64, u64) {
        let mine = self.stones[p as usize] | 1 << c;
        let theirs = self.stones[1 - p as usize];
        if self.rules == PentagoRules::Official && has_five(mine) {
            return (mine, theirs);
        }
        let (q, k) = (t >> 1, self.kind(t & 1));
        (apply(mine, q, k), apply(theirs, q, k))
    }

    /// Outcome of `p` playing `(c, t)` here (`None`: the game goes on), and the boards after it.
    #[inline(always)]
    fn outcome_of(&self, p: Player, c: usize, t: usize) -> (u64, u64, Option<Outcome>) {
        let mine = self.stones[p as usize] | 1 << c;
        let theirs = self.stones[1 - p as usize];
        if self.rules == PentagoRules::Official && has_five(mine) {
            return (mine, theirs, Some(Outcome::Win(p)));
        }
        let (q, k) = (t >> 1, self.kind(t & 1));
        let (m2, t2) = (apply(mine, q, k), apply(theirs, q, k));
        (m2, t2, judge(m2, t2, p, self.ply as u32 + 1))
    }

    /// For `p` to move on this board: `w[t]` = cells `c` such that move `(c, t)` wins at once.
    /// Placement fives (official), twist-made fives, both-fives draws and opponent-only fives are
    /// all taken into account (see the module documentation).
    fn win_table(&self, p: Player) -> [u64; 8] {
        let mine = self.stones[p as usize];
        let theirs = self.stones[1 - p as usize];
        let empty = self.empty();
        let placement = if self.rules == PentagoRules::Official { completions(mine, empty) } else { 0 };
        let mut w = [placement; 8];
        for (t, wt) in w.iter_mut().enumerate() {
            let (q, k) = (t >> 1, self.kind(t & 1));
            let to = apply(theirs, q, k);
            if has_five(to) {
                continue; // the opponent's five: a draw at best
            }
            let tm = apply(mine, q, k);
            if has_five(tm) {
                *wt = empty; // the twist alone makes the five: any placement wins
                continue;
            }
            let post = completions(tm, FULL & !(tm | to));
            *wt |= apply(post, q, INVERSE[k]);
        }
        w
    }

    /// Whether `p`, if it were to move on this board, has a move that wins at once.
    #[inline]
    fn has_win(&self, p: Player) -> bool {
        let mine = self.stones[p as usize];
        let theirs = self.stones[1 - p as usize];
        let empty = self.empty();
        if empty == 0 {
            return false;
        }
        if self.rules == PentagoRules::Official && completions(mine, empty) != 0 {
            return true;
        }
        for t in 0..8 {
            let (q, k) = (t >> 1, self.kind(t & 1));
            let to = apply(theirs, q, k);
            if has_five(to) {
                continue;
            }
            let tm = apply(mine, q, k);
            if has_five(tm) || completions(tm, FULL & !(tm | to)) != 0 {
                return true;
            }
        }
        false
    }

    /// Whether move `(c, t)` of `p` is the lowest-index move leading to its resulting position.
    /// Two moves with different cells can only coincide when both cells lie in the same
    /// quadrant (outside the twisted quadrants the boards must agree), so only those and the
    /// lower twists of the same cell are compared.
    fn is_canonical(&self, p: Player, c: usize, t: usize) -> bool {
        let r = self.result_of(p, c, t);
        if (0..t).any(|t2| self.result_of(p, c, t2) == r) {
            return false;
        }
        let (row, col) = (c / STRIDE, c % STRIDE);
        let q = match (row < 3, col < 3) {
            (true, true) => 0,
            (true, false) => 1,
            (false, false) => 2,
            (false, true) => 3,
        };
        let lower = (QMASK << QBASE[q]) & self.empty() & ((1u64 << c) - 1);
        !bits(lower).any(|c2| (0..8).any(|t2| self.result_of(p, c2, t2) == r))
    }

    /// Per empty cell, the bit mask of twists kept in `p`'s legal-move list (all eight without
    /// `:dedup`; with it, the lowest-index move of each distinct resulting position).
    fn kept_twists(&self, p: Player) -> [u8; BITS] {
        let mut kept = [0u8; BITS];
        let empty = self.empty();
        if !self.dedup {
            for c in bits(empty) {
                kept[c] = 0xFF;
            }
            return kept;
        }
        // Sort (resulting position, index) pairs; the first of each run of equal positions is
        // the lowest index.
        let mut keys = [0u128; MOVE_SPACE];
        let mut n = 0;
        for c in bits(empty) {
            for t in 0..8 {
                let (a, b) = self.result_of(p, c, t);
                keys[n] = ((a as u128) | (b as u128) << BITS) << 9 | (c * 8 + t) as u128;
                n += 1;
            }
        }
        let keys = &mut keys[..n];
        keys.sort_unstable();
        let mut prev = u128::MAX;
        for &k in keys.iter() {
            if k >> 9 != prev {
                prev = k >> 9;
                let i = (k & 0x1FF) as usize;
                kept[i / 8] |= 1 << (i % 8);
            }
        }
        kept
    }

    /// Writes the moves `(c, t)` with `w[t]` holding `c` and kept for `p`, ascending.
    fn emit(&self, p: Player, w: &[u64; 8], out: &mut MoveList<u16>) {
        out.clear();
        let any = w.iter().fold(0, |a, &x| a | x);
        if any == 0 {
            return;
        }
        let kept = if self.dedup { self.kept_twists(p) } else { [0xFF; BITS] };
        for c in bits(any) {
            for (t, wt) in w.iter().enumerate() {
                if wt >> c & 1 != 0 && kept[c] >> t & 1 != 0 {
                    out.push((cell(c) * 8 + t) as u16);
                }
            }
        }
    }

    /// Plays `(c, t)` for the side to move without maintaining the hash (playouts).
    #[inline(always)]
    fn step_fast(&mut self, c: usize, t: usize) {
        let p = self.to_move;
        let mine = self.stones[p as usize] | 1 << c;
        let theirs = self.stones[1 - p as usize];
        self.ply += 1;
        self.to_move = 1 - p;
        if self.rules == PentagoRules::Official && has_five(mine) {
            self.stones[p as usize] = mine;
            self.outcome = Some(Outcome::Win(p));
            self.placement_win = true;
            return;
        }
        let (q, k) = (t >> 1, self.kind(t & 1));
        let (m2, t2) = (apply(mine, q, k), apply(theirs, q, k));
        self.stones[p as usize] = m2;
        self.stones[1 - p as usize] = t2;
        self.outcome = judge(m2, t2, p, self.ply as u32);
    }

    /// The hash from the quadrant tables (8 lookups): used after hash-free playouts.
    fn hash_by_quadrants(&self) -> u64 {
        let mut h = if self.to_move == 1 { SIDE_KEY } else { 0 };
        for p in 0..2 {
            for q in 0..4 {
                h ^= QKEY[p][q][pattern(self.stones[p], q)];
            }
        }
        h
    }

    /// Cells of every five of `player` on the board.
    fn fives_of(&self, player: Player) -> u64 {
        let s = self.stones[player as usize];
        LINES.iter().filter(|&&l| s & l == l).fold(0, |a, &l| a | l)
    }

    /// Random playout with `:dedup`: a uniform (empty cell, twist) pair is redrawn until it is
    /// the kept (lowest-index) move of its resulting position, which makes the choice uniform
    /// over the deduplicated legal list.
    fn random_playout_dedup<T: MoveSink<u16>>(&mut self, rng: &mut Rng64, trace: &mut T) -> Outcome {
        let outcome = loop {
            if let Some(o) = self.outcome {
                break o;
            }
            let empty = self.empty();
            let n = (CELLS - self.ply as usize) as u32;
            let (c, t) = loop {
                let r = rng.below(n * 8);
                let (c, t) = (select(empty, r >> 3) as usize, (r & 7) as usize);
                if self.is_canonical(self.to_move, c, t) {
                    break (c, t);
                }
            };
            let m = (cell(c) * 8 + t) as u16;
            trace.push(m);
            self.last = Some(m);
            self.placement_win = false;
            self.step_fast(c, t);
        };
        if let Some(m) = self.last {
            let (c, t) = (bit(m as usize / 8), m as usize % 8);
            let b = if self.placement_win { c } else { apply(1 << c, t >> 1, self.kind(t & 1)).trailing_zeros() as usize };
            self.last_cell = cell(b) as u8;
        }
        self.hash = self.hash_by_quadrants();
        outcome
    }

    fn parse_err(text: &str, reason: impl Into<MoveParseError>) -> MoveError {
        MoveError::Parse { text: text.to_string(), reason: reason.into() }
    }
}

/// The most empty cells a Pentago position may have for the endgame solver ([`crate::solve::endgame`];
/// docs/limits.md; measured on the 64 positions of `tests/data/pentago-endgames.jsonl`: the slowest
/// root took about 6 s natively with 14 empty cells, 3 s with 16, but 26 s with 18).
pub const PENTAGO_MAX_EMPTY: usize = 16;

impl Registered for Pentago {
    const FACTS: GameFacts = GameFacts {
        name: "pentago",
        title: "Pentago",
        aliases: &[],
        syntax: "pentago[:official|:openspiel|:twist][:dedup]",
        default_spec: "pentago:official",
        examples: &["pentago", "pentago:openspiel", "pentago:twist"],
        test_specs: &["pentago:official:dedup", "pentago:twist:dedup", "pentago:openspiel:dedup"],
        choices: &[Choice { spec: "pentago:official", label: "Pentago" }, Choice { spec: "pentago:twist", label: "Pentago-Twist" }],
        players: ["black", "white"],
        goals: ["", ""],
        rules: "Place a stone, then twist a quadrant; five in a row wins.",
        draws: true,
        sizes: None,
        notation: "a cell, a quadrant and a twist (d4-BR-cw)",
        example_moves: "d4-BR-cw c3-TL-cw",
        solver: Some(SolverFacts {
            kind: ExactSolverKind::AlphaBeta,
            takes: "positions with at most 16 empty cells",
            max_side: None,
            max_empty: Some(PENTAGO_MAX_EMPTY as u32),
            swap: false,
        }),
        net_input: false,
        patterns: false,
    };

    /// The options of [`Pentago::from_options`].
    fn from_options(options: &[&str]) -> Result<Self, String> {
        Pentago::from_options(options).map_err(|e| e.to_string())
    }

    /// Positions with at most [`PENTAGO_MAX_EMPTY`] empty cells; 2^(12 + 2·empty) entries.
    fn endgame_table_log2(&self) -> Result<u32, EndgameRefusal> {
        let empty = 36 - self.ply().min(36);
        if empty > PENTAGO_MAX_EMPTY {
            return Err(EndgameRefusal::TooLarge { empty, limit: PENTAGO_MAX_EMPTY });
        }
        Ok(12 + 2 * empty as u32)
    }
}

impl Game for Pentago {
    type Move = u16;

    fn spec(&self) -> String {
        format!("pentago:{}{}", self.rules.name(), if self.dedup { ":dedup" } else { "" })
    }
    fn move_space(&self) -> usize {
        MOVE_SPACE
    }
    fn move_index(&self, m: u16) -> usize {
        m as usize
    }
    fn move_from_index(&self, index: usize) -> Option<u16> {
        (index < MOVE_SPACE).then_some(index as u16)
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
        if !self.dedup {
            for c in bits(self.empty()) {
                let base = (cell(c) * 8) as u16;
                out.extend((0..8).map(|t| base + t));
            }
            return;
        }
        let kept = self.kept_twists(self.to_move);
        for c in bits(self.empty()) {
            for t in 0..8 {
                if kept[c] >> t & 1 != 0 {
                    out.push((cell(c) * 8 + t) as u16);
                }
            }
        }
    }

    /// Without `dedup` every empty cell takes all eight twists: a popcount.
    fn legal_count(&self) -> usize {
        if self.outcome.is_some() {
            0
        } else if !self.dedup {
            self.empty().count_ones() as usize * 8
        } else {
            super::listed_count(self)
        }
    }

    /// Without `dedup`: the `i / 8`-th empty cell (in `legal_moves` order, ascending bit) with
    /// twist `i % 8`, without listing the moves.
    fn nth_legal(&self, i: usize) -> Option<u16> {
        if self.outcome.is_some() {
            return None;
        }
        if self.dedup {
            return super::listed_nth(self, i);
        }
        bits(self.empty()).nth(i / 8).map(|c| (cell(c) * 8 + i % 8) as u16)
    }

    fn is_legal(&self, m: u16) -> bool {
        let (c, t) = (bit(m as usize / 8), m as usize % 8);
        self.outcome.is_none()
            && (m as usize) < MOVE_SPACE
            && self.empty() >> c & 1 != 0
            && (!self.dedup || self.is_canonical(self.to_move, c, t))
    }

    fn play_unchecked(&mut self, m: u16) {
        debug_assert!(self.is_legal(m), "illegal move {m}");
        let (c, t) = (bit(m as usize / 8), m as usize % 8);
        let p = self.to_move as usize;
        self.stones[p] |= 1 << c;
        self.hash ^= key(p, cell(c)) ^ SIDE_KEY;
        self.ply += 1;
        self.to_move = 1 - self.to_move;
        self.last = Some(m);
        self.last_cell = cell(c) as u8;
        self.placement_win = false;
        if self.rules == PentagoRules::Official && has_five(self.stones[p]) {
            self.placement_win = true;
            self.outcome = Some(Outcome::Win(p as Player));
            return;
        }
        let (q, k) = (t >> 1, self.kind(t & 1));
        for (stones, qkey) in self.stones.iter_mut().zip(&QKEY) {
            let old = pattern(*stones, q);
            let new = TRANS9[k][old] as usize;
            self.hash ^= qkey[q][old] ^ qkey[q][new];
            *stones = (*stones & !(QMASK << QBASE[q])) | SCATTER[new] << QBASE[q];
        }
        self.last_cell = cell(apply(1 << c, q, k).trailing_zeros() as usize) as u8;
        self.outcome = judge(self.stones[p], self.stones[1 - p], p as Player, self.ply as u32);
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    /// Both colours' stone sets (the side to move follows from their counts; the rule set and
    /// `:dedup` are the spec's, the same for every position of one solve).
    fn exact_key(&self) -> Option<u128> {
        Some(self.stones[0] as u128 | (self.stones[1] as u128) << 64)
    }

    /// The hash from the stone sets (X moves first, so O is to move when X has more stones).
    fn hash_of_exact_key(&self, key: u128) -> Option<u64> {
        let mut g = *self;
        g.stones = [key as u64, (key >> 64) as u64];
        g.to_move = Player::from(g.stones[0].count_ones() > g.stones[1].count_ones());
        Some(g.hash_by_quadrants())
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = if self.to_move == 1 { SIDE_KEY } else { 0 };
        for p in 0..2 {
            for b in bits(self.stones[p]) {
                h ^= key(p, cell(b));
            }
        }
        h
    }

    fn parse_move(&self, text: &str) -> Result<u16, MoveError> {
        let parts: Vec<&str> = text.trim().split('-').collect();
        if parts.len() != 3 {
            return Err(Self::parse_err(text, MoveParseError::PentagoShape { rules: self.rules }));
        }
        let (r, c) = parse_cell(parts[0], 6, 6).map_err(|e| Self::parse_err(text, e))?;
        let q = QUADRANT_NAMES
            .iter()
            .position(|n| n.eq_ignore_ascii_case(parts[1].trim()))
            .ok_or_else(|| Self::parse_err(text, MoveParseError::Quadrant(parts[1].to_string())))?;
        let dir = parts[2].trim().to_ascii_lowercase();
        let d = match (self.rules, dir.as_str()) {
            (_, "cw") => 1,
            (PentagoRules::Twist, "flip") => 0,
            (PentagoRules::Twist, "ccw") => return Err(Self::parse_err(text, MoveParseError::TwistHasNoCcw)),
            (_, "ccw") => 0,
            (_, "flip") => return Err(Self::parse_err(text, MoveParseError::FlipNeedsTwist { rules: self.rules })),
            _ => return Err(Self::parse_err(text, MoveParseError::Twist { twist: parts[2].to_string(), rules: self.rules })),
        };
        Ok(((r * 6 + c) * 8 + 2 * q + d) as u16)
    }

    fn format_move(&self, m: u16) -> String {
        let (c, t) = (m as usize / 8, m as usize % 8);
        let dir = match (t & 1, self.rules) {
            (1, _) => "cw",
            (_, PentagoRules::Twist) => "flip",
            _ => "ccw",
        };
        format!("{}-{}-{}", cell_name(c / 6, c % 6), QUADRANT_NAMES[t >> 1], dir)
    }

    fn board_string(&self) -> String {
        let mut s = String::with_capacity(41);
        for c in 0..CELLS {
            if c > 0 && c % 6 == 0 {
                s.push('/');
            }
            s.push(if self.stones[0] >> bit(c) & 1 != 0 {
                'X'
            } else if self.stones[1] >> bit(c) & 1 != 0 {
                'O'
            } else {
                '.'
            });
        }
        s
    }

    /// `last_move` is the move's notation, or only its cell (e.g. `d4`) when it won by its
    /// placement under the official rules (its twist was not applied); `last_cells` is where the
    /// placed stone ended up; `winning_cells` covers every five of the winner, or of both sides
    /// after a double-five draw.
    fn view(&self) -> BoardView {
        let cells = (0..CELLS)
            .map(|c| {
                if self.stones[0] >> bit(c) & 1 != 0 {
                    0
                } else if self.stones[1] >> bit(c) & 1 != 0 {
                    1
                } else {
                    -1
                }
            })
            .collect();
        let winning = match self.outcome {
            Some(Outcome::Win(p)) => self.fives_of(p),
            Some(Outcome::Draw) => self.fives_of(0) | self.fives_of(1),
            None => 0,
        };
        let last_move = self.last.map(|m| {
            if self.placement_win {
                let c = m as usize / 8;
                cell_name(c / 6, c % 6)
            } else {
                self.format_move(m)
            }
        });
        BoardView {
            kind: "pentago".into(),
            spec: self.spec(),
            rows: 6,
            cols: 6,
            cells,
            to_move: self.outcome.is_none().then_some(self.to_move),
            last_move,
            last_cells: self.last.map(|_| vec![self.last_cell as usize]).unwrap_or_default(),
            winning_cells: bits(winning).map(cell).collect(),
            outcome: self.outcome,
            ply: self.ply(),
        }
    }

    /// Fast path, same distribution as uniform random legal moves. Without `:dedup` every
    /// (empty cell, twist) pair is legal, so one draw `r < 8 · empty` picks the `(r / 8)`-th
    /// empty cell and twist `r % 8` — exactly `legal[r]` of the ascending legal list. With
    /// `:dedup`, a uniform pair is redrawn until it is the kept (lowest-index) move of its
    /// position, which is uniform over the deduplicated list. The hash is not updated move by
    /// move; it is recomputed once at the end.
    fn random_playout<T: MoveSink<u16>>(&mut self, rng: &mut Rng64, trace: &mut T) -> Outcome {
        if let Some(o) = self.outcome {
            return o;
        }
        if self.dedup {
            return self.random_playout_dedup(rng, trace);
        }
        let official = self.rules == PentagoRules::Official;
        let kinds = [self.kind(0), CW];
        let mut s = self.stones;
        let mut p = self.to_move as usize;
        let mut ply = self.ply as u32;
        let (mut last_c, mut last_t);
        let mut placement_win = false;
        let outcome = loop {
            let empty = FULL & !(s[0] | s[1]);
            let r = rng.below((CELLS as u32 - ply) * 8);
            let (c, t) = (select(empty, r >> 3) as usize, (r & 7) as usize);
            trace.push((cell(c) * 8 + t) as u16);
            (last_c, last_t) = (c, t);
            let mine = s[p] | 1 << c;
            let theirs = s[1 - p];
            ply += 1;
            // No five is possible before the 9th stone (X's fifth).
            if official && ply >= 9 && has_five(mine) {
                s[p] = mine;
                placement_win = true;
                p ^= 1;
                break Outcome::Win(1 - p as Player);
            }
            let (q, k) = (t >> 1, kinds[t & 1]);
            let (m2, t2) = (apply(mine, q, k), apply(theirs, q, k));
            s[p] = m2;
            s[1 - p] = t2;
            let mover = p as Player;
            p ^= 1;
            if ply >= 9 {
                // The opponent had no five; it can only have one now if the twist moved its stones.
                let (fm, fo) = (has_five(m2), (t2 != theirs) & has_five(t2));
                if fm || fo {
                    break match (fm, fo) {
                        (true, true) => Outcome::Draw,
                        (true, false) => Outcome::Win(mover),
                        _ => Outcome::Win(1 - mover),
                    };
                }
            }
            if ply as usize == CELLS {
                break Outcome::Draw;
            }
        };
        self.stones = s;
        self.to_move = p as Player;
        self.ply = ply as u8;
        self.outcome = Some(outcome);
        self.last = Some((cell(last_c) * 8 + last_t) as u16);
        self.placement_win = placement_win;
        let b = if placement_win { last_c } else { apply(1 << last_c, last_t >> 1, kinds[last_t & 1]).trailing_zeros() as usize };
        self.last_cell = cell(b) as u8;
        self.hash = self.hash_by_quadrants();
        outcome
    }

    fn winning_moves(&self, out: &mut MoveList<u16>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        let w = self.win_table(self.to_move);
        self.emit(self.to_move, &w, out);
    }

    fn find_winning_move(&self) -> Option<u16> {
        if self.outcome.is_some() || !self.has_win(self.to_move) {
            return None;
        }
        let mut out = MoveList::new();
        self.winning_moves(&mut out);
        out.first().copied()
    }

    /// The (cell, twist) pairs with which the opponent would win at once if it were to move
    /// now, ascending. With `:dedup` they are restricted to the moves of the current legal list
    /// (the trait's contract: threats are legal moves here). Which moves are duplicates depends
    /// on the colour of the placed stone, so a threat whose pair is a duplicate in the side to
    /// move's list (e.g. under the official rules a cell where the side to move would itself win
    /// by placement, whose eight twists collapse into one) is then left out.
    fn threats(&self, out: &mut MoveList<u16>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        let w = self.win_table(1 - self.to_move);
        self.emit(self.to_move, &w, out);
    }

    /// Each legal move is played on the bitboards (no hash) and kept when it wins, draws, or
    /// leaves the opponent no winning move (checked with the bitboard threat test).
    fn non_losing_moves(&self, out: &mut MoveList<u16>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        let p = self.to_move;
        let kept = self.kept_twists(p);
        for c in bits(self.empty()) {
            for t in 0..8 {
                if kept[c] >> t & 1 == 0 {
                    continue;
                }
                let (mine, theirs, o) = self.outcome_of(p, c, t);
                let ok = match o {
                    Some(Outcome::Win(w)) => w == p,
                    Some(Outcome::Draw) => true,
                    None => {
                        let mut next = *self;
                        next.stones[p as usize] = mine;
                        next.stones[1 - p as usize] = theirs;
                        next.ply += 1;
                        !next.has_win(1 - p)
                    }
                };
                if ok {
                    out.push((cell(c) * 8 + t) as u16);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `legal_count` and `nth_legal` agree with `legal_moves` under every rule set, with and
    /// without `dedup`, along random games to their end.
    #[test]
    fn nth_legal_and_count_match_the_list() {
        let mut rng = crate::rng::Rng64::new(5);
        for rules in [PentagoRules::Official, PentagoRules::OpenSpiel, PentagoRules::Twist] {
            for dedup in [false, true] {
                for _ in 0..5 {
                    let mut g = Pentago::new(rules, dedup);
                    loop {
                        let mut l = MoveList::new();
                        g.legal_moves(&mut l);
                        assert_eq!(g.legal_count(), l.len());
                        for i in 0..=l.len() {
                            assert_eq!(g.nth_legal(i), l.get(i).copied(), "{rules:?} dedup {dedup} i {i}");
                        }
                        if l.is_empty() {
                            break;
                        }
                        g.play_unchecked(l[rng.index(l.len())]);
                    }
                }
            }
        }
    }

    #[test]
    fn move_is_two_bytes() {
        assert_eq!(std::mem::size_of::<<Pentago as Game>::Move>(), 2);
    }

    #[test]
    fn lines_and_five_agree() {
        for &l in LINES.iter() {
            assert_eq!(l.count_ones(), 5);
            assert!(has_five(l));
            for c in bits(l) {
                assert!(!has_five(l & !(1 << c)));
            }
        }
        let mut rng = Rng64::new(3);
        for _ in 0..20000 {
            let b = rng.next_u64() & rng.next_u64() & FULL;
            assert_eq!(has_five(b), LINES.iter().any(|&l| l & !b == 0), "{b:x}");
        }
    }

    #[test]
    fn transforms_are_permutations_and_inverse() {
        for k in 0..3 {
            for p in 0..512usize {
                let b = SCATTER[p] << QBASE[2];
                assert_eq!(apply(apply(b, 2, k), 2, INVERSE[k]), b);
                assert_eq!(TRANS9[k][p].count_ones(), (p as u16).count_ones());
            }
        }
    }

    #[test]
    fn select_finds_kth_bit() {
        let x: u64 = 0b1011_0000_0000_0001_0100_0000_0000_0000_0000_0000_0001_0010;
        let want: Vec<u32> = bits(x).map(|c| c as u32).collect();
        for (k, &w) in want.iter().enumerate() {
            assert_eq!(select(x, k as u32), w);
        }
        let mut rng = Rng64::new(9);
        for _ in 0..5000 {
            let x = rng.next_u64() & rng.next_u64() & FULL;
            for (k, b) in bits(x).enumerate() {
                assert_eq!(select(x, k as u32) as usize, b, "{x:x} {k}");
            }
        }
    }
}
