"""numba kernels of Gobblet Gobblers' tier form (see :mod:`perfectplay.games.gobblet.tiers`).

A board is seen from the player to move, the *mover*, and is three **layers**, one per size
(absent sizes: an empty layer): a layer's code is ``mine | theirs << 9``, two 9-bit masks
(bit ``d`` for cell ``d``, row by row from the top) of the mover's and the opponent's pieces of
that size. A layer holding ``i`` of the mover's and ``j`` of the opponent's pieces is in
*class* ``i * (pieces + 1) + j``; its **index** is its place among the codes of its class in
increasing order. Swapping the point of view swaps the two masks of every layer.

**Ranking** of the boards of one orientation of a tier (fixed classes per layer): the layer
whose class has the most codes is the *pivot* (ties: the larger size), then the other two by
decreasing size. A board is ranked by its image under the 8 symmetries of the square with the
smallest ``(pivot index, second index, third index)``; the pivot index is then the smallest of
its orbit, and the rank is ``orbit * P2 * P3 + second * P3 + third`` with ``orbit`` the
number of that orbit among the pivot class's orbits, ``P2``, ``P3`` the sizes of the other two
classes. A tier's ranks are about 1.1 times its classes in its largest tiers (108 orbits of
756 codes of a full layer), so its work arrays fit in memory; a rank whose board is not its
own smallest image (the pivot has symmetries of its own) is no slot.

Kernels run array-at-a-time without the GIL (``nogil``): the tier engine calls them from threads.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numba as nb
import numpy as np
from numpy.typing import NDArray

from perfectplay.games.gobblet.rules import LINES, SYMMETRIES
from perfectplay.values import LOSE, UNDECIDED, WIN

__all__ = [
    "GEO_COLUMNS",
    "Tables",
    "boards",
    "children",
    "orbit_sizes",
    "parents",
    "ranks",
    "slots",
    "tables",
]

FULL = (1 << 9) - 1
"""The nine cells as a mask."""

GEO_COLUMNS = 10
"""Columns of a geometry row: the class of each size's layer (3), the layers in ranking order
(pivot first, 3), the ranks of one orientation, the sizes of the second and third layers'
classes, the first rank of the orientation in its tier."""


class Tables(NamedTuple):
    """Lookup tables for one number of pieces per size, passed to every kernel as one tuple."""

    pieces: int
    """Pieces of each size per player."""
    offset: NDArray[np.int64]
    """Per class, where its codes start in `code`, `image` and `orbit`."""
    class_size: NDArray[np.int64]
    """Per class, its number of codes."""
    code: NDArray[np.int32]
    """The codes of every class, each class in increasing order."""
    code_index: NDArray[np.int32]
    """Per code (``2^18`` entries), its index in its class."""
    image: NDArray[np.int32]
    """``image[s, offset[c] + i]``: the index of the image of code ``i`` of class ``c`` under
    symmetry ``s``."""
    orbit: NDArray[np.int32]
    """Per code, the number of its orbit in its class if it is its orbit's smallest, else -1."""
    orbit_offset: NDArray[np.int64]
    """Per class, where its orbits start in `orbit_rep`."""
    orbit_rep: NDArray[np.int32]
    """Per orbit, the index of its smallest code."""
    orbits: NDArray[np.int64]
    """Per class, its number of orbits."""
    line: NDArray[np.bool_]
    """Per 9-bit mask of cells, whether it holds one of the 8 lines of three."""


def _image9(mask: int, perm: list[int]) -> int:
    return sum(1 << perm[d] for d in range(9) if mask >> d & 1)


