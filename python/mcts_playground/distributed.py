"""Arena matches spread over a Ray cluster (or any ``concurrent.futures`` executor).

Game ``i`` of a match is seeded from ``(seed, i)`` (``src/arena.rs``, ``game_seed``), so with an
iteration budget it is the same game on whichever machine plays it. A match is cut into tasks of
consecutive game indices; each task plays its games with the engine (``_core.arena_games``, the
GIL released) and returns their records; the driver keeps one record per index and builds the
report with the engine's own code (``_core.arena_report``, as ``mcts arena --json``). So the
standings and every game equal ``mcts arena --json`` for the same seed and iteration budget.

Failures: a task that fails for any reason other than the engine refusing the match (a worker
process killed, a node lost) is submitted again, at most ``max_retries`` times, and on Ray each
task also has Ray's own retries on worker death. Nothing is counted twice: records are keyed by
game index, and a game played twice (a retried task whose first run did finish) is one game.
With ``checkpoint=PATH`` every finished task's records are appended to a JSON-lines file, and a
new run with the same match and file plays only the games not yet there (resume after the driver
itself stopped).

Command line, the twin of ``mcts arena --json`` (``scripts/preset-table.sh --ray ADDRESS``)::

    python -m mcts_playground.distributed --address 127.0.0.1:6379 --game hex:7 --a rave --b uct \\
        --games 98 --iterations 2000 --seed 1 [--games-per-task 4] [--checkpoint run.jsonl]

Ray is an optional dependency (``pip install './python[ray]'``); without it, pass a
``concurrent.futures`` executor as ``cluster``.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import socket
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from . import _core

__all__ = ["arena", "arena_with", "merge_records", "plan_tasks", "play_task", "main"]

#: Tasks per CPU of the cluster when ``games_per_task`` is not given: enough to balance games
#: of different lengths, few enough that a task's start-up cost stays small.
TASKS_PER_CPU = 4


def plan_tasks(games: int, games_per_task: int) -> list[list[int]]:
    """Game indices ``0 .. games-1`` cut into tasks of ``games_per_task`` consecutive indices
    (the last one shorter). Raises ValueError for a task size below 1."""
    if games_per_task < 1:
        raise ValueError(f"games_per_task must be at least 1, got {games_per_task}")
    return [list(range(i, min(i + games_per_task, games))) for i in range(0, games, games_per_task)]


def merge_records(parts: Iterable[Sequence[Mapping[str, Any]]], games: int) -> list[dict[str, Any]]:
    """The records of every task merged: one per game index, sorted; a game that came twice
    (a retried task) is kept once. Raises ValueError when a game of ``0 .. games-1`` is missing
    or a record's index is outside the match."""
    by_index: dict[int, dict[str, Any]] = {}
    for part in parts:
        for r in part:
            i = r["index"]
            if not 0 <= i < games:
                raise ValueError(f"a record of game {i}, outside this match of {games} games")
            by_index.setdefault(i, dict(r))
    missing = [i for i in range(games) if i not in by_index]
    if missing:
        shown = ", ".join(map(str, missing[:10])) + (" ..." if len(missing) > 10 else "")
        raise ValueError(f"{len(missing)} of {games} games have no record: {shown}")
    return [by_index[i] for i in range(games)]


def play_task(kwargs: Mapping[str, Any], indices: Sequence[int]) -> list[dict[str, Any]]:
    """What one task runs: games ``indices`` of the match ``kwargs`` (the keyword arguments of
    ``_core.arena``), their records as dicts."""
    return json.loads(_core.arena_games(**kwargs, indices=list(indices)))


class _Checkpoint:
    """A JSON-lines file: the match's settings on the first line, then one line per record."""

    def __init__(self, path: str | os.PathLike[str], kwargs: Mapping[str, Any]) -> None:
        self.path = os.fspath(path)
        self.done: list[dict[str, Any]] = []
        header = {"match": dict(kwargs)}
        if os.path.exists(self.path) and os.path.getsize(self.path) > 0:
            with open(self.path, encoding="utf-8") as f:
                lines = [json.loads(line) for line in f if line.strip()]
            if not lines or lines[0] != header:
                raise ValueError(f"checkpoint {self.path} is of another match (its first line is not {json.dumps(header)})")
            self.done = [r for r in lines[1:] if "index" in r]
        else:
            with open(self.path, "w", encoding="utf-8") as f:
                f.write(json.dumps(header) + "\n")

    def add(self, records: Sequence[Mapping[str, Any]]) -> None:
        with open(self.path, "a", encoding="utf-8") as f:
            for r in records:
                f.write(json.dumps(r) + "\n")
            f.flush()
            os.fsync(f.fileno())


