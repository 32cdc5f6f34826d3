"""Count tables as plain text (``perfectplay analyze``): columns sized to their content, every
count with thousands separators.

Values are stated for the player to move. The first column holds row labels (a remoteness,
``draw``, a tier's label) and is aligned left; counts are aligned right.

Examples
--------
>>> from perfectplay.values import Value
>>> print(remoteness_table([(Value.LOSE, 0, 1), (Value.WIN, 1, 12_345), (Value.DRAW, -1, 3)]))
remoteness     WIN  LOSE  TIE  DRAW   total
0                0     1    0     0       1
1           12,345     0    0     0  12,345
draw             0     0    0     3       3
total       12,345     1    0     3  12,349
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from perfectplay.values import Value

__all__ = ["VALUE_COLUMNS", "remoteness_table", "text_table", "tier_table"]

VALUE_COLUMNS = (Value.WIN, Value.LOSE, Value.TIE, Value.DRAW)
"""The value columns of every count table, in this order."""

_GAP = "  "


def _cell(item: str | int) -> str:
    return item if isinstance(item, str) else f"{item:,}"


def text_table(header: Sequence[str], rows: Iterable[Sequence[str | int]]) -> str:
    """`header` and `rows` as aligned text: the first column left, the others right.

    Each column is as wide as its widest cell (header included), columns two spaces apart;
    ints are written with thousands separators. Cost: O(cells).

    Raises
    ------
    ValueError
        If a row has another number of cells than `header`.

    Examples
    --------
    >>> print(text_table(["tier", "count"], [["0Blank_15X_1O", 1234567], ["x", 0]]))
    tier               count
    0Blank_15X_1O  1,234,567
    x                      0
    """
    lines = [[_cell(item) for item in row] for row in (header, *rows)]
    for k, line in enumerate(lines):
        if len(line) != len(header):
            raise ValueError(f"row {k} has {len(line)} cells; the header has {len(header)}")
    widths = [max(len(line[c]) for line in lines) for c in range(len(header))]
    return "\n".join(
        _GAP.join(
            cell.ljust(width) if c == 0 else cell.rjust(width)
            for c, (cell, width) in enumerate(zip(line, widths, strict=True))
        ).rstrip()
        for line in lines
    )


def remoteness_table(counts: Iterable[tuple[Any, int, int]]) -> str:
    """Counts by remoteness (rows; a DRAW's row is ``draw``) and value (columns), with totals.

    Parameters
    ----------
    counts : iterable of (value, remoteness, count)
        One entry per (value, remoteness) pair that occurs; the remoteness of a DRAW is
        negative. Values are for the player to move.

    Notes
    -----
    Cost: O(len(counts) log len(counts)) for the row order.
    """
    rows: dict[int, dict[Value, int]] = {}
    for value, remoteness, count in counts:
        row = rows.setdefault(int(remoteness), {})
        row[Value(value)] = row.get(Value(value), 0) + int(count)
    order = sorted(r for r in rows if r >= 0) + [r for r in rows if r < 0]
    body: list[list[str | int]] = []
    totals = dict.fromkeys(VALUE_COLUMNS, 0)
    for r in order:
        cells = [rows[r].get(v, 0) for v in VALUE_COLUMNS]
        for v, c in zip(VALUE_COLUMNS, cells, strict=True):
            totals[v] += c
        body.append(["draw" if r < 0 else str(r), *cells, sum(cells)])
    grand = list(totals.values())
    body.append(["total", *grand, sum(grand)])
    return text_table(["remoteness", *(v.name for v in VALUE_COLUMNS), "total"], body)


def tier_table(tiers: Iterable[Any]) -> str:
    """Positions by tier (rows, by label) and value (columns), and each tier's classes.

    Parameters
    ----------
    tiers : iterable of TierCounts
        Each with ``label``, ``positions`` and ``classes`` (dicts by value name), as
        :func:`perfectplay.tiers.analyze.analyze_tiers` gives them in ``Analysis.tiers``.

    Notes
    -----
    Cost: O(tiers).

    Examples
    --------
    >>> from types import SimpleNamespace as Tier
    >>> counts = {"WIN": 1_000, "LOSE": 20, "TIE": 3, "DRAW": 0}
    >>> print(tier_table([Tier(label="0Blank_15X_1O", positions=counts, classes={"WIN": 7})]))
    tier             WIN  LOSE  TIE  DRAW  classes
    0Blank_15X_1O  1,000    20    3     0        7
    """
    body: list[list[str | int]] = [
        [
            str(t.label),
            *(_count(t.positions, v.name) for v in VALUE_COLUMNS),
            sum(t.classes.values()),
        ]
        for t in tiers
    ]
    return text_table(["tier", *(v.name for v in VALUE_COLUMNS), "classes"], body)


def _count(counts: Mapping[str, int], name: str) -> int:
    return int(counts.get(name, 0))
