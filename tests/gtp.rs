//! `mcts gtp` driven over standard input as HexGui drives it: every command HexGui sends is
//! answered or refused with `? message`; garbage, very long lines, bytes that are not UTF-8 and
//! end of input are handled; `boardsize` mid-game starts a clean game; `quit` exits 0.

use std::io::Write;
use std::process::{Command, Stdio};

use mcts_playground::limits::MAX_GTP_LINE_BYTES;

/// Runs `mcts gtp ARGS` with `input` on standard input; returns the exit success and the
/// responses (GTP ends each with an empty line).
fn gtp(args: &[&str], input: &[u8]) -> (bool, Vec<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcts"))
        .arg("gtp")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run mcts gtp");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Written from a thread: a long input must not dead-lock against unread output.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let text = String::from_utf8(out.stdout).expect("responses are UTF-8");
    let replies = text.split("\n\n").filter(|r| !r.trim().is_empty()).map(str::to_string).collect();
    (out.status.success(), replies)
}

#[test]
fn hexgui_session_every_command_answered() {
    let input = b"protocol_version\nname\nversion\nhexgui-analyze_commands\nlist_commands\nknown_command genmove\nknown_command frobnicate\n\
boardsize 5 5\nclear_board\nkomi 6.5\ntime_settings 300 0 0\ntime_left b 120 0\nplay b c3\ngenmove w\nreg_genmove b\nshowboard\nfinal_score\nundo\nundo\nshowboard\nquit\n";
    let (ok, r) = gtp(&["--game", "hex:7", "--iterations", "300"], input);
    assert!(ok, "quit exits 0");
    assert_eq!(r.len(), 21, "{r:?}");
    assert_eq!(r[0], "= 2");
    assert_eq!(r[1], "= mcts-playground");
    assert!(r[2].starts_with("= "));
    assert!(r[3].contains("showboard") && r[3].contains("final_score"), "{}", r[3]);
    for c in ["boardsize", "play", "genmove", "undo", "final_score", "time_left", "hexgui-analyze_commands", "quit"] {
        assert!(r[4].lines().any(|l| l.trim_start_matches("= ") == c), "list_commands lacks {c}: {}", r[4]);
    }
    assert_eq!(r[5], "= true");
    assert_eq!(r[6], "= false");
    assert_eq!(r[7], "=", "HexGui's boardsize W H");
    assert_eq!(r[8], "=");
    assert_eq!(r[9], "=", "komi is accepted");
    assert_eq!(r[10], "=");
    assert_eq!(r[11], "=");
    assert_eq!(r[12], "=");
    assert!(r[13].starts_with("= ") && r[13].len() > 2, "genmove answers a move: {}", r[13]);
    assert!(r[14].starts_with("= "), "reg_genmove answers a move without playing it: {}", r[14]);
    assert!(r[15].contains("black to move"), "reg_genmove played nothing: {}", r[15]);
    assert!(r[16].starts_with("? the game is not over"), "{}", r[16]);
    assert_eq!(r[17], "=");
    assert_eq!(r[18], "=");
    // 5×5 board, empty again.
    let rows: Vec<&str> = r[19].lines().filter(|l| l.contains('.')).collect();
    assert_eq!(rows.len(), 5, "{}", r[19]);
    assert!(rows.iter().all(|l| !l.contains('X') && !l.contains('O')));
    assert_eq!(r[20], "=");
}

#[test]
fn garbage_and_bad_arguments_are_refused_with_messages() {
    let input = "frobnicate\nplay\nplay purple a1\nplay b\nplay b z99\nboardsize\nboardsize 7 9\nboardsize 0\nboardsize 99\nboardsize -3\n\
genmove\ngenmove green\nkomi lots\ntime_left b\ntime_settings a b c\nknown_command\nundo\n\u{7}\u{1b}[2J\n   \t  \n# only a comment\n12 name # trailing comment\n\
\u{e9}\u{e8} \u{1f600}\nplay b a1\r\nquit\n";
    let (ok, r) = gtp(&["--game", "hex:7", "--iterations", "50"], input.as_bytes());
    assert!(ok);
    let expect = [
        "? unknown command 'frobnicate'",
        "? play expects a color and a move",
        "? unknown color 'purple'",
        "? play expects a color and a move",
        "? illegal move",
        "? boardsize expects a number",
        "? boardsize expects a number",
        "? unacceptable size",
        "? unacceptable size",
        "? boardsize expects a number",
        "? genmove expects a color",
        "? unknown color 'green'",
        "? komi expects a number",
        "? syntax error: expected time_left",
        "? syntax error: expected time_settings",
        "= false",
        "? cannot undo",
        // BEL and ESC are removed (GTP 2 §3.1), leaving `[2J`.
        "? unknown command '[2J'",
        "=12 mcts-playground",
        "? unknown command",
        // The CR of a CRLF line is removed.
        "=",
        "=",
    ];
    assert_eq!(r.len(), expect.len(), "{r:?}");
    for (got, want) in r.iter().zip(expect) {
        assert!(got.starts_with(want), "expected '{want}', got '{got}'");
    }
}

