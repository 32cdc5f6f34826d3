"""Charts: a game's value history, and a solution's positions counted by value and remoteness.

Examples
--------
>>> from perfectplay.values import Value
>>> svg = value_history_svg([(Value.WIN, 3), (Value.LOSE, 2), (Value.WIN, 1), (Value.LOSE, 0)])
>>> svg.count("data-ply=")
4
>>> svg = counts_svg([(Value.LOSE, 0, 1), (Value.WIN, 1, 2), (Value.DRAW, -1, 3)], "example")
>>> svg.count("data-count=")
3
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from perfectplay.svg.elements import Drawing, el, group, page
from perfectplay.svg.palette import INK, ink_on, value_colour
from perfectplay.values import NO_REMOTENESS, Value

__all__ = ["counts_svg", "nice_ticks", "value_counts", "value_history_svg"]

_VALUES = (Value.WIN, Value.LOSE, Value.TIE, Value.DRAW)
_AXIS = 56.0  # room for the vertical axis' numbers and title (short numbers)
_DIGIT = 6.4  # the widest a character of an 11 px tick label is drawn (digits, commas less)


def nice_ticks(top: float, count: int = 5) -> list[int]:
    """Round tick values from 0 to at least `top`: whole numbers (they label counts), steps of
    1, 2 or 5 times a power of ten.

    >>> nice_ticks(7), nice_ticks(1234), nice_ticks(3)
    ([0, 2, 4, 6, 8], [0, 500, 1000, 1500], [0, 1, 2, 3])
    """
    if top <= 0:
        return [0]
    raw = max(top / count, 1)  # steps of at least 1, ints: the ticks label counts
    power = 10 ** math.floor(math.log10(raw))
    step = next(s * power for s in (1, 2, 5, 10) if s * power >= raw)
    return [k * step for k in range(math.ceil(top / step) + 1)]


def value_history_svg(
    history: Sequence[tuple[Value, int]], *, side: str | None = None, size: float | None = None
) -> str:
    """A game's value history: one point per position reached, from the side of the player to
    move at its first position.

    Parameters
    ----------
    history : sequence of (Value, int)
        For each position of the game so far (the start first): its value and remoteness
        **for the player to move** there.
    side : str, optional
        The name of the player to move at the first position (``"X"``, as
        :func:`~perfectplay.draw.position.side_to_move` finds it), naming the chart's halves
        (``X wins``); default "the player to move at the start" (a typed start position may
        have the game's second player to move).
    size : float, optional
        Width in pixels of the rendered picture.

    Returns
    -------
    str
        An ``<svg>`` document. Point k sits at move k; its height is the remoteness, above the
        middle line where the player to move at the start (`side`) wins, below where that
        player loses, on it for ties and draws (values at odd moves are flipped to that side, so
        perfect play draws a steady line toward 0 and a mistake shows as a jump across the
        line, ringed). Each point carries ``data-ply``, ``data-value`` (for the player to move
        there) and ``data-remoteness``.

    Notes
    -----
    Cost: O(len(history)).
    """
    who = side or "the player to move at the start"
    points = [(Value(v), int(r)) for v, r in history]
    top = max([r for _, r in points if r != NO_REMOTENESS] + [1])
    half = 110.0
    inner = half - 28  # the largest remoteness: below the band's label, circles inside the band
    step = max(18.0, min(48.0, 640.0 / max(len(points), 1)))
    width = _AXIS + max(step * len(points), 300.0) + 10
    mid = half + 8
    parts = [
        el("rect", x=_AXIS, y=8, width=width - _AXIS, height=half, fill="#EEF7F3"),
        el("rect", x=_AXIS, y=mid, width=width - _AXIS, height=half, fill="#FBEFE8"),
        el("line", x1=_AXIS, y1=mid, x2=width, y2=mid, stroke=INK, stroke_width=1.5),
        el("text", f"{who} wins", x=_AXIS + 6, y=24, font_size=12, fill=INK),
        el("text", f"{who} loses", x=_AXIS + 6, y=mid + half - 8, font_size=12, fill=INK),
        el(
            "text",
            "remoteness",
            x=14,
            y=mid,
            font_size=12,
            fill=INK,
            text_anchor="middle",
            transform=f"rotate(-90 14 {mid:.1f})",
        ),
    ]
    for t in nice_ticks(top, 3):
        if t > top:
            continue
        for sign in (1, -1) if t else (1,):
            y = mid - sign * inner * t / top
            parts.append(
                el(
                    "text",
                    str(int(t)),
                    x=_AXIS - 6,
                    y=y + 4,
                    font_size=11,
                    fill=INK,
                    text_anchor="end",
                )
            )
    xy: list[tuple[float, float]] = []
    for k, (value, r) in enumerate(points):
        first = value if k % 2 == 0 else value.flipped()
        sign = {Value.WIN: 1, Value.LOSE: -1}.get(first, 0)
        distance = 0 if r == NO_REMOTENESS else r
        xy.append((_AXIS + (k + 0.5) * step, mid - sign * inner * distance / top))
    if len(xy) > 1:
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in xy)
        parts.append(el("polyline", points=path, fill="none", stroke="#777777", stroke_width=2))
    previous: Value | None = None
    for k, ((value, r), (x, y)) in enumerate(zip(points, xy, strict=True)):
        first = value if k % 2 == 0 else value.flipped()
        shapes = []
        if previous is not None and first != previous:
            shapes.append(el("circle", cx=x, cy=y, r=11, fill="none", stroke=INK, stroke_width=2))
        shapes += [
            el(
                "title",
                f"move {k}: {value.name}"
                + ("" if r < 0 else f" in {r}")
                + " for the player to move",
            ),
            el("circle", cx=x, cy=y, r=7, fill=value_colour(first), stroke=INK),
        ]
        parts.append(
            group(shapes, class_="ply", data_ply=k, data_value=value.name, data_remoteness=r)
        )
        previous = first
        if len(points) <= 40 or k % 5 == 0:
            parts.append(
                el(
                    "text",
                    str(k),
                    x=x,
                    y=2 * half + 30,
                    font_size=11,
                    fill=INK,
                    text_anchor="middle",
                )
            )
    parts.append(
        el(
            "text",
            "move",
            x=(width + _AXIS) / 2,
            y=2 * half + 46,
            font_size=12,
            fill=INK,
            text_anchor="middle",
        )
    )
    caption = "" if points else "no position yet"
    drawing = Drawing(width, 2 * half + 50, parts, caption)
    return page(
        drawing,
        title="value history",
        note=f"values for {who}; ringed: the value changed, a mistake by the player who just moved",
        size=size,
    )


def value_counts(
    value: NDArray[np.uint8], remoteness: NDArray[np.integer]
) -> list[tuple[Value, int, int]]:
    """``(value, remoteness, count)`` of every pair that occurs, sorted: what
    :func:`counts_svg` takes, from a solution's arrays.

    >>> value_counts(np.array([3, 0, 0], np.uint8), np.array([1, 0, 0]))
    [(<Value.LOSE: 0>, 0, 2), (<Value.WIN: 3>, 1, 1)]

    Cost: O(n log n), one ``np.unique`` over a combined key.
    """
    key = value.astype(np.int64) << 32 | (remoteness.astype(np.int64) & 0xFFFFFFFF)
    keys, counts = np.unique(key, return_counts=True)
    rem = (keys & 0xFFFFFFFF).astype(np.uint32).astype(np.int32)
    return [
        (Value(int(k >> 32)), int(r), int(c))
        for k, r, c in zip(keys.tolist(), rem.tolist(), counts.tolist(), strict=True)
    ]


def counts_svg(
    counts: Sequence[tuple[Value, int, int]],
    title: str,
    *,
    unit: str = "positions",
    size: float | None = None,
) -> str:
    """Positions counted by value and remoteness as stacked bars, one bar per remoteness.

    Parameters
    ----------
    counts : sequence of (Value, remoteness, count)
        As :meth:`~perfectplay.store.SolutionStore.counts` returns them: values for the player
        to move; draws have remoteness -1 and get the last bar, labelled ``draw``.
    title : str
        The chart's title (the game's name).
    unit : str
        What is counted, as the vertical axis and the caption name it: ``"positions"``, or
        ``"symmetry classes"`` for a store that keeps one position of each class.
    size : float, optional
        Width in pixels of the rendered picture.

    Returns
    -------
    str
        An ``<svg>`` document; each bar segment carries ``data-value``, ``data-remoteness``
        and ``data-count``. The vertical axis is as wide as its longest number.

    Notes
    -----
    Cost: O(len(counts)).

    Examples
    --------
    >>> svg = counts_svg([(Value.WIN, 1, 20_000_000)], "big", unit="symmetry classes")
    >>> ">symmetry classes<" in svg, "20,000,000 symmetry classes" in svg, ">positions<" in svg
    (True, True, False)
    """
    rows: dict[int, dict[Value, int]] = {}
    for value, r, c in counts:
        rows.setdefault(int(r), {})[Value(value)] = int(c)
    order = sorted(r for r in rows if r >= 0) + [r for r in rows if r < 0]
    bar = max(3.0, min(36.0, 760.0 / max(len(order), 1)))
    height = 260.0
    total = max([sum(rows[r].values()) for r in order] + [1])
    ticks = nice_ticks(total)
    scale = height / ticks[-1]
    # the numbers end 6 px left of the axis; the rotated axis title sits 22 px left of them
    axis = max(_AXIS, 30 + _DIGIT * max(len(f"{int(t):,}") for t in ticks))
    width = axis + bar * max(len(order), 1) + 16
    parts = [
        el(
            "text",
            unit,
            x=14,
            y=height / 2,
            font_size=12,
            fill=INK,
            text_anchor="middle",
            transform=f"rotate(-90 14 {height / 2:.1f})",
        )
    ]
    for t in ticks:
        y = height - t * scale
        parts += [
            el("line", x1=axis, y1=y, x2=width, y2=y, stroke="#DDDDDD"),
            el(
                "text",
                f"{int(t):,}",
                x=axis - 6,
                y=y + 4,
                font_size=11,
                fill=INK,
                text_anchor="end",
            ),
        ]
    label_every = max(1, math.ceil(len(order) / 25))
    for k, r in enumerate(order):
        x = axis + k * bar + 1
        y = height
        for value in _VALUES:
            c = rows[r].get(value, 0)
            if not c:
                continue
            h = c * scale
            y -= h
            parts.append(
                el(
                    "rect",
                    x=x,
                    y=y,
                    width=bar - 2,
                    height=h,
                    fill=value_colour(value),
                    stroke=INK if bar > 8 else None,
                    stroke_width=0.5,
                    data_value=value.name,
                    data_remoteness=r,
                    data_count=c,
                )
            )
            if bar >= 22 and h >= 16:
                parts.append(
                    el(
                        "text",
                        value.name[0],
                        x=x + bar / 2 - 1,
                        y=y + h / 2 + 4,
                        font_size=11,
                        fill=ink_on(value),
                        text_anchor="middle",
                    )
                )
        if k % label_every == 0 or r < 0:
            parts.append(
                el(
                    "text",
                    "draw" if r < 0 else str(r),
                    x=x + bar / 2 - 1,
                    y=height + 16,
                    font_size=11,
                    fill=INK,
                    text_anchor="middle",
                )
            )
    parts += [
        el("line", x1=axis, y1=height, x2=width, y2=height, stroke=INK, stroke_width=1.5),
        el(
            "text",
            "remoteness (moves to the end with best play)",
            x=(width + axis) / 2,
            y=height + 34,
            font_size=12,
            fill=INK,
            text_anchor="middle",
        ),
    ]
    grand = sum(sum(v.values()) for v in rows.values())
    drawing = Drawing(width, height + 40, parts, f"{grand:,} {unit}")
    return page(drawing, title=title, note="value for the player to move", size=size)
