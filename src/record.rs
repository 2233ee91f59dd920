//! Game records: a game spec plus the moves from the start, read and written in two formats.
//!
//! # Move list (our notation, every game)
//! ```text
//! hex:7
//! d4 c5 e3
//! ```
//! The first token is the game spec (as [`AnyGame::from_spec`] reads it, e.g. `tictactoe`,
//! `hex:11:swap`, `pentago:twist`); the moves follow in the game's own notation (`b2`, `d4`,
//! `swap`, `d4-BR-cw`), separated by any whitespace or commas. Move numbers such as `1.` or `12.`
//! are skipped, and so are lines starting with `#` (comments). The writer puts the spec on the
//! first line and the moves, space-separated, on the second ([`write_move_list`]).
//!
//! # SGF for Hex (`GM[11]`), as HexGui writes it
//! SGF FF\[4\] (<https://www.red-bean.com/sgf/>) with the conventions of HexGui
//! (`hexgui/sgf/SgfWriter.java`, `SgfReader.java`, `hexgui/hex/HexPoint.java`,
//! <https://github.com/ryanbhayward/hexgui>):
//! - the root node holds `FF[4]`, `AP[name:version]`, `GM[11]` and `SZ[n]` (`SZ[w:h]` for a
//!   non-square board, which we reject); every following node holds one move, `B[..]` or `W[..]`;
//!   variations are `(` subtrees `)` after a node.
//! - points are HexGui's `HexPoint` names: column letter `a`.. then row number from 1, row 1 on
//!   top — exactly our cell names (`a1`, `d4`, `k11`). HexGui's reader also accepts the two-letter
//!   Go-like form of Little Golem (`aa` = column a, row 1), and so do we.
//! - the swap move is `swap-pieces` (`HexPoint.SWAP_PIECES`; `swap` is its alias in
//!   `HexPoint.get`), which is our `swap` (see `crate::game::hex` for why the two are the same
//!   move). Newer HexGui versions also know `swap-sides` (the players exchange colours, stones stay);
//!   we cannot represent that without relabelling every later move, so it is refused with a message.
//!   `resign` ends the main line (noted); `pass`/`forfeit` are refused.
//! - setup properties `AB`/`AW`/`AE` (HexGui writes them for positions set up by hand): a root with
//!   `AB`/`AW` stones only, Black count = White count or one more, and no `AE`, is read as those
//!   stones played alternately (Black first, each list in the order given) — the same position,
//!   since a Hex position does not depend on move order — and a note says so; anything else
//!   (setup in a later node, `AE`, counts that no game reaches, a `PL` that disagrees) is refused.
//! - the swap rule has no standard SGF property; we write `RU[swap]` when it is on (HexGui keeps
//!   unknown properties as they are) and read it back; a `swap-pieces` move also turns it on.
//! - `RE[B+]`/`RE[W+]` (SGF's result) is written once the game is over, and ignored on reading
//!   (the moves decide). `PL[B|W]` at the root must agree with the side to move.
//!
//! - variations (SGF FF\[4\] §"Variations"; HexGui's `SgfWriter.writeNode`): at a branch point
//!   every child is a game tree `(;..)`, the main line's continuation first. The main line is the
//!   first child at every branch; every other child is a [`Variation`] of the line it leaves,
//!   read recursively. A child without any move (comments only) is skipped. The writer does as
//!   HexGui: the nodes of a line follow each other, and a branch point puts the continuation and
//!   then each variation in its own parentheses.
//!
//! # Variations (SGF and the page's game JSON)
//! A record is a tree: the main line ([`Record::moves`]) and its [`Record::variations`], each a
//! line that replaces one move of its parent line, with variations of its own. Every variation is
//! replayed from its branch position, so an illegal move is named with its place
//! ([`RecordError::VariationMove`]). Records are read and written in one canonical form, that of
//! a tree of moves (a trie): a variation whose first move repeats its parent's move there, or
//! another variation's first move at the same point, is **merged** into that line (nothing is
//! lost; a note counts the merges); the rest of its moves become variations further on, or extend
//! the line when it ends there. A nested variation at 0 (replacing its parent variation's first
//! move) is a sibling of its parent and is written and read back as one. A variation's `at` must
//! be below its parent's length: moves past the end would continue the line itself
//! ([`VariationFault::PastEnd`]). Nesting is limited to [`MAX_VARIATION_DEPTH`] levels. The move
//! list format has no variations: [`write_move_list`] writes the main line only.
//!
//! Every move is replayed on the game, so a record that loads is a legal game; errors name the bad
//! move, its 1-based index in the record and why ([`RecordError`]).

use crate::game::{AnyGame, CellError, Game, MoveError, MoveParseError, SpecError};
pub use crate::limits::{MAX_RECORD_BYTES, MAX_VARIATION_DEPTH};

/// [`RecordError::TooLong`] when `text` is longer than [`MAX_RECORD_BYTES`].
fn check_length(text: &str) -> Result<(), RecordError> {
    if text.len() > MAX_RECORD_BYTES {
        return Err(RecordError::TooLong { len: text.len(), max: MAX_RECORD_BYTES });
    }
    Ok(())
}

/// A game record: the spec and the main line (normalised: as the game writes them), its
/// variations, plus notes about what the reader did (merged variations, setup stones read as
/// moves, a resignation). Serialised as `{ spec, moves, notes, variations }` (the page's
/// `GameRecordText`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "GameRecordText"))]
pub struct Record {
    /// Normalised game spec, e.g. `hex:7`, `hex:11:swap`.
    pub spec: String,
    /// The main line: moves from the start in the game's notation.
    pub moves: Vec<String>,
    /// Sentences about what the reader changed or left out (empty when nothing).
    pub notes: Vec<String>,
    /// The variations of the main line (canonical: see the module doc); empty when none.
    pub variations: Vec<Variation>,
}

