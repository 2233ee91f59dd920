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
use super::learner::{Learner, Losses};
use super::selfplay::{self_play_game, Sample};
use super::{sample_batch, TrainConfig, TrainError};
use crate::game::{AnyGame, Game};
use crate::nn::features::Encoding;
use crate::nn::Mlp;
use crate::rng::Rng64;
use std::collections::VecDeque;
use std::sync::Arc;

/// Largest settings a session accepts (the browser shares the machine with the page).
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
    config: TrainConfig,
    start: AnyGame,
    enc: Encoding,
    syms: Vec<Vec<usize>>,
    learner: Learner,
    /// The net of the current iteration's self-play (the weights at the iteration's start).
    current: Arc<Mlp>,
    buffer: VecDeque<Sample>,
    rng: Rng64,
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
}

impl TrainSession {
    /// A session from a fresh net (burn's initialisation seeded by `config.seed`), or from
    /// `init`'s weights. A `dirichlet_alpha` ≤ 0 means AlphaZero's scaling, 10 / cells capped at 1
    /// (as [`super::Trainer::new`]).
    ///
    /// # Errors
    /// [`TrainError`]: an unknown game or one without an input encoding, a setting out of range
    /// (the message names it and its range), `init` for another game.
    pub fn new(mut config: TrainConfig, init: Option<&Mlp>) -> Result<TrainSession, TrainError> {
        let start = AnyGame::from_spec(&config.game)?;
        let spec = start.spec();
        let enc = Encoding::for_spec(&spec).ok_or_else(|| TrainError::NoEncoding(spec.clone()))?;
        if config.dirichlet_alpha <= 0.0 {
            config.dirichlet_alpha = (10.0 / enc.cells() as f64).min(1.0);
        }
        check(&config)?;
        config.game = spec.clone();
        let learner = match init {
            Some(m) => {
                if m.spec != spec {
                    return Err(crate::nn::NetError::WrongGame { file: m.spec.clone(), want: spec }.into());
                }
                Learner::from_mlp(m, config.lr, config.l2)
            }
            None => Learner::seeded(config.seed, enc.inputs(), &config.hidden, enc.cells(), config.lr, config.l2),
        };
        let current = Arc::new(learner.export(&spec));
        Ok(TrainSession {
            rng: Rng64::new(config.seed),
            start,
            syms: enc.symmetries(),
            enc,
            learner,
            current,
            buffer: VecDeque::new(),
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
            config,
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
        &self.config
    }

    /// Whether every iteration is done.
    pub fn is_done(&self) -> bool {
        self.phase == Phase::Done
    }

    /// The current weights in the inference format.
    pub fn net(&self) -> Mlp {
        self.learner.export(&self.config.game)
    }

    /// The current weights as an `MCTSNET` file ([`Mlp::to_bytes`]), e.g. for the play worker.
    pub fn weights(&self) -> Vec<u8> {
        self.net().to_bytes()
    }

    /// Where the session is, without doing any work.
    pub fn progress(&self) -> Progress {
        Progress {
            phase: self.phase,
            iteration: self.iteration,
            iterations: self.config.iterations,
            games: self.games,
            iteration_games: self.iteration_games,
            iteration_steps: self.iteration_steps,
            adam_steps: self.adam_steps,
            positions: self.positions,
            buffer: self.buffer.len(),
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
                let n = self.chunk_games.min(self.config.games - self.iteration_games);
                for _ in 0..n {
                    self.self_play_one();
                }
                if self.iteration_games == self.config.games {
                    self.phase = Phase::Learn;
                }
            }
            Phase::Learn => {
                let n = self.chunk_steps.min(self.config.steps - self.iteration_steps);
                let mut chunk = Losses::default();
                for _ in 0..n {
                    let batch = self.sample_batch();
                    let l = self.learner.step(&batch);
                    let k = self.config.steps as f64;
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
                if self.iteration_steps == self.config.steps {
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
                self.phase = if self.iteration >= self.config.iterations { Phase::Done } else { Phase::SelfPlay };
            }
            Phase::Done => {}
        }
        Progress { finished, ..self.progress() }
    }

    fn self_play_one(&mut self) {
        let seed = self.rng.next_u64();
        let rows = match &self.start {
            AnyGame::TicTacToe(g) => self_play_game(&self.current, g, &self.config, seed),
            AnyGame::Hex(g) => self_play_game(&self.current, g, &self.config, seed),
            AnyGame::Pentago(_) => Vec::new(), // no encoding: refused in `new`
        };
        self.positions += rows.len();
        for r in rows {
            if self.buffer.len() == self.config.buffer {
                self.buffer.pop_front();
            }
            self.buffer.push_back(r);
        }
        self.games += 1;
        self.iteration_games += 1;
    }

    /// A minibatch sampled uniformly from the buffer, each row under a random symmetry.
    fn sample_batch(&mut self) -> Vec<Sample> {
        sample_batch(&self.buffer, self.enc, &self.syms, self.config.batch, &mut self.rng)
    }

    fn evaluate(&mut self) -> IterationReport {
        let (games, playouts, c) = (self.config.eval_games, self.config.eval_playouts, self.config.c);
        let seed = self.rng.next_u64();
        let net = self.current.clone();
        let search = playouts > 0 && games > 0;
        let (reference, raw, searched) = match &self.start {
            AnyGame::TicTacToe(g) => (
                "perfect play".to_string(),
                by_colour(g, &mut eval::raw_policy(net.clone()), &mut eval::perfect_player(), games, seed),
                search.then(|| by_colour(g, &mut eval::net_player(net, playouts, c), &mut eval::perfect_player(), games, seed)),
            ),
            AnyGame::Hex(g) => {
                let cfg = crate::mcts::SearchConfig::preset(&self.config.reference).unwrap_or_default();
                (
                    format!("{} at {playouts} playouts", self.config.reference),
                    by_colour(g, &mut eval::raw_policy(net.clone()), &mut eval::preset_player(cfg.clone(), playouts.max(1)), games, seed),
                    search.then(|| {
                        by_colour(g, &mut eval::net_player(net, playouts, c), &mut eval::preset_player(cfg, playouts), games, seed)
                    }),
                )
            }
            AnyGame::Pentago(_) => (String::new(), ColourResults::default(), None),
        };
        IterationReport {
            iteration: self.iteration,
            games: self.games,
            buffer: self.buffer.len(),
            loss: self.sum,
            reference,
            raw,
            search: searched,
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

/// Checks every setting against its range; the error names the setting and the range.
fn check(c: &TrainConfig) -> Result<(), TrainError> {
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
    Ok(())
}
