//! Standard output for every verb, in one place: a write that fails returns its error
//! ([`CliError::Stdout`]) instead of panicking as `println!` does, and [`exit`] turns the
//! outcome into the process's exit: a closed pipe (`mcts … | head`) ends the process quietly
//! with status 0, as `mcts gtp` and `mcts arena` always did; any other write error (a full disk:
//! `> /dev/full`) is reported on standard error, status 1.
//!
//! Messages on standard error quote user text (a move from `--moves`, a line of an `--openings`
//! file, an engine's answer) with its control characters escaped ([`quote_controls`]): a terminal
//! escape in an input is shown as `\u{1b}`, never sent to the terminal.

use std::io::Write;

use crate::error::CliError;

/// Writes `args` and a newline on standard output (each line is flushed: standard output is
/// line-buffered), returning a write error as [`CliError::Stdout`].
///
/// # Errors
/// The write failed (a closed pipe, a full disk).
pub fn line(args: std::fmt::Arguments) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    out.write_fmt(args).and_then(|()| out.write_all(b"\n")).map_err(CliError::Stdout)
}

/// `outln!("fmt", args…)`: [`line`] with `format!`'s arguments; returns `Result<(), CliError>`.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::out::line(format_args!($($arg)*))
    };
}

/// Control characters quoted (`\n`, `\u{1b}`, …): the library's, which its error messages
/// already apply to the inputs they quote; the CLI applies it to everything it writes on stderr.
pub use mcts_playground::limits::quote_controls;

/// Writes `text` ([`quote_controls`]) and a newline on standard error; a failed write is
/// ignored (standard error may be closed: nothing more can be said then).
pub fn errln(text: &str) {
    let _ = writeln!(std::io::stderr(), "{}", quote_controls(text));
}

/// Ends the process with a verb's `result`: after flushing standard output, status 0 on
/// success or a closed pipe; otherwise `mcts: <message>` on standard error and status 1.
pub fn exit(result: Result<(), CliError>) -> ! {
    let result = result.and_then(|()| std::io::stdout().lock().flush().map_err(CliError::Stdout));
    match result {
        Ok(()) => std::process::exit(0),
        Err(CliError::Stdout(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => {
            // Standard error may be closed too: nothing more can be said then.
            errln(&format!("mcts: {e}"));
            std::process::exit(1)
        }
    }
}
