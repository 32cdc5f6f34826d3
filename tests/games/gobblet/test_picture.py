"""Gobblet Gobblers' picture (perfectplay.games.gobblet.picture) on positions of random play."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from picture_helpers import board_tags, check_drawing, marked, played

from perfectplay.api import solve
from perfectplay.games.gobblet.picture import drawing
from perfectplay.games.registry import load_game

GAME = load_game("gobblet-gobblers", sizes=2, pieces=1)
SOLVED = solve(GAME)
CELL = 130.0


@given(st.lists(st.integers(0, 40), max_size=16))
def test_every_piece_is_a_disc_and_each_move_sits_where_the_rules_put_it(
    choices: list[int],
) -> None:
    cells, turn = position = played(GAME, choices)
    picture = check_drawing(drawing, GAME, SOLVED, position)
    on_board = sum(len(stack) for stack in cells)
    in_reserve = sum(sum(GAME.reserve(cells, player)) for player in "XO")
    assert board_tags(picture)["circle"] == on_board + in_reserve
    for label, mark in marked(picture).items():
        if "-" in label:  # a move: an arrow leaving the mover's visible piece
            src, dest = (("abc".index(n[0]), int(n[1]) - 1) for n in label.split("-"))
            assert cells[3 * src[1] + src[0]][-1].isupper() == (turn == "X")
            line = next(mark.iter("line"))
            x1, y1 = float(line.get("x1", "")), float(line.get("y1", ""))
            assert (int(x1 // CELL), int(y1 // CELL)) == src
            x2, y2 = float(line.get("x2", "")), float(line.get("y2", ""))
            assert (x2 - x1) * (dest[0] - src[0]) >= 0 and (y2 - y1) * (dest[1] - src[1]) >= 0
        else:  # a placement: a disc at the foot of its cell, left for small
            c, r = "abc".index(label[1]), int(label[2]) - 1
            disc = next(mark.iter("circle"))
            x, y = float(disc.get("cx", "")), float(disc.get("cy", ""))
            assert (int(x // CELL), int(y // CELL)) == (c, r)
            assert (x < (c + 0.5) * CELL) == (label[0] == "S")


def test_the_caption_names_the_side_to_move_or_the_line() -> None:
    game = load_game("gobblet-gobblers")
    assert drawing(game, game.initial(), {}).caption == "X to move"
    both = game.parse("s,m,s/L,-,-/L,M,M X")
    assert drawing(game, both, {}).caption == "X has a line"
    assert drawing(game, game.parse("s,m,s/L,-,-/-,M,M X"), {}).caption == "O has a line"
