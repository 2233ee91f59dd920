//! The generic conformance suite every game runs (see `tests/conformance.rs`).
#![allow(dead_code)]

use std::collections::HashSet;

use std::collections::BTreeSet;

use mcts_playground::game::{Game, MoveError, MoveList, MoveSets, NoTrace, Outcome, MOVE_WORDS};
use mcts_playground::rng::Rng64;
use serde_json::Value;

/// Brute-force winning moves (clone and play each), to check a game's fast override.
pub fn brute_winning<G: Game>(g: &G) -> Vec<G::Move> {
    let mut all = MoveList::new();
    g.legal_moves(&mut all);
    let me = g.to_move();
    all.iter()
        .copied()
        .filter(|&m| {
            let mut c = g.clone();
            c.play_unchecked(m);
            c.outcome() == Some(Outcome::Win(me))
        })
        .collect()
}

/// Brute-force non-losing moves.
pub fn brute_non_losing<G: Game>(g: &G) -> Vec<G::Move> {
    let mut all = MoveList::new();
    g.legal_moves(&mut all);
    let me = g.to_move();
    all.iter()
        .copied()
        .filter(|&m| {
            let mut c = g.clone();
            c.play_unchecked(m);
            match c.outcome() {
                Some(Outcome::Win(p)) => p == me,
                Some(Outcome::Draw) => true,
                None => brute_winning(&c).is_empty(),
            }
        })
        .collect()
}

