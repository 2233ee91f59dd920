//! Every input limit of `docs/limits.md` answered with a clear error, and the regressions the
//! fuzzers found (each test names its finding).

use std::collections::BTreeMap;

use mcts_playground::game::AnyGame;
use mcts_playground::limits::{
    abbreviate, MAX_ARENA_GAMES, MAX_BOARD_SIDE, MAX_ECHO_CHARS, MAX_NET_BYTES, MAX_RECORD_BYTES, PAGE_NODE_CAP,
};
use mcts_playground::mcts::{AnySearch, Budget, ParamValue, SearchConfig, StopReason};
use mcts_playground::nn::{models, Mlp, NetError, MAGIC};
use mcts_playground::record::{parse_any, parse_move_list, parse_sgf, RecordError, SgfError, SgfSyntax, MAX_SGF_DEPTH};
use mcts_playground::request::{engine_config, run_budget};

#[test]
fn longest_record() {
    // A legal record padded with a comment to just under the limit reads; one byte more does not.
    let head = "# ";
    let body = "\nhex:7\nd4 c5\n";
    let pad = MAX_RECORD_BYTES - head.len() - body.len();
    let text = format!("{head}{}{body}", "x".repeat(pad));
    assert_eq!(text.len(), MAX_RECORD_BYTES);
    assert_eq!(parse_move_list(&text).unwrap().moves, ["d4", "c5"]);
    let longer = format!("{text} ");
    let e = parse_any(&longer).unwrap_err();
    assert_eq!(e, RecordError::TooLong { len: MAX_RECORD_BYTES + 1, max: MAX_RECORD_BYTES });
    assert_eq!(e.to_string(), "the record is 1000001 bytes long; records of at most 1000000 bytes are read");
    let sgf = format!("(;GM[11]SZ[7]C[{}];B[d4])", "y".repeat(MAX_RECORD_BYTES));
    assert!(matches!(parse_sgf(&sgf), Err(RecordError::TooLong { .. })));
}

/// Finding: SGF variations nested 10,000 deep (the former limit) recurse deeper than a
/// WebAssembly stack holds, which traps and kills the worker. Now refused past
/// `MAX_SGF_DEPTH` (1,000); checked here on a 1 MB stack, the size of the wasm stack.
#[test]
fn deeply_nested_sgf_is_refused_within_a_small_stack() {
    let run = |depth: usize| {
        std::thread::Builder::new()
            .stack_size(1 << 20)
            .spawn(move || {
                let text = format!("{}{}", "(;GM[11]SZ[5]".repeat(depth), ")".repeat(depth));
                parse_sgf(&text)
            })
            .unwrap()
            .join()
            .expect("no stack overflow")
    };
    let e = run(MAX_SGF_DEPTH + 5).unwrap_err();
    assert!(matches!(e, RecordError::Sgf(SgfError::Syntax { syntax: SgfSyntax::TooDeep, .. })), "{e}");
    assert!(e.to_string().contains("variations nested too deeply"), "{e}");
    // The same on the largest record the limit lets through.
    let e = run(MAX_RECORD_BYTES / 14).unwrap_err();
    assert!(matches!(e, RecordError::Sgf(SgfError::Syntax { syntax: SgfSyntax::TooDeep, .. })), "{e}");
    // Nesting within the limit reads (main line only).
    let r = run(50).unwrap();
    assert_eq!(r.spec, "hex:5");
}

/// Finding: a network file of any size was read whole; the page's `loadNet` now checks a chosen
/// file's size first, and the engine refuses a file longer than the format can hold before
/// reading it.
#[test]
fn longest_net_file() {
    let mut bytes = vec![0u8; MAX_NET_BYTES + 1];
    bytes[..MAGIC.len()].copy_from_slice(MAGIC);
    let e = Mlp::from_bytes(&bytes).unwrap_err();
    assert_eq!(e, NetError::TooLong { len: MAX_NET_BYTES + 1, max: MAX_NET_BYTES });
    assert_eq!(e.to_string(), "the weights file is 71442530 bytes long; weights files of at most 71442529 bytes are read");
    assert_eq!(models::register(&bytes, Some("big")).unwrap_err(), e);
    // At the limit the file is read (and refused for what it holds, not for its length).
    bytes.pop();
    assert!(!matches!(Mlp::from_bytes(&bytes), Err(NetError::TooLong { .. })));
}

#[test]
fn largest_board() {
    assert!(AnyGame::from_spec(&format!("hex:{MAX_BOARD_SIDE}")).is_ok());
    let e = AnyGame::from_spec(&format!("hex:{}", MAX_BOARD_SIDE + 1)).unwrap_err();
    assert!(e.to_string().contains("19"), "{e}");
    let e = AnyGame::from_spec("hex:99999999999999999999999").unwrap_err();
    assert!(e.to_string().contains("hex:99999999999999999999999"), "{e}");
    let e = parse_sgf("(;GM[11]SZ[20])").unwrap_err();
    assert_eq!(e.to_string(), "SGF: SZ[20]: Hex sizes 1 to 19 are supported");
}

