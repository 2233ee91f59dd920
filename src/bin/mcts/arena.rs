//! `mcts arena`: configuration A against configuration B, colours alternating, games in parallel,
//! from the empty board or from a list of openings (each played twice, colours swapped).

use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use mcts_playground::arena::Standings;
use mcts_playground::limits::MAX_ARENA_GAMES;
use mcts_playground::report::{self, Match, MatchSpec};

use crate::error::CliError;

/// Arguments of `mcts arena`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Game spec string, e.g. hex:7.
    #[arg(long, short)]
    game: String,
    /// Preset of configuration A.
    #[arg(long)]
    a: String,
    /// Preset of configuration B.
    #[arg(long)]
    b: String,
    /// Overrides for A, `key=value` (repeatable).
    #[arg(long = "set-a", value_name = "KEY=VALUE")]
    set_a: Vec<String>,
    /// Overrides for B, `key=value` (repeatable).
    #[arg(long = "set-b", value_name = "KEY=VALUE")]
    set_b: Vec<String>,
    /// Number of games (A moves first in even-numbered games), 0 ..= 1,000,000
    /// (`mcts_playground::limits::MAX_ARENA_GAMES`). Default: 100 from the empty board; on
    /// openings, one round (2 games per opening). On openings, games 2j and 2j+1 play opening
    /// j mod k (of k): a count that is not a multiple of 2k plays some openings more often than
    /// others (a note on standard error says so).
    #[arg(long, value_parser = parse_games)]
    games: Option<usize>,
    /// Openings: `all` (every legal first move: Hex n×n n², Tic-Tac-Toe 9, Pentago 288), `none`
    /// (every game from the empty board), or a FILE with one opening a line (moves from the
    /// start in the reference notation, separated by spaces, as `--moves`; blank lines and `#`
    /// comments skipped; `./all` for a file named `all`). Each opening is played twice, A first
    /// then B first. Default: `all` for Hex without the swap rule (a first-player win, so
    /// games from the empty board mostly measure who moved first), `none` for other games.
    #[arg(long, value_name = "all|none|FILE")]
    openings: Option<String>,
    /// Budget per move in iterations (default 10,000 when --ms is not given).
    #[arg(long, conflicts_with = "ms")]
    iterations: Option<u64>,
    /// Budget per move in milliseconds (0 ..= 2^53 − 1, `mcts_playground::limits::MAX_BUDGET`).
    #[arg(long, value_parser = crate::search::parse_ms)]
    ms: Option<f64>,
    /// The clock `--ms` is measured on: `wall` (elapsed time, as a player sees it) or `cpu` (the
    /// searching thread's CPU time, so a loaded machine slows the match down but does not change
    /// each move's share of computation: equal-time tables on a shared machine use it).
    #[arg(long, value_enum, default_value_t = Clock::Wall)]
    clock: Clock,
    /// Base seed; game i uses seeds derived from (seed, i), so results do not depend on threads.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: available cores).
    #[arg(long)]
    threads: Option<usize>,
    /// A weights file that the network presets of both sides use instead of the game's
    /// shipped net (e.g. a checkpoint of `mcts train`).
    #[arg(long, value_name = "FILE.mctsnet")]
    net: Option<std::path::PathBuf>,
    /// Print one JSON object with the standings and every game.
    #[arg(long)]
    json: bool,
}

/// `--games`: a whole number of games in 0 ..= [`MAX_ARENA_GAMES`].
pub(crate) fn parse_games(text: &str) -> Result<usize, String> {
    let n: u64 = text.trim().parse().map_err(|_| format!("'{text}' is not a whole number of games"))?;
    usize::try_from(n)
        .ok()
        .filter(|&n| n <= MAX_ARENA_GAMES)
        .ok_or_else(|| format!("{text} games: at most {MAX_ARENA_GAMES} games per match"))
}

/// The clock a time budget (`--ms`) is measured on.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// Elapsed (wall-clock) time, `std::time::Instant`.
    Wall,
    /// CPU time of the searching thread (`CLOCK_THREAD_CPUTIME_ID` on Linux, via `cpu-time`).
    Cpu,
}

impl From<Clock> for report::Clock {
    fn from(c: Clock) -> report::Clock {
        match c {
            Clock::Wall => report::Clock::Wall,
            Clock::Cpu => report::Clock::Cpu,
        }
    }
}

