//! Search core on Tic-Tac-Toe: solver draw proof, determinism, node cap, memory cap (Hex 19×19),
//! tree reuse, config errors.

use mcts_playground::game::AnyGame;
use mcts_playground::game::{Game, TicTacToe};
use mcts_playground::mcts::{AnySearch, Budget, Proven, Search, SearchConfig, StopReason, TreeCap};

fn ttt(moves: &str) -> TicTacToe {
    let mut g = TicTacToe::new();
    for m in moves.split_whitespace() {
        g.play_text(m).unwrap();
    }
    g
}

const NO_CLOCK: &dyn Fn() -> f64 = &|| 0.0;

#[test]
fn solver_proves_tictactoe_draw_with_defaults() {
    let cfg = SearchConfig { solver: true, ..SearchConfig::default() };
    let mut s = Search::new(TicTacToe::new(), cfg).unwrap();
    let r = s.run(Budget::iterations(200_000), NO_CLOCK);
    assert_eq!(r.stop, StopReason::RootProven, "stopped after {} iterations", r.iterations);
    let st = s.stats();
    assert_eq!(st.proven, Some(Proven::Draw));
    // Every root child is proven; the corners and the centre draw, the edges... also draw.
    assert!(st.children.iter().all(|c| c.proven.is_some()), "{:?}", st.children);
    assert!(st.children.iter().all(|c| c.proven == Some(Proven::Draw)));
    assert_eq!(st.value, 0.5, "a proven draw reports its game value, not the rollout mean");
    eprintln!("TTT draw proven in {} iterations, {} nodes", r.iterations, st.nodes);
}

#[test]
fn solver_proves_wins_and_losses() {
    // X (a1, b2) to move against O (a2, c3) wins by force: c1 threatens both b1 (row 1) and a3
    // (the c1-b2-a3 diagonal), and O can block only one.
    let g = ttt("a1 a2 b2 c3");
    let mut s = Search::new(g, SearchConfig::preset("solver").unwrap()).unwrap();
    let r = s.run(Budget::iterations(100_000), NO_CLOCK);
    assert_eq!(r.stop, StopReason::RootProven, "stopped after {} iterations", r.iterations);
    let st = s.stats();
    assert_eq!(st.proven, Some(Proven::Win), "{st:?}");
    assert_eq!(st.value, 1.0, "a proven win reports value 1");
    // The best move must itself be a proven win.
    let best = st.best_move.clone().unwrap();
    let c = st.children.iter().find(|c| c.mv == best).unwrap();
    assert_eq!(c.proven, Some(Proven::Win));
    // The other side of a proven win is a proven loss.
    let mut after = g;
    after.play_text(&best).unwrap();
    let mut s2 = Search::new(after, SearchConfig::preset("solver").unwrap()).unwrap();
    let r2 = s2.run(Budget::iterations(100_000), NO_CLOCK);
    assert_eq!(r2.stop, StopReason::RootProven, "stopped after {} iterations", r2.iterations);
    assert_eq!(s2.stats().proven, Some(Proven::Loss));
    assert_eq!(s2.stats().value, 0.0, "a proven loss reports value 0");
}

#[test]
fn uct_finds_immediate_win_and_block() {
    // X to move, X has a1 b1 (row 1), O has a2 b2: c1 wins.
    let g = ttt("a1 a2 b1 b2");
    let mut s = Search::new(g, SearchConfig::default()).unwrap();
    s.run(Budget::iterations(2000), NO_CLOCK);
    assert_eq!(s.stats().best_move.as_deref(), Some("c1"));
    // O to move must block c1.
    let g = ttt("a1 a2 b1");
    let mut s = Search::new(g, SearchConfig::default()).unwrap();
    s.run(Budget::iterations(5000), NO_CLOCK);
    assert_eq!(s.stats().best_move.as_deref(), Some("c1"));
}

