"""Binomial coefficients and the colexicographic ranking of subsets, in numpy (no numba).

A k-subset ``c_1 < c_2 < ... < c_k`` of ``0..N-1`` has the *colex rank*
``C(c_1, 1) + C(c_2, 2) + ... + C(c_k, k)`` (the combinatorial number system): a bijection
onto ``0..C(N, k) - 1`` that orders subsets by their largest element first, then the next
largest, and so on, and that does not depend on ``N`` (a subset keeps its rank when the
universe grows). As bitmasks, the k-subsets in colex order are in increasing numeric order.
Unranking is greedy: the largest element is the largest ``t`` with ``C(t, k) <= rank``, and so
on down with what is left of the rank.

Every game that numbers subsets (boundaries of staircases, the cars of Dodgem, the cubes of
Quixo, the two tokens of a pair game) uses this convention and the tables built here. This
module imports no numba, so that numpy-only paths (the staircase's level sweep on judge-sized
boards) load fast; the numba kernels that unrank inside game kernels are in
:mod:`perfectplay._ranking_kernels`.

Examples
--------
>>> binomials(4, 2)[4, 2]
np.int64(6)
>>> colex_rank([[0, 1], [0, 2], [1, 2], [0, 3]]).tolist()
[0, 1, 2, 3]
>>> colex_unrank([0, 1, 2, 3], 2, 4).tolist()
[[0, 1], [0, 2], [1, 2], [0, 3]]
>>> pair_rank(2, 0), pair_unrank(5)
(1, (2, 3))
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["binomials", "colex_rank", "colex_unrank", "pair_count", "pair_rank", "pair_unrank"]


def binomials(top: int, k: int) -> NDArray[np.int64]:
    """``table[t, j] = C(t, j)`` for ``t <= top``, ``j <= k`` as int64, one column at a time.

    Column j is the running sum of column j - 1 (``C(t, j) = sum of C(s, j - 1), s < t``), so
    ``C(t, j) = 0`` for ``j > t``. Entries beyond int64 wrap around: callers check that the
    entries they read fit (a game's rank range, at most ``C(top, k)``, below ``2**63``).

    Cost: O(top * k) time and memory, in k numpy calls.

    >>> binomials(4, 2).tolist()
    [[1, 0, 0], [1, 1, 0], [1, 2, 1], [1, 3, 3], [1, 4, 6]]
    """
    table = np.zeros((top + 1, k + 1), dtype=np.int64)
    table[:, 0] = 1
    for j in range(1, k + 1):
        np.cumsum(table[:-1, j - 1], out=table[1:, j])
    return table


def colex_rank(subsets: ArrayLike, binom: NDArray[np.int64] | None = None) -> NDArray[np.int64]:
    """The colex rank of each row of `subsets` (shape ``(q, k)``, each row increasing).

    `binom` is a table of :func:`binomials` covering every element and ``k`` (by default one is
    built up to the largest element). Rows are not checked to be increasing.

    Cost: O(q * k) numpy work.

    >>> colex_rank([[2, 5, 7]]).tolist()  # C(2, 1) + C(5, 2) + C(7, 3)
    [47]
    """
    rows = np.asarray(subsets, dtype=np.int64)
    if rows.ndim != 2:
        raise ValueError(f"expected a (count, k) array of subsets, got shape {rows.shape}")
    k = rows.shape[1]
    if rows.size == 0:
        return np.zeros(rows.shape[0], dtype=np.int64)
    table = binomials(int(rows.max()), k) if binom is None else binom
    return table[rows, np.arange(1, k + 1)].sum(axis=1)


def colex_unrank(ranks: ArrayLike, k: int, top: int) -> NDArray[np.int64]:
    """The k-subsets of ``0..top-1`` (shape ``(q, k)``, rows increasing) of colex ranks `ranks`.

    The greedy step of every element is a binary search of one binomial column
    (``np.searchsorted``), for all ranks at once.

    Raises
    ------
    ValueError
        If a rank is outside ``0..C(top, k) - 1``.

    Notes
    -----
    Cost: O(q * k * log(top)) time, O(top * k) for the binomial table.

    >>> colex_unrank([47], 3, 8).tolist()
    [[2, 5, 7]]
    """
    left = np.array(ranks, dtype=np.int64, ndmin=1)
    table = binomials(top, k)
    if left.size and (int(left.min()) < 0 or int(left.max()) >= int(table[top, k])):
        raise ValueError(f"colex ranks of {k}-subsets of {top} lie in 0..{table[top, k] - 1}")
    out = np.zeros((left.size, k), dtype=np.int64)
    for j in range(k, 0, -1):
        # The largest t with C(t, j) <= rank: column j is non-decreasing in t.
        out[:, j - 1] = np.searchsorted(table[:, j], left, side="right") - 1
        left = left - table[out[:, j - 1], j]
    return out


def pair_count(cells: int) -> int:
    """Number of unordered pairs of distinct cells among `cells`: ``C(cells, 2)``.

    >>> pair_count(4)
    6
    """
    return cells * (cells - 1) // 2


def pair_rank(i: ArrayLike, j: ArrayLike) -> Any:
    """Colex rank of the unordered pair ``{i, j}`` (``i != j``), vectorized.

    ``rank = C(hi, 2) + C(lo, 1) = hi * (hi - 1) / 2 + lo`` with ``lo = min(i, j)``,
    ``hi = max(i, j)``: pairs with a smaller larger element come first. Cell ids must stay
    below ``2**31`` (int64 arithmetic).

    >>> pair_rank(0, 1), pair_rank(2, 0), pair_rank([1, 3], [2, 2]).tolist()
    (0, 1, [2, 5])
    """
    a = np.asarray(i, dtype=np.int64)
    b = np.asarray(j, dtype=np.int64)
    lo = np.minimum(a, b)
    hi = np.maximum(a, b)
    rank = hi * (hi - 1) // 2 + lo
    return int(rank) if rank.ndim == 0 else rank


def pair_unrank(rank: ArrayLike) -> tuple[Any, Any]:
    """The pair ``(i, j)``, ``i < j``, of a rank: the inverse of :func:`pair_rank`, vectorized.

    ``j`` is the largest integer with ``j * (j - 1) / 2 <= rank``, from the square root formula
    and then corrected by one step either way against floating-point rounding. Exact for cell
    ids below ``2**31`` (ranks below ``2**61``).

    >>> pair_unrank(5)
    (2, 3)
    >>> [a.tolist() for a in pair_unrank([0, 1, 2, 3])]
    [[0, 0, 1, 0], [1, 2, 2, 3]]
    """
    r = np.asarray(rank, dtype=np.int64)
    j = ((1.0 + np.sqrt(1.0 + 8.0 * r.astype(np.float64))) / 2.0).astype(np.int64)
    j -= (j * (j - 1) // 2 > r).astype(np.int64)
    j += ((j + 1) * j // 2 <= r).astype(np.int64)
    i = r - j * (j - 1) // 2
    if r.ndim == 0:
        return int(i), int(j)
    return i, j
