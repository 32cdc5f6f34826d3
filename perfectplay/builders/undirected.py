"""Vertex geography on any explicit undirected graph, given by its edge list.

A token stands on a vertex; a move takes it along an edge to a vertex never visited before
(the start counts as visited); the player who cannot move loses. The player to move from ``v``
wins iff every maximum matching of the graph covers ``v``, that is iff ``v`` is not in the
Gallai-Edmonds set ``D(G)`` (Fraenkel, Scheinerman and Ullman, 1993).

Repeated edges are merged and self-loops dropped: neither changes any play (a loop leads back
to a visited vertex).

Examples
--------
>>> game = Geography(4, [0, 1, 2, 1], [1, 2, 0, 0])  # a triangle, edge 0-1 twice, vertex 3 alone
>>> game.graph()
<GameGraph undirected, n=4, m=6>
>>> print(game.draw(0))
vertex 0 -> 1 2
>>> peaks = Geography.bipartite(2, 3, [0, 1], [2, 2])  # peaks 0, 1; valleys 2, 3, 4 (ids 2..4)
>>> peaks.n, peaks.graph().moves(4).tolist()
(5, [0, 1])
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from perfectplay._memory import check_memory
from perfectplay.builders._undirected_kernels import merge_repeats
from perfectplay.errors import InvalidGraphError, TooLargeError
from perfectplay.graph import GameGraph
from perfectplay.values import Position

__all__ = ["Geography"]


def _ids(name: str, data: ArrayLike, n: int) -> NDArray[np.int64]:
    """`data` as int64 vertex ids in ``0..n-1``, else InvalidGraphError naming the first bad one."""
    arr = np.asarray(data)
    if arr.size == 0:
        return np.empty(0, dtype=np.int64)
    if arr.ndim != 1 or arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        raise InvalidGraphError(f"{name} must be a 1-D array of integers, got {arr.dtype}")
    bad = np.flatnonzero((arr < 0) | (arr >= n))
    if bad.size:
        k = int(bad[0])
        raise InvalidGraphError(
            f"{name}[{k}] = {int(arr[k])} is not a vertex (expected 0..{n - 1})"
        )
    return arr.astype(np.int64, copy=False)


class Geography:
    """Vertex geography on an undirected graph with vertices ``0..n-1``.

    Parameters
    ----------
    n : int
        Number of vertices.
    u, v : array of int
        Edge ``k`` joins ``u[k]`` and ``v[k]``.
    labels : sequence, optional
        A display name per vertex.

    Raises
    ------
    InvalidGraphError
        Negative `n`, arrays of different lengths or non-integers, or an id out of range.
    TooLargeError
        If the graph would not fit in memory (checked before building).

    Notes
    -----
    Cost: O(n + m): a counting sort into CSR form, then one pass (numba) merging repeated
    moves of each vertex.
    """

    __slots__ = ("_graph", "labels", "n")

    def __init__(
        self, n: int, u: ArrayLike, v: ArrayLike, *, labels: Sequence[Hashable] | None = None
    ) -> None:
        if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 0:
            raise InvalidGraphError(f"n must be a non-negative integer, got {n!r}")
        if n >= 2**31:
            raise TooLargeError(f"a graph of {n} vertices is too large (at most 2**31 - 1)")
        a = _ids("u", u, int(n))
        b = _ids("v", v, int(n))
        if a.shape != b.shape:
            raise InvalidGraphError(
                f"u and v must have the same length, got {a.shape[0]} and {b.shape[0]}"
            )
        check_memory(40.0 * a.shape[0] + 16.0 * int(n), f"a graph of {a.shape[0]} edges")
        keep = a != b
        self.n = int(n)
        self.labels = labels
        multi = GameGraph.from_edges(a[keep], b[keep], n=self.n, undirected=True)
        # Merging repeated moves can only shrink each row: m slots are enough.
        indptr = np.zeros(self.n + 1, dtype=np.int64)
        indices = np.empty(multi.m, dtype=multi.indices.dtype)
        merge_repeats(multi.indptr, multi.indices, indptr, indices, np.full(self.n, -1))
        del multi
        self._graph = GameGraph(indptr, indices[: int(indptr[-1])], undirected=True, labels=labels)

    @staticmethod
    def bytes_to_solve(vertices: int, edges: int) -> float:
        """Peak bytes to build a geography graph of `vertices` and `edges` given and solve it
        with :func:`~perfectplay.solvers.geography.solve_geography`: what the constructor
        checks for (16 per vertex, 40 per edge) plus the solver's check (64 per vertex), with
        headroom (measured: 58 bytes per vertex at the peak with blossoms, 24 on a bipartite
        graph, 10^7 to 3*10^7 vertices). For readers that refuse such work before reading it
        into anything.

        >>> Geography.bytes_to_solve(10, 3)
        1024.0
        """
        return 88.0 * vertices + 48.0 * edges

    @classmethod
    def bipartite(
        cls, left: int, right: int, left_end: ArrayLike, right_end: ArrayLike
    ) -> Geography:
        """Geography on a bipartite graph: left vertices ``0..left-1``, right vertices get ids
        ``left..left+right-1``; edge ``k`` joins left ``left_end[k]`` and right ``right_end[k]``
        (both numbered from 0 on their own side).

        Raises
        ------
        InvalidGraphError
            An id out of range on its side.
        """
        a = _ids("left_end", left_end, left)
        b = _ids("right_end", right_end, right)
        return cls(left + right, a, b + left)

    def graph(self) -> GameGraph:
        """The position graph: the graph itself, each edge stored in both directions."""
        return self._graph

    def encode(self, label: Hashable) -> Position:
        """The vertex id of `label` (the id itself when the graph has no labels).

        Raises
        ------
        InvalidGraphError
            If no vertex has that label or id.
        """
        if self.labels is None:
            if isinstance(label, int | np.integer) and 0 <= int(label) < self.n:
                return int(label)
        elif label in self.labels:
            return list(self.labels).index(label)
        raise InvalidGraphError(f"no vertex {label!r} in a graph of {self.n} vertices")

    def decode(self, position: Position) -> Hashable:
        """The label (or id) of vertex `position`."""
        if not 0 <= position < self.n:
            raise InvalidGraphError(f"vertex {position} is out of range 0..{self.n - 1}")
        return position if self.labels is None else self.labels[position]

    def draw(self, position: Position) -> str:
        """One line: the token's vertex and the vertices it can move to (in id order)."""
        here = self.decode(position)
        moves = " ".join(str(self.decode(int(w))) for w in np.sort(self._graph.moves(position)))
        return f"vertex {here} -> {moves}".rstrip()

    def __repr__(self) -> str:
        return f"<Geography n={self.n}, {self._graph.m // 2} edges>"
