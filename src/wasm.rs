//! The WebAssembly boundary: the only file that uses wasm-bindgen.
//!
//! One thin layer in the shape of the wasm-bindgen examples: decode the parameters, call the pure
//! core ([`crate::game`], [`crate::mcts`]), encode the result, and turn every error into a JS
//! `Error` with a readable message. Nothing here panics by design; a panic hook (installed by
//! [`start`]) records any bug's message so the worker can report it (see [`take_panic_message`])
//! instead of dying silently.
//!
//! Exported to JavaScript (names as JS sees them):
//! - `GameSession`: a game from a spec string with its history of positions (undo/redo), legal
//!   moves, checked play, the board view and the outcome.
//! - `SearchSession`: an anytime MCTS search ([`crate::mcts::AnySearch`]) configured from a preset
//!   plus field overrides, run in chunks (milliseconds and/or iterations) against the clock
//!   `performance.now()`, with a statistics snapshot, the best move, reset, and tree reuse as the
//!   game it follows moves on (`follow`).
//! - `version()`, `exampleSpecs()`, `presets()`, `takePanicMessage()`.
//!
//! Objects cross the boundary through `serde-wasm-bindgen` in its JSON-compatible mode: `Option`
//! becomes `null`, maps become plain objects, so the TypeScript types in `www/src/protocol.ts` are
//! exactly the serde shapes of [`BoardView`] and friends.

use std::cell::RefCell;
use std::collections::BTreeMap;

use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::game::{AnyGame, BoardView, Outcome, EXAMPLE_SPECS};
use crate::mcts::{AnySearch, Budget, SearchConfig};

#[wasm_bindgen]
extern "C" {
    /// `performance.now()`: milliseconds, monotonic, available in windows and workers.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

thread_local! {
    /// The message of the last panic, kept by the panic hook for [`take_panic_message`].
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Runs when the module is instantiated: installs the panic hook, which keeps the panic's
/// message (file, line, text) for [`take_panic_message`] and also writes it to the console.
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        let text = info.to_string();
        LAST_PANIC.with(|p| {
            if let Ok(mut slot) = p.try_borrow_mut() {
                *slot = Some(text);
            }
        });
        console_error_panic_hook::hook(info);
    }));
}

/// The message of the last panic, if any, and forgets it. After a panic the module traps
/// (`RuntimeError: unreachable`); the worker calls this to say what went wrong, then the page
/// starts a fresh worker.
#[wasm_bindgen(js_name = takePanicMessage)]
pub fn take_panic_message() -> Option<String> {
    LAST_PANIC.with(|p| p.try_borrow_mut().ok().and_then(|mut s| s.take()))
}

/// Deliberately panics, so the browser tests can check that a dead worker is reported and
/// replaced without losing the game. Never called by the page itself.
#[wasm_bindgen(js_name = debugPanic)]
pub fn debug_panic(message: &str) {
    panic!("debugPanic: {message}");
}

/// The crate version, e.g. `0.1.0`.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// The game spec strings the page offers as examples (`tictactoe`, `hex:7`, ...).
#[wasm_bindgen(js_name = exampleSpecs)]
pub fn example_specs() -> Vec<String> {
    EXAMPLE_SPECS.iter().map(|s| s.to_string()).collect()
}

/// Encodes a serde value as a plain JS value (`null` for `None`, objects for maps and structs).
fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&format!("cannot encode value for JavaScript: {e}")))
}

/// The outcome as the page reads it: `{ "winner": 0 | 1 | null }` (null winner = draw), or
/// `null` while the game goes on.
#[derive(Serialize)]
struct OutcomeJs {
    winner: Option<u8>,
}

fn outcome_js(o: Option<Outcome>) -> Option<OutcomeJs> {
    o.map(|o| OutcomeJs { winner: o.winner() })
}

/// Everything the page draws after a change, in one object (one crossing per update).
#[derive(Serialize)]
struct Snapshot {
    /// The position as the renderers read it.
    view: BoardView,
    /// Legal moves in notation, ascending dense index (empty once over).
    legal: Vec<String>,
    /// Moves played from the start to the current position, in notation.
    moves: Vec<String>,
    /// Moves that `redo` would replay, in order.
    redo: Vec<String>,
    /// `{ winner }` once the game is over, else `null`.
    outcome: Option<OutcomeJs>,
}

