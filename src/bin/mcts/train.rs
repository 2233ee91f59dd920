//! `mcts train`: the AlphaZero training loop (`mcts_playground::nn::train`) with a progress
//! bar; writes `config.json`, a checkpoint per iteration (`iter-N.mctsnet`, `latest.mctsnet`),
//! `log.csv` and `log.jsonl` into `--out`.

use crate::error::CliError;
use indicatif::{ProgressBar, ProgressStyle};
use mcts_playground::limits::abbreviate;
use mcts_playground::nn::train::exact::ExactTargets;
use mcts_playground::nn::train::{csv_line, ConvShape, TrainConfig, Trainer, CSV_HEADER};
use mcts_playground::nn::Net;
use std::io::Write;
use std::path::PathBuf;

/// `mcts train` arguments (unset ones take [`TrainConfig`]'s defaults, or `--config`'s).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Game spec: tictactoe, hex:5, hex:7 (Hex without the swap rule).
    #[arg(long)]
    game: Option<String>,
    /// A JSON training configuration (a `config.json` of an earlier run); flags override it.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Output directory (created).
    #[arg(long, default_value = "train-out")]
    out: PathBuf,
    /// Start from these weights instead of a fresh net (their hidden layers, unless --hidden or
    /// --config's hidden asks for a larger net: then grown to it by Net2Net, the same function;
    /// a convolutional net trains on in its own shape).
    #[arg(long)]
    init: Option<PathBuf>,
    /// Training iterations.
    #[arg(long)]
    iterations: Option<usize>,
    /// Self-play games per iteration.
    #[arg(long)]
    games: Option<usize>,
    /// Search playouts per self-play move.
    #[arg(long)]
    playouts: Option<u64>,
    /// Hidden layer widths, comma-separated (e.g. 128,128).
    #[arg(long, value_delimiter = ',')]
    hidden: Option<Vec<usize>>,
    /// Adam steps per iteration.
    #[arg(long)]
    steps: Option<usize>,
    /// Minibatch size.
    #[arg(long)]
    batch: Option<usize>,
    /// Adam learning rate.
    #[arg(long)]
    lr: Option<f64>,
    /// Games per evaluation match (0: no evaluation).
    #[arg(long)]
    eval_games: Option<u32>,
    /// Playouts per move in evaluation games.
    #[arg(long)]
    eval_playouts: Option<u64>,
    /// Reference preset for Hex evaluations.
    #[arg(long)]
    reference: Option<String>,
    /// Seed.
    #[arg(long)]
    seed: Option<u64>,
    /// Self-play root: puct (Dirichlet noise + temperature) or gumbel (Gumbel AlphaZero).
    #[arg(long, value_parser = ["puct", "gumbel"])]
    root: Option<String>,
    /// m of the Gumbel root (moves sampled by Gumbel-top-k).
    #[arg(long)]
    gumbel_m: Option<usize>,
    /// Playout cap randomization: fraction of moves with a full, recorded search (1 = off).
    #[arg(long)]
    full_search_fraction: Option<f64>,
    /// Playouts of the other (fast, unrecorded) moves.
    #[arg(long)]
    fast_playouts: Option<u64>,
    /// Random opening plies of each evaluation pair of games.
    #[arg(long)]
    eval_opening_plies: Option<usize>,
    /// Random opening plies at the start of every self-play game (no rows; 0 = none).
    #[arg(long)]
    opening_plies: Option<usize>,
    /// With it, each self-play game plays a count of random opening plies drawn uniformly from
    /// this to --opening-plies (0: some games from the empty board).
    #[arg(long)]
    opening_plies_min: Option<usize>,
    /// Exact targets (Hex up to 8×8, Tic-Tac-Toe): self-play positions the exact solver settles
    /// within `solve_nodes` (df-pn MID calls on Hex; alpha-beta positions on Tic-Tac-Toe, where
    /// every position settles) get the proven value (win 1, draw 0, loss -1) and optimal moves
    /// mixed into their targets with weight `mix` (e.g. `solve_nodes=20000,mix=0.5`; `tt_log2`
    /// the solver table's size; `policy` the policy target of a won or drawn position: uniform
    /// over the moves that keep its value, the self-play visits restricted to them, or none;
    /// `early_plies=E,early_nodes=M`: positions at most E moves from the start, e.g. the Hex
    /// openings, are solved with the budget M instead, once a run).
    #[arg(long, value_name = "solve_nodes=N,mix=X[,tt_log2=K][,policy=uniform|visits|none]")]
    exact_targets: Option<String>,
    /// A convolutional net for Hex instead of the fully connected --hidden layers (a 3×3
    /// convolution on the board padded with edge stones, `blocks` residual 3×3 convolutions of
    /// `channels` channels, a 1×1 policy head and AlphaZero's value head with `value_hidden`
    /// units; defaults 32, 4, 64). `--conv ''` takes the defaults.
    #[arg(long, value_name = "channels=C,blocks=B,value_hidden=H")]
    conv: Option<String>,
    /// Threads playing each iteration's self-play games (the run is the same for any count).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// Print one JSON object per iteration on standard output.
    #[arg(long)]
    json: bool,
    /// Instead of training: print this Hex net's value head on every opening (Black's value
    /// after each first move, and the cells where it is positive), then exit.
    #[arg(long, value_name = "FILE.mctsnet")]
    value_openings: Option<PathBuf>,
}

