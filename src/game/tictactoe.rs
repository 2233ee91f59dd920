//! Tic-Tac-Toe: the reference game. Read this file first to add a new game.
//!
//! Rules: a 3×3 board; `X` (player 0) and `O` (player 1) alternately place a stone on an empty
//! cell; three in a row, column or diagonal wins; a full board without a line is a draw.
//!
//! Representation: one 9-bit mask per player, bit `i` = cell `i = 3·row + col` (row 0 on top),
//! as in OpenSpiel. A move is the cell index (0..9), which is also its dense index.

use super::registry::{Choice, EndgameRefusal, ExactSolverKind, GameFacts, Registered, SolverFacts};
use super::{cell_name, parse_cell, zobrist_key, BoardView, Game, MoveError, MoveList, MoveSink, Outcome, Player};
use crate::rng::Rng64;

/// The eight winning lines as 9-bit masks.
pub const LINES: [u16; 8] =
    [0b000_000_111, 0b000_111_000, 0b111_000_000, 0b001_001_001, 0b010_010_010, 0b100_100_100, 0b100_010_001, 0b001_010_100];

const FULL: u16 = 0b111_111_111;

/// `HAS_LINE[mask]`: whether a 9-bit stone mask contains a full line (computed at compile time).
const HAS_LINE: [bool; 512] = {
    let mut t = [false; 512];
    let mut m = 0;
    while m < 512 {
        let mut i = 0;
        while i < 8 {
            if m as u16 & LINES[i] == LINES[i] {
                t[m] = true;
            }
            i += 1;
        }
        m += 1;
    }
    t
};

/// Zobrist keys: `KEYS[player][cell]` for a stone of `player` on `cell`.
const KEYS: [[u64; 9]; 2] = {
    let mut k = [[0u64; 9]; 2];
    let mut c = 0;
    while c < 9 {
        k[0][c] = zobrist_key(0x7777_0000 + c as u64);
        k[1][c] = zobrist_key(0x7777_0010 + c as u64);
        c += 1;
    }
    k
};

#[inline(always)]
fn key(player: Player, cell: usize) -> u64 {
    KEYS[player as usize][cell]
}

/// Key XORed in when player 1 is to move.
const SIDE_KEY: u64 = zobrist_key(0x7777_FFFF);

/// A Tic-Tac-Toe position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TicTacToe {
    /// Stones of player 0 and player 1 as 9-bit masks.
    stones: [u16; 2],
    to_move: Player,
    outcome: Option<Outcome>,
    last: Option<u8>,
    hash: u64,
}

impl TicTacToe {
    /// The empty board, `X` to move.
    pub fn new() -> Self {
        TicTacToe::default()
    }

    /// The stones of `player` as a 9-bit mask.
    pub fn stones(&self, player: Player) -> u16 {
        self.stones[player as usize]
    }

    fn empty(&self) -> u16 {
        FULL & !(self.stones[0] | self.stones[1])
    }

    /// Empty cells that would complete a line of `player`, ascending (none once the game is over).
    fn completing_cells(&self, player: Player, out: &mut MoveList<u8>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        let stones = self.stones[player as usize];
        let mut e = self.empty();
        while e != 0 {
            let c = e.trailing_zeros() as u8;
            if HAS_LINE[(stones | (1 << c)) as usize] {
                out.push(c);
            }
            e &= e - 1;
        }
    }

    /// The cells of the first full line of `player`, if any.
    fn line_of(&self, player: Player) -> Option<u16> {
        LINES.iter().copied().find(|&l| self.stones[player as usize] & l == l)
    }
}

impl Registered for TicTacToe {
    const FACTS: GameFacts = GameFacts {
        name: "tictactoe",
        title: "Tic-Tac-Toe",
        aliases: &["tic_tac_toe", "ttt"],
        syntax: "tictactoe",
        default_spec: "tictactoe",
        examples: &["tictactoe"],
        test_specs: &[],
        choices: &[Choice { spec: "tictactoe", label: "Tic-Tac-Toe" }],
        players: ["x", "o"],
        goals: ["", ""],
        rules: "Three in a row wins.",
        draws: true,
        sizes: None,
        notation: "a cell: column letter and row number, row 1 on top (b2)",
        example_moves: "b2 a1 c3",
        solver: Some(SolverFacts {
            kind: ExactSolverKind::AlphaBeta,
            takes: "every position",
            max_side: None,
            max_empty: None,
            swap: false,
        }),
        net_input: true,
        patterns: false,
    };

