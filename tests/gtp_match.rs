//! `mcts match`: two GTP engines refereed by our rules. The engines here are `mcts gtp` itself
//! and small shell scripts that misbehave in one way each (an illegal move, a resignation, a
//! crash, a `final_score` that names the wrong winner).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const MCTS: &str = env!("CARGO_BIN_EXE_mcts");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcts-match-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn ours(algo: &str, seed: u64) -> String {
    format!("{MCTS} gtp --game hex:3 --algo {algo} --iterations 100 --seed {seed}")
}

/// A GTP engine in shell: answers `=` to everything, `genmove` with `$1`, and `final_score` with
/// `$2` (or `? unknown command` when `$2` is empty); `crash` as `$1` exits at the first genmove.
fn fake(dir: &Path, genmove: &str, final_score: &str) -> String {
    let path = dir.join(format!("fake-{genmove}.sh"));
    let score = if final_score.is_empty() { "? unknown command".to_string() } else { format!("= {final_score}") };
    let script = format!(
        "#!/bin/sh\nwhile IFS= read -r line; do\n  case \"$line\" in\n    genmove*) [ \"{genmove}\" = crash ] && exit 3; printf '= {genmove}\\n\\n' ;;\n    final_score*) printf '{score}\\n\\n' ;;\n    name*) printf '= fake\\n\\n' ;;\n    quit*) printf '=\\n\\n'; exit 0 ;;\n    *) printf '=\\n\\n' ;;\n  esac\ndone\n"
    );
    std::fs::write(&path, script).unwrap();
    format!("sh {}", path.display())
}

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(MCTS).arg("match").args(args).output().expect("run mcts match");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

#[test]
fn two_of_our_engines_play_every_opening_with_both_colours_and_write_sgf() {
    let dir = scratch("ours");
    let (a, b) = (ours("uct", 1), ours("rave", 2));
    let sgf = dir.join("games");
    let (ok, out, err) = run(&["--game", "hex:3", "--a", &a, "--b", &b, "--sgf", sgf.to_str().unwrap(), "--json"]);
    assert!(ok, "{err}");
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["openings"], "all");
    assert_eq!(v["openings_count"], 9);
    let s = &v["standings"];
    assert_eq!(s["games"], 18);
    assert_eq!(s["a_first_games"], 9);
    assert_eq!(s["a_second_games"], 9);
    assert_eq!(s["wins"].as_u64().unwrap() + s["losses"].as_u64().unwrap(), 18);
    assert_eq!(v["a"]["name"], "mcts-playground 0.1.0 (A)");
    let games = v["games"].as_array().unwrap();
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g["a_first"], i % 2 == 0);
        assert_eq!(g["end"], "finished");
        // Each opening twice in a row, colours swapped.
        assert_eq!(g["moves"][0], games[i - i % 2]["moves"][0]);
        assert_eq!(g["opening_plies"], 1);
        // The SGF holds the same moves, and the referee's winner; the moves replay to that end.
        let text = std::fs::read_to_string(g["sgf"].as_str().unwrap()).unwrap();
        let moves: Vec<&str> = text.split(";B[").skip(1).flat_map(|s| s.split(";W[")).map(|m| &m[..m.find(']').unwrap()]).collect();
        let json_moves: Vec<&str> = g["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
        assert_eq!(moves, json_moves);
        let winner = g["winner"].as_u64().unwrap();
        assert!(text.contains(if winner == 0 { "RE[B+]" } else { "RE[W+]" }), "{text}");
        let replay = Command::new(MCTS).args(["replay", "--game", "hex:3", "--moves", &json_moves.join(" "), "--json"]).output().unwrap();
        let r: Value = serde_json::from_slice(&replay.stdout).unwrap();
        assert_eq!(r["winner"], winner);
        assert_eq!(g["a_score"], if (winner == 0) == (i % 2 == 0) { 1.0 } else { 0.0 });
    }
    assert!(sgf.join("a.stderr").exists() && sgf.join("b.stderr").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_illegal_move_loses_the_game_and_is_recorded() {
    let dir = scratch("illegal");
    let (ok, out, err) =
        run(&["--game", "hex:3", "--openings", "none", "--games", "2", "--a", &ours("uct", 1), "--b", &fake(&dir, "z9", ""), "--json"]);
    assert!(ok, "{err}");
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["standings"]["wins"], 2);
    for g in v["games"].as_array().unwrap() {
        assert_eq!(g["end"], "illegal_move");
        assert!(g["illegal"].as_str().unwrap().starts_with("z9"), "{g}");
    }
    assert_eq!(v["b"]["name"], "fake");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_resignation_ends_the_game_and_the_sgf_says_so() {
    let dir = scratch("resign");
    let sgf = dir.join("games");
    let (ok, out, err) = run(&[
        "--game",
        "hex:3",
        "--openings",
        "none",
        "--games",
        "2",
        "--a",
        &fake(&dir, "resign", ""),
        "--b",
        &ours("uct", 1),
        "--sgf",
        sgf.to_str().unwrap(),
        "--json",
    ]);
    assert!(ok, "{err}");
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["standings"]["losses"], 2);
    let g0 = std::fs::read_to_string(sgf.join("game-0001.sgf")).unwrap();
    assert!(g0.contains("RE[W+R]"), "{g0}");
    let g1 = std::fs::read_to_string(sgf.join("game-0002.sgf")).unwrap();
    assert!(g1.contains("RE[B+R]"), "{g1}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_that_disagrees_with_the_referee_stops_the_match() {
    // Our engine with its final_score answers swapped: as an engine with the board's
    // orientation turned would answer.
    let swapped = format!("{} | sed -u -e 's/^= B+$/= X+/' -e 's/^= W+$/= B+/' -e 's/^= X+$/= W+/'", ours("uct", 2));
    let (ok, _, err) = run(&["--game", "hex:3", "--openings", "none", "--games", "2", "--a", &ours("uct", 1), "--b", &swapped]);
    assert!(!ok);
    assert!(err.contains("final_score") && err.contains("disagree") && err.contains("game 0"), "{err}");
}

#[test]
fn an_engine_that_dies_is_named_with_the_command_it_was_sent() {
    let dir = scratch("crash");
    let (ok, _, err) =
        run(&["--game", "hex:3", "--openings", "none", "--games", "1", "--a", &fake(&dir, "crash", ""), "--b", &ours("uct", 1)]);
    assert!(!ok);
    assert!(err.contains("engine A (fake)") && err.contains("genmove b") && err.contains("stopped answering"), "{err}");
    // A line without end, in bounded memory. The engine keeps reading its input afterwards, so
    // that the command sent to it cannot meet a closed pipe (then the match would stop at the
    // write, before reading the line, whenever the engine had already exited).
    let (ok, _, err) = run(&["--game", "hex:3", "--a", &ours("uct", 1), "--b", "head -c 200000 /dev/zero | tr '\\0' x; cat > /dev/null"]);
    assert!(!ok);
    assert!(err.contains("engine B") && err.contains("more than 65536 bytes"), "{err}");
    let (ok, _, err) = run(&["--game", "hex:3", "--a", "/nonexistent/engine", "--b", &ours("uct", 1)]);
    assert!(!ok);
    assert!(err.contains("engine A"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
