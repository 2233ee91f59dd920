//! `mcts match`: two GTP engines refereed by our rules. The engines here are `mcts gtp` itself
//! and small shell scripts that misbehave in one way each (an illegal move, a resignation, a
//! crash, a `final_score` that names the wrong winner, output nobody asked for, an engine that
//! does not read, does not quit, or hides behind a wrapper script).
//!
//! No test here measures time: a referee that would hang (today's failure) is stopped by
//! [`LIMIT`], far above what any run takes, and reported as a failure.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

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
    fake_with(dir, genmove, final_score, "", "printf '=\\n\\n'; exit 0")
}

/// [`fake`] with shell lines run before the loop (`prelude`) and what it does on `quit`.
fn fake_with(dir: &Path, genmove: &str, final_score: &str, prelude: &str, on_quit: &str) -> String {
    let tag: String = format!("{genmove}{prelude}{on_quit}").chars().filter(char::is_ascii_alphanumeric).take(40).collect();
    let path = dir.join(format!("fake-{tag}.sh"));
    let score = if final_score.is_empty() { "? unknown command".to_string() } else { format!("= {final_score}") };
    let script = format!(
        "#!/bin/sh\n{prelude}\nwhile IFS= read -r line; do\n  case \"$line\" in\n    genmove*) [ \"{genmove}\" = crash ] && exit 3; printf '= {genmove}\\n\\n' ;;\n    final_score*) printf '{score}\\n\\n' ;;\n    name*) printf '= fake\\n\\n' ;;\n    quit*) {on_quit} ;;\n    *) printf '=\\n\\n' ;;\n  esac\ndone\n"
    );
    std::fs::write(&path, script).unwrap();
    format!("sh {}", path.display())
}

/// The longest any run here may take before it counts as hung (a failure, not a measurement:
/// every run takes seconds).
const LIMIT: Duration = Duration::from_secs(120);

fn spawn(args: &[&str]) -> Child {
    Command::new(MCTS).arg("match").args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("run mcts match")
}

/// The output of `child`, which must end within [`LIMIT`] (else it is killed and the test fails).
fn finish(child: Child) -> Output {
    let pid = child.id();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(LIMIT) {
        Ok(out) => out.unwrap(),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            panic!("mcts match did not end within {LIMIT:?}");
        }
    }
}

