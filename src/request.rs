//! What the page asks of the engine, checked without wasm types: the engine settings (a preset
//! plus field overrides), search budgets, arena budgets, seeds and records.
//!
//! `src/wasm/` calls these functions on what JavaScript hands it ([`engine_config`],
//! [`run_budget`], [`arena_budget`], [`arena_seed`], [`ArenaRecord`]), so the checks the
//! boundary makes are plain Rust that the fuzz target `config` (`fuzz/`) runs natively. The
//! worker request itself (its type, fields and sizes) is checked by `parseRequest` in
//! `www/src/protocol.ts`, with the limits of [`crate::limits`] through the generated schema
//! (`mcts schema`, `www/src/generated/schema.ts`); a Rust mirror of the whole request that the
//! worker never used (`Request`, `decode_request`) was removed rather than kept as a third copy.
//!
//! Limits come from [`crate::limits`].

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::arena::GameRecord;
use crate::limits::MAX_BUDGET;
use crate::mcts::{Budget, ConfigError, ParamInput, ParamValue, SearchConfig};

/// Why engine settings give no configuration.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SettingsError {
    /// The parameters are not an object of names and values (the decoder's message).
    #[error("engine parameters must be an object of parameter names and values: {}", crate::limits::abbreviate(.0))]
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

/// The configuration of a preset with field overrides, typed ([`ParamValue`]: a number, a
/// whole number, `true`/`false`, a name; text is read as `mcts search --set` reads it). Without
/// a `node_cap` or `memory_cap_mib` override, that cap is the one of `defaults` when given (the
/// page passes [`crate::limits::PAGE_TREE_LIMITS`]), else the engine's default.
///
/// # Errors
/// [`SettingsError`] naming the bad preset or field; the first bad field in key order.
pub fn engine_config(
    preset: &str,
    params: &BTreeMap<String, ParamValue>,
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
        config.set_value(k, v).map_err(|source| SettingsError::Field { key: k.clone(), value: v.to_string(), source })?;
    }
    Ok(config)
}

/// The parameters as decoded from a program ([`ParamInput`]: a typed value, or a value no field
/// takes), checked: a value no field takes is refused naming its parameter and what that
/// parameter takes, as [`engine_config`] refuses a value of the wrong type.
///
/// # Errors
/// [`SettingsError::Field`] for the first such value in key order.
pub fn typed_params(params: BTreeMap<String, ParamInput>) -> Result<BTreeMap<String, ParamValue>, SettingsError> {
    params
        .into_iter()
        .map(|(k, v)| match v {
            ParamInput::Value(v) => Ok((k, v)),
            ParamInput::Other(what) => {
                let source = match SearchConfig::kind_of(k.trim()) {
                    Some(_) => ConfigError::BadValue {
                        key: k.trim().to_string(),
                        value: what.to_string(),
                        reason: format!("expected {}", SearchConfig::expected(k.trim())),
                    },
                    None => SearchConfig::unknown_key(k.trim()),
                };
                Err(SettingsError::Field { key: k, value: what.to_string(), source })
            }
        })
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;

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

    /// Typed parameters as the page sends them; text values read as the command line reads
    /// them; a value no parameter takes is refused naming the parameter and what it takes.
    #[test]
    fn typed_parameters_build_the_configuration() {
        let typed: BTreeMap<String, ParamValue> = [
            ("c".to_string(), ParamValue::Number(0.5)),
            ("pool_k".to_string(), ParamValue::Int(20)),
            ("solver".to_string(), ParamValue::Bool(true)),
            ("value".to_string(), ParamValue::Text("grave".into())),
        ]
        .into();
        let c = engine_config("uct", &typed, None).unwrap();
        assert_eq!((c.c, c.pool_k, c.solver, c.value), (0.5, 20, true, crate::mcts::ValueEstimate::Grave));
        let text: BTreeMap<String, ParamValue> =
            [("c", "0.5"), ("pool_k", "20"), ("solver", "true"), ("value", "grave")].map(|(k, v)| (k.to_string(), v.into())).into();
        assert_eq!(engine_config("uct", &text, None).unwrap(), c);
        let e = engine_config("uct", &[("c".to_string(), ParamValue::Bool(true))].into(), None).unwrap_err();
        assert_eq!(e.to_string(), "engine parameter c = true: bad value 'true' for 'c': expected a number");
        let raw: BTreeMap<String, ParamInput> =
            [("c".to_string(), ParamInput::Value(ParamValue::Number(0.5))), ("seed".to_string(), ParamInput::Other("null"))].into();
        let e = typed_params(raw).unwrap_err();
        assert_eq!(e.to_string(), "engine parameter seed = null: bad value 'null' for 'seed': expected a whole number");
        let e = typed_params([("colour".to_string(), ParamInput::Other("a list"))].into()).unwrap_err();
        assert!(e.to_string().starts_with("engine parameter colour = a list: unknown config key 'colour'"), "{e}");
    }

    #[test]
    fn arena_records_are_checked() {
        let r = ArenaRecord { index: 0, a_first: true, moves: vec![], opening_plies: 0, a_score: f64::NAN, winner: None };
        assert!(r.checked().is_err());
        let r = ArenaRecord { index: 0, a_first: true, moves: vec![], opening_plies: 0, a_score: 1.0, winner: Some(7) };
        assert!(r.checked().is_err());
    }
}