#[test]
fn deterministic_same_seed_same_stats() {
    for preset in mcts_playground::nn::models::presets_for("tictactoe") {
        let run = || {
            // Every preset, the networks' too: the search is built with them (`nn::search`).
            let mut s = mcts_playground::nn::search::search(TicTacToe::new(), SearchConfig::preset(preset).unwrap()).unwrap();
            s.run(Budget::iterations(3000), NO_CLOCK);
            serde_json::to_string(&s.stats()).unwrap()
        };
        assert_eq!(run(), run(), "preset {preset}");
    }
    // A different seed gives different statistics.
    let mut a = Search::new(TicTacToe::new(), SearchConfig { seed: 1, ..SearchConfig::default() }).unwrap();
    let mut b = Search::new(TicTacToe::new(), SearchConfig { seed: 2, ..SearchConfig::default() }).unwrap();
    a.run(Budget::iterations(3000), NO_CLOCK);
    b.run(Budget::iterations(3000), NO_CLOCK);
    assert_ne!(serde_json::to_string(&a.stats()).unwrap(), serde_json::to_string(&b.stats()).unwrap());
}

#[test]
fn resumable_runs_add_up() {
    let mut a = Search::new(TicTacToe::new(), SearchConfig::default()).unwrap();
    for _ in 0..10 {
        a.run(Budget::iterations(300), NO_CLOCK);
    }
    let mut b = Search::new(TicTacToe::new(), SearchConfig::default()).unwrap();
    b.run(Budget::iterations(3000), NO_CLOCK);
    assert_eq!(serde_json::to_string(&a.stats()).unwrap(), serde_json::to_string(&b.stats()).unwrap());
    assert_eq!(a.stats().iterations, 3000);
}

#[test]
fn time_budget_uses_injected_clock() {
    let t = std::cell::Cell::new(0.0);
    let clock = || {
        t.set(t.get() + 0.01);
        t.get()
    };
    let mut s = Search::new(TicTacToe::new(), SearchConfig::default()).unwrap();
    let r = s.run(Budget::millis(5.0), &clock);
    assert_eq!(r.stop, StopReason::Time);
    assert!(r.iterations > 0);
    assert!(r.elapsed_ms >= 5.0);
}

#[test]
fn a_time_budget_spent_before_the_first_iteration_still_gives_a_move() {
    // A thread preempted between the start of its turn and its first iteration (a loaded
    // machine, a budget of 2 ms) finds its time gone: it still searches once, so it has a move.
    let t = std::cell::Cell::new(0.0);
    let clock = || {
        t.set(t.get() + 1_000.0);
        t.get()
    };
    for spec in ["tictactoe", "hex:7", "pentago"] {
        let game = AnyGame::from_spec(spec).unwrap();
        let mut s = AnySearch::new(&game, SearchConfig::default()).unwrap();
        let r = s.run(Budget::millis(2.0), &clock);
        assert_eq!(r.stop, StopReason::Time, "{spec}");
        assert!(r.iterations >= 1, "{spec}");
        assert!(s.best_move_text().is_some(), "{spec}: a move to play");
    }
}

#[test]
fn node_cap_respected_and_statistics_keep_improving() {
    let cfg = SearchConfig { node_cap: 50, ..SearchConfig::default() };
    let mut s = Search::new(TicTacToe::new(), cfg).unwrap();
    let r = s.run(Budget::iterations(5000), NO_CLOCK);
    assert_eq!(r.iterations, 5000);
    let st = s.stats();
    assert!(st.nodes <= 50, "{} nodes", st.nodes);
    assert_eq!(st.children.iter().map(|c| c.visits).sum::<u64>(), 5000);
    let cfg = SearchConfig { node_cap: 50, stop_at_node_cap: true, ..SearchConfig::default() };
    let mut s = Search::new(TicTacToe::new(), cfg).unwrap();
    let r = s.run(Budget::iterations(5000), NO_CLOCK);
    assert_eq!(r.stop, StopReason::NodeCap);
    assert!(r.iterations < 5000);
}

