"""Undirected vertex geography, solved by maximum matching.

A token sits on a vertex of an undirected graph; that vertex counts as visited. The players
alternate moving the token to an adjacent vertex that was never visited; the player who must
move and cannot, loses. Theorem (Fraenkel, Scheinerman and Ullman 1993): **the player to move
from v wins iff every maximum matching of the graph covers v**, i.e. iff v is not in the
Gallai–Edmonds set D(G) of vertices that some maximum matching misses. Only the connected
component of v matters.

:func:`solve_geography` 2-colours the graph, then calls :func:`solve_geography_bipartite`
(Karp–Sipser start, Pothen–Fan augmenting searches, one alternating-path search) or
:func:`solve_geography_general` (Edmonds' blossoms) and returns a :class:`GeographyResult`
with the value of every start vertex and both players' perfect strategies.

Examples
--------
>>> from perfectplay.solvers.geography import solve_geography
>>> result = solve_geography([(0, 1), (1, 2)])      # the path 0 - 1 - 2
>>> result.mover_wins.tolist()
[False, True, False]
>>> result.winning_move(1) in (0, 2)
True
>>> result.reply(0, 1)                              # the mover went 0 -> 1; answer 1 -> 2
2

References
----------
A. S. Fraenkel, E. R. Scheinerman, D. Ullman, "Undirected edge geography", Theoretical
Computer Science 112 (1993) 371-381, doi:10.1016/0304-3975(93)90026-P.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from perfectplay._memory import check_memory
from perfectplay.errors import InvalidGraphError, LosingPositionError, PositionNotFoundError
from perfectplay.graph import GameGraph, as_game_graph
from perfectplay.solvers._bipartite import (
    alternating_reach,
    component_without,
    flip_to,
    pothen_fan,
    symmetry_violation,
    two_colour,
)
from perfectplay.solvers._greedy_matching import greedy_matching, karp_sipser
from perfectplay.values import LOSE, VALUE_DTYPE, WIN

__all__ = [
    "GeographyResult",
    "recording",
    "solve_geography",
    "solve_geography_bipartite",
    "solve_geography_general",
]

DENSE_DEGREE = 6
"""From this mean degree on, a one-pass greedy start replaces Karp–Sipser (measured: on a
random bipartite graph of mean degree 10 it halves the start-up cost and the searches stay
short; on walled grids Karp–Sipser's degree-one rule saves two thirds of the augmentations)."""
GENERAL_ALGORITHM = "edmonds-blossom"


@dataclass(frozen=True, eq=False)
class GeographyResult:
    """Perfect play of vertex geography on one undirected graph, for every start vertex.

    The game "starts at v" with the token on v, v visited, and the *mover* to play.

    Notes
    -----
    **Why moving along a maximum matching wins.** Let M be a maximum matching that covers the
    start vertex v (every maximum matching does when v is not in D(G)). The mover always plays
    the M-partner of the token's vertex: v0 = v, v1 = M(v0), then the opponent picks v2,
    the mover plays v3 = M(v2), and so on. The visited vertices v0..v(2k-1) are always matched
    to one another in pairs, so a fresh vertex v(2k) chosen by the opponent cannot have its
    partner among them. And v(2k) is never exposed by M: otherwise v0 v1 ... v(2k) would be an
    even alternating path from v (starting with an M-edge) to an exposed vertex, and flipping it
    would give a maximum matching that misses v, i.e. v in D(G). So the mover always has a
    move, the game is finite, and the opponent is the one who gets stuck.

    **Why the second player wins from D(G).** If v is in D(G), let M_v be a maximum matching
    missing v; it is obtained from M by flipping an even alternating path from an M-exposed
    vertex to v. The second player answers every move to w by M_v(w). Whenever the mover steps
    onto a fresh vertex w(2k+1), it is matched by M_v (else v w1 ... w(2k+1) would be an
    augmenting path for M_v, which is maximum) and its partner is fresh (the visited vertices
    other than v are paired among themselves). So the mover gets stuck first.
    """

    graph: GameGraph
    """The undirected graph that was solved (self-loops never matter: a move to the token's
    own, visited vertex is never legal)."""
    mover_wins: NDArray[np.bool_]
    """``mover_wins[v]``: the player to move with the token on v (v visited) wins."""
    mate: NDArray[np.integer]
    """A maximum matching: ``mate[v]`` is v's partner, -1 if v is unmatched."""
    in_d: NDArray[np.bool_]
    """``in_d[v]``: some maximum matching misses v (v is in the Gallai–Edmonds set D(G))."""
    bipartite: bool
    """Whether the graph is bipartite (and the bipartite algorithm was used)."""
    algorithm: str
    """Which matching algorithm produced `mate`."""
    _parent: NDArray[np.integer] | None = field(default=None, repr=False)
    _missing: dict[int, NDArray[np.integer]] = field(default_factory=dict, repr=False)

    @property
    def value(self) -> NDArray[np.uint8]:
        """:class:`~perfectplay.values.Value` (WIN or LOSE) of each start for the player to move."""
        return np.where(self.in_d, LOSE, WIN).astype(VALUE_DTYPE)

    @property
    def matching_size(self) -> int:
        """The number of edges of a maximum matching."""
        return int(np.count_nonzero(self.mate >= 0)) // 2

    def __repr__(self) -> str:
        wins = int(np.count_nonzero(~self.in_d))
        return (
            f"<GeographyResult n={self.graph.n}, matching_size={self.matching_size}, "
            f"mover wins from {wins}, algorithm={self.algorithm!r}>"
        )

    def _repr_svg_(self) -> str | None:
        """The graph with its maximum matching, D(G) and winning arrows, as SVG (notebooks);
        None (plain text instead) beyond 2500 vertices.

        >>> from perfectplay.solvers.geography import solve_geography
        >>> solve_geography([(0, 1), (1, 2)])._repr_svg_().count('class="matching"')
        1
        """
        from perfectplay.draw.geography import geography_svg
        from perfectplay.errors import PictureTooLargeError

        try:
            return geography_svg(self)
        except PictureTooLargeError:
            return None

    def _vertex(self, v: int, what: str) -> int:
        if isinstance(v, bool) or not isinstance(v, int | np.integer) or not 0 <= v < self.graph.n:
            raise PositionNotFoundError(
                f"{what} = {v!r} is not a vertex (expected 0..{self.graph.n - 1})"
            )
        return int(v)

    def winning_move(self, v: int) -> int:
        """The mover's winning first move from start vertex `v`: its partner in :attr:`mate`.

        Parameters
        ----------
        v : int
            A start vertex with ``mover_wins[v]``.

        Returns
        -------
        int
            The vertex to move to. Later answers come from :meth:`reply` (``reply(v, w)``).

        Raises
        ------
        LosingPositionError
            If the player to move from `v` loses (v is in D(G)).
        PositionNotFoundError
            If `v` is not a vertex.

        Examples
        --------
        >>> from perfectplay.solvers.geography import solve_geography
        >>> solve_geography([(0, 1), (1, 2)]).winning_move(0)
        Traceback (most recent call last):
        ...
        perfectplay.errors.LosingPositionError: the player to move from vertex 0 loses ...
        """
        v = self._vertex(v, "v")
        if self.in_d[v]:
            raise LosingPositionError(
                f"the player to move from vertex {v} loses (some maximum matching misses it): "
                "there is no winning move"
            )
        return int(self.mate[v])

    def reply(self, v: int, w: int) -> int | None:
        """The winning player's move at `w` in the game that started at `v`.

        If the mover wins from `v`, this is the mover's answer after the opponent moved to `w`
        (``reply(v, v)`` is the first move): ``mate[w]``. If the mover loses from `v`, this is
        the second player's answer after the mover moved to `w`: ``M_v[w]`` for a maximum
        matching M_v that misses `v` (computed once per `v` and cached). See the class notes for
        why the answer is always a fresh vertex in correct play.

        Returns
        -------
        int or None
            The vertex to move to, or None if `w` has no partner (which cannot happen while
            the losing side only makes legal moves).

        Raises
        ------
        PositionNotFoundError
            If `v` or `w` is not a vertex.

        Notes
        -----
        Cost: O(1) when the mover wins from `v`; otherwise, on the first call for `v`, O(n)
        on a bipartite graph (flip one stored alternating path) and one maximum matching of
        the component of `v` on a general graph.
        """
        v = self._vertex(v, "v")
        w = self._vertex(w, "w")
        mate = self._matching_missing(v) if self.in_d[v] else self.mate
        partner = int(mate[w])
        return None if partner < 0 else partner

    def _matching_missing(self, v: int) -> NDArray[np.integer]:
        """A maximum matching of the graph that leaves `v` (in D(G)) exposed, cached."""
        cached = self._missing.get(v)
        if cached is not None:
            return cached
        if self.mate[v] < 0:
            missing = self.mate
        elif self._parent is not None:
            missing = flip_to(self.mate, self._parent, v)
        else:
            missing = _general_missing(self.graph, self.mate, v)
        self._missing[v] = missing
        return missing


def _general_missing(graph: GameGraph, mate: NDArray[np.integer], v: int) -> NDArray[np.integer]:
    """`mate` with the component of `v` rematched by a maximum matching of that component - v."""
    from perfectplay.solvers._blossom import general_matching

    vertices, sub_indptr, sub_indices = component_without(graph.indptr, graph.indices, v)
    sub_mate, _ = general_matching(sub_indptr, sub_indices)
    missing = mate.copy()
    partner = np.asarray(sub_mate)
    missing[vertices] = np.where(partner >= 0, vertices[np.maximum(partner, 0)], -1)
    return missing


def _undirected(graph: Any) -> GameGraph:
    """`graph` as an undirected GameGraph; a directed one must hold every move's twin."""
    g = as_game_graph(graph, undirected=True)
    if not g.undirected:
        rindptr, rindices = g.reverse()
        u, w = symmetry_violation(g.indptr, g.indices, rindptr, rindices)
        if u >= 0:
            raise InvalidGraphError(
                f"geography needs an undirected graph, but the move {u} -> {w} "
                f"has no twin {w} -> {u}"
            )
    # Peak: the graph plus about eight arrays of n entries (mate, D, parents, search state).
    check_memory(8.0 * 8 * g.n, f"geography on a graph of {g.n} vertices")
    return g


def _bipartite_result(g: GameGraph, colour: NDArray[np.int8]) -> GeographyResult:
    mate = np.full(g.n, -1, dtype=g.indices.dtype)
    in_d = np.zeros(g.n, dtype=np.bool_)
    parent = np.full(g.n, -1, dtype=g.indices.dtype)
    if g.m >= DENSE_DEGREE * g.n:
        greedy_matching(g.indptr, g.indices, mate)
        algorithm = "greedy+pothen-fan"
    else:
        karp_sipser(g.indptr, g.indices, mate)
        algorithm = "karp-sipser+pothen-fan"
    pothen_fan(g.indptr, g.indices, colour, mate, in_d, parent)
    in_d[colour == 1] = False
    alternating_reach(g.indptr, g.indices, mate, colour, 1, in_d, parent)
    return GeographyResult(g, ~in_d, mate, in_d, True, algorithm, parent)


def _general_result(g: GameGraph) -> GeographyResult:
    from perfectplay.solvers._blossom import general_matching

    mate, in_d = general_matching(g.indptr, g.indices)
    d = np.asarray(in_d, dtype=np.bool_)
    return GeographyResult(g, ~d, np.asarray(mate), d, False, GENERAL_ALGORITHM)


def solve_geography(graph: Any) -> GeographyResult:
    """Solve vertex geography from every start vertex of an undirected graph.

    Parameters
    ----------
    graph : GameGraph, edge array, scipy sparse matrix or networkx Graph
        Anything :func:`~perfectplay.graph.as_game_graph` accepts, read as undirected: an
        ``(m, 2)`` edge array or a sparse matrix is symmetrised; a GameGraph built with
        ``undirected=True`` is trusted; any other GameGraph (or a networkx DiGraph) must hold
        the twin ``v -> u`` of every move ``u -> v``. Self-loops are ignored (the token's
        own vertex is visited, so a loop is never a legal move); multi-edges count once.

    Returns
    -------
    GeographyResult
        ``mover_wins`` per start vertex, a maximum matching, D(G), and both strategies.

    Raises
    ------
    InvalidGraphError
        A malformed graph, or a directed one with a move whose twin is missing.
    TooLargeError
        The work would not fit in memory.

    Notes
    -----
    The graph is 2-coloured by breadth-first search; a bipartite graph goes to
    :func:`solve_geography_bipartite`, any other to :func:`solve_geography_general`.
    Cost: O(n + m) for the colouring, then that of the chosen solver.

    Examples
    --------
    >>> import networkx as nx
    >>> result = solve_geography(nx.cycle_graph(5))          # odd cycle: a blossom
    >>> result.mover_wins.tolist(), result.bipartite
    ([False, False, False, False, False], False)
    >>> bool(solve_geography(nx.cycle_graph(4)).mover_wins.all())  # perfect matching
    True
    """
    g = _undirected(graph)
    odd, colour = two_colour(g.indptr, g.indices)
    result = _bipartite_result(g, colour) if odd < 0 else _general_result(g)
    recorded = _RECORDED.get()
    if recorded is not None:
        recorded.append(result)
    return result


_RECORDED: ContextVar[list[GeographyResult] | None] = ContextVar("recorded", default=None)


@contextmanager
def recording() -> Iterator[list[GeographyResult]]:
    """Collect every result :func:`solve_geography` returns inside the ``with`` block.

    How ``perfectplay problem NAME --certificate FILE`` gets the results a problem computed,
    to write their certificates (:mod:`perfectplay.solvers.certificate`).

    >>> with recording() as results:
    ...     _ = solve_geography([(0, 1)])
    >>> len(results), results[0].matching_size
    (1, 1)
    """
    results: list[GeographyResult] = []
    token = _RECORDED.set(results)
    try:
        yield results
    finally:
        _RECORDED.reset(token)


def solve_geography_bipartite(graph: Any) -> GeographyResult:
    """Solve vertex geography on a bipartite graph by Karp–Sipser and Pothen–Fan matching.

    Parameters
    ----------
    graph : GameGraph, edge array, scipy sparse matrix or networkx Graph
        As for :func:`solve_geography`; it must be bipartite (self-loops are ignored).

    Returns
    -------
    GeographyResult
        With ``bipartite=True`` and ``algorithm="karp-sipser+pothen-fan"`` (or
        ``"greedy+pothen-fan"`` from mean degree 6 on).

    Raises
    ------
    InvalidGraphError
        A malformed or directed graph, or one with an odd cycle (the message names a vertex
        on it).

    Notes
    -----
    1. 2-colouring by breadth-first search, O(n + m).
    2. Karp–Sipser greedy start (vertices of live degree one are matched first), O(n + m);
       from mean degree 6 on, a one-pass greedy start (least-degree neighbour) instead.
    3. Pothen–Fan phases (PF+: lookahead, fairness): one depth-first search per unmatched left
       vertex, vertex-disjoint within a phase; a search blocked by another one goes on through
       its vertices while an O(m) budget per phase lasts. A search that fails, blocked only by
       itself or by deleted vertices, has grown a Hungarian tree: it is deleted for good (no
       augmenting path can ever use it), its root is never searched again, and its left
       vertices are exactly D(G)'s left vertices. O(n m) worst case; in practice a few O(m)
       phases.
    4. D(G) on the right side = the vertices reached from the exposed right vertices by even
       alternating paths: ONE breadth-first search from all of them at once, O(n + m).

    Hopcroft–Karp (O(m sqrt(n))) is not used: on grids with walls its shortest-path phases
    find few of the long augmenting paths, 170 s against 2 s on the 2000 x 2000 benchmark
    grid. Memory: the graph plus about eight arrays of n entries
    (int32, int64 search stamps).

    Examples
    --------
    >>> r = solve_geography_bipartite([(0, 1), (0, 2), (0, 3)])  # a star
    >>> r.mover_wins.tolist(), r.matching_size
    ([True, False, False, False], 1)
    """
    g = _undirected(graph)
    odd, colour = two_colour(g.indptr, g.indices)
    if odd >= 0:
        raise InvalidGraphError(f"the graph is not bipartite: an odd cycle passes vertex {odd}")
    return _bipartite_result(g, colour)


def solve_geography_general(graph: Any) -> GeographyResult:
    """Solve vertex geography on any undirected graph by Edmonds' blossom algorithm.

    Parameters
    ----------
    graph : GameGraph, edge array, scipy sparse matrix or networkx Graph
        As for :func:`solve_geography`.

    Returns
    -------
    GeographyResult
        With ``bipartite=False`` and ``algorithm="edmonds-blossom"`` (also for a bipartite
        input: this function never takes the bipartite route).

    Raises
    ------
    InvalidGraphError
        A malformed or directed graph.

    Notes
    -----
    The blossom kernel returns a maximum matching and the Gallai–Edmonds set D(G) (the
    vertices left even, i.e. reachable by an even alternating path, when the last search
    fails). Cost: that of the kernel, O(n m) worst case.

    Examples
    --------
    >>> r = solve_geography_general([(0, 1), (1, 2), (2, 0), (2, 3), (3, 4)])  # triangle + tail
    >>> r.mover_wins.tolist()
    [False, False, False, True, False]
    """
    return _general_result(_undirected(graph))
