//! The search with a policy-value evaluator: PUCT `Q + c·P·√N/(1+n)` (Silver et al. 2017) with
//! priors asked once per node and expansion by prior rank, AlphaZero's value leaves and
//! AlphaGo's λ-mix, checked against hand computations with a fixed fake evaluator.

use mcts_playground::game::{Game, TicTacToe};
use mcts_playground::mcts::{Budget, Evaluator, Search, SearchConfig};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

const NO_CLOCK: &dyn Fn() -> f64 = &|| 0.0;

/// Priors: centre (cell 4) weight 6, corner a1 (cell 0) weight 3, every other cell 1; value
/// 0.3 for the side to move everywhere. Counts its calls.
struct Fake {
    calls: Arc<AtomicUsize>,
    value: bool,
}

impl Evaluator<TicTacToe> for Fake {
    fn priors(&self, g: &TicTacToe, moves: &[u8], out: &mut Vec<f32>) {
        self.evaluate(g, moves, out);
    }
    fn name(&self) -> &'static str {
        "fake"
    }
    fn has_value(&self) -> bool {
        self.value
    }
    fn evaluate(&self, _g: &TicTacToe, moves: &[u8], out: &mut Vec<f32>) -> Option<f64> {
        self.calls.fetch_add(1, Ordering::Relaxed);
        out.clear();
        out.extend(moves.iter().map(|&m| match m {
            4 => 6.0,
            0 => 3.0,
            _ => 1.0,
        }));
        self.value.then_some(0.3)
    }
}

fn search(leaf: &str, value: bool) -> (Search<TicTacToe>, Arc<AtomicUsize>) {
    let mut cfg = SearchConfig { selection: mcts_playground::mcts::config::Selection::Puct, c: 1.0, ..SearchConfig::default() };
    let mut s = Search::new(TicTacToe::new(), cfg.clone()).unwrap();
    let calls = Arc::new(AtomicUsize::new(0));
    s.set_evaluator(Box::new(Fake { calls: calls.clone(), value })).unwrap();
    cfg.set("leaf", leaf).unwrap();
    s.set_config(cfg).unwrap();
    (s, calls)
}

#[test]
fn puct_with_a_fake_evaluator_makes_the_hand_computed_choices() {
    // c = 1, fpu = 0.5, leaf = value (v = 0.3 for the side to move, so 0.7 for the mover).
    // Root priors: P(e2... cell 4) = 6/16 = .375, P(cell 0) = 3/16 = .1875, others 1/16.
    let (mut s, calls) = search("value", true);
    // 1: the root has no child: expand the highest prior, cell 4; its leaf value gives X 0.7.
    s.run(Budget::iterations(1), NO_CLOCK);
    assert_eq!(s.root_children(), vec![(4, 1, 0.7)]);
    // 2: N = 1. Child 4: 0.7 + 1·.375·√1/(1+1) = .8875; best untried (cell 0):
    //    0.5 + .1875·1/1 = .6875. Descend into 4; there O expands its best prior, cell 0
    //    (3/10), valued 0.3 for X to move there: X gets 0.3, so child 4 has Q = (0.7+0.3)/2.
    s.run(Budget::iterations(1), NO_CLOCK);
    let ch = s.root_children();
    assert_eq!(ch.len(), 1);
    assert_eq!((ch[0].0, ch[0].1), (4, 2));
    assert!((ch[0].2 - 0.5).abs() < 1e-9, "{ch:?}");
    // 3: N = 2. Child 4: 0.5 + .375·√2/3 = .6768; untried cell 0: 0.5 + .1875·√2/1 = .7652:
    //    expand cell 0.
    s.run(Budget::iterations(1), NO_CLOCK);
    let ch = s.root_children();
    assert_eq!(ch.iter().map(|c| (c.0, c.1)).collect::<Vec<_>>(), vec![(4, 2), (0, 1)]);
    // Priors were asked once per node: the root, node 4, node 4→0, node 0.
    assert_eq!(calls.load(Ordering::Relaxed), 4);
    assert_eq!(s.evaluations(), 4);
    // The reported priors are the normalised weights.
    let st = s.stats();
    let p4 = st.children.iter().find(|c| c.mv == "b2").unwrap().prior.unwrap();
    assert!((p4 - 0.375).abs() < 1e-6, "{p4}");
}

#[test]
fn priors_are_asked_once_per_node_however_often_it_is_visited() {
    let (mut s, calls) = search("rollout", false);
    s.run(Budget::iterations(2000), NO_CLOCK);
    // One call per node that was ever expanded from (at most the nodes of the tree).
    let n = calls.load(Ordering::Relaxed);
    assert!(n <= s.node_count(), "{n} evaluator calls for {} nodes", s.node_count());
    assert!(n > 10);
}

#[test]
fn alphago_mix_backs_up_the_lambda_blend() {
    // λ = 1: the mix is the playout alone; λ = 0: the value alone (0.7 for the mover into a
    // non-terminal leaf at every iteration, as the fake's value is 0.3 everywhere).
    let (mut s, _) = search("mix", true);
    let mut cfg = s.config().clone();
    cfg.set("mix_lambda", "0").unwrap();
    s.set_config(cfg).unwrap();
    s.run(Budget::iterations(1), NO_CLOCK);
    assert_eq!(s.root_children(), vec![(4, 1, 0.7)]);
    let mut cfg = s.config().clone();
    cfg.set("mix_lambda", "1").unwrap();
    cfg.set("seed", "7").unwrap();
    let (mut t, _) = search("mix", true);
    t.set_config(cfg).unwrap();
    t.run(Budget::iterations(1), NO_CLOCK);
    let q = t.root_children()[0].2;
    assert!(q == 0.0 || q == 0.5 || q == 1.0, "λ = 1 backs up the playout's result only: {q}");
}

#[test]
fn a_value_leaf_without_a_value_head_is_refused() {
    let cfg = SearchConfig { selection: mcts_playground::mcts::config::Selection::Puct, ..SearchConfig::default() };
    let mut s = Search::new(TicTacToe::new(), cfg.clone()).unwrap();
    let mut c2 = cfg.clone();
    c2.set("leaf", "value").unwrap();
    let e = s.set_config(c2.clone()).unwrap_err().to_string();
    assert!(e.contains("leaf = value needs"), "{e}");
    assert_eq!(s.config(), &cfg, "a refused configuration leaves the search untouched");
    assert!(Search::new(TicTacToe::new(), c2).is_err());
    let calls = Arc::new(AtomicUsize::new(0));
    s.set_evaluator(Box::new(Fake { calls, value: true })).unwrap();
    let _ = TicTacToe::new().legal_count();
}