/// A game and its history: `positions[0]` is the start, `positions[cursor]` the current
/// position; `moves[i]` leads from `positions[i]` to `positions[i + 1]`. Undo moves the cursor
/// back; redo forward; a new move after an undo drops the redo tail.
#[wasm_bindgen]
pub struct GameSession {
    positions: Vec<AnyGame>,
    moves: Vec<String>,
    cursor: usize,
}

impl GameSession {
    /// The current position.
    pub fn current(&self) -> &AnyGame {
        &self.positions[self.cursor]
    }
}

#[wasm_bindgen]
impl GameSession {
    /// The start position of the game named by `spec` (`tictactoe`, `hex:7`, `hex:11:swap`,
    /// `pentago:twist`, ...).
    ///
    /// # Errors
    /// A JS `Error` naming what is wrong with the spec.
    #[wasm_bindgen(constructor)]
    pub fn new(spec: &str) -> Result<GameSession, JsError> {
        let g = AnyGame::from_spec(spec).map_err(|e| JsError::new(&e.0))?;
        Ok(GameSession { positions: vec![g], moves: Vec::new(), cursor: 0 })
    }

    /// The spec string of the game, normalised (e.g. `hex` → `hex:11`).
    pub fn spec(&self) -> String {
        self.current().spec()
    }

    /// Legal moves of the current position in notation, ascending dense index.
    #[wasm_bindgen(js_name = legalMoves)]
    pub fn legal_moves(&self) -> Vec<String> {
        self.current().legal_moves_text()
    }

    /// Plays a move given in notation (`b2`, `d4-BR-cw`, `swap`), checked. Returns the move
    /// as the game writes it (normalised, e.g. `B2` → `b2`).
    ///
    /// # Errors
    /// A JS `Error` saying why the move was refused (unreadable, illegal, game over); the
    /// session is untouched.
    pub fn play(&mut self, mv: &str) -> Result<String, JsError> {
        let mut next = self.current().clone();
        let index = next.play_text(mv).map_err(|e| JsError::new(&e.to_string()))?;
        let text = self.current().format_index(index).unwrap_or_else(|| mv.to_string());
        self.positions.truncate(self.cursor + 1);
        self.moves.truncate(self.cursor);
        self.positions.push(next);
        self.moves.push(text.clone());
        self.cursor += 1;
        Ok(text)
    }

    /// Steps back one move; false (and nothing changes) at the start.
    pub fn undo(&mut self) -> bool {
        if self.cursor == 0 {
            return false;
        }
        self.cursor -= 1;
        true
    }

    /// Replays the next undone move; false (and nothing changes) when there is none.
    pub fn redo(&mut self) -> bool {
        if self.cursor + 1 >= self.positions.len() {
            return false;
        }
        self.cursor += 1;
        true
    }

    /// Number of moves played to reach the current position.
    pub fn ply(&self) -> usize {
        self.cursor
    }

    /// Side to move (0 or 1); meaningless once the game is over.
    #[wasm_bindgen(js_name = toMove)]
    pub fn to_move(&self) -> u8 {
        self.current().to_move()
    }

    /// Whether the game is over.
    #[wasm_bindgen(js_name = isOver)]
    pub fn is_over(&self) -> bool {
        self.current().outcome().is_some()
    }

    /// Moves from the start to the current position, in notation.
    pub fn moves(&self) -> Vec<String> {
        self.moves[..self.cursor].to_vec()
    }

    /// The board view (`BoardView`'s serde shape: kind, spec, rows, cols, cells, to_move,
    /// last_move, last_cells, winning_cells, outcome, ply).
    ///
    /// # Errors
    /// Only if encoding fails (a bug).
    pub fn view(&self) -> Result<JsValue, JsError> {
        to_js(&self.current().view())
    }

