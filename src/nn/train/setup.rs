//! The set-up both trainers share, the CLI's [`super::Trainer`] and the browser's
//! [`super::session::TrainSession`]: the configuration resolved (the game's canonical spec,
//! AlphaZero's Dirichlet α) and checked against the training limits, the game and its input
//! encoding with its symmetries, the learner (fresh and seeded, or from a checkpoint), the replay
//! buffer and the run's generator; and what both do with them: a self-play game with a given
//! net (`self_play`), its rows into the buffer (`Setup::keep`), a minibatch drawn from it
//! (`Setup::sample_batch`). The same configuration and seed give the same run in both.

use super::exact::{apply_with, EarlyLabels, EndgameLabeller, ExactLabel, ExactTargets, Labeller};
use super::learner::Learner;
use super::selfplay::{self_play_game, self_play_record, Sample};
use super::{ConvShape, TrainConfig, TrainError};
use crate::game::{AnyGame, Game};
use crate::nn::features::Encoding;
use crate::nn::Net;
use crate::rng::Rng64;
use crate::solve::table::TableMemoryError;
use std::collections::VecDeque;
use std::sync::Arc;

/// Largest self-play games per iteration (a training run shares the machine: in the browser,
/// with the page).
pub const MAX_GAMES: usize = 10_000;
/// Largest playouts per self-play or evaluation move.
pub const MAX_PLAYOUTS: u64 = 10_000;
/// Largest Adam steps per iteration.
pub const MAX_STEPS: usize = 100_000;
/// Largest number of iterations.
pub const MAX_ITERATIONS: usize = 10_000;
/// Largest minibatch (rows).
pub const MAX_BATCH: usize = 4_096;
/// Largest replay buffer (rows).
pub const MAX_BUFFER: usize = 1_000_000;
/// Largest evaluation match (games).
pub const MAX_EVAL_GAMES: u32 = 1_000;
/// Largest m of the Gumbel root (Danihelka et al. 2022; mctx's default is 16).
pub const MAX_GUMBEL_M: usize = 400;
/// Largest [`TrainConfig::opening_plies`].
pub const MAX_OPENING_PLIES: usize = 16;

/// A training run's shared state (see the module's documentation).
pub(super) struct Setup {
    /// The configuration, `game` canonical and `dirichlet_alpha` resolved.
    pub(super) config: TrainConfig,
    /// The start position of every self-play and evaluation game.
    pub(super) start: AnyGame,
    /// The game's input encoding.
    pub(super) enc: Encoding,
    /// The game's symmetries as cell permutations ([`Encoding::symmetries`]).
    pub(super) syms: Vec<Vec<usize>>,
    /// The net being trained, with its optimiser.
    pub(super) learner: Learner,
    /// The replay buffer: the last `buffer` rows.
    pub(super) buffer: VecDeque<Sample>,
    /// The run's generator (self-play seeds, minibatches, evaluation seeds), seeded by `seed`.
    pub(super) rng: Rng64,
    /// The exact labels of the early positions met so far ([`ExactTargets::early_plies`]).
    pub(super) early: EarlyLabels,
}