/// A variation: moves that leave their parent line after `at` of its moves — its first move
/// replaces the parent's move `at` (0-based, below the parent's length) — with the variations
/// that leave it in turn, in the order of the record (SGF: the order of the game trees after the
/// continuation). JSON shape `{ "at": 3, "moves": ["c4", ..], "variations": [..] }`, the page's
/// `Variation` (`www/src/protocol.ts`) and the game JSON's `variations`; a missing `variations`
/// reads as none. Reading one nested deeper than [`MAX_VARIATION_DEPTH`] is an error, whatever
/// the deserializer (the guard keeps a deep JS or JSON value from overflowing the stack).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Variation {
    /// How many moves of the parent line come before the variation's first move.
    pub at: usize,
    /// The variation's moves in the game's notation (at least one).
    pub moves: Vec<String>,
    /// The variations that leave this one (each `at` counted in this variation's moves).
    pub variations: Vec<Variation>,
}

/// The shape [`Variation`] is read from.
#[derive(serde::Deserialize)]
struct VariationShape {
    at: usize,
    moves: Vec<String>,
    #[serde(default)]
    variations: Vec<Variation>,
}

thread_local! {
    /// How deep the variation being deserialised is nested (the guard of `Variation::deserialize`).
    static VARIATION_DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

impl<'de> serde::Deserialize<'de> for Variation {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Variation, D::Error> {
        struct Leave;
        impl Drop for Leave {
            fn drop(&mut self) {
                VARIATION_DEPTH.with(|c| c.set(c.get().saturating_sub(1)));
            }
        }
        let depth = VARIATION_DEPTH.with(|c| {
            c.set(c.get() + 1);
            c.get()
        });
        let _leave = Leave;
        if depth > MAX_VARIATION_DEPTH {
            return Err(serde::de::Error::custom(format!("variations are nested more than {MAX_VARIATION_DEPTH} deep")));
        }
        let v = VariationShape::deserialize(d)?;
        Ok(Variation { at: v.at, moves: v.moves, variations: v.variations })
    }
}

/// Why a record could not be read or written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The text is empty or has no spec.
    #[error("the record is empty: expected a game spec (e.g. hex:7) and moves")]
    Empty,
    /// The spec is not a game we have.
    #[error("bad game spec: {0}")]
    Spec(#[from] SpecError),
    /// Move number `index` (1-based), written `text`, is unreadable or illegal.
    #[error("move {index} '{}': {reason}", crate::limits::abbreviate(text))]
    Move {
        /// 1-based index of the move in the record.
        index: usize,
        /// The move as written.
        text: String,
        /// Why it was refused.
        reason: MoveFault,
    },
    /// The SGF text is malformed or uses something we cannot represent.
    #[error("SGF: {0}")]
    Sgf(#[from] SgfError),
    /// A JSON text that is not the page's game JSON (what is missing or wrong).
    #[error("game JSON: {0}")]
    GameJson(String),
    /// Move `index` (1-based within its variation), written `text`, of a variation is unreadable
    /// or illegal. `path` gives the variation's place: the move numbers (1-based in the game) at
    /// which it and the variations around it start, outermost first.
    #[error("{}, its move {index} '{}' (move {} of the game): {reason}", variation_place(path), crate::limits::abbreviate(text), path.last().map_or(*index, |p| p.saturating_add(index - 1)))]
    VariationMove {
        /// Where each enclosing variation starts (1-based move numbers), the innermost last.
        path: Vec<usize>,
        /// 1-based index of the move in its variation.
        index: usize,
        /// The move as written.
        text: String,
        /// Why it was refused.
        reason: MoveFault,
    },
    /// A variation that cannot be one ([`VariationFault`]); `path` as in
    /// [`RecordError::VariationMove`].
    #[error("{}: {fault}", variation_place(path))]
    Variation {
        /// Where each enclosing variation starts (1-based move numbers), the innermost last.
        path: Vec<usize>,
        /// What is wrong.
        fault: VariationFault,
    },
    /// The text is longer than [`MAX_RECORD_BYTES`]; nothing was read.
    #[error("the record is {len} bytes long; records of at most {max} bytes are read")]
    TooLong {
        /// Its length in bytes.
        len: usize,
        /// The limit, [`MAX_RECORD_BYTES`].
        max: usize,
    },
}

/// Why a variation is refused ([`RecordError::Variation`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VariationFault {
    /// A variation without moves.
    #[error("it has no moves")]
    NoMoves,
    /// `at` is not below the parent line's length `len`.
    #[error("it leaves its parent line after {at} moves, but that line has {len}: a variation replaces one of its parent's moves (at 0 to {}); moves past the end continue the line itself", .len.saturating_sub(1))]
    PastEnd {
        /// The variation's `at`.
        at: usize,
        /// The parent line's length.
        len: usize,
    },
    /// Nested deeper than [`MAX_VARIATION_DEPTH`].
    #[error("variations are nested more than {MAX_VARIATION_DEPTH} deep")]
    TooDeep,
    /// SGF setup properties (`AB`, `AW`, `AE`) in a variation.
    #[error("setup stones (AB, AW, AE) after moves cannot be represented")]
    Setup,
}

/// "variation at move 14 (within the variation at move 12)": the place of a variation from its
/// path (1-based move numbers where it and the variations around it start, outermost first).
fn variation_place(path: &[usize]) -> String {
    let Some((last, outer)) = path.split_last() else {
        return "the main line".into();
    };
    let mut s = format!("variation at move {last}");
    let nums = |v: &[usize]| v.iter().map(usize::to_string).collect::<Vec<_>>().join(", ");
    match outer.len() {
        0 => {}
        1 => s.push_str(&format!(" (within the variation at move {})", outer[0])),
        2..=4 => s.push_str(&format!(" (within the variations at moves {})", nums(outer))),
        n => s.push_str(&format!(" (within the variations at moves {}, …, {})", nums(&outer[..2]), outer[n - 1])),
    }
    s
}

/// Why one move of a record was refused ([`RecordError::Move`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveFault {
    /// The game could not read the text; the game's own reason.
    #[error(transparent)]
    Unreadable(MoveParseError),
    /// The move is not legal in the position.
    #[error("illegal: not a legal move in this position")]
    Illegal,
    /// The game was over before this move.
    #[error("the game is already over")]
    GameOver,
    /// An SGF move by the player not to move: `want` is `B` or `W`, `got` the other.
    #[error("it is {want}'s turn, not {got}'s")]
    Turn {
        /// The SGF colour to move, `B` or `W`.
        want: &'static str,
        /// The colour of the move, as written.
        got: String,
    },
    /// An SGF move value that is no Hex move.
    #[error(transparent)]
    Point(#[from] SgfPointError),
}

impl From<MoveError> for MoveFault {
    fn from(e: MoveError) -> MoveFault {
        match e {
            MoveError::Parse { reason, .. } => MoveFault::Unreadable(reason),
            MoveError::Illegal { .. } => MoveFault::Illegal,
            MoveError::GameOver => MoveFault::GameOver,
        }
    }
}

/// What in an SGF text cannot be read, or cannot be represented as a game of ours
/// ([`RecordError::Sgf`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SgfError {
    /// Malformed SGF at `at`, a 1-based character (byte) position.
    #[error("{syntax} at character {at}")]
    Syntax {
        /// What is wrong.
        syntax: SgfSyntax,
        /// 1-based byte position in the text.
        at: usize,
    },
    /// No `(` in the text.
    #[error("no game tree: an SGF record starts with '(;'")]
    NoGameTree,
    /// `GM[..]` names another game; `gm` is its value.
    #[error("GM[{}] is not Hex (GM[11]); only Hex records can be read as SGF", crate::limits::abbreviate(gm))]
    NotHex {
        /// The `GM` value.
        gm: String,
    },
    /// The root has no `SZ`.
    #[error("no SZ property (board size)")]
    NoSize,
    /// `SZ[..]` is not `n` or `w:h`.
    #[error("SZ[{}] is not a board size", crate::limits::abbreviate(sz))]
    BadSize {
        /// The `SZ` value.
        sz: String,
    },
    /// `SZ[w:h]` with `w ≠ h`.
    #[error("SZ[{}]: only square boards are supported, not {w}×{h}", crate::limits::abbreviate(sz))]
    NotSquare {
        /// The `SZ` value.
        sz: String,
        /// Width.
        w: usize,
        /// Height.
        h: usize,
    },
    /// A size outside 1..=19.
    #[error("SZ[{}]: Hex sizes 1 to 19 are supported", crate::limits::abbreviate(sz))]
    SizeOutOfRange {
        /// The `SZ` value.
        sz: String,
    },
    /// `AE` (remove stones) in the root.
    #[error("AE (setup: remove stones) cannot be represented")]
    RemoveStones,
    /// Setup counts no game from the empty board reaches.
    #[error(
        "setup stones AB ({black}) and AW ({white}) cannot be represented: no game from the empty board reaches them (Black must have as many stones as White or one more)"
    )]
    SetupCounts {
        /// `AB` stones.
        black: usize,
        /// `AW` stones.
        white: usize,
    },
    /// A setup stone that is no cell of the board.
    #[error("setup stone: {0}")]
    SetupStone(SgfPointError),
    /// `swap` among the setup stones.
    #[error("a swap move cannot be a setup stone")]
    SwapAsSetup,
    /// `PL[..]` disagrees with the side to move after the setup; `want` is `B` or `W`.
    #[error("PL[{}] cannot be represented: after the setup it is {want}'s turn", crate::limits::abbreviate(pl))]
    PlayerToMove {
        /// The `PL` value.
        pl: String,
        /// The colour to move after the setup.
        want: &'static str,
    },
    /// Setup properties after the root; `node` is 1-based along the main line.
    #[error("setup stones in node {node} (after moves) cannot be represented")]
    SetupAfterMoves {
        /// 1-based node number.
        node: usize,
    },
    /// SGF export of a game other than Hex.
    #[error("SGF export is for Hex only (GM[11]); {spec} is saved as a move list")]
    ExportNotHex {
        /// The game's spec.
        spec: String,
    },
}

