"""The fallback picture (perfectplay.draw.text): a game's text and one button per move."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st
from picture_helpers import marked, parsed

from perfectplay.draw.text import BUTTON_HEIGHT, BUTTON_WIDTH, move_buttons, text_drawing
from perfectplay.moves import Move
from perfectplay.svg.elements import group
from perfectplay.svg.palette import value_colour
from perfectplay.values import NO_REMOTENESS, Value


@st.composite
def valued_moves(draw: st.DrawFn) -> list[Move[int]]:
    labels = draw(
        st.lists(st.text("abc<&xyz0123456789 ", min_size=1, max_size=20), unique=True, max_size=15)
    )
    moves = []
    for label in labels:
        value = draw(st.sampled_from([Value.WIN, Value.LOSE, Value.TIE, Value.DRAW]))
        rem = NO_REMOTENESS if value == Value.DRAW else draw(st.integers(1, 30))
        moves.append(Move(label, 0, value, rem))
    return moves


@given(valued_moves(), st.floats(0, 500))
def test_buttons_six_to_a_row_each_marked_once_in_its_colour(
    moves: list[Move[int]], top: float
) -> None:
    height, parts = move_buttons(moves, top)
    rows = -(-len(moves) // 6)
    assert height == rows * (BUTTON_HEIGHT + 8)
    root = ET.fromstring(group(parts))
    found = {e.get("data-move"): e for e in root if e.get("class") == "move"}
    assert list(found) == [m.label for m in moves]
    for k, move in enumerate(moves):
        rect = next(found[move.label].iter("rect"))
        assert rect.get("fill") == value_colour(move.value)
        x, y = float(rect.get("x", "")), float(rect.get("y", ""))
        expected = ((k % 6) * (BUTTON_WIDTH + 8), top + (k // 6) * (BUTTON_HEIGHT + 8))
        assert (x, y) == pytest.approx(expected, abs=0.006)  # coordinates to 2 decimals
        label = next(t.text for t in found[move.label].iter("text"))
        assert label == move.label[:14]  # long labels cut to fit the button


@given(st.text(max_size=200), valued_moves())
def test_the_text_comes_back_line_by_line_above_the_buttons(
    text: str, moves: list[Move[int]]
) -> None:
    text = "".join(ch for ch in text if ch.isprintable() or ch == "\n")
    drawing = text_drawing(text, moves)
    lines = [t.text or "" for t in parsed(drawing) if t.tag == "text"]
    assert lines == (text.splitlines() or [""])
    assert set(marked(drawing)) == {m.label for m in moves}
    assert drawing.width >= 200
    assert drawing.height == len(lines) * 20 + 10 + -(-len(moves) // 6) * (BUTTON_HEIGHT + 8)
    for rect in parsed(drawing).iter("rect"):  # every button inside the picture
        assert float(rect.get("x", "")) + BUTTON_WIDTH <= drawing.width
        assert float(rect.get("y", "")) + BUTTON_HEIGHT <= drawing.height


def test_a_long_text_is_cut_at_sixty_lines_saying_how_many_more() -> None:
    drawing = text_drawing("\n".join(str(k) for k in range(100)))
    lines = [t.text for t in parsed(drawing) if t.tag == "text"]
    assert len(lines) == 60 and lines[:59] == [str(k) for k in range(59)]
    assert lines[-1] == "... (41 more lines)"
    assert text_drawing("\n".join("x" * 60)).height == text_drawing("x").height + 59 * 20
