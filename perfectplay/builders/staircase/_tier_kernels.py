"""numba kernels of the staircase game as a tiered game: rank within a level, children.

The tier of a staircase is its number of stones (the *level*); inside a level, staircases are
numbered in the order of their global rank (:mod:`perfectplay.builders.staircase._kernels`: the
colexicographic order of the boundary subsets). With the row lengths read from the bottom row
up, ``L[1] <= L[2] <= ... <= L[n]`` (``L[j]`` is row ``n - j`` counted from the top) and their
running sums ``S[j] = L[1] + ... + L[j]``, the rank within the level is

``sum_j P[j, L[j] - 1, S[j]]``  (a term is 0 where ``L[j] = 0``)

where ``P[j, u, s]`` is the number of partitions of ``s`` into at most ``j`` parts of at most
``u``: the staircases of the bottom ``j`` rows, all shorter than ``L[j]``, with ``S[j]``
stones, which come before this one in colex order when the rows above agree. The level sizes
are ``P[n, m, k]``, the coefficients of the Gaussian binomial ``[n + m choose n]_q``.

A stone at the end of bottom-up row ``j`` (allowed when ``L[j] < L[j + 1]``, ``L[n + 1] = m``)
adds one to ``L[j]`` and to ``S[i]`` for ``i >= j``, so the child's rank is the parent's terms
below ``j``, the new term at ``j`` and the terms above ``j`` read one stone further: prefix and
suffix sums give every child's rank in O(n) per position.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numpy.typing import NDArray

__all__ = ["partition_table", "tier_children", "tier_unrank"]


def partition_table(n: int, m: int) -> NDArray[np.int64]:
    """``P[j, u, s]``: partitions of ``s`` into at most ``j`` parts of at most ``u``, as int64.

    Shape ``(n + 1, m + 1, n * m + 1)``, by ``P[j, u] = P[j, u - 1] + P[j - 1, u]`` shifted by
    ``u`` (the largest part is below ``u``, or one part equals ``u``). Every entry is at most
    ``C(n + m, n)``, which the caller checks fits in int64.

    Cost: O(n * m) numpy calls on rows of ``n * m + 1`` entries, ``8 (n + 1)(m + 1)(n m + 1)``
    bytes.

    >>> partition_table(2, 2)[2, 2].tolist()  # staircases of a 2 x 2 board by stones
    [1, 1, 2, 1, 1]
    """
    table = np.zeros((n + 1, m + 1, n * m + 1), dtype=np.int64)
    table[0, :, 0] = 1
    table[:, 0, 0] = 1
    for j in range(1, n + 1):
        for u in range(1, m + 1):
            table[j, u] = table[j, u - 1]
            table[j, u, u:] += table[j - 1, u, : n * m + 1 - u]
    return table


@nb.njit(cache=True, nogil=True)
def _load(tier, rank, n, m, table, lengths):  # type: ignore[no-untyped-def]
    """Bottom-up row lengths ``lengths[1..n]`` of `rank` in level `tier` (``lengths[n+1] = m``).

    Greedy from the top row down: row ``j`` is the longest length (at most the row above)
    whose count of earlier staircases does not exceed what is left of the rank.
    """
    lengths[n + 1] = m
    r = rank
    s = tier
    for j in range(n, 0, -1):
        length = min(lengths[j + 1], s)
        while length > 0 and table[j, length - 1, s] > r:
            length -= 1
        if length > 0:
            r -= table[j, length - 1, s]
        lengths[j] = length
        s -= length


@nb.njit(cache=True, nogil=True)
def tier_unrank(tier, ranks, n, m, table, rows):  # type: ignore[no-untyped-def]
    """Row lengths (top row first) of each rank of level `tier` into `rows` (shape ``(k, n)``).

    Cost: O(n + m) per rank.
    """
    lengths = np.empty(n + 2, np.int64)
    for q in range(ranks.shape[0]):
        _load(tier, ranks[q], n, m, table, lengths)
        for j in range(1, n + 1):
            rows[q, n - j] = lengths[j]


@nb.njit(cache=True, nogil=True)
def tier_children(tier, ranks, n, m, table, a, b, indptr, child, gain):  # type: ignore[no-untyped-def]
    """Every move of each rank of level `tier` (below the full board): child rank and gain.

    `indptr` (length ``len(ranks) + 1``) is filled; `child` and `gain` need room for ``n``
    moves per rank. Moves are listed top row first, as :meth:`Staircase.moves` lists them;
    black (gains `a`) moves on even levels. Cost: O(n + m) per rank.
    """
    lengths = np.empty(n + 2, np.int64)
    stones = np.empty(n + 1, np.int64)  # stones[j]: S[j], the stones of rows 1..j
    below = np.empty(n + 2, np.int64)  # below[j]: the rank's terms of rows 1..j-1
    above = np.empty(n + 2, np.int64)  # above[j]: the terms of rows j+1..n, one stone more
    gains = a if tier % 2 == 0 else b
    e = 0
    for q in range(ranks.shape[0]):
        indptr[q] = e
        _load(tier, ranks[q], n, m, table, lengths)
        stones[0] = 0
        below[1] = 0
        for j in range(1, n + 1):
            stones[j] = stones[j - 1] + lengths[j]
            term = table[j, lengths[j] - 1, stones[j]] if lengths[j] > 0 else 0
            below[j + 1] = below[j] + term
        above[n] = 0
        for j in range(n, 1, -1):
            term = table[j, lengths[j] - 1, stones[j] + 1] if lengths[j] > 0 else 0
            above[j - 1] = above[j] + term
        for j in range(n, 0, -1):
            if lengths[j] < lengths[j + 1]:
                child[e] = below[j] + table[j, lengths[j], stones[j] + 1] + above[j]
                gain[e] = gains[n - j, lengths[j]]
                e += 1
    indptr[ranks.shape[0]] = e