    /// `{ winner: 0 | 1 | null }` once the game is over (null winner = draw), else `null`.
    ///
    /// # Errors
    /// Only if encoding fails (a bug).
    pub fn outcome(&self) -> Result<JsValue, JsError> {
        to_js(&outcome_js(self.current().outcome()))
    }

    /// Everything the page draws in one object: `{ view, legal, moves, redo, outcome }`.
    ///
    /// # Errors
    /// Only if encoding fails (a bug).
    pub fn snapshot(&self) -> Result<JsValue, JsError> {
        let g = self.current();
        to_js(&Snapshot {
            view: g.view(),
            legal: g.legal_moves_text(),
            moves: self.moves[..self.cursor].to_vec(),
            redo: self.moves[self.cursor..].to_vec(),
            outcome: outcome_js(g.outcome()),
        })
    }
}

/// The engine's preset names (`uct`, `rave`, `grave`, ..., `best`), in the engine's order.
#[wasm_bindgen]
pub fn presets() -> Vec<String> {
    SearchConfig::PRESETS.iter().map(|s| s.to_string()).collect()
}

/// The page's default node cap when the parameters do not set `node_cap`: 2,000,000 nodes
/// (about 96 MB at the engine's 48 bytes per node), a size a browser tab carries comfortably.
pub const PAGE_NODE_CAP: u64 = 2_000_000;

/// A configuration from a preset name and field overrides by serde name (`{"c": "0.7"}`);
/// `params` may be `undefined`/`null` (no overrides).
fn build_config(preset: &str, params: JsValue) -> Result<(SearchConfig, BTreeMap<String, String>), JsError> {
    let params: BTreeMap<String, String> = if params.is_undefined() || params.is_null() {
        BTreeMap::new()
    } else {
        serde_wasm_bindgen::from_value(params).map_err(|e| JsError::new(&format!("engine parameters must be an object of strings: {e}")))?
    };
    let mut config = SearchConfig::preset(preset).map_err(|e| JsError::new(&e.to_string()))?;
    if !params.contains_key("node_cap") {
        config.node_cap = PAGE_NODE_CAP;
    }
    for (k, v) in &params {
        config.set(k, v).map_err(|e| JsError::new(&format!("engine parameter {k} = {v}: {e}")))?;
    }
    Ok((config, params))
}

/// An anytime search that follows a [`GameSession`]: `path` is the list of moves from the
/// game's start to the search root, so `follow` can re-root the tree on the game's current
/// position by advancing through the moves played since (tree reuse, statistics kept), or start
/// a fresh tree when the game went elsewhere (undo, another game).
#[wasm_bindgen]
pub struct SearchSession {
    search: AnySearch,
    spec: String,
    path: Vec<String>,
    preset: String,
    params: BTreeMap<String, String>,
}

#[wasm_bindgen]
impl SearchSession {
    /// A search of the game's current position with a preset (see `presets()`) and field
    /// overrides by serde name, e.g. `{ c: "0.7", rave_k: "500", seed: "7" }`.
    ///
    /// # Errors
    /// Unknown preset, unknown field, value out of range (the message names it).
    #[wasm_bindgen(constructor)]
    pub fn new(game: &GameSession, preset: &str, params: JsValue) -> Result<SearchSession, JsError> {
        let (config, params) = build_config(preset, params)?;
        let search = AnySearch::new(game.current(), config).map_err(|e| JsError::new(&e.to_string()))?;
        Ok(SearchSession { search, spec: game.spec(), path: game.moves(), preset: preset.to_string(), params })
    }

    /// Changes the configuration; the tree is kept where the engine can keep it.
    /// Returns false when nothing changed.
    ///
    /// # Errors
    /// As `new`; the search is untouched on error.
    pub fn configure(&mut self, preset: &str, params: JsValue) -> Result<bool, JsError> {
        let (config, params) = build_config(preset, params)?;
        if preset == self.preset && params == self.params {
            return Ok(false);
        }
        self.search.set_config(config).map_err(|e| JsError::new(&e.to_string()))?;
        self.preset = preset.to_string();
        self.params = params;
        Ok(true)
    }

