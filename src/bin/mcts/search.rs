//! `mcts search`: search one position and print the root statistics.

use mcts_playground::mcts::parallel::worker_seed;
use mcts_playground::mcts::{Budget, SearchConfig};
use mcts_playground::report;

use crate::error::CliError;

/// The `--algo` help line: every preset's name, from the engine's list.
fn preset_help() -> String {
    let names: Vec<&str> = mcts_playground::mcts::Preset::ALL.iter().map(|p| p.name()).collect();
    format!("Algorithm preset: {}", names.join(" "))
}

/// Arguments shared by the verbs that configure an engine.
#[derive(clap::Args, Debug, Clone)]
pub struct EngineArgs {
    /// Algorithm preset (every one of `Preset::ALL`, listed from it so the help cannot drift).
    #[arg(long, default_value = "uct", help = preset_help())]
    pub algo: String,
    /// Override a configuration field, `key=value` (repeatable), e.g. `--set c=0.7 --set rave_k=500`.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Budget in MCTS iterations (playouts) per search.
    #[arg(long, conflicts_with = "ms")]
    pub iterations: Option<u64>,
    /// Budget in milliseconds per search (0 ..= 2^53 − 1, `mcts_playground::limits::MAX_BUDGET`).
    #[arg(long, value_parser = parse_ms)]
    pub ms: Option<f64>,
    /// Random seed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// A weights file (`mcts train`'s `iter-N.mctsnet`, `latest.mctsnet`) that the network
    /// presets (`alphazero`, `alphago`, `puct-net`) use instead of the game's shipped net.
    #[arg(long, value_name = "FILE.mctsnet")]
    pub net: Option<std::path::PathBuf>,
}

impl EngineArgs {
    /// The configuration: the preset, then each `--set`, then `--seed`.
    ///
    /// # Errors
    /// Unknown preset, malformed `--set`, unknown key or out-of-range value.
    pub fn config(&self) -> Result<SearchConfig, CliError> {
        config_from(&self.algo, &self.set, self.seed)
    }

    /// Registers `--net` (if given) for its game, which must be `spec` when one is given.
    ///
    /// # Errors
    /// As [`register_net`].
    pub fn register_net(&self, spec: Option<&str>) -> Result<(), CliError> {
        self.net.as_deref().map_or(Ok(()), |p| register_net(p, spec))
    }

    /// The budget; 10,000 iterations when neither `--iterations` nor `--ms` is given.
    pub fn budget(&self) -> Budget {
        budget_from(self.iterations, self.ms)
    }
}

/// `--ms`: a number of milliseconds in 0 ..= 2^53 − 1 (not NaN, not infinite: a search without
/// end would only stop at the node cap, and then go on forever). The one parser of every verb's
/// `--ms` (`search`, `gtp`, `arena`, `bench --search-ms`).
pub fn parse_ms(text: &str) -> Result<f64, String> {
    let v: f64 = text.trim().parse().map_err(|_| format!("'{text}' is not a number of milliseconds"))?;
    if v.is_finite() && (0.0..=mcts_playground::limits::MAX_BUDGET).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{text} is out of range: milliseconds are 0 ..= 2^53-1"))
    }
}

/// Reads a weights file (`--net`, `--init`, `--value-openings`) in bounded memory and time
/// (`mcts_playground::nn::file::read_net`: a regular file of at most the largest net the format
/// allows, its header checked before the rest).
///
/// # Errors
/// The file is missing or unreadable, not a regular file, larger than any weights file, or does
/// not start as one; each message starts with the path.
#[cfg(feature = "train")]
pub fn read_net(path: &std::path::Path) -> Result<Vec<u8>, CliError> {
    mcts_playground::nn::file::read_net(path).map_err(CliError::engine)
}

/// Reads the weights file at `path` and registers it (`nn::models::register`) as the net of
/// its game, in place of the shipped one, for the rest of the process.
///
/// # Errors
/// The file cannot be read, is not a valid weights file, or holds a net for a game other than
/// `spec` (when given).
pub fn register_net(path: &std::path::Path, spec: Option<&str>) -> Result<(), CliError> {
    report::register_net(path, spec)?;
    Ok(())
}

