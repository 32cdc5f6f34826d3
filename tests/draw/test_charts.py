"""Charts: the value history places each point on the first player's side, counts add up."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from perfectplay.api import solve
from perfectplay.draw import counts_svg, value_history_svg
from perfectplay.draw.charts import nice_ticks, value_counts
from perfectplay.games.registry import load_game
from perfectplay.values import Value


def points(svg: str) -> list[ET.Element]:
    return [e for e in ET.fromstring(svg).iter() if e.get("class") == "ply"]


def centre_y(group: ET.Element) -> float:
    circles = [e for e in group if e.tag.endswith("circle") and e.get("r") == "7"]
    return float(circles[0].get("cy", ""))


def test_a_perfect_game_stays_on_one_side_and_shrinks_to_the_line() -> None:
    game = load_game("nim", heaps=(1, 2))
    solution = solve(game)
    position, history = game.initial(), []
    while True:
        history.append((solution.value(position), solution.remoteness(position)))
        best = solution.best_moves(position)
        if not best:
            break
        position = best[0].position
    drawn = points(value_history_svg(history))
    assert [e.get("data-value") for e in drawn] == [v.name for v, _ in history]
    heights = [centre_y(e) for e in drawn]
    # The first player wins: every point above the line, each closer to it, the last on it.
    assert heights == sorted(heights)
    assert len(set(heights)) == len(heights)
    assert not any(e.tag.endswith("circle") and e.get("r") == "11" for p in drawn for e in p)


def test_a_mistake_is_ringed_and_crosses_the_line() -> None:
    history = [(Value.WIN, 3), (Value.WIN, 4), (Value.LOSE, 3)]  # move 1 threw the win away
    drawn = points(value_history_svg(history))
    rings = [any(e.get("r") == "11" for e in p) for p in drawn]
    assert rings == [False, True, False]
    y0, y1, y2 = (centre_y(p) for p in drawn)
    line = (y0 + y1) / 2  # WIN 3 above and LOSE-for-the-first-player 4 below, about the line
    assert y0 < line < y1 and y2 > line


def test_ties_and_draws_sit_on_the_line_and_empty_history_draws() -> None:
    drawn = points(value_history_svg([(Value.TIE, 4), (Value.DRAW, -1)]))
    assert centre_y(drawn[0]) == centre_y(drawn[1])
    assert points(value_history_svg([])) == []


@given(st.lists(st.tuples(st.sampled_from([0, 1, 2, 3]), st.integers(-1, 40)), max_size=60))
def test_counts_chart_has_one_segment_per_value_and_remoteness(
    rows: list[tuple[int, int]],
) -> None:
    value = np.array([v for v, _ in rows], dtype=np.uint8)
    remoteness = np.array([r for _, r in rows], dtype=np.int32)
    counts = value_counts(value, remoteness)
    assert sum(c for _, _, c in counts) == len(rows)
    assert dict(((v, r), c) for v, r, c in counts) == Counter((Value(v), r) for v, r in rows)
    segments = [e for e in ET.fromstring(counts_svg(counts, "t")).iter() if e.get("data-count")]
    assert sorted(int(e.get("data-count", "")) for e in segments) == sorted(c for _, _, c in counts)


def test_nice_ticks_cover_the_top_in_round_steps() -> None:
    for top in (1, 7, 99, 1234, 10**6 + 1):
        ticks = nice_ticks(top)
        assert ticks[0] == 0 and ticks[-1] >= top
        step = ticks[1] - ticks[0]
        assert str(int(step)).rstrip("0") in ("1", "2", "5")


@given(
    st.one_of(st.integers(0, 10**15), st.floats(0, 1e15, allow_nan=False)),
    st.integers(1, 8),
)
def test_nice_ticks_are_whole_numbers_printed_without_a_point(top: float, count: int) -> None:
    """Regression: nice_ticks(3) gave 0.0, 1.0, ... and a label read "3.0"."""
    ticks = nice_ticks(top, count)
    assert all(type(t) is int for t in ticks) and ticks[0] == 0 and ticks[-1] >= top
    assert not any("." in f"{t:,}" for t in ticks)


@given(
    st.lists(st.tuples(st.sampled_from([Value.WIN, Value.LOSE]), st.integers(0, 60)), min_size=1)
)
def test_value_history_points_stay_inside_the_bands_below_their_labels(
    history: list[tuple[Value, int]],
) -> None:
    # Regression: the largest remoteness sat on the band's edge, over "... wins".
    svg = value_history_svg(history)
    labels = {
        e.text: float(e.get("y", "")) for e in ET.fromstring(svg).iter() if e.tag.endswith("text")
    }
    top_label = labels["the player to move at the start wins"]
    bottom_label = labels["the player to move at the start loses"]
    for group in points(svg):
        y = centre_y(group)
        assert top_label + 7 <= y <= bottom_label - 14


def _tick_labels(svg: str) -> list[ET.Element]:
    """The vertical axis' numbers: the texts ending at the axis (anchored at their end)."""
    return [
        e
        for e in ET.fromstring(svg).iter()
        if e.tag.endswith("text") and e.get("text-anchor") == "end"
    ]


@given(st.integers(min_value=1, max_value=10**15))
def test_counts_chart_axis_numbers_fit_between_the_axis_title_and_the_axis(top: int) -> None:
    """Measured with DejaVu Sans's advance widths (digits 0.636 em, comma 0.318 em at 11 px),
    independently of the chart's own estimate: no number is clipped or runs into the title."""
    svg = counts_svg([(Value.WIN, 0, top), (Value.LOSE, 1, 1)], "big")
    labels = _tick_labels(svg)
    assert labels and any(e.text == f"{max(nice_ticks(top)):,}" for e in labels)
    title = next(e for e in ET.fromstring(svg).iter() if e.get("transform", "").startswith("rot"))
    title_right = float(title.get("x", "")) + 12 / 2  # its rotated line, 12 px high
    for label in labels:
        text = label.text or ""
        width = 11 * (0.636 * sum(c.isdigit() for c in text) + 0.318 * text.count(","))
        assert float(label.get("x", "")) - width >= title_right + 2, text


def test_counts_chart_names_what_it_counts() -> None:
    counts = [(Value.WIN, 1, 5), (Value.LOSE, 0, 2)]
    default = counts_svg(counts, "g")
    classes = counts_svg(counts, "g", unit="symmetry classes")
    assert ">positions<" in default and "7 positions" in default
    assert ">symmetry classes<" in classes and "7 symmetry classes" in classes
    assert "positions" not in classes.replace("symmetry classes", "")


def test_the_halves_are_named_for_the_side_to_move_at_the_start() -> None:
    named = value_history_svg([(Value.WIN, 1)], side="O")
    assert ">O wins<" in named and ">O loses<" in named and "values for O;" in named
    unnamed = value_history_svg([(Value.WIN, 1)])
    assert ">the player to move at the start wins<" in unnamed
    assert "first player" not in named + unnamed
