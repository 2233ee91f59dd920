//! The AlphaZero loop of [`super::Trainer`] cut into bounded steps, for a caller that must stay
//! responsive between them: the browser's training worker (the Train panel) posts progress and
//! handles Pause between two [`TrainSession::step`] calls.
//!
//! One iteration (Silver et al. 2017, as in [`super::Trainer::iterate`]): `games` self-play games
//! with the net as it was at the start of the iteration ([`super::selfplay`]), their rows
//! (input planes, root visit distribution π, outcome z) into a replay buffer of the last `buffer`
//! rows, `steps` Adam minibatches of `batch` rows sampled uniformly under a random symmetry
//! ([`crate::nn::features::Encoding::symmetries`]), then an evaluation of the new net: its raw
//! policy (the legal move of highest prior, no search) and, when `eval_playouts > 0`, its PUCT
//! search of `eval_playouts` playouts, each in `eval_games` games against the reference with
//! colours alternating — perfect play on Tic-Tac-Toe (negamax, [`super::eval::perfect_player`]),
//! the `reference` preset at `eval_playouts` playouts on Hex.
//!
//! A step does one bounded piece of work: at most `chunk_games` self-play games, or at most
//! `chunk_steps` Adam steps, or the evaluation. No clock is read (wasm32 has no `Instant`): the
//! caller times the steps. The same configuration and seed give the same run (natively; in the
//! browser too, since every generator is named and seeded).

use super::eval::{self, MatchResult, Player};
use super::learner::Losses;
use super::setup::{self_play, ExactCount, Setup};
use super::{TrainConfig, TrainError};
use crate::game::{AnyGame, Game};
use crate::nn::Net;
use std::sync::Arc;

pub use super::setup::{MAX_BATCH, MAX_BUFFER, MAX_EVAL_GAMES, MAX_GAMES, MAX_ITERATIONS, MAX_PLAYOUTS, MAX_STEPS};

/// Default self-play games per [`TrainSession::step`].
pub const CHUNK_GAMES: usize = 2;
/// Default Adam steps per [`TrainSession::step`].
pub const CHUNK_STEPS: usize = 8;

/// What the session does next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Phase {
    /// Self-play games of the current iteration.
    SelfPlay,
    /// Adam steps of the current iteration.
    Learn,
    /// The evaluation that ends the iteration.
    Evaluate,
    /// All `iterations` are done; [`TrainSession::step`] does nothing more.
    Done,
}

/// Results against the reference, split by the net's colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct ColourResults {
    /// Games where the net moved first (X in Tic-Tac-Toe, Black in Hex).
    pub first: MatchResult,
    /// Games where the net moved second.
    pub second: MatchResult,
    /// Both together.
    pub total: MatchResult,
}

/// The report of one finished iteration.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct IterationReport {
    /// Iteration, from 1.
    pub iteration: usize,
    /// Self-play games so far (all iterations).
    pub games: usize,
    /// Rows in the replay buffer.
    pub buffer: usize,
    /// Mean losses over the iteration's Adam steps (the losses before each step).
    pub loss: Losses,
    /// The reference: `perfect play` (Tic-Tac-Toe) or `PRESET at N playouts`.
    pub reference: String,
    /// The raw policy (highest prior, no search) against the reference (empty with
    /// `eval_games = 0`).
    pub raw: ColourResults,
    /// The net's PUCT search of `eval_playouts` playouts against the reference (None when
    /// `eval_playouts = 0` or `eval_games = 0`).
    pub search: Option<ColourResults>,
    /// With exact targets: the iteration's rows given to the solver and those it labelled
    /// (absent without).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<ExactCount>,
}

/// Where the session is, after a step.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Progress {
    /// What the next step will do.
    pub phase: Phase,
    /// Iterations finished.
    pub iteration: usize,
    /// Iterations of the run (the configuration's `iterations`).
    pub iterations: usize,
    /// Self-play games so far.
    pub games: usize,
    /// Self-play games in the current iteration so far (of the configuration's `games`).
    pub iteration_games: usize,
    /// Adam steps in the current iteration so far (of the configuration's `steps`).
    pub iteration_steps: usize,
    /// Adam steps so far.
    pub adam_steps: usize,
    /// Positions (rows) played in self-play so far.
    pub positions: usize,
    /// Rows in the replay buffer.
    pub buffer: usize,
    /// Mean losses of the last step's Adam steps (None until the first Adam step).
    pub loss: Option<Losses>,
    /// The iteration this step finished, if it finished one.
    pub finished: Option<IterationReport>,
}

