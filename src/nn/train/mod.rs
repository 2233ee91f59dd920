//! The AlphaZero training loop (Silver et al. 2017), native only (`mcts train`).
//!
//! One iteration: `games` self-play games with the current net ([`selfplay`]: PUCT with the
//! net's priors and value, Dirichlet noise at the root, temperature 1 for the opening plies),
//! their rows (input planes, root visit distribution π, outcome z) into a replay buffer of the
//! last `buffer` rows; then `steps` Adam minibatches of `batch` rows sampled uniformly, each row
//! under a random symmetry of the game ([`crate::nn::features`]); then a checkpoint and an
//! evaluation: the new net's search against the previous net's, and its raw policy and search
//! against a fixed reference (Tic-Tac-Toe: perfect play; Hex: a preset at equal playouts).
//!
//! Like OpenSpiel's `alpha_zero` and AlphaZero.jl, the loop knows the search only through
//! (position, visit distribution, outcome) rows, and a run is reproducible from its
//! [`TrainConfig`] (saved next to the checkpoints) and its seed.

pub mod conv;
pub mod eval;
pub mod exact;
pub mod learner;
pub mod selfplay;
pub mod session;
pub mod setup;

use crate::game::AnyGame;
use crate::nn::Net;
use learner::Losses;
use selfplay::Sample;
use setup::{self_play, ExactCount, Setup};
use std::sync::Arc;

/// Why training could not run.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// The game spec is unreadable.
    #[error(transparent)]
    Spec(#[from] crate::game::SpecError),
    /// No input encoding for the game.
    #[error("no network input encoding for '{}' (trainable: tictactoe, hex:N without swap)", crate::limits::abbreviate(.0))]
    NoEncoding(String),
    /// A setting is out of range.
    #[error("{0}")]
    Setting(String),
    /// A file could not be written or read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// A checkpoint to resume from is defective.
    #[error(transparent)]
    Net(#[from] crate::nn::NetError),
}

/// Every setting of a training run (serialised as `config.json` beside the checkpoints).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TrainConfig {
    /// Game spec (`tictactoe`, `hex:5`, `hex:7`).
    pub game: String,
    /// Hidden layer widths (default 128, 128: the ~20k-parameter Tic-Tac-Toe net).
    pub hidden: Vec<usize>,
    /// Training iterations.
    pub iterations: usize,
    /// Self-play games per iteration.
    pub games: usize,
    /// Search iterations (playouts) per self-play move.
    pub playouts: u64,
    /// PUCT c (the presets' [`crate::mcts::config::NET_PUCT_C`] by default).
    pub c: f64,
    /// Dirichlet noise α at the root (AlphaZero: 0.3 chess, 0.03 Go, "scaled in inverse
    /// proportion to the approximate number of legal moves"; default 10 / cells, capped at 1).
    pub dirichlet_alpha: f64,
    /// Noise weight ε (AlphaZero: 0.25).
    pub dirichlet_eps: f64,
    /// Plies played at temperature 1 (moves sampled by visits); then the most visited.
    pub temperature_moves: usize,
    /// Replay buffer size in rows.
    pub buffer: usize,
    /// Minibatch size.
    pub batch: usize,
    /// Adam steps per iteration.
    pub steps: usize,
    /// Adam learning rate.
    pub lr: f64,
    /// L2 weight decay (AlphaZero: 1e-4).
    pub l2: f64,
    /// Games per evaluation match (0 = no evaluation).
    pub eval_games: u32,
    /// Playouts per move of the evaluation searches.
    pub eval_playouts: u64,
    /// Reference preset for Hex evaluations (Tic-Tac-Toe uses perfect play).
    pub reference: String,
    /// Seed of every random choice.
    pub seed: u64,
    /// Self-play root: `puct` (Dirichlet noise, temperature, visit counts as targets; the
    /// default) or `gumbel` (Danihelka et al. 2022: Gumbel-top-`gumbel_m` + sequential halving,
    /// the move the search chose, the completed-Q improved policy as target; no noise).
    pub root: crate::mcts::config::RootRule,
    /// m of the Gumbel root (default 16, mctx's `max_num_considered_actions`).
    pub gumbel_m: usize,
    /// Playout cap randomization (Wu 2019, KataGo §3.1): the fraction of moves searched with
    /// `playouts` and recorded as training rows; the others get `fast_playouts`, no noise, and
    /// no row. 1 = off (every move full; the default). KataGo: 0.25.
    pub full_search_fraction: f64,
    /// Playouts of the fast moves under playout cap randomization (KataGo: 100 against 600).
    pub fast_playouts: u64,
    /// Opening plies played uniformly at random in every evaluation game, the same opening for
    /// both colours of a pair (two deterministic searches otherwise replay the same two games).
    /// Default 2.
    pub eval_opening_plies: usize,
    /// Opening plies played uniformly at random at the start of every self-play game, before the
    /// searched moves; they give no training row. 0 (the default) starts every game from the
    /// empty board, as AlphaZero. On Hex 7×7 the shipped net's self-play nearly always opened at
    /// d4, so its value head never saw the other 48 openings (issue 53); 1 spreads the games over
    /// all first moves. Also AlphaZero.jl's and KataGo's device for varied openings.
    pub opening_plies: usize,
    /// When set, each self-play game draws its count of random opening plies uniformly from
    /// `opening_plies_min..=opening_plies` (with 0, some games start from the empty board)
    /// instead of `opening_plies` for every game, so that the rows spread over the early and
    /// the middle game alike (the value head is asked about positions of every stage; a fixed
    /// count gives no row before it). `None` (the default): `opening_plies` for every game, as
    /// before. At most `opening_plies`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opening_plies_min: Option<usize>,
    /// Exact targets (Hex up to 8×8, Tic-Tac-Toe): self-play positions the exact solver settles
    /// within a budget get the proven value and optimal moves mixed into their targets
    /// ([`exact`]). `None` (the default) trains on the self-play targets alone, as AlphaZero.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact_targets: Option<exact::ExactTargets>,
    /// A convolutional trunk (Hex only, [`crate::nn::ConvNet`]) in place of the fully connected
    /// `hidden` layers, which are then unused. `None` (the default) trains an MLP, as before.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conv: Option<ConvShape>,
}

