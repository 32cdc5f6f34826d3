"""numba kernels of two tokens as an implicit geography graph: maximum matching and D(G).

The position graph of :class:`~perfectplay.builders.two_tokens.TwoTokens` (unordered pairs of
free cells at Manhattan distance >= 2; a move steps one token onto a free cell, the pair
staying at distance >= 2) is never stored: the moves of pair rank ``r = j (j - 1) / 2 + i``
(``i < j``) are generated from the cells' neighbour table, move ``k`` (0..7) stepping the token
on ``i`` (``k < 4``) or on ``j`` (``k >= 4``) in direction ``k % 4``. The graph is bipartite by
the parity of ``r1 + c1 + r2 + c2`` (each move changes it); "left" vertices have parity 0.

The player to move from a pair wins iff every maximum matching covers it (vertex geography),
i.e. iff the pair is not in D(G): not reachable by an even alternating path from a vertex
some maximum matching leaves exposed. Work memory: ``mate`` (int32), a search stamp (int32),
a lookahead index (uint8) and the D(G) mark (bool) per pair, 10 bytes, plus search stacks
that grow on demand; the stored position graph took 32 bytes per pair and the CSR solver's
arrays 37 more.
"""

from __future__ import annotations

import numba as nb
import numpy as np

__all__ = ["two_token_mover_wins"]

_MOVES = 8  # four steps of either token


@nb.njit(cache=True, nogil=True, inline="always")
def _unrank(r):  # type: ignore[no-untyped-def]
    """``(i, j)``, ``i < j``, of pair rank `r` (square root, then one step of correction)."""
    j = np.int64((1.0 + np.sqrt(1.0 + 8.0 * r)) / 2.0)
    if j * (j - 1) // 2 > r:
        j -= 1
    if (j + 1) * j // 2 <= r:
        j += 1
    return r - j * (j - 1) // 2, j


@nb.njit(cache=True, nogil=True, inline="always")
def _far(row, col, a, b):  # type: ignore[no-untyped-def]
    """Are cells `a` and `b` at Manhattan distance >= 2 (a playable pair)?"""
    return abs(row[a] - row[b]) + abs(col[a] - col[b]) >= 2


@nb.njit(cache=True, nogil=True, inline="always")
def _move(table, row, col, i, j, k):  # type: ignore[no-untyped-def]
    """Rank of the pair reached from playable pair ``(i, j)`` by move `k` (0..7), or -1."""
    moving, staying = (i, j) if k < 4 else (j, i)
    t = table[moving, k & 3]
    if t < 0 or not _far(row, col, t, staying):
        return np.int64(-1)
    lo, hi = (t, staying) if t < staying else (staying, t)
    return hi * (hi - 1) // 2 + lo


@nb.njit(cache=True, nogil=True)
def _grow(stack, top):  # type: ignore[no-untyped-def]
    """`stack` with room for one more entry after `top` (doubled when full)."""
    if top < stack.shape[0]:
        return stack
    grown = np.empty(2 * stack.shape[0], dtype=stack.dtype)
    grown[:top] = stack
    return grown


@nb.njit(cache=True, nogil=True, inline="always")
def _playable(row, col, i, j, side):  # type: ignore[no-untyped-def]
    """Is pair ``(i, j)`` playable (distance >= 2) with parity `side`?"""
    return (row[i] + col[i] + row[j] + col[j]) & 1 == side and _far(row, col, i, j)


