//! Matches between two search configurations, and the statistics of their results.
//!
//! Shared by `mcts arena` and the page's arena so both give the same games for the same seeds:
//! game `i` of a match with base seed `s` is played with engine seeds derived from `(s, i)`, and
//! configuration A moves first in even-numbered games (colours alternate).
//!
//! A match may be played on a list of *openings* (move sequences from the start): game `i`
//! starts from opening `(i / 2) mod k` of the `k` openings ([`opening_of`]), so each opening is
//! played twice in a row, once with A as the first player (player 0) and once with B. Hex
//! without the swap rule is a first-player win, so a match from the empty board mostly measures
//! who moved first; every first move played with both colours gives the balanced match used in
//! the field (e.g. the opening-by-opening matches of Arneson, Hayward and Henderson, "MoHex
//! wins Hex tournament", ICGA Journal 2009). [`first_move_openings`] lists every legal first
//! move, [`parse_openings`] reads a file of openings.

use serde::{Deserialize, Serialize};

use crate::game::{AnyGame, MoveError, Outcome, SpecError};
use crate::mcts::{Budget, SearchConfig, TreeCap};

/// The result of one arena game (read back from its JSON too, for a match whose games were
/// played elsewhere: `report::Match::report`).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct GameRecord {
    /// Index of the game in the match (0-based).
    pub index: usize,
    /// Whether configuration A had the first move (player 0).
    pub a_first: bool,
    /// Moves in the game's notation, the opening's moves first.
    pub moves: Vec<String>,
    /// How many of `moves` are the opening's (given, not chosen by an engine). Absent from the
    /// JSON when the game started from the empty board.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub opening_plies: usize,
    /// Score of configuration A: 1 win, 0.5 draw, 0 loss.
    pub a_score: f64,
    /// Winner as a player number (0 moves first), `None` for a draw.
    #[cfg_attr(test, ts(type = "0 | 1 | null"))]
    pub winner: Option<u8>,
    /// A cap that held either side's tree at the end of a move (the memory cap first): the tree
    /// stopped growing there. Absent from the JSON when none did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub tree_cap: Option<crate::mcts::TreeCap>,
}

/// Why an arena game could not be played to its end.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArenaError {
    /// The game spec names no game we have.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// The search refused a configuration or a move; the message is the engine's.
    #[error("{0}")]
    Engine(String),
    /// An engine returned no move in an unfinished game.
    #[error("engine gave no move at ply {ply}")]
    NoMove {
        /// Moves played so far.
        ply: usize,
    },
    /// The game refused the move an engine chose.
    #[error("engine move {mv} refused: {source}")]
    MoveRefused {
        /// The move in the game's notation.
        mv: String,
        /// Why the game refused it.
        source: MoveError,
    },
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Why a list of openings was refused: the first bad line, with its 1-based number.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpeningsError {
    /// The game spec names no game we have.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// Move `index` (1-based) of line `line`, written `text`, is unreadable or illegal there.
    #[error("line {line}: move {index} ('{}'): {source}", crate::limits::abbreviate(text))]
    Move {
        /// 1-based line number.
        line: usize,
        /// 1-based index of the move in the line.
        index: usize,
        /// The move as written.
        text: String,
        /// Why the game refused it.
        source: MoveError,
    },
    /// The opening ends the game: no move would be left to the engines.
    #[error("line {line}: the game is over after this opening, nothing is left to play")]
    GameOver {
        /// 1-based line number.
        line: usize,
    },
    /// Every line is blank or a comment.
    #[error("no openings: every line is blank or a # comment")]
    Empty,
}

/// Every legal first move of the game `spec`, each as an opening of one move, in the order of
/// the game's dense move index (Hex n×n: the n² cells; Tic-Tac-Toe: 9; Pentago: 288, the 36
/// cells × 8 twists).
///
/// # Errors
/// A bad spec.
pub fn first_move_openings(spec: &str) -> Result<Vec<Vec<String>>, SpecError> {
    Ok(AnyGame::from_spec(spec)?.legal_moves_text().into_iter().map(|m| vec![m]).collect())
}

