//! Move notation of every game (`b2`, `d4`, `swap`, `d4-BR-cw`): the first byte picks a game and
//! a short opening, the rest is a move text. Reading it either plays a move or returns a
//! `MoveError` with the position untouched; a move read is written back as text that reads as
//! the same move.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcts_playground::game::AnyGame;

const GAMES: [(&str, &[&str]); 8] = [
    ("tictactoe", &[]),
    ("tictactoe", &["b2", "a1"]),
    ("hex:1", &[]),
    ("hex:7", &["d4"]),
    ("hex:11:swap", &["c3"]),
    ("hex:19:swap", &[]),
    ("pentago", &["d4-BR-cw"]),
    ("pentago:twist:dedup", &["a1-TL-flip"]),
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let (spec, opening) = GAMES[pick as usize % GAMES.len()];
    let mut g = AnyGame::from_spec(spec).expect("spec");
    for m in opening {
        g.play_text(m).expect("opening");
    }
    let before = g.clone();
    let hash = g.hash();
    match g.play_text(text) {
        Ok(index) => {
            assert_eq!(g.ply(), before.ply() + 1);
            let written = before.format_index(index).expect("a played move has a text");
            let mut again = before.clone();
            assert_eq!(again.play_text(&written), Ok(index), "{written}");
            assert_eq!(again.hash(), g.hash());
        }
        Err(_) => {
            assert_eq!(g.hash(), hash, "a refused move leaves the position untouched");
            assert_eq!(g.ply(), before.ply());
        }
    }
    // The cell reader on its own, on every board shape.
    for (rows, cols) in [(1, 1), (3, 3), (6, 6), (19, 19)] {
        if let Ok((r, c)) = mcts_playground::game::parse_cell(text, rows, cols) {
            assert!(r < rows && c < cols);
            assert_eq!(mcts_playground::game::parse_cell(&mcts_playground::game::cell_name(r, c), rows, cols), Ok((r, c)));
        }
    }
});
