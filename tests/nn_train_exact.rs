//! Training with exact targets (feature `train`): a Hex position's exact targets equal the
//! solvers' values, a Tic-Tac-Toe position's equal perfect play (draws 0), and a run without them
//! trains the very weights it trained before they came. Hex 4×4 (every position proven in
//! milliseconds), Tic-Tac-Toe, tiny nets, seconds only.
#![cfg(feature = "train")]

use mcts_playground::game::{Game, Hex, MoveList, TicTacToe};
use mcts_playground::nn::features::Encoding;
use mcts_playground::nn::train::exact::{apply, apply_with, EarlyLabels, EndgameLabeller, ExactLabel, ExactPolicy, ExactTargets, Labeller};
use mcts_playground::nn::train::selfplay::self_play_record;
use mcts_playground::nn::train::{TrainConfig, Trainer};
use mcts_playground::solve::endgame::Value;
use mcts_playground::solve::hex::negamax::{solve, SolveLimits};
use std::sync::Arc;

/// A small Hex 4×4 run's settings (seed 5, no evaluation).
fn hex4() -> TrainConfig {
    TrainConfig {
        game: "hex:4".into(),
        hidden: vec![16],
        iterations: 2,
        games: 3,
        playouts: 8,
        steps: 4,
        batch: 16,
        buffer: 200,
        eval_games: 0,
        seed: 5,
        ..TrainConfig::default()
    }
}

/// The weights' CRC-32 ([`weights_crc`]) after two iterations of `cfg`, and the last
/// iteration's log.
fn run(cfg: TrainConfig) -> (u32, mcts_playground::nn::train::IterationLog) {
    let mut t = Trainer::new(cfg, None).unwrap();
    t.iterate(&mut || {});
    let log = t.iterate(&mut || {});
    (weights_crc(&t), log)
}

/// The CRC-32 the weights file of `t`'s current net carries (its last four bytes: the checksum of
/// everything before them, so of every weight).
fn weights_crc(t: &Trainer) -> u32 {
    let bytes = t.net().to_bytes();
    u32::from_le_bytes(bytes[bytes.len() - 4..].try_into().unwrap())
}

/// The moves of `g` after which its side to move wins, by the negamax solver (independent of the
/// labeller's df-pn), ascending.
fn negamax_winning_moves(g: &Hex) -> Vec<u16> {
    let me = g.to_move();
    let mut moves = MoveList::new();
    g.legal_moves(&mut moves);
    let mut wins: Vec<u16> = moves
        .iter()
        .copied()
        .filter(|&m| {
            let mut c = g.clone();
            c.play_unchecked(m);
            c.outcome().and_then(|o| o.winner()).or_else(|| solve(&c, SolveLimits::default()).ok().map(|s| s.winner)) == Some(me)
        })
        .collect();
    wins.sort_unstable();
    wins
}

#[test]
fn without_exact_targets_the_weights_are_those_of_before() {
    // A run without exact targets trains the weights a run trains whose exact labels are mixed in
    // with λ = 0 (every target left as self-play made it): the labelling itself (df-pn, no random
    // numbers) changes nothing, so the run without the flag is the run of before, bit for bit, on
    // any machine (a CRC measured on one machine would tie the test to its floating point).
    let (crc, log) = run(hex4());
    let zero = TrainConfig {
        exact_targets: Some(ExactTargets { solve_nodes: 100_000, mix: 0.0, tt_log2: 14, ..ExactTargets::default() }),
        ..hex4()
    };
    let (crc_zero, log_zero) = run(zero);
    assert_eq!(crc, crc_zero, "weights CRC {crc:#010x} against {crc_zero:#010x}");
    assert_eq!(log.exact, None);
    assert!(log_zero.exact.is_some_and(|e| e.tried > 0), "the λ = 0 run labelled its rows");
    // The setting is left out of config.json when off, so an old config.json is what it was.
    assert!(!serde_json::to_string(&hex4()).unwrap().contains("exact_targets"));
}