impl Setup {
    /// A run of `config` from a fresh net (burn's initialisation seeded by `config.seed`): an
    /// MLP of `config.hidden`, or with `config.conv` a convolutional net of that shape (Hex
    /// only); or from `init`'s weights. An MLP `init` whose hidden layers are not
    /// `config.hidden` is first grown to them by Net2Net ([`crate::nn::Mlp::grown`], seeded by
    /// `config.seed`: the same function in the larger net); a convolutional `init` must have
    /// `config.conv`'s shape. A `dirichlet_alpha` ≤ 0 means AlphaZero's scaling, 10 / cells
    /// capped at 1.
    ///
    /// # Errors
    /// [`TrainError`]: an unknown game or one without an input encoding, a setting out of range
    /// (the message names it and its range, [`check`]), `conv` for a game other than Hex,
    /// `init` for another game, an MLP `init` larger than `config.hidden` in a layer or in depth
    /// ([`crate::nn::Mlp::grown`]), an `init` of the other kind (MLP or convolutional) than the
    /// run's, or a convolutional `init` of another shape than `config.conv`.
    pub(super) fn new(mut config: TrainConfig, init: Option<&Net>) -> Result<Setup, TrainError> {
        let start = AnyGame::from_spec(&config.game)?;
        let spec = start.spec();
        let enc = Encoding::for_spec(&spec).ok_or_else(|| TrainError::NoEncoding(spec.clone()))?;
        if config.dirichlet_alpha <= 0.0 {
            config.dirichlet_alpha = (10.0 / enc.cells() as f64).min(1.0);
        }
        check(&config)?;
        config.game = spec.clone();
        let learner = match (init, config.conv) {
            (Some(net), _) if net.spec() != spec => {
                return Err(crate::nn::NetError::WrongGame { file: net.spec().to_string(), want: spec }.into());
            }
            // The same net when the shapes already agree (`grown` changes nothing then).
            (Some(Net::Mlp(m)), None) => Learner::from_mlp(&m.grown(&config.hidden, config.seed)?, config.lr, config.l2),
            (Some(Net::Conv(c)), Some(shape)) => {
                let have = ConvShape::of(c);
                if have != shape {
                    return Err(TrainError::Setting(format!(
                        "the initial net is {}, the run asks for conv channels={},blocks={},value_hidden={} (a convolutional net is not grown)",
                        net_shape(init.expect("some")),
                        shape.channels,
                        shape.blocks,
                        shape.value_hidden
                    )));
                }
                Learner::from_conv(c, config.lr, config.l2)
            }
            (Some(net), _) => {
                return Err(TrainError::Setting(format!(
                    "the initial net is {}, the run asks for {}: give --conv for a convolutional net, leave it out for a fully connected one",
                    net_shape(net),
                    if config.conv.is_some() { "a convolutional net" } else { "a fully connected net" }
                )));
            }
            (None, Some(shape)) => {
                let Encoding::Hex { n } = enc else {
                    return Err(TrainError::Setting(format!("training setting 'conv' is for Hex (hex:N), not '{spec}'")));
                };
                Learner::seeded_conv(config.seed, n, shape.channels, shape.blocks, shape.value_hidden, config.lr, config.l2)
            }
            (None, None) => Learner::seeded(config.seed, enc.inputs(), &config.hidden, enc.cells(), config.lr, config.l2),
        };
        Ok(Setup {
            rng: Rng64::new(config.seed),
            start,
            syms: enc.symmetries(),
            enc,
            learner,
            buffer: VecDeque::new(),
            config,
            early: EarlyLabels::default(),
        })
    }

    /// The current weights in the inference format.
    pub(super) fn net(&self) -> Net {
        self.learner.export(&self.config.game)
    }

    /// Puts a game's rows into the replay buffer, the oldest rows leaving it when it is full.
    pub(super) fn keep(&mut self, rows: Vec<Sample>) {
        for r in rows {
            if self.buffer.len() == self.config.buffer {
                self.buffer.pop_front();
            }
            self.buffer.push_back(r);
        }
    }

    /// `batch` rows sampled uniformly (with replacement) from the buffer, each under a symmetry
    /// of the game drawn uniformly (input planes and policy target permuted alike).
    pub(super) fn sample_batch(&mut self) -> Vec<Sample> {
        let n = self.buffer.len();
        let cells = self.enc.cells();
        (0..self.config.batch)
            .map(|_| {
                let s = &self.buffer[self.rng.index(n)];
                let perm = &self.syms[self.rng.index(self.syms.len())];
                let mut x = vec![0f32; 2 * cells];
                self.enc.permute_input(perm, &s.x, &mut x);
                let mut pi = vec![0f32; cells];
                for (i, &j) in perm.iter().enumerate() {
                    pi[j] = s.pi[i];
                }
                Sample { x, pi, z: s.z }
            })
            .collect()
    }
}

/// A net's shape in words for an error: "a fully connected net (98 → 128 → 128 → 49)" or "a
/// convolutional net (...)".
fn net_shape(net: &Net) -> String {
    match net {
        Net::Mlp(_) => format!("a fully connected net ({})", net.describe()),
        Net::Conv(_) => format!("a convolutional net ({})", net.describe()),
    }
}

/// Rows the exact solver labelled in some self-play games ([`super::exact`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct ExactCount {
    /// Rows given to the solver.
    pub tried: usize,
    /// Rows it settled within the budget (their targets mixed with the exact ones).
    pub proven: usize,
}

