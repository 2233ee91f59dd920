#!/usr/bin/env bash
# The preset comparison table: every enhancement preset against plain UCT and against RAVE, on
# each game, at equal playouts (iterations per move) and at equal time (milliseconds per move),
# with `mcts arena` (colours alternating, seed 1). Writes
#   OUT.json  one object: {"command", "date", "games_per_match", "iterations", "ms", "rows": [...]}
#             where each row is one `mcts arena --json` object without its game records, plus
#             "budget": "playouts" | "time";
#   OUT.md    the Markdown table the docs show (win rate of the preset with its 95% Wilson
#             interval), headed by the command and the date it was made.
#
# Usage: bash scripts/preset-table.sh [--games N=200] [--iterations N=2000] [--ms T=100]
#          [--specs "hex:7 hex:11 pentago"] [--presets "rave grave ..."] [--out docs/preset-table]
#          [--threads N] [--clock cpu|wall] [--resume] [--ray ADDRESS]
# --iterations 0 or --ms 0 leaves that budget out. --clock (default cpu): equal time is measured on
# each searching thread's CPU time (`mcts arena --clock cpu`), so other work on the machine slows
# the run down without changing how much each move computes; `wall` measures elapsed time.
# --ray ADDRESS plays each match's games as tasks on a Ray cluster (`python -m
# mcts_playground.distributed`, the Python package in python/, with the `ray` extra, in
# $MCTS_PYTHON or python/.venv/bin/python): the same JSON as `mcts arena --json`, every game the
# same for an iteration budget; each match keeps its finished games in OUT.ckpt/<match>.jsonl, so
# a match cut short (a driver stopped, a task that failed past its retries) resumes there with
# --resume. Every node must have the package installed.
# A full run (200 games per cell, 3 games, 2 budgets, 23 matches each) takes hours on a few
# cores; a small run proves the pipeline.
set -euo pipefail
cd "$(dirname "$0")/.."
games=200
iters=2000
ms=100
specs="hex:7 hex:11 pentago"
presets="rave grave decisive lgr lgrf2 poolrave mast qb depth2 solver puct best"
out=docs/preset-table
threads=""
clock=cpu
resume=0
ray=""
cmd="bash scripts/preset-table.sh $*"
while [ $# -gt 0 ]; do
  case "$1" in
    --games) games=$2; shift 2 ;;
    --iterations) iters=$2; shift 2 ;;
    --ms) ms=$2; shift 2 ;;
    --specs) specs=$2; shift 2 ;;
    --presets) presets=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --threads) threads="--threads $2"; shift 2 ;;
    --clock) clock=$2; shift 2 ;;
    --resume) resume=1; shift ;;
    --ray) ray=$2; shift 2 ;;
    -h|--help) sed -n 2,22p "$0"; exit 0 ;;
    *) echo "preset-table.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[ -n "$ray" ] || cargo build --release --quiet
mkdir -p "$(dirname "$out")"
pyexe=${MCTS_PYTHON:-python/.venv/bin/python}
if [ -n "$ray" ] && ! "$pyexe" -c 'import mcts_playground.distributed, ray' 2>/dev/null; then
  echo "preset-table.sh: --ray needs the Python package with Ray in $pyexe (bash scripts/test-python.sh makes python/.venv; or set MCTS_PYTHON)" >&2
  exit 2
