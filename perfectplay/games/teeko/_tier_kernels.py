"""numba kernels of Teeko's tier form (see :mod:`perfectplay.games.teeko.tiers`).

A board is two bitboards, bit ``d`` for cell ``d = row * n + col`` (row 0 on top): ``x`` (the X
pieces) and ``o`` (the O pieces). A player holds at most ``k`` pieces, so every loop over a
bitboard's pieces runs at most ``k`` times: a colex rank is ``k`` binomials, a pattern test one
look-up of the colex rank; a symmetric image is one look-up per byte of the board
(:mod:`perfectplay.games._symmetry_kernels`, 4 on 5x5).

**Ranking** of a tier with ``nx`` X and ``no`` O pieces: the colex rank of ``x`` among the
``C(N, nx)`` patterns of ``nx`` cells (:mod:`perfectplay._ranking`), then the colex rank of ``o``
counted among the ``N - nx`` cells ``x`` leaves free: ``rank = rank_x * C(N - nx, no) + rank_o``.
For one ``x``, ``rank_o`` grows with ``o``, and ``rank_x`` with ``x``: the rank order is the
numeric order of ``(x, o)``, so the canonical form of a board, the image with the smallest
``(x, o)``, is also its image of smallest rank.

The moving tier holds the boards with X to move only: a board with O to move is the same
position as the board with the colours swapped and X to move (the rules treat both players
alike once every piece is down), so a move's child is ranked with its colours swapped.

Kernels run array-at-a-time without the GIL (``nogil``): the tier engine calls them from threads.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numba as nb
import numpy as np
from numpy.typing import NDArray

from perfectplay._bits import popcount
from perfectplay._ranking import binomials, colex_rank
from perfectplay._ranking_kernels import (
    colex_rank_bits,
    gather_bits,
    next_set,
    scatter_bits,
    two_sets_rank,
    two_sets_unrank,
)
from perfectplay.games._square_board import square_symmetries as board_symmetries
from perfectplay.games._symmetry_kernels import (
    canonical_pair,
    image_table,
    is_canonical_pair,
    orbit_size,
)
from perfectplay.games.teeko.rules import patterns
from perfectplay.values import LOSE, UNDECIDED

__all__ = [
    "Tables",
    "boards",
    "children",
    "orbit_sizes",
    "parents",
    "ranks",
    "slots",
    "tables",
]


class Tables(NamedTuple):
    """Lookup tables of one board size and piece count, passed to every kernel as one tuple."""

    n: int
    """Board side."""
    cells: int
    """``n * n``."""
    k: int
    """Pieces per player."""
    binom: NDArray[np.int64]
    """``binom[i, j] = C(i, j)`` for ``0 <= i, j <= cells``."""
    image: NDArray[np.int64]
    """The symmetries canonical forms use as an image table
    (:func:`perfectplay.games._symmetry_kernels.image_table`): the 8 of the square, or the
    identity alone (every board its own class; to measure what the symmetries save)."""
    neighbours: NDArray[np.int64]
    """Per cell, its up to 8 neighbours as a bitboard."""
    win: NDArray[np.bool_]
    """Per colex rank of a set of ``k`` cells: whether those cells form a winning pattern."""


@cache
def tables(n: int, k: int, symmetries: int = 8) -> Tables:
    """The kernels' tables for the n x n board with ``k`` pieces each (built once; ~1 ms)."""
    cells = n * n
    binom = binomials(cells, cells)
    neighbours = []
    for d in range(cells):
        r, c = divmod(d, n)
        mask = 0
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if (dr or dc) and 0 <= r + dr < n and 0 <= c + dc < n:
                    mask |= 1 << ((r + dr) * n + c + dc)
        neighbours.append(mask)
    win = np.zeros(int(binom[cells, k]), dtype=np.bool_)
    win[colex_rank(patterns(n, k), binom)] = True
    image = image_table(board_symmetries(n)[:symmetries], cells)
    return Tables(n, cells, k, binom, image, np.array(neighbours, dtype=np.int64), win)


# ---------------------------------------------------------------------------- bit helpers
@nb.njit(cache=True, nogil=True, inline="always")
def _cell(low: int) -> int:
    """The cell of a bitboard's lowest set bit `low` (a power of two)."""
    return popcount(low - 1)


@nb.njit(cache=True, nogil=True, inline="always")
def _won(p: int, t: Tables) -> bool:
    """Whether the pieces `p` of one player form a winning pattern (they need all ``k``)."""
    return popcount(p) == t.k and t.win[colex_rank_bits(p, t.binom)]


# ---------------------------------------------------------------------------- kernels
@nb.njit(cache=True, nogil=True)
def ranks(
    xs: NDArray[np.int64], os: NDArray[np.int64], nx: int, no: int, t: Tables, canonical: bool
) -> NDArray[np.int64]:
    """Ranks among the boards of ``nx`` X and ``no`` O pieces of boards ``(xs, os)``, of their
    canonical forms if `canonical`. ~40 ns per board."""
    out = np.empty(xs.shape[0], dtype=np.int64)
    for i in range(xs.shape[0]):
        x, o = xs[i], os[i]
        if canonical:
            x, o = canonical_pair(x, o, t.image)
        out[i] = two_sets_rank(x, o, nx, no, t.cells, t.binom)
    return out


