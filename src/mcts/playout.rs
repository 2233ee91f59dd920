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
//! per move, and each player's Gibbs (or ε-greedy) choices for the whole playout come from one
//! sorted order of the legal moves, built per playout by an exponential race (exact Gibbs
//! probabilities, see `PolicyState::build_orders`), each move the first of the order still legal;
//! Hex answers "is there a winning move / a threat" from incrementally kept sets in O(1) and
//! draws a random threat as the k-th bit of that set; when decisive and anti-decisive moves are
//! the only policy (presets `decisive`, `best`), Hex plays the whole playout in its own loop
//! ([`Game::decisive_playout`]: one shuffle of the empty cells instead of a list kept and a draw
//! per move, no per-move dispatch; `mcts bench --game hex:11`: decisive 385k → 450k iterations/s,
//! best 277k → 305k). Without decisive checks, Hex playouts are
//! *fill playouts* ([`Game::fill_playouts`]): the policy chooses moves from the list alone until
//! the board is full, and one row sweep plus the winner's stones in order find where the game
//! really ended ([`Game::settle_fill`]); the moves after that are dropped, so the playout and
//! what LGR/MAST learn from it are those of a move-by-move playout. Callgrind, `mcts search
//! --game hex:11 --algo lgr --iterations 20000 --seed 3`: 38,000 → 22,000 instructions per
//! playout (the recorded random playout of RAVE: 10,600).
//!
//! With none of them on, the search uses the game's fast `random_playout` instead.

