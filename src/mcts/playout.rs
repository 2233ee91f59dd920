//! Playout (rollout) policies, combinable, in this order of priority at each playout move:
//!
//! 1. **decisive move** (Teytaud & Teytaud 2010): a move that wins at once (`Game::find_winning_move`);
//! 2. **anti-decisive move**: if the opponent threatens to win at once (`Game::threats`), play on
//!    one of its threats (in Hex and Tic-Tac-Toe that blocks it);
//! 3. **last good reply** (Drake 2009; Baier & Drake 2010): LGRF-2 reply to the previous two
//!    moves, then the LGR-1/LGRF-1 reply to the previous move, each played with probability
//!    `lgr_p` when legal;
//! 4. **PoolRAVE** (Rimmel, Teytaud et al. 2010; Hoock et al. 2010): with probability `pool_p`
//!    draw one move from the pool of the `pool_k` best moves by AMAF value and play it if legal;
//! 5. the default policy: **MAST** (Finnsson & Björnsson 2008) Gibbs or ε-greedy, else uniform.
//!
//! With none of them on, the search uses the game's fast `random_playout` instead.

use crate::game::{Game, MoveList, Outcome, Player};
use crate::mcts::config::{LgrMode, MastMode, SearchConfig};
use crate::rng::Rng64;

/// Running mean / variance (Welford 1962).
#[derive(Clone, Copy, Debug, Default)]
pub struct Welford {
    /// Samples.
    pub n: u64,
    /// Mean.
    pub mean: f64,
    m2: f64,
}

impl Welford {
    /// Adds a sample.
    pub fn push(&mut self, x: f64) {
        self.n += 1;
        let d = x - self.mean;
        self.mean += d / self.n as f64;
        self.m2 += d * (x - self.mean);
    }
    /// Sample standard deviation (0 with fewer than 2 samples).
    pub fn std(&self) -> f64 {
        if self.n < 2 {
            0.0
        } else {
            (self.m2 / (self.n - 1) as f64).sqrt()
        }
    }
}

/// Quality-based reward, relative bonus (Pepels, Tak, Lanctot & Winands 2014):
/// `λ = (mean_D − D) / σ_D` over the winner's past winning simulation lengths,
/// `b(λ) = −1 + 2 / (1 + e^{−kλ})`; shorter wins than usual get b > 0.
#[inline]
pub fn qb_bonus(length: f64, mean: f64, std: f64, k: f64) -> f64 {
    if std <= 0.0 {
        return 0.0;
    }
    let lambda = (mean - length) / std;
    -1.0 + 2.0 / (1.0 + (-k * lambda).exp())
}

/// Learned playout-policy state, kept across iterations and moves (tree reuse).
#[derive(Clone, Debug)]
pub struct PolicyState {
    /// Dense move space of the game.
    pub ms: usize,
    /// LGR-1 / LGRF-1: `reply1[p][prev] = reply + 1` (0 = none), replies of player `p`.
    pub reply1: [Vec<u16>; 2],
    /// LGRF-2: `reply2[p][prev2 * ms + prev1] = reply + 1`.
    pub reply2: [Vec<u16>; 2],
    /// MAST visit counts per player and move.
    pub mast_n: [Vec<u32>; 2],
    /// MAST reward sums per player and move.
    pub mast_w: [Vec<f64>; 2],
    /// QB: lengths of winning simulations per winner.
    pub qb: [Welford; 2],
    /// PoolRAVE pools per player (dense indices, best AMAF first) for the current playout.
    pub pool: [Vec<u16>; 2],
    /// Counters.
    pub decisive_played: u64,
    /// Counters.
    pub anti_decisive_played: u64,
    /// Counters.
    pub lgr_played: u64,
    /// Counters.
    pub pool_played: u64,
    /// Counters.
    pub mast_played: u64,
    /// MAST Gibbs weights `e^{(Q(a) − 1)/τ}` per player and move (∝ `e^{Q(a)/τ}`, ≤ 1 so they
    /// never overflow), refreshed when `learn` changes a move's mean: no `exp` in the playout.
    mast_wt: [Vec<f64>; 2],
    /// τ the weights were computed with.
    mast_wt_tau: f64,
    /// Per-playout Fenwick trees (Fenwick 1994) over the move space, one per player, of the
    /// weights of the legal moves: Gibbs sampling in O(log |moves|) per playout move.
    fen: [Vec<f64>; 2],
    /// Per-playout position of each move in the legal-move list (placement games).
    pos: Vec<u16>,
    /// Cumulative weights of the legal moves (games whose legal moves change otherwise).
    weights: Vec<f64>,
}

