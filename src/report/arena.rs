//! `mcts arena`: a match of configuration A against B, its games and its report.
//!
//! A [`Match`] is checked once ([`Match::prepare`]: game, openings, net, both configurations,
//! budget), then its games are played one at a time ([`Match::play`], game `i` seeded from
//! `(seed, i)` by [`crate::arena::game_seed`], so any machine plays the same game `i`) or on
//! threads ([`Match::play_all`]), and [`Match::report`] turns the records, in any order and from
//! anywhere, into the JSON `mcts arena --json` prints.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use serde_json::json;

use super::{budget_from, config_from, ReportError};
use crate::arena::{first_move_openings, opening_of, parse_openings, play_game_from, GameRecord, Standings};
use crate::game::AnyGame;
use crate::limits::{MAX_ARENA_GAMES, MAX_OPENINGS_BYTES};
use crate::mcts::{Budget, SearchConfig};

/// The clock a time budget (`ms`) is measured on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Clock {
    /// Elapsed (wall-clock) time, `std::time::Instant`.
    #[default]
    Wall,
    /// CPU time of the searching thread (`CLOCK_THREAD_CPUTIME_ID` on Linux, via `cpu-time`).
    Cpu,
}

impl Clock {
    /// A clock for the calling thread: milliseconds since this call.
    pub fn start(self) -> Box<dyn Fn() -> f64> {
        match self {
            Clock::Wall => {
                let start = std::time::Instant::now();
                Box::new(move || start.elapsed().as_secs_f64() * 1000.0)
            }
            Clock::Cpu => {
                let start = cpu_time::ThreadTime::now();
                Box::new(move || start.elapsed().as_secs_f64() * 1000.0)
            }
        }
    }

    /// `wall` or `cpu` (JSON key `clock`).
    pub fn name(self) -> &'static str {
        match self {
            Clock::Wall => "wall",
            Clock::Cpu => "cpu",
        }
    }

    /// The clock named `wall` or `cpu`.
    ///
    /// # Errors
    /// Any other name.
    pub fn from_name(name: &str) -> Result<Clock, ReportError> {
        match name {
            "wall" => Ok(Clock::Wall),
            "cpu" => Ok(Clock::Cpu),
            other => Err(ReportError::Engine(format!("clock '{}': expected wall or cpu", crate::limits::abbreviate(other)))),
        }
    }
}

/// What a match is, as `mcts arena`'s options say it (defaults as there).
#[derive(Clone, Debug, Default)]
pub struct MatchSpec {
    /// Game spec string, as given (the JSON's `game`).
    pub game: String,
    /// Preset of configuration A.
    pub a: String,
    /// Preset of configuration B.
    pub b: String,
    /// Overrides for A, `key=value`, in order.
    pub set_a: Vec<String>,
    /// Overrides for B, `key=value`, in order.
    pub set_b: Vec<String>,
    /// Number of games, 0 ..= [`MAX_ARENA_GAMES`]; `None`: one round of the openings (2 per
    /// opening), or 100 from the empty board.
    pub games: Option<usize>,
    /// `all`, `none` or a file of openings; `None`: `all` for Hex without the swap rule, `none`
    /// otherwise.
    pub openings: Option<String>,
    /// Budget per move in iterations (10,000 when `ms` is not given either).
    pub iterations: Option<u64>,
    /// Budget per move in milliseconds.
    pub ms: Option<f64>,
    /// The clock `ms` is measured on.
    pub clock: Clock,
    /// Base seed (game `i` is seeded from `(seed, i)`).
    pub seed: u64,
    /// A weights file both sides' network presets use instead of the game's shipped net.
    pub net: Option<PathBuf>,
}

/// A checked match, ready to play ([`Match::prepare`]).
#[derive(Clone, Debug)]
pub struct Match {
    /// The match as asked.
    pub spec: MatchSpec,
    /// `all`, `none` or the file: the JSON's `openings`.
    pub openings_arg: String,
    /// The openings, each a move list from the start (empty: every game from the empty board).
    pub openings: Vec<Vec<String>>,
    /// Games in the match.
    pub games: usize,
    /// Configuration A (its seed replaced per game).
    pub config_a: SearchConfig,
    /// Configuration B.
    pub config_b: SearchConfig,
    /// Budget per move.
    pub budget: Budget,
}