use crate::game::{Game, MoveList, MoveSets, NoTrace, Outcome, Player};
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
    /// `1 / w(a) = e^{(1 − Q(a))/τ}` per player and move, at most 1e300 (the exponential race's
    /// key is `E_a` times it, [`PolicyState::build_orders`]).
    mast_inv: [Vec<f64>; 2],
    /// τ the weights were computed with.
    mast_wt_tau: f64,
    /// Per playout (placement games), each player's MAST order of the legal moves (dense
    /// indices): Gibbs — ascending exponential race keys `E_i / w_i` ([`PolicyState::playout`]);
    /// ε-greedy — descending Q, ties in random order. The player's default move is the first
    /// move of its order still legal.
    order: [Vec<u16>; 2],
    /// How far each player's [`PolicyState::order`] has been read (the moves before are gone).
    cursor: [usize; 2],
    /// Scratch for the Gibbs sort keys of [`PolicyState::order`]: the key's `f64` bits with the
    /// dense index in the lowest [`PolicyState::index_bits`] bits.
    keys: Vec<u64>,
    /// Scratch for the ε-greedy sort keys: `2 − Q` as `f64` bits, 32 random bits, the index.
    keys_eg: Vec<u128>,
    /// Bits that hold a dense move index (`ms − 1` fits).
    index_bits: u32,
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
    /// With `fill_playouts`, the moves a fill playout's policy chose after the game's real end
    /// (the rest of the filled board, per player), for AMAF only; valid when `after_valid`.
    pub after_end: MoveSets,
    /// Whether the last playout left its after-the-end moves in `after_end`.
    pub after_valid: bool,
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
            mast_inv: [vec![1.0; mast], vec![1.0; mast]],
            mast_wt_tau: cfg.mast_tau,
            order: [Vec::new(), Vec::new()],
            cursor: [0; 2],
            keys: Vec::new(),
            keys_eg: Vec::new(),
            index_bits: usize::BITS - ms.saturating_sub(1).leading_zeros(),
            pos: Vec::new(),
            weights: Vec::new(),
            kinds: Vec::new(),
            fill_ok: true,
            after_end: MoveSets::default(),
            after_valid: false,
        }
    }

    /// Recomputes the MAST weight of player `p`'s move `i` from its mean.
    #[inline]
    fn refresh_weight(&mut self, p: usize, i: usize) {
        let x = (self.mast_q(p, i) - 1.0) / self.mast_wt_tau;
        self.mast_wt[p][i] = x.exp();
        // At most 1e300, by a comparison (the weight is positive, so the inverse is never NaN):
        // `f64::min` is a call of libm's `fmin` in WebAssembly.
        let inv = 1.0 / self.mast_wt[p][i];
        self.mast_inv[p][i] = if inv < 1e300 { inv } else { 1e300 };
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
                self.mast_inv[p] = fresh.mast_inv[p].clone();
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

    /// Plays a policy playout from `g` to the end, appending the moves to `seq`; returns the
    /// outcome and whether the moves went to `sets` instead.
    ///
    /// With `sets` given, a playout of decisive and anti-decisive moves alone that the game plays
    /// in its own loop ([`Game::decisive_playout`]) leaves its moves as per-player sets in
    /// `sets` and none in `seq` (for a caller that needs only AMAF sets and the length).
    ///
    /// The default move: in placement games ([`Game::legal_moves_only_shrink`]) the legal moves
    /// are generated once and each move played is removed from the list in O(1) (a position
    /// index per move: the last entry fills the hole), so a move chosen by a policy (LGR reply,
    /// pool move, threat) leaves the list as cheaply as a random one and "is this stored reply
    /// legal" is one array read. MAST then takes each player's next move from that player's
    /// order of the legal moves, sorted once per playout ([`PolicyState::build_orders`]).
    /// Otherwise (Pentago, Hex before a possible swap) the legal moves are generated at each
    /// move and Gibbs sums the cached weights. Either way no
    /// `exp` is computed in the playout.
    ///
    /// Without decisive or anti-decisive checks, in games that allow it ([`Game::fill_playouts`]:
    /// Hex), the playout is a *fill playout*: the moves are placed without end-of-game
    /// bookkeeping until the board is full, and [`Game::settle_fill`] finds the move that really
    /// ended the game; the later moves are dropped from `seq` and from the counters. The moves
    /// kept are exactly those of a move-by-move playout with the same random numbers, so the
    /// policy is unchanged (only the random numbers drawn after the end differ).
    pub fn playout<G: Game>(
        &mut self,
        cfg: &SearchConfig,
        g: &mut G,
        rng: &mut Rng64,
        seq: &mut Vec<G::Move>,
        sets: Option<&mut MoveSets>,
    ) -> (Outcome, bool) {
        self.after_valid = false;
        if let Some(o) = g.outcome() {
            return (o, false);
        }
        if cfg.threat_checks_only() {
            // Decisive and anti-decisive moves over uniform ones: the game's own loop if it has one.
            let mut counts = [0u64; 2];
            let (dec, anti) = (cfg.decisive, cfg.anti_decisive);
            let played = match sets {
                Some(sets) => g.decisive_playout(rng, dec, anti, sets, &mut NoTrace, &mut counts).map(|o| (o, true)),
                None => g.decisive_playout(rng, dec, anti, &mut MoveSets::default(), seq, &mut counts).map(|o| (o, false)),
            };
            if let Some(r) = played {
                self.decisive_played += counts[0];
                self.anti_decisive_played += counts[1];
                return r;
            }
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
            if cfg.mast != MastMode::Off {
                self.build_orders(cfg, g, &legal, rng);
            }
        }
        let o = if fill { self.fill_loop(cfg, g, rng, seq, &mut legal) } else { self.step_loop(cfg, g, rng, seq, &mut legal, shrink) };
        (o, false)
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
            let (m, kind, k) = match chosen {
                Some((m, kind)) => (m, kind, self.list_pos(g, shrink, m)),
                None => {
                    if !shrink {
                        g.legal_moves(legal);
                    }
                    self.policy_move(cfg, g, rng, seq, legal, me, shrink)
                }
            };
            if shrink {
                self.take_out(g, legal, m, k);
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
        if cfg.mast == MastMode::Gibbs && cfg.lgr == LgrMode::Off && !cfg.poolrave {
            // MAST Gibbs alone: every move is the mover's next move by its order, so the
            // playout is the two orders merged. A taken move's position index is cleared (the
            // list itself is not touched: the position of each move still legal stays valid).
            let mut me = g.to_move() as usize;
            for _ in 0..total {
                let (m, _) = self.next_in_order(legal, me);
                self.pos[g.move_index(m)] = u16::MAX;
                seq.push(m);
                me ^= 1;
            }
            legal.clear();
            let first = g.to_move();
            let (o, k) = g.settle_fill(&seq[start..]);
            self.keep_after_end(cfg, g, first, &seq[start..], k);
            seq.truncate(start + k);
            self.mast_played += k as u64;
            return o;
        }
        self.kinds.clear();
        self.kinds.resize(total, 0);
        // Moves per kind, counted as they are chosen; those after the real end are taken off
        // again below (usually the fewer).
        let mut per_kind = [0u64; KINDS];
        let mut me = g.to_move() as usize;
        for j in 0..total {
            let (m, kind, k) = self.policy_move(cfg, g, rng, seq, legal, me, true);
            self.take_out(g, legal, m, k);
            seq.push(m);
            self.kinds[j] = kind as u8;
            per_kind[kind as usize] += 1;
            me ^= 1;
        }
        let first = g.to_move();
        let (o, k) = g.settle_fill(&seq[start..]);
        self.keep_after_end(cfg, g, first, &seq[start..], k);
        seq.truncate(start + k);
        for &kind in &self.kinds[k..] {
            per_kind[kind as usize] -= 1;
        }
        for (kind, &n) in per_kind.iter().enumerate() {
            self.count_n(Kind::from_u8(kind as u8), n);
        }
        o
    }

    /// With `fill_playouts`: the fill playout's `moves` after the first `k` (those after the
    /// game's real end), played alternately from `first`, into `after_end` as per-player sets.
    #[inline(always)]
    fn keep_after_end<G: Game>(&mut self, cfg: &SearchConfig, g: &G, first: Player, moves: &[G::Move], k: usize) {
        if !cfg.fill_playouts {
            return;
        }
        self.after_end.clear();
        for (j, &m) in moves.iter().enumerate().skip(k) {
            let i = g.move_index(m);
            self.after_end.by[(first as usize ^ (j & 1)) & 1][i / 64] |= 1 << (i % 64);
        }
        self.after_valid = true;
    }

    /// The move of player `me` by the learned policies (LGRF-2, then LGR-1/LGRF-1, then a
    /// PoolRAVE pool move) or else the default policy (MAST Gibbs or ε-greedy, or uniform) over
    /// `legal` (the legal moves: kept by the caller in placement games, `shrink`). Returns the
    /// move, the policy that chose it, and its position in `legal` (for
    /// [`PolicyState::take_out`]; meaningful when `shrink`).
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
    ) -> (G::Move, Kind, usize) {
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
                            return (m, Kind::Lgr, self.list_pos(g, shrink, m));
                        }
                    }
                }
            }
        }
        if cfg.poolrave && !self.pool[me].is_empty() && rng.chance(cfg.pool_p) {
            let i = self.pool[me][rng.index(self.pool[me].len())];
            if let Some(m) = g.move_from_index(i as usize) {
                if self.legal_here(g, shrink, m) {
                    return (m, Kind::Pool, self.list_pos(g, shrink, m));
                }
            }
        }
        match cfg.mast {
            MastMode::Off => {
                let k = rng.index(legal.len());
                (legal[k], Kind::Random, k)
            }
            MastMode::Gibbs => {
                let (m, k) = if shrink {
                    self.next_in_order(legal, me)
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
                        (legal[i], i)
                    } else {
                        let k = rng.index(legal.len());
                        (legal[k], k)
                    }
                };
                (m, Kind::Mast, k)
            }
            MastMode::EpsilonGreedy => {
                if rng.chance(cfg.mast_epsilon) {
                    let k = rng.index(legal.len());
                    (legal[k], Kind::Random, k)
                } else if shrink {
                    let (m, k) = self.next_in_order(legal, me);
                    (m, Kind::Mast, k)
                } else {
                    let mut best = (legal[0], 0);
                    let mut bq = f64::NEG_INFINITY;
                    for (k, &m) in legal.iter().enumerate() {
                        let q = self.mast_q(me, g.move_index(m));
                        if q > bq {
                            bq = q;
                            best = (m, k);
                        }
                    }
                    (best.0, Kind::Mast, best.1)
                }
            }
        }
    }

    /// Builds each player's MAST order of the playout's legal moves `legal` (placement games),
    /// read by [`PolicyState::next_in_order`].
    ///
    /// Gibbs (`P(a) ∝ w(a) = e^{Q(a)/τ}` among the legal moves at each of the player's moves,
    /// Finnsson & Björnsson 2008) as an *exponential race*: each move gets `E_a / w(a)` with
    /// `E_a` an independent Exp(1) draw ([`Rng64::exp1`]), and the player takes its legal move
    /// with the smallest key. The smallest of independent `Exp(w_a)` variables is move `a` with
    /// probability `w(a) / Σ w`, and given the moves taken so far (anyone's: the other policies
    /// and the opponent do not read this player's keys) the remaining keys are, by the
    /// exponential's memorylessness, the last key taken plus fresh `Exp(w_a)` variables; so
    /// every draw of the whole playout has exactly the Gibbs probabilities (the Plackett–Luce
    /// model's sampling by exponential keys; Efraimidis & Spirakis 2006 for the same idea
    /// with weights). Cost: one sort per player and playout, O(L log L), instead of a
    /// weighted draw per move. Weights below 1e-300 (τ tiny, a move far below the best) are
    /// raised to it, so no key is infinite: such moves come after all others, in random order.
    ///
    /// ε-greedy (Tak, Winands & Björnsson 2012): the moves by descending Q, ties in random
    /// order; the greedy move is the first still legal.
    fn build_orders<G: Game>(&mut self, cfg: &SearchConfig, g: &G, legal: &MoveList<G::Move>, rng: &mut Rng64) {
        for p in 0..2 {
            let order = &mut self.order[p];
            order.clear();
            if cfg.mast == MastMode::Gibbs {
                // Positive finite f64 keys order as their bits; the lowest bits carry the index
                // (a relative change below 2^-43 of the key on Hex 19×19: only keys that close
                // are ordered by index instead).
                let low = (1u64 << self.index_bits) - 1;
                self.keys.clear();
                let inv = &self.mast_inv[p];
                for &m in legal {
                    let i = g.move_index(m);
                    let e: f64 = rng.exp1();
                    self.keys.push(((e * inv[i]).to_bits() & !low) | i as u64);
                }
                self.keys.sort_unstable();
                order.extend(self.keys.iter().map(|&k| (k & low) as u16));
            } else {
                self.keys_eg.clear();
                for &m in legal {
                    let i = g.move_index(m);
                    // 2 − Q > 0: ascending keys are descending Q; random bits break ties.
                    let n = self.mast_n[p][i];
                    let q = if n == 0 { 1.0 } else { self.mast_w[p][i] / n as f64 };
                    let key = (2.0 - q).to_bits() as u128;
                    self.keys_eg.push(key << 64 | ((rng.next_u64() as u32 as u128) << 16) | i as u128);
                }
                self.keys_eg.sort_unstable();
                order.extend(self.keys_eg.iter().map(|&k| k as u16));
            }
            self.cursor[p] = 0;
        }
    }

    /// Player `me`'s next move by its MAST order ([`PolicyState::build_orders`]): the first
    /// move of the order still in `legal` (the moves before it are gone for good: legal moves
    /// only leave in placement games), and its position in `legal`.
    #[inline(always)]
    fn next_in_order<M: Copy>(&mut self, legal: &MoveList<M>, me: usize) -> (M, usize) {
        let order = &self.order[me];
        let mut c = self.cursor[me];
        while c < order.len() {
            let k = self.pos[order[c] as usize];
            c += 1;
            if k != u16::MAX {
                self.cursor[me] = c;
                return (legal[k as usize], k as usize);
            }
        }
        // Unreachable while `legal` is not empty (every legal move is in the order).
        self.cursor[me] = c;
        (legal[0], 0)
    }

    /// The position of legal move `m` in the playout's legal-move list (placement games,
    /// `shrink`; else unused, `usize::MAX`).
    #[inline(always)]
    fn list_pos<G: Game>(&self, g: &G, shrink: bool, m: G::Move) -> usize {
        if shrink {
            self.pos[g.move_index(m)] as usize
        } else {
            usize::MAX
        }
    }

    /// Takes `m`, at position `k`, out of the playout's legal-move list (placement games): the
    /// last move fills its place. The caller passes the position it chose the move by (a
    /// random index, a MAST order's entry, or the position index read for a stored reply's
    /// legality), so the removal does not wait on reading it again: in a policy playout each
    /// move's removal is on the chain of loads that leads to the next move.
    #[inline(always)]
    fn take_out<G: Game>(&mut self, g: &G, legal: &mut MoveList<G::Move>, m: G::Move, k: usize) {
        let i = g.move_index(m);
        debug_assert_eq!(self.pos[i] as usize, k, "the move is at position k");
        let last = legal.len() - 1;
        let moved = legal[last];
        legal[k] = moved;
        legal.pop();
        self.pos[g.move_index(moved)] = k as u16;
        self.pos[i] = u16::MAX;
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
        self.count_n(kind, 1);
    }

    /// Adds `n` moves of `kind` to its counter.
    #[inline(always)]
    fn count_n(&mut self, kind: Kind, n: u64) {
        match kind {
            Kind::Random => {}
            Kind::Decisive => self.decisive_played += n,
            Kind::AntiDecisive => self.anti_decisive_played += n,
            Kind::Lgr => self.lgr_played += n,
            Kind::Pool => self.pool_played += n,
            Kind::Mast => self.mast_played += n,
        }
    }
}

