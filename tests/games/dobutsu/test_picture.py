"""Dobutsu Shogi's picture (perfectplay.games.dobutsu.picture) on positions of random play."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from picture_helpers import board_tags, check_drawing, marked, played

from perfectplay.api import solve
from perfectplay.games.dobutsu.picture import drawing
from perfectplay.games.registry import load_game

GAME = load_game("dobutsu", giraffes=1, elephants=0, chicks=2)
SOLVED = solve(GAME)
CELL, HAND = 100.0, 60.0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 40), max_size=30))
def test_every_move_is_marked_once_where_it_goes(choices: list[int]) -> None:
    board, hands, turn = position = played(GAME, choices)
    picture = check_drawing(drawing, GAME, SOLVED, position)
    pieces = sum(p != "-" for p in board) + len(hands)
    assert board_tags(picture)["rect"] == 12 + pieces  # a square per cell, a tile per piece
    for label, mark in marked(picture).items():
        source, _, dest = label.partition("-")
        r, c = divmod(int(dest) - 1, 3)
        if source.isalpha():  # a drop: a disc on the empty cell, lettered with the piece
            assert board[int(dest) - 1] == "-"
            disc = next(mark.iter("circle"))
            x, y = float(disc.get("cx", "")), float(disc.get("cy", ""))
            assert (int(x // CELL), int((y - HAND) // CELL)) == (c, r)
            assert any(t.text == source.upper() for t in mark.iter("text"))
            continue
        start = int(source) - 1
        mine = str.isupper if turn == "F" else str.islower
        assert mine(board[start])
        line = next(mark.iter("line"))  # the arrow leaves the piece's cell towards the target
        r0, c0 = divmod(start, 3)
        x1, y1 = float(line.get("x1", "")), float(line.get("y1", ""))
        assert (int(x1 // CELL), int((y1 - HAND) // CELL)) == (c0, r0)
        x2, y2 = float(line.get("x2", "")), float(line.get("y2", ""))
        assert (x2 - x1) * (c - c0) >= 0 and (y2 - y1) * (r - r0) >= 0


def test_captions_name_the_player_or_the_end() -> None:
    game = load_game("dobutsu", giraffes=0, elephants=0, chicks=0)
    assert drawing(game, game.parse("-l-/---/---/-L- S -"), {}).caption == "Sky to move"
    assert drawing(game, game.parse("-L-/---/---/--- S -"), {}).caption == "Forest caught the lion"
    assert drawing(game, game.parse("L--/---/--l/--- S -"), {}).caption.endswith("a try")
    assert "catches it" in drawing(game, game.parse("Ll-/---/---/--- S -"), {}).caption