/// A configuration from a preset name, `key=value` overrides and an optional seed.
///
/// # Errors
/// Unknown preset, malformed override, unknown key or out-of-range value.
pub fn config_from(algo: &str, sets: &[String], seed: Option<u64>) -> Result<SearchConfig, CliError> {
    Ok(report::config_from(algo, sets, seed)?)
}

/// A budget from optional iterations and milliseconds (10,000 iterations when both are absent).
pub fn budget_from(iterations: Option<u64>, ms: Option<f64>) -> Budget {
    report::budget_from(iterations, ms)
}

/// Arguments of `mcts search`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pos: crate::replay::PositionArgs,
    #[command(flatten)]
    engine: EngineArgs,
    /// Print the statistics as one JSON object (keys: best_move, pv, proven, value, iterations,
    /// children [{move, visits, q, amaf_visits, amaf_q, beta, prior, proven, puct_u}], puct_c, root_visits, ...).
    #[arg(long)]
    json: bool,
    /// Root-parallel search on N threads (1 ..= 64; default 1, the plain search, bit for bit):
    /// thread i searches with seed `seed + i` for its share of `--iterations` (the total is
    /// split; `--ms` applies to each), and the root statistics are merged (visits and wins summed
    /// per move; `mcts_playground::mcts::parallel`). With N > 1 the JSON adds `threads` and
    /// `workers` [{seed, iterations, best_move, iterations_per_s}].
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

/// Runs the verb.
///
/// # Errors
/// Bad spec, move, configuration; searching a finished game.
pub fn run(a: Args) -> Result<(), CliError> {
    let g = a.pos.position()?;
    if g.outcome().is_some() {
        return Err(CliError::Report(mcts_playground::report::ReportError::GameOver));
    }
    let config = a.engine.config()?;
    a.engine.register_net(Some(&g.spec()))?;
    let r = report::search::search(&g, &config, a.engine.budget(), a.threads)?;
    if a.json {
        outln!("{}", r.to_json()?)?;
        return Ok(());
    }
    if a.threads > 1 {
        outln!("root-parallel: {} threads, seeds {}..={}", a.threads, config.seed, worker_seed(config.seed, a.threads - 1))?;
    }
    let st = r.stats;
    outln!("{} after {} moves, {} to move", g.spec(), g.ply(), if g.to_move() == 0 { "X" } else { "O" })?;
    outln!(
        "{} iterations in {:.0} ms ({:.0}/s), {} nodes ({} bytes/node), depth {}",
        st.iterations,
        st.elapsed_ms,
        st.iterations_per_s,
        st.nodes,
        st.bytes_per_node,
        st.max_depth
    )?;
    outln!("best move {}  value {:.3}  proven {}", st.best_move.as_deref().unwrap_or("-"), st.value, st.proven.map_or("-", |p| p.name()))?;
    outln!("principal variation: {}", st.pv.join(" "))?;
    outln!("{:<12} {:>9} {:>7} {:>9} {:>7} {:>6} {:>6} {:>6}", "move", "N", "Q", "AMAF N", "AMAF Q", "beta", "P", "proven")?;
    for c in st.children.iter().take(20) {
        outln!(
            "{:<12} {:>9} {:>7.3} {:>9} {:>7} {:>6} {:>6} {:>6}",
            c.mv,
            c.visits,
            c.q,
            if c.amaf_q.is_some() { c.amaf_visits.to_string() } else { String::new() },
            c.amaf_q.map(|v| format!("{v:.3}")).unwrap_or_default(),
            c.beta.map(|v| format!("{v:.2}")).unwrap_or_default(),
            c.prior.map(|v| format!("{v:.3}")).unwrap_or_default(),
            c.proven.map_or("", |p| p.name()),
        )?;
    }
    Ok(())
}
