//! The `mcts` command line: verbs, exit codes and `--json` keys (a contract).

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

fn mcts(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mcts")).args(args).output().expect("run mcts");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

#[test]
fn replay_json_keys() {
    let (ok, out, _) = mcts(&["replay", "--game", "tictactoe", "--moves", "a1 b1 b2 c1 c3", "--json"]);
    assert!(ok);
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["board"], "XOO/.X./..X");
    assert_eq!(v["to_move"], Value::Null);
    assert_eq!(v["legal_count"], 0);
    assert_eq!(v["terminal"], true);
    assert_eq!(v["returns"], serde_json::json!([1.0, -1.0]));
    assert_eq!(v["winner"], 0);
}

/// `mcts schema --json`: what `www/src/generated/` is written from (keys are a contract too).
#[test]
fn schema_json_keys() {
    let (ok, out, _) = mcts(&["schema", "--json"]);
    assert!(ok);
    let v: Value = serde_json::from_str(&out).unwrap();
    let c = v["parameters"].as_array().unwrap().iter().find(|p| p["name"] == "c").unwrap();
    assert_eq!(c["type"], "number");
    assert_eq!(c["range"], serde_json::json!({"min": 0.0, "max": 100.0, "min_open": false, "text": "[0, 100]"}));
    assert_eq!(c["what"], "the exploration constant c");
    assert!(c["source"].as_str().unwrap().starts_with("src/mcts/config.rs"));
    let lgr = v["parameters"].as_array().unwrap().iter().find(|p| p["name"] == "lgr").unwrap();
    assert_eq!(lgr["values"], serde_json::json!(["off", "lgr1", "lgrf1", "lgrf2"]));
    let az = v["presets"].as_array().unwrap().iter().find(|p| p["name"] == "alphazero").unwrap();
    assert_eq!(az["needs_net"], true);
    assert_eq!(az["changes"]["leaf"], "value");
    assert!(az["description"].as_str().unwrap().contains("AlphaZero"));
    assert_eq!(v["limits"]["MAX_REQUEST_MOVES"], 1000);
    // The same bytes the page's copy holds (the Rust unit test compares the library's output).
    let on_disk = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/www/src/generated/schema.json")).unwrap();
    assert_eq!(out, on_disk);
}

#[test]
fn replay_names_the_bad_move() {
    let (ok, _, err) = mcts(&["replay", "--game", "tictactoe", "--moves", "a1 b2 a1"]);
    assert!(!ok);
    assert!(err.contains("move 3") && err.contains("a1"), "{err}");
    let (ok, _, err) = mcts(&["replay", "--game", "tictactoe", "--moves", "zz"]);
    assert!(!ok);
    assert!(err.contains("move 1") && err.contains("zz"), "{err}");
    let (ok, _, err) = mcts(&["replay", "--game", "chess"]);
    assert!(!ok);
    assert!(err.contains("unknown game"), "{err}");
}

/// User text quoted in an error (a move, a spec, an argument clap refuses) is shown with its
/// control characters written out: a terminal escape in `--moves` used to reach the terminal.
#[test]
fn control_characters_in_refused_arguments_are_quoted() {
    let raw = |err: &str| err.chars().any(|c| c.is_control() && c != '\n');
    let (ok, _, err) = mcts(&["replay", "--game", "hex:3", "--moves", "a1 \u{1b}[31mzz"]);
    assert!(!ok);
    assert!(err.contains(r"move 2 ('\u{1b}[31mzz')") && !raw(&err), "{err:?}");
    let (ok, _, err) = mcts(&["search", "--game", "hex:\u{1b}]0;title\u{7}3", "--iterations", "10"]);
    assert!(!ok);
    assert!(err.contains(r"'hex:\u{1b}]0;title\u{7}3'") && !raw(&err), "{err:?}");
    let (ok, _, err) = mcts(&["search", "--game", "hex:3", "--moves", "a1\rb2\u{9b}2J"]);
    assert!(!ok);
    assert!(!raw(&err), "{err:?}");
    // Refused by the argument reader (exit 2), in its own words.
    let out = Command::new(env!("CARGO_BIN_EXE_mcts")).args(["arena", "--game", "hex:3", "--games", "\u{1b}[2J"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(r"invalid value '\u{1b}[2J' for '--games <GAMES>'") && !raw(&err), "{err:?}");
}

#[test]
fn search_json_keys() {
    let (ok, out, err) =
        mcts(&["search", "--game", "tictactoe", "--moves", "a1 b1 b2", "--algo", "uct", "--iterations", "3000", "--seed", "5", "--json"]);
    assert!(ok, "{err}");
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    for key in ["best_move", "pv", "proven", "iterations", "children"] {
        assert!(v.get(key).is_some(), "missing key {key}");
    }
    assert_eq!(v["iterations"], 3000);
    let c = &v["children"][0];
    for key in ["move", "visits", "q"] {
        assert!(c.get(key).is_some(), "child missing {key}");
    }
    // X threatens c3 (diagonal): the engine must block or win; c3 is both here.
    assert_eq!(v["best_move"], "c3");
    // Determinism: same seed, same output.
    let (_, out2, _) =
        mcts(&["search", "--game", "tictactoe", "--moves", "a1 b1 b2", "--algo", "uct", "--iterations", "3000", "--seed", "5", "--json"]);
    let v2: Value = serde_json::from_str(out2.trim()).unwrap();
    assert_eq!(v["children"], v2["children"]);
}

#[test]
fn search_rejects_bad_settings() {
    let (ok, _, err) = mcts(&["search", "--game", "tictactoe", "--algo", "nonsense"]);
    assert!(!ok && !err.is_empty());
    let (ok, _, err) = mcts(&["search", "--game", "tictactoe", "--set", "c"]);
    assert!(!ok && err.contains("key=value"), "{err}");
}

#[test]
fn solver_proves_tictactoe_draw_from_cli() {
    let (ok, out, err) = mcts(&["search", "--game", "tictactoe", "--algo", "solver", "--iterations", "1000000", "--json"]);
    assert!(ok, "{err}");
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["proven"], "draw");
}

#[test]
fn arena_totals_add_up() {
    let (ok, out, err) =
        mcts(&["arena", "--game", "tictactoe", "--a", "uct", "--b", "uct", "--games", "6", "--iterations", "200", "--json"]);
    assert!(ok, "{err}");
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    let total = v["wins"].as_u64().unwrap() + v["draws"].as_u64().unwrap() + v["losses"].as_u64().unwrap();
    assert_eq!(total, 6);
    assert_eq!(v["records"].as_array().unwrap().len(), 6);
    let ci = v["win_rate_ci95"].as_array().unwrap();
    assert!(ci[0].as_f64().unwrap() <= v["win_rate"].as_f64().unwrap());
    // Colours alternate: A moves first in even games.
    assert_eq!(v["records"][0]["a_first"], true);
    assert_eq!(v["records"][1]["a_first"], false);
    // Same seed → same games, whatever the thread count.
    let (_, out1, _) = mcts(&[
        "arena",
        "--game",
        "tictactoe",
        "--a",
        "uct",
        "--b",
        "uct",
        "--games",
        "6",
        "--iterations",
        "200",
        "--threads",
        "1",
        "--json",
    ]);
    let v1: Value = serde_json::from_str(out1.trim()).unwrap();
    assert_eq!(v["records"], v1["records"]);
}

