//! `mcts match`: two Go Text Protocol engines play each other, refereed by our rules: ours
//! (`mcts gtp`), MoHex, or any HexGui-compatible program.
//!
//! Each engine is one process for the whole match, started with `sh -c "exec COMMAND"`; its
//! `--setup-a`/`--setup-b` commands (e.g. MoHex's `param_mohex max_time 1`) are sent once after
//! start. Every game: `boardsize N N` (Hex) and `clear_board` to both, the opening's moves as
//! `play`, then `genmove` to the side to move and the answer as `play` to the other, until our
//! rules end the game, an engine resigns, or an engine answers a move our rules refuse (it
//! loses). After a game the rules ended, both engines are asked `final_score`; an answer that
//! names the other winner stops the match (the engines do not agree with the referee on the
//! board's orientation or rules: no result of such a match means anything). An engine that
//! does not know `final_score` is not asked again.
//!
//! Colours and openings as in `mcts arena` ([`mcts_playground::arena::opening_of`]): game `i`
//! plays opening `(i / 2) mod k` with A as the first player (Black, GTP colour `b`) when `i`
//! is even. The standings, per-colour splits and Wilson intervals are the arena's
//! ([`Standings`]). Games are played one at a time: engines that think for a fixed time per
//! move must not share the cores with another game.
//!
//! SGF (FF\[4\], GM\[11\] for Hex, as HexGui writes it): one file per game, written as the game
//! ends (an interrupted match keeps its finished games); `RE` is `B+`/`W+`, `B+R`/`W+R` after a
//! resignation and `B+F`/`W+F` after an illegal move (a forfeit, SGF FF\[4\] RE property).

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use mcts_playground::arena::{opening_of, GameRecord, Standings};
use mcts_playground::game::{AnyGame, Outcome};
use mcts_playground::limits::{MAX_ARENA_GAMES, MAX_GTP_LINE_BYTES};
use mcts_playground::report::openings_from;
use serde::Serialize;

use crate::error::CliError;

/// The longest answer `mcts match` reads from an engine (all its lines), 1 MiB: `genmove`,
/// `final_score` and `name` answer a few bytes.
pub const MAX_GTP_ANSWER_BYTES: usize = 1 << 20;

/// Arguments of `mcts match`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Game spec string, e.g. hex:11 (the referee's rules; `boardsize N N` is sent for Hex).
    #[arg(long, short)]
    game: String,
    /// Engine A's command line, run by `sh -c`, e.g. "mcts gtp --game hex:11 --algo best --ms 1000".
    #[arg(long)]
    a: String,
    /// Engine B's command line, e.g. "/path/to/mohex".
    #[arg(long)]
    b: String,
    /// A GTP command sent to engine A once after it starts (repeatable), e.g. "param_mohex max_time 1".
    #[arg(long = "setup-a", value_name = "GTP COMMAND")]
    setup_a: Vec<String>,
    /// A GTP command sent to engine B once after it starts (repeatable).
    #[arg(long = "setup-b", value_name = "GTP COMMAND")]
    setup_b: Vec<String>,
    /// Name of A in the standings and the SGF (default: its GTP `name` and `version`).
    #[arg(long = "name-a")]
    name_a: Option<String>,
    /// Name of B (default: its GTP `name` and `version`).
    #[arg(long = "name-b")]
    name_b: Option<String>,
    /// Number of games, 0 ..= 1,000,000. Default: one round on the openings (2 per opening),
    /// or 20 from the empty board.
    #[arg(long, value_parser = crate::arena::parse_games)]
    games: Option<usize>,
    /// Openings as in `mcts arena`: `all`, `none` or a FILE of move sequences, each played
    /// twice with colours swapped. Default: `all` for Hex without the swap rule, else `none`.
    #[arg(long, value_name = "all|none|FILE")]
    openings: Option<String>,
    /// Directory for the games as SGF files (`game-0001.sgf`, ...; created if missing) and
    /// each engine's standard error (`a.stderr`, `b.stderr`; otherwise discarded).
    #[arg(long, value_name = "DIR")]
    sgf: Option<PathBuf>,
    /// Seconds an engine may take to answer one command before the match stops (1 ..= 86,400).
    #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    timeout: u64,
    /// Print one JSON object with the standings and every game.
    #[arg(long)]
    json: bool,
}