    /// Re-roots the search on the game's current position. When the game is this search's root
    /// plus some moves, the tree advances through them (tree reuse) and this returns true;
    /// otherwise a fresh tree is started and this returns false.
    ///
    /// # Errors
    /// Only if the engine refuses a move the game accepted (a bug).
    pub fn follow(&mut self, game: &GameSession) -> Result<bool, JsError> {
        let moves = game.moves();
        let spec = game.spec();
        if spec == self.spec && moves.len() >= self.path.len() && moves[..self.path.len()] == self.path[..] {
            for mv in &moves[self.path.len()..] {
                self.search.advance_text(mv).map_err(|e| JsError::new(&e.to_string()))?;
            }
            self.path = moves;
            return Ok(true);
        }
        self.reset(game)?;
        Ok(false)
    }

    /// Starts a fresh tree at the game's current position (configuration kept).
    ///
    /// # Errors
    /// Only if the configuration became invalid (a bug).
    pub fn reset(&mut self, game: &GameSession) -> Result<(), JsError> {
        let config = self.search.config().clone();
        self.search = AnySearch::new(game.current(), config).map_err(|e| JsError::new(&e.to_string()))?;
        self.spec = game.spec();
        self.path = game.moves();
        Ok(())
    }

    /// Runs one chunk: at most `millis` milliseconds (by `performance.now()`) and, when given,
    /// at most `iterations` iterations. Returns the engine's `RunReport`:
    /// `{ iterations, elapsed_ms, stop: "iterations" | "time" | "root_proven" | "node_cap" | "game_over" }`.
    ///
    /// # Errors
    /// A budget that is negative or not a number.
    pub fn run(&mut self, millis: f64, iterations: Option<f64>) -> Result<JsValue, JsError> {
        if !millis.is_finite() || millis < 0.0 {
            return Err(JsError::new(&format!("millis must be a finite number >= 0, got {millis}")));
        }
        let iterations = match iterations {
            None => None,
            Some(n) if n >= 0.0 && n.is_finite() => Some(n as u64),
            Some(n) => return Err(JsError::new(&format!("iterations must be a finite number >= 0, got {n}"))),
        };
        let budget = Budget { iterations, millis: Some(millis) };
        let report = self.search.run(budget, &performance_now);
        to_js(&report)
    }

    /// The statistics snapshot (the engine's `SearchStats`: best_move, pv, value, iterations,
    /// playouts, nodes, children sorted by visits, ...).
    ///
    /// # Errors
    /// Only if encoding fails (a bug).
    pub fn stats(&self) -> Result<JsValue, JsError> {
        to_js(&self.search.stats())
    }

    /// The move the engine would play now (its final-move rule), or `undefined` at the end.
    #[wasm_bindgen(js_name = bestMove)]
    pub fn best_move(&self) -> Option<String> {
        self.search.best_move_text()
    }

    /// The top of the tree: `top_k` children per node, `depth` levels (the engine's `TreeExport`).
    ///
    /// # Errors
    /// Only if encoding fails (a bug).
    #[wasm_bindgen(js_name = treeExport)]
    pub fn tree_export(&self, top_k: usize, depth: usize) -> Result<JsValue, JsError> {
        to_js(&self.search.tree_export(top_k, depth))
    }

    /// Nodes in the tree.
    #[wasm_bindgen(js_name = nodeCount)]
    pub fn node_count(&self) -> usize {
        self.search.node_count()
    }
}

// ---- visualisation (issue 5) ----
//
// Compact tree snapshots for the page's tree views, and the arena's games and standings (the same
// `crate::arena` code as `mcts arena`, so the page and the command line give the same games).

use crate::arena::{play_game, GameRecord, Standings};
use crate::mcts::TreeNodeExport;

/// Proof status byte of the snapshot arrays: 0 unknown, 1 win, 2 loss, 3 draw (the view of the
/// player who made the move into the node, as in the engine's `Proof`).
fn proof_byte(p: Option<&str>) -> u8 {
    match p {
        Some("win") => 1,
        Some("loss") => 2,
        Some("draw") => 3,
        _ => 0,
    }
}

