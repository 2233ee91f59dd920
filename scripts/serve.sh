#!/usr/bin/env bash
# README command 1: set up what is missing on a fresh machine, build the engine to WebAssembly and
# the page, and serve the playground on 127.0.0.1 (prints the URL; default port 8080, or $PORT;
# the next free port if taken).
#
#   bash scripts/serve.sh                # set up, build, serve
#   bash scripts/serve.sh --build-only   # set up and build www/dist, do not serve
#   bash scripts/serve.sh --setup-only   # only install the missing toolchain pieces and npm packages
#
# Installs only what is absent: the rustup target wasm32-unknown-unknown, the wasm-bindgen CLI at
# exactly the version Cargo.lock pins (crate and CLI must match), mdBook at MDBOOK_VERSION (the
# book, docs/), the npm packages (npm ci; they include binaryen's wasm-opt and Vite). See
# ../shared/TOOLCHAIN.md for why each piece is so.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
MODE=${1:-serve}
export PATH="$HOME/.cargo/bin:$PATH"
# The book's builder (docs/book.toml), installed from crates.io into ~/.cargo/bin.
MDBOOK_VERSION=0.4.52

step() { printf '\n==> %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

setup() {
  if ! command -v cargo >/dev/null 2>&1; then
    echo "error: cargo not found; install Rust with rustup (https://rustup.rs) first" >&2
    exit 1
  fi
  if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    step "rustup target add wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
  fi
  local want
  want=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/version = |"/, ""); print; exit}' Cargo.lock)
  if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $want" ]; then
    step "cargo install wasm-bindgen-cli $want (must equal the wasm-bindgen crate version)"
    cargo install wasm-bindgen-cli --version "$want" --no-default-features --debug
  fi
  if [ "$(mdbook --version 2>/dev/null || true)" != "mdbook v$MDBOOK_VERSION" ]; then
    step "cargo install mdbook --version $MDBOOK_VERSION --locked (the book)"
    cargo install mdbook --version "$MDBOOK_VERSION" --locked
  fi
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    step "apt-get install nodejs npm"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm
  fi
  # npm ci only when www/node_modules is missing or older than the lock file.
  if [ ! -f www/node_modules/.package-lock.json ] || [ www/package-lock.json -nt www/node_modules/.package-lock.json ]; then
    step "npm ci (www)"
    (cd www && npm ci --no-audit --no-fund)
  fi
}

# Builds one wasm package: cargo (profile $2, extra cargo args after $3), wasm-bindgen into $1,
# wasm-opt (npm binaryen) when $3 is `opt`, and prints its size raw and gzipped. wasm-opt only
# strips the name and producers sections: its -O3 made the search slower in V8 (uct 0.80 → 0.78,
# rave 0.72 → 0.67 of native, tests/bench/wasm-ratio.mjs, 2026-11-25) for no size gain over the
# stripping alone (410 KB gzip -9 stripped, 413 KB after -O3).
wasm_package() {
  local out=$1 profile=$2 opt=$3
  shift 3
  step "cargo build --lib --profile $profile --target wasm32-unknown-unknown $*"
  cargo build --lib --profile "$profile" --target wasm32-unknown-unknown "$@"
  step "wasm-bindgen --target web --out-dir $out"
  rm -rf "$out"
  wasm-bindgen --target web --out-dir "$out" "target/wasm32-unknown-unknown/$profile/mcts_playground.wasm"
  if [ "$opt" = opt ]; then
    step "wasm-opt --strip-debug --strip-producers (npm binaryen)"
    (cd www && npx --no-install wasm-opt --strip-debug --strip-producers --enable-simd --enable-bulk-memory --enable-nontrapping-float-to-int \
        --enable-sign-ext --enable-mutable-globals --enable-multivalue --enable-reference-types \
        "$ROOT/$out/mcts_playground_bg.wasm" -o "$ROOT/$out/mcts_playground_bg.wasm")
  fi
  local raw gz
  raw=$(wc -c <"$out/mcts_playground_bg.wasm")
  gz=$(gzip -9 -c "$out/mcts_playground_bg.wasm" | wc -c)
  echo "$out wasm size: $raw bytes raw, $gz bytes gzip -9"
}

build() {
  # The page's engine (search, rules, inference): loaded with the page.
  wasm_package pkg release opt
  # The Train panel's package (the same crate with burn, feature `train`): loaded only when the
  # student starts training. Its own profile (no LTO, 16 codegen units, burn-flex at opt-level 1)
  # keeps burn's build short; no wasm-opt (npm binaryen's -O3 ran over 6 minutes on its 4.5 MB
  # on the shared 2-core machine without finishing).
  wasm_package pkg-train wasm-train no-opt --features train
  # The book first: the page's build copies target/book into www/dist/book (www/vite.config.ts).
  step "mdbook build docs (target/book)"
  mdbook build docs
  step "tsc --noEmit && vite build (www/dist, with the book)"
  (cd www && npx --no-install tsc --noEmit -p . && npx --no-install vite build --logLevel warn)
  echo "built $ROOT/www/dist"
}

case "$MODE" in
  --setup-only) setup ;;
  --build-only) setup; build ;;
  serve) setup; build; step "serving www/dist"; exec node www/serve.mjs www/dist --port "${PORT:-8080}" ;;
  *) echo "usage: $0 [--build-only|--setup-only]" >&2; exit 2 ;;
esac
