"""The plain game-graph format: parsing round trips, comments and layout, errors, output."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.errors import InputFormatError, InvalidGraphError, TooLargeError
from perfectplay.graph import GameGraph
from perfectplay.graphfile import format_solution, format_solution_json, parse_graph
from perfectplay.solution import Solution
from perfectplay.values import DRAW, LOSE, NO_REMOTENESS, TIE, UNDECIDED, WIN, Value

GAPS = st.sampled_from([" ", "   ", "\t"])
LAYOUTS = st.sampled_from(["\n", "\r\n", "  \n", "\t# note\n", "\n\n# comment line\n"])


@st.composite
def graph_files(draw: st.DrawFn) -> tuple[int, list[tuple[int, int]], dict[int, int], bytes]:
    """A random graph with primitive values, written with random spacing and comments."""
    n = draw(st.integers(1, 12))
    pos = st.integers(0, n - 1)
    edges = draw(st.lists(st.tuples(pos, pos), max_size=30))
    primitive = draw(st.dictionaries(pos, st.sampled_from([WIN, LOSE, TIE]), max_size=n))
    words = {WIN: "WIN", LOSE: "lose", TIE: "Tie"}
    lines = [f"{n} {len(edges)}"]
    lines += [f"{u}{draw(GAPS)}{v}" for u, v in edges]
    lines += [f"{u} {words[value]}" for u, value in primitive.items()]
    text = draw(st.sampled_from(["", "# header comment\n", "\n"]))
    for line in lines:
        text += line + draw(LAYOUTS)
    if draw(st.booleans()):
        text = text.rstrip("\n")
    return n, edges, primitive, text.encode()


@settings(max_examples=100)
@given(graph_files())
def test_parse_reads_what_was_written(
    case: tuple[int, list[tuple[int, int]], dict[int, int], bytes],
) -> None:
    n, edges, primitive, data = case
    parsed = parse_graph(data)
    expected = GameGraph.from_edges([u for u, _ in edges], [v for _, v in edges], n=n)
    assert parsed.graph.n == n
    assert np.array_equal(parsed.graph.indptr, expected.indptr)
    assert np.array_equal(parsed.graph.indices, expected.indices)
    want = np.full(n, UNDECIDED, dtype=np.uint8)
    for u, value in primitive.items():
        want[u] = value
    assert np.array_equal(parsed.primitive, want)


def test_empty_graph_and_comment_only_body() -> None:
    parsed = parse_graph(b"0 0 # nothing at all\n# bye")
    assert parsed.graph.n == 0 and parsed.primitive.size == 0
    parsed = parse_graph(b"3 0")
    assert parsed.graph.m == 0 and parsed.primitive.tolist() == [UNDECIDED] * 3


def test_comment_may_touch_a_number() -> None:
    parsed = parse_graph(b"2 1#header\n0 1#move\n1 WIN#value\n")
    assert parsed.graph.moves(0).tolist() == [1]
    assert parsed.primitive.tolist() == [UNDECIDED, WIN]


@pytest.mark.parametrize(
    ("data", "line", "fragment"),
    [
        (b"", 1, "no header"),
        (b"2 2\n\n0 1\n# the end\n", 4, "the file ends after 1 of 2 moves"),
        (b"2 1\r\n0 1\r\n1 WIN\r\n1 LOSE\r\n", 4, "a second primitive value for position 1"),
        (b"2 2\n0 1\n1 0 x\n", 3, "unexpected 'x' at the end of move 2 of 2"),
        (b"2 1\n0 1\n0 1\n", 3, "more than m = 1 moves?"),
    ],
)
def test_errors_carry_their_line(data: bytes, line: int, fragment: str) -> None:
    with pytest.raises(InputFormatError, match=fragment) as info:
        parse_graph(data)
    assert info.value.line == line
    assert str(info.value).startswith(f"line {line}: ")


def test_huge_header_is_refused_before_allocating() -> None:
    with pytest.raises(TooLargeError, match="a graph file with 1000000000000000 positions"):
        parse_graph(b"1000000000000000 1000000000000000\n")


def _solution() -> Solution:
    graph = GameGraph.from_edges([0, 1, 3, 4], [1, 2, 4, 3], n=5)
    value = np.array([LOSE, WIN, LOSE, DRAW, DRAW], dtype=np.uint8)
    remoteness = np.array([2, 1, 0, NO_REMOTENESS, NO_REMOTENESS], dtype=np.int32)
    return Solution(graph, value, remoteness, solver="test")


def test_text_output_one_line_per_position() -> None:
    text = format_solution(_solution())
    assert text == "0 LOSE 2\n1 WIN 1\n2 LOSE 0\n3 DRAW -\n4 DRAW -\n"


def test_text_output_of_large_ids_and_remoteness() -> None:
    n = 123_457
    graph = GameGraph.from_edges([], [], n=n)
    rng = np.random.default_rng(5)
    value = rng.choice([LOSE, DRAW, TIE, WIN], size=n).astype(np.uint8)
    remoteness = rng.integers(0, 2**31 - 1, size=n, dtype=np.int32)
    remoteness[value == DRAW] = NO_REMOTENESS
    lines = format_solution(Solution(graph, value, remoteness, solver="test")).splitlines()
    assert len(lines) == n
    for p in (0, 9, 10, 99_999, n - 1):
        r = "-" if value[p] == DRAW else str(remoteness[p])
        assert lines[p] == f"{p} {Value(int(value[p])).name} {r}"


def test_json_output_is_one_object() -> None:
    document = json.loads(format_solution_json(_solution()))
    assert document["positions"][0] == {"id": 0, "value": "LOSE", "remoteness": 2}
    assert document["positions"][3] == {"id": 3, "value": "DRAW", "remoteness": None}
    assert document["summary"] == {
        "positions": 5,
        "moves": 4,
        "WIN": 1,
        "LOSE": 2,
        "TIE": 0,
        "DRAW": 2,
    }


def test_undecided_positions_cannot_be_written() -> None:
    solution = _solution()
    solution.value[2] = UNDECIDED
    with pytest.raises(InvalidGraphError, match="position 2 has no final value"):
        format_solution(solution)
    with pytest.raises(InvalidGraphError, match="position 2 has no final value"):
        format_solution_json(solution)


@settings(max_examples=200)
@given(st.lists(st.tuples(st.sampled_from([LOSE, DRAW, TIE, WIN]), st.integers(0, 2**31 - 1))))
def test_json_output_is_exactly_what_json_dumps_gives(records: list[tuple[int, int]]) -> None:
    n = len(records)
    value = np.array([v for v, _ in records], np.uint8)
    remoteness = np.array([-1 if v == DRAW else r for v, r in records], np.int32)
    solution = Solution(GameGraph.from_edges([], [], n=n), value, remoteness, solver="test")
    positions = [
        {"id": p, "value": Value(int(v)).name, "remoteness": None if r < 0 else int(r)}
        for p, (v, r) in enumerate(zip(value, remoteness, strict=True))
    ]
    summary = {"positions": n, "moves": 0, **solution.summary()}
    assert format_solution_json(solution) == json.dumps(
        {"positions": positions, "summary": summary}
    )