/// Checks every invariant of the [`Game`] contract at one position.
pub fn check_position<G: Game>(g: &G, rng: &mut Rng64, deep: bool) {
    assert_eq!(g.hash(), g.hash_from_scratch(), "incremental hash differs from scratch at {}", g.board_string());
    let mut legal = MoveList::new();
    g.legal_moves(&mut legal);
    assert_eq!(legal.is_empty(), g.is_terminal(), "legal moves empty iff terminal at {}", g.board_string());
    assert_eq!(legal.len(), g.legal_count());
    let idx: Vec<usize> = legal.iter().map(|&m| g.move_index(m)).collect();
    assert!(idx.windows(2).all(|w| w[0] < w[1]), "legal moves ascending and unique");
    let legal_set: HashSet<usize> = idx.iter().copied().collect();
    for &m in &legal {
        let i = g.move_index(m);
        assert!(i < g.move_space());
        assert_eq!(g.move_from_index(i), Some(m), "index round trip");
        assert!(g.is_legal(m));
        let text = g.format_move(m);
        assert_eq!(g.parse_move(&text), Ok(m), "notation round trip of {text}");
    }
    assert_eq!(g.move_from_index(g.move_space()), None);
    // Moves not in the list are refused and leave the state untouched.
    for i in 0..g.move_space() {
        if legal_set.contains(&i) {
            continue;
        }
        let m = g.move_from_index(i).unwrap();
        assert!(!g.is_legal(m));
        let mut c = g.clone();
        let err = c.play(m).unwrap_err();
        assert!(matches!(err, MoveError::Illegal { .. } | MoveError::GameOver));
        assert_eq!(c.board_string(), g.board_string());
        assert_eq!(c.hash(), g.hash());
        break;
    }
    if g.is_terminal() {
        return;
    }
    // Copies are independent.
    let m = legal[rng.index(legal.len())];
    let mut c = g.clone();
    let (b, h) = (g.board_string(), g.hash());
    c.play(m).unwrap();
    assert_eq!(g.board_string(), b);
    assert_eq!(g.hash(), h);
    assert_eq!(c.ply(), g.ply() + 1);
    // Decisive-move overrides agree with brute force.
    if deep {
        let mut w = MoveList::new();
        g.winning_moves(&mut w);
        assert_eq!(w.to_vec(), brute_winning(g), "winning moves at {}", g.board_string());
        assert_eq!(g.find_winning_move().is_some(), !w.is_empty());
        let mut t = MoveList::new();
        g.threats(&mut t);
        assert!(t.iter().all(|&m| g.is_legal(m)), "threats are legal moves (empty cells) at {}", g.board_string());
        let mut nl = MoveList::new();
        g.non_losing_moves(&mut nl);
        assert_eq!(nl.to_vec(), brute_non_losing(g), "non-losing moves at {}", g.board_string());
    }
    // The fast playout's trace replays legally to the same outcome.
    let mut p = g.clone();
    let mut trace = Vec::new();
    let o = p.random_playout(rng, &mut trace);
    assert!(p.is_terminal());
    let mut r = g.clone();
    for &m in &trace {
        r.play(m).expect("playout trace move is legal");
    }
    assert_eq!(r.outcome(), Some(o), "playout trace replays to its outcome");
    // The legal move set is the legal move list as bits.
    let mut bits = [0u64; MOVE_WORDS];
    g.legal_move_set(&mut bits);
    let mut want = [0u64; MOVE_WORDS];
    for &i in &idx {
        want[i / 64] |= 1 << (i % 64);
    }
    assert_eq!(bits, want, "legal move set at {}", g.board_string());
    // The set playout plays the list playout's game with the same random numbers, and its sets
    // are the list's moves per player (first occurrences).
    let seed = rng.next_u64();
    let (mut a, mut b) = (g.clone(), g.clone());
    let mut list = Vec::new();
    let oa = a.random_playout(&mut Rng64::new(seed), &mut list);
    let (mut sets, mut scratch) = (MoveSets::default(), Vec::new());
    let ob = b.random_playout_sets(&mut Rng64::new(seed), &mut sets, &mut scratch);
    assert_eq!(oa, ob, "set playout outcome at {}", g.board_string());
    assert_eq!((a.ply(), a.board_string()), (b.ply(), b.board_string()), "set playout's final position");
    assert_eq!(sets, MoveSets::from_indices(g.to_move(), list.iter().map(|&m| g.move_index(m))), "set playout's moves");
    assert_eq!(sets.len as usize, list.len());
    // The filled-board playout (Hex; `None` elsewhere): recording it draws the same random
    // numbers and gives the same sets; the recorded moves, placed alternately, are the sets;
    // replayed from here, the first connection is the outcome's winner (a full board has one
    // winner and the loser never connects on the way), and the moves after it fill exactly the
    // cells still empty then.
    let seed = rng.next_u64();
    let (mut a, mut b) = (g.clone(), g.clone());
    let (mut ra, mut rb) = (Rng64::new(seed), Rng64::new(seed));
    let (mut sa, mut sb) = (MoveSets::default(), MoveSets::default());
    let mut list = Vec::new();
    let oa = a.fill_playout(&mut ra, &mut sa, &mut list);
    let ob = b.fill_playout(&mut rb, &mut sb, &mut NoTrace);
    let at = g.board_string();
    assert_eq!((oa, sa), (ob, sb), "fill playout recorded and not at {at}");
    assert_eq!(ra.next_u64(), rb.next_u64(), "recording a fill playout draws nothing more at {at}");
    if let Some(o) = oa {
        assert_eq!(sa, MoveSets::from_indices(g.to_move(), list.iter().map(|&m| g.move_index(m))), "fill sets at {at}");
        assert_eq!(sa.len as usize, list.len());
        assert_eq!(a.outcome(), Some(o));
        let mut r = g.clone();
        let mut k = 0;
        while !r.is_terminal() {
            r.play(list[k]).unwrap_or_else(|e| panic!("fill playout move {k} at {at}: {e}"));
            k += 1;
        }
        assert_eq!(r.outcome(), Some(o), "fill playout's first connection at {at}");
        let mut rest: Vec<usize> = list[k..].iter().map(|&m| r.move_index(m)).collect();
        rest.sort_unstable();
        let empty: Vec<usize> =
            r.board_string().chars().filter(|&ch| ch != '/').enumerate().filter(|&(_, ch)| ch == '.').map(|(i, _)| i).collect();
        assert_eq!(rest, empty, "the fill playout's later moves fill the empty cells at {at}");
        assert!(!a.board_string().contains('.'), "the board is full after a fill playout from {at}");
        // At the end of a game, `fill_rest` deals exactly the empty cells, ⌈e/2⌉ of them to the
        // player to move; it does nothing before the end.
        let mut rest = MoveSets::default();
        assert_eq!(g.fill_rest(rng, &mut rest), g.is_terminal(), "fill_rest before the end at {at}");
        let mut rest = MoveSets::default();
        assert!(r.fill_rest(rng, &mut rest), "fill_rest at the end");
        let cells = |set: &[u64; MOVE_WORDS]| (0..set.len() * 64).filter(|&i| set[i / 64] >> (i % 64) & 1 == 1).collect::<Vec<usize>>();
        let (mine, theirs) = (cells(&rest.by[r.to_move() as usize]), cells(&rest.by[1 - r.to_move() as usize]));
        let mut all: Vec<usize> = mine.iter().chain(&theirs).copied().collect();
        all.sort_unstable();
        assert_eq!(all, empty, "fill_rest deals the empty cells once each at {}", r.board_string());
        assert_eq!(mine.len(), empty.len().div_ceil(2), "the player to move takes the odd cell");
        assert_eq!(rest.len, 0, "the game's length is untouched");
    }
    // The game's own decisive playout (Hex; `None` elsewhere): recording it draws the same
    // random numbers and plays the same game; its sets are the recorded moves per player (first
    // occurrences) and its length theirs, recorded or not.
    let seed = rng.next_u64();
    let (mut a, mut b) = (g.clone(), g.clone());
    let (mut ra, mut rb) = (Rng64::new(seed), Rng64::new(seed));
    let (mut sa, mut sb) = (MoveSets::default(), MoveSets::default());
    let (mut ca, mut cb) = ([0u64; 2], [0u64; 2]);
    let mut list = Vec::new();
    let oa = a.decisive_playout(&mut ra, true, true, &mut sa, &mut list, &mut ca);
    let ob = b.decisive_playout(&mut rb, true, true, &mut sb, &mut NoTrace, &mut cb);
    let at = g.board_string();
    assert_eq!((oa, sa, ca), (ob, sb, cb), "decisive playout recorded and not at {at}");
    assert_eq!((a.ply(), a.board_string()), (b.ply(), b.board_string()), "decisive playout's final position at {at}");
    if oa.is_some() {
        assert_eq!(sa, MoveSets::from_indices(g.to_move(), list.iter().map(|&m| g.move_index(m))), "decisive sets at {at}");
        assert_eq!(sa.len as usize, list.len());
    }
}

