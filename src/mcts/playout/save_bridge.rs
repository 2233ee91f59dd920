//! Save-bridge (Arneson, Hayward & Henderson 2010, MoHex's playout rule): when the opponent's
//! last move intrudes into a bridge of the player to move, that player answers in the other
//! carrier cell ([`BridgeRings::save_bridge`], `src/game/hex/bridges.rs`). Games with bridges (Hex)
//! give their neighbour rings ([`Game::bridge_rings`]); the policy keeps the owner of every
//! cell for the playout in [`PolicyState::colour`], set from the position once per playout and
//! updated as each move is chosen. It reads no board of the game, so it runs in the fill
//! playout too: until the game's real end the cells chosen so far are the board of the
//! move-by-move playout.

use super::{Kind, PolicyState};
use crate::game::hex::bridges::{BridgeRings, COLOURS};
use crate::game::Game;
use crate::mcts::config::SearchConfig;
use crate::rng::Rng64;

impl PolicyState {
    /// At the start of a playout from `g`: whether the rule applies (`save_bridge` on and the
    /// game has bridges), and if so the owners of `g`'s cells.
    #[inline]
    pub(super) fn bridge_start<G: Game>(&mut self, cfg: &SearchConfig, g: &G) {
        self.rings = if cfg.save_bridge { g.bridge_rings() } else { None };
        if let Some(rings) = self.rings {
            self.load_owners(rings, g);
        }
    }

    /// The owners of `g`'s cells into [`PolicyState::colour`], edges after them.
    fn load_owners<G: Game>(&mut self, rings: &BridgeRings, g: &G) {
        g.cell_owners(&mut self.colour[..rings.cells()]);
        rings.set_edges(&mut self.colour);
    }

    /// After player `me` chose `m` (and, in the move-by-move playout, played it on `g`): its
    /// cell is `me`'s. A move that is no cell (Hex's swap, move by move only) changes the
    /// board otherwise: the owners are read again from `g`.
    #[inline(always)]
    pub(super) fn bridge_note<G: Game>(&mut self, g: &G, m: G::Move, me: usize) {
        if let Some(rings) = self.rings {
            let i = g.move_index(m);
            if i < rings.cells() {
                self.colour[i & (COLOURS - 1)] = me as i8;
            } else {
                self.load_owners(rings, g);
            }
        }
    }

