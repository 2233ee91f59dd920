"""The notebook widget: the playground page in a notebook (anywidget).

``Playground(game="hex:7", moves=["d4"], preset="rave", view="play")`` shows the built page's
``<mcts-playground>`` element (``www/src/embed/``) in JupyterLab, Notebook 7, VS Code or marimo.

Where the page comes from: the package ships the built site (``www/dist``, copied into
``mcts_playground/page/`` by ``python/bundle-page.sh`` before the wheel is built; see
:func:`page_dir`), and the kernel serves that directory on loopback (``127.0.0.1``, a free
port, one server per kernel, only that directory, with ``application/wasm`` for the engine). The
widget's front end (``widget.js``) imports the page's ``embed.js`` from there; nothing is
fetched from elsewhere. So the browser showing the notebook must run on the kernel's machine
(a local JupyterLab, VS Code, marimo); a remote hub would need the port forwarded.

Two-way traits:
    kernel → page: ``game``, ``moves`` (the position, set without reloading), ``preset``,
        ``view`` (play / compare / arena), ``seed``, ``playouts``, ``ms``, ``p0``, ``p1``,
        ``show`` (these reload the frame, the position kept); :meth:`Playground.start_search`.
    page → kernel: ``moves`` and ``game`` follow every move made in the page; ``ready``;
        ``last_search`` (the embed's ``searchFinished``: ``side``, ``bestMove``, ``winRate``
        in [0, 1] for the side that searched, ``playouts``, ``proven``, ``end``, and ``report``);
        ``report`` (the last search's report, the same dict as ``mcts search --json`` and
        :func:`mcts_playground.search`: built by the engine's own code in the page's WebAssembly
        module); ``last_review`` (a game review's report: :meth:`Playground.review`'s, or the
        embed's ``reviewFinished`` for a review run in the page); ``game_over`` (``winner``);
        ``last_error`` and ``errors`` (the page's sentences).
    Callbacks: :meth:`Playground.on` (``"move"``, ``"searchFinished"``, ``"reviewFinished"``,
        ``"error"``, ...).

A search in the page (:meth:`Playground.start_search`, or the engine's move when it plays a side)
reports the tree it searched: with ``seed`` and a ``playouts`` budget, the first search of a
position equals ``mcts search --seed S --iterations N --json`` (timing keys aside); a later search
that reuses the tree counts the earlier iterations too, as the page's tree reuse does.
:meth:`Playground.analyse` searches the position shown with the kernel's engine instead, and
stores its report in ``report`` too. :meth:`Playground.review` reviews the game shown with the
kernel's engine (:func:`mcts_playground.review`), returns the report and shows it in the page
(the marks on the moves, the game graph, the summary: the embed's ``showReview``).
"""

from __future__ import annotations

import functools
import http.server
import os
import pathlib
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any

import anywidget
import traitlets

from . import State, search
from . import review as review_game

__all__ = ["Playground", "page_dir", "page_url", "PageNotFound", "WidgetValueError"]

_HERE = pathlib.Path(__file__).parent
#: The widget's front end, shipped with the package.
ESM = _HERE / "widget.js"


class PageNotFound(FileNotFoundError):
    """The built page is neither packaged nor named by ``MCTS_PLAYGROUND_PAGE``."""


def page_dir() -> pathlib.Path:
    """The built page the widget shows: ``$MCTS_PLAYGROUND_PAGE`` when set, else the package's
    ``page/`` directory. Raises :class:`PageNotFound` (saying how to get one) when it has no
    ``index.html`` and ``embed.js``."""
    env = os.environ.get("MCTS_PLAYGROUND_PAGE")
    d = pathlib.Path(env) if env else _HERE / "page"
    if not ((d / "index.html").is_file() and (d / "embed.js").is_file()):
        where = f"MCTS_PLAYGROUND_PAGE={env}" if env else f"the package ({d})"
        raise PageNotFound(
            f"the built page is not in {where}: build it (bash scripts/serve.sh --build-only), copy it into the "
            "package (bash python/bundle-page.sh) and reinstall, or set MCTS_PLAYGROUND_PAGE to a built www/dist"
        )
    return d


class _PageHandler(http.server.SimpleHTTPRequestHandler):
    """Serves one directory; module scripts may be imported from the notebook's origin."""

    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".css": "text/css",
        ".html": "text/html",
        ".json": "application/json",
        ".mctsnet": "application/octet-stream",
    }

    def end_headers(self) -> None:
        # The notebook (another origin) imports embed.js as a module: CORS is required for that.
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A browser that goes away mid-answer (a frame reloaded) is no error of the server's.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


_server: _Server | None = None
_server_dir: pathlib.Path | None = None
_lock = threading.Lock()


def page_url() -> str:
    """The URL (ending in ``/``) of the page served on loopback for this kernel; starts the
    server on first use (a daemon thread, a free port on 127.0.0.1)."""
    global _server, _server_dir
    d = page_dir()
    with _lock:
        if _server is None or _server_dir != d:
            if _server is not None:
                _server.shutdown()
            handler = functools.partial(_PageHandler, directory=str(d))
            _server = _Server(("127.0.0.1", 0), handler)
            _server_dir = d
            threading.Thread(target=_server.serve_forever, name="mcts-playground-page", daemon=True).start()
        return f"http://127.0.0.1:{_server.server_address[1]}/"


