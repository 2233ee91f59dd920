//! The controller's side of the Go Text Protocol (version 2, Farnebäck 2002): what `mcts match`
//! sends an engine and how it reads the engine's output. The engine's side (`mcts gtp`) is the
//! command-line tool's.
//!
//! - [`check_command`]: a command given by the user (`mcts match --setup-a …`) is one line of
//!   printable text with a command in it, at most [`MAX_GTP_LINE_BYTES`] bytes; anything else
//!   would be read by the engine as no command (no answer: the referee waits its whole timeout)
//!   or as two (every later answer shifted by one).
//! - [`ResponseReader`]: an engine's output, in bounded memory, as [`Event`]s: responses (`=` or
//!   `?`, an optional numeric id, the text, an empty line: GTP 2 §3.6) and the lines outside any
//!   response ([`Event::Stray`]), which an engine may print (logs, `info` lines) but nobody asked
//!   for. A line is at most [`MAX_GTP_LINE_BYTES`] bytes and a response's text at most
//!   [`MAX_GTP_ANSWER_BYTES`]; past either the reading stops with a [`ReadError`].
//!
//! The reader is fuzzed (`fuzz/fuzz_targets/gtp_response.rs`).

use std::io::{BufRead, Read};

use crate::limits::{MAX_GTP_ANSWER_BYTES, MAX_GTP_LINE_BYTES};

/// Why a command given by the user cannot be sent as one GTP command.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// Nothing but spaces, a `#` comment or a numeric id: the engine answers nothing (GTP 2
    /// §3.1 skips empty lines), so the referee would wait its whole timeout.
    #[error("the command is empty (an engine answers nothing to an empty line or a # comment)")]
    Empty,
    /// A control character (other than tab): a newline or carriage return would split the
    /// command into two and shift every later answer by one; the others are removed by the
    /// engine (GTP 2 §3.1) and are surely a mistake.
    #[error("a GTP command is one line of text; this one holds the control character {0:?}")]
    Control(char),
    /// Longer than an engine reads (ours answers `? command line too long`).
    #[error("the command is {0} bytes long; a GTP command line here is at most {MAX_GTP_LINE_BYTES} bytes")]
    TooLong(usize),
}

/// Checks that `command` is one GTP command line: at most [`MAX_GTP_LINE_BYTES`] bytes, no
/// control character but tab, and a command word after an optional numeric id and before any `#`.
///
/// # Errors
/// [`CommandError`], naming what is wrong.
pub fn check_command(command: &str) -> Result<(), CommandError> {
    if command.len() > MAX_GTP_LINE_BYTES {
        return Err(CommandError::TooLong(command.len()));
    }
    if let Some(c) = command.chars().find(|&c| c.is_control() && c != '\t') {
        return Err(CommandError::Control(c));
    }
    let before_comment = command.split('#').next().unwrap_or("");
    let mut words = before_comment.split([' ', '\t']).filter(|w| !w.is_empty());
    let first = words.next();
    let command_word = match first {
        Some(w) if w.bytes().all(|b| b.is_ascii_digit()) => words.next(),
        other => other,
    };
    if command_word.is_none() {
        return Err(CommandError::Empty);
    }
    Ok(())
}

/// What an engine printed: a response, or a line outside any response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A response: `=` (success) or `?` (failure), the text after the sign and an optional
    /// numeric id, its lines joined by `\n` and trimmed.
    Response {
        /// `=` rather than `?`.
        ok: bool,
        /// The text.
        text: String,
    },
    /// A non-blank line where a response should start (it starts with neither `=` nor `?`),
    /// with its line end removed: output nobody asked for.
    Stray(String),
}

/// Why reading an engine's output stopped before its end.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// A line longer than [`MAX_GTP_LINE_BYTES`] (read no further than the limit).
    #[error("a line of more than {MAX_GTP_LINE_BYTES} bytes")]
    LineTooLong,
    /// A response whose text is longer than [`MAX_GTP_ANSWER_BYTES`].
    #[error("an answer of more than {MAX_GTP_ANSWER_BYTES} bytes")]
    AnswerTooLong,
    /// The output could not be read.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// An engine's output as [`Event`]s, in bounded memory: at most one line
/// ([`MAX_GTP_LINE_BYTES`]) and one response ([`MAX_GTP_ANSWER_BYTES`]) held at a time.
pub struct ResponseReader<R> {
    input: R,
    buf: Vec<u8>,
}

impl<R: BufRead> ResponseReader<R> {
    /// A reader of `input`.
    pub fn new(input: R) -> ResponseReader<R> {
        ResponseReader { input, buf: Vec::new() }
    }

