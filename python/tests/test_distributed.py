"""Matches split into tasks: every game and the standings equal `mcts arena --json` for the same
seed and iteration budget, whatever the tasks, their order, their failures and retries. Run on a
thread pool (no Ray needed) and, when Ray is installed, on a local Ray instance."""

from __future__ import annotations

import concurrent.futures
import json
import os
import pathlib
import socket
import subprocess
import sys
import tempfile

import pytest
from conftest import without_timing

import mcts_playground as mp
from mcts_playground import distributed

MATCH = {
    "game": "tictactoe",
    "a": "rave",
    "b": "uct",
    "set_a": [],
    "set_b": ["c=0.5"],
    "games": 10,
    "openings": None,
    "iterations": 150,
    "ms": None,
    "clock": "wall",
    "seed": 7,
    "net": None,
}
CLI_ARGS = ["arena", "--game", "tictactoe", "--a", "rave", "--b", "uct", "--set-b", "c=0.5", "--games", "10", "--iterations", "150", "--seed", "7"]


def test_tasks_cover_every_game_once() -> None:
    assert distributed.plan_tasks(7, 3) == [[0, 1, 2], [3, 4, 5], [6]]
    assert distributed.plan_tasks(0, 3) == []
    with pytest.raises(ValueError, match="at least 1"):
        distributed.plan_tasks(5, 0)


def test_merge_keeps_one_record_per_game_and_finds_missing_ones() -> None:
    rec = lambda i, s: {"index": i, "a_score": s}  # noqa: E731
    merged = distributed.merge_records([[rec(2, 1.0), rec(0, 0.0)], [rec(1, 0.5), rec(2, 1.0)]], 3)
    assert [r["index"] for r in merged] == [0, 1, 2]
    with pytest.raises(ValueError, match=r"1 of 3 games have no record: 1"):
        distributed.merge_records([[rec(0, 1.0), rec(2, 1.0)]], 3)
    with pytest.raises(ValueError, match="outside this match"):
        distributed.merge_records([[rec(5, 1.0)]], 3)


def test_tasks_on_a_pool_equal_the_cli(cli) -> None:
    expected = cli(*CLI_ARGS)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        for size in (1, 3, 10):
            report = distributed.arena_with(MATCH, cluster=pool, games_per_task=size)
            assert without_timing(report) == without_timing(expected), size
    # The public entry point, with the settings as mcts_playground.arena takes them.
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        report = mp.arena("tictactoe", "rave", "uct", overrides_b={"c": 0.5}, games=10, iterations=150, seed=7, cluster=pool, games_per_task=4)
    assert without_timing(report) == without_timing(expected)


class FlakyPool(concurrent.futures.ThreadPoolExecutor):
    """A pool whose first run of each task starting at a game in `fail_at` dies (as a killed
    worker), and whose first run of a task starting at a game in `twice` is played twice."""

    def __init__(self, fail_at: set[int], twice: set[int]) -> None:
        super().__init__(2)
        self.fail_at, self.twice = set(fail_at), set(twice)
        self.submitted: list[list[int]] = []

    def submit(self, fn, /, *args, **kwargs):  # type: ignore[override]
        indices = args[1]
        self.submitted.append(list(indices))
        if indices[0] in self.fail_at:
            self.fail_at.discard(indices[0])

            def die(*_a, **_k):
                raise RuntimeError("worker died")

            return super().submit(die)
        if indices[0] in self.twice:
            self.twice.discard(indices[0])

            def doubled(kw, ix):
                return fn(kw, ix) + fn(kw, ix)

            return super().submit(doubled, *args)
        return super().submit(fn, *args, **kwargs)


def test_failed_tasks_are_retried_and_nothing_is_counted_twice(cli) -> None:
    expected = cli(*CLI_ARGS)
    with FlakyPool(fail_at={0, 6}, twice={3}) as pool:
        report = distributed.arena_with(MATCH, cluster=pool, games_per_task=3)
    assert without_timing(report) == without_timing(expected)
    assert report["games"] == 10 and len(report["records"]) == 10
    assert pool.submitted.count([0, 1, 2]) == 2 and pool.submitted.count([6, 7, 8]) == 2


def test_a_task_that_keeps_failing_stops_the_match() -> None:
    class Dead(concurrent.futures.ThreadPoolExecutor):
        def submit(self, fn, /, *args, **kwargs):  # type: ignore[override]
            def die(*_a, **_k):
                raise RuntimeError("node lost")

            return super().submit(die)

    with Dead(1) as pool, pytest.raises(ValueError, match=r"games 0\.\.9: the task failed 3 times; last error: node lost"):
        distributed.arena_with(MATCH, cluster=pool, games_per_task=10, max_retries=2)


