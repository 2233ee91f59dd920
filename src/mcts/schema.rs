//! The engine's description of what other programs share with it: every [`SearchConfig`] field
//! (its serde name, type, default, range, units), every [`Preset`] (name, one-line description,
//! whether it needs a trained network, its configuration), and the input limits of
//! [`crate::limits`] that the page checks too.
//!
//! `mcts schema --json` prints [`schema`]; `scripts/schema.sh` writes it to
//! `www/src/generated/schema.json` and `www/gen-schema.mjs` turns that into
//! `www/src/generated/schema.ts`, the page's only copy of these names and numbers. The test
//! below fails when the checked-in JSON is not what [`schema`] gives now.
//!
//! The ranges are the ones [`SearchConfig::validate`] checks: both read [`SearchConfig::ranged_fields`].

use crate::game::registry::{GameFacts, GAMES};
use serde::Serialize;
use serde_json::Value;

use super::config::{FieldRange, Preset, SearchConfig};
use super::param::ParamType;

/// One [`SearchConfig`] field.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ParamSchema {
    /// The serde name (`c`, `rave_k`, ...), the key of `--set` and of the worker's `params`.
    pub name: String,
    /// Its type.
    #[serde(rename = "type")]
    pub kind: ParamType,
    /// The default (the `uct` preset's value).
    pub default: Value,
    /// The allowed range of a numeric field (none: any value of the type).
    pub range: Option<FieldRange>,
    /// The names an enum field takes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
    /// What it is, in a few words (fields with a range).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub what: Option<&'static str>,
    /// Its units, when it has any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub units: Option<&'static str>,
    /// Where it is defined and documented (with the source of its default).
    pub source: String,
}

/// One [`Preset`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PresetSchema {
    /// Its name (`uct`, `rave`, ..., `puct-net`).
    pub name: &'static str,
    /// What it is, in one line.
    pub description: &'static str,
    /// Whether it needs the game's trained network ([`Preset::needs_net`]).
    pub needs_net: bool,
    /// The fields it sets to other values than the defaults, by serde name.
    pub changes: serde_json::Map<String, Value>,
}

/// Everything [`schema`] describes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Schema {
    /// Every configuration field, sorted by name.
    pub parameters: Vec<ParamSchema>,
    /// Every preset, in the order of [`Preset::ALL`].
    pub presets: Vec<PresetSchema>,
    /// The input limits the page checks too ([`crate::limits`]), by their Rust names.
    pub limits: serde_json::Map<String, Value>,
    /// Every registered game's facts, in registry order ([`crate::game::registry::GAMES`]): the
    /// page's game registry reads them.
    pub games: Vec<GameFacts>,
}

/// One line on what preset `p` is (the long form: [`SearchConfig::preset`]).
pub fn preset_description(p: Preset) -> &'static str {
    match p {
        Preset::Uct => "Plain UCT (UCB1 applied to trees), random playouts, c = √2",
        Preset::Rave => "MC-RAVE: Q blended with AMAF values, c = 0",
        Preset::Grave => "GRAVE: AMAF values of the nearest ancestor with enough playouts, c = 0",
        Preset::Decisive => "UCT with decisive and anti-decisive moves and MCTS-Solver",
        Preset::Lgr => "RAVE with Last-Good-Reply (LGR-1) playouts",
        Preset::Lgrf2 => "RAVE with LGRF-2 playouts (replies to two moves, with forgetting)",
        Preset::Poolrave => "RAVE with PoolRAVE playouts",
        Preset::Mast => "RAVE with MAST (Gibbs) playouts",
        Preset::Qb => "RAVE with quality-based rewards",
        Preset::Depth2 => "UCT with the depth-2 critical-move filter at the root",
        Preset::Solver => "UCT with MCTS-Solver and the secure child as final move",
        Preset::Puct => "PUCT with the tactical prior, c = 1.5",
        Preset::Best => "RAVE, decisive/anti-decisive moves, MCTS-Solver and depth-2",
        Preset::Mohex => "MoHex-style Hex: RAVE, save-bridge playouts, pattern priors, Hex knowledge, MCTS-Solver",
        Preset::Alphazero => "AlphaZero: PUCT with the network's priors, leaves valued by its value head",
        Preset::Alphago => "AlphaGo: PUCT with the network's priors, leaves valued (1−λ)·v + λ·z",
        Preset::PuctNet => "PUCT with the network's priors and random playouts",
    }
}

