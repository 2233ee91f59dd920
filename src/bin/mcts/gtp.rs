//! `mcts gtp`: the engine as a Go Text Protocol (version 2) engine, as HexGui and MoHex speak it
//! for Hex. Commands: protocol_version, name, version, known_command, list_commands, boardsize,
//! clear_board, play, genmove, showboard, undo, quit. Errors are answered `? message`.

use std::io::{BufRead, Write};
use std::time::Instant;

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
    "play",
    "genmove",
    "showboard",
    "undo",
    "quit",
];

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
    /// `boardsize` without a number.
    #[error("boardsize expects a number")]
    BoardSizeArgs,
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
}

impl Session {
    /// A session at the start of `spec`.
    ///
    /// # Errors
    /// A bad spec or engine configuration.
    pub fn new(spec: &str, engine: EngineArgs) -> Result<Session, CliError> {
        let game = AnyGame::from_spec(spec)?;
        engine.config()?;
        Ok(Session { spec: spec.to_string(), game, history: Vec::new(), engine, search: None, start: Instant::now() })
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
            other => Err(GtpError::Color(other.to_string())),
        }
    }

    fn check_turn(&self, color: &str) -> Result<(), GtpError> {
        let p = self.player(color)?;
        if self.game.outcome().is_some() {
            return Err(GtpError::GameOver);
        }
        if p != self.game.to_move() {
            return Err(GtpError::Turn(if self.game.to_move() == 0 { "black" } else { "white" }));
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
            "genmove" => {
                let color = args.first().ok_or(GtpError::GenmoveArgs)?;
                self.check_turn(color)?;
                if self.search.is_none() {
                    let config = self.engine.config().map_err(GtpError::engine)?;
                    self.search = Some(AnySearch::new(&self.game, config).map_err(GtpError::engine)?);
                }
                let start = self.start;
                let clock = move || start.elapsed().as_secs_f64() * 1000.0;
                let s = self.search.as_mut().expect("search exists");
                s.run(self.engine.budget(), &clock);
                let mv = s.best_move_text().ok_or(GtpError::NoMove)?;
                self.game.play_text(&mv).map_err(GtpError::EngineMoveRefused)?;
                s.advance_text(&mv).map_err(GtpError::engine)?;
                self.history.push(mv.clone());
                Ok(mv)
            }
            "showboard" => {
                let mut out = String::from("\n");
                for row in self.game.board_string().split('/') {
                    out.push_str(&row.chars().map(|c| c.to_string()).collect::<Vec<_>>().join(" "));
                    out.push('\n');
                }
                match self.game.outcome() {
                    Some(o) => out.push_str(&format!("game over: {:?}", o)),
                    None => out.push_str(&format!("{} to move", if self.game.to_move() == 0 { "black" } else { "white" })),
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
            other => Err(GtpError::UnknownCommand(other.to_string())),
        }
    }
}

/// Runs the verb: reads commands from standard input until `quit` or end of input.
///
/// # Errors
/// A bad spec or configuration, or an I/O error.
pub fn run(a: Args) -> Result<(), CliError> {
    let mut session = Session::new(&a.game, a.engine)?;
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    for line in stdin.lock().lines() {
        let line = line?;
        let line = line.split('#').next().unwrap_or("").trim().to_string();
        if line.is_empty() {
            continue;
        }
        let mut words: Vec<&str> = line.split_whitespace().collect();
        let id = if words[0].bytes().all(|b| b.is_ascii_digit()) { Some(words.remove(0).to_string()) } else { None };
        let id = id.unwrap_or_default();
        let Some((&cmd, args)) = words.split_first() else {
            writeln!(out, "?{id} empty command\n")?;
            continue;
        };
        if cmd == "quit" {
            writeln!(out, "={id}\n")?;
            out.flush()?;
            return Ok(());
        }
        match session.execute(cmd, args) {
            Ok(text) if text.is_empty() => writeln!(out, "={id}\n"),
            Ok(text) => writeln!(out, "={id} {text}\n"),
            Err(e) => writeln!(out, "?{id} {e}\n"),
        }?;
        out.flush()?;
    }
    Ok(())
}
