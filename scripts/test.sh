#!/usr/bin/env bash
# README command 2: run every test. Installs what is missing (as scripts/serve.sh does, plus
# Debian's Chromium for the browser tests), then: cargo test; the wasm build, tsc --noEmit and
# vite build; the browser tests (node --test tests/browser, playwright-core driving
# /usr/bin/chromium). Every stage runs even after a failing one (except that the browser tests
# need the build); the exit status is non-zero if any stage failed, and the output ends with the
# runners' own summaries.
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

failed=()
step "cargo test"
cargo test --no-fail-fast 2>&1 || failed+=("cargo test")

step "build: wasm, wasm-bindgen, wasm-opt, tsc --noEmit, vite build"
if ! bash scripts/serve.sh --build-only; then
  echo "test.sh: the build failed; browser tests skipped" >&2
  exit 1
fi

step "browser tests: node --test tests/browser"
node --test --test-concurrency=1 tests/browser/ || failed+=("browser tests")

if [ ${#failed[@]} -gt 0 ]; then
  echo "test.sh: FAILED: ${failed[*]}" >&2
  exit 1
fi
