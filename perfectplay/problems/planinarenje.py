"""Peaks and valleys: who wins from each peak (COCI 2017/2018 round 5, "Planinarenje").

N peaks and N valleys numbered 1..N, M trails each joining a peak and a valley. From each
starting peak independently, Slavko moves first (to a valley), then Mirko (to a peak), and so
on, never revisiting a spot; whoever must move and cannot, loses. This is vertex geography on
the bipartite peak/valley graph: Slavko wins from peak i iff every maximum matching covers it.

Input: ``N M``, then M lines ``v d`` (peak v, valley d). Output: N lines, line i ``Slavko`` if
Slavko wins starting at peak i, else ``Mirko``. A trail given twice counts once (the judge
promises no duplicates; a duplicate changes no play).

Limits: ``N <= 5000`` and ``M <= min(5000, N * N)`` (the judge's), refused with the line by
default; ``limits=False`` (``--no-limits``) lifts them: any graph that fits in memory.

>>> print(solve(b"2 3\\n1 2\\n2 2\\n2 1\\n"), end="")
Slavko
Slavko
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from perfectplay._memory import check_memory
from perfectplay.builders.undirected import Geography
from perfectplay.problems._reader import TokenReader
from perfectplay.solvers.geography import solve_geography

__all__ = ["JUDGE_M", "JUDGE_N", "solve"]

JUDGE_N = 5000
"""The judge's bound on the number of peaks (and of valleys) N."""
JUDGE_M = 5000
"""The judge's bound on the number of trails M (also at most N * N)."""

_WORDS = np.frombuffer(b"Mirko\n\x00Slavko\n", dtype=np.uint8).reshape(2, 7)
"""The answer's two lines as rows of bytes, ``Mirko`` padded with a zero byte."""
_ANSWER_BYTES = 24.0
"""Bytes per peak of the answer laid out as bytes, beside the graph and its solve (2 N vertices
each, :meth:`Geography.bytes_to_solve`): measured 50 per peak at the whole run's peak (N = 1e7
to 3e7)."""


def solve(data: bytes, *, limits: bool = True) -> str:
    """Judge input -> N lines, ``Slavko`` or ``Mirko`` per starting peak.

    Parameters
    ----------
    data : bytes
        The judge input.
    limits : bool, default True
        Refuse N or M above the judge's limits before reading the trails.

    Raises
    ------
    InputFormatError
        Missing or non-integer numbers, N < 1, a peak or valley outside 1..N, or N or M above
        the judge's limits (with the line).
    TooLargeError
        A graph that would not fit in memory (refused before anything is built).

    Notes
    -----
    Cost: O(M log M) to merge duplicate trails, then Pothen-Fan matching,
    O(N M) at worst and near-linear in practice.
    """
    reader = TokenReader(data, limits=limits)
    n = reader.integer("the number of peaks N", low=1, at_most=JUDGE_N)
    m = reader.integer("the number of trails M", low=0, at_most=min(JUDGE_M, n * n))
    trails = reader.integers(2 * m, "a trail 'v d' (peak v, valley d)", low=1, high=n)
    reader.expect_end()
    check_memory(
        Geography.bytes_to_solve(2 * n, m) + _ANSWER_BYTES * n, f"{n} peaks and {m} trails"
    )
    game = Geography.bipartite(n, n, trails[0::2] - 1, trails[1::2] - 1)
    wins = solve_geography(game.graph()).mover_wins[:n]
    return _lines(wins)


def _lines(wins: NDArray[np.bool_]) -> str:
    """``Slavko`` where `wins`, else ``Mirko``, one per line: the words' bytes laid out by
    numpy (a row of 7 bytes per peak, the padding byte of ``Mirko`` dropped).

    >>> _lines(np.array([True, False]))
    'Slavko\\nMirko\\n'
    """
    rows = _WORDS[wins.view(np.uint8)].reshape(-1)
    return rows[rows != 0].tobytes().decode("ascii")