/// Why a match stopped.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// The engine's process could not be started.
    #[error("engine {side}: cannot start `{command}`: {source}")]
    Start {
        /// `A` or `B`.
        side: char,
        /// The command line.
        command: String,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// The engine closed its standard output or could not be written to (it exited or crashed).
    #[error("engine {side} ({name}) stopped answering after `{command}` (see its standard error{log})")]
    Closed {
        /// `A` or `B`.
        side: char,
        /// Its name.
        name: String,
        /// The command it was sent.
        command: String,
        /// Where its standard error went, if kept.
        log: String,
    },
    /// The engine's answer is longer than a GTP answer may be here.
    #[error("engine {side} ({name}) answered `{command}` with {what}")]
    TooLong {
        /// `A` or `B`.
        side: char,
        /// Its name.
        name: String,
        /// The command.
        command: String,
        /// What was too long.
        what: String,
    },
    /// The engine took longer than `--timeout` to answer.
    #[error("engine {side} ({name}) did not answer `{command}` within {seconds} s")]
    Timeout {
        /// `A` or `B`.
        side: char,
        /// Its name.
        name: String,
        /// The command.
        command: String,
        /// The limit.
        seconds: u64,
    },
    /// The engine refused a command that must succeed (a setup command, `boardsize`, a legal
    /// `play`).
    #[error("engine {side} ({name}) refused `{command}`: {answer}")]
    Refused {
        /// `A` or `B`.
        side: char,
        /// Its name.
        name: String,
        /// The command.
        command: String,
        /// Its `?` answer.
        answer: String,
    },
    /// An engine's `final_score` names another winner than our rules.
    #[error(
        "game {index}: engine {side} ({name}) says `final_score` = {said}, the referee's rules say {referee}: \
         the engines and the referee disagree on the board (orientation or rules), so the match stopped"
    )]
    ScoreDisagrees {
        /// 0-based game index.
        index: usize,
        /// `A` or `B`.
        side: char,
        /// Its name.
        name: String,
        /// Its answer.
        said: String,
        /// Ours, `B+`, `W+` or `0`.
        referee: String,
    },
    /// Writing an SGF file or creating the directory failed.
    #[error("--sgf {path}: {source}")]
    Sgf {
        /// The file or directory.
        path: String,
        /// The reason.
        source: std::io::Error,
    },
}

