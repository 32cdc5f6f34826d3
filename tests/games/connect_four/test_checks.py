"""The checks both Connect Four tier forms apply to a typed board and to a tier's ranks."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from perfectplay.errors import InputFormatError
from perfectplay.games.connect_four.checks import checked_board, checked_ranks


@st.composite
def boards(draw: st.DrawFn) -> tuple[int, int, list[str]]:
    """A board of legal shape: columns of X and O stones, any counts of each."""
    rows = draw(st.integers(1, 6))
    cols = draw(st.integers(1, 7))
    columns = [draw(st.text("XO", max_size=rows)) for _ in range(cols)]
    return rows, cols, columns


@given(boards())
def test_a_board_passes_exactly_when_x_has_as_many_stones_as_o_or_one_more(
    board: tuple[int, int, list[str]],
) -> None:
    rows, cols, columns = board
    x = sum(c.count("X") for c in columns)
    o = sum(c.count("O") for c in columns)
    if x - o in (0, 1):
        assert checked_board(columns, rows, cols) == tuple(columns)
    else:
        with pytest.raises(InputFormatError, match="X must have as many stones as O or one more"):
            checked_board(columns, rows, cols)


@pytest.mark.parametrize(
    ("position", "message"),
    [
        (("X", "", ""), "tuple of 4 column strings"),
        ("X...", "tuple of 4 column strings"),
        (("X", "", "", "OXOXO"), "column 4 must be a string of at most 4 X and O stones"),
        (("X", "x", "", ""), "column 2 must be a string"),
        (("X", 1, "", ""), "column 2 must be a string"),
    ],
)
def test_a_bad_board_is_refused_naming_what_is_wrong(position: object, message: str) -> None:
    with pytest.raises(InputFormatError, match=message):
        checked_board(position, 4, 4)


@given(st.integers(1, 50), st.lists(st.integers(-3, 60), max_size=8))
def test_ranks_pass_exactly_when_they_lie_in_the_tier(size: int, ranks: list[int]) -> None:
    if all(0 <= r < size for r in ranks):
        array = checked_ranks(ranks, size, "t")
        assert array.dtype == np.int64 and array.flags.c_contiguous
        assert array.tolist() == ranks
    else:
        with pytest.raises(InputFormatError, match=rf"tier t: ranks must lie in 0\.\.{size - 1}"):
            checked_ranks(ranks, size, "t")


def test_ranks_of_two_dimensions_are_refused() -> None:
    with pytest.raises(InputFormatError, match=r"one-dimensional, got \(1, 2\)"):
        checked_ranks(np.array([[0, 1]]), 5, "t")