/// The schema of this engine (see the module doc).
pub fn schema() -> Schema {
    let default = SearchConfig::default();
    let Value::Object(fields) = serde_json::to_value(&default).expect("a config serialises") else {
        unreachable!("a struct serialises to a JSON object")
    };
    let ranges = default.ranged_fields();
    let parameters = fields
        .iter()
        .map(|(name, value)| {
            // The field table (`SearchConfig::FIELDS`) has every serde field: the struct declares it.
            let kind = SearchConfig::kind_of(name).expect("every serde field is in the field table");
            let range = ranges.iter().find(|(r, _)| r.field == name).map(|(r, _)| *r);
            ParamSchema {
                name: name.clone(),
                kind,
                default: value.clone(),
                range,
                values: SearchConfig::enum_names(name),
                what: range.map(|r| r.what),
                units: range.and_then(|r| r.units),
                source: format!("src/mcts/config.rs SearchConfig::{name}"),
            }
        })
        .collect();
    let presets = Preset::ALL
        .into_iter()
        .map(|p| {
            let Value::Object(config) = serde_json::to_value(SearchConfig::of(p)).expect("a config serialises") else {
                unreachable!("a struct serialises to a JSON object")
            };
            let changes = config.into_iter().filter(|(k, v)| fields.get(k) != Some(v)).collect();
            PresetSchema { name: p.name(), description: preset_description(p), needs_net: p.needs_net(), changes }
        })
        .collect();
    use crate::limits as l;
    let limits = [
        ("MAX_RECORD_BYTES", l::MAX_RECORD_BYTES as f64),
        ("MAX_NET_BYTES", l::MAX_NET_BYTES as f64),
        ("MAX_BOARD_SIDE", l::MAX_BOARD_SIDE as f64),
        ("MAX_BUDGET", l::MAX_BUDGET),
        ("PAGE_NODE_CAP", l::PAGE_NODE_CAP as f64),
        ("PAGE_MEMORY_CAP_MIB", l::PAGE_MEMORY_CAP_MIB as f64),
        ("MAX_REQUEST_MOVES", l::MAX_REQUEST_MOVES as f64),
        ("MAX_VARIATION_DEPTH", l::MAX_VARIATION_DEPTH as f64),
        ("MAX_STEP_ITERATIONS", l::MAX_STEP_ITERATIONS as f64),
        ("MAX_SNAPSHOT_NODES", l::MAX_SNAPSHOT_NODES as f64),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), serde_json::json!(v as u64)))
    .collect();
    Schema { parameters, presets, limits, games: GAMES.to_vec() }
}

/// [`schema`] as the pretty-printed JSON `mcts schema --json` prints (and
/// `www/src/generated/schema.json` holds), with a final newline.
pub fn schema_json() -> String {
    let mut s = serde_json::to_string_pretty(&schema()).expect("the schema serialises");
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::super::config::ConfigError;
    use super::*;

    /// The page's copy (`www/src/generated/schema.json`, from which `www/gen-schema.mjs` writes
    /// `schema.ts`) is what the engine says now. When it fails: `bash scripts/schema.sh`.
    #[test]
    fn generated_schema_is_current() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/www/src/generated/schema.json");
        let on_disk = std::fs::read_to_string(path).unwrap_or_default();
        assert!(on_disk == schema_json(), "{path} is stale (or missing): run `bash scripts/schema.sh` to write it and schema.ts again");
    }

    #[test]
    fn every_field_is_described() {
        let s = schema();
        let default = serde_json::to_value(SearchConfig::default()).unwrap();
        assert_eq!(s.parameters.len(), default.as_object().unwrap().len());
        for p in &s.parameters {
            if p.kind == ParamType::Enum {
                assert!(p.values.len() >= 2, "{}: {:?}", p.name, p.values);
                assert!(p.values.contains(&p.default.as_str().unwrap().to_string()), "{}", p.name);
            }
        }
        let sel = s.parameters.iter().find(|p| p.name == "lgr").unwrap();
        assert_eq!(sel.values, ["off", "lgr1", "lgrf1", "lgrf2"]);
        // Every range names a field, and every ranged field's default is in its range.
        for (r, v) in SearchConfig::default().ranged_fields() {
            assert!(s.parameters.iter().any(|p| p.name == r.field && p.range == Some(r)), "{}", r.field);
            assert!(r.contains(v), "{} = {v}", r.field);
        }
        let c = s.parameters.iter().find(|p| p.name == "c").unwrap();
        assert_eq!(c.kind, ParamType::Number);
        assert_eq!(c.default, serde_json::json!(std::f64::consts::SQRT_2));
        assert_eq!(s.parameters.iter().find(|p| p.name == "pool_k").unwrap().kind, ParamType::Integer);
    }

    #[test]
    fn presets_in_order_with_their_changes() {
        let s = schema();
        let names: Vec<&str> = s.presets.iter().map(|p| p.name).collect();
        assert_eq!(names, SearchConfig::PRESETS);
        let net: Vec<&str> = s.presets.iter().filter(|p| p.needs_net).map(|p| p.name).collect();
        assert_eq!(net, ["alphazero", "alphago", "puct-net"]);
        let rave = s.presets.iter().find(|p| p.name == "rave").unwrap();
        assert_eq!(rave.changes.get("c"), Some(&serde_json::json!(0.0)));
        assert_eq!(rave.changes.get("value"), Some(&serde_json::json!("rave")));
        assert!(s.presets[0].changes.is_empty(), "uct is the default");
    }

    /// The range table is what `validate` checks: a value just past each bound is refused with
    /// the table's text, and the bound itself is taken unless the range is open there.
    #[test]
    fn validate_checks_the_table() {
        for (r, _) in SearchConfig::default().ranged_fields() {
            let mut c = SearchConfig::default();
            let below = if r.min_open { r.min } else { r.min - 1.0 };
            let e = c.set(r.field, &below.to_string()).unwrap_err();
            assert_eq!(e, ConfigError::OutOfRange { field: r.field, value: below, range: r.text }, "{}", r.field);
            c.set(r.field, &r.max.to_string()).unwrap();
            assert!(c.set(r.field, &(r.max * 2.0).to_string()).is_err(), "{}", r.field);
        }
    }
}
