//! A record file as the page imports it (`www/src/share/records.ts`): the file's bytes decoded
//! as the page's `File.text()` decodes them (WHATWG UTF-8 decode: a leading byte order mark
//! dropped, invalid bytes replaced by U+FFFD), then either the game's JSON record (text starting
//! with `{`: the page reads it, the worker replays `game` and `moves`, as `record::replay`) or the
//! worker's `parseRecord` entry (`record::parse_any`, a move list or a Hex SGF). Any bytes give a
//! legal game or an error, never a panic; a record read is written as a move list and reads back
//! to the same game. The other record targets take valid UTF-8 only (`move_list`) or call the
//! SGF reader directly (`sgf`); this one is the page's door.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcts_playground::record::{parse_any, parse_move_list, replay, write_move_list};

fuzz_target!(|data: &[u8]| {
    let data = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    let text = String::from_utf8_lossy(data);
    let (spec, moves) = if text.trim_start().starts_with('{') {
        // The page's `parseGameJson`: the format, a string `game` and a list of string `moves`.
        let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) else { return };
        if v.get("format").and_then(|f| f.as_str()) != Some("mcts-playground-game") {
            return;
        }
        let Some(game) = v.get("game").and_then(|g| g.as_str()) else { return };
        let Some(moves) = v.get("moves").and_then(|m| m.as_array()) else { return };
        let Some(moves) = moves.iter().map(|m| m.as_str().map(str::to_string)).collect::<Option<Vec<String>>>() else { return };
        match replay(game, &moves) {
            Ok((g, moves)) => (g.spec(), moves),
            Err(_) => return,
        }
    } else {
        match parse_any(&text) {
            Ok(r) => (r.spec, r.moves),
            Err(_) => return,
        }
    };
    let written = write_move_list(&spec, &moves).expect("a record read is written");
    let again = parse_move_list(&written).expect("a written record reads back");
    assert_eq!(again.spec, spec);
    assert_eq!(again.moves, moves);
});
