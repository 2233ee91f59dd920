#!/usr/bin/env bash
# Copies the built page (www/dist, from `bash scripts/serve.sh --build-only`) into the Python
# package (python/mcts_playground/page/), where the notebook widget serves it from and the wheel
# and sdist include it (pyproject.toml, [tool.maturin] include). Run it before building the wheel
# (`pip install ./python`); without it the package installs and works, and only the widget says
# that its page is missing (or uses $MCTS_PLAYGROUND_PAGE).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f www/dist/index.html ] || [ ! -f www/dist/embed.js ]; then
  echo "bundle-page.sh: www/dist is not built (run: bash scripts/serve.sh --build-only)" >&2
  exit 1
fi
rm -rf python/mcts_playground/page
cp -r www/dist python/mcts_playground/page
echo "bundle-page.sh: $(du -sh python/mcts_playground/page | cut -f1) of page copied into python/mcts_playground/page"
