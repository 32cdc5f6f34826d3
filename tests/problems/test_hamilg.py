"""``perfectplay problem hamilg`` (CodeChef HAMILG): sample, odd cycles, search, bad input."""

from __future__ import annotations

import pytest
from brute import geography_mover_wins
from cli_helpers import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st
from problem_limits import assert_limit, refusal

SAMPLE = (
    "3\n4 6\n1 2\n1 3\n4 1\n4 2\n4 3\n2 3\n8 7\n3 2\n1 2\n4 2\n5 1\n6 3\n7 1\n8 3\n3 2\n1 2\n2 3\n"
)


def run(text: str) -> str:
    result = run_cli(["problem", "hamilg"], text)
    assert result.code == 0, result.err
    return result.out


def cycle(n: int) -> str:
    return f"{n} {n}\n" + "".join(f"{k} {k % n + 1}\n" for k in range(1, n + 1))


def test_sample_byte_exact() -> None:
    assert run(SAMPLE) == "0\n4\n2\n"


def test_odd_and_even_cycles() -> None:
    # Odd cycles are factor-critical: every vertex is missed by some maximum matching.
    assert run("3\n" + cycle(3) + cycle(5) + cycle(6)) == "3\n5\n0\n"


def test_single_vertex_duplicates_and_zero_cases() -> None:
    assert run("1\n1 0\n") == "1\n"
    assert run("1\n2 3\n1 2\n2 1\n1 2\n") == "0\n"
    assert run("0\n") == ""


@st.composite
def graphs(draw: st.DrawFn) -> tuple[int, list[tuple[int, int]]]:
    n = draw(st.integers(1, 8))
    pairs = [(u, v) for u in range(1, n + 1) for v in range(u + 1, n + 1)]
    edges = draw(st.lists(st.sampled_from(pairs), max_size=12, unique=True)) if pairs else []
    return n, edges


@settings(max_examples=60)
@given(st.lists(graphs(), min_size=1, max_size=3))
def test_answers_follow_the_rules(cases: list[tuple[int, list[tuple[int, int]]]]) -> None:
    data = f"{len(cases)}\n"
    expected = ""
    for n, edges in cases:
        data += f"{n} {len(edges)}\n" + "".join(f"{u} {v}\n" for u, v in edges)
        wins = geography_mover_wins(n, [(u - 1, v - 1) for u, v in edges])
        expected += f"{wins.count(False)}\n"
    assert run(data) == expected


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("1\n3 2\n1 2\n\n2 2\n", "line 5: edge 2 joins vertex 2 to itself"),
        ("1\n3 1\n1 4\n", "line 3: an edge 'u v': 4 is out of range 1..3"),
        ("2\n2 1\n1 2\n", "line 3: input ends early: expected the number of vertices N"),
        ("1\n0 0\n", "line 2: the number of vertices N: 0 is out of range 1.."),
        ("1\n1 0\n5\n", "line 3: unexpected extra input '5'"),
        ("1\n2 99\n\n", "line 2: input ends early: expected an edge 'u v'"),
        ("99999999999\n", "line 1: input ends early: expected the number of vertices N"),
    ],
)
def test_bad_input_is_one_line_with_its_line_number(data: str, message: str) -> None:
    result = run_cli(["problem", "hamilg"], data)
    assert result.code == 2 and result.out == ""
    assert result.err == f"perfectplay: error: {message}\n"


EDGES = "1 2\n" * 999_999  # one edge given 999,999 times: merged, a small solve


@pytest.mark.parametrize(
    ("at_limit", "past", "message"),
    [
        ("1\n2000 0\n", "1\n2001 0\n", refusal(2, "the number of vertices N", 2001, 2000)),
        # The sum of M over the cases, refused at the case that passes it.
        (
            "2\n3 1\n2 3\n2 999999\n" + EDGES,
            "2\n3 2\n2 3\n1 3\n2 999999\n" + EDGES,
            refusal(5, "the sum of M over the cases", 1_000_001, 1_000_000),
        ),
    ],
)
def test_the_judge_limits_refuse_larger_cases_unless_lifted(
    at_limit: str, past: str, message: str
) -> None:
    assert_limit("hamilg", at_limit, past, message)
