//! Exact targets for training rows (issue 53): self-play positions labelled by an exact solver
//! where it settles them within a work budget — the Hex proof-number solver on Hex, the general
//! alpha-beta solver of games with draws ([`crate::solve::endgame`]) on Tic-Tac-Toe.
//!
//! AlphaZero's targets (Silver et al. 2017, "Mastering the game of Go without human knowledge";
//! 2018, "A general reinforcement learning algorithm that masters chess, shogi, and Go through
//! self-play") are the finished game's result z and the root's visit distribution π. On a board
//! the repository's solvers settle ([`crate::solve::hex::dfpn`], the solver of the ground-truth
//! work: `mcts solve`, the review's exact values; [`crate::solve::endgame`] for Tic-Tac-Toe), a
//! position can instead carry
//! - the **proven value** z* = +1 when the side to move wins with perfect play, 0 when it draws
//!   (Tic-Tac-Toe; Hex has no draw), −1 when it loses;
//! - the **proven optimal moves** W, the moves that keep the proven value (the winning moves of a
//!   win, the drawing moves of a draw: every move whose child position the solver proves of the
//!   same value for the mover): the policy target π* is uniform over W. A proven loss has no such
//!   move worth preferring (every move loses), so π* = π, the visit distribution; on Hex so is a
//!   win whose moves the budget did not settle beyond the one the proof found (then W holds that
//!   move, and π* is uniform over the winning moves proven, not all of them).
//!
//! A labelled row's targets are mixed with the self-play ones in the stated proportion λ (`mix`):
//! z ← (1 − λ)·z + λ·z*, π ← (1 − λ)·π + λ·π*. λ = 1 trains on the exact targets alone where they
//! exist; a position the budget does not settle keeps its self-play targets.
//!
//! π* of a won (or drawn) position ([`ExactPolicy`], the `policy` key): `uniform` over W (the
//! definition above, the default); `visits`, the self-play distribution π restricted to W and
//! renormalised (uniform over W when π puts nothing there), which drops the losing moves but
//! keeps the search's preferences among the optimal ones, so the prior PUCT leans on stays as
//! sharp as self-play made it; or `none` (π* = π: the exact value alone).
//!
//! Cost on Hex (`examples/exact_labels.rs`, the 54 positions of 2 Hex 7×7 self-play games of the
//! shipped net, release build, thread CPU time on a loaded 2-core machine): the position's value
//! alone (policy `none`) takes about 35 expanded nodes, **83 positions labelled per second** at
//! `solve_nodes` 1,000 (all settled; 100 a second at 100, 87% settled); the winning moves as well
//! (`uniform`, `visits`) about 3,700 nodes, **0.9 a second** (2.8 at 100): every legal move of a
//! won position is a proof of its own, and each expanded node costs about 340 µs (the fill-in and
//! two H-search builds), which the shared table, the must-play region and looking for no winning
//! move in the children did not measurably change. Before those: 0.8 and 2.7 a second.
//! Tic-Tac-Toe costs next to nothing: the whole game has 5,478 positions and the empty board is
//! settled in 479 ([`crate::solve::endgame`]), so every position is labelled, and every one of
//! its moves, well within the default budget (`solve_nodes` counts the alpha-beta's positions
//! there, checked every [`crate::solve::endgame::STOP_EVERY`]; in practice it never binds).
//!
//! **Early positions** (`early_plies`, `early_nodes`; off by default): a position at most
//! `early_plies` moves from the start (a Hex 7×7 opening is settled in 10,000 to 35,000 MID calls,
//! a second or a few, far beyond a middle-game budget) is solved with its own budget
//! `early_nodes`, by a fresh solver (an empty table), so its label depends on the position alone;
//! the label, settled or not, is kept for the rest of the run and shared by every game and
//! thread ([`EarlyLabels`]), so each such position costs one solve a run. Without it a first
//! move's value target is the self-play result alone, and the value head's sign on the 49 Hex 7×7
//! openings wandered between 34 and 47 of 49 over a run (issue 53).
//!
//! The budget is the solver's work, not a clock (df-pn MID calls checked every 256, or alpha-beta
//! positions), so a labelled run is reproducible for its seed whatever the machine's load or the
//! thread count; each self-play game gets its own solver (and table), reused across that game's
//! positions.

