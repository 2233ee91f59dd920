//! Game records (src/record.rs): move lists and Hex SGF as HexGui writes it, round trips and the
//! errors a teacher sees for a bad record.

use mcts_playground::game::AnyGame;
use mcts_playground::record::{
    parse_any, parse_game_json, parse_move_list, parse_sgf, write_move_list, write_sgf, MoveFault, RecordError, SgfError, SgfSyntax,
    Variation, VariationFault, MAX_VARIATION_DEPTH,
};

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
    let mut rng = mcts_playground::rng::Rng64::new(7);
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
            let sgf = write_sgf(&spec, &moves, &[]).unwrap();
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
    assert!(r.notes.is_empty(), "{:?}", r.notes);
    assert_eq!(r.variations, vec![var(5, &["b8"], vec![])]);
}

fn var(at: usize, moves: &[&str], variations: Vec<Variation>) -> Variation {
    Variation { at, moves: strings(moves), variations }
}

/// A HexGui-style file written by hand: variations at the root, in the main line and inside a
/// variation, comments and line breaks between nodes.
#[test]
fn hexgui_style_nested_variations_are_read_and_written_back() {
    let text = "(;FF[4]AP[HexGui:0.9.GIT]GM[11]SZ[5]C[lesson]\n\
        (;B[c3];W[b3]\n(;B[b4];W[c2];B[d2])\n(;B[c2]C[try this];W[b4]\n(;B[a5])(;B[d1])))\n\
        (;B[a1];W[c3]))\n";
    let r = parse_sgf(text).unwrap();
    assert_eq!(r.spec, "hex:5");
    assert_eq!(r.moves, strings(&["c3", "b3", "b4", "c2", "d2"]));
    assert!(r.notes.is_empty(), "{:?}", r.notes);
    let want = vec![var(0, &["a1", "c3"], vec![]), var(2, &["c2", "b4", "a5"], vec![var(2, &["d1"], vec![])])];
    assert_eq!(r.variations, want);
    let written = write_sgf(&r.spec, &r.moves, &r.variations).unwrap();
    let flat: String = written.chars().filter(|c| *c != '\n').collect();
    assert!(flat.ends_with("(;B[c3];W[b3](;B[b4];W[c2];B[d2])(;B[c2];W[b4](;B[a5])(;B[d1])))(;B[a1];W[c3]))"), "{written}");
    assert!(written.lines().all(|l| l.len() <= 72), "{written}");
    let again = parse_sgf(&written).unwrap();
    assert_eq!((again.moves, again.variations), (r.moves, r.variations));
}

