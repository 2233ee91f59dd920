//! What the page asks of the engine, decoded and checked without wasm types: the engine
//! settings (a preset plus field overrides), search budgets, arena games and records, and the
//! whole worker request as JSON ([`decode_request`]).
//!
//! `src/wasm/` calls these functions on what JavaScript hands it ([`engine_config`],
//! [`run_budget`], [`arena_budget`], [`arena_seed`], [`ArenaRecord`]), so the checks the
//! boundary makes are plain Rust that the fuzz target `request` (`fuzz/`) runs natively.
//! [`decode_request`] reads a request of the worker protocol (`www/src/protocol.ts`, `Request`)
//! from JSON with the same field names and applies every check the worker and the engine apply
//! to it; the worker itself receives structured-cloned objects, not JSON, and checks them with
//! `parseRequest` in TypeScript before calling the engine.
//!
//! Limits come from [`crate::limits`].

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::arena::GameRecord;
use crate::game::SpecError;
use crate::limits::{MAX_BUDGET, MAX_REQUEST_MOVES, MAX_SNAPSHOT_NODES, MAX_STEP_ITERATIONS};
use crate::mcts::{Budget, SearchConfig};
use crate::record::RecordError;

/// A preset name and field overrides by serde name (`{ "preset": "rave", "params": { "c": "0.7" } }`),
/// the protocol's `EngineSettings`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineSettings {
    /// One of [`SearchConfig::PRESETS`].
    pub preset: String,
    /// Field overrides, values as text (`"0.7"`, `"true"`, `"grave"`).
    #[serde(default)]
    pub params: BTreeMap<String, String>,
}

/// Why engine settings give no configuration.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SettingsError {
    /// The parameters are not an object whose values are all strings (the decoder's message).
    #[error("engine parameters must be an object of strings: {}", crate::limits::abbreviate(.0))]
    Params(String),
    /// The preset name is not one of [`SearchConfig::PRESETS`]; the message is the engine's.
    #[error("{0}")]
    Preset(crate::mcts::ConfigError),
    /// A field override the engine refused (unknown field, unreadable or out-of-range value).
    #[error("engine parameter {} = {}: {source}", crate::limits::abbreviate(key), crate::limits::abbreviate(value))]
    Field {
        /// The field's serde name, e.g. `c`.
        key: String,
        /// The value as given.
        value: String,
        /// The engine's reason.
        source: crate::mcts::ConfigError,
    },
}

/// The configuration of a preset with field overrides. Without a `node_cap` or
/// `memory_cap_mib` override, that cap is the one of `defaults` when given (the page passes
/// [`crate::limits::PAGE_TREE_LIMITS`]), else the engine's default.
///
/// # Errors
/// [`SettingsError`] naming the bad preset or field; the first bad field in key order.
pub fn engine_config(
    preset: &str,
    params: &BTreeMap<String, String>,
    defaults: Option<crate::limits::TreeLimits>,
) -> Result<SearchConfig, SettingsError> {
    let mut config = SearchConfig::preset(preset).map_err(SettingsError::Preset)?;
    if let Some(d) = defaults {
        if !params.contains_key("node_cap") {
            config.node_cap = d.node_cap;
        }
        if !params.contains_key("memory_cap_mib") {
            config.memory_cap_mib = d.memory_cap_mib;
        }
    }
    for (k, v) in params {
        config.set(k, v).map_err(|source| SettingsError::Field { key: k.clone(), value: v.clone(), source })?;
    }
    Ok(config)
}

/// Why a budget or a seed was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BudgetError {
    /// A budget that is negative, too large, infinite or not a number; `name` says which
    /// (`millis`, `iterations`, `playouts`).
    #[error("{name} must be a number in 0..=2^53-1, got {}", number(*.value))]
    Range {
        /// The budget's name.
        name: &'static str,
        /// The value given.
        value: f64,
    },
    /// An arena game without a budget per move.
    #[error("the arena needs a budget: iterations >= 1 or millis > 0")]
    ArenaBudget,
    /// An arena seed that is not an integer JavaScript represents exactly (0..2^53).
    #[error("seed must be an integer in 0..2^53, got {0}")]
    Seed(f64),
}