impl PolicyState {
    /// Empty tables for a game with `ms` dense moves, sized for the enabled policies only.
    pub fn new(ms: usize, cfg: &SearchConfig) -> PolicyState {
        let lgr1 = if cfg.lgr != LgrMode::Off { ms } else { 0 };
        let lgr2 = if cfg.lgr == LgrMode::Lgrf2 { ms * ms } else { 0 };
        let mast = if cfg.mast != MastMode::Off { ms } else { 0 };
        PolicyState {
            ms,
            reply1: [vec![0; lgr1], vec![0; lgr1]],
            reply2: [vec![0; lgr2], vec![0; lgr2]],
            mast_n: [vec![0; mast], vec![0; mast]],
            mast_w: [vec![0.0; mast], vec![0.0; mast]],
            qb: [Welford::default(); 2],
            pool: [Vec::new(), Vec::new()],
            decisive_played: 0,
            anti_decisive_played: 0,
            lgr_played: 0,
            pool_played: 0,
            mast_played: 0,
            mast_wt: [vec![1.0; mast], vec![1.0; mast]],
            mast_wt_tau: cfg.mast_tau,
            fen: [Vec::new(), Vec::new()],
            pos: Vec::new(),
            weights: Vec::new(),
        }
    }

    /// Recomputes the MAST weight of player `p`'s move `i` from its mean.
    #[inline]
    fn refresh_weight(&mut self, p: usize, i: usize) {
        self.mast_wt[p][i] = ((self.mast_q(p, i) - 1.0) / self.mast_wt_tau).exp();
    }

    /// Resizes the tables for a new configuration, keeping what stays valid.
    pub fn reconfigure(&mut self, cfg: &SearchConfig) {
        let fresh = PolicyState::new(self.ms, cfg);
        for p in 0..2 {
            if self.reply1[p].len() != fresh.reply1[p].len() {
                self.reply1[p] = fresh.reply1[p].clone();
            }
            if self.reply2[p].len() != fresh.reply2[p].len() {
                self.reply2[p] = fresh.reply2[p].clone();
            }
            if self.mast_n[p].len() != fresh.mast_n[p].len() {
                self.mast_n[p] = fresh.mast_n[p].clone();
                self.mast_w[p] = fresh.mast_w[p].clone();
                self.mast_wt[p] = fresh.mast_wt[p].clone();
            }
        }
        if self.mast_wt_tau != cfg.mast_tau {
            self.mast_wt_tau = cfg.mast_tau;
            for p in 0..2 {
                for i in 0..self.mast_wt[p].len() {
                    self.refresh_weight(p, i);
                }
            }
        }
    }

    /// MAST mean for player `p` and move `i`; unseen moves get 1 (optimistic, as CadiaPlayer).
    #[inline]
    pub fn mast_q(&self, p: usize, i: usize) -> f64 {
        let n = self.mast_n[p][i];
        if n == 0 {
            1.0
        } else {
            self.mast_w[p][i] / n as f64
        }
    }

    /// Learns from one finished simulation: `seq` holds the dense indices of all moves from the
    /// root (tree and playout), `first` is the player who made `seq[0]`.
    ///
    /// - LGR: for each move of the winner, store it as the reply to the previous move (and to
    ///   the previous two for LGRF-2); with forgetting (LGRF), delete each of the loser's moves
    ///   that is stored as its reply to the same context (Baier & Drake 2010). Draws teach nothing.
    /// - MAST: every move's player gets the outcome's reward for that move.
    pub fn learn(&mut self, cfg: &SearchConfig, seq: &[u16], first: Player, outcome: Outcome) {
        if cfg.lgr != LgrMode::Off {
            if let Some(winner) = outcome.winner() {
                let forget = cfg.lgr != LgrMode::Lgr1;
                let two = cfg.lgr == LgrMode::Lgrf2;
                for j in 1..seq.len() {
                    let p = (first as usize + j) & 1;
                    let prev = seq[j - 1] as usize;
                    let m = seq[j] + 1;
                    if p == winner as usize {
                        self.reply1[p][prev] = m;
                        if two && j >= 2 {
                            self.reply2[p][seq[j - 2] as usize * self.ms + prev] = m;
                        }
                    } else if forget {
                        if self.reply1[p][prev] == m {
                            self.reply1[p][prev] = 0;
                        }
                        if two && j >= 2 {
                            let k = seq[j - 2] as usize * self.ms + prev;
                            if self.reply2[p][k] == m {
                                self.reply2[p][k] = 0;
                            }
                        }
                    }
                }
            }
        }
        if cfg.mast != MastMode::Off {
            for (j, &m) in seq.iter().enumerate() {
                let p = (first as usize + j) & 1;
                // Saturating: a count at u32::MAX freezes the move's mean.
                if self.mast_n[p][m as usize] != u32::MAX {
                    self.mast_n[p][m as usize] += 1;
                    self.mast_w[p][m as usize] += outcome.reward(p as Player);
                    self.refresh_weight(p, m as usize);
                }
            }
        }
    }

