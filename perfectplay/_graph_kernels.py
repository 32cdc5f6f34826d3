"""numba kernels that build CSR arrays by counting sort (no argsort: O(n + m), cache-friendly)."""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np
from numpy.typing import NDArray

__all__ = [
    "csr_from_edges",
    "first_decrease",
    "first_out_of_range",
    "mark_reachable",
    "reverse_csr",
]


@nb.njit(cache=True)
def first_out_of_range(arr, n):  # type: ignore[no-untyped-def]
    """Index of the first entry of `arr` outside ``0..n-1``, or -1 (no temporaries, one pass)."""
    for i in range(arr.shape[0]):
        if arr[i] < 0 or arr[i] >= n:
            return i
    return -1


@nb.njit(cache=True)
def first_decrease(arr):  # type: ignore[no-untyped-def]
    """Smallest ``i >= 1`` with ``arr[i] < arr[i - 1]``, or -1 when `arr` is non-decreasing."""
    for i in range(1, arr.shape[0]):
        if arr[i] < arr[i - 1]:
            return i
    return -1


@nb.njit(cache=True)
def mark_reachable(indptr, indices, sources, seen, stack):  # type: ignore[no-untyped-def]
    """Set ``seen[v]`` for every position reachable from `sources` (depth first). `stack` needs
    ``n`` slots: a position is pushed only when it is first seen, so at most once."""
    top = 0
    for s in sources:
        if not seen[s]:
            seen[s] = True
            stack[top] = s
            top += 1
    while top > 0:
        top -= 1
        u = stack[top]
        for j in range(indptr[u], indptr[u + 1]):
            v = indices[j]
            if not seen[v]:
                seen[v] = True
                stack[top] = v
                top += 1


@nb.njit(cache=True)
def _csr_from_edges(src, dst, n, indptr, indices, order):  # type: ignore[no-untyped-def]
    # indptr has n + 1 slots: count, prefix-sum, then fill; `order[k]` is the input index of the
    # k-th CSR entry, so per-move data (gains) can follow the same permutation.
    for e in range(src.shape[0]):
        indptr[src[e] + 1] += 1
    for v in range(n):
        indptr[v + 1] += indptr[v]
    fill = indptr[:-1].copy()
    for e in range(src.shape[0]):
        slot = fill[src[e]]
        indices[slot] = dst[e]
        order[slot] = e
        fill[src[e]] += 1


def csr_from_edges(
    src: NDArray[np.integer], dst: NDArray[np.integer], n: int
) -> tuple[NDArray[Any], NDArray[Any], NDArray[np.int64]]:
    """CSR arrays ``(indptr, indices, order)`` of the edges ``src[i] -> dst[i]`` (stable).

    Cost: O(n + m) time, one pass each way. Inputs must already be validated.
    """
    m = src.shape[0]
    ptr_dtype = np.int32 if m < 2**31 else np.int64
    idx_dtype = np.int32 if n < 2**31 else np.int64
    indptr = np.zeros(n + 1, dtype=ptr_dtype)
    indices = np.empty(m, dtype=idx_dtype)
    order = np.empty(m, dtype=np.int64)
    _csr_from_edges(src, dst, n, indptr, indices, order)
    return indptr, indices, order


@nb.njit(cache=True)
def _reverse_csr(indptr, indices, rindptr, rindices):  # type: ignore[no-untyped-def]
    n = indptr.shape[0] - 1
    for e in range(indices.shape[0]):
        rindptr[indices[e] + 1] += 1
    for v in range(n):
        rindptr[v + 1] += rindptr[v]
    fill = rindptr[:-1].copy()
    for u in range(n):
        for e in range(indptr[u], indptr[u + 1]):
            v = indices[e]
            rindices[fill[v]] = u
            fill[v] += 1


@nb.njit(cache=True)
def _reverse_csr_bucketed(indptr, indices, rindptr, rindices, shift, tmp_src, tmp_dst):  # type: ignore[no-untyped-def]
    # Pass 1 scatters every move into the bucket of its target's high bits (few buckets, so
    # the write pointers stay in cache); pass 2 scatters each bucket, whose targets span only
    # 2**shift positions, so its counters and output range stay in cache too. Both passes are
    # stable, so predecessors come out in increasing order as in _reverse_csr. tmp_src and
    # tmp_dst hold one entry per move.
    n = indptr.shape[0] - 1
    buckets = (n >> shift) + 1
    start = np.zeros(buckets + 1, np.int64)
    for e in range(indices.shape[0]):
        start[(indices[e] >> shift) + 1] += 1
    for b in range(buckets):
        start[b + 1] += start[b]
    fill = start[:-1].copy()
    for u in range(n):
        for e in range(indptr[u], indptr[u + 1]):
            v = indices[e]
            k = fill[v >> shift]
            tmp_src[k] = u
            tmp_dst[k] = v
            fill[v >> shift] = k + 1
    for k in range(indices.shape[0]):
        rindptr[tmp_dst[k] + 1] += 1
    for v in range(n):
        rindptr[v + 1] += rindptr[v]
    slot = rindptr[:-1].copy()
    for k in range(indices.shape[0]):
        v = tmp_dst[k]
        rindices[slot[v]] = tmp_src[k]
        slot[v] += 1


BUCKET_SHIFT = 15
"""Reverse-CSR buckets span 2**15 positions: their counters and output stay in L2 cache."""


def reverse_csr(
    indptr: NDArray[np.integer], indices: NDArray[np.integer], *, shift: int | None = None
) -> tuple[NDArray[Any], NDArray[Any]]:
    """CSR of the reversed graph: for each position, the positions with a move into it.

    Graphs of more than ``2**(BUCKET_SHIFT + 2)`` positions are scattered in two cache-friendly
    passes through buckets of ``2**shift`` targets (8 extra bytes per move while it runs);
    smaller ones in one pass. `shift` forces the bucketed path (for tests).

    Cost: O(n + m) time, a counting sort; predecessors of each position come in increasing order.
    """
    rindptr = np.zeros(indptr.shape[0], dtype=indptr.dtype)
    rindices = np.empty(indices.shape[0], dtype=indices.dtype)
    n = indptr.shape[0] - 1
    if shift is None and n <= 2 ** (BUCKET_SHIFT + 2):
        _reverse_csr(indptr, indices, rindptr, rindices)
    else:
        tmp_src = np.empty(indices.shape[0], dtype=indices.dtype)
        tmp_dst = np.empty(indices.shape[0], dtype=indices.dtype)
        _reverse_csr_bucketed(
            indptr,
            indices,
            rindptr,
            rindices,
            BUCKET_SHIFT if shift is None else shift,
            tmp_src,
            tmp_dst,
        )
    return rindptr, rindices
