"""Luogu P4363 (ZJOI 2018) "一双木棋 chess": the staircase game, black's minus white's total.

An n x m board starts empty; black and white alternately place a stone on a cell whose left
and upper neighbours are filled (or off the board) until the board is full. Black scores
``a[i][j]`` for a stone on ``(i, j)``, white ``b[i][j]``; each maximises (own - opponent).

Input: ``n m``, then n lines of m integers (``a``), then n lines of m integers (``b``).
Output: black's total minus white's total under perfect play, one integer.

Validation: ``n, m >= 1`` and ``0 <= a, b <= 100000`` (the judge's limits); the board may be
larger than the judge's 10 x 10 as long as the score table (``C(n + m, n)`` entries of 4 or 8
bytes) fits in memory: 14 x 14 needs 160 MB. Oversized boards are refused before the gains
are read. Nothing but whitespace may follow the second grid.

This is :func:`~perfectplay.games.staircase.staircase_score`: one sweep over all staircases
from the full board back to the empty one. Judge-sized boards take the path that never imports
numba (whose import and cached kernel would cost about 1 s of the 0.5 s budget): the input is
read by regular expressions (:class:`~perfectplay.problems._reader.TokenReader` on inputs of
at most 64 KiB) and solved by the numpy level sweep (boards up to about 12 x 12). A 10 x 10
board then takes about 0.3 s in all: 0.02 s for Python, 0.18 s to import numpy, 0.03 s for
perfectplay's modules, under 1 ms to read the input and 0.05 to 0.08 s to solve. Larger boards
are read and solved by numba kernels.

>>> print(solve(b"2 3\\n2 7 3\\n9 1 2\\n3 7 2\\n2 3 1\\n"), end="")
2
"""

from __future__ import annotations

from perfectplay._memory import check_memory
from perfectplay.games.staircase import count_positions, staircase_score
from perfectplay.problems._reader import TokenReader

__all__ = ["solve"]

GAIN_LIMIT = 100_000
"""The judge's bound on every a[i][j] and b[i][j]."""


def estimate_bytes(n: int, m: int) -> int:
    """Peak memory of a numba solve: the score table, the binomial table and the gain grids.

    Checked before the gains are read, to refuse huge boards early. The numpy level sweep
    that small boards take needs about 40 bytes per staircase instead (120 MB for 12 x 12),
    which :func:`~perfectplay.games.staircase.staircase_score` checks before allocating.

    Raises
    ------
    TooLargeError
        At once, without counting exactly, if the board has more than about 2^62 staircases
        (see :func:`~perfectplay.games.staircase.count_positions`).

    >>> estimate_bytes(14, 14)
    160473016
    """
    bound = 2 * GAIN_LIMIT * n * m
    binomials = 8 * (n + m + 1) * (min(n, m) + 1)
    return count_positions(n, m) * (4 if bound < 2**31 else 8) + binomials + 16 * n * m


def solve(data: bytes) -> str:
    """Judge input bytes -> judge output text (one integer and a newline).

    Raises
    ------
    InputFormatError
        Malformed input, naming the line: a missing or non-integer number, n or m below 1,
        a gain outside 0..100000, or extra input.
    TooLargeError
        The board has too many staircases for the memory available.

    Notes
    -----
    Cost: O(C(n + m, n) * min(n, m)) time and 4 bytes per staircase (8 when totals may
    leave int32), plus O(n * m) to read the grids; 10 x 10 is 184,756 staircases.
    """
    reader = TokenReader(data)
    n = reader.integer("n, the number of rows", low=1)
    m = reader.integer("m, the number of columns", low=1)
    check_memory(estimate_bytes(n, m), f"a {n} x {m} staircase board")
    a = reader.integers(n * m, "black's gains a[i][j]", low=0, high=GAIN_LIMIT)
    b = reader.integers(n * m, "white's gains b[i][j]", low=0, high=GAIN_LIMIT)
    reader.expect_end()
    return f"{staircase_score(a.reshape(n, m), b.reshape(n, m))}\n"
