//! The exact endgame solver (`solve::endgame`: alpha-beta over win/draw/loss) against brute force:
//! every reachable Tic-Tac-Toe position against a minimax over a Tic-Tac-Toe written here from
//! scratch; Pentago endgames with few empty cells, under each rule set, against a plain minimax
//! over the crate's rules (no table, no pruning); the reference tactics records (OpenSpiel) whose
//! value is exact ("win": the side to move wins at once, "lost": every move loses at once); and
//! the session's slices, budget and refusals.

mod common;

use std::collections::HashMap;

use common::{records, spec_of};
use mcts_playground::game::{AnyGame, Game, MoveList, Outcome, Pentago, PentagoRules, TicTacToe};
use mcts_playground::rng::Rng64;
use mcts_playground::solve::endgame::{check, EndgameSession, Exact, ExactConfig, ExactError, ExactSession, Value, PENTAGO_MAX_EMPTY};

// ---- Tic-Tac-Toe from scratch -------------------------------------------------------------

const LINES: [[usize; 3]; 8] = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

/// A board of 9 cells, 0 empty, 1 X, 2 O, read from a board string (`X../.O./...`).
fn board_of(s: &str) -> [u8; 9] {
    let mut b = [0; 9];
    for (i, c) in s.chars().filter(|&c| c != '/').enumerate() {
        b[i] = match c {
            'X' => 1,
            'O' => 2,
            _ => 0,
        };
    }
    b
}

fn line_of(b: &[u8; 9], who: u8) -> bool {
    LINES.iter().any(|l| l.iter().all(|&i| b[i] == who))
}

/// Minimax value for the side to move `who` (1 or 2): 1 win, 0 draw, −1 loss. Plain recursion.
fn ttt_value(b: &mut [u8; 9], who: u8) -> i32 {
    let other = 3 - who;
    if line_of(b, other) {
        return -1;
    }
    if b.iter().all(|&c| c != 0) {
        return 0;
    }
    let mut best = -2;
    for i in 0..9 {
        if b[i] == 0 {
            b[i] = who;
            best = best.max(-ttt_value(b, other));
            b[i] = 0;
        }
    }
    best
}

fn value_of(v: i32) -> Value {
    match v {
        1 => Value::Win,
        0 => Value::Draw,
        _ => Value::Loss,
    }
}

/// Every position reachable from the empty board (by board string), finished ones included.
fn reachable(g: &TicTacToe, out: &mut HashMap<String, TicTacToe>) {
    if out.insert(g.board_string(), *g).is_some() || g.outcome().is_some() {
        return;
    }
    let mut moves = MoveList::new();
    g.legal_moves(&mut moves);
    for &m in &moves {
        let mut c = *g;
        c.play_unchecked(m);
        reachable(&c, out);
    }
}

#[test]
fn tic_tac_toe_empty_board_is_a_draw() {
    let mut s = Exact::<TicTacToe>::new(ExactConfig { tt_log2: 12 }).unwrap();
    let r = s.solve(&TicTacToe::new(), &mut |_| false).unwrap();
    assert_eq!(r.value, Value::Draw);
    // The drawing move keeps the draw.
    let mut after = TicTacToe::new();
    after.play_unchecked(r.best.expect("a drawing move"));
    assert_eq!(ttt_value(&mut board_of(&after.board_string()), 2), 0);
    assert!(s.stats().nodes > 0);
    // Every first move of X draws (a known result), with the session's per-move values.
    let mut session = ExactSession::new(&TicTacToe::new(), ExactConfig { tt_log2: 12 }).unwrap();
    assert!(session.run(&mut |_| false));
    let p = session.progress();
    assert!(p.done);
    assert_eq!(p.value, Some(Value::Draw));
    assert_eq!(p.moves.len(), 9);
    assert!(p.moves.iter().all(|&(_, v)| v == Some(Value::Draw)), "{:?}", p.moves);
}

/// Each of the 5,478 reachable positions: the root value and the value of every move, against
/// the minimax above; one solver (its table shared across all positions) and a session per
/// position.
#[test]
fn tic_tac_toe_every_reachable_position_matches_brute_force() {
    let mut all = HashMap::new();
    reachable(&TicTacToe::new(), &mut all);
    assert_eq!(all.len(), 5478, "distinct reachable positions (tests/data/README.md)");
    let mut shared = Exact::<TicTacToe>::new(ExactConfig { tt_log2: 12 }).unwrap();
    let mut counts = [0; 3];
    for (board, g) in &all {
        if g.outcome().is_some() {
            continue;
        }
        let who = if g.to_move() == 0 { 1 } else { 2 };
        let want = value_of(ttt_value(&mut board_of(board), who));
        counts[want as usize] += 1;
        let r = shared.solve(g, &mut |_| false).unwrap();
        assert_eq!(r.value, want, "{board}");
        let mut session = ExactSession::new(g, ExactConfig { tt_log2: 10 }).unwrap();
        assert!(session.run(&mut |_| false));
        let p = session.progress();
        assert_eq!(p.value, Some(want), "{board}");
        for &(m, v) in &p.moves {
            let mut c = *g;
            c.play_unchecked(m);
            let mut b = board_of(&c.board_string());
            let after = if line_of(&b, who) { 1 } else { -ttt_value(&mut b, 3 - who) };
            assert_eq!(v, Some(value_of(after)), "{board} then {}", g.format_move(m));
        }
        // The best move keeps the value; a lost position has none.
        match p.best {
            Some(m) => assert_eq!(p.moves.iter().find(|x| x.0 == m).unwrap().1, Some(want), "{board}"),
            None => assert_eq!(want, Value::Loss, "{board}"),
        }
    }
    // Wins, draws and losses all occur.
    assert!(counts.iter().all(|&c| c > 100), "{counts:?}");
}

