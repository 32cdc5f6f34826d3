"""The subtraction game's picture (perfectplay.games.subtraction.picture): its heap as tokens."""

from __future__ import annotations

from brute import brute_subtraction
from hypothesis import given
from hypothesis import strategies as st
from picture_helpers import check_drawing, marked, parsed, played

from perfectplay.api import solve
from perfectplay.games.registry import load_game
from perfectplay.games.subtraction.picture import drawing
from perfectplay.svg.heaps import MAX_TOKENS

SUBTRACTION = load_game("subtraction", heap=12, take=(1, 3, 4))
SUBTRACTION_SOLVED = solve(SUBTRACTION)


@given(st.lists(st.integers(0, 20), max_size=10))
def test_a_subtraction_heap_marks_each_take_and_greys_the_rest(choices: list[int]) -> None:
    heap = played(SUBTRACTION, choices)
    picture = check_drawing(drawing, SUBTRACTION, SUBTRACTION_SOLVED, heap)
    marks = marked(picture)
    assert {int(label) for label in marks} == {k for k in (1, 3, 4) if k <= heap}
    wins = brute_subtraction(12, (1, 3, 4))
    for label, mark in marks.items():
        child_loses = not wins[heap - int(label)]
        assert (mark.get("data-value") == "WIN") == child_loses
    grey = [c for c in parsed(picture) if c.tag == "circle"]
    assert len(grey) == heap - len(marks)
    assert picture.caption == f"{heap} tokens; a move takes one of {{1, 3, 4}}"


def test_a_heap_beyond_max_tokens_falls_back_to_the_text_picture() -> None:
    heap = load_game("subtraction", heap=MAX_TOKENS + 1, take=(1, 2))
    assert drawing(heap, MAX_TOKENS + 1, {}) is None
    assert drawing(heap, MAX_TOKENS, {}) is not None
