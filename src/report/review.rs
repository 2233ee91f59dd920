//! `mcts review`: a whole game looked back at, as the Lichess analysis board and KaTrain do, with
//! the exact solvers' truth where they reach.
//!
//! # What is computed
//! Every position of the main line (the start, then the position after each move) is searched
//! with a preset and a per-position budget ([`ReviewSettings`]); where an exact solver takes the
//! position (every Tic-Tac-Toe position, Hex up to 8×8 without the swap rule by the proof-number
//! solver [`crate::solve::hex::dfpn`], Pentago endgames with at most
//! [`crate::solve::endgame::PENTAGO_MAX_EMPTY`] empty cells by [`crate::solve::endgame`]) it is also
//! solved within `solve_ms` milliseconds, and a proven value replaces the estimate. A finished
//! game's last position is valued by the rules. Each position's value is the win probability in
//! [0, 1] of its side to move (a draw counts ½): the root's value — the visit-weighted mean of
//! the root moves' Q, which is what the search backed up to the root, as KaTrain reads KataGo's
//! root win rate — or 1 / ½ / 0 when proven. Not the best move's Q: that is the largest of many
//! noisy means and over-states both sides alike (UCT at 10,000 playouts on Hex 11×11 gave each
//! side about 0.6, so every move read as a 0.2 loss, a blunder).
//!
//! Per move (ply `i`, from position `i` to `i + 1`, [`PlyReview`]): the mover's win probability
//! before (position `i`'s value) and after (position `i + 1`'s value seen from the mover: one
//! minus it when the other side is to move there), the loss `max(0, before − after)`, the best
//! move and principal variation of position `i`'s search, and a [`Class`]:
//! - Lichess's judgements by the drop in winning chances, thresholds 0.1 / 0.2 / 0.3 on the −1…+1
//!   scale (lila `modules/analyse/src/main/Advice.scala`, `CpAdvice.winningChanceJudgements`),
//!   i.e. a loss in win probability of at least [`INACCURACY`] 0.05, [`MISTAKE`] 0.10 and
//!   [`BLUNDER`] 0.15;
//! - `best` for the move the search preferred or a loss of at most [`BEST_LOSS`], `good`
//!   otherwise;
//! - exact overrides: a move from a proven value to a worse proven value (won → lost, won →
//!   drawn, drawn → lost) is a blunder whatever the estimates, labelled so; a move made in a
//!   position proven won that is not proven to give the win away, or made in a position already
//!   proven lost, is never classed mistake or blunder by the estimate alone (at most an
//!   inaccuracy), as Lichess passes no judgement on moves while a forced mate stands
//!   (`MateAdvice` in `Advice.scala`).
//!
//! Accuracy per player (lichess.org/page/accuracy, lila
//! `modules/analyse/src/main/AccuracyPercent.scala`): per move
//! `103.1668100711649 · exp(−0.04354415386753951 · (win%before − win%after)) − 3.166924740191411`,
//! plus 1 ("uncertainty bonus"), clamped to [0, 100], and 100 when the win % did not drop; the
//! game's figure is the mean of a volatility-weighted mean (weights: the population standard
//! deviation of a window of win % values, clamped to 0.5 ..= 12) and the harmonic mean
//! (`1 / max(1, a)` per move) of the player's moves ([`accuracy_per_move`], [`game_accuracy`];
//! lila `modules/common/src/main/Maths.scala` for the means).
//!
//! # Driven one position at a time
//! A [`Review`] holds the positions and a slot per position. Each position's search is seeded
//! [`position_seed`]`(seed, index)` and uses a fresh tree, so its result does not depend on which
//! positions were reviewed before it, nor on which worker reviewed it: a page can split the
//! positions over its engine workers ([`Review::review_position`] needs only `&self`), a review
//! stopped after some positions and continued ([`Review::insert`], [`Review::pending`]) ends
//! equal to one run straight through, and with a playout budget the figures equal
//! `mcts review --json` with the same seed. Only the exact solves depend on time (`solve_ms`): a
//! position proven in one run may be left unproven in another, never proven differently.
//!
//! This module is free of threads and clocks: the caller passes a clock in milliseconds (the
//! searches' [`Clock`]); [`review_threads`] (native only) spreads positions over threads.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{config_from, ReportError};
use crate::game::hex::MAX_SOLVE_SIZE;
use crate::game::{AnyGame, Game, Player};
use crate::limits::MAX_REQUEST_MOVES;
use crate::mcts::{Budget, Clock, Proven, SearchStats};
use crate::solve::endgame::{self, Exact, ExactConfig, ExactStats, Value};
use crate::solve::hex::dfpn::{Dfpn, DfpnConfig, DfpnStats};

/// The preset a review uses when none is named: `best`, the first of the page's preferred
/// engine presets (`www/src/app/startup.ts`, `PREFERRED_PRESETS`), which every game has.
pub const DEFAULT_PRESET: &str = "best";

/// The default per-position budget: 10,000 playouts (MCTS iterations), as every verb's.
pub const DEFAULT_ITERATIONS: u64 = 10_000;

/// The default exact-solve budget per position, in milliseconds.
pub const DEFAULT_SOLVE_MS: f64 = 1_000.0;

/// Loss in win probability from which a move is an inaccuracy: 0.05 (Lichess's 0.1 drop in
/// winning chances on the −1…+1 scale; lila `modules/analyse/src/main/Advice.scala`).
pub const INACCURACY: f64 = 0.05;
/// Loss in win probability from which a move is a mistake: 0.10 (Lichess's 0.2; `Advice.scala`).
pub const MISTAKE: f64 = 0.10;
/// Loss in win probability from which a move is a blunder: 0.15 (Lichess's 0.3; `Advice.scala`).
pub const BLUNDER: f64 = 0.15;
/// Loss in win probability up to which a move other than the search's best still counts as
/// `best`: 0.005 (half a point of win %; the estimates of two searches differ by more than that
/// on the same position, so a smaller loss says nothing).
pub const BEST_LOSS: f64 = 0.005;

/// Log2 of the entries of the Hex solver's table per reviewing thread: 2^20 entries of 64 bytes
/// = 64 MiB, as the page's solver (`src/wasm/solve.rs`, `PAGE_SOLVER_TT_LOG2`).
pub const REVIEW_DFPN_TT_LOG2: u32 = 20;

/// Log2 of the endgame solver's table entries per reviewing thread: 2^21 entries of 24 bytes =
/// 48 MiB at most (less where the game needs less, [`ExactConfig::fit`]), as the page's.
pub const REVIEW_ENDGAME_TT_LOG2: u32 = 21;

/// A move's class, by the loss in win probability it caused (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// The search's best move, or a loss of at most [`BEST_LOSS`].
    Best,
    /// A loss below [`INACCURACY`].
    Good,
    /// A loss of at least [`INACCURACY`] (glyph `?!`).
    Inaccuracy,
    /// A loss of at least [`MISTAKE`] (glyph `?`).
    Mistake,
    /// A loss of at least [`BLUNDER`], or a proven value made worse (glyph `??`).
    Blunder,
}

