//! `mcts match`: two Go Text Protocol engines play each other, refereed by our rules: ours
//! (`mcts gtp`), MoHex, or any HexGui-compatible program.
//!
//! Each engine is one process for the whole match, started with `sh -c "exec COMMAND"` as the
//! leader of a process group of its own, which is ended on every way out ([`engine_group`]); its
//! `--setup-a`/`--setup-b` commands (e.g. MoHex's `param_mohex max_time 1`), each checked to be
//! one GTP command line before any engine starts, are sent once after start. An engine's output
//! is read by a thread of its own ([`ResponseReader`]); lines that answer no command are counted
//! and only the first and last [`UNREQUESTED_LINES_KEPT`] kept. Commands are written by another
//! thread, so that `--timeout` bounds a write to an engine that does not read as it bounds an
//! answer. Every game: `boardsize N N` (Hex) and `clear_board` to both, the opening's moves as
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
//! ends (an interrupted match keeps its finished games), never over an existing file (a folder
//! that holds games is refused before the match); `RE` is `B+`/`W+`, `B+R`/`W+R` after a
//! resignation and `B+F`/`W+F` after an illegal move (a forfeit, SGF FF\[4\] RE property).

use std::collections::VecDeque;
use std::fs::OpenOptions;
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use mcts_playground::arena::{opening_of, GameRecord, Standings};
use mcts_playground::game::{AnyGame, Outcome};
use mcts_playground::gtp::{check_command, CommandError, Event, ReadError, ResponseReader};
use mcts_playground::limits::{abbreviate, MAX_ARENA_GAMES, UNREQUESTED_LINES_KEPT};
use mcts_playground::report::openings_from;
use serde::Serialize;