def _engine_error(e: BaseException) -> ValueError | None:
    """The engine's ValueError inside a task's failure (Ray wraps it), or None."""
    if isinstance(e, ValueError):
        return e
    cause = getattr(e, "cause", None)
    if isinstance(cause, ValueError):
        return ValueError(str(cause))
    return None


#: Seconds :func:`_check_reachable` waits for a cluster's address to answer.
CONNECT_TIMEOUT_S = 10.0


def _check_reachable(address: str, timeout_s: float = CONNECT_TIMEOUT_S) -> None:
    """Raises ValueError, naming ``address``, unless something accepts a TCP connection there
    within ``timeout_s`` seconds. Ray's own ``ray.init(address=...)`` keeps retrying an address
    where nothing listens (and its warnings name the machine's outside address, not the one
    given), so a mistyped or stopped cluster is reported here instead. Ray Client addresses
    (``ray://``) and addresses without a port are left to Ray."""
    if "://" in address:
        return
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit():
        raise ValueError(f"a Ray address is HOST:PORT (such as 127.0.0.1:6379), got {address!r}")
    try:
        with socket.create_connection((host.strip("[]") or "127.0.0.1", int(port)), timeout=timeout_s):
            pass
    except OSError as e:
        reason = e.strerror or type(e).__name__
        raise ValueError(
            f"no Ray cluster answers at {address} ({reason}); start one there (ray start --head --port {port}) "
            "or pass cluster=True for a local one"
        ) from None


def _ray_submitter(cluster: Any, max_retries: int) -> tuple[Callable[..., Any], Callable[[list[Any]], tuple[list[Any], list[Any]]], Callable[[Any], Any], int]:
    """Ray's submit, wait and get, and the cluster's CPU count."""
    try:
        import ray
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("cluster= needs Ray: pip install './python[ray]'") from e
    if not ray.is_initialized():
        if cluster is True or cluster == "auto":
            try:
                ray.init()
            except Exception as e:  # Ray raises bare Exceptions when its start-up deadlines pass
                raise ValueError(f"could not start or join a local Ray instance: {e}") from e
        else:
            address = str(cluster)
            _check_reachable(address)
            try:
                ray.init(address=address)
            except (ConnectionError, RuntimeError, ray.exceptions.AuthenticationError) as e:
                raise ValueError(f"could not join the Ray cluster at {address}: {e}") from e
    remote = ray.remote(num_cpus=1, max_retries=max_retries, retry_exceptions=False)(play_task)

    def wait(pending: list[Any]) -> tuple[list[Any], list[Any]]:
        return ray.wait(pending, num_returns=1)

    cpus = int(ray.cluster_resources().get("CPU", 1))
    return remote.remote, wait, ray.get, cpus


def _executor_submitter(ex: concurrent.futures.Executor) -> tuple[Callable[..., Any], Callable[[list[Any]], tuple[list[Any], list[Any]]], Callable[[Any], Any], int]:
    """A ``concurrent.futures`` executor's submit, wait and get."""

    def submit(kwargs: Mapping[str, Any], indices: Sequence[int]) -> Any:
        return ex.submit(play_task, dict(kwargs), list(indices))

    def wait(pending: list[Any]) -> tuple[list[Any], list[Any]]:
        done, rest = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
        return list(done), list(rest)

    workers = getattr(ex, "_max_workers", None) or os.cpu_count() or 1
    return submit, wait, lambda f: f.result(), int(workers)


