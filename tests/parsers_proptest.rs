//! Property tests of every text reader (the same readers `fuzz/` fuzzes): any string either
//! reads or returns an error, never panics; and reading what we write gives back what was
//! written: parse(format(x)) = x for moves, game specs, records (move lists and Hex SGF) and
//! engine configurations (presets with field overrides).

use std::collections::BTreeMap;

use mcts_playground::game::{cell_name, parse_cell, AnyGame};
use mcts_playground::mcts::{ParamValue, SearchConfig};
use mcts_playground::record::{parse_any, parse_game_json, parse_move_list, parse_sgf, write_move_list, write_sgf, Record, Variation};
use mcts_playground::request::engine_config;
use proptest::prelude::*;

/// Every game spec the grammar allows (the book, docs/guide/games.md).
fn spec_strategy() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("tictactoe".to_string()),
        (1usize..=19, any::<bool>()).prop_map(|(n, swap)| if swap { format!("hex:{n}:swap") } else { format!("hex:{n}") }),
        (prop::sample::select(vec!["official", "openspiel", "twist"]), any::<bool>()).prop_map(|(r, d)| if d {
            format!("pentago:{r}:dedup")
        } else {
            format!("pentago:{r}")
        }),
    ]
}

/// A game of `spec` after up to `len` moves chosen by `picks` among the legal ones.
fn random_game(spec: &str, picks: &[u16]) -> (AnyGame, Vec<String>) {
    let mut g = AnyGame::from_spec(spec).unwrap();
    let mut moves = Vec::new();
    for &p in picks {
        if g.outcome().is_some() {
            break;
        }
        let legal = g.legal_moves_text();
        let m = legal[p as usize % legal.len()].clone();
        g.play_text(&m).unwrap();
        moves.push(m);
    }
    (g, moves)
}

/// Random legal variations of `line` (played from `start`): up to 3 per line, each leaving it at a
/// random move with 1 to 5 random moves, nested up to `depth` levels; duplicates and repeats of
/// the parent's moves happen (a small board), and the readers merge them.
fn random_variations(start: &AnyGame, line: &[String], depth: usize, rng: &mut mcts_playground::rng::Rng64) -> Vec<Variation> {
    let mut out = Vec::new();
    if line.is_empty() || depth == 0 {
        return out;
    }
    for _ in 0..rng.next_u64() % 4 {
        let at = (rng.next_u64() % line.len() as u64) as usize;
        let mut g = start.clone();
        for m in &line[..at] {
            g.play_text(m).unwrap();
        }
        let branch = g.clone();
        let mut moves = Vec::new();
        for _ in 0..1 + rng.next_u64() % 5 {
            if g.outcome().is_some() {
                break;
            }
            let legal = g.legal_moves_text();
            let m = legal[(rng.next_u64() % legal.len() as u64) as usize].clone();
            g.play_text(&m).unwrap();
            moves.push(m);
        }
        if moves.is_empty() {
            continue;
        }
        let variations = random_variations(&branch, &moves, depth - 1, rng);
        out.push(Variation { at, moves, variations });
    }
    out
}

