//! Weights files and network presets: typed errors for missing or corrupt files, a clear error
//! for games without a net, and the shipped nets (load, shapes, deterministic presets).

use mcts_playground::game::{AnyGame, Pentago};
use mcts_playground::mcts::{AnySearch, Budget, SearchConfig};
use mcts_playground::nn::{models, Mlp, Net, NetError};

const NO_CLOCK: &dyn Fn() -> f64 = &|| 0.0;

#[test]
fn a_game_without_a_net_refuses_the_net_presets_clearly() {
    for preset in ["alphazero", "alphago", "puct-net"] {
        let cfg = SearchConfig::preset(preset).unwrap();
        let e = mcts_playground::nn::search::search(Pentago::new(mcts_playground::game::PentagoRules::Official, false), cfg.clone())
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("no trained network for 'pentago"), "{preset}: {e}");
        assert!(e.contains("use a preset without a network"), "{e}");
        // Switching a running search to a net preset is refused and leaves it untouched.
        let g = AnyGame::from_spec("hex:11").unwrap();
        let mut s = AnySearch::new(&g, SearchConfig::preset("uct").unwrap()).unwrap();
        s.run(Budget::iterations(50), NO_CLOCK);
        assert!(s.set_config(cfg).is_err());
        assert_eq!(s.config(), &SearchConfig::preset("uct").unwrap());
        s.run(Budget::iterations(50), NO_CLOCK);
        assert_eq!(s.stats().iterations, 100);
    }
}

#[test]
fn corrupt_and_foreign_files_are_typed_errors() {
    assert_eq!(Mlp::from_bytes(&[]), Err(NetError::BadMagic));
    let net = Mlp::zeros("hex:5", 50, &[8], 25);
    let bytes = net.to_bytes();
    for cut in [9, 20, bytes.len() - 1] {
        assert!(Mlp::from_bytes(&bytes[..cut]).is_err(), "cut at {cut}");
    }
    let mut bad = bytes.clone();
    let k = bad.len() / 2;
    bad[k] ^= 1;
    assert!(matches!(Mlp::from_bytes(&bad), Err(NetError::Checksum { .. })));
    // A net for hex:5 is refused for Tic-Tac-Toe.
    let e = mcts_playground::nn::NetEvaluator::<mcts_playground::game::TicTacToe>::new(std::sync::Arc::new(Net::Mlp(net)), "tictactoe")
        .err()
        .unwrap();
    assert!(matches!(e, NetError::WrongGame { .. }));
}

#[test]
fn every_shipped_net_loads_and_its_presets_are_deterministic() {
    for &spec in models::AVAILABLE {
        let net = models::load(spec).unwrap();
        assert_eq!(net.spec(), spec);
        // Shapes: the game's input planes in, one logit per cell out (src/nn/features.rs).
        let enc = mcts_playground::nn::features::Encoding::for_spec(spec).unwrap();
        assert_eq!((net.inputs(), net.moves()), (enc.inputs(), enc.cells()), "{spec}");
        let g = AnyGame::from_spec(spec).unwrap();
        for preset in ["alphazero", "alphago", "puct-net"] {
            let run = || {
                let mut s = mcts_playground::nn::search::any_search(&g, SearchConfig::preset(preset).unwrap()).unwrap();
                s.run(Budget::iterations(300), NO_CLOCK);
                serde_json::to_string(&s.stats()).unwrap()
            };
            assert_eq!(run(), run(), "{spec} {preset}");
        }
        let _ = g.legal_count();
    }
    // The Hex nets of models/README.md: hex:5 an MLP with two hidden layers of 128; hex:7 (since
    // 2026-11-30) convolutional: a 3×3 convolution of the 2 stone planes into 32 channels, 4
    // residual blocks of 32 → 32 3×3 convolutions, a 1×1 policy head, and the value head's 1×1
    // convolution to 2 planes, 64 units and one output.
    assert_eq!(models::load("hex:5").unwrap().parameters(), 50 * 128 + 128 + 128 * 128 + 128 + 128 * 26 + 26);
    let conv7 = (32 * 2 * 9 + 32) + 4 * (32 * 32 * 9 + 32) + (32 + 1) + (2 * 32 + 2) + (64 * 2 * 49 + 64) + (64 + 1);
    assert_eq!((models::load("hex:7").unwrap().parameters(), conv7), (44_100, 44_100));
}

/// Issue 53: the shipped MLPs (Tic-Tac-Toe, Hex 5×5) are version 1 files; reading one as a `Net`
/// gives the MLP, and writing it back gives the same bytes. The shipped hex:7 net is a version 2
/// (convolutional) file, read and written back the same way.
#[test]
fn the_shipped_weights_files_load_and_write_back_unchanged() {
    // (spec, format version, trunk, channels): every shipped file, read and written back alike.
    let shipped =
        [("tictactoe", 1, models::Trunk::Mlp, None), ("hex:5", 1, models::Trunk::Mlp, None), ("hex:7", 2, models::Trunk::Conv, Some(32))];
    assert_eq!(shipped.map(|s| s.0).to_vec(), models::AVAILABLE.to_vec());
    for (spec, version, trunk, channels) in shipped {
        let bytes = models::bytes(spec).unwrap();
        assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), version, "{spec}");
        let net = Net::from_bytes(bytes).unwrap();
        match trunk {
            models::Trunk::Mlp => assert_eq!(net.as_mlp(), Some(&Mlp::from_bytes(bytes).unwrap()), "{spec}"),
            models::Trunk::Conv => assert!(net.as_mlp().is_none() && net.as_conv().is_some(), "{spec}"),
        }
        assert_eq!(net.to_bytes(), bytes, "{spec}: byte for byte");
        assert_eq!(&*models::load(spec).unwrap(), &net);
        let info = models::loaded(spec).unwrap();
        assert_eq!((info.trunk, info.channels), (trunk, channels), "{spec}");
        assert_eq!(info.layers, net.layers());
    }
    assert_eq!(models::load("hex:5").unwrap().describe(), "50 → 128 → 128 → 25");
    assert_eq!(models::load("hex:7").unwrap().describe(), "conv 32 channels × 5 layers, value head 64");
}
