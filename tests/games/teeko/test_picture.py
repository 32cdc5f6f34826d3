"""Teeko's picture (perfectplay.games.teeko.picture) on positions of random play."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from picture_helpers import board_tags, check_drawing, marked, played

from perfectplay.api import solve
from perfectplay.games.registry import load_game
from perfectplay.games.teeko.picture import drawing

GAME = load_game("teeko", size=3, pieces=3)
SOLVED = solve(GAME)
CELL = 100.0


@given(st.lists(st.integers(0, 40), max_size=16))
def test_drops_sit_on_empty_cells_and_slides_point_from_the_movers_piece(
    choices: list[int],
) -> None:
    board, turn = position = played(GAME, choices)
    picture = check_drawing(drawing, GAME, SOLVED, position)
    tags = board_tags(picture)
    assert (tags["line"], tags["circle"]) == (2 * board.count("X"), board.count("O"))
    for label, mark in marked(picture).items():
        ends = [int(part) - 1 for part in label.split("-")]
        if len(ends) == 1:
            assert board[ends[0]] == "-" and board.count("-") > 3  # a drop, in the drop phase
            disc = next(mark.iter("circle"))
            r, c = divmod(ends[0], 3)
            centre = (float(disc.get("cx", "")), float(disc.get("cy", "")))
            assert centre == ((c + 0.5) * CELL, (r + 0.5) * CELL)
            continue
        start, stop = ends
        assert board[start] == turn and board[stop] == "-", label
        (r, c), (r2, c2) = divmod(start, 3), divmod(stop, 3)
        assert max(abs(r2 - r), abs(c2 - c)) == 1  # to a neighbouring cell
        line = next(mark.iter("line"))
        # The arrow leaves the piece's cell towards the neighbour's.
        x1, y1 = float(line.get("x1", "")), float(line.get("y1", ""))
        assert (int(x1 // CELL), int(y1 // CELL)) == (c, r)
        x2, y2 = float(line.get("x2", "")), float(line.get("y2", ""))
        assert (x2 - x1) * (c2 - c) >= 0 and (y2 - y1) * (r2 - r) >= 0


@given(st.lists(st.integers(0, 40), max_size=16))
def test_the_caption_names_the_phase_or_the_winner(choices: list[int]) -> None:
    board, turn = position = played(GAME, choices)
    caption = drawing(GAME, position, {}).caption
    if GAME.outcome(position) is not None:
        assert caption == f"{'O' if turn == 'X' else 'X'} has three in a pattern"
    else:
        assert caption == f"{turn} to {'drop' if board.count('-') > 3 else 'move'}"


def test_the_winner_s_caption_counts_the_game_s_pieces() -> None:
    """Standard Teeko wins with four: X's four on the top row, O to move."""
    game = load_game("teeko")
    won = ("XXXX-OOO" + "-" * 16 + "O", "O")
    assert game.outcome(won) is not None
    assert drawing(game, won, {}).caption == "X has four in a pattern"