    /// Tic-Tac-Toe takes no options.
    fn from_options(options: &[&str]) -> Result<Self, String> {
        match options.first() {
            Some(extra) => Err(format!("tictactoe takes no options, got '{}'", crate::limits::abbreviate(extra))),
            None => Ok(TicTacToe::new()),
        }
    }

    /// Every position: 2^14 entries hold the 5,478 positions of the game.
    fn endgame_table_log2(&self) -> Result<u32, EndgameRefusal> {
        Ok(14)
    }
}

impl Game for TicTacToe {
    type Move = u8;

    fn spec(&self) -> String {
        "tictactoe".into()
    }
    fn move_space(&self) -> usize {
        9
    }
    fn move_index(&self, m: u8) -> usize {
        m as usize
    }
    fn move_from_index(&self, index: usize) -> Option<u8> {
        (index < 9).then_some(index as u8)
    }
    fn to_move(&self) -> Player {
        self.to_move
    }
    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    fn ply(&self) -> usize {
        (self.stones[0] | self.stones[1]).count_ones() as usize
    }

    fn legal_moves(&self, out: &mut MoveList<u8>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        let mut e = self.empty();
        while e != 0 {
            out.push(e.trailing_zeros() as u8);
            e &= e - 1;
        }
    }

    fn legal_moves_only_shrink(&self) -> bool {
        true
    }

    fn is_legal(&self, m: u8) -> bool {
        self.outcome.is_none() && m < 9 && self.empty() & (1 << m) != 0
    }

