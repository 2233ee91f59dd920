//! `mcts arena`: configuration A against configuration B, colours alternating, games in parallel,
//! from the empty board or from a list of openings (each played twice, colours swapped).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use mcts_playground::arena::{first_move_openings, opening_of, parse_openings, play_game_from, GameRecord, Standings};
use mcts_playground::game::AnyGame;
use mcts_playground::limits::{MAX_ARENA_GAMES, MAX_OPENINGS_BYTES};
use serde_json::json;

use crate::error::CliError;
use crate::search::{budget_from, config_from};

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

/// The openings of a match: `--openings` as given, or its default for the game.
///
/// # Errors
/// An unreadable file, or its first bad line.
fn openings_from(arg: Option<&str>, game: &AnyGame) -> Result<(String, Vec<Vec<String>>), CliError> {
    let spec = game.spec();
    let hex_without_swap = matches!(game, AnyGame::Hex(h) if !h.swap_enabled());
    let arg = arg.unwrap_or(if hex_without_swap { "all" } else { "none" });
    match arg {
        "none" => Ok((arg.into(), Vec::new())),
        "all" => Ok((arg.into(), first_move_openings(&spec)?)),
        path => {
            let text = read_openings_file(path)?;
            let list = parse_openings(&spec, &text).map_err(|source| CliError::Openings { path: path.to_string(), source })?;
            Ok((path.to_string(), list))
        }
    }
}

/// Reads `--openings FILE` in bounded memory: a regular file (checked before it is opened: a
/// named pipe without a writer would block, `/dev/zero` never ends) of at most
/// [`MAX_OPENINGS_BYTES`], in UTF-8.
///
/// # Errors
/// Missing, unreadable, not a regular file, too long, or not UTF-8; the message names the file.
fn read_openings_file(path: &str) -> Result<String, CliError> {
    use std::io::{Error, ErrorKind, Read};
    let at = |source: Error| CliError::OpeningsFile { path: path.to_string(), source };
    let too_long = |len: u64| at(Error::other(format!("{len} bytes, more than a file of openings may have ({MAX_OPENINGS_BYTES} bytes)")));
    let meta = std::fs::metadata(path).map_err(at)?;
    if !meta.is_file() {
        let kind = crate::search::file_kind(&meta.file_type());
        return Err(at(Error::other(format!("{kind}, not a file of openings (a text file, one opening a line)"))));
    }
    if meta.len() > MAX_OPENINGS_BYTES {
        return Err(too_long(meta.len()));
    }
    let mut bytes = Vec::new();
    // The file may have grown since its size was read: never read more than the limit and a byte.
    std::fs::File::open(path).map_err(at)?.take(MAX_OPENINGS_BYTES + 1).read_to_end(&mut bytes).map_err(at)?;
    if bytes.len() as u64 > MAX_OPENINGS_BYTES {
        return Err(too_long(bytes.len() as u64));
    }
    String::from_utf8(bytes).map_err(|e| at(Error::new(ErrorKind::InvalidData, format!("not UTF-8 text ({e})"))))
}

/// `--games`: a whole number of games in 0 ..= [`MAX_ARENA_GAMES`].
fn parse_games(text: &str) -> Result<usize, String> {
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

impl Clock {
    /// A clock for the calling thread: milliseconds since this call.
    fn start(self) -> Box<dyn Fn() -> f64> {
        match self {
            Clock::Wall => {
                let start = Instant::now();
                Box::new(move || start.elapsed().as_secs_f64() * 1000.0)
            }
            Clock::Cpu => {
                let start = cpu_time::ThreadTime::now();
                Box::new(move || start.elapsed().as_secs_f64() * 1000.0)
            }
        }
    }

    fn name(self) -> &'static str {
        match self {
            Clock::Wall => "wall",
            Clock::Cpu => "cpu",
        }
    }
}