#[test]
fn a_labelled_positions_targets_equal_the_solvers_values() {
    // Every row of a few Hex 4×4 self-play games: the label's value and winning moves equal the
    // negamax solver's (`hex_solve`, independent of df-pn), move by move; mixed with λ = 1 the
    // row's value target is the proven result and its policy target uniform over the winning
    // moves (in the net's frame: transposed for White), or the visit distribution for a loss.
    let cfg = hex4();
    let t = Trainer::new(cfg.clone(), None).unwrap();
    let net = Arc::new(t.net());
    let start = Hex::new(4, false).unwrap();
    let enc = Encoding::for_spec("hex:4").unwrap();
    let (mut wins, mut losses) = (0, 0);
    for seed in 0..4 {
        let rec = self_play_record(&net, &start, t.config(), seed);
        let mut labeller =
            Labeller::new(&ExactTargets { solve_nodes: 1_000_000, mix: 1.0, tt_log2: 14, ..ExactTargets::default() }).unwrap();
        for ((row, &at), g) in rec.rows.iter().zip(&rec.row_plies).zip(rec.row_positions(&start)) {
            let me = g.to_move();
            let label = labeller.label(&g).expect("every 4×4 position settles");
            assert_eq!(label.mover_wins(), solve(&g, SolveLimits::default()).unwrap().winner == me, "ply {at}");
            let expected = negamax_winning_moves(&g);
            assert_eq!(label.moves, expected, "ply {at}");
            assert_eq!(label.unknown_moves, 0);
            let mut mixed = row.clone();
            apply(&label, &mut mixed, enc, me, 1.0);
            if label.mover_wins() {
                wins += 1;
                assert_eq!(mixed.z, 1.0);
                let share = 1.0 / expected.len() as f32;
                for cell in 0..16 {
                    let want = if expected.contains(&(cell as u16)) { share } else { 0.0 };
                    assert!((mixed.pi[enc.canonical(cell, me)] - want).abs() < 1e-6, "ply {at} cell {cell}");
                }
            } else {
                losses += 1;
                assert_eq!(mixed.z, -1.0);
                assert_eq!(mixed.pi, row.pi);
            }
            // λ = 0.5: halfway between the self-play targets and the exact ones.
            let mut half = row.clone();
            apply(&label, &mut half, enc, me, 0.5);
            assert!((half.z - (row.z + mixed.z) / 2.0).abs() < 1e-6);
            assert!((half.pi.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        }
    }
    assert!(wins > 0 && losses > 0, "wins {wins}, losses {losses}");
}

#[test]
fn a_run_with_exact_targets_labels_its_rows_and_trains_other_weights() {
    let cfg = TrainConfig {
        exact_targets: Some(ExactTargets { solve_nodes: 100_000, mix: 0.5, tt_log2: 14, ..ExactTargets::default() }),
        ..hex4()
    };
    let (crc, log) = run(cfg.clone());
    let exact = log.exact.expect("counted");
    // Hex 4×4: every position settles within the budget.
    assert!(exact.tried > 0 && exact.proven == exact.tried, "{exact:?}");
    assert_ne!(crc, run(hex4()).0, "exact targets train other weights");
    // Reproducible for its seed, and the setting round-trips through config.json.
    assert_eq!(run(cfg.clone()).0, crc);
    let back: TrainConfig = serde_json::from_str(&serde_json::to_string(&cfg).unwrap()).unwrap();
    assert_eq!(back, cfg);
}

#[test]
fn exact_target_settings_are_checked() {
    assert_eq!(
        ExactTargets::parse("solve_nodes=500,mix=1").unwrap(),
        ExactTargets { solve_nodes: 500, mix: 1.0, ..ExactTargets::default() }
    );
    assert_eq!(ExactTargets::parse("policy=visits").unwrap().policy, ExactPolicy::Visits);
    assert!(ExactTargets::parse("policy=best").unwrap_err().contains("the policy is uniform, visits or none"));
    assert!(ExactTargets::parse("mix=2").unwrap_err().contains("'exact_targets.mix' must be 0 to 1"));
    assert!(ExactTargets::parse("nodes=5").unwrap_err().contains("unknown key 'nodes'"));
    assert!(ExactTargets::parse("mix").unwrap_err().contains("not key=value"));
    let on = Some(ExactTargets::default());
    let err = |game: &str| {
        Trainer::new(TrainConfig { game: game.into(), exact_targets: on, ..TrainConfig::default() }, None).err().map(|e| e.to_string())
    };
    assert!(err("hex:9").unwrap().contains("needs a game the exact solver settles"));
    assert_eq!(err("tictactoe"), None);
    assert_eq!(err("hex:7"), None);
}

#[test]
fn hex5_labels_equal_the_negamax_solvers_and_the_visits_policy_keeps_the_searchs_preferences() {
    // Positions of random Hex 5×5 games (8 to 15 stones): each won position's winning moves,
    // found from the table the root's proof left, the must-play region and solves of the other
    // moves, are exactly the moves the negamax solver proves winning.
    let mut rng = mcts_playground::rng::Rng64::new(53);
    let enc = Encoding::for_spec("hex:5").unwrap();
    let e = ExactTargets { solve_nodes: 10_000_000, mix: 1.0, tt_log2: 16, policy: ExactPolicy::Visits, ..ExactTargets::default() };
    let mut labeller = Labeller::new(&e).unwrap();
    let (mut wins, mut pruned_games) = (0, 0);
    for _ in 0..24 {
        let mut g = Hex::new(5, false).unwrap();
        let plies = 8 + rng.index(8);
        for _ in 0..plies {
            if g.is_terminal() {
                break;
            }
            let mut moves = MoveList::new();
            g.legal_moves(&mut moves);
            g.play_unchecked(moves[rng.index(moves.len())]);
        }
        if g.is_terminal() {
            continue;
        }
        let me = g.to_move();
        let label = labeller.label(&g).expect("every 5×5 position settles");
        assert_eq!(label.mover_wins(), solve(&g, SolveLimits::default()).unwrap().winner == me);
        let expected = negamax_winning_moves(&g);
        assert_eq!(label.moves, expected, "{g:?}");
        assert_eq!(label.unknown_moves, 0);
        if !label.mover_wins() {
            continue;
        }
        wins += 1;
        pruned_games += (expected.len() < g.legal_count()) as usize;
        // policy=visits: π restricted to the winning moves and renormalised; λ = 1.
        let cells = enc.cells();
        let pi: Vec<f32> = (0..cells).map(|i| (i + 1) as f32).collect();
        let total: f32 = pi.iter().sum();
        let row =
            mcts_playground::nn::train::selfplay::Sample { x: vec![0.0; 2 * cells], pi: pi.iter().map(|p| p / total).collect(), z: -1.0 };
        let mut mixed = row.clone();
        apply_with(&label, &mut mixed, enc, me, 1.0, ExactPolicy::Visits);
        assert_eq!(mixed.z, 1.0);
        let on_w: f32 = expected.iter().map(|&m| row.pi[enc.canonical(m as usize, me)]).sum();
        for m in 0..cells {
            let c = enc.canonical(m, me);
            let want = if expected.contains(&(m as u16)) { row.pi[c] / on_w } else { 0.0 };
            assert!((mixed.pi[c] - want).abs() < 1e-6, "cell {m}");
        }
        // policy=none: π as self-play left it, the value exact.
        let mut value_only = row.clone();
        apply_with(&label, &mut value_only, enc, me, 1.0, ExactPolicy::None);
        assert_eq!((value_only.z, &value_only.pi), (1.0, &row.pi));
    }
    assert!(wins > 3 && pruned_games > 0, "wins {wins}");
}

/// `opening_plies`: the self-play game starts with that many random moves, which give no row,
/// are kept in the record (so every row's position replays), and differ from seed to seed; the
/// labelled rows after them still equal the negamax solver's values.
#[test]
fn self_play_from_random_openings() {
    let cfg = TrainConfig { opening_plies: 2, ..hex4() };
    let net = Arc::new(Trainer::new(cfg.clone(), None).unwrap().net());
    let start = Hex::new(4, false).unwrap();
    let mut firsts = std::collections::BTreeSet::new();
    for seed in 0..12 {
        let rec = self_play_record(&net, &start, &cfg, seed);
        assert_eq!(rec.row_plies[0], 2, "the first row comes after the two random plies");
        assert_eq!(rec.rows.len() + 2, rec.moves.len(), "every searched move gives a row, the random ones none");
        firsts.insert(rec.moves[0]);
    }
    assert!(firsts.len() > 3, "random first moves: {firsts:?}");
    let plain = self_play_record(&net, &start, &TrainConfig { opening_plies: 0, ..cfg.clone() }, 3);
    assert_eq!(plain.row_plies[0], 0);
    // `opening_plies_min`: each game's count drawn from min..=max, every count met over a few
    // games; rows start right after the random plies.
    let spread = TrainConfig { opening_plies: 3, opening_plies_min: Some(0), ..cfg.clone() };
    let mut counts = std::collections::BTreeSet::new();
    for seed in 0..16 {
        let rec = self_play_record(&net, &start, &spread, seed);
        let random = rec.moves.len() - rec.rows.len();
        assert_eq!(rec.row_plies[0], random, "the first row comes right after the random plies");
        counts.insert(random);
    }
    assert_eq!(counts.into_iter().collect::<Vec<_>>(), vec![0, 1, 2, 3]);
    let err = Trainer::new(TrainConfig { opening_plies_min: Some(4), ..spread }, None).err().expect("refused").to_string();
    assert!(err.contains("opening_plies_min") && err.contains("0 to opening_plies"), "{err}");
    let bad = TrainConfig { opening_plies: 17, ..cfg };
    let err = Trainer::new(bad, None).err().expect("refused").to_string();
    assert!(err.contains("opening_plies") && err.contains("0 to 16"), "{err}");
}

#[test]
fn early_positions_are_solved_once_with_their_own_budget_whatever_the_thread_count() {
    // Hex 6×6 from random first moves: a budget of one check (256 MID calls) leaves some
    // positions unsettled (7 of 148 rows here), among them first moves, which the early budget
    // settles, so each game has at least its first row labelled; the run is the same on 1 and 2
    // threads.
    let e = ExactTargets { solve_nodes: 1, mix: 1.0, tt_log2: 14, policy: ExactPolicy::None, early_plies: 1, early_nodes: 10_000_000 };
    let cfg = TrainConfig { game: "hex:6".into(), opening_plies: 1, games: 6, exact_targets: Some(e), ..hex4() };
    let (crc1, count1) = one_iteration(cfg.clone(), 1);
    let mut t = Trainer::new(cfg.clone(), None).unwrap();
    t.iterate(&mut || {});
    assert!((1..=cfg.games).contains(&t.early_positions()), "one solve per first move met: {}", t.early_positions());
    assert!(count1.proven >= cfg.games, "every game's first row settles with the early budget: {count1:?}");
    assert_eq!(one_iteration(cfg.clone(), 2), (crc1, count1), "the same run on 2 threads");
    let (_, plain) = one_iteration(TrainConfig { exact_targets: Some(ExactTargets { early_plies: 0, ..e }), ..cfg.clone() }, 1);
    assert!(plain.proven < count1.proven, "the early budget settles what 256 MID calls do not: {plain:?} against {count1:?}");
    // `early_plies` 0 is off, the empty board included (a game from it has a row there).
    let mut t =
        Trainer::new(TrainConfig { opening_plies: 0, exact_targets: Some(ExactTargets { early_plies: 0, ..e }), ..cfg.clone() }, None)
            .unwrap();
    t.iterate(&mut || {});
    assert_eq!(t.early_positions(), 0);
    // A position's label is solved once and then read.
    let early = EarlyLabels::default();
    let label = ExactLabel { value: Value::Win, moves: vec![3], unknown_moves: 0 };
    assert_eq!(early.get_or_solve(7, || Some(label.clone())), Some(label.clone()));
    assert_eq!(early.get_or_solve(7, || panic!("solved twice")), Some(label));
    assert_eq!(early.get_or_solve(8, || None), None);
    assert_eq!(early.get_or_solve(8, || panic!("an unsettled position is kept too")), None);
    assert_eq!(early.len(), 2);
    assert!(ExactTargets::parse("early_plies=5").unwrap_err().contains("'exact_targets.early_plies' must be 0 to 4"));
    assert_eq!(ExactTargets::parse("early_plies=2,early_nodes=9").unwrap().early_nodes, 9);
}

/// One iteration of `cfg` on `threads` threads: the weights' CRC-32 and the rows labelled.
fn one_iteration(cfg: TrainConfig, threads: usize) -> (u32, mcts_playground::nn::train::setup::ExactCount) {
    let mut t = Trainer::new(cfg, None).unwrap();
    t.set_threads(threads);
    let log = t.iterate(&mut || {});
    (weights_crc(&t), log.exact.expect("counted"))
}

/// The value of a Tic-Tac-Toe position for its side to move with perfect play, by plain negamax
/// over every line (no table, no pruning: independent of the labeller's alpha-beta).
fn ttt_negamax(g: &TicTacToe) -> i8 {
    if let Some(o) = g.outcome() {
        return match o.winner() {
            None => 0,
            Some(p) if p == g.to_move() => 1,
            Some(_) => -1,
        };
    }
    let mut moves = MoveList::new();
    g.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&m| {
            let mut c = *g;
            c.play_unchecked(m);
            -ttt_negamax(&c)
        })
        .max()
        .unwrap()
}

/// A small Tic-Tac-Toe run's settings (seed 7, no evaluation).
fn ttt() -> TrainConfig {
    TrainConfig { game: "tictactoe".into(), hidden: vec![16], games: 4, playouts: 16, eval_games: 0, seed: 7, ..hex4() }
}

#[test]
fn tictactoe_labels_equal_perfect_play_and_a_draw_is_worth_0() {
    // Every row of a few Tic-Tac-Toe self-play games: the label's value is the negamax value, its
    // moves exactly those whose child keeps that value (the winning moves of a win, the drawing
    // moves of a draw), none for a loss; mixed with λ = 1 the value target is +1, 0 or −1 and the
    // policy target uniform over those moves (the visits kept for a loss).
    let cfg = ttt();
    let t = Trainer::new(cfg.clone(), None).unwrap();
    let net = Arc::new(t.net());
    let start = TicTacToe::new();
    let enc = Encoding::for_spec("tictactoe").unwrap();
    let e = ExactTargets { mix: 1.0, ..ExactTargets::default() };
    let mut seen = [0usize; 3];
    for seed in 0..6 {
        let rec = self_play_record(&net, &start, t.config(), seed);
        let mut labeller = EndgameLabeller::<TicTacToe>::new(&e).unwrap();
        for ((row, &at), g) in rec.rows.iter().zip(&rec.row_plies).zip(rec.row_positions(&start)) {
            let me = g.to_move();
            let label = labeller.label(&g).expect("every Tic-Tac-Toe position settles");
            let v = ttt_negamax(&g);
            assert_eq!(label.value, [Value::Loss, Value::Draw, Value::Win][(v + 1) as usize], "ply {at}");
            seen[(v + 1) as usize] += 1;
            let mut legal = MoveList::new();
            g.legal_moves(&mut legal);
            let mut expected: Vec<u16> = if v == -1 {
                Vec::new()
            } else {
                legal
                    .iter()
                    .filter(|&&m| {
                        let mut c = g;
                        c.play_unchecked(m);
                        -ttt_negamax(&c) == v
                    })
                    .map(|&m| g.move_index(m) as u16)
                    .collect()
            };
            expected.sort_unstable();
            assert_eq!(label.moves, expected, "ply {at}");
            assert_eq!(label.unknown_moves, 0);
            let mut mixed = row.clone();
            apply_with(&label, &mut mixed, enc, me, 1.0, ExactPolicy::Uniform);
            assert_eq!(mixed.z, f32::from(v), "ply {at}");
            if v == -1 {
                assert_eq!(mixed.pi, row.pi);
            } else {
                let share = 1.0 / expected.len() as f32;
                for cell in 0..9 {
                    let want = if expected.contains(&(cell as u16)) { share } else { 0.0 };
                    assert!((mixed.pi[enc.canonical(cell, me)] - want).abs() < 1e-6, "ply {at} cell {cell}");
                }
            }
        }
    }
    // The empty board, every game's first row, is a draw: its z* is 0.
    assert!(seen[1] >= 6, "draws {seen:?}");
    assert!(seen[2] > 0, "wins {seen:?}");
}

#[test]
fn a_tictactoe_run_with_exact_targets_labels_every_row() {
    let with = TrainConfig { exact_targets: Some(ExactTargets { mix: 0.5, ..ExactTargets::default() }), ..ttt() };
    let (crc, log) = run(with.clone());
    let exact = log.exact.expect("counted");
    assert!(exact.tried > 0 && exact.proven == exact.tried, "{exact:?}");
    assert_ne!(crc, run(ttt()).0, "exact targets train other weights");
    assert_eq!(run(with).0, crc, "reproducible for its seed");
}

#[test]
fn the_pages_session_trains_the_same_net_with_exact_targets_and_reports_the_rows_labelled() {
    // The Train view's session (the browser's worker) and the CLI's trainer: the same labelled
    // run, and the session's iteration report counts the rows as the trainer's log does.
    use mcts_playground::nn::train::session::TrainSession;
    let cfg = TrainConfig { iterations: 1, exact_targets: Some(ExactTargets::default()), ..ttt() };
    let mut t = Trainer::new(cfg.clone(), None).unwrap();
    let log = t.iterate(&mut || {});
    let mut s = TrainSession::new(cfg, None).unwrap();
    let mut report = None;
    while !s.is_done() {
        report = s.step().finished.or(report);
    }
    assert_eq!(t.net().to_bytes(), s.weights(), "the same net after an iteration");
    let exact = report.expect("an iteration finished").exact.expect("counted");
    assert_eq!(Some(exact), log.exact);
    assert!(exact.tried > 0 && exact.proven == exact.tried, "{exact:?}");
}
