"""perfectplay.verify.verify_graph_text: a graph text and a solution text checked together."""

from __future__ import annotations

from perfectplay.verify import verify_graph_text


def test_graph_text_primitives_are_honoured() -> None:
    graph = b"2 1\n0 1\n0 TIE\n"
    assert verify_graph_text(graph, b"0 TIE 0\n1 LOSE 0\n").ok
    assert not verify_graph_text(graph, b"0 WIN 1\n1 LOSE 0\n").ok
