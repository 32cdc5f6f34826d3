"""numba kernels of pursuit as an implicit tiered game: moves and un-moves of whole rank arrays.

A rank ``turn * n * n + evader * n + pursuer`` (the ids of
:class:`~perfectplay.builders.pursuit.Pursuit`, ``turn`` 0 for the evader to move, 1 for the
pursuer) is never stored with its moves: its children are read off the board's CSR (the
mover's piece steps along one out-edge) and its parents off the board's reverse CSR (the
piece that moved last steps back along one in-edge). Each kernel makes two passes over the
ranks, counting then filling, so its output arrays have exactly the needed length. Contact
positions (``evader == pursuer``) are over: no moves, and no position has a move *from* them.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from perfectplay.values import LOSE, UNDECIDED, WIN

__all__ = ["pursuit_children", "pursuit_parents"]


@nb.njit(cache=True, nogil=True, inline="always")
def _split(r, n, nn):  # type: ignore[no-untyped-def]
    """``(turn, evader, pursuer)`` of rank `r` on a board of `n` vertices (``nn = n * n``)."""
    turn = 1 if r >= nn else 0  # no division: integer division is the costly step here
    rest = r - turn * nn
    e = rest // n
    return turn, e, rest - e * n


@nb.njit(cache=True, nogil=True)
def pursuit_children(bindptr, bindices, ranks):  # type: ignore[no-untyped-def]
    """``(primitive, indptr, child)`` of `ranks` on the board ``(bindptr, bindices)``.

    ``primitive[i]``: LOSE for a contact position with the evader to move, WIN for one with the
    pursuer to move (the pursuer has caught the evader), UNDECIDED elsewhere. The moves of
    ``ranks[i]`` are ``child[indptr[i]:indptr[i + 1]]``, in the board's edge order of the
    mover's vertex. Cost: O(len(ranks) + moves listed).
    """
    n = bindptr.shape[0] - 1
    nn = n * n
    count = ranks.shape[0]
    primitive = np.empty(count, dtype=np.uint8)
    indptr = np.empty(count + 1, dtype=np.int64)
    indptr[0] = 0
    total = 0
    for i in range(count):
        turn, e, p = _split(ranks[i], n, nn)
        if e == p:
            primitive[i] = LOSE if turn == 0 else WIN
        else:
            primitive[i] = UNDECIDED
            v = e if turn == 0 else p
            total += bindptr[v + 1] - bindptr[v]
        indptr[i + 1] = total
    child = np.empty(total, dtype=np.int64)
    k = 0
    for i in range(count):
        if primitive[i] != UNDECIDED:
            continue
        turn, e, p = _split(ranks[i], n, nn)
        if turn == 0:  # evader to move: (e, p) -> (e', p), pursuer to move
            base = nn + p
            for j in range(bindptr[e], bindptr[e + 1]):
                child[k] = base + bindices[j] * n
                k += 1
        else:  # pursuer to move: (e, p) -> (e, p'), evader to move
            base = e * n
            for j in range(bindptr[p], bindptr[p + 1]):
                child[k] = base + bindices[j]
                k += 1
    return primitive, indptr, child


@nb.njit(cache=True, nogil=True)
def pursuit_parents(rindptr, rindices, ranks):  # type: ignore[no-untyped-def]
    """``(indptr, parent)``: the positions with a move to each of `ranks`.

    ``(rindptr, rindices)`` is the board's reverse CSR. A position with the pursuer to move
    was reached by the evader stepping onto its vertex from an in-neighbour ``e0``; one with
    the evader to move by the pursuer stepping from ``p0``. Parents in contact are left out
    (they have no moves). A board edge listed twice gives the parent twice, once per move.
    Cost: O(len(ranks) + parents listed).
    """
    n = rindptr.shape[0] - 1
    nn = n * n
    count = ranks.shape[0]
    indptr = np.empty(count + 1, dtype=np.int64)
    indptr[0] = 0
    total = 0
    for i in range(count):
        turn, e, p = _split(ranks[i], n, nn)
        v, other = (p, e) if turn == 0 else (e, p)
        for j in range(rindptr[v], rindptr[v + 1]):
            total += rindices[j] != other
        indptr[i + 1] = total
    parent = np.empty(total, dtype=np.int64)
    k = 0
    for i in range(count):
        turn, e, p = _split(ranks[i], n, nn)
        if turn == 0:  # evader to move: the pursuer came from p0, (e, p0) with the pursuer to move
            base = nn + e * n
            for j in range(rindptr[p], rindptr[p + 1]):
                p0 = rindices[j]
                if p0 != e:
                    parent[k] = base + p0
                    k += 1
        else:  # pursuer to move: the evader came from e0, (e0, p) with the evader to move
            for j in range(rindptr[e], rindptr[e + 1]):
                e0 = rindices[j]
                if e0 != p:
                    parent[k] = e0 * n + p
                    k += 1
    return indptr, parent