/// Flat, pre-order arrays of a tree export, children by visits descending.
#[derive(Default)]
struct FlatTree {
    parent: Vec<i32>,
    mv: Vec<u16>,
    visits: Vec<u32>,
    q: Vec<f32>,
    proven: Vec<u8>,
    depth: Vec<u8>,
    hidden: Vec<u32>,
    dict: Vec<String>,
    dict_index: BTreeMap<String, u16>,
}

impl FlatTree {
    fn move_id(&mut self, mv: &Option<String>) -> u16 {
        let Some(m) = mv else { return u16::MAX };
        if let Some(&i) = self.dict_index.get(m) {
            return i;
        }
        let i = self.dict.len().min(u16::MAX as usize - 1) as u16;
        self.dict.push(m.clone());
        self.dict_index.insert(m.clone(), i);
        i
    }

    /// Appends `n` and its children with at least `min_visits` visits (children come sorted by
    /// visits, so the first one below the threshold ends the list); the others count as hidden.
    fn push(&mut self, n: &TreeNodeExport, parent: i32, depth: u8, min_visits: u64, max_nodes: usize) {
        let id = self.parent.len() as i32;
        let mv = self.move_id(&n.mv);
        self.parent.push(parent);
        self.mv.push(mv);
        self.visits.push(n.visits.min(u32::MAX as u64) as u32);
        self.q.push(n.q as f32);
        self.proven.push(proof_byte(n.proven.map(|p| p.name())));
        self.depth.push(depth);
        self.hidden.push(n.hidden_children.min(u32::MAX as u64) as u32);
        let mut shown = 0u32;
        for c in &n.children {
            if c.visits < min_visits || self.parent.len() >= max_nodes {
                break;
            }
            shown += 1;
            self.push(c, id, depth.saturating_add(1), min_visits, max_nodes);
        }
        self.hidden[id as usize] += n.children.len() as u32 - shown;
    }
}

fn set(obj: &js_sys::Object, key: &str, value: &JsValue) -> Result<(), JsError> {
    js_sys::Reflect::set(obj, &JsValue::from_str(key), value).map(|_| ()).map_err(|_| JsError::new("cannot build the tree snapshot object"))
}

#[wasm_bindgen]
impl SearchSession {
    /// A compact snapshot of the search tree for drawing: the nodes with at least `min_visits`
    /// visits, at most `top_k` children per node (most visits first), `depth` levels below the
    /// root and `max_nodes` nodes in all, in pre-order. Returns
    /// `{ total, count, moves, parent, move, visits, q, proven, depth, hidden }` where `total` is
    /// the number of nodes in the engine's tree, `moves` the move texts that `move` indexes
    /// (65535 at the root), `parent` an `Int32Array` (-1 at the root), `visits` a `Uint32Array`
    /// (visit count N), `q` a `Float32Array` (mean value Q in [0, 1] for the player who made the
    /// move into the node), `proven` a `Uint8Array` (0 unknown, 1 win, 2 loss, 3 draw, same
    /// view), `depth` a `Uint8Array` (plies below the root), `hidden` a `Uint32Array` (expanded
    /// children left out). Typed arrays own their buffers, so the worker can transfer them.
    ///
    /// # Errors
    /// Only if building the object fails (a bug).
    #[wasm_bindgen(js_name = treeSnapshot)]
    pub fn tree_snapshot(&self, min_visits: f64, top_k: usize, depth: usize, max_nodes: usize) -> Result<JsValue, JsError> {
        let min_visits = if min_visits.is_finite() && min_visits > 1.0 { min_visits as u64 } else { 1 };
        // The engine applies the visit cut while exporting, so only the kept nodes are built.
        let export = self.search.tree_export_min(top_k.max(1), depth, min_visits);
        let mut flat = FlatTree::default();
        flat.push(&export.root, -1, 0, min_visits, max_nodes.max(1));
        let obj = js_sys::Object::new();
        set(&obj, "total", &JsValue::from_f64(export.nodes as f64))?;
        set(&obj, "count", &JsValue::from_f64(flat.parent.len() as f64))?;
        let moves = js_sys::Array::new();
        for m in &flat.dict {
            moves.push(&JsValue::from_str(m));
        }
        set(&obj, "moves", &moves)?;
        set(&obj, "parent", &js_sys::Int32Array::from(&flat.parent[..]))?;
        set(&obj, "move", &js_sys::Uint16Array::from(&flat.mv[..]))?;
        set(&obj, "visits", &js_sys::Uint32Array::from(&flat.visits[..]))?;
        set(&obj, "q", &js_sys::Float32Array::from(&flat.q[..]))?;
        set(&obj, "proven", &js_sys::Uint8Array::from(&flat.proven[..]))?;
        set(&obj, "depth", &js_sys::Uint8Array::from(&flat.depth[..]))?;
        set(&obj, "hidden", &js_sys::Uint32Array::from(&flat.hidden[..]))?;
        Ok(obj.into())
    }
}