    #[inline]
    fn play_unchecked(&mut self, m: u8) {
        debug_assert!(self.is_legal(m));
        let p = self.to_move;
        let s = self.stones[p as usize] | (1 << m);
        self.stones[p as usize] = s;
        self.hash ^= key(p, m as usize) ^ SIDE_KEY;
        self.last = Some(m);
        self.to_move = 1 - p;
        if HAS_LINE[s as usize] {
            self.outcome = Some(Outcome::Win(p));
        } else if self.stones[0] | self.stones[1] == FULL {
            self.outcome = Some(Outcome::Draw);
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    /// Both colours' 9-bit stone sets.
    fn exact_key(&self) -> Option<u128> {
        Some(self.stones[0] as u128 | (self.stones[1] as u128) << 16)
    }

    /// The hash from the stone sets (X moves first, so O is to move when X has more stones).
    fn hash_of_exact_key(&self, key: u128) -> Option<u64> {
        let mut g = *self;
        g.stones = [(key & 0xFFFF) as _, (key >> 16 & 0xFFFF) as _];
        g.to_move = Player::from(g.stones[0].count_ones() > g.stones[1].count_ones());
        Some(g.hash_from_scratch())
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = if self.to_move == 1 { SIDE_KEY } else { 0 };
        for p in 0..2u8 {
            for c in 0..9 {
                if self.stones[p as usize] & (1 << c) != 0 {
                    h ^= key(p, c);
                }
            }
        }
        h
    }

    fn parse_move(&self, text: &str) -> Result<u8, MoveError> {
        parse_cell(text, 3, 3).map(|(r, c)| (3 * r + c) as u8).map_err(|e| MoveError::Parse { text: text.to_string(), reason: e.into() })
    }

    fn format_move(&self, m: u8) -> String {
        cell_name(m as usize / 3, m as usize % 3)
    }

    fn board_string(&self) -> String {
        let mut s = String::with_capacity(11);
        for c in 0..9 {
            if c > 0 && c % 3 == 0 {
                s.push('/');
            }
            s.push(if self.stones[0] & (1 << c) != 0 {
                'X'
            } else if self.stones[1] & (1 << c) != 0 {
                'O'
            } else {
                '.'
            });
        }
        s
    }

    fn cell_owners(&self, out: &mut [i8]) {
        for (c, o) in out.iter_mut().enumerate().take(9) {
            *o = if self.stones[0] & (1 << c) != 0 {
                0
            } else if self.stones[1] & (1 << c) != 0 {
                1
            } else {
                -1
            };
        }
    }

    fn view(&self) -> BoardView {
        let cells = (0..9)
            .map(|c| {
                if self.stones[0] & (1 << c) != 0 {
                    0
                } else if self.stones[1] & (1 << c) != 0 {
                    1
                } else {
                    -1
                }
            })
            .collect();
        let winning = match self.outcome {
            Some(Outcome::Win(p)) => self.line_of(p).unwrap_or(0),
            _ => 0,
        };
        BoardView {
            kind: "tictactoe".into(),
            spec: self.spec(),
            rows: 3,
            cols: 3,
            cells,
            to_move: self.outcome.is_none().then_some(self.to_move),
            last_move: self.last.map(|m| self.format_move(m)),
            last_cells: self.last.map(|m| vec![m as usize]).unwrap_or_default(),
            winning_cells: (0..9).filter(|c| winning & (1 << c) != 0).collect(),
            outcome: self.outcome,
            ply: self.ply(),
        }
    }

    /// Fast path: draw cells from the empty set without building move lists, on local masks.
    fn random_playout<T: MoveSink<u8>>(&mut self, rng: &mut Rng64, trace: &mut T) -> Outcome {
        if let Some(o) = self.outcome {
            return o;
        }
        let mut cells = [0u8; 9];
        let mut n = 0;
        let mut e = self.empty();
        while e != 0 {
            cells[n] = e.trailing_zeros() as u8;
            n += 1;
            e &= e - 1;
        }
        let mut stones = self.stones;
        let mut p = self.to_move as usize;
        let mut hash = self.hash;
        let outcome = loop {
            let i = rng.index(n);
            let m = cells[i];
            n -= 1;
            cells[i] = cells[n];
            trace.push(m);
            stones[p] |= 1 << m;
            hash ^= KEYS[p][m as usize] ^ SIDE_KEY;
            self.last = Some(m);
            if HAS_LINE[stones[p] as usize] {
                break Outcome::Win(p as Player);
            }
            p ^= 1;
            if n == 0 {
                break Outcome::Draw;
            }
        };
        if let Outcome::Win(w) = outcome {
            p = 1 - w as usize;
        }
        self.stones = stones;
        self.to_move = p as Player;
        self.hash = hash;
        self.outcome = Some(outcome);
        outcome
    }

    /// A cell completes a line when the two other cells of the line are the mover's.
    fn winning_moves(&self, out: &mut MoveList<u8>) {
        self.completing_cells(self.to_move, out);
    }

    fn threats(&self, out: &mut MoveList<u8>) {
        self.completing_cells(1 - self.to_move, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_all(moves: &str) -> TicTacToe {
        let mut g = TicTacToe::new();
        for m in moves.split_whitespace() {
            g.play_text(m).unwrap();
        }
        g
    }

    #[test]
    fn row_wins_and_board_string() {
        let g = play_all("a1 a2 b1 b2 c1");
        assert_eq!(g.outcome(), Some(Outcome::Win(0)));
        assert_eq!(g.board_string(), "XXX/OO./...");
        assert_eq!(g.view().winning_cells, vec![0, 1, 2]);
    }

    #[test]
    fn full_board_draw() {
        let g = play_all("a1 b1 c1 b2 a2 a3 b3 c2 c3");
        assert_eq!(g.outcome(), Some(Outcome::Draw));
    }

    #[test]
    fn illegal_moves_leave_state() {
        let mut g = play_all("b2");
        let before = g;
        assert!(matches!(g.play_text("b2"), Err(MoveError::Illegal { .. })));
        assert!(matches!(g.play_text("d1"), Err(MoveError::Parse { .. })));
        assert_eq!(g, before);
    }

    #[test]
    fn move_is_one_byte() {
        assert_eq!(std::mem::size_of::<<TicTacToe as Game>::Move>(), 1);
    }
}
