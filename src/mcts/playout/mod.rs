//! Playout (rollout) policies, combinable, in this order of priority at each playout move:
//!
//! 1. **decisive move** (Teytaud & Teytaud 2010): a move that wins at once (`Game::find_winning_move`);
//! 2. **anti-decisive move**: if the opponent threatens to win at once (`Game::threats`), play on
//!    one of its threats drawn uniformly (`Game::random_threat`; in Hex and Tic-Tac-Toe that
//!    blocks it);
//! 3. **save-bridge** (Hex; Arneson, Hayward & Henderson 2010, MoHex): if the opponent's last
//!    move intruded into a bridge of the mover's, the other carrier cell (one drawn uniformly
//!    when several bridges were intruded);
//! 4. **last good reply** (Drake 2009; Baier & Drake 2010): LGRF-2 reply to the previous two
//!    moves, then the LGR-1/LGRF-1 reply to the previous move, each played with probability
//!    `lgr_p` when legal;
//! 5. **PoolRAVE** (Rimmel, Teytaud et al. 2010; Hoock et al. 2010): with probability `pool_p`
//!    draw one move from the pool of the `pool_k` best moves by AMAF value and play it if legal;
//! 6. the default policy: **MAST** (Finnsson & Björnsson 2008) Gibbs `P(a) ∝ e^{Q(a)/τ}`, τ = 0.1
//!    on [0, 1] rewards, unseen moves Q = 1; or ε-greedy, the best-Q move with probability 1 − ε,
//!    ε = 0.4 (Tak, Winands & Björnsson 2012); else uniform.
//!
//! One file per policy: `decisive.rs` (1 and 2), `save_bridge.rs` (3), `lgr.rs` (4), `pool_rave.rs`
//! (5), `mast.rs` (6), `qb.rs` (quality-based rewards, Pepels et al. 2014, which the backpropagation applies);
//! this file holds the state they share ([`PolicyState`]), the playout loops and the
//! legal-move list they draw from.
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
//! playout (the recorded random playout of RAVE: 10,600). Save-bridge adds about 90 instructions
//! per playout move (its ring scan and its copy of the cells' owners; `docs/save-bridge.md`).
//!
//! With none of them on, the search uses the game's fast `random_playout` instead.

mod decisive;
mod lgr;
mod mast;
mod pool_rave;
mod qb;
mod save_bridge;

pub use qb::{qb_bonus, Welford};

use crate::game::hex::bridges::{BridgeRings, Colours, COLOURS};
use crate::game::{Game, MoveList, MoveSets, Outcome, Player};
use crate::mcts::config::{LgrMode, MastMode, SearchConfig};
use crate::rng::Rng64;

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
    /// Counters: save-bridge answers played.
    pub bridge_played: u64,
    /// Save-bridge: the game's neighbour rings while the rule applies to the current playout
    /// (`save_bridge` on a game with bridges), else `None`.
    rings: Option<&'static BridgeRings>,
    /// Save-bridge: per playout, the owner of each cell (0, 1, −1 empty) as the moves chosen so
    /// far leave it, then the edges' owners ([`BridgeRings`]).
    colour: Box<Colours>,
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
            bridge_played: 0,
            rings: None,
            colour: Box::new([0; COLOURS]),
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
    /// Learns from one finished simulation: `seq` holds the dense indices of all moves from the
    /// root (tree and playout), `first` is the player who made `seq[0]`.
    ///
    /// - LGR: for each move of the winner, store it as the reply to the previous move (and to
    ///   the previous two for LGRF-2); with forgetting (LGRF), delete each of the loser's moves
    ///   that is stored as its reply to the same context (Baier & Drake 2010). Draws teach nothing.
    /// - MAST: every move's player gets the outcome's reward for that move.
    pub fn learn(&mut self, cfg: &SearchConfig, seq: &[u16], first: Player, outcome: Outcome) {
        if cfg.lgr != LgrMode::Off {
            self.learn_lgr(cfg, seq, first, outcome);
        }
        if cfg.mast != MastMode::Off {
            self.learn_mast(seq, first, outcome);
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
            if let Some(r) = self.threat_playout(cfg, g, rng, seq, sets) {
                return r;
            }
        }
        self.bridge_start(cfg, g);
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
            let chosen = self.threat_move(cfg, g, rng, &mut tmp, shrink);
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
            self.bridge_note(g, m, me);
        }
    }

    /// The fill playout: moves are chosen from the legal-move list alone (save-bridge, LGR,
    /// PoolRAVE, MAST or uniform: none of them reads the game's board; save-bridge keeps its
    /// own owners of the cells chosen so far) until it is empty, then
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
        if cfg.mast == MastMode::Gibbs && cfg.lgr == LgrMode::Off && !cfg.poolrave && self.rings.is_none() {
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
            self.bridge_note(g, m, me);
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

    /// The move of player `me` by the save-bridge answer to the previous move, then the
    /// learned policies (LGRF-2, then LGR-1/LGRF-1, then a PoolRAVE pool move), or else the default policy (MAST Gibbs or ε-greedy, or uniform) over
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
        if let Some(r) = self.bridge_move(g, rng, seq, me, shrink) {
            return r;
        }
        if let Some(r) = self.lgr_move(cfg, g, rng, seq, me, shrink) {
            return r;
        }
        if let Some(r) = self.pool_move(cfg, g, rng, me, shrink) {
            return r;
        }
        self.default_move(cfg, g, rng, legal, me, shrink)
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
            Kind::Bridge => self.bridge_played += n,
        }
    }
}

/// The number of [`Kind`]s (the last one's value plus one).
const KINDS: usize = Kind::Bridge as usize + 1;

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
    Bridge,
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
            6 => Kind::Bridge,
            _ => Kind::Random,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
                    for save_bridge in [false, true] {
                        cfgs.push(SearchConfig { mast, decisive, anti_decisive: decisive, lgr, save_bridge, ..SearchConfig::default() });
                    }
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

    /// A fill playout (stones placed without end-of-game checks, the end found afterwards)
    /// plays exactly the moves of the move-by-move playout with the same random numbers, up to
    /// the same end, with the same counters: Hex 5, 7 and 11 (one bitboard type each), Hex with
    /// swap past ply 1, LGR-1, LGRF-2, MAST Gibbs and ε-greedy, PoolRAVE pools, save-bridge (alone
    /// and with the others; its answers read its own copy of the cells chosen so far), from random
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
            pool_cfg.clone(),
            SearchConfig { save_bridge: true, ..SearchConfig::default() },
            SearchConfig { save_bridge: true, lgr: LgrMode::Lgrf2, ..SearchConfig::default() },
            SearchConfig { save_bridge: true, mast: MastMode::Gibbs, ..SearchConfig::default() },
            SearchConfig { save_bridge: true, ..pool_cfg },
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
                        (fill.lgr_played, fill.mast_played, fill.pool_played, fill.bridge_played),
                        (step.lgr_played, step.mast_played, step.pool_played, step.bridge_played)
                    );
                    fill.learn(cfg, &sa, g.to_move(), oa);
                    step.learn(cfg, &sb, g.to_move(), ob);
                }
                assert!(fill.lgr_played + fill.mast_played + fill.pool_played > 0 || cfg.lgr == LgrMode::Off);
                assert!(fill.bridge_played > 0 || !cfg.save_bridge, "{cfg:?}: save-bridge fired");
            }
        }
    }
}
