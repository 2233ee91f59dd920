//! Step-through, one MCTS iteration at a time with its four phases (selection, expansion,
//! playout, backpropagation) recorded: `Search::step_traced` runs the same iterations as `run`, is
//! deterministic, and its phases say what happened.

use mcts_playground::game::AnyGame;
use mcts_playground::game::{Game, Hex, TicTacToe};
use mcts_playground::mcts::{AnySearch, Budget, ChildScore, IterationTrace, NodeKind, Proven, Search, SearchConfig};
use mcts_playground::nn::models;

const NO_CLOCK: &dyn Fn() -> f64 = &|| 0.0;

fn search(spec: &str, preset: &str, seed: u64) -> AnySearch {
    let g = AnyGame::from_spec(spec).unwrap();
    let mut c = SearchConfig::preset(preset).unwrap();
    c.seed = seed;
    // Every preset, the networks' too (`nn::search`).
    mcts_playground::nn::search::any_search(&g, c).unwrap()
}

fn fingerprint(s: &AnySearch) -> String {
    format!("{}\n{}", serde_json::to_string(&s.stats()).unwrap(), serde_json::to_string(&s.tree_export(usize::MAX, 4)).unwrap())
}

/// N traced iterations give the same statistics and tree as `run(Budget::iterations(N))` in
/// record mode, for every preset, on Hex 5×5 and Tic-Tac-Toe; traced and untraced iterations
/// interleave freely.
#[test]
fn traced_iterations_equal_run() {
    for spec in ["hex:5", "tictactoe", "hex:7"] {
        for preset in models::presets_for(spec) {
            let n = if spec == "hex:7" { 120 } else { 300 };
            let mut a = search(spec, preset, 7);
            let mut done = 0;
            while done < n {
                match a.step_traced() {
                    Ok(_) => done += 1,
                    Err(e) => {
                        assert!(e.to_string().contains("proven"), "{spec} {preset}: {e}");
                        break;
                    }
                }
            }
            let mut b = search(spec, preset, 7);
            b.set_record_playouts(true);
            b.run(Budget::iterations(n), NO_CLOCK);
            assert_eq!(fingerprint(&a), fingerprint(&b), "{spec} {preset}: traced != run");
            // Interleaved: single traced steps between runs of several iterations.
            let mut c = search(spec, preset, 7);
            c.set_record_playouts(true);
            let mut k = 0;
            while k < n {
                let step = (k % 5 + 1).min(n - k);
                c.run(Budget::iterations(step), NO_CLOCK);
                k += step;
                if k < n && c.step_traced().is_ok() {
                    k += 1;
                }
            }
            assert_eq!(fingerprint(&a), fingerprint(&c), "{spec} {preset}: interleaved != run");
        }
    }
}

/// The score of a traced choice for comparisons: `None` is +∞ (an untried move, n = 0 under UCB1).
fn score(c: &ChildScore) -> f64 {
    c.score.unwrap_or(f64::INFINITY)
}

/// Every node the selection chose (an existing child or the expanded move) scored at least as
/// much as its best rival, by the scores the shared score function reports.
fn check_choices(t: &IterationTrace, what: &str) {
    for node in t.path.iter().filter(|n| n.kind == NodeKind::Selected || n.kind == NodeKind::Expanded) {
        let c = node.chosen.as_ref().unwrap_or_else(|| panic!("{what}: a chosen node without its score"));
        if let Some(r) = &node.rival {
            assert!(score(c) >= score(r), "{what} iteration {}: chose {} ({:?}) over {} ({:?})", t.iteration, c.mv, c.score, r.mv, r.score);
        }
    }
}

/// 1,000 traced iterations build the tree `run(Budget::iterations(1000))` builds in record mode
/// with the same seed, on every game and preset, and every traced choice is the best-scoring
/// child among the scores reported (the descent and the trace call the same score function).
#[test]
fn thousand_traced_iterations_equal_run_on_every_game_and_preset() {
    for spec in ["tictactoe", "hex:5", "pentago"] {
        for preset in models::presets_for(spec) {
            let what = format!("{spec} {preset}");
            let n = 1000;
            let mut a = search(spec, preset, 11);
            let mut done = 0;
            while done < n {
                match a.step_traced() {
                    Ok(t) => {
                        check_choices(&t, &what);
                        done += 1;
                    }
                    Err(e) => {
                        assert!(e.to_string().contains("proven"), "{what}: {e}");
                        break;
                    }
                }
            }
            let mut b = search(spec, preset, 11);
            b.set_record_playouts(true);
            b.run(Budget::iterations(n), NO_CLOCK);
            assert_eq!(a.stats().iterations, b.stats().iterations, "{what}");
            assert_eq!(fingerprint(&a), fingerprint(&b), "{what}: traced != run");
        }
    }
}

