"""Quixo's picture (perfectplay.games.quixo.picture) on positions of random play."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from picture_helpers import board_tags, check_drawing, marked, played

from perfectplay.api import solve
from perfectplay.games.quixo.picture import drawing
from perfectplay.games.registry import load_game

GAME = load_game("quixo", size=3)
SOLVED = solve(GAME)


def _lines(board: str) -> set[str]:
    """Who has a full row, column or diagonal of the 3 x 3 board."""
    rows = [board[3 * r : 3 * r + 3] for r in range(3)]
    cols = [board[c::3] for c in range(3)]
    return {
        line[0] for line in [*rows, *cols, board[0::4], board[2:7:2]] if len(set(line)) == 1
    } - {"-"}


@given(st.lists(st.integers(0, 40), max_size=20))
def test_the_cubes_are_drawn_and_each_push_sits_in_a_cube_the_mover_may_take(
    choices: list[int],
) -> None:
    board, turn = position = played(GAME, choices)
    picture = check_drawing(drawing, GAME, SOLVED, position)
    tags = board_tags(picture)
    assert (tags["rect"], tags["line"], tags["circle"]) == (
        9,
        2 * board.count("X"),
        board.count("O"),
    )
    for label, mark in marked(picture).items():
        cell = int(label[:-1]) - 1
        r, c = divmod(cell, 3)
        assert r in (0, 2) or c in (0, 2), label  # an edge cube
        assert board[cell] in ("-", turn), label  # blank or the mover's
        badge = next(mark.iter("circle"))
        x, y = float(badge.get("cx", "")), float(badge.get("cy", ""))
        assert int(x // 110) == c and int(y // 110) == r  # drawn on that cube


@given(st.lists(st.integers(0, 40), max_size=20))
def test_the_caption_names_the_mover_or_who_has_a_line(choices: list[int]) -> None:
    board, turn = position = played(GAME, choices)
    caption = drawing(GAME, position, {}).caption
    lines = _lines(board)
    if not lines:
        assert caption == f"{turn} to move"
    else:
        # A push that makes lines for both players loses it: the player to move has won.
        other = "O" if turn == "X" else "X"
        assert caption == f"{turn if turn in lines else other} has a line"


def test_with_lines_for_both_the_player_to_move_has_won() -> None:
    assert drawing(GAME, ("XXXOOO-X-", "O"), {}).caption == "O has a line"
    assert drawing(GAME, ("XXXOO--X-", "O"), {}).caption == "X has a line"