    /// Plays a policy playout from `g` to the end, appending the moves to `seq`.
    ///
    /// The default move: in placement games ([`Game::legal_moves_only_shrink`]) the legal moves
    /// are generated once and each move played is removed from the list (O(1) by its position);
    /// MAST Gibbs then samples from a Fenwick tree of each player's weights, updated as moves
    /// leave. Otherwise the legal moves are generated at each move and Gibbs sums the cached
    /// weights. Either way no `exp` is computed in the playout.
    pub fn playout<G: Game>(&mut self, cfg: &SearchConfig, g: &mut G, rng: &mut Rng64, seq: &mut Vec<G::Move>) -> Outcome {
        let mut legal: MoveList<G::Move> = MoveList::new();
        let mut tmp: MoveList<G::Move> = MoveList::new();
        let shrink = g.legal_moves_only_shrink();
        let gibbs = cfg.mast == MastMode::Gibbs;
        if shrink {
            g.legal_moves(&mut legal);
            if self.pos.len() != self.ms {
                self.pos = vec![u16::MAX; self.ms];
            }
            for (k, &m) in legal.iter().enumerate() {
                self.pos[g.move_index(m)] = k as u16;
            }
            if gibbs {
                for p in 0..2 {
                    let fen = &mut self.fen[p];
                    fen.clear();
                    fen.resize(self.ms, 0.0);
                    for &m in &legal {
                        let i = g.move_index(m);
                        fen[i] = self.mast_wt[p][i];
                    }
                    fenwick_build(fen);
                }
            }
        }
        loop {
            if let Some(o) = g.outcome() {
                return o;
            }
            let me = g.to_move() as usize;
            let mut chosen: Option<G::Move> = None;
            if cfg.decisive {
                if let Some(m) = g.find_winning_move() {
                    chosen = Some(m);
                    self.decisive_played += 1;
                }
            }
            if chosen.is_none() && cfg.anti_decisive {
                g.threats(&mut tmp);
                if !tmp.is_empty() {
                    let m = tmp[rng.index(tmp.len())];
                    if g.is_legal(m) {
                        chosen = Some(m);
                        self.anti_decisive_played += 1;
                    }
                }
            }
            if chosen.is_none() && cfg.lgr != LgrMode::Off && !seq.is_empty() {
                let n = seq.len();
                let prev1 = g.move_index(seq[n - 1]);
                let mut reply = 0u16;
                if cfg.lgr == LgrMode::Lgrf2 && n >= 2 {
                    let prev2 = g.move_index(seq[n - 2]);
                    reply = self.reply2[me][prev2 * self.ms + prev1];
                }
                for attempt in 0..2 {
                    if attempt == 1 {
                        reply = self.reply1[me][prev1];
                    }
                    if reply != 0 {
                        if let Some(m) = g.move_from_index(reply as usize - 1) {
                            if g.is_legal(m) && (cfg.lgr_p >= 1.0 || rng.chance(cfg.lgr_p)) {
                                chosen = Some(m);
                                self.lgr_played += 1;
                                break;
                            }
                        }
                    }
                }
            }
            if chosen.is_none() && cfg.poolrave && !self.pool[me].is_empty() && rng.chance(cfg.pool_p) {
                let i = self.pool[me][rng.index(self.pool[me].len())];
                if let Some(m) = g.move_from_index(i as usize) {
                    if g.is_legal(m) {
                        chosen = Some(m);
                        self.pool_played += 1;
                    }
                }
            }
            let m = match chosen {
                Some(m) => m,
                None => {
                    if !shrink {
                        g.legal_moves(&mut legal);
                    }
                    match cfg.mast {
                        MastMode::Off => legal[rng.index(legal.len())],
                        MastMode::Gibbs => {
                            self.mast_played += 1;
                            if shrink {
                                let i = fenwick_sample(&self.fen[me], rng.unit());
                                match (i < self.ms).then(|| self.pos[i]).filter(|&k| (k as usize) < legal.len()) {
                                    Some(k) if g.move_index(legal[k as usize]) == i => legal[k as usize],
                                    // Rounding in the tree's sums can point at a move already
                                    // played (weight ~1e-12): fall back to a uniform move.
                                    _ => legal[rng.index(legal.len())],
                                }
                            } else {
                                self.weights.clear();
                                let mut total = 0.0;
                                for &m in &legal {
                                    total += self.mast_wt[me][g.move_index(m)];
                                    self.weights.push(total);
                                }
                                if total > 0.0 {
                                    let x = rng.unit() * total;
                                    let i = self.weights.partition_point(|&c| c <= x).min(legal.len() - 1);
                                    legal[i]
                                } else {
                                    legal[rng.index(legal.len())]
                                }
                            }
                        }
                        MastMode::EpsilonGreedy => {
                            if rng.chance(cfg.mast_epsilon) {
                                legal[rng.index(legal.len())]
                            } else {
                                self.mast_played += 1;
                                let mut best = legal[0];
                                let mut bq = f64::NEG_INFINITY;
                                for &m in &legal {
                                    let q = self.mast_q(me, g.move_index(m));
                                    if q > bq {
                                        bq = q;
                                        best = m;
                                    }
                                }
                                best
                            }
                        }
                    }
                }
            };
            if shrink {
                // Take `m` out of the list: the last move fills its place.
                let i = g.move_index(m);
                let k = self.pos[i] as usize;
                let last = legal.len() - 1;
                let moved = legal[last];
                legal.swap(k, last);
                legal.pop();
                self.pos[g.move_index(moved)] = k as u16;
                self.pos[i] = u16::MAX;
                if gibbs {
                    for p in 0..2 {
                        let w = self.mast_wt[p][i];
                        fenwick_add(&mut self.fen[p], i, -w);
                    }
                }
            }
            seq.push(m);
            g.play_unchecked(m);
        }
    }
}

