"""Type stubs of the extension module ``mcts_playground._core`` (PyO3, ``python/src/lib.rs``).

The report functions return the JSON text ``mcts … --json`` prints; ``mcts_playground`` parses it
into dicts. Every engine error is a ``ValueError`` carrying the engine's sentence.
"""

from collections.abc import Sequence
from os import PathLike
from typing import Any, Final, final

import numpy as np
import numpy.typing as npt

__all__ = ["EXAMPLE_SPECS", "PRESETS", "Game", "State", "arena", "arena_games", "arena_plan", "arena_report", "games", "load_net", "review", "search", "solve"]

PRESETS: Final[list[str]]
"""Every preset name: uct rave grave decisive lgr lgrf2 poolrave mast qb depth2 solver puct best mohex alphazero alphago puct-net."""
EXAMPLE_SPECS: Final[list[str]]
"""Example game spec strings: tictactoe, hex:7, hex:11, hex:11:swap, pentago, pentago:openspiel, pentago:twist."""

@final
class Game:
    """A game from its spec string: ``tictactoe``, ``hex:N`` (1 <= N <= 19), ``hex:N:swap``,
    ``pentago`` (= ``pentago:official``), ``pentago:openspiel``, ``pentago:twist``, Pentago's
    ``:dedup``. Raises ValueError naming what is wrong with a spec."""

    def __new__(cls, spec: str) -> Game: ...
    @property
    def spec(self) -> str:
        """The canonical spec (``hex`` alone is ``hex:11``)."""
    @property
    def kind(self) -> str:
        """``tictactoe``, ``hex`` or ``pentago``."""
    @property
    def rows(self) -> int:
        """Board height in cells."""
    @property
    def cols(self) -> int:
        """Board width in cells."""
    @property
    def observation_shape(self) -> tuple[int, int, int]:
        """The shape of ``State.observation()``: (2, rows, cols)."""
    def num_distinct_actions(self) -> int:
        """The dense move space: 9 (Tic-Tac-Toe), n² (Hex; n² + 1 with swap), 288 (Pentago)."""
    def presets(self) -> list[str]:
        """The presets usable in this game (network presets only where a net plays it)."""
    def new_initial_state(self) -> State:
        """The start position."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class State:
    """A position and the moves that led to it (``undo`` goes back along them)."""

    def __new__(cls, spec: str, moves: Sequence[str] | str | None = None) -> State:
        """The position after ``moves`` (a list, or one string separated by spaces) from the
        start of ``spec``. Raises ValueError naming a bad spec or the first bad move
        (``move 2 ('zz'): cannot read move 'zz': ...``)."""
    @property
    def spec(self) -> str:
        """The game's canonical spec."""
    @property
    def moves(self) -> list[str]:
        """The moves from the start, in the reference notation."""
    @property
    def ply(self) -> int:
        """Moves played (the swap move counts as one)."""
    def game(self) -> Game: ...
    def current_player(self) -> int | None:
        """0 (first player: X, Black) or 1; None once the game is over."""
    def legal_moves(self) -> list[str]:
        """Legal moves in the reference notation, ascending dense index; empty once over."""
    def legal_actions(self) -> list[int]:
        """Legal moves as dense indices (cells ``row·cols + col``; Pentago cell·8 + twist)."""
    def apply(self, move: str | int) -> None:
        """Plays a move (notation or dense index). Raises ValueError for an unreadable or
        illegal move or a finished game, and the state is unchanged."""
    def undo(self) -> str:
        """Takes back the last move and returns it; ValueError at the start."""
    def is_terminal(self) -> bool: ...
    def winner(self) -> int | None:
        """0 or 1 once won; None for a draw or an unfinished game."""
    def returns(self) -> list[float]:
        """OpenSpiel's returns [r0, r1]: +1 win, -1 loss, 0 each for a draw; [0, 0] while the game goes on."""
    def board(self) -> str:
        """Rows top to bottom joined by ``/``; ``.`` empty, ``X`` player 0, ``O`` player 1."""
    def cells(self) -> list[int]:
        """rows·cols owners, index row·cols + col: -1 empty, 0, 1."""
    def string_to_move(self, text: str) -> int:
        """The dense index of a move in notation (not played; legality not checked)."""
    def move_to_string(self, index: int) -> str:
        """The notation of a dense move index."""
    def observation(self) -> npt.NDArray[np.float32]:
        """float32 array of shape (2, rows, cols): the network's input planes, plane 0 the
        side to move's stones, plane 1 the opponent's (1.0 or 0.0). Hex with White to move is
        transposed (cell (r, c) at [:, c, r]), as the net sees it."""
    def clone(self) -> State: ...
    def __copy__(self) -> State: ...
    def __deepcopy__(self, memo: Any) -> State: ...