/// What is malformed in SGF text ([`SgfError::Syntax`]), after the SGF FF\[4\] grammar.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SgfSyntax {
    /// Variations nested more than [`MAX_SGF_DEPTH`] deep.
    #[error("variations nested too deeply")]
    TooDeep,
    /// A game tree that does not start with `(`.
    #[error("expected '(' opening a game tree")]
    NoOpenParen,
    /// A game tree without a node.
    #[error("a game tree needs at least one node (';')")]
    NoNode,
    /// The text ends inside a game tree.
    #[error("the game tree is not closed: missing ')'")]
    NotClosed,
    /// A character that cannot come here.
    #[error("unexpected '{0}'")]
    Unexpected(char),
    /// A property identifier without `[value]`.
    #[error("property {} has no value", crate::limits::abbreviate(.0))]
    NoValue(String),
    /// The text ends inside a value.
    #[error("a property value runs to the end: missing ']'")]
    ValueNotClosed,
}

/// Why an SGF point or move value could not be read as a Hex move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SgfPointError {
    /// HexGui's `swap-sides`, which our swap (HexGui's `swap-pieces`) cannot stand for.
    #[error("'swap-sides' (the players exchange colours) cannot be represented: the playground's swap is HexGui's 'swap-pieces'")]
    SwapSides,
    /// `pass`, `forfeit` or an empty value.
    #[error("'{}' is not a move in Hex", crate::limits::abbreviate(.0))]
    NotAMove(String),
    /// A two-letter (Little Golem) point past the board's edge.
    #[error("point '{}' is off the {size}×{size} board", crate::limits::abbreviate(point))]
    OffBoard {
        /// The point, lower-cased.
        point: String,
        /// Board side.
        size: usize,
    },
    /// An `a1`-style point that does not name a cell of the board.
    #[error(transparent)]
    Cell(#[from] CellError),
}

/// Replays `moves` from the start of `spec`; returns the normalised record.
///
/// # Errors
/// [`RecordError::Spec`] for a bad spec, [`RecordError::Move`] for the first bad move.
pub fn replay(spec: &str, moves: &[String]) -> Result<(AnyGame, Vec<String>), RecordError> {
    let g = AnyGame::from_spec(spec)?;
    replay_from(g, moves, |index, text, reason| RecordError::Move { index, text, reason })
}

