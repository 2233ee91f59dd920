//! The page's TypeScript copies of the engine's JSON shapes, generated from the Rust types by
//! ts-rs (`#[cfg_attr(test, derive(ts_rs::TS))]` on each type: ts-rs is a dev-dependency, so the
//! library, the CLI and the wasm packages do not carry it). `www/src/generated/protocol-types.ts`
//! holds them; `www/src/protocol.ts` re-exports them to the page beside its own types (the
//! worker protocol's requests and responses).
//!
//! The JSON is the one the wasm boundary sends (`serde_wasm_bindgen::Serializer::json_compatible`,
//! src/wasm/mod.rs): `None` as `null`, maps as objects, so `Option<T>` is `T | null`; a field that
//! serde leaves out (`skip_serializing_if` with `default`) is optional (`?`). Integers are JSON
//! numbers (`TS_RS_LARGE_INT` = `number`: the counts stay far below 2^53).
//!
//! The test below fails while the file is stale; `bash scripts/protocol-types.sh` writes it.

use ts_rs::{Config, TS};

/// The types of the file, in its order (a type's dependencies first).
fn declarations(cfg: &Config) -> Vec<String> {
    vec![
        crate::mcts::StopReason::decl(cfg),
        crate::mcts::RunReport::decl(cfg),
        crate::mcts::TreeCap::decl(cfg),
        crate::mcts::tree::Proven::decl(cfg),
        crate::mcts::config::FinalMove::decl(cfg),
        crate::mcts::config::LeafEval::decl(cfg),
        crate::mcts::stats::PolicyStats::decl(cfg),
        crate::mcts::stats::ChildStats::decl(cfg),
        crate::mcts::stats::SearchStats::decl(cfg),
        crate::nn::models::Source::decl(cfg),
        crate::nn::models::Trunk::decl(cfg),
        crate::nn::models::NetInfo::decl(cfg),
        crate::nn::search::MovePrior::decl(cfg),
        crate::nn::search::PositionEval::decl(cfg),
        crate::game::BoardView::decl(cfg),
        crate::page::OutcomeView::decl(cfg),
        crate::page::Snapshot::decl(cfg),
        crate::page::SolveMoveValue::decl(cfg),
        crate::page::SolveCounters::decl(cfg),
        crate::page::SolveProgress::decl(cfg),
        crate::nn::models::Shipped::decl(cfg),
        crate::report::review::PositionReview::decl(cfg),
        crate::report::review::Class::decl(cfg),
        crate::report::review::ReviewSettings::decl(cfg),
        crate::report::review::PlyReview::decl(cfg),
        crate::report::review::PlayerSummary::decl(cfg),
        crate::report::review::PositionTiming::decl(cfg),
        crate::report::review::GameReview::decl(cfg),
        crate::record::Variation::decl(cfg),
        crate::record::Record::decl(cfg),
        crate::arena::GameRecord::decl(cfg),
        crate::arena::Standings::decl(cfg),
        crate::mcts::search::trace::NodeValues::decl(cfg),
        crate::mcts::search::trace::ChildScore::decl(cfg),
        crate::mcts::search::trace::NodeKind::decl(cfg),
        crate::mcts::search::trace::TraceNode::decl(cfg),
        crate::mcts::search::trace::TraceOutcome::decl(cfg),
        crate::mcts::search::trace::IterationTrace::decl(cfg),
    ]
}

/// The text of `www/src/generated/protocol-types.ts`.
fn render() -> String {
    let cfg = Config::new().with_large_int("number");
    let mut out = String::from(
        "// Generated from the engine's Rust types by ts-rs (src/protocol_types.rs). Do not edit: change the\n\
         // Rust type, then run `bash scripts/protocol-types.sh` (a Rust test fails while this file is stale).\n\n\
         import type { GameName } from './schema';\n",
    );
    for d in declarations(&cfg) {
        out.push_str("\nexport ");
        out.push_str(&d);
        out.push('\n');
    }
    out
}

#[test]
fn generated_protocol_types_are_current() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/www/src/generated/protocol-types.ts");
    let text = render();
    if std::env::var_os("MCTS_WRITE_PROTOCOL_TYPES").is_some() {
        std::fs::write(path, &text).expect("write protocol-types.ts");
    }
    let on_disk = std::fs::read_to_string(path).unwrap_or_default();
    assert!(on_disk == text, "{path} is stale (or missing): run `bash scripts/protocol-types.sh` to write it again");
}
