"""The symmetries of a board of two kinds of pieces, for numba kernels: images, canonical
forms and orbit sizes, written once for the tiered board games (Teeko, Morris).

A board is two disjoint bitboards ``(x, y)`` (bit ``d`` for cell ``d``); a symmetry is a cell
permutation. :func:`image_table` turns permutations into a table read byte by byte
(``table[s, i, v]``: the image under symmetry ``s`` of byte value ``v`` at byte ``i``), so an
image costs one look-up per byte of the board. The canonical form of a board is its image with
the smallest ``(x, y)``: with the ranking of :func:`perfectplay._ranking_kernels.two_sets_rank`,
whose order is that numeric order, also its image of smallest rank.

**Ranking by classes** (:func:`set_classes`, :func:`two_classes_rank`): the canonical form's
first set ``x`` is the smallest image of ``x`` alone, a *representative* of its class of sets.
Ranking ``x`` by its index among the representatives of its size (instead of among every set)
divides the ranks by up to the number of symmetries; ``y`` keeps its colex rank among the
cells ``x`` leaves free. Every canonical board has a rank, every rank is a board whose ``x``
is a representative, and the rank order is still the numeric order of ``(x, y)``; where ``x``
has symmetries of its own, some ranks are boards that are not canonical (their images under
the symmetries fixing ``x`` are). This is how Gévay and Danner's Malom indexes Nine Men's
Morris (the mover's stones up to symmetry, the opponent's among the free points).

**The class of every set at once** (:func:`class_table`, Malom's table too): one entry per set
of cells, its class's index among those of its size, one symmetry taking it to its
representative, and whether the representative is symmetric itself. A canonical form is then
one look-up and one image instead of an image per symmetry and a binary search
(:func:`canonical_syms` gives the symmetries to try: the one, or those of a symmetric class).

Examples
--------
>>> table = image_table([[0, 1, 2], [2, 1, 0]], 3)  # a row of 3 cells and its mirror
>>> int(image(0b001, 1, table)), canonical_pair(0b100, 0b010, table)
(4, (1, 2))
>>> is_canonical_pair(0b100, 0b010, table), orbit_size(0b101, 0b010, table, 3)
(False, 1)
>>> reps, starts = set_classes(table, 3)  # the classes of sets of 0, 1, 2 and 3 cells
>>> [bin(r) for r in reps.tolist()], starts.tolist()
(['0b0', '0b1', '0b10', '0b11', '0b101', '0b111'], [0, 1, 3, 5, 6])
>>> from perfectplay._ranking import binomials
>>> binom = binomials(3, 3)
>>> rank = two_classes_rank(0b101, 0b010, 2, 1, 3, binom, reps, starts)
>>> rank, two_classes_unrank(rank, 2, 1, 3, binom, reps, starts)
(1, (5, 2))
>>> classes = class_table(table, 3, reps, starts)
>>> [(int(e) >> CLASS_SHIFT, int(e) & SYMMETRY, bool(e & SYMMETRIC)) for e in classes[[4, 5]]]
[(0, 1, False), (1, 1, True)]
"""

from __future__ import annotations

from collections.abc import Sequence

import numba as nb
import numpy as np
from numpy.typing import NDArray

from perfectplay._bits import popcount
from perfectplay._ranking_kernels import (
    colex_rank_bits,
    colex_unrank_bits,
    gather_bits,
    scatter_bits,
)

__all__ = [
    "CLASS_SHIFT",
    "SYMMETRIC",
    "SYMMETRY",
    "canonical_pair",
    "canonical_syms",
    "class_table",
    "image",
    "image_table",
    "is_canonical_pair",
    "orbit_size",
    "set_classes",
    "two_classes_rank",
    "two_classes_unrank",
]

SYMMETRY = 15
"""An entry of :func:`class_table` masked by this: a symmetry taking the set to its
representative (at most 16 symmetries)."""
SYMMETRIC = 16
"""The entry's bit set where the set's representative is its own image under a symmetry
other than the identity (several symmetries then take the set to it)."""
CLASS_SHIFT = 5
"""An entry shifted right by this: the class's index among the classes of its size."""


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


@nb.njit(cache=True, nogil=True, inline="always")
def _is_representative(x, table):  # type: ignore[no-untyped-def]
    """Whether set `x` is the smallest of its images."""
    s = 1
    while s < table.shape[0] and image(x, s, table) >= x:
        s += 1
    return s == table.shape[0]


