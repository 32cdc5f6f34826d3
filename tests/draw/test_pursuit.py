"""Pursuit pictures (perfectplay.draw.pursuit): every start coloured as brute force values it."""

from __future__ import annotations

import pytest
from brute import (
    pursuit_bob_wins,
)
from draw_helpers import Edges, graphs, parsed
from hypothesis import given, settings

from perfectplay.draw.pursuit import pursuit_svg
from perfectplay.errors import PictureTooLargeError


@settings(deadline=None, max_examples=30)
@given(graphs(max_n=5))
def test_pursuit_starts_agree_with_the_brute_force(graph: tuple[int, Edges]) -> None:
    n, edges = graph
    n = max(n, 2)
    bob_wins = pursuit_bob_wins(n, edges)
    root = parsed(pursuit_svg(n, edges, 0, 1, title="p"))
    starts = [e for e in root.iter() if e.get("class") == "start"]
    assert len(starts) == n * (n - 1)
    for e in starts:
        b, a = int(e.get("data-bob", "")), int(e.get("data-alice", ""))
        assert (e.get("data-value") == "WIN") == bob_wins[(b, a, 0)]


def test_a_graph_too_large_to_read_is_refused() -> None:
    with pytest.raises(PictureTooLargeError, match="61 vertices"):
        pursuit_svg(61, [], 0, 1, title="p")