// ---- Pentago endgames ----------------------------------------------------------------------

/// Plain minimax over the crate's rules: the value for the side to move.
fn pentago_value(g: &Pentago) -> Value {
    let me = g.to_move();
    let mut moves = MoveList::new();
    g.legal_moves(&mut moves);
    let mut best = Value::Loss;
    for &m in &moves {
        let mut c = *g;
        c.play_unchecked(m);
        let v = match c.outcome() {
            Some(o) => Value::of_outcome(o, me),
            None => pentago_value(&c).flip(),
        };
        best = best.max(v);
        if best == Value::Win {
            break;
        }
    }
    best
}

/// A position with `empty` empty cells, reached by random moves after which the game goes on
/// and neither side can win at once ("quiet" moves, so that the endgame is not decided at
/// once); `None` when the random game got stuck.
fn quiet_endgame(rules: PentagoRules, dedup: bool, empty: usize, rng: &mut Rng64) -> Option<Pentago> {
    endgame(rules, dedup, empty, true, rng)
}

/// As [`quiet_endgame`], or with `quiet` false by any random moves that do not end the game.
fn endgame(rules: PentagoRules, dedup: bool, empty: usize, quiet: bool, rng: &mut Rng64) -> Option<Pentago> {
    let mut g = Pentago::new(rules, dedup);
    while 36 - g.ply() > empty {
        let mut moves = MoveList::new();
        g.legal_moves(&mut moves);
        let quiet: Vec<u16> = moves
            .iter()
            .copied()
            .filter(|&m| {
                let mut c = g;
                c.play_unchecked(m);
                let mut t = MoveList::new();
                c.threats(&mut t);
                c.outcome().is_none() && (!quiet || (c.find_winning_move().is_none() && t.is_empty()))
            })
            .collect();
        if quiet.is_empty() {
            return None;
        }
        g.play_unchecked(quiet[rng.index(quiet.len())]);
    }
    Some(g)
}

/// Each rule set, with and without `:dedup`: positions with 3 and 4 empty cells (quiet ones, and
/// ones reached by any moves), root and every move against the plain minimax, until each rule
/// set has had wins, draws and losses.
#[test]
fn pentago_endgames_match_brute_force() {
    let mut rng = Rng64::new(2024);
    for rules in [PentagoRules::Official, PentagoRules::OpenSpiel, PentagoRules::Twist] {
        let mut seen: HashMap<Value, usize> = HashMap::new();
        let mut tried = 0;
        while [Value::Win, Value::Draw, Value::Loss].iter().any(|v| seen.get(v).copied().unwrap_or(0) < 3) {
            tried += 1;
            assert!(tried < 2000, "{rules:?}: {seen:?} after {tried} positions");
            let (dedup, empty, quiet) = (tried % 3 == 0, 3 + tried % 2, tried % 4 != 0);
            let Some(g) = endgame(rules, dedup, empty, quiet, &mut rng) else { continue };
            let want = pentago_value(&g);
            // Enough of this value already: only the rarer ones are checked further.
            if seen.get(&want).copied().unwrap_or(0) >= 6 {
                continue;
            }
            *seen.entry(want).or_insert(0) += 1;
            let ctx = format!("{} {}", g.spec(), g.board_string());
            let mut session = ExactSession::new(&g, ExactConfig { tt_log2: 14 }).unwrap();
            assert!(session.run(&mut |_| false));
            let p = session.progress();
            assert_eq!(p.value, Some(want), "{ctx}");
            let mut legal = MoveList::new();
            g.legal_moves(&mut legal);
            assert_eq!(p.moves.len(), legal.len(), "{ctx}: every legal move has a value");
            for &(m, v) in &p.moves {
                let mut c = g;
                c.play_unchecked(m);
                let after = match c.outcome() {
                    Some(o) => Value::of_outcome(o, g.to_move()),
                    None => pentago_value(&c).flip(),
                };
                assert_eq!(v, Some(after), "{ctx} then {}", g.format_move(m));
            }
            assert_eq!(p.moves.iter().map(|x| x.1.unwrap()).max(), Some(want), "{ctx}: the root is its best move");
        }
    }
}

