//! Evaluators: what the search asks about a position besides its rules — prior probabilities
//! P(s, a) over the legal moves (PUCT) and, for a learned evaluator, a value estimate of the
//! position (AlphaGo / AlphaZero leaf evaluation).
//!
//! The shape follows OpenSpiel's `Evaluator` (`Prior(state)`, `Evaluate(state)`): the search
//! sees one object and knows nothing of how it computes. Priors are asked **once per node**,
//! when the node is first expanded or (with a value) when it is created, and kept in the tree
//! sorted by prior: expansion then follows prior rank (Silver et al. 2017).
//!
//! Leaf evaluation ([`crate::mcts::config::LeafEval`]): `rollout` plays a playout to the end
//! (reward z); `value` uses the evaluator's value v (AlphaZero, Silver et al. 2017); `mix` uses
//! `V = (1 − λ)·v + λ·z` (AlphaGo, Silver et al. 2016, eq. in "Searching with policy and value
//! networks"; λ = 0.5 there, [`crate::mcts::config::SearchConfig::mix_lambda`]).

use crate::game::hex::patterns::{self, PatternError, PatternWeights};
use crate::game::{Game, MoveList};

/// Gives prior probabilities P(s, a) for the legal moves of a position and, optionally, a value.
pub trait Evaluator<G: Game>: Send + Sync {
    /// Writes one non-negative weight per move of `moves` (same order) into `out` (cleared
    /// first); the search normalises them to sum to 1.
    fn priors(&self, g: &G, moves: &[G::Move], out: &mut Vec<f32>);
    /// A short name for the statistics.
    fn name(&self) -> &'static str;
    /// Whether [`Evaluator::evaluate`] returns a value (a value head). Default: no.
    fn has_value(&self) -> bool {
        false
    }
    /// Priors (as [`Evaluator::priors`]) and the value of `g` in [0, 1] for the side to move
    /// (1 = a sure win, 0.5 a draw), when the evaluator has one; one forward pass for a network.
    /// Default: the priors and `None`.
    fn evaluate(&self, g: &G, moves: &[G::Move], out: &mut Vec<f32>) -> Option<f64> {
        self.priors(g, moves, out);
        None
    }
}

/// Uniform priors.
#[derive(Clone, Copy, Debug, Default)]
pub struct UniformPrior;

impl<G: Game> Evaluator<G> for UniformPrior {
    fn priors(&self, _g: &G, moves: &[G::Move], out: &mut Vec<f32>) {
        out.clear();
        out.resize(moves.len(), 1.0);
    }
    fn name(&self) -> &'static str {
        "uniform"
    }
}

/// A cheap tactical prior from the game's threat checks: a move that wins at once weighs 16,
/// a move on an opponent's immediate threat (a block in Hex and Tic-Tac-Toe) 4, any other 1.
#[derive(Clone, Copy, Debug, Default)]
pub struct TacticalPrior;

impl<G: Game> Evaluator<G> for TacticalPrior {
    fn priors(&self, g: &G, moves: &[G::Move], out: &mut Vec<f32>) {
        let mut wins = MoveList::new();
        let mut threats = MoveList::new();
        g.winning_moves(&mut wins);
        g.threats(&mut threats);
        out.clear();
        if wins.is_empty() && threats.is_empty() {
            // The usual case: no list to search per move.
            out.resize(moves.len(), 1.0);
            return;
        }
        out.extend(moves.iter().map(|m| {
            if wins.contains(m) {
                16.0
            } else if threats.contains(m) {
                4.0
            } else {
                1.0
            }
        }));
    }
    fn name(&self) -> &'static str {
        "tactical"
    }
}

/// Hex's local-pattern prior (MoHex 2.0, Huang et al. 2013): each legal move weighs the trained
/// γ of its 12-cell pattern ([`crate::game::hex::patterns`]; γ = 1 for patterns not in the
/// weights file); the search normalises them to P = γ / Σγ, as `MoHexPriorKnowledge` does.
#[derive(Clone, Debug)]
pub struct PatternPrior {
    weights: std::sync::Arc<PatternWeights>,
}

impl PatternPrior {
    /// The prior over `weights`.
    pub fn new(weights: std::sync::Arc<PatternWeights>) -> PatternPrior {
        PatternPrior { weights }
    }

    /// The prior with the weights in use ([`patterns::load`]: the registered file, else the
    /// shipped one) for games like `g`.
    ///
    /// # Errors
    /// [`PatternError::NoPatterns`] for a game without local patterns (not Hex);
    /// [`PatternError::NotLoaded`] in WebAssembly before the page registered the weights.
    pub fn for_game<G: Game>(g: &G) -> Result<PatternPrior, PatternError> {
        if !g.pattern_keys(&[], &mut Vec::new()) {
            return Err(PatternError::NoPatterns { spec: g.spec() });
        }
        Ok(PatternPrior::new(patterns::load()?))
    }
}

impl<G: Game> Evaluator<G> for PatternPrior {
    fn priors(&self, g: &G, moves: &[G::Move], out: &mut Vec<f32>) {
        let mut keys = Vec::with_capacity(moves.len());
        out.clear();
        if g.pattern_keys(moves, &mut keys) {
            out.extend(keys.iter().map(|&k| self.weights.gamma(k)));
        } else {
            out.resize(moves.len(), 1.0);
        }
    }
    fn name(&self) -> &'static str {
        "patterns"
    }
}

/// Normalises weights in place to sum to 1 (uniform if they sum to 0).
pub fn normalise(w: &mut [f32]) {
    let s: f32 = w.iter().sum();
    if s > 0.0 {
        for x in w.iter_mut() {
            *x /= s;
        }
    } else if !w.is_empty() {
        let u = 1.0 / w.len() as f32;
        for x in w.iter_mut() {
            *x = u;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::TicTacToe;

    #[test]
    fn tactical_prior_prefers_wins_then_blocks() {
        let mut g = TicTacToe::new();
        for m in ["a1", "b1", "a2"] {
            g.play_text(m).unwrap();
        }
        // O to move: X threatens a3 (column a); O has no win.
        let mut moves = MoveList::new();
        g.legal_moves(&mut moves);
        let mut p = Vec::new();
        TacticalPrior.priors(&g, &moves, &mut p);
        normalise(&mut p);
        let a3 = moves.iter().position(|&m| m == 6).unwrap();
        assert!(p.iter().enumerate().all(|(i, &x)| i == a3 || x < p[a3]));
        assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-6);
    }
}
