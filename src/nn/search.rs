//! The searches whose configuration may ask for a network: the evaluator source [`Nets`]
//! (`prior = net` → [`NetEvaluator::for_game`], every other prior as
//! [`Builtin`]), chosen here, above both `mcts` (which knows no network) and the networks.
//! Every place that makes a search from a configuration a user chose (the CLI, the reports, the
//! arena, the page, Python, training) makes it here; [`evaluate_position`] asks the same
//! evaluators about one position.

use serde::Serialize;

use crate::game::{AnyGame, Game, MoveList};
use crate::mcts::config::PriorKind;
use crate::mcts::evaluator::{normalise, Evaluator};
use crate::mcts::search::{Builtin, Evaluators, Search, SearchError};
use crate::mcts::AnySearch;
use crate::nn::models::{self, NetInfo};
use crate::nn::{NetError, NetEvaluator};

impl From<NetError> for SearchError {
    fn from(e: NetError) -> Self {
        SearchError::Net(e.to_string())
    }
}

/// The evaluators of a search that may use a network: `prior = net` is the game's shipped or
/// registered net ([`NetEvaluator::for_game`]), the other priors are [`Builtin`]'s.
#[derive(Clone, Copy, Debug, Default)]
pub struct Nets;

impl Evaluators for Nets {
    fn make<G: Game>(root: &G, prior: PriorKind) -> Result<Box<dyn Evaluator<G>>, SearchError> {
        match prior {
            PriorKind::Net => Ok(Box::new(NetEvaluator::for_game(root)?)),
            _ => Builtin::make(root, prior),
        }
    }
}

/// A search from `root` with `config`, a network where `config.prior = net`.
///
/// # Errors
/// An invalid configuration, or `prior = net` and the game has no usable network
/// ([`SearchError::Net`], the network's sentence).
pub fn search<G: Game>(root: G, config: crate::mcts::SearchConfig) -> Result<Search<G>, SearchError> {
    Search::with_evaluators::<Nets>(root, config)
}

/// A search from the position in `game` with `config`, a network where `config.prior = net`.
///
/// # Errors
/// As [`search`].
pub fn any_search(game: &AnyGame, config: crate::mcts::SearchConfig) -> Result<AnySearch, SearchError> {
    AnySearch::with_evaluators::<Nets>(game, config)
}

/// One legal move's prior probability P(s, a).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MovePrior {
    /// The move in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its dense index (cells as `row·cols + col`; see `Game::move_index`).
    pub index: usize,
    /// P(s, a), the priors of all legal moves summing to 1.
    pub p: f32,
}

/// What an evaluator thinks of one position, before any search: the priors P(s, a) PUCT starts
/// from (Silver et al. 2017) and, for a network, the value head's estimate.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct PositionEval {
    /// The evaluator's name (`uniform`, `tactical`, `net`).
    pub evaluator: String,
    /// P per legal move, in the engine's legal-move order (empty once the game is over).
    pub priors: Vec<MovePrior>,
    /// The value head's estimate in [0, 1] for the side to move (the engine's reward scale:
    /// 1 a sure win, 0.5 a draw); `None` without a network or once the game is over.
    pub value: Option<f64>,
    /// The net that answered (`None` without a network).
    pub net: Option<NetInfo>,
}

fn evaluate_game<G: Game>(g: &G, prior: PriorKind) -> Result<PositionEval, SearchError> {
    let e = Nets::make(g, prior)?;
    let net = if prior == PriorKind::Net { models::loaded(&g.spec()) } else { None };
    let mut moves = MoveList::new();
    if !g.is_terminal() {
        g.legal_moves(&mut moves);
    }
    let mut p = Vec::with_capacity(moves.len());
    let value = if moves.is_empty() { None } else { e.evaluate(g, &moves, &mut p) };
    normalise(&mut p);
    let priors = moves.iter().zip(&p).map(|(&m, &p)| MovePrior { mv: g.format_move(m), index: g.move_index(m), p }).collect();
    Ok(PositionEval { evaluator: e.name().to_string(), priors, value, net })
}

/// The priors and value of `game`'s position under the evaluator of `prior` (the one a PUCT
/// search with that setting asks at its root).
///
/// # Errors
/// `prior = net` and the game has no usable network ([`SearchError::Net`], the network's
/// sentence).
pub fn evaluate_position(game: &AnyGame, prior: PriorKind) -> Result<PositionEval, SearchError> {
    crate::with_game!(game, g => evaluate_game(g, prior))
}