@cache
def tables(pieces: int) -> Tables:
    """The kernels' tables for `pieces` pieces of each size (built once; ~0.3 s)."""
    k = pieces + 1
    masks = np.arange(512)
    ones = np.array([bin(m).count("1") for m in range(512)])
    perm9 = np.array([[_image9(m, p) for m in range(512)] for p in SYMMETRIES], dtype=np.int64)
    codes: list[NDArray[np.int64]] = []
    orbit_rep: list[NDArray[np.int64]] = []
    offset: list[int] = []
    count: list[int] = []
    orbit_offset: list[int] = []
    index = np.full(1 << 18, -1, dtype=np.int32)
    for c in range(k * k):
        i, j = divmod(c, k)
        mine, theirs = np.meshgrid(masks[ones == i], masks[ones == j], indexing="ij")
        both = (mine & theirs) == 0
        layer = np.sort((mine[both] | theirs[both] << 9).ravel())
        offset.append(sum(len(x) for x in codes))
        count.append(len(layer))
        index[layer] = np.arange(len(layer))
        codes.append(layer)
    code = np.concatenate(codes).astype(np.int64)
    image = np.empty((8, len(code)), dtype=np.int32)
    for s in range(8):
        image[s] = index[perm9[s][code & FULL] | perm9[s][code >> 9] << 9]
    local = np.concatenate([np.arange(n) for n in count])
    smallest = image.min(axis=0) == local
    orbit = np.full(len(code), -1, dtype=np.int32)
    for c in range(k * k):
        lo, hi = offset[c], offset[c] + count[c]
        reps = np.flatnonzero(smallest[lo:hi])
        orbit[lo + reps] = np.arange(len(reps))
        orbit_offset.append(sum(len(x) for x in orbit_rep))
        orbit_rep.append(reps)
    line = np.zeros(512, dtype=np.bool_)
    for cells in LINES:
        mask = sum(1 << d for d in cells)
        line[(masks & mask) == mask] = True
    return Tables(
        pieces,
        np.array(offset, dtype=np.int64),
        np.array(count, dtype=np.int64),
        code.astype(np.int32),
        index,
        image,
        orbit,
        np.array(orbit_offset, dtype=np.int64),
        np.concatenate(orbit_rep).astype(np.int32),
        np.array([len(reps) for reps in orbit_rep], dtype=np.int64),
        line,
    )


# ---------------------------------------------------------------------------- helpers
# Layers travel as three scalars (by size) and geometry rows are read in place,
# ``geo[row, j]``: a row view made per rank cost five times the ranking itself (measured).
@nb.njit(cache=True, nogil=True, inline="always")
def _pick(l0: int, l1: int, l2: int, s: int) -> int:
    """The layer of size `s`."""
    return l0 if s == 0 else (l1 if s == 1 else l2)


@nb.njit(cache=True, nogil=True, inline="always")
def _primitive(l0: int, l1: int, l2: int, t: Tables) -> int:
    """WIN if the mover has a visible line, else LOSE if the opponent has one, else UNDECIDED."""
    mine, theirs, above = 0, 0, 0
    for s in range(2, -1, -1):
        layer = _pick(l0, l1, l2, s)
        mine |= layer & FULL & ~above
        theirs |= (layer >> 9) & ~above
        above |= (layer | (layer >> 9)) & FULL
    if t.line[mine]:
        return WIN
    if t.line[theirs]:
        return LOSE
    return UNDECIDED


@nb.njit(cache=True, nogil=True, inline="always")
def _flip(code: int) -> int:
    """The layer seen by the other player."""
    return (code >> 9) | ((code & FULL) << 9)


@nb.njit(cache=True, nogil=True, inline="always")
def _unrank(rank: int, geo: NDArray[np.int64], row: int, t: Tables) -> tuple[int, int, int]:
    """The layers (by size) of rank `rank` of the orientation of geometry ``geo[row]`` (rows
    are read in place: a view per call costs more than the whole ranking)."""
    r = rank - geo[row, 9]
    per = geo[row, 7] * geo[row, 8]
    o = r // per
    r -= o * per
    second = r // geo[row, 8]
    third = r - second * geo[row, 8]
    c0, c1, c2 = geo[row, geo[row, 3]], geo[row, geo[row, 4]], geo[row, geo[row, 5]]
    a = int(t.code[t.offset[c0] + t.orbit_rep[t.orbit_offset[c0] + o]])
    b = int(t.code[t.offset[c1] + second])
    c = int(t.code[t.offset[c2] + third])
    p0, p1 = geo[row, 3], geo[row, 4]
    l0 = a if p0 == 0 else (b if p1 == 0 else c)
    l1 = a if p0 == 1 else (b if p1 == 1 else c)
    l2 = a if p0 == 2 else (b if p1 == 2 else c)
    return l0, l1, l2