use super::selfplay::Sample;
use crate::game::{Game, Hex, MoveList, Player};
use crate::nn::features::Encoding;
use crate::solve::endgame::{Exact, ExactConfig, Value};
use crate::solve::hex::dfpn::{Dfpn, DfpnConfig, DfpnStats};
use std::collections::HashMap;
use std::sync::Mutex;

/// Settings of the exact targets (`exact_targets` in a run's `config.json`; the CLI's
/// `--exact-targets solve_nodes=N,mix=X[,tt_log2=K][,policy=uniform|visits|none]`).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ExactTargets {
    /// Work budget of one solve, in df-pn MID calls on Hex (the solver's recursive calls; a Hex
    /// 7×7 middle-game position takes hundreds to thousands), in alpha-beta positions on
    /// Tic-Tac-Toe (at most 479 for the empty board: the default never binds). A position and
    /// each of its moves get a budget each; the solver looks at its counter every 256 calls
    /// (Hex) or 1,024 positions, so a budget runs to the next such check. 1 to
    /// [`MAX_SOLVE_NODES`].
    pub solve_nodes: u64,
    /// λ, the weight of the exact targets in a labelled row: 0 to 1 (see the module).
    pub mix: f64,
    /// log2 of the most entries (64 bytes each on Hex, 24 on Tic-Tac-Toe, where at most 2^14 are
    /// used) of a game's solver table: 10 to 24 (default 16, 4 MiB on Hex).
    pub tt_log2: u32,
    /// The policy target π* of a won position (see the module; default `uniform`).
    pub policy: ExactPolicy,
    /// Positions at most this many moves (plies) from the start are solved with the budget
    /// `early_nodes` instead, once a run (see the module): 0 (the default, off) to
    /// [`MAX_EARLY_PLIES`].
    pub early_plies: usize,
    /// Work budget of an early position's solve, in the unit of `solve_nodes` (default
    /// 1,000,000; 1 to [`MAX_SOLVE_NODES`]).
    pub early_nodes: u64,
}

/// The policy target π* of a position the solver proves won (or drawn), over its proven optimal
/// moves W (see the module).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ExactPolicy {
    /// Uniform over W.
    #[default]
    Uniform,
    /// The self-play distribution π restricted to W, renormalised (uniform over W when π puts
    /// nothing on W).
    Visits,
    /// π itself: the exact value alone is mixed in.
    None,
}

/// Largest [`ExactTargets::solve_nodes`] and [`ExactTargets::early_nodes`].
pub const MAX_SOLVE_NODES: u64 = 100_000_000;
/// Largest [`ExactTargets::early_plies`].
pub const MAX_EARLY_PLIES: usize = 4;

impl Default for ExactTargets {
    /// 20,000 MID calls per solve, λ = 0.5, a table of at most 2^16 entries (4 MiB), no early
    /// positions.
    fn default() -> Self {
        ExactTargets { solve_nodes: 20_000, mix: 0.5, tt_log2: 16, policy: ExactPolicy::Uniform, early_plies: 0, early_nodes: 1_000_000 }
    }
}