/// RAVE on Hex 19×19 with an AMAF table at every node (`rave_table_visits = 1`, 5.8 KB each):
/// the tree the node cap alone let grow to gigabytes.
fn big_amaf_config(memory_cap_mib: u64) -> SearchConfig {
    let mut c = SearchConfig::preset("rave").unwrap();
    c.set("rave_table_visits", "1").unwrap();
    c.memory_cap_mib = memory_cap_mib;
    c
}

#[test]
fn memory_cap_bounds_the_tree_bytes_and_the_search_goes_on() {
    let g = AnyGame::from_spec("hex:19").unwrap();
    let mut s = AnySearch::new(&g, big_amaf_config(16)).unwrap();
    let r = s.run(Budget::iterations(40_000), NO_CLOCK);
    assert_eq!(r.iterations, 40_000, "the search runs its whole budget at the cap");
    let st = s.stats();
    assert_eq!(st.tree_cap, Some(TreeCap::MemoryCap), "the stats say which cap holds the tree");
    assert_eq!(st.memory_cap_bytes, 16 << 20);
    assert!(st.tree_bytes <= 16 << 20, "{} bytes held under a 16 MiB cap", st.tree_bytes);
    assert!(st.tree_bytes >= 8 << 20, "the tree used the room it had: {} bytes", st.tree_bytes);
    let nodes = st.nodes;
    // Kept and no longer growing; the root's statistics keep improving.
    s.run(Budget::iterations(10_000), NO_CLOCK);
    let st2 = s.stats();
    assert_eq!(st2.nodes - nodes, (st2.children.len() - st.children.len()) as u64, "no node is added at the cap but the root's children");
    assert_eq!(st2.root_visits, st.root_visits + 10_000);
    assert!(st2.tree_bytes <= 16 << 20);
    // The JSON the CLI prints names the cap.
    let v = serde_json::to_value(&st2).unwrap();
    assert_eq!(v["tree_cap"], "memory_cap");
    assert_eq!(v["memory_cap_bytes"], 16 << 20);
}

#[test]
fn memory_cap_with_stop_at_node_cap_stops_and_says_which_cap() {
    let g = AnyGame::from_spec("hex:19").unwrap();
    let mut c = big_amaf_config(8);
    c.stop_at_node_cap = true;
    let mut s = AnySearch::new(&g, c).unwrap();
    let r = s.run(Budget::iterations(1_000_000), NO_CLOCK);
    assert_eq!(r.stop, StopReason::MemoryCap);
    assert!(r.iterations < 1_000_000);
    assert_eq!(serde_json::to_value(r.stop).unwrap(), "memory_cap");
    assert!(s.stats().tree_bytes <= 8 << 20);
}

#[test]
fn a_search_below_its_caps_reports_none_and_is_unchanged_by_the_memory_cap() {
    // The cap only holds a tree once it is reached: a search far below it is the same search,
    // move for move, whatever the cap.
    let g = AnyGame::from_spec("hex:7").unwrap();
    let run = |mib: u64| {
        let mut c = SearchConfig::preset("best").unwrap();
        c.memory_cap_mib = mib;
        let mut s = AnySearch::new(&g, c).unwrap();
        s.run(Budget::iterations(3_000), NO_CLOCK);
        s.stats()
    };
    let (a, b) = (run(64), run(1 << 20));
    assert_eq!(a.tree_cap, None);
    assert_eq!(serde_json::to_value(a.tree_cap).unwrap(), serde_json::Value::Null);
    assert_eq!((a.best_move.clone(), a.nodes, a.root_visits), (b.best_move.clone(), b.nodes, b.root_visits));
    let visits = |s: &mcts_playground::mcts::SearchStats| s.children.iter().map(|c| (c.mv.clone(), c.visits)).collect::<Vec<_>>();
    assert_eq!(visits(&a), visits(&b));
}