/// A number for a message: as written when short, in scientific notation when huge or tiny
/// (`1e300`, not three hundred digits).
fn number(v: f64) -> String {
    if v != 0.0 && v.is_finite() && !(1e-6..1e16).contains(&v.abs()) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// `value` as a budget count when it is finite and in `0..=MAX_BUDGET`.
fn in_range(name: &'static str, value: f64) -> Result<f64, BudgetError> {
    if value.is_finite() && (0.0..=MAX_BUDGET).contains(&value) {
        Ok(value)
    } else {
        Err(BudgetError::Range { name, value })
    }
}

/// The budget of one chunk of a page search: at most `millis` milliseconds and, when given, at
/// most `iterations` iterations (fractions rounded down).
///
/// # Errors
/// [`BudgetError::Range`] for a negative, infinite, NaN or larger than 2^53 − 1 value.
pub fn run_budget(millis: f64, iterations: Option<f64>) -> Result<Budget, BudgetError> {
    let millis = in_range("millis", millis)?;
    let iterations = iterations.map(|n| in_range("iterations", n).map(|n| n as u64)).transpose()?;
    Ok(Budget { iterations, millis: Some(millis) })
}

/// The budget per move of an arena game: `iterations` when given (≥ 1), else `millis` (> 0).
///
/// # Errors
/// [`BudgetError::ArenaBudget`] without a usable budget; [`BudgetError::Range`] past 2^53 − 1.
pub fn arena_budget(iterations: Option<f64>, millis: Option<f64>) -> Result<Budget, BudgetError> {
    match (iterations, millis) {
        (Some(n), _) if n.is_finite() && n >= 1.0 => Ok(Budget { iterations: Some(in_range("iterations", n)? as u64), millis: None }),
        (None, Some(ms)) if ms.is_finite() && ms > 0.0 => Ok(Budget { iterations: None, millis: Some(in_range("millis", ms)?) }),
        _ => Err(BudgetError::ArenaBudget),
    }
}

/// An arena seed: an integer in `0..=2^53 − 1` (JavaScript's `Number.MAX_SAFE_INTEGER`).
///
/// # Errors
/// [`BudgetError::Seed`] for anything else (negative, fractional, NaN, infinite, too large).
pub fn arena_seed(seed: f64) -> Result<u64, BudgetError> {
    if (0.0..=MAX_BUDGET).contains(&seed) && seed.fract() == 0.0 {
        Ok(seed as u64)
    } else {
        Err(BudgetError::Seed(seed))
    }
}

/// One arena game's result as the page sends it back for the standings (the serde shape of
/// [`GameRecord`]).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArenaRecord {
    /// Index of the game in the match.
    pub index: usize,
    /// Whether A had the first move.
    pub a_first: bool,
    /// Moves in the game's notation.
    pub moves: Vec<String>,
    /// How many of `moves` were the opening's (0 when absent).
    #[serde(default)]
    pub opening_plies: usize,
    /// A's score: 1 win, 0.5 draw, 0 loss.
    pub a_score: f64,
    /// The winner (0 or 1), `None` for a draw.
    pub winner: Option<u8>,
}

/// Why an arena record was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ArenaRecordError {
    /// `a_score` is not 0, 0.5 or 1.
    #[error("record {index}: a_score must be 0, 0.5 or 1, got {score}")]
    Score {
        /// The record's index.
        index: usize,
        /// The score given.
        score: f64,
    },
    /// `winner` is not 0, 1 or null.
    #[error("record {index}: winner must be 0, 1 or null, got {winner}")]
    Winner {
        /// The record's index.
        index: usize,
        /// The winner given.
        winner: u8,
    },
}

impl ArenaRecord {
    /// The record as the arena's [`GameRecord`], checked.
    ///
    /// # Errors
    /// [`ArenaRecordError`] for a score or winner no game has.
    pub fn checked(self) -> Result<GameRecord, ArenaRecordError> {
        if ![0.0, 0.5, 1.0].contains(&self.a_score) {
            return Err(ArenaRecordError::Score { index: self.index, score: self.a_score });
        }
        if let Some(w) = self.winner.filter(|&w| w > 1) {
            return Err(ArenaRecordError::Winner { index: self.index, winner: w });
        }
        Ok(GameRecord {
            index: self.index,
            a_first: self.a_first,
            moves: self.moves,
            opening_plies: self.opening_plies,
            a_score: self.a_score,
            winner: self.winner,
            tree_cap: None,
        })
    }
}