/// Configurations that record playout moves anyway (RAVE, GRAVE, policies) are not changed by
/// record mode: traced steps equal a plain `run`.
#[test]
fn recording_configurations_need_no_record_mode() {
    for preset in ["rave", "grave", "lgr", "mast", "poolrave"] {
        let mut a = search("hex:5", preset, 3);
        for _ in 0..250 {
            a.step_traced().unwrap();
        }
        let mut b = search("hex:5", preset, 3);
        b.run(Budget::iterations(250), NO_CLOCK);
        assert_eq!(fingerprint(&a), fingerprint(&b), "{preset}");
    }
}

/// Plain UCT draws outcome-only playouts outside record mode: the documented difference.
#[test]
fn plain_uct_modes_differ_but_each_is_deterministic() {
    let run = |record: bool| {
        let mut s = search("hex:5", "uct", 1);
        s.set_record_playouts(record);
        s.run(Budget::iterations(400), NO_CLOCK);
        fingerprint(&s)
    };
    assert_eq!(run(false), run(false));
    assert_eq!(run(true), run(true));
    assert_ne!(run(false), run(true), "the recording playout draws other random numbers on Hex");
}

fn traces(spec: &str, preset: &str, seed: u64, n: usize) -> Vec<IterationTrace> {
    let mut s = search(spec, preset, seed);
    (0..n).map(|_| s.step_traced().unwrap()).collect()
}

#[test]
fn same_seed_same_steps() {
    for preset in ["uct", "rave", "puct", "solver"] {
        let a = traces("hex:5", preset, 1, 60);
        let b = traces("hex:5", preset, 1, 60);
        assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap(), "{preset}");
        let c = traces("hex:5", preset, 2, 60);
        assert_ne!(a, c, "{preset}: another seed, other steps");
    }
}

/// Replays a trace's path and playout from the root: the playout ends in a terminal position
/// whose outcome is the trace's, and the path obeys the phases' rules.
fn check_phases<G: Game>(root: &G, t: &IterationTrace, preset: &str) {
    assert_eq!(t.path[0].kind, NodeKind::Root);
    assert_eq!(t.path[0].depth, 0);
    assert!(t.path[0].mv.is_none());
    let mut g = root.clone();
    for (d, node) in t.path.iter().enumerate().skip(1) {
        assert_eq!(node.depth, d);
        let m = g.parse_move(node.mv.as_deref().unwrap()).unwrap();
        assert_eq!(Some(g.move_index(m)), node.index);
        if node.kind == NodeKind::Rollout {
            continue;
        }
        g.play(m).unwrap();
    }
    let expanded: Vec<_> = t.path.iter().filter(|n| n.kind == NodeKind::Expanded).collect();
    assert!(expanded.len() <= 1);
    assert_eq!(t.expanded, expanded.first().and_then(|n| n.mv.clone()));
    if let Some(e) = expanded.first() {
        assert_eq!(e.before.n, 0, "a new node has no visits before");
        assert!(e.chosen.as_ref().unwrap().untried);
    }
    for node in &t.path {
        assert_eq!(node.after.n, node.before.n + 1, "every node of the path gets one visit");
    }
    // The playout, move by move, to the end of the game; a filled board (`fill_playouts`)
    // goes on after it (`decided_at`) with exactly the cells still empty.
    if t.terminal_leaf {
        assert!(t.playout.is_empty());
    } else {
        let played = t.decided_at.unwrap_or(t.playout.len());
        assert!(played <= t.playout.len());
        for (text, &idx) in t.playout[..played].iter().zip(&t.playout_indices) {
            assert!(!g.is_terminal(), "moves after the end of the game");
            let m = g.parse_move(text).unwrap();
            assert_eq!(g.move_index(m), idx);
            g.play(m).unwrap();
        }
        if let Some(k) = t.decided_at {
            assert!(t.filled, "{preset}: a playout past the end fills the board");
            assert!(g.is_terminal(), "{preset}: the game ends at move {k} of the playout");
            let mut rest = t.playout_indices[k..].to_vec();
            rest.sort_unstable();
            let empty: Vec<usize> =
                g.board_string().chars().filter(|&ch| ch != '/').enumerate().filter(|&(_, ch)| ch == '.').map(|(i, _)| i).collect();
            assert_eq!(rest, empty, "{preset}: the moves after the end fill the empty cells");
        }
    }
    let o = g.outcome().expect("the playout reaches the end of the game");
    assert_eq!([o.reward(0), o.reward(1)], t.outcome.reward, "{preset}");
    assert_eq!(o.winner(), t.outcome.winner);
    // Q after = (Q·N + reward of the mover into the node) / (N + 1) without quality bonuses.
    for node in &t.path {
        let r = t.outcome.reward[node.mover as usize];
        let want = (node.before.q * node.before.n as f64 + r) / (node.after.n as f64);
        assert!((node.after.q - want).abs() < 1e-9, "{preset}: Q {} -> {} with reward {r}", node.before.q, node.after.q);
    }
    // The chosen child scored at least as well as its best rival (plain UCT, a selected node).
    if preset == "uct" {
        for node in t.path.iter().filter(|n| n.kind == NodeKind::Selected) {
            let c = node.chosen.as_ref().unwrap();
            if let (Some(cs), Some(r)) = (c.score, node.rival.as_ref()) {
                let rs = r.score.unwrap_or(f64::INFINITY);
                assert!(cs >= rs, "chose {} ({cs}) over {} ({rs})", c.mv, r.mv);
            }
        }
    }
}

