#!/usr/bin/env bash
# The release artifacts, into dist/ (not committed), each with the project's LICENSE and the
# THIRD_PARTY_NOTICES of what it bundles (scripts/third-party-notices.mjs, which also refuses a
# dependency whose license we may not redistribute):
#   dist/mcts-playground-site-VERSION.tar.gz   the static site (www/dist) in one folder of that name:
#                                              unpack it anywhere under any static server (relative
#                                              URLs: vite `base: './'`), single-threaded, no special
#                                              header (no COOP/COEP)
#   dist/mcts-playground-VERSION.tgz           the npm package (`npm pack`): the same site with a
#                                              package.json whose entry is embed.js, the
#                                              <mcts-playground> element (one script tag, one element)
#   dist/mcts_playground-VERSION-*.whl         the Python wheel (`maturin build --release`), the
#                                              site inside for the notebook widget
#
#   bash scripts/release.sh             # build the page (scripts/serve.sh --build-only), then pack
#   bash scripts/release.sh --no-build  # pack the www/dist already built (scripts/test.sh does so)
#
# The version is the engine crate's (Cargo.toml [package] version): the npm package.json is written
# from it, and the Python package's versions (python/Cargo.toml, python/pyproject.toml,
# mcts_playground.__version__) and www/package.json must equal it, or the script stops saying which
# differs. How to release and how a teacher uses each artifact: docs/releases.md.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export PATH="$HOME/.cargo/bin:$PATH"
step() { printf '\n==> %s\n' "$*"; }

case "${1:-}" in
  '') build=1 ;;
  --no-build) build=0 ;;
  *) echo "usage: $0 [--no-build]" >&2; exit 2 ;;
esac

# ---- the version, from one place -------------------------------------------------------------
toml_version() { awk -F'"' '/^\[/ { p = ($0 == "[package]" || $0 == "[project]") } p && /^version = / { print $2; exit }' "$1"; }
version=$(toml_version Cargo.toml)
if [ -z "$version" ]; then echo "release.sh: no version in Cargo.toml's [package]" >&2; exit 1; fi
mismatch=0
for pair in "python/Cargo.toml:$(toml_version python/Cargo.toml)" \
  "python/pyproject.toml:$(toml_version python/pyproject.toml)" \
  "python/mcts_playground/__init__.py:$(sed -n 's/^__version__ = "\(.*\)"$/\1/p' python/mcts_playground/__init__.py)" \
  "www/package.json:$(node -p 'require("./www/package.json").version')"; do
  if [ "${pair#*:}" != "$version" ]; then
    echo "release.sh: ${pair%%:*} says version '${pair#*:}', Cargo.toml says '$version': make them equal" >&2
    mismatch=1
  fi
done
[ "$mismatch" = 0 ] || exit 1
# Archive and wheel timestamps from the commit, so that the same commit packs the same bytes.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}

# ---- the page ---------------------------------------------------------------------------------
if [ "$build" = 1 ]; then
  bash scripts/serve.sh --build-only
fi
if [ ! -f www/dist/index.html ] || [ ! -f www/dist/embed.js ]; then
  echo "release.sh: www/dist is not built (run bash scripts/serve.sh --build-only, or this script without --no-build)" >&2
  exit 1
fi

rm -rf dist
mkdir -p dist/stage
step "third-party notices (cargo tree, www/node_modules) and their licenses checked"
node scripts/third-party-notices.mjs site >dist/stage/THIRD_PARTY_NOTICES.site
node scripts/third-party-notices.mjs wheel >dist/stage/THIRD_PARTY_NOTICES.wheel

# The site with the license and notices beside index.html.
stage_site() {
  mkdir -p "$1"
  cp -r www/dist/. "$1/"
  cp LICENSE "$1/LICENSE"
  cp dist/stage/THIRD_PARTY_NOTICES.site "$1/THIRD_PARTY_NOTICES"
}
tar_of() { tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" -czf "$@"; }

# ---- 1. the static site ----------------------------------------------------------------------
step "site archive: dist/mcts-playground-site-$version.tar.gz"
site=mcts-playground-site-$version
stage_site "dist/stage/$site"
tar_of "dist/$site.tar.gz" -C dist/stage "$site"

# ---- 2. the npm package ----------------------------------------------------------------------
step "npm package: dist/mcts-playground-$version.tgz (npm pack)"
npm_dir=dist/stage/npm
stage_site "$npm_dir"
sed "s/@VERSION@/$version/g" www/npm-README.md >"$npm_dir/README.md"
VERSION=$version node -e '
const fs = require("fs");
const pkg = {
  name: "mcts-playground",
  version: process.env.VERSION,
  description: "The MCTS playground as a web component: <mcts-playground> plays Hex, Tic-Tac-Toe, Pentago and Connect Four against a Monte Carlo Tree Search engine (WebAssembly in a Web Worker) in any page, with one script tag.",
  license: "MIT",
  keywords: ["mcts", "monte-carlo-tree-search", "hex", "web-component", "webassembly", "teaching"],
  // The element is a classic script (an IIFE) that defines <mcts-playground> and frames index.html
  // next to it: load it with <script src>, not from a bundler.
  browser: "embed.js",
  unpkg: "embed.js",
  jsdelivr: "embed.js",
  // book/: the framed page links to it (the Book link of its header), so it ships too.
  files: ["*.html", "embed.js", "assets/", "models/", "book/", "LICENSE", "THIRD_PARTY_NOTICES", "README.md"],
  sideEffects: true,
};
fs.writeFileSync(process.argv[1] + "/package.json", JSON.stringify(pkg, null, 2) + "\n");
' "$npm_dir"
(cd "$npm_dir" && npm pack --quiet --pack-destination "$ROOT/dist" >/dev/null)

# ---- 3. the Python wheel ---------------------------------------------------------------------
step "Python wheel: maturin build --release (python/), the page inside"
# shellcheck source=scripts/find-python.sh
. scripts/find-python.sh
if [ -z "$py" ]; then echo "release.sh: no Python 3.11 or later: the wheel was not built" >&2; exit 1; fi
# maturin from the Python tests' environment (scripts/test-python.sh makes it, with the same pin);
# made here with maturin alone when it is missing.
venv=python/.venv
if [ ! -x "$venv/bin/maturin" ]; then
  [ -x "$venv/bin/python" ] || "$py" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check maturin==1.16.0
fi
bash python/bundle-page.sh
cp LICENSE python/mcts_playground/LICENSE
cp dist/stage/THIRD_PARTY_NOTICES.wheel python/mcts_playground/THIRD_PARTY_NOTICES
# The same build as scripts/test-python.sh's wheel (cargo rebuilds nothing after it).
(cd python && VIRTUAL_ENV="$PWD/.venv" PATH="$PWD/.venv/bin:$PATH" maturin build --release --quiet --out "$ROOT/dist" 2>&1 | { grep -v '^Ignoring ' || true; })

rm -rf dist/stage
step "release $version: dist/"
for f in dist/*; do
  printf '  %-52s %8s bytes\n' "$f" "$(wc -c <"$f")"
done