/// Issue 36: `--openings all` plays every first move twice, colours swapped (games 2j and 2j+1
/// share opening j, A first in the even one); the per-colour counts add up to the totals; the
/// records begin with the opening; the same seed gives the same standings on any thread count.
#[test]
fn arena_openings_each_played_twice_colours_swapped() {
    let args =
        ["arena", "--game", "tictactoe", "--a", "uct", "--b", "rave", "--openings", "all", "--iterations", "40", "--seed", "3", "--json"];
    let (ok, out, err) = mcts(&args);
    assert!(ok, "{err}");
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    // Default --games on openings: one round, two games per opening.
    assert_eq!((v["games"].as_u64(), v["openings"].as_str(), v["opening_count"].as_u64()), (Some(18), Some("all"), Some(9)));
    let recs = v["records"].as_array().unwrap();
    assert_eq!(recs.len(), 18);
    let mut firsts = Vec::new();
    for (j, pair) in recs.chunks(2).enumerate() {
        assert_eq!((pair[0]["index"].as_u64(), pair[1]["index"].as_u64()), (Some(2 * j as u64), Some(2 * j as u64 + 1)));
        assert_eq!((pair[0]["a_first"].as_bool(), pair[1]["a_first"].as_bool()), (Some(true), Some(false)), "colours swapped");
        assert_eq!(pair[0]["moves"][0], pair[1]["moves"][0], "one opening for both colours");
        assert_eq!((pair[0]["opening_plies"].as_u64(), pair[1]["opening_plies"].as_u64()), (Some(1), Some(1)));
        firsts.push(pair[0]["moves"][0].as_str().unwrap().to_string());
    }
    assert_eq!(firsts, ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"], "every first move once");
    let n = |k: &str| v[k].as_u64().unwrap_or_else(|| panic!("missing key {k}"));
    assert_eq!((n("a_first_games"), n("a_second_games")), (9, 9));
    assert_eq!(n("a_first_wins") + n("a_second_wins"), n("wins"));
    assert_eq!(n("a_first_draws") + n("a_second_draws"), n("draws"));
    assert_eq!(n("a_first_losses") + n("a_second_losses"), n("losses"));
    assert_eq!(n("a_first_wins") + n("a_first_draws") + n("a_first_losses"), 9);
    assert_eq!(n("first_player_wins"), n("a_first_wins") + n("a_second_losses"));
    assert_eq!(n("second_player_wins"), n("a_second_wins") + n("a_first_losses"));
    assert_eq!(n("first_player_wins") + n("second_player_wins") + n("draws"), 18);
    // The first player is player 0 in every game: its wins are the records' winner 0.
    assert_eq!(recs.iter().filter(|r| r["winner"] == 0).count() as u64, n("first_player_wins"));
    // Reproducible: the same seed on one thread gives the same games and standings.
    let (ok, out1, err) = mcts(&[&args[..], &["--threads", "1"]].concat());
    assert!(ok, "{err}");
    let v1: Value = serde_json::from_str(out1.trim()).unwrap();
    for k in ["records", "wins", "draws", "losses", "a_first_wins", "a_second_wins", "first_player_wins", "win_rate", "elo"] {
        assert_eq!(v[k], v1[k], "{k}");
    }
    // The table names the split.
    let (ok, table, err) = mcts(&args[..args.len() - 1]);
    assert!(ok, "{err}");
    assert!(table.contains("on all 9 first moves, colours swapped") && table.contains("A first") && table.contains("A second"), "{table}");
    assert!(table.contains(&format!("the first player won {} of 18 games", n("first_player_wins"))), "{table}");
}

/// `--openings FILE`: one opening a line, `#` comments and blank lines skipped, moves kept in
/// the game's spelling; every line is checked before a game is played, and the first bad one
/// is named by its line number and move.
#[test]
fn arena_openings_file_is_checked_line_by_line() {
    let dir = std::env::temp_dir().join(format!("mcts-openings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let good = file("good.txt", "# two openings\n\nB2 a1   # the centre, then a corner\nc3\n");
    let (ok, out, err) =
        mcts(&["arena", "--game", "tictactoe", "--a", "uct", "--b", "uct", "--openings", &good, "--iterations", "30", "--json"]);
    assert!(ok, "{err}");
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!((v["games"].as_u64(), v["opening_count"].as_u64(), v["openings"].as_str()), (Some(4), Some(2), Some(good.as_str())));
    let recs = v["records"].as_array().unwrap();
    assert_eq!(recs[0]["moves"].as_array().unwrap()[..2], [Value::from("b2"), Value::from("a1")]);
    assert_eq!(recs[1]["moves"].as_array().unwrap()[..2], [Value::from("b2"), Value::from("a1")]);
    assert_eq!(recs[2]["moves"][0], "c3");
    assert_eq!((recs[0]["opening_plies"].as_u64(), recs[2]["opening_plies"].as_u64()), (Some(2), Some(1)));
    for (name, text, says) in [
        ("bad-move.txt", "a1\n# fine so far\nb2 zz c3\n", "line 3: move 2 ('zz'): "),
        ("occupied.txt", "a1 a1\n", "line 1: move 2 ('a1'): "),
        ("over.txt", "b2\na1 b1 a2 b2 a3\n", "line 2: the game is over after this opening"),
        ("empty.txt", "# nothing\n\n", "no openings: every line is blank or a # comment"),
    ] {
        let p = file(name, text);
        let (ok, out, err) = mcts(&["arena", "--game", "tictactoe", "--a", "uct", "--b", "uct", "--openings", &p, "--iterations", "30"]);
        assert!(!ok && out.is_empty(), "{name}: no game is played: {out}");
        assert!(err.starts_with(&format!("mcts: --openings {p}: {says}")), "{name}: {err}");
    }
    let missing = dir.join("missing.txt");
    let (ok, _, err) = mcts(&["arena", "--game", "tictactoe", "--a", "uct", "--b", "uct", "--openings", missing.to_str().unwrap()]);
    assert!(!ok && err.contains("missing.txt") && err.contains("No such file"), "{err}");
    // Not a regular file: refused before it is opened (reading /dev/zero would never end).
    let (ok, _, err) = mcts(&["arena", "--game", "tictactoe", "--a", "uct", "--b", "uct", "--openings", "/dev/zero"]);
    assert!(!ok && err.starts_with("mcts: --openings /dev/zero: a device, not a file of openings"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Hex without the swap rule is a first-player win: its matches default to all openings (the
/// old behaviour is `--openings none`); Hex with the swap rule and other games default to none.
/// A `--games` that is not a whole number of rounds is played, with a note on standard error.
#[test]
fn arena_hex_without_swap_defaults_to_all_openings() {
    let run = |extra: &[&str]| {
        let (ok, out, err) = mcts(&[&["arena", "--a", "uct", "--b", "uct", "--iterations", "20", "--json"][..], extra].concat());
        assert!(ok, "{extra:?}: {err}");
        (serde_json::from_str::<Value>(out.trim()).unwrap(), err)
    };
    let (v, err) = run(&["--game", "hex:2"]);
    assert_eq!((v["openings"].as_str(), v["opening_count"].as_u64(), v["games"].as_u64()), (Some("all"), Some(4), Some(8)));
    assert!(err.is_empty(), "{err}");
    let (v, _) = run(&["--game", "hex:2", "--openings", "none", "--games", "4"]);
    assert_eq!((v["openings"].as_str(), v["opening_count"].as_u64()), (Some("none"), Some(0)));
    assert!(v["records"].as_array().unwrap().iter().all(|r| r.get("opening_plies").is_none()), "from the empty board");
    let (v, _) = run(&["--game", "hex:2:swap", "--games", "2"]);
    assert_eq!(v["openings"], "none");
    let (v, err) = run(&["--game", "hex:2", "--games", "5"]);
    assert_eq!(v["games"], 5);
    assert!(err.contains("note: 5 games on 4 openings: not a whole number of rounds (8 games each"), "{err}");
}

#[test]
fn arena_time_budget_on_the_thread_cpu_clock() {
    // `--clock cpu`: the per-move budget is the searching thread's CPU time; the JSON says which
    // clock was used (wall by default). Only the outcome is checked, never a duration.
    let args = ["arena", "--game", "tictactoe", "--a", "uct", "--b", "rave", "--games", "2", "--ms", "2", "--json"];
    let (ok, out, err) = mcts(&[&args[..], &["--clock", "cpu"]].concat());
    assert!(ok, "{err}");
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["clock"], "cpu");
    assert_eq!(v["games"], 2);
    let (ok, out, err) = mcts(&args);
    assert!(ok, "{err}");
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["clock"], "wall");
    let (ok, _, err) = mcts(&[&args[..], &["--clock", "sundial"]].concat());
    assert!(!ok && err.contains("sundial"), "{err}");
}

#[test]
fn gtp_session() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcts"))
        .args(["gtp", "--game", "tictactoe", "--iterations", "2000"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"protocol_version\n7 name\nplay b b2\nplay b a1\nplay w zz\ngenmove w\nundo\nundo\nshowboard\nlist_commands\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let replies: Vec<&str> = text.split("\n\n").filter(|r| !r.trim().is_empty()).collect();
    assert_eq!(replies[0], "= 2");
    assert_eq!(replies[1], "=7 mcts-playground");
    assert_eq!(replies[2], "=");
    assert!(replies[3].starts_with("? it is white's turn"), "{}", replies[3]);
    assert!(replies[4].starts_with("? illegal move"), "{}", replies[4]);
    assert!(replies[5].starts_with("= "), "genmove answers a move: {}", replies[5]);
    assert_eq!(replies[6], "=");
    assert_eq!(replies[7], "=");
    assert!(replies[8].contains(". . ."), "{}", replies[8]);
    assert!(replies[9].contains("genmove"));
    assert_eq!(replies[10], "=");
}

#[test]
fn solve_json_keys_and_errors() {
    let (ok, out, err) = mcts(&["solve", "--game", "hex:3", "--json"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["winner"], "black");
    assert_eq!(v["to_move"], "black");
    assert!(v["winning_move"].is_string() && v["nodes"].as_u64().unwrap() > 0);
    // The keys the endgame solver added: a win for the side to move, its winning move the best.
    assert_eq!((v["value"].as_str(), &v["best_move"]), (Some("win"), &v["winning_move"]));
    let (ok, out, err) = mcts(&["solve", "--game", "hex:4", "--openings", "--json"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let wins: Vec<&str> =
        v["openings"].as_array().unwrap().iter().filter(|o| o["mover_wins"] == true).map(|o| o["move"].as_str().unwrap()).collect();
    assert_eq!(wins, ["d1", "c2", "b3", "a4"]);
    assert_eq!(v["mover_wins"], 4);
    assert_eq!(v["mover_draws"], 0);
    assert!(v["openings"].as_array().unwrap().iter().all(|o| o["value"] == if o["mover_wins"] == true { "win" } else { "loss" }));
    assert_eq!(v["solver"], "dfpn");
    // The negamax and the proof-number solver agree move by move.
    let (ok, neg, err) = mcts(&["solve", "--game", "hex:4", "--openings", "--json", "--solver", "negamax"]);
    assert!(ok, "{err}");
    let neg: serde_json::Value = serde_json::from_str(&neg).unwrap();
    assert_eq!(neg["solver"], "negamax");
    for (a, b) in v["openings"].as_array().unwrap().iter().zip(neg["openings"].as_array().unwrap()) {
        assert_eq!((&a["move"], &a["winner"]), (&b["move"], &b["winner"]));
    }
    let (ok, out, err) = mcts(&["solve", "--game", "hex:5", "--moves", "c3", "--json", "--tt-mib", "16"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!((v["winner"].as_str(), v["to_move"].as_str()), (Some("black"), Some("white")));
    assert!(v["mid_calls"].as_u64().unwrap() > 0 && v["tt_entries"].as_u64().unwrap() > 0);
    for bad in [
        &["solve", "--game", "pentago"][..],
        &["solve", "--game", "hex:5:swap"],
        &["solve", "--game", "hex:9"],
        // (The empty 5×5 board is settled at its root by a virtual connection; 7×7 is not.)
        &["solve", "--game", "hex:7", "--max-nodes", "5"],
        &["solve", "--game", "hex:5", "--max-nodes", "5", "--solver", "negamax"],
    ] {
        let (ok, _, err) = mcts(bad);
        assert!(!ok && err.starts_with("mcts: "), "{bad:?}: {err}");
    }
    // Option values are checked as the command line is read (clap's message names the option).
    for (bad, option) in [
        (&["solve", "--game", "hex:5", "--time", "NaN"][..], "--time"),
        (&["solve", "--game", "hex:5", "--tt-mib", "8"], "--tt-mib"),
        (&["solve", "--game", "hex:5", "--solver", "magic"], "--solver"),
    ] {
        let (ok, _, err) = mcts(bad);
        assert!(!ok && err.starts_with("error: invalid value") && err.contains(option), "{bad:?}: {err}");
    }
}

/// The solvers' tables take what the position needs, within one `--tt-mib` for all threads
/// (issue 48): Hex 3×3 with a 1 GiB budget keeps a table of 64 KiB (it took the whole GiB
/// before); `--openings --threads 8` shares the default 256 MiB (each thread had 256 MiB of its
/// own before, and the main thread one more); the largest budget on 4 threads runs under an
/// address-space limit far below it (it aborted before, allocating 5 × 16 GiB); and the Hex
/// negamax honours `--time` (it ignored it and ran to its node budget).
#[test]
fn solve_tables_grow_as_needed_within_one_budget() {
    let json = |args: &[&str]| -> Value {
        let (ok, out, err) = mcts(args);
        assert!(ok, "{args:?}: {err}");
        serde_json::from_str(out.trim()).unwrap()
    };
    let v = json(&["solve", "--game", "hex:3", "--tt-mib", "1024", "--json"]);
    assert_eq!(v["tt_max_bytes"], 1u64 << 30);
    assert!(v["tt_bytes"].as_u64().unwrap() <= 64 << 10, "{v}");
    for solver in ["dfpn", "negamax"] {
        let v = json(&["solve", "--game", "hex:4", "--openings", "--threads", "8", "--solver", solver, "--json"]);
        assert_eq!(v["mover_wins"], 4);
        let (used, max) = (v["tt_bytes"].as_u64().unwrap(), v["tt_max_bytes"].as_u64().unwrap());
        assert!(used <= max && max <= 256 << 20, "{solver}: {used} of {max} bytes");
    }
    // 4 threads and the largest budget under a 2 GB address-space limit (`ulimit -v`).
    let exe = env!("CARGO_BIN_EXE_mcts");
    let out = Command::new("sh")
        .args(["-c", &format!("ulimit -v 2000000 && exec '{exe}' solve --game hex:5 --openings --threads 4 --tt-mib 16384 --json")])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}: {err}", out.status);
    let v: Value = serde_json::from_str(String::from_utf8_lossy(&out.stdout).trim()).unwrap();
    assert_eq!((v["mover_wins"].as_u64(), v["unknown"].as_u64()), (Some(13), Some(0)), "{v}");
    assert!(v["tt_max_bytes"].as_u64().unwrap() <= 16384 << 20);
    // A table's growth that the system refuses (under a 700 MB address-space limit, the largest
    // budget on a 16-empty Pentago endgame that fills its table) is a note, and the solve goes
    // on with the table it has (it aborted before, allocating 12 GiB up front).
    let out = Command::new("sh")
        .args(["-c", &format!("ulimit -v 700000 && exec '{exe}' solve --game pentago --moves '{PENTAGO_16_EMPTY}' --tt-mib 16384 --json")])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}: {err}", out.status);
    assert!(err.starts_with("mcts: note: the exact solver's transposition table could not have "), "{err}");
    let v: Value = serde_json::from_str(String::from_utf8_lossy(&out.stdout).trim()).unwrap();
    assert_eq!(v["value"], "win");
    assert!(v["tt_note"].as_str().unwrap().contains("the solver went on with the table it had"), "{v}");
    assert!(v["tt_bytes"].as_u64().unwrap() < 700_000 << 10);
    // The negamax stops at --time with the other solvers' outcome (the empty 6×6 board needs far
    // more than a tenth of a second of its search).
    let (ok, _, err) = mcts(&["solve", "--game", "hex:6", "--solver", "negamax", "--time", "0.1"]);
    assert!(!ok && err.contains("not solved within 0.1 s (--time)"), "{err}");
    let v = json(&["solve", "--game", "hex:6", "--solver", "negamax", "--openings", "--time", "0.05", "--json"]);
    assert_eq!(v["unknown"], 36, "every opening unknown within the time: {v}");
}

/// A Pentago position with 16 empty cells (20 stones placed; the fourth of that size in
/// `tests/data/pentago-endgames.jsonl`): a win for Black in about 68,000 positions.
const PENTAGO_16_EMPTY: &str = "b3-TR-cw f6-TR-cw a3-TR-cw c2-BR-ccw d3-BR-ccw f4-BL-cw f3-BL-ccw d5-BL-cw e4-TR-ccw c3-TR-cw a6-BR-cw e6-BR-ccw b2-TR-cw e3-TL-ccw f1-TR-ccw c4-TL-cw e6-BL-cw d2-TL-cw c4-TL-cw c3-BL-ccw";

/// Tic-Tac-Toe and Pentago endgames through `mcts solve` (the alpha-beta endgame solver): the
/// keys of Hex's report plus `value` (win/draw/loss for the side to move), `best_move` and
/// `mover_draws`; `winner` null for a draw; players named x and o in Tic-Tac-Toe.
#[test]
fn solve_tic_tac_toe_and_pentago_endgames() {
    let json = |args: &[&str]| -> serde_json::Value {
        let (ok, out, err) = mcts(args);
        assert!(ok, "{args:?}: {err}");
        serde_json::from_str(&out).unwrap()
    };
    let v = json(&["solve", "--game", "tictactoe", "--json"]);
    assert_eq!((v["value"].as_str(), v["solver"].as_str(), v["to_move"].as_str()), (Some("draw"), Some("alphabeta"), Some("x")));
    assert!(v["winner"].is_null() && v["winning_move"].is_null(), "{v}");
    assert!(v["best_move"].is_string() && v["nodes"].as_u64().unwrap() > 0, "{v}");
    // X to move wins with c1 (O threatens c2).
    let v = json(&["solve", "--game", "tictactoe", "--moves", "a1 a2 b1 b2", "--json"]);
    assert_eq!((v["value"].as_str(), v["winner"].as_str(), v["winning_move"].as_str()), (Some("win"), Some("x"), Some("c1")));
    // O to move loses: it must block c3, then X forks with b1.
    let v = json(&["solve", "--game", "tictactoe", "--moves", "a1 a2 b2", "--json"]);
    assert_eq!((v["value"].as_str(), v["winner"].as_str(), v["to_move"].as_str()), (Some("loss"), Some("x"), Some("o")));
    assert!(v["best_move"].is_null(), "{v}");
    // Every first move of X draws.
    let v = json(&["solve", "--game", "tictactoe", "--openings", "--json"]);
    let rows = v["openings"].as_array().unwrap();
    assert_eq!(rows.len(), 9);
    for o in rows {
        assert_eq!((o["value"].as_str(), o["mover_wins"].as_bool()), (Some("draw"), Some(false)), "{o}");
        assert!(o["winner"].is_null(), "{o}");
    }
    assert_eq!((v["mover_wins"].as_u64(), v["mover_draws"].as_u64(), v["unknown"].as_u64()), (Some(0), Some(9), Some(0)));
    let (ok, text, _) = mcts(&["solve", "--game", "tictactoe", "--openings"]);
    assert!(ok && text.contains("  b2  draw  (") && text.contains("x wins with 0 of 9 moves; draws with 9: a1 b1"), "{text}");
    let (ok, text, _) = mcts(&["solve", "--game", "tictactoe"]);
    assert!(ok && text.starts_with("draw with perfect play, e.g. with "), "{text}");

    // Pentago endgames of the benchmark's file: the root's value is its best move's, and the
    // most any move gets.
    let file = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/pentago-endgames.jsonl")).unwrap();
    let lines: Vec<serde_json::Value> = file.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let rank = |v: &serde_json::Value| ["loss", "draw", "win"].iter().position(|x| v.as_str() == Some(x)).expect("a value");
    for line in lines.iter().filter(|l| l["empty"].as_u64().unwrap() <= 6).step_by(3) {
        let moves = line["moves"].as_str().unwrap();
        let root = json(&["solve", "--game", "pentago", "--moves", moves, "--json"]);
        let all = json(&["solve", "--game", "pentago", "--moves", moves, "--openings", "--json"]);
        let rows = all["openings"].as_array().unwrap();
        assert_eq!(rows.len(), 8 * line["empty"].as_u64().unwrap() as usize, "every legal move");
        assert_eq!(rows.iter().map(|o| rank(&o["value"])).max(), Some(rank(&root["value"])), "{moves}");
        let best = root["best_move"].as_str().expect("not a loss in these");
        assert_eq!(rank(&rows.iter().find(|o| o["move"] == best).unwrap()["value"]), rank(&root["value"]), "{moves}: {best}");
        let count = |v: &str| rows.iter().filter(|o| o["value"] == v).count() as u64;
        assert_eq!((all["mover_wins"].as_u64(), all["mover_draws"].as_u64()), (Some(count("win")), Some(count("draw"))));
    }
    // Too many empty cells: refused with the limit named.
    let start: Vec<&str> = lines[0]["moves"].as_str().unwrap().split(' ').take(19).collect();
    let (ok, _, err) = mcts(&["solve", "--game", "pentago", "--moves", &start.join(" ")]);
    assert!(!ok, "{err}");
    assert_eq!(
        err.trim(),
        "mcts: Pentago with 17 empty cells is too large for the exact solver: it takes positions with at most 16 empty cells (20 or more stones placed)"
    );
    // A solver that is not for the game, and a net outside Hex.
    for (args, says) in [
        (&["solve", "--game", "tictactoe", "--solver", "dfpn"][..], "the dfpn solver is for Hex"),
        (&["solve", "--game", "hex:4", "--solver", "alphabeta"], "the alphabeta solver is for Tic-Tac-Toe and Pentago"),
        (&["solve", "--game", "tictactoe", "--openings", "--net", "x.mctsnet"], "on Hex only"),
    ] {
        let (ok, _, err) = mcts(args);
        assert!(!ok && err.starts_with("mcts: ") && err.contains(says), "{args:?}: {err}");
    }
}

/// `solve --openings` with a budget that settles only some openings: the run still succeeds, the
/// others are unknown (null winner, counted in `unknown`), and every settled one is right (the
/// published 6×6 table: Black wins 24 of the 36 openings).
#[test]
fn solve_openings_reports_unknown_openings_and_goes_on() {
    let table = [".....B", ".BBBBB", "BBBBBB", "BBBBBB", "BBBBB.", "B....."];
    let (ok, out, err) = mcts(&["solve", "--game", "hex:6", "--openings", "--max-nodes", "10", "--json"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rows = v["openings"].as_array().unwrap();
    assert_eq!(rows.len(), 36);
    let unknown = rows.iter().filter(|o| o["winner"].is_null()).count();
    assert!(unknown > 0 && unknown < 36, "{unknown} unknown: the budget should settle some openings, not all");
    assert_eq!(v["unknown"].as_u64(), Some(unknown as u64));
    for o in rows {
        let m = o["move"].as_str().unwrap();
        let (c, r) = ((m.as_bytes()[0] - b'a') as usize, m[1..].parse::<usize>().unwrap() - 1);
        let black = table[r].as_bytes()[c] == b'B';
        match o["winner"].as_str() {
            None => assert!(o["mover_wins"].is_null(), "{o}"),
            Some(w) => {
                assert_eq!(w == "black", black, "opening {m}");
                assert_eq!(o["mover_wins"].as_bool(), Some(black), "opening {m}");
            }
        }
    }
    assert_eq!(v["mover_wins"].as_u64().unwrap() as usize, rows.iter().filter(|o| o["mover_wins"] == true).count());
    // The text form says so too.
    let (ok, text, err) = mcts(&["solve", "--game", "hex:6", "--openings", "--max-nodes", "10"]);
    assert!(ok, "{err}");
    assert_eq!(text.lines().filter(|l| l.contains("unknown within the budget  (")).count(), unknown, "{text}");
    assert!(text.contains(&format!("; {unknown} unknown within the budget")), "{text}");
}

/// A convolutional net (weights file version 2) of small fixed weights for `spec` (`hex:N`).
fn conv_net(n: usize, channels: usize, blocks: usize, hidden: usize) -> mcts_playground::nn::ConvNet {
    let mut net = mcts_playground::nn::ConvNet::zeros(&format!("hex:{n}"), n, channels, blocks, hidden);
    let mut k = 0f32;
    let mut fill = |w: &mut [f32]| {
        w.iter_mut().for_each(|x| {
            k += 1.0;
            *x = (k * 0.37).sin() * 0.3;
        })
    };
    for c in std::iter::once(&mut net.first).chain(&mut net.body).chain([&mut net.policy, &mut net.value_conv]) {
        fill(&mut c.w);
        fill(&mut c.b);
    }
    for d in [&mut net.value_hidden, &mut net.value_out] {
        fill(&mut d.w);
        fill(&mut d.b);
    }
    net
}

/// Issue 53: a convolutional net's file is read by `--net` like an MLP's, and the network
/// presets search with it.
#[test]
fn a_conv_net_file_plays_through_the_cli() {
    let dir = std::env::temp_dir().join(format!("mcts-cli-conv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("conv.mctsnet");
    std::fs::write(&path, conv_net(5, 8, 2, 16).to_bytes()).unwrap();
    let file = path.to_str().unwrap();
    let search = |extra: &[&str]| {
        let mut args = vec!["search", "--game", "hex:5", "--algo", "alphazero", "--iterations", "200", "--seed", "1", "--json"];
        args.extend_from_slice(extra);
        let (ok, out, err) = mcts(&args);
        assert!(ok, "{err}");
        serde_json::from_str::<Value>(out.trim()).unwrap()
    };
    let with_conv = search(&["--net", file]);
    let value = with_conv["value"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&value) && value != 0.5, "{value}");
    assert_eq!(with_conv["iterations"].as_u64(), Some(200));
    assert_ne!(with_conv["value"], search(&[])["value"], "the conv net, not the shipped one");
    assert_eq!(with_conv["children"], search(&["--net", file])["children"], "deterministic for a seed");
    // The solver's opening table reads it too; a conv net for another board is refused.
    let small = dir.join("conv3.mctsnet");
    std::fs::write(&small, conv_net(3, 4, 0, 4).to_bytes()).unwrap();
    let (ok, out, err) = mcts(&["solve", "--game", "hex:3", "--openings", "--net", small.to_str().unwrap()]);
    assert!(ok && !out.is_empty(), "{err}");
    let (ok, _, err) = mcts(&["search", "--game", "hex:7", "--algo", "alphazero", "--iterations", "10", "--net", file]);
    assert!(!ok && err.contains("a net for 'hex:5', not 'hex:7'"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_net_file_replaces_the_shipped_net() {
    // A net of zeros: uniform priors and a value of exactly ½ everywhere, so the root's mean
    // value is ½ after 100 playouts (no game of 5×5 Hex ends within 8 plies); the shipped net's
    // is not.
    let path = std::env::temp_dir().join(format!("mcts-cli-zero-{}.mctsnet", std::process::id()));
    std::fs::write(&path, mcts_playground::nn::Mlp::zeros("hex:5", 50, &[8], 25).to_bytes()).unwrap();
    let file = path.to_str().unwrap();
    let value = |extra: &[&str]| {
        let mut args = vec!["search", "--game", "hex:5", "--algo", "alphazero", "--iterations", "100", "--seed", "1", "--json"];
        args.extend_from_slice(extra);
        let (ok, out, err) = mcts(&args);
        assert!(ok, "{err}");
        serde_json::from_str::<Value>(out.trim()).unwrap()["value"].as_f64().unwrap()
    };
    assert_eq!(value(&["--net", file]), 0.5);
    assert_ne!(value(&[]), 0.5);
    // The arena takes it too; a net for another game, a missing file and a non-net are errors.
    let arena = ["arena", "--game", "hex:5", "--a", "alphazero", "--b", "uct", "--games", "2", "--iterations", "50", "--json"];
    let (ok, out, err) = mcts(&[&arena[..], &["--net", file]].concat());
    assert!(ok, "{err}");
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!((v["games"].as_u64(), v["net"].as_str()), (Some(2), Some(file)));
    for (args, says) in [
        (&["search", "--game", "hex:7", "--algo", "alphazero", "--net", file][..], "a net for 'hex:5', not 'hex:7'"),
        (&["arena", "--game", "hex:7", "--a", "alphazero", "--b", "uct", "--net", file], "a net for 'hex:5', not 'hex:7'"),
        (&["search", "--game", "hex:5", "--net", "no-such-file.mctsnet"], "no-such-file.mctsnet: "),
        (&["search", "--game", "hex:5", "--net", "Cargo.toml"], "not a network weights file"),
    ] {
        let (ok, _, err) = mcts(args);
        assert!(!ok && err.starts_with("mcts: ") && err.contains(says), "{args:?}: {err}");
    }
    std::fs::remove_file(&path).ok();
}

/// `mcts bench --playouts-only --json`: one object per game with the playout figures' keys; the
/// filled-board figure only for games whose playouts can fill the board (Hex).
#[test]
fn bench_playouts_json_keys() {
    let (ok, out, err) =
        mcts(&["bench", "--game", "hex:5", "--game", "tictactoe", "--playouts-only", "--json", "--runs", "1", "--ms", "5"]);
    assert!(ok, "{err}");
    let lines: Vec<Value> = out.lines().filter(|l| l.contains("playouts_per_s")).map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2, "{out}");
    for v in &lines {
        for key in ["playouts_per_s", "traced_playouts_per_s", "set_playouts_per_s", "runs", "statistic"] {
            assert!(!v[key].is_null(), "{key} in {v}");
        }
    }
    assert_eq!(lines[0]["game"], "hex:5");
    assert!(lines[0]["filled_set_playouts_per_s"].is_number(), "{}", lines[0]);
    assert_eq!(lines[1]["game"], "tictactoe");
    assert!(lines[1].get("filled_set_playouts_per_s").is_none(), "{}", lines[1]);
}

/// `mcts bench --set key=value` measures every preset with the override (here a node cap of 5,
/// which the reported tree obeys, and save-bridge playouts) and says so in each JSON line.
#[test]
fn bench_set_overrides_every_preset() {
    let (ok, out, err) = mcts(&[
        "bench",
        "--game",
        "hex:5",
        "--preset",
        "uct",
        "--preset",
        "rave",
        "--set",
        "node_cap=5",
        "--set",
        "save_bridge=true",
        "--json",
        "--runs",
        "1",
        "--ms",
        "5",
        "--search-ms",
        "20",
    ]);
    assert!(ok, "{err}");
    let lines: Vec<Value> = out.lines().filter(|l| l.contains("\"preset\"")).map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2, "{out}");
    for v in &lines {
        assert_eq!(v["set"], serde_json::json!(["node_cap=5", "save_bridge=true"]), "{v}");
        assert!(v["nodes"].as_u64().unwrap() <= 5, "the node cap reached the search: {v}");
        assert!(v["iterations_per_s"].as_f64().unwrap() > 0.0, "{v}");
    }
    let (ok, out, err) = mcts(&["bench", "--game", "hex:5", "--json", "--runs", "1", "--ms", "5", "--search-ms", "20"]);
    assert!(ok, "{err}");
    assert!(out.lines().filter(|l| l.contains("\"preset\"")).all(|l| !l.contains("\"set\"")), "no set without --set: {out}");
}

/// Runs `mcts ARGS` with standard output to `stdout` (and `input` on standard input); returns
/// the exit code and standard error.
fn mcts_to(args: &[&str], stdout: impl Into<Stdio>, input: &[u8]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcts"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .expect("run mcts");
    let mut stdin = child.stdin.take().unwrap();
    // A verb that does not read its input may be gone before it is written.
    let _ = stdin.write_all(input);
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into())
}

/// The verbs as tests/cli.rs runs them, each writing something on standard output.
const WRITERS: &[&[&str]] = &[
    &["replay", "--game", "hex:19", "--moves", "a1"],
    &["replay", "--game", "hex:19", "--moves", "a1", "--json"],
    &["search", "--game", "tictactoe", "--iterations", "100"],
    &["search", "--game", "tictactoe", "--iterations", "100", "--json"],
    &["search", "--game", "tictactoe", "--iterations", "100", "--threads", "2"],
    &["bench", "--game", "tictactoe", "--runs", "1", "--ms", "1", "--playouts-only"],
    &["bench", "--game", "tictactoe", "--runs", "1", "--ms", "1", "--search-ms", "1", "--json"],
    &["solve", "--game", "hex:3", "--openings"],
    &["solve", "--game", "hex:3", "--json"],
    &["arena", "--game", "tictactoe", "--a", "uct", "--b", "uct", "--games", "2", "--iterations", "20"],
    &["arena", "--game", "tictactoe", "--a", "uct", "--b", "uct", "--games", "2", "--iterations", "20", "--json"],
    &["gtp", "--game", "tictactoe"],
];

/// Finding: `mcts replay … | head -c 1` panicked ("failed printing to stdout: Broken pipe",
/// exit 101), as did search, bench and solve. A pipe closed before the first write is now a
/// quiet exit, status 0, for every verb.
#[test]
fn a_closed_pipe_is_a_quiet_exit() {
    for args in WRITERS {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let (code, err) = mcts_to(args, writer, b"name\nlist_commands\n");
        assert_eq!(code, Some(0), "{args:?}: {err}");
        assert!(err.is_empty(), "{args:?}: quiet, got {err}");
    }
}

/// Finding: `mcts replay … > /dev/full` panicked ("No space left on device", exit 101). A write
/// that fails is now an error message on standard error, status 1, for every verb.
#[test]
fn a_full_disk_is_an_error_message() {
    for args in WRITERS {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full (Linux)");
        let (code, err) = mcts_to(args, full, b"name\nlist_commands\n");
        assert_eq!(code, Some(1), "{args:?}: {err}");
        assert_eq!(err, "mcts: writing standard output: No space left on device (os error 28)\n", "{args:?}");
    }
}

/// Finding: `--net FILE` read any file whole: `/dev/zero` until memory ran out, a 3 GiB file
/// before saying "bad magic", a named pipe without a writer forever. The file's kind and size
/// are now checked before it is opened, and its header before the rest is read.
#[test]
fn net_files_are_checked_before_they_are_read() {
    let dir = std::env::temp_dir().join(format!("mcts-cli-nets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("pipe.mctsnet");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    // Sparse: no disk is used for the zeros.
    let huge = dir.join("huge.mctsnet");
    std::fs::File::create(&huge).unwrap().set_len(3 << 30).unwrap();
    let bad = dir.join("bad.mctsnet");
    std::fs::write(&bad, vec![7u8; 4096]).unwrap();
    let version = dir.join("v9.mctsnet");
    let mut v9 = mcts_playground::nn::Mlp::zeros("hex:5", 50, &[8], 25).to_bytes();
    v9[8] = 9;
    std::fs::write(&version, v9).unwrap();
    let largest = format!("at most {} bytes", mcts_playground::nn::MAX_FILE_BYTES);
    for (path, says) in [
        (std::path::Path::new("/dev/zero"), "/dev/zero: a device, not a network weights file".to_string()),
        (&fifo, "a named pipe (FIFO), not a network weights file".into()),
        (&dir, "a directory, not a network weights file".into()),
        (&huge, format!("3221225472 bytes, larger than any network weights file ({largest})")),
        (&bad, "not a network weights file (bad magic)".into()),
        (&version, "weights file version 9, this build reads versions 1 (fully connected) and 2 (convolutional)".into()),
    ] {
        let file = path.to_str().unwrap();
        for args in [
            &["search", "--game", "hex:5", "--algo", "alphazero", "--iterations", "10", "--net", file][..],
            &["arena", "--game", "hex:5", "--a", "alphazero", "--b", "uct", "--games", "1", "--iterations", "10", "--net", file],
            &["gtp", "--game", "hex:5", "--algo", "alphazero", "--net", file],
            &["solve", "--game", "hex:3", "--openings", "--net", file],
        ] {
            let (ok, _, err) = mcts(args);
            assert!(!ok && err.starts_with(&format!("mcts: {file}: ")) && err.contains(&says), "{args:?}: {err}");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Finding: `mcts bench` checked its options late or not at all: `--threads 1` was accepted
/// (the help says 2 ..= 64), `--runs 0` printed medians of no run, `--threads 65` and an unknown
/// preset were refused only after the playout benchmark had run. Every option is now checked
/// before anything is measured.
#[test]
fn bench_checks_every_option_before_measuring() {
    let bench = ["bench", "--game", "tictactoe", "--ms", "1"];
    for (extra, code, says) in [
        (&["--threads", "1"][..], 2, "invalid value '1' for '--threads <THREADS>': 1 is not in 2..=64"),
        (&["--threads", "65"], 2, "invalid value '65' for '--threads <THREADS>': 65 is not in 2..=64"),
        (&["--runs", "0"], 2, "invalid value '0' for '--runs <RUNS>'"),
        (&["--search-ms", "NaN"], 2, "invalid value 'NaN' for '--search-ms <SEARCH_MS>': NaN is out of range"),
        (&["--preset", "nope"], 1, "mcts: unknown preset 'nope'; expected one of:"),
        (&["--preset", "uct", "--preset", "nope"], 1, "mcts: unknown preset 'nope'"),
        (&["--game", "chess"], 1, "mcts: unknown game 'chess'"),
        (&["--preset", "alphazero", "--game", "pentago"], 1, "mcts: no trained network for 'pentago:official'"),
        (&["--set", "nope=1"], 1, "mcts: unknown config key 'nope'"),
        (&["--preset", "rave", "--set", "save_bridge"], 1, "mcts: --set expects key=value, got 'save_bridge'"),
        (&["--set", "save_bridge=maybe"], 1, "mcts: bad value 'maybe' for 'save_bridge'"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_mcts")).args([&bench[..], extra].concat()).output().expect("run mcts");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{extra:?}: {err}");
        assert!(err.contains(says), "{extra:?}: {err}");
        assert!(out.stdout.is_empty(), "{extra:?}: nothing measured before the refusal, got {}", String::from_utf8_lossy(&out.stdout));
    }
}

/// `mcts patterns train`: a tiny reproducible run writes a weights file with the figures'
/// JSON keys (the same file for the same seed, whatever the threads), and a search uses the
/// prior; a game without patterns and a bad preset are refused with their reasons.
#[test]
fn patterns_train_writes_weights_and_search_uses_them() {
    let dir = std::env::temp_dir().join(format!("mcts-patterns-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (a, b) = (dir.join("a.mctspat"), dir.join("b.mctspat"));
    let run = |out: &std::path::Path, threads: &str| {
        let o = out.to_str().unwrap();
        let args = ["patterns", "train", "--spec", "hex:5", "--games", "4", "--playouts", "50", "--preset", "rave", "--seed", "3"];
        let mut v: Vec<&str> = args.to_vec();
        v.extend(["--iterations", "20", "--test-every", "2", "--threads", threads, "--out", o, "--json"]);
        mcts(&v)
    };
    let (ok, out, err) = run(&a, "1");
    assert!(ok, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    for k in [
        "games",
        "train_positions",
        "test_positions",
        "patterns",
        "test_top1",
        "test_top5",
        "uniform_top1",
        "uniform_top5",
        "games_s",
        "train_s",
    ] {
        assert!(!v[k].is_null(), "key {k} in {v}");
    }
    assert!(v["train_positions"].as_u64().unwrap() > 0 && v["patterns"].as_u64().unwrap() > 0);
    let (ok, _, err) = run(&b, "2");
    assert!(ok, "{err}");
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap(), "the same weights with 1 and 2 threads");
    assert_eq!(&std::fs::read(&a).unwrap()[..8], b"MCTSPAT\0");
    let (ok, out, err) = mcts(&[
        "search",
        "--game",
        "hex:5",
        "--algo",
        "rave",
        "--set",
        "prior=patterns",
        "--set",
        "progressive_bias=2.47",
        "--iterations",
        "500",
        "--json",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("best_move"), "{out}");
    // Games without local patterns ignore the prior, as they ignore save_bridge and knowledge:
    // the same search as without it.
    let plain = ["search", "--game", "tictactoe", "--algo", "uct", "--iterations", "300", "--seed", "2", "--json"];
    let (ok, without, err) = mcts(&plain);
    assert!(ok, "{err}");
    let (ok, with, err) = mcts(&[&plain[..], &["--set", "prior=patterns", "--set", "progressive_bias=2.47"]].concat());
    assert!(ok, "{err}");
    let keys = |text: &str| {
        let v: Value = serde_json::from_str(text.trim()).unwrap();
        (v["best_move"].clone(), v["children"].clone())
    };
    assert_eq!(keys(&with), keys(&without));
    let (ok, _, err) = mcts(&["search", "--game", "hex:5", "--algo", "puct", "--set", "progressive_bias=1"]);
    assert!(!ok && err.contains("selection = uct"), "{err}");
    let (ok, _, err) = mcts(&["patterns", "train", "--spec", "tictactoe", "--out", a.to_str().unwrap()]);
    assert!(!ok && err.contains("not a Hex spec"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `patterns train` checks `--out` before any game (issue 48: it failed only after every game
/// and the training): a folder that does not exist, and a folder, are refused at once — with
/// the most games and playouts on Hex 19×19, which would otherwise run for days.
#[test]
fn patterns_train_checks_its_output_before_any_game() {
    let dir = std::env::temp_dir().join(format!("mcts-patterns-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let missing = dir.join("no-such-folder").join("x.mctspat");
    let forever = ["patterns", "train", "--spec", "hex:19", "--games", "100000", "--playouts", "10000000", "--threads", "2"];
    for (out, says) in [(missing.to_str().unwrap(), "cannot create a file in"), (dir.to_str().unwrap(), "a folder, not a file")] {
        let (ok, stdout, err) = mcts(&[&forever[..], &["--out", out]].concat());
        assert!(!ok && err.starts_with(&format!("mcts: --out {out}: {says}")), "{err}");
        assert_eq!(stdout, "", "no game played, nothing trained");
    }
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "nothing left in the folder");
    std::fs::remove_dir_all(&dir).ok();
}

/// `--set knowledge=true` reaches the search: the root's children are cut to Hex's consider set
/// (fewer than the legal moves in a middle game); a threshold of 0 is refused by name.
#[test]
fn search_set_knowledge_cuts_the_root() {
    let base = ["search", "--game", "hex:7", "--moves", "d4 c5 e3 d2 b6 c6", "--algo", "uct", "--iterations", "3000", "--json"];
    let children = |extra: &[&str]| {
        let (ok, out, err) = mcts(&[&base[..], extra].concat());
        assert!(ok, "{err}");
        let v: Value = serde_json::from_str(out.trim()).unwrap();
        v["children"].as_array().unwrap().len()
    };
    let all = children(&[]);
    assert_eq!(all, 43, "every legal move is tried without knowledge");
    let cut = children(&["--set", "knowledge=true", "--set", "knowledge_threshold=64"]);
    assert!(cut < all, "knowledge kept {cut} of {all} root moves");
    let (ok, _, err) = mcts(&[&base[..], &["--set", "knowledge_threshold=0"]].concat());
    assert!(!ok);
    assert!(err.contains("knowledge_threshold"), "{err}");
}

/// `mcts review --json` without its `timing` (the only figures that change from run to run).
fn review_json(args: &[&str]) -> Value {
    let mut all = vec!["review"];
    all.extend_from_slice(args);
    all.push("--json");
    let (ok, out, err) = mcts(&all);
    assert!(ok, "{err}");
    let mut v: Value = serde_json::from_str(out.trim()).unwrap();
    let timing = v.as_object_mut().unwrap().remove("timing").unwrap();
    assert!(timing.as_array().unwrap().iter().all(|t| t["search_ms"].is_number() && t["proven"].is_boolean()));
    v
}

/// The exact value `mcts solve` gives the position after `moves`, for its side to move.
fn solved_value(game: &str, moves: &str) -> String {
    let (ok, out, err) = mcts(&["solve", "--game", game, "--moves", moves, "--json"]);
    assert!(ok, "{err}");
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    v["value"].as_str().unwrap().to_string()
}

/// A Tic-Tac-Toe game with a won → lost move (X's a3: O then wins), a drawn → lost one (O's b1
/// after X's corner… and X's won → drawn c1), each checked against `mcts solve` of the positions
/// before and after.
#[test]
fn review_labels_exact_blunders_as_solve_proves_them() {
    let moves = ["a1", "b1", "c1", "a2", "a3"];
    let v = review_json(&["--game", "tictactoe", "--moves", &moves.join(" "), "--iterations", "200", "--seed", "3"]);
    let plies = v["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 5);
    for (i, p) in plies.iter().enumerate() {
        let before = solved_value("tictactoe", &moves[..i].join(" "));
        let after_for_opponent = solved_value("tictactoe", &moves[..=i].join(" "));
        let after = match after_for_opponent.as_str() {
            "win" => "loss",
            "loss" => "win",
            d => d,
        };
        assert_eq!(p["exact_before"], before.as_str(), "ply {i}");
        assert_eq!(p["exact_after"], after, "ply {i}");
        assert_eq!(p["ply"], i);
        assert_eq!(p["move"], moves[i]);
        assert_eq!(p["mover"], if i % 2 == 0 { "x" } else { "o" });
    }
    let last = &plies[4];
    assert_eq!((last["class"].as_str(), last["label"].as_str()), (Some("blunder"), Some("won → lost")));
    assert_eq!((last["value_before"].as_f64(), last["value_after"].as_f64(), last["loss"].as_f64()), (Some(1.0), Some(0.0), Some(1.0)));
    assert_eq!(plies[2]["label"], "won → drawn");
    assert_eq!(plies[1]["label"], "drawn → lost");
    assert_eq!(plies[0]["class"], "best");
    assert_eq!(v["summary"]["x"]["blunder"], 2);
    assert_eq!(v["summary"]["o"]["blunder"], 2);
    assert!(v["summary"]["x"]["accuracy"].as_f64().unwrap() < 50.0);

    // Hex 4x4: a1 throws away the first player's win (mcts solve --openings: a1 loses).
    let v = review_json(&["--game", "hex:4", "--moves", "a1 c2", "--iterations", "200"]);
    let (ok, out, _) = mcts(&["solve", "--game", "hex:4", "--openings", "--json"]);
    assert!(ok);
    let openings: Value = serde_json::from_str(out.trim()).unwrap();
    let a1 = openings["openings"].as_array().unwrap().iter().find(|o| o["move"] == "a1").unwrap();
    assert_eq!(a1["value"], "loss");
    assert_eq!(solved_value("hex:4", ""), "win");
    let p0 = &v["plies"][0];
    assert_eq!((p0["mover"].as_str(), p0["exact_before"].as_str(), p0["exact_after"].as_str()), (Some("black"), Some("win"), Some("loss")));
    assert_eq!((p0["class"].as_str(), p0["label"].as_str()), (Some("blunder"), Some("won → lost")));
    assert_eq!(v["summary"]["black"]["blunder"], 1);
}

/// Positions on two threads: the same report as on one with a playout budget.
#[test]
fn review_threads_equal_one_thread() {
    let args = ["--game", "hex:6", "--moves", "c3 d4 d3 c4 b5", "--iterations", "300", "--solve-ms", "0", "--seed", "11"];
    let one = review_json(&[&args[..], &["--threads", "1"]].concat());
    let two = review_json(&[&args[..], &["--threads", "2"]].concat());
    assert_eq!(one, two);
    assert_eq!(one["settings"]["preset"], "best");
    assert_eq!(one["plies"][0]["iterations"], 300);
    for p in one["plies"].as_array().unwrap() {
        let (b, a, l) = (p["value_before"].as_f64().unwrap(), p["value_after"].as_f64().unwrap(), p["loss"].as_f64().unwrap());
        assert!((0.0..=1.0).contains(&b) && (0.0..=1.0).contains(&a));
        assert_eq!(l, (b - a).max(0.0));
        assert!(p["exact_before"].is_null());
    }
}

/// A record file (move list, SGF, the page's game JSON) reviews as its moves; a record with an
/// illegal move, a main line over the move limit, or a record of another game get a sentence and
/// no output.
#[test]
fn review_reads_records_and_refuses_bad_ones() {
    let dir = std::env::temp_dir().join(format!("mcts-review-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let base = review_json(&["--game", "hex:5", "--moves", "c3 b4 d2", "--iterations", "100", "--solve-ms", "0"]);
    let files = [
        ("game.txt", "hex:5\nc3 b4 d2\n".to_string()),
        ("game.sgf", "(;FF[4]GM[11]SZ[5];B[c3];W[b4];B[d2])".to_string()),
        ("game.json", r#"{"format":"mcts-playground-game","version":1,"game":"hex:5","moves":["c3","b4","d2"]}"#.to_string()),
    ];
    for (name, text) in &files {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let v = review_json(&["--game", "hex:5", "--record", path.to_str().unwrap(), "--iterations", "100", "--solve-ms", "0"]);
        assert_eq!(v, base, "{name}");
    }
    // A record with variations: its main line is reviewed, and a note on stderr says so.
    let vars = dir.join("vars.sgf");
    std::fs::write(&vars, "(;FF[4]GM[11]SZ[5];B[c3](;W[b4];B[d2])(;W[a1]))").unwrap();
    let args = ["review", "--game", "hex:5", "--record", vars.to_str().unwrap(), "--iterations", "100", "--solve-ms", "0", "--json"];
    let (ok, out, err) = mcts(&args);
    assert!(ok, "{err}");
    let mut v: Value = serde_json::from_str(out.trim()).unwrap();
    v.as_object_mut().unwrap().remove("timing");
    assert_eq!(v, base);
    assert_eq!(err.trim(), "note: the record has 1 variation(s) off its main line; only the main line (3 moves) is reviewed");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "tictactoe\nb2 a1 b2").unwrap();
    let (ok, out, err) = mcts(&["review", "--game", "tictactoe", "--record", bad.to_str().unwrap(), "--iterations", "10"]);
    assert!(!ok && out.is_empty());
    assert!(err.contains("move 3 'b2': illegal"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let over = dir.join("over.txt");
    std::fs::write(&over, format!("tictactoe\n{}", ["a1", "b1", "a2", "b2", "a3", "b3", "c1", "c2", "c3", "a1"].join(" "))).unwrap();
    let (ok, out, err) = mcts(&["review", "--game", "tictactoe", "--record", over.to_str().unwrap(), "--iterations", "10"]);
    assert!(!ok && out.is_empty());
    assert!(err.contains("move 6 'b3'") && err.contains("already over"), "{err}");
    let txt = dir.join("game.txt");
    let (ok, _, err) = mcts(&["review", "--game", "hex:7", "--record", txt.to_str().unwrap(), "--iterations", "10"]);
    assert!(!ok && err.contains("a game of hex:5, not of hex:7"), "{err}");
    let long: Vec<&str> = vec!["a1"; 1001];
    let (ok, out, err) = mcts(&["review", "--game", "hex:11", "--moves", &long.join(" ")]);
    assert!(!ok && out.is_empty());
    assert_eq!(err.trim(), "mcts: a review takes at most 1000 moves; this game has 1001");
    let (ok, _, err) = mcts(&["review", "--game", "tictactoe", "--moves", "b2 b2"]);
    assert!(!ok && err.trim().starts_with("mcts: move 2 ('b2')"), "{err}");
    let (ok, _, err) = mcts(&["review", "--game", "tictactoe", "--moves", "b2", "--preset", "nope"]);
    assert!(!ok && err.contains("nope"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
