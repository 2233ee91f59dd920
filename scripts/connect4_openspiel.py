"""Writes tests/data/connect4-openspiel.jsonl: seeded random games of OpenSpiel's `connect_four`
(an independent implementation of the rules) that tests/connect4.rs replays.

    python3 -m venv /tmp/osvenv && /tmp/osvenv/bin/pip install open_spiel
    /tmp/osvenv/bin/python scripts/connect4_openspiel.py > tests/data/connect4-openspiel.jsonl

One JSON line per game, in the shape of ../shared/reference/playouts_*.jsonl: `seed`, `moves`
(column letters a..g), `actions` (OpenSpiel's action = column 0..6), `returns` ([r0, r1]: +1 win,
-1 loss, 0 draw), `winner` (0, 1 or null) and `positions[]`, one per position including the
start: `{ply, to_move, board, legal_count, terminal}`. `board` is OpenSpiel's state string
(rows top to bottom, as it prints them) with `x` -> `X` (player 0), `o` -> `O` (player 1), rows
joined by `/`: the engine's board string.
"""

import json
import random

import pyspiel

GAMES = 200
SEED = 20261129


def board(state):
    rows = str(state).strip().split("\n")
    return "/".join(r.replace("x", "X").replace("o", "O") for r in rows)


def main():
    game = pyspiel.load_game("connect_four")
    for i in range(GAMES):
        seed = SEED + i
        rng = random.Random(seed)
        s = game.new_initial_state()
        actions = []
        positions = []
        while True:
            terminal = s.is_terminal()
            positions.append(
                {
                    "ply": len(actions),
                    "to_move": None if terminal else s.current_player(),
                    "board": board(s),
                    "legal_count": 0 if terminal else len(s.legal_actions()),
                    "terminal": terminal,
                }
            )
            if terminal:
                break
            a = rng.choice(s.legal_actions())
            actions.append(a)
            s.apply_action(a)
        returns = s.returns()
        winner = 0 if returns[0] > 0 else 1 if returns[1] > 0 else None
        print(
            json.dumps(
                {
                    "game": "connect_four",
                    "openspiel_version": "2.0.2",
                    "seed": seed,
                    "moves": [chr(ord("a") + a) for a in actions],
                    "actions": actions,
                    "returns": returns,
                    "winner": winner,
                    "positions": positions,
                },
                separators=(",", ":"),
            )
        )


if __name__ == "__main__":
    main()
