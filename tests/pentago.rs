//! Pentago: hand-made tests of every rule corner case (official, openspiel, twist), the
//! `:dedup` option, notation, and the generic conformance suite on every Pentago spec.
//! Positions are written as board strings (rows 1..6 top to bottom, `.XO`) and loaded with
//! `Pentago::from_board`; the side to move follows from the stone counts.
mod common;

use std::collections::{HashMap, HashSet};

use mcts_playground::game::{AnyGame, Game, MoveError, MoveList, MoveParseError, Outcome, Pentago, SpecError};
use mcts_playground::rng::Rng64;

fn board(rules: &str, b: &str) -> Pentago {
    Pentago::from_board(&[rules], b).unwrap_or_else(|e| panic!("{b}: {e}"))
}

fn played(g: &Pentago, mv: &str) -> Pentago {
    let mut c = *g;
    c.play_text(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    c
}

fn texts(g: &Pentago, l: &MoveList<u16>) -> Vec<String> {
    l.iter().map(|&m| g.format_move(m)).collect()
}

#[test]
fn pentago_specs_conform() {
    let specs =
        ["pentago", "pentago:openspiel", "pentago:twist", "pentago:openspiel:dedup", "pentago:official:dedup", "pentago:twist:dedup"];
    for (i, spec) in specs.iter().enumerate() {
        let AnyGame::Pentago(g) = AnyGame::from_spec(spec).unwrap() else { panic!("{spec}") };
        common::conformance(&g, 4, 77 + i as u64, true);
    }
}

#[test]
fn specs_parse_and_reject() {
    for (spec, want) in [
        ("pentago", "pentago:official"),
        ("pentago:official", "pentago:official"),
        ("pentago:openspiel", "pentago:openspiel"),
        ("pentago:twist", "pentago:twist"),
        ("pentago:twist:dedup", "pentago:twist:dedup"),
        ("pentago:dedup", "pentago:official:dedup"),
    ] {
        assert_eq!(AnyGame::from_spec(spec).unwrap().spec(), want);
    }
    for bad in ["pentago:foo", "pentago:dedup:twist", "pentago:twist:openspiel", "pentago:twist:dedup:dedup", "pentago:"] {
        let e = AnyGame::from_spec(bad).unwrap_err();
        assert!(matches!(e, SpecError::Options { .. }), "{bad}: {e:?}");
        assert!(e.to_string().contains("pentago"), "{bad}: {e}");
    }
}

// X has a1 b1 c1 d1; e1 completes the row. Rotating TL moves a1 b1 c1 and breaks the five.
const FOUR_IN_ROW: &str = "XXXX../....../....../....../....../OOO..O";

#[test]
fn official_placement_five_wins_at_once_without_rotating() {
    let g = played(&board("official", FOUR_IN_ROW), "e1-TL-cw");
    assert_eq!(g.outcome(), Some(Outcome::Win(0)));
    assert!(g.won_on_placement());
    // The rotation was not applied: the row is intact and TL is untouched.
    assert_eq!(g.board_string(), "XXXXX./....../....../....../....../OOO..O");
    let v = g.view();
    assert_eq!(v.last_move.as_deref(), Some("e1"), "a placement win shows the cell only");
    assert_eq!(v.last_cells, vec![4]);
    assert_eq!(v.winning_cells, vec![0, 1, 2, 3, 4]);
    assert_eq!(g.hash(), g.hash_from_scratch());
    // All eight twists at e1 win (and lead to the same position).
    let mut w = MoveList::new();
    board("official", FOUR_IN_ROW).winning_moves(&mut w);
    let at_e1: Vec<String> = texts(&g, &w).into_iter().filter(|m| m.starts_with("e1-")).collect();
    assert_eq!(at_e1.len(), 8, "{at_e1:?}");
}

#[test]
fn openspiel_placement_five_broken_by_rotation_goes_on() {
    let g = played(&board("openspiel", FOUR_IN_ROW), "e1-TL-cw");
    assert_eq!(g.outcome(), None);
    // TL turned clockwise: a1 b1 c1 went to c1 c2 c3.
    assert_eq!(g.board_string(), "..XXX./..X.../..X.../....../....../OOO..O");
    assert_eq!(g.to_move(), 1);
    // A rotation that keeps the row still wins under openspiel.
    assert_eq!(played(&board("openspiel", FOUR_IN_ROW), "e1-BL-cw").outcome(), Some(Outcome::Win(0)));
    // Under openspiel only the e1 moves that leave TL and TR (which hold the row) in place win.
    let mut w = MoveList::new();
    board("openspiel", FOUR_IN_ROW).winning_moves(&mut w);
    let e1: Vec<String> = texts(&g, &w).into_iter().filter(|m| m.starts_with("e1-")).collect();
    assert_eq!(e1, ["e1-BR-ccw", "e1-BR-cw", "e1-BL-ccw", "e1-BL-cw"]);
}

// TR holds X on its left column (d1 d2 d3) and O on its right column (f1 f2 f3). Turning TR
// clockwise makes its top row X X X and its bottom row O O O: X gets b1..f1 and O b3..f3.
const DOUBLE: &str = ".XXX.O/...X.O/.OOX.O/....../....../......";
// The same without b1 (X's stone moved to a5): only O gets a five.
const OPPONENT_ONLY: &str = "..XX.O/...X.O/.OOX.O/....../X...../......";

#[test]
fn rotation_making_both_fives_is_a_draw() {
    for rules in ["official", "openspiel", "twist"] {
        let g = played(&board(rules, DOUBLE), "a6-TR-cw");
        assert_eq!(g.board_string(), ".XXXXX/....../.OOOOO/....../....../X.....", "{rules}");
        assert_eq!(g.outcome(), Some(Outcome::Draw), "{rules}");
        let v = g.view();
        assert_eq!(v.winning_cells, vec![1, 2, 3, 4, 5, 13, 14, 15, 16, 17], "{rules}: both fives shown");
        // So it is not a winning move for X, but it is non-losing.
        let b = board(rules, DOUBLE);
        let m = b.parse_move("a6-TR-cw").unwrap();
        let (mut w, mut nl) = (MoveList::new(), MoveList::new());
        b.winning_moves(&mut w);
        b.non_losing_moves(&mut nl);
        assert!(!w.contains(&m) && nl.contains(&m), "{rules}");
    }
}

#[test]
fn rotation_making_only_the_opponents_five_loses() {
    for rules in ["official", "openspiel", "twist"] {
        let g = played(&board(rules, OPPONENT_ONLY), "a6-TR-cw");
        assert_eq!(g.board_string(), "..XXXX/....../.OOOOO/....../X...../X.....", "{rules}");
        assert_eq!(g.outcome(), Some(Outcome::Win(1)), "{rules}: the mover's opponent wins");
        assert_eq!(g.view().winning_cells, vec![13, 14, 15, 16, 17]);
        let b = board(rules, OPPONENT_ONLY);
        let m = b.parse_move("a6-TR-cw").unwrap();
        let mut nl = MoveList::new();
        b.non_losing_moves(&mut nl);
        assert!(!nl.contains(&m), "{rules}");
        // O, the opponent, already threatens TR-cw with a stone anywhere: the threats list it.
        let mut t = MoveList::new();
        b.threats(&mut t);
        assert!(texts(&b, &t).contains(&"b6-TR-cw".to_string()), "{rules}");
    }
}

#[test]
fn full_board_without_five_is_a_draw() {
    // Cell (r, c) is X when (c / 2 + r) is even: no five anywhere; b6 is left empty for O.
    let full = "XXOOXX/OOXXOO/XXOOXX/OOXXOO/XXOOXX/O.XXOO";
    for rules in ["official", "openspiel", "twist"] {
        let g = board(rules, full);
        assert_eq!(g.to_move(), 1);
        assert_eq!(g.legal_count(), 8);
        let mut draws_by_full_board = 0;
        for i in 0..8 {
            let mut c = g;
            c.play(31 * 8 + i).unwrap(); // b6 = cell 31: moves 248..255
            let o = c.outcome().expect("36 stones end the game");
            if c.view().winning_cells.is_empty() {
                assert_eq!(o, Outcome::Draw, "{rules}: full board, no five");
                draws_by_full_board += 1;
            }
        }
        assert!(draws_by_full_board > 0, "{rules}");
    }
}

#[test]
fn twist_flip_and_clockwise_semantics() {
    let g = Pentago::from_options(&["twist"]).unwrap();
    // Flip = each row of the quadrant reversed; cw = quarter turn clockwise.
    assert_eq!(played(&g, "a1-TL-flip").board_string(), "..X.../....../....../....../....../......");
    assert_eq!(played(&g, "b1-TL-flip").board_string(), ".X..../....../....../....../....../......");
    assert_eq!(played(&g, "b1-TL-cw").board_string(), "....../..X.../....../....../....../......");
    assert_eq!(played(&g, "a2-TL-flip").board_string(), "....../..X.../....../....../....../......");
    assert_eq!(played(&g, "a2-TL-cw").board_string(), ".X..../....../....../....../....../......");
    assert_eq!(played(&g, "d4-BR-flip").board_string(), "....../....../....../.....X/....../......");
    // A known pattern: TL rows X.O / .X. / O.. flipped become O.X / .X. / ..O.
    let b = board("twist", "X.O.../.X..../O...../....../....../.....X");
    assert_eq!(played(&b, "f5-TL-flip").board_string(), "O.X.../.X..../..O.../....../.....O/.....X");
    // Flip is its own inverse: flipping twice restores the quadrant.
    let twice = played(&played(&b, "f5-TL-flip"), "e6-TL-flip");
    assert!(twice.board_string().starts_with("X.O.../.X..../O....."));
    // A flip can complete a row: X a1 b1 c1 e1 f1; flipping TR moves f1 to d1.
    let r = board("twist", "XXX.XX/....../....../OOOO../....../O.....");
    let won = played(&r, "a5-TR-flip");
    assert_eq!(won.board_string(), "XXXXX./....../....../OOOO../X...../O.....");
    assert_eq!(won.outcome(), Some(Outcome::Win(0)));
    // Dense index: d = 0 flip, d = 1 cw (same space as OpenSpiel's ccw/cw).
    assert_eq!(g.parse_move("a1-TL-flip"), Ok(0));
    assert_eq!(g.parse_move("a1-TL-cw"), Ok(1));
    assert_eq!(g.parse_move("f6-BL-cw"), Ok(287));
    assert_eq!(g.format_move(286), "f6-BL-flip");
}

#[test]
fn twist_has_no_counter_clockwise_rotation() {
    let g = Pentago::from_options(&["twist"]).unwrap();
    let e = g.parse_move("d4-TL-ccw").unwrap_err();
    assert!(matches!(&e, MoveError::Parse { reason: MoveParseError::TwistHasNoCcw, .. }), "{e}");
    assert!(e.to_string().contains("no counter-clockwise"), "{e}");
    let mut l = MoveList::new();
    g.legal_moves(&mut l);
    assert_eq!(l.len(), 288);
    assert!(texts(&g, &l).iter().all(|m| !m.ends_with("ccw")));
    // Clockwise on the openspiel rules agrees with twist's cw; ccw there is the inverse turn.
    let o = Pentago::from_options(&["openspiel"]).unwrap();
    assert_eq!(played(&o, "a1-TL-cw").board_string(), played(&g, "a1-TL-cw").board_string());
    assert_eq!(played(&o, "a1-TL-ccw").board_string(), "....../....../X...../....../....../......");
}

#[test]
fn notation_round_trips_and_errors() {
    for rules in ["official", "openspiel", "twist"] {
        let g = Pentago::from_options(&[rules]).unwrap();
        for m in 0..288u16 {
            let t = g.format_move(m);
            assert_eq!(g.parse_move(&t), Ok(m), "{rules} {t}");
            assert_eq!(g.parse_move(&t.to_uppercase()), Ok(m), "{rules} {t} upper case");
        }
        assert_eq!(g.parse_move("d4-BR-cw"), Ok(((3 * 6 + 3) * 8 + 2 * 2 + 1) as u16));
        let reason = |t: &str| match g.parse_move(t) {
            Err(MoveError::Parse { reason, .. }) => reason.to_string(),
            other => panic!("{t}: {other:?}"),
        };
        assert!(reason("d4-XX-cw").contains("unknown quadrant 'XX'"));
        assert!(reason("g1-TL-cw").contains("column 'g'"));
        assert!(reason("a7-TL-cw").contains("row 7"));
        assert!(reason("d4").contains("<cell>-<TL|TR|BR|BL>-"));
        assert!(reason("d4-TL-up").contains("unknown twist 'up'"));
    }
    for rules in ["official", "openspiel"] {
        let g = Pentago::from_options(&[rules]).unwrap();
        let e = g.parse_move("d4-TL-flip").unwrap_err().to_string();
        assert!(e.contains("'flip' exists only in Pentago-Twist"), "{e}");
    }
    // An occupied cell parses but is refused, state untouched.
    let mut g = played(&Pentago::from_options(&[]).unwrap(), "b2-BR-cw");
    let before = g;
    assert!(matches!(g.play_text("b2-TL-cw"), Err(MoveError::Illegal { .. })));
    assert_eq!(g, before);
}

#[test]
fn from_board_rejects_bad_positions() {
    for bad in [
        "XXXXX./....../....../OOOO../....../......",
        "X...../......",
        "XX..../....../....../....../....../......",
        "Z...../....../....../....../....../......",
    ] {
        assert!(Pentago::from_board(&["official"], bad).is_err(), "{bad}");
    }
}

/// Every move's resulting board (brute force through the public API).
fn results(g: &Pentago, all: bool, rules: &str) -> Vec<(u16, String)> {
    // Without dedup every (empty cell, twist) pair is legal: play those on a plain copy.
    let plain = Pentago::from_board(&[rules], &g.board_string()).unwrap();
    let mut full = plain;
    let moves: Vec<u16> = if all {
        (0..288u16).filter(|&m| g.board_string().as_bytes()[(m as usize / 8) + m as usize / 48] == b'.').collect()
    } else {
        let mut l = MoveList::new();
        g.legal_moves(&mut l);
        l.to_vec()
    };
    moves
        .into_iter()
        .map(|m| {
            full = if all { plain } else { *g };
            full.play_unchecked(m);
            (m, full.board_string())
        })
        .collect()
}

#[test]
fn dedup_keeps_exactly_one_move_per_resulting_position() {
    for rules in ["official", "openspiel", "twist"] {
        let plain = Pentago::from_options(&[rules]).unwrap();
        let dedup = Pentago::from_options(&[rules, "dedup"]).unwrap();
        // Empty board: after any move the board holds one stone, and every cell is reachable
        // (place it there and twist another, empty, quadrant), so there are exactly 36 distinct
        // positions: 288 moves collapse to 36.
        assert_eq!(plain.legal_count(), 288);
        assert_eq!(dedup.legal_count(), 36, "{rules}");
        // One X stone on b2, the centre of TL, fixed by every twist: O's stone can end on any of
        // the 35 other cells, X's stays, so 35 × 8 = 280 moves collapse to 35.
        let mut centre = dedup;
        centre.play(7 * 8).unwrap(); // b2-TL-ccw (b2-TL-flip under twist): the kept move of b2
        assert_eq!(centre.board_string(), "....../.X..../....../....../....../......");
        assert_eq!(centre.legal_count(), 35, "{rules}");

        // On random positions: kept moves lead to distinct positions, each the lowest index of
        // its position, and every removed move leads to a position a kept move gives.
        let mut rng = Rng64::new(11);
        for game in 0..6 {
            let mut g = Pentago::from_options(&[rules, "dedup"]).unwrap();
            let mut legal = MoveList::new();
            for _ in 0..(4 + game * 5) {
                g.legal_moves(&mut legal);
                if legal.is_empty() {
                    break;
                }
                g.play_unchecked(legal[rng.index(legal.len())]);
            }
            if g.is_terminal() {
                continue;
            }
            let all = results(&g, true, rules);
            let kept = results(&g, false, rules);
            let mut lowest: HashMap<&str, u16> = HashMap::new();
            for (m, b) in &all {
                lowest.entry(b.as_str()).or_insert(*m);
            }
            let kept_boards: HashSet<&str> = kept.iter().map(|(_, b)| b.as_str()).collect();
            assert_eq!(kept_boards.len(), kept.len(), "{rules}: kept moves give distinct positions");
            assert_eq!(kept.len(), lowest.len(), "{rules}: one kept move per position");
            for (m, b) in &kept {
                assert_eq!(lowest[b.as_str()], *m, "{rules}: kept move is the lowest index");
            }
            for (m, b) in &all {
                assert!(kept_boards.contains(b.as_str()), "{rules}: removed move {m} reaches a kept position");
                assert_eq!(g.is_legal(*m), lowest[b.as_str()] == *m, "{rules}: is_legal agrees with the list");
            }
        }
    }
}

#[test]
fn dedup_playouts_only_play_kept_moves() {
    let g = Pentago::from_options(&["twist", "dedup"]).unwrap();
    let mut rng = Rng64::new(5);
    for _ in 0..50 {
        let mut p = g;
        let mut trace = Vec::new();
        let o = p.random_playout(&mut rng, &mut trace);
        let mut r = g;
        for &m in &trace {
            assert!(r.is_legal(m));
            r.play_unchecked(m);
        }
        assert_eq!(r.outcome(), Some(o));
        assert_eq!(r.board_string(), p.board_string());
        assert_eq!(p.hash(), p.hash_from_scratch());
        assert_eq!(r.view(), p.view());
    }
}

#[test]
fn fast_playout_matches_move_by_move_play() {
    for spec in ["official", "openspiel", "twist"] {
        let g = Pentago::from_options(&[spec]).unwrap();
        let mut rng = Rng64::new(21);
        for _ in 0..300 {
            let mut p = g;
            let mut trace = Vec::new();
            p.random_playout(&mut rng, &mut trace);
            let mut r = g;
            for &m in &trace {
                r.play(m).unwrap();
            }
            assert_eq!(r, p, "{spec}: same state (hash, last move, placement flag) either way");
        }
    }
}