/// Five empty cells (40 · 32 · 24 · 16 · 8 lines for the plain minimax): a few positions.
#[test]
fn pentago_five_empty_cells_match_brute_force() {
    let mut rng = Rng64::new(77);
    let mut done = 0;
    while done < 3 {
        let Some(g) = quiet_endgame(PentagoRules::Official, false, 5, &mut rng) else { continue };
        // Only positions the search cannot settle at its first node.
        let mut e = Exact::<Pentago>::new(ExactConfig { tt_log2: 16 }).unwrap();
        let r = e.solve(&g, &mut |_| false).unwrap();
        if e.stats().expanded < 3 {
            continue;
        }
        done += 1;
        assert_eq!(r.value, pentago_value(&g), "{}", g.board_string());
        if let Some(m) = r.best {
            let mut c = g;
            c.play_unchecked(m);
            let after = c.outcome().map(|o| Value::of_outcome(o, g.to_move())).unwrap_or_else(|| pentago_value(&c).flip());
            assert_eq!(after, r.value, "{}: the best move keeps the value", g.board_string());
        }
    }
}

/// The reference tactics (OpenSpiel 2.0.2): "win" positions are wins, "lost" positions losses,
/// whatever their number of empty cells (the solver settles both at its first node).
#[test]
fn reference_tactics_have_their_exact_values() {
    for key in ["tic_tac_toe", "pentago"] {
        let mut n = 0;
        for r in records(&format!("tactics_{key}.jsonl")) {
            let mut g = AnyGame::from_spec(spec_of(key)).unwrap();
            for m in r["moves"].as_array().unwrap() {
                g.play_text(m.as_str().unwrap()).unwrap();
            }
            let want = match r["kind"].as_str().unwrap() {
                "win" => Value::Win,
                "lost" => Value::Loss,
                _ => continue,
            };
            let got = mcts_playground::with_game!(&g, x => Exact::new(ExactConfig { tt_log2: 10 }).unwrap().solve(x, &mut |_| false).unwrap().value);
            assert_eq!(got, want, "{key} {}", g.board_string());
            n += 1;
        }
        assert!(n > 10, "{key}: {n} records with an exact value");
    }
}

// ---- slices, budget, refusals ---------------------------------------------------------------

/// A session stopped every 64 positions ends with the same values as one run straight through
/// (what was finished stays in the table), and a stopped solve says nothing.
#[test]
fn a_session_in_slices_matches_one_run() {
    let mut rng = Rng64::new(5);
    let g = loop {
        let Some(g) = quiet_endgame(PentagoRules::Official, false, 7, &mut rng) else { continue };
        let mut e = Exact::<Pentago>::new(ExactConfig { tt_log2: 16 }).unwrap();
        e.solve(&g, &mut |_| false).unwrap();
        if e.stats().nodes > 2000 {
            break g;
        }
    };
    let mut whole = ExactSession::new(&g, ExactConfig { tt_log2: 16 }).unwrap();
    assert!(whole.run(&mut |_| false));
    let mut sliced = ExactSession::new(&g, ExactConfig { tt_log2: 16 }).unwrap();
    let mut slices = 0;
    loop {
        let mut calls = 0;
        if sliced.run(&mut |_| {
            calls += 1;
            calls > 1
        }) {
            break;
        }
        slices += 1;
        assert!(slices < 1_000_000);
    }
    assert!(slices > 1, "the run was cut into slices");
    let (a, b) = (whole.progress(), sliced.progress());
    assert_eq!(a.value, b.value);
    assert_eq!(a.moves, b.moves);
    // A solve stopped at once reports nothing.
    let mut e = Exact::<Pentago>::new(ExactConfig { tt_log2: 16 }).unwrap();
    assert_eq!(e.solve(&g, &mut |_| true), None);
}

#[test]
fn what_the_endgame_solver_refuses() {
    let start = AnyGame::from_spec("pentago").unwrap();
    let e = check(&start).unwrap_err();
    assert_eq!(e, ExactError::TooLarge { empty: 36, limit: PENTAGO_MAX_EMPTY });
    assert!(e.to_string().contains("Pentago with 36 empty cells is too large for the exact solver"), "{e}");
    assert!(matches!(EndgameSession::new(&start, ExactConfig::default()), Err(ExactError::TooLarge { .. })));
    assert_eq!(check(&AnyGame::from_spec("hex:4").unwrap()), Err(ExactError::Hex));
    assert_eq!(check(&AnyGame::from_spec("tictactoe").unwrap()), Ok(()));
    // A finished game has its value and nothing to search.
    let mut g = AnyGame::from_spec("tictactoe").unwrap();
    for m in ["a1", "a2", "b1", "b2", "c1"] {
        g.play_text(m).unwrap();
    }
    assert_eq!(g.outcome(), Some(Outcome::Win(0)));
    let mut s = EndgameSession::new(&g, ExactConfig { tt_log2: 10 }).unwrap();
    assert!(s.run(&mut |_| false));
    let p = s.progress();
    assert!(p.done && p.moves.is_empty());
    assert_eq!(p.value.map(|v| v.winner(p.to_move)), Some(Some(0)));
}
