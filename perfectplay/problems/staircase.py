"""Luogu P4363 (ZJOI 2018) "一双木棋 chess": the staircase game, black's minus white's total.

An n x m board starts empty; black and white alternately place a stone on a cell whose left
and upper neighbours are filled (or off the board) until the board is full. Black scores
``a[i][j]`` for a stone on ``(i, j)``, white ``b[i][j]``; each maximises (own - opponent).

Input: ``n m``, then n lines of m integers (``a``), then n lines of m integers (``b``).
Output: black's total minus white's total under perfect play, one integer.

Limits: ``n, m <= 10`` (the judge's), refused with the line by default, and
``0 <= a, b <= 100000`` always. ``limits=False`` (``--no-limits``) lifts the size limit: the
board may then be larger than the judge's 10 x 10 as long as the sweep's memory fits
(:func:`estimate_bytes`): about 40 bytes per staircase on boards up to about 12 x 12
(12 x 12: 100 MiB), 4 or 8 beyond (14 x 14: 160 MB). Oversized boards are refused before the
gains are read. Nothing but
whitespace may follow the second grid.

This is :func:`~perfectplay.builders.staircase.rules.staircase_score`: one sweep over all staircases
from the full board back to the empty one. Judge-sized boards take the path that never imports
numba (whose import and cached kernel would cost about 1 s of the 0.5 s budget): the input is
read by regular expressions (:class:`~perfectplay.problems._reader.TokenReader` on inputs of
at most 64 KiB) and solved by the numpy level sweep (boards up to about 12 x 12). A 10 x 10
board then takes about 0.3 s in all: 0.02 s for Python, 0.18 s to import numpy, 0.03 s for
perfectplay's modules, under 1 ms to read the input and 0.02 to 0.05 s to solve. Larger boards
are read and solved by numba kernels.

>>> print(solve(b"2 3\\n2 7 3\\n9 1 2\\n3 7 2\\n2 3 1\\n"), end="")
2
"""

from __future__ import annotations

from perfectplay._memory import check_memory
from perfectplay.builders.staircase.rules import score_bytes, staircase_score
from perfectplay.problems._reader import TokenReader

__all__ = ["JUDGE_SIZE", "solve"]

JUDGE_SIZE = 10
"""The judge's bound on the number of rows n and of columns m."""

GAIN_LIMIT = 100_000
"""The judge's bound on every a[i][j] and b[i][j]."""


def estimate_bytes(n: int, m: int) -> int:
    """Peak memory of a solve: the sweep that will run, and the gain grids.

    Checked before the gains are read, to refuse huge boards early. The sweep is the one
    :func:`~perfectplay.builders.staircase.rules.staircase_score` takes (see
    :func:`~perfectplay.builders.staircase.rules.score_bytes`): the numpy level sweep on boards
    up to about 12 x 12, about 40 bytes per staircase (12 x 12: 100 MiB), else the numba sweep,
    4 bytes per staircase (8 when totals may leave int32) and a binomial table. Scores are
    counted as int32 only when the largest gains could not leave it.

    Raises
    ------
    TooLargeError
        At once, without counting exactly, if the board has more than about 2^62 staircases
        (see :func:`~perfectplay.builders.staircase.rules.count_positions`).

    >>> estimate_bytes(12, 12), estimate_bytes(14, 14)
    (104484847, 160473016)
    """
    bound = 2 * GAIN_LIMIT * n * m  # at least staircase_score's bound on |any total|
    itemsize = 4 if bound < 2**31 else 8
    return score_bytes(min(n, m), max(n, m), itemsize) + 16 * n * m  # and the gain grids


def solve(data: bytes, *, limits: bool = True) -> str:
    """Judge input bytes -> judge output text (one integer and a newline).

    Parameters
    ----------
    data : bytes
        The judge input.
    limits : bool, default True
        Refuse n or m above the judge's 10 before reading the gains.

    Raises
    ------
    InputFormatError
        Malformed input, naming the line: a missing or non-integer number, n or m below 1
        or (with `limits`) above 10, a gain outside 0..100000, or extra input.
    TooLargeError
        The board has too many staircases for the memory available.

    Notes
    -----
    Cost: O(C(n + m, n) * min(n, m)) time, plus O(n * m) to read the grids; memory
    :func:`estimate_bytes`: on judge-sized boards (10 x 10, 184,756 staircases) the numpy
    level sweep, about 40 bytes per staircase (7.5 MiB), on boards beyond about 12 x 12 the
    numba sweep, 4 bytes per staircase (8 when totals may leave int32).
    """
    reader = TokenReader(data, limits=limits)
    n = reader.integer("n, the number of rows", low=1, at_most=JUDGE_SIZE)
    m = reader.integer("m, the number of columns", low=1, at_most=JUDGE_SIZE)
    check_memory(estimate_bytes(n, m), f"a {n} x {m} staircase board")
    a = reader.integers(n * m, "black's gains a[i][j]", low=0, high=GAIN_LIMIT)
    b = reader.integers(n * m, "white's gains b[i][j]", low=0, high=GAIN_LIMIT)
    reader.expect_end()
    return f"{staircase_score(a.reshape(n, m), b.reshape(n, m))}\n"
