"""numba kernels of the staircase game: unranking, the position graph, the on-the-fly sweep.

A staircase with row lengths ``l[0] >= l[1] >= ... >= l[n-1]`` (each ``0..m``) is the n-subset
``c[1] < c[2] < ... < c[n]`` of ``0..n+m-1`` with ``c[j] = l[n-j] + (j - 1)`` (row ``n - j``,
counted from the top, is element ``j``, counted from the bottom row). Its rank in the
combinatorial number system is ``sum_j C(c[j], j)``: the empty board is 0, the full board
``C(n + m, n) - 1``, and ranks in increasing order are the colexicographic order of subsets.

Placing a stone at the end of row ``n - j`` is ``c[j] += 1``, allowed when ``c[j] + 1 < c[j+1]``
(with ``c[n+1] = n + m``), and adds ``C(c[j], j - 1) >= 1`` to the rank: every move goes to a
larger rank, so descending ranks are a reverse topological order.

The binomial table they read is :func:`perfectplay._ranking.binomials` and the unranking is
:func:`perfectplay._ranking_kernels.colex_unrank`.
The sweep here is used on boards too large for the numpy level sweep of that module (see
:func:`perfectplay.builders.staircase.rules.staircase_score`).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from perfectplay._ranking_kernels import colex_unrank

__all__ = ["build_graph", "count_moves", "sweep_scores", "unrank"]


@nb.njit(cache=True)
def unrank(ranks, n, binom, rows):  # type: ignore[no-untyped-def]
    """Row lengths (top row first) of each rank into `rows` (shape ``(k, n)``)."""
    c = np.empty(n, np.int64)  # the boundary subset, smallest element first
    top = binom.shape[0] - 1
    for q in range(ranks.shape[0]):
        colex_unrank(ranks[q], n, top, binom, c)
        for j in range(n):
            rows[q, n - 1 - j] = c[j] - j


@nb.njit(cache=True)
def _next(c, n):  # type: ignore[no-untyped-def]
    """Advance ``c`` to the next subset in colex order (the next rank)."""
    j = 1
    while c[j] + 1 >= c[j + 1]:
        j += 1
    c[j] += 1
    for i in range(1, j):
        c[i] = i - 1


@nb.njit(cache=True)
def _previous(c, n):  # type: ignore[no-untyped-def]
    """Step ``c`` back to the previous subset in colex order (the previous rank)."""
    j = 1
    while c[j] == j - 1:
        j += 1
    c[j] -= 1
    for i in range(1, j):
        c[i] = c[j] - (j - i)


@nb.njit(cache=True)
def count_moves(n, m, size, binom, degree):  # type: ignore[no-untyped-def]
    """Number of moves (free corners) of every rank into `degree` (length `size`)."""
    c = np.empty(n + 2, np.int64)
    for j in range(1, n + 1):
        c[j] = j - 1
    c[n + 1] = n + m
    for r in range(size):
        d = 0
        for j in range(1, n + 1):
            if c[j] + 1 < c[j + 1]:
                d += 1
        degree[r] = d
        if r + 1 < size:
            _next(c, n)


@nb.njit(cache=True, inline="always")
def _place(c, j, n, stones, board):  # type: ignore[no-untyped-def]
    """A stone at the end of row ``n - j`` of the staircase ``c``: ``(rank step, gain)``.

    The move is allowed while ``c[j] + 1 < c[j + 1]`` (``c[n + 1] = n + m``), which the caller
    tests. It is ``c[j] += 1``, which adds ``C(c[j], j - 1)`` to the rank, and it scores the
    mover's gain, black's (``a``) when the staircase has an even number of `stones`. `board`
    is the tuple ``(binom, a, b)``, built once per kernel and indexed here without naming its
    arrays: an array bound to a name in the inlined body costs reference counting on every
    call, which makes :func:`sweep_scores` 5x slower.
    """
    row = n - j
    col = c[j] - (j - 1)
    gain = board[1][row, col] if stones % 2 == 0 else board[2][row, col]
    return board[0][c[j], j - 1], np.int64(gain)


@nb.njit(cache=True)
def build_graph(n, m, size, binom, a, b, indptr, indices, gain):  # type: ignore[no-untyped-def]
    """Fill the CSR arrays (sized by `count_moves`) with every move and its gain for the mover.

    Moves of a position are listed top row first; black (gains `a`) moves when the number of
    stones is even, white (gains `b`) when it is odd (:func:`_place`).
    """
    board = (binom, a, b)
    c = np.empty(n + 2, np.int64)
    for j in range(1, n + 1):
        c[j] = j - 1
    c[n + 1] = n + m
    for r in range(size):
        stones = 0
        for j in range(1, n + 1):
            stones += c[j] - (j - 1)
        e = indptr[r]
        for j in range(n, 0, -1):
            if c[j] + 1 < c[j + 1]:
                step, g = _place(c, j, n, stones, board)
                indices[e] = r + step
                gain[e] = g
                e += 1
        if r + 1 < size:
            _next(c, n)


@nb.njit(cache=True)
def sweep_scores(n, m, size, binom, a, b, score):  # type: ignore[no-untyped-def]
    """Best (own - opponent) total for the player to move at every rank, children on the fly.

    Ranks are visited from the full board down to the empty one, stepping the subset back in
    colex order (amortised O(1)), so no move is ever stored: each child is
    ``rank + C(c[j], j - 1)`` (:func:`_place`). For a fixed element ``j`` that offset changes
    only when ``c[j]`` does, so the reads of ``score`` form ``n`` nearly sequential streams.
    `score` may be int32 when the caller has checked every total fits; arithmetic is in int64.
    """
    board = (binom, a, b)
    c = np.empty(n + 2, np.int64)
    for j in range(1, n + 1):
        c[j] = m + j - 1
    c[n + 1] = n + m
    stones = n * m
    for k in range(size):
        r = size - 1 - k
        if stones == n * m:
            score[r] = 0
        else:
            best = np.int64(0)
            first = True
            for j in range(1, n + 1):
                if c[j] + 1 < c[j + 1]:
                    step, g = _place(c, j, n, stones, board)
                    v = g - np.int64(score[r + step])
                    if first or v > best:
                        best = v
                        first = False
            score[r] = best
        if r > 0:
            # Stepping back lowers c[j] by one and resets the lower elements: recount stones.
            _previous(c, n)
            stones = 0
            for j in range(1, n + 1):
                stones += c[j] - (j - 1)
