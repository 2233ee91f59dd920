//! `mcts bench`: random playouts per second and MCTS iterations per second from the initial
//! position, per game and preset.
//!
//! Each figure is the median of several timed runs on one thread (see `--runs`). JSON lines:
//! `{"game", "playouts_per_s", "traced_playouts_per_s", "set_playouts_per_s", ...}` for playouts
//! (outcome only, as plain UCT runs them; recording the moves in a list, as the playout policies
//! and the step-through run them; and as per-player move sets, as RAVE/GRAVE/qb run them), then
//! `{"game", "preset", "iterations_per_s", "ratio_to_uct", "bytes_per_node", "tree_bytes", "nodes", ...}`
//! per preset; `uct` is measured first when it is among the presets, and `ratio_to_uct` is each
//! preset's iterations per second over uct's in the same run (null without uct). With `--set
//! key=value`, every preset measured (uct too) gets the overrides, and each line carries "set".

use std::time::Instant;

use mcts_playground::game::registry::GAMES;
use mcts_playground::game::{AnyGame, Game, MoveSets, NoTrace};
use mcts_playground::mcts::bench::iterations_per_s_with;
use mcts_playground::mcts::parallel::search_root_parallel;
use mcts_playground::mcts::Budget;
use mcts_playground::nn::search::Nets;
use mcts_playground::rng::Rng64;
use mcts_playground::with_game;
use serde_json::json;

use crate::error::CliError;

/// The games `mcts bench` measures when no `--game` is given: every registered game
/// ([`GAMES`]) at the first size its chooser offers (if it has sizes) and at its default spec
/// (tictactoe, hex:7, hex:11, pentago, ...).
pub fn default_games() -> Vec<String> {
    let mut out = Vec::new();
    for f in GAMES {
        match f.sizes {
            Some(s) => {
                out.extend(s.offered.first().filter(|&&n| n != s.default).map(|n| format!("{}:{n}", f.name)));
                out.push(format!("{}:{}", f.name, s.default));
            }
            None => out.push(f.name.to_string()),
        }
    }
    out
}

/// Arguments of `mcts bench`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Game spec to measure (repeatable); default: every registered game (tictactoe, hex:7,
    /// hex:11, pentago, ...).
    #[arg(long, short)]
    game: Vec<String>,
    /// Timed runs per figure (at least 1); the median is reported.
    #[arg(long, default_value_t = 3, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    runs: usize,
    /// Milliseconds per timed run.
    #[arg(long, default_value_t = 300)]
    ms: u64,
    /// MCTS preset to measure (repeatable; `all` for every preset); default: uct.
    #[arg(long)]
    preset: Vec<String>,
    /// Override a configuration field of every preset measured, `key=value` (repeatable, as
    /// `mcts search --set`), e.g. `--set save_bridge=true`; JSON lines then carry "set".
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// Milliseconds per timed MCTS run (a search from the start position; 0 ..= 2^53 − 1, as
    /// `--ms` of `mcts search`).
    #[arg(long, default_value_t = 1000.0, value_parser = crate::search::parse_ms)]
    search_ms: f64,
    /// Measure random playouts only, no MCTS.
    #[arg(long)]
    playouts_only: bool,
    /// One JSON object per line: {"game", "playouts_per_s", ...} and
    /// {"game", "preset", "iterations_per_s", "bytes_per_node", ...}.
    #[arg(long)]
    json: bool,
    /// Also measure root-parallel search on N threads (repeatable, e.g. `--threads 2 --threads 4`;
    /// 2 ..= 64): per preset, total iterations per second of all threads (each runs
    /// `--search-ms`; total iterations over the longest thread's time), median of `--runs`, and
    /// `speedup` over the one-thread figure of the same run. JSON: {"game", "preset", "threads",
    /// "iterations_per_s", "speedup", ...}.
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(2..=64))]
    threads: Vec<usize>,
}

/// Median of a slice of figures.
pub fn median(xs: &mut [f64]) -> f64 {
    xs.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

/// Operations per second of `op`: median over `runs` runs of `ms` milliseconds, each run calling
/// `op` in batches of 64 between clock reads.
fn median_rate(runs: usize, ms: u64, mut op: impl FnMut()) -> f64 {
    let mut rates = Vec::new();
    for _ in 0..runs.max(1) {
        let t0 = Instant::now();
        let mut n = 0u64;
        loop {
            for _ in 0..64 {
                op();
            }
            n += 64;
            if t0.elapsed().as_millis() as u64 >= ms {
                break;
            }
        }
        rates.push(n as f64 / t0.elapsed().as_secs_f64());
    }
    median(&mut rates)
}

/// What a measured random playout records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Record {
    /// Nothing: the outcome-only path ([`NoTrace`]) plain UCT uses.
    Outcome,
    /// The moves in order in a `Vec` (the step-through, rollout-expand, the playout policies).
    List,
    /// Each player's moves as a set ([`MoveSets`], `Game::random_playout_sets`): what RAVE,
    /// GRAVE and quality-based rewards run.
    Sets,
    /// Each player's cells of the filled board as sets (`Game::fill_playout`, Hex): what RAVE
    /// and GRAVE run with `fill_playouts` (their presets); `None` for games that do not fill.
    Filled,
}

