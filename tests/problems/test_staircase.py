"""`perfectplay problem staircase` (p4363): judge I/O byte for byte, edge cases, bad input.

Small boards and inputs take a path without numba (regex reader, numpy level sweep), large ones
the numba reader and sweep: the tests run both, by forcing the switches.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pytest
from brute import staircase_scores
from cli_helpers import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st
from problem_limits import assert_limit, refusal

from perfectplay.builders.staircase import rules as staircase
from perfectplay.errors import InputFormatError
from perfectplay.problems import _reader, get_problem
from perfectplay.problems import staircase as staircase_problem


@contextmanager
def numba_path(on: bool) -> Iterator[None]:
    """With `on`: read with the numba kernel and solve with the numba sweep, whatever the size."""
    with pytest.MonkeyPatch.context() as patch:
        if on:
            patch.setattr(_reader, "SMALL_INPUT", -1)
            patch.setattr(staircase, "_uses_levels", lambda n, m: False)
        yield


@pytest.fixture(params=[False, True], ids=["numpy", "numba"])
def path(request: pytest.FixtureRequest) -> Iterator[None]:
    with numba_path(request.param):
        yield


SAMPLE = "2 3\n2 7 3\n9 1 2\n3 7 2\n2 3 1\n"


def judge_input(a: np.ndarray, b: np.ndarray) -> str:  # type: ignore[type-arg]
    n, m = a.shape
    rows = [" ".join(map(str, row)) for row in (*a.tolist(), *b.tolist())]
    return f"{n} {m}\n" + "\n".join(rows) + "\n"


def expected(a: np.ndarray, b: np.ndarray) -> str:  # type: ignore[type-arg]
    return f"{staircase_scores(a.tolist(), b.tolist())[(0,) * a.shape[0]]}\n"


@pytest.mark.usefixtures("path")
def test_sample_byte_exact() -> None:
    for name in ("staircase", "p4363"):
        result = run_cli(["problem", name], SAMPLE)
        assert (result.code, result.out, result.err) == (0, "2\n", "")


@pytest.mark.usefixtures("path")
def test_one_cell() -> None:
    assert get_problem("staircase").solve(b"1 1\n5\n100\n") == "5\n"
    assert get_problem("staircase").solve(b"1 1\n0\n0\n") == "0\n"


@pytest.mark.usefixtures("path")
@pytest.mark.parametrize("transpose", [False, True])
def test_single_row_or_column_is_forced(transpose: bool) -> None:
    rng = np.random.default_rng(7)
    a = rng.integers(0, 100_001, (1, 9))
    b = rng.integers(0, 100_001, (1, 9))
    # One line of cells: black takes cells 0, 2, 4, ... and white 1, 3, ...
    answer = int(a[0, 0::2].sum() - b[0, 1::2].sum())
    if transpose:
        a, b = a.T, b.T
    assert get_problem("staircase").solve(judge_input(a, b).encode()) == f"{answer}\n"


@settings(max_examples=60)
@given(
    st.integers(1, 4),
    st.integers(1, 4),
    st.integers(0, 2**32 - 1),
    st.sampled_from([10, 100_000]),
    st.booleans(),
    st.booleans(),
)
def test_small_boards_match_brute_force(
    n: int, m: int, seed: int, high: int, zero_b: bool, numba: bool
) -> None:
    rng = np.random.default_rng(seed)
    a = rng.integers(0, high + 1, (n, m))
    b = np.zeros((n, m), np.int64) if zero_b else rng.integers(0, high + 1, (n, m))
    with numba_path(numba):
        assert get_problem("staircase").solve(judge_input(a, b).encode()) == expected(a, b)


@pytest.mark.usefixtures("path")
def test_boards_beyond_the_judge_limit_are_accepted() -> None:
    n, m = 11, 12
    a = np.full((n, m), 100_000)
    b = np.full((n, m), 100_000)
    # Equal gains everywhere: black places ceil(nm/2) stones, white floor(nm/2).
    solve = get_problem("staircase").solve
    assert solve(judge_input(a, b).encode(), limits=False) == "0\n"
    a[:, :] = 1
    b[:, :] = 0
    assert solve(judge_input(a, b).encode(), limits=False) == f"{(n * m + 1) // 2}\n"


@pytest.mark.parametrize(
    ("data", "line", "what"),
    [
        ("", 1, "input ends early"),
        ("2\n", 1, "input ends early"),
        ("0 3\n", 1, "out of range"),
        ("2 x\n", 1, "expected an integer"),
        ("1 2\n1 2\n3\n", 3, "input ends early"),
        ("1 2\n1 2\n3 -4\n", 3, "out of range"),
        ("1 1\n100001\n0\n", 2, "out of range"),
        ("1 1\n1\n2\n3\n", 4, "unexpected extra input"),
        ("2 2\n1 2\n3 4\n5 6\n7 z\n", 5, "expected an integer"),
    ],
)
@pytest.mark.usefixtures("path")
def test_malformed_input_is_one_line_with_its_number(data: str, line: int, what: str) -> None:
    result = run_cli(["problem", "staircase"], data)
    assert result.code == 2
    assert result.out == ""
    assert result.err.count("\n") == 1
    assert f"line {line}:" in result.err
    assert what in result.err


def test_oversized_board_is_refused_before_reading_the_gains() -> None:
    result = run_cli(["problem", "staircase", "--no-limits"], "20 20\n")
    assert result.code == 2
    assert "20 x 20 staircase board needs about" in result.err
    assert result.err.count("\n") == 1


@pytest.mark.parametrize(("n", "m"), [(12, 12), (4, 100), (100, 4), (11, 14)])
def test_a_board_too_large_for_the_level_sweep_is_refused_before_reading_the_gains(
    n: int, m: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The level sweep needs about 40 bytes per staircase, the numba sweep 4: the estimate is
    # the one of the sweep that will run (the numpy one up to about 12 x 12, not for 11 x 14).
    levels = staircase._uses_levels(min(n, m), max(n, m))
    assert levels == ((n, m) != (11, 14))
    needed = staircase_problem.estimate_bytes(n, m)
    per_staircase = needed / staircase.count_positions(n, m)
    assert (25 < per_staircase < 45) if levels else (4 <= per_staircase < 5)
    monkeypatch.setattr("perfectplay._memory.available_bytes", lambda: needed - 1)
    command = ["problem", "staircase", "--no-limits"]
    result = run_cli(command, f"{n} {m}\n")  # no gains: refused before
    assert result.code == 2
    assert f"{n} x {m} staircase board needs about" in result.err
    assert result.err.count("\n") == 1
    monkeypatch.setattr("perfectplay._memory.available_bytes", lambda: needed)
    result = run_cli(command, f"{n} {m}\n")
    assert result.code == 2
    assert "line 1: input ends early: expected black's gains" in result.err


@pytest.mark.parametrize(("n", "log2"), [(40, 77), (100_000, 199_991), (1_000_000, 1_999_989)])
def test_astronomical_board_is_refused_without_counting_it(n: int, log2: int) -> None:
    # C(2n, n) exactly has hundreds of thousands of digits for the largest n: refused at once.
    result = run_cli(["problem", "staircase", "--no-limits"], f"{n} {n}\n")
    assert result.code == 2
    assert f"{n} x {n} staircase board has about 2^{log2} positions" in result.err
    assert result.err.count("\n") == 1


def test_all_zero_b_leaves_black_its_best_cells() -> None:
    # White gains nothing: the score is what black collects; both paths agree with brute force.
    rng = np.random.default_rng(11)
    a = rng.integers(0, 100_001, (4, 5))
    b = np.zeros((4, 5), np.int64)
    answers = set()
    for numba in (False, True):
        with numba_path(numba):
            answers.add(get_problem("staircase").solve(judge_input(a, b).encode()))
    assert answers == {expected(a, b)}
    assert int(answers.pop()) > 0


def test_judge_board_never_imports_numba() -> None:
    # The whole command on a 10 x 10 judge input, in a fresh interpreter: numba (about 1 s of
    # start-up with a cached kernel) must stay unloaded.
    rng = np.random.default_rng(5)
    a, b = rng.integers(0, 100_001, (2, 10, 10))
    wrapper = (
        "import sys\n"
        "from perfectplay.cli import main\n"
        "code = main(['problem', 'staircase'])\n"
        "print('numba' in sys.modules, file=sys.stderr)\n"
        "sys.exit(code)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", wrapper],
        input=judge_input(a, b).encode(),
        capture_output=True,
        check=True,
    )
    with numba_path(True):
        assert result.stdout.decode() == get_problem("staircase").solve(judge_input(a, b).encode())
    assert result.stderr.decode() == "False\n"


def test_input_over_64_kib_is_read_by_the_numba_path_alike() -> None:
    rng = np.random.default_rng(9)
    a, b = rng.integers(0, 100_001, (2, 3, 4))
    text = judge_input(a, b)
    padded = text.replace("\n", " " * 10_000 + "\n")
    assert len(padded) > _reader.SMALL_INPUT > len(text)
    problem = get_problem("staircase")
    assert problem.solve(padded.encode()) == problem.solve(text.encode()) == expected(a, b)
    bad = padded[:-1] + " 7\n"
    with pytest.raises(InputFormatError, match="line 7: unexpected extra input '7'"):
        problem.solve(bad.encode())


def ones(n: int, m: int) -> str:
    return judge_input(np.ones((n, m), np.int64), np.zeros((n, m), np.int64))


@pytest.mark.parametrize(
    ("at_limit", "past", "message"),
    [
        (ones(10, 10), ones(11, 10), refusal(1, "n, the number of rows", 11, 10)),
        (ones(10, 10), ones(10, 11), refusal(1, "m, the number of columns", 11, 10)),
    ],
)
def test_the_judge_limits_refuse_larger_boards_unless_lifted(
    at_limit: str, past: str, message: str
) -> None:
    assert_limit("staircase", at_limit, past, message)
