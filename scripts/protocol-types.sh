#!/usr/bin/env bash
# Writes www/src/generated/protocol-types.ts: the page's TypeScript copies of the engine's JSON
# shapes, generated from the Rust types by ts-rs (src/protocol_types.rs lists them; ts-rs is a
# dev-dependency, so this runs the library's unit test with the variable that makes it write).
# Run it after changing one of those types; the Rust test
# `protocol_types::generated_protocol_types_are_current` (in `cargo test`) fails until then.
set -euo pipefail
cd "$(dirname "$0")/.."
MCTS_WRITE_PROTOCOL_TYPES=1 cargo test --quiet --lib protocol_types::generated_protocol_types_are_current
echo "wrote www/src/generated/protocol-types.ts"