/// Plays game `index` of an arena match between configuration A (`preset_a` + `params_a`) and
/// B on the game `spec`, exactly as `mcts arena` does (`crate::arena::play_game`: engine seeds
/// derived from `(seed, index)`, A moves first when `index` is even, tree reuse for both sides).
/// The budget per move is `iterations` when given (reproducible: the same records as
/// `mcts arena --iterations N --seed S`), else `millis` milliseconds of `performance.now()`.
/// Returns the `GameRecord`: `{ index, a_first, moves, a_score, winner }`.
///
/// # Errors
/// A bad spec, preset or parameter, a missing budget, or an engine failure (the message says which).
#[wasm_bindgen(js_name = arenaPlayGame)]
#[allow(clippy::too_many_arguments)]
pub fn arena_play_game(
    spec: &str,
    preset_a: &str,
    params_a: JsValue,
    preset_b: &str,
    params_b: JsValue,
    iterations: Option<f64>,
    millis: Option<f64>,
    seed: f64,
    index: usize,
) -> Result<JsValue, JsError> {
    let (a, _) = build_config(preset_a, params_a).map_err(|e| JsError::new(&format!("configuration A: {}", js_error_text(e))))?;
    let (b, _) = build_config(preset_b, params_b).map_err(|e| JsError::new(&format!("configuration B: {}", js_error_text(e))))?;
    let budget = match (iterations, millis) {
        (Some(n), _) if n.is_finite() && n >= 1.0 => Budget { iterations: Some(n as u64), millis: None },
        (None, Some(ms)) if ms.is_finite() && ms > 0.0 => Budget { iterations: None, millis: Some(ms) },
        _ => return Err(JsError::new("the arena needs a budget: iterations >= 1 or millis > 0")),
    };
    if !seed.is_finite() || seed < 0.0 || seed > 9_007_199_254_740_991.0 {
        return Err(JsError::new(&format!("seed must be an integer in 0..2^53, got {seed}")));
    }
    let record = play_game(spec, &a, &b, budget, seed as u64, index, &performance_now).map_err(|e| JsError::new(&e))?;
    to_js(&record)
}

/// A JsError's message (JsError has no accessor; re-read it through JsValue).
fn js_error_text(e: JsError) -> String {
    let v: JsValue = e.into();
    js_sys::Reflect::get(&v, &JsValue::from_str("message")).ok().and_then(|m| m.as_string()).unwrap_or_else(|| "invalid".into())
}

