//! `mcts patterns train`: Hex pattern weights from self-play games, by minorization–maximization
//! (Coulom 2007), as MoHex 2.0's prior (Huang et al. 2013); see `docs/pattern-priors.md`.
//!
//! Games: self-play of a preset (`--preset`, `--playouts` per move) from `--random-moves`
//! uniformly random opening moves (not trained on), each game seeded from (`--seed`, game
//! index), so the output depends on the arguments only (not on `--threads`). Every move the
//! search chose is a training position: its legal moves' pattern keys and the played one. Each
//! game is folded into the training set as it ends, in game order (its positions as pattern
//! counts, [`TrainingSet`]), and the game itself dropped; the training set is bounded by
//! [`PATTERN_TRAIN_MAX_BYTES`] (then no further game is started and the games so far are
//! trained on). `--out` is checked before any game (a file is created in its folder and
//! removed), and written through a temporary file renamed over it.
//! Games with index ≡ 0 mod `--test-every` are held out: the report gives, on their positions,
//! the fraction where the played move ranks first / in the first five by γ (ties shared
//! evenly), against the uniform baseline (1/legal, 5/legal).

use std::path::Path;
use std::sync::{mpsc, Condvar, Mutex};
use std::time::Instant;

use mcts_playground::game::hex::patterns::{self, PatternWeights, TrainingSet};
use mcts_playground::game::{AnyGame, Game, Hex, MoveList};
use mcts_playground::limits::PATTERN_TRAIN_MAX_BYTES;
use mcts_playground::mcts::Budget;
use mcts_playground::rng::Rng64;
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
fn play_game(root: &Hex, a: &TrainArgs, index: usize) -> Result<GamePositions, CliError> {
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
        let mut s = mcts_playground::nn::search::search(g.clone(), cfg).map_err(CliError::engine)?;
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

/// Checks before any game that `--out` can be written: not a folder, and a file can be
/// created in its folder (one is created there and removed at once).
fn check_out(out: &Path) -> Result<(), CliError> {
    let say = |what: String| CliError::Engine(format!("--out {}: {what}", out.display()));
    if out.is_dir() {
        return Err(say("a folder, not a file".into()));
    }
    let Some(name) = out.file_name() else { return Err(say("not a file name".into())) };
    let dir = out.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let probe = dir.join(format!(".{}.{}.check", name.to_string_lossy(), std::process::id()));
    match std::fs::OpenOptions::new().write(true).create_new(true).open(&probe) {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Err(e) => Err(say(format!("cannot create a file in {}: {e}", dir.display()))),
    }
}

/// Writes `bytes` to `out` through a temporary file beside it, renamed over `out` once whole (an
/// interrupted write leaves the old file, not half a new one).
fn write_out(out: &Path, bytes: &[u8]) -> Result<(), CliError> {
    let name = out.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = out.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    let r = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, out));
    if r.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    r.map_err(|e| CliError::Engine(format!("writing {}: {e}", out.display())))
}

/// The training data: the training and held-out positions, folded in game by game (in game
/// order, so that the result does not depend on `--threads`).
#[derive(Default)]
struct Folded {
    set: TrainingSet,
    test: TrainingSet,
    /// Games folded in.
    games: usize,
}

impl Folded {
    fn add(&mut self, index: usize, positions: GamePositions, test_every: usize) {
        let into = if index.is_multiple_of(test_every) { &mut self.test } else { &mut self.set };
        for (keys, played) in positions {
            into.add(&keys, played);
        }
        self.games += 1;
    }

    fn bytes(&self) -> usize {
        self.set.bytes() + self.test.bytes()
    }
}

