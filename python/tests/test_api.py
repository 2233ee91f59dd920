"""The Python API against the `mcts` command line: the same seed and budget give the same report
(search, arena, solve) on Tic-Tac-Toe, Hex and Pentago; bad input raises ValueError with the
engine's sentence and leaves the state as it was."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from conftest import REPO, without_timing

import mcts_playground as mp

# ---- games and states ----


def test_game_from_spec_strings() -> None:
    g = mp.Game("hex:7")
    assert (g.spec, g.kind, g.rows, g.cols, g.num_distinct_actions()) == ("hex:7", "hex", 7, 7, 49)
    assert mp.Game("hex").spec == "hex:11"
    assert mp.Game("hex:5:swap").num_distinct_actions() == 26
    assert mp.Game("pentago:twist").num_distinct_actions() == 288
    assert "alphazero" in mp.Game("hex:7").presets() and "alphazero" not in mp.Game("pentago").presets()
    assert mp.Game("tictactoe") == mp.Game("ttt") and len({mp.Game("tictactoe"), mp.Game("ttt")}) == 1


def test_games_are_the_engines_registry(cli) -> None:
    games = mp.games()
    schema = cli("schema")
    assert games == schema["games"]
    assert [g["name"] for g in games][:3] == ["tictactoe", "hex", "pentago"]
    for g in games:
        assert mp.Game(g["default_spec"]).kind == g["name"]
        state = mp.Game(g["default_spec"]).new_initial_state()
        for m in g["example_moves"].split():
            state.apply(m)


def test_play_undo_winner_and_notation_both_ways() -> None:
    s = mp.Game("tictactoe").new_initial_state()
    assert s.current_player() == 0 and len(s.legal_moves()) == 9
    assert s.legal_actions() == list(range(9))
    for m in ["a1", "b1", "a2", "b2"]:
        s.apply(m)
    s.apply(s.string_to_move("a3"))  # a dense index: column a, row 3 = 6
    assert s.string_to_move("a3") == 6 and s.move_to_string(6) == "a3"
    assert s.is_terminal() and s.winner() == 0 and s.returns() == [1.0, -1.0]
    assert s.current_player() is None and s.legal_moves() == []
    assert s.board() == "XO./XO./X.." and s.moves == ["a1", "b1", "a2", "b2", "a3"]
    assert s.undo() == "a3" and not s.is_terminal() and s.current_player() == 0
    c = s.clone()
    c.apply("c3")
    assert s.moves == ["a1", "b1", "a2", "b2"] and copy.deepcopy(c).moves == c.moves
    p = mp.State("pentago", "a1-TL-cw d4-BR-ccw")
    assert p.moves == ["a1-TL-cw", "d4-BR-ccw"] and p.ply == 2
    assert p.move_to_string(p.string_to_move("f6-BR-cw")) == "f6-BR-cw"


def test_observation_is_the_nets_input_planes() -> None:
    s = mp.State("hex:3", ["b1"])  # Black at row 0, column 1; White to move
    x = s.observation()
    assert x.dtype == np.float32 and x.shape == (2, 3, 3) == s.game().observation_shape
    # White sees the board transposed (src/nn/features.rs): the opponent's stone at (1, 0).
    assert x[1, 1, 0] == 1.0 and x.sum() == 1.0
    s.apply("c3")  # Black to move: own plane, not transposed
    x = s.observation()
    assert x[0, 0, 1] == 1.0 and x[1, 2, 2] == 1.0 and x.sum() == 2.0
    t = mp.State("tictactoe", ["b2"]).observation()
    assert t[1, 1, 1] == 1.0 and t[0].sum() == 0.0
    p = mp.State("pentago", ["a1-BR-cw"]).observation()  # no net: plain planes, 6x6
    assert p.shape == (2, 6, 6) and p[1, 0, 0] == 1.0


# ---- errors: the engine's sentence, nothing changed ----


def test_bad_spec_raises_the_engines_message(cli) -> None:
    with pytest.raises(ValueError) as e:
        mp.Game("chess")
    assert str(e.value) == cli.fail("replay", "--game", "chess")
    with pytest.raises(ValueError, match=r"^bad spec 'hex:99'"):
        mp.State("hex:99")


def test_illegal_move_raises_and_leaves_the_state_unchanged(cli) -> None:
    with pytest.raises(ValueError) as e:
        mp.State("tictactoe", ["a1", "a1"])
    assert str(e.value) == cli.fail("replay", "--game", "tictactoe", "--moves", "a1 a1")
    s = mp.State("hex:5", ["c3"])
    before = (s.moves, s.board(), s.current_player(), s.legal_moves())
    for bad, msg in [
        ("c3", "illegal move c3: not a legal move in this position"),
        ("z9", "cannot read move 'z9': column 'z' is off the board (columns a..e)"),
        ("swap", "cannot read move 'swap': the swap move needs the swap rule (spec hex:5:swap)"),
        (25, "move index 25 out of range 0..25 for 'hex:5'"),
    ]:
        with pytest.raises(ValueError) as e:
            s.apply(bad)
        assert str(e.value) == msg
        assert (s.moves, s.board(), s.current_player(), s.legal_moves()) == before
    with pytest.raises(ValueError, match="nothing to undo"):
        mp.State("hex:5").undo()
    done = mp.State("tictactoe", "a1 b1 a2 b2 a3")
    with pytest.raises(ValueError, match="the game is over"):
        done.apply("c3")
    with pytest.raises(ValueError) as e:
        mp.search(done, iterations=10)
    assert str(e.value) == cli.fail("search", "--game", "tictactoe", "--moves", "a1 b1 a2 b2 a3")


def test_bad_presets_and_overrides_raise_the_engines_message(cli) -> None:
    s = mp.State("tictactoe")
    cases = [
        ({"preset": "nonsense"}, ["--algo", "nonsense"]),
        ({"overrides": {"nope": 1}}, ["--set", "nope=1"]),
        ({"overrides": {"c": -1.0}}, ["--set", "c=-1.0"]),
        ({"overrides": {"rave_k": "many"}}, ["--set", "rave_k=many"]),
        ({"preset": "alphazero", "net": "Cargo.toml"}, ["--algo", "alphazero", "--net", "Cargo.toml"]),
    ]
    for kwargs, args in cases:
        kwargs = {k: (str(REPO / v) if k == "net" else v) for k, v in kwargs.items()}
        args = [str(REPO / a) if a == "Cargo.toml" else a for a in args]
        with pytest.raises(ValueError) as e:
            mp.search(s, iterations=10, **kwargs)
        assert str(e.value) == cli.fail("search", "--game", "tictactoe", "--iterations", "10", *args)
    with pytest.raises(ValueError, match="give iterations or ms, not both"):
        mp.search(s, iterations=10, ms=10)
    with pytest.raises(ValueError, match="milliseconds are 0"):
        mp.search(s, ms=float("nan"))
    with pytest.raises(ValueError, match="overrides are a dict"):
        mp.search(s, overrides="c=1")
    assert s.moves == [] and s.board() == ".../.../..."


# ---- the same reports as the command line ----

SEARCHES = [
    ("tictactoe", "a1 b1 b2", "uct", 3000, 5, {}),
    ("hex:5", "c3", "rave", 2000, 3, {}),
    ("hex:5", "", "uct", 1000, 7, {"c": 0.5, "final_move": "max"}),
    ("pentago", "a1-TL-cw", "best", 800, 2, {}),
    ("hex:5", "", "alphazero", 300, 1, {}),
]


@pytest.mark.parametrize(("game", "moves", "preset", "iterations", "seed", "overrides"), SEARCHES)
def test_search_equals_the_cli_report(cli, game, moves, preset, iterations, seed, overrides) -> None:
    report = mp.search(mp.State(game, moves), preset, iterations=iterations, seed=seed, overrides=overrides)
    sets = [a for k, v in overrides.items() for a in ("--set", f"{k}={v}")]
    args = ["search", "--game", game, "--moves", moves, "--algo", preset, "--iterations", str(iterations), "--seed", str(seed), *sets]
    expected = cli(*args)
    assert list(report) == list(expected), "the same keys in the same order"
    assert without_timing(report) == without_timing(expected)
    assert report["iterations"] == iterations or report["proven"] is not None


def test_root_parallel_search_equals_the_cli_report(cli) -> None:
    report = mp.search(mp.State("hex:5"), "rave", iterations=2000, seed=4, threads=2)
    expected = cli("search", "--game", "hex:5", "--algo", "rave", "--iterations", "2000", "--seed", "4", "--threads", "2")
    assert report["threads"] == 2 and len(report["workers"]) == 2
    assert without_timing(report) == without_timing(expected)


def test_a_net_file_is_used_as_the_cli_uses_it(cli) -> None:
    net = str(REPO / "models" / "hex5.mctsnet")
    info = mp.load_net(net)
    assert info["spec"] == "hex:5" and info["parameters"] > 0 and info["trunk"] == "mlp"
    report = mp.search(mp.State("hex:5", "c3"), "alphazero", iterations=200, seed=2, net=net)
    expected = cli("search", "--game", "hex:5", "--moves", "c3", "--algo", "alphazero", "--iterations", "200", "--seed", "2", "--net", net)
    assert without_timing(report) == without_timing(expected)
    with pytest.raises(ValueError, match="a net for 'hex:5', not 'hex:7'"):
        mp.load_net(net, spec="hex:7")


ARENAS = [
    ("tictactoe", "uct", "rave", ["--games", "6"], {"games": 6}),
    ("hex:5", "rave", "uct", [], {}),  # the default: every first move, colours swapped (50 games)
    ("pentago", "best", "uct", ["--games", "4", "--set-a", "c=0.5"], {"games": 4, "overrides_a": {"c": 0.5}}),
]


@pytest.mark.parametrize(("game", "a", "b", "args", "kwargs"), ARENAS)
def test_arena_equals_the_cli_report(cli, game, a, b, args, kwargs) -> None:
    report = mp.arena(game, a, b, iterations=100, seed=2, threads=2, **kwargs)
    expected = cli("arena", "--game", game, "--a", a, "--b", b, "--iterations", "100", "--seed", "2", "--threads", "2", *args)
    assert without_timing(report) == without_timing(expected)
    assert report["games"] == len(report["records"]) == report["wins"] + report["draws"] + report["losses"]


def test_arena_refuses_bad_options_with_the_cli_message(cli) -> None:
    with pytest.raises(ValueError) as e:
        mp.arena("tictactoe", "uct", "nope", iterations=10)
    assert str(e.value) == cli.fail("arena", "--game", "tictactoe", "--a", "uct", "--b", "nope", "--iterations", "10")
    with pytest.raises(ValueError) as e:
        mp.arena("hex:3", "uct", "uct", openings="no-such-file.txt", iterations=10)
    assert str(e.value) == cli.fail("arena", "--game", "hex:3", "--a", "uct", "--b", "uct", "--openings", "no-such-file.txt")
    with pytest.raises(ValueError, match="at most 1000000 games"):
        mp.arena("tictactoe", "uct", "uct", games=1_000_001)
    with pytest.raises(ValueError, match="clock 'sundial'"):
        mp.arena("tictactoe", "uct", "uct", ms=5, clock="sundial")


def test_whole_number_arguments_are_refused_with_a_value_error() -> None:
    """Negative, fractional or textual counts, seeds and budgets: a ValueError naming the
    argument, not the OverflowError or TypeError of the conversion to the engine's integers."""
    s = mp.State("tictactoe")
    for kwargs, name in [
        ({"seed": -1}, "seed"),
        ({"iterations": -5}, "iterations"),
        ({"iterations": 2.5}, "iterations"),
        ({"seed": 2**64}, "seed"),
        ({"threads": "2"}, "threads"),
        ({"seed": True}, "seed"),
    ]:
        with pytest.raises(ValueError, match=rf"^{name} must be a whole number from 0 to"):
            mp.search(s, "uct", **kwargs)
    with pytest.raises(ValueError, match="^games must be a whole number"):
        mp.arena("tictactoe", "uct", "uct", games=-1, iterations=10)
    with pytest.raises(ValueError, match="^seed must be a whole number"):
        mp.arena("tictactoe", "uct", "uct", games=2, iterations=10, seed=-3)
    with pytest.raises(ValueError, match="^tt_mib must be a whole number"):
        mp.solve(s, tt_mib=-1)
    with pytest.raises(ValueError, match="^max_nodes must be a whole number"):
        mp.solve(s, max_nodes=-1)
    with pytest.raises(ValueError, match="^seed must be a whole number"):
        mp.review("tictactoe", "b2", iterations=10, seed=-1)
    # Control characters in a refused input are quoted in the sentence, not sent to the terminal.
    with pytest.raises(ValueError) as e:
        mp.State("hex:5", ["c3\x1b[2J\x9b"])
    assert "\\u{1b}[2J\\u{9b}" in str(e.value) and not any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in str(e.value)), str(e.value)
    # NumPy integers are whole numbers.
    assert mp.search(s, "uct", iterations=np.int64(50), seed=np.uint64(1))["iterations"] == 50
    assert s.moves == []


