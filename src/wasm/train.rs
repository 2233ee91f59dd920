//! `TrainSession`: AlphaZero self-play training in the browser (feature `train`, built only into
//! the second wasm package `pkg-train/`, which the worker imports when the Train panel starts).
//! A thin binding over [`crate::nn::train::session::TrainSession`]: decode the configuration,
//! run one bounded step per call, encode the progress, hand out the weights.

use wasm_bindgen::prelude::*;

use super::{js_err, to_js};
use crate::nn::train::session::TrainSession as Core;
use crate::nn::train::TrainConfig;

/// A training run the worker advances one bounded step at a time (see
/// [`crate::nn::train::session`]).
#[wasm_bindgen]
pub struct TrainSession {
    inner: Core,
}

#[wasm_bindgen]
impl TrainSession {
    /// A run from a fresh net with `config`, an object with any of `TrainConfig`'s fields by
    /// serde name (`game`, `hidden`, `iterations`, `games`, `playouts`, `steps`, `batch`, `lr`,
    /// `eval_games`, `eval_playouts`, `seed`, ...; the others keep their defaults); `chunkGames`
    /// self-play games or `chunkSteps` Adam steps per `step()`.
    ///
    /// # Errors
    /// An unknown field, a value of the wrong type or out of range, an untrainable game (the
    /// message names it).
    #[wasm_bindgen(constructor)]
    pub fn new(config: JsValue, chunk_games: usize, chunk_steps: usize) -> Result<TrainSession, JsError> {
        // Through a JSON value, so that `TrainConfig`'s `deny_unknown_fields` names a stray field
        // (serde-wasm-bindgen reads only the fields a struct knows).
        let bad = |e: &dyn std::fmt::Display| js_err(format!("training settings: {e}"));
        let value: serde_json::Value = serde_wasm_bindgen::from_value(config).map_err(|e| bad(&e))?;
        let config: TrainConfig = serde_json::from_value(value).map_err(|e| bad(&e))?;
        let inner = Core::new(config, None).map_err(js_err)?.with_chunks(chunk_games, chunk_steps);
        Ok(TrainSession { inner })
    }

    /// One bounded piece of work; returns the progress (`Progress`: `phase`, `iteration`,
    /// `games`, `loss`, and `finished`, the report of the iteration it ended, if any).
    pub fn step(&mut self) -> Result<JsValue, JsError> {
        to_js(&self.inner.step())
    }

    /// The progress without doing any work.
    pub fn progress(&self) -> Result<JsValue, JsError> {
        to_js(&self.inner.progress())
    }

    /// The configuration in effect (defaults filled in, `game` canonical).
    pub fn config(&self) -> Result<JsValue, JsError> {
        to_js(self.inner.config())
    }

    /// The current weights as an `MCTSNET` file (bytes).
    pub fn weights(&self) -> Vec<u8> {
        self.inner.weights()
    }

    /// Parameters of the net (weights and biases).
    pub fn parameters(&self) -> usize {
        self.inner.net().parameters()
    }
}

/// The training defaults (`TrainConfig::default()`) as an object.
#[wasm_bindgen(js_name = trainDefaults)]
pub fn train_defaults() -> Result<JsValue, JsError> {
    to_js(&TrainConfig::default())
}
