#!/usr/bin/env bash
# Strength table: every enhancement preset against plain UCT and against RAVE, at a fixed number
# of iterations per move, on Hex 7×7, Hex 11×11, Pentago and Pentago-Twist, with `mcts arena`.
# Writes docs/strength.jsonl (one `mcts arena --json` object per match, records dropped) and
# docs/strength.md (the table the README quotes).
#
# Usage: bash scripts/strength.sh [GAMES_PER_MATCH=200] [ITERATIONS=1000] [SPECS...]
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-200}
iters=${2:-1000}
shift 2 2>/dev/null || true
specs=("$@")
[ ${#specs[@]} -gt 0 ] || specs=(hex:7 hex:11 pentago pentago:twist)
presets=(rave grave decisive lgr lgrf2 poolrave mast qb depth2 solver puct best)
cargo build --release --quiet
out=docs/strength.jsonl
mkdir -p docs
: > "$out"
for spec in "${specs[@]}"; do
  for opp in uct rave; do
    for p in "${presets[@]}"; do
      [ "$p" = "$opp" ] && continue
      echo "$spec: $p vs $opp ($games games, $iters iterations/move)" >&2
      ./target/release/mcts arena --game "$spec" --a "$p" --b "$opp" --games "$games" \
        --iterations "$iters" --seed 1 --json \
        | python3 -c 'import json,sys; d=json.load(sys.stdin); d.pop("records"); print(json.dumps(d))' >> "$out"
    done
  done
done
python3 - "$out" "$games" "$iters" > docs/strength.md <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(f"# Strength of each enhancement (`bash scripts/strength.sh {sys.argv[2]} {sys.argv[3]}`)\n")
print(f"{sys.argv[2]} games per match, {sys.argv[3]} iterations per move, colours alternating, seed 1. "
      "Win rate of the preset (draws count ½) with its 95% Wilson interval; Elo difference from the win rate.\n")
for spec in dict.fromkeys(r["game"] for r in rows):
    print(f"## {spec}\n")
    print("| preset | opponent | W-D-L | win rate | 95% CI | Elo | verdict |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        if r["game"] != spec:
            continue
        lo, hi = r["win_rate_ci95"]
        elo = ("+∞" if r["win_rate"] > 0.5 else "−∞") if r["elo"] is None else f'{r["elo"]:+.0f}'
        verdict = "stronger" if lo > 0.5 else ("weaker" if hi < 0.5 else "no clear difference")
        print(f'| {r["a"]} | {r["b"]} | {r["wins"]}-{r["draws"]}-{r["losses"]} | {r["win_rate"]:.3f} | '
              f'[{lo:.3f}, {hi:.3f}] | {elo} | {verdict} |')
    print()
PY
echo "wrote docs/strength.md" >&2
