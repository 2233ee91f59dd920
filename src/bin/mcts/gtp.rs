//! `mcts gtp`: the engine as a Go Text Protocol (version 2) engine, as HexGui and MoHex speak it
//! for Hex. Commands: protocol_version, name, version, known_command, list_commands, boardsize
//! (`boardsize N` or HexGui's `boardsize N N`), clear_board, komi (accepted, no meaning in these
//! games), play, genmove, reg_genmove, undo, showboard, final_score, time_settings, time_left,
//! hexgui-analyze_commands, quit. Errors are answered `? message` (GTP 2, Farnebäck 2002, §3.6).
//!
//! Input handling follows GTP 2 §3.1: control characters other than tab and newline are removed,
//! tabs become spaces, `#` starts a comment, empty lines are skipped, an optional numeric id
//! comes first. A line longer than [`MAX_GTP_LINE_BYTES`] is answered `? command line too long`
//! and skipped in bounded memory; bytes that are not UTF-8 are read as U+FFFD (and so answered as
//! an unknown command or a bad argument). End of input ends the session like `quit`, exit status 0.

use std::io::{BufRead, Write};
use std::time::Instant;

use mcts_playground::limits::MAX_GTP_LINE_BYTES;

use mcts_playground::game::{AnyGame, MoveError, SpecError};
use mcts_playground::mcts::AnySearch;

use crate::error::CliError;
use crate::search::EngineArgs;

/// Arguments of `mcts gtp`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Game spec string; `boardsize N` switches a Hex game to N×N.
    #[arg(long, short, default_value = "hex:11")]
    game: String,
    #[command(flatten)]
    engine: EngineArgs,
}

/// The commands this engine answers, in `list_commands` order.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "showboard",
    "final_score",
    "time_settings",
    "time_left",
    "hexgui-analyze_commands",
    "quit",
];

/// HexGui's analyze commands (`hexgui-analyze_commands`): `type/label/command` per line, as
/// HexGui's `AnalyzeDefinition` reads them.
const ANALYZE_COMMANDS: &str = "none/Show Board/showboard\nstring/Final Score/final_score\nstring/Engine Move (no play)/reg_genmove %m";

