//! Training (feature `train`): burn's forward pass equals the plain-Rust inference within 1e-5,
//! and a tiny self-play + Adam run lowers the loss. Small nets and seconds only.
#![cfg(feature = "train")]

use mcts_playground::game::TicTacToe;
use mcts_playground::nn::features::Encoding;
use mcts_playground::nn::train::learner::Learner;
use mcts_playground::nn::train::selfplay::{self_play_game, Sample};
use mcts_playground::nn::train::session::TrainSession;
use mcts_playground::nn::train::{ConvShape, TrainConfig, Trainer};
use mcts_playground::nn::Net;
use mcts_playground::rng::Rng64;
use std::sync::Arc;

use burn::tensor::{Tensor, TensorData};

#[test]
fn plain_rust_forward_equals_burn_within_1e_5() {
    // Two MLPs and a convolutional net (hex:5, 8 channels, 2 residual blocks, 16 value units).
    let learners = [
        ("tictactoe", Learner::new(18, &[32, 16], 9, 1e-3, 1e-4)),
        ("hex:5", Learner::new(50, &[64, 64], 25, 1e-3, 1e-4)),
        ("hex:5", Learner::seeded_conv(4, 5, 8, 2, 16, 1e-3, 1e-4)),
    ];
    for (spec, learner) in learners {
        let enc = Encoding::for_spec(spec).unwrap();
        let (inputs, moves) = (enc.inputs(), enc.cells());
        let net: Net = learner.export(spec);
        // The file format round-trips the exported weights exactly.
        assert_eq!(Net::from_bytes(&net.to_bytes()).unwrap(), net);
        let mut rng = Rng64::new(3);
        let b = 16;
        let x: Vec<f32> = (0..b * inputs).map(|_| if rng.chance(0.3) { 1.0 } else { 0.0 }).collect();
        let t = Tensor::<2>::from_data(TensorData::new(x.clone(), [b, inputs]), learner.device());
        let (logits, v) = learner.net().forward(t);
        let logits = logits.to_data().try_to_vec::<f32>().unwrap();
        let v = v.to_data().try_to_vec::<f32>().unwrap();
        let mut mine = vec![0f32; moves];
        for r in 0..b {
            let vm = net.forward(&x[r * inputs..(r + 1) * inputs], &mut mine);
            assert!((vm - v[r]).abs() < 1e-5, "{spec} row {r}: value {vm} vs burn {}", v[r]);
            for j in 0..moves {
                let d = (mine[j] - logits[r * moves + j]).abs();
                assert!(d < 1e-5, "{spec} row {r} logit {j}: {} vs burn {}", mine[j], logits[r * moves + j]);
            }
        }
    }
}

#[test]
fn a_convolutional_net_trains_and_resumes() {
    // `conv` trains a convolutional net on Hex: one iteration runs, the net it exports is
    // convolutional with the asked shape, and a run from it goes on in the same shape.
    let shape = ConvShape { channels: 8, blocks: 1, value_hidden: 16 };
    let cfg = TrainConfig {
        game: "hex:4".into(),
        conv: Some(shape),
        iterations: 1,
        games: 3,
        playouts: 8,
        steps: 4,
        batch: 16,
        eval_games: 2,
        eval_playouts: 4,
        ..TrainConfig::default()
    };
    let mut t = Trainer::new(cfg.clone(), None).unwrap();
    let before = t.net();
    let log = t.iterate(&mut || {});
    assert_eq!(log.games, 3);
    assert!(log.loss.value.is_finite() && log.loss.policy.is_finite());
    let Net::Conv(c) = t.net() else { panic!("a convolutional net") };
    assert_eq!((c.n, c.channels(), c.body.len(), c.value_hidden.outputs), (4, 8, 1, 16));
    assert_ne!(Net::Conv(c.clone()), before, "the Adam steps changed the weights");
    let again = Trainer::new(cfg.clone(), Some(&Net::Conv(c.clone()))).unwrap();
    assert_eq!(again.net(), Net::Conv(c.clone()), "a run from a net starts from its weights");
    // The wrong kind or shape of initial net, or a game other than Hex, is a clear error.
    let other = TrainConfig { conv: Some(ConvShape { channels: 16, ..shape }), ..cfg.clone() };
    let e = Trainer::new(other, Some(&Net::Conv(c.clone()))).err().unwrap().to_string();
    assert!(e.contains("channels=16") && e.contains("not grown"), "{e}");
    let e = Trainer::new(TrainConfig { conv: None, ..cfg.clone() }, Some(&Net::Conv(c))).err().unwrap().to_string();
    assert!(e.contains("convolutional net") && e.contains("--conv"), "{e}");
    let e = Trainer::new(TrainConfig { game: "tictactoe".into(), ..cfg.clone() }, None).err().unwrap().to_string();
    assert!(e.contains("'conv' is for Hex"), "{e}");
    let e = Trainer::new(TrainConfig { conv: Some(ConvShape { channels: 0, ..shape }), ..cfg }, None).err().unwrap().to_string();
    assert!(e.contains("conv.channels"), "{e}");
    assert_eq!(ConvShape::parse("").unwrap(), ConvShape::default());
    assert_eq!(ConvShape::parse("blocks=2, channels=4").unwrap(), ConvShape { channels: 4, blocks: 2, value_hidden: 64 });
    assert!(ConvShape::parse("depth=2").unwrap_err().contains("unknown key 'depth'"));
    assert!(ConvShape::parse("channels=x").unwrap_err().contains("not a whole number"));
}