impl Class {
    /// All classes, best first.
    pub const ALL: [Class; 5] = [Class::Best, Class::Good, Class::Inaccuracy, Class::Mistake, Class::Blunder];

    /// `best`, `good`, `inaccuracy`, `mistake` or `blunder`, as serialised.
    pub fn name(self) -> &'static str {
        match self {
            Class::Best => "best",
            Class::Good => "good",
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
        }
    }

    /// The annotation glyph (PGN's NAGs as Lichess shows them): `?!`, `?`, `??`; empty for best
    /// and good.
    pub fn glyph(self) -> &'static str {
        match self {
            Class::Best | Class::Good => "",
            Class::Inaccuracy => "?!",
            Class::Mistake => "?",
            Class::Blunder => "??",
        }
    }

    /// The class of a loss in win probability by the estimates alone (Lichess's thresholds),
    /// before the exact overrides; `is_best`: the move played is the search's best move.
    pub fn of_loss(loss: f64, is_best: bool) -> Class {
        if loss >= BLUNDER {
            Class::Blunder
        } else if loss >= MISTAKE {
            Class::Mistake
        } else if loss >= INACCURACY {
            Class::Inaccuracy
        } else if is_best || loss <= BEST_LOSS {
            Class::Best
        } else {
            Class::Good
        }
    }
}

/// The settings of a review (the JSON's `settings`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ReviewSettings {
    /// The search preset ([`crate::mcts::SearchConfig::preset`]); default [`DEFAULT_PRESET`].
    pub preset: String,
    /// Per-position budget in playouts (MCTS iterations); null with a time budget.
    pub iterations: Option<u64>,
    /// Per-position budget in milliseconds; null with a playout budget.
    pub ms: Option<f64>,
    /// Per-position budget of the exact solver in milliseconds (0: no exact solving).
    pub solve_ms: f64,
    /// The review's seed; position `i` is searched with [`position_seed`]`(seed, i)`.
    pub seed: u64,
}

impl Default for ReviewSettings {
    /// [`DEFAULT_PRESET`], [`DEFAULT_ITERATIONS`] playouts, [`DEFAULT_SOLVE_MS`], seed 0.
    fn default() -> Self {
        ReviewSettings {
            preset: DEFAULT_PRESET.into(),
            iterations: Some(DEFAULT_ITERATIONS),
            ms: None,
            solve_ms: DEFAULT_SOLVE_MS,
            seed: 0,
        }
    }
}

impl ReviewSettings {
    /// The settings from the command line's options: `iterations` and `ms` as `mcts search`
    /// takes them ([`DEFAULT_ITERATIONS`] when both are absent), the others' defaults as above.
    ///
    /// # Errors
    /// Both budgets given, an unknown preset, or milliseconds out of range (0 ..= 2^53 − 1).
    pub fn new(
        preset: Option<&str>,
        iterations: Option<u64>,
        ms: Option<f64>,
        solve_ms: Option<f64>,
        seed: Option<u64>,
    ) -> Result<ReviewSettings, ReportError> {
        let s = ReviewSettings {
            preset: preset.unwrap_or(DEFAULT_PRESET).to_string(),
            iterations: if iterations.is_none() && ms.is_none() { Some(DEFAULT_ITERATIONS) } else { iterations },
            ms,
            solve_ms: solve_ms.unwrap_or(DEFAULT_SOLVE_MS),
            seed: seed.unwrap_or(0),
        };
        s.check()?;
        Ok(s)
    }

    /// Checks the settings.
    ///
    /// # Errors
    /// Both a playout and a time budget (or neither), an unknown preset, milliseconds out of
    /// range.
    pub fn check(&self) -> Result<(), ReportError> {
        match (self.iterations, self.ms) {
            (Some(_), Some(_)) => {
                return Err(ReportError::Engine("a review takes a budget in playouts or in milliseconds, not both".into()))
            }
            (None, None) => return Err(ReportError::Engine("a review needs a budget per position: playouts or milliseconds".into())),
            (_, Some(ms)) => {
                super::check_ms(ms)?;
            }
            _ => {}
        }
        super::check_ms(self.solve_ms)?;
        config_from(&self.preset, &[] as &[&str], None)?;
        Ok(())
    }

    /// The search budget of one position.
    pub fn budget(&self) -> Budget {
        Budget { iterations: self.iterations, millis: self.ms }
    }
}

/// The seed of position `index`'s search in a review seeded `seed`: `seed + index` (wrapping; the
/// generator is seeded through `seed_from_u64`, which makes nearby seeds independent streams,
/// as [`crate::mcts::parallel::worker_seed`]).
pub fn position_seed(seed: u64, index: usize) -> u64 {
    seed.wrapping_add(index as u64)
}

/// What the review found about one position of the main line (position `index`: after `index`
/// moves). The page's workers return these; [`Review::insert`] takes them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PositionReview {
    /// 0-based: the position after this many moves.
    pub index: usize,
    /// The position's board in the reference notation ([`AnyGame::board_string`]), which
    /// [`Review::insert`] checks.
    pub board: String,
    /// The side to move (0 or 1; in a finished game, the side whose turn it would be).
    #[cfg_attr(test, ts(type = "0 | 1"))]
    pub to_move: Player,
    /// The win probability of the side to move, in [0, 1] (a draw ½): the exact value when
    /// proven, else the search's root value ([`root_value`]).
    pub value: f64,
    /// The search's own estimate ([`root_value`]), null for a finished game.
    pub estimate: Option<f64>,
    /// The exact value for the side to move when proven (by the solver, the search's
    /// MCTS-Solver, or the rules for a finished game), null otherwise.
    #[cfg_attr(test, ts(type = "'win' | 'draw' | 'loss' | null"))]
    pub exact: Option<Value>,
    /// The best move: the search's (by its final-move rule), unless the position is proven and
    /// the search's move is not proven to keep its value within the solve budget: then the
    /// solver's winning or drawing move; null for a finished game.
    pub best_move: Option<String>,
    /// The principal variation of the search (the most visited child at each level), starting
    /// with `best_move`; only the solver's move when that replaced the search's.
    pub pv: Vec<String>,
    /// MCTS iterations (playouts) the search ran.
    pub iterations: u64,
    /// Playouts to the end of the game among them (iterations that reached a new leaf).
    pub playouts: u64,
    /// Milliseconds of the search (by the caller's clock; differs from run to run).
    pub search_ms: f64,
    /// Milliseconds of the exact solve, null when none was attempted (differs from run to run).
    pub solve_ms: Option<f64>,
}

