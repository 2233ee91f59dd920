//! Hand-made Hex cases: geometry, winning chains, the 1×1 board, the swap rule, spec and move
//! errors, and the fast playout's outcome distribution against step-by-step random play.
mod common;

use mcts_playground::game::{AnyGame, Game, Hex, HexOptionError, MoveError, MoveList, MoveParseError, NoTrace, Outcome};
use mcts_playground::rng::Rng64;

fn hex(spec_opts: &[&str]) -> Hex {
    Hex::from_options(spec_opts).unwrap()
}

fn play_all(g: &mut Hex, moves: &str) {
    for m in moves.split_whitespace() {
        g.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

fn cell(g: &Hex, text: &str) -> usize {
    g.parse_move(text).unwrap() as usize
}

#[test]
fn hex_specs_conform() {
    // The generic suite (tests/conformance.rs) on every Hex spec, runnable on its own.
    for (i, opts) in
        [&["1"][..], &["2"], &["3"], &["5"], &["7"], &["8"], &["9"], &["11"], &["12"], &["4", "swap"], &["2", "swap"], &["6", "swap"]]
            .iter()
            .enumerate()
    {
        common::conformance(&hex(opts), 15, 500 + i as u64, true);
    }
    common::conformance(&hex(&["19"]), 2, 77, true);
    common::conformance(&hex(&["19", "swap"]), 2, 78, false);
}

#[test]
fn neighbours_follow_the_reference_geometry() {
    for n in [2usize, 3, 7, 11, 19] {
        let g = Hex::new(n, false).unwrap();
        let last = n - 1;
        // a1 and the opposite corner are acute (2 neighbours), the two others obtuse (3).
        assert_eq!(g.neighbours(0).len(), 2, "n={n} a1");
        assert_eq!(g.neighbours(last * n + last).len(), 2, "n={n} far corner");
        assert_eq!(g.neighbours(last).len(), 3, "n={n} top right");
        assert_eq!(g.neighbours(last * n).len(), 3, "n={n} bottom left");
        if n >= 3 {
            // An inner cell: (r−1,c) (r−1,c+1) (r,c−1) (r,c+1) (r+1,c−1) (r+1,c).
            let (r, c) = (1, 1);
            let want = vec![(r - 1) * n + c, (r - 1) * n + c + 1, r * n + c - 1, r * n + c + 1, (r + 1) * n + c - 1, (r + 1) * n + c];
            assert_eq!(g.neighbours(r * n + c), want);
        }
    }
}

#[test]
fn black_wins_top_to_bottom_with_the_shortest_chain_shown() {
    let mut g = hex(&["5"]);
    // Black goes down column c; White plays elsewhere without connecting.
    play_all(&mut g, "c1 a1 c2 a2 c3 a3 c4 b4");
    assert_eq!(g.outcome(), None);
    let mut w = MoveList::new();
    g.winning_moves(&mut w);
    assert_eq!(w.iter().map(|&m| g.format_move(m)).collect::<Vec<_>>(), ["b5", "c5"]);
    g.play_text("c5").unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Win(0)));
    assert_eq!(g.board_string(), "O.X../O.X../O.X../.OX../..X..");
    let v = g.view();
    assert_eq!(v.winning_cells, ["c1", "c2", "c3", "c4", "c5"].iter().map(|t| cell(&g, t)).collect::<Vec<_>>());
    assert_eq!(v.last_cells, vec![cell(&g, "c5")]);
    assert_eq!(v.to_move, None);
    assert!(g.play_text("d5").unwrap_err() == MoveError::GameOver);
}

#[test]
fn white_wins_left_to_right_along_a_row() {
    let mut g = hex(&["4"]);
    play_all(&mut g, "a1 a3 b1 b3 c1 c3 a4 d3");
    assert_eq!(g.outcome(), Some(Outcome::Win(1)));
    assert_eq!(g.view().winning_cells, ["a3", "b3", "c3", "d3"].iter().map(|t| cell(&g, t)).collect::<Vec<_>>());
}

#[test]
fn diagonals_connect_only_along_the_short_diagonal() {
    // e1 d2 c3 b4 a5 are neighbours ((r+1, c−1)); a1 b2 c3 d4 e5 are not ((r+1, c+1)).
    let mut g = hex(&["5"]);
    play_all(&mut g, "a1 a2 b2 a3 c3 a4 d4 b5 e5");
    assert_eq!(g.outcome(), None, "a1-e5 is not a chain");
    let mut g = hex(&["5"]);
    play_all(&mut g, "e1 a1 d2 b1 c3 c1 b4 d1 a5");
    assert_eq!(g.outcome(), Some(Outcome::Win(0)));
    assert_eq!(g.view().winning_cells.len(), 5);
}