#[test]
fn a_tiny_training_run_lowers_the_loss() {
    // Self-play data from a fresh net, then Adam steps on it: the loss on the same rows falls.
    let cfg = TrainConfig { hidden: vec![64, 64], playouts: 16, ..TrainConfig::default() };
    let t = Trainer::new(cfg.clone(), None).unwrap();
    let net = Arc::new(t.net());
    let mut rows: Vec<Sample> = Vec::new();
    for seed in 0..20 {
        rows.extend(self_play_game(&net, &TicTacToe::new(), t.config(), seed));
    }
    assert!(rows.len() >= 20 * 5, "{} rows", rows.len());
    for r in &rows {
        assert!((r.pi.iter().sum::<f32>() - 1.0).abs() < 1e-4);
        assert!(r.z == 1.0 || r.z == 0.0 || r.z == -1.0);
    }
    let mut l = Learner::from_mlp(net.as_mlp().unwrap(), 3e-3, 1e-4);
    let first = l.step(&rows);
    let mut last = first;
    for _ in 0..60 {
        last = l.step(&rows);
    }
    let (a, b) = (first.policy + first.value, last.policy + last.value);
    assert!(b < 0.8 * a, "loss {a:.4} → {b:.4}");
    // The whole loop runs and logs an iteration.
    let mut tr = Trainer::new(TrainConfig { iterations: 1, games: 4, steps: 5, eval_games: 2, eval_playouts: 8, ..cfg }, None).unwrap();
    let log = tr.iterate(&mut || {});
    assert_eq!(log.games, 4);
    assert!(log.loss.policy.is_finite() && log.loss.entropy > 0.0);
    assert!(log.raw_vs_reference.is_some());
}

#[test]
fn self_play_on_threads_gives_the_same_run() {
    // The games' seeds are drawn before they start and their rows enter the buffer in game
    // order, so one iteration on 3 threads trains the same net as on one.
    let cfg = TrainConfig { hidden: vec![32], games: 7, playouts: 8, steps: 3, eval_games: 0, ..TrainConfig::default() };
    let run = |threads: usize| {
        let mut t = Trainer::new(cfg.clone(), None).unwrap();
        t.set_threads(threads);
        let mut reported = 0;
        let log = t.iterate(&mut || reported += 1);
        assert_eq!((reported, log.games, t.games()), (7, 7, 7));
        (log.buffer, log.loss, t.net())
    };
    assert_eq!(run(1), run(3));
}

#[test]
fn training_settings_and_games_are_checked() {
    assert!(Trainer::new(TrainConfig { game: "pentago".into(), ..TrainConfig::default() }, None)
        .err()
        .unwrap()
        .to_string()
        .contains("no network input encoding"));
    assert!(Trainer::new(TrainConfig { game: "chess".into(), ..TrainConfig::default() }, None).is_err());
    assert!(Trainer::new(TrainConfig { batch: 0, ..TrainConfig::default() }, None).err().unwrap().to_string().contains("batch"));
}

