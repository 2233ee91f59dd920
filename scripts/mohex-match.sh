#!/usr/bin/env bash
# One row of the table "our presets against MoHex 2.0" (the book, docs/research/mohex.md):
# `mcts gtp` with a preset against MoHex through `mcts match`, with MoHex set up for a fair,
# reproducible match (one thread, no book, no pondering, no parallel solver, no time
# management, no swap, fixed time or simulations per move).
#
#   bash scripts/mohex-match.sh --mohex PATH [--size 11] [--ours best] [--set k=v ...]
#        [--ms 1000 | --iterations N] [--mohex-time 1 | --mohex-games N] [--games 40]
#        [--openings FILE] [--out DIR] [--json]
#
# Defaults: Hex 11x11, `best` at 1,000 ms per move against MoHex at 1 s per move, 40 games on the
# 20 openings of tests/bench/openings/hex11-20.txt (hex9-20.txt on 9x9, hex7-20.txt on 7x7; every first move on
# smaller boards), colours swapped. MoHex floors its search time at 1 s: for shorter moves give
# it a number of simulations (--mohex-games) instead. Games go to DIR as SGF (default
# target/mohex-match/<size>-<ours>-<time>-vs-<mohex budget>-<date and time>: `mcts match` refuses
# a folder that already holds games), the standings to standard output.
# MoHex itself: bash scripts/mohex/build.sh SRC BUILD (Debian: cmake, Boost, Berkeley DB).
# MCTS_BIN=PATH plays another build of mcts (default target/release/mcts, built if missing).
set -euo pipefail
cd "$(dirname "$0")/.."

mohex="" size=11 ours=best ms=1000 iterations="" mohex_time=1 mohex_games="" games=40 openings="" out="" json=()
sets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --mohex) mohex=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --ours) ours=$2; shift 2 ;;
    --set) sets+=(--set "$2"); shift 2 ;;
    --ms) ms=$2; iterations=""; shift 2 ;;
    --iterations) iterations=$2; ms=""; shift 2 ;;
    --mohex-time) mohex_time=$2; shift 2 ;;
    --mohex-games) mohex_games=$2; shift 2 ;;
    --games) games=$2; shift 2 ;;
    --openings) openings=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --json) json=(--json); shift ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "mohex-match.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
if [ -z "$mohex" ] || [ ! -x "$mohex" ]; then
  echo "mohex-match.sh: --mohex PATH must name the MoHex executable (build it: bash scripts/mohex/build.sh SRC BUILD)" >&2
  exit 2
fi
if [ -z "$openings" ]; then
  if [ -f "tests/bench/openings/hex$size-20.txt" ]; then openings="tests/bench/openings/hex$size-20.txt"; else openings=all; fi
fi
mcts=${MCTS_BIN:-target/release/mcts}
[ -x "$mcts" ] || cargo build --release --quiet --bin mcts

budget=(--ms "$ms"); label="${ms}ms"
if [ -n "$iterations" ]; then budget=(--iterations "$iterations"); label="${iterations}it"; fi
mohex_budget=(--setup-b "param_mohex max_time $mohex_time"); mlabel="${mohex_time}s"
if [ -n "$mohex_games" ]; then mohex_budget+=(--setup-b "param_mohex max_games $mohex_games"); mlabel="${mohex_games}sims"; fi
out=${out:-target/mohex-match/hex$size-$ours-$label-vs-$mlabel-$(date +%Y%m%d-%H%M%S)}

exec "$mcts" match --game "hex:$size" --games "$games" --openings "$openings" --sgf "$out" "${json[@]}" \
  --a "$mcts gtp --game hex:$size --algo $ours ${sets[*]} ${budget[*]}" --name-a "$(echo mcts $ours ${sets[*]} ${budget[*]})" \
  --b "$mohex" --name-b "MoHex 2.0 ($mlabel)" \
  --setup-b "param_mohex num_threads 1" --setup-b "param_mohex use_parallel_solver 0" \
  --setup-b "param_mohex ponder 0" --setup-b "param_mohex use_time_management 0" \
  --setup-b "param_mohex extend_unstable_search 0" --setup-b "param_game allow_swap 0" \
  "${mohex_budget[@]}"
