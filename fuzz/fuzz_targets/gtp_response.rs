//! `mcts match`'s reader of an engine's output (`mcts_playground::gtp::ResponseReader`): any
//! bytes read as responses and stray lines, or stop with a line or an answer too long, in
//! bounded memory (no event longer than the limits); `check_command` on the same bytes never
//! accepts a command that would not be one GTP line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcts_playground::gtp::{check_command, Event, ResponseReader};
use mcts_playground::limits::{MAX_GTP_ANSWER_BYTES, MAX_GTP_LINE_BYTES};

fuzz_target!(|data: &[u8]| {
    let mut reader = ResponseReader::new(data);
    let mut events = 0usize;
    while let Ok(Some(event)) = reader.next_event() {
        events += 1;
        assert!(events <= data.len(), "more events than bytes");
        match event {
            // A response's text: its first line (at most a line) and at most the answer's bytes.
            Event::Response { text, .. } => assert!(text.len() <= MAX_GTP_LINE_BYTES * 3 + MAX_GTP_ANSWER_BYTES),
            // A stray line is one line, never blank, never a response's start.
            Event::Stray(line) => {
                assert!(line.len() <= MAX_GTP_LINE_BYTES * 3 && !line.contains('\n'));
                assert!(!line.trim().is_empty() && !line.starts_with('=') && !line.starts_with('?'));
            }
        }
    }
    if let Ok(text) = std::str::from_utf8(data) {
        if check_command(text).is_ok() {
            assert!(text.len() <= MAX_GTP_LINE_BYTES);
            assert!(!text.contains(['\n', '\r']));
            // A word before any `#` (GTP 2 §3.1 separates words by spaces and tabs only: U+2002 is
            // a word, which an engine answers `? unknown command`, not nothing).
            assert!(text.split('#').next().unwrap_or("").split([' ', '\t']).any(|w| !w.is_empty()));
        }
    }
});