/// One move of the reviewed game (the JSON's `plies`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PlyReview {
    /// 0-based: the move from position `ply` to position `ply + 1`.
    pub ply: usize,
    /// The move, in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The mover's name: `black` / `white` (Hex, Pentago), `x` / `o` (Tic-Tac-Toe).
    pub mover: String,
    /// The mover's win probability before the move, in [0, 1].
    pub value_before: f64,
    /// The mover's win probability after the move, in [0, 1].
    pub value_after: f64,
    /// `max(0, value_before − value_after)`, in [0, 1].
    pub loss: f64,
    /// The move's class.
    pub class: Class,
    /// The exact change of value for a move that made a proven value worse: `won → lost`,
    /// `won → drawn` or `drawn → lost`; null otherwise.
    pub label: Option<String>,
    /// Lichess's accuracy of this move in [0, 100] ([`accuracy_per_move`] on the win % before
    /// and after).
    pub accuracy: f64,
    /// The best move of position `ply`.
    pub best_move: Option<String>,
    /// The principal variation of position `ply`'s search.
    pub pv: Vec<String>,
    /// The exact value of position `ply` for the mover, null when not proven within the budget.
    #[cfg_attr(test, ts(type = "'win' | 'draw' | 'loss' | null"))]
    pub exact_before: Option<Value>,
    /// The exact value after the move for the mover, null when not proven within the budget.
    #[cfg_attr(test, ts(type = "'win' | 'draw' | 'loss' | null"))]
    pub exact_after: Option<Value>,
    /// MCTS iterations (playouts) of position `ply`'s search.
    pub iterations: u64,
    /// Playouts to the end of the game among them.
    pub playouts: u64,
}

/// One player's figures (the JSON's `summary.<player>`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PlayerSummary {
    /// Lichess's game accuracy in [0, 100] ([`game_accuracy`]); null when the player made no
    /// move.
    pub accuracy: Option<f64>,
    /// Moves classed `best`.
    pub best: usize,
    /// Moves classed `good`.
    pub good: usize,
    /// Moves classed `inaccuracy`.
    pub inaccuracy: usize,
    /// Moves classed `mistake`.
    pub mistake: usize,
    /// Moves classed `blunder`.
    pub blunder: usize,
}

/// Milliseconds spent on one position (the JSON's `timing`; the only figures that differ between
/// two runs with a playout budget).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PositionTiming {
    /// The position (after this many moves).
    pub position: usize,
    /// Milliseconds of its search.
    pub search_ms: f64,
    /// Milliseconds of its exact solve, null when none was attempted.
    pub solve_ms: Option<f64>,
    /// Whether it was proven (by the solver, the search or the rules).
    pub proven: bool,
}

/// The review of a game: what `mcts review --json` prints and Python's `review()` returns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct GameReview {
    /// The game spec, normalised.
    pub game: String,
    /// The main line's moves, normalised.
    pub moves: Vec<String>,
    /// The settings.
    pub settings: ReviewSettings,
    /// One entry per move.
    pub plies: Vec<PlyReview>,
    /// Per player (by name): accuracy and the count of each class.
    #[cfg_attr(test, ts(type = "Record<string, PlayerSummary>"))]
    pub summary: BTreeMap<String, PlayerSummary>,
    /// Per position: the milliseconds spent.
    pub timing: Vec<PositionTiming>,
}

/// Lichess's accuracy of one move in [0, 100] from the mover's win % (0 ..= 100) before and after
/// it (lila `modules/analyse/src/main/AccuracyPercent.scala`, `fromWinPercents`;
/// lichess.org/page/accuracy): 100 when the win % did not drop, else
/// `103.1668100711649 · exp(−0.04354415386753951 · drop) − 3.166924740191411 + 1`, clamped.
pub fn accuracy_per_move(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let drop = before - after;
    let raw = 103.1668100711649 * (-0.04354415386753951 * drop).exp() + -3.166924740191411;
    (raw + 1.0).clamp(0.0, 100.0)
}

/// Population standard deviation (lila `Maths.standardDeviation`); 0 for an empty list.
fn standard_deviation(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let mean = xs.iter().sum::<f64>() / xs.len() as f64;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / xs.len() as f64).sqrt()
}

/// Lichess's game accuracy of each player, from the win % (0 ..= 100) of player 0 at every
/// position of the game (`win_percents[k]`: after `k` moves; one more than the moves) and the
/// mover of each move (0 or 1): `[player 0, player 1]`, null for a player without moves.
///
/// As lila `AccuracyPercent.gameAccuracy`: the window size is `moves / 10` clamped to 2 ..= 8;
/// the windows are `min(size, positions) − 2` copies of the first `size` values followed by every
/// run of `size` consecutive values (Scala's `sliding`: one window of everything when shorter),
/// one per move; a move's weight is its window's population standard deviation clamped to
/// 0.5 ..= 12; a player's figure is the mean of the weighted mean and the harmonic mean
/// (`n / Σ 1 / max(1, a)`, lila `Maths.harmonicMean`) of the per-move accuracies of that player's
/// moves, each move's accuracy [`accuracy_per_move`] on the mover's win % (the Scala passes
/// `color.fold(prev, next), color.fold(next, prev)`, the same drop seen from the mover).
pub fn game_accuracy(win_percents: &[f64], movers: &[Player]) -> [Option<f64>; 2] {
    let n = movers.len().min(win_percents.len().saturating_sub(1));
    let len = n + 1;
    let size = (n / 10).clamp(2, 8);
    let values = &win_percents[..len];
    let mut windows: Vec<&[f64]> = Vec::new();
    let first = &values[..size.min(len)];
    for _ in 0..size.min(len).saturating_sub(2) {
        windows.push(first);
    }
    if len <= size {
        windows.push(values);
    } else {
        windows.extend(values.windows(size));
    }
    let mut per = [(0.0f64, 0.0f64, 0.0f64, 0usize); 2]; // (Σ a·w, Σ w, Σ 1/max(1, a), count)
    for i in 0..n.min(windows.len()) {
        let w = standard_deviation(windows[i]).clamp(0.5, 12.0);
        let p = movers[i] as usize & 1;
        let (before, after) = if p == 0 { (values[i], values[i + 1]) } else { (100.0 - values[i], 100.0 - values[i + 1]) };
        let a = accuracy_per_move(before, after);
        let e = &mut per[p];
        e.0 += a * w;
        e.1 += w;
        e.2 += 1.0 / a.max(1.0);
        e.3 += 1;
    }
    per.map(|(aw, w, inv, count)| (count > 0 && w != 0.0).then(|| (aw / w + count as f64 / inv) / 2.0))
}

