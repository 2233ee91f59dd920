"""The MCTS playground engine from Python.

A door to the same Rust engine as the ``mcts`` command-line tool and the page, in the spirit of
OpenSpiel's ``pyspiel``::

    import mcts_playground as mp
    game = mp.Game("hex:7")                 # the spec strings of the CLI and the page
    state = game.new_initial_state()
    state.apply("d4")                       # reference notation (or a dense index)
    report = mp.search(state, preset="rave", iterations=10_000, seed=1)
    report["best_move"], report["value"]    # the keys of `mcts search --json`

``search``, ``arena`` and ``solve`` return dicts with the keys of ``mcts search|arena|solve
--json``: the JSON is built by the engine crate's ``report`` module, the very code the CLI calls,
so the same seed and iteration budget give the same report. The engine runs with the GIL
released. Every refused input raises ``ValueError`` with the engine's sentence and changes
nothing.

Units: budgets in iterations (playouts) or milliseconds per search (per move in an arena);
values and win rates in [0, 1] for the side to move (``value``, ``q``) or for configuration A
(``win_rate``); Elo in points; times in milliseconds (``elapsed_ms``, ``ms``) or seconds
(``seconds``).

The notebook widget is :class:`mcts_playground.widget.Playground` (``pip install
./python[widget]``); matches on a Ray cluster are :func:`mcts_playground.distributed.arena`
(``pip install ./python[ray]``), also reached through ``arena(..., cluster=...)``.
"""

from __future__ import annotations

import json
import operator
import os
from collections.abc import Iterable, Mapping
from typing import Any

from . import _core
from ._core import EXAMPLE_SPECS, PRESETS, Game, State

__all__ = [
    "EXAMPLE_SPECS",
    "PRESETS",
    "Game",
    "State",
    "arena",
    "games",
    "load_net",
    "review",
    "search",
    "solve",
]

__version__ = "0.1.0"


def games() -> list[dict[str, Any]]:
    """Every game the engine plays, with its facts, in the engine's order (the game registry,
    ``mcts schema --json``'s ``games``).

    Each dict has ``name`` (the spec name, e.g. ``"hex"``), ``title``, ``syntax`` (the spec's
    grammar, e.g. ``"hex:N[:swap]"``), ``default_spec``, ``examples``, ``players`` (lower case,
    player 0 first), ``draws``, ``sizes`` (``None`` or ``min``/``max``/``default``/``offered``),
    ``notation``, ``example_moves``, ``solver`` (``None`` or its ``kind`` and what it ``takes``)
    and ``net_input`` (whether the AlphaZero presets and training work for it)::

        [g["name"] for g in mp.games()]   # ['tictactoe', 'hex', 'pentago', ...]
    """
    return json.loads(_core.games())


