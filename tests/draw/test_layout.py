"""Force-directed layout (perfectplay.draw.layout): positions in the unit square, then pixels."""

from __future__ import annotations

import numpy as np
from draw_helpers import Edges, graphs
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.draw.layout import place, spring_layout


def _arrays(edges: Edges) -> tuple[np.ndarray, np.ndarray]:
    return np.array([u for u, _ in edges], np.int64), np.array([v for _, v in edges], np.int64)


@settings(max_examples=40)
@given(graphs(max_n=12), st.integers(0, 5))
def test_the_layout_fills_the_unit_square_keeping_its_aspect(
    graph: tuple[int, Edges], seed: int
) -> None:
    n, edges = graph
    xy = spring_layout(n, *_arrays(edges), iterations=60, seed=seed)
    assert xy.shape == (n, 2) and np.isfinite(xy).all()
    if n == 1:
        assert xy.tolist() == [[0.5, 0.5]]
        return
    assert xy.min(axis=0).tolist() == [0.0, 0.0]  # touches 0 on both axes
    assert xy.max() == 1.0 and xy.max(axis=0).min() <= 1.0  # 1 on the longer axis only
    again = spring_layout(n, *_arrays(edges), iterations=60, seed=seed)
    assert np.array_equal(xy, again)  # a fixed seed: the same picture


def test_no_vertex_has_no_position() -> None:
    assert spring_layout(0, np.zeros(0, np.int64), np.zeros(0, np.int64)).shape == (0, 2)


def test_an_edge_pulls_its_ends_closer_than_unjoined_vertices() -> None:
    # A path 0-1-...-7: neighbours end up nearer each other than the path's two ends.
    u = np.arange(7, dtype=np.int64)
    xy = spring_layout(8, u, u + 1)
    step = np.hypot(*(xy[1:] - xy[:-1]).T)
    assert step.max() < np.hypot(*(xy[0] - xy[7]))


@settings(max_examples=30)
@given(graphs(max_n=10), st.floats(2, 20), st.floats(50, 600))
def test_placed_vertices_keep_three_radii_apart_within_the_margin(
    graph: tuple[int, Edges], radius: float, side: float
) -> None:
    n, edges = graph
    centres = place(n, *_arrays(edges), radius=radius, side=side)
    assert centres.shape == (n, 2)
    assert (centres >= radius + 4 - 1e-9).all()
    if n > 1:
        reach = float((centres - (radius + 4)).max())
        gap = np.hypot(*(centres[:, None, :] - centres[None, :, :]).transpose(2, 0, 1))
        np.fill_diagonal(gap, np.inf)
        assert reach >= side - 1e-6 or reach >= 1400 - 1e-6 or reach == 0
        if reach < 1400 - 1e-6:  # not capped: no two centres closer than three radii
            assert gap.min() >= 3 * radius - 1e-6
