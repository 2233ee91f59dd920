"""The cost of the Python door (a benchmark, not a test; prints JSON and the diff it ran).

    python python/benches/door.py [--mcts target/release/mcts] [--runs 5] [--calls 50]

- the same search (hex:11, rave, 100,000 iterations, seed 1) through Python
  (`mcts_playground.search`) and through the CLI (`mcts search --json`): `diff -u` of the two
  reports with their timing keys removed (nothing printed between the markers: the same report),
  the engine's own `elapsed_ms` in each, the wall time of the Python call and of the CLI process
  (median of --runs, the two doors alternating so machine load falls on both alike);
- the overhead per call of a small search (Tic-Tac-Toe and Hex 7×7, uct, 1,000 iterations): the
  wall time of `search()` minus the engine's `elapsed_ms` (the door's own cost: arguments, the
  GIL released and taken back, the report's JSON turned into a dict), median and 90th percentile
  over --calls calls; beside it the same for the CLI (a process per search).
The load average of the shared machine is printed before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from conftest import REPO, without_timing  # noqa: E402

import mcts_playground as mp  # noqa: E402


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def cli_search(mcts: str, game: str, preset: str, iterations: int, seed: int) -> tuple[dict, float]:
    t = time.perf_counter()
    out = subprocess.run([mcts, "search", "--game", game, "--algo", preset, "--iterations", str(iterations), "--seed", str(seed), "--json"],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout), (time.perf_counter() - t) * 1e3


def report_diff(py: dict, cli: dict) -> str:
    """`diff -u` of the two reports (timing keys removed, keys sorted, one value per line)."""
    with tempfile.TemporaryDirectory() as d:
        paths = []
        for name, r in (("python.json", py), ("cli.json", cli)):
            path = os.path.join(d, name)
            with open(path, "w") as f:
                json.dump(without_timing(r), f, indent=1, sort_keys=True)
                f.write("\n")
            paths.append(path)
        out = subprocess.run(["diff", "-u", "--label", "python", "--label", "mcts", *paths], capture_output=True, text=True)
        return out.stdout


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--mcts", default=str(REPO / "target" / "release" / "mcts"))
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--calls", type=int, default=50)
    a = p.parse_args()
    load_before = load()
    game, preset, iters, seed = "hex:11", "rave", 100_000, 1
    py_wall, py_engine, cli_wall, cli_engine = [], [], [], []
    diffs = set()
    for _ in range(a.runs):
        t = time.perf_counter()
        r = mp.search(mp.State(game), preset, iterations=iters, seed=seed)
        py_wall.append((time.perf_counter() - t) * 1e3)
        py_engine.append(r["elapsed_ms"])
        c, wall = cli_search(a.mcts, game, preset, iters, seed)
        cli_wall.append(wall)
        cli_engine.append(c["elapsed_ms"])
        diffs.add(report_diff(r, c))
    big = r
    small = {}
    for g in ["tictactoe", "hex:7"]:
        s = mp.State(g)
        mp.search(s, "uct", iterations=1000, seed=0)  # the first call pays for loading the module's code
        py_over, cli_over = [], []
        for i in range(a.calls):
            t = time.perf_counter()
            r = mp.search(s, "uct", iterations=1000, seed=i)
            py_over.append((time.perf_counter() - t) * 1e3 - r["elapsed_ms"])
            c, wall = cli_search(a.mcts, g, "uct", 1000, i)
            cli_over.append(wall - c["elapsed_ms"])
        q90 = lambda xs: sorted(xs)[int(0.9 * len(xs))]  # noqa: E731
        small[g] = {
            "calls": a.calls,
            "python_overhead_ms_median": round(statistics.median(py_over), 4),
            "python_overhead_ms_p90": round(q90(py_over), 4),
            "cli_overhead_ms_median": round(statistics.median(cli_over), 2),
        }
    med = lambda xs: round(statistics.median(xs), 1)  # noqa: E731
    print("--- diff -u (python, mcts) of the 100,000-iteration reports, timing keys removed:")
    for d in diffs:
        print(d, end="")
    print("--- end of diff")
    print(json.dumps({
        "load_average_before": load_before,
        "search": {"game": game, "preset": preset, "iterations": iters, "seed": seed, "runs": a.runs, "same_report": diffs == {""},
                   "keys_compared": len(without_timing(big)), "children_compared": len(big["children"]),
                   "python_engine_ms": med(py_engine), "python_call_ms": med(py_wall),
                   "cli_engine_ms": med(cli_engine), "cli_process_ms": med(cli_wall), "cli": a.mcts},
        "small_searches_1000_iterations": small,
        "load_average_after": load(),
    }, indent=1))


if __name__ == "__main__":
    main()
