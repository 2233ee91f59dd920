//! [`AnySearch`]: run-time dispatch matching [`AnyGame`], for the CLI and the WebAssembly boundary.

use crate::game::{AnyGame, Game};
use crate::mcts::search::trace::{IterationTrace, StepError};
use crate::mcts::search::{Builtin, Evaluators, Search, SearchError};
use crate::mcts::stats::{SearchStats, TreeExport};
use crate::mcts::{Budget, Clock, RunReport, SearchConfig};

crate::registered_games!(__game_enum!(
    /// A search over whichever game an [`AnyGame`] holds: one variant per registered game
    /// ([`crate::game::registry`]).
    // The variants differ in size by their root position (Hex's board is the largest); there is
    // one value per search, created once and never moved in the search loop, so no box is needed.
    #[allow(clippy::large_enum_variant)]
    pub enum AnySearch of Search
));

macro_rules! with_search {
    ($s:expr, $x:ident => $body:expr) => {
        crate::registered_games!(__game_match!(AnySearch, $s, $x, $body))
    };
}

impl AnySearch {
    /// A search from the position in `game`, its evaluators the ones that need no network
    /// ([`Builtin`]; see [`Search::new`]).
    ///
    /// # Errors
    /// An invalid configuration, or `prior = net`.
    pub fn new(game: &AnyGame, config: SearchConfig) -> Result<AnySearch, SearchError> {
        AnySearch::with_evaluators::<Builtin>(game, config)
    }
    /// A search from the position in `game`, its evaluators made by `E` (see
    /// [`Search::with_evaluators`]; for a network, `crate::nn::search::any_search`).
    ///
    /// # Errors
    /// An invalid configuration, or an evaluator `E` cannot make.
    // `clone` for every game of the registry, some of which are `Copy`.
    #[allow(clippy::clone_on_copy)]
    pub fn with_evaluators<E: Evaluators>(game: &AnyGame, config: SearchConfig) -> Result<AnySearch, SearchError> {
        Ok(crate::registered_games!(__game_map!(AnyGame => AnySearch, game, g, Search::with_evaluators::<E>(g.clone(), config)?)))
    }
    /// See [`Search::run`].
    pub fn run(&mut self, budget: Budget, clock: Clock) -> RunReport {
        with_search!(self, s => s.run(budget, clock))
    }
    /// The best move in notation.
    pub fn best_move_text(&self) -> Option<String> {
        with_search!(self, s => s.best_move().map(|m| s.root().format_move(m)))
    }
    /// See [`Search::stats`].
    pub fn stats(&self) -> SearchStats {
        with_search!(self, s => s.stats())
    }
    /// See [`Search::tree_export`].
    pub fn tree_export(&self, top_k: usize, depth: usize) -> TreeExport {
        with_search!(self, s => s.tree_export(top_k, depth))
    }
    /// See [`Search::tree_export_min`].
    pub fn tree_export_min(&self, top_k: usize, depth: usize, min_visits: u64) -> TreeExport {
        with_search!(self, s => s.tree_export_min(top_k, depth, min_visits))
    }
    /// See [`Search::step_traced`].
    ///
    /// # Errors
    /// As [`Search::step_traced`].
    pub fn step_traced(&mut self) -> Result<IterationTrace, StepError> {
        with_search!(self, s => s.step_traced())
    }
    /// See [`Search::set_record_playouts`].
    pub fn set_record_playouts(&mut self, on: bool) {
        with_search!(self, s => s.set_record_playouts(on))
    }
    /// Parses a move in notation and advances the root (tree reuse).
    ///
    /// # Errors
    /// Unreadable or illegal move (the search is untouched).
    pub fn advance_text(&mut self, mv: &str) -> Result<(), SearchError> {
        with_search!(self, s => {
            let m = s.root().parse_move(mv).map_err(|e| SearchError::BadMove(e.to_string()))?;
            s.advance(m)
        })
    }
    /// See [`Search::set_config`].
    ///
    /// # Errors
    /// An invalid configuration (the search is untouched).
    pub fn set_config(&mut self, c: SearchConfig) -> Result<(), SearchError> {
        with_search!(self, s => s.set_config(c))
    }
    /// The configuration.
    pub fn config(&self) -> &SearchConfig {
        with_search!(self, s => s.config())
    }
    /// The root position as an [`AnyGame`].
    #[allow(clippy::clone_on_copy)]
    pub fn root_game(&self) -> AnyGame {
        crate::registered_games!(__game_map!(AnySearch => AnyGame, self, s, s.root().clone()))
    }
    /// Arena entries.
    pub fn node_count(&self) -> usize {
        with_search!(self, s => s.node_count())
    }
    /// Bytes of tree storage.
    pub fn tree_bytes(&self) -> usize {
        with_search!(self, s => s.tree_bytes())
    }
    /// The cap that holds the tree at its size, if one does ([`Search::tree_cap`]).
    pub fn tree_cap(&self) -> Option<crate::mcts::TreeCap> {
        with_search!(self, s => s.tree_cap())
    }
}
