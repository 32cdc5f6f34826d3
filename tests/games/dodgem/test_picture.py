"""Dodgem's picture (perfectplay.games.dodgem.picture) on positions of random play."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from picture_helpers import check_drawing, marked, parsed, played

from perfectplay.api import solve
from perfectplay.games.dodgem.picture import drawing
from perfectplay.games.registry import load_game
from perfectplay.svg.palette import STONE_DARK, STONE_LIGHT

GAME = load_game("dodgem", size=3)
SOLVED = solve(GAME)


@given(st.lists(st.integers(0, 5), max_size=14))
def test_the_board_shows_each_car_and_an_arrow_per_move_from_a_car_of_the_mover(
    choices: list[int],
) -> None:
    board, turn = position = played(GAME, choices)
    picture = check_drawing(drawing, GAME, SOLVED, position)
    fills = [e.get("fill") for e in parsed(picture).iter("rect")]
    assert fills.count(STONE_DARK) == board.count("B")
    assert fills.count(STONE_LIGHT) == board.count("R")
    for label, mark in marked(picture).items():
        column, row = "abc".index(label[0]), 3 - int(label[1])
        assert board[3 * row + column] == turn, label  # the arrow starts at the mover's car
        badge = next(mark.iter("circle"))
        x, y = float(badge.get("cx", "")), float(badge.get("cy", ""))
        # The badge lies one step from the car's cell, the way the label's letter says.
        dx, dy = {"r": (1, 0), "l": (-1, 0), "u": (0, -1), "d": (0, 1)}[label[-1]]
        cx, cy = 44 + (column + 0.5) * 80, 44 + (row + 0.5) * 80
        assert (x - cx, y - cy) == (dx * 68, dy * 68)


@given(st.lists(st.integers(0, 5), max_size=14))
def test_the_caption_names_whose_turn_it_is(choices: list[int]) -> None:
    position = played(GAME, choices)
    caption = drawing(GAME, position, {}).caption
    assert caption.startswith({"B": "Blue to move", "R": "Red to move"}[position[1]])