VIEWS = ("play", "compare", "arena")
SIDES = ("person", "engine")


class WidgetValueError(traitlets.TraitError, ValueError):
    """A refused trait value. Both a ``ValueError`` (as every refusal of the package is) and the
    ``traitlets.TraitError`` that code written for traitlets catches; the trait keeps its value."""


class _Refusing:
    """Mixed into a trait type: its refusals (a wrong type, a value out of range, a validator's
    "no") are :class:`WidgetValueError`."""

    def _validate(self, obj: Any, value: Any) -> Any:
        try:
            return super()._validate(obj, value)  # type: ignore[misc]
        except WidgetValueError:
            raise
        except traitlets.TraitError as e:
            raise WidgetValueError(str(e)) from None


class _Unicode(_Refusing, traitlets.Unicode):
    pass


class _Int(_Refusing, traitlets.Int):
    pass


class _Enum(_Refusing, traitlets.Enum):
    pass


class _List(_Refusing, traitlets.List):
    pass


#: The largest seed, playout or millisecond budget the engine takes (``u64``; budgets are also
#: held to the engine's own limits by the page, which says so in ``last_error``).
_U64_MAX = 2**64 - 1


class Playground(anywidget.AnyWidget):
    """The playground page in a notebook.

    Args:
        game: a game spec (``hex:7``, ``tictactoe``, ``pentago:twist``, ...).
        moves: moves from the start, in the reference notation (a list or one string).
        preset: the engine's preset (``rave``, ``uct``, ...).
        view: ``"play"``, ``"compare"`` or ``"arena"``.
        seed: the engine's seed (with ``playouts``: the same searches as ``mcts search``).
        playouts, ms: the engine's budget per move (playouts, or milliseconds).
        p0, p1: who plays each side, ``"person"`` or ``"engine"``.
        show: parts of the page besides the board (``"moves,thinking,controls"``).
        width, height: the frame's CSS size.

    A refused argument or trait value (a bad game or move, an unknown preset, a view or side not
    in the lists, a seed or budget that is not a whole number in range) raises ``ValueError`` with
    the engine's sentence (:class:`WidgetValueError`, also a ``traitlets.TraitError``), checked in
    the kernel before the page sees it, and the trait keeps its value; errors the page reports
    arrive in ``last_error`` and ``errors``.
    """

    _esm = ESM

    game = _Unicode("hex:7").tag(sync=True)
    moves = _List(traitlets.Unicode(), default_value=[]).tag(sync=True)
    preset = _Unicode("rave").tag(sync=True)
    view = _Enum(VIEWS, default_value="play").tag(sync=True)
    seed = _Int(None, allow_none=True, min=0, max=_U64_MAX).tag(sync=True)
    playouts = _Int(None, allow_none=True, min=1, max=_U64_MAX).tag(sync=True)
    ms = _Int(None, allow_none=True, min=1, max=_U64_MAX).tag(sync=True)
    p0 = _Enum(SIDES, default_value="person").tag(sync=True)
    p1 = _Enum(SIDES, default_value="engine").tag(sync=True)
    show = _Unicode("").tag(sync=True)
    width = _Unicode("100%").tag(sync=True)
    height = _Unicode("460px").tag(sync=True)
    page_url = traitlets.Unicode("").tag(sync=True)

    ready = traitlets.Bool(False).tag(sync=True)
    last_search = traitlets.Dict(allow_none=True, default_value=None).tag(sync=True)
    game_over = traitlets.Dict(allow_none=True, default_value=None).tag(sync=True)
    last_error = traitlets.Unicode("").tag(sync=True)
    errors = traitlets.List(traitlets.Unicode(), default_value=[])
    searches = traitlets.List(traitlets.Dict(), default_value=[])
    report = traitlets.Dict(allow_none=True, default_value=None)
    last_review = traitlets.Dict(allow_none=True, default_value=None)

    def __init__(
        self,
        game: str = "hex:7",
        moves: Sequence[str] | str = (),
        preset: str = "rave",
        view: str = "play",
        **kwargs: Any,
    ) -> None:
        if isinstance(moves, str):
            moves = [m for m in moves.replace(",", " ").split() if m]
        state = State(game, list(moves))  # ValueError with the engine's sentence
        if preset not in state.game().presets():
            raise ValueError(f"unknown preset {preset!r} for {state.spec}; expected one of: {' '.join(state.game().presets())}")
        self._handlers: dict[str, list[Callable[[dict[str, Any]], None]]] = {}
        super().__init__(game=state.spec, moves=state.moves, preset=preset, view=view, page_url=page_url(), **kwargs)
        self.on_msg(self._on_front_end)

    @traitlets.validate("game")
    def _check_game(self, proposal: dict[str, Any]) -> str:
        try:
            return State(proposal["value"]).spec
        except ValueError as e:
            raise WidgetValueError(str(e)) from None

    @traitlets.validate("moves")
    def _check_moves(self, proposal: dict[str, Any]) -> list[str]:
        try:
            return State(self.game, list(proposal["value"])).moves
        except ValueError as e:
            raise WidgetValueError(str(e)) from None

    @traitlets.validate("preset")
    def _check_preset(self, proposal: dict[str, Any]) -> str:
        presets = State(self.game).game().presets()
        if proposal["value"] not in presets:
            raise WidgetValueError(f"unknown preset {proposal['value']!r} for {self.game}; expected one of: {' '.join(presets)}")
        return str(proposal["value"])

    @property
    def state(self) -> State:
        """The position shown, as a ``State``."""
        return State(self.game, list(self.moves))

    def set_position(self, game: str, moves: Sequence[str] | str = ()) -> None:
        """Shows another position (the page is not reloaded). Raises ``ValueError`` with the
        engine's sentence for a bad game or move, and nothing changes."""
        if isinstance(moves, str):
            moves = [m for m in moves.replace(",", " ").split() if m]
        s = State(game, list(moves))
        with self.hold_trait_notifications():
            self.game = s.spec
            self.moves = s.moves

    def start_search(self, *, playouts: int | None = None, ms: int | None = None, preset: str | None = None, play: bool = False) -> None:
        """Asks the page's engine to search the position for the side to move (the embed's
        ``startSearch``); the result arrives in ``last_search``, its full report (the keys of
        ``mcts search --json``) in ``report``, and the ``searchFinished`` callbacks are called.
        ``play=True`` also plays the best move."""
        if playouts is not None and ms is not None:
            raise ValueError("give playouts or ms, not both")
        msg: dict[str, Any] = {"command": "startSearch", "play": bool(play)}
        if playouts is not None:
            msg["budget"] = {"kind": "playouts", "value": int(playouts)}
        elif ms is not None:
            msg["budget"] = {"kind": "millis", "value": int(ms)}
        if preset is not None:
            msg["preset"] = preset
        self.send(msg)

    def analyse(self, *, iterations: int = 10_000, seed: int | None = None, preset: str | None = None, **kwargs: Any) -> dict[str, Any]:
        """Searches the position shown with the kernel's engine (not the page's) and returns the
        report of ``mcts search --json`` (also stored in ``report``). Keyword arguments as
        :func:`mcts_playground.search`."""
        r = search(self.state, preset or self.preset, iterations=iterations, seed=self.seed if seed is None else seed, **kwargs)
        self.report = r
        return r

    def review(
        self,
        *,
        iterations: int | None = None,
        ms: float | None = None,
        solve_ms: float = 1000.0,
        seed: int | None = None,
        preset: str | None = None,
        threads: int = 1,
        show: bool = True,
    ) -> dict[str, Any]:
        """Reviews the game shown (its moves from the start) with the kernel's engine and returns
        the report of ``mcts review --json`` (:func:`mcts_playground.review`: per move the mover's
        win probability before and after, the loss, the class, the best move and its line, the
        exact values; per player the accuracy and the count of each class), also stored in
        ``last_review``. With ``show`` (the default) the page shows it as its own review: the marks
        on the moves, the game graph of Black's win probability, the summary (the embed's
        ``showReview``; ``show="review"`` in the widget's ``show`` puts the graph and the summary in
        the frame, under the board: give the widget a ``height`` of about ``"900px"`` to see them).

        The kernel reviews rather than the page so that the report is back in Python when the
        call returns (for a plot, a table), whether or not a page is showing the widget. The
        defaults are the widget's: its ``preset`` and ``seed`` (0 without one); 10,000 playouts
        per position unless ``iterations`` or ``ms`` is given. Raises ``ValueError`` as
        :func:`mcts_playground.review` does."""
        r = review_game(
            self.state,
            preset=preset or self.preset,
            iterations=iterations,
            ms=ms,
            solve_ms=solve_ms,
            seed=(self.seed or 0) if seed is None else seed,
            threads=threads,
        )
        self.last_review = r
        if show:
            self.send({"command": "showReview", "report": r})
        return r

    def on(self, event: str, callback: Callable[[dict[str, Any]], None]) -> None:
        """Calls ``callback(detail)`` on each page event of that type: ``ready``, ``move``,
        ``position``, ``searchFinished``, ``reviewFinished``, ``gameOver``, ``error`` (``detail`` as the embed
        protocol's message: ``game``, ``moves``, and the event's own fields)."""
        self._handlers.setdefault(event, []).append(callback)

    def _on_front_end(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """A custom message from the front end: ``{event, detail}``."""
        if not isinstance(content, dict) or not isinstance(content.get("event"), str):
            return
        event, detail = content["event"], content.get("detail")
        if not isinstance(detail, dict):
            detail = {}
        if event == "error":
            self.errors = [*self.errors, str(detail.get("message", ""))]
        elif event == "searchFinished":
            self.searches = [*self.searches, detail]
            if isinstance(detail.get("report"), dict):
                self.report = detail["report"]
        elif event == "reviewFinished" and isinstance(detail.get("report"), dict):
            self.last_review = detail["report"]
        for cb in self._handlers.get(event, []):
            cb(detail)