def test_engine_errors_are_not_retried() -> None:
    with concurrent.futures.ThreadPoolExecutor(1) as pool, pytest.raises(ValueError, match="unknown preset 'nope'"):
        distributed.arena_with({**MATCH, "a": "nope"}, cluster=pool)


def test_a_checkpoint_resumes_where_the_run_stopped(cli, tmp_path: pathlib.Path) -> None:
    expected = cli(*CLI_ARGS)
    ckpt = tmp_path / "run.jsonl"

    class Stop(Exception):
        pass

    def stop_after_first(done: int, total: int) -> None:
        raise Stop

    with concurrent.futures.ThreadPoolExecutor(1) as pool, pytest.raises(Stop):
        distributed.arena_with(MATCH, cluster=pool, games_per_task=4, checkpoint=ckpt, on_task=stop_after_first)
    kept = [json.loads(line) for line in ckpt.read_text().splitlines()[1:]]
    assert [r["index"] for r in kept] in distributed.plan_tasks(10, 4), "one task's games were kept"
    with FlakyPool(fail_at=set(), twice=set()) as pool:
        report = distributed.arena_with(MATCH, cluster=pool, games_per_task=4, checkpoint=ckpt)
    played = sorted(i for t in pool.submitted for i in t)
    assert played == sorted(set(range(10)) - {r["index"] for r in kept}), "only the games not yet in the checkpoint"
    assert without_timing(report) == without_timing(expected)
    with pytest.raises(ValueError, match="is of another match"):
        distributed.arena_with({**MATCH, "seed": 8}, cluster=concurrent.futures.ThreadPoolExecutor(1), checkpoint=ckpt)


def test_the_command_line_twin_prints_the_arena_report(cli, capsys: pytest.CaptureFixture[str]) -> None:
    """On a local Ray node (2 CPUs, started as local_ray.py says, robust to a loaded machine)."""
    from local_ray import connect, start_node  # before ray: it sets Ray's authentication mode

    ray = pytest.importorskip("ray")

    # A short directory: Ray's socket paths under it must fit in 107 bytes.
    with tempfile.TemporaryDirectory(prefix="mr", dir="/tmp") as tmp, start_node(cpus=2, temp_dir=tmp) as node:
        connect(ray, node.address)
        try:
            assert distributed.main([*CLI_ARGS[1:], "--address", "auto", "--games-per-task", "3", "--json"]) == 0
            report = json.loads(capsys.readouterr().out)
            assert without_timing(report) == without_timing(cli(*CLI_ARGS))
            # On Ray through mcts_playground.arena(cluster=...): hex:5, every first move, colours swapped.
            report = mp.arena("hex:5", "rave", "uct", iterations=100, seed=3, cluster=True)
            expected = cli("arena", "--game", "hex:5", "--a", "rave", "--b", "uct", "--iterations", "100", "--seed", "3")
            assert without_timing(report) == without_timing(expected)
        finally:
            ray.shutdown()


def test_local_nodes_start_on_a_machine_that_never_ran_ray(tmp_path: pathlib.Path) -> None:
    """A new machine has no ``~/.ray/auth_token``, and ``ray start`` in token mode does not make
    one: local_ray.py brings its own token (in a temporary directory, not the user's home)."""
    pytest.importorskip("ray")
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env["HOME"] = str(home)
    script = (
        "import sys, tempfile; sys.path.insert(0, sys.argv[1]); import local_ray\n"
        "with tempfile.TemporaryDirectory(prefix='mr', dir='/tmp') as tmp, local_ray.start_node(cpus=1, temp_dir=tmp, attempts=1) as node:\n"
        "    print('started', node.address)\n"
    )
    out = subprocess.run([sys.executable, "-c", script, str(pathlib.Path(__file__).parent)], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.startswith("started 127.0.0.1:")
    assert not (home / ".ray").exists(), "nothing written to the user's home"


def test_a_cluster_address_where_nothing_listens_is_a_sentence() -> None:
    pytest.importorskip("ray")
    with socket.socket() as s:  # a port that was free a moment ago: nothing listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(ValueError, match=rf"no Ray cluster answers at 127\.0\.0\.1:{port} \("):
        mp.arena("tictactoe", "uct", "uct", games=2, iterations=10, cluster=f"127.0.0.1:{port}")
    with pytest.raises(ValueError, match="a Ray address is HOST:PORT"):
        mp.arena("tictactoe", "uct", "uct", games=2, iterations=10, cluster="nowhere")
