//! The step-wise trainer of the browser's Train panel (feature `train`): bounded steps, the
//! phases of an iteration in order, a falling loss, evaluation against perfect play on both
//! colours, weights that load as a net, and settings checked with sentences. Tiny nets, seconds.
#![cfg(feature = "train")]

use mcts_playground::nn::train::session::{Phase, TrainSession};
use mcts_playground::nn::train::TrainConfig;
use mcts_playground::nn::{Mlp, Net};

fn tiny() -> TrainConfig {
    TrainConfig {
        hidden: vec![64, 64],
        iterations: 2,
        games: 6,
        playouts: 16,
        steps: 60,
        batch: 64,
        lr: 3e-3,
        eval_games: 10,
        eval_playouts: 8,
        seed: 5,
        ..TrainConfig::default()
    }
}

#[test]
fn steps_run_the_iterations_in_order_and_the_loss_falls() {
    let mut s = TrainSession::new(tiny(), None).unwrap().with_chunks(2, 5);
    let mut phases = Vec::new();
    let mut chunk_losses = Vec::new();
    let mut reports = Vec::new();
    let mut steps = 0;
    while !s.is_done() {
        let before = s.progress();
        let p = s.step();
        steps += 1;
        assert!(steps < 1_000, "the session never finished");
        phases.push(before.phase);
        // A step does a bounded piece of work: at most 2 games or 5 Adam steps.
        assert!(p.games - before.games <= 2);
        assert!(p.adam_steps - before.adam_steps <= 5);
        if before.phase == Phase::Learn {
            chunk_losses.push(p.loss.unwrap());
        }
        if let Some(r) = p.finished {
            reports.push(r);
        }
    }
    // Per iteration: 3 self-play steps (6 games in twos), 12 learn steps (60 in fives), 1 evaluation.
    let one: Vec<Phase> = [vec![Phase::SelfPlay; 3], vec![Phase::Learn; 12], vec![Phase::Evaluate]].concat();
    assert_eq!(phases, [one.clone(), one].concat());
    assert_eq!(reports.len(), 2);
    assert_eq!((reports[0].iteration, reports[0].games, reports[1].games), (1, 6, 12));
    let p = s.progress();
    assert_eq!((p.phase, p.iteration, p.games, p.adam_steps), (Phase::Done, 2, 12, 120));
    // A further step does nothing.
    assert_eq!(s.step().games, 12);
    // Adam on the first iteration's buffer lowers the loss (policy + value) from its first chunk.
    let total = |l: &mcts_playground::nn::train::learner::Losses| l.policy + l.value;
    let (first, last) = (total(&chunk_losses[0]), total(&chunk_losses[11]));
    eprintln!("first iteration, loss per chunk of 5 Adam steps: {:?}", chunk_losses[..12].iter().map(total).collect::<Vec<_>>());
    assert!(last < 0.9 * first, "loss {first:.4} → {last:.4}");
    for r in &reports {
        assert!(r.loss.policy.is_finite() && r.loss.entropy > 0.0);
        assert_eq!(r.reference, "perfect play");
        // Every evaluation game is counted once, half with each colour; perfect play never loses.
        for m in [r.raw, r.search.unwrap()] {
            assert_eq!(m.total.wins + m.total.draws + m.total.losses, 10);
            assert_eq!(m.first.wins + m.first.draws + m.first.losses, 5);
            assert_eq!(m.second.wins + m.second.draws + m.second.losses, 5);
            assert_eq!(m.total.wins, 0, "nobody beats perfect play");
        }
    }
    // The weights are an MCTSNET file of the game, with the configured widths.
    let net = Mlp::from_bytes(&s.weights()).unwrap();
    assert_eq!(net.spec, "tictactoe");
    assert_eq!(net.trunk.len(), 2);
    assert_eq!(Net::Mlp(net), s.net());
}

#[test]
fn the_same_seed_gives_the_same_run() {
    let run = || {
        let mut s = TrainSession::new(TrainConfig { iterations: 1, ..tiny() }, None).unwrap();
        let mut last = None;
        while !s.is_done() {
            if let Some(r) = s.step().finished {
                last = Some(r);
            }
        }
        (last.unwrap(), s.weights())
    };
    assert_eq!(run(), run());
}

/// Settings the session used to let through and then panicked on in its first self-play game:
/// no full search to record a row from (`full_search_fraction` 0: an empty replay buffer to
/// sample), a Gumbel root of no moves, fast searches of no playouts. Refused with their names
/// and ranges, as the CLI's trainer refuses them.
#[test]
fn settings_that_would_fail_in_self_play_are_refused() {
    use mcts_playground::mcts::RootRule;
    for (cfg, want) in [
        (TrainConfig { full_search_fraction: 0.0, ..tiny() }, "training setting 'full_search_fraction' must be above 0 and at most 1"),
        (TrainConfig { root: RootRule::Gumbel, gumbel_m: 0, ..tiny() }, "training setting 'gumbel_m' must be 1 to 400"),
        (TrainConfig { full_search_fraction: 0.5, fast_playouts: 0, ..tiny() }, "training setting 'fast_playouts' must be 1 to 10000"),
    ] {
        assert_eq!(TrainSession::new(cfg, None).err().map(|e| e.to_string()).as_deref(), Some(want));
    }
}

#[test]
fn settings_out_of_range_are_named() {
    for (cfg, word) in [
        (TrainConfig { games: 0, ..tiny() }, "'games' must be 1 to"),
        (TrainConfig { iterations: 0, ..tiny() }, "'iterations'"),
        (TrainConfig { playouts: 1_000_000, ..tiny() }, "'playouts'"),
        (TrainConfig { lr: 0.0, ..tiny() }, "'lr'"),
        (TrainConfig { batch: 100, buffer: 50, ..tiny() }, "'buffer'"),
        (TrainConfig { hidden: vec![], ..tiny() }, "'hidden'"),
        (TrainConfig { reference: "nope".into(), ..tiny() }, "'reference'"),
        (TrainConfig { game: "pentago".into(), ..tiny() }, "no network input encoding"),
    ] {
        let e = TrainSession::new(cfg, None).err().expect("refused").to_string();
        assert!(e.contains(word), "{e}");
    }
}