/// Turns `t` (the weights, index 0-based) into a Fenwick tree in place, O(n) (Fenwick 1994,
/// "A new data structure for cumulative frequency tables").
fn fenwick_build(t: &mut [f64]) {
    let n = t.len();
    for i in 1..=n {
        let j = i + (i & i.wrapping_neg());
        if j <= n {
            t[j - 1] += t[i - 1];
        }
    }
}

/// Adds `d` to the weight of index `i` of the Fenwick tree `t`.
#[inline]
fn fenwick_add(t: &mut [f64], i: usize, d: f64) {
    let mut j = i + 1;
    while j <= t.len() {
        t[j - 1] += d;
        j += j & j.wrapping_neg();
    }
}

/// The index whose cumulative weight interval holds `u` × the total weight (`u` in [0, 1)):
/// a descent through the Fenwick tree `t`, O(log n). Returns `t.len()` or more only through
/// rounding at the very top.
#[inline]
fn fenwick_sample(t: &[f64], u: f64) -> usize {
    let n = t.len();
    let mut total = 0.0;
    let mut j = n;
    while j > 0 {
        total += t[j - 1];
        j &= j - 1;
    }
    let mut x = u * total;
    let mut pos = 0usize;
    let mut step = if n == 0 { 0 } else { 1usize << (usize::BITS - 1 - n.leading_zeros()) };
    while step > 0 {
        let next = pos + step;
        if next <= n && t[next - 1] <= x {
            pos = next;
            x -= t[next - 1];
        }
        step >>= 1;
    }
    pos
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(lgr: LgrMode) -> SearchConfig {
        SearchConfig { lgr, ..SearchConfig::default() }
    }

    #[test]
    fn lgrf_stores_winner_and_forgets_loser() {
        let c = cfg(LgrMode::Lgrf1);
        let mut s = PolicyState::new(9, &c);
        // Player 0 made seq[0]; moves 4 (P0), 0 (P1), 8 (P0): P0 wins.
        s.learn(&c, &[4, 0, 8], 0, Outcome::Win(0));
        assert_eq!(s.reply1[0][0], 9, "P0's reply 8 to 0 stored (+1)");
        assert_eq!(s.reply1[1][4], 0, "loser's reply not stored");
        // Now P1 plays 0 after 4 again but wins: P1's reply stored.
        s.learn(&c, &[4, 0, 2, 1], 0, Outcome::Win(1));
        assert_eq!(s.reply1[1][4], 1, "P1's reply 0 to 4 stored");
        // P0 replied 2 to 0 and lost; its stored reply to 0 was 8, not 2: kept.
        assert_eq!(s.reply1[0][0], 9);
        // P0 replies 8 to 0 and loses: forgotten.
        s.learn(&c, &[4, 0, 8, 3], 0, Outcome::Win(1));
        assert_eq!(s.reply1[0][0], 0, "LGRF forgets the loser's reply");
        // LGR-1 (no forgetting) keeps it.
        let c1 = cfg(LgrMode::Lgr1);
        let mut t = PolicyState::new(9, &c1);
        t.learn(&c1, &[4, 0, 8], 0, Outcome::Win(0));
        t.learn(&c1, &[4, 0, 8, 3], 0, Outcome::Win(1));
        assert_eq!(t.reply1[0][0], 9, "LGR-1 never forgets");
    }

    #[test]
    fn lgrf2_pairs() {
        let c = cfg(LgrMode::Lgrf2);
        let mut s = PolicyState::new(9, &c);
        s.learn(&c, &[4, 0, 8], 0, Outcome::Win(0));
        assert_eq!(s.reply2[0][4 * 9], 9, "reply 8 to (4, 0)");
        s.learn(&c, &[4, 0, 8, 2], 0, Outcome::Win(1));
        assert_eq!(s.reply2[0][4 * 9], 0, "forgotten after a loss");
        s.learn(&c, &[4, 0, 8], 0, Outcome::Draw);
        assert_eq!(s.reply2[0][4 * 9], 0, "draws teach nothing");
    }

    #[test]
    fn qb_bonus_by_hand() {
        // λ = (20 − 10)/5 = 2, k = 1: −1 + 2/(1 + e^−2) = 0.761594156
        assert!((qb_bonus(10.0, 20.0, 5.0, 1.0) - 0.7615941559557649).abs() < 1e-12);
        assert!((qb_bonus(20.0, 20.0, 5.0, 1.0)).abs() < 1e-12);
        assert!((qb_bonus(30.0, 20.0, 5.0, 1.0) + 0.7615941559557649).abs() < 1e-12);
        assert_eq!(qb_bonus(10.0, 20.0, 0.0, 1.0), 0.0);
        let mut w = Welford::default();
        for x in [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0] {
            w.push(x);
        }
        assert!((w.mean - 5.0).abs() < 1e-12);
        assert!((w.std() - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
    }

    #[test]
    fn fenwick_samples_by_weight() {
        let w = [0.0, 2.0, 0.0, 1.0, 5.0, 0.0, 0.0, 2.0];
        let mut t = w.to_vec();
        fenwick_build(&mut t);
        // u × 10 falls in [0,2) → 1, [2,3) → 3, [3,8) → 4, [8,10) → 7
        for (u, want) in [(0.0, 1), (0.19, 1), (0.21, 3), (0.31, 4), (0.79, 4), (0.81, 7), (0.999, 7)] {
            assert_eq!(fenwick_sample(&t, u), want, "u = {u}");
        }
        fenwick_add(&mut t, 4, -5.0);
        // now weights 2, 1, 2 on 1, 3, 7 (total 5)
        for (u, want) in [(0.1, 1), (0.5, 3), (0.7, 7)] {
            assert_eq!(fenwick_sample(&t, u), want, "after removal, u = {u}");
        }
        let mut rng = Rng64::new(9);
        let mut counts = [0u32; 8];
        for _ in 0..50_000 {
            counts[fenwick_sample(&t, rng.unit())] += 1;
        }
        assert_eq!(counts[4], 0, "a removed move is never drawn");
        let share = counts[3] as f64 / 50_000.0;
        assert!((share - 0.2).abs() < 0.01, "weight 1 of 5: {share}");
    }

    #[test]
    fn mast_learns_means() {
        let c = SearchConfig { mast: MastMode::Gibbs, ..SearchConfig::default() };
        let mut s = PolicyState::new(9, &c);
        s.learn(&c, &[4, 0, 8], 0, Outcome::Win(0));
        s.learn(&c, &[4, 1], 0, Outcome::Draw);
        assert_eq!(s.mast_q(0, 4), 0.75);
        assert_eq!(s.mast_q(1, 0), 0.0);
        assert_eq!(s.mast_q(1, 5), 1.0, "unseen moves optimistic");
    }
}