/// A budget as the protocol's `Budget`: `{ "kind": "millis" | "playouts", "value": n }`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "lowercase")]
pub enum RequestBudget {
    /// Milliseconds per move.
    Millis(f64),
    /// Playouts (iterations) per move.
    Playouts(f64),
}

/// The protocol's `TreeQuery`: nodes with at least `minVisits` visits, `topK` children per node,
/// `depth` plies, `maxNodes` in all.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TreeQuery {
    /// Fewest visits of a node shown.
    pub min_visits: f64,
    /// Children per node.
    pub top_k: f64,
    /// Plies below the root.
    pub depth: f64,
    /// Nodes in all, at most [`MAX_SNAPSHOT_NODES`].
    pub max_nodes: f64,
}

/// The protocol's `ArenaGameSpec`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArenaGameSpec {
    /// Game spec string.
    pub spec: String,
    /// Configuration A.
    pub a: EngineSettings,
    /// Configuration B.
    pub b: EngineSettings,
    /// Iterations per move (reproducible), or null.
    pub iterations: Option<f64>,
    /// Milliseconds per move, or null.
    pub millis: Option<f64>,
    /// Base seed of the match.
    pub seed: f64,
    /// Index of the game in the match.
    pub index: f64,
    /// Whether the match is played on every first move of the game, each twice with colours
    /// swapped (`mcts arena --openings all`); absent: false.
    #[serde(default)]
    pub openings: bool,
}

/// A worker request (`www/src/protocol.ts`, `Request`), as JSON. Field names are the protocol's;
/// unknown fields (e.g. `__proto__`) are refused.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase", deny_unknown_fields)]
#[allow(missing_docs)] // the variants and fields are the protocol's, documented in protocol.ts
pub enum Request {
    Hello {
        id: f64,
    },
    NewGame {
        id: f64,
        spec: String,
        moves: Vec<String>,
    },
    Play {
        id: f64,
        #[serde(rename = "move")]
        mv: String,
    },
    Undo {
        id: f64,
    },
    Redo {
        id: f64,
    },
    #[serde(rename_all = "camelCase")]
    Search {
        id: f64,
        slot: String,
        engine: EngineSettings,
        budget: RequestBudget,
        progress_ms: f64,
    },
    Stop {
        id: f64,
        target: f64,
    },
    Cancel {
        id: f64,
        target: f64,
    },
    DebugPanic {
        id: f64,
    },
    Inspect {
        id: f64,
        slot: String,
        tree: Option<TreeQuery>,
    },
    ArenaGame {
        id: f64,
        game: ArenaGameSpec,
    },
    ArenaStandings {
        id: f64,
        records: Vec<ArenaRecord>,
    },
    StepNew {
        id: f64,
        spec: String,
        moves: Vec<String>,
        engine: EngineSettings,
        tree: TreeQuery,
    },
    StepRun {
        id: f64,
        count: f64,
        tree: TreeQuery,
    },
    ParseRecord {
        id: f64,
        text: String,
    },
    WriteRecord {
        id: f64,
        spec: String,
        moves: Vec<String>,
        format: String,
    },
}