/// Plays games `0..a.games` on `threads` threads and folds each into the training data as it
/// ends, in game order: a thread takes the next game only while fewer than `2 · threads + 2`
/// finished games wait for an earlier one, so that at most that many games' positions are held
/// besides the folded data. Stops taking games once the folded data reaches
/// [`PATTERN_TRAIN_MAX_BYTES`] (the games folded so far are trained on).
fn play_and_fold(root: &Hex, a: &TrainArgs, threads: usize) -> Result<Folded, CliError> {
    struct Feed {
        next: usize,
        folded: usize,
        stop: bool,
    }
    let window = 2 * threads + 2;
    let feed = Mutex::new(Feed { next: 0, folded: 0, stop: false });
    let wake = Condvar::new();
    let (tx, rx) = mpsc::channel::<(usize, Result<GamePositions, CliError>)>();
    let mut data = Folded::default();
    let mut failed = None;
    std::thread::scope(|sc| {
        for _ in 0..threads {
            let (tx, feed, wake) = (tx.clone(), &feed, &wake);
            sc.spawn(move || loop {
                let i = {
                    let Ok(mut f) = feed.lock() else { return };
                    while !f.stop && f.next < a.games && f.next >= f.folded + window {
                        f = match wake.wait(f) {
                            Ok(f) => f,
                            Err(_) => return,
                        };
                    }
                    if f.stop || f.next >= a.games {
                        return;
                    }
                    f.next += 1;
                    f.next - 1
                };
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| play_game(root, a, i)))
                    .unwrap_or_else(|_| Err(CliError::Engine(format!("game {i} panicked"))));
                if tx.send((i, r)).is_err() {
                    return;
                }
            });
        }
        drop(tx);
        let mut pending = std::collections::BTreeMap::new();
        let mut stop = false;
        for (i, r) in &rx {
            pending.insert(i, r);
            while let Some(r) = pending.remove(&data.games) {
                match r {
                    Ok(p) => data.add(data.games, p, a.test_every),
                    Err(e) => failed = Some(e),
                }
                stop = failed.is_some() || data.bytes() >= PATTERN_TRAIN_MAX_BYTES;
                if stop {
                    break;
                }
            }
            if let Ok(mut f) = feed.lock() {
                f.folded = data.games;
                f.stop |= stop;
            }
            wake.notify_all();
            if stop {
                break;
            }
        }
        pending.clear();
    });
    match failed {
        Some(e) => Err(e),
        None => Ok(data),
    }
}

fn train(a: TrainArgs) -> Result<(), CliError> {
    let root = match AnyGame::from_spec(&a.spec)? {
        AnyGame::Hex(h) => h,
        _ => return Err(CliError::Engine(format!("patterns are Hex's: '{}' is not a Hex spec", a.spec))),
    };
    // Refuse a bad preset or --set, and an output that cannot be written, before any game.
    crate::search::config_from(&a.preset, &a.set, Some(a.seed))?;
    check_out(&a.out)?;
    let t0 = Instant::now();
    let threads = a.threads.min(a.games);
    let Folded { set, test, games } = play_and_fold(&root, &a, threads)?;
    let games_s = t0.elapsed().as_secs_f64();
    let limited = games < a.games;
    if limited {
        errln(&format!(
            "mcts: note: the training data reached its limit of {} MiB after {games} of {} games; training on those",
            PATTERN_TRAIN_MAX_BYTES >> 20,
            a.games
        ));
    }
    let t1 = Instant::now();
    let (gamma, history) = patterns::train_mm(&set, a.iterations);
    // Normalise so that the γ of the commonest competitor scale does not drift: γ is defined up
    // to a common factor; divide by the geometric mean.
    let lg: f64 = gamma.iter().map(|g| g.ln()).sum::<f64>() / gamma.len().max(1) as f64;
    let pairs: Vec<(u64, f32)> = set.keys.iter().zip(&gamma).map(|(&k, &g)| (k, (g / lg.exp()) as f32)).collect();
    let w = PatternWeights::new(pairs);
    let train_s = t1.elapsed().as_secs_f64();
    write_out(&a.out, &w.to_bytes())?;
    // Held-out check.
    let (mut top1, mut top5, mut u1, mut u5) = (0.0, 0.0, 0.0, 0.0);
    for j in 0..test.len() {
        top1 += patterns::top_k_of(&w, &test, j, 1);
        top5 += patterns::top_k_of(&w, &test, j, 5);
        let moves: u32 = test.position(j).0.map(|(_, c)| c).sum();
        u1 += 1.0 / moves as f64;
        u5 += (5.0 / moves as f64).min(1.0);
    }
    let nt = test.len().max(1) as f64;
    let ll_first = history.first().copied().unwrap_or(0.0);
    let ll_last = history.last().copied().unwrap_or(0.0);
    let figures = json!({
        "spec": a.spec, "preset": a.preset, "playouts": a.playouts, "games": a.games, "games_trained": games,
        "data_limit_reached": limited, "data_bytes": set.bytes() + test.bytes(), "seed": a.seed,
        "train_positions": set.len(), "test_positions": test.len(), "patterns": w.len(),
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
            games,
            games_s,
            set.len(),
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

fn errln(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{text}");
}