/// Reads openings, one a line, each a move sequence from the start in the game's notation
/// separated by spaces (as `--moves`); blank lines and lines starting with `#` are skipped (and
/// so is the rest of a line after `#`). Every line is played through to check it; the moves are
/// kept in the game's own spelling.
///
/// # Errors
/// The first bad line: an unreadable or illegal move (line number, move number and the move),
/// an opening that ends the game, or no opening at all.
pub fn parse_openings(spec: &str, text: &str) -> Result<Vec<Vec<String>>, OpeningsError> {
    let start = AnyGame::from_spec(spec)?;
    let mut openings = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line_no = n + 1;
        let body = line.split('#').next().unwrap_or("");
        if body.trim().is_empty() {
            continue;
        }
        let mut g = start.clone();
        let mut moves = Vec::new();
        for (i, m) in body.split_whitespace().enumerate() {
            let index =
                g.play_text(m).map_err(|source| OpeningsError::Move { line: line_no, index: i + 1, text: m.to_string(), source })?;
            moves.push(g.format_index(index).unwrap_or_else(|| m.to_string()));
        }
        if g.outcome().is_some() {
            return Err(OpeningsError::GameOver { line: line_no });
        }
        openings.push(moves);
    }
    if openings.is_empty() {
        return Err(OpeningsError::Empty);
    }
    Ok(openings)
}

/// The opening (an index into a list of `count` openings) of game `index`: `(index / 2) mod
/// count`, so games `2j` (A first) and `2j + 1` (B first) share one opening.
///
/// # Panics
/// Never; `count = 0` gives 0.
pub fn opening_of(index: usize, count: usize) -> usize {
    if count == 0 {
        0
    } else {
        (index / 2) % count
    }
}

impl ArenaError {
    /// An engine error as its message (works for any error type the search returns).
    fn engine(e: impl std::fmt::Display) -> ArenaError {
        ArenaError::Engine(e.to_string())
    }
}

/// The engine seed of one side in game `index` (`side` 0 = A, 1 = B) of a match seeded `seed`.
pub fn game_seed(seed: u64, index: usize, side: u64) -> u64 {
    crate::game::zobrist_key(seed.wrapping_mul(1_000_003) ^ ((index as u64) << 1) ^ side)
}

/// Plays game `index` of a match from the empty board: A moves first when `index` is even.
/// Each side keeps its own tree between moves (tree reuse through `advance_text`).
///
/// # Errors
/// [`ArenaError::Spec`] for a bad spec, [`ArenaError::Engine`] for a bad configuration,
/// [`ArenaError::NoMove`] or [`ArenaError::MoveRefused`] for an engine that fails mid-game.
pub fn play_game(
    spec: &str,
    a: &SearchConfig,
    b: &SearchConfig,
    budget: Budget,
    seed: u64,
    index: usize,
    clock: &dyn Fn() -> f64,
) -> Result<GameRecord, ArenaError> {
    play_game_from(spec, &[], a, b, budget, seed, index, clock)
}

/// Plays game `index` of a match from the position after `opening` (moves from the start, in
/// the game's notation; empty: the start position). A is the first player (player 0, who made
/// the opening's first move) when `index` is even, as in [`play_game`]; the engines search from
/// the position after the opening, whose moves begin the record.
///
/// # Errors
/// As [`play_game`]; [`ArenaError::MoveRefused`] for an opening move the game refuses.
#[allow(clippy::too_many_arguments)]
pub fn play_game_from(
    spec: &str,
    opening: &[String],
    a: &SearchConfig,
    b: &SearchConfig,
    budget: Budget,
    seed: u64,
    index: usize,
    clock: &dyn Fn() -> f64,
) -> Result<GameRecord, ArenaError> {
    let mut game = AnyGame::from_spec(spec)?;
    let mut moves = Vec::with_capacity(opening.len());
    for mv in opening {
        let i = game.play_text(mv).map_err(|source| ArenaError::MoveRefused { mv: mv.clone(), source })?;
        moves.push(game.format_index(i).unwrap_or_else(|| mv.clone()));
    }
    let opening_plies = moves.len();
    let a_first = index.is_multiple_of(2);
    let mut ca = a.clone();
    ca.seed = game_seed(seed, index, 0);
    let mut cb = b.clone();
    cb.seed = game_seed(seed, index, 1);
    let mut sa = crate::nn::search::any_search(&game, ca).map_err(ArenaError::engine)?;
    let mut sb = crate::nn::search::any_search(&game, cb).map_err(ArenaError::engine)?;
    let mut tree_cap = None;
    while game.outcome().is_none() {
        let a_to_move = (game.to_move() == 0) == a_first;
        let s = if a_to_move { &mut sa } else { &mut sb };
        s.run(budget, clock);
        tree_cap = match (tree_cap, s.tree_cap()) {
            (Some(TreeCap::MemoryCap), _) | (_, None) => tree_cap,
            (_, c) => c,
        };
        let mv = s.best_move_text().ok_or(ArenaError::NoMove { ply: game.ply() })?;
        game.play_text(&mv).map_err(|source| ArenaError::MoveRefused { mv: mv.clone(), source })?;
        sa.advance_text(&mv).map_err(ArenaError::engine)?;
        sb.advance_text(&mv).map_err(ArenaError::engine)?;
        moves.push(mv);
    }
    let outcome = game.outcome().unwrap_or(Outcome::Draw);
    let a_player = if a_first { 0 } else { 1 };
    Ok(GameRecord { index, a_first, moves, opening_plies, a_score: outcome.reward(a_player), winner: outcome.winner(), tree_cap })
}

