"""numba kernels for Sprague–Grundy values over CSR arrays.

A position's Grundy value is the mex (minimum excluded value) of its children's values, so
children must be done before their parents:

* :func:`move_direction` detects the common case where every move goes to a higher id (games
  enumerated layer by layer) or every move to a lower id; :func:`grundy_sweep` then takes
  the mexes in one sequential pass over the ids, the cache-friendly order.
* Otherwise :func:`grundy_kernel` runs one iterative depth-first search: it finishes every
  child before its parent (post-order is a reverse topological order), so each position's
  mex is taken the moment it finishes; a move into a position still on the search stack
  closes a cycle, and the kernel stops and reports that position.
"""

from __future__ import annotations

import numba as nb

__all__ = ["grundy_kernel", "grundy_sweep", "move_direction"]

_WHITE = 0  # not reached yet
_GREY = 1  # on the search stack: its subtree is being explored
_BLACK = 2  # finished: its Grundy value is known


@nb.njit(cache=True)
def move_direction(indptr, indices):  # type: ignore[no-untyped-def]
    """1 if every move goes to a higher id, -1 if every move to a lower id, else 0."""
    up = True
    down = True
    for p in range(indptr.shape[0] - 1):
        for e in range(indptr[p], indptr[p + 1]):
            c = indices[e]
            up = up and c > p
            down = down and c < p
        if not (up or down):
            return 0
    return 1 if up else -1


@nb.njit(cache=True)
def _mex(indptr, indices, grundy, seen, p):  # type: ignore[no-untyped-def]
    """The mex of the children of `p` (all done); `seen` as in :func:`grundy_kernel`."""
    start = indptr[p]
    degree = indptr[p + 1] - start
    for k in range(start, start + degree):
        g = grundy[indices[k]]
        if g < degree:
            seen[g] = p
    mex = 0
    while mex < degree and seen[mex] == p:
        mex += 1
    return mex


@nb.njit(cache=True)
def grundy_sweep(indptr, indices, grundy, seen, direction):  # type: ignore[no-untyped-def]
    """Fill `grundy` in one pass over the ids: descending if `direction` is 1, else ascending."""
    n = indptr.shape[0] - 1
    for k in range(n):
        p = n - 1 - k if direction == 1 else k
        grundy[p] = _mex(indptr, indices, grundy, seen, p)


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
            grundy[p] = _mex(indptr, indices, grundy, seen, p)
            state[p] = _BLACK
            top -= 1
    return -1
