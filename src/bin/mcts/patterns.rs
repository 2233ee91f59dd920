//! `mcts patterns train`: Hex pattern weights from self-play games, by minorization–maximization
//! (Coulom 2007), as MoHex 2.0's prior (Huang et al. 2013); see `docs/pattern-priors.md`.
//!
//! Games: self-play of a preset (`--preset`, `--playouts` per move) from `--random-moves`
//! uniformly random opening moves (not trained on), each game seeded from (`--seed`, game
//! index), so the output depends on the arguments only (not on `--threads`). Every move the
//! search chose is a training position: its legal moves' pattern keys and the played one.
//! Games with index ≡ 0 mod `--test-every` are held out: the report gives, on their positions,
//! the fraction where the played move ranks first / in the first five by γ (ties shared
//! evenly), against the uniform baseline (1/legal, 5/legal).

use std::time::Instant;

use mcts_playground::game::hex::patterns::{self, PatternWeights, TrainingSet};
use mcts_playground::game::{AnyGame, Game, MoveList};
use mcts_playground::mcts::{Budget, Search};
use mcts_playground::Rng64;
use serde_json::json;

use crate::error::CliError;

/// Arguments of `mcts patterns`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    verb: Verb,
}

#[derive(clap::Subcommand, Debug)]
enum Verb {
    /// Generate self-play games and train one weight per 12-cell pattern (MM, Coulom 2007).
    Train(TrainArgs),
}

/// Arguments of `mcts patterns train`.
#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// Hex game spec of the self-play games (`hex:N`, `hex:N:swap`).
    #[arg(long, default_value = "hex:11")]
    spec: String,
    /// Self-play games (1 ..= 100,000).
    #[arg(long, default_value_t = 200, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=100_000))]
    games: usize,
    /// Preset of the self-play searches.
    #[arg(long, default_value = "best")]
    preset: String,
    /// Overrides of the preset, `key=value` (repeatable, as `mcts search --set`).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// Iterations (playouts) per move (1 ..= 10,000,000).
    #[arg(long, default_value_t = 1000, value_parser = clap::builder::RangedU64ValueParser::<u64>::new().range(1..=10_000_000))]
    playouts: u64,
    /// Uniformly random moves at the start of each game (not trained on), for diverse games.
    #[arg(long, default_value_t = 2)]
    random_moves: usize,
    /// Base seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// MM sweeps (1 ..= 10,000).
    #[arg(long, default_value_t = 100, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=10_000))]
    iterations: usize,
    /// Hold out games with index ≡ 0 mod this (2 ..= 1,000,000) for the top-1/top-5 check.
    #[arg(long, default_value_t = 10, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(2..=1_000_000))]
    test_every: usize,
    /// Worker threads for the games (1 ..= 64).
    #[arg(long, default_value_t = 1, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=64))]
    threads: usize,
    /// Output weights file (`.mctspat`).
    #[arg(long)]
    out: std::path::PathBuf,
    /// One JSON object with the figures instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `mcts patterns`.
pub fn run(a: Args) -> Result<(), CliError> {
    match a.verb {
        Verb::Train(t) => train(t),
    }
}

/// One game's positions: per position the legal moves' keys and the index of the played move.
type GamePositions = Vec<(Vec<u64>, usize)>;

