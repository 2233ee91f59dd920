#!/usr/bin/env bash
# Writes the book's command-line reference: docs/cli/help/VERB.txt, the text of `mcts VERB --help`
# for every verb (`mcts train` as the `--features train` build prints it), which the pages
# docs/cli/VERB.md include. Run it after changing a verb's arguments or their doc comments; the
# test `cli_reference_is_current` (tests/cli_reference.rs, in `cargo test`; its `train` page in
# `cargo test --features train`) fails until then.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --features train --bin mcts
mcts=target/debug/mcts
while read -r name args; do
  # shellcheck disable=SC2086 # the verb's words, split on purpose
  "$mcts" $args --help > "docs/cli/help/$name.txt.tmp"
  mv "docs/cli/help/$name.txt.tmp" "docs/cli/help/$name.txt"
done < <(sed -n 's/^    ("\([a-z-]*\)", &\[\(.*\)\]),$/\1 \2/p' tests/cli_reference.rs | tr -d '",')
echo "wrote docs/cli/help/*.txt"
