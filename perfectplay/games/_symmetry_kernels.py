"""The symmetries of a board of two kinds of pieces, for numba kernels: images, canonical
forms and orbit sizes, written once for the tiered board games (Teeko, Morris).

A board is two disjoint bitboards ``(x, y)`` (bit ``d`` for cell ``d``); a symmetry is a cell
permutation. :func:`image_table` turns permutations into a table read byte by byte
(``table[s, i, v]``: the image under symmetry ``s`` of byte value ``v`` at byte ``i``), so an
image costs one look-up per byte of the board. The canonical form of a board is its image with
the smallest ``(x, y)``: with the ranking of :func:`perfectplay._ranking_kernels.two_sets_rank`,
whose order is that numeric order, also its image of smallest rank.

Examples
--------
>>> table = image_table([[0, 1, 2], [2, 1, 0]], 3)  # a row of 3 cells and its mirror
>>> int(image(0b001, 1, table)), canonical_pair(0b100, 0b010, table)
(4, (1, 2))
>>> is_canonical_pair(0b100, 0b010, table), orbit_size(0b101, 0b010, table, 3)
(False, 1)
"""

from __future__ import annotations

from collections.abc import Sequence

import numba as nb
import numpy as np
from numpy.typing import NDArray

__all__ = ["canonical_pair", "image", "image_table", "is_canonical_pair", "orbit_size"]


def image_table(perms: Sequence[Sequence[int]], cells: int) -> NDArray[np.int64]:
    """``table[s, i, v]``: the bitboard permutation ``perms[s]`` makes of byte value ``v`` at
    byte ``i`` of a board of `cells` cells (``perms[s][d]``: the image of cell ``d``; the
    identity first). Cost: O(len(perms) * cells * 256) once."""
    nbytes = (cells + 7) // 8
    table = np.zeros((len(perms), nbytes, 256), dtype=np.int64)
    values = np.arange(256)
    for s, perm in enumerate(perms):
        for d in range(cells):
            i, b = divmod(d, 8)
            table[s, i, (values >> b & 1) == 1] |= np.int64(1) << perm[d]
    return table


@nb.njit(cache=True, nogil=True, inline="always")
def image(p, s, table):  # type: ignore[no-untyped-def]
    """The bitboard symmetry `s` of `table` makes of `p`."""
    out = 0
    i = 0
    while p:
        out |= table[s, i, p & 255]
        p >>= 8
        i += 1
    return out


@nb.njit(cache=True, nogil=True, inline="always")
def canonical_pair(x, y, table):  # type: ignore[no-untyped-def]
    """The image of board ``(x, y)`` with the smallest ``(x, y)`` under `table`'s symmetries."""
    bx, by = x, y
    for s in range(1, table.shape[0]):
        ix = image(x, s, table)
        if ix > bx:
            continue
        iy = image(y, s, table)
        if ix < bx or iy < by:
            bx, by = ix, iy
    return bx, by


@nb.njit(cache=True, nogil=True, inline="always")
def is_canonical_pair(x, y, table):  # type: ignore[no-untyped-def]
    """Whether board ``(x, y)`` is its own canonical form."""
    for s in range(1, table.shape[0]):
        ix = image(x, s, table)
        if ix < x or (ix == x and image(y, s, table) < y):
            return False
    return True


@nb.njit(cache=True, nogil=True)
def orbit_size(x, y, table, cells):  # type: ignore[no-untyped-def]
    """How many distinct boards `table`'s symmetries make of board ``(x, y)`` of `cells` cells
    (``2 * cells <= 63``). Cost: O(symmetries^2)."""
    count = table.shape[0]
    images = np.empty(count, dtype=np.int64)
    distinct = 0
    for s in range(count):
        images[s] = (image(x, s, table) << cells) | image(y, s, table)
        new = True
        for c in range(s):
            if images[c] == images[s]:
                new = False
                break
        distinct += new
    return distinct