def test_solve_equals_the_cli_report(cli) -> None:
    report = mp.solve(mp.State("hex:4", "b2"))
    expected = cli("solve", "--game", "hex:4", "--moves", "b2")
    assert without_timing(report) == without_timing(expected)
    report = mp.solve(mp.Game("hex:4"), openings=True, solver="negamax")
    assert without_timing(report) == without_timing(cli("solve", "--game", "hex:4", "--openings", "--solver", "negamax"))


def test_solve_agrees_with_the_published_5x5_and_6x6_results() -> None:
    # 5x5: the first player wins with 13 of the 25 openings, these (Hayward et al.; docs/cli/solve.md).
    five = mp.solve(mp.Game("hex:5"), openings=True)
    wins = {o["move"] for o in five["openings"] if o["mover_wins"]}
    assert wins == set("e1 b2 c2 d2 e2 b3 c3 d3 a4 b4 c4 d4 a5".split()) and five["unknown"] == 0
    # 6x6: 24 of the 36 openings win (Hayward, Björnsson, Johanson et al. 2003).
    six = mp.solve(mp.Game("hex:6"), openings=True)
    assert six["mover_wins"] == 24 and six["unknown"] == 0 and len(six["openings"]) == 36
    assert mp.solve(mp.State("hex:6", "c3"))["winner"] == "black"  # c3 is one of the winning openings


