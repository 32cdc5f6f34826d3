"""One or two knights, no repeated positions: count the starting positions the mover wins.

An n x n board (1-based cells) with k blocked cells and m knights (m = 1 or 2; two knights are
indistinguishable and never share a cell). A move jumps one knight to an unblocked cell, not
onto the other knight; no position may occur twice in a game (the start counts); whoever cannot
move loses. Vertex geography on the (bipartite) position graph of
:class:`~perfectplay.builders.knights.Knights`: the mover wins iff every maximum matching covers
the position.

Input: ``n m k``, then k lines ``a b`` (row a, column b blocked). Output: the number of
starting positions (cells for m = 1, unordered pairs of distinct unblocked cells for m = 2)
from which the player to move wins. A cell blocked twice is simply blocked.

Limits: the problem has no judge, so perfectplay documents its own, each at most about 2 s for
the whole run on a shared 2-core machine: ``n <= 1000`` with one knight (10^6 positions,
1.2 s wall), ``n <= 40`` with two (1,279,200 pairs, 2.1 s wall; n = 60 takes 11 s), and
``k <= n * n``. They are refused with the line by default; ``limits=False`` (``--no-limits``)
lifts them: any position graph that fits in memory.

>>> solve(b"3 1 0\\n")
'8\\n'
"""

from __future__ import annotations

import numpy as np

from perfectplay._memory import check_memory
from perfectplay.builders.knights import Knights
from perfectplay.problems._reader import TokenReader
from perfectplay.solvers.geography import solve_geography

__all__ = ["SIZE_LIMIT", "solve"]

SIZE_LIMIT = {1: 1000, 2: 40}
"""perfectplay's documented bound on the board size n, by number of knights (no judge has one)."""

_BOARD_BYTES = 34.0
"""Bytes per cell of the board (blocked or not): the mask and the cell ids."""
_POSITION_BYTES = {1: 220.0, 2: 110.0}
"""Peak bytes per position of the position graph and its solve, by number of knights:
measured 213 per cell with one knight (n = 4000 to 6000), 102 per pair with two (n = 60 to
120)."""


def solve(data: bytes, *, limits: bool = True) -> str:
    """Judge input -> the number of winning starting positions, on one line.

    Parameters
    ----------
    data : bytes
        The input.
    limits : bool, default True
        Refuse n above :data:`SIZE_LIMIT` (for m knights) or k above n * n before reading
        the blocked cells.

    Raises
    ------
    InputFormatError
        Missing or non-integer numbers, n < 1, m not 1 or 2, a blocked cell off the board, or
        n or k above the documented limits (the message names the line).
    TooLargeError
        A position graph that would not fit in memory (refused before anything is built).

    Notes
    -----
    Cost: O(n^2) positions for one knight, O(n^4) for two (at most 16 moves each), then
    Pothen-Fan matching on the position graph.
    """
    reader = TokenReader(data, limits=limits)
    line = reader.line()
    n = reader.integer("the board size n", low=1)
    m = reader.integer("the number of knights m", low=1, high=2)
    knights = "one knight" if m == 1 else "two knights"
    reader.within_limit(n, SIZE_LIMIT[m], f"the board size n ({knights})", line)
    k = reader.integer("the number of blocked cells k", low=0, at_most=n * n)
    cells = reader.integers(2 * k, "a blocked cell 'a b'", low=1, high=n).reshape(-1, 2) - 1
    reader.expect_end()
    free_cells = n * n - len(np.unique(cells, axis=0))
    positions = free_cells if m == 1 else free_cells * (free_cells - 1) // 2
    check_memory(
        _BOARD_BYTES * n * n + _POSITION_BYTES[m] * positions,
        f"{knights} on a board of {n} x {n} cells ({positions:,} positions)",
    )
    free = np.ones((n, n), dtype=np.bool_)
    free[cells[:, 0], cells[:, 1]] = False
    game = Knights(free, m)
    wins = solve_geography(game.graph()).mover_wins
    return f"{int(np.count_nonzero(wins))}\n"