impl From<MatchError> for CliError {
    fn from(e: MatchError) -> CliError {
        CliError::Engine(e.to_string())
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum End {
    /// The rules ended it (Hex: a chain joins a player's edges).
    Finished,
    /// The side to move answered `resign`.
    Resigned,
    /// The side to move answered a move the rules refuse; it loses.
    IllegalMove,
}

/// One game as `--json` reports it: the arena's record and how it ended.
#[derive(Debug, Serialize)]
struct MatchGame {
    #[serde(flatten)]
    record: GameRecord,
    end: End,
    /// The refused move and the rules' reason, after an illegal move.
    #[serde(skip_serializing_if = "Option::is_none")]
    illegal: Option<String>,
    /// The game's SGF file, with `--sgf`.
    #[serde(skip_serializing_if = "Option::is_none")]
    sgf: Option<String>,
}

/// One engine in `--json`.
#[derive(Debug, Serialize)]
struct EngineReport {
    command: String,
    name: String,
    setup: Vec<String>,
    /// Mean wall-clock milliseconds per `genmove` over the match.
    ms_per_move: f64,
    moves: usize,
}

/// `--json`'s object.
#[derive(Debug, Serialize)]
struct MatchReport {
    game: String,
    a: EngineReport,
    b: EngineReport,
    openings: String,
    openings_count: usize,
    standings: Standings,
    seconds: f64,
    games: Vec<MatchGame>,
}

/// A running GTP engine: its process, its standard input, and a thread reading its standard
/// output line by line into a channel (so an answer can be waited for with a timeout).
struct Engine {
    side: char,
    name: String,
    child: Child,
    stdin: ChildStdin,
    /// The engine's output lines; `Err` for a line over [`MAX_GTP_LINE_BYTES`].
    lines: Receiver<Result<String, ()>>,
    timeout: Duration,
    log: Option<PathBuf>,
    knows_final_score: bool,
    think: Duration,
    moves: usize,
}

impl Engine {
    fn start(side: char, command: &str, log: Option<PathBuf>, timeout: Duration) -> Result<Engine, MatchError> {
        let start_err = |source| MatchError::Start { side, command: command.to_string(), source };
        let stderr = match &log {
            Some(p) => Stdio::from(std::fs::File::create(p).map_err(|source| MatchError::Sgf { path: p.display().to_string(), source })?),
            None => Stdio::null(),
        };
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("exec {command}"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .map_err(start_err)?;
        let stdin = child.stdin.take().ok_or_else(|| start_err(std::io::Error::other("no standard input")))?;
        let stdout = child.stdout.take().ok_or_else(|| start_err(std::io::Error::other("no standard output")))?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            // Lines in bounded memory: a line over the limit ends the reading (the engine is
            // then reported as no longer answering, with the reason in `ask`).
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match (&mut reader).take(MAX_GTP_LINE_BYTES as u64 + 1).read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) if buf.len() > MAX_GTP_LINE_BYTES => {
                        let _ = tx.send(Err(()));
                        break;
                    }
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end_matches(['\n', '\r']).to_string();
                        if tx.send(Ok(line)).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(Engine {
            side,
            name: command.to_string(),
            child,
            stdin,
            lines,
            timeout,
            log,
            knows_final_score: true,
            think: Duration::ZERO,
            moves: 0,
        })
    }

    /// Sends `command` and returns the answer: `Ok(text)` for `= text`, `Err(text)` for
    /// `? text` (GTP 2, Farnebäck 2002, §3.6: a response is `=` or `?`, the text, and an empty
    /// line).
    fn ask(&mut self, command: &str) -> Result<Result<String, String>, MatchError> {
        let closed = |e: &Engine| MatchError::Closed {
            side: e.side,
            name: e.name.clone(),
            command: command.to_string(),
            log: e.log.as_ref().map(|p| format!(": {}", p.display())).unwrap_or_default(),
        };
        if writeln!(self.stdin, "{command}").and_then(|()| self.stdin.flush()).is_err() {
            return Err(closed(self));
        }
        let deadline = Instant::now() + self.timeout;
        let mut text: Option<(bool, Vec<String>)> = None;
        let mut bytes = 0usize;
        let too_long =
            |e: &Engine, what: String| MatchError::TooLong { side: e.side, name: e.name.clone(), command: command.to_string(), what };
        loop {
            let line = match self.lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(Ok(l)) => l,
                Ok(Err(())) => return Err(too_long(self, format!("a line of more than {MAX_GTP_LINE_BYTES} bytes"))),
                Err(RecvTimeoutError::Disconnected) => return Err(closed(self)),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(MatchError::Timeout {
                        side: self.side,
                        name: self.name.clone(),
                        command: command.to_string(),
                        seconds: self.timeout.as_secs(),
                    })
                }
            };
            let line = line.trim_end_matches('\r');
            match &mut text {
                None if line.trim().is_empty() => {}
                None => {
                    let ok = line.starts_with('=');
                    if !ok && !line.starts_with('?') {
                        // Not an answer (some engines print to standard output): skip it.
                        continue;
                    }
                    // `=id text`: drop the sign and an optional numeric id.
                    let rest = line[1..].trim_start_matches(|c: char| c.is_ascii_digit());
                    text = Some((ok, vec![rest.trim().to_string()]));
                }
                Some((ok, lines)) => {
                    bytes += line.len() + 1;
                    if bytes > MAX_GTP_ANSWER_BYTES {
                        return Err(too_long(self, format!("an answer of more than {MAX_GTP_ANSWER_BYTES} bytes")));
                    }
                    if line.trim().is_empty() {
                        let answer = lines.join("\n").trim().to_string();
                        return Ok(if *ok { Ok(answer) } else { Err(answer) });
                    }
                    lines.push(line.to_string());
                }
            }
        }
    }

