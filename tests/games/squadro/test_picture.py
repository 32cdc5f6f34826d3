"""Squadro's picture (perfectplay.games.squadro.picture) on positions of random play."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from picture_helpers import board_tags, check_drawing, marked, played

from perfectplay.api import solve
from perfectplay.games.registry import load_game
from perfectplay.games.squadro.picture import drawing

GAME = load_game("squadro", speeds=(1, 2, 3), home=2)
SOLVED = solve(GAME)
CELL = 70.0


def centre(side: int, piece: int, p: int) -> tuple[float, float]:
    """Where piece `piece` of `side` stands at track position `p` (3 pieces a side)."""
    line = p if p <= 4 else 8 - p
    r, c = (line, piece + 1) if side == 0 else (piece + 1, line)
    return (c + 0.5) * CELL, (r + 0.5) * CELL


@given(st.lists(st.integers(0, 2), max_size=60))
def test_each_move_is_an_arrow_from_its_piece_to_where_it_lands(choices: list[int]) -> None:
    position = played(GAME, choices)
    picture = check_drawing(drawing, GAME, SOLVED, position)
    tags = board_tags(picture)
    assert tags["polygon"] == 6  # every piece, home or not
    assert tags["circle"] == 3 * 8  # the speed dots: 4 per lane end pair, 6 lanes
    side = "TL".index(position[2])
    children = dict(GAME.moves(position))
    for label, mark in marked(picture).items():
        piece = int(label) - 1
        line = next(mark.iter("line"))
        start = centre(side, piece, position[side][piece])
        assert (float(line.get("x1", "")), float(line.get("y1", ""))) == start
        x2, y2 = centre(side, piece, children[label][side][piece])
        head = next(mark.iter("polygon")).get("points", "").split()[0].split(",")
        assert abs(float(head[0]) - x2) < 0.02 and abs(float(head[1]) - y2) < 0.02


@given(st.lists(st.integers(0, 2), max_size=60))
def test_the_caption_names_the_side_to_move_or_the_winner(choices: list[int]) -> None:
    position = played(GAME, choices)
    caption = drawing(GAME, position, {}).caption
    if GAME.outcome(position) is None:
        assert caption == ("top" if position[2] == "T" else "left") + " to move"
    else:
        assert caption == ("left" if position[2] == "T" else "top") + " has 2 pieces home and wins"