/// The shape of a convolutional net ([`crate::nn::ConvNet`]): `conv` in a run's `config.json`,
/// the CLI's `--conv channels=C,blocks=B,value_hidden=H`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ConvShape {
    /// Channels C of every trunk convolution: 1 to [`crate::nn::conv::MAX_CHANNELS`].
    pub channels: usize,
    /// Residual 3×3 convolutions after the first: 0 to [`crate::nn::MAX_HIDDEN_LAYERS`].
    pub blocks: usize,
    /// Units H of the value head's hidden layer: 1 to [`crate::nn::MAX_WIDTH`].
    pub value_hidden: usize,
}

impl Default for ConvShape {
    /// 32 channels, 4 blocks (5 convolutions), 64 value units: the shape of the Hex 5×5 probe
    /// (`src/nn/conv.rs`) that valued 98.2 % of held-out solver-labelled positions right.
    fn default() -> Self {
        ConvShape { channels: 32, blocks: 4, value_hidden: 64 }
    }
}

impl ConvShape {
    /// The shape of `net`.
    pub fn of(net: &crate::nn::ConvNet) -> ConvShape {
        ConvShape { channels: net.channels(), blocks: net.blocks(), value_hidden: net.value_hidden_units() }
    }

    /// Reads `channels=C,blocks=B,value_hidden=H` (any of them, in any order; the others keep
    /// their defaults).
    ///
    /// # Errors
    /// A sentence naming the part that is not `key=value` with a known key and a whole number.
    pub fn parse(text: &str) -> Result<ConvShape, String> {
        let mut c = ConvShape::default();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) =
                part.split_once('=').ok_or_else(|| format!("conv: '{part}' is not key=value (keys: channels, blocks, value_hidden)"))?;
            let v: usize = v.trim().parse().map_err(|_| format!("conv: '{part}': {} is not a whole number", v.trim()))?;
            match k.trim() {
                "channels" => c.channels = v,
                "blocks" => c.blocks = v,
                "value_hidden" => c.value_hidden = v,
                other => return Err(format!("conv: unknown key '{other}' (keys: channels, blocks, value_hidden)")),
            }
        }
        Ok(c)
    }
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            game: "tictactoe".into(),
            hidden: vec![128, 128],
            iterations: 10,
            games: 50,
            playouts: 64,
            c: crate::mcts::config::NET_PUCT_C,
            dirichlet_alpha: 0.0,
            dirichlet_eps: 0.25,
            temperature_moves: 4,
            buffer: 20_000,
            batch: 128,
            steps: 100,
            lr: 2e-3,
            l2: 1e-4,
            eval_games: 20,
            eval_playouts: 64,
            reference: "uct".into(),
            seed: 1,
            root: crate::mcts::config::RootRule::Puct,
            gumbel_m: 16,
            full_search_fraction: 1.0,
            fast_playouts: 16,
            eval_opening_plies: 2,
            opening_plies: 0,
            opening_plies_min: None,
            exact_targets: None,
            conv: None,
        }
    }
}