/// Plays `moves` on `g`; returns the game after them and the moves as the game writes them. A bad
/// move gives `err(1-based index, text, why)`.
fn replay_from(
    mut g: AnyGame,
    moves: &[String],
    err: impl Fn(usize, String, MoveFault) -> RecordError,
) -> Result<(AnyGame, Vec<String>), RecordError> {
    let mut out = Vec::with_capacity(moves.len());
    for (i, m) in moves.iter().enumerate() {
        let before = g.clone();
        let idx = g.play_text(m).map_err(|e| err(i + 1, m.clone(), e.into()))?;
        out.push(before.format_index(idx).unwrap_or_else(|| m.clone()));
    }
    Ok((g, out))
}

/// Checks the variations `vars` of `line` (normalised moves, legal from `start`, its first move
/// being move `base + 1` of the game): each replayed from its branch position. Returns them with
/// their moves normalised, same structure. `path` holds the start moves of the enclosing
/// variations.
///
/// # Errors
/// [`RecordError::Variation`] for a variation past its parent's end, without moves or nested too
/// deep; [`RecordError::VariationMove`] for a bad move.
fn check_variations(
    start: &AnyGame,
    base: usize,
    line: &[String],
    vars: &[Variation],
    path: &mut Vec<usize>,
) -> Result<Vec<Variation>, RecordError> {
    if vars.is_empty() {
        return Ok(Vec::new());
    }
    let mut order: Vec<usize> = (0..vars.len()).collect();
    order.sort_by_key(|&k| vars[k].at);
    let mut out: Vec<Option<Variation>> = vec![None; vars.len()];
    let mut g = start.clone();
    let mut pos = 0;
    for k in order {
        let v = &vars[k];
        path.push(base.saturating_add(v.at).saturating_add(1));
        let fault = if path.len() > MAX_VARIATION_DEPTH {
            Some(VariationFault::TooDeep)
        } else if v.at >= line.len() {
            Some(VariationFault::PastEnd { at: v.at, len: line.len() })
        } else if v.moves.is_empty() {
            Some(VariationFault::NoMoves)
        } else {
            None
        };
        if let Some(fault) = fault {
            return Err(RecordError::Variation { path: path.clone(), fault });
        }
        while pos < v.at {
            // The line is legal (checked before), so this cannot fail; an error is kept anyway.
            g.play_text(&line[pos]).map_err(|e| RecordError::Move { index: base + pos + 1, text: line[pos].clone(), reason: e.into() })?;
            pos += 1;
        }
        let (_, moves) =
            replay_from(g.clone(), &v.moves, |index, text, reason| RecordError::VariationMove { path: path.clone(), index, text, reason })?;
        let variations = check_variations(&g, base + v.at, &moves, &v.variations, path)?;
        path.pop();
        out[k] = Some(Variation { at: v.at, moves, variations });
    }
    Ok(out.into_iter().flatten().collect())
}

/// A tree of moves: node 0 is the start position; every other node is a move, its children the
/// moves after it in the order they were first seen (the first child continues the line).
struct MoveTree {
    moves: Vec<String>,
    children: Vec<Vec<usize>>,
}

impl MoveTree {
    /// The child of `node` played with `mv`, added when new; and whether it was there before.
    fn child(&mut self, node: usize, mv: &str) -> (usize, bool) {
        if let Some(&c) = self.children[node].iter().find(|&&c| self.moves[c] == mv) {
            return (c, true);
        }
        self.moves.push(mv.to_string());
        self.children.push(Vec::new());
        let c = self.moves.len() - 1;
        self.children[node].push(c);
        (c, false)
    }
    /// Adds the line `moves` after `from`; returns the node after each move.
    fn line(&mut self, from: usize, moves: &[String]) -> Vec<usize> {
        let mut at = from;
        moves
            .iter()
            .map(|m| {
                at = self.child(at, m).0;
                at
            })
            .collect()
    }
    /// Adds the variations of a line that starts after `from` and passes `nodes`; counts the
    /// variations merged into a line already there.
    fn variations(&mut self, from: usize, nodes: &[usize], vars: &[Variation], merged: &mut usize) {
        for v in vars {
            let branch = if v.at == 0 { from } else { nodes[v.at - 1] };
            if self.children[branch].iter().any(|&c| self.moves[c] == v.moves[0]) {
                *merged += 1;
            }
            let own = self.line(branch, &v.moves);
            self.variations(branch, &own, &v.variations, merged);
        }
    }
    /// The line from `first` (a child) on, following first children, with the variations that
    /// leave it after its first move.
    fn extract(
        &self,
        first: usize,
        depth: usize,
        path: &mut Vec<usize>,
        base: usize,
    ) -> Result<(Vec<String>, Vec<Variation>), RecordError> {
        let mut moves = vec![self.moves[first].clone()];
        let mut branches = Vec::new();
        let mut node = first;
        while let Some((&next, others)) = self.children[node].split_first() {
            for &o in others {
                branches.push((moves.len(), o));
            }
            moves.push(self.moves[next].clone());
            node = next;
        }
        let mut vars = Vec::with_capacity(branches.len());
        for (at, o) in branches {
            path.push(base + at + 1);
            if depth + 1 > MAX_VARIATION_DEPTH {
                return Err(RecordError::Variation { path: path.clone(), fault: VariationFault::TooDeep });
            }
            let (m, v) = self.extract(o, depth + 1, path, base + at)?;
            path.pop();
            vars.push(Variation { at, moves: m, variations: v });
        }
        Ok((moves, vars))
    }
}