/// Standings of configuration A against B.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Standings {
    /// Games finished.
    pub games: usize,
    /// Wins, draws and losses of A.
    pub wins: usize,
    /// Draws.
    pub draws: usize,
    /// Losses of A.
    pub losses: usize,
    /// A's score rate, draws counting one half.
    pub win_rate: f64,
    /// 95% Wilson score interval of the win rate, `[low, high]`.
    pub win_rate_ci95: [f64; 2],
    /// Elo difference A − B from the win rate, and its interval from the Wilson bounds
    /// (±inf at rates 0 or 1: null in JSON).
    #[cfg_attr(test, ts(type = "number | null"))]
    pub elo: f64,
    /// Elo interval `[low, high]` (an infinite bound: null in JSON).
    #[cfg_attr(test, ts(type = "[number | null, number | null]"))]
    pub elo_ci95: [f64; 2],
    /// Games in which A was the first player (player 0), and A's wins, draws and losses in them.
    pub a_first_games: usize,
    /// A's wins as the first player.
    pub a_first_wins: usize,
    /// Draws with A as the first player.
    pub a_first_draws: usize,
    /// A's losses as the first player (B's wins as the second player).
    pub a_first_losses: usize,
    /// Games in which A was the second player (player 1).
    pub a_second_games: usize,
    /// A's wins as the second player.
    pub a_second_wins: usize,
    /// Draws with A as the second player.
    pub a_second_draws: usize,
    /// A's losses as the second player (B's wins as the first player).
    pub a_second_losses: usize,
    /// Games won by the first player, whichever configuration it was.
    pub first_player_wins: usize,
    /// Games won by the second player.
    pub second_player_wins: usize,
}

/// The 95% Wilson score interval `[low, high]` for `successes` out of `n` games (Wilson 1927,
/// "Probable inference, the law of succession, and statistical inference", JASA 22:209–212):
/// with `p = successes / n` and z = 1.959964, `(p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n)`,
/// clamped to [0, 1]. Draws count as half a success. Returns `[0, 1]` for `n = 0`.
pub fn wilson_interval(successes: f64, n: f64) -> [f64; 2] {
    if n <= 0.0 {
        return [0.0, 1.0];
    }
    let z = 1.959_964_f64;
    let p = successes / n;
    let z2n = z * z / n;
    let centre = (p + z2n / 2.0) / (1.0 + z2n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z2n);
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

/// Elo difference for an expected score `p`, in the logistic form of the Elo model (400 points
/// for 10:1 odds; Elo 1978, "The Rating of Chessplayers, Past and Present"):
/// `D = −400 · log10(1/p − 1)`; ±infinity at p = 1 / 0; exactly +0 at p = ½ (the formula
/// gives −0, which JSON writes as `-0.0` natively but `0` from JavaScript, so the page's download
/// and `mcts arena --json` would disagree on an even match).
pub fn elo_from_rate(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        // `+ 0.0` turns −0 into +0 and changes nothing else.
        -400.0 * (1.0 / p - 1.0).log10() + 0.0
    }
}