#[test]
fn bytes_that_are_not_utf8_are_refused() {
    let (ok, r) = gtp(&["--game", "hex:5"], b"\xff\xfe name\nplay b \xc3(\nname\n");
    assert!(ok);
    assert_eq!(r.len(), 3, "{r:?}");
    assert!(r[0].starts_with("? unknown command"), "{}", r[0]);
    assert!(r[1].starts_with("? illegal move"), "{}", r[1]);
    assert_eq!(r[2], "= mcts-playground");
}

#[test]
fn a_very_long_line_is_refused_and_the_session_goes_on() {
    let mut input = Vec::new();
    input.extend_from_slice(b"play b c3\n");
    input.extend(std::iter::repeat_n(b'x', MAX_GTP_LINE_BYTES * 4));
    input.extend_from_slice(b"\nshowboard\n");
    // A line of exactly the limit is read (and refused as a command).
    input.extend(std::iter::repeat_n(b'y', MAX_GTP_LINE_BYTES));
    input.extend_from_slice(b"\nquit\n");
    let (ok, r) = gtp(&["--game", "hex:5"], &input);
    assert!(ok);
    assert_eq!(r.len(), 5, "{:?}", r.iter().map(|x| &x[..x.len().min(80)]).collect::<Vec<_>>());
    assert_eq!(r[0], "=");
    assert_eq!(r[1], format!("? command line too long ({} bytes; at most {MAX_GTP_LINE_BYTES})", MAX_GTP_LINE_BYTES * 4));
    assert!(r[2].contains("X"), "the game survived: {}", r[2]);
    // The unknown command is named, shortened.
    assert_eq!(r[3], format!("? unknown command '{}…'", "y".repeat(40)));
    assert_eq!(r[4], "=");
}

#[test]
fn end_of_input_without_quit_exits_cleanly() {
    let (ok, r) = gtp(&["--game", "tictactoe"], b"play b b2\nshowboard");
    assert!(ok, "EOF is a clean end");
    assert_eq!(r.len(), 2);
    assert!(r[1].contains("X"), "the last line without a newline is still answered: {}", r[1]);
    let (ok, r) = gtp(&["--game", "tictactoe"], b"");
    assert!(ok && r.is_empty());
}

#[test]
fn boardsize_mid_game_resets_cleanly() {
    let input = b"play b a1\nplay w b2\ngenmove b\nboardsize 3\nshowboard\nplay w a1\nplay b a1\ngenmove w\nundo\nundo\nundo\nquit\n";
    let (ok, r) = gtp(&["--game", "hex:9", "--iterations", "200"], input);
    assert!(ok);
    assert_eq!(r[3], "=");
    let board: Vec<&str> = r[4].lines().filter(|l| l.contains('.')).collect();
    assert_eq!(board.len(), 3, "a 3×3 board: {}", r[4]);
    assert!(r[4].contains("black to move") && !r[4].contains('X'), "{}", r[4]);
    assert!(r[5].starts_with("? it is black's turn"), "{}", r[5]);
    assert_eq!(r[6], "=");
    assert!(r[7].starts_with("= "), "{}", r[7]);
    assert_eq!(r[8], "=");
    assert_eq!(r[9], "=");
    assert!(r[10].starts_with("? cannot undo"), "the old game's moves are gone: {}", r[10]);
}

#[test]
fn fixed_size_games_refuse_other_sizes_and_score_the_end() {
    let input =
        b"boardsize 4\nboardsize 3\nplay b a1\nplay w a2\nplay b b1\nplay w b2\nplay b c1\nfinal_score\nplay w c3\ngenmove w\nquit\n";
    let (ok, r) = gtp(&["--game", "tictactoe"], input);
    assert!(ok);
    assert!(r[0].starts_with("? unacceptable size: tictactoe is played on 3×3 only"), "{}", r[0]);
    assert_eq!(r[1], "=");
    assert_eq!(r[7], "= B+");
    assert!(r[8].starts_with("? game over"), "{}", r[8]);
    assert!(r[9].starts_with("? game over"), "{}", r[9]);
}

/// Finding: `showboard` after the end said `game over: Win(0)` (a Rust debug format); it now
/// says who won in the protocol's colours, as the turn errors do ("it is black's turn").
#[test]
fn showboard_names_the_winner_in_words() {
    let won = b"play b a1\nplay w a2\nplay b b1\nplay w b2\nplay b c1\nshowboard\nquit\n";
    let (ok, r) = gtp(&["--game", "tictactoe"], won);
    assert!(ok);
    assert!(r[5].ends_with("game over: black wins"), "{}", r[5]);
    let won = b"play b a1\nplay w b1\nplay b a2\nplay w b2\nplay b c3\nplay w b3\nshowboard\nquit\n";
    let (ok, r) = gtp(&["--game", "tictactoe"], won);
    assert!(ok);
    assert!(r[6].ends_with("game over: white wins"), "{}", r[6]);
    // X O X / X O O / O X X: a full board, no line.
    let drawn = b"play b a1\nplay w b1\nplay b c1\nplay w b2\nplay b a2\nplay w c2\nplay b b3\nplay w a3\nplay b c3\nshowboard\nquit\n";
    let (ok, r) = gtp(&["--game", "tictactoe"], drawn);
    assert!(ok);
    assert!(r[9].ends_with("game over: draw"), "{:?}", r);
    assert!(r.iter().all(|x| !x.contains("Win(") && !x.contains("Draw")), "{r:?}");
}
