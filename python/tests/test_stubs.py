"""The type stubs (`mcts_playground/_core.pyi`) match the extension module: every name, class,
signature and parameter (mypy's stubtest against the built module)."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("mypy")


def test_the_stubs_match_the_extension_module() -> None:
    out = subprocess.run([sys.executable, "-m", "mypy.stubtest", "mcts_playground._core"], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