def test_solve_tic_tac_toe_and_pentago_endgames(cli) -> None:
    report = mp.solve(mp.Game("tictactoe"))
    assert report["value"] == "draw" and report["winner"] is None and report["solver"] == "alphabeta"
    openings = mp.solve(mp.Game("tictactoe"), openings=True)
    assert openings["mover_draws"] == 9 and openings["mover_wins"] == 0
    assert without_timing(openings) == without_timing(cli("solve", "--game", "tictactoe", "--openings"))
    won = mp.solve(mp.State("tictactoe", "a1 a2 b1 b2"))
    assert (won["value"], won["winner"], won["winning_move"]) == ("win", "x", "c1")


def test_solve_docstring_and_table_follow_the_engine() -> None:
    # The endgame solver takes Pentago positions with at most 16 empty cells (PENTAGO_MAX_EMPTY),
    # and the docstring says so (it said 8).
    assert "16 empty cells" in (mp.solve.__doc__ or "")
    sixteen = "b3-TR-cw f6-TR-cw a3-TR-cw c2-BR-ccw d3-BR-ccw f4-BL-cw f3-BL-ccw d5-BL-cw e4-TR-ccw c3-TR-cw"
    sixteen += " a6-BR-cw e6-BR-ccw b2-TR-cw e3-TL-ccw f1-TR-ccw c4-TL-cw e6-BL-cw d2-TL-cw c4-TL-cw c3-BL-ccw"
    assert mp.solve(mp.State("pentago", sixteen), max_nodes=10_000_000)["value"] == "win"
    with pytest.raises(ValueError, match="at most 16 empty cells"):
        mp.solve(mp.State("pentago", " ".join(sixteen.split()[:19])))
    # The table grows only as the position needs: the largest budget on Hex 3x3 takes 64 KiB
    # (it took 16 GiB up front and killed the interpreter).
    report = mp.solve(mp.State("hex:3"), tt_mib=16384)
    assert report["tt_max_bytes"] == 16384 << 20 and report["tt_bytes"] <= 64 << 10
    # The negamax honours the time limit like the other solvers.
    with pytest.raises(ValueError, match=r"not solved within 0\.1 s \(--time\)"):
        mp.solve(mp.State("hex:6"), solver="negamax", time=0.1)