use crate::engine_group;
use crate::error::CliError;
use crate::out::{errln, quote_controls};

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
    /// A GTP command sent to engine A once after it starts (repeatable; one command line each, no
    /// newline), e.g. "param_mohex max_time 1".
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
    /// each engine's standard error (`a.stderr`, `b.stderr`; otherwise discarded). A folder
    /// that already holds games or non-empty logs is refused: nothing in it is replaced.
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
    /// `--sgf DIR` holds a match's files already.
    #[error(
        "--sgf {path} already holds a match's files ({held}): a new match would overwrite them; \
         give another folder, or move these away (nothing was written)"
    )]
    SgfInUse {
        /// The folder.
        path: String,
        /// What it holds.
        held: String,
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
    /// What it printed that answers no command (`lines`: how many; `first`, `last`: the first
    /// and the last lines kept, `UNREQUESTED_LINES_KEPT` each).
    unrequested: Unrequested,
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

/// How long an engine has to answer `quit` at the end of a match (and then to exit) before its
/// process group is ended: 2 s. An engine answers `quit` at once (ours and MoHex in
/// milliseconds); one that never does used to hold the final results for the whole `--timeout`
/// (600 s by default).
const QUIT_GRACE: Duration = Duration::from_secs(2);

/// An engine's output that answers no command: how many lines, and the first and the last
/// [`UNREQUESTED_LINES_KEPT`] of them (each cut by [`abbreviate`]).
#[derive(Clone, Debug, Default, Serialize)]
struct Unrequested {
    lines: u64,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    first: Vec<String>,
    #[serde(skip_serializing_if = "VecDeque::is_empty")]
    last: VecDeque<String>,
}

impl Unrequested {
    fn push(&mut self, line: &str) {
        self.lines += 1;
        let kept = abbreviate(line).into_owned();
        if self.first.len() < UNREQUESTED_LINES_KEPT {
            self.first.push(kept);
            return;
        }
        if self.last.len() == UNREQUESTED_LINES_KEPT {
            self.last.pop_front();
        }
        self.last.push_back(kept);
    }
}

/// Why an engine's output can no longer be read.
#[derive(Clone, Debug)]
enum Ended {
    /// It closed its standard output (it exited or crashed) or the read failed.
    Closed,
    /// A line or an answer too long ([`ReadError`]'s sentence).
    TooLong(String),
}

/// What an engine's reading and writing threads share with the referee, under one lock.
#[derive(Default)]
struct Inbox {
    /// Commands sent whose response has not been read yet.
    asked: usize,
    /// Responses to commands sent, oldest first: `(ok, text)`.
    answers: VecDeque<(bool, String)>,
    /// Why the output ended, once it did.
    ended: Option<Ended>,
    /// A write to the engine failed (it closed its standard input).
    write_failed: bool,
    unrequested: Unrequested,
}

type Shared = Arc<(Mutex<Inbox>, Condvar)>;

fn lock(shared: &Shared) -> MutexGuard<'_, Inbox> {
    shared.0.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A running GTP engine: its process (the leader of a process group of its own), a thread
/// writing its standard input (so that a write to an engine that does not read is bounded by
/// `--timeout` like an answer), and a thread reading its standard output into the [`Inbox`]:
/// answers to the commands sent are queued (one at a time), output nobody asked for is
/// counted and only its first and last lines kept.
struct Engine {
    side: char,
    name: String,
    child: Child,
    /// Lines to write; `None` once the engine's input is closed.
    writer: Option<Sender<String>>,
    shared: Shared,
    timeout: Duration,
    log: Option<PathBuf>,
    knows_final_score: bool,
    think: Duration,
    moves: usize,
    /// No command is left unanswered (false after a timeout: a late answer would be taken
    /// for the next command's).
    in_step: bool,
    /// Its process group was ended.
    ended: bool,
}

impl Engine {
    fn start(side: char, command: &str, log: Option<PathBuf>, timeout: Duration) -> Result<Engine, MatchError> {
        let start_err = |source| MatchError::Start { side, command: abbreviate(command).into_owned(), source };
        let stderr = match &log {
            // Appended to: nothing a file holds is lost (`check_sgf_dir` refused a folder whose
            // logs are not empty).
            Some(p) => Stdio::from(
                OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(p)
                    .map_err(|source| MatchError::Sgf { path: p.display().to_string(), source })?,
            ),
            None => Stdio::null(),
        };
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg(format!("exec {command}")).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(stderr);
        engine_group::own_group(&mut cmd);
        let mut child = cmd.spawn().map_err(start_err)?;
        engine_group::register(if side == 'A' { 0 } else { 1 }, &child);
        let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            engine_group::end_group(&mut child);
            return Err(start_err(std::io::Error::other("no standard input or output")));
        };
        let shared: Shared = Arc::default();
        let reading = Arc::clone(&shared);
        std::thread::spawn(move || {
            let mut reader = ResponseReader::new(BufReader::new(stdout));
            loop {
                let event = reader.next_event();
                let mut inbox = lock(&reading);
                match event {
                    Ok(Some(Event::Response { ok, text })) if inbox.asked > 0 => {
                        inbox.asked -= 1;
                        inbox.answers.push_back((ok, text));
                        reading.1.notify_all();
                    }
                    Ok(Some(Event::Response { ok, text })) => {
                        inbox.unrequested.push(&format!("{}{}{text}", if ok { '=' } else { '?' }, if text.is_empty() { "" } else { " " }))
                    }
                    Ok(Some(Event::Stray(line))) => inbox.unrequested.push(&line),
                    Ok(None) | Err(ReadError::Io(_)) => {
                        inbox.ended = Some(Ended::Closed);
                        reading.1.notify_all();
                        return;
                    }
                    Err(e) => {
                        inbox.ended = Some(Ended::TooLong(e.to_string()));
                        reading.1.notify_all();
                        return;
                    }
                }
            }
        });
        let (writer, lines) = mpsc::channel::<String>();
        let writing = Arc::clone(&shared);
        std::thread::spawn(move || {
            for text in lines {
                if stdin.write_all(text.as_bytes()).and_then(|()| stdin.flush()).is_err() {
                    lock(&writing).write_failed = true;
                    writing.1.notify_all();
                    return;
                }
            }
            // The sender dropped: the engine's input is closed here.
        });
        Ok(Engine {
            side,
            name: command.to_string(),
            child,
            writer: Some(writer),
            shared,
            timeout,
            log,
            knows_final_score: true,
            think: Duration::ZERO,
            moves: 0,
            in_step: true,
            ended: false,
        })
    }

    fn closed_error(&self, command: &str) -> MatchError {
        MatchError::Closed {
            side: self.side,
            name: self.name.clone(),
            command: abbreviate(command).into_owned(),
            log: self.log.as_ref().map(|p| format!(": {}", p.display())).unwrap_or_default(),
        }
    }

    /// Sends `command` (one line: [`check_command`] or the referee's own) without waiting.
    fn send(&mut self, command: &str) -> Result<(), MatchError> {
        lock(&self.shared).asked += 1;
        match &self.writer {
            Some(w) if w.send(format!("{command}\n")).is_ok() => Ok(()),
            _ => Err(self.closed_error(command)),
        }
    }

    /// Waits until `deadline` for the answer to `command`, sent: `Ok(text)` for `= text`,
    /// `Err(text)` for `? text` (GTP 2, Farnebäck 2002, §3.6).
    fn answer(&mut self, command: &str, deadline: Instant) -> Result<Result<String, String>, MatchError> {
        let shared = Arc::clone(&self.shared);
        let mut inbox = lock(&shared);
        loop {
            if let Some((ok, text)) = inbox.answers.pop_front() {
                return Ok(if ok { Ok(text) } else { Err(text) });
            }
            match inbox.ended.clone() {
                Some(Ended::Closed) => return Err(self.closed_error(command)),
                Some(Ended::TooLong(what)) => {
                    return Err(MatchError::TooLong {
                        side: self.side,
                        name: self.name.clone(),
                        command: abbreviate(command).into_owned(),
                        what,
                    })
                }
                None if inbox.write_failed => return Err(self.closed_error(command)),
                None => {}
            }
            let now = Instant::now();
            if now >= deadline {
                self.in_step = false;
                return Err(MatchError::Timeout {
                    side: self.side,
                    name: self.name.clone(),
                    command: abbreviate(command).into_owned(),
                    seconds: self.timeout.as_secs(),
                });
            }
            inbox = shared.1.wait_timeout(inbox, deadline - now).unwrap_or_else(PoisonError::into_inner).0;
        }
    }

    /// Sends `command` and returns the answer, within `--timeout` (the write included).
    fn ask(&mut self, command: &str) -> Result<Result<String, String>, MatchError> {
        let deadline = Instant::now() + self.timeout;
        self.send(command)?;
        self.answer(command, deadline)
    }

    /// [`Engine::ask`] for a command that must succeed.
    fn must(&mut self, command: &str) -> Result<String, MatchError> {
        self.ask(command)?.map_err(|answer| MatchError::Refused {
            side: self.side,
            name: self.name.clone(),
            command: abbreviate(command).into_owned(),
            answer,
        })
    }

    /// What the engine printed that answers no command.
    fn unrequested(&self) -> Unrequested {
        lock(&self.shared).unrequested.clone()
    }

    /// Ends the engine's process group at once (`SIGTERM`, [`engine_group::TERM_GRACE`],
    /// `SIGKILL`); its input closed first.
    fn end(&mut self) {
        if self.ended {
            return;
        }
        self.ended = true;
        self.writer = None;
        engine_group::end_group(&mut self.child);
        engine_group::unregister(if self.side == 'A' { 0 } else { 1 });
    }
}