/// The CLI's trainer checks every setting as the browser's session does, with the same
/// sentence naming the setting and its range: among them a reference that is no preset (once
/// replaced by uct without a word), c = 0, an L2 of 1 and zero iterations, which it used to
/// accept.
#[test]
fn trainer_checks_settings_as_the_session_does() {
    let d = TrainConfig::default;
    for (cfg, want) in [
        (TrainConfig { reference: "nope".into(), ..d() }, "training setting 'reference' must be a preset name (e.g. uct)"),
        (TrainConfig { c: 0.0, ..d() }, "training setting 'c' must be above 0 and at most 100"),
        (TrainConfig { l2: 1.0, ..d() }, "training setting 'l2' must be 0 or more and below 1"),
        (TrainConfig { iterations: 0, ..d() }, "training setting 'iterations' must be 1 to 10000"),
        (TrainConfig { temperature_moves: 5_000, ..d() }, "training setting 'temperature_moves' must be 0 to 1000"),
        (TrainConfig { batch: 0, ..d() }, "training setting 'batch' must be 1 to 4096"),
        (TrainConfig { gumbel_m: 0, ..d() }, "training setting 'gumbel_m' must be 1 to 400"),
    ] {
        let by_cli = Trainer::new(cfg.clone(), None).err().map(|e| e.to_string());
        let by_page = TrainSession::new(cfg, None).err().map(|e| e.to_string());
        assert_eq!(by_cli.as_deref(), Some(want));
        assert_eq!(by_page.as_deref(), Some(want));
    }
}

/// One set-up for both trainers: the CLI's and the browser's resolve a configuration alike
/// (canonical game, AlphaZero's α) and, from one seed, train the same net in an iteration.
#[test]
fn trainer_and_session_train_the_same_net() {
    let cfg = TrainConfig {
        hidden: vec![32],
        iterations: 1,
        games: 4,
        playouts: 8,
        steps: 6,
        batch: 16,
        eval_games: 2,
        eval_playouts: 4,
        seed: 9,
        ..TrainConfig::default()
    };
    let mut t = Trainer::new(cfg.clone(), None).unwrap();
    let mut s = TrainSession::new(cfg, None).unwrap();
    assert_eq!(t.config(), s.config());
    assert_eq!(t.config().dirichlet_alpha, 1.0, "10 / 9 cells, capped at 1");
    assert_eq!(t.net().to_bytes(), s.weights(), "the same fresh net");
    t.iterate(&mut || {});
    while !s.is_done() {
        s.step();
    }
    assert_eq!(t.net().to_bytes(), s.weights(), "the same net after an iteration");
}

#[test]
fn gumbel_self_play_and_playout_cap_randomization_give_valid_rows() {
    use mcts_playground::mcts::RootRule;
    let base = TrainConfig { hidden: vec![16, 16], playouts: 16, ..TrainConfig::default() };
    let net = Arc::new(Trainer::new(base.clone(), None).unwrap().net());
    // Gumbel root: every move recorded, π is the completed-Q improved policy (sums to 1).
    let gumbel = TrainConfig { root: RootRule::Gumbel, gumbel_m: 4, ..base.clone() };
    for seed in 0..4 {
        let rows = self_play_game(&net, &TicTacToe::new(), &gumbel, seed);
        assert!(rows.len() >= 5, "a Tic-Tac-Toe game has at least 5 plies");
        for r in &rows {
            assert!((r.pi.iter().sum::<f32>() - 1.0).abs() < 1e-4);
            // The target covers every empty cell (completed Q), not only visited moves.
            let empty = (0..9).filter(|&i| r.x[i] == 0.0 && r.x[9 + i] == 0.0).count();
            assert_eq!(r.pi.iter().filter(|&&p| p > 0.0).count(), empty);
        }
        assert_eq!(rows, self_play_game(&net, &TicTacToe::new(), &gumbel, seed), "deterministic for a seed");
    }
    // Playout cap randomization: about a quarter of the moves give rows.
    let pcr = TrainConfig { full_search_fraction: 0.25, fast_playouts: 4, ..base.clone() };
    let (mut rows, mut full) = (0, 0);
    for seed in 0..40 {
        rows += self_play_game(&net, &TicTacToe::new(), &pcr, seed).len();
        full += self_play_game(&net, &TicTacToe::new(), &base, seed).len();
    }
    assert!(rows > 0 && rows * 2 < full, "{rows} rows recorded with PCR against {full} without");
}

