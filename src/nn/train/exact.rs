//! Exact targets for training rows (issue 53): self-play positions labelled by the exact Hex
//! solver where it settles them within a work budget.
//!
//! AlphaZero's targets (Silver et al. 2017, "Mastering the game of Go without human knowledge";
//! 2018, "A general reinforcement learning algorithm that masters chess, shogi, and Go through
//! self-play") are the finished game's result z and the root's visit distribution π. On a board
//! the repository's df-pn solver settles ([`crate::solve::hex::dfpn`], the solver of the ground-truth
//! work: `mcts solve`, the review's exact values), a position can instead carry
//! - the **proven value** z* = +1 when the side to move wins with perfect play, −1 when it loses;
//! - the **proven winning moves** W (every empty cell whose child position the solver proves a
//!   loss for the opponent): the policy target π* is uniform over W. A proven loss has no winning
//!   move (every move loses), so π* = π, the visit distribution; so is a win whose moves the budget
//!   did not settle beyond the one the proof found (then W holds that move, and π* is uniform over
//!   the winning moves proven, not all of them).
//!
//! A labelled row's targets are mixed with the self-play ones in the stated proportion λ (`mix`):
//! z ← (1 − λ)·z + λ·z*, π ← (1 − λ)·π + λ·π*. λ = 1 trains on the exact targets alone where they
//! exist; a position the budget does not settle keeps its self-play targets.
//!
//! Cost (`examples/exact_labels.rs`, Hex 7×7 self-play positions of the shipped net, a loaded
//! 2-core machine, the test profile): 3.4 positions labelled per second of thread CPU time at
//! `solve_nodes` 100, 93% of them settled; most of the time goes to the moves of won positions.
//!
//! The budget is the solver's work, not a clock (df-pn MID calls, checked every 256), so a
//! labelled run is reproducible for its seed whatever the machine's load or the thread count; each
//! self-play game gets its own solver (and table), reused across that game's positions.

use super::selfplay::Sample;
use crate::game::{Game, Hex, MoveList, Player};
use crate::nn::features::Encoding;
use crate::solve::hex::dfpn::{Dfpn, DfpnConfig, DfpnStats};

/// Settings of the exact targets (`exact_targets` in a run's `config.json`; the CLI's
/// `--exact-targets solve_nodes=N,mix=X[,tt_log2=K]`).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ExactTargets {
    /// Work budget of one solve, in df-pn MID calls (the solver's recursive calls; a Hex 7×7
    /// middle-game position takes hundreds to thousands). A position and each of its moves get a
    /// budget each; the solver looks at its counter every 256 calls, so a budget runs to the next
    /// such check. 1 to [`MAX_SOLVE_NODES`].
    pub solve_nodes: u64,
    /// λ, the weight of the exact targets in a labelled row: 0 to 1 (see the module).
    pub mix: f64,
    /// log2 of the most entries (64 bytes each) of a game's solver table: 10 to 24 (default 16,
    /// 4 MiB).
    pub tt_log2: u32,
}

/// Largest [`ExactTargets::solve_nodes`].
pub const MAX_SOLVE_NODES: u64 = 100_000_000;

impl Default for ExactTargets {
    /// 20,000 MID calls per solve, λ = 0.5, a table of at most 2^16 entries (4 MiB).
    fn default() -> Self {
        ExactTargets { solve_nodes: 20_000, mix: 0.5, tt_log2: 16 }
    }
}

impl ExactTargets {
    /// Reads `solve_nodes=N,mix=X,tt_log2=K` (any of the three, in any order; the others keep
    /// their defaults).
    ///
    /// # Errors
    /// A sentence naming the part that is not `key=value` with a known key and a number.
    pub fn parse(text: &str) -> Result<ExactTargets, String> {
        let mut e = ExactTargets::default();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("exact targets: '{part}' is not key=value (keys: solve_nodes, mix, tt_log2)"))?;
            let bad = || format!("exact targets: '{part}': {v} is not a number");
            match k.trim() {
                "solve_nodes" => e.solve_nodes = v.trim().parse().map_err(|_| bad())?,
                "mix" => e.mix = v.trim().parse().map_err(|_| bad())?,
                "tt_log2" => e.tt_log2 = v.trim().parse().map_err(|_| bad())?,
                other => return Err(format!("exact targets: unknown key '{other}' (keys: solve_nodes, mix, tt_log2)")),
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
        Ok(())
    }
}