/// The class of a move and its exact label, from the mover's values before and after it and
/// their exact values (module documentation): the estimates' class (Lichess's thresholds), a
/// blunder with its label for a proven value made worse, at most an inaccuracy after a proven
/// win not proven lost or drawn, or in a position proven lost.
pub fn classify(
    before: f64,
    after: f64,
    exact_before: Option<Value>,
    exact_after: Option<Value>,
    is_best: bool,
) -> (Class, Option<&'static str>) {
    let loss = (before - after).max(0.0);
    if let (Some(b), Some(a)) = (exact_before, exact_after) {
        if a < b {
            let label = match (b, a) {
                (Value::Win, Value::Loss) => "won → lost",
                (Value::Win, _) => "won → drawn",
                _ => "drawn → lost",
            };
            return (Class::Blunder, Some(label));
        }
    }
    let class = Class::of_loss(loss, is_best);
    let keeps_or_lost = matches!((exact_before, exact_after), (Some(Value::Win), None | Some(Value::Win)) | (Some(Value::Loss), _));
    if keeps_or_lost && class > Class::Inaccuracy {
        return (Class::Inaccuracy, None);
    }
    (class, None)
}

/// A reviewer's exact solvers, kept from position to position (their tables speed up the next
/// solve; a table entry is exact, so what a position is proven to be does not depend on it).
#[derive(Default)]
pub struct Solvers {
    dfpn: Option<Dfpn>,
    endgame: Option<AnyExact>,
}

crate::registered_games!(__game_enum!(
    /// The alpha-beta endgame solver of whichever registered game a review is of.
    enum AnyExact of Exact
));

impl Solvers {
    /// No solver yet (each is made, with its table, on its first position).
    pub fn new() -> Solvers {
        Solvers::default()
    }

    /// Whether a solver takes `g`: Tic-Tac-Toe; Hex up to [`MAX_SOLVE_SIZE`] without the swap
    /// rule; Pentago with at most [`crate::game::pentago::PENTAGO_MAX_EMPTY`] empty cells.
    pub fn takes(g: &AnyGame) -> bool {
        match g {
            AnyGame::Hex(h) => h.size() <= MAX_SOLVE_SIZE && !h.swap_enabled(),
            _ => endgame::check(g).is_ok(),
        }
    }

    /// The exact value of `g` (not over) for its side to move and a move that keeps it, within
    /// `ms` milliseconds of `clock`; `None` when no solver takes the position or the time ran out.
    fn solve(&mut self, g: &AnyGame, ms: f64, clock: Clock) -> Option<(Value, Option<String>)> {
        let t0 = clock();
        match g {
            AnyGame::Hex(h) => {
                if h.size() > MAX_SOLVE_SIZE || h.swap_enabled() {
                    return None;
                }
                // A table that cannot be had (its first allocation refused) is a position no solver
                // takes: the review goes on with the estimate.
                if self.dfpn.is_none() {
                    self.dfpn = Some(Dfpn::new(DfpnConfig { tt_log2: REVIEW_DFPN_TT_LOG2, ..DfpnConfig::default() }).ok()?);
                }
                let d = self.dfpn.as_mut()?;
                let r = d.solve(h, &mut |_: &DfpnStats| clock() - t0 >= ms).ok()??;
                let value = if r.winner == h.to_move() { Value::Win } else { Value::Loss };
                Some((value, r.winning_move.map(|m| h.format_move(m))))
            }
            _ => {
                endgame::check(g).ok()?;
                // One table, kept while the game stays the same; it starts small and grows as
                // the positions need, up to REVIEW_ENDGAME_TT_LOG2.
                let fits = |e: &AnyExact| crate::registered_games!(__game_match2!(AnyExact, AnyGame, e, g, _s, _g, true, false));
                if !self.endgame.as_ref().is_some_and(fits) {
                    let cfg = ExactConfig { tt_log2: REVIEW_ENDGAME_TT_LOG2 };
                    self.endgame = Some(crate::registered_games!(__game_map!(AnyGame => AnyExact, g, _g, Exact::new(cfg).ok()?)));
                }
                let e = self.endgame.as_mut()?;
                crate::registered_games!(__game_match2!(
                    AnyExact,
                    AnyGame,
                    e,
                    g,
                    s,
                    x,
                    {
                        let r = s.solve(x, &mut |_: &ExactStats| clock() - t0 >= ms)?;
                        Some((r.value, r.best.map(|m| x.format_move(m))))
                    },
                    None
                ))
            }
        }
    }
}

/// A search's value of its root for the side to move, in [0, 1]: the visit-weighted mean of
/// the root moves' Q (Σ nᵢ·Qᵢ / Σ nᵢ over [`SearchStats::children`]), the value the iterations
/// backed up to the root; the best move's Q when no move has visits (a search that did not run).
pub fn root_value(st: &SearchStats) -> f64 {
    let (n, sum) = st.children.iter().fold((0u64, 0.0), |(n, s), c| (n + c.visits, s + c.visits as f64 * c.q));
    if n == 0 {
        st.value
    } else {
        (sum / n as f64).clamp(0.0, 1.0)
    }
}

/// A game under review: its positions and what has been found about each so far. Resumable:
/// positions are reviewed in any order, by any number of callers, and [`Review::report`] is the
/// same whatever the order (module documentation).
#[derive(Clone, Debug)]
pub struct Review {
    spec: String,
    moves: Vec<String>,
    settings: ReviewSettings,
    /// Position `i`: after `i` moves.
    positions: Vec<AnyGame>,
    results: Vec<Option<PositionReview>>,
}

impl Review {
    /// A review of the game `spec` along `moves` (the game's notation; at most
    /// [`MAX_REQUEST_MOVES`]), nothing reviewed yet.
    ///
    /// # Errors
    /// A bad spec; more than [`MAX_REQUEST_MOVES`] moves; a move that cannot be read, is illegal
    /// or comes after the end of the game (named with its 1-based index); bad settings.
    pub fn new<S: AsRef<str>>(spec: &str, moves: &[S], settings: ReviewSettings) -> Result<Review, ReportError> {
        settings.check()?;
        let mut g = AnyGame::from_spec(spec)?;
        if moves.len() > MAX_REQUEST_MOVES {
            return Err(ReportError::Engine(format!("a review takes at most {MAX_REQUEST_MOVES} moves; this game has {}", moves.len())));
        }
        let mut positions = vec![g.clone()];
        let mut names = Vec::with_capacity(moves.len());
        for (i, m) in moves.iter().enumerate() {
            let m = m.as_ref();
            let before = g.clone();
            let idx = g.play_text(m).map_err(|source| ReportError::Move { index: i + 1, text: m.to_string(), source })?;
            names.push(before.format_index(idx).unwrap_or_else(|| m.to_string()));
            positions.push(g.clone());
        }
        let results = vec![None; positions.len()];
        Ok(Review { spec: positions[0].spec(), moves: names, settings, positions, results })
    }

    /// The settings.
    pub fn settings(&self) -> &ReviewSettings {
        &self.settings
    }

    /// Positions to review: one more than the moves.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Always false: a review has at least the start position.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Position `index` (after `index` moves), if there is one.
    pub fn position(&self, index: usize) -> Option<&AnyGame> {
        self.positions.get(index)
    }

