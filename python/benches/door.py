"""The cost of the Python door (a benchmark, not a test; prints one JSON object).

    python python/benches/door.py [--mcts target/release/mcts] [--runs 5]

- the same search (hex:11, rave, 100,000 iterations, seed 1) through Python and through the CLI:
  whether the reports are the same (timing keys aside), the engine's own `elapsed_ms` in each,
  and the wall time of the Python call and of the CLI process;
- the overhead per call of small searches (tictactoe and hex:7, 1,000 iterations): the wall time
  of `search()` minus the engine's `elapsed_ms`, median over the calls.
Runs alternate between the two doors (median of --runs), so machine load falls on both alike.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from conftest import REPO, without_timing  # noqa: E402

import mcts_playground as mp  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--mcts", default=str(REPO / "target" / "release" / "mcts"))
    p.add_argument("--runs", type=int, default=5)
    a = p.parse_args()
    game, preset, iters, seed = "hex:11", "rave", 100_000, 1
    py_wall, py_engine, cli_wall, cli_engine, same = [], [], [], [], True
    for _ in range(a.runs):
        t = time.perf_counter()
        r = mp.search(mp.State(game), preset, iterations=iters, seed=seed)
        py_wall.append((time.perf_counter() - t) * 1e3)
        py_engine.append(r["elapsed_ms"])
        t = time.perf_counter()
        out = subprocess.run([a.mcts, "search", "--game", game, "--algo", preset, "--iterations", str(iters), "--seed", str(seed), "--json"],
                             capture_output=True, text=True, check=True)
        cli_wall.append((time.perf_counter() - t) * 1e3)
        c = json.loads(out.stdout)
        cli_engine.append(c["elapsed_ms"])
        same = same and without_timing(r) == without_timing(c)
    small = {}
    for g in ["tictactoe", "hex:7"]:
        s = mp.State(g)
        over = []
        for i in range(200):
            t = time.perf_counter()
            r = mp.search(s, "uct", iterations=1000, seed=i)
            over.append((time.perf_counter() - t) * 1e3 - r["elapsed_ms"])
        small[g] = {"calls": len(over), "overhead_ms_median": statistics.median(over), "overhead_ms_p90": sorted(over)[int(0.9 * len(over))]}
    med = statistics.median
    print(json.dumps({
        "search": {"game": game, "preset": preset, "iterations": iters, "seed": seed, "runs": a.runs, "same_report": same,
                   "python_engine_ms": med(py_engine), "python_call_ms": med(py_wall),
                   "cli_engine_ms": med(cli_engine), "cli_process_ms": med(cli_wall), "cli": a.mcts},
        "small_searches_1000_iterations": small,
    }, indent=1))


if __name__ == "__main__":
    main()
