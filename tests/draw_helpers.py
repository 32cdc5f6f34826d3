"""Reading geography pictures back, for the tests of perfectplay.draw: vertices in D(G), the
matching drawn, and random graphs to draw."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from brute import max_matching_size
from hypothesis import strategies as st

Edges = list[tuple[int, int]]


@st.composite
def graphs(draw: st.DrawFn, max_n: int = 9) -> tuple[int, Edges]:
    n = draw(st.integers(1, max_n))
    node = st.integers(0, n - 1)
    edges = draw(st.lists(st.tuples(node, node), max_size=2 * n))
    return n, [(u, v) for u, v in edges if u != v]


def brute_cells(board: list[str]) -> set[tuple[int, int]]:
    return {(r, c) for r, row in enumerate(board) for c, ch in enumerate(row) if ch != "#"}


def parsed(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def drawn(svg: str) -> tuple[dict[int, bool], list[tuple[int, int]], list[ET.Element]]:
    """``{vertex: in D}``, the matching edges, and the matching groups of a picture."""
    root = parsed(svg)
    in_d = {
        int(e.get("data-vertex", "")): e.get("data-in-d") == "true"
        for e in root.iter()
        if e.get("class") == "vertex"
    }
    groups = [e for e in root.iter() if e.get("class") == "matching"]
    edges = [(int(e.get("data-u", "")), int(e.get("data-v", ""))) for e in groups]
    return in_d, edges, groups


def check_matching(n: int, edges: Edges, matching: list[tuple[int, int]]) -> None:
    """`matching` is a set of graph edges, no vertex twice, of maximum size."""
    graph_edges = {frozenset(e) for e in edges}
    ends = [v for e in matching for v in e]
    assert len(ends) == len(set(ends))
    assert all(frozenset(e) in graph_edges for e in matching)
    assert len(matching) == max_matching_size(n, edges)
