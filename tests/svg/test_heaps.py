"""Heaps of tokens as rows (perfectplay.svg.heaps), read back by an XML parser."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hypothesis import given
from hypothesis import strategies as st

from perfectplay.moves import Move
from perfectplay.svg.heaps import LEFT, STEP, heap_rows
from perfectplay.values import Value


@given(st.lists(st.integers(0, 12), max_size=5), st.data())
def test_one_token_per_unit_and_each_move_marked_where_its_removal_starts(
    heaps: list[int], data: st.DataObject
) -> None:
    takes = {
        (i, k)
        for i, h in enumerate(heaps)
        for k in range(1, h + 1)
        if data.draw(st.booleans(), label=f"heap {i} take {k} legal")
    }
    moves = {f"{i}-{k}": Move(f"{i}-{k}", None, Value.WIN, 1) for i, k in takes}
    parts = heap_rows(heaps, moves, lambda i, k: f"{i}-{k}")
    root = ET.fromstring(f"<svg>{''.join(parts)}</svg>")
    circles = list(root.iter("circle"))
    assert len(circles) == sum(heaps)
    assert [t.text for t in root.findall("text")][: len(heaps)] == [
        f"heap {i + 1}: {h}" for i, h in enumerate(heaps)
    ]
    marks = {g.get("data-move"): g for g in root.iter("g") if g.get("data-move")}
    assert set(marks) == set(moves)
    for label, mark in marks.items():
        i, k = map(int, label.split("-"))
        circle = next(mark.iter("circle"))
        token = round((float(circle.get("cx", "")) - LEFT) / STEP - 0.5)
        assert token == heaps[i] - k and float(circle.get("cy", "")) == (i + 0.5) * STEP