/// Text that looks like SGF: the grammar's characters and a few property names.
fn sgf_like() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            Just("(".to_string()),
            Just(")".to_string()),
            Just(";".to_string()),
            Just("GM[11]".to_string()),
            Just("SZ[7]".to_string()),
            Just("SZ[3:4]".to_string()),
            Just("RU[swap]".to_string()),
            Just("PL[W]".to_string()),
            Just("AE[a1]".to_string()),
            "(AB|AW|B|W|C|PB|PW)\\[[a-z0-9\\-]{0,12}\\]",
            "[\\[\\]\\\\a-zA-Z0-9 ]{0,4}",
        ],
        0..40,
    )
    .prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn any_text_is_a_spec_or_an_error(text in ".{0,24}", spec in spec_strategy()) {
        if let Ok(g) = AnyGame::from_spec(&text) {
            prop_assert_eq!(AnyGame::from_spec(&g.spec()).unwrap().spec(), g.spec());
        }
        let g = AnyGame::from_spec(&spec).unwrap();
        // The normalised spec names the same game (the default rule set may be spelled out).
        let again = AnyGame::from_spec(&g.spec()).unwrap();
        prop_assert_eq!(again.spec(), g.spec());
        prop_assert_eq!(again.move_space(), g.move_space());
    }

    #[test]
    fn any_text_is_a_move_or_an_error_and_the_position_is_kept(
        spec in spec_strategy(), picks in prop::collection::vec(any::<u16>(), 0..8), text in "\\PC{0,16}|[a-zA-Z][0-9]{1,3}(-(TL|TR|BR|BL|tl|xx)-(cw|ccw|flip|CW))?",
    ) {
        let (g, _) = random_game(&spec, &picks);
        let mut h = g.clone();
        match h.play_text(&text) {
            Ok(index) => {
                let written = g.format_index(index).unwrap();
                let mut again = g.clone();
                prop_assert_eq!(again.play_text(&written), Ok(index));
                prop_assert_eq!(again.hash(), h.hash());
            }
            Err(_) => {
                prop_assert_eq!(h.hash(), g.hash());
                prop_assert_eq!(h.ply(), g.ply());
            }
        }
    }

    #[test]
    fn every_legal_move_reads_back_as_itself(spec in spec_strategy(), picks in prop::collection::vec(any::<u16>(), 0..30)) {
        let (g, _) = random_game(&spec, &picks);
        for (i, m) in g.legal_moves_text().iter().enumerate().take(40) {
            let mut a = g.clone();
            let index = a.play_text(m).unwrap();
            let written = g.format_index(index);
            prop_assert_eq!(written.as_deref(), Some(m.as_str()), "move {} of {}", i, spec);
        }
    }

    #[test]
    fn cells_round_trip(rows in 1usize..=19, cols in 1usize..=19, text in "\\PC{0,6}") {
        for r in 0..rows {
            for c in 0..cols {
                prop_assert_eq!(parse_cell(&cell_name(r, c), rows, cols), Ok((r, c)));
            }
        }
        if let Ok((r, c)) = parse_cell(&text, rows, cols) {
            prop_assert!(r < rows && c < cols);
        }
    }

    #[test]
    fn records_round_trip(spec in spec_strategy(), picks in prop::collection::vec(any::<u16>(), 0..80)) {
        let (_, moves) = random_game(&spec, &picks);
        let text = write_move_list(&spec, &moves).unwrap();
        let r = parse_move_list(&text).unwrap();
        prop_assert_eq!(&r.moves, &moves);
        prop_assert_eq!(AnyGame::from_spec(&r.spec).unwrap().spec(), AnyGame::from_spec(&spec).unwrap().spec());
        prop_assert_eq!(parse_any(&text).unwrap(), r);
        if spec.starts_with("hex") {
            let sgf = write_sgf(&spec, &moves, &[]).unwrap();
            let s = parse_sgf(&sgf).unwrap();
            prop_assert_eq!(&s.moves, &moves);
            prop_assert_eq!(s.spec, AnyGame::from_spec(&spec).unwrap().spec());
            prop_assert!(s.notes.is_empty(), "{:?}", s.notes);
        } else {
            prop_assert!(write_sgf(&spec, &moves, &[]).is_err());
        }
    }

    #[test]
    fn variation_trees_round_trip_through_game_json_and_sgf(spec in spec_strategy(), picks in prop::collection::vec(any::<u16>(), 1..40), seed in any::<u64>()) {
        let (_, moves) = random_game(&spec, &picks);
        let mut rng = mcts_playground::rng::Rng64::new(seed);
        let variations = random_variations(&AnyGame::from_spec(&spec).unwrap(), &moves, 3, &mut rng);
        let json = |m: &[String], v: &[Variation]| serde_json::json!({"format": "mcts-playground-game", "version": 1, "game": spec, "moves": m, "variations": v}).to_string();
        // The canonical tree (merged where lines repeat) reads back as itself, without a note.
        let canon = parse_game_json(&json(&moves, &variations)).unwrap();
        prop_assert!(canon.moves.starts_with(&moves));
        let again = parse_game_json(&json(&canon.moves, &canon.variations)).unwrap();
        prop_assert_eq!(&again, &Record { notes: vec![], ..canon.clone() });
        if spec.starts_with("hex") {
            let sgf = write_sgf(&spec, &moves, &variations).unwrap();
            let s = parse_sgf(&sgf).unwrap();
            prop_assert_eq!(&s.moves, &canon.moves);
            prop_assert_eq!(&s.variations, &canon.variations);
            prop_assert!(s.notes.is_empty(), "{:?}", s.notes);
            prop_assert_eq!(write_sgf(&s.spec, &s.moves, &s.variations).unwrap(), sgf);
        }
    }

    #[test]
    fn any_text_is_a_record_or_an_error(text in "\\PC{0,64}", sgf in sgf_like(), list in "(hex:[0-9]{1,2}|tictactoe|pentago)[ ,\n]([a-z][0-9]{1,2}[ ,\n#.]{1,2}){0,12}") {
        let _ = parse_any(&text);
        if let Ok(r) = parse_any(&sgf) {
            // A record that reads replays, so it writes.
            prop_assert!(write_move_list(&r.spec, &r.moves).is_ok());
        }
        if let Ok(r) = parse_any(&list) {
            prop_assert_eq!(parse_move_list(&write_move_list(&r.spec, &r.moves).unwrap()).unwrap().moves, r.moves);
        }
    }

    #[test]
    fn presets_with_overrides_round_trip(
        preset in prop::sample::select(SearchConfig::PRESETS.to_vec()),
        c in 0.0f64..=100.0, rave_k in 1.0f64..1e6, pool_k in 1u32..=400, lgr_p in 0.0f64..=1.0, seed in any::<u64>(),
        node_cap in 1u64..=1_000_000_000,
    ) {
        let params: BTreeMap<String, ParamValue> = [
            ("c", c.to_string()), ("rave_k", rave_k.to_string()), ("pool_k", pool_k.to_string()),
            ("lgr_p", lgr_p.to_string()), ("seed", seed.to_string()), ("node_cap", node_cap.to_string()),
        ].into_iter().map(|(k, v)| (k.to_string(), ParamValue::Text(v))).collect();
        let config = engine_config(preset, &params, Some(mcts_playground::limits::PAGE_TREE_LIMITS)).unwrap();
        prop_assert_eq!(config.c, c);
        prop_assert_eq!(config.rave_k, rave_k);
        prop_assert_eq!(config.seed, seed);
        prop_assert_eq!(config.node_cap, node_cap);
        // Every field written as text reads back to the same configuration.
        let json = serde_json::to_value(&config).unwrap();
        let mut again = SearchConfig::preset(preset).unwrap();
        for (k, v) in json.as_object().unwrap() {
            let text = match v { serde_json::Value::String(s) => s.clone(), other => other.to_string() };
            again.set(k, &text).unwrap();
        }
        prop_assert_eq!(again, config);
    }

    #[test]
    fn any_override_is_applied_or_refused(preset in "\\PC{0,8}|uct|rave|best", key in "[a-z_]{0,12}|c|node_cap|value|lgr", value in "\\PC{0,12}|-?[0-9e.]{1,8}|true|NaN|inf") {
        let params: BTreeMap<String, ParamValue> = [(key, ParamValue::Text(value))].into_iter().collect();
        if let Ok(c) = engine_config(&preset, &params, None) {
            prop_assert!(c.validate().is_ok());
        }
    }
}
