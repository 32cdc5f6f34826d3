"""numba kernels of the colex ranking of :mod:`perfectplay._ranking`, for game kernels.

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
"""

from __future__ import annotations

import numba as nb
import numpy as np

__all__ = ["colex_unrank", "colex_unrank_bits"]


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