/// Random playouts per second from `start`: median over `runs` runs of `ms` milliseconds,
/// recording what `record` says.
pub fn playouts_per_s<G: Game>(start: &G, runs: usize, ms: u64, record: Record) -> f64 {
    let mut rng = Rng64::new(12345);
    let mut trace = Vec::with_capacity(512);
    let mut sets = MoveSets::default();
    let mut sink = 0u64;
    let rate = median_rate(runs, ms, || {
        let mut g = start.clone();
        let o = match record {
            Record::List => {
                trace.clear();
                g.random_playout(&mut rng, &mut trace)
            }
            Record::Sets => g.random_playout_sets(&mut rng, &mut sets, &mut trace),
            Record::Outcome => g.random_playout(&mut rng, &mut NoTrace),
            Record::Filled => g.fill_playout(&mut rng, &mut sets, &mut NoTrace).unwrap_or(mcts_playground::game::Outcome::Draw),
        };
        if o.winner() == Some(0) {
            sink += 1;
        }
    });
    std::hint::black_box(sink);
    rate
}

/// Network evaluations per second, batch 1 (one position's input planes, forward pass, softmax
/// over the legal moves and the value), at `start`, median of `runs` runs of `ms` milliseconds;
/// `None` when no net ships for the game. Also the net's parameter count.
pub fn net_evaluations_per_s<G: Game>(start: &G, runs: usize, ms: u64) -> Option<(f64, usize)> {
    use mcts_playground::mcts::Evaluator;
    let ev = mcts_playground::nn::NetEvaluator::for_game(start).ok()?;
    let mut legal = mcts_playground::game::MoveList::new();
    start.legal_moves(&mut legal);
    let mut out = Vec::new();
    let mut sink = 0.0;
    let rate = median_rate(runs, ms, || sink += ev.evaluate(start, &legal, &mut out).unwrap_or(0.0));
    std::hint::black_box(sink);
    Some((rate, ev.net().parameters()))
}

/// The 1-minute load average (Linux `/proc/loadavg`), to read a speed-up figure against.
fn loadavg_1min() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg").ok()?.split_whitespace().next()?.parse().ok()
}

/// What `mcts bench` measures: each game, with the presets measured on it.
struct Plan {
    spec: String,
    game: AnyGame,
    presets: Vec<String>,
}

/// Every game and preset of the arguments, checked before anything is measured: each spec
/// names a game, each preset exists and can search that game (a network preset needs the
/// game's net). The same messages as `mcts search`.
///
/// # Errors
/// A bad spec, an unknown preset, a preset the game cannot use.
fn plan(a: &Args) -> Result<Vec<Plan>, CliError> {
    let specs: Vec<String> = if a.game.is_empty() { default_games() } else { a.game.clone() };
    for p in a.preset.iter().filter(|p| *p != "all") {
        crate::search::config_from(p, &a.set, None)?;
    }
    let mut plans = Vec::new();
    for spec in specs {
        let game = AnyGame::from_spec(&spec)?;
        let mut presets: Vec<String> = if a.playouts_only {
            Vec::new()
        } else if a.preset.is_empty() {
            vec!["uct".into()]
        } else if a.preset.iter().any(|p| p == "all") {
            // Every preset the game can use (the network presets only where a net ships).
            mcts_playground::nn::models::presets_for(&game.spec()).iter().map(|s| s.to_string()).collect()
        } else {
            a.preset.clone()
        };
        // `uct` first when it is among the presets: the others' ratios are to its figure.
        if let Some(i) = presets.iter().position(|p| p == "uct") {
            let p = presets.remove(i);
            presets.insert(0, p);
        }
        for p in &presets {
            let config = crate::search::config_from(p, &a.set, None)?;
            mcts_playground::nn::search::any_search(&game, config).map_err(CliError::engine)?;
        }
        plans.push(Plan { spec, game, presets });
    }
    Ok(plans)
}