/// The canonical form of a checked tree (see the module doc): the main line and its variations as
/// a tree of moves gives them, and how many variations were merged into a line already there.
///
/// # Errors
/// [`VariationFault::TooDeep`] when the merged tree nests deeper than [`MAX_VARIATION_DEPTH`].
fn canonical(main: &[String], vars: &[Variation]) -> Result<(Vec<String>, Vec<Variation>, usize), RecordError> {
    let mut t = MoveTree { moves: vec![String::new()], children: vec![Vec::new()] };
    let nodes = t.line(0, main);
    let mut merged = 0;
    t.variations(0, &nodes, vars, &mut merged);
    let Some((&first, others)) = t.children[0].split_first() else {
        return Ok((Vec::new(), Vec::new(), merged));
    };
    let mut path = Vec::new();
    let (moves, mut variations) = t.extract(first, 0, &mut path, 0)?;
    let mut at_start = Vec::with_capacity(others.len());
    for &o in others {
        path.push(1);
        let (m, v) = t.extract(o, 1, &mut path, 0)?;
        path.pop();
        at_start.push(Variation { at: 0, moves: m, variations: v });
    }
    at_start.append(&mut variations);
    Ok((moves, at_start, merged))
}

/// A game tree checked by [`check_tree`], in canonical form.
#[derive(Clone, Debug)]
pub struct CheckedTree {
    /// The game after the main line.
    pub game: AnyGame,
    /// The main line, normalised.
    pub moves: Vec<String>,
    /// Its variations, normalised and canonical.
    pub variations: Vec<Variation>,
    /// A sentence when variations repeating a line were merged into it.
    pub note: Option<String>,
}

/// Checks a game tree (the main line and its variations) from the start of `spec`: every move
/// replayed, every variation from its branch position; gives its canonical form (see the module
/// doc).
///
/// # Errors
/// As [`replay`] for the main line; [`RecordError::Variation`] and
/// [`RecordError::VariationMove`] for the variations.
pub fn check_tree(spec: &str, moves: &[String], variations: &[Variation]) -> Result<CheckedTree, RecordError> {
    let (game, main) = replay(spec, moves)?;
    if variations.is_empty() {
        return Ok(CheckedTree { game, moves: main, variations: Vec::new(), note: None });
    }
    let start = AnyGame::from_spec(spec)?;
    let vars = check_variations(&start, 0, &main, variations, &mut Vec::new())?;
    let (canon, variations, merged) = canonical(&main, &vars)?;
    let note = (merged > 0).then(|| format!("{merged} variation(s) repeating a line already in the record were merged into it"));
    if canon == main {
        return Ok(CheckedTree { game, moves: main, variations, note });
    }
    // A merged variation continued the main line past its end.
    let (game, canon) = replay(spec, &canon)?;
    Ok(CheckedTree { game, moves: canon, variations, note })
}

/// Reads a move list in our notation (see the module doc), checked by replaying it.
///
/// # Errors
/// [`RecordError::TooLong`] past [`MAX_RECORD_BYTES`], [`RecordError::Empty`], [`RecordError::Spec`] or [`RecordError::Move`] (index and text of
/// the first bad move).
pub fn parse_move_list(text: &str) -> Result<Record, RecordError> {
    check_length(text)?;
    let mut tokens = text
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .flat_map(|l| l.split(|c: char| c.is_whitespace() || c == ','))
        .filter(|t| !t.is_empty());
    let spec = tokens.next().ok_or(RecordError::Empty)?;
    let moves: Vec<String> = tokens
        .filter(|t| !(t.ends_with('.') && t[..t.len() - 1].bytes().all(|b| b.is_ascii_digit()) && t.len() > 1))
        .map(str::to_string)
        .collect();
    let (g, moves) = replay(spec, &moves)?;
    Ok(Record { spec: g.spec(), moves, notes: Vec::new(), variations: Vec::new() })
}

/// Writes a move list: the spec on the first line, the moves space-separated on the second.
/// The moves are replayed first so only legal records are written. The format has no
/// variations: a caller with some says that only the main line is written.
///
/// # Errors
/// As [`replay`].
pub fn write_move_list(spec: &str, moves: &[String]) -> Result<String, RecordError> {
    let (g, moves) = replay(spec, moves)?;
    Ok(format!("{}\n{}\n", g.spec(), moves.join(" ")))
}

// ---- SGF ----------------------------------------------------------------------------------

/// Deepest nesting of SGF variations read: 1,000. Every level holds at least one node, and no
/// line of a game has more than 363 nodes (the root and 362 moves of Hex 19×19 with swap), so
/// no real record comes near; the limit keeps the recursive reader within a WebAssembly stack
/// (1 MB), where a deeper nesting would trap and kill the worker.
pub const MAX_SGF_DEPTH: usize = 1_000;

/// One SGF node: properties in the order read, each with its values.
type Node = Vec<(String, Vec<String>)>;

/// A parsed game tree: a sequence of nodes and the variations after it.
struct Tree {
    nodes: Vec<Node>,
    children: Vec<Tree>,
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn err(&self, syntax: SgfSyntax) -> RecordError {
        RecordError::Sgf(SgfError::Syntax { syntax, at: self.i + 1 })
    }
    fn skip_ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }
    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.s.get(self.i).copied()
    }
    fn tree(&mut self, depth: usize) -> Result<Tree, RecordError> {
        if depth > MAX_SGF_DEPTH {
            return Err(self.err(SgfSyntax::TooDeep));
        }
        if self.peek() != Some(b'(') {
            return Err(self.err(SgfSyntax::NoOpenParen));
        }
        self.i += 1;
        let mut nodes = Vec::new();
        while self.peek() == Some(b';') {
            self.i += 1;
            nodes.push(self.node()?);
        }
        if nodes.is_empty() {
            return Err(self.err(SgfSyntax::NoNode));
        }
        let mut children = Vec::new();
        while self.peek() == Some(b'(') {
            children.push(self.tree(depth + 1)?);
        }
        match self.peek() {
            Some(b')') => {
                self.i += 1;
                Ok(Tree { nodes, children })
            }
            None => Err(self.err(SgfSyntax::NotClosed)),
            Some(c) => Err(self.err(SgfSyntax::Unexpected(c as char))),
        }
    }
    fn node(&mut self) -> Result<Node, RecordError> {
        let mut props = Vec::new();
        loop {
            match self.peek() {
                Some(c) if c.is_ascii_alphabetic() => {
                    let start = self.i;
                    while self.i < self.s.len() && self.s[self.i].is_ascii_alphabetic() {
                        self.i += 1;
                    }
                    // FF[1]-style lower-case letters in identifiers are ignored (SGF FF4 §3.2).
                    let ident: String = self.s[start..self.i].iter().filter(|b| b.is_ascii_uppercase()).map(|&b| b as char).collect();
                    let mut values = Vec::new();
                    while self.peek() == Some(b'[') {
                        self.i += 1;
                        values.push(self.value()?);
                    }
                    if values.is_empty() {
                        return Err(self.err(SgfSyntax::NoValue(ident)));
                    }
                    props.push((ident, values));
                }
                _ => return Ok(props),
            }
        }
    }
    fn value(&mut self) -> Result<String, RecordError> {
        let mut out = Vec::new();
        while self.i < self.s.len() {
            let c = self.s[self.i];
            self.i += 1;
            match c {
                b']' => return Ok(String::from_utf8_lossy(&out).into_owned()),
                b'\\' if self.i < self.s.len() => {
                    out.push(self.s[self.i]);
                    self.i += 1;
                }
                _ => out.push(c),
            }
        }
        Err(self.err(SgfSyntax::ValueNotClosed))
    }
}