#[test]
fn a_search_held_at_the_memory_cap_from_the_start_still_tries_the_root_moves() {
    // 1 MiB is below the bound of even a fresh tree: only the root may grow (its children), so
    // the search still has a move to play.
    let g = AnyGame::from_spec("hex:5").unwrap();
    let mut s = AnySearch::new(&g, big_amaf_config(1)).unwrap();
    s.run(Budget::iterations(2_000), NO_CLOCK);
    let st = s.stats();
    assert_eq!(st.tree_cap, Some(TreeCap::MemoryCap));
    assert_eq!(st.nodes, 1 + st.children.len() as u64, "the root and its children only");
    assert!(st.best_move.is_some());
    assert_eq!(st.children.iter().map(|c| c.visits).sum::<u64>(), 2_000);
}

#[test]
fn memory_cap_out_of_range_is_refused() {
    let mut c = SearchConfig::default();
    let e = c.set("memory_cap_mib", "0").unwrap_err().to_string();
    assert!(e.contains("memory_cap_mib") && e.contains("[1, 1048576]"), "{e}");
    assert!(c.set("memory_cap_mib", "2097152").is_err());
    assert!(c.set("memory_cap_mib", "-1").is_err());
    c.set("memory_cap_mib", "512").unwrap();
    assert_eq!(c.memory_cap_mib, 512);
}

#[test]
fn threads_share_the_memory_cap() {
    use mcts_playground::mcts::parallel::search_root_parallel;
    let g = AnyGame::from_spec("hex:19").unwrap();
    let r = search_root_parallel::<mcts_playground::mcts::Builtin>(&g, &big_amaf_config(32), Budget::iterations(80_000), 4).unwrap();
    for w in &r.workers {
        assert_eq!(w.memory_cap_bytes, 8 << 20, "each of 4 workers gets a quarter");
        assert!(w.tree_bytes <= 8 << 20, "{}", w.tree_bytes);
    }
    assert_eq!(r.merged.memory_cap_bytes, 32 << 20);
    assert!(r.merged.tree_bytes <= 32 << 20);
    assert_eq!(r.merged.tree_cap, Some(TreeCap::MemoryCap));
}

#[test]
fn tree_reuse_keeps_subtree_visits() {
    let mut s = Search::new(TicTacToe::new(), SearchConfig::default()).unwrap();
    s.run(Budget::iterations(5000), NO_CLOCK);
    let st = s.stats();
    let b2 = st.children.iter().find(|c| c.mv == "b2").unwrap().clone();
    let m = s.root().parse_move("b2").unwrap();
    s.advance(m).unwrap();
    assert_eq!(s.root_visits(), b2.visits);
    let st2 = s.stats();
    assert_eq!(st2.children.iter().map(|c| c.visits).sum::<u64>() + 1, b2.visits, "the expansion visit of b2 itself has no child");
    assert_eq!(st2.to_move, 1);
    assert!(st2.nodes < st.nodes);
    // Illegal move: error, search untouched.
    let before = serde_json::to_string(&s.stats()).unwrap();
    assert!(s.advance(4).is_err());
    assert_eq!(before, serde_json::to_string(&s.stats()).unwrap());
    // The kept subtree goes on growing after the refused move.
    let r = s.run(Budget::iterations(1000), NO_CLOCK);
    assert_eq!((r.stop, r.iterations), (StopReason::Iterations, 1000));
    assert_eq!(s.root_visits(), b2.visits + 1000);
}

#[test]
fn advance_with_transpositions_keeps_dag() {
    let cfg = SearchConfig { transpositions: true, solver: true, ..SearchConfig::default() };
    let mut s = Search::new(TicTacToe::new(), cfg).unwrap();
    s.run(Budget::iterations(3000), NO_CLOCK);
    s.advance(4).unwrap();
    s.run(Budget::iterations(3000), NO_CLOCK);
    s.advance(0).unwrap();
    let r = s.run(Budget::iterations(100_000), NO_CLOCK);
    assert_eq!(r.stop, StopReason::RootProven);
    assert_eq!(s.stats().proven, Some(Proven::Draw));
}

