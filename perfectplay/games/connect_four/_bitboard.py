"""Connect Four's bitboard layout, written once for every kernel of the game (numba).

Bit ``c * (rows + 1) + r`` is column ``c``, row ``r`` (0 at the bottom), John Tromp's layout:
each column has ``height = rows + 1`` bits, the top one a guard that is never set, so a line
cannot wrap from one column into the next. A board is two such bitboards (the stones of one
player, and the mask of all stones); one board takes ``height * cols`` bits.

>>> import numpy as np
>>> four(np.int64(0b1111), 5), four(np.int64(0b1_00001_00001_00001), 5)  # a column, a row
(True, True)
>>> four(np.int64(0b1_00000_01110), 5)
False
"""

from __future__ import annotations

import numba as nb

from perfectplay._bits import runs_of_four
from perfectplay.errors import GameDefinitionError

__all__ = [
    "COLUMN_LABELS",
    "MAX_BITS",
    "SEARCH_BITS",
    "VECTOR_BITS",
    "WORD_BITS",
    "four",
    "refuse_untiered",
]

COLUMN_LABELS = "abcdefghijklmnopqrstuvwxyz"
"""The move labels, one letter per column from the left (so at most 26 columns)."""

MAX_BITS = 63
"""The largest ``(rows + 1) * cols`` of the tier engine: one board's bitboard in an int64, its
ranks in int64."""

WORD_BITS = 64
"""The largest ``(rows + 1) * cols`` of the one-word search: one board's bitboard in a uint64."""

SEARCH_BITS = 128
"""The largest ``(rows + 1) * cols`` of the game (its rules work on Python integers) and of the
two-word search, whose bitboards are two uint64 words."""

VECTOR_BITS = 31
"""The largest ``(rows + 1) * cols`` of the vectorized path, whose codes hold two boards in 62
bits."""


@nb.njit(cache=True, nogil=True, inline="always")
def four(stones: int, height: int) -> bool:
    """Whether `stones` hold four in a row: a run of four with step 1 (a column), `height` (a
    row) or ``height + 1`` and ``height - 1`` (the diagonals). The guard row stops
    wrap-around. The reference it is tested against is the rules' pure-Python test.

    Columns of more than 16 bits leave at most 3 columns in 64 bits, where only a column holds
    four: the other directions are skipped, as their shifts (up to ``2 * (height + 1)``) would
    reach 64 bits, which numba leaves undefined (x86 takes the count mod 64: false fours)."""
    lines = runs_of_four(stones, 1)
    if height <= 16:
        lines |= runs_of_four(stones, height)
        lines |= runs_of_four(stones, height + 1)
        lines |= runs_of_four(stones, height - 1)
    return lines != 0


def refuse_untiered(rows: int, cols: int) -> None:
    """GameDefinitionError, in one line, for a board the tier engine cannot rank in int64
    (``(rows + 1) * cols > MAX_BITS``), saying what answers its positions instead.

    >>> refuse_untiered(7, 8)
    Traceback (most recent call last):
    ...
    perfectplay.errors.GameDefinitionError: connect-four tiers need rows, cols >= 1 with ...
    got rows=7, cols=8: search its positions instead (perfectplay search connect-four ...)
    """
    if rows < 1 or cols < 1 or (rows + 1) * cols > MAX_BITS:
        instead = (
            f": search its positions instead (perfectplay search connect-four --param "
            f"rows={rows} --param cols={cols} POSITION)"
            if rows >= 1 and 1 <= cols <= len(COLUMN_LABELS) and (rows + 1) * cols <= SEARCH_BITS
            else ""
        )
        raise GameDefinitionError(
            f"connect-four tiers need rows, cols >= 1 with (rows + 1) * cols <= {MAX_BITS} "
            f"(bitboards and ranks in int64), got rows={rows}, cols={cols}{instead}"
        )