@nb.njit(cache=True, nogil=True)
def _maximum_matching(table, row, col, mate):  # type: ignore[no-untyped-def]
    """Fill `mate` (all -1 on entry) with a maximum matching of the pair graph.

    A greedy pass over the left pairs, then phases of Pothen–Fan searches from the exposed
    pairs of the side with fewer of them (every augmenting path joins an exposed pair of each
    side, so either side's searches find them all; 64 x 64 board: 896 exposed right pairs
    against 5555 left ones after the greedy pass). Each search goes depth first, a pair of the
    other side visited at most once per phase (``seen`` holds the phase), and each searching
    pair's lookahead (``look``: the next move to try for an exposed partner) never moves back,
    since a matched pair stays matched. Phases run until one finds no augmenting path.
    Cost: O(P) for the greedy pass, then O(P) per phase at most, with at most 8 moves per
    pair; 5 bytes per pair plus the list of exposed pairs and the search stacks.
    """
    pairs = mate.shape[0]
    for r in range(pairs):  # greedy start, left pairs in rank order
        i, j = _unrank(r)
        if not _playable(row, col, i, j, 0):
            continue
        for k in range(_MOVES):
            w = _move(table, row, col, i, j, k)
            if w >= 0 and mate[w] < 0:
                mate[r] = w
                mate[w] = r
                break
    exposed = np.zeros(2, dtype=np.int64)
    for r in range(pairs):
        if mate[r] < 0:
            i, j = _unrank(r)
            if _far(row, col, i, j):
                exposed[(row[i] + col[i] + row[j] + col[j]) & 1] += 1
    side = 0 if exposed[0] <= exposed[1] else 1
    roots = np.empty(exposed[side], dtype=np.int32)
    count = 0
    for r in range(pairs):
        if mate[r] < 0:
            i, j = _unrank(r)
            if _playable(row, col, i, j, side):
                roots[count] = r
                count += 1
    seen = np.zeros(pairs, dtype=np.int32)
    look = np.zeros(pairs, dtype=np.uint8)
    path = np.empty(64, dtype=np.int32)  # searching-side pairs on the search path
    via = np.empty(64, dtype=np.int32)  # the other-side pair each one leaves by
    nxt = np.empty(64, dtype=np.uint8)  # the next move to scan at each depth
    phase = 0
    found = 1
    while found > 0 and count > 0:
        phase += 1
        found = 0
        for index in range(count):
            path[0] = roots[index]
            nxt[0] = 0
            top = 1
            while top > 0:
                u = path[top - 1]
                ui, uj = _unrank(u)
                free = -1
                while look[u] < _MOVES:  # lookahead: an exposed neighbour ends the search
                    w = _move(table, row, col, ui, uj, look[u])
                    look[u] += 1
                    if w >= 0 and mate[w] < 0:
                        free = w
                        break
                if free >= 0:
                    via[top - 1] = free
                    for d in range(top - 1, -1, -1):  # flip the augmenting path
                        mine = path[d]
                        other = via[d]
                        mate[mine] = other
                        mate[other] = mine
                    found += 1
                    break
                advanced = False
                while nxt[top - 1] < _MOVES:
                    w = _move(table, row, col, ui, uj, nxt[top - 1])
                    nxt[top - 1] += 1
                    if w < 0 or seen[w] == phase:
                        continue
                    seen[w] = phase
                    via[top - 1] = w
                    path = _grow(path, top)
                    via = _grow(via, top)
                    nxt = _grow(nxt, top)
                    path[top] = mate[w]
                    nxt[top] = 0
                    top += 1
                    advanced = True
                    break
                if not advanced:
                    top -= 1
        kept = 0
        for index in range(count):  # matched roots stay matched: drop them
            if mate[roots[index]] < 0:
                roots[kept] = roots[index]
                kept += 1
        count = kept


@nb.njit(cache=True, nogil=True)
def _in_d(table, row, col, mate, in_d):  # type: ignore[no-untyped-def]
    """Mark D(G): the pairs reachable by even alternating paths from exposed pairs.

    Every exposed pair is in D; if ``x`` is in D and ``w`` a neighbour of ``x``, the partner
    of ``w`` is in D too (swap it out along ``x - w``). One depth-first sweep with a stack
    that grows on demand. Cost: O(P) time with at most 8 moves per pair.
    """
    stack = np.empty(64, dtype=np.int32)
    top = 0
    for r in range(mate.shape[0]):
        if mate[r] < 0:
            in_d[r] = True
            stack = _grow(stack, top)
            stack[top] = r
            top += 1
    while top > 0:
        top -= 1
        x = stack[top]
        i, j = _unrank(x)
        if not _far(row, col, i, j):
            continue
        for k in range(_MOVES):
            w = _move(table, row, col, i, j, k)
            if w < 0:
                continue
            y = mate[w]
            if y >= 0 and not in_d[y]:
                in_d[y] = True
                stack = _grow(stack, top)
                stack[top] = y
                top += 1


@nb.njit(cache=True, nogil=True)
def two_token_mover_wins(table, row, col):  # type: ignore[no-untyped-def]
    """Per pair rank: does the player to move win two-token geography from it?

    `table` is the ``(F, 4)`` neighbour table of the free cells (-1: no cell), `row` and
    `col` their coordinates. Pairs at distance 1 (the mover captures in the real game) are
    isolated here, so False, as for the stored graph. Cost: a maximum matching and one sweep
    (see the kernels above); 10 bytes per pair plus the search stacks.
    """
    cells = table.shape[0]
    pairs = cells * (cells - 1) // 2
    mate = np.full(pairs, -1, dtype=np.int32)
    _maximum_matching(table, row, col, mate)
    in_d = np.zeros(pairs, dtype=np.bool_)
    _in_d(table, row, col, mate, in_d)
    return ~in_d