impl ExactTargets {
    /// Reads `solve_nodes=N,mix=X,tt_log2=K,policy=P,early_plies=E,early_nodes=M` (any of them,
    /// in any order; the others keep their defaults; P is `uniform`, `visits` or `none`).
    ///
    /// # Errors
    /// A sentence naming the part that is not `key=value` with a known key and a number.
    pub fn parse(text: &str) -> Result<ExactTargets, String> {
        let mut e = ExactTargets::default();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').ok_or_else(|| {
                format!("exact targets: '{part}' is not key=value (keys: solve_nodes, mix, tt_log2, policy, early_plies, early_nodes)")
            })?;
            let bad = || format!("exact targets: '{part}': {v} is not a number");
            match k.trim() {
                "solve_nodes" => e.solve_nodes = v.trim().parse().map_err(|_| bad())?,
                "mix" => e.mix = v.trim().parse().map_err(|_| bad())?,
                "tt_log2" => e.tt_log2 = v.trim().parse().map_err(|_| bad())?,
                "early_plies" => e.early_plies = v.trim().parse().map_err(|_| bad())?,
                "early_nodes" => e.early_nodes = v.trim().parse().map_err(|_| bad())?,
                "policy" => {
                    e.policy = match v.trim() {
                        "uniform" => ExactPolicy::Uniform,
                        "visits" => ExactPolicy::Visits,
                        "none" => ExactPolicy::None,
                        _ => return Err(format!("exact targets: '{part}': the policy is uniform, visits or none")),
                    }
                }
                other => {
                    return Err(format!(
                        "exact targets: unknown key '{other}' (keys: solve_nodes, mix, tt_log2, policy, early_plies, early_nodes)"
                    ))
                }
            }
        }
        e.check()?;
        Ok(e)
    }

    /// Checks the ranges; the error names the setting and its range.
    ///
    /// # Errors
    /// "training setting 'exact_targets.mix' must be 0 to 1", and so on.
    pub fn check(&self) -> Result<(), String> {
        let bad = |name: &str, range: &str| Err(format!("training setting 'exact_targets.{name}' must be {range}"));
        if !(1..=MAX_SOLVE_NODES).contains(&self.solve_nodes) {
            return bad("solve_nodes", &format!("1 to {MAX_SOLVE_NODES}"));
        }
        if !(0.0..=1.0).contains(&self.mix) {
            return bad("mix", "0 to 1");
        }
        if !(10..=24).contains(&self.tt_log2) {
            return bad("tt_log2", "10 to 24");
        }
        if self.early_plies > MAX_EARLY_PLIES {
            return bad("early_plies", &format!("0 to {MAX_EARLY_PLIES}"));
        }
        if !(1..=MAX_SOLVE_NODES).contains(&self.early_nodes) {
            return bad("early_nodes", &format!("1 to {MAX_SOLVE_NODES}"));
        }
        Ok(())
    }
}

/// What the solver proved about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExactLabel {
    /// The position's value for the side to move with perfect play (never a draw on Hex).
    pub value: Value,
    /// The proven optimal moves W, those that keep `value` (cells `row * size + col`,
    /// ascending): the winning moves of a won position, the drawing moves of a drawn one; empty
    /// for a lost one.
    pub moves: Vec<u16>,
    /// Moves whose value the budget did not settle (0 when every move was settled; always 0 for
    /// a lost one, whose moves all lose).
    pub unknown_moves: usize,
}

impl ExactLabel {
    /// Whether the side to move wins with perfect play.
    pub fn mover_wins(&self) -> bool {
        self.value == Value::Win
    }

    /// z*: +1 for a win, 0 for a draw, −1 for a loss.
    pub fn z(&self) -> f32 {
        f32::from(self.value.score())
    }
}

/// A Hex position labeller: one df-pn solver whose table carries over from position to
/// position (positions of one game share most of their proofs).
pub struct Labeller {
    dfpn: Dfpn,
    budget: u64,
    policy: ExactPolicy,
}

impl Labeller {
    /// A labeller with `cfg`'s budget and table size.
    ///
    /// # Errors
    /// The system refused the table's first entries.
    pub fn new(cfg: &ExactTargets) -> Result<Labeller, crate::solve::table::TableMemoryError> {
        Ok(Labeller {
            dfpn: Dfpn::new(DfpnConfig { tt_log2: cfg.tt_log2, ..DfpnConfig::default() })?,
            budget: cfg.solve_nodes,
            policy: cfg.policy,
        })
    }

    /// The same labeller with a budget of `budget` MID calls a solve in place of `solve_nodes`
    /// (an early position's, [`ExactTargets::early_nodes`]).
    pub fn with_budget(mut self, budget: u64) -> Labeller {
        self.budget = budget;
        self
    }

    /// The solver's work counters since the labeller was made (MID calls, nodes expanded, ...).
    pub fn stats(&self) -> DfpnStats {
        self.dfpn.stats()
    }

