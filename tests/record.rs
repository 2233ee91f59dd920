//! Game records (src/record.rs): move lists and Hex SGF as HexGui writes it, round trips and the
//! errors a teacher sees for a bad record.

use mcts_playground::record::{
    parse_any, parse_move_list, parse_sgf, write_move_list, write_sgf, MoveFault, RecordError, SgfError, SgfSyntax,
};
use mcts_playground::AnyGame;

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn move_list_round_trip_every_game() {
    for (spec, moves) in [
        ("tictactoe", vec!["b2", "a1", "c3"]),
        ("hex:7", vec!["d4", "c5", "e3", "b6"]),
        ("hex:5:swap", vec!["b2", "swap", "c3"]),
        ("pentago:twist", vec!["a1-TL-cw", "f6-BR-cw"]),
    ] {
        let moves = strings(&moves);
        let text = write_move_list(spec, &moves).unwrap();
        assert_eq!(text.lines().next().unwrap(), AnyGame::from_spec(spec).unwrap().spec());
        let r = parse_move_list(&text).unwrap();
        assert_eq!(r.moves, moves, "{spec}");
        assert_eq!(write_move_list(&r.spec, &r.moves).unwrap(), text);
    }
}

#[test]
fn random_hex_games_round_trip_through_sgf() {
    let mut rng = mcts_playground::Rng64::new(7);
    for size in [1usize, 3, 7, 11, 19] {
        for swap in [false, true] {
            let spec = if swap { format!("hex:{size}:swap") } else { format!("hex:{size}") };
            let mut g = AnyGame::from_spec(&spec).unwrap();
            let mut moves = Vec::new();
            while g.outcome().is_none() {
                let legal = g.legal_moves_text();
                let m = legal[(rng.next_u64() % legal.len() as u64) as usize].clone();
                g.play_text(&m).unwrap();
                moves.push(m);
            }
            let sgf = write_sgf(&spec, &moves).unwrap();
            assert!(sgf.contains(if g.outcome().unwrap().winner() == Some(0) { "RE[B+]" } else { "RE[W+]" }));
            assert!(sgf.lines().all(|l| l.len() <= 80), "HexGui-style line breaks");
            let r = parse_sgf(&sgf).unwrap();
            // A swap rule that was never used is still kept (RU[swap]).
            assert_eq!(r.spec, spec);
            assert_eq!(r.moves, moves);
        }
    }
}

#[test]
fn hexgui_file_imports_main_line() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/hexgui-example.sgf")).unwrap();
    let r = parse_any(&text).unwrap();
    assert_eq!(r.spec, "hex:9:swap");
    assert_eq!(r.moves, strings(&["e5", "swap", "d6", "f3", "c7", "g4", "b8"]));
    assert_eq!(r.notes.len(), 1, "{:?}", r.notes);
    assert!(r.notes[0].contains("main line"));
}

#[test]
fn sgf_refusals_are_clear() {
    let e = |t: &str| parse_sgf(t).unwrap_err().to_string();
    assert!(e("(;FF[4]GM[1]SZ[19];B[dd])").contains("GM[1] is not Hex"));
    assert!(e("(;FF[4]GM[11]SZ[7:9];B[a1])").contains("square"));
    assert!(e("(;FF[4]GM[11]SZ[20];B[a1])").contains("1 to 19"));
    assert!(e("(;FF[4]GM[11]SZ[7];B[a1];W[swap-sides])").contains("swap-sides"));
    assert!(e("(;FF[4]GM[11]SZ[7];B[a1];B[a2])").starts_with("move 2"));
    assert!(e("(;FF[4]GM[11]SZ[7];B[a1];W[a1])").starts_with("move 2 'a1'"));
    assert!(e("(;FF[4]GM[11]SZ[7];B[a1];W[h9])").contains("move 2 'h9'"));
    assert!(e("(;FF[4]GM[11]SZ[7]AB[a1][b2])").contains("cannot be represented"));
    assert!(e("(;FF[4]GM[11]SZ[7];B[a1];AW[b2])").contains("setup stones in node 3"));
    assert!(e("(;FF[4]GM[11]SZ[7];B[a1]").contains("not closed"));
    assert!(e("no tree").contains("starts with"));
    assert!(matches!(parse_sgf("(;GM[11]SZ[7];B[a1];W[a1])"), Err(RecordError::Move { index: 2, .. })));
    assert!(write_sgf("tictactoe", &[]).unwrap_err().to_string().contains("Hex only"));
}

#[test]
fn sgf_errors_are_typed_and_say_the_same_sentences() {
    let e = parse_sgf("(;FF[4]GM[11]SZ[7];B[a1];W[b2]").unwrap_err();
    assert_eq!(e, RecordError::Sgf(SgfError::Syntax { syntax: SgfSyntax::NotClosed, at: 31 }));
    assert_eq!(e.to_string(), "SGF: the game tree is not closed: missing ')' at character 31");
    let e = parse_sgf("(;GM[1]SZ[19])").unwrap_err();
    assert_eq!(e.to_string(), "SGF: GM[1] is not Hex (GM[11]); only Hex records can be read as SGF");
    let e = parse_sgf("(;GM[11]SZ[7];W[a1])").unwrap_err();
    assert!(matches!(&e, RecordError::Move { index: 1, reason: MoveFault::Turn { want: "B", .. }, .. }), "{e:?}");
    assert_eq!(e.to_string(), "move 1 'W[a1]': it is B's turn, not W's");
    let e = parse_move_list("hex:5 a1 a1").unwrap_err();
    assert!(matches!(&e, RecordError::Move { index: 2, reason: MoveFault::Illegal, .. }), "{e:?}");
    assert!(e.to_string().starts_with("move 2 'a1': illegal: "), "{e}");
    let e = parse_move_list("chess e4").unwrap_err();
    assert_eq!(e.to_string(), format!("bad game spec: {}", AnyGame::from_spec("chess").unwrap_err()));
}

#[test]
fn setup_stones_and_resign() {
    let r = parse_sgf("(;FF[4]GM[11]SZ[5]AB[c3][a1]AW[b2]PL[W];W[resign])").unwrap();
    assert_eq!(r.moves, strings(&["c3", "b2", "a1"]));
    assert!(r.notes.iter().any(|n| n.contains("setup")));
    assert!(r.notes.iter().any(|n| n.contains("resigned")));
    assert!(parse_sgf("(;FF[4]GM[11]SZ[5]AB[c3]PL[B])").is_err());
}
