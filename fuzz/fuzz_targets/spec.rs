//! Game spec strings (`hex:7`, `pentago:twist:dedup`, ...): any text is a game or a `SpecError`,
//! and a game's own spec names the same game again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcts_playground::game::AnyGame;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(g) = AnyGame::from_spec(text) {
        let spec = g.spec();
        let again = AnyGame::from_spec(&spec).expect("a game's own spec reads back");
        assert_eq!(again.spec(), spec);
        assert_eq!(again.move_space(), g.move_space());
    }
});