/// A training run in bounded steps (see the module's documentation).
pub struct TrainSession {
    /// The set-up shared with the CLI's [`super::Trainer`].
    run: Setup,
    /// The net of the current iteration's self-play (the weights at the iteration's start).
    current: Arc<Net>,
    chunk_games: usize,
    chunk_steps: usize,
    phase: Phase,
    iteration: usize,
    games: usize,
    iteration_games: usize,
    iteration_steps: usize,
    adam_steps: usize,
    positions: usize,
    sum: Losses,
    last: Option<Losses>,
    /// The current iteration's rows given to the exact solver and labelled.
    exact: ExactCount,
}

impl TrainSession {
    /// A session from a fresh net (burn's initialisation seeded by `config.seed`), or from
    /// `init`'s weights ([`super::setup`], as [`super::Trainer::new`]).
    ///
    /// # Errors
    /// [`TrainError`]: an unknown game or one without an input encoding, a setting out of range
    /// (the message names it and its range, [`super::setup::check`]), `init` for another game,
    /// or of another kind or shape than the run's (as [`super::Trainer::new`]).
    pub fn new(config: TrainConfig, init: Option<&Net>) -> Result<TrainSession, TrainError> {
        let run = Setup::new(config, init)?;
        let current = Arc::new(run.net());
        Ok(TrainSession {
            run,
            current,
            chunk_games: CHUNK_GAMES,
            chunk_steps: CHUNK_STEPS,
            phase: Phase::SelfPlay,
            iteration: 0,
            games: 0,
            iteration_games: 0,
            iteration_steps: 0,
            adam_steps: 0,
            positions: 0,
            sum: Losses::default(),
            last: None,
            exact: ExactCount::default(),
        })
    }

    /// Sets the work of one step: at most `games` self-play games (≥ 1) or `steps` Adam steps
    /// (≥ 1); defaults [`CHUNK_GAMES`] and [`CHUNK_STEPS`].
    pub fn with_chunks(mut self, games: usize, steps: usize) -> TrainSession {
        self.chunk_games = games.max(1);
        self.chunk_steps = steps.max(1);
        self
    }

    /// The configuration (with `game` canonical and `dirichlet_alpha` resolved).
    pub fn config(&self) -> &TrainConfig {
        &self.run.config
    }

    /// Whether every iteration is done.
    pub fn is_done(&self) -> bool {
        self.phase == Phase::Done
    }

    /// The current weights in the inference format.
    pub fn net(&self) -> Net {
        self.run.net()
    }

    /// The current weights as an `MCTSNET` file ([`Net::to_bytes`]), e.g. for the play worker.
    pub fn weights(&self) -> Vec<u8> {
        self.net().to_bytes()
    }

    /// Where the session is, without doing any work.
    pub fn progress(&self) -> Progress {
        Progress {
            phase: self.phase,
            iteration: self.iteration,
            iterations: self.run.config.iterations,
            games: self.games,
            iteration_games: self.iteration_games,
            iteration_steps: self.iteration_steps,
            adam_steps: self.adam_steps,
            positions: self.positions,
            buffer: self.run.buffer.len(),
            loss: self.last,
            finished: None,
        }
    }

