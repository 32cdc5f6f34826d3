"""Reading a solution text (perfectplay.verify.text): lines in any order, faults named by line."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from verify_helpers import brute_solved as _solved

from perfectplay.errors import InputFormatError
from perfectplay.graph import GameGraph
from perfectplay.graphfile import format_solution
from perfectplay.solution import Solution
from perfectplay.values import DRAW, LOSE, NO_REMOTENESS, TIE, UNDECIDED, WIN
from perfectplay.verify import parse_solution, verify_graph_text


def test_solution_text_round_trip() -> None:
    graph = GameGraph.from_edges([0, 1, 3], [1, 2, 3], n=4)
    value, remoteness = _solved(graph, [UNDECIDED] * 4, False)
    text = format_solution(Solution(graph, value, remoteness.astype(np.int32), solver="brute"))
    shuffled = "\r\n".join(reversed(text.splitlines())) + "\n\n"
    got_value, got_remoteness = parse_solution(shuffled.encode(), 4)
    assert got_value.tolist() == value.tolist()
    assert got_remoteness.tolist() == remoteness.tolist()
    assert remoteness[3] == NO_REMOTENESS


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (b"0 WIN 1\n1 LOSE\n", "line 2: expected `id VALUE remoteness`, got 2 tokens"),
        (b"0 WIN 1\nx LOSE 0\n", "line 2: expected a position id (an integer): 'x'"),
        (b"0 WIN 1\n5 LOSE 0\n", "line 2: position out of range 0..1: '5'"),
        (b"0 WIN 1\n1 LOST 0\n", "line 2: unknown value: 'LOST'"),
        (b"0 WIN 1\n1 LOSE 0x\n", "line 2: expected a remoteness (an integer, or - for a DRAW)"),
        (b"0 WIN 1\n0 LOSE 0\n", "line 2: position 0 appears a second time"),
        (b"0 WIN 1\n", "line 1: no line for position 1 (1 of 2 given)"),
        (b"0 WIN 1234567890123456789\n1 LOSE 0\n", "line 1: expected a remoteness"),
    ],
)
def test_bad_solution_text_is_named(text: bytes, message: str) -> None:
    with pytest.raises(InputFormatError, match="^" + re.escape(message)):
        parse_solution(text, 2)


@pytest.mark.parametrize("text", [b"", b"\n\n", b"  \r\n"])
def test_an_empty_solution_solves_only_the_empty_graph(text: bytes) -> None:
    # Found by the fuzz campaign: an empty text raised IndexError instead of being read.
    assert parse_solution(text, 0)[0].size == 0
    assert verify_graph_text(b"# no position\n0 0\n", text).ok
    with pytest.raises(InputFormatError, match=r"no line for position 0 \(0 of 3 given\)"):
        parse_solution(text, 3)


_WORD = {b"LOSE": LOSE, b"DRAW": DRAW, b"TIE": TIE, b"WIN": WIN}


def _naive(data: bytes, n: int) -> tuple[list[int], list[int]] | None:
    """The brute-force reader: line by line with ``bytes.split``; None where the text is bad."""
    rows: dict[int, tuple[int, int]] = {}
    for line in data.split(b"\n"):
        tokens = line.split()
        if not tokens:
            continue
        if len(tokens) != 3:
            return None
        pid, word, rem = tokens
        if not (pid.isdigit() and len(pid) <= 18) or word not in _WORD:
            return None
        if rem != b"-" and not (rem.isdigit() and len(rem) <= 18):
            return None
        p = int(pid)
        if p >= n or p in rows:
            return None
        rows[p] = (_WORD[word], NO_REMOTENESS if rem == b"-" else int(rem))
    if len(rows) != n:
        return None
    return [rows[p][0] for p in range(n)], [rows[p][1] for p in range(n)]


@st.composite
def solution_texts(draw: st.DrawFn) -> tuple[bytes, int]:
    """A solution text in a random order and spacing, maybe with one byte changed."""
    n = draw(st.integers(0, 6))
    space = st.sampled_from([b" ", b"  ", b"\t", b" \r"])
    lines = []
    for p in draw(st.permutations(range(n))):
        word = draw(st.sampled_from(list(_WORD)))
        rem = b"-" if word == b"DRAW" else str(draw(st.integers(0, 99))).encode()
        lines.append(draw(space) + str(p).encode() + draw(space) + word + b" " + rem)
    text = bytearray(b"\n".join(lines) + draw(st.sampled_from([b"", b"\n", b"\r\n\n"])))
    if text and draw(st.booleans()):
        i = draw(st.integers(0, len(text) - 1))
        text[i] = draw(st.sampled_from(b"0129 -\nWXD\t"))
    return bytes(text), n


@settings(max_examples=300)
@given(solution_texts())
def test_the_reader_agrees_with_a_line_by_line_reader(case: tuple[bytes, int]) -> None:
    text, n = case
    expected = _naive(text, n)
    if expected is None:
        with pytest.raises(InputFormatError) as error:
            parse_solution(text, n)
        assert "\n" not in str(error.value) and "line " in str(error.value)
        return
    value, remoteness = parse_solution(text, n)
    assert (value.tolist(), remoteness.tolist()) == expected