/// Standings of A from game records (`GameRecord` objects as `arenaPlayGame` returns them): the
/// same `Standings` as `mcts arena` prints: `{ games, wins, draws, losses, win_rate,
/// win_rate_ci95: [lo, hi] (Wilson 1927, z = 1.959964), elo, elo_ci95 }`, with infinite Elo
/// figures (rates 0 or 1) as null.
///
/// # Errors
/// Records that are not game records.
#[wasm_bindgen(js_name = arenaStandings)]
pub fn arena_standings(records: JsValue) -> Result<JsValue, JsError> {
    #[derive(serde::Deserialize)]
    struct Rec {
        index: usize,
        a_first: bool,
        moves: Vec<String>,
        a_score: f64,
        winner: Option<u8>,
    }
    let recs: Vec<Rec> = serde_wasm_bindgen::from_value(records).map_err(|e| JsError::new(&format!("records: {e}")))?;
    let recs: Vec<GameRecord> = recs
        .into_iter()
        .map(|r| GameRecord { index: r.index, a_first: r.a_first, moves: r.moves, a_score: r.a_score, winner: r.winner })
        .collect();
    let s = Standings::from_records(&recs);
    let fin = |x: f64| x.is_finite().then_some(x);
    #[derive(Serialize)]
    struct Out {
        games: usize,
        wins: usize,
        draws: usize,
        losses: usize,
        win_rate: f64,
        win_rate_ci95: [f64; 2],
        elo: Option<f64>,
        elo_ci95: [Option<f64>; 2],
    }
    to_js(&Out {
        games: s.games,
        wins: s.wins,
        draws: s.draws,
        losses: s.losses,
        win_rate: s.win_rate,
        win_rate_ci95: s.win_rate_ci95,
        elo: fin(s.elo),
        elo_ci95: [fin(s.elo_ci95[0]), fin(s.elo_ci95[1])],
    })
}

// ---- step-through (issue 5) ----
//
// One MCTS iteration at a time (the engine's `Search::step_traced`), for the Step-through panel.

#[wasm_bindgen]
impl SearchSession {
    /// Runs exactly one iteration — the one `run` would run next — and returns its
    /// `IterationTrace`: `{ iteration, game, to_move, formula, path: [{ depth, move, index,
    /// mover, kind: "root" | "selected" | "expanded" | "rollout", before: { n, q, proven },
    /// after: { n, q, proven }, chosen, rival }], expanded, terminal_leaf, playout,
    /// playout_indices, outcome: { winner, reward: [r0, r1] }, nodes_before, nodes_after,
    /// root_proven }` (`chosen`/`rival`: `{ move, n, q, amaf_q, beta, prior, score, untried }`,
    /// score null = +∞). Turns record mode on (see `setRecordPlayouts`).
    ///
    /// # Errors
    /// The root is terminal or proven, or the node cap is reached (the search is untouched).
    #[wasm_bindgen(js_name = stepIteration)]
    pub fn step_iteration(&mut self) -> Result<JsValue, JsError> {
        let t = self.search.step_traced().map_err(|e| JsError::new(&e.to_string()))?;
        to_js(&t)
    }

    /// Record mode: every playout records its moves, as traced iterations must; with it on,
    /// `run(…, n)` runs the same iterations as `n` calls of `stepIteration` (plain UCT otherwise
    /// takes Hex's outcome-only playout, which draws other random numbers).
    #[wasm_bindgen(js_name = setRecordPlayouts)]
    pub fn set_record_playouts(&mut self, on: bool) {
        self.search.set_record_playouts(on);
    }
}

// ---- records and embedding (issue 6) ----
//
// Game records (`crate::record`): read a move list or a Hex SGF, write either. The page keeps its
// own game; these functions only translate text ↔ `{ spec, moves, notes }`.

/// Reads a record in either format (SGF when the text starts with `(`, else our move list) and
/// replays it. Returns `{ spec, moves, notes }` (`Record`'s serde shape).
///
/// # Errors
/// A JS `Error` naming the bad move and its 1-based index, or what in the SGF cannot be read.
#[wasm_bindgen(js_name = parseRecord)]
pub fn parse_record(text: &str) -> Result<JsValue, JsError> {
    let r = crate::record::parse_any(text).map_err(|e| JsError::new(&e.to_string()))?;
    to_js(&r)
}

/// Writes a record: `format` is `"moves"` (our move list) or `"sgf"` (Hex only, HexGui style).
///
/// # Errors
/// An unknown format, a non-Hex game for SGF, or moves that do not replay.
#[wasm_bindgen(js_name = writeRecord)]
pub fn write_record(spec: &str, moves: Vec<String>, format: &str) -> Result<String, JsError> {
    let out = match format {
        "moves" => crate::record::write_move_list(spec, &moves),
        "sgf" => crate::record::write_sgf(spec, &moves),
        other => return Err(JsError::new(&format!("unknown record format '{other}' (expected moves or sgf)"))),
    };
    out.map_err(|e| JsError::new(&e.to_string()))
}
