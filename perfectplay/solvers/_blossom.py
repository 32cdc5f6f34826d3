"""numba kernels behind :mod:`perfectplay.solvers.geography` (general graphs).

Maximum cardinality matching on a general undirected graph by Edmonds' blossom algorithm, and
the Gallai–Edmonds set ``D(G)`` (the vertices that some maximum matching leaves exposed).

The graph is read in CSR form with every edge stored in both directions; self-loops are
ignored. ``-1`` means "unmatched" / "none". Everything is iterative (no recursion) and every
work array is allocated once, at the top of a kernel, with a comment saying why it is big
enough.

Algorithm
---------
1. Karp–Sipser initial matching: match a vertex of degree 1 to its only neighbour (always
   safe: some maximum matching does it), and when no such vertex is left, match any vertex to
   its neighbour of least remaining degree.
2. One alternating *forest* rooted at every exposed vertex, grown breadth-first. Outer
   (``EVEN``) vertices are scanned; an edge between two outer vertices of the same tree closes
   a blossom, contracted with its base kept in a union-find; an edge between two outer
   vertices of *different* trees is an augmenting path. After an augmentation only the two
   touched trees are dissolved (their vertices become free again and are re-attached to the
   surviving trees where they have an outer neighbour); the rest of the forest is kept. No
   per-augmentation O(n) reset happens anywhere.
3. When the queue of outer vertices runs dry, the forest is a Gallai–Edmonds forest: the
   matching is maximum and the outer vertices are exactly ``D(G)`` (see ``_edmonds``).
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np
from numpy.typing import NDArray

from perfectplay._memory import check_memory

__all__ = ["general_matching", "karp_sipser_general"]

# Labels of the alternating forest.
_FREE = 0  # in no tree: matched, and (at the end) covered by every maximum matching
_EVEN = 1  # outer: an even alternating path leads to it from an exposed root
_ODD = 2  # inner: reached from an outer vertex by a non-matching edge


@nb.njit(cache=True)
def _karp_sipser(indptr, indices, mate):  # type: ignore[no-untyped-def]
    # Fills `mate` (all -1 on entry) with a maximal matching; returns its number of edges.
    n = indptr.shape[0] - 1
    # deg[v]: neighbours of v not yet matched (self-loops and parallel edges counted as stored).
    deg = np.empty(n, dtype=indices.dtype)
    # `stack` holds vertices whose degree dropped to 1; a vertex is pushed when its degree
    # reaches 1, which happens at most once (degrees only decrease), plus once at the start,
    # so n slots suffice.
    stack = np.empty(n, dtype=indices.dtype)
    top = 0
    for v in range(n):
        d = 0
        for e in range(indptr[v], indptr[v + 1]):
            if indices[e] != v:
                d += 1
        deg[v] = d
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
            if mate[v] >= 0 or deg[v] != 1:
                continue
            for e in range(indptr[v], indptr[v + 1]):
                x = indices[e]
                if x != v and mate[x] < 0:
                    u = v
                    w = x
                    break
        if u < 0:
            while cursor < n and (mate[cursor] >= 0 or deg[cursor] == 0):
                cursor += 1
            if cursor == n:
                break
            u = cursor
            best = n + 1
            for e in range(indptr[u], indptr[u + 1]):
                x = indices[e]
                if x != u and mate[x] < 0 and deg[x] < best:
                    best = deg[x]
                    w = x
        mate[u] = w
        mate[w] = u
        size += 1
        for k in range(2):
            end = u if k == 0 else w
            for e in range(indptr[end], indptr[end + 1]):
                x = indices[e]
                if mate[x] < 0:
                    deg[x] -= 1
                    if deg[x] == 1:
                        stack[top] = x
                        top += 1
    return size


@nb.njit(cache=True)
def _find(base, x):  # type: ignore[no-untyped-def]
    # Union-find root (= base of the outermost blossom holding x), with path compression.
    r = x
    while base[r] != r:
        r = base[r]
    while base[x] != r:
        nxt = base[x]
        base[x] = r
        x = nxt
    return r


@nb.njit(cache=True)
def _augment_half(mate, link, u, partner):  # type: ignore[no-untyped-def]
    # Flip the even alternating path u, mate[u], link[mate[u]], mate[...], ... down to the
    # exposed root of u's tree, and match u to `partner`.
    a = u
    p = partner
    while True:
        b = mate[a]
        mate[a] = p
        if b < 0:
            return
        c = link[b]
        mate[b] = c
        p = b
        a = c


@nb.njit(cache=True)
def _edmonds(indptr, indices, mate, in_d):  # type: ignore[no-untyped-def]
    # Turns the matching in `mate` into a maximum one and sets in_d[v] = (v in D(G)).
    # Returns the number of augmentations performed.
    n = indptr.shape[0] - 1
    if n == 0:
        return 0
    # Per-vertex arrays, n slots each (one per vertex):
    #   label  - _FREE / _EVEN / _ODD;
    #   link   - for an _ODD vertex, the outer vertex it was reached from; for an outer vertex
    #            inside a blossom, the next vertex of its even path towards the root (set when
    #            the blossom is contracted);
    #   base   - union-find parent; the root of a set is the base of its blossom;
    #   tree   - root (exposed vertex) of the tree holding the vertex, -1 when _FREE;
    #   tnext/thead - singly linked list of the vertices of each tree (thead indexed by root);
    #   stamp  - visit marks for the lowest-common-ancestor walk (compared to a counter, so
    #            they are never reset);
    #   queue  - circular FIFO of outer vertices to scan; `inq` keeps a vertex in it at most
    #            once at a time, hence n slots;
    #   freed  - vertices of the trees dissolved after one augmentation: trees are disjoint,
    #            so at most n.
    label = np.zeros(n, dtype=np.int8)
    link = np.full(n, -1, dtype=indices.dtype)
    base = np.arange(n).astype(indices.dtype)
    tree = np.full(n, -1, dtype=indices.dtype)
    tnext = np.full(n, -1, dtype=indices.dtype)
    thead = np.full(n, -1, dtype=indices.dtype)
    stamp = np.zeros(n, dtype=np.int64)
    queue = np.empty(n, dtype=indices.dtype)
    inq = np.zeros(n, dtype=np.bool_)
    freed = np.empty(n, dtype=indices.dtype)
    qhead = 0
    qlen = 0
    clock = 0
    augmentations = 0

    for v in range(n):
        if mate[v] < 0:
            label[v] = _EVEN
            tree[v] = v
            thead[v] = v
            queue[(qhead + qlen) % n] = v
            qlen += 1
            inq[v] = True

    while qlen > 0:
        u = queue[qhead]
        qhead = (qhead + 1) % n
        qlen -= 1
        inq[u] = False
        if label[u] != _EVEN:
            continue  # its tree was dissolved after it was queued
        for e in range(indptr[u], indptr[u + 1]):
            w = indices[e]
            lw = label[w]
            if lw == _FREE:
                # Every exposed vertex is a root, so a free vertex is matched: grow the tree.
                r = tree[u]
                m = mate[w]
                label[w] = _ODD
                link[w] = u
                tree[w] = r
                tnext[w] = thead[r]
                thead[r] = w
                label[m] = _EVEN
                tree[m] = r
                tnext[m] = thead[r]
                thead[r] = m
                if not inq[m]:
                    queue[(qhead + qlen) % n] = m
                    qlen += 1
                    inq[m] = True
            elif lw == _EVEN:
                bu = _find(base, u)
                bw = _find(base, w)
                if bu == bw:
                    continue  # inside one blossom (this also skips self-loops)
                ru = tree[u]
                rw = tree[w]
                if ru != rw:
                    # Augmenting path: root(u) .. u - w .. root(w). Flip both halves.
                    _augment_half(mate, link, u, w)
                    _augment_half(mate, link, w, u)
                    augmentations += 1
                    # Dissolve the two trees (only their vertices are touched).
                    nfreed = 0
                    for k in range(2):
                        r = ru if k == 0 else rw
                        x = thead[r]
                        thead[r] = -1
                        while x >= 0:
                            label[x] = _FREE
                            base[x] = x
                            tree[x] = -1
                            freed[nfreed] = x
                            nfreed += 1
                            nx = tnext[x]
                            tnext[x] = -1
                            x = nx
                    # Re-attach freed vertices next to surviving outer vertices: an outer
                    # vertex already scanned may have seen them as _ODD (or in a tree that
                    # has just dissolved), so its edge to them must be looked at again. A
                    # freed vertex that turns outer here is queued and scans its own edges.
                    for i in range(nfreed):
                        x = freed[i]
                        if label[x] != _FREE:
                            continue
                        for f in range(indptr[x], indptr[x + 1]):
                            y = indices[f]
                            if label[y] == _EVEN:
                                r = tree[y]
                                m = mate[x]
                                label[x] = _ODD
                                link[x] = y
                                tree[x] = r
                                tnext[x] = thead[r]
                                thead[r] = x
                                label[m] = _EVEN
                                tree[m] = r
                                tnext[m] = thead[r]
                                thead[r] = m
                                if not inq[m]:
                                    queue[(qhead + qlen) % n] = m
                                    qlen += 1
                                    inq[m] = True
                                break
                    break  # u's tree is gone; stop scanning u
                # Same tree: contract the blossom closed by u - w. Lowest common ancestor of
                # the two blossoms, walking both paths to the root in turn, blossom by blossom.
                clock += 1
                x = bu
                y = bw
                while True:
                    if x >= 0:
                        if stamp[x] == clock:
                            break
                        stamp[x] = clock
                        x = -1 if mate[x] < 0 else _find(base, link[mate[x]])
                    x, y = y, x
                lca = x
                # Walk from each end of the bridge to the base, pointing `link` of the outer
                # vertices back across the bridge (so every vertex of the new blossom has an
                # even alternating path to the root through it), making the inner vertices
                # outer (queued) and merging every blossom on the way into the base's set.
                for side in range(2):
                    if side == 0:
                        x = u
                        y = w
                    else:
                        x = w
                        y = u
                    while _find(base, x) != lca:
                        link[x] = y
                        y = mate[x]
                        if label[y] == _ODD:
                            label[y] = _EVEN
                            if not inq[y]:
                                queue[(qhead + qlen) % n] = y
                                qlen += 1
                                inq[y] = True
                        if base[x] == x:
                            base[x] = lca
                        if base[y] == y:
                            base[y] = lca
                        x = link[y]
    # The queue is empty, so every edge at an outer vertex leads to an inner vertex or stays
    # inside one blossom, and every exposed vertex is an outer root. Removing the inner
    # vertices A then leaves each outer blossom as an odd component of its own (its
    # neighbours outside it are all in A), and each tree has one more outer blossom than
    # inner vertices; so there are (#exposed + |A|) odd components and Tutte–Berge says no
    # matching misses fewer than #exposed vertices: the matching is maximum. Each outer
    # vertex v is the end of an even alternating path from an exposed root (through the
    # blossoms' `link` pointers), and flipping that path gives a maximum matching missing v:
    # v is in D(G). Every other vertex is in A or matched inside the free part, and a
    # maximum matching must cover those (Gallai–Edmonds), so D(G) is exactly the outer set.
    for v in range(n):
        in_d[v] = label[v] == _EVEN
    return augmentations


def karp_sipser_general(indptr: NDArray[Any], indices: NDArray[Any]) -> tuple[NDArray[Any], int]:
    """``(mate, size)``: a maximal matching by the Karp–Sipser rules, on any undirected graph.

    Cost: O(n + m) time, two int arrays of n entries besides `mate`.
    """
    n = indptr.shape[0] - 1
    mate = np.full(n, -1, dtype=indices.dtype)
    size = int(_karp_sipser(indptr, indices, mate))
    return mate, size


def general_matching(
    indptr: NDArray[Any], indices: NDArray[Any]
) -> tuple[NDArray[Any], NDArray[np.bool_]]:
    """``(mate, in_d)``: a maximum matching of a general graph and its Gallai–Edmonds set.

    `indptr`, `indices` are the CSR arrays of an undirected graph with every edge stored in
    both directions (self-loops ignored). ``mate[v]`` is v's partner or -1 (same dtype as
    `indices`); ``in_d[v]`` is true iff some maximum matching leaves v exposed.

    Cost: O(n * m) time in the worst case (much less in practice: Karp–Sipser first, then one
    alternating forest that is only partly rebuilt after each augmentation), about 10 ints
    per vertex of memory.

    >>> import numpy as np
    >>> indptr = np.array([0, 2, 4, 6]); indices = np.array([1, 2, 0, 2, 0, 1])  # a triangle
    >>> mate, in_d = general_matching(indptr, indices)
    >>> int((mate >= 0).sum()), in_d.tolist()
    (2, [True, True, True])
    """
    n = indptr.shape[0] - 1
    check_memory(n * (10 * indices.itemsize + 10), f"a maximum matching on {n} vertices")
    mate, _ = karp_sipser_general(indptr, indices)
    in_d = np.zeros(n, dtype=np.bool_)
    _edmonds(indptr, indices, mate, in_d)
    return mate, in_d
