"""Shared fixtures: the `mcts` command-line tool the Python API is checked against."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
from typing import Any

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]

#: Keys whose values are times, different on every run (ms, per-second rates, seconds).
TIMING_KEYS = {"elapsed_ms", "iterations_per_s", "seconds", "ms", "peak_rss_kib"}


def without_timing(v: Any) -> Any:
    """A report with its timing keys removed, at every depth."""
    if isinstance(v, dict):
        return {k: without_timing(x) for k, x in v.items() if k not in TIMING_KEYS}
    if isinstance(v, list):
        return [without_timing(x) for x in v]
    return v


@pytest.fixture(scope="session")
def mcts_bin() -> pathlib.Path:
    """The `mcts` binary: $MCTS_BIN, or this checkout's test-profile build (the one `cargo test`
    builds; built here when missing or stale)."""
    env = os.environ.get("MCTS_BIN")
    if env:
        return pathlib.Path(env)
    subprocess.run(["cargo", "build", "--quiet", "--profile", "test", "--bin", "mcts"], cwd=REPO, check=True)
    return REPO / "target" / "debug" / "mcts"


@pytest.fixture(scope="session")
def cli(mcts_bin: pathlib.Path):
    """cli(*args) -> the JSON `mcts args... --json` printed; cli.fail(*args) -> its error message."""

    class Cli:
        def __call__(self, *args: str) -> Any:
            out = subprocess.run([str(mcts_bin), *args, "--json"], capture_output=True, text=True, cwd=REPO)
            assert out.returncode == 0, out.stderr
            return json.loads(out.stdout)

        def fail(self, *args: str) -> str:
            out = subprocess.run([str(mcts_bin), *args], capture_output=True, text=True, cwd=REPO)
            assert out.returncode == 1, (out.returncode, out.stdout, out.stderr)
            line = out.stderr.strip().splitlines()[-1]
            assert line.startswith("mcts: ")
            return line[len("mcts: ") :]

    return Cli()