/// A failed command, answered `? <message>` (the Go Text Protocol version 2, Farnebäck 2002:
/// a failure response is `?` followed by an error message).
#[derive(Debug, thiserror::Error)]
pub enum GtpError {
    /// The session's spec stopped naming a game (cannot happen after `new` accepted it).
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// A move of the history no longer replays (cannot happen: they were played).
    #[error(transparent)]
    Replay(#[from] MoveError),
    /// A colour other than b/black/x or w/white/o.
    #[error("unknown color '{0}' (expected b/black or w/white)")]
    Color(String),
    /// `play` or `genmove` after the end of the game.
    #[error("game over")]
    GameOver,
    /// `play` or `genmove` for the side not to move; the side to move is named.
    #[error("it is {0}'s turn")]
    Turn(&'static str),
    /// `boardsize` without a number, or HexGui's `boardsize W H` with `W ≠ H`.
    #[error("boardsize expects a number (or two equal numbers)")]
    BoardSizeArgs,
    /// `komi` without a number.
    #[error("komi expects a number")]
    KomiArgs,
    /// `time_settings` or `time_left` with missing or bad numbers; the expected form is named.
    #[error("syntax error: expected {0}")]
    TimeArgs(&'static str),
    /// `final_score` before the end of the game.
    #[error("the game is not over")]
    NotOver,
    /// A line longer than [`MAX_GTP_LINE_BYTES`].
    #[error("command line too long ({len} bytes; at most {max})")]
    LineTooLong {
        /// The line's length in bytes.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// `boardsize` of another size for a game with one board size (Tic-Tac-Toe, Pentago).
    #[error("unacceptable size: {spec} is played on {rows}×{cols} only")]
    FixedSize {
        /// The game's spec.
        spec: String,
        /// Its rows.
        rows: usize,
        /// Its columns.
        cols: usize,
    },
    /// `boardsize` of a Hex size we cannot play.
    #[error("unacceptable size: {0}")]
    Size(SpecError),
    /// `play` without a colour and a move.
    #[error("play expects a color and a move")]
    PlayArgs,
    /// `play` of a move the game refuses.
    #[error("illegal move: {0}")]
    Illegal(MoveError),
    /// `genmove` without a colour.
    #[error("genmove expects a color")]
    GenmoveArgs,
    /// The engine refused the configuration or a move; the message is the engine's.
    #[error("{0}")]
    Engine(String),
    /// The search returned no move.
    #[error("no move found")]
    NoMove,
    /// The game refused the engine's move (a bug).
    #[error("engine move refused: {0}")]
    EngineMoveRefused(MoveError),
    /// `undo` at the start of the game.
    #[error("cannot undo")]
    CannotUndo,
    /// A command not in [`COMMANDS`].
    #[error("unknown command '{0}'")]
    UnknownCommand(String),
}

impl GtpError {
    /// An engine error as its message.
    fn engine(e: impl std::fmt::Display) -> GtpError {
        GtpError::Engine(e.to_string())
    }
}

/// A GTP session: the spec of the game, the moves played, and the engine's search.
pub struct Session {
    spec: String,
    game: AnyGame,
    history: Vec<String>,
    engine: EngineArgs,
    search: Option<AnySearch>,
    start: Instant,
    /// Milliseconds left on each player's clock (`time_left`), for `genmove` with `--ms`.
    clock_left: [Option<f64>; 2],
}

impl Session {
    /// A session at the start of `spec`.
    ///
    /// # Errors
    /// A bad spec or engine configuration.
    pub fn new(spec: &str, engine: EngineArgs) -> Result<Session, CliError> {
        let game = AnyGame::from_spec(spec)?;
        engine.config()?;
        // A `--net` file serves its own game (the board size may change later).
        engine.register_net(None)?;
        Ok(Session {
            spec: spec.to_string(),
            game,
            history: Vec::new(),
            engine,
            search: None,
            start: Instant::now(),
            clock_left: [None; 2],
        })
    }

    fn replay(&mut self, moves: &[String]) -> Result<(), GtpError> {
        let mut g = AnyGame::from_spec(&self.spec)?;
        for m in moves {
            g.play_text(m)?;
        }
        self.game = g;
        self.history = moves.to_vec();
        self.search = None;
        Ok(())
    }

    fn player(&self, color: &str) -> Result<u8, GtpError> {
        match color.to_ascii_lowercase().as_str() {
            "b" | "black" | "x" => Ok(0),
            "w" | "white" | "o" => Ok(1),
            other => Err(GtpError::Color(shorten(other))),
        }
    }

    fn check_turn(&self, color: &str) -> Result<(), GtpError> {
        let p = self.player(color)?;
        if self.game.outcome().is_some() {
            return Err(GtpError::GameOver);
        }
        if p != self.game.to_move() {
            return Err(GtpError::Turn(color_name(self.game.to_move())));
        }
        Ok(())
    }

    /// Answers one command (without the id): `Ok(text)` for `=`, `Err(e)` for `? e`.
    /// `quit` is answered by the caller.
    ///
    /// # Errors
    /// [`GtpError`] for a command that failed; the session is unchanged.
    pub fn execute(&mut self, cmd: &str, args: &[&str]) -> Result<String, GtpError> {
        match cmd {
            "protocol_version" => Ok("2".into()),
            "name" => Ok("mcts-playground".into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => Ok((args.first().is_some_and(|c| COMMANDS.contains(c))).to_string()),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "boardsize" => {
                let n: usize = args.first().and_then(|a| a.parse().ok()).ok_or(GtpError::BoardSizeArgs)?;
                // HexGui sends `boardsize W H`; only square boards exist here.
                if let Some(h) = args.get(1) {
                    if h.parse::<usize>().ok() != Some(n) {
                        return Err(GtpError::BoardSizeArgs);
                    }
                }
                let spec = match &self.game {
                    AnyGame::Hex(_) => {
                        let swap = self.spec.ends_with(":swap");
                        format!("hex:{n}{}", if swap { ":swap" } else { "" })
                    }
                    _ => {
                        let v = self.game.view();
                        if v.rows == n {
                            self.spec.clone()
                        } else {
                            return Err(GtpError::FixedSize { spec: self.spec.clone(), rows: v.rows, cols: v.cols });
                        }
                    }
                };
                AnyGame::from_spec(&spec).map_err(GtpError::Size)?;
                self.spec = spec;
                self.replay(&[])?;
                Ok(String::new())
            }
            "clear_board" => {
                self.replay(&[])?;
                Ok(String::new())
            }
            "play" => {
                let (color, mv) = match args {
                    [c, m, ..] => (*c, *m),
                    _ => return Err(GtpError::PlayArgs),
                };
                self.check_turn(color)?;
                let mv = if mv.eq_ignore_ascii_case("swap-pieces") { "swap" } else { mv };
                let mut g = self.game.clone();
                let idx = g.play_text(mv).map_err(GtpError::Illegal)?;
                let text = g.format_index(idx).unwrap_or_else(|| mv.to_string());
                if let Some(s) = self.search.as_mut() {
                    if s.advance_text(&text).is_err() {
                        self.search = None;
                    }
                }
                self.game = g;
                self.history.push(text);
                Ok(String::new())
            }
            "genmove" | "reg_genmove" => {
                let color = args.first().ok_or(GtpError::GenmoveArgs)?;
                self.check_turn(color)?;
                let mover = self.game.to_move() as usize;
                if self.search.is_none() {
                    let config = self.engine.config().map_err(GtpError::engine)?;
                    self.search = Some(mcts_playground::nn::search::any_search(&self.game, config).map_err(GtpError::engine)?);
                }
                let start = self.start;
                let clock = move || start.elapsed().as_secs_f64() * 1000.0;
                let mut budget = self.engine.budget();
                // With a time budget and a clock from `time_left`, never think longer than a
                // twentieth of the time left (at least 10 ms).
                if let (Some(ms), Some(left)) = (budget.millis, self.clock_left[mover]) {
                    budget.millis = Some(ms.min((left / 20.0).max(10.0)));
                }
                let s = self.search.as_mut().expect("search exists");
                s.run(budget, &clock);
                let mv = s.best_move_text().ok_or(GtpError::NoMove)?;
                if cmd == "reg_genmove" {
                    return Ok(mv);
                }
                self.game.play_text(&mv).map_err(GtpError::EngineMoveRefused)?;
                s.advance_text(&mv).map_err(GtpError::engine)?;
                self.history.push(mv.clone());
                Ok(mv)
            }
            "komi" => {
                args.first().and_then(|a| a.parse::<f64>().ok()).filter(|k| k.is_finite()).ok_or(GtpError::KomiArgs)?;
                Ok(String::new())
            }
            "final_score" => match self.game.outcome().ok_or(GtpError::NotOver)?.winner() {
                Some(0) => Ok("B+".into()),
                Some(_) => Ok("W+".into()),
                None => Ok("0".into()),
            },
            "time_settings" => {
                const FORM: &str = "time_settings main_time byo_yomi_time byo_yomi_stones (seconds, seconds, stones)";
                match args {
                    [a, b, c] if a.parse::<u64>().is_ok() && b.parse::<u64>().is_ok() && c.parse::<u64>().is_ok() => {
                        self.clock_left = [None; 2];
                        Ok(String::new())
                    }
                    _ => Err(GtpError::TimeArgs(FORM)),
                }
            }
            "time_left" => {
                const FORM: &str = "time_left color time stones (seconds, stones)";
                let [c, t, n] = args else { return Err(GtpError::TimeArgs(FORM)) };
                let p = self.player(c)? as usize;
                let (Ok(t), Ok(_)) = (t.parse::<u64>(), n.parse::<u64>()) else { return Err(GtpError::TimeArgs(FORM)) };
                self.clock_left[p] = Some(t as f64 * 1000.0);
                Ok(String::new())
            }
            "hexgui-analyze_commands" => Ok(ANALYZE_COMMANDS.into()),
            "showboard" => {
                let mut out = String::from("\n");
                for row in self.game.board_string().split('/') {
                    out.push_str(&row.chars().map(|c| c.to_string()).collect::<Vec<_>>().join(" "));
                    out.push('\n');
                }
                match self.game.outcome().map(|o| o.winner()) {
                    Some(Some(p)) => out.push_str(&format!("game over: {} wins", color_name(p))),
                    Some(None) => out.push_str("game over: draw"),
                    None => out.push_str(&format!("{} to move", color_name(self.game.to_move()))),
                }
                Ok(out)
            }
            "undo" => {
                if self.history.is_empty() {
                    return Err(GtpError::CannotUndo);
                }
                let mut h = self.history.clone();
                h.pop();
                self.replay(&h)?;
                Ok(String::new())
            }
            other => Err(GtpError::UnknownCommand(shorten(other))),
        }
    }
}

/// A player's GTP colour as the responses name it: player 0 (who moves first) is black, player
/// 1 white, in every game (`play b …`, `genmove w`).
fn color_name(p: u8) -> &'static str {
    if p == 0 {
        "black"
    } else {
        "white"
    }
}

/// `text` cut to its first 40 characters plus `…` when longer (echoed names stay readable).
fn shorten(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// One line of input, read in bounded memory.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A line (without its newline; not UTF-8 bytes read as U+FFFD).
    Text(String),
    /// A line longer than the limit, skipped to its end; its length in bytes.
    TooLong(usize),
    /// End of input.
    Eof,
}

/// Reads one line of at most `max` bytes; a longer line is consumed to its newline without
/// being kept ([`Line::TooLong`]).
///
/// # Errors
/// A read error of the input.
pub fn read_line(input: &mut impl BufRead, max: usize) -> std::io::Result<Line> {
    let mut buf = Vec::new();
    // Bytes of the line so far, without the newline; only the first `max` are kept.
    let mut len = 0usize;
    let mut any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            if !any {
                return Ok(Line::Eof);
            }
            break;
        }
        any = true;
        let newline = chunk.iter().position(|&b| b == b'\n');
        let part = &chunk[..newline.unwrap_or(chunk.len())];
        len += part.len();
        if len <= max {
            buf.extend_from_slice(part);
        }
        let used = newline.map_or(chunk.len(), |i| i + 1);
        input.consume(used);
        if newline.is_some() {
            break;
        }
    }
    if len > max {
        return Ok(Line::TooLong(len));
    }
    Ok(Line::Text(String::from_utf8_lossy(&buf).into_owned()))
}

/// A command line as GTP 2 §3.1 preprocesses it: control characters other than tab removed
/// (with CR), tabs as spaces, the comment after `#` dropped, trimmed.
fn preprocess(line: &str) -> String {
    let no_comment = line.split('#').next().unwrap_or("");
    no_comment
        .chars()
        .filter_map(|c| {
            if c == '\t' {
                Some(' ')
            } else if c.is_control() {
                None
            } else {
                Some(c)
            }
        })
        .collect::<String>()
        .trim()
        .to_string()
}

/// Runs the verb: reads commands from standard input until `quit` or end of input.
///
/// # Errors
/// A bad spec or configuration, or an I/O error.
pub fn run(a: Args) -> Result<(), CliError> {
    let session = Session::new(&a.game, a.engine)?;
    let stdin = std::io::stdin();
    serve(session, &mut stdin.lock(), &mut std::io::stdout())
}

/// Answers commands from `input` on `out` until `quit` or end of input.
///
/// # Errors
/// An I/O error.
pub fn serve(mut session: Session, input: &mut impl BufRead, out: &mut impl Write) -> Result<(), CliError> {
    // A response and its flush; a failed write is a `CliError::Stdout` (a closed pipe ends the
    // session quietly, see `out::exit`).
    let mut respond = |text: std::fmt::Arguments| writeln!(out, "{text}\n").and_then(|()| out.flush()).map_err(CliError::Stdout);
    loop {
        let line = match read_line(input, MAX_GTP_LINE_BYTES)? {
            Line::Eof => return Ok(()),
            Line::TooLong(len) => {
                respond(format_args!("? {}", GtpError::LineTooLong { len, max: MAX_GTP_LINE_BYTES }))?;
                continue;
            }
            Line::Text(t) => preprocess(&t),
        };
        if line.is_empty() {
            continue;
        }
        let mut words: Vec<&str> = line.split(' ').filter(|w| !w.is_empty()).collect();
        let id = if words[0].bytes().all(|b| b.is_ascii_digit()) { Some(words.remove(0).to_string()) } else { None };
        let id = id.unwrap_or_default();
        let Some((&cmd, args)) = words.split_first() else {
            respond(format_args!("?{id} empty command"))?;
            continue;
        };
        if cmd == "quit" {
            respond(format_args!("={id}"))?;
            return Ok(());
        }
        match session.execute(cmd, args) {
            Ok(text) if text.is_empty() => respond(format_args!("={id}")),
            Ok(text) => respond(format_args!("={id} {text}")),
            Err(e) => respond(format_args!("?{id} {e}")),
        }?;
    }
}
