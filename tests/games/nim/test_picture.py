"""Nim's picture (perfectplay.games.nim.picture): one row of tokens per heap."""

from __future__ import annotations

from functools import reduce
from operator import xor

from hypothesis import given
from hypothesis import strategies as st
from picture_helpers import check_drawing, marked, parsed, played

from perfectplay.api import solve
from perfectplay.games.nim.picture import nim_drawing
from perfectplay.games.registry import load_game
from perfectplay.svg.heaps import MAX_TOKENS

NIM = load_game("nim", heaps=(2, 3, 5))
NIM_SOLVED = solve(NIM)
STEP, LEFT = 44.0, 92.0


def _token(circle_x: float) -> int:
    """Which token of its heap (0 = leftmost) a circle centred at `circle_x` is."""
    return round((circle_x - LEFT) / STEP - 0.5)


@given(st.lists(st.integers(0, 20), max_size=10))
def test_each_take_is_marked_on_the_token_where_the_removal_starts(choices: list[int]) -> None:
    heaps = played(NIM, choices)
    picture = check_drawing(nim_drawing, NIM, NIM_SOLVED, heaps)
    assert len(list(parsed(picture).iter("circle"))) == sum(heaps)
    for label, mark in marked(picture).items():
        i, k = (int(x) for x in label[1:].split("-"))
        circle = next(mark.iter("circle"))
        assert _token(float(circle.get("cx", ""))) == heaps[i - 1] - k
        assert float(circle.get("cy", "")) == (i - 0.5) * STEP
    assert picture.caption == (
        f"heaps {' '.join(map(str, heaps))}: nim-sum {reduce(xor, heaps, 0)}"
    )


def test_heaps_beyond_max_tokens_fall_back_to_the_text_picture() -> None:
    big = load_game("nim", heaps=(1, MAX_TOKENS + 1))
    assert nim_drawing(big, (1, MAX_TOKENS + 1), {}) is None
    assert nim_drawing(big, (1, MAX_TOKENS), {}) is not None


def test_empty_heaps_still_have_a_size() -> None:
    empty = nim_drawing(NIM, (0, 0, 0), {})
    assert empty is not None and empty.width > LEFT and empty.caption.endswith("nim-sum 0")
