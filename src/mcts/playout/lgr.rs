//! Last good reply (Drake 2009; Baier & Drake 2010): the winner's reply to the previous move
//! (LGR-1) or to the previous two (LGRF-2) is stored and played when legal, with probability
//! `lgr_p`; with forgetting (LGRF-1, LGRF-2) a reply that lost is deleted.

use super::{Kind, PolicyState};
use crate::game::{Game, Outcome, Player};
use crate::mcts::config::{LgrMode, SearchConfig};
use crate::rng::Rng64;

impl PolicyState {
    /// LGR's part of [`PolicyState::learn`]: for each move of the winner, store it as the reply
    /// to the previous move (and to the previous two for LGRF-2); with forgetting (LGRF),
    /// delete each of the loser's moves that is stored as its reply to the same context
    /// (Baier & Drake 2010). Draws teach nothing.
    #[inline]
    pub(super) fn learn_lgr(&mut self, cfg: &SearchConfig, seq: &[u16], first: Player, outcome: Outcome) {
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

    /// The stored reply of player `me` to the previous two moves (LGRF-2), else to the previous
    /// move, if legal here and drawn with probability `lgr_p`; with its position in `legal`
    /// ([`PolicyState::list_pos`]).
    #[inline(always)]
    pub(super) fn lgr_move<G: Game>(
        &mut self,
        cfg: &SearchConfig,
        g: &G,
        rng: &mut Rng64,
        seq: &[G::Move],
        me: usize,
        shrink: bool,
    ) -> Option<(G::Move, Kind, usize)> {
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
                            return Some((m, Kind::Lgr, self.list_pos(g, shrink, m)));
                        }
                    }
                }
            }
        }
        None
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
}
