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

>>> solve(b"3 1 0\\n")
'8\\n'
"""

from __future__ import annotations

import numpy as np

from perfectplay._memory import check_memory
from perfectplay.builders.knights import Knights
from perfectplay.problems._reader import TokenReader
from perfectplay.solvers.geography import solve_geography

__all__ = ["solve"]

_BOARD_BYTES = 34.0
"""Bytes per cell of the board (blocked or not): the mask and the cell ids."""
_POSITION_BYTES = {1: 220.0, 2: 110.0}
"""Peak bytes per position of the position graph and its solve, by number of knights:
measured 213 per cell with one knight (n = 4000 to 6000), 102 per pair with two (n = 60 to
120)."""


def solve(data: bytes) -> str:
    """Judge input -> the number of winning starting positions, on one line.

    Raises
    ------
    InputFormatError
        Missing or non-integer numbers, n < 1, m not 1 or 2, or a blocked cell off the board
        (the message names the line).
    TooLargeError
        A position graph that would not fit in memory (refused before anything is built).

    Notes
    -----
    Cost: O(n^2) positions for one knight, O(n^4) for two (at most 16 moves each), then
    Pothen-Fan matching on the position graph.
    """
    reader = TokenReader(data)
    n = reader.integer("the board size n", low=1)
    m = reader.integer("the number of knights m", low=1, high=2)
    k = reader.integer("the number of blocked cells k", low=0)
    cells = reader.integers(2 * k, "a blocked cell 'a b'", low=1, high=n).reshape(-1, 2) - 1
    reader.expect_end()
    free_cells = n * n - len(np.unique(cells, axis=0))
    positions = free_cells if m == 1 else free_cells * (free_cells - 1) // 2
    check_memory(
        _BOARD_BYTES * n * n + _POSITION_BYTES[m] * positions,
        f"{'one knight' if m == 1 else 'two knights'} on a board of {n} x {n} cells "
        f"({positions:,} positions)",
    )
    free = np.ones((n, n), dtype=np.bool_)
    free[cells[:, 0], cells[:, 1]] = False
    game = Knights(free, m)
    wins = solve_geography(game.graph()).mover_wins
    return f"{int(np.count_nonzero(wins))}\n"
