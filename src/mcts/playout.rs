//! Playout (rollout) policies, combinable, in this order of priority at each playout move:
//!
//! 1. **decisive move** (Teytaud & Teytaud 2010): a move that wins at once (`Game::find_winning_move`);
//! 2. **anti-decisive move**: if the opponent threatens to win at once (`Game::threats`), play on
//!    one of its threats drawn uniformly (`Game::random_threat`; in Hex and Tic-Tac-Toe that
//!    blocks it);
//! 3. **last good reply** (Drake 2009; Baier & Drake 2010): LGRF-2 reply to the previous two
//!    moves, then the LGR-1/LGRF-1 reply to the previous move, each played with probability
//!    `lgr_p` when legal;
//! 4. **PoolRAVE** (Rimmel, Teytaud et al. 2010; Hoock et al. 2010): with probability `pool_p`
//!    draw one move from the pool of the `pool_k` best moves by AMAF value and play it if legal;
//! 5. the default policy: **MAST** (Finnsson & Björnsson 2008) Gibbs `P(a) ∝ e^{Q(a)/τ}`, τ = 0.1
//!    on [0, 1] rewards, unseen moves Q = 1; or ε-greedy, the best-Q move with probability 1 − ε,
//!    ε = 0.4 (Tak, Winands & Björnsson 2012); else uniform.
//!
//! Cost per playout move: in placement games (Hex, Tic-Tac-Toe) the legal moves are listed once
//! per playout and each move played leaves the list in O(1) (a position index per move, which
//! also answers "is this stored reply / pool move legal" in one read); MAST's weights are cached
//! per move and Gibbs draws from a Fenwick tree (O(log |moves|), its total kept as moves leave);
//! Hex answers "is there a winning move / a threat" from incrementally kept sets in O(1) and
//! draws a random threat as the k-th bit of that set. Without decisive checks, Hex playouts are
//! *fill playouts* ([`Game::fill_playouts`]): the policy chooses moves from the list alone until
//! the board is full, and one row sweep plus the winner's stones in order find where the game
//! really ended ([`Game::settle_fill`]); the moves after that are dropped, so the playout and
//! what LGR/MAST learn from it are those of a move-by-move playout. Callgrind, `mcts search
//! --game hex:11 --algo lgr --iterations 20000 --seed 3`: 38,000 → 22,000 instructions per
//! playout (the recorded random playout of RAVE: 10,600).
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
    /// The total weight in each Fenwick tree, kept as moves leave (no O(log n) sum per draw).
    fen_total: [f64; 2],
    /// Per-playout position of each move in the legal-move list (placement games); `u16::MAX`
    /// for a move not in it, and for every move between playouts.
    pos: Vec<u16>,
    /// Cumulative weights of the legal moves (games whose legal moves change otherwise).
    weights: Vec<f64>,
    /// Per fill playout: which policy chose each move ([`Kind`] as `u8`), counted once the
    /// real end of the game is known.
    kinds: Vec<u8>,
    /// Fill playouts allowed where the game offers them (always, but for the test that
    /// compares them with move-by-move playouts).
    fill_ok: bool,
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
            fen_total: [0.0; 2],
            pos: Vec::new(),
            weights: Vec::new(),
            kinds: Vec::new(),
            fill_ok: true,
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
    /// are generated once and each move played is removed from the list in O(1) (a position
    /// index per move: the last entry fills the hole), so a move chosen by a policy (LGR reply,
    /// pool move, threat) leaves the list as cheaply as a random one and "is this stored reply
    /// legal" is one array read. MAST Gibbs then samples from a Fenwick tree of each player's
    /// weights, updated as moves leave. Otherwise (Pentago, Hex before a possible swap) the
    /// legal moves are generated at each move and Gibbs sums the cached weights. Either way no
    /// `exp` is computed in the playout.
    ///
    /// Without decisive or anti-decisive checks, in games that allow it ([`Game::fill_playouts`]:
    /// Hex), the playout is a *fill playout*: the moves are placed without end-of-game
    /// bookkeeping until the board is full, and [`Game::settle_fill`] finds the move that really
    /// ended the game; the later moves are dropped from `seq` and from the counters. The moves
    /// kept are exactly those of a move-by-move playout with the same random numbers, so the
    /// policy is unchanged (only the random numbers drawn after the end differ).
    pub fn playout<G: Game>(&mut self, cfg: &SearchConfig, g: &mut G, rng: &mut Rng64, seq: &mut Vec<G::Move>) -> Outcome {
        if let Some(o) = g.outcome() {
            return o;
        }
        let mut legal: MoveList<G::Move> = MoveList::new();
        let shrink = g.legal_moves_only_shrink();
        let fill = self.fill_ok && shrink && !cfg.decisive && !cfg.anti_decisive && g.fill_playouts();
        if shrink {
            g.legal_moves(&mut legal);
            if self.pos.len() != self.ms {
                self.pos = vec![u16::MAX; self.ms];
            }
            for (k, &m) in legal.iter().enumerate() {
                self.pos[g.move_index(m)] = k as u16;
            }
            if cfg.mast == MastMode::Gibbs {
                for p in 0..2 {
                    let fen = &mut self.fen[p];
                    fen.clear();
                    fen.resize(self.ms, 0.0);
                    let mut total = 0.0;
                    for &m in &legal {
                        let i = g.move_index(m);
                        fen[i] = self.mast_wt[p][i];
                        total += fen[i];
                    }
                    fenwick_build(fen);
                    self.fen_total[p] = total;
                }
            }
        }
        if fill {
            self.fill_loop(cfg, g, rng, seq, &mut legal)
        } else {
            self.step_loop(cfg, g, rng, seq, &mut legal, shrink)
        }
    }

    /// The move-by-move playout: each move is played with [`Game::play_unchecked`] and the
    /// game says when it is over; decisive and anti-decisive moves come first.
    #[inline(always)]
    fn step_loop<G: Game>(
        &mut self,
        cfg: &SearchConfig,
        g: &mut G,
        rng: &mut Rng64,
        seq: &mut Vec<G::Move>,
        legal: &mut MoveList<G::Move>,
        shrink: bool,
    ) -> Outcome {
        let mut tmp: MoveList<G::Move> = MoveList::new();
        loop {
            if let Some(o) = g.outcome() {
                if shrink {
                    // Leave `pos` all-absent for the next playout's legality reads.
                    for &m in legal.iter() {
                        self.pos[g.move_index(m)] = u16::MAX;
                    }
                }
                return o;
            }
            let me = g.to_move() as usize;
            let mut chosen: Option<(G::Move, Kind)> = None;
            if cfg.decisive {
                if let Some(m) = g.find_winning_move() {
                    chosen = Some((m, Kind::Decisive));
                }
            }
            if chosen.is_none() && cfg.anti_decisive {
                if let Some(m) = g.random_threat(rng, &mut tmp) {
                    if self.legal_here(g, shrink, m) {
                        chosen = Some((m, Kind::AntiDecisive));
                    }
                }
            }
            let (m, kind) = match chosen {
                Some(c) => c,
                None => {
                    if !shrink {
                        g.legal_moves(legal);
                    }
                    self.policy_move(cfg, g, rng, seq, legal, me, shrink)
                }
            };
            if shrink {
                self.take_out(cfg, g, legal, m);
            }
            seq.push(m);
            self.count(kind);
            g.play_unchecked(m);
        }
    }

    /// The fill playout: moves are chosen from the legal-move list alone (LGR, PoolRAVE, MAST
    /// or uniform: none of them reads the board) until it is empty, then
    /// [`Game::settle_fill`] plays them on the board and finds where the game ended.
    #[inline(always)]
    fn fill_loop<G: Game>(
        &mut self,
        cfg: &SearchConfig,
        g: &mut G,
        rng: &mut Rng64,
        seq: &mut Vec<G::Move>,
        legal: &mut MoveList<G::Move>,
    ) -> Outcome {
        let start = seq.len();
        let total = legal.len();
        seq.reserve(total);
        self.kinds.clear();
        self.kinds.resize(total, 0);
        let mut me = g.to_move() as usize;
        for j in 0..total {
            let (m, kind) = self.policy_move(cfg, g, rng, seq, legal, me, true);
            self.take_out(cfg, g, legal, m);
            seq.push(m);
            self.kinds[j] = kind as u8;
            me ^= 1;
        }
        let (o, k) = g.settle_fill(&seq[start..]);
        seq.truncate(start + k);
        for j in 0..k {
            let kind = Kind::from_u8(self.kinds[j]);
            self.count(kind);
        }
        o
    }

    /// The move of player `me` by the learned policies (LGRF-2, then LGR-1/LGRF-1, then a
    /// PoolRAVE pool move) or else the default policy (MAST Gibbs or ε-greedy, or uniform) over
    /// `legal` (the legal moves: kept by the caller in placement games, `shrink`).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn policy_move<G: Game>(
        &mut self,
        cfg: &SearchConfig,
        g: &G,
        rng: &mut Rng64,
        seq: &[G::Move],
        legal: &MoveList<G::Move>,
        me: usize,
        shrink: bool,
    ) -> (G::Move, Kind) {
        if cfg.lgr != LgrMode::Off && !seq.is_empty() {
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
                        if self.legal_here(g, shrink, m) && (cfg.lgr_p >= 1.0 || rng.chance(cfg.lgr_p)) {
                            return (m, Kind::Lgr);
                        }
                    }
                }
            }
        }
        if cfg.poolrave && !self.pool[me].is_empty() && rng.chance(cfg.pool_p) {
            let i = self.pool[me][rng.index(self.pool[me].len())];
            if let Some(m) = g.move_from_index(i as usize) {
                if self.legal_here(g, shrink, m) {
                    return (m, Kind::Pool);
                }
            }
        }
        match cfg.mast {
            MastMode::Off => (legal[rng.index(legal.len())], Kind::Random),
            MastMode::Gibbs => {
                let m = if shrink {
                    let i = fenwick_sample(&self.fen[me], rng.unit() * self.fen_total[me]);
                    match (i < self.ms).then(|| self.pos[i]).filter(|&k| (k as usize) < legal.len()) {
                        Some(k) if g.move_index(legal[k as usize]) == i => legal[k as usize],
                        // Rounding in the tree's sums can point at a move already
                        // played (weight ~1e-12): fall back to a uniform move.
                        _ => legal[rng.index(legal.len())],
                    }
                } else {
                    self.weights.clear();
                    let mut total = 0.0;
                    for &m in legal {
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
                };
                (m, Kind::Mast)
            }
            MastMode::EpsilonGreedy => {
                if rng.chance(cfg.mast_epsilon) {
                    (legal[rng.index(legal.len())], Kind::Random)
                } else {
                    let mut best = legal[0];
                    let mut bq = f64::NEG_INFINITY;
                    for &m in legal {
                        let q = self.mast_q(me, g.move_index(m));
                        if q > bq {
                            bq = q;
                            best = m;
                        }
                    }
                    (best, Kind::Mast)
                }
            }
        }
    }

    /// Takes `m` out of the playout's legal-move list (placement games): the last move fills
    /// its place; MAST Gibbs's Fenwick trees drop its weight.
    #[inline(always)]
    fn take_out<G: Game>(&mut self, cfg: &SearchConfig, g: &G, legal: &mut MoveList<G::Move>, m: G::Move) {
        let i = g.move_index(m);
        let k = self.pos[i] as usize;
        let last = legal.len() - 1;
        let moved = legal[last];
        legal.swap(k, last);
        legal.pop();
        self.pos[g.move_index(moved)] = k as u16;
        self.pos[i] = u16::MAX;
        if cfg.mast == MastMode::Gibbs {
            for p in 0..2 {
                let w = self.mast_wt[p][i];
                fenwick_add(&mut self.fen[p], i, -w);
                self.fen_total[p] -= w;
            }
        }
    }

    /// Whether `m` is legal in `g`: in placement games one read of the position index of the
    /// playout's legal-move list (absent moves hold `u16::MAX`), else [`Game::is_legal`].
    #[inline(always)]
    fn legal_here<G: Game>(&self, g: &G, shrink: bool, m: G::Move) -> bool {
        if shrink {
            self.pos[g.move_index(m)] != u16::MAX
        } else {
            g.is_legal(m)
        }
    }

    /// Counts one playout move chosen by `kind`.
    #[inline(always)]
    fn count(&mut self, kind: Kind) {
        match kind {
            Kind::Random => {}
            Kind::Decisive => self.decisive_played += 1,
            Kind::AntiDecisive => self.anti_decisive_played += 1,
            Kind::Lgr => self.lgr_played += 1,
            Kind::Pool => self.pool_played += 1,
            Kind::Mast => self.mast_played += 1,
        }
    }
}

