#!/usr/bin/env bash
# The Python package's tests (scripts/test.sh, step 6; runs alone too, after
# `bash scripts/serve.sh --build-only` for the widget's page):
#   - a virtual environment python/.venv (made once) with the pinned build and test tools:
#     maturin, pytest, NumPy, anywidget and Ray (the `ray` extra; MCTS_PYTHON_RAY=0 leaves Ray out
#     and its tests are skipped);
#   - the built page (www/dist) copied into the package for the widget (python/bundle-page.sh);
#   - the extension built once, optimised, and installed in place (maturin develop --release:
#     cargo rebuilds only what changed);
#   - a wheel of the package installed the documented way ('WHEEL[notebook]') in a new virtual
#     environment python/.venv-as-installed, whose kernel runs the example notebook (test_notebook.py);
#   - pytest python/tests, against this checkout's `mcts` (target/debug/mcts, the test profile's);
#   - python/tests/jupyterlab.test.mjs: JupyterLab in Chromium runs a cell that makes the widget,
#     the board renders, a move made on it reaches the kernel.
# Skipped with a message, status 0, only when there is no Python 3.11+ interpreter at all.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
# shellcheck source=scripts/find-python.sh
. scripts/find-python.sh
if [ -z "$py" ]; then
  echo "test-python.sh: SKIPPED: no Python 3.11 or later on this machine (python3 not found or too old); the Python package was not tested"
  exit 0
fi
venv=python/.venv
if [ ! -x "$venv/bin/python" ]; then
  if ! "$py" -m venv "$venv" 2>/dev/null; then
    # Debian's python3 splits venv into a package of its own.
    as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv
    rm -rf "$venv"
    "$py" -m venv "$venv"
  fi
fi
pins=(maturin==1.16.0 pytest==9.2.0 numpy==2.4.6 anywidget==0.11.0 nbclient==0.11.0 ipykernel==7.4.0 matplotlib==3.11.2 jupyterlab==4.6.6 mypy==2.4.1)
[ "${MCTS_PYTHON_RAY:-1}" = 1 ] && pins+=(ray==2.60.0)
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${pins[@]}"
if [ -f www/dist/index.html ]; then
  bash python/bundle-page.sh
  export MCTS_REQUIRE_PAGE=1
else
  echo "test-python.sh: www/dist is not built: the widget's tests use a stand-in page"
fi
# (pip's "Ignoring <extra>: markers ..." lines are noise: the extras are installed above.)
(cd python && VIRTUAL_ENV="$PWD/.venv" PATH="$PWD/.venv/bin:$PATH" maturin develop --release --quiet 2>&1 | { grep -v '^Ignoring ' || true; })
# The example notebook as a teacher installs it (python/README.md): a wheel of this checkout (the
# same optimised build as above, so cargo rebuilds little), a new virtual environment with
# `pip install 'WHEEL[notebook]'` and nothing else, and that environment's own Jupyter kernel;
# test_notebook.py runs the notebook with it (a module the documented install lacks fails there).
status=0
user_venv=python/.venv-as-installed
rm -rf "$user_venv" python/target/wheels
if (cd python && VIRTUAL_ENV="$PWD/.venv" PATH="$PWD/.venv/bin:$PATH" maturin build --release --quiet 2>&1 | { grep -v '^Ignoring ' || true; }) &&
  wheel=$(ls python/target/wheels/mcts_playground-*.whl) &&
  "$py" -m venv "$user_venv" &&
  "$user_venv/bin/python" -m pip install --quiet --disable-pip-version-check "$wheel[notebook]" &&
  "$user_venv/bin/python" -m ipykernel install --prefix "$PWD/$user_venv" --name mcts-as-installed --display-name "mcts (as installed)" >/dev/null; then
  export MCTS_NOTEBOOK_VENV="$PWD/$user_venv"
else
  echo "test-python.sh: the documented install (wheel + pip install '.[notebook]' in a new environment) failed" >&2
  status=1
fi
# The test profile: the `mcts` that `cargo test` (step 2) already built, so nothing is rebuilt.
cargo build --quiet --profile test --bin mcts
MCTS_BIN="$PWD/target/debug/mcts" "$venv/bin/python" -m pytest python/tests -q -p no:cacheprovider || status=$?
# The widget in JupyterLab, in Chromium (the browser tests' playwright-core and Chromium): a cell
# creates it, the board renders, a move made on it reaches the kernel.
if [ -f www/dist/index.html ] && [ -d www/node_modules/playwright-core ] && [ -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
  node --test python/tests/jupyterlab.test.mjs || status=1
else
  echo "test-python.sh: the JupyterLab browser test needs the built page, www/node_modules and Chromium (scripts/test.sh installs them); not run"
fi
exit "$status"