    /// [`Engine::ask`] for a command that must succeed.
    fn must(&mut self, command: &str) -> Result<String, MatchError> {
        self.ask(command)?.map_err(|answer| MatchError::Refused {
            side: self.side,
            name: self.name.clone(),
            command: command.to_string(),
            answer,
        })
    }

    fn quit(mut self) {
        let _ = self.ask("quit");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // After `quit` this finds the process gone; on an error path it stops the engine.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// GTP colour of player `p` (0 moves first: Black).
fn colour(p: u8) -> &'static str {
    if p == 0 {
        "b"
    } else {
        "w"
    }
}

/// The `final_score`-style result of a winner: `B+`, `W+`, or `0` for a draw.
fn score_text(winner: Option<u8>) -> String {
    match winner {
        Some(0) => "B+".into(),
        Some(_) => "W+".into(),
        None => "0".into(),
    }
}

/// An SGF property value with `\` and `]` escaped (SGF FF\[4\], SimpleText).
fn sgf_text(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

/// The SGF text of one game.
fn sgf(spec: &str, game: &AnyGame, names: [&str; 2], rec: &GameRecord, end: End) -> String {
    let (black, white) = if rec.a_first { (names[0], names[1]) } else { (names[1], names[0]) };
    let mut s = String::from("(;FF[4]");
    if let AnyGame::Hex(_) = game {
        s += &format!("GM[11]SZ[{}]", game.view().rows);
    }
    s += &format!("AP[mcts match]PB[{}]PW[{}]", sgf_text(black), sgf_text(white));
    let suffix = match end {
        End::Finished => "",
        End::Resigned => "R",
        End::IllegalMove => "F",
    };
    s += &format!("RE[{}{suffix}]", score_text(rec.winner));
    s += &format!("GC[{} game {}, {} opening move(s)]", sgf_text(spec), rec.index + 1, rec.opening_plies);
    for (i, mv) in rec.moves.iter().enumerate() {
        s += &format!("\n;{}[{}]", if i % 2 == 0 { "B" } else { "W" }, sgf_text(mv));
    }
    s += ")\n";
    s
}

/// Plays game `index` from `opening`; engines `[a, b]`.
fn play(
    spec: &str,
    opening: &[String],
    index: usize,
    engines: &mut [Engine; 2],
) -> Result<(GameRecord, End, Option<String>, AnyGame), CliError> {
    let mut game = AnyGame::from_spec(spec)?;
    let a_first = index.is_multiple_of(2);
    for e in engines.iter_mut() {
        if let AnyGame::Hex(_) = game {
            let n = game.view().rows;
            e.must(&format!("boardsize {n} {n}"))?;
        }
        e.must("clear_board")?;
    }
    let mut moves = Vec::new();
    for mv in opening {
        let p = game.to_move();
        let i = game.play_text(mv).map_err(|e| CliError::Engine(format!("opening move {mv}: {e}")))?;
        let mv = game.format_index(i).unwrap_or_else(|| mv.clone());
        for e in engines.iter_mut() {
            e.must(&format!("play {} {mv}", colour(p)))?;
        }
        moves.push(mv);
    }
    let opening_plies = moves.len();
    // engines[0] is A; A is player 0 when a_first.
    let engine_of = |player: u8| if (player == 0) == a_first { 0 } else { 1 };
    let mut end = End::Finished;
    let mut illegal = None;
    let mut winner: Option<u8> = None;
    while game.outcome().is_none() {
        let p = game.to_move();
        let mover = engine_of(p);
        let t0 = Instant::now();
        let answer = engines[mover].must(&format!("genmove {}", colour(p)))?;
        engines[mover].think += t0.elapsed();
        engines[mover].moves += 1;
        let text = answer.trim().to_ascii_lowercase();
        if text == "resign" {
            end = End::Resigned;
            winner = Some(1 - p);
            break;
        }
        match game.play_text(&text) {
            Ok(i) => {
                let mv = game.format_index(i).unwrap_or(text);
                engines[1 - mover].must(&format!("play {} {mv}", colour(p)))?;
                moves.push(mv);
            }
            Err(e) => {
                end = End::IllegalMove;
                illegal = Some(format!("{}: {e}", answer.trim()));
                winner = Some(1 - p);
                break;
            }
        }
    }
    if end == End::Finished {
        let outcome = game.outcome().unwrap_or(Outcome::Draw);
        winner = outcome.winner();
        let referee = score_text(winner);
        for e in engines.iter_mut().filter(|e| e.knows_final_score) {
            match e.ask("final_score")? {
                Err(_) => e.knows_final_score = false,
                Ok(said) => {
                    let said_norm = said.trim().to_ascii_uppercase();
                    let agrees = if referee == "0" { said_norm.starts_with('0') } else { said_norm.starts_with(&referee) };
                    if !agrees {
                        return Err(MatchError::ScoreDisagrees { index, side: e.side, name: e.name.clone(), said, referee }.into());
                    }
                }
            }
        }
    }
    let a_player = if a_first { 0u8 } else { 1 };
    let a_score = match winner {
        None => 0.5,
        Some(w) if w == a_player => 1.0,
        Some(_) => 0.0,
    };
    let record = GameRecord { index, a_first, moves, opening_plies, a_score, winner, tree_cap: None };
    Ok((record, end, illegal, game))
}

/// Runs the verb.
///
/// # Errors
/// A bad spec or file of openings, an engine that cannot start, stops answering, times out,
/// refuses a legal move, or disagrees with the referee's result; an unwritable `--sgf`.
pub fn run(a: Args) -> Result<(), CliError> {
    let start = AnyGame::from_spec(&a.game)?;
    let spec = start.spec();
    let (openings_arg, openings) = openings_from(a.openings.as_deref(), &start)?;
    let k = openings.len();
    let games = a.games.unwrap_or(if k > 0 { 2 * k } else { 20 }).min(MAX_ARENA_GAMES);
    if let Some(dir) = &a.sgf {
        std::fs::create_dir_all(dir).map_err(|source| MatchError::Sgf { path: dir.display().to_string(), source })?;
    }
    let timeout = Duration::from_secs(a.timeout);
    let log = |side: &str| a.sgf.as_ref().map(|d| d.join(format!("{side}.stderr")));
    let mut engines = [Engine::start('A', &a.a, log("a"), timeout)?, Engine::start('B', &a.b, log("b"), timeout)?];
    for (e, (setup, name)) in engines.iter_mut().zip([(&a.setup_a, &a.name_a), (&a.setup_b, &a.name_b)]) {
        e.name = match name {
            Some(n) => n.clone(),
            None => {
                let n = e.ask("name")?.unwrap_or_default();
                let v = e.ask("version")?.unwrap_or_default();
                let full = format!("{n} {v}").trim().to_string();
                if full.is_empty() {
                    e.name.clone()
                } else {
                    full
                }
            }
        };
        for cmd in setup {
            e.must(cmd)?;
        }
    }
    if engines[0].name == engines[1].name {
        // Two copies of one program: tell them apart in the standings and the SGF.
        engines[0].name += " (A)";
        engines[1].name += " (B)";
    }
    let names = [engines[0].name.clone(), engines[1].name.clone()];
    let t0 = Instant::now();
    let mut out: Vec<MatchGame> = Vec::with_capacity(games);
    for index in 0..games {
        let opening: &[String] = if k > 0 { &openings[opening_of(index, k)] } else { &[] };
        let (record, end, illegal, game) = play(&spec, opening, index, &mut engines)?;
        let sgf_path = match &a.sgf {
            Some(dir) => {
                let path = dir.join(format!("game-{:04}.sgf", index + 1));
                write_sgf(&path, &sgf(&spec, &game, [&names[0], &names[1]], &record, end))?;
                Some(path.display().to_string())
            }
            None => None,
        };
        let so_far: Vec<GameRecord> = out.iter().map(|g| g.record.clone()).chain([record.clone()]).collect();
        let s = Standings::from_records(&so_far);
        let who = if record.a_score == 1.0 {
            "A won"
        } else if record.a_score == 0.0 {
            "B won"
        } else {
            "drawn"
        };
        let how = match end {
            End::Finished => String::new(),
            End::Resigned => " (resignation)".into(),
            End::IllegalMove => format!(" (illegal move {})", illegal.as_deref().unwrap_or("")),
        };
        errln(&format!(
            "game {}/{games}: A {} · {who}{how} in {} moves · A {}-{}-{}",
            index + 1,
            if record.a_first { "first (Black)" } else { "second (White)" },
            record.moves.len(),
            s.wins,
            s.draws,
            s.losses
        ));
        out.push(MatchGame { record, end, illegal, sgf: sgf_path });
    }
    let secs = t0.elapsed().as_secs_f64();
    let records: Vec<GameRecord> = out.iter().map(|g| g.record.clone()).collect();
    let s = Standings::from_records(&records);
    let engine_report = |e: &Engine, command: &str, setup: &[String]| EngineReport {
        command: command.to_string(),
        name: e.name.clone(),
        setup: setup.to_vec(),
        ms_per_move: if e.moves > 0 { e.think.as_secs_f64() * 1000.0 / e.moves as f64 } else { 0.0 },
        moves: e.moves,
    };
    let ra = engine_report(&engines[0], &a.a, &a.setup_a);
    let rb = engine_report(&engines[1], &a.b, &a.setup_b);
    let [ea, eb] = engines;
    ea.quit();
    eb.quit();
    if a.json {
        let report =
            MatchReport { game: spec, a: ra, b: rb, openings: openings_arg, openings_count: k, standings: s, seconds: secs, games: out };
        outln!("{}", serde_json::to_string(&report)?)?;
        return Ok(());
    }
    let openings_text = match (k, openings_arg.as_str()) {
        (0, _) => "from the empty board".to_string(),
        (_, "all") => format!("on all {k} first moves, colours swapped"),
        (_, path) => format!("on the {k} openings of {path}, colours swapped"),
    };
    outln!("{spec} — A = {} vs B = {}, {openings_text}", ra.name, rb.name)?;
    crate::arena::print_standings(&s)?;
    outln!("mean time per move: A {:.0} ms ({} moves), B {:.0} ms ({} moves)", ra.ms_per_move, ra.moves, rb.ms_per_move, rb.moves)?;
    outln!("{} games in {:.1} s", s.games, secs)?;
    Ok(())
}

fn write_sgf(path: &Path, text: &str) -> Result<(), MatchError> {
    std::fs::write(path, text).map_err(|source| MatchError::Sgf { path: path.display().to_string(), source })
}

/// A line on standard error (progress; the results go to standard output).
fn errln(text: &str) {
    let _ = writeln!(std::io::stderr(), "{text}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sgf_escapes_and_marks_the_end() {
        let game = AnyGame::from_spec("hex:3").unwrap();
        let rec = GameRecord {
            index: 0,
            a_first: false,
            moves: vec!["b2".into(), "a1".into()],
            opening_plies: 1,
            a_score: 1.0,
            winner: Some(1),
            tree_cap: None,
        };
        let text = sgf("hex:3", &game, ["ours]", "theirs"], &rec, End::Resigned);
        assert!(text.starts_with("(;FF[4]GM[11]SZ[3]AP[mcts match]PB[theirs]PW[ours\\]]RE[W+R]"), "{text}");
        assert!(text.contains("\n;B[b2]\n;W[a1])"), "{text}");
    }
}