/// Plays `games` random games from `start`, checking every position.
pub fn conformance<G: Game>(start: &G, games: usize, seed: u64, deep: bool) {
    let mut rng = Rng64::new(seed);
    for _ in 0..games {
        let mut g = start.clone();
        let mut legal = MoveList::new();
        loop {
            check_position(&g, &mut rng, deep);
            if g.is_terminal() {
                break;
            }
            g.legal_moves(&mut legal);
            let m = legal[rng.index(legal.len())];
            g.play_unchecked(m);
        }
        assert!(g.outcome().is_some());
    }
}

/// The game spec of a reference data key (`tests/data/*_<key>.jsonl`); Pentago under OpenSpiel's rules.
pub fn spec_of(key: &str) -> &'static str {
    match key {
        "tic_tac_toe" => "tictactoe",
        "hex5" => "hex:5",
        "hex7" => "hex:7",
        "hex11" => "hex:11",
        "pentago" => "pentago:openspiel",
        other => panic!("unknown key {other}"),
    }
}

/// The JSON records of a file in `tests/data`.
pub fn records(file: &str) -> Vec<Value> {
    let path = format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// A JSON array of strings as a set.
pub fn strings(v: &Value) -> BTreeSet<String> {
    v.as_array().unwrap().iter().map(|x| x.as_str().unwrap().to_string()).collect()
}
