//! Playout policies and value estimates run end to end and show their internals.

use mcts_playground::game::{Game, TicTacToe};
use mcts_playground::mcts::{Budget, LgrMode, MastMode, Proven, Search, SearchConfig, ValueEstimate};

const NO_CLOCK: &dyn Fn() -> f64 = &|| 0.0;

fn run(cfg: SearchConfig, n: u64) -> Search<TicTacToe> {
    // `nn::search`: the presets include the networks' (`puct-net`, `alphazero`).
    let mut s = mcts_playground::nn::search::search(TicTacToe::new(), cfg).unwrap();
    s.run(Budget::iterations(n), NO_CLOCK);
    s
}

#[test]
fn every_preset_plays_the_draw_move_and_counts_iterations() {
    for p in mcts_playground::nn::models::presets_for("tictactoe") {
        let s = run(SearchConfig::preset(p).unwrap(), 20_000);
        let st = s.stats();
        assert!(st.iterations <= 20_000 && st.iterations > 0, "{p}");
        // Every first move of Tic-Tac-Toe draws; the search must at least not lose value.
        assert!(st.value > 0.3, "{p}: value {}", st.value);
        assert!(st.best_move.is_some());
    }
}

#[test]
fn policy_internals_visible() {
    let s = run(SearchConfig::preset("lgrf2").unwrap(), 5000);
    let p = s.stats().policy;
    assert!(p.lgr_replies_played > 0);
    assert!(p.lgr_table_size[0] > 0 && p.lgr_table_size[1] > 0, "{p:?}");
    assert!(!p.lgr_replies.is_empty());
    let s = run(SearchConfig::preset("poolrave").unwrap(), 5000);
    let p = s.stats().policy;
    assert!(p.pool_moves_played > 0 && !p.pool.is_empty() && p.pool.len() <= 10, "{p:?}");
    let s = run(SearchConfig::preset("decisive").unwrap(), 5000);
    let p = s.stats().policy;
    assert!(p.decisive_moves_played > 0 && p.anti_decisive_moves_played > 0, "{p:?}");
    let s = run(SearchConfig::preset("mast").unwrap(), 5000);
    let p = s.stats().policy;
    assert!(p.mast_moves_played > 0 && !p.mast_top.is_empty());
    let s = run(SearchConfig { mast: MastMode::EpsilonGreedy, ..SearchConfig::default() }, 2000);
    assert!(s.stats().policy.mast_moves_played > 0);
    let s = run(SearchConfig::preset("qb").unwrap(), 5000);
    let p = s.stats().policy;
    assert!(p.qb_length_mean[0] >= 5.0 && p.qb_length_mean[0] <= 9.0, "{p:?}");
    assert!(p.qb_length_std[0] > 0.0);
    let s = run(SearchConfig::preset("depth2").unwrap(), 100);
    assert_eq!(s.stats().policy.depth2, "no critical move");
}

#[test]
fn rave_and_grave_report_beta() {
    for (v, sched) in [(ValueEstimate::Rave, "sqrt"), (ValueEstimate::Rave, "linear"), (ValueEstimate::Grave, "sqrt")] {
        let mut cfg = SearchConfig { value: v, ..SearchConfig::default() };
        cfg.set("rave_schedule", sched).unwrap();
        let s = run(cfg, 3000);
        let st = s.stats();
        for c in &st.children {
            let b = c.beta.unwrap();
            assert!((0.0..=1.0).contains(&b));
            if v == ValueEstimate::Rave && sched == "sqrt" {
                assert!((b - (1000.0 / (3.0 * c.visits as f64 + 1000.0)).sqrt()).abs() < 1e-12);
            }
            assert!(c.amaf_visits >= c.visits.saturating_sub(1) / 2, "{c:?}");
        }
    }
}

#[test]
fn lgr_modes_and_options_run() {
    for lgr in [LgrMode::Lgr1, LgrMode::Lgrf1, LgrMode::Lgrf2] {
        let s = run(SearchConfig { lgr, lgr_p: 0.5, ..SearchConfig::default() }, 2000);
        assert!(s.stats().policy.lgr_replies_played > 0);
    }
    let s = run(SearchConfig { rollout_expand: true, ..SearchConfig::default() }, 2000);
    assert!(s.stats().nodes > 2000, "rollout-expand adds the playout's nodes");
    let s = run(SearchConfig { jump: true, solver: true, ..SearchConfig::default() }, 200_000);
    assert_eq!(s.stats().proven, Some(Proven::Draw), "jump exploration with the solver still proves the draw");
}

#[test]
fn puct_uses_priors() {
    let mut g = TicTacToe::new();
    for m in ["a1", "b1", "a2"] {
        g.play_text(m).unwrap();
    }
    let mut s = Search::new(g, SearchConfig::preset("puct").unwrap()).unwrap();
    s.run(Budget::iterations(2000), NO_CLOCK);
    let st = s.stats();
    assert_eq!(st.best_move.as_deref(), Some("a3"), "the block");
    let a3 = st.children.iter().find(|c| c.mv == "a3").unwrap();
    assert!(a3.prior.unwrap() > 0.3, "{a3:?}");
    assert_eq!(st.evaluator.as_deref(), Some("tactical"));
}

/// Save-bridge playouts (`save_bridge`, Hex): a seeded search with them is deterministic, its
/// playouts answer bridge intrusions (counted, and listed among the active policies), and the
/// search is not the one without them; on games without bridges (Pentago, Tic-Tac-Toe) the
/// option is ignored: the same search, number for number, as without it.
#[test]
fn save_bridge_is_deterministic_and_hex_only() {
    use mcts_playground::game::{Hex, Pentago};
    fn stats<G: Game>(g: &G, cfg: &SearchConfig, n: u64) -> mcts_playground::mcts::SearchStats {
        let mut s = Search::new(g.clone(), cfg.clone()).unwrap();
        s.run(Budget::iterations(n), NO_CLOCK);
        s.stats()
    }
    let hex = Hex::new(7, false).unwrap();
    for preset in ["uct", "rave", "lgr", "best"] {
        let off = SearchConfig { seed: 9, ..SearchConfig::preset(preset).unwrap() };
        let on = SearchConfig { save_bridge: true, ..off.clone() };
        let a = stats(&hex, &on, 3000);
        assert_eq!(a, stats(&hex, &on, 3000), "{preset}: deterministic for a seed");
        assert!(a.policy.save_bridge_moves_played > 0, "{preset}: {:?}", a.policy);
        assert!(a.policy.active.contains(&"save_bridge".to_string()), "{preset}: {:?}", a.policy.active);
        let b = stats(&hex, &off, 3000);
        assert_eq!(b.policy.save_bridge_moves_played, 0);
        assert_ne!(a.children, b.children, "{preset}: the playouts changed");
    }
    let pentago = Pentago::from_options(&[]).unwrap();
    for preset in ["uct", "lgr", "decisive"] {
        let off = SearchConfig { seed: 9, ..SearchConfig::preset(preset).unwrap() };
        let on = SearchConfig { save_bridge: true, ..off.clone() };
        assert_eq!(stats(&pentago, &on, 500), stats(&pentago, &off, 500), "pentago {preset}: ignored");
        assert_eq!(stats(&TicTacToe::new(), &on, 500), stats(&TicTacToe::new(), &off, 500), "tictactoe {preset}: ignored");
    }
}
