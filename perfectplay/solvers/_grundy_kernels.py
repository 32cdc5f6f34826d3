"""numba kernel for Sprague–Grundy values: one iterative depth-first search over CSR arrays.

A position's Grundy value is the mex (minimum excluded value) of its children's values. The
search finishes every child before its parent (post-order is a reverse topological order), so
each position's mex is taken the moment it finishes; a move into a position still on the
search stack closes a cycle, and the kernel stops and reports that position.
"""

from __future__ import annotations

import numba as nb

__all__ = ["grundy_kernel"]

_WHITE = 0  # not reached yet
_GREY = 1  # on the search stack: its subtree is being explored
_BLACK = 2  # finished: its Grundy value is known


@nb.njit(cache=True)
def grundy_kernel(indptr, indices, grundy, state, stack, cursor, seen):  # type: ignore[no-untyped-def]
    """Fill `grundy` for every position; return -1, or a position on a cycle.

    `state`, `stack` and `cursor` have n slots: each position is pushed at most once (only
    white positions are pushed, and they turn grey), so the stack never holds more than n.
    `cursor[k]` is the next move to look at for the k-th stack entry. `seen` has
    ``max(max_out_degree, 1)`` slots, initialised to -1: d moves cannot cover all of 0..d, so
    a position with d moves has a mex of at most d and only values below d matter.
    ``seen[g] == p`` marks value g as taken while computing the mex of position p (stamping
    by position avoids clearing the array between positions).
    """
    n = indptr.shape[0] - 1
    for root in range(n):
        if state[root] != _WHITE:
            continue
        top = 0
        stack[0] = root
        cursor[0] = indptr[root]
        state[root] = _GREY
        while top >= 0:
            p = stack[top]
            e = cursor[top]
            if e < indptr[p + 1]:
                cursor[top] = e + 1
                c = indices[e]
                if state[c] == _GREY:
                    return c
                if state[c] == _WHITE:
                    top += 1
                    stack[top] = c
                    cursor[top] = indptr[c]
                    state[c] = _GREY
                continue
            start = indptr[p]
            degree = indptr[p + 1] - start
            for k in range(start, start + degree):
                g = grundy[indices[k]]
                if g < degree:
                    seen[g] = p
            mex = 0
            while mex < degree and seen[mex] == p:
                mex += 1
            grundy[p] = mex
            state[p] = _BLACK
            top -= 1
    return -1