impl Standings {
    /// Standings from a list of game records.
    pub fn from_records(records: &[GameRecord]) -> Standings {
        let mut s = Standings { games: records.len(), ..Default::default() };
        for r in records {
            let (games, wins, draws, losses) = if r.a_first {
                (&mut s.a_first_games, &mut s.a_first_wins, &mut s.a_first_draws, &mut s.a_first_losses)
            } else {
                (&mut s.a_second_games, &mut s.a_second_wins, &mut s.a_second_draws, &mut s.a_second_losses)
            };
            *games += 1;
            if r.a_score == 1.0 {
                s.wins += 1;
                *wins += 1;
            } else if r.a_score == 0.0 {
                s.losses += 1;
                *losses += 1;
            } else {
                s.draws += 1;
                *draws += 1;
            }
        }
        s.first_player_wins = s.a_first_wins + s.a_second_losses;
        s.second_player_wins = s.a_second_wins + s.a_first_losses;
        let n = s.games as f64;
        let score = s.wins as f64 + 0.5 * s.draws as f64;
        s.win_rate = if n > 0.0 { score / n } else { 0.5 };
        s.win_rate_ci95 = wilson_interval(score, n);
        s.elo = elo_from_rate(s.win_rate);
        s.elo_ci95 = [elo_from_rate(s.win_rate_ci95[0]), elo_from_rate(s.win_rate_ci95[1])];
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_hand_computation() {
        // 60 of 100: centre (0.6 + 0.019208)/1.038415 = 0.596301, half-width 0.094298.
        let [lo, hi] = wilson_interval(60.0, 100.0);
        assert!((lo - 0.502_003).abs() < 1e-5, "{lo}");
        assert!((hi - 0.690_599).abs() < 1e-5, "{hi}");
        assert_eq!(wilson_interval(0.0, 0.0), [0.0, 1.0]);
    }

    #[test]
    fn first_moves_of_each_game() {
        assert_eq!(first_move_openings("tictactoe").unwrap().len(), 9);
        assert_eq!(first_move_openings("hex:7").unwrap().len(), 49);
        assert_eq!(first_move_openings("hex:7:swap").unwrap().len(), 49, "no swap move at ply 0");
        assert_eq!(first_move_openings("pentago").unwrap().len(), 288);
        assert_eq!(first_move_openings("hex:2").unwrap(), [["a1"], ["b1"], ["a2"], ["b2"]]);
    }

    #[test]
    fn openings_pair_up_and_cycle() {
        let seq: Vec<usize> = (0..10).map(|i| opening_of(i, 3)).collect();
        assert_eq!(seq, [0, 0, 1, 1, 2, 2, 0, 0, 1, 1]);
        assert_eq!(opening_of(5, 0), 0);
    }

    #[test]
    fn openings_file_lines() {
        let ok = parse_openings("hex:3:swap", "# comment\n\n  A1 swap  # the pie rule\nb2\n").unwrap();
        assert_eq!(ok, [vec!["a1".to_string(), "swap".to_string()], vec!["b2".to_string()]]);
        let e = parse_openings("hex:3", "a1\nb2 b2\n").unwrap_err();
        assert!(matches!(&e, OpeningsError::Move { line: 2, index: 2, text, .. } if text == "b2"), "{e}");
        assert_eq!(parse_openings("hex:3", "a1 b1 a2 b2 a3").unwrap_err(), OpeningsError::GameOver { line: 1 });
        assert_eq!(parse_openings("hex:3", "#\n   \n").unwrap_err(), OpeningsError::Empty);
        assert!(matches!(parse_openings("chess", "e4"), Err(OpeningsError::Spec(_))));
    }

    #[test]
    fn standings_split_by_colour() {
        let rec = |index: usize, a_score: f64| {
            let a_first = index.is_multiple_of(2);
            let winner = match a_score {
                1.0 => Some(if a_first { 0 } else { 1 }),
                0.0 => Some(if a_first { 1 } else { 0 }),
                _ => None,
            };
            GameRecord { index, a_first, moves: vec![], opening_plies: 1, a_score, winner, tree_cap: None }
        };
        // A first: win, win, draw; A second: loss, loss, win.
        let recs = [rec(0, 1.0), rec(1, 0.0), rec(2, 1.0), rec(3, 0.0), rec(4, 0.5), rec(5, 1.0)];
        let s = Standings::from_records(&recs);
        assert_eq!((s.wins, s.draws, s.losses), (3, 1, 2));
        assert_eq!((s.a_first_games, s.a_first_wins, s.a_first_draws, s.a_first_losses), (3, 2, 1, 0));
        assert_eq!((s.a_second_games, s.a_second_wins, s.a_second_draws, s.a_second_losses), (3, 1, 0, 2));
        // First player: A's two wins as first, B's two wins as first (A's losses as second).
        assert_eq!((s.first_player_wins, s.second_player_wins), (4, 1));
    }

    #[test]
    fn elo_of_known_rates() {
        assert!((elo_from_rate(0.5)).abs() < 1e-9);
        assert!(elo_from_rate(0.5).is_sign_positive(), "an even match is +0, not −0");
        assert!((elo_from_rate(0.75) - 190.848).abs() < 1e-3);
        assert!(elo_from_rate(1.0).is_infinite());
    }
}