def search(
    state: State,
    preset: str = "uct",
    overrides: Sequence[str] = ...,
    iterations: int | None = None,
    ms: float | None = None,
    seed: int | None = None,
    threads: int = 1,
    net: str | PathLike[str] | None = None,
) -> str:
    """The JSON of ``mcts search --json`` (``overrides`` as ``key=value`` strings)."""

def arena(
    game: str,
    a: str,
    b: str,
    set_a: Sequence[str] = ...,
    set_b: Sequence[str] = ...,
    games: int | None = None,
    openings: str | None = None,
    iterations: int | None = None,
    ms: float | None = None,
    clock: str = "wall",
    seed: int = 1,
    net: str | PathLike[str] | None = None,
    threads: int | None = None,
) -> str:
    """The JSON of ``mcts arena --json``; the games on ``threads`` threads."""

def arena_plan(
    game: str,
    a: str,
    b: str,
    set_a: Sequence[str] = ...,
    set_b: Sequence[str] = ...,
    games: int | None = None,
    openings: str | None = None,
    iterations: int | None = None,
    ms: float | None = None,
    clock: str = "wall",
    seed: int = 1,
    net: str | PathLike[str] | None = None,
) -> tuple[int, str | None]:
    """Checks a match; (number of games, the note on openings or None)."""

def arena_games(
    game: str,
    a: str,
    b: str,
    indices: Sequence[int],
    set_a: Sequence[str] = ...,
    set_b: Sequence[str] = ...,
    games: int | None = None,
    openings: str | None = None,
    iterations: int | None = None,
    ms: float | None = None,
    clock: str = "wall",
    seed: int = 1,
    net: str | PathLike[str] | None = None,
) -> str:
    """JSON list of the records of games ``indices`` (played one after another here)."""

def arena_report(
    game: str,
    a: str,
    b: str,
    records: str,
    seconds: float,
    set_a: Sequence[str] = ...,
    set_b: Sequence[str] = ...,
    games: int | None = None,
    openings: str | None = None,
    iterations: int | None = None,
    ms: float | None = None,
    clock: str = "wall",
    seed: int = 1,
    net: str | PathLike[str] | None = None,
) -> str:
    """The JSON of ``mcts arena --json`` from game records (JSON list; duplicates count once)."""

def solve(
    state: State,
    openings: bool = False,
    net: str | PathLike[str] | None = None,
    solver: str | None = None,
    max_nodes: int | None = None,
    time: float = 0.0,
    tt_mib: int = 256,
    epsilon: float = 0.0,
    widening: float = 0.25,
    vc: bool = True,
    fillin: bool = True,
) -> str:
    """The JSON of ``mcts solve --json``: Hex (hex:N, N <= 8, no swap), Tic-Tac-Toe, and Pentago
    endgames of at most 16 empty cells (20 or more stones placed)."""

def review(
    game: str,
    moves: Sequence[str] | str | None = None,
    preset: str | None = None,
    iterations: int | None = None,
    ms: float | None = None,
    solve_ms: float | None = None,
    seed: int | None = None,
    threads: int = 1,
) -> str:
    """The JSON of ``mcts review --json``."""

def games() -> str:
    """JSON of every registered game's facts (`mcts schema --json`'s `games`), in the engine's order."""

def load_net(path: str | PathLike[str], spec: str | None = None) -> str:
    """Registers a ``.mctsnet`` file (version 1 or 2) as its game's net; JSON {spec, name, source, parameters, layers, bytes, trunk, ...}."""