/// The openings of a match: `arg` as given (`all`, `none` or a file), or its default for the
/// game (`all` for Hex without the swap rule, `none` otherwise). Returns the argument as the
/// JSON's `openings` names it and the openings, each a move list from the start. `mcts arena`
/// and `mcts match` read `--openings` through it.
///
/// # Errors
/// An unreadable file, or its first bad line.
pub fn openings_from(arg: Option<&str>, game: &AnyGame) -> Result<(String, Vec<Vec<String>>), ReportError> {
    let spec = game.spec();
    let hex_without_swap = matches!(game, AnyGame::Hex(h) if !h.swap_enabled());
    let arg = arg.unwrap_or(if hex_without_swap { "all" } else { "none" });
    match arg {
        "none" => Ok((arg.into(), Vec::new())),
        "all" => Ok((arg.into(), first_move_openings(&spec)?)),
        path => {
            let text = read_openings_file(path)?;
            let list = parse_openings(&spec, &text).map_err(|source| ReportError::Openings { path: path.to_string(), source })?;
            Ok((path.to_string(), list))
        }
    }
}

/// Reads a file of openings in bounded memory: a regular file (checked before it is opened: a
/// named pipe without a writer would block, `/dev/zero` never ends) of at most
/// [`MAX_OPENINGS_BYTES`], in UTF-8.
///
/// # Errors
/// Missing, unreadable, not a regular file, too long, or not UTF-8; the message names the file.
fn read_openings_file(path: &str) -> Result<String, ReportError> {
    use std::io::{Error, ErrorKind, Read};
    let at = |source: Error| ReportError::OpeningsFile { path: path.to_string(), source };
    let too_long = |len: u64| at(Error::other(format!("{len} bytes, more than a file of openings may have ({MAX_OPENINGS_BYTES} bytes)")));
    let meta = std::fs::metadata(path).map_err(at)?;
    if !meta.is_file() {
        let kind = crate::nn::file::file_kind(&meta.file_type());
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

/// Rounds an Elo figure to one decimal; `None` (JSON null) when infinite.
fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some((x * 10.0).round() / 10.0)
}

impl Match {
    /// Checks a match in the order `mcts arena` does — the game, the openings, the game count,
    /// the net (registered for the rest of the process, as `--net`), both configurations, the
    /// budget — so a refused option is the only message.
    ///
    /// # Errors
    /// The first refused option, in the sentence `mcts arena` prints.
    pub fn prepare(spec: MatchSpec) -> Result<Match, ReportError> {
        let start = AnyGame::from_spec(&spec.game)?;
        let (openings_arg, openings) = openings_from(spec.openings.as_deref(), &start)?;
        let k = openings.len();
        let games = match spec.games {
            Some(n) if n > MAX_ARENA_GAMES => {
                return Err(ReportError::Engine(format!("{n} games: at most {MAX_ARENA_GAMES} games per match")));
            }
            Some(n) => n,
            None if k > 0 => (2 * k).min(MAX_ARENA_GAMES),
            None => 100,
        };
        if let Some(p) = &spec.net {
            super::register_net(p, Some(&start.spec()))?;
        }
        let config_a = config_from(&spec.a, &spec.set_a, None)?;
        let config_b = config_from(&spec.b, &spec.set_b, None)?;
        if let Some(ms) = spec.ms {
            super::check_ms(ms)?;
        }
        let budget = budget_from(spec.iterations, spec.ms);
        Ok(Match { spec, openings_arg, openings, games, config_a, config_b, budget })
    }

    /// The note `mcts arena` writes on standard error when the game count is not a whole number
    /// of rounds of the openings (some openings then come more often, or with one colour only).
    pub fn rounds_note(&self) -> Option<String> {
        let (k, games) = (self.openings.len(), self.games);
        (k > 0 && !games.is_multiple_of(2 * k)).then(|| {
            format!(
                "{games} games on {k} openings: not a whole number of rounds ({} games each, every opening with both colours), so some openings are played more often than others or with one colour only",
                2 * k
            )
        })
    }

    /// Plays game `index` (0-based, below [`Match::games`] or not) on the calling thread, its
    /// time budget (if any) measured on `clock`: the same game wherever and whenever it is
    /// played with an iteration budget.
    ///
    /// # Errors
    /// [`ReportError::ArenaGame`] naming the game and what failed.
    pub fn play(&self, index: usize, clock: &dyn Fn() -> f64) -> Result<GameRecord, ReportError> {
        let k = self.openings.len();
        let opening = if k > 0 { &self.openings[opening_of(index, k)][..] } else { &[] };
        play_game_from(&self.spec.game, opening, &self.config_a, &self.config_b, self.budget, self.spec.seed, index, clock)
            .map_err(|source| ReportError::ArenaGame { index, source })
    }

    /// Plays every game on `threads` threads (1 ..= 64), each thread taking the next game;
    /// `on_game` is called after each game with the records so far (in the order they ended).
    /// Returns the records sorted by game index. The first failing game stops the match.
    ///
    /// # Errors
    /// The first game that failed.
    pub fn play_all(&self, threads: usize, on_game: &(dyn Fn(&[GameRecord]) + Sync)) -> Result<Vec<GameRecord>, ReportError> {
        let threads = threads.clamp(1, 64);
        let next = AtomicUsize::new(0);
        // Grown as games end: the count is the user's, and a match may stop early on an error.
        let records: Mutex<Vec<GameRecord>> = Mutex::new(Vec::new());
        let error: Mutex<Option<ReportError>> = Mutex::new(None);
        let failed = || error.lock().map_or(true, |e| e.is_some());
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| {
                    let clock = self.spec.clock.start();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= self.games || failed() {
                            break;
                        }
                        match self.play(i, &*clock) {
                            Ok(r) => {
                                if let Ok(mut recs) = records.lock() {
                                    recs.push(r);
                                    on_game(&recs);
                                }
                            }
                            Err(e) => {
                                if let Ok(mut slot) = error.lock() {
                                    slot.get_or_insert(e);
                                }
                                break;
                            }
                        }
                    }
                });
            }
        });
        if let Some(e) = error.into_inner().unwrap_or_else(|p| p.into_inner()) {
            return Err(e);
        }
        let mut recs = records.into_inner().unwrap_or_else(|p| p.into_inner());
        recs.sort_by_key(|r| r.index);
        Ok(recs)
    }

    /// The report `mcts arena --json` prints: the match as asked, the standings of `records`
    /// ([`Standings`]: wins, draws, losses, win rate and its Wilson interval, Elo, the
    /// per-colour split), the openings, `seconds` and the records themselves, sorted by game
    /// index (a record whose index came twice, from a retried task, counts once).
    pub fn report(&self, records: &[GameRecord], seconds: f64) -> serde_json::Value {
        let mut recs = records.to_vec();
        recs.sort_by_key(|r| r.index);
        recs.dedup_by_key(|r| r.index);
        let s = Standings::from_records(&recs);
        let m = &self.spec;
        json!({
            "game": m.game, "a": m.a, "b": m.b, "set_a": m.set_a, "set_b": m.set_b,
            "iterations": self.budget.iterations, "ms": self.budget.millis, "clock": m.clock.name(), "seed": m.seed,
            "net": m.net.as_ref().map(|p| p.display().to_string()),
            "games": s.games, "wins": s.wins, "draws": s.draws, "losses": s.losses,
            "win_rate": s.win_rate, "win_rate_ci95": s.win_rate_ci95,
            "elo": finite(s.elo), "elo_ci95": [finite(s.elo_ci95[0]), finite(s.elo_ci95[1])],
            "openings": self.openings_arg, "opening_count": self.openings.len(),
            "a_first_games": s.a_first_games, "a_first_wins": s.a_first_wins,
            "a_first_draws": s.a_first_draws, "a_first_losses": s.a_first_losses,
            "a_second_games": s.a_second_games, "a_second_wins": s.a_second_wins,
            "a_second_draws": s.a_second_draws, "a_second_losses": s.a_second_losses,
            "first_player_wins": s.first_player_wins, "second_player_wins": s.second_player_wins,
            "seconds": seconds, "records": recs,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ttt(games: usize) -> Match {
        Match::prepare(MatchSpec {
            game: "tictactoe".into(),
            a: "uct".into(),
            b: "rave".into(),
            games: Some(games),
            iterations: Some(50),
            seed: 3,
            ..MatchSpec::default()
        })
        .unwrap()
    }

    #[test]
    fn games_played_one_by_one_in_any_order_give_the_threads_report() {
        let m = ttt(6);
        let all = m.play_all(2, &|_| {}).unwrap();
        // Game by game, backwards, game 4 twice (a retried task): the same report.
        let mut one_by_one: Vec<GameRecord> = (0..6).rev().map(|i| m.play(i, &|| 0.0).unwrap()).collect();
        one_by_one.push(m.play(4, &|| 0.0).unwrap());
        let (a, b) = (m.report(&all, 0.0), m.report(&one_by_one, 0.0));
        assert_eq!(a, b);
        assert_eq!(a["games"], 6);
    }

    #[test]
    fn a_refused_option_is_named() {
        let bad = |spec: MatchSpec| Match::prepare(spec).unwrap_err().to_string();
        let base = MatchSpec { game: "tictactoe".into(), a: "uct".into(), b: "uct".into(), ..MatchSpec::default() };
        assert!(bad(MatchSpec { a: "nope".into(), ..base.clone() }).starts_with("unknown preset 'nope'"));
        assert_eq!(bad(MatchSpec { games: Some(MAX_ARENA_GAMES + 1), ..base.clone() }), "1000001 games: at most 1000000 games per match");
        assert!(bad(MatchSpec { ms: Some(f64::NAN), ..base.clone() }).contains("milliseconds are 0 ..= 2^53-1"));
        assert!(bad(MatchSpec { set_b: vec!["c".into()], ..base }).starts_with("--set expects key=value"));
    }
}