#[test]
fn phases_are_sensible() {
    for preset in ["uct", "rave", "grave", "puct", "solver", "lgr"] {
        let root = Hex::new(5, false).unwrap();
        let ts = traces("hex:5", preset, 5, 200);
        for (i, t) in ts.iter().enumerate() {
            assert_eq!(t.iteration, i as u64 + 1);
            check_phases(&root, t, preset);
        }
        // Selection descends below the root once the root's moves are all tried.
        assert!(ts.iter().any(|t| t.path.len() >= 3), "{preset}");
        assert!(ts.iter().any(|t| t.path.iter().any(|n| n.kind == NodeKind::Selected)), "{preset}");
        if preset == "rave" || preset == "grave" {
            assert!(ts.iter().any(|t| t.path.iter().any(|n| n.chosen.as_ref().is_some_and(|c| c.amaf_q.is_some() && c.beta.is_some()))));
        }
        if preset == "puct" {
            assert!(ts[50].path[1].chosen.as_ref().unwrap().prior.is_some());
        }
    }
    // Tic-Tac-Toe: the descent meets terminal leaves (no playout), draws have reward ½ each.
    let ts = traces("tictactoe", "uct", 1, 2000);
    let root = TicTacToe::new();
    for t in &ts {
        check_phases(&root, t, "uct");
    }
    assert!(ts.iter().any(|t| t.terminal_leaf));
    assert!(ts.iter().any(|t| t.outcome.winner.is_none() && t.outcome.reward == [0.5, 0.5]));
}

#[test]
fn solver_reports_proofs_and_refuses_a_proven_root() {
    let mut s = search("tictactoe", "solver", 1);
    let mut proofs = 0;
    loop {
        match s.step_traced() {
            Ok(t) => {
                proofs += t.path.iter().filter(|n| n.before.proven != n.after.proven).count();
                if t.root_proven.is_some() {
                    assert_eq!(t.root_proven, Some(Proven::Draw));
                }
            }
            Err(e) => {
                assert!(e.to_string().contains("proven"), "{e}");
                break;
            }
        }
    }
    assert!(proofs > 0);
}

#[test]
fn terminal_root_is_an_error() {
    let mut g = TicTacToe::new();
    for m in ["a1", "b1", "a2", "b2", "a3"] {
        g.play_text(m).unwrap();
    }
    assert!(g.is_terminal());
    let mut s = Search::new(g, SearchConfig::default()).unwrap();
    assert!(s.step_traced().unwrap_err().to_string().contains("over"));
}

/// The min-visits cut builds only the children that pass it and keeps the JSON shape.
#[test]
fn tree_export_min_visits_cut() {
    let mut s = search("hex:5", "uct", 1);
    s.run(Budget::iterations(3000), NO_CLOCK);
    let full = s.tree_export(8, 3);
    let cut = s.tree_export_min(8, 3, 20);
    assert_eq!(s.tree_export_min(8, 3, 0), full);
    fn walk(a: &mcts_playground::mcts::TreeNodeExport, b: &mcts_playground::mcts::TreeNodeExport, min: u64) {
        assert_eq!(a.visits, b.visits);
        assert_eq!(a.mv, b.mv);
        assert_eq!(a.children.len() + a.hidden_children as usize, b.children.len() + b.hidden_children as usize);
        let kept: Vec<_> = b.children.iter().filter(|c| c.visits >= min).collect();
        for c in &a.children {
            assert!(c.visits >= min);
        }
        assert!(a.children.len() <= kept.len());
        for (x, y) in a.children.iter().zip(kept) {
            walk(x, y, min);
        }
    }
    walk(&cut.root, &full.root, 20);
    let v = serde_json::to_value(&cut).unwrap();
    assert!(v["root"]["children"][0].get("hidden_children").is_some());
}