/// Reads an SGF point or move value into our notation: `a1`-style (HexGui), the Little Golem
/// two-letter form `aa`, or the swap move.
///
/// # Errors
/// [`SgfPointError`] for things we cannot play (`swap-sides`, `pass`, a point off the board).
fn sgf_point(v: &str, size: usize) -> Result<String, SgfPointError> {
    let t = v.trim().to_ascii_lowercase();
    match t.as_str() {
        "swap-pieces" | "swap" => return Ok("swap".into()),
        "swap-sides" => return Err(SgfPointError::SwapSides),
        "pass" | "forfeit" | "" => return Err(SgfPointError::NotAMove(t)),
        _ => {}
    }
    let b = t.as_bytes();
    if b.len() == 2 && b[0].is_ascii_lowercase() && b[1].is_ascii_lowercase() {
        let (c, r) = ((b[0] - b'a') as usize, (b[1] - b'a') as usize);
        if c >= size || r >= size {
            return Err(SgfPointError::OffBoard { point: t, size });
        }
        return Ok(crate::game::cell_name(r, c));
    }
    Ok(crate::game::parse_cell(&t, size, size).map(|(r, c)| crate::game::cell_name(r, c))?)
}

/// Whether an SGF game tree holds a move (`B` or `W`) anywhere.
fn has_move(t: &Tree) -> bool {
    t.nodes.iter().any(|n| n.iter().any(|(k, _)| k == "B" || k == "W")) || t.children.iter().any(has_move)
}

/// The error for SGF move `abs` (0-based in the game) of the line at `path` (empty: the main line).
fn move_error(path: &[usize], abs: usize, text: String, reason: MoveFault) -> RecordError {
    match path.last() {
        None => RecordError::Move { index: abs + 1, text, reason },
        Some(&p) => RecordError::VariationMove { path: path.to_vec(), index: abs + 2 - p, text, reason },
    }
}

/// Reads the lines of an SGF game tree ([`SgfLines::line`]); `swap` turns on with a swap move.
struct SgfLines<'a> {
    size: usize,
    swap: bool,
    notes: &'a mut Vec<String>,
}

impl SgfLines<'_> {
    /// The moves of an SGF line: the nodes of `tree`, then of its first child with a move, and so
    /// on; every other child with a move is a variation, read recursively. `moves` holds the
    /// line's moves so far (the setup stones for the main line, whose root's setup `main_root`
    /// says was read), `base` the game's moves before it, `path` where the enclosing variations
    /// start.
    fn line(
        &mut self,
        tree: &Tree,
        main_root: bool,
        mut moves: Vec<String>,
        base: usize,
        path: &mut Vec<usize>,
    ) -> Result<(Vec<String>, Vec<Variation>), RecordError> {
        let mut vars = Vec::new();
        let mut t = tree;
        // Node number along the line (1-based, the root is 1), for SetupAfterMoves.
        let mut node_no = 0;
        'line: loop {
            for (n, node) in t.nodes.iter().enumerate() {
                node_no += 1;
                let setup_read = main_root && node_no == 1 && n == 0;
                if !setup_read && node.iter().any(|(k, _)| k == "AB" || k == "AW" || k == "AE") {
                    return Err(if path.is_empty() {
                        SgfError::SetupAfterMoves { node: node_no }.into()
                    } else {
                        RecordError::Variation { path: path.clone(), fault: VariationFault::Setup }
                    });
                }
                for (k, v) in node.iter() {
                    if k != "B" && k != "W" {
                        continue;
                    }
                    let abs = base + moves.len();
                    let want = if abs.is_multiple_of(2) { "B" } else { "W" };
                    if k != want {
                        return Err(move_error(path, abs, format!("{k}[{}]", v[0]), MoveFault::Turn { want, got: k.clone() }));
                    }
                    if v[0].trim().eq_ignore_ascii_case("resign") {
                        if path.is_empty() {
                            self.notes.push(format!(
                                "{} resigned at move {}; the record ends there",
                                if k == "B" { "Black" } else { "White" },
                                abs + 1
                            ));
                        }
                        break 'line;
                    }
                    let mv = sgf_point(&v[0], self.size).map_err(|e| move_error(path, abs, v[0].clone(), e.into()))?;
                    if mv == "swap" {
                        self.swap = true;
                    }
                    moves.push(mv);
                }
            }
            let mut kids = t.children.iter().filter(|c| has_move(c));
            let Some(next) = kids.next() else { break };
            for other in kids {
                path.push(base + moves.len() + 1);
                if path.len() > MAX_VARIATION_DEPTH {
                    return Err(RecordError::Variation { path: path.clone(), fault: VariationFault::TooDeep });
                }
                let (m, v) = self.line(other, false, Vec::new(), base + moves.len(), path)?;
                path.pop();
                if !m.is_empty() {
                    vars.push(Variation { at: moves.len(), moves: m, variations: v });
                }
            }
            t = next;
        }
        Ok((moves, vars))
    }
}

