"""Arena throughput on Ray against `mcts arena` (a benchmark, not a test; prints JSON lines).

    python python/benches/ray_arena.py [--games 98] [--iterations 2000] [--repeat 3] [--mcts PATH]
        [--only cli,ray,nodes] [--games-per-task 2]

The match: hex:7, rave (A) against uct (B), N iterations per move, seed 1, `--games` games
(98 = one round of openings: every first move, colours swapped). Each row has the wall time of
the match, games per second (games / that time; Ray's start-up not counted), the load average
of the machine when the row was printed (it is shared: figures move with it), and whether the
report equals `mcts arena --threads 2 --json` of the same match (timing keys aside). `cli` and
`ray` run each configuration `--repeat` times in turn (the configurations alternating, so that
load falls on all alike) and give every run and the median games per second.

- `cli`: `mcts arena ... --threads 1` and `--threads 2`;
- `ray`: the same match as Ray tasks (`mcts_playground.distributed.arena_with`) on a local node
  with 1 CPU and on one with 2 CPUs (two single-node instances, both started first), i.e. 1 and
  2 Ray worker processes playing games;
- `nodes`: two Ray nodes on this machine, a head and a second node joining it
  (`ray start --head`, `ray start --address HEAD`, each with its own temp dir and ports, 1 CPU
  each); every task writes the node it ran on to a log, and one worker process is killed
  (SIGKILL, by its process id, while it plays a task) mid-run: the row gives the tasks each node
  played, the killed process and the games it was playing, and whether the standings are still
  complete (one record per game) and identical to the CLI's.
Ray nodes are started as in the tests (python/tests/local_ray.py) and stopped at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from conftest import REPO, without_timing  # noqa: E402
from local_ray import connect, start_node  # noqa: E402  (before ray: its authentication mode)

from mcts_playground import distributed  # noqa: E402


def match(games: int, iterations: int) -> dict:
    return {"game": "hex:7", "a": "rave", "b": "uct", "set_a": [], "set_b": [], "games": games, "openings": None,
            "iterations": iterations, "ms": None, "clock": "wall", "seed": 1, "net": None}


def cli(mcts: str, m: dict, threads: int) -> tuple[dict, float]:
    t = time.perf_counter()
    out = subprocess.run([mcts, "arena", "--game", m["game"], "--a", m["a"], "--b", m["b"], "--games", str(m["games"]),
                          "--iterations", str(m["iterations"]), "--seed", str(m["seed"]), "--threads", str(threads), "--json"],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout), time.perf_counter() - t


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def row(**kw: object) -> None:
    print(json.dumps({**kw, "load_average": load()}), flush=True)


def timed_start(**kw: object):  # noqa: ANN201 - a RayNode
    """`start_node`, with a row saying how long `ray start` took to say it started."""
    t = time.perf_counter()
    node = start_node(**kw)  # type: ignore[arg-type]
    row(event="ray start", cpus=kw["cpus"], joins=kw.get("head_address"), seconds_to_start=round(time.perf_counter() - t, 1))
    return node


def traced_play_task(log: str):
    """`distributed.play_task` that appends each task's start and end (node id, process id, the
    games) to `log` (a file both nodes on this machine can write)."""
    play = distributed.play_task

    def traced(kwargs, indices):  # noqa: ANN001, ANN202 - as play_task
        import ray

        node = ray.get_runtime_context().get_node_id()
        with open(log, "a") as f:
            f.write(json.dumps({"event": "start", "node": node, "pid": os.getpid(), "games": list(indices)}) + "\n")
        out = play(kwargs, indices)
        with open(log, "a") as f:
            f.write(json.dumps({"event": "done", "node": node, "pid": os.getpid(), "games": list(indices)}) + "\n")
        return out

    return traced


def read_log(log: str) -> list[dict]:
    try:
        with open(log) as f:
            return [json.loads(line) for line in f if line.strip()]
    except FileNotFoundError:
        return []


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=98)
    p.add_argument("--iterations", type=int, default=2000)
    p.add_argument("--mcts", default=str(REPO / "target" / "release" / "mcts"))
    p.add_argument("--only", default="cli,ray,nodes")
    p.add_argument("--games-per-task", type=int, default=2)
    p.add_argument("--repeat", type=int, default=3)
    a = p.parse_args()
    only = set(a.only.split(","))
    m = match(a.games, a.iterations)
    ref, _ = cli(a.mcts, m, 2)
    same = lambda r: without_timing(r) == without_timing(ref)  # noqa: E731
    row(match=f"hex:7 rave vs uct, {a.iterations} iterations per move, seed 1", games=a.games, mcts=a.mcts, cpus=os.cpu_count())
    runs: dict[str, list[float]] = {}

    def record(door: str, r: dict, secs: float, **kw: object) -> None:
        runs.setdefault(door, []).append(r["games"] / secs)
        row(door=door, games=r["games"], seconds=round(secs, 2), games_per_s=round(r["games"] / secs, 3), same=same(r), **kw)

    import ray

    if "cli" in only:
        for _ in range(a.repeat):
            for threads in (1, 2):
                r, secs = cli(a.mcts, m, threads)
                record(f"mcts arena --threads {threads}", r, secs)
    if "ray" in only:
        with (
            tempfile.TemporaryDirectory(prefix="m1", dir="/tmp") as d1,
            tempfile.TemporaryDirectory(prefix="m2", dir="/tmp") as d2,
            timed_start(cpus=1, temp_dir=d1) as one,
            timed_start(cpus=2, temp_dir=d2) as two,
        ):
            for _ in range(a.repeat):
                for cpus, node in ((1, one), (2, two)):
                    connect(ray, node.address)
                    try:
                        t = time.perf_counter()
                        r = distributed.arena_with(m, cluster=True, games_per_task=a.games_per_task)
                        secs = time.perf_counter() - t
                        door = f"Ray, one local node, {cpus} CPU(s) = {cpus} worker process(es)"
                        record(door, r, secs, games_per_task=a.games_per_task)
                    finally:
                        ray.shutdown()
    for door, xs in runs.items():
        row(door=door, runs=len(xs), median_games_per_s=round(statistics.median(xs), 3), all_games_per_s=[round(x, 3) for x in xs])
    if "nodes" in only:
        with (
            tempfile.TemporaryDirectory(prefix="mh", dir="/tmp") as head_dir,
            tempfile.TemporaryDirectory(prefix="mw", dir="/tmp") as node_dir,
            tempfile.TemporaryDirectory(prefix="ml", dir="/tmp") as log_dir,
            timed_start(cpus=1, temp_dir=head_dir) as head,
            timed_start(cpus=1, temp_dir=node_dir, head_address=head.address),
        ):
            connect(ray, head.address)
            log = os.path.join(log_dir, "tasks.jsonl")
            original = distributed.play_task
            distributed.play_task = traced_play_task(log)
            killed: list[dict] = []

            def killer() -> None:
                # The first task that starts after games 0..3 have started: kill its process.
                while not killed:
                    for e in read_log(log):
                        if e["event"] == "start" and min(e["games"]) >= 4:
                            os.kill(e["pid"], signal.SIGKILL)
                            killed.append(e)
                            return
                    time.sleep(0.05)

            try:
                nodes = {n["NodeID"]: n["Alive"] for n in ray.nodes()}
                th = threading.Thread(target=killer, daemon=True)
                th.start()
                t = time.perf_counter()
                r = distributed.arena_with(m, cluster=True, games_per_task=a.games_per_task)
                secs = time.perf_counter() - t
                done: dict[str, int] = {}
                for e in read_log(log):
                    if e["event"] == "done":
                        done[e["node"]] = done.get(e["node"], 0) + 1
                row(door="Ray, two nodes on this machine (1 CPU each), a worker killed mid-run",
                    head=head.address, alive_nodes=sum(nodes.values()), node_ids=sorted(nodes), tasks_done_per_node=done,
                    killed={"pid": killed[0]["pid"], "node": killed[0]["node"], "games": killed[0]["games"]} if killed else None,
                    games=r["games"], records=len(r["records"]), indices_complete=[x["index"] for x in r["records"]] == list(range(a.games)),
                    seconds=round(secs, 2), games_per_s=round(r["games"] / secs, 3), same=same(r))
            finally:
                distributed.play_task = original
                ray.shutdown()


if __name__ == "__main__":
    main()