#[test]
fn winning_path_is_a_shortest_chain_inside_a_bigger_group() {
    let mut g = hex(&["4"]);
    // Black group b1 b2 c2 c3 a3 a4: the shortest top-bottom chain is b1 b2 a3 a4.
    play_all(&mut g, "b1 a1 c2 d1 b2 d2 c3 d3 a3 a2 a4");
    assert_eq!(g.outcome(), Some(Outcome::Win(0)));
    let path = g.view().winning_cells;
    assert_eq!(path.len(), 4, "one stone per row is the shortest possible: {path:?}");
    let n = 4;
    for w in path.windows(2) {
        assert!(g.neighbours(w[0]).contains(&w[1]), "consecutive path cells are neighbours");
        assert_eq!(g.stone_at(w[0]), Some(0));
    }
    assert_eq!(path[0] / n, 0);
    assert_eq!(path[path.len() - 1] / n, n - 1);
}

#[test]
fn one_by_one_board_first_move_wins() {
    let mut g = hex(&["1"]);
    assert_eq!(g.legal_count(), 1);
    let mut w = MoveList::new();
    g.winning_moves(&mut w);
    assert_eq!(w.to_vec(), vec![0]);
    g.play_text("a1").unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Win(0)));
    assert_eq!(g.view().winning_cells, vec![0]);
    let mut g = hex(&["1", "swap"]);
    let mut t = Vec::new();
    assert_eq!(g.random_playout(&mut Rng64::new(1), &mut t), Outcome::Win(0));
    assert_eq!(t, vec![0]);
    let mut g = hex(&["1", "swap"]);
    assert_eq!(g.random_playout(&mut Rng64::new(1), &mut NoTrace), Outcome::Win(0));
    assert_eq!(g.outcome(), Some(Outcome::Win(0)));
}

#[test]
fn swap_rule_mirrors_the_first_stone() {
    let mut g = hex(&["5", "swap"]);
    assert_eq!(g.spec(), "hex:5:swap");
    assert_eq!(g.move_space(), 26);
    let swap = g.parse_move("swap").unwrap();
    assert_eq!(swap, 25);
    assert_eq!(g.parse_move("SWAP-PIECES"), Ok(25));
    assert_eq!(g.format_move(swap), "swap");
    assert!(!g.is_legal(swap), "not before Black's first stone");
    assert!(matches!(g.play(swap), Err(MoveError::Illegal { .. })));

    g.play_text("d2").unwrap(); // row 1, column 3
    let before = g.hash();
    assert!(g.is_legal(swap));
    let mut l = MoveList::new();
    g.legal_moves(&mut l);
    assert_eq!(l.len(), 25);
    assert_eq!(*l.last().unwrap(), swap);

    g.play_text("swap").unwrap();
    // The Black stone at (1, 3) becomes a White stone at (3, 1) = b4; Black to move again.
    assert_eq!(g.board_string(), "...../...../...../.O.../.....");
    assert_eq!(g.to_move(), 0);
    assert_eq!(g.ply(), 2);
    assert_eq!(g.legal_count(), 24);
    assert!(!g.is_legal(swap), "only on White's first turn");
    let v = g.view();
    assert_eq!(v.last_move.as_deref(), Some("swap"));
    assert_eq!(v.last_cells, vec![cell(&g, "b4")]);
    // Hash: incremental equals from scratch, differs from before the swap, and is the hash of
    // "one White stone on b4, Black to move" however it is reached.
    assert_eq!(g.hash(), g.hash_from_scratch());
    assert_ne!(g.hash(), before);
    let mut h = hex(&["5", "swap"]);
    play_all(&mut h, "b4 swap");
    assert_eq!(h.board_string(), "...../...O./...../...../.....");
    assert_ne!(h.hash(), g.hash());
    assert_eq!(h.hash(), h.hash_from_scratch());
    // The game goes on normally; a Black move after the swap is legal, swap stays illegal.
    g.play_text("c3").unwrap();
    assert!(!g.is_legal(swap));
    assert_eq!(g.hash(), g.hash_from_scratch());
}

#[test]
fn swap_of_a_diagonal_stone_keeps_the_cell() {
    let mut g = hex(&["3", "swap"]);
    play_all(&mut g, "b2 swap");
    assert_eq!(g.board_string(), ".../.O./...");
    assert_eq!(g.to_move(), 0);
    assert_eq!(g.hash(), g.hash_from_scratch());
}