/// `--value-openings`: the value head on every first move of a Hex net's board, for Black.
fn value_openings(path: &std::path::Path) -> Result<(), CliError> {
    use mcts_playground::game::{Game, Hex};
    use mcts_playground::nn::NetEvaluator;
    let net = Net::from_bytes(&crate::search::read_net(path)?).map_err(|e| CliError::Engine(format!("{}: {e}", path.display())))?;
    let n: usize = net
        .spec()
        .strip_prefix("hex:")
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| CliError::Engine(format!("{}: a net for '{}', not Hex", path.display(), abbreviate(net.spec()))))?;
    let start = Hex::new(n, false).map_err(|e| CliError::Engine(e.to_string()))?;
    let spec = net.spec().to_string();
    let ev: NetEvaluator<Hex> = NetEvaluator::new(std::sync::Arc::new(net), &spec).map_err(|e| CliError::Engine(e.to_string()))?;
    let mut logits = vec![0f32; n * n];
    let mut wins = Vec::new();
    for cell in 0..n * n {
        let mut g = start.clone();
        let m = g.move_from_index(cell).ok_or_else(|| CliError::Engine("cell".into()))?;
        g.play_unchecked(m);
        // The value head speaks for the side to move (White); Black's value is its negation.
        let black = -ev.forward(&g, &mut logits);
        let name = start.format_move(m);
        outln!("{name:>4} {black:+.3} ({:.1}% for Black)", (black + 1.0) * 50.0)?;
        if black > 0.0 {
            wins.push(name);
        }
    }
    outln!("Black wins (value > 0) with {} of {} openings: {}", wins.len(), n * n, wins.join(" "))?;
    Ok(())
}

fn io(path: &std::path::Path) -> impl Fn(std::io::Error) -> CliError + '_ {
    move |e| CliError::Engine(format!("{}: {e}", path.display()))
}