#[test]
fn largest_budget() {
    assert!(run_budget(8.0, Some(9_007_199_254_740_991.0)).is_ok());
    let e = run_budget(8.0, Some(9_007_199_254_740_992.0 * 2.0)).unwrap_err();
    assert_eq!(e.to_string(), "iterations must be a number in 0..=2^53-1, got 1.8014398509481984e16");
    assert!(run_budget(f64::NAN, None).is_err());
    // A whole request's budget (`budget.value` over 2^53 − 1) is refused where the worker
    // decodes its requests: `parseRequest`, www/src/protocol.test.ts.
}

#[test]
fn node_cap_keeps_the_tree_and_says_so() {
    // The page's default cap, and the range of `node_cap`.
    let c = engine_config("rave", &BTreeMap::new(), Some(mcts_playground::limits::PAGE_TREE_LIMITS)).unwrap();
    assert_eq!(c.node_cap, PAGE_NODE_CAP);
    let over: BTreeMap<String, ParamValue> = [("node_cap".to_string(), ParamValue::Int(2_000_000_000))].into();
    let e = engine_config("rave", &over, Some(mcts_playground::limits::PAGE_TREE_LIMITS)).unwrap_err();
    assert!(e.to_string().contains("node_cap = 2000000000 is out of range [1, 1e9]"), "{e}");
    // At the cap the tree stops growing; the search goes on improving its statistics.
    let mut config = SearchConfig::preset("uct").unwrap();
    config.node_cap = 500;
    let g = AnyGame::from_spec("hex:7").unwrap();
    let mut s = AnySearch::new(&g, config.clone()).unwrap();
    let report = s.run(Budget::iterations(5_000), &|| 0.0);
    assert_eq!(report.iterations, 5_000);
    let nodes = s.node_count();
    assert!((500..=550).contains(&nodes), "the tree stops near the cap: {nodes}");
    assert_eq!(s.stats().playouts, 5_000);
    assert!(s.best_move_text().is_some());
    // With `stop_at_node_cap` the search stops and says why, tree kept.
    config.stop_at_node_cap = true;
    let mut s = AnySearch::new(&g, config).unwrap();
    let report = s.run(Budget::iterations(5_000), &|| 0.0);
    assert_eq!(report.stop, StopReason::NodeCap);
    assert!(report.iterations < 5_000);
    assert!(s.node_count() >= 500);
    assert!(s.best_move_text().is_some());
}

// The sizes of a worker request (moves, step iterations, snapshot nodes) are checked where the
// worker decodes its requests, `parseRequest` in www/src/protocol.ts (tested in
// protocol.test.ts), with these limits through the generated schema; arena records by
// `ArenaRecord::checked` (src/request.rs).

/// Finding (proptest `presets_with_overrides_round_trip`): `--set c=90.22720088752577` gave
/// c = 90.22720088752575, because serde_json's default float reader is not exact. Now with its
/// `float_roundtrip` feature every f64 written as text reads back to itself.
#[test]
fn config_values_read_exactly() {
    let mut c = SearchConfig::preset("uct").unwrap();
    for v in [90.22720088752577_f64, 0.1, 1.0 / 3.0, 99.99999999999999] {
        c.set("c", &v.to_string()).unwrap();
        assert_eq!(c.c, v);
    }
}

/// Finding: `mcts arena --ms NaN` (also `inf`, `1e300`) never ended: arena's `--ms` skipped the
/// range check of `search` and `gtp`. Every verb's `--ms` now goes through the one parser.
#[test]
fn command_line_budget_is_checked() {
    let verbs: [&[&str]; 3] = [
        &["search", "--game", "tictactoe"],
        &["gtp", "--game", "tictactoe"],
        &["arena", "--game", "tictactoe", "--a", "uct", "--b", "uct"],
    ];
    for verb in verbs {
        for ms in ["inf", "NaN", "-5", "1e300", "soon"] {
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_mcts"))
                .args(verb)
                .arg(format!("--ms={ms}"))
                .stdin(std::process::Stdio::null())
                .output()
                .expect("run mcts");
            assert_eq!(out.status.code(), Some(2), "{verb:?} --ms {ms} is refused as a usage error");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains("--ms") && (err.contains("out of range") || err.contains("not a number")), "{verb:?}: {err}");
        }
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mcts"))
        .args(["arena", "--game", "tictactoe", "--a", "uct", "--b", "uct", "--ms", "inf"])
        .output()
        .expect("run mcts");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("invalid value 'inf' for '--ms <MS>': inf is out of range"), "{err}");
}

