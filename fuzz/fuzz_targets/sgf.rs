//! Hex SGF records (HexGui's conventions): any text reads as a legal game or a `RecordError`; a
//! record read is written as SGF and read again to the same game, variations included.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcts_playground::record::{parse_sgf, write_sgf};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(r) = parse_sgf(&text) {
        let written = write_sgf(&r.spec, &r.moves, &r.variations).expect("a Hex record read is written");
        let again = parse_sgf(&written).expect("a written record reads back");
        assert_eq!(again.spec, r.spec);
        assert_eq!(again.moves, r.moves);
        assert_eq!(again.variations, r.variations);
    }
});
