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
//! Only the main line of a game tree is read (the first variation at every branch); when others
//! were dropped the record's `notes` say so.
//!
//! Every move is replayed on the game, so a record that loads is a legal game; errors name the bad
//! move, its 1-based index in the record and why ([`RecordError`]).

use crate::game::{AnyGame, CellError, Game, MoveError, MoveParseError, SpecError};
pub use crate::limits::MAX_RECORD_BYTES;

/// [`RecordError::TooLong`] when `text` is longer than [`MAX_RECORD_BYTES`].
fn check_length(text: &str) -> Result<(), RecordError> {
    if text.len() > MAX_RECORD_BYTES {
        return Err(RecordError::TooLong { len: text.len(), max: MAX_RECORD_BYTES });
    }
    Ok(())
}

/// A game record: the spec and the moves (normalised: as the game writes them), plus notes about
/// what the reader did (dropped variations, setup stones read as moves, a resignation).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Record {
    /// Normalised game spec, e.g. `hex:7`, `hex:11:swap`.
    pub spec: String,
    /// Moves from the start in the game's notation.
    pub moves: Vec<String>,
    /// Sentences about what the reader changed or left out (empty when nothing).
    pub notes: Vec<String>,
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
    /// The text is longer than [`MAX_RECORD_BYTES`]; nothing was read.
    #[error("the record is {len} bytes long; records of at most {max} bytes are read")]
    TooLong {
        /// Its length in bytes.
        len: usize,
        /// The limit, [`MAX_RECORD_BYTES`].
        max: usize,
    },
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
    let mut g = AnyGame::from_spec(spec)?;
    let mut out = Vec::with_capacity(moves.len());
    for (i, m) in moves.iter().enumerate() {
        let before = g.clone();
        let idx = g.play_text(m).map_err(|e| RecordError::Move { index: i + 1, text: m.clone(), reason: e.into() })?;
        out.push(before.format_index(idx).unwrap_or_else(|| m.clone()));
    }
    Ok((g, out))
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
    Ok(Record { spec: g.spec(), moves, notes: Vec::new() })
}

/// Writes a move list: the spec on the first line, the moves space-separated on the second.
/// The moves are replayed first so only legal records are written.
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

/// Reads a Hex SGF record (HexGui conventions; see the module doc). Only the main line is read.
///
/// # Errors
/// [`RecordError::TooLong`] past [`MAX_RECORD_BYTES`]; [`RecordError::Sgf`] for malformed text, a game other than Hex, a non-square or unsupported
/// size, setup stones or moves we cannot represent; [`RecordError::Move`] for an illegal move
/// (1-based index among the moves).
pub fn parse_sgf(text: &str) -> Result<Record, RecordError> {
    check_length(text)?;
    let start = text.find('(').ok_or(SgfError::NoGameTree)?;
    let mut p = Parser { s: text.as_bytes(), i: start };
    let tree = p.tree(0)?;
    let mut notes = Vec::new();
    if p.peek() == Some(b'(') {
        notes.push("the file holds more than one game; only the first was read".into());
    }
    // The main line: the first variation at every branch.
    let mut line: Vec<&Node> = Vec::new();
    let mut t = &tree;
    let mut dropped = 0;
    loop {
        line.extend(t.nodes.iter());
        if t.children.is_empty() {
            break;
        }
        dropped += t.children.len() - 1;
        t = &t.children[0];
    }
    if dropped > 0 {
        notes.push(format!("the record has variations; only the main line was read ({dropped} other variation(s) dropped)"));
    }
    let root = line[0];
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
    let mut swap_rule = get(root, "RU").is_some_and(|v| v[0].to_ascii_lowercase().contains("swap"));
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
    for (n, node) in line.iter().enumerate() {
        if n > 0 && node.iter().any(|(k, _)| k == "AB" || k == "AW" || k == "AE") {
            return Err(SgfError::SetupAfterMoves { node: n + 1 }.into());
        }
        for (k, v) in node.iter() {
            if k != "B" && k != "W" {
                continue;
            }
            let index = moves.len() + 1;
            let want = if moves.len().is_multiple_of(2) { "B" } else { "W" };
            if k != want {
                return Err(RecordError::Move { index, text: format!("{k}[{}]", v[0]), reason: MoveFault::Turn { want, got: k.clone() } });
            }
            if v[0].trim().eq_ignore_ascii_case("resign") {
                notes.push(format!("{} resigned at move {index}; the record ends there", if k == "B" { "Black" } else { "White" }));
                break;
            }
            let mv = sgf_point(&v[0], size).map_err(|e| RecordError::Move { index, text: v[0].clone(), reason: e.into() })?;
            if mv == "swap" {
                swap_rule = true;
            }
            moves.push(mv);
        }
    }
    let spec = if swap_rule { format!("hex:{size}:swap") } else { format!("hex:{size}") };
    let (g, moves) = replay(&spec, &moves)?;
    Ok(Record { spec: g.spec(), moves, notes })
}

