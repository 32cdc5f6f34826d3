"""numba kernels behind :mod:`perfectplay.solvers.geography` (bipartite graphs).

All kernels read an undirected graph in CSR form (every edge stored in both directions) and
ignore self-loops. Work arrays are preallocated by the callers or at the top of a kernel, with
a comment saying why each one is big enough; every search is iterative (no recursion).
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np
from numpy.typing import NDArray

__all__ = [
    "alternating_reach",
    "component_without",
    "flip_to",
    "pothen_fan",
    "symmetry_violation",
    "two_colour",
]


@nb.njit(cache=True)
def _two_colour(indptr, indices, colour, queue):  # type: ignore[no-untyped-def]
    # `queue` has n slots: each vertex is enqueued once, when it is coloured. Returns -1, or a
    # vertex whose neighbour got its colour (the graph has an odd cycle through that edge).
    n = indptr.shape[0] - 1
    for root in range(n):
        if colour[root] >= 0:
            continue
        colour[root] = 0
        head = 0
        tail = 1
        queue[0] = root
        while head < tail:
            u = queue[head]
            head += 1
            cu = colour[u]
            for e in range(indptr[u], indptr[u + 1]):
                w = indices[e]
                if w == u:
                    continue
                if colour[w] < 0:
                    colour[w] = 1 - cu
                    queue[tail] = w
                    tail += 1
                elif colour[w] == cu:
                    return u
    return -1


def two_colour(indptr: NDArray[Any], indices: NDArray[Any]) -> tuple[int, NDArray[np.int8]]:
    """``(odd, colour)``: a 0/1 colouring by breadth-first search, self-loops ignored.

    ``odd`` is -1 when the graph is bipartite; otherwise it is a vertex on an odd cycle, the
    search stopped there and `colour` is partial. Cost: O(n + m) time, n bytes plus one int
    array of n entries.
    """
    n = indptr.shape[0] - 1
    colour = np.full(n, -1, dtype=np.int8)
    queue = np.empty(n, dtype=indices.dtype)
    return int(_two_colour(indptr, indices, colour, queue)), colour


@nb.njit(cache=True)
def _symmetry_violation(indptr, indices, rindptr, rindices, stamp):  # type: ignore[no-untyped-def]
    # `stamp[w] == u + 1` marks w as a successor (first pass) or predecessor (second pass) of u.
    n = indptr.shape[0] - 1
    for u in range(n):
        for e in range(indptr[u], indptr[u + 1]):
            stamp[indices[e]] = u + 1
        for e in range(rindptr[u], rindptr[u + 1]):
            if stamp[rindices[e]] != u + 1:
                return rindices[e], u
    stamp[:] = 0
    for u in range(n):
        for e in range(rindptr[u], rindptr[u + 1]):
            stamp[rindices[e]] = u + 1
        for e in range(indptr[u], indptr[u + 1]):
            if stamp[indices[e]] != u + 1:
                return u, indices[e]
    return -1, -1


def symmetry_violation(
    indptr: NDArray[Any], indices: NDArray[Any], rindptr: NDArray[Any], rindices: NDArray[Any]
) -> tuple[int, int]:
    """A move ``(u, v)`` whose twin ``v -> u`` is missing, or ``(-1, -1)`` if there is none.

    Multiplicities are ignored (a set of moves is compared with its reverse). Cost: O(n + m)
    time given the reverse CSR, one int64 array of n entries.
    """
    stamp = np.zeros(indptr.shape[0] - 1, dtype=np.int64)
    u, v = _symmetry_violation(indptr, indices, rindptr, rindices, stamp)
    return int(u), int(v)


@nb.njit(cache=True)
def _alternating_reach(indptr, indices, mate, colour, side, in_d, parent, queue):  # type: ignore[no-untyped-def]
    # `queue` has n slots: a vertex is enqueued once, when it is first marked in D.
    n = indptr.shape[0] - 1
    tail = 0
    for v in range(n):
        if mate[v] < 0 and colour[v] == side:
            in_d[v] = True
            queue[tail] = v
            tail += 1
    head = 0
    while head < tail:
        u = queue[head]
        head += 1
        for e in range(indptr[u], indptr[u + 1]):
            w = indices[e]
            if w == u:
                continue
            x = mate[w]
            if x >= 0 and not in_d[x]:
                in_d[x] = True
                parent[x] = u
                queue[tail] = x
                tail += 1


def alternating_reach(
    indptr: NDArray[Any],
    indices: NDArray[Any],
    mate: NDArray[Any],
    colour: NDArray[np.int8],
    side: int,
    in_d: NDArray[np.bool_],
    parent: NDArray[Any],
) -> None:
    """Mark in `in_d` the vertices of colour `side` that D(G) holds, given a maximum `mate`.

    They are the vertices reached from the exposed vertices of that colour by even alternating
    paths (in a bipartite graph each maximum matching misses such a vertex, and only those).
    ``parent[x]`` is set to the previous even vertex on such a path (the path runs
    ``parent[x], mate[x], x``); exposed vertices keep -1.

    Notes
    -----
    One breadth-first search from all exposed vertices of that colour at once: from an even
    vertex ``u`` it crosses any edge ``u - w`` and then the matching edge ``w - mate[w]``.
    Cost: O(n + m) time, one int array of n entries.
    """
    queue = np.empty(indptr.shape[0] - 1, dtype=indices.dtype)
    _alternating_reach(indptr, indices, mate, colour, side, in_d, parent, queue)


@nb.njit(cache=True)
def _flip_to(mate, parent, v, out):  # type: ignore[no-untyped-def]
    # Walk the even alternating path root, ..., parent[v], mate[v], v back from v, shifting
    # every matching edge one step towards the root; the path has at most n vertices.
    out[:] = mate
    out[v] = -1
    x = v
    while parent[x] >= 0:
        u = parent[x]
        w = mate[x]
        out[u] = w
        out[w] = u
        x = u


def flip_to(mate: NDArray[Any], parent: NDArray[Any], v: int) -> NDArray[Any]:
    """A maximum matching that misses `v`, from `mate` and the forest of :func:`alternating_reach`.

    `v` must lie in D(G). The even alternating path from an exposed vertex to `v` is flipped:
    the result has the same size and leaves `v` exposed. Cost: O(n) time (one copy).
    """
    out = np.empty_like(mate)
    _flip_to(mate, parent, v, out)
    return out


@nb.njit(cache=True)
def _component(indptr, indices, source, label, queue):  # type: ignore[no-untyped-def]
    # `queue` has n slots: each vertex is enqueued once; label[w] = its index in the component.
    label[source] = 0
    queue[0] = source
    head = 0
    tail = 1
    while head < tail:
        u = queue[head]
        head += 1
        for e in range(indptr[u], indptr[u + 1]):
            w = indices[e]
            if label[w] < 0:
                label[w] = tail
                queue[tail] = w
                tail += 1
    return tail


@nb.njit(cache=True)
def _induced(indptr, indices, vertices, label, drop, sub_indptr, sub_indices):  # type: ignore[no-untyped-def]
    # sub_indices is sized by the total degree of `vertices`, an upper bound on what is kept.
    k = 0
    for i in range(vertices.shape[0]):
        u = vertices[i]
        if u != drop:
            for e in range(indptr[u], indptr[u + 1]):
                w = indices[e]
                if w != u and w != drop:
                    sub_indices[k] = label[w]
                    k += 1
        sub_indptr[i + 1] = k
    return k


def component_without(
    indptr: NDArray[Any], indices: NDArray[Any], v: int
) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any]]:
    """``(vertices, sub_indptr, sub_indices)``: the connected component of `v`, `v` isolated.

    Vertex ``vertices[i]`` of the graph is vertex ``i`` of the subgraph (``vertices[0] == v``);
    the edges at `v` and all self-loops are left out. Cost: O(size of the component) time
    plus O(n) to allocate the labels.
    """
    n = indptr.shape[0] - 1
    label = np.full(n, -1, dtype=indices.dtype)
    queue = np.empty(n, dtype=indices.dtype)
    size = int(_component(indptr, indices, v, label, queue))
    vertices = queue[:size].copy()
    total = int((indptr[vertices + 1] - indptr[vertices]).sum())
    sub_indptr = np.zeros(size + 1, dtype=indptr.dtype)
    sub_indices = np.empty(total, dtype=indices.dtype)
    kept = int(_induced(indptr, indices, vertices, label, v, sub_indptr, sub_indices))
    return vertices, sub_indptr, sub_indices[:kept].copy()


@nb.njit(cache=True)
def _search(  # type: ignore[no-untyped-def]
    indptr, indices, mate, in_d, parent, look, ptr, seen, path, trail, held, held_at, state
):
    # One depth-first search from path[0] (already marked, in the tree of root = state[0]).
    # state = [root, search, first, forward, open, marked, nheld, budget]: the search marks
    # right vertices with its number; in a closed search a mark >= first (another search of
    # this phase) blocks the vertex and the left vertex meeting it is held for later; an open
    # search is blocked only by its own marks and deleted vertices, and spends `budget` edges.
    # ptr[k] is the next adjacency entry to scan at path[k] (kept by depth, not by vertex: the
    # path is read in order, so this costs no random access).
    # Returns 1 after augmenting, 0 if the search failed, -1 if the budget ran out.
    root, search, first, forward, opened = state[0], state[1], state[2], state[3], state[4]
    depth = 0
    while depth >= 0:
        a = path[depth]
        # Lookahead: an unmatched neighbour ends the search at once. A right vertex never
        # becomes unmatched again, so look[a] only moves forward, across phases.
        target = -1
        low = indptr[a]
        high = indptr[a + 1]
        e = look[a]
        while e < high:
            w = indices[e]
            e += 1
            if mate[w] < 0 and w != a:
                target = w
                break
        look[a] = e
        if target >= 0:
            seen[target] = search
            w = target
            for k in range(depth, -1, -1):
                b = path[k]
                previous = mate[b]
                mate[b] = w
                mate[w] = b
                w = previous
            c = path[0]
            while c != root:  # an open search starts inside the tree: finish by parents
                c = parent[c]
                previous = mate[c]
                mate[c] = w
                mate[w] = c
                w = previous
            return 1
        pushed = False
        e = ptr[depth]
        while low <= e < high:
            w = indices[e]
            e += 1 if forward else -1
            if opened:
                state[7] -= 1
                if state[7] < 0:
                    return -1
            if w == a or in_d[w] or seen[w] == search:
                continue
            if seen[w] >= first and not opened:
                if held_at[a] != search:  # blocked by another search of this phase
                    held_at[a] = search
                    held[state[6]] = a
                    state[6] += 1
                continue
            ptr[depth] = e
            seen[w] = search
            trail[state[5]] = w
            state[5] += 1
            x = mate[w]
            parent[x] = a
            depth += 1
            path[depth] = x
            ptr[depth] = indptr[x] if forward else indptr[x + 1] - 1
            pushed = True
            break
        if not pushed:
            depth -= 1
    return 0


@nb.njit(cache=True)
def _pothen_fan(  # type: ignore[no-untyped-def]
    indptr, indices, free, mate, in_d, parent, look, ptr, seen, path, trail, held, held_at
):
    # `free` lists the unmatched left vertices still worth a search (compacted after every
    # phase). The other arrays have n slots, indexed by vertex, by depth on the search path
    # (`ptr`; a path holds distinct vertices) or holding distinct vertices: `path` the left
    # vertices of the current search path (each entered through its own partner), `trail` the
    # right vertices the current search marked, `held` the left vertices where it was blocked
    # (each at most once per search: `held_at`). `in_d` doubles as the
    # mark of deleted vertices: the even (left) and odd (right) vertices of Hungarian trees.
    # Searches are numbered from 1 across all phases; seen[w] is the number of the last one
    # that marked w, so a mark >= `first` (this phase's first search) is this phase's.
    m = indices.shape[0]
    nfree = free.shape[0]
    added = 0
    phase = 0
    search = 0
    state = np.zeros(8, dtype=np.int64)
    work = (indptr, indices, mate, in_d, parent, look, ptr, seen, path, trail, held, held_at, state)
    while nfree > 0:
        phase += 1
        forward = phase % 2 == 1  # fairness: alternate the scanning direction
        first = search + 1
        budget = m + nfree  # edges open searches may scan this phase: O(m) per phase
        for i in range(nfree):
            root = free[i]
            search += 1
            state[0] = root
            state[1] = search
            state[2] = first
            state[3] = forward
            state[4] = 0
            state[5] = 0
            state[6] = 0
            state[7] = budget
            path[0] = root
            ptr[0] = indptr[root] if forward else indptr[root + 1] - 1
            found = _search(*work)
            # Blocked by other searches: go on through their vertices from where this search
            # was held (open search), while the phase's budget lasts.
            state[4] = 1
            j = 0
            while found == 0 and j < state[6]:
                a = held[j]
                j += 1
                path[0] = a
                ptr[0] = indptr[a] if forward else indptr[a + 1] - 1
                found = _search(*work)
            budget = max(state[7], 0)
            if found == 1:
                added += 1
            elif found == 0:
                # A Hungarian tree: every neighbour of its left vertices is in it or deleted.
                # No augmenting path can ever pass through it (Edmonds 1965): delete it. Its
                # left vertices are exactly those reached by even alternating paths from root.
                in_d[root] = True
                for k in range(state[5]):
                    in_d[trail[k]] = True
                    in_d[mate[trail[k]]] = True
        kept = 0
        for i in range(nfree):
            if mate[free[i]] < 0 and not in_d[free[i]]:
                free[kept] = free[i]
                kept += 1
        nfree = kept
    return added


def pothen_fan(
    indptr: NDArray[Any],
    indices: NDArray[Any],
    colour: NDArray[np.int8],
    mate: NDArray[Any],
    in_d: NDArray[np.bool_],
    parent: NDArray[Any],
) -> int:
    """Grow `mate` to a maximum matching of the bipartite graph and mark D(G) on the left.

    Parameters
    ----------
    indptr, indices : arrays of int
        The undirected graph in CSR form (both directions stored).
    colour : array of int8
        A proper 2-colouring (from :func:`two_colour`); colour 0 is the left side.
    mate : array of int
        A matching (``mate[v] = -1`` if unmatched), updated in place.
    in_d, parent : arrays
        Outputs (all False, all -1 on entry). On return ``in_d`` holds every left vertex that
        some maximum matching misses; for such a vertex x, ``parent[x]`` is the previous even
        vertex of an even alternating path from an exposed left vertex (``parent[x], mate[x],
        x``). On the right side ``in_d`` marks the odd vertices of those paths: the caller
        clears it there (see :func:`alternating_reach` for the right side's D(G)).

    Returns
    -------
    int
        The number of augmentations.

    Notes
    -----
    Pothen–Fan with lookahead and fairness (PF+): each phase runs one depth-first search from
    every unmatched left vertex, the searches of a phase vertex-disjoint (right vertices are
    marked when first reached); before descending, a vertex looks for an unmatched neighbour
    through a pointer that never moves back; successive phases scan adjacency lists in
    opposite directions. Two additions:

    * A search that fails having been blocked by another search of the phase goes on *through*
      that search's vertices, from the left vertices where it was blocked (an "open" search),
      while a budget of O(m) edge scans per phase lasts. So a search usually ends in an
      augmentation or in a Hungarian tree, instead of coming back in the next phase.
    * A search that fails having been blocked only by itself or by deleted vertices has grown
      a Hungarian tree, deleted for good: no augmenting path can ever use it (Edmonds 1965),
      its root is never searched again, and its left vertices are D(G)'s.

    Phases end when no search is left. Cost: O(n m) time in the worst case, in practice a few
    O(m) phases after a Karp–Sipser start; seven arrays of n entries (two of them int64).
    """
    n = indptr.shape[0] - 1
    free = np.flatnonzero((colour == 0) & (mate < 0)).astype(indices.dtype)
    look = indptr[:-1].copy()
    ptr = np.empty(n, dtype=indptr.dtype)
    seen = np.zeros(n, dtype=np.int64)
    path = np.empty(n, dtype=indices.dtype)
    trail = np.empty(n, dtype=indices.dtype)
    held = np.empty(n, dtype=indices.dtype)
    held_at = np.zeros(n, dtype=np.int64)
    args = (indptr, indices, free, mate, in_d, parent, look, ptr, seen, path, trail, held, held_at)
    return int(_pothen_fan(*args))