#[test]
fn transpositions_shrink_tictactoe_tree() {
    let full = |tt: bool| {
        let cfg = SearchConfig { transpositions: tt, solver: true, ..SearchConfig::default() };
        let mut s = Search::new(TicTacToe::new(), cfg).unwrap();
        let r = s.run(Budget::iterations(1_000_000), NO_CLOCK);
        assert_eq!(r.stop, StopReason::RootProven);
        assert_eq!(s.stats().proven, Some(Proven::Draw));
        (s.stats().nodes, r.iterations)
    };
    let (plain, it_plain) = full(false);
    let (dag, it_dag) = full(true);
    eprintln!("TTT proof: tree {plain} nodes / {it_plain} it; DAG {dag} nodes / {it_dag} it");
    assert!(dag < plain, "{dag} !< {plain}");
    // Tic-Tac-Toe has 5478 legal positions (the count OpenSpiel's exhaustive walk reports in
    // tests/data/manifest.json); a DAG holds one node per distinct position, so never more.
    assert!(dag <= 5478, "the DAG has {dag} nodes, more than the 5478 legal positions");
}

#[test]
fn game_over_root() {
    let g = ttt("a1 a2 b1 b2 c1");
    let mut s = Search::new(g, SearchConfig::default()).unwrap();
    assert_eq!(s.run(Budget::iterations(10), NO_CLOCK).stop, StopReason::GameOver);
    assert_eq!(s.best_move(), None);
}

#[test]
fn bad_config_is_an_error() {
    assert!(Search::new(TicTacToe::new(), SearchConfig { c: -1.0, ..SearchConfig::default() }).is_err());
    let mut s = Search::new(TicTacToe::new(), SearchConfig::default()).unwrap();
    assert!(s.set_config(SearchConfig { node_cap: 0, ..SearchConfig::default() }).is_err());
    assert!(SearchConfig::default().set("nope", "1").is_err());
}

#[test]
fn any_search_dispatch_and_export() {
    let g = AnyGame::from_spec("tictactoe").unwrap();
    // With c > 0 every root move is tried (the `rave` preset's c = 0 may leave moves whose AMAF
    // value is poor untried, as MC-RAVE does).
    let cfg = SearchConfig { c: std::f64::consts::SQRT_2, ..SearchConfig::preset("rave").unwrap() };
    let mut s = AnySearch::new(&g, cfg).unwrap();
    s.run(Budget::iterations(2000), NO_CLOCK);
    let st = s.stats();
    assert_eq!(st.game, "tictactoe");
    assert_eq!(st.children.len(), 9);
    assert!(st.children.windows(2).all(|w| w[0].visits >= w[1].visits));
    assert!(st.children.iter().all(|c| c.beta.is_some() && c.amaf_visits > 0));
    assert_eq!(st.pv.first(), st.best_move.as_ref());
    let j = serde_json::to_value(&st).unwrap();
    for k in [
        "game",
        "to_move",
        "best_move",
        "pv",
        "proven",
        "value",
        "iterations",
        "playouts",
        "nodes",
        "max_depth",
        "elapsed_ms",
        "iterations_per_s",
        "bytes_per_node",
        "children",
        "policy",
    ] {
        assert!(j.get(k).is_some(), "missing key {k}");
    }
    for k in ["move", "index", "visits", "q", "amaf_visits", "amaf_q", "beta", "prior", "proven", "puct_u"] {
        assert!(j["children"][0].get(k).is_some(), "missing child key {k}");
    }
    let t = s.tree_export(3, 2);
    assert!(t.root.children.len() <= 3);
    assert!(t.root.children.iter().all(|c| c.children.len() <= 3 && c.children.iter().all(|d| d.children.is_empty())));
    assert_eq!(t.root.visits, 2000);
    s.advance_text("b2").unwrap();
    assert!(s.advance_text("b2").is_err());
    assert!(s.advance_text("z9").is_err());
    assert!(s.best_move_text().is_some());
}

