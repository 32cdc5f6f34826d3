"""The maze game: from which start cells does the placing player win (JSOI 2009 "Game", P4055).

A places the token on any usable cell of an N x M maze; then B and A alternate moving it to an
orthogonally adjacent usable cell never entered before, B first; whoever cannot move loses. A
wins from exactly the cells that some maximum matching of the grid graph misses (the mover, B,
loses there): the Gallai-Edmonds set D(G), here of a bipartite graph.

Input: ``N M``, then N rows of M characters, ``.`` usable and ``#`` wall. Output: ``WIN`` and
every winning start cell as ``row col`` (1-based, row-major order), or the line ``LOSE``.

Limits: ``N, M <= 100`` (the judge's), refused with the line by default; ``limits=False``
(``--no-limits``) lifts them: any maze whose graph fits in memory.

>>> print(solve(b"3 3\\n.##\\n...\\n#.#\\n"), end="")
WIN
2 3
3 2
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from perfectplay.builders.grid import Grid
from perfectplay.problems._reader import TokenReader
from perfectplay.problems.board_game import read_board
from perfectplay.solvers.geography import solve_geography

__all__ = ["JUDGE_SIZE", "solve"]

JUDGE_SIZE = 100
"""The judge's bound on the number of rows N and of columns M."""


def _digits(x: NDArray[np.int64]) -> NDArray[np.int64]:
    """Number of decimal digits of each positive integer."""
    count = np.ones(x.shape, dtype=np.int64)
    power = 10
    while power <= int(x.max(initial=0)):
        count += x >= power
        power *= 10
    return count


def _lines(a: NDArray[np.int64], b: NDArray[np.int64]) -> str:
    """The lines ``a[k] b[k]`` for positive integers, formatted with array operations only.

    Each number is written digit by digit into one byte buffer: one pass per digit position
    (at most 19), never one Python step per line.
    """
    da, db = _digits(a), _digits(b)
    ends = np.cumsum(da + db + 2)
    buf = np.empty(int(ends[-1]) if ends.size else 0, dtype=np.uint8)
    starts = ends - (da + db + 2)
    for value, width, first in ((a, da, starts), (b, db, starts + da + 1)):
        rest = value.copy()
        for k in range(int(width.max(initial=0))):
            live = width > k
            buf[(first + width - 1 - k)[live]] = 48 + rest[live] % 10
            rest //= 10
    buf[starts + da] = ord(" ")
    buf[ends - 1] = ord("\n")
    return buf.tobytes().decode("ascii")


def solve(data: bytes, *, limits: bool = True) -> str:
    """Judge input -> ``WIN`` and the winning cells, or ``LOSE``.

    Parameters
    ----------
    data : bytes
        The judge input.
    limits : bool, default True
        Refuse a maze above the judge's 100 x 100 before reading it.

    Raises
    ------
    InputFormatError
        Bad sizes, a missing row, a row of the wrong length, a character other than ``.``
        and ``#``, or a size above the judge's limit (the message names the line).
    TooLargeError
        A maze whose graph would not fit in memory.

    Notes
    -----
    Cost: O(NM) to build the grid graph, then Pothen-Fan matching, O(NM * NM) at worst and
    near-linear on grids in practice.
    """
    reader = TokenReader(data, limits=limits)
    rows = reader.integer("the number of rows N", low=1, at_most=JUDGE_SIZE)
    cols = reader.integer("the number of columns M", low=1, at_most=JUDGE_SIZE)
    codes, _ = read_board(reader, rows, cols, ".#")
    game = Grid(codes == ord("."))
    reader.expect_end()
    winners = np.flatnonzero(solve_geography(game.graph()).in_d)
    if winners.size == 0:
        return "LOSE\n"
    return "WIN\n" + _lines(game.board.row[winners] + 1, game.board.col[winners] + 1)
