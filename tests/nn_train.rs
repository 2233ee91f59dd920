//! Training (feature `train`): burn's forward pass equals the plain-Rust inference within 1e-5,
//! and a tiny self-play + Adam run lowers the loss. Small nets and seconds only.
#![cfg(feature = "train")]

use mcts_playground::game::TicTacToe;
use mcts_playground::nn::features::Encoding;
use mcts_playground::nn::train::learner::Learner;
use mcts_playground::nn::train::selfplay::{self_play_game, Sample};
use mcts_playground::nn::train::{TrainConfig, Trainer};
use mcts_playground::nn::Mlp;
use mcts_playground::rng::Rng64;
use std::sync::Arc;

use burn::tensor::{Tensor, TensorData};

#[test]
fn plain_rust_forward_equals_burn_within_1e_5() {
    for (spec, hidden) in [("tictactoe", vec![32, 16]), ("hex:5", vec![64, 64])] {
        let enc = Encoding::for_spec(spec).unwrap();
        let (inputs, moves) = (enc.inputs(), enc.cells());
        let learner = Learner::new(inputs, &hidden, moves, 1e-3, 1e-4);
        let mlp: Mlp = learner.export(spec);
        // The file format round-trips the exported weights exactly.
        assert_eq!(Mlp::from_bytes(&mlp.to_bytes()).unwrap(), mlp);
        let mut rng = Rng64::new(3);
        let b = 16;
        let x: Vec<f32> = (0..b * inputs).map(|_| if rng.chance(0.3) { 1.0 } else { 0.0 }).collect();
        let t = Tensor::<2>::from_data(TensorData::new(x.clone(), [b, inputs]), learner.device());
        let (logits, v) = learner.net().forward(t);
        let logits = logits.to_data().try_to_vec::<f32>().unwrap();
        let v = v.to_data().try_to_vec::<f32>().unwrap();
        let mut mine = vec![0f32; moves];
        for r in 0..b {
            let vm = mlp.forward(&x[r * inputs..(r + 1) * inputs], &mut mine);
            assert!((vm - v[r]).abs() < 1e-5, "{spec} row {r}: value {vm} vs burn {}", v[r]);
            for j in 0..moves {
                let d = (mine[j] - logits[r * moves + j]).abs();
                assert!(d < 1e-5, "{spec} row {r} logit {j}: {} vs burn {}", mine[j], logits[r * moves + j]);
            }
        }
    }
}

#[test]
fn a_tiny_training_run_lowers_the_loss() {
    // Self-play data from a fresh net, then Adam steps on it: the loss on the same rows falls.
    let cfg = TrainConfig { hidden: vec![64, 64], playouts: 16, ..TrainConfig::default() };
    let t = Trainer::new(cfg.clone(), None).unwrap();
    let net = Arc::new(t.net());
    let mut rows: Vec<Sample> = Vec::new();
    for seed in 0..20 {
        rows.extend(self_play_game(&net, &TicTacToe::new(), &t.config, seed));
    }
    assert!(rows.len() >= 20 * 5, "{} rows", rows.len());
    for r in &rows {
        assert!((r.pi.iter().sum::<f32>() - 1.0).abs() < 1e-4);
        assert!(r.z == 1.0 || r.z == 0.0 || r.z == -1.0);
    }
    let mut l = Learner::from_mlp(&net, 3e-3, 1e-4);
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
fn training_settings_and_games_are_checked() {
    assert!(Trainer::new(TrainConfig { game: "pentago".into(), ..TrainConfig::default() }, None)
        .err()
        .unwrap()
        .to_string()
        .contains("no network input encoding"));
    assert!(Trainer::new(TrainConfig { game: "chess".into(), ..TrainConfig::default() }, None).is_err());
    assert!(Trainer::new(TrainConfig { batch: 0, ..TrainConfig::default() }, None).err().unwrap().to_string().contains("batch"));
}
