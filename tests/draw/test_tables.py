"""Count tables as text: columns sized to their content (no label overflows), every count with
thousands separators that read back to the numbers given, totals that add up."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perfectplay.draw.tables import VALUE_COLUMNS, remoteness_table, text_table, tier_table
from perfectplay.values import Value

labels = st.text(alphabet="abcXO_0123456789", min_size=1, max_size=24)
counts = st.integers(min_value=0, max_value=10**13)


def _columns(table: str) -> list[list[str]]:
    """The table's cells, split where every line has a blank in the same place."""
    lines = table.split("\n")
    width = max(map(len, lines))
    padded = [line.ljust(width) for line in lines]
    blank = [all(line[k] == " " for line in padded) for k in range(width)]
    cuts, start = [], None
    for k, b in enumerate([*blank, True]):
        if not b and start is None:
            start = k
        elif b and start is not None:
            cuts.append((start, k))
            start = None
    return [[line[a:b].strip() for a, b in cuts] for line in padded]


@given(st.lists(st.tuples(labels, st.lists(counts, min_size=4, max_size=4)), min_size=1))
def test_tier_rows_align_and_read_back(rows: list[tuple[str, list[int]]]) -> None:
    tiers = [
        SimpleNamespace(
            label=label,
            positions={v.name: c for v, c in zip(VALUE_COLUMNS, cells, strict=True)},
            classes={"WIN": cells[0], "LOSE": 1},
        )
        for label, cells in rows
    ]
    table = tier_table(tiers)
    lines = table.split("\n")
    assert lines[0].split() == ["tier", "WIN", "LOSE", "TIE", "DRAW", "classes"]
    ends = {len(line) for line in lines}
    assert len(ends) == 1  # the last column is right-aligned: every line ends at one place
    cells = _columns(table)
    assert all(len(line) == 6 for line in cells)  # no label runs into the next column
    for (label, numbers), line in zip(rows, cells[1:], strict=True):
        assert line[0] == label
        assert [int(c.replace(",", "")) for c in line[1:5]] == numbers
        assert all(c == f"{n:,}" for c, n in zip(line[1:5], numbers, strict=True))
        assert int(line[5].replace(",", "")) == numbers[0] + 1


@given(
    st.dictionaries(
        st.tuples(st.sampled_from([Value.WIN, Value.LOSE, Value.TIE]), st.integers(0, 40)),
        counts,
        min_size=1,
    ),
    st.integers(0, 10**9),
)
def test_remoteness_totals_add_up(found: dict[tuple[Value, int], int], draws: int) -> None:
    entries = [(v, r, c) for (v, r), c in found.items()] + [(Value.DRAW, -1, draws)]
    cells = _columns(remoteness_table(entries))
    head, *body, total = cells
    assert head == ["remoteness", "WIN", "LOSE", "TIE", "DRAW", "total"]
    numbers = [[int(c.replace(",", "")) for c in row[1:]] for row in body]
    assert [row[0] for row in body][-1] == "draw"
    assert [int(r[0]) for r in body[:-1]] == sorted({r for _, r in found})
    assert all(sum(row[:4]) == row[4] for row in numbers)
    assert [int(c.replace(",", "")) for c in total[1:]] == [
        sum(col) for col in zip(*numbers, strict=True)
    ]
    assert sum(found.values()) + draws == int(total[-1].replace(",", ""))


def test_a_row_of_another_length_is_refused() -> None:
    with pytest.raises(ValueError, match="row 1 has 1 cells; the header has 2"):
        text_table(["a", "b"], [["x"]])