@nb.njit(cache=True, nogil=True)
def set_classes(table, cells):  # type: ignore[no-untyped-def]
    """``(reps, starts)``: every set of the `cells` cells that is the smallest of its images
    under `table`'s symmetries, by size then increasing (``reps[starts[k]:starts[k + 1]]``:
    the representatives of the classes of sets of ``k`` cells). Cost: O(2^cells) image look-ups
    (0.3 s for 24 cells); ``reps`` holds about ``2^cells / symmetries`` int64."""
    counts = np.zeros(cells + 2, dtype=np.int64)
    for x in range(1 << cells):
        if _is_representative(x, table):
            counts[popcount(x) + 1] += 1
    starts = np.cumsum(counts)
    reps = np.empty(starts[-1], dtype=np.int64)
    fill = starts[:-1].copy()
    for x in range(1 << cells):
        if _is_representative(x, table):
            k = popcount(x)
            reps[fill[k]] = x
            fill[k] += 1
    return reps, starts


@nb.njit(cache=True, nogil=True, inline="always")
def _class_index(x, k, reps, starts):  # type: ignore[no-untyped-def]
    """The index of representative `x` among those of ``k`` cells (binary search)."""
    lo, hi = starts[k], starts[k + 1]
    while lo < hi:
        mid = (lo + hi) >> 1
        if reps[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo - starts[k]


@nb.njit(cache=True, nogil=True, inline="always")
def two_classes_rank(x, y, nx, ny, top, binom, reps, starts):  # type: ignore[no-untyped-def]
    """The rank of the board ``(x, y)`` of `nx` and `ny` cells of ``0..top-1``, `x` a
    representative (:func:`set_classes`): ``index of x * C(top - nx, ny) + colex(y among the
    free cells)``. Cost: O(log classes + set bits)."""
    return _class_index(x, nx, reps, starts) * binom[top - nx, ny] + colex_rank_bits(
        gather_bits(y, x), binom
    )


@nb.njit(cache=True, nogil=True, inline="always")
def two_classes_unrank(rank, nx, ny, top, binom, reps, starts):  # type: ignore[no-untyped-def]
    """The board ``(x, y)`` of :func:`two_classes_rank` `rank`. Cost: O(top)."""
    per_x = binom[top - nx, ny]
    index = rank // per_x
    x = reps[starts[nx] + index]
    free = colex_unrank_bits(rank - index * per_x, ny, top - nx, binom)
    return x, scatter_bits(free, x, top)


def class_table(
    table: NDArray[np.int64], cells: int, reps: NDArray[np.int64], starts: NDArray[np.int64]
) -> NDArray[np.uint32]:
    """``classes[x]`` for every set ``x`` of the `cells` cells: ``index << CLASS_SHIFT |
    symmetric | s``, ``index`` that of its class among those of its size in ``reps``
    (:func:`set_classes` of the same `table`), ``s`` a symmetry taking ``x`` to its
    representative, :data:`SYMMETRIC` set where the representative is symmetric.

    Cost: ``2^cells`` entries of 4 bytes (64 MiB for 24 cells) and an image per set and
    symmetry (about 0.3 s for 24 cells).

    Raises
    ------
    ValueError
        If `table` has more than 16 symmetries or `cells` is above 26.
    """
    if table.shape[0] > SYMMETRY + 1 or cells > 26:
        raise ValueError(
            f"class_table takes at most 16 symmetries and 26 cells, got {table.shape[0]} "
            f"and {cells}"
        )
    return _class_table(table, cells, reps, starts)


@nb.njit(cache=True, nogil=True)
def _class_table(table, cells, reps, starts):  # type: ignore[no-untyped-def]
    """The kernel of :func:`class_table`: each representative's images, each written with
    the symmetry undoing the one that made it."""
    count = table.shape[0]
    inverse = np.empty(count, dtype=np.int64)
    for s in range(count):
        for u in range(count):
            d = 0
            while d < cells and image(image(1 << d, s, table), u, table) == 1 << d:
                d += 1
            if d == cells:
                inverse[s] = u
    out = np.empty(1 << cells, dtype=np.uint32)
    for k in range(cells + 1):
        for j in range(starts[k], starts[k + 1]):
            r = reps[j]
            fixed = 0
            for s in range(count):
                fixed += image(r, s, table) == r
            flag = SYMMETRIC if fixed > 1 else 0
            for s in range(count):
                out[image(r, s, table)] = ((j - starts[k]) << CLASS_SHIFT) | flag | inverse[s]
    return out


@nb.njit(cache=True, nogil=True, inline="always")
def canonical_syms(x, entry, table, out):  # type: ignore[no-untyped-def]
    """Write into `out` the symmetries taking set `x` to its representative, `entry` its
    :func:`class_table` entry; return how many (1 unless the class is symmetric). The
    canonical form of a board ``(x, y)`` is ``(representative, the smallest image of y under
    them)``. Cost: one image, or one per symmetry for a symmetric class."""
    s = entry & SYMMETRY
    out[0] = s
    if not entry & SYMMETRIC:
        return 1
    rep = image(x, s, table)
    n = 0
    for u in range(table.shape[0]):
        if image(x, u, table) == rep:
            out[n] = u
            n += 1
    return n