@nb.njit(cache=True, nogil=True, inline="always")
def _rank(l0: int, l1: int, l2: int, geo: NDArray[np.int64], row: int, t: Tables) -> int:
    """The rank of the smallest symmetric image of the board in the orientation ``geo[row]``."""
    o0, o1, o2 = (
        t.offset[geo[row, geo[row, 3]]],
        t.offset[geo[row, geo[row, 4]]],
        t.offset[geo[row, geo[row, 5]]],
    )
    i0 = np.int64(t.code_index[_pick(l0, l1, l2, geo[row, 3])])
    i1 = np.int64(t.code_index[_pick(l0, l1, l2, geo[row, 4])])
    i2 = np.int64(t.code_index[_pick(l0, l1, l2, geo[row, 5])])
    best0, best1, best2 = i0, i1, i2
    for s in range(1, 8):
        k0 = np.int64(t.image[s, o0 + i0])
        if k0 > best0:
            continue
        k1 = np.int64(t.image[s, o1 + i1])
        k2 = np.int64(t.image[s, o2 + i2])
        if k0 < best0 or k1 < best1 or (k1 == best1 and k2 < best2):
            best0, best1, best2 = k0, k1, k2
    return geo[row, 9] + (t.orbit[o0 + best0] * geo[row, 7] + best1) * geo[row, 8] + best2


@nb.njit(cache=True, nogil=True, inline="always")
def _orientation(rank: int, geo: NDArray[np.int64], rows: int) -> int:
    return 1 if rows == 2 and rank >= geo[1, 9] else 0


# ---------------------------------------------------------------------------- kernels
@nb.njit(cache=True, nogil=True)
def ranks(
    codes: NDArray[np.int64], geo: NDArray[np.int64], row: NDArray[np.int64], t: Tables
) -> NDArray[np.int64]:
    """Canonical ranks of boards (rows of three layer codes, by size) of the orientations
    ``geo[row]``. ~20 ns per board."""
    out = np.empty(codes.shape[0], dtype=np.int64)
    for i in range(codes.shape[0]):
        out[i] = _rank(codes[i, 0], codes[i, 1], codes[i, 2], geo, row[i], t)
    return out


@nb.njit(cache=True, nogil=True)
def boards(
    rank: NDArray[np.int64], geo: NDArray[np.int64], rows: int, t: Tables
) -> NDArray[np.int64]:
    """The layer codes (by size) of ranks of the tier whose `rows` orientations are `geo`."""
    out = np.empty((rank.shape[0], 3), dtype=np.int64)
    for i in range(rank.shape[0]):
        l0, l1, l2 = _unrank(rank[i], geo, _orientation(rank[i], geo, rows), t)
        out[i, 0], out[i, 1], out[i, 2] = l0, l1, l2
    return out


@nb.njit(cache=True, nogil=True)
def children(
    rank: NDArray[np.int64],
    geo: NDArray[np.int64],
    rows: int,
    reserve: NDArray[np.int64],
    place: NDArray[np.int64],
    t: Tables,
) -> tuple[NDArray[np.uint8], NDArray[np.int64], NDArray[np.int8], NDArray[np.int64]]:
    """Primitive values and canonical children of ranks of a tier.

    `geo` holds the tier's `rows` orientations (rows ``0..rows-1``) and then its child tiers'
    (GEO_COLUMNS each); ``reserve[k, s]``: the mover's pieces of size ``s`` left in
    orientation ``k``; ``place[k, s]``: the geometry row of the child of placing one of them,
    and ``place[k, 3 + s]`` its ``which``. A placement goes to a child tier, a move of a
    visible piece stays in the tier (the other orientation); both are seen from the opponent.
    """
    count = rank.shape[0]
    most = 27 + 8 * 9
    primitive = np.empty(count, dtype=np.uint8)
    indptr = np.empty(count + 1, dtype=np.int64)
    which = np.empty(count * most, dtype=np.int8)
    child = np.empty(count * most, dtype=np.int64)
    m = 0
    indptr[0] = 0
    for i in range(count):
        k = _orientation(rank[i], geo, rows)
        l0, l1, l2 = _unrank(rank[i], geo, k, t)
        value = _primitive(l0, l1, l2, t)
        primitive[i] = value
        if value == UNDECIDED:
            inner = (1 - k) if rows == 2 else 0
            f0, f1, f2 = _flip(l0), _flip(l1), _flip(l2)
            above = 0
            for s in range(2, -1, -1):
                layer = _pick(l0, l1, l2, s)
                occupied = (layer | (layer >> 9)) & FULL
                free = FULL & ~(occupied | above)
                if reserve[k, s] > 0:
                    g = place[k, s]
                    w = place[k, 3 + s]
                    targets = free
                    while targets:
                        dest = targets & -targets
                        targets ^= dest
                        v = _flip(layer | dest)
                        which[m] = w
                        child[m] = _rank(
                            v if s == 0 else f0, v if s == 1 else f1, v if s == 2 else f2, geo, g, t
                        )
                        m += 1
                sources = layer & FULL & ~above
                while sources:
                    src = sources & -sources
                    sources ^= src
                    targets = free
                    while targets:
                        dest = targets & -targets
                        targets ^= dest
                        v = _flip(layer ^ src ^ dest)
                        which[m] = 0
                        child[m] = _rank(
                            v if s == 0 else f0,
                            v if s == 1 else f1,
                            v if s == 2 else f2,
                            geo,
                            inner,
                            t,
                        )
                        m += 1
                above |= occupied
        indptr[i + 1] = m
    return primitive, indptr, which[:m], child[:m]


