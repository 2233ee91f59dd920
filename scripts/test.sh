#!/usr/bin/env bash
# README command 2: run every test. Installs what is missing (as scripts/serve.sh does, plus
# Debian's Chromium for the browser tests), then:
#   1. lint: cargo fmt --check, cargo clippy --all-targets --features train -D warnings (missing_docs),
#      Biome (format + lint) on www/ and tests/browser, madge --circular on www/src;
#   2. cargo test (with the staleness checks of the page's generated copies of engine types:
#      schema.json and protocol-types.ts), then the training tests with `--features train` (burn);
#   3. the build: wasm, wasm-bindgen, wasm-opt (strip), the book (mdbook build docs), tsc --noEmit,
#      vite build (which copies the book into www/dist/book); then the book's links
#      (scripts/check-links.mjs: every relative link of the built book and the README resolves,
#      nothing loads from another host); the book's CLI reference is checked against the binary's
#      --help by tests/cli_reference.rs in step 2;
#   4. the TypeScript unit tests (vitest, Node, no browser);
#   5. the browser tests (node --test tests/browser, playwright-core driving /usr/bin/chromium);
#   6. the Python package (python/): its extension built once (maturin, into the virtual
#      environment python/.venv, which this script makes and fills), the built page copied in for
#      the widget, then pytest python/tests (the API against the mcts CLI, the widget's Python
#      side, matches split into tasks on a thread pool and on a local Ray). Skipped, saying so,
#      only when no Python 3.11+ interpreter exists;
#   7. the release artifacts (scripts/release.sh --no-build: site archive, npm package, wheel),
#      each tried in a clean place (tests/release).
# Every stage runs even after a failing one (except that the unit and browser tests need the
# build); the exit status is non-zero if any stage failed, and the output ends with the runners'
# own summaries.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

step() { printf '\n==> %s\n' "$*"; }

# Disk: the whole run needs about 5 GB beside the clone (target/ about 3.2 GB, the Python virtual
# environment and its build 0.9 GB, the notebook's as-installed environment 0.3 GB, node_modules 0.3 GB). Under CI (a fresh clone, built once) the incremental
# cache only costs disk (2.4 GB of target/debug), so it is off there.
if [ "${CI:-}" = true ]; then export CARGO_INCREMENTAL=0; fi
free_kb=$(df -Pk . | awk 'NR == 2 { print $4 }')
if [ -n "$free_kb" ] && [ "$free_kb" -lt $((6 * 1024 * 1024)) ]; then
  echo "test.sh: warning: only $((free_kb / 1024)) MB free on this disk; the run needs about 5 GB" >&2
fi
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

bash scripts/serve.sh --setup-only
if [ ! -x /usr/bin/chromium ]; then
  step "apt-get install chromium"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
fi

for c in rustfmt clippy; do
  if ! rustup component list --installed 2>/dev/null | grep -q "^$c"; then
    step "rustup component add $c"
    rustup component add "$c"
  fi
done

failed=()
step "lint: cargo fmt --check"
cargo fmt --check || failed+=("cargo fmt")
step "lint: cargo clippy --all-targets --features train -- -D warnings"
cargo clippy --all-targets --features train --quiet -- -D warnings || failed+=("clippy")
cargo clippy --lib --target wasm32-unknown-unknown --quiet -- -D warnings || failed+=("clippy (wasm32)")
step "lint: biome check (www/, tests/browser)"
www/node_modules/.bin/biome check || failed+=("biome")
step "lint: import cycles (madge --circular www/src)"
(cd www && npm run --silent cycles) || failed+=("import cycles")

step "cargo test"
cargo test --no-fail-fast 2>&1 || failed+=("cargo test")
step "cargo test --features train --test nn_train --test nn_train_session --test nn_train_exact --test cli_reference (burn: training, burn's forward pass = ours, exact targets; the book's page of mcts train)"
cargo test --no-fail-fast --features train --test nn_train --test nn_train_session --test nn_train_exact --test cli_reference 2>&1 || failed+=("cargo test (train)")

step "build: wasm, wasm-bindgen, wasm-opt, tsc --noEmit, vite build"
if ! bash scripts/serve.sh --build-only; then
  echo "test.sh: the build failed; browser tests skipped" >&2
  exit 1
fi

# The book (docs/, built into www/dist/book by the build above): its links and the README's.
step "the book's links: node scripts/check-links.mjs (www/dist/book, README.md, docs/)"
node scripts/check-links.mjs || failed+=("book links")

step "TypeScript unit tests: vitest run (www)"
(cd www && npm run --silent test:unit) || failed+=("TypeScript unit tests")

step "browser tests: node --test tests/browser"
node --test --test-concurrency=1 tests/browser/ || failed+=("browser tests")

step "Python package: maturin develop --release (python/.venv), pytest python/tests"
bash scripts/test-python.sh || failed+=("Python tests")

# 7. The release artifacts (scripts/release.sh into dist/: the site archive, the npm package, the
# wheel) from what steps 3 and 6 built (www/dist; the wheel's cargo build is step 6's, so nothing
# is compiled again), then each tried as its user would in a clean temporary place
# (tests/release/artifacts.test.mjs: a deep sub-path of a plain server; a course page on another
# origin; pip into a fresh virtual environment).
step "release artifacts: scripts/release.sh --no-build, then node --test tests/release"
if bash scripts/release.sh --no-build; then
  node --test --test-concurrency=1 tests/release/ || failed+=("release artifacts")
else
  failed+=("release.sh")
fi

if [ ${#failed[@]} -gt 0 ]; then
  echo "test.sh: FAILED: ${failed[*]}" >&2
  exit 1
fi
