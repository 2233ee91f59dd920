//! The game review in the page ([`crate::report::review`], the same core as `mcts review`):
//! `ReviewSession`, a game's main line under review in one worker, which reviews one position per
//! call (so the page shows progress and stops between positions, and several workers share the
//! positions), and `reviewReport`, the report from every position's result (the core's
//! [`Review::report`], so the figures equal `mcts review --json`'s); and `MoveJudge`, one move
//! judged at once as the review would judge it ([`judge_move`]: the page's teaching game).

use wasm_bindgen::prelude::*;

use super::{clock, js_err, to_js};
use crate::report::review::{judge_move, PositionReview, Review, ReviewSettings, Solvers};

/// Decodes the review's settings (`{ preset, iterations, ms, solve_ms, seed }`, the report's
/// `settings`; the budget not used is null).
fn settings_of(settings: JsValue) -> Result<ReviewSettings, JsError> {
    serde_wasm_bindgen::from_value(settings).map_err(|e| js_err(format!("the review's settings cannot be read: {e}")))
}

/// A game's main line under review in this worker: its positions, the settings, and the exact
/// solvers kept from one position to the next (their tables are exact, so they speed up the next
/// solve without changing what a position is proven to be).
#[wasm_bindgen(js_name = ReviewSession)]
pub struct ReviewSessionJs {
    review: Review,
    solvers: Solvers,
}

#[wasm_bindgen(js_class = ReviewSession)]
impl ReviewSessionJs {
    /// A review of the game `spec` along `moves` (the game's notation) with `settings`.
    ///
    /// # Errors
    /// A bad spec, too many moves, a move that cannot be played (named with its 1-based index),
    /// settings that cannot be read or are out of range (both budgets, an unknown preset).
    #[wasm_bindgen(constructor)]
    pub fn new(spec: &str, moves: Vec<String>, settings: JsValue) -> Result<ReviewSessionJs, JsError> {
        let review = Review::new(spec, &moves, settings_of(settings)?).map_err(js_err)?;
        Ok(ReviewSessionJs { review, solvers: Solvers::new() })
    }

    /// Positions of the game: the moves + 1.
    pub fn positions(&self) -> usize {
        self.review.len()
    }

    /// Reviews position `index` (after `index` moves) against the page's clock and returns its
    /// result, the core's `PositionReview` (`{ index, board, to_move, value, estimate, exact,
    /// best_move, pv, iterations, playouts, search_ms, solve_ms }`; values are win probabilities
    /// in [0, 1] for the side to move, times in milliseconds), as `reviewReport` takes it back.
    ///
    /// # Errors
    /// An index past the last position; a preset the engine refuses.
    #[wasm_bindgen(js_name = reviewPosition)]
    pub fn review_position(&mut self, index: usize) -> Result<JsValue, JsError> {
        let r = self.review.review_position(index, &mut self.solvers, &clock).map_err(js_err)?;
        to_js(&r)
    }
}

/// The review's report (`mcts review --json`'s shape: `game`, `moves`, `settings`, `plies`,
/// `summary`, `timing`) from every position's result (`ReviewSession.reviewPosition`'s, from any
/// worker, in any order).
///
/// # Errors
/// Spec, moves or settings as `new ReviewSession`; a result that cannot be read or is not of this
/// game's position; a position without a result.
#[wasm_bindgen(js_name = reviewReport)]
pub fn review_report(spec: &str, moves: Vec<String>, settings: JsValue, results: JsValue) -> Result<JsValue, JsError> {
    let mut review = Review::new(spec, &moves, settings_of(settings)?).map_err(js_err)?;
    let results: Vec<PositionReview> =
        serde_wasm_bindgen::from_value(results).map_err(|e| js_err(format!("the review's position results cannot be read: {e}")))?;
    for r in results {
        review.insert(r).map_err(js_err)?;
    }
    to_js(&review.report().map_err(js_err)?)
}

/// Judges single moves as the review does ([`judge_move`]), keeping its exact solvers from one
/// move to the next (their tables are exact: they speed up the next solve without changing what
/// a position is proven to be). The page's teaching game keeps one in a worker of its own.
#[wasm_bindgen(js_name = MoveJudge)]
pub struct MoveJudgeJs {
    solvers: Solvers,
}

impl Default for MoveJudgeJs {
    fn default() -> Self {
        MoveJudgeJs::new()
    }
}

#[wasm_bindgen(js_class = MoveJudge)]
impl MoveJudgeJs {
    /// A judge with no solver table yet.
    #[wasm_bindgen(constructor)]
    pub fn new() -> MoveJudgeJs {
        MoveJudgeJs { solvers: Solvers::new() }
    }

    /// Judges `mv` played after `moves` (the game's notation, from the start of `spec`) with
    /// `settings` (as `ReviewSession`'s) against the page's clock: the report's ply of that move
    /// (`{ ply, move, mover, value_before, value_after, loss, class, label, accuracy, best_move,
    /// pv, exact_before, exact_after, iterations, playouts }`; values are the mover's win
    /// probabilities in [0, 1]), equal to that ply of `reviewReport` for the game with the same
    /// settings.
    ///
    /// # Errors
    /// A bad spec, too many moves, a move that cannot be played (named with its 1-based index),
    /// settings that cannot be read or are out of range.
    pub fn judge(&mut self, spec: &str, moves: Vec<String>, mv: &str, settings: JsValue) -> Result<JsValue, JsError> {
        let settings = settings_of(settings)?;
        let ply = judge_move(spec, &moves, mv, &settings, &mut self.solvers, &clock).map_err(js_err)?;
        to_js(&ply)
    }
}
