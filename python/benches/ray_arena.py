"""Arena throughput on Ray against `mcts arena` (a benchmark, not a test; prints JSON lines).

    python python/benches/ray_arena.py [--games 20] [--iterations 2000] [--mcts PATH]
        [--only cli,ray,kill,nodes] [--address 127.0.0.1:6391]

- `cli`: `mcts arena --game hex:7 --a rave --b uct --iterations N --threads 1` and `--threads 2`;
- `ray`: the same match as Ray tasks on a local instance with 1 and 2 worker CPUs
  (`ray.init(num_cpus=k)`); each row says whether the report equals the CLI's (timing aside);
- `kill`: the 2-CPU run with one Ray worker process killed (SIGKILL, by its process id) while it
  plays a task: the standings must still be complete and identical;
- `nodes`: with `--address` of a running cluster (e.g. a head and a second node started with
  `ray start`), tasks report the node they ran on.
Games per second = games / the run's wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from conftest import REPO, without_timing  # noqa: E402

from mcts_playground import distributed  # noqa: E402


def match(games: int, iterations: int) -> dict:
    return {"game": "hex:7", "a": "rave", "b": "uct", "set_a": [], "set_b": [], "games": games, "openings": None,
            "iterations": iterations, "ms": None, "clock": "wall", "seed": 1, "net": None}


def cli(mcts: str, m: dict, threads: int) -> tuple[dict, float]:
    t = time.perf_counter()
    out = subprocess.run([mcts, "arena", "--game", m["game"], "--a", m["a"], "--b", m["b"], "--games", str(m["games"]),
                          "--iterations", str(m["iterations"]), "--seed", "1", "--threads", str(threads), "--json"],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout), time.perf_counter() - t


def worker_pids() -> list[int]:
    out = subprocess.run(["pgrep", "-f", "ray::play_task"], capture_output=True, text=True)
    return [int(p) for p in out.stdout.split()]


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--iterations", type=int, default=2000)
    p.add_argument("--mcts", default=str(REPO / "target" / "release" / "mcts"))
    p.add_argument("--only", default="cli,ray,kill")
    p.add_argument("--address")
    a = p.parse_args()
    only = set(a.only.split(","))
    m = match(a.games, a.iterations)
    ref, _ = cli(a.mcts, m, 2)
    row = lambda **kw: print(json.dumps(kw), flush=True)  # noqa: E731
    if "cli" in only:
        for threads in (1, 2):
            r, secs = cli(a.mcts, m, threads)
            row(door="cli", threads=threads, games=r["games"], seconds=round(secs, 2), games_per_s=round(r["games"] / secs, 3),
                same=without_timing(r) == without_timing(ref))
    # On a loaded machine Ray's agent may take longer than the raylet's default wait (tests too).
    os.environ.setdefault("RAY_raylet_start_wait_time_s", "120")
    os.environ.setdefault("RAY_agent_register_timeout_ms", "120000")
    import ray

    if "ray" in only or "kill" in only:
        for cpus in (1, 2):
            if "ray" not in only and cpus == 1:
                continue
            ray.init(num_cpus=cpus, include_dashboard=False)
            try:
                if "ray" in only:
                    t = time.perf_counter()
                    r = distributed.arena_with(m, cluster=True, games_per_task=1)
                    secs = time.perf_counter() - t
                    row(door="ray", cpus=cpus, games=r["games"], seconds=round(secs, 2), games_per_s=round(r["games"] / secs, 3),
                        same=without_timing(r) == without_timing(ref))
                if "kill" in only and cpus == 2:
                    killed: list[int] = []

                    def killer() -> None:
                        while not killed:
                            pids = worker_pids()
                            if pids:
                                os.kill(pids[0], signal.SIGKILL)
                                killed.append(pids[0])
                                return
                            time.sleep(0.05)

                    th = threading.Thread(target=killer, daemon=True)
                    th.start()
                    t = time.perf_counter()
                    r = distributed.arena_with(m, cluster=True, games_per_task=2)
                    secs = time.perf_counter() - t
                    row(door="ray, a worker killed", cpus=cpus, killed_pid=killed[:1], games=r["games"], records=len(r["records"]),
                        seconds=round(secs, 2), same=without_timing(r) == without_timing(ref))
            finally:
                ray.shutdown()
    if "nodes" in only and a.address:
        ray.init(address=a.address)

        @ray.remote(num_cpus=1)
        def where(indices: list[int]) -> tuple[str, list]:
            return ray.get_runtime_context().get_node_id(), distributed.play_task(m, indices)

        t = time.perf_counter()
        parts = ray.get([where.remote(ix) for ix in distributed.plan_tasks(m["games"], 1)])
        secs = time.perf_counter() - t
        from mcts_playground import _core

        recs = distributed.merge_records([p for _, p in parts], m["games"])
        r = json.loads(_core.arena_report(**m, records=json.dumps(recs), seconds=secs))
        nodes: dict[str, int] = {}
        for node, _ in parts:
            nodes[node[:8]] = nodes.get(node[:8], 0) + 1
        row(door="ray cluster", address=a.address, alive_nodes=len([n for n in ray.nodes() if n["Alive"]]), tasks_per_node=nodes,
            games=r["games"], seconds=round(secs, 2), same=without_timing(r) == without_timing(ref))
        ray.shutdown()


if __name__ == "__main__":
    main()
