"""numba kernel of the undirected geography game: merge repeated edges of a CSR graph."""

from __future__ import annotations

import numba as nb

__all__ = ["merge_repeats"]


@nb.njit(cache=True)
def merge_repeats(indptr, indices, out_indptr, out_indices, last):  # type: ignore[no-untyped-def]
    # Copy each row of the CSR keeping the first of repeated targets: last[w] is the last row
    # that listed w. out_indptr has n + 1 slots, out_indices as many as indices.
    k = 0
    for u in range(indptr.shape[0] - 1):
        for e in range(indptr[u], indptr[u + 1]):
            w = indices[e]
            if last[w] != u:
                last[w] = u
                out_indices[k] = w
                k += 1
        out_indptr[u + 1] = k
