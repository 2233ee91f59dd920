//! Strength measures used during training and for `models/README.md`: games between players
//! (a net's raw policy, a net-guided search, a preset, perfect play) with alternating colours.

use super::selfplay::net_search;
use crate::game::{Game, MoveList, Outcome};
use crate::mcts::Evaluator;
use crate::mcts::{Budget, SearchConfig};
use crate::nn::{Net, NetEvaluator};
use crate::rng::Rng64;
use std::collections::HashMap;
use std::sync::Arc;

/// A player: picks a move at a non-terminal position (`rng` for tie-breaks, seeded per game).
pub type Player<'a, G> = Box<dyn FnMut(&G, &mut Rng64) -> <G as Game>::Move + 'a>;

/// The raw policy: the legal move with the highest prior (no search).
pub fn raw_policy<G: Game>(net: Arc<Net>) -> Player<'static, G> {
    Box::new(move |g: &G, _rng: &mut Rng64| {
        let ev: NetEvaluator<G> = NetEvaluator::new(net.clone(), &g.spec()).expect("net for the game");
        let mut legal = MoveList::new();
        g.legal_moves(&mut legal);
        let mut p = Vec::new();
        ev.evaluate(g, &legal, &mut p);
        let k = (0..legal.len()).max_by(|&a, &b| p[a].total_cmp(&p[b])).expect("a legal move");
        legal[k]
    })
}

/// AlphaZero search with `net` (PUCT, value leaves) for `playouts` iterations; the most
/// visited root move.
pub fn net_player<G: Game>(net: Arc<Net>, playouts: u64, c: f64) -> Player<'static, G> {
    Box::new(move |g: &G, rng: &mut Rng64| {
        let s = net_search(&net, g, playouts, c, rng.next_u64());
        s.best_move().expect("a legal move")
    })
}

/// A search with a preset's configuration for `playouts` iterations.
pub fn preset_player<G: Game>(config: SearchConfig, playouts: u64) -> Player<'static, G> {
    Box::new(move |g: &G, rng: &mut Rng64| {
        let mut c = config.clone();
        c.seed = rng.next_u64();
        let mut s = crate::nn::search::search(g.clone(), c).expect("valid preset");
        s.run(Budget::iterations(playouts), &|| 0.0);
        s.best_move().expect("a legal move")
    })
}

/// Perfect play by negamax over the whole game tree with a memo keyed by the Zobrist hash
/// (Tic-Tac-Toe: 5,478 positions); among the optimal moves, one uniformly at random.
pub fn perfect_player<G: Game>() -> Player<'static, G> {
    let mut memo: HashMap<u64, i8> = HashMap::new();
    Box::new(move |g: &G, rng: &mut Rng64| {
        let mut legal = MoveList::new();
        g.legal_moves(&mut legal);
        let vals: Vec<i8> = legal
            .iter()
            .map(|&m| {
                let mut h = g.clone();
                h.play_unchecked(m);
                -negamax(&h, &mut memo)
            })
            .collect();
        let best = *vals.iter().max().expect("a legal move");
        let opt: Vec<usize> = (0..legal.len()).filter(|&i| vals[i] == best).collect();
        legal[opt[rng.index(opt.len())]]
    })
}

/// The game-theoretic value of `g` for the side to move: 1 win, 0 draw, −1 loss.
pub fn negamax<G: Game>(g: &G, memo: &mut HashMap<u64, i8>) -> i8 {
    if let Some(o) = g.outcome() {
        // The side to move at a terminal position did not make the last move.
        let mover = 1 - g.to_move();
        return match o {
            Outcome::Draw => 0,
            Outcome::Win(p) if p == mover => -1,
            Outcome::Win(_) => 1,
        };
    }
    if let Some(&v) = memo.get(&g.hash()) {
        return v;
    }
    let mut legal = MoveList::new();
    g.legal_moves(&mut legal);
    let mut best = -2;
    for &m in &legal {
        let mut h = g.clone();
        h.play_unchecked(m);
        best = best.max(-negamax(&h, memo));
        if best == 1 {
            break;
        }
    }
    memo.insert(g.hash(), best);
    best
}

/// Result of a match from player A's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct MatchResult {
    /// A's wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// A's losses.
    pub losses: u32,
}

impl MatchResult {
    /// A's score rate: (wins + draws/2) / games.
    pub fn score(&self) -> f64 {
        let n = (self.wins + self.draws + self.losses).max(1) as f64;
        (self.wins as f64 + self.draws as f64 / 2.0) / n
    }
}

/// `games` games from `start` between `a` and `b`, A first in even games; seeded.
pub fn play_match<G: Game>(start: &G, a: &mut Player<'_, G>, b: &mut Player<'_, G>, games: u32, seed: u64) -> MatchResult {
    play_match_from_openings(start, a, b, games, seed, 0)
}

/// As [`play_match`], each pair of games (2k, 2k + 1) starting with the same `plies` random
/// moves (uniform over the legal moves, seeded by `seed` and k), A playing first in the first
/// game of the pair and second in the other: deterministic players then meet in varied
/// positions instead of replaying the same two games.
pub fn play_match_from_openings<G: Game>(
    start: &G,
    a: &mut Player<'_, G>,
    b: &mut Player<'_, G>,
    games: u32,
    seed: u64,
    plies: usize,
) -> MatchResult {
    let mut r = MatchResult::default();
    for i in 0..games {
        let mut rng = Rng64::new(seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let a_side = (i % 2) as u8;
        let mut g = start.clone();
        let mut orng = Rng64::new(seed ^ 0x0_9e4 ^ ((i / 2) as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
        let mut legal = MoveList::new();
        for _ in 0..plies {
            if g.is_terminal() {
                break;
            }
            g.legal_moves(&mut legal);
            g.play_unchecked(legal[orng.index(legal.len())]);
        }
        while !g.is_terminal() {
            let m = if g.to_move() == a_side { a(&g, &mut rng) } else { b(&g, &mut rng) };
            g.play_unchecked(m);
        }
        match g.outcome().expect("terminal") {
            Outcome::Draw => r.draws += 1,
            Outcome::Win(p) if p == a_side => r.wins += 1,
            Outcome::Win(_) => r.losses += 1,
        }
    }
    r
}