#[test]
fn swap_is_refused_without_the_option() {
    let mut g = hex(&["5"]);
    g.play_text("a1").unwrap();
    let err = g.play_text("swap").unwrap_err();
    match err {
        MoveError::Parse { reason, .. } => {
            assert_eq!(reason, MoveParseError::SwapNeedsRule { size: 5 });
            assert!(reason.to_string().contains("swap rule") && reason.to_string().contains("hex:5:swap"), "{reason}");
        }
        e => panic!("expected a parse error, got {e}"),
    }
    assert_eq!(g.ply(), 1, "state untouched");
    assert_eq!(g.move_space(), 25);
    assert_eq!(g.move_from_index(25), None);
}

#[test]
fn specs_and_sizes() {
    assert_eq!(AnyGame::from_spec("hex").unwrap().spec(), "hex:11");
    assert_eq!(AnyGame::from_spec("hex:7").unwrap().spec(), "hex:7");
    assert_eq!(AnyGame::from_spec("hex:11:swap").unwrap().spec(), "hex:11:swap");
    assert_eq!(AnyGame::from_spec("hex:19").unwrap().move_space(), 361);
    let err = |opts: &[&str]| Hex::from_options(opts).unwrap_err();
    assert_eq!(err(&["20"]).to_string(), "size 20 out of range: Hex sizes are 1 to 19");
    assert_eq!(err(&["0"]).to_string(), "size 0 out of range: Hex sizes are 1 to 19");
    assert_eq!(err(&["99999999999999999999999"]), HexOptionError::SizeOutOfRange { size: "99999999999999999999999".into() });
    assert_eq!(err(&["foo"]), HexOptionError::UnknownOption { option: "foo".into() });
    assert!(err(&["foo"]).to_string().contains("unknown option 'foo'"));
    assert_eq!(err(&["7", "7"]), HexOptionError::SizeTwice { size: "7".into() });
    assert_eq!(err(&["7", "swap", "swap"]), HexOptionError::SwapTwice);
    assert!(err(&["7", "swap", "swap"]).to_string().contains("twice"));
    assert_eq!(err(&[""]), HexOptionError::EmptyOption);
    assert!(err(&[""]).to_string().contains("empty option"));
    assert!(Hex::from_options(&["-3"]).is_err());
    assert_eq!(Hex::new(20, false).unwrap_err(), HexOptionError::SizeOutOfRange { size: "20".into() });
    let e = AnyGame::from_spec("hex:20").unwrap_err().to_string();
    assert!(e.contains("size 20 out of range: Hex sizes are 1 to 19") && e.contains("hex:20"), "{e}");
    assert!(AnyGame::from_spec("hex:7:foo").unwrap_err().to_string().contains("unknown option 'foo'"));
}

#[test]
fn parse_errors_name_the_problem() {
    let g = hex(&["7"]);
    let reason = |t: &str| match g.parse_move(t) {
        Err(MoveError::Parse { reason, .. }) => reason.to_string(),
        other => panic!("{t}: expected a parse error, got {other:?}"),
    };
    assert!(reason("h1").contains("column 'h' is off the board"), "{}", reason("h1"));
    assert!(reason("a8").contains("row 8 is off the board"));
    assert!(reason("a0").contains("row 0"));
    assert!(reason("").contains("empty"));
    assert!(reason("7a").contains("column letter"));
    assert_eq!(g.parse_move("g7"), Ok(48));
    assert_eq!(g.parse_move("A1"), Ok(0));
    let g = hex(&["19"]);
    assert_eq!(g.parse_move("s19"), Ok(360));
    assert_eq!(g.format_move(360), "s19");
}

#[test]
fn occupied_cell_is_illegal_and_state_untouched() {
    let mut g = hex(&["5"]);
    g.play_text("c3").unwrap();
    let (b, h) = (g.board_string(), g.hash());
    assert!(matches!(g.play_text("c3"), Err(MoveError::Illegal { .. })));
    assert_eq!((g.board_string(), g.hash(), g.ply()), (b, h, 1));
}

#[test]
fn move_is_two_bytes() {
    assert_eq!(std::mem::size_of::<<Hex as Game>::Move>(), 2);
}

#[test]
fn threats_and_non_losing_moves_by_hand() {
    // White (to move) faces a Black threat at c5 only: the only non-losing move is c5.
    let mut g = hex(&["5"]);
    play_all(&mut g, "c1 a1 c2 a2 c3 a3 c4 a5 e5");
    assert_eq!(g.to_move(), 1);
    let mut t = MoveList::new();
    g.threats(&mut t);
    let names = |l: &MoveList<u16>| l.iter().map(|&m| g.format_move(m)).collect::<Vec<_>>();
    assert_eq!(names(&t), ["b5", "c5"]);
    let mut nl = MoveList::new();
    g.non_losing_moves(&mut nl);
    assert!(nl.is_empty(), "two threats, no White win: every move loses");
    assert_eq!(nl.to_vec(), common::brute_non_losing(&g));
}

