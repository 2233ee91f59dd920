//! Self-play with the current net: AlphaZero's data (Silver et al. 2017): at every move a PUCT
//! search from the position with the net's priors (Dirichlet noise at the root) and value
//! leaves; the move is sampled from the root visit counts at temperature 1 for the first
//! `temperature_moves` plies, then the most visited; each position yields a row (input planes,
//! root visit distribution π, outcome z for the side to move).
//!
//! With `root = gumbel` (Danihelka et al. 2022) the root is Gumbel AlphaZero's instead: no
//! noise or temperature, the move sequential halving chose, and the completed-Q improved
//! policy as π. With `full_search_fraction < 1`, playout cap randomization (Wu 2019, KataGo):
//! only the moves searched with the full `playouts` (and noise) give rows; the others are
//! searched with `fast_playouts` and only move the game on.

use super::TrainConfig;
use crate::game::{Game, MoveList};
use crate::mcts::config::{LeafEval, RootRule, Selection};
use crate::mcts::{Budget, Evaluator, Search, SearchConfig};
use crate::nn::features::Encoding;
use crate::nn::{Net, NetEvaluator};
use crate::rng::Rng64;
use rand::SeedableRng;
use rand_distr::{Distribution, Gamma};
use std::sync::Arc;

/// One training row, in the net's frame (see [`Encoding`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Input planes (2 × cells).
    pub x: Vec<f32>,
    /// Root visit distribution over the cells (sums to 1).
    pub pi: Vec<f32>,
    /// Outcome for the side to move at the position: 1 win, 0 draw, −1 loss.
    pub z: f32,
}

/// The net's evaluator with Dirichlet noise mixed into the root's priors:
/// `P = (1 − ε)·p + ε·η`, `η ~ Dir(α)` (Silver et al. 2017: ε = 0.25, α scaled to the number of
/// legal moves; the root is recognised by its Zobrist hash).
struct RootNoise<G: Game> {
    inner: NetEvaluator<G>,
    root_hash: u64,
    noise: Vec<f32>,
    eps: f32,
}

impl<G: Game> Evaluator<G> for RootNoise<G> {
    fn priors(&self, g: &G, moves: &[G::Move], out: &mut Vec<f32>) {
        self.evaluate(g, moves, out);
    }
    fn name(&self) -> &'static str {
        "net+noise"
    }
    fn has_value(&self) -> bool {
        true
    }
    fn evaluate(&self, g: &G, moves: &[G::Move], out: &mut Vec<f32>) -> Option<f64> {
        let v = self.inner.evaluate(g, moves, out);
        if g.hash() == self.root_hash && self.noise.len() == out.len() {
            for (p, n) in out.iter_mut().zip(&self.noise) {
                *p = (1.0 - self.eps) * *p + self.eps * n;
            }
        }
        v
    }
}

/// A Dirichlet(α) sample of length `k` (normalised Gamma(α, 1) draws).
pub fn dirichlet(alpha: f64, k: usize, rng: &mut rand::rngs::Xoshiro256PlusPlus) -> Vec<f32> {
    let gamma = Gamma::new(alpha, 1.0).expect("α > 0");
    let mut v: Vec<f64> = (0..k).map(|_| gamma.sample(rng)).collect();
    let s: f64 = v.iter().sum();
    if s > 0.0 {
        v.iter_mut().for_each(|x| *x /= s);
    } else {
        v.iter_mut().for_each(|x| *x = 1.0 / k as f64);
    }
    v.into_iter().map(|x| x as f32).collect()
}

/// The search configuration of the net presets' self-play and evaluation: PUCT, value leaves.
pub fn net_search_config(c: f64, seed: u64) -> SearchConfig {
    SearchConfig { selection: Selection::Puct, c, leaf: LeafEval::Value, seed, ..SearchConfig::default() }
}

/// A PUCT + value search at `g` (not terminal) with `net` (no noise), run for `playouts`
/// iterations.
pub fn net_search<G: Game>(net: &Arc<Net>, g: &G, playouts: u64, c: f64, seed: u64) -> Search<G> {
    let ev = NetEvaluator::new(net.clone(), &g.spec()).expect("net matches game");
    let mut s = Search::with_evaluator(g.clone(), net_search_config(c, seed), Box::new(ev)).expect("valid config");
    s.run(Budget::iterations(playouts), &|| 0.0);
    s
}

/// Plays one self-play game from `start` and returns its rows.
pub fn self_play_game<G: Game>(net: &Arc<Net>, start: &G, cfg: &TrainConfig, seed: u64) -> Vec<Sample> {
    self_play_record(net, start, cfg, seed).rows
}

/// A self-play game: its rows, the moves played and the ply of each row's position (so that a
/// row's position can be replayed, e.g. for the exact targets of [`super::exact`]).
#[derive(Clone, Debug, PartialEq)]
pub struct SelfPlayRecord {
    /// The training rows, in the order of the game.
    pub rows: Vec<Sample>,
    /// The moves played from the start, as move indices ([`Game::move_index`]).
    pub moves: Vec<usize>,
    /// For each row, the ply of its position (the number of moves before it).
    pub row_plies: Vec<usize>,
}

