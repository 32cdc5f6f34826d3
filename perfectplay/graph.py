"""`GameGraph`: the moves of an enumerated game in compressed sparse row (CSR) form.

Games build a GameGraph, solvers read one; they meet nowhere else. Positions are integers
``0..n-1``; the moves from position ``p`` go to ``indices[indptr[p]:indptr[p + 1]]``, with an
optional integer ``gain`` per move (what the mover scores by making it).

Examples
--------
>>> import numpy as np
>>> from perfectplay.graph import GameGraph
>>> g = GameGraph.from_edges([0, 0, 1], [1, 2, 2], n=3)
>>> g.n, g.m, g.moves(0).tolist()
(3, 3, [1, 2])
>>> g.predecessors(2).tolist()
[0, 1]
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from perfectplay._graph_kernels import (
    csr_from_edges,
    first_decrease,
    first_out_of_range,
    mark_reachable,
    reverse_csr,
)
from perfectplay._memory import check_memory
from perfectplay.errors import InvalidGraphError

__all__ = ["GameGraph", "as_game_graph"]

IntArray = NDArray[np.integer]


def _int_array(name: str, data: ArrayLike) -> IntArray:
    """`data` as a 1-D integer array, or InvalidGraphError naming `name`."""
    try:
        arr = np.asarray(data)
    except (ValueError, TypeError) as error:  # ragged nested lists
        raise InvalidGraphError(f"{name} must be a 1-D array of integers: {error}") from None
    if arr.ndim != 1:
        raise InvalidGraphError(f"{name} must be one-dimensional, got shape {arr.shape}")
    if arr.size == 0:
        return arr.astype(np.int64)
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        raise InvalidGraphError(f"{name} must hold integers, got dtype {arr.dtype}")
    return arr


def _check_range(name: str, arr: IntArray, n: int) -> None:
    """Every entry of `arr` lies in ``0..n-1``, else InvalidGraphError naming the first bad one."""
    i = int(first_out_of_range(arr, n))
    if i >= 0:
        raise InvalidGraphError(
            f"{name}[{i}] = {int(arr[i])} is not a position id (expected 0..{n - 1})"
        )


def _validate_csr(indptr: IntArray, indices: IntArray, n: int) -> None:
    """The one validator behind every constructor: CSR structure and id range."""
    if indptr.shape[0] != n + 1:
        raise InvalidGraphError(f"indptr must have n + 1 = {n + 1} entries, got {indptr.shape[0]}")
    if int(indptr[0]) != 0:
        raise InvalidGraphError(f"indptr[0] = {int(indptr[0])}, expected 0")
    i = int(first_decrease(indptr))
    if i >= 0:
        raise InvalidGraphError(
            f"indptr must be non-decreasing, but indptr[{i}] = {int(indptr[i])} "
            f"< indptr[{i - 1}] = {int(indptr[i - 1])}"
        )
    if int(indptr[-1]) != indices.shape[0]:
        raise InvalidGraphError(
            f"indptr[-1] = {int(indptr[-1])} must equal the number of moves {indices.shape[0]}"
        )
    _check_range("indices", indices, n)


def _check_n(n: int) -> int:
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 0:
        raise InvalidGraphError(f"n must be a non-negative integer, got {n!r}")
    return int(n)


class GameGraph:
    """The moves of a game with positions ``0..n-1``, in CSR form.

    Parameters
    ----------
    indptr : array of int, shape (n + 1,)
        Moves from position ``p`` are ``indices[indptr[p]:indptr[p + 1]]``.
    indices : array of int, shape (m,)
        Target position of each move.
    gain : array of int, shape (m,), optional
        What the player making each move scores by it (scored games only).
    labels : sequence, optional
        A name for each position (e.g. networkx node labels), for display only.
    undirected : bool
        True when every move ``u -> v`` has its twin ``v -> u`` (geography graphs).

    Notes
    -----
    Index arrays are int32 while they fit and int64 beyond ``2**31`` entries. The reverse CSR
    (predecessors) is built on first use by a counting sort, O(n + m).
    """

    __slots__ = ("_reverse", "gain", "indices", "indptr", "labels", "n", "undirected")

    def __init__(
        self,
        indptr: ArrayLike,
        indices: ArrayLike,
        *,
        gain: ArrayLike | None = None,
        labels: Sequence[Hashable] | None = None,
        undirected: bool = False,
    ) -> None:
        ip = _int_array("indptr", indptr)
        ix = _int_array("indices", indices)
        if ip.shape[0] == 0:
            raise InvalidGraphError("indptr must have at least one entry (n + 1 for n positions)")
        n = ip.shape[0] - 1
        _validate_csr(ip, ix, n)
        self.n: int = n
        self.indptr: IntArray = ip.astype(np.int32 if ix.shape[0] < 2**31 else np.int64, copy=False)
        self.indices: IntArray = ix.astype(np.int32 if n < 2**31 else np.int64, copy=False)
        self.gain: NDArray[np.int64] | None = None
        if gain is not None:
            g = _int_array("gain", gain)
            if g.shape[0] != ix.shape[0]:
                raise InvalidGraphError(
                    f"gain must have one entry per move ({ix.shape[0]}), got {g.shape[0]}"
                )
            self.gain = g.astype(np.int64, copy=False)
        if labels is not None and len(labels) != n:
            raise InvalidGraphError(f"labels must name all {n} positions, got {len(labels)}")
        self.labels = labels
        self.undirected = undirected
        self._reverse: tuple[IntArray, IntArray] | None = None

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_edges(
        cls,
        src: ArrayLike,
        dst: ArrayLike,
        n: int | None = None,
        *,
        gain: ArrayLike | None = None,
        undirected: bool = False,
        labels: Sequence[Hashable] | None = None,
    ) -> GameGraph:
        """Build from parallel arrays of moves ``src[i] -> dst[i]``.

        Parameters
        ----------
        src, dst : array of int
            Move endpoints. Multi-edges and self-loops are kept as given.
        n : int, optional
            Number of positions; defaults to ``max(src, dst) + 1``.
        gain : array of int, optional
            Per-move gain, in the same order as `src`.
        undirected : bool
            Treat each pair as an undirected edge: both directions become moves.

        Raises
        ------
        InvalidGraphError
            Mismatched lengths, non-integer dtypes, negative or out-of-range ids.

        Notes
        -----
        Cost: O(n + m) time by counting sort; the order of moves from a position follows the input.
        """
        s = _int_array("src", src)
        d = _int_array("dst", dst)
        if s.shape[0] != d.shape[0]:
            raise InvalidGraphError(
                f"src and dst must have the same length, got {s.shape[0]} and {d.shape[0]}"
            )
        if n is None:
            # initial=0, not -1: unsigned arrays cannot hold -1.
            n = int(max(s.max(initial=0), d.max(initial=0))) + 1 if s.shape[0] else 0
        n = _check_n(n)
        _check_range("src", s, n)
        _check_range("dst", d, n)
        g = None if gain is None else _int_array("gain", gain)
        if g is not None and g.shape[0] != s.shape[0]:
            raise InvalidGraphError(
                f"gain must have one entry per move ({s.shape[0]}), got {g.shape[0]}"
            )
        if undirected:
            s, d = np.concatenate([s, d]), np.concatenate([d, s])
            if g is not None:
                g = np.concatenate([g, g])
        m = s.shape[0]
        check_memory(16.0 * m + 8.0 * n, f"a graph of {n} positions and {m} moves")
        indptr, indices, order = csr_from_edges(s, d, n)
        gains = None if g is None else g[order]
        return cls(indptr, indices, gain=gains, labels=labels, undirected=undirected)

    @classmethod
    def from_scipy(cls, matrix: Any, *, undirected: bool = False) -> GameGraph:
        """Build from a square scipy sparse matrix: a stored entry ``(u, v)`` is a move ``u -> v``.

        Stored values are ignored (explicit zeros are moves too). With ``undirected=True`` the
        matrix is symmetrised.
        """
        shape = getattr(matrix, "shape", None)
        if shape is None or not hasattr(matrix, "tocoo"):
            raise InvalidGraphError(f"expected a scipy sparse matrix, got {type(matrix).__name__}")
        if len(shape) != 2 or shape[0] != shape[1]:
            raise InvalidGraphError(f"the adjacency matrix must be square, got shape {shape}")
        coo = matrix.tocoo()
        return cls.from_edges(coo.row, coo.col, n=shape[0], undirected=undirected)

    @classmethod
    def from_networkx(cls, graph: Any) -> GameGraph:
        """Build from a networkx graph; nodes are numbered in ``graph.nodes`` order.

        A DiGraph gives one move per edge (a MultiDiGraph one per parallel edge); an undirected
        Graph gives both directions. Node labels are kept in ``labels``.
        """
        if not hasattr(graph, "nodes") or not hasattr(graph, "edges"):
            raise InvalidGraphError(f"expected a networkx graph, got {type(graph).__name__}")
        nodes = list(graph.nodes)
        ids = {node: i for i, node in enumerate(nodes)}
        pairs = [(ids[u], ids[v]) for u, v in graph.edges()]  # (u, v), also for multigraphs
        edges = np.array(pairs, dtype=np.int64).reshape(-1, 2)
        return cls.from_edges(
            edges[:, 0],
            edges[:, 1],
            n=len(nodes),
            undirected=not graph.is_directed(),
            labels=nodes,
        )

    # ------------------------------------------------------------------ queries
    @property
    def m(self) -> int:
        """Number of moves (directed edges)."""
        return int(self.indices.shape[0])

    def moves(self, p: int) -> IntArray:
        """Positions reachable from `p` in one move."""
        return self.indices[self.indptr[p] : self.indptr[p + 1]]

    def out_degree(self) -> IntArray:
        """Number of moves from each position."""
        return np.diff(self.indptr)

    def reverse(self) -> tuple[IntArray, IntArray]:
        """``(rindptr, rindices)``: CSR of predecessors, built once (numba counting sort).

        Cost: O(n + m) time; the result takes as much memory as ``indptr`` and ``indices``, and
        the build briefly needs twice the size of ``indices`` more.
        """
        if self._reverse is None:
            width = self.indices.itemsize
            check_memory(3.0 * width * self.m + self.indptr.nbytes, f"the reverse of {self!r}")
            self._reverse = reverse_csr(self.indptr, self.indices)
        return self._reverse

    def reachable(self, sources: ArrayLike) -> NDArray[np.bool_]:
        """Per position: can some sequence of moves lead there from one of `sources`?

        The sources themselves count as reached. Cost: O(n + m), one numba depth-first search.

        >>> GameGraph.from_edges([0, 1, 3], [1, 2, 0], n=5).reachable([1]).tolist()
        [False, True, True, False, False]

        Raises
        ------
        InvalidGraphError
            If a source is not a position id.
        """
        starts = _int_array("sources", sources)
        _check_range("sources", starts, self.n)
        seen = np.zeros(self.n, dtype=np.bool_)
        stack = np.empty(self.n, dtype=np.int64)  # each position is pushed at most once
        mark_reachable(self.indptr, self.indices, starts, seen, stack)
        return seen

    def predecessors(self, p: int) -> IntArray:
        """Positions with a move into `p`, in increasing order."""
        rindptr, rindices = self.reverse()
        return rindices[rindptr[p] : rindptr[p + 1]]

    def __repr__(self) -> str:
        kind = "undirected, " if self.undirected else ""
        scored = ", scored" if self.gain is not None else ""
        return f"<GameGraph {kind}n={self.n}, m={self.m}{scored}>"


def as_game_graph(obj: Any, *, undirected: bool = False) -> GameGraph:
    """Normalise a GameGraph, a scipy sparse matrix, a networkx graph or an edge pair.

    The edge pair form is ``(src, dst)`` or an ``(m, 2)`` integer array.

    >>> as_game_graph([(0, 1), (1, 2)])
    <GameGraph n=3, m=2>
    """
    if isinstance(obj, GameGraph):
        return obj
    if hasattr(obj, "tocoo"):
        return GameGraph.from_scipy(obj, undirected=undirected)
    if hasattr(obj, "nodes") and hasattr(obj, "is_directed"):
        return GameGraph.from_networkx(obj)
    try:
        arr = np.asarray(obj)
    except (ValueError, TypeError) as error:  # ragged nested lists
        raise InvalidGraphError(
            f"cannot read a game graph from {type(obj).__name__}: {error}"
        ) from None
    if arr.ndim == 2 and arr.shape[1] == 2:
        return GameGraph.from_edges(arr[:, 0], arr[:, 1], undirected=undirected)
    if arr.ndim == 2 and arr.shape[0] == 2:
        return GameGraph.from_edges(arr[0], arr[1], undirected=undirected)
    if arr.size == 0:
        return GameGraph.from_edges([], [], n=0, undirected=undirected)
    raise InvalidGraphError(
        f"cannot read a game graph from {type(obj).__name__} of shape {arr.shape}: "
        "expected a GameGraph, scipy sparse matrix, networkx graph or (m, 2) edge array"
    )