/// Runs the verb.
///
/// # Errors
/// Bad spec or configuration, or an engine failure.
pub fn run(a: Args) -> Result<(), CliError> {
    let start = AnyGame::from_spec(&a.game)?;
    let spec = start.spec();
    let (openings_arg, openings) = openings_from(a.openings.as_deref(), &start)?;
    let k = openings.len();
    let games = match a.games {
        Some(n) => n,
        None if k > 0 => (2 * k).min(MAX_ARENA_GAMES),
        None => 100,
    };
    if let Some(p) = &a.net {
        crate::search::register_net(p, Some(&spec))?;
    }
    let ca = config_from(&a.a, &a.set_a, None)?;
    let cb = config_from(&a.b, &a.set_b, None)?;
    let budget = budget_from(a.iterations, a.ms);
    // After every option is checked, so that a refused option is the only message.
    if k > 0 && !games.is_multiple_of(2 * k) {
        errln(&format!(
            "mcts: note: {games} games on {k} openings: not a whole number of rounds ({} games each, every opening with both colours), so some openings are played more often than others or with one colour only",
            2 * k
        ));
    }
    let threads = a.threads.unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)).clamp(1, 64);
    let next = AtomicUsize::new(0);
    // Grown as games end: the count is the user's, and a match may stop early on an error.
    let records: Mutex<Vec<GameRecord>> = Mutex::new(Vec::new());
    let error: Mutex<Option<CliError>> = Mutex::new(None);
    let bar = if a.json { ProgressBar::hidden() } else { ProgressBar::new(games as u64) };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {msg}  [{elapsed_precise}, eta {eta}]")
            .map_err(|e| CliError::Progress(e.to_string()))?,
    );
    let t0 = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let clock = a.clock.start();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games || error.lock().unwrap().is_some() {
                        break;
                    }
                    let opening = if k > 0 { &openings[opening_of(i, k)][..] } else { &[] };
                    match play_game_from(&a.game, opening, &ca, &cb, budget, a.seed, i, &*clock) {
                        Ok(r) => {
                            let mut recs = records.lock().unwrap();
                            recs.push(r);
                            let s = Standings::from_records(&recs);
                            bar.set_message(format!("A {}-{}-{}  win rate {:.3}", s.wins, s.draws, s.losses, s.win_rate));
                            bar.inc(1);
                        }
                        Err(source) => {
                            *error.lock().unwrap() = Some(CliError::ArenaGame { index: i, source });
                            break;
                        }
                    }
                }
            });
        }
    });
    bar.finish_and_clear();
    if let Some(e) = error.into_inner().unwrap() {
        return Err(e);
    }
    let mut recs = records.into_inner().unwrap();
    recs.sort_by_key(|r| r.index);
    let s = Standings::from_records(&recs);
    let secs = t0.elapsed().as_secs_f64();
    if a.json {
        let obj = json!({
            "game": a.game, "a": a.a, "b": a.b, "set_a": a.set_a, "set_b": a.set_b,
            "iterations": budget.iterations, "ms": budget.millis, "clock": a.clock.name(), "seed": a.seed,
            "net": a.net.as_ref().map(|p| p.display().to_string()),
            "games": s.games, "wins": s.wins, "draws": s.draws, "losses": s.losses,
            "win_rate": s.win_rate, "win_rate_ci95": s.win_rate_ci95,
            "elo": finite(s.elo), "elo_ci95": [finite(s.elo_ci95[0]), finite(s.elo_ci95[1])],
            "openings": openings_arg, "opening_count": k,
            "a_first_games": s.a_first_games, "a_first_wins": s.a_first_wins,
            "a_first_draws": s.a_first_draws, "a_first_losses": s.a_first_losses,
            "a_second_games": s.a_second_games, "a_second_wins": s.a_second_wins,
            "a_second_draws": s.a_second_draws, "a_second_losses": s.a_second_losses,
            "first_player_wins": s.first_player_wins, "second_player_wins": s.second_player_wins,
            "seconds": secs, "records": recs,
        });
        outln!("{obj}")?;
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
    outln!("{} games in {:.1} s on {threads} threads", s.games, secs)?;
    Ok(())
}

/// A line on standard error (a note; the results go to standard output).
fn errln(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{text}");
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some((x * 10.0).round() / 10.0)
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