    /// Does one bounded piece of work (self-play games, Adam steps, or the evaluation) and says
    /// where the session is. After the last iteration it does nothing (phase `done`).
    pub fn step(&mut self) -> Progress {
        let mut finished = None;
        match self.phase {
            Phase::SelfPlay => {
                let n = self.chunk_games.min(self.run.config.games - self.iteration_games);
                for _ in 0..n {
                    self.self_play_one();
                }
                if self.iteration_games == self.run.config.games {
                    self.phase = Phase::Learn;
                }
            }
            Phase::Learn => {
                let n = self.chunk_steps.min(self.run.config.steps - self.iteration_steps);
                let mut chunk = Losses::default();
                for _ in 0..n {
                    let batch = self.run.sample_batch();
                    let l = self.run.learner.step(&batch);
                    let k = self.run.config.steps as f64;
                    self.sum.policy += l.policy / k;
                    self.sum.value += l.value / k;
                    self.sum.entropy += l.entropy / k;
                    chunk.policy += l.policy / n as f64;
                    chunk.value += l.value / n as f64;
                    chunk.entropy += l.entropy / n as f64;
                }
                self.iteration_steps += n;
                self.adam_steps += n;
                if n > 0 {
                    self.last = Some(chunk);
                }
                if self.iteration_steps == self.run.config.steps {
                    self.phase = Phase::Evaluate;
                }
            }
            Phase::Evaluate => {
                self.current = Arc::new(self.net());
                self.iteration += 1;
                finished = Some(self.evaluate());
                self.iteration_games = 0;
                self.iteration_steps = 0;
                self.sum = Losses::default();
                self.exact = ExactCount::default();
                self.phase = if self.iteration >= self.run.config.iterations { Phase::Done } else { Phase::SelfPlay };
            }
            Phase::Done => {}
        }
        Progress { finished, ..self.progress() }
    }

    fn self_play_one(&mut self) {
        let seed = self.run.rng.next_u64();
        let (rows, exact) = self_play(&self.run.start, &self.current, &self.run.config, seed, &self.run.early);
        self.exact += exact;
        self.positions += rows.len();
        self.run.keep(rows);
        self.games += 1;
        self.iteration_games += 1;
    }

    fn evaluate(&mut self) -> IterationReport {
        let (games, playouts, c) = (self.run.config.eval_games, self.run.config.eval_playouts, self.run.config.c);
        let seed = self.run.rng.next_u64();
        let net = self.current.clone();
        let search = playouts > 0 && games > 0;
        let (reference, raw, searched) = match &self.run.start {
            AnyGame::TicTacToe(g) => (
                "perfect play".to_string(),
                by_colour(g, &mut eval::raw_policy(net.clone()), &mut eval::perfect_player(), games, seed),
                search.then(|| by_colour(g, &mut eval::net_player(net, playouts, c), &mut eval::perfect_player(), games, seed)),
            ),
            AnyGame::Hex(g) => {
                let cfg = crate::mcts::SearchConfig::preset(&self.run.config.reference).unwrap_or_default();
                (
                    format!("{} at {playouts} playouts", self.run.config.reference),
                    by_colour(g, &mut eval::raw_policy(net.clone()), &mut eval::preset_player(cfg.clone(), playouts.max(1)), games, seed),
                    search.then(|| {
                        by_colour(g, &mut eval::net_player(net, playouts, c), &mut eval::preset_player(cfg, playouts), games, seed)
                    }),
                )
            }
            // Games without a net encoding (the registry's `net_input`) never train: Setup refuses them.
            _ => (String::new(), ColourResults::default(), None),
        };
        IterationReport {
            iteration: self.iteration,
            games: self.games,
            buffer: self.run.buffer.len(),
            loss: self.sum,
            reference,
            raw,
            search: searched,
            exact: self.run.config.exact_targets.map(|_| self.exact),
        }
    }
}

/// `games` games of `a` against `b` from `start`, `a` first in even games, seeded from `seed`
/// per game; the results from `a`'s side split by its colour.
pub fn by_colour<G: Game>(start: &G, a: &mut Player<'_, G>, b: &mut Player<'_, G>, games: u32, seed: u64) -> ColourResults {
    let mut r = ColourResults::default();
    for i in 0..games {
        let s = seed ^ u64::from(i).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        if i % 2 == 0 {
            add(&mut r.first, eval::play_match(start, a, b, 1, s));
        } else {
            let m = eval::play_match(start, b, a, 1, s);
            add(&mut r.second, MatchResult { wins: m.losses, draws: m.draws, losses: m.wins });
        }
    }
    add(&mut r.total, r.first);
    add(&mut r.total, r.second);
    r
}

fn add(into: &mut MatchResult, r: MatchResult) {
    into.wins += r.wins;
    into.draws += r.draws;
    into.losses += r.losses;
}
