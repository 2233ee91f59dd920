//! The errors `mcts` reports on standard error as `mcts: <message>` (exit status 1). The GTP
//! verb's failure responses (`? message`) are protocol text and stay strings inside `gtp.rs`.

use mcts_playground::arena::{ArenaError, OpeningsError};
use mcts_playground::game::{MoveError, SpecError};
use mcts_playground::limits::abbreviate;
use mcts_playground::report::ReportError;

/// Why a verb stopped.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// `--game` names no game we have.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// Move `index` (1-based) of `--moves`, written `text`, is unreadable or illegal.
    #[error("move {index} ('{}'): {source}", abbreviate(text))]
    Move {
        /// 1-based index in `--moves`.
        index: usize,
        /// The move as written.
        text: String,
        /// Why the game refused it.
        source: MoveError,
    },
    /// A `--set` that is not `key=value`.
    #[error("--set expects key=value, got '{}'", abbreviate(.0))]
    SetSyntax(String),
    /// The engine refused a preset, a `--set` or a configuration; the message is the engine's
    /// (whatever error type the engine returns).
    #[error("{0}")]
    Engine(String),
    /// `mcts search` on a finished game.
    #[error("the game is over: nothing to search")]
    GameOver,
    /// Game `index` (0-based) of an arena match failed.
    #[error("game {index}: {source}")]
    ArenaGame {
        /// 0-based game index.
        index: usize,
        /// What went wrong.
        source: ArenaError,
    },
    /// `--openings FILE` could not be read.
    #[error("--openings {}: {source}", abbreviate(path))]
    OpeningsFile {
        /// The file as given.
        path: String,
        /// Why it could not be read.
        source: std::io::Error,
    },
    /// A line of `--openings FILE` is not an opening of the game (the first bad line).
    #[error("--openings {}: {source}", abbreviate(path))]
    Openings {
        /// The file as given.
        path: String,
        /// The line and what is wrong with it.
        source: OpeningsError,
    },
    /// The progress bar's template was refused (a bug).
    #[error("{0}")]
    Progress(String),
    /// Encoding the `--json` output failed (a bug).
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// Reading standard input failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// Writing standard output failed (a closed pipe: a quiet exit, see `out::exit`; a full
    /// disk).
    #[error("writing standard output: {0}")]
    Stdout(std::io::Error),
}

impl From<ReportError> for CliError {
    /// The library's report errors keep their sentences: each maps to the variant it was.
    fn from(e: ReportError) -> CliError {
        match e {
            ReportError::Spec(e) => CliError::Spec(e),
            ReportError::Move { index, text, source } => CliError::Move { index, text, source },
            ReportError::SetSyntax(s) => CliError::SetSyntax(s),
            ReportError::Engine(s) => CliError::Engine(s),
            ReportError::GameOver => CliError::GameOver,
            ReportError::ArenaGame { index, source } => CliError::ArenaGame { index, source },
            ReportError::OpeningsFile { path, source } => CliError::OpeningsFile { path, source },
            ReportError::Openings { path, source } => CliError::Openings { path, source },
            ReportError::Json(e) => CliError::Json(e),
        }
    }
}

impl CliError {
    /// An engine error as its message.
    pub fn engine(e: impl std::fmt::Display) -> CliError {
        CliError::Engine(e.to_string())
    }
}