/// Writes a Hex record as SGF the way HexGui does (root `FF[4]GM[11]SZ[n]AP[..]`, then one
/// `;B[..]`/`;W[..]` node per move, swap as `swap-pieces`), plus `RU[swap]` when the swap rule is
/// on and `RE[B+]`/`RE[W+]` once the game is over.
///
/// # Errors
/// [`RecordError::Sgf`] for a game other than Hex; as [`replay`] for bad moves.
pub fn write_sgf(spec: &str, moves: &[String]) -> Result<String, RecordError> {
    let (g, moves) = replay(spec, moves)?;
    let AnyGame::Hex(h) = &g else {
        return Err(SgfError::ExportNotHex { spec: g.spec() }.into());
    };
    let size = h.view().rows;
    let mut out = format!("(;FF[4]GM[11]SZ[{size}]AP[mcts-playground:{}]", env!("CARGO_PKG_VERSION"));
    if h.swap_enabled() {
        out.push_str("RU[swap]");
    }
    if let Some(o) = g.outcome() {
        match o.winner() {
            Some(0) => out.push_str("RE[B+]"),
            Some(_) => out.push_str("RE[W+]"),
            None => out.push_str("RE[0]"),
        }
    }
    let mut line_len = out.len();
    for (i, m) in moves.iter().enumerate() {
        let colour = if i % 2 == 0 { 'B' } else { 'W' };
        let v = if m == "swap" { "swap-pieces" } else { m.as_str() };
        let node = format!(";{colour}[{v}]");
        // HexGui breaks lines at 72 characters; so do we (whitespace between nodes is allowed).
        if line_len + node.len() > 72 {
            out.push('\n');
            line_len = 0;
        }
        line_len += node.len();
        out.push_str(&node);
    }
    out.push_str(")\n");
    Ok(out)
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

/// The page's game JSON (`{"format": "mcts-playground-game", "game": SPEC, "moves": [...]}`,
/// `www/src/share/records.ts`; its other keys — searches, notes — are not read): its spec and
/// moves, replayed and written in the game's notation.
///
/// # Errors
/// [`RecordError::TooLong`]; [`RecordError::GameJson`] for text that is not such a JSON (not
/// JSON, another `format`, no `game`, `moves` not a list of strings); as [`replay`] for a bad spec
/// or move.
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
    let (g, moves) = replay(spec, &moves)?;
    Ok(Record { spec: g.spec(), moves, notes: Vec::new() })
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
        let sgf = write_sgf("hex:7:swap", &moves).unwrap();
        assert!(sgf.contains("W[swap-pieces]"), "{sgf}");
        let r = parse_sgf(&sgf).unwrap();
        assert_eq!(r.spec, "hex:7:swap");
        assert_eq!(r.moves, moves);
        assert!(r.notes.is_empty());
    }
}