    /// The positions not reviewed yet, ascending.
    pub fn pending(&self) -> Vec<usize> {
        (0..self.results.len()).filter(|&i| self.results[i].is_none()).collect()
    }

    /// Whether every position is reviewed.
    pub fn is_complete(&self) -> bool {
        self.results.iter().all(Option::is_some)
    }

    /// What was found about position `index` so far.
    pub fn result(&self, index: usize) -> Option<&PositionReview> {
        self.results.get(index).and_then(Option::as_ref)
    }

    /// Reviews position `index` (without storing the result: see [`Review::insert`]): a finished
    /// game is valued by the rules; otherwise a search of the settings' preset and budget seeded
    /// [`position_seed`]`(seed, index)` on a fresh tree, and an exact solve with `solvers` within
    /// `solve_ms` where a solver takes the position. `clock` gives milliseconds (budgets in ms,
    /// and the `search_ms` / `solve_ms` figures).
    ///
    /// # Errors
    /// An index past the last position; a configuration the engine refuses.
    pub fn review_position(&self, index: usize, solvers: &mut Solvers, clock: Clock) -> Result<PositionReview, ReportError> {
        let g = self.positions.get(index).ok_or_else(|| {
            ReportError::Engine(format!("position {index} is not in this game: it has positions 0 ..= {}", self.positions.len() - 1))
        })?;
        let to_move = g.to_move();
        if let Some(o) = g.outcome() {
            let v = Value::of_outcome(o, to_move);
            return Ok(PositionReview {
                index,
                board: g.board_string(),
                to_move,
                value: o.reward(to_move),
                estimate: None,
                exact: Some(v),
                best_move: None,
                pv: Vec::new(),
                iterations: 0,
                playouts: 0,
                search_ms: 0.0,
                solve_ms: None,
            });
        }
        let config = config_from(&self.settings.preset, &[] as &[&str], Some(position_seed(self.settings.seed, index)))?;
        let mut search = crate::nn::search::any_search(g, config).map_err(ReportError::engine)?;
        let t0 = clock();
        search.run(self.settings.budget(), clock);
        let search_ms = clock() - t0;
        let st = search.stats();
        let (mut exact, mut best_move, mut pv) = (st.proven.map(proven_value), st.best_move.clone(), st.pv.clone());
        let mut solve_ms = None;
        if self.settings.solve_ms > 0.0 && Solvers::takes(g) {
            let t1 = clock();
            let budget = self.settings.solve_ms;
            if let Some((v, mv)) = solvers.solve(g, budget, clock) {
                exact = Some(v);
                if let Some(mv) = mv.filter(|m| v != Value::Loss && best_move.as_ref() != Some(m)) {
                    // The search's move stays (with its principal variation) when it is proven
                    // to keep the value within what is left of the budget; else the solver's.
                    let left = budget - (clock() - t1);
                    let keeps = best_move.as_deref().is_some_and(|m| {
                        let mut c = g.clone();
                        c.play_text(m).is_ok()
                            && match c.outcome() {
                                Some(o) => Value::of_outcome(o, to_move) == v,
                                None => {
                                    left > 0.0
                                        && solvers
                                            .solve(&c, left, clock)
                                            .is_some_and(|(cv, _)| (if c.to_move() == to_move { cv } else { cv.flip() }) == v)
                                }
                            }
                    });
                    if !keeps {
                        pv = vec![mv.clone()];
                        best_move = Some(mv);
                    }
                }
            }
            solve_ms = Some(clock() - t1);
        }
        let estimate = root_value(&st);
        let value = exact.map_or(estimate, value_of);
        Ok(PositionReview {
            index,
            board: g.board_string(),
            to_move,
            value,
            estimate: Some(estimate),
            exact,
            best_move,
            pv,
            iterations: st.iterations,
            playouts: st.playouts,
            search_ms,
            solve_ms,
        })
    }

    /// Stores what was found about a position (from [`Review::review_position`] here or in
    /// another worker), replacing what was there.
    ///
    /// # Errors
    /// An index past the last position, or a result of another position (its board or side to
    /// move differ), or a value outside [0, 1].
    pub fn insert(&mut self, r: PositionReview) -> Result<(), ReportError> {
        let g = self.positions.get(r.index).ok_or_else(|| {
            ReportError::Engine(format!("position {} is not in this game: it has positions 0 ..= {}", r.index, self.positions.len() - 1))
        })?;
        if g.to_move() != r.to_move || g.board_string() != r.board || !(0.0..=1.0).contains(&r.value) {
            return Err(ReportError::Engine(format!("the result for position {} is not of this game's position", r.index)));
        }
        let index = r.index;
        self.results[index] = Some(r);
        Ok(())
    }

    /// Reviews and stores each position of `indices` in turn (see [`Review::review_position`]).
    ///
    /// # Errors
    /// As [`Review::review_position`]; the positions reviewed before the error are kept.
    pub fn run(&mut self, indices: impl IntoIterator<Item = usize>, solvers: &mut Solvers, clock: Clock) -> Result<(), ReportError> {
        for i in indices {
            let r = self.review_position(i, solvers, clock)?;
            self.insert(r)?;
        }
        Ok(())
    }

    /// The review of the whole game, once every position is reviewed.
    ///
    /// # Errors
    /// Positions not reviewed yet (how many).
    pub fn report(&self) -> Result<GameReview, ReportError> {
        let pending = self.pending();
        if !pending.is_empty() {
            return Err(ReportError::Engine(format!("{} of {} positions are not reviewed yet", pending.len(), self.positions.len())));
        }
        let r: Vec<&PositionReview> = self.results.iter().flatten().collect();
        let names = |p: Player| mover_name(&self.positions[0], p);
        let plies: Vec<PlyReview> =
            self.moves.iter().enumerate().map(|(i, mv)| ply_of(i, mv, r[i], r[i + 1], names(r[i].to_move))).collect();
        let movers: Vec<Player> = r[..self.moves.len()].iter().map(|p| p.to_move).collect();
        // Player 0's win % at every position.
        let win0: Vec<f64> = r.iter().map(|p| 100.0 * if p.to_move == 0 { p.value } else { 1.0 - p.value }).collect();
        let acc = game_accuracy(&win0, &movers);
        let mut summary = BTreeMap::new();
        for p in [0, 1] {
            let count = |c: Class| plies.iter().zip(&movers).filter(|(x, &m)| m == p && x.class == c).count();
            summary.insert(
                names(p).to_string(),
                PlayerSummary {
                    accuracy: acc[p as usize],
                    best: count(Class::Best),
                    good: count(Class::Good),
                    inaccuracy: count(Class::Inaccuracy),
                    mistake: count(Class::Mistake),
                    blunder: count(Class::Blunder),
                },
            );
        }
        let timing = r
            .iter()
            .map(|p| PositionTiming { position: p.index, search_ms: p.search_ms, solve_ms: p.solve_ms, proven: p.exact.is_some() })
            .collect();
        Ok(GameReview { game: self.spec.clone(), moves: self.moves.clone(), settings: self.settings.clone(), plies, summary, timing })
    }
}

