//! Gumbel AlphaZero's root (Danihelka, Guez, Schrittwieser & Silver 2022): the sequential
//! halving schedule of DeepMind's mctx, Gumbel-top-k sampling, the completed-Q policy target,
//! determinism for a seed — with fixed fake evaluators, no network.

use mcts_playground::game::{Game, TicTacToe};
use mcts_playground::mcts::config::{RootRule, Selection};
use mcts_playground::mcts::sequential_halving_visits;
use mcts_playground::mcts::{Budget, Evaluator, Search, SearchConfig};

const NO_CLOCK: &dyn Fn() -> f64 = &|| 0.0;

/// Uniform priors; value for the side to move: 1 if it owns cell 8 (c3), 0 if the opponent
/// does, 0.5 while it is empty. So playing c3 is the one good root move.
struct C3IsGood;

impl Evaluator<TicTacToe> for C3IsGood {
    fn priors(&self, g: &TicTacToe, moves: &[u8], out: &mut Vec<f32>) {
        self.evaluate(g, moves, out);
    }
    fn name(&self) -> &'static str {
        "fake"
    }
    fn has_value(&self) -> bool {
        true
    }
    fn evaluate(&self, g: &TicTacToe, moves: &[u8], out: &mut Vec<f32>) -> Option<f64> {
        out.clear();
        out.extend(moves.iter().map(|_| 1.0));
        let mut owners = [0i8; 9];
        g.cell_owners(&mut owners);
        Some(match owners[8] {
            -1 => 0.5,
            o if o as u8 == g.to_move() => 1.0,
            _ => 0.0,
        })
    }
}

/// Flat: uniform priors, value 0.5 everywhere.
struct Flat;

impl Evaluator<TicTacToe> for Flat {
    fn priors(&self, _g: &TicTacToe, moves: &[u8], out: &mut Vec<f32>) {
        out.clear();
        out.extend(moves.iter().map(|_| 1.0));
    }
    fn name(&self) -> &'static str {
        "flat"
    }
    fn has_value(&self) -> bool {
        true
    }
    fn evaluate(&self, g: &TicTacToe, moves: &[u8], out: &mut Vec<f32>) -> Option<f64> {
        self.priors(g, moves, out);
        Some(0.5)
    }
}

fn gumbel_config(m: usize, seed: u64) -> SearchConfig {
    SearchConfig {
        selection: Selection::Puct,
        c: 1.25,
        leaf: mcts_playground::mcts::config::LeafEval::Value,
        root: RootRule::Gumbel,
        gumbel_m: m,
        seed,
        ..SearchConfig::default()
    }
}

#[test]
fn schedule_is_mctx_sequential_halving() {
    // n = 16, m = 4: ⌈log₂ 4⌉ = 2 phases; 16 / (2·4) = 2 visits each, then the best 2 get
    // 16 / (2·2) = 4 more.
    assert_eq!(sequential_halving_visits(16, 4), vec![6, 6, 2, 2]);
    // n = 200, m = 16: 4 phases of 200/(4·16) = 3, 200/(4·8) = 6, 200/(4·4) = 12, 200/(4·2) = 25
    // visits, the last two repeating until the budget is spent.
    let v = sequential_halving_visits(200, 16);
    assert_eq!(v.iter().sum::<u64>(), 200);
    assert_eq!(&v[8..], &[3; 8]);
    assert_eq!(&v[4..8], &[9; 4]);
    assert_eq!(&v[2..4], &[21; 2]);
    assert_eq!(v[0] + v[1], 200 - 8 * 3 - 4 * 9 - 2 * 21);
    assert_eq!(sequential_halving_visits(5, 1), vec![5]);
    // Fewer playouts than moves: one visit each in rank order.
    assert_eq!(sequential_halving_visits(3, 4), vec![1, 1, 1, 0]);
}

#[test]
fn root_visits_follow_the_schedule() {
    for (n, m) in [(16u64, 4usize), (32, 8), (50, 9)] {
        let mut s = Search::with_evaluator(TicTacToe::new(), gumbel_config(m, 7), Box::new(Flat)).unwrap();
        let r = s.run_gumbel(n).unwrap();
        assert_eq!(r.iterations, n);
        assert_eq!(r.considered.len(), m);
        let mut visits: Vec<u64> = s.root_children().iter().map(|c| c.1).filter(|&v| v > 0).collect();
        visits.sort_unstable_by(|a, b| b.cmp(a));
        let mut want = sequential_halving_visits(n, m);
        want.retain(|&v| v > 0);
        assert_eq!(visits, want, "n {n} m {m}");
        // Only the sampled moves were visited.
        for c in s.root_children() {
            assert!(r.considered.contains(&c.0));
        }
    }
}

#[test]
fn finds_the_good_move_and_targets_it() {
    for seed in 1..6 {
        let mut s = Search::with_evaluator(TicTacToe::new(), gumbel_config(9, seed), Box::new(C3IsGood)).unwrap();
        let report = s.run(Budget::iterations(64), NO_CLOCK);
        assert_eq!(report.iterations, 64);
        assert_eq!(s.best_move(), Some(8), "seed {seed}: c3 is the only move whose leaves are won");
        let r = s.run_gumbel(64).unwrap();
        assert_eq!(r.action, 8);
        let total: f32 = r.policy.iter().map(|p| p.1).sum();
        assert!((total - 1.0).abs() < 1e-5);
        assert_eq!(r.policy.len(), 9);
        let best = r.policy.iter().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
        assert_eq!(best.0, 8, "the improved policy puts most weight on c3: {:?}", r.policy);
        assert!(best.1 > 0.5, "{:?}", r.policy);
    }
}

#[test]
fn deterministic_for_a_seed_and_seed_dependent() {
    let run = |seed| {
        let mut s = Search::with_evaluator(TicTacToe::new(), gumbel_config(4, seed), Box::new(Flat)).unwrap();
        let r = s.run_gumbel(40).unwrap();
        (r, s.root_children())
    };
    assert_eq!(run(3), run(3));
    let sampled: std::collections::HashSet<Vec<usize>> = (0..8).map(|s| run(s).0.considered).collect();
    assert!(sampled.len() > 1, "Gumbel noise varies the sampled moves with the seed");
}

#[test]
fn gumbel_needs_puct_and_valid_ranges() {
    let mut c = gumbel_config(4, 1);
    c.selection = Selection::Uct;
    assert!(c.validate().is_err());
    let mut c = SearchConfig::default();
    assert!(c.set("gumbel_m", "0").is_err());
    assert!(c.set("gumbel_c_scale", "0").is_err());
    assert!(c.set("root", "sideways").is_err());
    let mut c = SearchConfig::preset("puct").unwrap();
    c.set("root", "gumbel").unwrap();
    c.set("gumbel_m", "4").unwrap();
    assert_eq!(c.root, RootRule::Gumbel);
    // A terminal root: nothing to do, no panic.
    let mut g = TicTacToe::new();
    for m in [0u8, 3, 1, 4, 2] {
        g.play_unchecked(m);
    }
    let mut s = Search::new(g, c).unwrap();
    assert!(s.run_gumbel(10).is_none());
    assert!(s.run(Budget::iterations(10), NO_CLOCK).iterations == 0);
}