/// Ends both engines: `quit` sent to each that has no command left unanswered, up to
/// [`QUIT_GRACE`] for the answers and the exits, then each process group ended (whatever is
/// left of it: a wrapper's children, helpers in the background, an engine that ignored `quit`).
fn end_engines(engines: &mut [Engine]) {
    let deadline = Instant::now() + QUIT_GRACE;
    let asked: Vec<bool> = engines.iter_mut().map(|e| !e.ended && e.in_step && e.send("quit").is_ok()).collect();
    for (e, asked) in engines.iter_mut().zip(asked) {
        if asked && e.answer("quit", deadline).is_ok() {
            e.writer = None;
            engine_group::child_exited(&e.child, deadline.saturating_duration_since(Instant::now()));
        }
    }
    for e in engines.iter_mut() {
        e.end();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // After `end_engines` there is nothing left to do; on a panic this ends the engine.
        self.end();
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

/// Checks `--setup-a`/`--setup-b` before any engine starts ([`check_command`]).
fn check_setup(flag: &str, commands: &[String]) -> Result<(), CliError> {
    for cmd in commands {
        check_command(cmd).map_err(|e| {
            let hint = if matches!(e, CommandError::Control(_)) { format!("; give each command its own {flag}") } else { String::new() };
            CliError::Engine(format!("{flag} \"{}\": {e}{hint}", abbreviate(cmd)))
        })?;
    }
    Ok(())
}

/// Whether `name` is a game file of `mcts match` (`game-0001.sgf`, …).
fn is_game_file(name: &str) -> bool {
    name.strip_prefix("game-").and_then(|r| r.strip_suffix(".sgf")).is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Creates `--sgf DIR` if missing, and refuses one that holds a match's games or a non-empty
/// `a.stderr`/`b.stderr`: a new match would overwrite them (a user who reuses a folder expects
/// the games in it to stay; numbering on would mix two matches' games under one standings).
fn check_sgf_dir(dir: &Path) -> Result<(), MatchError> {
    let err = |source| MatchError::Sgf { path: dir.display().to_string(), source };
    std::fs::create_dir_all(dir).map_err(err)?;
    let mut games = Vec::new();
    let mut logs = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(err)? {
        let entry = entry.map_err(err)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if is_game_file(&name) {
            games.push(name);
        } else if (name == "a.stderr" || name == "b.stderr") && entry.metadata().map_err(err)?.len() > 0 {
            logs.push(name);
        }
    }
    if games.is_empty() && logs.is_empty() {
        return Ok(());
    }
    games.sort();
    logs.sort();
    let mut held = Vec::new();
    match games.len() {
        0 => {}
        1 => held.push(games[0].clone()),
        n => held.push(format!("{n} games, {} … {}", games[0], games[n - 1])),
    }
    held.extend(logs);
    Err(MatchError::SgfInUse { path: dir.display().to_string(), held: held.join(", ") })
}

/// Runs the verb.
///
/// # Errors
/// A bad spec, file of openings or setup command, an `--sgf` folder that holds games, an
/// engine that cannot start, stops answering, times out, refuses a legal move, or disagrees
/// with the referee's result; an unwritable `--sgf`.
pub fn run(a: Args) -> Result<(), CliError> {
    let start = AnyGame::from_spec(&a.game)?;
    let spec = start.spec();
    let (openings_arg, openings) = openings_from(a.openings.as_deref(), &start)?;
    check_setup("--setup-a", &a.setup_a)?;
    check_setup("--setup-b", &a.setup_b)?;
    if let Some(dir) = &a.sgf {
        check_sgf_dir(dir)?;
    }
    let note = a.sgf.as_ref().map(|d| format!("; the games finished so far are in {}", d.display())).unwrap_or_default();
    engine_group::catch_signals(note);
    let timeout = Duration::from_secs(a.timeout);
    let log = |side: &str| a.sgf.as_ref().map(|d| d.join(format!("{side}.stderr")));
    let first = Engine::start('A', &a.a, log("a"), timeout)?;
    let mut engines = [first, Engine::start('B', &a.b, log("b"), timeout)?];
    let result = play_match(&a, &spec, &openings, &mut engines);
    end_engines(&mut engines);
    let unrequested = [engines[0].unrequested(), engines[1].unrequested()];
    if engine_group::interrupted() {
        // The signal's thread ends the process with its own message.
        loop {
            std::thread::park();
        }
    }
    for (e, u) in engines.iter().zip(&unrequested) {
        if u.lines > 0 {
            let kept = match (u.lines > 2 * UNREQUESTED_LINES_KEPT as u64, a.json) {
                (true, true) => format!(
                    "the first {UNREQUESTED_LINES_KEPT} and the last {UNREQUESTED_LINES_KEPT} are in --json's `{}.unrequested`, the rest were dropped",
                    e.side.to_ascii_lowercase()
                ),
                (false, true) => format!("all are in --json's `{}.unrequested`", e.side.to_ascii_lowercase()),
                (true, false) => format!("--json keeps the first {UNREQUESTED_LINES_KEPT} and the last {UNREQUESTED_LINES_KEPT}"),
                (false, false) => "--json keeps them".to_string(),
            };
            errln(&format!(
                "mcts: note: engine {} ({}) printed {} line(s) that answer no command ({kept}); the first: {:?}",
                e.side,
                e.name,
                u.lines,
                u.first.first().map(String::as_str).unwrap_or("")
            ));
        }
    }
    let (out, secs, openings_count) = result?;
    let records: Vec<GameRecord> = out.iter().map(|g| g.record.clone()).collect();
    let s = Standings::from_records(&records);
    let engine_report = |e: &Engine, command: &str, setup: &[String], unrequested: &Unrequested| EngineReport {
        command: command.to_string(),
        name: e.name.clone(),
        setup: setup.to_vec(),
        ms_per_move: if e.moves > 0 { e.think.as_secs_f64() * 1000.0 / e.moves as f64 } else { 0.0 },
        moves: e.moves,
        unrequested: unrequested.clone(),
    };
    let ra = engine_report(&engines[0], &a.a, &a.setup_a, &unrequested[0]);
    let rb = engine_report(&engines[1], &a.b, &a.setup_b, &unrequested[1]);
    if a.json {
        let report =
            MatchReport { game: spec, a: ra, b: rb, openings: openings_arg, openings_count, standings: s, seconds: secs, games: out };
        outln!("{}", serde_json::to_string(&report)?)?;
        return Ok(());
    }
    let k = openings_count;
    let openings_text = match (k, openings_arg.as_str()) {
        (0, _) => "from the empty board".to_string(),
        (_, "all") => format!("on all {k} first moves, colours swapped"),
        (_, path) => format!("on the {k} openings of {path}, colours swapped"),
    };
    outln!("{}", quote_controls(&format!("{spec} — A = {} vs B = {}, {openings_text}", ra.name, rb.name)))?;
    crate::arena::print_standings(&s)?;
    outln!("mean time per move: A {:.0} ms ({} moves), B {:.0} ms ({} moves)", ra.ms_per_move, ra.moves, rb.ms_per_move, rb.moves)?;
    outln!("{} games in {:.1} s", s.games, secs)?;
    Ok(())
}

/// The games, the seconds they took, and the number of openings.
type Played = (Vec<MatchGame>, f64, usize);

/// Names the engines, sends their setup commands and plays the games.
fn play_match(a: &Args, spec: &str, openings: &[Vec<String>], engines: &mut [Engine; 2]) -> Result<Played, CliError> {
    let k = openings.len();
    let games = a.games.unwrap_or(if k > 0 { 2 * k } else { 20 }).min(MAX_ARENA_GAMES);
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
    let mut out: Vec<MatchGame> = Vec::with_capacity(games.min(1024));
    for index in 0..games {
        let opening: &[String] = if k > 0 { &openings[opening_of(index, k)] } else { &[] };
        let (record, end, illegal, game) = play(spec, opening, index, engines)?;
        let sgf_path = match &a.sgf {
            Some(dir) => {
                let path = dir.join(format!("game-{:04}.sgf", index + 1));
                write_sgf(&path, &sgf(spec, &game, [&names[0], &names[1]], &record, end))?;
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
    Ok((out, t0.elapsed().as_secs_f64(), k))
}

/// Writes a new game file; one that exists is never replaced (`create_new`).
fn write_sgf(path: &Path, text: &str) -> Result<(), MatchError> {
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|source| MatchError::Sgf { path: path.display().to_string(), source })
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