/// Plays self-play game `index` and returns its positions.
fn play_game(root: &mcts_playground::game::Hex, a: &TrainArgs, index: usize) -> Result<GamePositions, CliError> {
    let mut g = root.clone();
    let mut rng = Rng64::new(a.seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut legal = MoveList::new();
    for _ in 0..a.random_moves {
        if g.outcome().is_some() {
            break;
        }
        g.legal_moves(&mut legal);
        let m = legal[rng.index(legal.len())];
        g.play(m).map_err(CliError::engine)?;
    }
    let mut out = Vec::new();
    let mut keys = Vec::new();
    while g.outcome().is_none() {
        let cfg = crate::search::config_from(&a.preset, &a.set, Some(rng.next_u64()))?;
        let mut s = Search::new(g.clone(), cfg).map_err(CliError::engine)?;
        s.run(Budget::iterations(a.playouts), &|| 0.0);
        let Some(m) = s.best_move() else { break };
        g.legal_moves(&mut legal);
        g.pattern_keys(&legal, &mut keys);
        if let Some(played) = legal.iter().position(|&x| x == m) {
            out.push((keys.clone(), played));
        }
        g.play(m).map_err(CliError::engine)?;
    }
    Ok(out)
}

fn train(a: TrainArgs) -> Result<(), CliError> {
    let root = match AnyGame::from_spec(&a.spec)? {
        AnyGame::Hex(h) => h,
        _ => return Err(CliError::Engine(format!("patterns are Hex's: '{}' is not a Hex spec", a.spec))),
    };
    // Refuse a bad preset or --set before any game.
    crate::search::config_from(&a.preset, &a.set, Some(a.seed))?;
    let t0 = Instant::now();
    let mut games: Vec<Option<GamePositions>> = vec![None; a.games];
    let threads = a.threads.min(a.games);
    let results: Vec<Result<Vec<(usize, GamePositions)>, CliError>> = std::thread::scope(|sc| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (root, a) = (&root, &a);
                sc.spawn(move || (t..a.games).step_by(threads).map(|i| play_game(root, a, i).map(|p| (i, p))).collect())
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err(CliError::Engine("a game thread panicked".into())))).collect()
    });
    for r in results {
        for (i, p) in r? {
            games[i] = Some(p);
        }
    }
    let games_s = t0.elapsed().as_secs_f64();
    let t1 = Instant::now();
    let mut set = TrainingSet::default();
    let mut test: Vec<(Vec<u64>, usize)> = Vec::new();
    for (i, g) in games.into_iter().enumerate() {
        for (keys, played) in g.unwrap_or_default() {
            if i % a.test_every == 0 {
                test.push((keys, played));
            } else {
                set.add(&keys, played);
            }
        }
    }
    let (gamma, history) = patterns::train_mm(&set, a.iterations);
    // Normalise so that the γ of the commonest competitor scale does not drift: γ is defined up
    // to a common factor; divide by the geometric mean.
    let lg: f64 = gamma.iter().map(|g| g.ln()).sum::<f64>() / gamma.len().max(1) as f64;
    let pairs: Vec<(u64, f32)> = set.keys.iter().zip(&gamma).map(|(&k, &g)| (k, (g / lg.exp()) as f32)).collect();
    let w = PatternWeights::new(pairs);
    let train_s = t1.elapsed().as_secs_f64();
    std::fs::write(&a.out, w.to_bytes()).map_err(|e| CliError::Engine(format!("writing {}: {e}", a.out.display())))?;
    // Held-out check.
    let (mut top1, mut top5, mut u1, mut u5) = (0.0, 0.0, 0.0, 0.0);
    for (keys, played) in &test {
        top1 += patterns::top_k(&w, keys, *played, 1);
        top5 += patterns::top_k(&w, keys, *played, 5);
        u1 += 1.0 / keys.len() as f64;
        u5 += (5.0 / keys.len() as f64).min(1.0);
    }
    let nt = test.len().max(1) as f64;
    let ll_first = history.first().copied().unwrap_or(0.0);
    let ll_last = history.last().copied().unwrap_or(0.0);
    let figures = json!({
        "spec": a.spec, "preset": a.preset, "playouts": a.playouts, "games": a.games, "seed": a.seed,
        "train_positions": set.positions.len(), "test_positions": test.len(), "patterns": w.len(),
        "mm_iterations": a.iterations, "log_likelihood_first": ll_first, "log_likelihood_last": ll_last,
        "games_s": games_s, "train_s": train_s,
        "test_top1": top1 / nt, "test_top5": top5 / nt, "uniform_top1": u1 / nt, "uniform_top5": u5 / nt,
        "out": a.out.display().to_string(),
    });
    if a.json {
        outln!("{figures}")?;
    } else {
        outln!(
            "{} games ({:.1} s), {} training positions, {} held-out positions, {} patterns; MM {} sweeps ({:.1} s), log-likelihood {:.1} → {:.1}",
            a.games,
            games_s,
            set.positions.len(),
            test.len(),
            w.len(),
            a.iterations,
            train_s,
            ll_first,
            ll_last
        )?;
        outln!(
            "held out: played move top-1 {:.3} (uniform {:.3}), top-5 {:.3} (uniform {:.3}); wrote {}",
            top1 / nt,
            u1 / nt,
            top5 / nt,
            u5 / nt,
            a.out.display()
        )?;
    }
    Ok(())
}