def test_solve_refuses_what_it_cannot_solve(cli) -> None:
    for state, args in [
        (mp.State("pentago"), ["--game", "pentago"]),
        (mp.State("hex:9"), ["--game", "hex:9"]),
        (mp.State("hex:4:swap"), ["--game", "hex:4:swap"]),
    ]:
        with pytest.raises(ValueError) as e:
            mp.solve(state)
        assert str(e.value) == cli.fail("solve", *args)
    with pytest.raises(ValueError, match="epsilon 5: a number from 0 to 4"):
        mp.solve(mp.State("hex:3"), epsilon=5.0)
    with pytest.raises(ValueError, match="solver 'magic'"):
        mp.solve(mp.State("hex:3"), solver="magic")


def test_review_equals_the_cli_report(cli) -> None:
    # Hex 4x4: every position solved (exact values), 200 playouts per position.
    moves = "a1 d1 b2 c3"
    report = mp.review("hex:4", moves, iterations=200, seed=5)
    expected = cli("review", "--game", "hex:4", "--moves", moves, "--iterations", "200", "--seed", "5")
    assert without_timing({k: v for k, v in report.items() if k != "timing"}) == without_timing(
        {k: v for k, v in expected.items() if k != "timing"}
    )
    assert report["plies"][0]["class"] == "blunder" and report["plies"][0]["label"] == "won → lost"
    # A State is its main line; two threads give the same report with a playout budget.
    state = mp.State("hex:5", "c3 b4 d2")
    two = mp.review(state, iterations=150, solve_ms=0, threads=2)
    one = cli("review", "--game", "hex:5", "--moves", "c3 b4 d2", "--iterations", "150", "--solve-ms", "0")
    assert {k: v for k, v in two.items() if k != "timing"} == {k: v for k, v in one.items() if k != "timing"}
    assert set(two["summary"]) == {"black", "white"}


def test_review_refusals_are_the_engines_sentences(cli) -> None:
    for moves, args in [("b2 b2", ["--moves", "b2 b2"]), ("a1 a2 b1 b2 c1 c2", ["--moves", "a1 a2 b1 b2 c1 c2"])]:
        with pytest.raises(ValueError) as e:
            mp.review("tictactoe", moves, iterations=10)
        assert str(e.value) == cli.fail("review", "--game", "tictactoe", *args, "--iterations", "10")
    with pytest.raises(ValueError, match="at most 1000 moves"):
        mp.review("hex:11", ["a1"] * 1001)
    with pytest.raises(ValueError, match="not both"):
        mp.review("hex:3", "b2", iterations=10, ms=10)