    /// Whether the side to move wins `g` (not over), within the budget: `None` if unsettled
    /// (or not a position the solver takes). The value only: no winning move is looked for.
    fn mover_wins(&mut self, g: &Hex) -> Option<bool> {
        let (budget, start) = (self.budget, self.dfpn.stats().mid_calls);
        self.dfpn.solve_value(g, &mut |s: &DfpnStats| s.mid_calls - start >= budget).ok()?
    }

    /// The exact label of `g` (a position not over), or `None` when the budget does not settle
    /// the position itself. A won position's moves are settled, in this order, by the end of
    /// the game, by the table the root's proof left (the same solver and table throughout), by
    /// the knowledge that proves a move losing without search ([`Dfpn::losing_moves`]: outside
    /// the opponent's must-play region), and else by a solve of the child position with the same
    /// budget. With the policy `none` ([`ExactPolicy::None`]: the value alone is used) the
    /// moves are not solved: a won position's label has no winning move and every legal move
    /// unknown.
    pub fn label(&mut self, g: &Hex) -> Option<ExactLabel> {
        if g.is_terminal() {
            return None;
        }
        let me = g.to_move();
        if !self.mover_wins(g)? {
            return Some(ExactLabel { value: Value::Loss, moves: Vec::new(), unknown_moves: 0 });
        }
        if self.policy == ExactPolicy::None {
            let mut moves = MoveList::new();
            g.legal_moves(&mut moves);
            return Some(ExactLabel { value: Value::Win, moves: Vec::new(), unknown_moves: moves.len() });
        }
        let losing = self.dfpn.losing_moves(g);
        let mut moves = MoveList::new();
        g.legal_moves(&mut moves);
        let (mut winning_moves, mut unknown_moves) = (Vec::new(), 0);
        for &m in moves.iter() {
            let mut child = g.clone();
            child.play_unchecked(m);
            // Whether the move wins: the child is a loss for the opponent.
            let wins = if let Some(o) = child.outcome() {
                Some(o.winner() == Some(me))
            } else if let Some(opponent_wins) = self.dfpn.proven(&child) {
                Some(!opponent_wins)
            } else if (losing >> m) & 1 == 1 {
                Some(false)
            } else {
                self.mover_wins(&child).map(|opponent_wins| !opponent_wins)
            };
            match wins {
                Some(true) => winning_moves.push(m),
                Some(false) => {}
                None => unknown_moves += 1,
            }
        }
        winning_moves.sort_unstable();
        Some(ExactLabel { value: Value::Win, moves: winning_moves, unknown_moves })
    }
}

/// A labeller of a game the general exact solver settles ([`crate::solve::endgame`]: every
/// Tic-Tac-Toe position), one alpha-beta solver whose table carries over from position to
/// position: the value of the position, and with a policy other than `none` the value of each of
/// its moves, the optimal ones those that keep it.
pub struct EndgameLabeller<G: Game> {
    exact: Exact<G>,
    budget: u64,
    policy: ExactPolicy,
}

impl<G: Game> EndgameLabeller<G> {
    /// A labeller with `cfg`'s budget (alpha-beta positions per solve) and table size (at most
    /// 2^`tt_log2` entries of 24 bytes).
    ///
    /// # Errors
    /// The system refused the table's first entries.
    pub fn new(cfg: &ExactTargets) -> Result<EndgameLabeller<G>, crate::solve::table::TableMemoryError> {
        Ok(EndgameLabeller { exact: Exact::new(ExactConfig { tt_log2: cfg.tt_log2 })?, budget: cfg.solve_nodes, policy: cfg.policy })
    }

    /// The same labeller with a budget of `budget` alpha-beta positions a solve in place of
    /// `solve_nodes` (an early position's, [`ExactTargets::early_nodes`]).
    pub fn with_budget(mut self, budget: u64) -> EndgameLabeller<G> {
        self.budget = budget;
        self
    }

    /// The value of `g` for its side to move within the budget (`None`: unsettled). A finished
    /// game's value is its result.
    fn value(&mut self, g: &G) -> Option<Value> {
        let (budget, start) = (self.budget, self.exact.stats().nodes);
        self.exact.solve(g, &mut |s| s.nodes - start >= budget).map(|s| s.value)
    }

