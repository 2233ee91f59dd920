//! Move-list records (`hex:7` then `d4 c5 ...`): any text reads as a legal game or a
//! `RecordError`; a record read is written and read again to the same record.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcts_playground::record::{parse_any, parse_move_list, write_move_list};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = parse_any(text);
    if let Ok(r) = parse_move_list(text) {
        let written = write_move_list(&r.spec, &r.moves).expect("a record read is written");
        let again = parse_move_list(&written).expect("a written record reads back");
        assert_eq!(again.spec, r.spec);
        assert_eq!(again.moves, r.moves);
    }
});
