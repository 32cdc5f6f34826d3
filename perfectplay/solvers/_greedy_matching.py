"""numba kernels for the initial matchings of :mod:`perfectplay.solvers.geography`.

Both kernels work on any undirected graph in CSR form (every edge stored in both directions;
self-loops are ignored), bipartite or not: the bipartite solver (Pothen–Fan) and the general
one (Edmonds' blossoms) start from the matching they fill. ``-1`` means "unmatched".
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np
from numpy.typing import NDArray

__all__ = ["greedy_matching", "karp_sipser"]


@nb.njit(cache=True)
def _karp_sipser(indptr, indices, mate):  # type: ignore[no-untyped-def]
    # Fills `mate` (all -1 on entry) with a maximal matching; returns its number of edges.
    n = indptr.shape[0] - 1
    # md[v] = (partner or -1, number of unmatched neighbours of v, self-loops left out): one
    # row per vertex, so that the two fields read together share a cache line.
    md = np.empty((n, 2), dtype=indices.dtype)
    # `stack` holds vertices whose degree is 1; a vertex is pushed when its degree is 1 at the
    # start or drops to 1, which happens at most once (degrees only decrease): n slots.
    stack = np.empty(n, dtype=indices.dtype)
    top = 0
    for v in range(n):
        d = 0
        for e in range(indptr[v], indptr[v + 1]):
            if indices[e] != v:
                d += 1
        md[v, 0] = -1
        md[v, 1] = d
        if d == 1:
            stack[top] = v
            top += 1
    size = 0
    cursor = 0  # greedy fallback scans vertices in order, once
    while True:
        u = -1
        w = -1
        while top > 0 and u < 0:
            top -= 1
            v = stack[top]
            if md[v, 0] >= 0 or md[v, 1] != 1:
                continue
            for e in range(indptr[v], indptr[v + 1]):
                x = indices[e]
                if x != v and md[x, 0] < 0:
                    u = v
                    w = x
                    break
        if u < 0:
            while cursor < n and (md[cursor, 0] >= 0 or md[cursor, 1] == 0):
                cursor += 1
            if cursor == n:
                break
            u = cursor
            for e in range(indptr[u], indptr[u + 1]):
                x = indices[e]
                if x != u and md[x, 0] < 0 and (w < 0 or md[x, 1] < md[w, 1]):
                    w = x
        md[u, 0] = w
        md[w, 0] = u
        size += 1
        # u and w are matched now, so the scan below skips their self-loops.
        for k in range(2):
            end = u if k == 0 else w
            for e in range(indptr[end], indptr[end + 1]):
                x = indices[e]
                if md[x, 0] < 0:
                    md[x, 1] -= 1
                    if md[x, 1] == 1:
                        stack[top] = x
                        top += 1
    for v in range(n):
        mate[v] = md[v, 0]
    return size


def karp_sipser(indptr: NDArray[Any], indices: NDArray[Any], mate: NDArray[Any]) -> int:
    """Fill the empty matching `mate` (all -1) with a maximal matching; return its size.

    Karp–Sipser: a vertex with a single unmatched neighbour is matched to it first (this is
    always safe: some maximum matching does it); when no such vertex is left, the first
    unmatched vertex (in id order) with an unmatched neighbour is matched to the one of least
    remaining degree. Works on any graph. Cost: O(n + m) time, three ints per vertex (of the
    dtype of `indices`) besides `mate`.
    """
    return int(_karp_sipser(indptr, indices, mate))


@nb.njit(cache=True)
def _greedy(indptr, indices, mate):  # type: ignore[no-untyped-def]
    size = 0
    for u in range(indptr.shape[0] - 1):
        if mate[u] >= 0:
            continue
        best = -1
        best_degree = 0
        for e in range(indptr[u], indptr[u + 1]):
            w = indices[e]
            degree = indptr[w + 1] - indptr[w]
            if w != u and mate[w] < 0 and (best < 0 or degree < best_degree):
                best = w
                best_degree = degree
        if best >= 0:
            mate[u] = best
            mate[best] = u
            size += 1
    return size


def greedy_matching(indptr: NDArray[Any], indices: NDArray[Any], mate: NDArray[Any]) -> int:
    """Fill the empty matching `mate` (all -1) greedily; return its size.

    Each unmatched vertex, in id order, takes its unmatched neighbour of least (static)
    degree. Cheaper than :func:`karp_sipser` (no degree updates: one pass), and as good on
    dense random graphs, where vertices of degree one are rare. Cost: O(n + m) time.
    """
    return int(_greedy(indptr, indices, mate))