impl SelfPlayRecord {
    /// The position of each row, in order: the game's moves from `start` (the position it was
    /// played from) replayed up to each row's ply.
    pub fn row_positions<G: Game>(&self, start: &G) -> Vec<G> {
        let (mut g, mut ply, mut out) = (start.clone(), 0, Vec::with_capacity(self.rows.len()));
        for &at in &self.row_plies {
            while ply < at {
                g.play_unchecked(g.move_from_index(self.moves[ply]).expect("a played move"));
                ply += 1;
            }
            out.push(g.clone());
        }
        out
    }
}

/// Plays one self-play game from `start` ([`self_play_game`]) and returns its record.
pub fn self_play_record<G: Game>(net: &Arc<Net>, start: &G, cfg: &TrainConfig, seed: u64) -> SelfPlayRecord {
    let spec = start.spec();
    let enc = Encoding::for_spec(&spec).expect("trainable game");
    let cells = enc.cells();
    let mut rng = Rng64::new(seed);
    let mut noise_rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x5eed);
    let mut g = start.clone();
    let mut rows: Vec<(Vec<f32>, Vec<f32>, u8)> = Vec::new();
    let (mut moves, mut row_plies) = (Vec::new(), Vec::new());
    let mut owners = vec![0i8; cells];
    let mut legal = MoveList::new();
    // One evaluator (and one by-input copy of the weights) for the game; each search a clone.
    let net_ev = NetEvaluator::new(net.clone(), &spec).expect("net matches");
    // `opening_plies` uniformly random moves first (a count drawn from `opening_plies_min..=`
    // when that is set): recorded in `moves` (so rows replay), no row.
    let plies = match cfg.opening_plies_min {
        Some(lo) if lo < cfg.opening_plies => lo + rng.below((cfg.opening_plies - lo + 1) as u32) as usize,
        _ => cfg.opening_plies,
    };
    for _ in 0..plies {
        if g.is_terminal() {
            break;
        }
        g.legal_moves(&mut legal);
        let m = legal[rng.below(legal.len() as u32) as usize];
        moves.push(g.move_index(m));
        g.play_unchecked(m);
    }
    while !g.is_terminal() {
        // Playout cap randomization (Wu 2019): a full search recorded as a row, or a fast one.
        let full = cfg.full_search_fraction >= 1.0 || rng.chance(cfg.full_search_fraction);
        let playouts = if full { cfg.playouts } else { cfg.fast_playouts.min(cfg.playouts) };
        let to_move = g.to_move();
        let (idx, pi) = if cfg.root == RootRule::Gumbel {
            // Gumbel AlphaZero: no Dirichlet noise or temperature; the Gumbel sample explores.
            let mut sc = net_search_config(cfg.c, rng.next_u64());
            sc.root = RootRule::Gumbel;
            sc.gumbel_m = cfg.gumbel_m;
            let mut s = Search::with_evaluator(g.clone(), sc, Box::new(net_ev.clone())).expect("valid config");
            let r = s.run_gumbel(playouts).expect("not terminal");
            let mut pi = vec![0f32; cells];
            for &(i, p) in &r.policy {
                pi[enc.canonical(i, to_move)] = p;
            }
            (r.action, pi)
        } else {
            g.legal_moves(&mut legal);
            // α ≤ 0 means the default, 10 / cells capped at 1 (as `Trainer::new` sets it).
            let alpha = if cfg.dirichlet_alpha > 0.0 { cfg.dirichlet_alpha } else { (10.0 / cells as f64).min(1.0) };
            let noise = if full { dirichlet(alpha, legal.len(), &mut noise_rng) } else { Vec::new() };
            let ev = RootNoise { inner: net_ev.clone(), root_hash: g.hash(), noise, eps: cfg.dirichlet_eps as f32 };
            let mut s = Search::with_evaluator(g.clone(), net_search_config(cfg.c, rng.next_u64()), Box::new(ev)).expect("valid config");
            s.run(Budget::iterations(playouts), &|| 0.0);
            let children = s.root_children();
            let total: u64 = children.iter().map(|c| c.1).sum();
            let mut pi = vec![0f32; cells];
            for &(idx, n, _) in &children {
                pi[enc.canonical(idx, to_move)] = n as f32 / total.max(1) as f32;
            }
            // Temperature 1 for the opening plies (sample by visits), then the most visited.
            let idx = if g.ply() < cfg.temperature_moves {
                let mut r = rng.below(total.max(1) as u32) as u64;
                let mut pick = children[0].0;
                for &(i, n, _) in &children {
                    if r < n {
                        pick = i;
                        break;
                    }
                    r -= n;
                }
                pick
            } else {
                children.iter().max_by_key(|c| c.1).map(|c| c.0).expect("a legal move")
            };
            (idx, pi)
        };
        if full {
            g.cell_owners(&mut owners);
            let mut x = vec![0f32; enc.inputs()];
            enc.encode(&owners, to_move, &mut x);
            rows.push((x, pi, to_move));
            row_plies.push(moves.len());
        }
        moves.push(idx);
        let m = g.move_from_index(idx).expect("root child index");
        g.play_unchecked(m);
    }
    let outcome = g.outcome().expect("terminal");
    let rows = rows.into_iter().map(|(x, pi, p)| Sample { x, pi, z: (outcome.reward(p) * 2.0 - 1.0) as f32 }).collect();
    SelfPlayRecord { rows, moves, row_plies }
}