/// What the solver proved about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExactLabel {
    /// Whether the side to move wins with perfect play.
    pub mover_wins: bool,
    /// The proven winning moves (cells `row * size + col`, ascending) of a won position; empty
    /// for a lost one.
    pub winning_moves: Vec<u16>,
    /// Moves whose value the budget did not settle (0 when every move of a won position was
    /// settled; always 0 for a lost one, whose moves all lose).
    pub unknown_moves: usize,
}

/// A Hex position labeller: one df-pn solver whose table carries over from position to
/// position (positions of one game share most of their proofs).
pub struct Labeller {
    dfpn: Dfpn,
    budget: u64,
}

impl Labeller {
    /// A labeller with `cfg`'s budget and table size.
    ///
    /// # Errors
    /// The system refused the table's first entries.
    pub fn new(cfg: &ExactTargets) -> Result<Labeller, crate::solve::table::TableMemoryError> {
        Ok(Labeller { dfpn: Dfpn::new(DfpnConfig { tt_log2: cfg.tt_log2, ..DfpnConfig::default() })?, budget: cfg.solve_nodes })
    }

    /// Solves `g` within the budget: `None` if unsettled (or not a position the solver takes).
    fn solve(&mut self, g: &Hex) -> Option<Player> {
        let (budget, start) = (self.budget, self.dfpn.stats().mid_calls);
        let r = self.dfpn.solve(g, &mut |s: &DfpnStats| s.mid_calls - start >= budget).ok()??;
        Some(r.winner)
    }

    /// The exact label of `g` (a position not over), or `None` when the budget does not settle
    /// the position itself. A won position's moves are each solved with the same budget.
    pub fn label(&mut self, g: &Hex) -> Option<ExactLabel> {
        if g.is_terminal() {
            return None;
        }
        let me = g.to_move();
        let winner = self.solve(g)?;
        if winner != me {
            return Some(ExactLabel { mover_wins: false, winning_moves: Vec::new(), unknown_moves: 0 });
        }
        let mut moves = MoveList::new();
        g.legal_moves(&mut moves);
        let (mut winning_moves, mut unknown_moves) = (Vec::new(), 0);
        for &m in moves.iter() {
            let mut child = g.clone();
            child.play_unchecked(m);
            let w = if child.is_terminal() { child.outcome().and_then(|o| o.winner()) } else { self.solve(&child) };
            match w {
                Some(p) if p == me => winning_moves.push(m),
                Some(_) => {}
                None => unknown_moves += 1,
            }
        }
        winning_moves.sort_unstable();
        Some(ExactLabel { mover_wins: true, winning_moves, unknown_moves })
    }
}

/// Mixes a label into a row of the position it labels (`to_move` its side to move, `enc` the
/// game's encoding, whose frame the row's π is in): z ← (1 − λ)·z + λ·z*, π ← (1 − λ)·π + λ·π*
/// (the module's definitions).
pub fn apply(label: &ExactLabel, row: &mut Sample, enc: Encoding, to_move: Player, mix: f32) {
    let z_exact = if label.mover_wins { 1.0 } else { -1.0 };
    row.z = (1.0 - mix) * row.z + mix * z_exact;
    if label.mover_wins && !label.winning_moves.is_empty() {
        let share = 1.0 / label.winning_moves.len() as f32;
        row.pi.iter_mut().for_each(|p| *p *= 1.0 - mix);
        for &m in &label.winning_moves {
            row.pi[enc.canonical(m as usize, to_move)] += mix * share;
        }
    }
}
