"""``perfectplay problem board-game`` (POJ 2990): samples, edge cases, rules, bad input."""

from __future__ import annotations

import pytest
from brute import brute_two_tokens
from cli_helpers import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st
from problem_limits import assert_limit, refusal

SAMPLE = """1 2
PP

1 3
P.P

1 4
P..P

2 3
P.#
..P

3 4
P...
....
...P
"""
SAMPLE_OUT = "Alice wins.\nBob wins.\nAlice wins.\nAlice wins.\nAlice wins.\n"


def run(text: str) -> str:
    result = run_cli(["problem", "board-game"], text)
    assert result.code == 0, result.err
    return result.out


def test_sample_byte_exact() -> None:
    assert run(SAMPLE) == SAMPLE_OUT
    assert run_cli(["problem", "poj2990"], SAMPLE).out == SAMPLE_OUT


def test_instances_are_independent() -> None:
    instances = SAMPLE.strip().split("\n\n")
    lines = SAMPLE_OUT.splitlines(keepends=True)
    for text, expected in zip(instances, lines, strict=True):
        assert run(text + "\n") == expected


@pytest.mark.parametrize(
    ("board", "expected"),
    [
        ("2 1\nP\nP\n", "Alice wins."),  # adjacent vertically: capture at once
        ("3 3\nP##\n###\n##P\n", "Bob wins."),  # no token can move
        ("2 2\nP#\n#P\n", "Bob wins."),  # diagonal, all else removed
        ("1 5\nP#.#P\n", "Bob wins."),  # walled off from each other
        ("1 5\nP.#.P\n", "Alice wins."),  # the four positions form a cycle: a perfect matching
        ("1 3\nP#P\n", "Bob wins."),  # a 1x3 strip with the middle removed: no move
        ("1 1\n#\n", None),
    ],
)
def test_hand_made_boards(board: str, expected: str | None) -> None:
    result = run_cli(["problem", "board-game"], board)
    if expected is None:
        assert result.code == 2 and "exactly two 'P', got 0" in result.err
    else:
        assert result.out == expected + "\n"


@st.composite
def instances(draw: st.DrawFn) -> tuple[list[str], tuple[tuple[int, int], ...]]:
    rows = draw(st.integers(1, 3))
    cols = draw(st.integers(1, 4))
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    if len(cells) < 2:
        cells = [(0, 0), (0, 1)]
        rows, cols = 1, 2
    free = draw(st.lists(st.sampled_from(cells), min_size=2, max_size=7, unique=True))
    board = ["".join("." if (r, c) in free else "#" for c in range(cols)) for r in range(rows)]
    return board, (free[0], free[1])


@settings(max_examples=60)
@given(instances())
def test_answers_follow_the_rules(instance: tuple[list[str], tuple[tuple[int, int], ...]]) -> None:
    board, tokens = instance
    text = [list(row) for row in board]
    for r, c in tokens:
        text[r][c] = "P"
    rows = ["".join(row) for row in text]
    data = f"{len(rows)} {len(rows[0])}\n" + "\n".join(rows) + "\n"
    expected = brute_two_tokens(board)[frozenset(tokens)]
    assert run(data) == ("Alice wins.\n" if expected else "Bob wins.\n")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            "1 3\nP.P\n\n2 2\nP.\n.x\n",
            "line 6: board row 2 column 2: bad character 'x' (allowed: '.#P')",
        ),
        ("2 3\nP..\n.P\n", "line 3: board row 2 has 2 characters, expected 3"),
        ("1 3\nP..\n", "line 1: the board must hold exactly two 'P', got 1"),
        ("1 3\nPPP\n", "line 2: board row 1 column 3: more than 2 'P' on the board"),
        ("2 2\nP.\n", "line 2: input ends early: expected board row 2 of 2"),
        ("0 2\n", "line 1: the number of rows m: 0 is out of range 1.."),
        ("1 x\n", "line 1: expected an integer (the number of columns n), got 'x'"),
    ],
)
def test_bad_input_is_one_line_with_its_line_number(data: str, message: str) -> None:
    result = run_cli(["problem", "board-game"], data)
    assert result.code == 2 and result.out == ""
    assert result.err == f"perfectplay: error: {message}\n"


def board(rows: int, cols: int) -> str:
    """A free board with the tokens in two opposite corners."""
    cells = [["."] * cols for _ in range(rows)]
    cells[0][0] = cells[-1][-1] = "P"
    return f"{rows} {cols}\n" + "".join("".join(r) + "\n" for r in cells)


@pytest.mark.parametrize(
    ("at_limit", "past", "message"),
    [
        (board(8, 8), board(9, 8), refusal(1, "the number of rows m", 9, 8)),
        (
            board(8, 8),
            board(1, 2) + "\n" + board(8, 9),
            refusal(4, "the number of columns n", 9, 8),
        ),
    ],
)
def test_the_judge_limits_refuse_larger_boards_unless_lifted(
    at_limit: str, past: str, message: str
) -> None:
    assert_limit("board-game", at_limit, past, message)