def _value_text(value: Any) -> str:
    """An override's value as the CLI's ``--set key=value`` text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def overrides_to_sets(overrides: Mapping[str, Any] | Iterable[str] | None) -> list[str]:
    """``{"c": 0.7, "rave_k": 500}`` as the CLI's ``["c=0.7", "rave_k=500"]`` (order kept).

    A list of ``"key=value"`` strings is passed through. Raises ``ValueError`` for anything else.
    """
    if overrides is None:
        return []
    if isinstance(overrides, Mapping):
        out = []
        for k, v in overrides.items():
            if not isinstance(k, str):
                raise ValueError(f"override keys are configuration field names (strings), got {k!r}")
            out.append(f"{k}={_value_text(v)}")
        return out
    if isinstance(overrides, str):
        raise ValueError("overrides are a dict {key: value} or a list of 'key=value' strings, not one string")
    items = list(overrides)
    if not all(isinstance(s, str) for s in items):
        raise ValueError("overrides are a dict {key: value} or a list of 'key=value' strings")
    return items


#: The largest whole number the engine takes for a seed, a budget or a count (``u64``).
U64_MAX = 2**64 - 1


def whole_number(name: str, value: Any, low: int = 0, high: int = U64_MAX) -> int | None:
    """``value`` as a whole number in ``low ..= high`` (None stays None), for the engine's integer
    arguments. Python's own ``int``, NumPy integers and anything with ``__index__`` are taken;
    ``bool``, floats and text are not.

    Raises:
        ValueError: naming the argument, the range and the value given (not the ``TypeError`` or
            ``OverflowError`` the conversion to the engine's unsigned integers would raise).
    """
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueError(f"{name} must be a whole number from {low} to {high}, got {value!r}")
    try:
        n = operator.index(value)
    except TypeError:
        raise ValueError(f"{name} must be a whole number from {low} to {high}, got {value!r}") from None
    if not low <= n <= high:
        raise ValueError(f"{name} must be a whole number from {low} to {high}, got {n}")
    return n


def _state_of(state: State | Game) -> State:
    if isinstance(state, Game):
        return state.new_initial_state()
    return state


def _net(net: str | os.PathLike[str] | None) -> str | None:
    return None if net is None else os.fspath(net)


def search(
    state: State | Game,
    preset: str = "uct",
    *,
    iterations: int | None = None,
    ms: float | None = None,
    seed: int | None = None,
    overrides: Mapping[str, Any] | Iterable[str] | None = None,
    threads: int = 1,
    net: str | os.PathLike[str] | None = None,
) -> dict[str, Any]:
    """Searches the position for the side to move; the report of ``mcts search --json``.

    Args:
        state: the position (a ``Game`` means its start position).
        preset: an algorithm preset (``PRESETS``: uct, rave, grave, ..., alphazero).
        iterations: the budget in MCTS iterations (playouts); 10,000 when neither it nor ``ms``
            is given.
        ms: the budget in milliseconds of wall-clock time (0 ..= 2^53 - 1).
        seed: the random seed (the preset's default when None).
        overrides: configuration fields, ``{"c": 0.7}`` as ``--set c=0.7``.
        threads: root-parallel search on this many threads (1 ..= 64; 1 is the plain search).
        net: a ``.mctsnet`` weights file the network presets use instead of the shipped net
            (registered for the rest of the process, as ``--net``).

    Returns:
        A dict with the keys of ``mcts search --json``: ``best_move`` (str or None), ``pv``
        (list of moves), ``proven`` ("win"/"loss"/"draw" for the side to move, or None),
        ``value`` (Q of the best move in [0, 1]), ``iterations``, ``children`` (per move:
        ``move``, ``visits``, ``q``, ``amaf_visits``, ``amaf_q``, ``beta``, ``prior``,
        ``proven``, ``puct_u``), ``policy``, ``nodes``, ``elapsed_ms`` (ms),
        ``iterations_per_s``, ``bytes_per_node``, ... and with ``threads > 1`` also
        ``threads`` and ``workers``.

    Raises:
        ValueError: a finished game, an unknown preset, a bad override, a bad budget, an
            unreadable net; the message is the engine's.
    """
    text = _core.search(
        _state_of(state),
        preset=preset,
        overrides=overrides_to_sets(overrides),
        iterations=whole_number("iterations", iterations),
        ms=ms,
        seed=whole_number("seed", seed),
        threads=whole_number("threads", threads),
        net=_net(net),
    )
    return json.loads(text)


def _match_kwargs(
    game: Game | str,
    a: str,
    b: str,
    *,
    games: int | None,
    iterations: int | None,
    ms: float | None,
    seed: int,
    overrides_a: Mapping[str, Any] | Iterable[str] | None,
    overrides_b: Mapping[str, Any] | Iterable[str] | None,
    openings: str | os.PathLike[str] | None,
    clock: str,
    net: str | os.PathLike[str] | None,
) -> dict[str, Any]:
    """The match's settings as the keyword arguments of ``_core.arena*``."""
    return {
        "game": game.spec if isinstance(game, Game) else str(game),
        "a": a,
        "b": b,
        "set_a": overrides_to_sets(overrides_a),
        "set_b": overrides_to_sets(overrides_b),
        "games": whole_number("games", games),
        "openings": None if openings is None else os.fspath(openings),
        "iterations": whole_number("iterations", iterations),
        "ms": ms,
        "clock": clock,
        "seed": whole_number("seed", seed),
        "net": _net(net),
    }


def arena(
    game: Game | str,
    a: str,
    b: str,
    *,
    games: int | None = None,
    iterations: int | None = None,
    ms: float | None = None,
    seed: int = 1,
    overrides_a: Mapping[str, Any] | Iterable[str] | None = None,
    overrides_b: Mapping[str, Any] | Iterable[str] | None = None,
    openings: str | os.PathLike[str] | None = None,
    clock: str = "wall",
    threads: int | None = None,
    net: str | os.PathLike[str] | None = None,
    cluster: Any = None,
    games_per_task: int | None = None,
) -> dict[str, Any]:
    """Plays configuration A against B; the report of ``mcts arena --json``.

    Colours alternate (A first in even games); game i is seeded from (seed, i), so with an
    iteration budget every game, and so the standings, are the same however the games are
    spread: over threads here, or over a Ray cluster with ``cluster=``.

    Args:
        game: the game (a ``Game`` or a spec string; the report's ``game`` is the spec).
        a, b: the presets of configurations A and B.
        games: number of games (0 ..= 1,000,000); default one round of the openings (two games
            per opening), or 100 from the empty board.
        iterations, ms: the budget per move (10,000 iterations when neither is given).
        seed: the base seed.
        overrides_a, overrides_b: configuration fields of A and B, as ``--set-a``/``--set-b``.
        openings: ``"all"`` (every first move, colours swapped), ``"none"``, or a file of
            openings; default ``all`` for Hex without the swap rule, ``none`` otherwise.
        clock: ``"wall"`` or ``"cpu"`` (thread CPU time) for an ``ms`` budget.
        threads: games played side by side here (default: the machine's cores).
        net: a ``.mctsnet`` file both sides' network presets use.
        cluster: None to play here; otherwise the games are Ray tasks
            (:func:`mcts_playground.distributed.arena`): ``True`` or ``"auto"`` for the Ray
            instance already started (or a new local one), or a Ray address such as
            ``"127.0.0.1:6379"``.
        games_per_task: with ``cluster``, games per Ray task (default: about 4 tasks per CPU).

    Returns:
        A dict with the keys of ``mcts arena --json``: ``games``, ``wins``, ``draws``,
        ``losses`` (A's), ``win_rate`` (A's score rate in [0, 1], draws half),
        ``win_rate_ci95`` (95% Wilson interval), ``elo`` and ``elo_ci95`` (points, None when
        infinite), the per-colour split (``a_first_*``, ``a_second_*``), ``first_player_wins``,
        ``second_player_wins``, ``openings``, ``opening_count``, ``seconds`` and ``records``
        (every game: ``index``, ``a_first``, ``moves``, ``a_score``, ``winner``, ...).

    Raises:
        ValueError: a refused option (the engine's sentence), or a game that failed.
    """
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
    if cluster is not None and cluster is not False:
        from . import distributed

        return distributed.arena_with(kwargs, cluster=cluster, games_per_task=whole_number("games_per_task", games_per_task))
    return json.loads(_core.arena(**kwargs, threads=whole_number("threads", threads)))


def solve(
    state: State | Game,
    *,
    openings: bool = False,
    net: str | os.PathLike[str] | None = None,
    solver: str | None = None,
    max_nodes: int | None = None,
    time: float = 0.0,
    tt_mib: int = 256,
    epsilon: float = 0.0,
    widening: float = 0.25,
    vc: bool = True,
    fillin: bool = True,
) -> dict[str, Any]:
    """Solves a position exactly; the report of ``mcts solve --json``.

    Hex (hex:N, N <= 8, no swap) by proof-number search; Tic-Tac-Toe and Pentago endgames (at most
    16 empty cells, i.e. 20 or more stones placed) by alpha-beta, whose values include draws.

    Args:
        state: the position (a ``Game`` means its start position).
        openings: solve every move of the position instead of the position itself.
        net: with ``openings`` (Hex), a ``.mctsnet`` file whose value head is compared with each
            result.
        solver: ``"dfpn"`` (proof-number search) or ``"negamax"`` (the reference) for Hex,
            ``"alphabeta"`` for Tic-Tac-Toe and Pentago; None: the game's own.
        max_nodes: positions per solve before it gives up (default 200 million).
        time: seconds per solve (every solver; 0 = no limit).
        tt_mib: the most memory of the transposition table in MiB (16 ..= 16384); the table
            starts small and grows only as the solve needs.
        epsilon, widening: dfpn's 1+epsilon trick (0 ..= 4) and widening factor (0, 1].
        vc, fillin: dfpn's virtual connections and inferior-cell fill-in (ablations when False).

    Returns:
        ``{game, moves, to_move, winner, winning_move, best_move, value, nodes, ms, solver,
        tt_bytes, tt_max_bytes, tt_note?, ...}`` (``value`` "win"/"draw"/"loss" for the side to move; ``winner`` "black"/"white",
        "x"/"o" in Tic-Tac-Toe, None for a draw); with ``openings``: ``{game, moves, mover,
        openings: [{move, winner, mover_wins, value, nodes, net_value?}], mover_wins,
        mover_draws, unknown, agree?, agree_of?, ms, solver, tt_bytes, tt_max_bytes, tt_note?}``
        (``tt_note``: a sentence when the system refused the table's growth; the solve went on
        with the table it had).

    Raises:
        ValueError: a game or position no solver takes (too large, the swap rule, a Pentago
            position with too many empty cells), a spent budget, a bad option.
    """
    text = _core.solve(
        _state_of(state),
        openings=openings,
        net=_net(net),
        solver=solver,
        max_nodes=whole_number("max_nodes", max_nodes),
        time=time,
        tt_mib=whole_number("tt_mib", tt_mib, 0, 2**32 - 1),
        epsilon=epsilon,
        widening=widening,
        vc=vc,
        fillin=fillin,
    )
    return json.loads(text)


def review(
    game: str | Game | State,
    moves: Iterable[str] | str | None = None,
    *,
    preset: str = "best",
    iterations: int | None = None,
    ms: float | None = None,
    solve_ms: float = 1000.0,
    seed: int = 0,
    threads: int = 1,
) -> dict[str, Any]:
    """Reviews a whole game; the report of ``mcts review --json`` with the same settings.

    Every position of the main line is searched with ``preset`` for a budget per position
    (``iterations`` playouts, or ``ms`` milliseconds; 10,000 playouts when neither is given),
    position i seeded ``seed + i``, and solved exactly within ``solve_ms`` milliseconds where a
    solver takes it (Tic-Tac-Toe; Hex up to 8x8 without swap; Pentago with at most 16 empty
    cells; 0: no solving). Each move gets the mover's win probability before and after it, the
    loss, a class by Lichess's thresholds (0.05 / 0.10 / 0.15 in win probability: inaccuracy,
    mistake, blunder; lila ``Advice.scala``) with exact overrides (``won → lost`` and the like
    are blunders), and each player Lichess's accuracy (lila ``AccuracyPercent.scala``).

    Args:
        game: a spec string (with ``moves``), or a ``State`` whose moves are the main line (a
            ``Game``: no moves).
        moves: the main line, a list of moves or one string separated by spaces (with a spec).
        preset: the search preset (default ``best``, the page's engine default).
        iterations, ms: the budget per position (one of them).
        solve_ms: the exact solver's budget per position in milliseconds.
        seed: the review's seed.
        threads: positions reviewed in parallel; with ``iterations`` the report equals one
            thread's.

    Returns:
        ``{game, moves, settings, plies: [{ply, move, mover, value_before, value_after, loss,
        class, label, accuracy, best_move, pv, exact_before, exact_after, iterations,
        playouts}], summary: {<player>: {accuracy, best, good, inaccuracy, mistake, blunder}},
        timing: [{position, search_ms, solve_ms, proven}]}``; values are win probabilities in
        [0, 1] for the mover, exact values "win"/"draw"/"loss" for the mover or None.

    Raises:
        ValueError: a bad spec, an unreadable or illegal move (named with its 1-based index),
            more than 1000 moves, an unknown preset, both budgets, a budget out of range.
    """
    if isinstance(game, Game):
        game = game.new_initial_state()
    if isinstance(game, State):
        if moves is not None:
            raise ValueError("give the main line either as a State or as a spec with moves, not both")
        game, moves = game.spec, game.moves
    if moves is not None and not isinstance(moves, str):
        moves = list(moves)
    text = _core.review(
        game,
        moves,
        preset=preset,
        iterations=whole_number("iterations", iterations),
        ms=ms,
        solve_ms=solve_ms,
        seed=whole_number("seed", seed),
        threads=whole_number("threads", threads),
    )
    return json.loads(text)


def load_net(path: str | os.PathLike[str], spec: str | None = None) -> dict[str, Any]:
    """Reads a ``.mctsnet`` weights file and makes it the net of its game for this process.

    Every search built afterwards with a network preset (alphazero, alphago, puct-net) for that
    game uses it, as ``mcts --net``. ``spec``, when given, is the game it must be for.

    Returns:
        What was registered: ``{spec, name, source, parameters, layers, bytes, trunk}``, ``trunk``
        ``"mlp"`` (weights file version 1) or ``"conv"`` (version 2, a convolutional Hex net,
        which also has ``channels``, ``blocks`` and ``value_hidden``).

    Raises:
        ValueError: missing, not a regular file, too large, corrupt, or for another game.
    """
    return json.loads(_core.load_net(os.fspath(path), spec))


def __getattr__(name: str) -> Any:
    # The widget needs anywidget: imported on first use, so the core API does not.
    if name == "Playground":
        try:
            from .widget import Playground
        except ModuleNotFoundError as e:
            if e.name != "anywidget":
                raise
            raise ModuleNotFoundError("the notebook widget needs anywidget: pip install './python[widget]'", name="anywidget") from e
        return Playground
    raise AttributeError(f"module 'mcts_playground' has no attribute {name!r}")