/// Every move of an exported tree is legal in its node's position.
fn assert_tree_legal(g: &AnyGame, n: &mcts_playground::mcts::TreeNodeExport, what: &str) {
    for c in &n.children {
        let mv = c.mv.as_deref().expect("a child has a move");
        let mut h = g.clone();
        h.play_text(mv).unwrap_or_else(|e| panic!("{what}: tree edge {mv} illegal: {e}\n{}", g.board_string()));
        assert_tree_legal(&h, c, what);
    }
}

/// Tree reuse with a move the tree never tried starts a fresh tree; nothing of the old tree may
/// survive it. (PUCT kept its per-node prior lists across that reset, so node k of the new tree
/// expanded the moves of node k of the old one: `puct` vs `rave` on Pentago played an occupied
/// cell at ply 11 of arena game 67, seed 1, 2,000 playouts per move.) Small budgets make many
/// replies untried moves; after every search, every edge of the tree must be legal.
#[test]
fn advance_to_an_untried_move_keeps_the_tree_legal() {
    for spec in ["pentago", "hex:5", "tictactoe"] {
        for preset in ["puct", "rave"] {
            for seed in 0..2u64 {
                let mut game = AnyGame::from_spec(spec).unwrap();
                let mk = |s: u64| {
                    let mut c = SearchConfig::preset(preset).unwrap();
                    c.seed = s;
                    AnySearch::new(&game, c).unwrap()
                };
                let mut searches = [mk(2 * seed), mk(2 * seed + 1)];
                let mut budget = 30 + seed * 7;
                while game.outcome().is_none() {
                    let p = game.to_move() as usize;
                    searches[p].run(Budget::iterations(budget), NO_CLOCK);
                    let what = format!("{spec} {preset} seed {seed} ply {}", game.ply());
                    assert_tree_legal(&game, &searches[p].tree_export(usize::MAX, usize::MAX).root, &what);
                    let mv = searches[p].best_move_text().expect("a move in an unfinished game");
                    game.play_text(&mv).unwrap_or_else(|e| panic!("{what}: {mv}: {e}"));
                    for s in &mut searches {
                        s.advance_text(&mv).unwrap();
                    }
                    budget = if budget > 200 { 30 } else { budget * 2 };
                }
            }
        }
    }
}

#[test]
fn stats_name_the_final_move_rule_and_the_leaf_evaluation() {
    // The page says why a move is ringed (most visits, or the secure child) and whether the
    // search ran playouts or valued its leaves with a network, from these two keys.
    let g = AnyGame::from_spec("tictactoe").unwrap();
    for (preset, rule, leaf) in [("uct", "robust", "rollout"), ("solver", "secure", "rollout"), ("alphazero", "robust", "value")] {
        let mut s = mcts_playground::nn::search::any_search(&g, SearchConfig::preset(preset).unwrap()).unwrap();
        s.run(Budget::iterations(200), NO_CLOCK);
        let v = serde_json::to_value(s.stats()).unwrap();
        assert_eq!(v["final_move"], rule, "{preset}");
        assert_eq!(v["leaf"], leaf, "{preset}");
    }
    // Statistics written before the keys existed still read (both null).
    let mut v = serde_json::to_value(Search::new(TicTacToe::new(), SearchConfig::default()).unwrap().stats()).unwrap();
    let o = v.as_object_mut().unwrap();
    o.remove("final_move");
    o.remove("leaf");
    let old: mcts_playground::mcts::SearchStats = serde_json::from_value(v).unwrap();
    assert_eq!((old.final_move, old.leaf), (None, None));
}
