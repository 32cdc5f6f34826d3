"""Geography pictures (perfectplay.draw.geography): the drawn matching is a maximum matching of
the graph, the vertices marked D(G) are those of the brute-force definition, every winning
arrow follows a matching edge."""

from __future__ import annotations

import numpy as np
from brute import (
    gallai_edmonds_d,
)
from draw_helpers import Edges, check_matching, drawn, graphs, parsed
from hypothesis import given, settings

from perfectplay.builders.undirected import Geography
from perfectplay.draw.boards import grid_svg
from perfectplay.draw.geography import bipartite_svg, geography_svg
from perfectplay.solvers.geography import solve_geography


@settings(deadline=None)
@given(graphs())
def test_general_graph_picture_shows_a_maximum_matching_and_d(graph: tuple[int, Edges]) -> None:
    n, edges = graph
    result = solve_geography(Geography(n, [e[0] for e in edges], [e[1] for e in edges]).graph())
    in_d, matching, groups = drawn(geography_svg(result))
    assert [in_d[v] for v in range(n)] == gallai_edmonds_d(n, edges)
    check_matching(n, edges, matching)
    # One winning arrowhead (a polygon) per matched end outside D(G): its mover's first move.
    for (u, v), group in zip(matching, groups, strict=True):
        heads = sum(1 for e in group.iter() if e.tag.endswith("polygon"))
        assert heads == (not in_d[u]) + (not in_d[v])


def test_bipartite_picture_puts_left_vertices_in_a_column() -> None:
    result = solve_geography(Geography.bipartite(3, 2, [0, 1, 2], [0, 0, 1]).graph())
    svg = bipartite_svg(result, 3, labels=["a", "b", "c", "x", "y"], title="t", caption="c")
    in_d, matching, _ = drawn(svg)
    assert in_d == {v: bool(result.in_d[v]) for v in range(5)}
    check_matching(5, [(0, 3), (1, 3), (2, 4)], matching)
    circles = [e for e in parsed(svg).iter() if e.tag.endswith("circle")]
    assert len({e.get("cx") for e in circles}) == 2


def test_circles_cover_the_matching_and_board_cells_lie_under_it() -> None:
    # Regression: vertex circles were drawn before the matching lines, which crossed them.
    result = solve_geography([(0, 1), (1, 2), (2, 3)])
    kinds = [e.get("class") for e in parsed(geography_svg(result)).iter() if e.get("class")]
    assert kinds.index("vertex") > max(i for i, k in enumerate(kinds) if k == "matching")
    cells = [e.get("class") for e in parsed(grid_svg(np.ones((1, 4), bool), title="t")).iter()]
    kinds = [k for k in cells if k]
    assert kinds.index("matching") > max(i for i, k in enumerate(kinds) if k == "vertex")