/// [`run`], failing when the referee does not end within [`LIMIT`]; the exit code too.
fn run_bounded(args: &[&str]) -> (Option<i32>, String, String) {
    let out = finish(spawn(args));
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

/// Polls `cond` until it holds; fails after [`LIMIT`].
fn wait_until(what: &str, mut cond: impl FnMut() -> bool) {
    let t0 = Instant::now();
    while !cond() {
        assert!(t0.elapsed() < LIMIT, "{what}: still not so after {LIMIT:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The process id a wrapper wrote to `file` (waited for).
fn pid_in(file: &Path) -> u32 {
    let mut pid = None;
    wait_until(&format!("a process id in {}", file.display()), || {
        pid = std::fs::read_to_string(file).ok().and_then(|t| t.trim().parse().ok());
        pid.is_some()
    });
    pid.unwrap()
}

/// Whether process `pid` runs (a zombie, ended but not yet reaped by whoever adopted it, does not).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| !s.rsplit_once(')').is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')))
        .unwrap_or(false)
}

fn assert_ends(pid: u32, what: &str) {
    wait_until(&format!("{what} (pid {pid}) ended"), || !alive(pid));
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

#[test]
fn output_nobody_asked_for_is_counted_and_only_its_ends_kept() {
    // 200,000 lines before the engine's first answer: each used to be queued (the issue's
    // `yes info` grew the referee past 1.4 GB in 4 s); now counted, 10 + 10 kept.
    let flood = format!("sh -c 'yes info | head -n 200000; exec {}'", ours("uct", 2));
    let (code, out, err) =
        run_bounded(&["--game", "hex:3", "--openings", "none", "--games", "2", "--a", &ours("uct", 1), "--b", &flood, "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["standings"]["games"], 2);
    let u = &v["b"]["unrequested"];
    assert_eq!(u["lines"], 200_000, "{u}");
    assert_eq!(u["first"].as_array().unwrap().len(), 10);
    assert_eq!(u["last"].as_array().unwrap().len(), 10);
    assert!(u["first"].as_array().unwrap().iter().chain(u["last"].as_array().unwrap()).all(|l| l == "info"), "{u}");
    assert_eq!(v["a"]["unrequested"]["lines"], 0);
    assert!(err.contains("engine B (mcts-playground 0.1.0 (B)) printed 200000 line(s) that answer no command"), "{err}");
    assert!(err.contains("(the first 10 and the last 10 are in --json's `b.unrequested`, the rest were dropped)"), "{err}");
}

#[test]
fn setup_commands_are_checked_before_any_engine_starts() {
    let dir = scratch("setup");
    let mark = dir.join("started");
    let engine = format!("sh -c 'touch {}; exec {}'", mark.display(), ours("uct", 1));
    let long = "x".repeat(65_537);
    for (flag, setup, says) in [
        (
            "--setup-a",
            "komi 0\nplay b a1",
            r#"--setup-a "komi 0\nplay b a1": a GTP command is one line of text; this one holds the control character '\n'; give each command its own --setup-a"#,
        ),
        ("--setup-b", "komi 0\r", r"holds the control character '\r'"),
        ("--setup-b", "", "the command is empty"),
        ("--setup-a", "  # a comment", "the command is empty"),
        ("--setup-b", &long, "the command is 65537 bytes long; a GTP command line here is at most 65536 bytes"),
    ] {
        let (code, _, err) =
            run_bounded(&["--game", "hex:3", "--games", "2", "--timeout", "1", "--a", &engine, "--b", &engine, flag, setup]);
        assert_eq!(code, Some(1), "{setup:?}: {err}");
        assert!(err.contains(says), "{setup:?}: {err}");
        assert!(err.lines().count() == 1, "{err}");
        assert!(!mark.exists(), "{setup:?}: an engine was started");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_write_to_an_engine_that_does_not_read_ends_at_the_timeout_with_the_engine() {
    // The longest command allowed (65,536 bytes and its newline: more than a pipe holds) to an
    // engine that never reads: the write used to block forever, past `--timeout`.
    let dir = scratch("noread");
    let pidfile = dir.join("pid");
    let engine = format!("sh -c 'sleep 1000000 & echo $! > {}; wait'", pidfile.display());
    let setup = "x".repeat(65_536);
    let (code, _, err) = run_bounded(&[
        "--game",
        "hex:3",
        "--timeout",
        "1",
        "--a",
        &ours("uct", 1),
        "--b",
        &engine,
        "--name-b",
        "mute",
        "--setup-b",
        &setup,
    ]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("engine B (mute) did not answer") && err.contains("within 1 s"), "{err}");
    // The wrapper's child (no `exec`) ended with its process group.
    assert_ends(pid_in(&pidfile), "the engine behind the wrapper");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_behind_a_wrapper_ends_when_it_times_out() {
    let dir = scratch("wrapper");
    let pidfile = dir.join("pid");
    // The wrapper hands its input to its child (a background job's input is /dev/null otherwise).
    let engine = format!("sh -c 'exec 3<&0; sleep 1000000 <&3 & echo $! > {}; wait'", pidfile.display());
    let (code, _, err) = run_bounded(&["--game", "hex:3", "--timeout", "1", "--a", &ours("uct", 1), "--b", &engine, "--name-b", "slow"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("engine B (slow) did not answer `boardsize 3 3` within 1 s"), "{err}");
    assert_ends(pid_in(&pidfile), "the engine behind the wrapper");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_that_ignores_quit_does_not_hold_the_results() {
    // Default `--timeout` (600 s): the results used to wait that long for `quit`'s answer.
    let dir = scratch("noquit");
    let pidfile = dir.join("pid");
    let stubborn = fake_with(&dir, "resign", "", &format!("echo $$ > {}", pidfile.display()), ":");
    let (code, out, err) =
        run_bounded(&["--game", "hex:3", "--openings", "none", "--games", "2", "--a", &ours("uct", 1), "--b", &stubborn]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("2 games in"), "{out}");
    assert_ends(pid_in(&pidfile), "the engine that ignored quit");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ctrl_c_ends_both_engines_and_the_referee_says_so() {
    let dir = scratch("sigint");
    let (pa, pb) = (dir.join("a.pid"), dir.join("b.pid"));
    let a = format!("sh -c 'exec 3<&0; {} <&3 & echo $! > {}; wait'", ours("uct", 1), pa.display());
    let b = format!("sh -c 'exec 3<&0; sleep 1000000 <&3 & echo $! > {}; wait'", pb.display());
    let child = spawn(&["--game", "hex:3", "--a", &a, "--b", &b, "--name-b", "silent"]);
    let (a_pid, b_pid) = (pid_in(&pa), pid_in(&pb));
    // The referee waits for B's answer (600 s by default) when the terminal's Ctrl-C comes; in a
    // process group of their own the engines do not get it: the referee must end them.
    assert!(Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap().success());
    let out = finish(child);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("mcts: interrupted by SIGINT (Ctrl-C): both engines ended"), "{err}");
    assert_ends(a_pid, "engine A");
    assert_ends(b_pid, "engine B");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_folder_that_holds_games_is_refused_and_nothing_in_it_is_lost() {
    let dir = scratch("reuse");
    let sgf = dir.join("games");
    let resigns = fake_with(&dir, "resign", "", "echo fake engine started >&2", "printf '=\\n\\n'; exit 0");
    let args =
        ["--game", "hex:3", "--openings", "none", "--games", "2", "--a", &resigns, "--b", &ours("uct", 1), "--sgf", sgf.to_str().unwrap()];
    let (code, _, err) = run_bounded(&args);
    assert_eq!(code, Some(0), "{err}");
    let snapshot = || {
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&sgf)
            .unwrap()
            .map(|e| e.unwrap().path())
            .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
            .collect();
        files.sort();
        files
    };
    let before = snapshot();
    let names: Vec<&str> = before.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["a.stderr", "b.stderr", "game-0001.sgf", "game-0002.sgf"]);
    assert!(!before[0].1.is_empty());
    let (code, _, err) = run_bounded(&args);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(&format!("--sgf {} already holds a match's files (2 games, game-0001.sgf … game-0002.sgf, a.stderr)", sgf.display())),
        "{err}"
    );
    assert_eq!(snapshot(), before, "the second match changed the folder");
    // A folder with empty logs only (a match that stopped before its first game) is used.
    let fresh = dir.join("fresh");
    std::fs::create_dir_all(&fresh).unwrap();
    std::fs::write(fresh.join("a.stderr"), "").unwrap();
    std::fs::write(fresh.join("notes.txt"), "mine").unwrap();
    let mut args2 = args;
    args2[11] = fresh.to_str().unwrap();
    let (code, _, err) = run_bounded(&args2);
    assert_eq!(code, Some(0), "{err}");
    assert!(fresh.join("game-0002.sgf").exists());
    assert_eq!(std::fs::read_to_string(fresh.join("notes.txt")).unwrap(), "mine");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn control_characters_in_openings_and_answers_are_quoted() {
    let dir = scratch("controls");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "a1 \u{1b}[2Jzz\n").unwrap();
    let (code, _, err) =
        run_bounded(&["--game", "hex:3", "--openings", openings.to_str().unwrap(), "--a", &ours("uct", 1), "--b", &ours("uct", 2)]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains(r"move 2 ('\u{1b}[2Jzz')"), "{err}");
    assert!(!err.contains('\u{1b}'), "{err:?}");
    // An engine's answer (an illegal move) in the progress line.
    let (code, _, err) = run_bounded(&[
        "--game",
        "hex:3",
        "--openings",
        "none",
        "--games",
        "1",
        "--a",
        &ours("uct", 1),
        "--b",
        &fake(&dir, "\\033]0;x\\007", ""),
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains(r"illegal move \u{1b}]0;x\u{7}"), "{err}");
    assert!(!err.contains('\u{1b}') && !err.contains('\u{7}'), "{err:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