def arena_with(
    kwargs: Mapping[str, Any],
    *,
    cluster: Any = True,
    games_per_task: int | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    max_retries: int = 3,
    on_task: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Plays the match ``kwargs`` (the keyword arguments of ``_core.arena``) as tasks on
    ``cluster`` and returns the report of ``mcts arena --json``.

    Args:
        kwargs: the match (``game``, ``a``, ``b``, ``set_a``, ``set_b``, ``games``,
            ``openings``, ``iterations``, ``ms``, ``clock``, ``seed``, ``net``).
        cluster: ``True``/``"auto"`` (the running Ray instance, or a new local one), a Ray
            address (``"127.0.0.1:6379"``), or a ``concurrent.futures.Executor``.
        games_per_task: games per task (default: games / (4 × the cluster's CPUs), at least 1).
        checkpoint: a JSON-lines file of finished games; a run with the same match resumes.
        max_retries: times a failed task is submitted again (engine errors are not retried).
        on_task: called after each finished task with (games done, games in the match).

    Raises:
        ValueError: the engine refused the match (its sentence), or a task kept failing.
    """
    from . import whole_number

    whole_number("games_per_task", games_per_task, 1)
    whole_number("max_retries", max_retries, 0, 1_000)
    kwargs = dict(kwargs)
    games, note = _core.arena_plan(**kwargs)
    if note:
        print(f"mcts: note: {note}", file=sys.stderr)
    if isinstance(cluster, concurrent.futures.Executor):
        submit, wait, get, cpus = _executor_submitter(cluster)
    else:
        submit, wait, get, cpus = _ray_submitter(cluster, max_retries)
    size = games_per_task or max(1, -(-games // (TASKS_PER_CPU * max(1, cpus))))
    ckpt = _Checkpoint(checkpoint, kwargs) if checkpoint is not None else None
    have = {r["index"] for r in ckpt.done} if ckpt else set()
    todo = [i for i in range(games) if i not in have]
    parts: list[Sequence[Mapping[str, Any]]] = [ckpt.done] if ckpt else []
    t0 = time.perf_counter()
    tries: dict[int, int] = {}
    pending: dict[Any, list[int]] = {}
    for chunk in plan_tasks(len(todo), size):
        indices = [todo[j] for j in chunk]
        pending[submit(kwargs, indices)] = indices
    finished = len(have)
    while pending:
        done, _ = wait(list(pending))
        for ref in done:
            indices = pending.pop(ref)
            try:
                records = get(ref)
            except Exception as e:  # noqa: BLE001 - a task's failure of any kind is looked at
                engine = _engine_error(e)
                if engine is not None:
                    raise engine from None
                key = indices[0]
                tries[key] = tries.get(key, 0) + 1
                if tries[key] > max_retries:
                    raise ValueError(f"games {indices[0]}..{indices[-1]}: the task failed {tries[key]} times; last error: {e}") from e
                pending[submit(kwargs, indices)] = indices
                continue
            parts.append(records)
            if ckpt:
                ckpt.add(records)
            finished += len(records)
            if on_task:
                on_task(finished, games)
    records = merge_records(parts, games)
    seconds = time.perf_counter() - t0
    return json.loads(_core.arena_report(**kwargs, records=json.dumps(records), seconds=seconds))


def arena(
    game: Any,
    a: str,
    b: str,
    *,
    cluster: Any = True,
    games: int | None = None,
    iterations: int | None = None,
    ms: float | None = None,
    seed: int = 1,
    overrides_a: Any = None,
    overrides_b: Any = None,
    openings: str | os.PathLike[str] | None = None,
    clock: str = "wall",
    net: str | os.PathLike[str] | None = None,
    games_per_task: int | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    max_retries: int = 3,
) -> dict[str, Any]:
    """``mcts_playground.arena`` with its games as tasks on ``cluster`` (see :func:`arena_with`)."""
    from . import _match_kwargs

    kwargs = _match_kwargs(
        game,
        a,
        b,
        games=games,
        iterations=iterations,
        ms=ms,
        seed=seed,
        overrides_a=overrides_a,
        overrides_b=overrides_b,
        openings=openings,
        clock=clock,
        net=net,
    )
    return arena_with(kwargs, cluster=cluster, games_per_task=games_per_task, checkpoint=checkpoint, max_retries=max_retries)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m mcts_playground.distributed``: ``mcts arena --json`` on a Ray cluster."""
    p = argparse.ArgumentParser(prog="python -m mcts_playground.distributed", description=main.__doc__)
    p.add_argument("--address", default="auto", help="Ray address (default: auto, the running instance or a new local one)")
    p.add_argument("--game", "-g", required=True)
    p.add_argument("--a", required=True)
    p.add_argument("--b", required=True)
    p.add_argument("--set-a", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--set-b", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--games", type=int)
    p.add_argument("--openings")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--iterations", type=int)
    budget.add_argument("--ms", type=float)
    p.add_argument("--clock", choices=["wall", "cpu"], default="wall")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--net")
    p.add_argument("--games-per-task", type=int)
    p.add_argument("--checkpoint", help="JSON-lines file of finished games; a new run resumes from it")
    p.add_argument("--max-retries", type=int, default=3)
    p.add_argument("--json", action="store_true", help="print the report (always on; accepted for mcts arena's flags)")
    a = p.parse_args(argv)
    kwargs = {
        "game": a.game,
        "a": a.a,
        "b": a.b,
        "set_a": a.set_a,
        "set_b": a.set_b,
        "games": a.games,
        "openings": a.openings,
        "iterations": a.iterations,
        "ms": a.ms,
        "clock": a.clock,
        "seed": a.seed,
        "net": a.net,
    }
    try:
        report = arena_with(
            kwargs,
            cluster=a.address,
            games_per_task=a.games_per_task,
            checkpoint=a.checkpoint,
            max_retries=a.max_retries,
        )
    except ValueError as e:
        print(f"mcts: {e}", file=sys.stderr)
        return 1
    print(json.dumps(report, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
