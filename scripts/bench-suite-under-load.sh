#!/usr/bin/env bash
# The test suite under load, as a benchmark of the suite itself: a fresh clone of this
# repository's committed HEAD beside this checkout (so that ../shared is beside it, as in CI), then
# RUNS (default 3) runs in a row of `CI=true bash .ci/run` in that clone while `stress-ng --cpu
# 2×cores` and a second Chromium playing engine against engine at an hour per move
# (tests/bench/long-search.mjs, serving this checkout's www/dist) compete for the machine.
# Prints each run's duration, exit status and the runners' summary lines; asserts nothing.
#
#   bash scripts/bench-suite-under-load.sh        # 3 runs
#   bash scripts/bench-suite-under-load.sh 1      # 1 run
#   SEED_TARGET=../old-clone/target bash scripts/bench-suite-under-load.sh
#                                                 # the clone starts with a copy of that cargo
#                                                 # target directory (a build cache, as CI caches
#                                                 # have): a cold first run under this load takes
#                                                 # well over 90 min, most of it compiling burn
#
# Needs this checkout built (bash scripts/serve.sh --build-only, for the second Chromium) and
# installs stress-ng (Debian) when it is missing. Logs: $WORK/run-N.log (printed).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
RUNS=${1:-3}
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
if ! command -v stress-ng >/dev/null; then
  as_root apt-get update -qq && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq stress-ng
fi
[ -f www/dist/index.html ] || bash scripts/serve.sh --build-only

WORK=$(mktemp -d "$(dirname "$ROOT")/suite-under-load.XXXX")
git clone -q "$ROOT" "$WORK/clone"
# The clone sits one level deeper; CI has ../shared beside the clone.
[ -e "$WORK/shared" ] || ln -s "$(dirname "$ROOT")/shared" "$WORK/shared"
echo "fresh clone of $(git rev-parse --short HEAD) in $WORK/clone"
if [ -n "${SEED_TARGET:-}" ]; then
  cp -a "$SEED_TARGET" "$WORK/clone/target"
  echo "cargo target directory seeded from $SEED_TARGET ($(du -sh "$WORK/clone/target" | cut -f1))"
fi

cpus=$(nproc)
stress-ng --cpu $((2 * cpus)) --timeout 0 --quiet &
stress=$!
node tests/bench/long-search.mjs &
chrome=$!
trap 'kill $stress $chrome 2>/dev/null; wait 2>/dev/null' EXIT

for i in $(seq 1 "$RUNS"); do
  log="$WORK/run-$i.log"
  t0=$(date +%s)
  (cd "$WORK/clone" && CI=true bash .ci/run </dev/null >"$log" 2>&1)
  rc=$?
  t1=$(date +%s)
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  echo "run $i: exit $rc, $((t1 - t0)) s, load average at the end $load, log $log"
  grep -E '^# (pass|fail) |^test result: .*(FAILED|failed: [1-9])|test.sh: FAILED' "$log" | sed 's/^/    /'
done