#[test]
fn evaluation_pairs_start_from_varied_openings() {
    use mcts_playground::game::{Game, Hex};
    use mcts_playground::nn::train::eval::{play_match_from_openings, Player};
    use std::cell::RefCell;
    use std::collections::HashMap;
    let hex = Hex::new(4, false).unwrap();
    // Deterministic players (the first legal move) that note each game's first position.
    let seen: RefCell<HashMap<u64, u32>> = RefCell::new(HashMap::new());
    let first_legal = |plies: usize| -> Player<'_, Hex> {
        let seen = &seen;
        Box::new(move |g: &Hex, _rng: &mut Rng64| {
            if g.ply() == plies {
                *seen.borrow_mut().entry(g.hash()).or_default() += 1;
            }
            let mut legal = mcts_playground::game::MoveList::new();
            g.legal_moves(&mut legal);
            legal[0]
        })
    };
    let (mut a, mut b) = (first_legal(0), first_legal(0));
    let fixed = play_match_from_openings(&hex, &mut a, &mut b, 20, 5, 0);
    assert_eq!((fixed.wins, fixed.losses), (10, 10), "from the empty board: the same two games ten times");
    assert_eq!(seen.borrow().len(), 1);
    seen.borrow_mut().clear();
    let (mut a, mut b) = (first_legal(2), first_legal(2));
    let varied = play_match_from_openings(&hex, &mut a, &mut b, 20, 5, 2);
    assert_eq!(varied.wins + varied.losses, 20);
    let openings = seen.borrow().clone();
    assert!(openings.len() >= 5, "{} distinct openings in 10 pairs", openings.len());
    assert!(openings.values().all(|&n| n % 2 == 0), "each opening is played with both colours");
}

/// `init` with fewer or narrower hidden layers than the run's `hidden` is grown by Net2Net: the
/// run starts from the same function in the larger net and trains it; a larger `init` is an
/// error naming both shapes.
#[test]
fn a_smaller_init_net_is_grown_to_the_runs_shape() {
    let small = Trainer::new(TrainConfig { hidden: vec![16], ..TrainConfig::default() }, None).unwrap().net();
    let cfg = TrainConfig { hidden: vec![24, 16], games: 2, playouts: 8, steps: 2, eval_games: 0, ..TrainConfig::default() };
    let mut t = Trainer::new(cfg.clone(), Some(&small)).unwrap();
    let grown = t.net();
    assert_eq!(grown.as_mlp().unwrap().hidden(), vec![24, 16]);
    let mut rng = Rng64::new(9);
    let (mut a, mut b) = (vec![0f32; 9], vec![0f32; 9]);
    for _ in 0..50 {
        let x: Vec<f32> = (0..18).map(|_| if rng.chance(0.3) { 1.0 } else { 0.0 }).collect();
        let (va, vb) = (small.forward(&x, &mut a), grown.forward(&x, &mut b));
        assert!((va - vb).abs() < 1e-5, "value {va} vs {vb}");
        a.iter().zip(&b).for_each(|(p, q)| assert!((p - q).abs() < 1e-5, "logit {p} vs {q}"));
    }
    t.iterate(&mut || {});
    assert_eq!(t.net().as_mlp().unwrap().hidden(), vec![24, 16]);
    assert_ne!(t.net(), grown, "the grown net trains");
    let err = Trainer::new(TrainConfig { hidden: vec![8], ..cfg }, Some(&small)).err().unwrap().to_string();
    assert!(err.contains("[16]") && err.contains("[8]"), "{err}");
}

/// Issue 53: a convolutional initial net trains on only in a run that asks for a convolutional
/// net (`conv`); otherwise both trainers, the CLI's and the page's, refuse it with the same
/// sentence, and a run of the same shape starts from it in either.
#[test]
fn a_convolutional_init_net_needs_a_convolutional_run() {
    let conv = mcts_playground::nn::Net::Conv(mcts_playground::nn::ConvNet::zeros("hex:5", 5, 4, 1, 8));
    let cfg = TrainConfig { game: "hex:5".into(), ..TrainConfig::default() };
    let by_cli = Trainer::new(cfg.clone(), Some(&conv)).err().expect("refused").to_string();
    let by_page = TrainSession::new(cfg.clone(), Some(&conv)).err().expect("refused").to_string();
    assert!(by_cli.contains("a convolutional net") && by_cli.contains("--conv"), "{by_cli}");
    assert_eq!(by_cli, by_page);
    let shape = ConvShape { channels: 4, blocks: 1, value_hidden: 8 };
    let run = TrainConfig { conv: Some(shape), ..cfg };
    assert_eq!(Trainer::new(run.clone(), Some(&conv)).unwrap().net(), conv);
    assert_eq!(TrainSession::new(run, Some(&conv)).unwrap().net(), conv);
}