impl std::ops::AddAssign for ExactCount {
    fn add_assign(&mut self, o: ExactCount) {
        self.tried += o.tried;
        self.proven += o.proven;
    }
}

/// One self-play game of `net` from `start` under `config` ([`self_play_game`]), seeded by
/// `seed`: its rows, and with `config.exact_targets` each row's position given to the game's
/// exact labeller (the Hex proof-number solver, or the general solver of [`crate::solve::endgame`]
/// for Tic-Tac-Toe) and the settled ones' targets mixed with the exact ones ([`super::exact`]). A
/// function of the parts it reads (not of [`Setup`], whose learner stays on its thread), so that
/// the CLI plays games on several threads. `early` keeps the run's early positions' labels.
pub(super) fn self_play(
    start: &AnyGame,
    net: &Arc<Net>,
    config: &TrainConfig,
    seed: u64,
    early: &EarlyLabels,
) -> (Vec<Sample>, ExactCount) {
    match (start, &config.exact_targets) {
        (AnyGame::TicTacToe(g), None) => (self_play_game(net, g, config, seed), ExactCount::default()),
        (AnyGame::TicTacToe(g), Some(e)) => labelled(net, g, config, seed, e, early, |budget| {
            EndgameLabeller::new(e).map(|l| {
                let mut l = l.with_budget(budget);
                move |p: &_| l.label(p)
            })
        }),
        (AnyGame::Hex(g), None) => (self_play_game(net, g, config, seed), ExactCount::default()),
        (AnyGame::Hex(g), Some(e)) => labelled(net, g, config, seed, e, early, |budget| {
            Labeller::new(e).map(|l| {
                let mut l = l.with_budget(budget);
                move |p: &_| l.label(p)
            })
        }),
        _ => unreachable!("no encoding: refused in Setup::new"),
    }
}

/// A self-play game of `net` from `g` whose rows are labelled, each in the order of the game, by
/// the labeller `make` builds for this game with the budget `solve_nodes` (one per game: its
/// table carries over from position to position), an early position's ([`ExactTargets::early_plies`])
/// by a fresh labeller of the budget `early_nodes` once a run (kept in `early`), and mixed with
/// `e`'s λ and policy. A table the system refuses leaves the rows as self-play made them.
fn labelled<G: Game, L: FnMut(&G) -> Option<ExactLabel>>(
    net: &Arc<Net>,
    g: &G,
    config: &TrainConfig,
    seed: u64,
    e: &ExactTargets,
    early: &EarlyLabels,
    make: impl Fn(u64) -> Result<L, TableMemoryError>,
) -> (Vec<Sample>, ExactCount) {
    let mut rec = self_play_record(net, g, config, seed);
    let mut count = ExactCount { tried: rec.rows.len(), proven: 0 };
    let Ok(mut label) = make(e.solve_nodes) else { return (rec.rows, ExactCount::default()) };
    let enc = Encoding::for_spec(&g.spec()).expect("trainable game");
    let positions = rec.row_positions(g);
    for (row, pos) in rec.rows.iter_mut().zip(positions) {
        // `early_plies` 0 is off: the empty board too keeps the game's own budget.
        let exact = if e.early_plies > 0 && pos.ply() <= e.early_plies {
            early.get_or_solve(pos.hash(), || make(e.early_nodes).ok().and_then(|mut l| l(&pos)))
        } else {
            label(&pos)
        };
        if let Some(l) = exact {
            apply_with(&l, row, enc, pos.to_move(), e.mix as f32, e.policy);
            count.proven += 1;
        }
    }
    (rec.rows, count)
}