/// The fast playout (shuffle and deal) against plain step-by-step uniform random play from the
/// empty 7×7 board: Black's win rate and the mean game length agree within generous bounds
/// (the standard error of a difference of two win rates over 20,000 games each is 0.005).
#[test]
fn fast_playout_matches_step_by_step_random_play() {
    let start = hex(&["7"]);
    let games = 20_000;
    let mut rng = Rng64::new(2024);
    let (mut fast_black, mut fast_len) = (0u32, 0usize);
    let mut trace = Vec::new();
    for _ in 0..games {
        let mut g = start.clone();
        trace.clear();
        if g.random_playout(&mut rng, &mut trace) == Outcome::Win(0) {
            fast_black += 1;
        }
        fast_len += trace.len();
        assert_eq!(g.ply(), trace.len());
    }
    let (mut slow_black, mut slow_len) = (0u32, 0usize);
    let mut moves = MoveList::new();
    for _ in 0..games {
        let mut g = start.clone();
        while !g.is_terminal() {
            g.legal_moves(&mut moves);
            g.play_unchecked(moves[rng.index(moves.len())]);
        }
        if g.outcome() == Some(Outcome::Win(0)) {
            slow_black += 1;
        }
        slow_len += g.ply();
    }
    let (pf, ps) = (fast_black as f64 / games as f64, slow_black as f64 / games as f64);
    let (lf, ls) = (fast_len as f64 / games as f64, slow_len as f64 / games as f64);
    assert!((pf - ps).abs() < 0.025, "black win rate fast {pf:.4} vs step-by-step {ps:.4}");
    assert!(pf > 0.5 && ps > 0.5, "the first player wins more often in random 7×7 play: {pf} {ps}");
    assert!((lf - ls).abs() / ls < 0.02, "mean length fast {lf:.2} vs step-by-step {ls:.2}");
}

/// Black's win rate over `games` games of plain step-by-step uniform random play from `start`
/// (every legal move, the swap move included, equally likely).
fn step_by_step_black_rate(start: &Hex, games: u32, rng: &mut Rng64) -> f64 {
    let mut black = 0u32;
    let mut moves = MoveList::new();
    for _ in 0..games {
        let mut g = start.clone();
        while !g.is_terminal() {
            g.legal_moves(&mut moves);
            g.play_unchecked(moves[rng.index(moves.len())]);
        }
        black += (g.outcome() == Some(Outcome::Win(0))) as u32;
    }
    black as f64 / games as f64
}

/// Black's win rate over `games` recorded playouts from `start`, checking that the trace
/// replays to the outcome and that the playout ends on the position the trace reaches.
fn traced_black_rate(start: &Hex, games: u32, rng: &mut Rng64) -> f64 {
    let mut black = 0u32;
    let mut trace = Vec::new();
    for _ in 0..games {
        let mut g = start.clone();
        trace.clear();
        let o = g.random_playout(rng, &mut trace);
        let mut r = start.clone();
        for &m in &trace {
            r.play(m).expect("trace move legal");
        }
        assert_eq!(r.outcome(), Some(o));
        assert_eq!(r.board_string(), g.board_string());
        assert_eq!(r.hash(), g.hash());
        black += (o == Outcome::Win(0)) as u32;
    }
    black as f64 / games as f64
}

/// Black's win rate over `games` outcome-only (`NoTrace`) playouts from `start`, checking that
/// `outcome()` afterwards is the returned outcome.
fn no_trace_black_rate(start: &Hex, games: u32, rng: &mut Rng64) -> f64 {
    let mut black = 0u32;
    for _ in 0..games {
        let mut g = start.clone();
        let o = g.random_playout(rng, &mut NoTrace);
        assert_eq!(g.outcome(), Some(o), "outcome() after a NoTrace playout is the returned outcome");
        assert!(g.is_terminal());
        black += (o == Outcome::Win(0)) as u32;
    }
    black as f64 / games as f64
}

