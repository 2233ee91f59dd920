//! The errors `mcts` reports on standard error as `mcts: <message>` (exit status 1). The GTP
//! verb's failure responses (`? message`) are protocol text and stay strings inside `gtp.rs`.

use mcts_playground::game::SpecError;
use mcts_playground::report::ReportError;

/// Why a verb stopped.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The library's report errors (a spec, a move, `--set`, a finished game, an arena game, a
    /// file of openings, the engine's refusals), with their sentences.
    #[error(transparent)]
    Report(#[from] ReportError),
    /// The engine refused a preset, a `--set` or a configuration; the message is the engine's
    /// (whatever error type the engine returns).
    #[error("{0}")]
    Engine(String),
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

impl From<SpecError> for CliError {
    /// A spec refused where the command line reads one (`bench`, `gtp`), as the report's.
    fn from(e: SpecError) -> CliError {
        CliError::Report(ReportError::Spec(e))
    }
}

impl CliError {
    /// An engine error as its message.
    pub fn engine(e: impl std::fmt::Display) -> CliError {
        CliError::Engine(e.to_string())
    }
}