/// Checks every setting against its range; the error names the setting and the range.
///
/// # Errors
/// [`TrainError::Setting`]: "training setting 'games' must be 1 to 10000".
pub fn check(c: &TrainConfig) -> Result<(), TrainError> {
    let bad = |name: &str, range: &str| Err(TrainError::Setting(format!("training setting '{name}' must be {range}")));
    if !(1..=MAX_ITERATIONS).contains(&c.iterations) {
        return bad("iterations", &format!("1 to {MAX_ITERATIONS}"));
    }
    if !(1..=MAX_GAMES).contains(&c.games) {
        return bad("games", &format!("1 to {MAX_GAMES}"));
    }
    if !(1..=MAX_PLAYOUTS).contains(&c.playouts) {
        return bad("playouts", &format!("1 to {MAX_PLAYOUTS}"));
    }
    if !(1..=MAX_STEPS).contains(&c.steps) {
        return bad("steps", &format!("1 to {MAX_STEPS}"));
    }
    if !(1..=MAX_BATCH).contains(&c.batch) {
        return bad("batch", &format!("1 to {MAX_BATCH}"));
    }
    if !(c.batch..=MAX_BUFFER).contains(&c.buffer) {
        return bad("buffer", &format!("batch ({}) to {MAX_BUFFER}", c.batch));
    }
    if let Some(shape) = &c.conv {
        if !(1..=crate::nn::conv::MAX_CHANNELS).contains(&shape.channels) {
            return bad("conv.channels", &format!("1 to {}", crate::nn::conv::MAX_CHANNELS));
        }
        if shape.blocks > crate::nn::MAX_HIDDEN_LAYERS {
            return bad("conv.blocks", &format!("0 to {}", crate::nn::MAX_HIDDEN_LAYERS));
        }
        if !(1..=crate::nn::MAX_WIDTH).contains(&shape.value_hidden) {
            return bad("conv.value_hidden", &format!("1 to {}", crate::nn::MAX_WIDTH));
        }
    }
    if c.hidden.is_empty() || c.hidden.len() > 4 || !c.hidden.iter().all(|&h| (1..=crate::nn::MAX_WIDTH).contains(&h)) {
        return bad("hidden", &format!("1 to 4 layer widths of 1 to {}", crate::nn::MAX_WIDTH));
    }
    if !(c.lr > 0.0 && c.lr < 1.0) {
        return bad("lr", "above 0 and below 1");
    }
    if !(0.0..1.0).contains(&c.l2) {
        return bad("l2", "0 or more and below 1");
    }
    if !(c.c.is_finite() && c.c > 0.0 && c.c <= 100.0) {
        return bad("c", "above 0 and at most 100");
    }
    if !(c.dirichlet_alpha.is_finite() && c.dirichlet_alpha <= 100.0) {
        return bad("dirichlet_alpha", "at most 100 (0: 10 / cells)");
    }
    if !(0.0..=1.0).contains(&c.dirichlet_eps) {
        return bad("dirichlet_eps", "0 to 1");
    }
    if c.eval_games > MAX_EVAL_GAMES {
        return bad("eval_games", &format!("0 to {MAX_EVAL_GAMES}"));
    }
    if c.eval_playouts > MAX_PLAYOUTS {
        return bad("eval_playouts", &format!("0 to {MAX_PLAYOUTS}"));
    }
    if c.temperature_moves > 1_000 {
        return bad("temperature_moves", "0 to 1000");
    }
    if crate::mcts::SearchConfig::preset(&c.reference).is_err() {
        return bad("reference", "a preset name (e.g. uct)");
    }
    if !(1..=MAX_GUMBEL_M).contains(&c.gumbel_m) {
        return bad("gumbel_m", &format!("1 to {MAX_GUMBEL_M}"));
    }
    if !(c.full_search_fraction > 0.0 && c.full_search_fraction <= 1.0) {
        return bad("full_search_fraction", "above 0 and at most 1");
    }
    if !(1..=MAX_PLAYOUTS).contains(&c.fast_playouts) {
        return bad("fast_playouts", &format!("1 to {MAX_PLAYOUTS}"));
    }
    if c.opening_plies > MAX_OPENING_PLIES {
        return bad("opening_plies", &format!("0 to {MAX_OPENING_PLIES}"));
    }
    if c.opening_plies_min.is_some_and(|m| m > c.opening_plies) {
        return bad("opening_plies_min", "0 to opening_plies");
    }
    if let Some(e) = &c.exact_targets {
        e.check().map_err(TrainError::Setting)?;
        let solvable = match AnyGame::from_spec(&c.game) {
            Ok(AnyGame::Hex(h)) => h.size() <= crate::game::hex::MAX_SOLVE_SIZE && !h.swap_enabled(),
            Ok(AnyGame::TicTacToe(_)) => true,
            _ => false,
        };
        if !solvable {
            return Err(TrainError::Setting(format!(
                "training setting 'exact_targets' needs a game the exact solver settles: tictactoe, or hex:N with N at most {} (without swap)",
                crate::game::hex::MAX_SOLVE_SIZE
            )));
        }
    }
    Ok(())
}