/// Ply `i` (the move `mv` from position `i` to `i + 1`) from the two positions' results `a` and
/// `b`: the mover's values before and after, the loss, the class and exact label ([`classify`]),
/// the accuracy and the best move of `a`. The one place a ply is judged: [`Review::report`] and
/// [`judge_move`] both call it.
fn ply_of(i: usize, mv: &str, a: &PositionReview, b: &PositionReview, mover_name: &str) -> PlyReview {
    let mover = a.to_move;
    let same = b.to_move == mover;
    let value_before = a.value;
    let value_after = if same { b.value } else { 1.0 - b.value };
    let exact_before = a.exact;
    let exact_after = b.exact.map(|v| if same { v } else { v.flip() });
    let is_best = a.best_move.as_deref() == Some(mv);
    let (class, label) = classify(value_before, value_after, exact_before, exact_after, is_best);
    PlyReview {
        ply: i,
        mv: mv.to_string(),
        mover: mover_name.to_string(),
        value_before,
        value_after,
        loss: (value_before - value_after).max(0.0),
        class,
        label: label.map(str::to_string),
        accuracy: accuracy_per_move(100.0 * value_before, 100.0 * value_after),
        best_move: a.best_move.clone(),
        pv: a.pv.clone(),
        exact_before,
        exact_after,
        iterations: a.iterations,
        playouts: a.playouts,
    }
}

/// Judges one move as the review would: the move `mv` played after `before` (the game's moves
/// from the start of `spec`, in its notation) is ply `before.len()` of the game `before + [mv]`,
/// and the positions before and after it are reviewed exactly as [`Review::review_position`]
/// reviews them (the same preset and budget, seeds [`position_seed`]`(seed, before.len())` and
/// `+ 1`, the same exact solve within `solve_ms` milliseconds, the same [`classify`]), so the
/// ply returned equals that ply of [`Review::report`] for the whole game with the same settings
/// (with a playout budget; a solve may reach further in one run than another). Used by the
/// page's teaching game (a person's move judged at once, as KaTrain's teaching mode) and
/// "Learn from your mistakes". `solvers` may be kept from one call to the next; `clock` gives
/// milliseconds.
///
/// # Errors
/// A bad spec; more than [`MAX_REQUEST_MOVES`] moves with `mv`; a move of `before` or `mv`
/// itself that cannot be read or is illegal (named with its 1-based index); bad settings; a
/// configuration the engine refuses.
pub fn judge_move<S: AsRef<str>>(
    spec: &str,
    before: &[S],
    mv: &str,
    settings: &ReviewSettings,
    solvers: &mut Solvers,
    clock: Clock,
) -> Result<PlyReview, ReportError> {
    let mut moves: Vec<&str> = before.iter().map(AsRef::as_ref).collect();
    moves.push(mv);
    let review = Review::new(spec, &moves, settings.clone())?;
    let i = before.len();
    let a = review.review_position(i, solvers, clock)?;
    let b = review.review_position(i + 1, solvers, clock)?;
    Ok(ply_of(i, &review.moves[i], &a, &b, mover_name(&review.positions[0], a.to_move)))
}

/// A player's name in the reports of `g` ([`AnyGame::player_name`]).
fn mover_name(g: &AnyGame, p: Player) -> &'static str {
    g.player_name(p)
}

/// The exact value of a search's proven root.
fn proven_value(p: Proven) -> Value {
    match p {
        Proven::Win => Value::Win,
        Proven::Draw => Value::Draw,
        Proven::Loss => Value::Loss,
    }
}

/// The win probability of an exact value: 1, ½ or 0.
fn value_of(v: Value) -> f64 {
    match v {
        Value::Win => 1.0,
        Value::Draw => 0.5,
        Value::Loss => 0.0,
    }
}

