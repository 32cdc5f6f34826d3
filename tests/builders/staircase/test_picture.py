"""The staircase game's picture (perfectplay.builders.staircase.picture): one perfect game."""

from __future__ import annotations

import numpy as np
import pytest
from brute import (
    staircase_scores,
)
from draw_helpers import parsed
from hypothesis import given
from hypothesis import strategies as st

from perfectplay.builders.staircase.picture import MAX_POSITIONS, perfect_game, staircase_svg
from perfectplay.builders.staircase.rules import Staircase
from perfectplay.errors import PictureTooLargeError


def test_staircase_perfect_game_scores_the_brute_force_value() -> None:
    rng = np.random.default_rng(7)
    for _ in range(10):
        n, m = (int(x) for x in rng.integers(1, 4, size=2))
        a = rng.integers(0, 10, size=(n, m)).tolist()
        b = rng.integers(0, 10, size=(n, m)).tolist()
        stones = perfect_game(Staircase(a, b))
        total = sum(g if k % 2 == 0 else -g for k, (_, _, g) in enumerate(stones))
        assert total == staircase_scores(a, b)[(0,) * n]
        assert sorted((r, c) for r, c, _ in stones) == [(r, c) for r in range(n) for c in range(m)]
        svg = staircase_svg(a, b, title="s")
        assert f"black - white = {total}" in svg
        assert sum(1 for e in parsed(svg).iter() if e.get("class") == "stone") == n * m


def test_boards_too_large_to_read_or_to_solve_for_a_picture_are_refused() -> None:
    with pytest.raises(
        PictureTooLargeError, match=r"^441 cells are too many to draw \(at most 400\)"
    ):
        staircase_svg(np.ones((21, 21), int), np.ones((21, 21), int), title="big")
    # 13 x 13 holds C(26, 13) = 10,400,600 staircases: more than a picture solves.
    with pytest.raises(PictureTooLargeError, match=r"^10400600 staircases"):
        staircase_svg(np.ones((13, 13), int), np.ones((13, 13), int), title="big")
    assert MAX_POSITIONS < 10_400_600


@given(st.integers(1, 3), st.integers(1, 3), st.data())
def test_the_stones_alternate_black_and_white_in_playing_order(
    n: int, m: int, data: st.DataObject
) -> None:
    cells = st.lists(st.integers(-5, 9), min_size=m, max_size=m)
    a = data.draw(st.lists(cells, min_size=n, max_size=n))
    b = data.draw(st.lists(cells, min_size=n, max_size=n))
    root = parsed(staircase_svg(a, b, title="t", size=300))
    stones = [e for e in root.iter() if e.get("class") == "stone"]
    assert [int(e.get("data-move", "")) for e in stones] == list(range(1, n * m + 1))
    assert [e.get("data-player") for e in stones] == ["black", "white"] * (n * m // 2) + [
        "black"
    ] * (n * m % 2)
    assert float(root.get("width", "")) == 300
    # Each stone is played on a cell whose row is already filled to its left (a staircase).
    game = Staircase(a, b)
    rows = [0] * n
    for r, c, gain in perfect_game(game):
        assert c == rows[r] and (r == 0 or rows[r - 1] > c)
        rows[r] += 1
        assert gain == (a if sum(rows) % 2 == 1 else b)[r][c]