/// Which policy chose a playout move (for the counters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum Kind {
    Random,
    Decisive,
    AntiDecisive,
    Lgr,
    Pool,
    Mast,
}

impl Kind {
    #[inline(always)]
    fn from_u8(k: u8) -> Kind {
        match k {
            1 => Kind::Decisive,
            2 => Kind::AntiDecisive,
            3 => Kind::Lgr,
            4 => Kind::Pool,
            5 => Kind::Mast,
            _ => Kind::Random,
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

/// The index whose cumulative weight interval holds `x` (in [0, total weight)): a descent
/// through the Fenwick tree `t`, O(log n). Returns `t.len()` or more only through rounding at
/// the very top.
#[inline]
fn fenwick_sample(t: &[f64], x: f64) -> usize {
    let n = t.len();
    let mut x = x;
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
            assert_eq!(fenwick_sample(&t, u * 10.0), want, "u = {u}");
        }
        fenwick_add(&mut t, 4, -5.0);
        // now weights 2, 1, 2 on 1, 3, 7 (total 5)
        for (u, want) in [(0.1, 1), (0.5, 3), (0.7, 7)] {
            assert_eq!(fenwick_sample(&t, u * 5.0), want, "after removal, u = {u}");
        }
        let mut rng = Rng64::new(9);
        let mut counts = [0u32; 8];
        for _ in 0..50_000 {
            counts[fenwick_sample(&t, rng.unit() * 5.0)] += 1;
        }
        assert_eq!(counts[4], 0, "a removed move is never drawn");
        let share = counts[3] as f64 / 50_000.0;
        assert!((share - 0.2).abs() < 0.01, "weight 1 of 5: {share}");
    }

    /// Policy playouts (with the one legal-move list of placement games, and without it) play
    /// only legal moves and end where the game ends: replaying each with checked moves
    /// succeeds and reaches the same outcome. Hex with and without the swap rule, Pentago.
    #[test]
    fn policy_playouts_are_legal_games() {
        use crate::game::{Game, Hex, Pentago};
        fn check<G: Game>(start: &G, rng: &mut Rng64) {
            let mut cfgs = Vec::new();
            for mast in [MastMode::Off, MastMode::Gibbs, MastMode::EpsilonGreedy] {
                for (decisive, lgr) in [(false, LgrMode::Off), (true, LgrMode::Lgrf2), (false, LgrMode::Lgr1)] {
                    cfgs.push(SearchConfig { mast, decisive, anti_decisive: decisive, lgr, ..SearchConfig::default() });
                }
            }
            for cfg in &cfgs {
                let mut st = PolicyState::new(start.move_space(), cfg);
                for _ in 0..30 {
                    // a random opening of 0..4 moves, then the playout
                    let mut g = start.clone();
                    for _ in 0..rng.below(4) {
                        let mut l = MoveList::new();
                        g.legal_moves(&mut l);
                        g.play_unchecked(l[rng.index(l.len())]);
                    }
                    let from = g.clone();
                    let mut seq = Vec::new();
                    let o = st.playout(cfg, &mut g, rng, &mut seq);
                    let mut r = from.clone();
                    for &m in &seq {
                        r.play(m).expect("a legal playout move");
                    }
                    assert_eq!(r.outcome(), Some(o), "{}", start.spec());
                    let idx: Vec<u16> = seq.iter().map(|&m| from.move_index(m) as u16).collect();
                    st.learn(cfg, &idx, from.to_move(), o);
                }
            }
        }
        let mut rng = Rng64::new(21);
        check(&Hex::new(7, false).unwrap(), &mut rng);
        check(&Hex::new(5, true).unwrap(), &mut rng);
        check(&Pentago::from_options(&[]).unwrap(), &mut rng);
    }

    /// A fill playout (stones placed without end-of-game checks, the end found afterwards)
    /// plays exactly the moves of the move-by-move playout with the same random numbers, up to
    /// the same end, with the same counters: Hex 5, 7 and 11 (one bitboard type each), Hex with
    /// swap past ply 1, LGR-1, LGRF-2, MAST Gibbs and ε-greedy, PoolRAVE pools, from random
    /// openings, with the tables learned from the playouts as the search does.
    #[test]
    fn fill_playouts_equal_move_by_move_playouts() {
        use crate::game::Hex;
        let mut rng = Rng64::new(5);
        let pool_cfg = SearchConfig { poolrave: true, pool_p: 0.5, ..SearchConfig::default() };
        let cfgs = [
            SearchConfig { lgr: LgrMode::Lgr1, lgr_p: 1.0, ..SearchConfig::default() },
            SearchConfig { lgr: LgrMode::Lgrf2, ..SearchConfig::default() },
            SearchConfig { mast: MastMode::Gibbs, ..SearchConfig::default() },
            SearchConfig { mast: MastMode::EpsilonGreedy, lgr: LgrMode::Lgrf1, ..SearchConfig::default() },
            pool_cfg,
        ];
        for (size, swap) in [(5, false), (7, false), (11, false), (8, true), (13, false)] {
            let start = Hex::new(size, swap).unwrap();
            for cfg in &cfgs {
                let mut fill = PolicyState::new(start.move_space(), cfg);
                let mut step = fill.clone();
                step.fill_ok = false;
                for t in 0..40 {
                    let mut g = start.clone();
                    for _ in 0..rng.below(6) + if swap { 2 } else { 0 } {
                        let mut l = MoveList::new();
                        g.legal_moves(&mut l);
                        g.play_unchecked(l[rng.index(l.len())]);
                        if g.is_terminal() {
                            break;
                        }
                    }
                    if g.is_terminal() {
                        continue;
                    }
                    assert!(g.fill_playouts());
                    if cfg.poolrave {
                        // some pool moves, occupied or not
                        for p in 0..2 {
                            let pool: Vec<u16> = (0..4).map(|_| rng.below(g.move_space() as u32) as u16).collect();
                            fill.pool[p] = pool.clone();
                            step.pool[p] = pool;
                        }
                    }
                    let seed = rng.next_u64();
                    let (mut a, mut b) = (g.clone(), g.clone());
                    let (mut sa, mut sb) = (vec![], vec![]);
                    let oa = fill.playout(cfg, &mut a, &mut Rng64::new(seed), &mut sa);
                    let ob = step.playout(cfg, &mut b, &mut Rng64::new(seed), &mut sb);
                    assert_eq!((oa, &sa), (ob, &sb), "{} {cfg:?} playout {t}", g.spec());
                    assert_eq!(a.board_string(), b.board_string(), "the position reached");
                    assert_eq!((a.ply(), a.to_move(), a.hash()), (b.ply(), b.to_move(), b.hash()));
                    assert_eq!(a.hash(), a.hash_from_scratch());
                    assert_eq!(
                        (fill.lgr_played, fill.mast_played, fill.pool_played),
                        (step.lgr_played, step.mast_played, step.pool_played)
                    );
                    fill.learn(cfg, &sa, g.to_move(), oa);
                    step.learn(cfg, &sb, g.to_move(), ob);
                }
                assert!(fill.lgr_played + fill.mast_played + fill.pool_played > 0 || cfg.lgr == LgrMode::Off);
            }
        }
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
