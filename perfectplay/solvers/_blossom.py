"""numba kernels behind :mod:`perfectplay.solvers.geography` (general graphs).

Maximum cardinality matching on a general undirected graph by Edmonds' blossom algorithm, and
the Gallai–Edmonds set ``D(G)`` (the vertices that some maximum matching leaves exposed).

The graph is read in CSR form with every edge stored in both directions; self-loops are
ignored. ``-1`` means "unmatched" / "none". Everything is iterative (no recursion) and every
work array is allocated once, at the top of a kernel, with a comment saying why it is big
enough.

Algorithm
---------
1. Karp–Sipser initial matching (:mod:`perfectplay.solvers._greedy_matching`): match a
   vertex of degree 1 to its only neighbour (always safe: some maximum matching does it), and
   when no such vertex is left, match any vertex to its unmatched neighbour of least
   remaining degree.
2. One alternating *forest* rooted at every exposed vertex, grown breadth-first. Outer
   (``_EVEN``) vertices are scanned; an edge between two outer vertices of the same tree
   closes a blossom, contracted blossom by blossom with its base kept in a union-find
   (Gabow's bridge labels, so no walk ever enters an inner blossom); an edge between outer
   vertices of *different* trees is an augmenting path, flipped by an iterative version of
   Gabow's rematch. The two trees it used are dissolved (only their vertices are touched)
   and sit out the rest of the round; when the queue runs dry their vertices are re-attached
   to the surviving trees in one batch and the next round goes on with the same forest.
   Nothing is ever reset over all n vertices.
3. When a round ends without augmentation, the forest is a Gallai–Edmonds forest: the
   matching is maximum and the outer vertices are exactly ``D(G)`` (see ``_edmonds``).

References: J. Edmonds, "Paths, trees, and flowers", Canad. J. Math. 17 (1965) 449–467,
doi:10.4153/CJM-1965-045-4; H. N. Gabow, "An efficient implementation of Edmonds' algorithm
for maximum matching on graphs", J. ACM 23 (1976) 221–234, doi:10.1145/321941.321942.
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np
from numpy.typing import NDArray

from perfectplay._memory import check_memory
from perfectplay.solvers._greedy_matching import karp_sipser

__all__ = ["general_matching"]

# Labels of the alternating forest.
_FREE = 0  # in no tree: matched, and (at the end) covered by every maximum matching
_EVEN = 1  # outer: an even alternating path leads to it from an exposed root
_ODD = 2  # inner: reached from an outer vertex by a non-matching edge
_DEAD = 3  # in a tree dissolved by an augmentation during the current round

# Work smaller than this is not checked against the free memory: reading /proc/meminfo
# costs more than solving a small graph, and judge inputs hold many small cases.
_CHECKED_BYTES = 1 << 26


# Columns of the per-vertex state table `st` of _edmonds: one row of 8 ints per vertex, so
# that the fields read together share one cache line.
_LABEL = 0  # _FREE / _EVEN / _ODD / _DEAD
_BASE = 1  # union-find parent; the root of a set is the base of its blossom
_TREE = 2  # root (exposed vertex) of the tree holding the vertex, -1 when in none
_LINK = 3  # for a vertex reached as an inner vertex: the outer vertex it was reached from
_MATE = 4  # partner in the current matching, -1 when exposed
_NEXT = 5  # next vertex in the list of the vertices of the same tree, -1 at the end
_BX = 6  # for an inner vertex made outer by a blossom: the blossom's bridge x - y, with x
_BY = 7  # on the vertex's side of the cycle; _BX is -1 otherwise


@nb.njit(cache=True)
def _find(st, x):  # type: ignore[no-untyped-def]
    # Union-find root (= base of the outermost blossom holding x), with path compression.
    r = x
    while st[r, _BASE] != r:
        r = st[r, _BASE]
    while st[x, _BASE] != r:
        nxt = st[x, _BASE]
        st[x, _BASE] = r
        x = nxt
    return r


@nb.njit(cache=True)
def _grow(st, thead, w, u):  # type: ignore[no-untyped-def]
    # Free (hence matched) w is reached from outer u: w turns inner, its mate outer; both
    # join u's tree list. Returns the mate, to be queued by the caller.
    r = st[u, _TREE]
    m = st[w, _MATE]
    st[w, _LABEL] = _ODD
    st[w, _LINK] = u
    st[w, _TREE] = r
    st[m, _LABEL] = _EVEN
    st[m, _TREE] = r
    st[w, _NEXT] = m
    st[m, _NEXT] = thead[r]
    thead[r] = w
    return m


@nb.njit(cache=True)
def _enqueue(queue, inq, qtail, qlen, v):  # type: ignore[no-untyped-def]
    # Append v to the circular FIFO `queue` unless `inq` says it is in it already; returns the
    # new (qtail, qlen). A vertex is in the queue at most once, so its n slots suffice.
    if inq[v]:
        return qtail, qlen
    inq[v] = True
    queue[qtail] = v
    qtail += 1
    if qtail == queue.shape[0]:
        qtail = 0
    return qtail, qlen + 1


@nb.njit(cache=True)
def _push_both_ways(stack, top, x, y):  # type: ignore[no-untyped-def]
    # Push the rematch calls R(y, x), then R(x, y) (popped first) of an edge x - y that the
    # flip crosses; returns the new top.
    stack[top, 0] = y
    stack[top, 1] = x
    stack[top + 1, 0] = x
    stack[top + 1, 1] = y
    return top + 2


@nb.njit(cache=True)
def _augment(st, stack, u, w):  # type: ignore[no-untyped-def]
    # Flip the augmenting path root(u) .. u - w .. root(w), u and w outer in different trees.
    # Gabow's rematch R(v, p) ("match v to p and flip the rest of v's even path P(v)") made
    # iterative: the explicit stack holds the pending calls, popped in the order recursion
    # would run them. P(v) is v, mate[v], then
    #   - P(link[mate[v]]) when v became outer as the mate of an inner vertex (a root stops);
    #   - reversed P(x) from mate[v] back to x, then P(y), when v was inner and became outer
    #     in a blossom closed by the bridge x - y, x on v's side: R(x, y) stops by itself on
    #     reaching v (whose mate has already changed), then R(y, x) runs.
    # Each call rematches a different vertex of the path, so `stack` (n rows) cannot overflow.
    top = _push_both_ways(stack, 0, u, w)  # the path's middle edge u - w, like a bridge
    while top > 0:
        top -= 1
        v = stack[top, 0]
        p = stack[top, 1]
        t = st[v, _MATE]
        st[v, _MATE] = p
        if t < 0 or st[t, _MATE] != v:
            continue  # v was the root, or the walk reached the end of its segment
        x = st[v, _BX]
        if x < 0:
            lab = st[t, _LINK]
            st[t, _MATE] = lab
            stack[top, 0] = lab
            stack[top, 1] = t
            top += 1
        else:
            top = _push_both_ways(stack, top, x, st[v, _BY])


@nb.njit(cache=True)
def _edmonds(indptr, indices, mate, in_d):  # type: ignore[no-untyped-def]
    # Turns the matching in `mate` into a maximum one and sets in_d[v] = (v in D(G)).
    # Returns the number of augmentations performed.
    n = indptr.shape[0] - 1
    if n == 0:
        return 0
    # Work arrays, n slots each (one per vertex, or vertices counted at most once):
    #   st     - state table, one row per vertex (columns _LABEL ... _BY above);
    #   stack  - pending rematch calls of one augmentation (see _augment);
    #   thead  - first vertex of each tree's list (indexed by the root; lists go on in _NEXT);
    #   stamp  - visit marks for the lowest-common-ancestor walk (compared to a counter, so
    #            they are never reset);
    #   queue  - circular FIFO of outer vertices to scan; `inq` keeps a vertex in it at most
    #            once at a time, hence n slots;
    #   freed  - vertices of the trees dissolved during one round: a _DEAD vertex joins no
    #            tree until the round ends, so each vertex is listed at most once: n slots.
    st = np.empty((n, 8), dtype=indices.dtype)
    stack = np.empty((n, 2), dtype=indices.dtype)
    thead = np.full(n, -1, dtype=indices.dtype)
    stamp = np.zeros(n, dtype=np.int64)
    queue = np.empty(n, dtype=indices.dtype)
    inq = np.zeros(n, dtype=np.bool_)
    freed = np.empty(n, dtype=indices.dtype)
    qhead = 0
    qtail = 0  # next free slot: (qhead + queue length) mod n
    qlen = 0
    clock = 0
    augmentations = 0

    for v in range(n):
        st[v, _BASE] = v
        st[v, _LINK] = -1
        st[v, _MATE] = mate[v]
        st[v, _NEXT] = -1
        st[v, _BX] = -1
        st[v, _BY] = -1
        if mate[v] < 0:
            st[v, _LABEL] = _EVEN
            st[v, _TREE] = v
            thead[v] = v
            qtail, qlen = _enqueue(queue, inq, qtail, qlen, v)
        else:
            st[v, _LABEL] = _FREE
            st[v, _TREE] = -1

    nfreed = 0
    while True:
        while qlen > 0:
            u = queue[qhead]
            qhead += 1
            if qhead == n:
                qhead = 0
            qlen -= 1
            inq[u] = False
            if st[u, _LABEL] != _EVEN:
                continue  # its tree was dissolved after it was queued
            ru = st[u, _TREE]
            for e in range(indptr[u], indptr[u + 1]):
                w = indices[e]
                lw = st[w, _LABEL]
                if lw in (_ODD, _DEAD):
                    continue
                if lw == _FREE:
                    # Every exposed vertex is a root, so a free vertex is matched: grow.
                    m = _grow(st, thead, w, u)
                    qtail, qlen = _enqueue(queue, inq, qtail, qlen, m)
                    continue
                rw = st[w, _TREE]
                if ru != rw:
                    # Augmenting path: root(u) .. u - w .. root(w). Flip both halves, then
                    # dissolve the two trees (only their vertices are touched): their
                    # vertices sit out the rest of the round as _DEAD.
                    _augment(st, stack, u, w)
                    augmentations += 1
                    for k in range(2):
                        r = ru if k == 0 else rw
                        x = thead[r]
                        thead[r] = -1
                        while x >= 0:
                            st[x, _LABEL] = _DEAD
                            st[x, _BASE] = x
                            st[x, _TREE] = -1
                            st[x, _BX] = -1
                            freed[nfreed] = x
                            nfreed += 1
                            nx = st[x, _NEXT]
                            st[x, _NEXT] = -1
                            x = nx
                    break  # u's tree is gone; stop scanning u
                bu = _find(st, u)
                bw = _find(st, w)
                if bu == bw:
                    continue  # inside one blossom (this also skips self-loops)
                # Same tree: contract the blossom closed by u - w. Lowest common ancestor of the
                # two blossoms, walking both paths to the root in turn, blossom by blossom.
                clock += 1
                x = bu
                y = bw
                while True:
                    if x >= 0:
                        if stamp[x] == clock:
                            break
                        stamp[x] = clock
                        x = -1 if st[x, _MATE] < 0 else _find(st, st[st[x, _MATE], _LINK])
                    x, y = y, x
                lca = x
                # Walk from each end of the bridge down to the base, blossom by blossom: each
                # outer blossom on the way joins the base's set, and the inner vertex below it
                # turns outer (queued), remembering the bridge for a later augmentation.
                for side in range(2):
                    x = u if side == 0 else w
                    y = w if side == 0 else u
                    b = _find(st, x)
                    while b != lca:
                        st[b, _BASE] = lca
                        p = st[b, _MATE]  # inner: the tree parent of the outer blossom based at b
                        st[p, _BASE] = lca
                        st[p, _LABEL] = _EVEN
                        st[p, _BX] = x
                        st[p, _BY] = y
                        qtail, qlen = _enqueue(queue, inq, qtail, qlen, p)
                        b = _find(st, st[p, _LINK])
        if nfreed == 0:
            break
        # End of a round: the dissolved trees' vertices come back, next to surviving outer
        # vertices where they have one (an outer vertex may have skipped its edge to them
        # while they were _DEAD or _ODD). A vertex that turns outer here is queued and scans
        # its own edges; the next round goes on with the same forest.
        for i in range(nfreed):
            st[freed[i], _LABEL] = _FREE
        for i in range(nfreed):
            x = freed[i]
            if st[x, _LABEL] != _FREE:
                continue
            for f in range(indptr[x], indptr[x + 1]):
                y = indices[f]
                if st[y, _LABEL] == _EVEN:
                    m = _grow(st, thead, x, y)
                    qtail, qlen = _enqueue(queue, inq, qtail, qlen, m)
                    break
        nfreed = 0
    # The last round ended with an empty queue and no augmentation (no _DEAD vertex), so every
    # edge at an outer vertex leads to an inner vertex or stays inside one blossom, and every
    # exposed vertex is an outer root. Removing the inner
    # vertices A then leaves each outer blossom as an odd component of its own (its
    # neighbours outside it are all in A), and each tree has one more outer blossom than
    # inner vertices; so there are (#exposed + |A|) odd components and Tutte–Berge says no
    # matching misses fewer than #exposed vertices: the matching is maximum. Each outer
    # vertex v is the end of an even alternating path P(v) from an exposed root (see
    # _augment), and flipping that path gives a maximum matching missing v:
    # v is in D(G). Every other vertex is in A or matched inside the free part, and the
    # count above leaves a maximum matching no room to miss one of those (it must match A
    # into distinct outer blossoms and the free part perfectly): D(G) is the outer set.
    for v in range(n):
        mate[v] = st[v, _MATE]
        in_d[v] = st[v, _LABEL] == _EVEN
    return augmentations


def general_matching(
    indptr: NDArray[Any], indices: NDArray[Any]
) -> tuple[NDArray[Any], NDArray[np.bool_]]:
    """A maximum matching of a general graph and its Gallai–Edmonds set ``D(G)``.

    Parameters
    ----------
    indptr, indices : ndarray of int
        CSR arrays of an undirected graph with every edge stored in both directions (int32 or
        int64; self-loops are ignored, repeated edges are harmless).

    Returns
    -------
    mate : ndarray
        ``mate[v]`` is v's partner in a maximum matching, or -1 (dtype of `indices`).
    in_d : ndarray of bool
        ``in_d[v]`` is true iff some maximum matching leaves v exposed (v in ``D(G)``); in
        undirected vertex geography the player to move from v wins iff ``not in_d[v]``.

    Raises
    ------
    TooLargeError
        If the work arrays (about 15 integers per vertex) do not fit in memory.

    Notes
    -----
    Cost: O(n * m) time in the worst case; in practice close to linear (Karp–Sipser first,
    then one alternating forest of which only the trees used by an augmentation are rebuilt).
    Memory: about 15 integers of the `indices` dtype plus 10 bytes per vertex.

    Examples
    --------
    >>> import numpy as np
    >>> indptr = np.array([0, 2, 4, 6]); indices = np.array([1, 2, 0, 2, 0, 1])  # a triangle
    >>> mate, in_d = general_matching(indptr, indices)
    >>> int((mate >= 0).sum()), in_d.tolist()
    (2, [True, True, True])
    >>> indptr = np.array([0, 1, 3, 4]); indices = np.array([1, 0, 2, 1])  # a path 0 - 1 - 2
    >>> general_matching(indptr, indices)[1].tolist()
    [True, False, True]
    """
    n = indptr.shape[0] - 1
    estimate = n * (15 * indices.itemsize + 10)
    if estimate > _CHECKED_BYTES:
        check_memory(estimate, f"a maximum matching on {n} vertices")
    mate = np.full(n, -1, dtype=indices.dtype)
    karp_sipser(indptr, indices, mate)
    in_d = np.zeros(n, dtype=np.bool_)
    _edmonds(indptr, indices, mate, in_d)
    return mate, in_d