#[test]
fn an_illegal_variation_move_names_its_place() {
    // Move 3 of the variation at move 3 (move 5 of the game) takes an occupied cell.
    let e = parse_sgf("(;GM[11]SZ[5];B[c3];W[b3](;B[b4];W[c2])(;B[c2];W[b4];B[c3]))").unwrap_err();
    assert!(matches!(&e, RecordError::VariationMove { path, index: 3, reason: MoveFault::Illegal, .. } if path == &vec![3]), "{e:?}");
    assert!(e.to_string().starts_with("variation at move 3, its move 3 'c3' (move 5 of the game): illegal"), "{e}");
    // A variation inside a variation; the turn is checked as in the main line.
    let e = parse_sgf("(;GM[11]SZ[5];B[c3](;W[b3];B[b4])(;W[b4];B[a1](;W[a2])(;B[e5])))").unwrap_err();
    assert_eq!(
        e.to_string(),
        "variation at move 4 (within the variation at move 2), its move 1 'B[e5]' (move 4 of the game): it is W's turn, not B's"
    );
    let e = parse_sgf("(;GM[11]SZ[5];B[c3](;W[b3])(;W[z9]))").unwrap_err();
    assert!(e.to_string().starts_with("variation at move 2, its move 1 'z9'"), "{e}");
    let e = parse_sgf("(;GM[11]SZ[5];B[c3](;W[b3])(;W[b4];AB[a1]))").unwrap_err();
    assert_eq!(e, RecordError::Variation { path: vec![2], fault: VariationFault::Setup });
    // The same checks in the game JSON.
    let json = |v: &str| {
        format!(r#"{{"format":"mcts-playground-game","version":1,"game":"tictactoe","moves":["b2","a1","c3"],"variations":{v}}}"#)
    };
    let e = parse_game_json(&json(r#"[{"at":1,"moves":["c1","b2"],"variations":[]}]"#)).unwrap_err();
    assert!(e.to_string().starts_with("variation at move 2, its move 2 'b2' (move 3 of the game): illegal"), "{e}");
    let e = parse_game_json(&json(r#"[{"at":3,"moves":["c1"]}]"#)).unwrap_err();
    assert_eq!(e, RecordError::Variation { path: vec![4], fault: VariationFault::PastEnd { at: 3, len: 3 } });
    assert!(e.to_string().contains("moves past the end continue the line itself"), "{e}");
    let e = parse_game_json(&json(r#"[{"at":1,"moves":[]}]"#)).unwrap_err();
    assert_eq!(e.to_string(), "variation at move 2: it has no moves");
    for bad in [r#"{"at":1}"#, r#"[{"at":-1,"moves":["c1"]}]"#, r#"[{"at":1,"moves":"c1"}]"#, r#"[3]"#] {
        let e = parse_game_json(&json(bad)).unwrap_err();
        assert!(matches!(&e, RecordError::GameJson(m) if m.starts_with("\"variations\" must be a list of variations")), "{bad}: {e}");
    }
}

#[test]
fn game_json_carries_variations_of_every_game() {
    let r = parse_game_json(
        r#"{"format":"mcts-playground-game","version":1,"game":"tictactoe","moves":["b2","a1","c3"],
            "variations":[{"at":1,"moves":["C1","a3"],"variations":[{"at":1,"moves":["c3"],"variations":[]}]}]}"#,
    )
    .unwrap();
    assert_eq!(r.moves, strings(&["b2", "a1", "c3"]));
    assert_eq!(r.variations, vec![var(1, &["c1", "a3"], vec![var(1, &["c3"], vec![])])], "moves normalised");
    let r = parse_any(
        r#"{"format":"mcts-playground-game","version":1,"game":"pentago","moves":["a1-TL-cw","f6-BR-cw"],
            "variations":[{"at":1,"moves":["b2-TR-ccw"]}]}"#,
    )
    .unwrap();
    assert_eq!(r.spec, "pentago:official");
    assert_eq!(r.variations, vec![var(1, &["b2-TR-ccw"], vec![])]);
    // A variation of a Pentago game after its twist is replayed on the twisted board.
    let e = parse_game_json(r#"{"format":"mcts-playground-game","game":"pentago","moves":["a1-TL-cw","f6-BR-cw"],"variations":[{"at":1,"moves":["c1-TR-cw"]}]}"#)
        .unwrap_err();
    assert!(e.to_string().starts_with("variation at move 2, its move 1 'c1-TR-cw'"), "{e}");
}

/// Two variations at the same point with the same first move, or one that repeats the parent's
/// move, are merged (the tree of moves has one node per position reached by a sequence of moves).
#[test]
fn repeated_variations_are_merged_and_noted() {
    let moves = strings(&["c3", "b3", "b4"]);
    let v = vec![
        var(1, &["c2", "b4"], vec![]),
        var(1, &["c2", "d2"], vec![]),
        var(1, &["b3", "d1"], vec![]),       // repeats the main line's b3
        var(2, &["b4", "a5", "a4"], vec![]), // repeats b4, then continues the main line past its end
    ];
    let sgf = write_sgf("hex:5", &moves, &v).unwrap();
    let r = parse_sgf(&sgf).unwrap();
    assert_eq!(r.moves, strings(&["c3", "b3", "b4", "a5", "a4"]));
    // Canonical order: by branch point, then as first seen.
    assert_eq!(r.variations, vec![var(1, &["c2", "b4"], vec![var(1, &["d2"], vec![])]), var(2, &["d1"], vec![])]);
    assert!(r.notes.is_empty(), "written canonical: {:?}", r.notes);
    let json = serde_json::json!({"format": "mcts-playground-game", "game": "hex:5", "moves": moves, "variations": v}).to_string();
    let j = parse_game_json(&json).unwrap();
    assert_eq!((&j.moves, &j.variations), (&r.moves, &r.variations));
    assert_eq!(j.notes, vec!["3 variation(s) repeating a line already in the record were merged into it".to_string()]);
    // The same in SGF: the second child repeats the first's move.
    let r = parse_sgf("(;GM[11]SZ[5];B[c3](;W[b3];B[b4])(;W[b3];B[a1]))").unwrap();
    assert_eq!(r.variations, vec![var(2, &["a1"], vec![])]);
    assert_eq!(r.notes.len(), 1, "{:?}", r.notes);
}

#[test]
fn variations_nested_too_deep_are_refused() {
    // Each level leaves its parent after its first move, on cells of its own.
    let cell = |i: usize| format!("{}{}", (b'a' + (i % 19) as u8) as char, i / 19 + 1);
    let level = |k: usize, inner: Vec<Variation>| Variation { at: 1, moves: vec![cell(2 * k), cell(2 * k + 1)], variations: inner };
    let mut v = level(0, vec![]);
    for k in 1..=MAX_VARIATION_DEPTH {
        v = level(k, vec![v]);
    }
    let e = write_sgf("hex:19", &strings(&["s19", "s18"]), &[v]).unwrap_err();
    assert!(
        matches!(&e, RecordError::Variation { path, fault: VariationFault::TooDeep } if path.len() == MAX_VARIATION_DEPTH + 1),
        "{e:?}"
    );
    assert!(e.to_string().contains("…"), "the place is abbreviated: {e}");
    assert!(e.to_string().len() < 300, "{e}");
    let deep = format!(
        r#"{{"format":"mcts-playground-game","game":"hex:5","moves":["a1","a2"],"variations":{}1{}}}"#,
        r#"[{"at":1,"moves":["b1"],"variations":"#.repeat(70),
        "}]".repeat(70)
    );
    assert!(matches!(parse_game_json(&deep), Err(RecordError::GameJson(_))));
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
    assert!(write_sgf("tictactoe", &[], &[]).unwrap_err().to_string().contains("Hex only"));
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