/// Reads a Hex SGF record (HexGui conventions; see the module doc): the main line and every
/// variation, each replayed from its branch position.
///
/// # Errors
/// [`RecordError::TooLong`] past [`MAX_RECORD_BYTES`]; [`RecordError::Sgf`] for malformed text, a game other than Hex, a non-square or unsupported
/// size, setup stones or moves we cannot represent; [`RecordError::Move`] for an illegal move
/// (1-based index among the moves); [`RecordError::VariationMove`] and [`RecordError::Variation`]
/// for a bad variation.
pub fn parse_sgf(text: &str) -> Result<Record, RecordError> {
    check_length(text)?;
    let start = text.find('(').ok_or(SgfError::NoGameTree)?;
    let mut p = Parser { s: text.as_bytes(), i: start };
    let tree = p.tree(0)?;
    let mut notes = Vec::new();
    if p.peek() == Some(b'(') {
        notes.push("the file holds more than one game; only the first was read".into());
    }
    let root = &tree.nodes[0];
    let get = |n: &Node, k: &str| n.iter().find(|(i, _)| i == k).map(|(_, v)| v.clone());
    match get(root, "GM") {
        Some(v) if v[0].trim() == "11" => {}
        Some(v) => return Err(SgfError::NotHex { gm: v[0].trim().to_string() }.into()),
        None => notes.push("no GM property: read as Hex (GM[11])".into()),
    }
    let size = match get(root, "SZ") {
        None => return Err(SgfError::NoSize.into()),
        Some(v) => {
            let s = v[0].trim();
            let (w, h) = match s.split_once(':') {
                Some((w, h)) => (w.trim(), h.trim()),
                None => (s, s),
            };
            let (w, h): (usize, usize) = match (w.parse(), h.parse()) {
                (Ok(w), Ok(h)) => (w, h),
                _ => return Err(SgfError::BadSize { sz: s.to_string() }.into()),
            };
            if w != h {
                return Err(SgfError::NotSquare { sz: s.to_string(), w, h }.into());
            }
            if !(1..=19).contains(&w) {
                return Err(SgfError::SizeOutOfRange { sz: s.to_string() }.into());
            }
            w
        }
    };
    let swap_rule = get(root, "RU").is_some_and(|v| v[0].to_ascii_lowercase().contains("swap"));
    let mut moves: Vec<String> = Vec::new();
    // Setup stones in the root: representable as alternating moves (see the module doc).
    let ab = get(root, "AB").unwrap_or_default();
    let aw = get(root, "AW").unwrap_or_default();
    if get(root, "AE").is_some() {
        return Err(SgfError::RemoveStones.into());
    }
    if !ab.is_empty() || !aw.is_empty() {
        if !(ab.len() == aw.len() || ab.len() == aw.len() + 1) {
            return Err(SgfError::SetupCounts { black: ab.len(), white: aw.len() }.into());
        }
        let pt = |v: &String| sgf_point(v, size).map_err(|e| RecordError::Sgf(SgfError::SetupStone(e)));
        for (k, b) in ab.iter().enumerate() {
            moves.push(pt(b)?);
            if let Some(w) = aw.get(k) {
                moves.push(pt(w)?);
            }
        }
        if moves.iter().any(|m| m == "swap") {
            return Err(SgfError::SwapAsSetup.into());
        }
        notes.push(format!("setup stones (AB {}, AW {}) were read as moves, Black first, in the order given", ab.len(), aw.len()));
    }
    if let Some(pl) = get(root, "PL") {
        let want = if moves.len().is_multiple_of(2) { "B" } else { "W" };
        if !pl[0].trim().eq_ignore_ascii_case(want) {
            return Err(SgfError::PlayerToMove { pl: pl[0].trim().to_string(), want }.into());
        }
    }
    // The main line from the root (its setup read above; a B/W in the root, not HexGui's way, is
    // read as a move after it).
    let mut lines = SgfLines { size, swap: swap_rule, notes: &mut notes };
    let (main, vars) = lines.line(&tree, true, moves, 0, &mut Vec::new())?;
    let spec = if lines.swap { format!("hex:{size}:swap") } else { format!("hex:{size}") };
    let t = check_tree(&spec, &main, &vars)?;
    notes.extend(t.note);
    let (moves, variations) = (t.moves, t.variations);
    let g = AnyGame::from_spec(&spec)?;
    Ok(Record { spec: g.spec(), moves, notes, variations })
}

/// Writes a Hex record as SGF the way HexGui does (`hexgui/sgf/SgfWriter.java`): the root
/// `FF[4]GM[11]SZ[n]AP[..]`, then one `;B[..]`/`;W[..]` node per move (swap as `swap-pieces`);
/// at a branch point the continuation and then each variation in its own parentheses,
/// `(;B[a1];W[b2])(;B[c3])`, the main line first; lines broken before 72 characters as HexGui
/// does. Adds `RU[swap]` when the swap rule is on and `RE[B+]`/`RE[W+]` once the main line's game
/// is over. `variations` are those of the main line (canonical form written: see the module doc).
///
/// # Errors
/// [`RecordError::Sgf`] for a game other than Hex; as [`check_tree`] for bad moves or variations.
pub fn write_sgf(spec: &str, moves: &[String], variations: &[Variation]) -> Result<String, RecordError> {
    let CheckedTree { game: g, moves, variations, .. } = check_tree(spec, moves, variations)?;
    let AnyGame::Hex(h) = &g else {
        return Err(SgfError::ExportNotHex { spec: g.spec() }.into());
    };
    let size = h.view().rows;
    let mut header = format!("(;FF[4]GM[11]SZ[{size}]AP[mcts-playground:{}]", env!("CARGO_PKG_VERSION"));
    if h.swap_enabled() {
        header.push_str("RU[swap]");
    }
    if let Some(o) = g.outcome() {
        match o.winner() {
            Some(0) => header.push_str("RE[B+]"),
            Some(_) => header.push_str("RE[W+]"),
            None => header.push_str("RE[0]"),
        }
    }
    let mut w = SgfWriter { out: String::new(), line: 0 };
    w.print(&header);
    w.nodes(&moves, 0, &variations);
    w.print(")");
    w.out.push('\n');
    Ok(w.out)
}