    /// The exact label of `g` (a position not over), or `None` when the budget does not settle
    /// the position itself. A won or drawn position's moves are each solved (the finished ones
    /// by their result) and those of the root's value kept; a move the budget does not settle
    /// counts in `unknown_moves`. With the policy `none` no move is solved (every legal move of
    /// a won or drawn position unknown), as on Hex.
    pub fn label(&mut self, g: &G) -> Option<ExactLabel> {
        if g.is_terminal() {
            return None;
        }
        let value = self.value(g)?;
        let mut legal = MoveList::new();
        g.legal_moves(&mut legal);
        if value == Value::Loss {
            return Some(ExactLabel { value, moves: Vec::new(), unknown_moves: 0 });
        }
        if self.policy == ExactPolicy::None {
            return Some(ExactLabel { value, moves: Vec::new(), unknown_moves: legal.len() });
        }
        let (mut moves, mut unknown_moves) = (Vec::new(), 0);
        for &m in legal.iter() {
            let mut child = g.clone();
            child.play_unchecked(m);
            // The child's value for the opponent, flipped: the move's value for the mover.
            match self.value(&child).map(Value::flip) {
                Some(v) if v == value => moves.push(g.move_index(m) as u16),
                Some(_) => {}
                None => unknown_moves += 1,
            }
        }
        moves.sort_unstable();
        Some(ExactLabel { value, moves, unknown_moves })
    }
}

/// The labels of a run's early positions ([`ExactTargets::early_plies`]), shared by its games and
/// threads: each position's label (or `None`, unsettled within `early_nodes`) by its Zobrist
/// hash ([`Game::hash`]; 64 bits, for the few thousand positions a run meets). A label is a
/// function of the position alone (a fresh solver makes it), so the run stays the same for any
/// thread count and any order in which its games ask.
#[derive(Debug, Default)]
pub struct EarlyLabels {
    labels: Mutex<HashMap<u64, Option<ExactLabel>>>,
}

impl EarlyLabels {
    /// The label of the position whose hash is `hash`, from `solve` the first time it is asked
    /// for. The lock is not held while `solve` runs (two threads may solve one position at once;
    /// both get the same label).
    pub fn get_or_solve(&self, hash: u64, solve: impl FnOnce() -> Option<ExactLabel>) -> Option<ExactLabel> {
        if let Some(l) = self.lock().get(&hash) {
            return l.clone();
        }
        let label = solve();
        self.lock().entry(hash).or_insert(label).clone()
    }

    /// Positions labelled or tried so far.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no early position was asked for yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Option<ExactLabel>>> {
        // A thread that panicked while holding the lock left a map of finished entries.
        self.labels.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Mixes a label into a row of the position it labels (`to_move` its side to move, `enc` the
/// game's encoding, whose frame the row's π is in): z ← (1 − λ)·z + λ·z*, π ← (1 − λ)·π + λ·π*
/// (the module's definitions), π* uniform over the optimal moves.
pub fn apply(label: &ExactLabel, row: &mut Sample, enc: Encoding, to_move: Player, mix: f32) {
    apply_with(label, row, enc, to_move, mix, ExactPolicy::Uniform);
}

/// [`apply`] with the policy target π* of a won or drawn position given by `policy`
/// ([`ExactPolicy`]).
pub fn apply_with(label: &ExactLabel, row: &mut Sample, enc: Encoding, to_move: Player, mix: f32, policy: ExactPolicy) {
    row.z = (1.0 - mix) * row.z + mix * label.z();
    if label.value == Value::Loss || label.moves.is_empty() || policy == ExactPolicy::None {
        return;
    }
    let cells: Vec<usize> = label.moves.iter().map(|&m| enc.canonical(m as usize, to_move)).collect();
    let on_w: f32 = cells.iter().map(|&c| row.pi[c]).sum();
    let target: Vec<f32> = match policy {
        ExactPolicy::Visits if on_w > 0.0 => cells.iter().map(|&c| row.pi[c] / on_w).collect(),
        _ => vec![1.0 / cells.len() as f32; cells.len()],
    };
    row.pi.iter_mut().for_each(|p| *p *= 1.0 - mix);
    for (&c, t) in cells.iter().zip(target) {
        row.pi[c] += mix * t;
    }
}
