"""make-you-happy (gym100548h): sample, hand-made cases, brute-force cross-check, bad input."""

from __future__ import annotations

import pytest
from brute import pursuit_bob_wins
from cli_helpers import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st
from problem_limits import assert_limit, refusal

from perfectplay.problems import get_problem
from perfectplay.problems.make_you_happy import SAMPLE

SAMPLE_IN = SAMPLE.decode()  # the judge sample, which `perfectplay demo` solves too
SAMPLE_OUT = "Case #1: Yes\nCase #2: No\nCase #3: Yes\n"


def judge_input(cases: list[tuple[int, list[tuple[int, int]], int, int]]) -> str:
    """Judge input text for cases ``(n, edges, x, y)`` with 1-based vertices."""
    text = f"{len(cases)}\n"
    for n, edges, x, y in cases:
        text += f"{n} {len(edges)}\n" + "".join(f"{b} {e}\n" for b, e in edges) + f"{x} {y}\n"
    return text


def answer(n: int, edges: list[tuple[int, int]], x: int, y: int) -> str:
    result = run_cli(["problem", "make-you-happy"], judge_input([(n, edges, x, y)]))
    assert result.code == 0, result.err
    return result.out


@pytest.mark.parametrize("name", ["make-you-happy", "gym100548h"])
def test_sample_byte_exact(name: str) -> None:
    result = run_cli(["problem", name], SAMPLE_IN)
    assert (result.code, result.out, result.err) == (0, SAMPLE_OUT, "")


@pytest.mark.parametrize(
    ("n", "edges", "x", "y", "bob"),
    [
        # Bob has no move: he loses at once.
        (3, [(2, 3), (3, 2)], 1, 2, "No"),
        # Bob steps aside, Alice has no move: she loses.
        (3, [(1, 3), (3, 1)], 1, 2, "Yes"),
        # Bob's only move lands on Alice.
        (2, [(1, 2)], 1, 2, "No"),
        # Bob one step ahead on a triangle runs forever (endless: Bob's win).
        (3, [(1, 2), (2, 3), (3, 1)], 2, 1, "Yes"),
        # ... unless Alice has a shortcut across the triangle.
        (3, [(1, 2), (2, 3), (3, 1), (2, 1)], 2, 1, "No"),
        # Bob stays away on his own cycle, Alice chases on hers: endless.
        (4, [(1, 2), (2, 1), (3, 4), (4, 3)], 1, 3, "Yes"),
    ],
)
def test_hand_made_cases(n: int, edges: list[tuple[int, int]], x: int, y: int, bob: str) -> None:
    assert answer(n, edges, x, y) == f"Case #1: {bob}\n"
    brute = pursuit_bob_wins(n, [(b - 1, e - 1) for b, e in edges])
    assert brute[(x - 1, y - 1, 0)] == (bob == "Yes")


@st.composite
def cases(draw: st.DrawFn) -> tuple[int, list[tuple[int, int]], int, int]:
    """A small random digraph without self-loops or repeated edges, and two start vertices."""
    n = draw(st.integers(2, 6))
    pairs = [(b, e) for b in range(1, n + 1) for e in range(1, n + 1) if b != e]
    edges = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs)))
    x = draw(st.integers(1, n))
    y = draw(st.integers(1, n).filter(lambda v: v != x))
    return n, edges, x, y


@settings(max_examples=60)
@given(st.lists(cases(), min_size=1, max_size=4))
def test_matches_brute_force(batch: list[tuple[int, list[tuple[int, int]], int, int]]) -> None:
    output = get_problem("make-you-happy").solve(judge_input(batch).encode())
    expected = ""
    for k, (n, edges, x, y) in enumerate(batch, start=1):
        bob = pursuit_bob_wins(n, [(b - 1, e - 1) for b, e in edges])[(x - 1, y - 1, 0)]
        expected += f"Case #{k}: {'Yes' if bob else 'No'}\n"
    assert output == expected


def test_zero_cases_print_nothing() -> None:
    assert run_cli(["problem", "make-you-happy"], "0\n").out == ""


def test_repeated_edges_are_accepted() -> None:
    assert answer(2, [(1, 2), (1, 2)], 1, 2) == "Case #1: No\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "line 1: input ends early: expected T, the number of cases"),
        ("1\n3 2\n1 2\n", "line 3: input ends early: expected the edges `b e` of case 1"),
        ("1\n3 1\n1 2\n", "line 3: input ends early: expected `x y` of case 1"),
        ("1\n3 1\n1 4\n1 2\n", "line 3: the edges `b e` of case 1: 4 is out of range 1..3"),
        ("1\n3 1\n1 2\n0 2\n", "line 4: `x y` of case 1: 0 is out of range 1..3"),
        ("1\n3 1\n1 2\n2 2\n", "line 4: x and y of case 1 must differ, both are 2"),
        ("1\n3 2\n1 2\n\n3 3\n1 2\n", "line 5: edge 2 of case 1 is a self-loop 3 -> 3"),
        ("1\n1 0\n1 1\n", "line 2: n of case 1: 1 is out of range 2.."),
        ("1\n3 -1\n", "line 2: m of case 1: -1 is out of range 0.."),
        ("1\n3 1\n1 b\n1 2\n", "line 3: expected an integer (the edges `b e` of case 1), got 'b'"),
        ("1\n3 1\n1 2\n1 2\n9\n", "line 5: unexpected extra input '9'"),
        ("1\n3 6\n", "line 2: input ends early: expected the edges `b e` of case 1"),
    ],
)
def test_malformed_input_is_one_error_line(text: str, message: str) -> None:
    result = run_cli(["problem", "make-you-happy"], text)
    assert result.code == 2
    assert result.out == ""
    assert result.err == f"perfectplay: error: {message}\n"


def complete(n: int, extra: int = 0) -> str:
    """One case on the complete digraph of n vertices, its first `extra` edges repeated."""
    edges = [(b, e) for b in range(1, n + 1) for e in range(1, n + 1) if b != e]
    return judge_input([(n, edges + edges[:extra], 1, 2)])


@pytest.mark.parametrize(
    ("at_limit", "past", "message"),
    [
        (
            judge_input([(100, [(1, 2)], 1, 2)]),
            judge_input([(101, [(1, 2)], 1, 2)]),
            refusal(2, "n of case 1", 101, 100),
        ),
        # m <= n (n - 1): an edge given twice (the statement forbids it) is one line too many.
        (complete(4), complete(4, extra=1), refusal(2, "m of case 1", 13, 12)),
        (
            SAMPLE.decode(),
            SAMPLE.decode().replace("4 3\n", "101 3\n"),
            refusal(7, "n of case 2", 101, 100),
        ),
    ],
)
def test_the_judge_limits_refuse_larger_cases_unless_lifted(
    at_limit: str, past: str, message: str
) -> None:
    assert_limit("make-you-happy", at_limit, past, message)
