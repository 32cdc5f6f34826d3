"""``perfectplay problem knights``: theory checks, counts against search, bad input."""

from __future__ import annotations

import pytest
from brute import brute_knights
from cli_helpers import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st
from problem_limits import assert_limit, refusal


def run(text: str) -> str:
    result = run_cli(["problem", "knights"], text)
    assert result.code == 0, result.err
    return result.out


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ("4 1 0\n", "16\n"),  # the 4x4 knight graph has a perfect matching
        ("6 1 0\n", "36\n"),
        ("3 1 0\n", "8\n"),  # the centre cannot move; the rest is an 8-cycle
        ("1 1 0\n", "0\n"),  # a single cell: no move
        ("1 2 0\n", "0\n"),  # no room for two knights
        ("2 2 4\n1 1\n1 2\n2 1\n2 2\n", "0\n"),  # everything blocked
        ("3 1 2\n2 2\n2 2\n", "8\n"),  # a repeated blocked cell is blocked once
    ],
)
def test_known_answers(data: str, expected: str) -> None:
    assert run(data) == expected


@st.composite
def cases(draw: st.DrawFn) -> tuple[int, int, list[tuple[int, int]]]:
    n = draw(st.integers(1, 5))
    m = draw(st.sampled_from([1, 2]))
    cells = [(r, c) for r in range(1, n + 1) for c in range(1, n + 1)]
    keep = draw(st.sets(st.sampled_from(cells), max_size=8 if m == 2 else 12))
    blocked = [cell for cell in cells if cell not in keep]
    return n, m, blocked


@settings(max_examples=60)
@given(cases())
def test_counts_follow_the_rules(case: tuple[int, int, list[tuple[int, int]]]) -> None:
    n, m, blocked = case
    data = f"{n} {m} {len(blocked)}\n" + "".join(f"{a} {b}\n" for a, b in blocked)
    board = [
        "".join("#" if (r, c) in blocked else "." for c in range(1, n + 1)) for r in range(1, n + 1)
    ]
    assert run(data) == f"{sum(brute_knights(board, m).values())}\n"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("4 3 0\n", "line 1: the number of knights m: 3 is out of range 1..2"),
        ("4 1 2\n1 1\n5 1\n", "line 3: a blocked cell 'a b': 5 is out of range 1..4"),
        ("4 1 2\n1 1\n", "line 2: input ends early: expected a blocked cell 'a b'"),
        ("0 1 0\n", "line 1: the board size n: 0 is out of range 1.."),
        ("4 1\n", "line 1: input ends early: expected the number of blocked cells k"),
        ("4 1 0\n7\n", "line 2: unexpected extra input '7'"),
        ("4 1 16\n1 1\n", "line 2: input ends early: expected a blocked cell 'a b'"),
    ],
)
def test_bad_input_is_one_line_with_its_line_number(data: str, message: str) -> None:
    result = run_cli(["problem", "knights"], data)
    assert result.code == 2 and result.out == ""
    assert result.err == f"perfectplay: error: {message}\n"


def test_oversized_board_is_refused() -> None:
    result = run_cli(["problem", "knights", "--no-limits"], "1000000 1 0\n")
    assert result.code == 2 and "needs about" in result.err


def blocked(n: int, m: int, free: int) -> str:
    """An n x n board with m knights where only the first `free` cells (row-major) are free."""
    cells = [divmod(c, n) for c in range(free, n * n)]
    return f"{n} {m} {len(cells)}\n" + "".join(f"{r + 1} {c + 1}\n" for r, c in cells)


@pytest.mark.parametrize(
    ("at_limit", "past", "message"),
    [
        ("1000 1 0\n", "1001 1 0\n", refusal(1, "the board size n (one knight)", 1001, 1000)),
        (
            blocked(40, 2, 120),  # the limit holds with any blocked cells: few free ones here
            blocked(41, 2, 120),
            refusal(1, "the board size n (two knights)", 41, 40),
        ),
        # k <= n * n: a cell blocked twice is one line too many.
        (
            "2 1 4\n1 1\n1 2\n2 1\n2 2\n",
            "2 1 5\n1 1\n1 1\n1 2\n2 1\n2 2\n",
            refusal(1, "the number of blocked cells k", 5, 4),
        ),
    ],
)
def test_the_documented_limits_refuse_larger_inputs_unless_lifted(
    at_limit: str, past: str, message: str
) -> None:
    assert_limit("knights", at_limit, past, message)
