"""``perfectplay problem planinarenje`` (COCI 2017/18 #5): samples, edge cases, bad input."""

from __future__ import annotations

import pytest
from brute import geography_mover_wins
from cli_helpers import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st
from problem_limits import assert_limit, refusal


def run(text: str, *options: str) -> str:
    result = run_cli(["problem", "planinarenje", *options], text)
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
    # Repeated trails may make M exceed N * N, the judge's limit: lifted.
    assert run(data, "--no-limits") == "".join("Slavko\n" if w else "Mirko\n" for w in wins)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("2 2\n1 2\n0 1\n", "line 3: a trail 'v d' (peak v, valley d): 0 is out of range 1..2"),
        ("2 1\n1 3\n", "line 2: a trail 'v d' (peak v, valley d): 3 is out of range 1..2"),
        ("2 2\n1 2\n", "line 2: input ends early: expected a trail 'v d' (peak v, valley d)"),
        ("0 0\n", "line 1: the number of peaks N: 0 is out of range 1.."),
        ("2 1\n1 1\n1 2\n", "line 3: unexpected extra input '1'"),
        ("3 9\n1 1\n", "line 2: input ends early: expected a trail 'v d' (peak v, valley d)"),
    ],
)
def test_bad_input_is_one_line_with_its_line_number(data: str, message: str) -> None:
    result = run_cli(["problem", "planinarenje"], data)
    assert result.code == 2 and result.out == ""
    assert result.err == f"perfectplay: error: {message}\n"


def trails(n: int, m: int) -> str:
    """N = n and the first m trails of peak v to valley d in row-major order."""
    return f"{n} {m}\n" + "".join(f"{k // n + 1} {k % n + 1}\n" for k in range(m))


@pytest.mark.parametrize(
    ("at_limit", "past", "message"),
    [
        (trails(5000, 0), trails(5001, 0), refusal(1, "the number of peaks N", 5001, 5000)),
        (trails(5000, 5000), trails(5000, 5001), refusal(1, "the number of trails M", 5001, 5000)),
        # M <= N * N: a trail given twice (the judge promises none) is one line too many.
        ("1 1\n1 1\n", "1 2\n1 1\n1 1\n", refusal(1, "the number of trails M", 2, 1)),
    ],
)
def test_the_judge_limits_refuse_larger_inputs_unless_lifted(
    at_limit: str, past: str, message: str
) -> None:
    assert_limit("planinarenje", at_limit, past, message)
