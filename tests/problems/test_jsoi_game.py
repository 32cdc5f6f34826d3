"""``perfectplay problem jsoi-game`` (JSOI 2009, P4055): sample, edge cases, bad input."""

from __future__ import annotations

import numpy as np
import pytest
from brute import geography_mover_wins
from cli_helpers import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st
from problem_limits import assert_limit, refusal


def run(text: str) -> str:
    result = run_cli(["problem", "jsoi-game"], text)
    assert result.code == 0, result.err
    return result.out


def test_sample_byte_exact() -> None:
    data = "3 3\n.##\n...\n#.#\n"
    for name in ("jsoi-game", "p4055", "bzoj1443"):
        assert run_cli(["problem", name], data).out == "WIN\n2 3\n3 2\n"


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ("2 2\n##\n##\n", "LOSE\n"),  # no usable cell
        ("1 1\n.\n", "WIN\n1 1\n"),  # a lone cell: B cannot move
        ("1 2\n..\n", "LOSE\n"),  # a 1x2 strip: B moves and A is stuck
        ("1 3\n...\n", "WIN\n1 1\n1 3\n"),
    ],
)
def test_hand_made_mazes(data: str, expected: str) -> None:
    assert run(data) == expected


def test_many_digit_cells_are_formatted_like_print() -> None:
    # Isolated usable cells (a checkerboard of walls) are all winning for A.
    rows, cols = 13, 100
    maze = np.where((np.add.outer(np.arange(rows), np.arange(cols)) % 2) == 0, ".", "#")
    data = f"{rows} {cols}\n" + "\n".join("".join(r) for r in maze) + "\n"
    cells = [f"{r + 1} {c + 1}\n" for r in range(rows) for c in range(cols) if maze[r, c] == "."]
    assert run(data) == "WIN\n" + "".join(cells)


@st.composite
def mazes(draw: st.DrawFn) -> list[str]:
    rows = draw(st.integers(1, 3))
    cols = draw(st.integers(1, 4))
    return ["".join(draw(st.sampled_from(".#")) for _ in range(cols)) for _ in range(rows)]


@settings(max_examples=60)
@given(mazes())
def test_answers_follow_the_rules(maze: list[str]) -> None:
    cells = [(r, c) for r, row in enumerate(maze) for c, ch in enumerate(row) if ch == "."]
    ids = {cell: k for k, cell in enumerate(cells)}
    edges = [
        (ids[(r, c)], ids[(r + dr, c + dc)])
        for (r, c) in cells
        for dr, dc in ((0, 1), (1, 0))
        if (r + dr, c + dc) in ids
    ]
    mover_wins = geography_mover_wins(len(cells), edges)
    winners = [f"{r + 1} {c + 1}\n" for (r, c), w in zip(cells, mover_wins, strict=True) if not w]
    data = f"{len(maze)} {len(maze[0])}\n" + "\n".join(maze) + "\n"
    assert run(data) == ("WIN\n" + "".join(winners) if winners else "LOSE\n")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("2 2\n..\n.P\n", "line 3: board row 2 column 2: bad character 'P' (allowed: '.#')"),
        ("2 3\n...\n..\n", "line 3: board row 2 has 2 characters, expected 3"),
        ("2 2\n..\n", "line 2: input ends early: expected board row 2 of 2"),
        ("1 0\n", "line 1: the number of columns M: 0 is out of range 1.."),
        ("1 1\n.\n.\n", "line 3: unexpected extra input '.'"),
    ],
)
def test_bad_input_is_one_line_with_its_line_number(data: str, message: str) -> None:
    result = run_cli(["problem", "jsoi-game"], data)
    assert result.code == 2 and result.out == ""
    assert result.err == f"perfectplay: error: {message}\n"


def maze(rows: int, cols: int) -> str:
    """A maze of usable cells, a wall on every third cell of each row."""
    row_text = "".join("#" if c % 3 == 2 else "." for c in range(cols))
    return f"{rows} {cols}\n" + (row_text + "\n") * rows


@pytest.mark.parametrize(
    ("at_limit", "past", "message"),
    [
        (maze(100, 100), maze(101, 100), refusal(1, "the number of rows N", 101, 100)),
        (maze(100, 100), maze(100, 101), refusal(1, "the number of columns M", 101, 100)),
    ],
)
def test_the_judge_limits_refuse_larger_mazes_unless_lifted(
    at_limit: str, past: str, message: str
) -> None:
    assert_limit("jsoi-game", at_limit, past, message)