    /// The next line without its line end (`\n`, `\r\n`), bytes that are not UTF-8 read as
    /// U+FFFD; `None` at the end of the input.
    fn line(&mut self) -> Result<Option<String>, ReadError> {
        self.buf.clear();
        let n = (&mut self.input).take(MAX_GTP_LINE_BYTES as u64 + 1).read_until(b'\n', &mut self.buf)?;
        if n == 0 {
            return Ok(None);
        }
        if self.buf.last() == Some(&b'\n') {
            self.buf.pop();
        } else if self.buf.len() > MAX_GTP_LINE_BYTES {
            return Err(ReadError::LineTooLong);
        }
        if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        Ok(Some(String::from_utf8_lossy(&self.buf).into_owned()))
    }

    /// The next event; `Ok(None)` at the end of the input (a response cut short by it is
    /// dropped). Blank lines between responses are skipped.
    ///
    /// # Errors
    /// [`ReadError`]: a line or a response too long (the reader should not be used again), or
    /// a read error.
    pub fn next_event(&mut self) -> Result<Option<Event>, ReadError> {
        let (ok, first) = loop {
            let Some(line) = self.line()? else { return Ok(None) };
            if line.trim().is_empty() {
                continue;
            }
            let ok = line.starts_with('=');
            if !ok && !line.starts_with('?') {
                return Ok(Some(Event::Stray(line)));
            }
            // `=id text`: drop the sign and an optional numeric id.
            let rest = line[1..].trim_start_matches(|c: char| c.is_ascii_digit());
            break (ok, rest.trim().to_string());
        };
        let mut text = first;
        let mut bytes = 0usize;
        loop {
            let Some(line) = self.line()? else { return Ok(None) };
            if line.trim().is_empty() {
                let text = text.trim().to_string();
                return Ok(Some(Event::Response { ok, text }));
            }
            bytes += line.len() + 1;
            if bytes > MAX_GTP_ANSWER_BYTES {
                return Err(ReadError::AnswerTooLong);
            }
            text.push('\n');
            text.push_str(&line);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(text: &str) -> Vec<Event> {
        let mut r = ResponseReader::new(text.as_bytes());
        let mut out = Vec::new();
        while let Some(e) = r.next_event().unwrap() {
            out.push(e);
        }
        out
    }

    #[test]
    fn responses_ids_and_stray_lines() {
        let ev = events("info 1\n\n= d4\n\n=12 a\r\nb\r\n\r\n? unknown command\n\nlog\n= cut short");
        assert_eq!(
            ev,
            vec![
                Event::Stray("info 1".into()),
                Event::Response { ok: true, text: "d4".into() },
                Event::Response { ok: true, text: "a\nb".into() },
                Event::Response { ok: false, text: "unknown command".into() },
                Event::Stray("log".into()),
            ]
        );
    }

    #[test]
    fn long_lines_and_answers_stop_the_reading() {
        let long = "x".repeat(MAX_GTP_LINE_BYTES + 1);
        let mut r = ResponseReader::new(long.as_bytes());
        assert!(matches!(r.next_event(), Err(ReadError::LineTooLong)));
        let exact = format!("= {}\n\n", "x".repeat(MAX_GTP_LINE_BYTES - 2));
        assert_eq!(events(&exact).len(), 1);
        let line = format!("{}\n", "y".repeat(1000));
        let big = format!("= a\n{}\n", line.repeat(MAX_GTP_ANSWER_BYTES / 1000 + 1));
        let mut r = ResponseReader::new(big.as_bytes());
        assert!(matches!(r.next_event(), Err(ReadError::AnswerTooLong)));
    }

    #[test]
    fn commands_are_one_line_with_a_command() {
        assert_eq!(check_command("komi 0"), Ok(()));
        assert_eq!(check_command("7 param_mohex max_time 1 # one second"), Ok(()));
        assert_eq!(check_command("komi\t0"), Ok(()));
        assert_eq!(check_command("komi 0\nplay b a1"), Err(CommandError::Control('\n')));
        assert_eq!(check_command("komi 0\r"), Err(CommandError::Control('\r')));
        assert_eq!(check_command("\u{1b}[2J"), Err(CommandError::Control('\u{1b}')));
        for empty in ["", "   ", "# a comment", "12", " 3 # id only"] {
            assert_eq!(check_command(empty), Err(CommandError::Empty), "{empty:?}");
        }
        let long = format!("komi {}", "0".repeat(MAX_GTP_LINE_BYTES));
        assert_eq!(check_command(&long), Err(CommandError::TooLong(MAX_GTP_LINE_BYTES + 5)));
        assert_eq!(check_command(&long[..MAX_GTP_LINE_BYTES]), Ok(()));
        assert!(CommandError::Control('\n').to_string().contains("'\\n'"));
    }
}