fi
# One match: `mcts arena --json`, or its Ray twin with the same options.
arena() {
  if [ -n "$ray" ]; then
    mkdir -p "$out.ckpt"
    local ckpt
    ckpt="$out.ckpt/$(printf '%s' "$*" | tr -c 'A-Za-z0-9.=-' '_').jsonl"
    [ "$resume" = 1 ] || rm -f "$ckpt"
    "$pyexe" -m mcts_playground.distributed --address "$ray" --checkpoint "$ckpt" "$@"
  else
    # shellcheck disable=SC2086
    ./target/release/mcts arena "$@" $threads
  fi
}
# Rows are appended to OUT.rows.jsonl as each match ends, so an interrupted run keeps what it
# finished (--resume skips the matches already there). A match that fails (an engine error) is
# recorded as a row with "error" and the table goes on; the script then exits non-zero.
rows="$out.rows.jsonl"
[ "$resume" = 1 ] || : > "$rows"
failed=0
budgets=()
[ "$iters" != 0 ] && budgets+=("playouts")
[ "$ms" != 0 ] && budgets+=("time")
for spec in $specs; do
  for budget in "${budgets[@]}"; do
    if [ "$budget" = playouts ]; then flag=(--iterations "$iters"); else flag=(--ms "$ms" --clock "$clock"); fi
    for opp in uct rave; do
      for p in $presets; do
        [ "$p" = "$opp" ] && continue
        if [ "$resume" = 1 ] && python3 -c 'import json,sys; sys.exit(0 if any((r["game"],r["a"],r["b"],r["budget"])==tuple(sys.argv[2:6]) for r in map(json.loads, open(sys.argv[1]))) else 1)' "$rows" "$spec" "$p" "$opp" "$budget"; then
          echo "$spec: $p vs $opp (${flag[*]}) already in $rows" >&2
          continue
        fi
        echo "$spec: $p vs $opp, $games games, ${flag[*]}" >&2
        # Standard error apart (notes; Ray's own log lines): the JSON alone is the result.
        if ! res=$(arena --game "$spec" --a "$p" --b "$opp" --games "$games" "${flag[@]}" --seed 1 --json 2>"$out.stderr"); then
          res="$res$(tail -n 5 "$out.stderr")"
          echo "preset-table.sh: $spec $p vs $opp failed: $res" >&2
          failed=1
          python3 -c 'import json,sys; print(json.dumps({"game": sys.argv[1], "a": sys.argv[2], "b": sys.argv[3], "budget": sys.argv[4], "error": sys.argv[5]}))' "$spec" "$p" "$opp" "$budget" "$res" >> "$rows"
          continue
        fi
        printf '%s' "$res" | python3 -c 'import json,sys; d=json.load(sys.stdin); d.pop("records"); d["budget"]=sys.argv[1]; print(json.dumps(d))' "$budget" >> "$rows"
      done
    done
  done
done
python3 - "$rows" "$out" "$cmd" "$games" "$iters" "$ms" "$clock" <<'PY'
import json, sys, datetime
rows_file, out, cmd, games, iters, ms, clock = sys.argv[1:8]
rows = [json.loads(l) for l in open(rows_file)]
date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
doc = {"command": cmd, "date": date, "games_per_match": int(games), "iterations": int(iters), "ms": float(ms), "clock": clock, "rows": rows}
with open(out + ".json", "w") as f:
    json.dump(doc, f, indent=1)
    f.write("\n")

def cell(r):
    if r is None:
        return "—"
    if "error" in r:
        return "error (see the JSON)"
    lo, hi = r["win_rate_ci95"]
    mark = "**" if lo > 0.5 or hi < 0.5 else ""
    return f'{mark}{r["win_rate"]:.2f}{mark} [{lo:.2f}, {hi:.2f}]'

budget_name = {"playouts": f"equal playouts ({iters} per move)", "time": f"equal time ({ms} ms per move" + (" of thread CPU time)" if clock == "cpu" else ", wall clock)")}
lines = [f"# Presets compared: each against UCT and against RAVE\n",
         f"Made on {date} by `{cmd}`: {games} games per cell, colours alternating, seed 1. "
         "Each cell is the win rate of the row's preset (draws count ½) with its 95% Wilson interval; "
         "**bold** when the interval excludes 0.5.\n"]
specs = list(dict.fromkeys(r["game"] for r in rows))
for budget in dict.fromkeys(r["budget"] for r in rows):
    lines.append(f"## {budget_name[budget]}\n")
    head = "| preset | " + " | ".join(f"{s} vs uct | {s} vs rave" for s in specs) + " |"
    lines.append(head)
    lines.append("|---" * (1 + 2 * len(specs)) + "|")
    presets = list(dict.fromkeys(r["a"] for r in rows if r["budget"] == budget))
    for p in presets:
        cells = []
        for s in specs:
            for opp in ("uct", "rave"):
                r = next((r for r in rows if r["budget"] == budget and r["game"] == s and r["a"] == p and r["b"] == opp), None)
                cells.append(cell(r))
        lines.append(f"| {p} | " + " | ".join(cells) + " |")
    lines.append("")
with open(out + ".md", "w") as f:
    f.write("\n".join(lines))
print(f"wrote {out}.md and {out}.json", file=sys.stderr)
PY
exit "$failed"
