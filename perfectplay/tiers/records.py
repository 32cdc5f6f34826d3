"""Solved positions packed into records: value and remoteness in one unsigned integer.

A record ``r`` of a rank is ``0`` where the rank is no position (an unused slot of the
ranking, or a symmetric image that is not canonical), and otherwise
``1 + 4 * remoteness + value`` with the value **for the player to move** (LOSE = 0, DRAW = 1,
TIE = 2, WIN = 3) and remoteness 0 for a DRAW. A tier is stored in the narrowest of uint8,
uint16 and uint32 that holds its largest remoteness: one byte per rank while every remoteness is
at most 62 (Connect Four, Quixo 4x4).

Examples
--------
>>> import numpy as np
>>> from perfectplay.values import DRAW, LOSE, WIN
>>> r = pack(np.array([WIN, LOSE, DRAW], dtype=np.uint8), np.array([3, 0, -1]), np.uint8)
>>> r.tolist()
[16, 1, 2]
>>> v, rem = unpack(r)
>>> v.tolist(), rem.tolist()
([3, 0, 1], [3, 0, -1])
>>> record_dtype(62), record_dtype(63)
(<class 'numpy.uint8'>, <class 'numpy.uint16'>)
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from perfectplay.errors import TooLargeError
from perfectplay.values import DRAW, NO_REMOTENESS, UNDECIDED

__all__ = ["NO_POSITION", "RECORD_DTYPES", "pack", "record_dtype", "unpack"]

NO_POSITION = 0
"""The record of a rank that stands for no position."""

RECORD_DTYPES: tuple[type[np.unsignedinteger], ...] = (np.uint8, np.uint16, np.uint32)
"""The record widths, narrowest first."""


def record_dtype(max_remoteness: int) -> type[np.unsignedinteger]:
    """The narrowest record dtype holding remoteness up to `max_remoteness`.

    Raises
    ------
    TooLargeError
        If no record width holds it (remoteness of 2^30 or more).
    """
    for dtype in RECORD_DTYPES:
        if 1 + 4 * max_remoteness + 3 <= np.iinfo(dtype).max:
            return dtype
    raise TooLargeError(f"remoteness {max_remoteness} does not fit in a 32-bit record")


def pack(
    value: NDArray[np.uint8], remoteness: ArrayLike, dtype: type[np.unsignedinteger]
) -> NDArray[np.unsignedinteger]:
    """Records of `value` (UNDECIDED: no position) and `remoteness`, in `dtype`.

    Cost: O(n), vectorized.
    """
    rem = np.where(value == DRAW, 0, np.maximum(np.asarray(remoteness), 0))
    out = (1 + value.astype(np.int64) + 4 * rem).astype(dtype)
    out[value == UNDECIDED] = NO_POSITION
    return out


def unpack(records: NDArray[np.unsignedinteger]) -> tuple[NDArray[np.uint8], NDArray[np.int32]]:
    """Value (UNDECIDED for no position) and remoteness (-1 for DRAW / no position).

    Cost: O(n), vectorized.
    """
    r = records.astype(np.int64) - 1
    value = (r & 3).astype(np.uint8)
    remoteness = (r >> 2).astype(np.int32)
    empty = records == NO_POSITION
    value[empty] = UNDECIDED
    remoteness[empty | (value == DRAW)] = NO_REMOTENESS
    return value, remoteness
