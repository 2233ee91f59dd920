"""The example notebook runs from top to bottom without an error (nbclient, headless kernel), and
what it prints about the position is what the solver says.

Two runs: in the test environment (every tool pinned by scripts/test-python.sh), and — when
``MCTS_NOTEBOOK_VENV`` names one — in an environment made the way ``python/README.md`` tells a
teacher to (a new virtual environment, ``pip install './python[notebook]'`` from the built wheel,
nothing else), with that environment's own kernel: a notebook that needs a package the documented
install does not bring fails there.
"""

from __future__ import annotations

import json
import os
import pathlib

import pytest

nbclient = pytest.importorskip("nbclient")
nbformat = pytest.importorskip("nbformat")

import mcts_playground as mp  # noqa: E402

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"
NOTEBOOKS = sorted(EXAMPLES.glob("*.ipynb"))


def _run(path: pathlib.Path, kernel_name: str) -> list[dict]:
    nb = nbformat.read(path, as_version=4)
    nbclient.NotebookClient(nb, timeout=600, kernel_name=kernel_name, resources={"metadata": {"path": str(EXAMPLES)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    errors = [f"{o.get('ename')}: {o.get('evalue')}" for o in outputs if o.output_type == "error"]
    assert not errors, errors
    return outputs


def _check_hex5_handout(outputs: list[dict]) -> None:
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert "RAVE scored" in text
    # The position of the hand-out, and the solver's answer for the side to move there.
    state = mp.State("hex:5", ["c3", "b4"])
    truth = mp.solve(state, openings=True)
    side = truth["mover"].capitalize()
    assert side == ("Black" if state.current_player() == 0 else "White")
    winning = [o["move"] for o in truth["openings"] if o["mover_wins"]]
    assert f"to move: {side} —" in text, "the first cell names the side to move"
    assert f"{side} to move; winning moves for {side}: {winning}" in text, text[-400:]
    assert any("image/png" in o.get("data", {}) for o in outputs), "the plots were drawn"
    # The review of the match's first game: a line per move and each player's summary.
    assert "black: accuracy" in text and "white: accuracy" in text, text[-600:]
    widgets = [o for o in outputs if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert widgets, "the board widget was displayed"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_the_example_notebook_runs(path: pathlib.Path) -> None:
    pytest.importorskip("matplotlib")
    pytest.importorskip("anywidget")
    outputs = _run(path, "python3")
    if path.name == "hex5-uct-vs-rave.ipynb":
        _check_hex5_handout(outputs)


@pytest.mark.skipif(not os.environ.get("MCTS_NOTEBOOK_VENV"), reason="MCTS_NOTEBOOK_VENV (an environment from the documented install) not given")
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_the_example_notebook_runs_as_installed(path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel ``mcts-as-installed`` (scripts/test-python.sh registers it in
    ``$MCTS_NOTEBOOK_VENV/share/jupyter``, found here through ``JUPYTER_PATH``) runs in the
    environment of the documented install."""
    venv = pathlib.Path(os.environ["MCTS_NOTEBOOK_VENV"])
    spec = venv / "share" / "jupyter" / "kernels" / "mcts-as-installed" / "kernel.json"
    assert spec.is_file(), f"no kernel spec at {spec}"
    assert json.loads(spec.read_text())["argv"][0].startswith(str(venv)), "the kernel runs in that environment"
    monkeypatch.setenv("JUPYTER_PATH", str(venv / "share" / "jupyter"))
    outputs = _run(path, "mcts-as-installed")
    if path.name == "hex5-uct-vs-rave.ipynb":
        _check_hex5_handout(outputs)