/// The outcome-only playout (a random split of the empty cells and one connection test) and the
/// recorded playout (shuffle, winner of the full board, winner's stones until it connects) have
/// the outcome distribution of step-by-step uniform random play: Black's win rate agrees within 4
/// standard errors of the difference of two independent rates over 20,000 games each
/// (≤ 4 · √(2 · 0.25 / 20000) = 0.02), on 5×5, 7×7 and 11×11, from the empty board and from
/// mid-game positions with either side to move, and with the swap move legal (ply 1 of
/// `hex:N:swap`, where both draw the swap with probability 1/legal moves).
#[test]
fn no_trace_playout_matches_step_by_step_random_play() {
    let games = 20_000u32;
    let cases: [(&[&str], &str); 10] = [
        (&["5"], ""),
        (&["7"], ""),
        (&["11"], ""),
        (&["5"], "c3 b4"),
        (&["5"], "a1 a3 b1 b3 c1 c3 e4"),
        (&["7"], "d4 c5 e3"),
        (&["7"], "a1 a4 b1 b4 c1 c4"),
        (&["11"], "f6 e7 g5 a1 k11"),
        (&["5", "swap"], "b2"),
        (&["3", "swap"], "a3"),
    ];
    for (i, (opts, moves)) in cases.iter().enumerate() {
        let mut start = hex(opts);
        play_all(&mut start, moves);
        assert!(!start.is_terminal());
        let mut rng = Rng64::new(900 + i as u64);
        let fast = no_trace_black_rate(&start, games, &mut rng);
        let slow = step_by_step_black_rate(&start, games, &mut rng);
        let traced = traced_black_rate(&start, games, &mut rng);
        for (name, rate) in [("NoTrace", fast), ("Vec trace", traced)] {
            let se = (rate * (1.0 - rate) / games as f64 + slow * (1.0 - slow) / games as f64).sqrt().max(1e-3);
            assert!(
                (rate - slow).abs() <= 4.0 * se,
                "{} after '{moves}': Black wins {rate:.4} ({name}) vs {slow:.4} (step by step), 4 se = {:.4}",
                start.spec(),
                4.0 * se
            );
        }
    }
}

/// A NoTrace playout from a position one move from the end returns the only possible outcome,
/// and from a finished position returns its outcome without changing it.
#[test]
fn no_trace_playout_on_decided_positions() {
    // Positions of random 4×4 games with one empty cell left and no winner yet: the last move
    // decides.
    let mut rng = Rng64::new(1);
    let mut moves = MoveList::new();
    let mut found = 0;
    let mut d = hex(&["4"]);
    while found < 20 {
        let mut g = hex(&["4"]);
        while !g.is_terminal() && g.legal_count() > 1 {
            g.legal_moves(&mut moves);
            g.play_unchecked(moves[rng.index(moves.len())]);
        }
        if g.is_terminal() {
            continue;
        }
        found += 1;
        let mut c = g.clone();
        let o = c.random_playout(&mut rng, &mut NoTrace);
        d = g.clone();
        g.legal_moves(&mut moves);
        d.play_unchecked(moves[0]);
        assert_eq!(Some(o), d.outcome(), "{}", g.board_string());
        assert_eq!(c.outcome(), d.outcome());
    }
    let o = d.outcome().unwrap();
    // Finished: unchanged.
    let before = d.board_string();
    assert_eq!(d.random_playout(&mut rng, &mut NoTrace), o);
    assert_eq!(d.board_string(), before);
    // 19×19 and 12×12 (six-word boards) from the empty board: both players win sometimes.
    for n in ["12", "19"] {
        let start = hex(&[n]);
        let rate = no_trace_black_rate(&start, 2000, &mut rng);
        assert!((0.4..0.65).contains(&rate), "hex:{n}: Black wins {rate}");
    }
}

/// `cell_owners` (read per stone, once per save-bridge playout and per network input) agrees
/// with the board view cell for cell, and leaves the rest of a longer buffer alone: every side
/// 1 to 19 (all three bitboard types), random positions with and without the swap played.
#[test]
fn cell_owners_agree_with_the_view() {
    let mut rng = Rng64::new(38);
    for n in 1..=19usize {
        for swap in [false, true] {
            for _ in 0..10 {
                let mut g = Hex::new(n, swap).unwrap();
                for _ in 0..rng.below((n * n) as u32 + 1) {
                    if g.is_terminal() {
                        break;
                    }
                    let mut l = MoveList::new();
                    g.legal_moves(&mut l);
                    g.play_unchecked(l[rng.index(l.len())]);
                }
                let mut owners = vec![7i8; n * n + 3];
                g.cell_owners(&mut owners);
                assert_eq!(&owners[..n * n], &g.view().cells[..], "hex:{n} {}", g.board_string());
                assert_eq!(&owners[n * n..], &[7, 7, 7], "hex:{n}: past the cells untouched");
            }
        }
    }
}
