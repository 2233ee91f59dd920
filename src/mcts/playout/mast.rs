//! MAST, the move-average sampling technique (Finnsson & Björnsson 2008): each player's mean
//! reward per move over all simulations, and the default playout policy drawn from it: Gibbs
//! `P(a) ∝ e^{Q(a)/τ}` (τ = 0.1 on [0, 1] rewards, unseen moves Q = 1), or ε-greedy, the
//! best-Q move with probability 1 − ε (Tak, Winands & Björnsson 2012); with MAST off, the
//! default policy is uniform.

use super::{Kind, PolicyState};
use crate::game::{Game, MoveList, Outcome, Player};
use crate::mcts::config::{MastMode, SearchConfig};
use crate::rng::Rng64;

impl PolicyState {
    /// Recomputes the MAST weight of player `p`'s move `i` from its mean.
    #[inline]
    pub(super) fn refresh_weight(&mut self, p: usize, i: usize) {
        let x = (self.mast_q(p, i) - 1.0) / self.mast_wt_tau;
        self.mast_wt[p][i] = x.exp();
        // At most 1e300, by a comparison (the weight is positive, so the inverse is never NaN):
        // `f64::min` is a call of libm's `fmin` in WebAssembly.
        let inv = 1.0 / self.mast_wt[p][i];
        self.mast_inv[p][i] = if inv < 1e300 { inv } else { 1e300 };
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

    /// MAST's part of [`PolicyState::learn`]: every move's player gets the outcome's reward for
    /// that move.
    #[inline]
    pub(super) fn learn_mast(&mut self, seq: &[u16], first: Player, outcome: Outcome) {
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

    /// The default policy's move for player `me`: MAST Gibbs or ε-greedy, or uniform, over
    /// `legal`, and its position in `legal`.
    #[inline(always)]
    pub(super) fn default_move<G: Game>(
        &mut self,
        cfg: &SearchConfig,
        g: &G,
        rng: &mut Rng64,
        legal: &MoveList<G::Move>,
        me: usize,
        shrink: bool,
    ) -> (G::Move, Kind, usize) {
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
    pub(super) fn build_orders<G: Game>(&mut self, cfg: &SearchConfig, g: &G, legal: &MoveList<G::Move>, rng: &mut Rng64) {
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
    pub(super) fn next_in_order<M: Copy>(&mut self, legal: &MoveList<M>, me: usize) -> (M, usize) {
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
}

#[cfg(test)]
mod tests {
    use super::*;

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
