"""numba kernels of the colex ranking of :mod:`perfectplay._ranking`, for game kernels.

Boards of two kinds of pieces on ``top`` cells (Teeko's X and O, Morris's two colours) are
ranked by :func:`two_sets_rank`: the colex rank of the first set, then that of the second among
the cells the first leaves free. Sets are bitmasks here, bit ``d`` for cell ``d``.

They read a binomial table ``binom[t, j] = C(t, j)`` (:func:`perfectplay._ranking.binomials`)
with at least ``top + 1`` rows and ``k + 1`` columns, take and return int64 only, and are
inlined into their callers (``inline="always"``), which run without the GIL.

Examples
--------
>>> from perfectplay._ranking import binomials
>>> binom = binomials(8, 3)
>>> out = np.empty(3, np.int64)
>>> colex_unrank(47, 3, 8, binom, out)
>>> out.tolist(), bin(colex_unrank_bits(47, 3, 8, binom))
([2, 5, 7], '0b10100100')
>>> binom = binomials(8, 8)
>>> rank = two_sets_rank(0b101, 0b1010, 2, 2, 8, binom)
>>> rank, [bin(s) for s in two_sets_unrank(rank, 2, 2, 8, binom)]
(15, ['0b101', '0b1010'])
"""

from __future__ import annotations

import numba as nb
import numpy as np

from perfectplay._bits import popcount

__all__ = [
    "colex_rank_among",
    "colex_rank_bits",
    "colex_unrank",
    "colex_unrank_bits",
    "gather_bits",
    "next_set",
    "scatter_bits",
    "two_sets_rank",
    "two_sets_unrank",
]


@nb.njit(cache=True, nogil=True, inline="always")
def colex_unrank(rank, k, top, binom, out):  # type: ignore[no-untyped-def]
    """Write the k-subset of ``0..top-1`` of colex rank `rank` into ``out[0..k-1]``, increasing.

    Greedy, largest element first: ``out[j - 1]`` is the largest ``t`` with
    ``C(t, j) <= rank``, then ``rank -= C(t, j)``. `rank` must lie below ``C(top, k)``.
    Cost: O(top) (every element is found by stepping down from the one above).
    """
    t = top - 1
    for j in range(k, 0, -1):
        while binom[t, j] > rank:
            t -= 1
        out[j - 1] = t
        rank -= binom[t, j]
        t -= 1


@nb.njit(cache=True, nogil=True, inline="always")
def colex_unrank_bits(rank, k, top, binom):  # type: ignore[no-untyped-def]
    """The k-subset of ``0..top-1`` (``top <= 63``) of colex rank `rank`, as a bitmask.

    The same greedy steps as :func:`colex_unrank`. Cost: O(top).
    """
    mask = np.int64(0)
    t = top - 1
    for j in range(k, 0, -1):
        while binom[t, j] > rank:
            t -= 1
        mask |= np.int64(1) << t
        rank -= binom[t, j]
        t -= 1
    return mask


@nb.njit(cache=True, nogil=True, inline="always")
def colex_rank_bits(p, binom):  # type: ignore[no-untyped-def]
    """The colex rank of the set of bitmask `p` among the sets of as many elements.

    Cost: O(set bits).
    """
    rank, j = 0, 1
    while p:
        low = p & -p
        rank += binom[popcount(low - 1), j]
        j += 1
        p ^= low
    return rank


@nb.njit(cache=True, nogil=True, inline="always")
def scatter_bits(free, x, top):  # type: ignore[no-untyped-def]
    """The cells of ``0..top-1`` outside `x` numbered by the set bits of `free` (the
    inverse of :func:`gather_bits`; `free` below ``2^(top - set bits of x)``).

    A zero is inserted into `free` at each cell of `x`, lowest first: no branch on the bits of
    `free` (a loop over the cells mispredicts about one in two). Cost: O(set bits of x).
    """
    out = free
    while x:
        low = x & -x
        below = low - 1
        out = (out & below) | ((out & ~below) << 1)
        x ^= low
    return out


@nb.njit(cache=True, nogil=True, inline="always")
def gather_bits(y, x):  # type: ignore[no-untyped-def]
    """The bits of `y` (disjoint from `x`) numbered among the cells `x` leaves free.

    Cost: O(set bits of y).
    """
    out = 0
    while y:
        low = y & -y
        out |= 1 << (popcount(low - 1) - popcount(x & (low - 1)))
        y ^= low
    return out


@nb.njit(cache=True, nogil=True, inline="always")
def colex_rank_among(y, x, binom):  # type: ignore[no-untyped-def]
    """The colex rank of the set `y` (disjoint from `x`) among the cells `x` leaves free:
    ``colex_rank_bits(gather_bits(y, x))`` in one pass. Cost: O(set bits of y), one popcount
    each (the free cells below it)."""
    rank, j = 0, 1
    free = ~x
    while y:
        low = y & -y
        rank += binom[popcount(free & (low - 1)), j]
        j += 1
        y ^= low
    return rank


@nb.njit(cache=True, nogil=True, inline="always")
def two_sets_rank(x, y, nx, ny, top, binom):  # type: ignore[no-untyped-def]
    """The rank of the disjoint sets ``(x, y)`` of `nx` and `ny` cells of ``0..top-1``:
    ``colex(x) * C(top - nx, ny) + colex(y among the free cells)``. The rank order is the
    numeric order of ``(x, y)``. Cost: O(set bits)."""
    return colex_rank_bits(x, binom) * binom[top - nx, ny] + colex_rank_bits(
        gather_bits(y, x), binom
    )


@nb.njit(cache=True, nogil=True, inline="always")
def two_sets_unrank(rank, nx, ny, top, binom):  # type: ignore[no-untyped-def]
    """The sets ``(x, y)`` of :func:`two_sets_rank` `rank`. Cost: O(top)."""
    per_x = binom[top - nx, ny]
    rank_x = rank // per_x
    x = colex_unrank_bits(rank_x, nx, top, binom)
    free = colex_unrank_bits(rank - rank_x * per_x, ny, top - nx, binom)
    return x, scatter_bits(free, x, top)


@nb.njit(cache=True, nogil=True, inline="always")
def next_set(p):  # type: ignore[no-untyped-def]
    """The next larger bitmask with as many set bits (Gosper's hack); `p` non-zero."""
    low = p & -p
    ripple = p + low
    return (((ripple ^ p) >> 2) // low) | ripple