/// Runs the verb.
///
/// # Errors
/// Bad spec or configuration, or an engine failure.
pub fn run(a: Args) -> Result<(), CliError> {
    let m = Match::prepare(MatchSpec {
        game: a.game.clone(),
        a: a.a.clone(),
        b: a.b.clone(),
        set_a: a.set_a.clone(),
        set_b: a.set_b.clone(),
        games: a.games,
        openings: a.openings.clone(),
        iterations: a.iterations,
        ms: a.ms,
        clock: a.clock.into(),
        seed: a.seed,
        net: a.net.clone(),
    })?;
    // After every option is checked, so that a refused option is the only message.
    if let Some(note) = m.rounds_note() {
        errln(&format!("mcts: note: {note}"));
    }
    let (games, k, budget) = (m.games, m.openings.len(), m.budget);
    let openings_arg = m.openings_arg.clone();
    let threads = a.threads.unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)).clamp(1, 64);
    let bar = if a.json { ProgressBar::hidden() } else { ProgressBar::new(games as u64) };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {msg}  [{elapsed_precise}, eta {eta}]")
            .map_err(|e| CliError::Progress(e.to_string()))?,
    );
    let t0 = Instant::now();
    let recs = m.play_all(threads, &|recs| {
        let s = Standings::from_records(recs);
        bar.set_message(format!("A {}-{}-{}  win rate {:.3}", s.wins, s.draws, s.losses, s.win_rate));
        bar.inc(1);
    });
    bar.finish_and_clear();
    let recs = recs?;
    let s = Standings::from_records(&recs);
    let secs = t0.elapsed().as_secs_f64();
    if a.json {
        outln!("{}", m.report(&recs, secs))?;
        return Ok(());
    }
    let budget_text = match (budget.iterations, budget.millis) {
        (Some(n), _) => format!("{n} iterations/move"),
        (None, Some(ms)) if a.clock == Clock::Cpu => format!("{ms} ms/move (thread CPU time)"),
        (None, Some(ms)) => format!("{ms} ms/move"),
        _ => String::new(),
    };
    let openings_text = match (k, openings_arg.as_str()) {
        (0, _) => "from the empty board".to_string(),
        (_, "all") => format!("on all {k} first moves, colours swapped"),
        (_, path) => format!("on the {k} openings of {path}, colours swapped"),
    };
    outln!("{} — A = {} {:?} vs B = {} {:?}, {budget_text}, seed {}, {openings_text}", a.game, a.a, a.set_a, a.b, a.set_b, a.seed)?;
    print_standings(&s)?;
    outln!("{} games in {:.1} s on {threads} threads", s.games, secs)?;
    Ok(())
}

/// The standings table: A's wins, draws, losses, win rate with its Wilson interval and Elo, the
/// split by colour, and the first player's wins (`mcts arena` and `mcts match`).
///
/// # Errors
/// Writing standard output failed.
pub(crate) fn print_standings(s: &Standings) -> Result<(), CliError> {
    outln!(
        "{:<8} {:>6} {:>6} {:>6} {:>9} {:>17} {:>8} {:>19}",
        "",
        "wins",
        "draws",
        "losses",
        "win rate",
        "95% CI (Wilson)",
        "Elo",
        "Elo 95% CI"
    )?;
    outln!(
        "{:<8} {:>6} {:>6} {:>6} {:>9.3} {:>17} {:>8} {:>19}",
        "A vs B",
        s.wins,
        s.draws,
        s.losses,
        s.win_rate,
        format!("[{:.3}, {:.3}]", s.win_rate_ci95[0], s.win_rate_ci95[1]),
        fmt_elo(s.elo),
        format!("[{}, {}]", fmt_elo(s.elo_ci95[0]), fmt_elo(s.elo_ci95[1])),
    )?;
    for (label, n, w, d, l) in [
        ("A first", s.a_first_games, s.a_first_wins, s.a_first_draws, s.a_first_losses),
        ("A second", s.a_second_games, s.a_second_wins, s.a_second_draws, s.a_second_losses),
    ] {
        let rate = if n > 0 { (w as f64 + 0.5 * d as f64) / n as f64 } else { 0.5 };
        outln!("{label:<8} {w:>6} {d:>6} {l:>6} {rate:>9.3}   ({n} games)")?;
    }
    outln!(
        "the first player won {} of {} games, the second player {}, {} drawn",
        s.first_player_wins,
        s.games,
        s.second_player_wins,
        s.draws
    )?;
    Ok(())
}

/// A line on standard error (a note; the results go to standard output), control characters
/// quoted.
fn errln(text: &str) {
    crate::out::errln(text);
}

fn fmt_elo(x: f64) -> String {
    if x.is_finite() {
        format!("{x:+.0}")
    } else if x > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}