/// What one iteration did (a row of `log.csv`, a line of `log.jsonl`).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct IterationLog {
    /// Iteration, from 1.
    pub iteration: usize,
    /// Self-play games so far.
    pub games: usize,
    /// Rows in the replay buffer.
    pub buffer: usize,
    /// Mean losses over the iteration's steps.
    pub loss: Losses,
    /// Score of the new net's search against the previous net's (0.5 = equal), if evaluated.
    pub vs_previous: Option<f64>,
    /// Raw policy vs the reference: (wins, draws, losses) of the net.
    pub raw_vs_reference: Option<eval::MatchResult>,
    /// Search (`eval_playouts`) vs the reference.
    pub search_vs_reference: Option<eval::MatchResult>,
    /// With exact targets: the iteration's rows given to the solver and those it settled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<setup::ExactCount>,
    /// Seconds since the start.
    pub seconds: f64,
}

/// A training run in progress.
pub struct Trainer {
    /// The set-up shared with the browser's [`session::TrainSession`].
    run: Setup,
    games: usize,
    iteration: usize,
    threads: usize,
}

impl Trainer {
    /// A run from a fresh net (burn's initialisation seeded by `config.seed`), or from `init`'s
    /// weights ([`setup`]).
    ///
    /// # Errors
    /// An unknown game or one without an input encoding, a setting out of range (the message
    /// names it and its range, [`setup::check`]), `init` for another game or shape, or of the
    /// other kind (MLP or convolutional) than the run's `conv` asks for ([`setup`]'s rules).
    pub fn new(config: TrainConfig, init: Option<&Net>) -> Result<Trainer, TrainError> {
        Ok(Trainer { run: Setup::new(config, init)?, games: 0, iteration: 0, threads: 1 })
    }

    /// The configuration (with `game` canonical and `dirichlet_alpha` resolved).
    pub fn config(&self) -> &TrainConfig {
        &self.run.config
    }

    /// Plays each iteration's self-play games on `threads` threads (at least 1; native builds
    /// only: WebAssembly has no threads here). The games' seeds are drawn before they start and
    /// their rows enter the buffer in game order, so the run is the same for any thread count.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// The current net in the inference format.
    pub fn net(&self) -> Net {
        self.run.net()
    }

    /// Self-play games so far.
    pub fn games(&self) -> usize {
        self.games
    }

    /// Early positions ([`exact::ExactTargets::early_plies`]) solved so far, each once a run
    /// (settled or not); 0 while early positions are off.
    pub fn early_positions(&self) -> usize {
        self.run.early.len()
    }