/// Reviews every pending position of `review` on `threads` threads (1 ..= 64), each with its own
/// solvers, taking the next pending position in turn; each thread times its work on the wall
/// clock. With a playout budget the result equals one thread's (module documentation).
///
/// # Errors
/// A thread count out of range; the first position whose review failed (the others are kept).
#[cfg(not(target_arch = "wasm32"))]
pub fn review_threads(review: &mut Review, threads: usize) -> Result<(), ReportError> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    if !(1..=crate::mcts::parallel::MAX_WORKERS).contains(&threads) {
        return Err(ReportError::Engine(format!("{threads} threads is out of range: 1 ..= 64")));
    }
    let pending = review.pending();
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<Result<PositionReview, ReportError>>>> = pending.iter().map(|_| Mutex::new(None)).collect();
    let shared: &Review = review;
    std::thread::scope(|scope| {
        for _ in 0..threads.min(pending.len()) {
            scope.spawn(|| {
                let mut solvers = Solvers::new();
                let t0 = std::time::Instant::now();
                let clock = move || t0.elapsed().as_secs_f64() * 1000.0;
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&i) = pending.get(k) else { break };
                    let r = shared.review_position(i, &mut solvers, &clock);
                    if let Ok(mut slot) = slots[k].lock() {
                        *slot = Some(r);
                    }
                }
            });
        }
    });
    let mut first_error = None;
    for (k, slot) in slots.into_iter().enumerate() {
        match slot.into_inner().ok().flatten() {
            Some(Ok(r)) => review.insert(r)?,
            Some(Err(e)) => {
                first_error.get_or_insert(e);
            }
            None => {
                first_error.get_or_insert(ReportError::Engine(format!("position {} was not reviewed (a thread stopped)", pending[k])));
            }
        }
    }
    first_error.map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn classes_follow_lichess_thresholds() {
        // Advice.scala: 0.3 / 0.2 / 0.1 on the −1…+1 scale = 0.15 / 0.10 / 0.05 in probability.
        assert_eq!(Class::of_loss(0.15, false), Class::Blunder);
        assert_eq!(Class::of_loss(0.1499, false), Class::Mistake);
        assert_eq!(Class::of_loss(0.10, false), Class::Mistake);
        assert_eq!(Class::of_loss(0.0999, false), Class::Inaccuracy);
        assert_eq!(Class::of_loss(0.05, false), Class::Inaccuracy);
        assert_eq!(Class::of_loss(0.0499, false), Class::Good);
        assert_eq!(Class::of_loss(0.0499, true), Class::Best);
        assert_eq!(Class::of_loss(0.004, false), Class::Best);
        // The best move that lost much by the estimates is still judged by its loss.
        assert_eq!(Class::of_loss(0.2, true), Class::Blunder);
        assert_eq!(Class::Blunder.glyph(), "??");
        assert_eq!(Class::Mistake.glyph(), "?");
        assert_eq!(Class::Inaccuracy.glyph(), "?!");
    }

    #[test]
    fn exact_overrides() {
        use Value::*;
        // Won → lost is a blunder whatever the estimates say (here: no loss at all).
        assert_eq!(classify(1.0, 1.0, Some(Win), Some(Loss), false), (Class::Blunder, Some("won → lost")));
        assert_eq!(classify(1.0, 0.5, Some(Win), Some(Draw), false), (Class::Blunder, Some("won → drawn")));
        assert_eq!(classify(0.5, 0.4, Some(Draw), Some(Loss), false), (Class::Blunder, Some("drawn → lost")));
        // A proven win kept, or not proven lost: never worse than an inaccuracy by estimates.
        assert_eq!(classify(1.0, 0.6, Some(Win), None, false), (Class::Inaccuracy, None));
        assert_eq!(classify(1.0, 1.0, Some(Win), Some(Win), true), (Class::Best, None));
        // In a position already proven lost.
        assert_eq!(classify(0.0, 0.0, Some(Loss), None, false), (Class::Best, None));
        assert_eq!(classify(0.7, 0.2, Some(Loss), None, false), (Class::Inaccuracy, None));
        // A proven draw and an estimate after: the estimates judge.
        assert_eq!(classify(0.5, 0.3, Some(Draw), None, false), (Class::Blunder, None));
    }

    #[test]
    fn per_move_accuracy_by_hand() {
        // No drop: 100. A drop of 10 points: 103.1668100711649·e^(−0.4354415386753951)
        // − 3.166924740191411 + 1 = 103.1668100711649 × 0.6470… − 2.166924740191411 = 64.5798…
        assert_eq!(accuracy_per_move(40.0, 60.0), 100.0);
        assert_eq!(accuracy_per_move(50.0, 50.0), 100.0);
        let a = accuracy_per_move(60.0, 50.0);
        let expected = 103.1668100711649 * (-0.4354415386753951f64).exp() - 2.166924740191411;
        assert!(close(a, expected), "{a}");
        assert!((a - 64.5798).abs() < 1e-3, "{a}");
        // A drop of 100 points: 103.17·e^(−4.354) − 2.167 = 1.3258 − 2.1669 < 0: clamped to 0.
        assert_eq!(accuracy_per_move(100.0, 0.0), 0.0);
        // A tiny drop: the +1 bonus pushes past 100, clamped to 100.
        assert_eq!(accuracy_per_move(50.0, 49.99), 100.0);
    }

    #[test]
    fn game_accuracy_by_hand() {
        // Player 0's win % at positions 0..=4: 50, 60, 70, 40, 45; moves by 0, 1, 0, 1.
        // Window size: 4 moves / 10 = 0 → clamped to 2. Windows: min(2, 5) − 2 = 0 copies of the
        // first, then sliding(2): [50,60] [60,70] [70,40] [40,45], population standard
        // deviations 5, 5, 15 → clamped to 12, 2.5: the weights of moves 0..=3.
        // Move 0 (player 0): 50 → 60, no drop: 100.
        // Move 1 (player 1, its own win %): 40 → 30, a drop of 10: a10 = 64.5798.
        // Move 2 (player 0): 70 → 40, a drop of 30: a30 = 103.1668·e^(−1.30632) − 2.16692 = 25.7720.
        // Move 3 (player 1): 60 → 55, a drop of 5: a5 = 103.1668·e^(−0.21772) − 2.16692 = 80.8153.
        // Player 0: weighted (5·100 + 12·a30) / 17 = 47.6038; harmonic 2 / (1/100 + 1/a30)
        // = 40.9822; accuracy (47.6038 + 40.9822) / 2 = 44.2930.
        // Player 1: weighted (5·a10 + 2.5·a5) / 7.5 = 69.9917; harmonic 2 / (1/a10 + 1/a5)
        // = 71.7911; accuracy 70.8914.
        let w = [50.0, 60.0, 70.0, 40.0, 45.0];
        let acc = game_accuracy(&w, &[0, 1, 0, 1]);
        let (a10, a30, a5) = (accuracy_per_move(60.0, 50.0), accuracy_per_move(30.0, 0.0), accuracy_per_move(10.0, 5.0));
        assert!((a30 - 25.7720).abs() < 1e-4 && (a5 - 80.8153).abs() < 1e-4, "{a30} {a5}");
        let p0 = ((5.0 * 100.0 + 12.0 * a30) / 17.0 + 2.0 / (0.01 + 1.0 / a30)) / 2.0;
        let p1 = ((5.0 * a10 + 2.5 * a5) / 7.5 + 2.0 / (1.0 / a10 + 1.0 / a5)) / 2.0;
        assert!(close(acc[0].unwrap(), p0) && close(acc[1].unwrap(), p1), "{acc:?}");
        assert!((acc[0].unwrap() - 44.2930).abs() < 1e-3, "{acc:?}");
        assert!((acc[1].unwrap() - 70.8914).abs() < 1e-3, "{acc:?}");
        // No moves: no figure.
        assert_eq!(game_accuracy(&[50.0], &[]), [None, None]);
    }

    #[test]
    fn window_copies_for_longer_games() {
        // 30 moves: window 3; one copy of the first window, then 29 sliding windows = 30 weights
        // (a missing weight would drop the last move). Player 0's win % rises 40, 41, …, 70:
        // player 0 never drops (100 each), player 1 drops 1 point with each move, so both of
        // its means are accuracy_per_move(1 point) = 103.1668·e^(−0.04354) − 2.16692 = 96.6040.
        let w: Vec<f64> = (0..=30).map(|k| 40.0 + k as f64).collect();
        let movers: Vec<Player> = (0..30).map(|k| (k % 2) as Player).collect();
        let acc = game_accuracy(&w, &movers);
        assert!(close(acc[0].unwrap(), 100.0));
        let a1 = accuracy_per_move(60.0, 59.0);
        assert!((a1 - 96.6040).abs() < 1e-3, "{a1}");
        assert!(close(acc[1].unwrap(), a1), "{acc:?} {a1}");
    }

    #[test]
    fn bad_input_is_a_sentence() {
        let s = ReviewSettings::default();
        let e = Review::new("tictactoe", &["b2", "b2"], s.clone()).unwrap_err().to_string();
        assert!(e.starts_with("move 2 ('b2')"), "{e}");
        let long: Vec<String> = (0..1001).map(|_| "a1".to_string()).collect();
        let e = Review::new("hex:11", &long, s.clone()).unwrap_err().to_string();
        assert_eq!(e, "a review takes at most 1000 moves; this game has 1001");
        let e = Review::new("tictactoe", &["a1", "a2", "b1", "b2", "c1", "c2"], s.clone()).unwrap_err().to_string();
        assert!(e.starts_with("move 6 ('c2')"), "{e}");
        let e = ReviewSettings::new(Some("nope"), None, None, None, None).unwrap_err().to_string();
        assert!(e.contains("nope"), "{e}");
        let r = Review::new("tictactoe", &["b2"], s).unwrap();
        assert!(r.report().unwrap_err().to_string().contains("2 of 2 positions are not reviewed yet"));
        let clock = || 0.0;
        assert!(r.review_position(5, &mut Solvers::new(), &clock).is_err());
    }

    /// A review stopped after some positions and continued (in another order, with other
    /// solvers, as the page's workers would) ends equal to one run straight through.
    #[test]
    fn a_review_stopped_and_continued_equals_a_straight_run() {
        let clock = || 0.0;
        let settings = ReviewSettings { iterations: Some(200), seed: 7, ..ReviewSettings::default() };
        for (spec, moves) in [("hex:4", "b2 c2 b3"), ("hex:9", "e5 d6 f3 c4"), ("tictactoe", "b2 a1 c3")] {
            let moves: Vec<&str> = moves.split(' ').collect();
            let mut straight = Review::new(spec, &moves, settings.clone()).unwrap();
            straight.run(0..straight.len(), &mut Solvers::new(), &clock).unwrap();
            let mut resumed = Review::new(spec, &moves, settings.clone()).unwrap();
            resumed.run([3, 1], &mut Solvers::new(), &clock).unwrap();
            assert_eq!(resumed.pending(), vec![0, 2, 4].into_iter().filter(|&i| i < resumed.len()).collect::<Vec<_>>());
            assert!(!resumed.is_complete() && resumed.report().is_err());
            // The rest by a second "worker", results handed over as the page's workers do.
            let other = resumed.clone();
            let mut solvers = Solvers::new();
            for i in resumed.pending().into_iter().rev() {
                let r = other.review_position(i, &mut solvers, &clock).unwrap();
                resumed.insert(r).unwrap();
            }
            assert_eq!(resumed.report().unwrap(), straight.report().unwrap(), "{spec}");
        }
        // Small Hex and Tic-Tac-Toe are proven at every position, the 9x9 never (no solver).
        let mut r = Review::new("hex:4", &["b2", "c2"], settings.clone()).unwrap();
        r.run(0..3, &mut Solvers::new(), &clock).unwrap();
        assert!(r.report().unwrap().timing.iter().all(|t| t.proven));
        // A result of another game's position is refused.
        let mut ttt = Review::new("tictactoe", &["b2"], settings).unwrap();
        let mut wrong = r.review_position(1, &mut Solvers::new(), &clock).unwrap();
        wrong.index = 1;
        assert!(ttt.insert(wrong.clone()).is_err());
        wrong.index = 9;
        assert!(ttt.insert(wrong).is_err());
    }

    /// A move judged alone is the same ply as in the review of the whole game with the same
    /// settings: class, label, values, best move, everything.
    #[test]
    fn a_judged_move_equals_its_ply_in_the_review() {
        let clock = || 0.0;
        let settings = ReviewSettings { iterations: Some(300), seed: 11, ..ReviewSettings::default() };
        for (spec, moves) in [("tictactoe", "b2 a2 a1 c3"), ("hex:4", "a1 b2 c2"), ("hex:9", "e5 d6 f3")] {
            let moves: Vec<&str> = moves.split(' ').collect();
            let mut review = Review::new(spec, &moves, settings.clone()).unwrap();
            review.run(0..review.len(), &mut Solvers::new(), &clock).unwrap();
            let report = review.report().unwrap();
            let mut solvers = Solvers::new();
            for (i, mv) in moves.iter().enumerate() {
                let ply = judge_move(spec, &moves[..i], mv, &settings, &mut solvers, &clock).unwrap();
                assert_eq!(ply, report.plies[i], "{spec} ply {i}");
            }
        }
    }

    /// Exact blunders judged at once: a proven draw thrown away (Tic-Tac-Toe: an edge against
    /// the centre) and a proven win thrown away (Hex 3×3: the first player wins only in the
    /// centre); the best move is judged best.
    #[test]
    fn judged_exact_blunders_and_best_moves() {
        let clock = || 0.0;
        let settings = ReviewSettings { iterations: Some(300), ..ReviewSettings::default() };
        let mut solvers = Solvers::new();
        let p = judge_move("tictactoe", &["b2"], "a2", &settings, &mut solvers, &clock).unwrap();
        assert_eq!((p.ply, p.mv.as_str(), p.mover.as_str()), (1, "a2", "o"));
        assert_eq!((p.class, p.label.as_deref()), (Class::Blunder, Some("drawn → lost")));
        assert_eq!((p.exact_before, p.exact_after), (Some(Value::Draw), Some(Value::Loss)));
        assert!(p.best_move.as_deref().is_some_and(|m| ["a1", "a3", "c1", "c3"].contains(&m)), "{:?}", p.best_move);
        let p = judge_move("tictactoe", &["b2"], "a1", &settings, &mut solvers, &clock).unwrap();
        assert_eq!((p.class, p.label), (Class::Best, None));
        let p = judge_move("hex:3", &[] as &[&str], "a1", &settings, &mut solvers, &clock).unwrap();
        assert_eq!((p.class, p.label.as_deref()), (Class::Blunder, Some("won → lost")));
        assert_eq!((p.mover.as_str(), p.best_move.as_deref()), ("black", Some("b2")));
        let p = judge_move("hex:3", &[] as &[&str], "b2", &settings, &mut solvers, &clock).unwrap();
        assert_eq!((p.class, p.label, p.exact_after), (Class::Best, None, Some(Value::Win)));
        // Bad input: a sentence naming the move.
        let e = judge_move("tictactoe", &["b2"], "b2", &settings, &mut solvers, &clock).unwrap_err().to_string();
        assert!(e.starts_with("move 2 ('b2')"), "{e}");
        assert!(judge_move("nope", &[] as &[&str], "a1", &settings, &mut solvers, &clock).is_err());
    }

    /// Positions on threads: the same report as one thread's with a playout budget.
    #[test]
    fn threads_equal_one_thread() {
        let settings = ReviewSettings { iterations: Some(150), solve_ms: 0.0, seed: 3, ..ReviewSettings::default() };
        let moves = ["c3", "d4", "d3", "c4"];
        let mut one = Review::new("hex:6", &moves, settings.clone()).unwrap();
        review_threads(&mut one, 1).unwrap();
        let mut two = Review::new("hex:6", &moves, settings).unwrap();
        review_threads(&mut two, 2).unwrap();
        let (mut a, mut b) = (one.report().unwrap(), two.report().unwrap());
        a.timing.clear();
        b.timing.clear();
        assert_eq!(a, b);
        assert!(review_threads(&mut one, 0).is_err());
        assert!(review_threads(&mut one, 65).unwrap_err().to_string().contains("1 ..= 64"));
    }
}
