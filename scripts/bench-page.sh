#!/usr/bin/env bash
# Page benchmark: how responsive the playground page is and how fast the engine runs in
# Chromium, measured, never asserted (the browser tests check behaviour only).
#
#   bash scripts/bench-page.sh              # build what is missing (as serve.sh --build-only),
#                                           # build the native CLI, run the bench
#   bash scripts/bench-page.sh > bench.json # the JSON object alone on stdout; progress on stderr
#
# Prints one JSON object: `load` (navigation to a playable board), `search` (main-thread long
# tasks p50/p95/max/count and frames dropped during a long Hex 9×9 search), `stop` (Stop-to-move
# latency, median of several), `tree` (long tasks while a 500,000+-node tree is drawn in the
# analysis views), `compare` (long tasks while four compare panes run), `speed` (hex:7, 200,000
# iterations, uct and best: playouts/s in the worker cold and warm, the native `mcts search` of the
# same search in the same run, and their ratio), `wasm_ratio_hex11` (tests/bench/wasm-ratio.mjs:
# hex:11 uct and rave in V8 under Node against native). Figures depend on the machine and its load
# (`machine.loadavg_*`). Exits non-zero only if the page could not be built or driven.
# Knobs (environment): BENCH_WINDOW_MS (search window, 5000), BENCH_STOPS (5), BENCH_TREE_NODES
# (500000), CHROMIUM (/usr/bin/chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

{
  bash scripts/serve.sh --build-only
  if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
  fi
  echo "==> cargo build --release --bin mcts (the native side of the speed ratio)"
  cargo build --release --quiet --bin mcts
} >&2
exec node tests/bench/page.mjs