    /// One iteration: self-play, learning, evaluation (`on_game` is called after each game).
    pub fn iterate(&mut self, on_game: &mut dyn FnMut()) -> IterationLog {
        let t0 = std::time::Instant::now();
        self.iteration += 1;
        let prev = Arc::new(self.net());
        let seeds: Vec<u64> = (0..self.run.config.games).map(|_| self.run.rng.next_u64()).collect();
        let (start, config) = (&self.run.start, &self.run.config);
        let early = &self.run.early;
        let play = |seed: u64| self_play(start, &prev, config, seed, early);
        let mut games: Vec<(Vec<Sample>, ExactCount)> = Vec::with_capacity(seeds.len());
        if self.threads <= 1 {
            for &seed in &seeds {
                games.push(play(seed));
                on_game();
            }
        } else {
            // Workers take the next game index from a shared counter and send (index, rows);
            // this thread reports each finished game and puts them back in game order.
            let next = std::sync::atomic::AtomicUsize::new(0);
            let mut slots: Vec<Option<(Vec<Sample>, ExactCount)>> = vec![None; seeds.len()];
            std::thread::scope(|s| {
                let (tx, rx) = std::sync::mpsc::channel();
                for _ in 0..self.threads.min(seeds.len()) {
                    let tx = tx.clone();
                    let (next, seeds, play) = (&next, &seeds, &play);
                    s.spawn(move || loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if i >= seeds.len() || tx.send((i, play(seeds[i]))).is_err() {
                            break;
                        }
                    });
                }
                drop(tx);
                for (i, rows) in rx {
                    slots[i] = Some(rows);
                    on_game();
                }
            });
            games.extend(slots.into_iter().map(|r| r.expect("every game was played")));
        }
        let mut exact = ExactCount::default();
        for (rows, count) in games {
            self.run.keep(rows);
            exact += count;
            self.games += 1;
        }
        let mut sum = Losses::default();
        let steps = self.run.config.steps.max(1);
        for _ in 0..steps {
            let batch = self.run.sample_batch();
            let l = self.run.learner.step(&batch);
            sum.policy += l.policy / steps as f64;
            sum.value += l.value / steps as f64;
            sum.entropy += l.entropy / steps as f64;
        }
        let mut log = IterationLog {
            iteration: self.iteration,
            games: self.games,
            buffer: self.run.buffer.len(),
            loss: sum,
            exact: self.run.config.exact_targets.map(|_| exact),
            ..Default::default()
        };
        if self.run.config.eval_games > 0 {
            self.evaluate(&prev, &mut log);
        }
        log.seconds = t0.elapsed().as_secs_f64();
        log
    }

    fn evaluate(&mut self, prev: &Arc<Net>, log: &mut IterationLog) {
        let net = Arc::new(self.net());
        let (games, playouts, c) = (self.run.config.eval_games, self.run.config.eval_playouts, self.run.config.c);
        let plies = self.run.config.eval_opening_plies;
        let seed = self.run.rng.next_u64();
        match &self.run.start {
            AnyGame::TicTacToe(g) => {
                log.vs_previous = Some(
                    eval::play_match_from_openings(
                        g,
                        &mut eval::net_player(net.clone(), playouts, c),
                        &mut eval::net_player(prev.clone(), playouts, c),
                        games,
                        seed,
                        plies,
                    )
                    .score(),
                );
                log.raw_vs_reference =
                    Some(eval::play_match(g, &mut eval::raw_policy(net.clone()), &mut eval::perfect_player(), games, seed));
                log.search_vs_reference =
                    Some(eval::play_match(g, &mut eval::net_player(net, playouts, c), &mut eval::perfect_player(), games, seed));
            }
            AnyGame::Hex(g) => {
                // A preset name: checked in `setup::check`.
                let reference = crate::mcts::SearchConfig::preset(&self.run.config.reference).unwrap_or_default();
                log.vs_previous = Some(
                    eval::play_match_from_openings(
                        g,
                        &mut eval::net_player(net.clone(), playouts, c),
                        &mut eval::net_player(prev.clone(), playouts, c),
                        games,
                        seed,
                        plies,
                    )
                    .score(),
                );
                log.raw_vs_reference = Some(eval::play_match_from_openings(
                    g,
                    &mut eval::raw_policy(net.clone()),
                    &mut eval::preset_player(reference.clone(), playouts),
                    games,
                    seed,
                    plies,
                ));
                log.search_vs_reference = Some(eval::play_match_from_openings(
                    g,
                    &mut eval::net_player(net, playouts, c),
                    &mut eval::preset_player(reference, playouts),
                    games,
                    seed,
                    plies,
                ));
            }
            _ => {}
        }
    }
}

impl TrainConfig {
    /// The canonical spec of `game` (e.g. `hex:5`), or the text as given if unreadable.
    pub fn game_spec(&self) -> String {
        AnyGame::from_spec(&self.game).map(|g| g.spec()).unwrap_or_else(|_| self.game.clone())
    }
}

/// One line of `log.csv` (header: [`CSV_HEADER`]).
pub fn csv_line(l: &IterationLog) -> String {
    let m = |r: &Option<eval::MatchResult>| r.map(|r| format!("{},{},{}", r.wins, r.draws, r.losses)).unwrap_or_else(|| ",,".into());
    format!(
        "{},{},{},{:.5},{:.5},{:.5},{},{},{},{:.2}",
        l.iteration,
        l.games,
        l.buffer,
        l.loss.policy,
        l.loss.value,
        l.loss.entropy,
        l.vs_previous.map(|v| format!("{v:.3}")).unwrap_or_default(),
        m(&l.raw_vs_reference),
        m(&l.search_vs_reference),
        l.seconds
    )
}

/// The header of `log.csv`.
pub const CSV_HEADER: &str = "iteration,games,buffer,policy_loss,value_loss,policy_entropy,vs_previous,raw_wins,raw_draws,raw_losses,search_wins,search_draws,search_losses,seconds";