@nb.njit(cache=True, nogil=True)
def boards(
    rank: NDArray[np.int64], nx: int, no: int, t: Tables
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Boards ``(x, o)`` of ranks among the boards of ``nx`` X and ``no`` O pieces."""
    xs = np.empty(rank.shape[0], dtype=np.int64)
    os = np.empty(rank.shape[0], dtype=np.int64)
    for i in range(rank.shape[0]):
        xs[i], os[i] = two_sets_unrank(rank[i], nx, no, t.cells, t.binom)
    return xs, os


@nb.njit(cache=True, nogil=True)
def children(
    rank: NDArray[np.int64], nx: int, no: int, t: Tables
) -> tuple[NDArray[np.uint8], NDArray[np.int64], NDArray[np.int8], NDArray[np.int64]]:
    """Primitive values and canonical children of ranks of the tier of ``nx`` X, ``no`` O.

    Drop phase (``nx + no < 2k``; X to move when ``nx == no``): every empty cell, a child in
    the next tier (``which`` 1); the last drop's child is in the moving tier, X to move.
    Moving phase (X to move, ``which`` 0): every X piece to every empty neighbour, the child
    ranked with its colours swapped. A board where a player has a pattern is a LOSE for the
    player to move, without moves.
    """
    count = rank.shape[0]
    moving = nx + no == 2 * t.k
    most = 8 * t.k if moving else t.cells
    primitive = np.empty(count, dtype=np.uint8)
    indptr = np.empty(count + 1, dtype=np.int64)
    which = np.empty(count * most, dtype=np.int8)
    child = np.empty(count * most, dtype=np.int64)
    full = (1 << t.cells) - 1
    m = 0
    indptr[0] = 0
    for i in range(count):
        x, o = two_sets_unrank(rank[i], nx, no, t.cells, t.binom)
        over = _won(x, t) or _won(o, t)
        primitive[i] = LOSE if over else UNDECIDED
        if not over:
            empty = full & ~(x | o)
            if moving:
                pieces = x
                while pieces:
                    src = pieces & -pieces
                    pieces ^= src
                    targets = t.neighbours[_cell(src)] & empty
                    while targets:
                        dest = targets & -targets
                        targets ^= dest
                        bx, bo = canonical_pair(o, x ^ src ^ dest, t.image)
                        which[m] = 0
                        child[m] = two_sets_rank(bx, bo, nx, no, t.cells, t.binom)
                        m += 1
            else:
                x_moves = nx == no
                cx, co = nx + x_moves, no + (not x_moves)
                while empty:
                    cell = empty & -empty
                    empty ^= cell
                    if x_moves:
                        bx, bo = canonical_pair(x | cell, o, t.image)
                    else:
                        bx, bo = canonical_pair(x, o | cell, t.image)
                    which[m] = 1
                    child[m] = two_sets_rank(bx, bo, cx, co, t.cells, t.binom)
                    m += 1
        indptr[i + 1] = m
    return primitive, indptr, which[:m], child[:m]


@nb.njit(cache=True, nogil=True)
def parents(rank: NDArray[np.int64], t: Tables) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Canonical ranks of the moving tier's slots with a move to each rank of it.

    The rank's board has X to move, so O made the move undone: an O piece back from its cell
    to an empty neighbour. The parent had O to move: it is ranked with its colours swapped.
    Parents that are over (a pattern) are left out; a parent with several moves to the rank
    (symmetric moves) is listed as often (the engine counts it once).
    """
    count = rank.shape[0]
    k = t.k
    indptr = np.empty(count + 1, dtype=np.int64)
    out = np.empty(count * 8 * k, dtype=np.int64)
    full = (1 << t.cells) - 1
    m = 0
    indptr[0] = 0
    for i in range(count):
        x, o = two_sets_unrank(rank[i], k, k, t.cells, t.binom)
        if not _won(x, t):  # a parent with X's pattern on the board is over
            empty = full & ~(x | o)
            pieces = o
            while pieces:
                dest = pieces & -pieces
                pieces ^= dest
                sources = t.neighbours[_cell(dest)] & empty
                while sources:
                    src = sources & -sources
                    sources ^= src
                    before = o ^ dest ^ src
                    if _won(before, t):
                        continue
                    bx, bo = canonical_pair(before, x, t.image)
                    out[m] = two_sets_rank(bx, bo, k, k, t.cells, t.binom)
                    m += 1
        indptr[i + 1] = m
    return indptr, out[:m]


@nb.njit(cache=True, nogil=True)
def slots(start: int, stop: int, nx: int, no: int, t: Tables) -> NDArray[np.bool_]:
    """Which ranks ``start..stop-1`` of the tier of ``nx`` X, ``no`` O are canonical boards
    where not both players have a pattern.

    Walks the boards in rank order (the next pattern by Gosper's hack, no unranking per rank).
    """
    out = np.zeros(max(stop - start, 0), dtype=np.bool_)
    if stop <= start:
        return out
    x, o = two_sets_unrank(start, nx, no, t.cells, t.binom)
    free = gather_bits(o, x)
    width = t.cells - nx
    for i in range(out.shape[0]):
        out[i] = is_canonical_pair(x, o, t.image) and not (_won(x, t) and _won(o, t))
        if no > 0:
            free = next_set(free)
        if no == 0 or free >> width:
            free = (1 << no) - 1
            if nx > 0:
                x = next_set(x)
        o = scatter_bits(free, x, t.cells)
    return out


@nb.njit(cache=True, nogil=True)
def orbit_sizes(
    rank: NDArray[np.int64], nx: int, no: int, t: Tables, swapped: bool
) -> NDArray[np.int64]:
    """How many distinct boards the 8 symmetries make of each rank's board, twice as many if
    `swapped` (the moving tier: each board also stands for its colour swap, O to move)."""
    out = np.empty(rank.shape[0], dtype=np.int64)
    for i in range(rank.shape[0]):
        x, o = two_sets_unrank(rank[i], nx, no, t.cells, t.binom)
        out[i] = orbit_size(x, o, t.image, t.cells) * (2 if swapped else 1)
    return out