/// Runs the verb.
pub fn run(a: Args) -> Result<(), CliError> {
    if let Some(p) = &a.value_openings {
        return value_openings(p);
    }
    let mut c = match &a.config {
        Some(p) => serde_json::from_str(&std::fs::read_to_string(p).map_err(io(p))?)
            .map_err(|e| CliError::Engine(format!("{}: {e}", p.display())))?,
        None => TrainConfig::default(),
    };
    macro_rules! over {
        ($($f:ident),*) => { $( if let Some(v) = a.$f.clone() { c.$f = v; } )* };
    }
    over!(
        game,
        iterations,
        games,
        playouts,
        hidden,
        steps,
        batch,
        lr,
        eval_games,
        eval_playouts,
        reference,
        seed,
        gumbel_m,
        full_search_fraction,
        fast_playouts,
        eval_opening_plies,
        opening_plies
    );
    if let Some(m) = a.opening_plies_min {
        c.opening_plies_min = Some(m);
    }
    if let Some(e) = &a.exact_targets {
        c.exact_targets = Some(ExactTargets::parse(e).map_err(CliError::Engine)?);
    }
    if let Some(shape) = &a.conv {
        c.conv = Some(ConvShape::parse(shape).map_err(CliError::Engine)?);
    }
    if let Some(r) = &a.root {
        c.root = if r == "gumbel" { mcts_playground::mcts::RootRule::Gumbel } else { mcts_playground::mcts::RootRule::Puct };
    }
    let init = match &a.init {
        Some(p) => Some(Net::from_bytes(&crate::search::read_net(p)?).map_err(|e| CliError::Engine(format!("{}: {e}", p.display())))?),
        None => None,
    };
    match (&init, &a.config) {
        (Some(Net::Mlp(m)), None) if a.hidden.is_none() => c.hidden = m.hidden(),
        (Some(Net::Conv(k)), None) if a.conv.is_none() => c.conv = Some(ConvShape::of(k)),
        _ => {}
    }
    let mut t = Trainer::new(c, init.as_ref()).map_err(|e| CliError::Engine(e.to_string()))?;
    t.set_threads(a.threads.into());
    std::fs::create_dir_all(&a.out).map_err(io(&a.out))?;
    let cfg_path = a.out.join("config.json");
    std::fs::write(&cfg_path, serde_json::to_string_pretty(t.config())?).map_err(io(&cfg_path))?;
    let csv_path = a.out.join("log.csv");
    let jsonl_path = a.out.join("log.jsonl");
    let mut csv = std::fs::File::create(&csv_path).map_err(io(&csv_path))?;
    writeln!(csv, "{CSV_HEADER}").map_err(io(&csv_path))?;
    let mut jsonl = std::fs::File::create(&jsonl_path).map_err(io(&jsonl_path))?;
    let total = (t.config().iterations * t.config().games) as u64;
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} self-play games {msg}")
            .map_err(|e| CliError::Progress(e.to_string()))?
            .progress_chars("=> "),
    );
    let t0 = std::time::Instant::now();
    for _ in 0..t.config().iterations {
        let log = t.iterate(&mut || bar.inc(1));
        let bytes = t.net().to_bytes();
        for name in [format!("iter-{}.mctsnet", log.iteration), "latest.mctsnet".to_string()] {
            let p = a.out.join(name);
            std::fs::write(&p, &bytes).map_err(io(&p))?;
        }
        writeln!(csv, "{}", csv_line(&log)).map_err(io(&csv_path))?;
        let line = serde_json::to_string(&log)?;
        writeln!(jsonl, "{line}").map_err(io(&jsonl_path))?;
        if a.json {
            outln!("{line}")?;
        }
        let r = |m: &Option<mcts_playground::nn::train::eval::MatchResult>| {
            m.map(|m| format!("{}/{}/{}", m.wins, m.draws, m.losses)).unwrap_or_default()
        };
        bar.set_message(format!(
            "it {} loss p {:.3} v {:.3} H {:.2} prev {:.2} raw {} search {}",
            log.iteration,
            log.loss.policy,
            log.loss.value,
            log.loss.entropy,
            log.vs_previous.unwrap_or(f64::NAN),
            r(&log.raw_vs_reference),
            r(&log.search_vs_reference)
        ));
        let exact = log.exact.map(|e| format!(", exact targets {} of {} rows", e.proven, e.tried)).unwrap_or_default();
        if !a.json {
            bar.println(format!(
                "iteration {:>3}: games {:>5}, policy loss {:.4}, value loss {:.4}, entropy {:.3}, vs previous {}, raw policy W/D/L {}, search W/D/L {}{} ({:.1} s)",
                log.iteration,
                log.games,
                log.loss.policy,
                log.loss.value,
                log.loss.entropy,
                log.vs_previous.map(|v| format!("{v:.2}")).unwrap_or_default(),
                r(&log.raw_vs_reference),
                r(&log.search_vs_reference),
                exact,
                log.seconds
            ));
        }
    }
    bar.finish_and_clear();
    eprintln!("trained {} games in {:.1} s; weights in {}", t.games(), t0.elapsed().as_secs_f64(), a.out.join("latest.mctsnet").display());
    Ok(())
}
