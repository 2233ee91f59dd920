//! [`NetEvaluator`]: a policy-value network as the search's [`Evaluator`].

use super::features::{Encoding, MAX_CELLS};
use super::{models, softmax_over, Net, NetByInput, NetError};
use crate::game::Game;
use crate::mcts::Evaluator;
use std::marker::PhantomData;
use std::sync::Arc;

/// Priors = the policy head's softmax over the legal moves; value = `(tanh + 1) / 2`, the value
/// head mapped from [−1, 1] to the engine's [0, 1] reward scale, for the side to move.
pub struct NetEvaluator<G> {
    net: Arc<Net>,
    /// `net` by input, for the forward pass ([`NetByInput::forward_binary`]); shared by clones.
    by_input: Arc<NetByInput>,
    enc: Encoding,
    _game: PhantomData<fn(G)>,
}

impl<G> Clone for NetEvaluator<G> {
    /// Another evaluator over the same net and its by-input form (no copy of the weights).
    fn clone(&self) -> Self {
        NetEvaluator { net: self.net.clone(), by_input: self.by_input.clone(), enc: self.enc, _game: PhantomData }
    }
}

impl<G: Game> NetEvaluator<G> {
    /// An evaluator over `net` (an MLP or a convolutional net) for games of `spec`; builds the
    /// net's inference form ([`NetByInput`]) once.
    ///
    /// # Errors
    /// The net was trained for another game, the game has no encoding, or the net's shapes do
    /// not match the encoding.
    pub fn new(net: Arc<Net>, spec: &str) -> Result<Self, NetError> {
        if net.spec() != spec {
            return Err(NetError::WrongGame { file: net.spec().to_string(), want: spec.to_string() });
        }
        let enc = Encoding::for_spec(spec).ok_or_else(|| NetError::NoModel { spec: spec.to_string() })?;
        if net.inputs() != enc.inputs() || net.moves() != enc.cells() {
            return Err(NetError::Shape(format!(
                "{} inputs and {} outputs, '{spec}' needs {} and {}",
                net.inputs(),
                net.moves(),
                enc.inputs(),
                enc.cells()
            )));
        }
        Ok(NetEvaluator { by_input: Arc::new(NetByInput::new(&net)), net, enc, _game: PhantomData })
    }

    /// The shipped net of `g`'s game (see [`models`]).
    ///
    /// # Errors
    /// [`NetError::NoModel`] when no net ships for the game.
    pub fn for_game(g: &G) -> Result<Self, NetError> {
        let spec = g.spec();
        NetEvaluator::new(models::load(&spec)?, &spec)
    }

    /// The network.
    pub fn net(&self) -> &Net {
        &self.net
    }

    /// The encoding.
    pub fn encoding(&self) -> Encoding {
        self.enc
    }

    /// One forward pass at `g`: the policy logits in the net's frame into `logits` (length =
    /// cells) and the value head's output in [−1, 1] for the side to move. The input is the
    /// stones' indices ([`Encoding::active`], [`NetByInput::forward_binary`]).
    pub fn forward(&self, g: &G, logits: &mut [f32]) -> f32 {
        let cells = self.enc.cells();
        let mut owners = [0i8; MAX_CELLS];
        g.cell_owners(&mut owners[..cells]);
        let mut active = [0u16; MAX_CELLS];
        let k = self.enc.active(&owners[..cells], g.to_move(), &mut active);
        self.by_input.forward_binary(&active[..k], logits)
    }
}

impl<G: Game> Evaluator<G> for NetEvaluator<G> {
    fn priors(&self, g: &G, moves: &[G::Move], out: &mut Vec<f32>) {
        self.evaluate(g, moves, out);
    }

    fn name(&self) -> &'static str {
        "net"
    }

    fn has_value(&self) -> bool {
        true
    }

    fn evaluate(&self, g: &G, moves: &[G::Move], out: &mut Vec<f32>) -> Option<f64> {
        let mut logits = [0f32; MAX_CELLS];
        let cells = self.enc.cells();
        let v = self.forward(g, &mut logits[..cells]);
        let to_move = g.to_move();
        let enc = self.enc;
        // A move outside the board cells (Hex's swap) never occurs: nets exist only without it.
        softmax_over(&logits[..cells], moves.iter().map(|&m| enc.canonical(g.move_index(m).min(cells - 1), to_move)), out);
        Some(((v as f64) + 1.0) / 2.0)
    }
}