/// Runs the verb.
///
/// # Errors
/// A bad game spec, an unknown preset or one the game cannot use (all checked before any
/// measurement), or a failed write.
pub fn run(a: Args) -> Result<(), CliError> {
    for Plan { spec, game: g, presets } in plan(&a)? {
        let spec = &spec;
        let rate = with_game!(&g, g => playouts_per_s(g, a.runs, a.ms, Record::Outcome));
        let traced = with_game!(&g, g => playouts_per_s(g, a.runs, a.ms, Record::List));
        let sets = with_game!(&g, g => playouts_per_s(g, a.runs, a.ms, Record::Sets));
        // Games that fill (Hex): the filled board as sets, what the RAVE/GRAVE presets run.
        let fills = with_game!(&g, g => g.clone().fill_playout(&mut Rng64::new(1), &mut MoveSets::default(), &mut NoTrace).is_some());
        let filled = if fills { Some(with_game!(&g, g => playouts_per_s(g, a.runs, a.ms, Record::Filled))) } else { None };
        if a.json {
            let mut j = json!({"game": spec, "playouts_per_s": rate.round(), "traced_playouts_per_s": traced.round(),
                       "set_playouts_per_s": sets.round(), "runs": a.runs, "statistic": "median"});
            if let Some(f) = filled {
                j["filled_set_playouts_per_s"] = json!(f.round());
            }
            outln!("{j}")?;
        } else {
            let fill = filled.map(|f| format!(", {f:>12.0} filling the board as sets")).unwrap_or_default();
            outln!(
                "{spec:<20} {:>14.0} random playouts/s outcome only, {:>12.0} recording moves, {:>12.0} as move sets{fill} (median of {} runs)",
                rate, traced, sets, a.runs
            )?;
        }
        if let Some((evals, params)) = with_game!(&g, g => net_evaluations_per_s(g, a.runs, a.ms)) {
            if a.json {
                outln!("{}", json!({"game": spec, "net_evaluations_per_s": evals.round(), "net_parameters": params, "batch": 1}))?;
            } else {
                outln!("{spec:<20} {evals:>14.0} network evaluations/s (batch 1, {params} parameters)")?;
            }
        }
        // Iterations per second of `uct` in this run, for the ratios (measured first when asked).
        let mut uct_rate: Option<f64> = None;
        for preset in &presets {
            let mut runs = Vec::new();
            for _ in 0..a.runs {
                let config = crate::search::config_from(preset, &a.set, None)?;
                runs.push(iterations_per_s_with::<Nets>(spec, preset, config, a.search_ms).map_err(CliError::engine)?);
            }
            let mut rates: Vec<f64> = runs.iter().map(|r| r.iterations_per_s).collect();
            let rate = median(&mut rates);
            let last = runs.last().expect("one run at least");
            if preset == "uct" {
                uct_rate = Some(rate);
            }
            let ratio = uct_rate.filter(|&u| u > 0.0).map(|u| (rate / u * 1000.0).round() / 1000.0);
            if a.json {
                let mut j = json!({"game": spec, "preset": preset, "iterations_per_s": rate.round(),
                       "ratio_to_uct": ratio,
                       "bytes_per_node": last.bytes_per_node, "tree_bytes": last.tree_bytes,
                       "nodes": last.nodes, "search_ms": a.search_ms, "runs": a.runs, "statistic": "median"});
                if !a.set.is_empty() {
                    j["set"] = json!(a.set);
                }
                outln!("{j}")?;
            } else {
                let preset = if a.set.is_empty() { preset.clone() } else { format!("{preset} {}", a.set.join(" ")) };
                outln!(
                    "{spec:<20} {preset:<10} {:>11.0} MCTS iterations/s (median of {}){}, {:.1} bytes/node, {:.1} MB tree after {} ms",
                    rate,
                    a.runs,
                    ratio.map_or(String::new(), |r| format!(", {r:.3}× uct")),
                    last.bytes_per_node,
                    last.tree_bytes as f64 / 1e6,
                    a.search_ms
                )?;
            }
            for &t in &a.threads {
                let mut rates = Vec::new();
                for _ in 0..a.runs {
                    let config = crate::search::config_from(preset, &a.set, None)?;
                    let r = search_root_parallel::<Nets>(&g, &config, Budget::millis(a.search_ms), t).map_err(CliError::engine)?;
                    rates.push(r.merged.iterations_per_s);
                }
                let total = median(&mut rates);
                let speedup = if rate > 0.0 { (total / rate * 1000.0).round() / 1000.0 } else { 0.0 };
                if a.json {
                    outln!(
                        "{}",
                        json!({"game": spec, "preset": preset, "threads": t, "iterations_per_s": total.round(),
                               "speedup": speedup, "search_ms": a.search_ms, "runs": a.runs, "statistic": "median",
                               "loadavg_1min": loadavg_1min()})
                    )?;
                } else {
                    outln!(
                        "{spec:<20} {preset:<10} {total:>11.0} MCTS iterations/s on {t} threads, root-parallel (median of {}), {speedup:.2}× one thread{}",
                        a.runs,
                        loadavg_1min().map_or(String::new(), |l| format!(" (load average {l:.2})"))
                    )?;
                }
            }
        }
    }
    Ok(())
}
