//! PoolRAVE (Rimmel, Teytaud et al. 2010; Hoock et al. 2010): with probability `pool_p`, one
//! move drawn from the mover's pool, the `pool_k` best moves by AMAF value, is played if legal.
//! The search builds the pools from its AMAF tables before each playout
//! (`Search::build_pools`, `search/rollout.rs`) into [`PolicyState::pool`].

use super::{Kind, PolicyState};
use crate::game::Game;
use crate::mcts::config::SearchConfig;
use crate::rng::Rng64;

impl PolicyState {
    /// With probability `pool_p`, a move of player `me`'s pool drawn uniformly, if legal here;
    /// with its position in `legal` ([`PolicyState::list_pos`]).
    #[inline(always)]
    pub(super) fn pool_move<G: Game>(
        &mut self,
        cfg: &SearchConfig,
        g: &G,
        rng: &mut Rng64,
        me: usize,
        shrink: bool,
    ) -> Option<(G::Move, Kind, usize)> {
        if cfg.poolrave && !self.pool[me].is_empty() && rng.chance(cfg.pool_p) {
            let i = self.pool[me][rng.index(self.pool[me].len())];
            if let Some(m) = g.move_from_index(i as usize) {
                if self.legal_here(g, shrink, m) {
                    return Some((m, Kind::Pool, self.list_pos(g, shrink, m)));
                }
            }
        }
        None
    }
}
