#!/usr/bin/env bash
# Writes the page's copy of what it shares with the engine: www/src/generated/schema.json (the
# output of `mcts schema --json`: parameters with types, defaults and ranges, presets, input
# limits; src/mcts/schema.rs) and www/src/generated/schema.ts (from the JSON, by www/gen-schema.mjs).
# Run it after changing SearchConfig, a preset or a limit the page checks; the Rust test
# `mcts::schema::tests::generated_schema_is_current` and the vitest src/generated/schema.test.ts
# fail until then.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --quiet --bin mcts -- schema --json > www/src/generated/schema.json.tmp
mv www/src/generated/schema.json.tmp www/src/generated/schema.json
node www/gen-schema.mjs
echo "wrote www/src/generated/schema.json and schema.ts"