/// Why a request was refused: what the worker answers in its `error` response.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RequestError {
    /// Not JSON, or not a request of the protocol (unknown type, missing, extra or mistyped
    /// field); the decoder's message names it.
    #[error("malformed request: {}", crate::limits::abbreviate(.0))]
    Malformed(String),
    /// An `id` or `target` that is not a positive integer below 2^53.
    #[error("{field} must be a positive integer below 2^53, got {value}")]
    Id {
        /// `id` or `target`.
        field: &'static str,
        /// The value given.
        value: f64,
    },
    /// A number field out of its range; `field` names it, `range` gives the range.
    #[error("{field} = {} is out of range {range}", number(*.value))]
    Range {
        /// The field.
        field: &'static str,
        /// The value given.
        value: f64,
        /// The accepted range.
        range: &'static str,
    },
    /// More moves than [`MAX_REQUEST_MOVES`].
    #[error("{len} moves; a request carries at most {max}")]
    TooManyMoves {
        /// Moves given.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// A game spec that names no game.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// Moves that do not replay, or a record that does not read.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// Engine settings that give no configuration.
    #[error(transparent)]
    Settings(#[from] SettingsError),
    /// A budget or seed out of range.
    #[error(transparent)]
    Budget(#[from] BudgetError),
    /// An arena record no game has.
    #[error(transparent)]
    ArenaRecord(#[from] ArenaRecordError),
    /// A record format other than `moves` and `sgf`.
    #[error("unknown record format '{}' (expected moves or sgf)", crate::limits::abbreviate(.0))]
    RecordFormat(String),
}

fn check_id(field: &'static str, value: f64) -> Result<(), RequestError> {
    if (1.0..=MAX_BUDGET).contains(&value) && value.fract() == 0.0 {
        Ok(())
    } else {
        Err(RequestError::Id { field, value })
    }
}

fn check_range(field: &'static str, value: f64, max: f64, range: &'static str) -> Result<(), RequestError> {
    if value.is_finite() && (0.0..=max).contains(&value) {
        Ok(())
    } else {
        Err(RequestError::Range { field, value, range })
    }
}

fn check_moves(spec: &str, moves: &[String]) -> Result<(), RequestError> {
    if moves.len() > MAX_REQUEST_MOVES {
        return Err(RequestError::TooManyMoves { len: moves.len(), max: MAX_REQUEST_MOVES });
    }
    crate::record::replay(spec, moves)?;
    Ok(())
}

fn check_tree(q: &TreeQuery) -> Result<(), RequestError> {
    check_range("tree.minVisits", q.min_visits, MAX_BUDGET, "[0, 2^53-1]")?;
    check_range("tree.topK", q.top_k, 1e6, "[0, 1e6]")?;
    check_range("tree.depth", q.depth, 1e4, "[0, 1e4]")?;
    check_range("tree.maxNodes", q.max_nodes, MAX_SNAPSHOT_NODES as f64, "[0, 1e6]")
}

fn check_engine(e: &EngineSettings) -> Result<SearchConfig, RequestError> {
    Ok(engine_config(&e.preset, &e.params, Some(crate::limits::PAGE_TREE_LIMITS))?)
}

/// Decodes a worker request from JSON and checks everything the worker and the engine check
/// before acting on it: ids, budgets, tree queries and step counts in range; specs that name a
/// game and moves that replay; engine settings that give a configuration; arena budgets, seeds
/// and records; record texts that read (as `parseRecord` would) and record formats. Returns the
/// request when all of that holds. Never panics, whatever the bytes (fuzzed by `fuzz/`).
///
/// # Errors
/// [`RequestError`] naming the first problem found.
pub fn decode_request(json: &[u8]) -> Result<Request, RequestError> {
    let req: Request = serde_json::from_slice(json).map_err(|e| RequestError::Malformed(e.to_string()))?;
    match &req {
        Request::Hello { id } | Request::Undo { id } | Request::Redo { id } | Request::DebugPanic { id } => check_id("id", *id)?,
        Request::NewGame { id, spec, moves } => {
            check_id("id", *id)?;
            check_moves(spec, moves)?;
        }
        Request::Play { id, .. } => check_id("id", *id)?,
        Request::Search { id, engine, budget, progress_ms, .. } => {
            check_id("id", *id)?;
            check_engine(engine)?;
            let (name, v) = match budget {
                RequestBudget::Millis(v) => ("budget.value", *v),
                RequestBudget::Playouts(v) => ("budget.value", *v),
            };
            if !(v > 0.0 && v <= MAX_BUDGET) {
                return Err(RequestError::Range { field: name, value: v, range: "(0, 2^53-1]" });
            }
            check_range("progressMs", *progress_ms, MAX_BUDGET, "[0, 2^53-1]")?;
        }
        Request::Stop { id, target } | Request::Cancel { id, target } => {
            check_id("id", *id)?;
            check_id("target", *target)?;
        }
        Request::Inspect { id, tree, .. } => {
            check_id("id", *id)?;
            if let Some(t) = tree {
                check_tree(t)?;
            }
        }
        Request::ArenaGame { id, game } => {
            check_id("id", *id)?;
            crate::game::AnyGame::from_spec(&game.spec)?;
            engine_config(&game.a.preset, &game.a.params, Some(crate::limits::PAGE_TREE_LIMITS))?;
            engine_config(&game.b.preset, &game.b.params, Some(crate::limits::PAGE_TREE_LIMITS))?;
            arena_budget(game.iterations, game.millis)?;
            arena_seed(game.seed)?;
            check_range("game.index", game.index, MAX_BUDGET, "[0, 2^53-1]")?;
        }
        Request::ArenaStandings { id, records } => {
            check_id("id", *id)?;
            for r in records {
                r.clone().checked()?;
            }
        }
        Request::StepNew { id, spec, moves, engine, tree } => {
            check_id("id", *id)?;
            check_moves(spec, moves)?;
            check_engine(engine)?;
            check_tree(tree)?;
        }
        Request::StepRun { id, count, tree } => {
            check_id("id", *id)?;
            if !(count.fract() == 0.0 && (0.0..=MAX_STEP_ITERATIONS as f64).contains(count)) {
                return Err(RequestError::Range { field: "count", value: *count, range: "0..=100000 (whole)" });
            }
            check_tree(tree)?;
        }
        Request::ParseRecord { id, text } => {
            check_id("id", *id)?;
            crate::record::parse_any(text)?;
        }
        Request::WriteRecord { id, spec, moves, format } => {
            check_id("id", *id)?;
            check_moves(spec, moves)?;
            if format != "moves" && format != "sgf" {
                return Err(RequestError::RecordFormat(format.clone()));
            }
        }
    }
    Ok(req)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_and_checks_requests() {
        let ok = br#"{"type":"search","id":3,"slot":"p1","engine":{"preset":"rave","params":{"c":"0.5"}},"budget":{"kind":"playouts","value":500},"progressMs":100}"#;
        assert!(matches!(decode_request(ok), Ok(Request::Search { .. })));
        let unknown = decode_request(br#"{"type":"launchMissiles","id":1}"#).unwrap_err();
        assert!(unknown.to_string().contains("launchMissiles"), "{unknown}");
        let extra = decode_request(br#"{"type":"hello","id":1,"__proto__":{"x":1}}"#).unwrap_err();
        assert!(extra.to_string().contains("__proto__"), "{extra}");
        let wrong = decode_request(br#"{"type":"play","id":1,"move":7}"#).unwrap_err();
        assert!(matches!(wrong, RequestError::Malformed(_)), "{wrong}");
        let id = decode_request(br#"{"type":"hello","id":0}"#).unwrap_err();
        assert_eq!(id, RequestError::Id { field: "id", value: 0.0 });
        let field = decode_request(br#"{"type":"search","id":3,"slot":"p1","engine":{"preset":"rave","params":{"c":"-1"}},"budget":{"kind":"millis","value":5},"progressMs":100}"#).unwrap_err();
        assert!(field.to_string().starts_with("engine parameter c = -1"), "{field}");
        let moves = decode_request(br#"{"type":"newGame","id":2,"spec":"tictactoe","moves":["b2","b2"]}"#).unwrap_err();
        assert!(moves.to_string().starts_with("move 2 'b2'"), "{moves}");
    }

    #[test]
    fn budgets_and_seeds() {
        assert_eq!(run_budget(8.0, Some(100.5)).unwrap().iterations, Some(100));
        assert!(run_budget(f64::INFINITY, None).is_err());
        assert!(run_budget(8.0, Some(1e300)).is_err());
        assert!(run_budget(-1.0, None).is_err());
        assert_eq!(arena_budget(None, None), Err(BudgetError::ArenaBudget));
        assert!(arena_budget(Some(1e20), None).is_err());
        assert_eq!(arena_seed(7.0), Ok(7));
        assert!(arena_seed(0.5).is_err() && arena_seed(-1.0).is_err() && arena_seed(f64::NAN).is_err());
    }

    #[test]
    fn arena_records_are_checked() {
        let r = ArenaRecord { index: 0, a_first: true, moves: vec![], opening_plies: 0, a_score: f64::NAN, winner: None };
        assert!(r.checked().is_err());
        let r = ArenaRecord { index: 0, a_first: true, moves: vec![], opening_plies: 0, a_score: 1.0, winner: Some(7) };
        assert!(r.checked().is_err());
    }
}