    /// Player `me`'s save-bridge answer to the previous move of `seq`, if the rule applies
    /// and that move intruded into a bridge of `me`'s; with its position in the legal-move
    /// list ([`PolicyState::list_pos`]).
    #[inline(always)]
    pub(super) fn bridge_move<G: Game>(
        &self,
        g: &G,
        rng: &mut Rng64,
        seq: &[G::Move],
        me: usize,
        shrink: bool,
    ) -> Option<(G::Move, Kind, usize)> {
        let rings = self.rings?;
        let last = g.move_index(*seq.last()?);
        let cell = rings.save_bridge(&self.colour, last, me as i8, rng)?;
        let m = g.move_from_index(cell)?;
        Some((m, Kind::Bridge, self.list_pos(g, shrink, m)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::hex::bridges::{Colours, EMPTY};
    use crate::game::{Hex, MoveList};
    use crate::mcts::config::{LgrMode, MastMode};

    /// The save-bridge answers of the side to move in `g` to the opponent's stone at `last`,
    /// from `g`'s own board (not the policy's copy): the cells as dense indices.
    fn answers_on_board(g: &Hex, last: usize) -> Vec<usize> {
        let rings = BridgeRings::hex(g.size());
        if last >= rings.cells() {
            return Vec::new();
        }
        let mut colour: Box<Colours> = Box::new([EMPTY; COLOURS]);
        g.cell_owners(&mut colour[..rings.cells()]);
        rings.set_edges(&mut colour);
        let a = rings.answers(&colour, last, g.to_move() as i8);
        (0..6).filter(|j| a >> j & 1 == 1).map(|j| rings.ring(last)[j] as usize).collect()
    }

    /// In every playout, each move after an intrusion into a bridge of the mover's (read from
    /// the game's board, move by move) is one of the answers, unless a decisive or
    /// anti-decisive move came first; the counter is the number of such answers. Alone and
    /// with LGR-1 (fill playouts), MAST Gibbs (fill; not its merged-orders shortcut), decisive
    /// and anti-decisive moves (move by move), on Hex 4, 7, 11 and 13 and on Hex 8 with swap
    /// from the empty board (the swap move re-reads the owners), after random openings whose
    /// last move is the first intrusion the playout may answer (as the tree's last move is).
    #[test]
    fn playouts_answer_every_intrusion() {
        let base = SearchConfig { save_bridge: true, ..SearchConfig::default() };
        let cfgs = [
            base.clone(),
            SearchConfig { lgr: LgrMode::Lgr1, ..base.clone() },
            SearchConfig { mast: MastMode::Gibbs, ..base.clone() },
            SearchConfig { decisive: true, anti_decisive: true, ..base.clone() },
            SearchConfig { anti_decisive: true, ..base.clone() },
        ];
        let mut rng = Rng64::new(38);
        for (n, swap) in [(4usize, false), (7, false), (11, false), (13, false), (8, true)] {
            for cfg in &cfgs {
                let start = Hex::new(n, swap).unwrap();
                let mut st = PolicyState::new(start.move_space(), cfg);
                let mut answered = 0;
                for _ in 0..60 {
                    let mut g = start.clone();
                    let mut seq = Vec::new();
                    for _ in 0..rng.below(if swap { 2 } else { n as u32 }) {
                        let mut l = MoveList::new();
                        g.legal_moves(&mut l);
                        let m = l[rng.index(l.len())];
                        g.play_unchecked(m);
                        seq.push(m);
                    }
                    if g.is_terminal() {
                        continue;
                    }
                    let (from, opening) = (g.clone(), seq.len());
                    let before = st.bridge_played;
                    let (o, _) = st.playout(cfg, &mut g, &mut rng, &mut seq, None);
                    let mut r = from.clone();
                    let mut expected = 0;
                    for j in opening..seq.len() {
                        let m = seq[j];
                        let forced = (cfg.decisive && r.find_winning_move().is_some()) || {
                            let mut t = MoveList::new();
                            r.threats(&mut t);
                            cfg.anti_decisive && !t.is_empty()
                        };
                        let answers = if j > 0 { answers_on_board(&r, r.move_index(seq[j - 1])) } else { Vec::new() };
                        if !forced && !answers.is_empty() {
                            assert!(
                                answers.contains(&r.move_index(m)),
                                "hex:{n} {cfg:?}: move {j} {} ignores the intrusion",
                                r.format_move(m)
                            );
                            expected += 1;
                        }
                        r.play(m).expect("a legal playout move");
                    }
                    assert_eq!(r.outcome(), Some(o));
                    assert_eq!(st.bridge_played - before, expected, "hex:{n} {cfg:?}: the counter");
                    answered += expected;
                    let idx: Vec<u16> = seq.iter().map(|&m| start.move_index(m) as u16).collect();
                    st.learn(cfg, &idx, start.to_move(), o);
                }
                assert!(answered > 0 || n < 5, "hex:{n} {cfg:?}: the rule never fired");
            }
        }
    }

    /// Save-bridge is ignored where the game has no bridges: a Pentago and a Tic-Tac-Toe
    /// playout with it plays exactly the playout without it (same moves, same random numbers).
    #[test]
    fn games_without_bridges_ignore_it() {
        use crate::game::{Pentago, TicTacToe};
        fn same<G: Game>(g: &G) {
            for lgr in [LgrMode::Off, LgrMode::Lgrf2] {
                let off = SearchConfig { lgr, anti_decisive: true, ..SearchConfig::default() };
                let on = SearchConfig { save_bridge: true, ..off.clone() };
                let (mut a, mut b) = (PolicyState::new(g.move_space(), &off), PolicyState::new(g.move_space(), &on));
                for seed in 0..20 {
                    let (mut ga, mut gb) = (g.clone(), g.clone());
                    let (mut sa, mut sb) = (Vec::new(), Vec::new());
                    let (ra, rb) = (&mut Rng64::new(seed), &mut Rng64::new(seed));
                    assert_eq!(a.playout(&off, &mut ga, ra, &mut sa, None), b.playout(&on, &mut gb, rb, &mut sb, None));
                    assert_eq!(sa, sb);
                    assert_eq!(ra.next_u64(), rb.next_u64());
                    assert_eq!(b.bridge_played, 0);
                }
            }
        }
        same(&Pentago::from_options(&[]).unwrap());
        same(&TicTacToe::new());
    }
}