/// Finding: `mcts arena --games 4294967296` aborted (a 206 GB allocation for the records, exit
/// 134) and `--games 18446744073709551615` panicked ("capacity overflow"). The count is now
/// checked when the arguments are read, against `MAX_ARENA_GAMES`, and nothing is allocated
/// from it.
#[test]
fn arena_games_limit() {
    let arena = |games: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_mcts"))
            .args(["arena", "--game", "tictactoe", "--a", "uct", "--b", "uct", "--iterations", "20", "--json"])
            .arg(format!("--games={games}"))
            .output()
            .expect("run mcts")
    };
    for games in ["4294967296", "18446744073709551615", "18446744073709551616", &(MAX_ARENA_GAMES + 1).to_string(), "-1", "many"] {
        let out = arena(games);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "--games {games}: {err}");
        assert!(err.contains(&format!("invalid value '{games}' for '--games <GAMES>'")), "{err}");
        assert!(!err.contains("panicked") && !err.contains("memory allocation"), "{err}");
        if games.bytes().all(|b| b.is_ascii_digit()) && games.len() < 20 {
            assert!(err.contains("at most 1000000 games per match"), "{err}");
        }
    }
    let out = arena("3");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["games"], 3);
}

/// Finding: error messages quoted their input whole (a 1,000,000-move record gave a
/// 3,000,093-character message on the page). Every quotation is now cut by
/// `limits::abbreviate`: the message stays short and still names the problem.
#[test]
fn error_messages_quote_inputs_abbreviated() {
    let bounded = |e: &dyn std::fmt::Display, says: &str| {
        let m = e.to_string();
        assert!(m.chars().count() <= 5 * MAX_ECHO_CHARS, "{} characters: {}", m.chars().count(), abbreviate(&m));
        assert!(m.contains(says), "{m}");
    };
    let huge = "q".repeat(MAX_RECORD_BYTES - 100);
    // A move list whose move is a megabyte of garbage, and one with a megabyte of a spec.
    bounded(&parse_any(&format!("hex:7\nd4 {huge}")).unwrap_err(), "move 2 'qqq");
    bounded(&parse_any(&format!("{huge}\nd4")).unwrap_err(), "unknown game 'qqq");
    bounded(&parse_any(&format!("hex:{huge}")).unwrap_err(), "bad spec 'hex:qqq");
    bounded(&parse_any(&format!("pentago:{huge}")).unwrap_err(), "unknown pentago option 'qqq");
    bounded(&parse_any(&format!("pentago\n{huge}-TL-cw")).unwrap_err(), "move 1 'qqq");
    // SGF: a megabyte of garbage in the move, the game, the size, PL, a property identifier;
    // a megabyte of comment reads.
    bounded(&parse_any(&format!("(;GM[11]SZ[7];B[{huge}])")).unwrap_err(), "move 1");
    bounded(&parse_any(&format!("(;GM[{huge}]SZ[7])")).unwrap_err(), "is not Hex (GM[11])");
    bounded(&parse_any(&format!("(;GM[11]SZ[{huge}])")).unwrap_err(), "is not a board size");
    bounded(&parse_any(&format!("(;GM[11]SZ[7]AB[a1]PL[{huge}])")).unwrap_err(), "cannot be represented");
    bounded(&parse_any(&format!("(;GM[11]SZ[7]{})", "Q".repeat(MAX_RECORD_BYTES - 100))).unwrap_err(), "has no value");
    let r = parse_any(&format!("(;GM[11]SZ[7]C[{huge}];B[d4])")).unwrap();
    assert_eq!(r.moves, ["d4"]);
    // What a request carries: a megabyte of spec, a long preset and setting (a million moves:
    // `parseRequest`, www/src/protocol.test.ts).
    bounded(&AnyGame::from_spec(&huge).unwrap_err(), "unknown game");
    bounded(&engine_config(&huge, &BTreeMap::new(), None).unwrap_err(), "unknown preset 'qqq");
    let set: BTreeMap<String, ParamValue> = [(huge.clone(), ParamValue::Int(1))].into();
    bounded(&engine_config("uct", &set, None).unwrap_err(), "unknown config key 'qqq");
    let set: BTreeMap<String, ParamValue> = [("c".to_string(), ParamValue::Text(huge.clone()))].into();
    bounded(&engine_config("uct", &set, None).unwrap_err(), "bad value 'qqq");
    // The command line: a move of 100,000 characters (one argument holds at most 128 KiB).
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mcts"))
        .args(["replay", "--game", "hex:7", "--moves"])
        .arg(format!("d4 {}", "z".repeat(100_000)))
        .output()
        .expect("run mcts");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.len() < 1_000 && err.starts_with("mcts: move 2 ('zzz"), "{err}");
}