@nb.njit(cache=True, nogil=True)
def parents(
    rank: NDArray[np.int64], geo: NDArray[np.int64], rows: int, t: Tables
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Canonical ranks of the tier's positions with a move inside the tier to each rank.

    The opponent made the move undone: one of their visible pieces goes back from its cell to
    a cell with no piece of its size or larger. The parent, seen from the opponent, is in the
    other orientation; parents that are over (a visible line) are left out.
    """
    count = rank.shape[0]
    indptr = np.empty(count + 1, dtype=np.int64)
    out = np.empty(count * 8 * 9, dtype=np.int64)
    m = 0
    indptr[0] = 0
    for i in range(count):
        k = _orientation(rank[i], geo, rows)
        l0, l1, l2 = _unrank(rank[i], geo, k, t)
        inner = (1 - k) if rows == 2 else 0
        f0, f1, f2 = _flip(l0), _flip(l1), _flip(l2)
        above = 0
        for s in range(2, -1, -1):
            layer = _pick(l0, l1, l2, s)
            occupied = (layer | (layer >> 9)) & FULL
            free = FULL & ~(occupied | above)
            dests = (layer >> 9) & ~above
            while dests:
                dest = dests & -dests
                dests ^= dest
                sources = free
                while sources:
                    src = sources & -sources
                    sources ^= src
                    v = _flip(layer ^ (dest << 9) ^ (src << 9))
                    b0, b1, b2 = v if s == 0 else f0, v if s == 1 else f1, v if s == 2 else f2
                    if _primitive(b0, b1, b2, t) == UNDECIDED:
                        out[m] = _rank(b0, b1, b2, geo, inner, t)
                        m += 1
            above |= occupied
        indptr[i + 1] = m
    return indptr, out[:m]


@nb.njit(cache=True, nogil=True)
def slots(start: int, stop: int, geo: NDArray[np.int64], rows: int, t: Tables) -> NDArray[np.bool_]:
    """Which ranks ``start..stop-1`` hold their board's smallest symmetric image."""
    out = np.zeros(max(stop - start, 0), dtype=np.bool_)
    for i in range(out.shape[0]):
        r = start + i
        g = _orientation(r, geo, rows)
        l0, l1, l2 = _unrank(r, geo, g, t)
        out[i] = _rank(l0, l1, l2, geo, g, t) == r
    return out


@nb.njit(cache=True, nogil=True)
def orbit_sizes(
    rank: NDArray[np.int64], geo: NDArray[np.int64], rows: int, t: Tables
) -> NDArray[np.int64]:
    """How many distinct boards the 8 symmetries make of each rank's board, twice that: each
    board seen from the mover stands for two positions (X to move, or O with colours swapped)."""
    out = np.empty(rank.shape[0], dtype=np.int64)
    images = np.empty(8, dtype=np.int64)
    for i in range(rank.shape[0]):
        g = _orientation(rank[i], geo, rows)
        l0, l1, l2 = _unrank(rank[i], geo, g, t)
        i0 = t.offset[geo[g, 0]] + t.code_index[l0]
        i1 = t.offset[geo[g, 1]] + t.code_index[l1]
        i2 = t.offset[geo[g, 2]] + t.code_index[l2]
        distinct = 0
        for s in range(8):
            key = (t.image[s, i0] * 2048 + t.image[s, i1]) * 2048 + t.image[s, i2]
            images[s] = key
            new = True
            for b in range(s):
                if images[b] == key:
                    new = False
                    break
            distinct += new
        out[i] = 2 * distinct
    return out
