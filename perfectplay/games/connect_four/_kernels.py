"""numba kernels of Connect Four's vectorized path (see :mod:`.rules`).

Codes are ``(mask << shift) | current`` bitboards with ``height = rows + 1`` bits per column
(a guard row on top; :mod:`._bitboard`, whose :func:`~._bitboard.four` finds a line of four).
The kernels read each code once and write one entry per result; the mirror image of every
child comes from the parent's mirror image (computed once per parent), since dropping a stone
in column ``c`` mirrors to dropping it in column ``cols - 1 - c``.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numpy.typing import NDArray

from perfectplay._bits import highest_bit, lowest_bit
from perfectplay.games.connect_four._bitboard import four
from perfectplay.values import LOSE, TIE, UNDECIDED

__all__ = ["batch_moves", "batch_outcome"]


@nb.njit(cache=True, inline="always")
def _mirror(code: np.int64, shift: int, height: int, cols: int) -> np.int64:
    """The code of the left-right mirror image (both boards): columns ``c`` and
    ``cols - 1 - c`` swap places, a middle column stays."""
    column = (np.int64(1) << height) - 1
    both = column | (column << shift)
    middle = both << ((cols // 2) * height)
    out = code & middle if cols % 2 else np.int64(0)
    for c in range(cols // 2):
        distance = (cols - 1 - 2 * c) * height
        left = both << (c * height)
        out |= ((code & left) << distance) | ((code >> distance) & left)
    return out


@nb.njit(cache=True)
def batch_outcome(
    codes: NDArray[np.int64], shift: int, height: int, board: int, out: NDArray[np.uint8]
) -> None:
    """``out[i]``: LOSE where the player who just moved has four, TIE on a full board, else
    UNDECIDED. One pass."""
    low = (np.int64(1) << shift) - 1
    for i in range(codes.shape[0]):
        mask = codes[i] >> shift
        if four(mask ^ (codes[i] & low), height):
            out[i] = LOSE
        elif mask == board:
            out[i] = TIE
        else:
            out[i] = UNDECIDED


@nb.njit(cache=True)
def batch_moves(
    codes: NDArray[np.int64],
    shift: int,
    height: int,
    bottom: int,
    cols: int,
    board: int,
    parent: NDArray[np.int64],
    child: NDArray[np.int64],
) -> int:
    """Fill ``parent[:k]``, ``child[:k]`` with every move (by parent, columns left to right),
    each child the smaller of its code and its mirror's; return ``k``. The arrays need room for
    ``cols`` moves per code. One pass.

    ``(mask + bottom) & ~mask & board`` is the cell each stone would land on, one per open
    column (a full column carries into its guard bit, outside `board`): the loop walks those
    cells from the left and the mirror image's from the right, with no test per column.
    """
    low = (np.int64(1) << shift) - 1
    k = 0
    for i in range(codes.shape[0]):
        mask = codes[i] >> shift
        last = mask ^ (codes[i] & low)  # the stones of the player who just moved
        if mask == board or four(last, height):
            continue
        mirrored = _mirror(codes[i], shift, height, cols)
        mirror_mask = mirrored >> shift
        mirror_after = (mirror_mask ^ (mirrored & low)) | (mirror_mask << shift)
        after = last | (mask << shift)  # the opponent moves next; the new stone goes in below
        landing = (mask + bottom) & ~mask & board
        mirror_landing = (mirror_mask + bottom) & ~mirror_mask & board
        for _ in range(cols):  # one landing cell per column, even in a malformed code
            if landing == 0:
                break
            stone = lowest_bit(landing)  # leftmost open column
            landing ^= stone
            mirror_stone = highest_bit(mirror_landing)  # rightmost
            mirror_landing ^= mirror_stone
            parent[k] = i
            child[k] = min(after | (stone << shift), mirror_after | (mirror_stone << shift))
            k += 1
    return k