/// HexGui's SGF output: `print` starts a new line when the current one would pass 72 characters.
struct SgfWriter {
    out: String,
    line: usize,
}

impl SgfWriter {
    fn print(&mut self, s: &str) {
        if self.line > 0 && self.line + s.len() > 72 {
            self.out.push('\n');
            self.line = 0;
        }
        self.out.push_str(s);
        self.line += s.len();
    }
    /// The nodes of a line whose first move is move `base + 1`, with its variations: at a branch
    /// point, the rest of the line in parentheses, then each variation in its own.
    fn nodes(&mut self, moves: &[String], base: usize, vars: &[Variation]) {
        let mut branches: Vec<(usize, Vec<&Variation>)> = Vec::new();
        for (i, m) in moves.iter().enumerate() {
            let here: Vec<&Variation> = vars.iter().filter(|v| v.at == i).collect();
            if !here.is_empty() {
                self.print("(");
                branches.push((i, here));
            }
            let colour = if (base + i).is_multiple_of(2) { 'B' } else { 'W' };
            let v = if m == "swap" { "swap-pieces" } else { m.as_str() };
            self.print(&format!(";{colour}[{v}]"));
        }
        // Close the branch points innermost first, each followed by its variations.
        while let Some((i, here)) = branches.pop() {
            self.print(")");
            for v in here {
                self.print("(");
                self.nodes(&v.moves, base + i, &v.variations);
                self.print(")");
            }
        }
    }
}

/// Reads any record: SGF when the text (trimmed) starts with `(`, the page's game JSON when it
/// starts with `{`, else a move list.
///
/// # Errors
/// As [`parse_sgf`], [`parse_game_json`] or [`parse_move_list`].
pub fn parse_any(text: &str) -> Result<Record, RecordError> {
    let t = text.trim_start();
    if t.starts_with('(') {
        parse_sgf(text)
    } else if t.starts_with('{') {
        parse_game_json(text)
    } else {
        parse_move_list(text)
    }
}

/// The page's game JSON (`{"format": "mcts-playground-game", "game": SPEC, "moves": [...],
/// "variations": [...]}`, `www/src/share/records.ts`; its other keys — searches, notes — are not
/// read): its spec, main line and optional variations ([`Variation`]'s shape), replayed, checked
/// and written in the game's notation (canonical form: see the module doc).
///
/// # Errors
/// [`RecordError::TooLong`]; [`RecordError::GameJson`] for text that is not such a JSON (not
/// JSON, another `format`, no `game`, `moves` not a list of strings, `variations` not a list of
/// variations); as [`check_tree`] for a bad spec, move or variation.
pub fn parse_game_json(text: &str) -> Result<Record, RecordError> {
    check_length(text)?;
    let bad = |m: &str| RecordError::GameJson(m.to_string());
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| RecordError::GameJson(format!("not JSON: {e}")))?;
    if v.get("format").and_then(|f| f.as_str()) != Some("mcts-playground-game") {
        return Err(bad("a JSON record must have \"format\": \"mcts-playground-game\""));
    }
    let spec = v.get("game").and_then(|g| g.as_str()).ok_or_else(|| bad("it has no \"game\" spec"))?;
    let moves: Vec<String> = v
        .get("moves")
        .and_then(|m| m.as_array())
        .ok_or_else(|| bad("it has no \"moves\" list"))?
        .iter()
        .map(|m| m.as_str().map(str::to_string).ok_or_else(|| bad("\"moves\" must be a list of moves")))
        .collect::<Result<_, _>>()?;
    let variations: Vec<Variation> = match v.get("variations") {
        None | Some(serde_json::Value::Null) => Vec::new(),
        Some(x) => serde_json::from_value(x.clone()).map_err(|e| {
            RecordError::GameJson(format!("\"variations\" must be a list of variations {{\"at\", \"moves\", \"variations\"}}: {e}"))
        })?,
    };
    let t = check_tree(spec, &moves, &variations)?;
    Ok(Record { spec: t.game.spec(), moves: t.moves, notes: t.note.into_iter().collect(), variations: t.variations })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_list_tolerates_whitespace_commas_numbers_comments() {
        let r = parse_move_list("# a game\n  hex:7 \n\n1. d4,  c5\n2. E3\t").unwrap();
        assert_eq!(r.spec, "hex:7");
        assert_eq!(r.moves, vec!["d4", "c5", "e3"]);
    }

    #[test]
    fn move_list_errors_name_index_and_move() {
        let e = parse_move_list("tictactoe\nb2 b2").unwrap_err();
        assert!(matches!(&e, RecordError::Move { index: 2, text, .. } if text == "b2"), "{e}");
        let e = parse_move_list("hex:7 d4 z9").unwrap_err();
        assert!(e.to_string().starts_with("move 2 'z9'"), "{e}");
        assert_eq!(parse_move_list("   \n").unwrap_err(), RecordError::Empty);
        assert!(matches!(parse_move_list("chess e4"), Err(RecordError::Spec(_))));
    }

    #[test]
    fn sgf_points_and_little_golem_form() {
        assert_eq!(sgf_point("d4", 7).unwrap(), "d4");
        assert_eq!(sgf_point("cb", 7).unwrap(), "c2");
        assert_eq!(sgf_point("swap-pieces", 7).unwrap(), "swap");
        assert!(sgf_point("swap-sides", 7).is_err());
        assert!(sgf_point("h1", 7).is_err());
    }

    #[test]
    fn sgf_round_trip_with_swap() {
        let moves: Vec<String> = ["c3", "swap", "d4", "e2"].iter().map(|s| s.to_string()).collect();
        let sgf = write_sgf("hex:7:swap", &moves, &[]).unwrap();
        assert!(sgf.contains("W[swap-pieces]"), "{sgf}");
        let r = parse_sgf(&sgf).unwrap();
        assert_eq!(r.spec, "hex:7:swap");
        assert_eq!(r.moves, moves);
        assert!(r.notes.is_empty());
    }
}
