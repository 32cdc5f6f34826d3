"""``perfectplay problem planinarenje`` (COCI 2017/18 #5): samples, edge cases, bad input."""

from __future__ import annotations

import pytest
from brute import geography_mover_wins
from cli_helpers import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st


def run(text: str) -> str:
    result = run_cli(["problem", "planinarenje"], text)
    assert result.code == 0, result.err
    return result.out


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ("2 3\n1 2\n2 2\n2 1\n", "Slavko\nSlavko\n"),
        ("4 5\n2 2\n1 2\n1 1\n1 3\n4 2\n", "Slavko\nMirko\nMirko\nMirko\n"),
    ],
)
def test_samples_byte_exact(data: str, expected: str) -> None:
    assert run(data) == expected
    assert run_cli(["problem", "coci17c5p6"], data).out == expected


def test_isolated_peaks_and_duplicate_trails() -> None:
    assert run("3 0\n") == "Mirko\nMirko\nMirko\n"
    # peak 1 - valley 1 twice: the duplicate changes nothing (a single edge: Slavko wins).
    assert run("2 2\n1 1\n1 1\n") == "Slavko\nMirko\n"


@st.composite
def cases(draw: st.DrawFn) -> tuple[int, list[tuple[int, int]]]:
    n = draw(st.integers(1, 5))
    trails = draw(st.lists(st.tuples(st.integers(1, n), st.integers(1, n)), max_size=9))
    return n, trails


@settings(max_examples=60)
@given(cases())
def test_answers_follow_the_rules(case: tuple[int, list[tuple[int, int]]]) -> None:
    n, trails = case
    data = f"{n} {len(trails)}\n" + "".join(f"{v} {d}\n" for v, d in trails)
    edges = [(v - 1, n + d - 1) for v, d in trails]
    wins = geography_mover_wins(2 * n, edges)[:n]
    assert run(data) == "".join("Slavko\n" if w else "Mirko\n" for w in wins)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("2 2\n1 2\n0 1\n", "line 3: a trail 'v d' (peak v, valley d): 0 is out of range 1..2"),
        ("2 1\n1 3\n", "line 2: a trail 'v d' (peak v, valley d): 3 is out of range 1..2"),
        ("2 2\n1 2\n", "line 2: input ends early: expected a trail 'v d' (peak v, valley d)"),
        ("0 0\n", "line 1: the number of peaks N: 0 is out of range 1.."),
        ("2 1\n1 1\n1 2\n", "line 3: unexpected extra input '1'"),
        ("2 99999\n1 1\n", "line 2: input ends early: expected a trail 'v d' (peak v, valley d)"),
    ],
)
def test_bad_input_is_one_line_with_its_line_number(data: str, message: str) -> None:
    result = run_cli(["problem", "planinarenje"], data)
    assert result.code == 2 and result.out == ""
    assert result.err == f"perfectplay: error: {message}\n"
