#!/usr/bin/env bash
# README command 2: run every test. Installs what is missing (as scripts/serve.sh does, plus
# Debian's Chromium for the browser tests), then: cargo test; the wasm build, tsc --noEmit and
# vite build; the browser tests (node --test tests/browser, playwright-core driving
# /usr/bin/chromium). Exits non-zero on the first failure; the output ends with the runners'
# own summaries.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

step() { printf '\n==> %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

bash scripts/serve.sh --setup-only
if [ ! -x /usr/bin/chromium ]; then
  step "apt-get install chromium"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
fi

step "cargo test"
cargo test 2>&1

bash scripts/serve.sh --build-only

step "browser tests: node --test tests/browser"
node --test --test-concurrency=1 tests/browser/