/// The number of [`Kind`]s (the last one's value plus one).
const KINDS: usize = Kind::Mast as usize + 1;

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
                    let (o, _) = st.playout(cfg, &mut g, rng, &mut seq, None);
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

    /// Hex's own decisive playout loop ([`Game::decisive_playout`], taken when decisive or
    /// anti-decisive moves are the only policy) follows the policy at every move: replayed move
    /// by move, a mover with a winning move wins with it, else a mover facing threats plays on
    /// one of them, the game ends exactly at the last move, and the counters are the forced
    /// moves. And its games have the distribution of the move-by-move policy: from fixed
    /// positions, the joint law of (winner, length) over 100,000 playouts each way differs by a
    /// total variation below 0.03 (0.004–0.010 here; the loop without its shuffle, taking the
    /// empty cells in order, gives 0.87). Hex 1 to 4, 7, 11, 13, 19: all three bitboard types.
    #[test]
    fn decisive_playouts_follow_the_policy() {
        use crate::game::Hex;
        use std::collections::HashMap;
        let mut rng = Rng64::new(77);
        let modes = [(true, true), (true, false), (false, true)];
        for n in [1usize, 2, 3, 4, 7, 11, 13, 19] {
            for (decisive, anti) in modes {
                let cfg = SearchConfig { decisive, anti_decisive: anti, ..SearchConfig::default() };
                let mut st = PolicyState::new(Hex::new(n, false).unwrap().move_space(), &cfg);
                for _ in 0..40 {
                    let mut g = Hex::new(n, false).unwrap();
                    for _ in 0..rng.below(n as u32) {
                        let mut l = MoveList::new();
                        g.legal_moves(&mut l);
                        g.play_unchecked(l[rng.index(l.len())]);
                    }
                    if g.is_terminal() {
                        continue;
                    }
                    let from = g.clone();
                    let (d0, a0) = (st.decisive_played, st.anti_decisive_played);
                    let mut seq = Vec::new();
                    let (o, _) = st.playout(&cfg, &mut g, &mut rng, &mut seq, None);
                    let (mut r, mut forced) = (from.clone(), [0u64; 2]);
                    for (j, &m) in seq.iter().enumerate() {
                        assert!(!r.is_terminal(), "hex:{n}: moves after the end");
                        let mut threats = MoveList::new();
                        r.threats(&mut threats);
                        let wins = decisive && r.find_winning_move().is_some();
                        r.play(m).expect("a legal playout move");
                        if wins {
                            forced[0] += 1;
                            assert!(r.is_terminal(), "hex:{n}: move {j} missed a win");
                        } else if anti && !threats.is_empty() {
                            forced[1] += 1;
                            assert!(threats.contains(&m), "hex:{n}: move {j} ignored a threat");
                        }
                    }
                    assert_eq!(r.outcome(), Some(o), "hex:{n}");
                    assert_eq!(g.outcome(), Some(o));
                    assert_eq!(g.ply(), r.ply());
                    assert_eq!(g.hash(), r.hash());
                    assert_eq!([st.decisive_played - d0, st.anti_decisive_played - a0], forced, "hex:{n}");
                }
            }
        }

        // The law of (winner, length) against the move-by-move policy through the trait.
        fn reference(g: &mut Hex, decisive: bool, anti: bool, rng: &mut Rng64) -> (Outcome, usize) {
            let mut k = 0;
            let mut scratch = MoveList::new();
            while !g.is_terminal() {
                let m =
                    match (decisive.then(|| g.find_winning_move()).flatten(), anti.then(|| g.random_threat(rng, &mut scratch)).flatten()) {
                        (Some(m), _) | (None, Some(m)) => m,
                        (None, None) => {
                            let mut l = MoveList::new();
                            g.legal_moves(&mut l);
                            l[rng.index(l.len())]
                        }
                    };
                g.play_unchecked(m);
                k += 1;
            }
            (g.outcome().unwrap(), k)
        }
        for (n, opening) in [(5usize, &[12u16][..]), (5, &[6, 18, 7][..]), (7, &[24, 17][..])] {
            for (decisive, anti) in modes {
                let cfg = SearchConfig { decisive, anti_decisive: anti, ..SearchConfig::default() };
                let mut start = Hex::new(n, false).unwrap();
                for &m in opening {
                    start.play(m).unwrap();
                }
                let mut st = PolicyState::new(start.move_space(), &cfg);
                let runs = 100_000;
                let mut law: HashMap<(Outcome, usize), [i64; 2]> = HashMap::new();
                for _ in 0..runs {
                    let mut g = start.clone();
                    let mut seq = Vec::new();
                    let (o, _) = st.playout(&cfg, &mut g, &mut rng, &mut seq, None);
                    law.entry((o, seq.len())).or_default()[0] += 1;
                    let mut g = start.clone();
                    law.entry(reference(&mut g, decisive, anti, &mut rng)).or_default()[1] += 1;
                }
                let tv = law.values().map(|c| (c[0] - c[1]).abs()).sum::<i64>() as f64 / (2.0 * runs as f64);
                assert!(tv < 0.03, "hex:{n} {opening:?} decisive {decisive} anti {anti}: total variation {tv}");
            }
        }
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
                    let (oa, _) = fill.playout(cfg, &mut a, &mut Rng64::new(seed), &mut sa, None);
                    let (ob, _) = step.playout(cfg, &mut b, &mut Rng64::new(seed), &mut sb, None);
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

    /// The exponential race gives Gibbs's probabilities at every draw, also after moves taken
    /// by others: player 0 takes its first move, cell 8 is taken by someone else, player 0
    /// takes its second; each pair (a, b) must come with probability
    /// `w_a / W · w_b / (W − w_a − w_8)`, here with weights `w_i = i + 1` (W = 45).
    #[test]
    fn mast_orders_draw_by_gibbs_probabilities() {
        let c = SearchConfig { mast: MastMode::Gibbs, ..SearchConfig::default() };
        let g = crate::game::TicTacToe::new();
        let mut s = PolicyState::new(9, &c);
        for i in 0..9 {
            s.mast_wt[0][i] = (i + 1) as f64;
            s.mast_inv[0][i] = 1.0 / (i + 1) as f64;
        }
        s.pos = vec![u16::MAX; 9];
        let mut rng = Rng64::new(5);
        let runs = 200_000;
        let mut counts = [[0u32; 9]; 9];
        for _ in 0..runs {
            let mut legal: MoveList<u8> = MoveList::new();
            g.legal_moves(&mut legal);
            for (k, &m) in legal.iter().enumerate() {
                s.pos[m as usize] = k as u16;
            }
            s.build_orders(&c, &g, &legal, &mut rng);
            let (a, _) = s.next_in_order(&legal, 0);
            s.pos[a as usize] = u16::MAX;
            if a == 8 {
                continue;
            }
            s.pos[8] = u16::MAX;
            let (b, _) = s.next_in_order(&legal, 0);
            counts[a as usize][b as usize] += 1;
            for i in 0..9 {
                s.pos[i] = u16::MAX;
            }
        }
        for (a, row) in counts.iter().enumerate().take(8) {
            for (b, &count) in row.iter().enumerate().take(8) {
                // P(a first) · P(b first among the rest, cell 8 gone): weights i + 1, total 45.
                let (wa, wb) = ((a + 1) as f64, (b + 1) as f64);
                let want = if a == b { 0.0 } else { wa / 45.0 * wb / (45.0 - wa - 9.0) };
                let got = count as f64 / runs as f64;
                // Five standard deviations of a binomial proportion.
                let tol = 5.0 * (want * (1.0 - want) / runs as f64).sqrt() + 1e-9;
                assert!((got - want).abs() <= tol, "pair ({a}, {b}): {got} against {want}");
            }
        }
    }

    /// ε-greedy's order is by descending Q with ties in random order: the greedy move is the
    /// best-Q legal move, and among equal Q every move comes first about equally often.
    #[test]
    fn epsilon_greedy_order_is_by_q_with_random_ties() {
        let c = SearchConfig { mast: MastMode::EpsilonGreedy, ..SearchConfig::default() };
        let g = crate::game::TicTacToe::new();
        let mut s = PolicyState::new(9, &c);
        // Player 0: cells 0..3 lost every time (Q = 0), the rest unseen (Q = 1, tied).
        for i in 0..4 {
            s.mast_n[0][i] = 1;
        }
        s.pos = vec![u16::MAX; 9];
        let mut rng = Rng64::new(6);
        let mut first = [0u32; 9];
        for _ in 0..5000 {
            let mut legal: MoveList<u8> = MoveList::new();
            g.legal_moves(&mut legal);
            for (k, &m) in legal.iter().enumerate() {
                s.pos[m as usize] = k as u16;
            }
            s.build_orders(&c, &g, &legal, &mut rng);
            assert!(s.order[0][5..].iter().all(|&i| i < 4), "the Q = 0 moves come last");
            first[s.next_in_order(&legal, 0).0 as usize] += 1;
        }
        assert!(first[..4].iter().all(|&n| n == 0));
        assert!(first[4..].iter().all(|&n| (800..1200).contains(&n)), "{first:?}");
    }
}
