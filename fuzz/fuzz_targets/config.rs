//! Engine configurations: a preset name and `key=value` overrides, one per line, as
//! `mcts search --algo PRESET --set key=value` and the page's parameters give them. Any text
//! gives a valid configuration or a `ConfigError`/`SettingsError`; a configuration accepted is
//! within its ranges and survives a JSON round trip.
#![no_main]

use std::collections::BTreeMap;

use libfuzzer_sys::fuzz_target;
use mcts_playground::mcts::{ParamValue, SearchConfig};
use mcts_playground::request::engine_config;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut lines = text.lines();
    let preset = lines.next().unwrap_or("");
    let mut params = BTreeMap::new();
    for l in lines {
        let (k, v) = l.split_once('=').unwrap_or((l, ""));
        params.insert(k.to_string(), ParamValue::from(v));
    }
    if let Ok(c) = engine_config(preset, &params, Some(mcts_playground::limits::PAGE_TREE_LIMITS)) {
        c.validate().expect("an accepted configuration is in range");
        let json = serde_json::to_string(&c).expect("serialises");
        let back: SearchConfig = serde_json::from_str(&json).expect("reads back");
        assert_eq!(serde_json::to_string(&back).unwrap(), json);
    }
    // A whole configuration as JSON, as `SearchConfig`'s serde shape.
    if let Ok(c) = serde_json::from_str::<SearchConfig>(text) {
        let _ = c.validate();
    }
});
