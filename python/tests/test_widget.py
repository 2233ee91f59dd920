"""The notebook widget's Python side: its traits, the front end it ships, the page it serves.

The page is the built site packaged in `mcts_playground/page/` (scripts/test.sh copies it there
with python/bundle-page.sh before these tests, and sets MCTS_REQUIRE_PAGE=1); without it the
tests run against a stand-in page of two files in a temporary directory."""

from __future__ import annotations

import json
import os
import pathlib
import re
import urllib.request

import pytest

anywidget = pytest.importorskip("anywidget")

from mcts_playground import widget  # noqa: E402

PACKAGED = pathlib.Path(widget.__file__).parent / "page"


@pytest.fixture
def page(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> pathlib.Path:
    """The page the widget serves: the packaged one, or a stand-in."""
    if (PACKAGED / "index.html").is_file():
        monkeypatch.delenv("MCTS_PLAYGROUND_PAGE", raising=False)
        return PACKAGED
    if os.environ.get("MCTS_REQUIRE_PAGE") == "1":
        pytest.fail(f"the built page is not packaged in {PACKAGED} (python/bundle-page.sh)")
    (tmp_path / "index.html").write_text("<!doctype html><title>stand-in</title>")
    (tmp_path / "embed.js").write_text("export {};")
    monkeypatch.setenv("MCTS_PLAYGROUND_PAGE", str(tmp_path))
    return tmp_path


def test_the_front_end_references_only_packaged_files(page: pathlib.Path) -> None:
    esm = widget.ESM.read_text()
    assert widget.Playground._esm is not None and widget.ESM.parent == PACKAGED.parent
    # Its only import is the page's embed.js, from the page the kernel serves: no other URL.
    imports = re.findall(r"import\s*\(([^)]*)\)|from\s+['\"]([^'\"]+)['\"]", esm)
    assert imports == [("`${base}embed.js`", "")], imports
    assert not re.search(r"https?://", esm), "no absolute URL in the front end"
    assert (page / "embed.js").is_file() and (page / "index.html").is_file()
    if page == PACKAGED:
        # The built page loads nothing from elsewhere either: every src/href is relative.
        html = (page / "index.html").read_text()
        for ref in re.findall(r"(?:src|href)=\"([^\"]+)\"", html):
            assert not re.match(r"^[a-z]+:", ref) or ref.startswith("data:"), ref
            assert ref.startswith("data:") or (page / ref.split("?")[0]).exists(), ref
        assert any(p.suffix == ".wasm" for p in (page / "assets").iterdir())


def test_the_page_is_served_on_loopback_with_the_right_types(page: pathlib.Path) -> None:
    url = widget.page_url()
    assert url.startswith("http://127.0.0.1:") and url.endswith("/")
    assert widget.page_url() == url, "one server per kernel"
    with urllib.request.urlopen(url + "embed.js") as r:
        assert r.headers["Content-Type"].startswith("text/javascript")
        assert r.headers["Access-Control-Allow-Origin"] == "*", "the notebook imports it as a module from another origin"
        assert r.read() == (page / "embed.js").read_bytes()
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(url + "../../pyproject.toml")
    assert e.value.code == 404
    e.value.close()
    if page == PACKAGED:
        wasm = next(p for p in (page / "assets").iterdir() if p.suffix == ".wasm")
        with urllib.request.urlopen(url + "assets/" + wasm.name) as r:
            assert r.headers["Content-Type"] == "application/wasm"


def test_traits_start_from_the_arguments_and_are_checked(page: pathlib.Path) -> None:
    w = widget.Playground(game="hex:5", moves="c3 d2", preset="uct", view="compare", seed=3, playouts=500)
    assert (w.game, w.moves, w.preset, w.view, w.seed, w.playouts) == ("hex:5", ["c3", "d2"], "uct", "compare", 3, 500)
    assert w.page_url == widget.page_url() and w.state.moves == ["c3", "d2"]
    state = w.get_state()
    assert state["game"] == "hex:5" and state["moves"] == ["c3", "d2"] and state["view"] == "compare"
    with pytest.raises(ValueError, match=r"^unknown game 'chess'"):
        widget.Playground(game="chess")
    with pytest.raises(ValueError, match=r"^move 2 \('c3'\): illegal move c3"):
        widget.Playground(game="hex:5", moves=["c3", "c3"])
    with pytest.raises(ValueError, match="unknown preset 'alphazero' for pentago"):
        widget.Playground(game="pentago", preset="alphazero")
    import traitlets

    with pytest.raises(traitlets.TraitError, match="illegal move c3"):
        w.moves = ["c3", "c3"]
    with pytest.raises(traitlets.TraitError):
        w.view = "train"
    assert w.moves == ["c3", "d2"], "a refused value changes nothing"
    # Every refusal is also the ValueError the package promises, and the trait keeps its value.
    for name, bad in [("moves", ["c3", "c3"]), ("view", "train"), ("p0", "robot"), ("seed", -1), ("seed", "x"), ("playouts", 0), ("ms", -5), ("preset", "nope"), ("game", "chess"), ("moves", 5)]:
        before = getattr(w, name)
        with pytest.raises(ValueError):
            setattr(w, name, bad)
        assert getattr(w, name) == before, name
    with pytest.raises(ValueError, match="unknown preset 'nope' for hex:5"):
        w.preset = "nope"
    with pytest.raises(ValueError, match="unknown preset 'nope'"):
        widget.Playground(game="hex:5", preset="nope")
    with pytest.raises(ValueError):
        widget.Playground(game="hex:5", seed=-1)
    w.set_position("tictactoe", "b2")
    assert (w.game, w.moves) == ("tictactoe", ["b2"])
    with pytest.raises(ValueError, match="unknown game"):
        w.set_position("go", [])
    assert (w.game, w.moves) == ("tictactoe", ["b2"])


def test_page_events_reach_the_kernel(page: pathlib.Path) -> None:
    w = widget.Playground(game="hex:5", preset="rave")
    seen: dict[str, list[dict]] = {}
    for ev in ("move", "searchFinished", "error"):
        w.on(ev, lambda d, ev=ev: seen.setdefault(ev, []).append(d))
    # What the front end sends: the trait changes (as a move in the page makes them), then the event.
    w.set_state({"moves": ["c3"], "ready": True})
    w._on_front_end(w, {"event": "move", "detail": {"game": "hex:5", "moves": ["c3"], "move": "c3", "ply": 1}}, [])
    # The page's search carries its report (the keys of `mcts search --json`): it becomes `report`.
    import mcts_playground as mp

    report = mp.search(mp.State("hex:5", ["c3"]), "rave", iterations=500, seed=2)
    found = {"side": 1, "bestMove": report["best_move"], "winRate": 0.4, "playouts": 500, "proven": None, "end": "budget", "report": report}
    w.set_state({"last_search": found})
    w._on_front_end(w, {"event": "searchFinished", "detail": found}, [])
    w._on_front_end(w, {"event": "error", "detail": {"message": "unknown preset \"x\""}}, [])
    w._on_front_end(w, "not an event", [])
    assert w.moves == ["c3"] and w.ready and w.last_search == found
    assert w.report == report, "the page's report is the kernel's report"
    assert [d["move"] for d in seen["move"]] == ["c3"] and seen["searchFinished"] == [found]
    assert w.errors == ['unknown preset "x"'] and w.searches == [found]
    # An engine older than the report: the event without it leaves `report` as it was.
    w._on_front_end(w, {"event": "searchFinished", "detail": {**found, "report": None}}, [])
    assert w.report == report


def test_commands_and_the_kernels_report(page: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    w = widget.Playground(game="tictactoe", moves=["b2"], preset="uct", seed=5)
    sent: list[dict] = []
    monkeypatch.setattr(w, "send", lambda msg, buffers=None: sent.append(msg))
    w.start_search(playouts=300, preset="rave", play=True)
    assert sent == [{"command": "startSearch", "play": True, "budget": {"kind": "playouts", "value": 300}, "preset": "rave"}]
    with pytest.raises(ValueError, match="playouts or ms"):
        w.start_search(playouts=1, ms=1)
    r = w.analyse(iterations=500)
    assert w.report == r and r["iterations"] == 500 and r["best_move"] in w.state.legal_moves()
    import mcts_playground as mp

    again = mp.search(mp.State("tictactoe", ["b2"]), "uct", iterations=500, seed=5)
    assert json.dumps(r["children"]) == json.dumps(again["children"])


def test_a_missing_page_is_explained(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MCTS_PLAYGROUND_PAGE", str(tmp_path / "nowhere"))
    with pytest.raises(widget.PageNotFound, match="bundle-page.sh"):
        widget.page_dir()


def test_review_returns_the_kernels_report_and_shows_it_in_the_page(page: pathlib.Path, monkeypatch: pytest.MonkeyPatch, cli) -> None:
    w = widget.Playground(game="hex:5", moves=["c3", "b3", "b4", "c2"], preset="uct", seed=3)
    sent: list[dict] = []
    monkeypatch.setattr(w, "send", lambda msg, buffers=None: sent.append(msg))
    seen: list[dict] = []
    w.on("reviewFinished", seen.append)
    r = w.review(iterations=400, solve_ms=0)
    # The report of `mcts review --json` with the widget's preset and seed (times apart).
    want = cli("review", "--game", "hex:5", "--moves", "c3 b3 b4 c2", "--preset", "uct", "--iterations", "400", "--solve-ms", "0", "--seed", "3")
    assert {k: v for k, v in r.items() if k != "timing"} == {k: v for k, v in want.items() if k != "timing"}
    assert [p["move"] for p in r["plies"]] == ["c3", "b3", "b4", "c2"] and set(r["summary"]) == {"black", "white"}
    assert w.last_review == r
    # The page is asked to show it (the embed's showReview); show=False keeps it in the kernel.
    assert sent == [{"command": "showReview", "report": r}]
    w.review(iterations=100, seed=1, show=False)
    assert len(sent) == 1 and w.last_review["settings"]["seed"] == 1
    with pytest.raises(ValueError):
        w.review(iterations=100, ms=100)
    # A review run in the page arrives as reviewFinished: its report becomes last_review.
    w._on_front_end(w, {"event": "reviewFinished", "detail": {"game": "hex:5", "moves": w.moves, "report": r}}, [])
    assert w.last_review == r and seen == [{"game": "hex:5", "moves": w.moves, "report": r}]
