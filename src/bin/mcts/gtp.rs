//! `mcts gtp`: the engine as a Go Text Protocol (version 2) engine, as HexGui and MoHex speak it
//! for Hex. Commands: protocol_version, name, version, known_command, list_commands, boardsize,
//! clear_board, play, genmove, showboard, undo, quit. Errors are answered `? message`.

use std::io::{BufRead, Write};
use std::time::Instant;

use mcts_playground::game::AnyGame;
use mcts_playground::mcts::AnySearch;

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
    pub fn new(spec: &str, engine: EngineArgs) -> Result<Session, String> {
        let game = AnyGame::from_spec(spec).map_err(|e| e.to_string())?;
        engine.config()?;
        Ok(Session { spec: spec.to_string(), game, history: Vec::new(), engine, search: None, start: Instant::now() })
    }

    fn replay(&mut self, moves: &[String]) -> Result<(), String> {
        let mut g = AnyGame::from_spec(&self.spec).map_err(|e| e.to_string())?;
        for m in moves {
            g.play_text(m).map_err(|e| e.to_string())?;
        }
        self.game = g;
        self.history = moves.to_vec();
        self.search = None;
        Ok(())
    }

    fn player(&self, color: &str) -> Result<u8, String> {
        match color.to_ascii_lowercase().as_str() {
            "b" | "black" | "x" => Ok(0),
            "w" | "white" | "o" => Ok(1),
            other => Err(format!("unknown color '{other}' (expected b/black or w/white)")),
        }
    }

    fn check_turn(&self, color: &str) -> Result<(), String> {
        let p = self.player(color)?;
        if self.game.outcome().is_some() {
            return Err("game over".into());
        }
        if p != self.game.to_move() {
            return Err(format!("it is {}'s turn", if self.game.to_move() == 0 { "black" } else { "white" }));
        }
        Ok(())
    }

    /// Answers one command (without the id): `Ok(text)` for `=`, `Err(text)` for `?`.
    /// `quit` is answered by the caller.
    pub fn execute(&mut self, cmd: &str, args: &[&str]) -> Result<String, String> {
        match cmd {
            "protocol_version" => Ok("2".into()),
            "name" => Ok("mcts-playground".into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => Ok((args.first().is_some_and(|c| COMMANDS.contains(c))).to_string()),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "boardsize" => {
                let n: usize = args.first().and_then(|a| a.parse().ok()).ok_or("boardsize expects a number")?;
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
                            return Err(format!("unacceptable size: {} is played on {}×{} only", self.spec, v.rows, v.cols));
                        }
                    }
                };
                AnyGame::from_spec(&spec).map_err(|e| format!("unacceptable size: {e}"))?;
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
                    _ => return Err("play expects a color and a move".into()),
                };
                self.check_turn(color)?;
                let mv = if mv.eq_ignore_ascii_case("swap-pieces") { "swap" } else { mv };
                let mut g = self.game.clone();
                let idx = g.play_text(mv).map_err(|e| format!("illegal move: {e}"))?;
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
                let color = args.first().ok_or("genmove expects a color")?;
                self.check_turn(color)?;
                if self.search.is_none() {
                    self.search = Some(AnySearch::new(&self.game, self.engine.config()?).map_err(|e| e.to_string())?);
                }
                let start = self.start;
                let clock = move || start.elapsed().as_secs_f64() * 1000.0;
                let s = self.search.as_mut().expect("search exists");
                s.run(self.engine.budget(), &clock);
                let mv = s.best_move_text().ok_or("no move found")?;
                self.game.play_text(&mv).map_err(|e| format!("engine move refused: {e}"))?;
                s.advance_text(&mv).map_err(|e| e.to_string())?;
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
                    return Err("cannot undo".into());
                }
                let mut h = self.history.clone();
                h.pop();
                self.replay(&h)?;
                Ok(String::new())
            }
            other => Err(format!("unknown command '{other}'")),
        }
    }
}

/// Runs the verb: reads commands from standard input until `quit` or end of input.
///
/// # Errors
/// A bad spec or configuration, or an I/O error.
pub fn run(a: Args) -> Result<(), String> {
    let mut session = Session::new(&a.game, a.engine)?;
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    for line in stdin.lock().lines() {
        let line = line.map_err(|e| e.to_string())?;
        let line = line.split('#').next().unwrap_or("").trim().to_string();
        if line.is_empty() {
            continue;
        }
        let mut words: Vec<&str> = line.split_whitespace().collect();
        let id = if words[0].bytes().all(|b| b.is_ascii_digit()) { Some(words.remove(0).to_string()) } else { None };
        let id = id.unwrap_or_default();
        let Some((&cmd, args)) = words.split_first() else {
            writeln!(out, "?{id} empty command\n").map_err(|e| e.to_string())?;
            continue;
        };
        if cmd == "quit" {
            writeln!(out, "={id}\n").map_err(|e| e.to_string())?;
            out.flush().map_err(|e| e.to_string())?;
            return Ok(());
        }
        match session.execute(cmd, args) {
            Ok(text) if text.is_empty() => writeln!(out, "={id}\n"),
            Ok(text) => writeln!(out, "={id} {text}\n"),
            Err(e) => writeln!(out, "?{id} {e}\n"),
        }
        .map_err(|e| e.to_string())?;
        out.flush().map_err(|e| e.to_string())?;
    }
    Ok(())
}
