"""Minimax over acyclic game graphs: value, remoteness and (for scored games) the best score.

One sweep in reverse topological order decides every position from its children, so each move
is read once. Values and remoteness follow exactly the rules of the retrograde solver
(:func:`perfectplay.solvers.retrograde.solve_retrograde`), which also handles cycles; on an
acyclic graph both give the same arrays. Scored games (per-move gains and/or terminal scores)
also get, for every position, the best (own - opponent) total the player to move can force.

Examples
--------
>>> from perfectplay.graph import GameGraph
>>> from perfectplay.solvers.dag import solve_dag
>>> g = GameGraph.from_edges([0, 0, 1], [1, 2, 2], n=3, gain=[1, 5, 3])
>>> s = solve_dag(g)
>>> s.value.tolist(), s.remoteness.tolist(), s.score.tolist()
([3, 3, 0], [1, 1, 0], [5, 3, 0])
>>> s.best_moves(0)
[2]
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from perfectplay._memory import check_memory
from perfectplay.errors import CyclicGraphError, InvalidGraphError, ScoreOverflowError
from perfectplay.graph import GameGraph
from perfectplay.solution import Solution
from perfectplay.solvers import _dag_kernels as kernels
from perfectplay.solvers.retrograde import primitive_values
from perfectplay.values import LOSE, REMOTENESS_DTYPE, VALUE_DTYPE, WIN

__all__ = ["solve_dag", "topological_order"]

_EMPTY_INT64 = np.empty(0, dtype=np.int64)
_EMPTY_UINT8 = np.empty(0, dtype=VALUE_DTYPE)
_CYCLE_SHOWN = 8


def _cycle_error(
    graph: GameGraph, primitive: NDArray[np.uint8], indegree: NDArray[np.integer]
) -> CyclicGraphError:
    """The CyclicGraphError for a graph on which Kahn's algorithm got stuck, naming a cycle."""
    rindptr, rindices = graph.reverse()
    walk = np.empty(graph.n, dtype=np.int64)
    length = int(kernels.cycle_witness(rindptr, rindices, primitive, indegree, walk))
    cycle = walk[:length].tolist()
    shown = " -> ".join(map(str, cycle[:_CYCLE_SHOWN]))
    more = " -> ..." if length > _CYCLE_SHOWN else ""
    return CyclicGraphError(
        f"the game graph has a cycle through position {cycle[0]} "
        f"({shown}{more} -> {cycle[0]}); "
        "solve cyclic graphs with perfectplay.solvers.retrograde.solve_retrograde",
        cycle=tuple(cycle),
    )


class _Order(NamedTuple):
    """Kahn's order, and the moves (and gains) copied in that order."""

    order: NDArray[np.integer]
    kptr: NDArray[np.integer]
    kids: NDArray[np.integer]
    kgain: NDArray[np.int64]


def _kahn(graph: GameGraph, primitive: NDArray[np.uint8], gains: bool) -> _Order:
    """Kahn's order of `graph` (moves out of primitive positions ignored), or CyclicGraphError.

    Also the moves in that order, with their gains if `gains`, for
    :func:`kernels.sweep_ordered`.
    """
    n, m = graph.n, graph.m
    id_dtype = graph.indices.dtype  # int32 while ids fit: half the random-access footprint
    gain = graph.gain if gains and graph.gain is not None else _EMPTY_INT64
    per_move = id_dtype.itemsize + 8 * min(gain.size, 1)
    pointer = graph.indptr.dtype.itemsize
    per_position = id_dtype.itemsize + 1.125 + 2 * pointer
    check_memory(per_position * n + per_move * m, f"a topological order of {n} positions")
    # One-byte counters stay in cache; the excess of the few positions with more than 255
    # moves in goes to a wide array, zeroed lazily by the OS: only its touched pages cost.
    indegree = np.zeros(n, dtype=np.uint8)
    excess = np.zeros(n, dtype=graph.indptr.dtype)
    kernels.count_indegree(graph.indptr, graph.indices, primitive, indegree, excess)
    order = np.empty(n + 1, dtype=id_dtype)
    bits = np.zeros((n + 63) // 64, dtype=np.uint64)  # one bit per position
    kptr = np.empty(n + 1, dtype=graph.indptr.dtype)
    kids = np.empty(m, dtype=id_dtype)
    kgain = np.empty(gain.size, dtype=np.int64)
    placed = int(
        kernels.kahn_order(
            graph.indptr, graph.indices, primitive, order, indegree, excess, bits, kptr, kids,
            gain, kgain,
        )
    )  # fmt: skip
    if placed < n:
        raise _cycle_error(graph, primitive, indegree)
    return _Order(order[:n], kptr, kids, kgain)


def topological_order(graph: GameGraph) -> NDArray[np.int64]:
    """Positions in an order where every move goes to a later position.

    Parameters
    ----------
    graph : GameGraph
        The game graph.

    Returns
    -------
    ndarray of int64, shape (n,)
        A topological order: the ids themselves (ascending or descending) when every move
        already goes to a larger (smaller) id, otherwise Kahn's order.

    Raises
    ------
    CyclicGraphError
        If the graph has a cycle; the message names the positions of one cycle.

    Notes
    -----
    Cost: O(m) to test whether the numbering is monotone, O(n + m) for Kahn's algorithm
    (numba; while ids fit in int32, per position 5 bytes, 1 bit and one move pointer, plus
    one more pointer reserved but touched only near positions with over 255 moves in; and a
    4-byte copy of each move), plus O(n + m) for the reverse graph when a cycle must be named.

    Examples
    --------
    >>> from perfectplay.graph import GameGraph
    >>> topological_order(GameGraph.from_edges([2, 0], [0, 1], n=3)).tolist()
    [2, 0, 1]
    >>> topological_order(GameGraph.from_edges([0, 1], [1, 0], n=2))
    Traceback (most recent call last):
    ...
    perfectplay.errors.CyclicGraphError: the game graph has a cycle through position 1 ...
    """
    direction = int(kernels.monotone_direction(graph.indptr, graph.indices))
    if direction == 1:
        return np.arange(graph.n, dtype=np.int64)
    if direction == -1:
        return np.arange(graph.n - 1, -1, -1, dtype=np.int64)
    return _kahn(graph, _EMPTY_UINT8, gains=False).order.astype(np.int64, copy=False)


def _check_terminal(terminal_score: ArrayLike, n: int) -> NDArray[np.int64]:
    """`terminal_score` as an int64 array with one entry per position."""
    arr = np.asarray(terminal_score)
    if arr.shape != (n,):
        raise InvalidGraphError(
            f"terminal_score must have one entry per position ({n}), got shape {arr.shape}"
        )
    if arr.size and (arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer)):
        raise InvalidGraphError(
            f"terminal_score must hold integers that fit in int64, got dtype {arr.dtype}"
        )
    if arr.dtype == np.uint64 and arr.size and int(arr.max()) > np.iinfo(np.int64).max:
        i = int(np.argmax(arr))
        raise InvalidGraphError(f"terminal_score[{i}] = {int(arr[i])} does not fit in int64")
    return arr.astype(np.int64, copy=False)


def solve_dag(
    graph: GameGraph,
    primitive: ArrayLike | None = None,
    *,
    misere: bool = False,
    terminal_score: ArrayLike | None = None,
) -> Solution:
    """Solve an acyclic game graph: value, remoteness and, if scored, the best score.

    Parameters
    ----------
    graph : GameGraph
        An acyclic game graph. With ``graph.gain``, a move ``p -> c`` earns its mover
        ``gain`` points.
    primitive : array of uint8, shape (n,), optional
        ``UNDECIDED`` (255) except where the rules fix the value for the player to move:
        ``WIN``, ``LOSE`` or ``TIE``. The game is over at such a position (remoteness 0), even
        if it has moves.
    misere : bool
        A position without moves that is not primitive is a WIN for the player to move
        (default: a LOSE, the normal play convention).
    terminal_score : array of int, shape (n,), optional
        Scored games: where the game ends (no moves, or primitive), the player to move's
        (own - opponent) total still to come. Defaults to 0 everywhere.

    Returns
    -------
    Solution
        ``solver == "dag"``. ``value`` and ``remoteness`` for the player to move, exactly as
        the retrograde solver defines them (see Notes). For scored games (``graph.gain`` or
        `terminal_score` given) ``score[p]`` is the best (own - opponent) total the player to
        move at ``p`` can force from ``p`` on; otherwise ``score`` is None.

    Raises
    ------
    CyclicGraphError
        If play can cycle; the message names the positions of a cycle and points to the
        retrograde solver. A cycle through a primitive position does not count: play stops
        there (the moves of primitive positions are ignored).
    ScoreOverflowError
        If a score leaves the int64 range; the message names the position.
    InvalidGraphError
        If `primitive` or `terminal_score` has the wrong length or bad entries (`primitive`
        is checked by :func:`perfectplay.solvers.retrograde.primitive_values`).
    TooLargeError
        If the working arrays would not fit in memory.

    Notes
    -----
    Values (for the player to move): a primitive position has its fixed value; a position
    without moves is a LOSE (a WIN if `misere`), remoteness 0. Otherwise it is a WIN if some
    move leads to a LOSE (remoteness 1 + the smallest such), a LOSE if every move leads to a
    WIN (1 + the largest), else a TIE if some move leads to a TIE (1 + the smallest), else a
    DRAW (remoteness -1; only possible below a DRAW, which an acyclic graph never produces).

    Scores: a position where the game is over (primitive, or without moves) scores its
    terminal score; any other position ``p`` scores ``max(gain(p -> c) - score(c))`` over its
    moves. Scores and values are independent: ``remoteness`` stays the game-theoretic one
    above, and :meth:`Solution.best_moves` picks the score-optimal moves, breaking ties by
    value and then remoteness (see its docstring).

    Order: the sweep first takes the ids in decreasing order, checking that every move goes to
    a larger id (as enumerations by depth produce); at the first move that does not, it stops
    and starts again with the ids in increasing order if every move goes to a smaller id, or
    else in Kahn's order (moves out of primitive positions ignored), computed wave by wave,
    each wave sorted by id so that the graph is read in increasing addresses, and handled in
    two passes: copy the wave's moves, then remove them from their targets' in-degrees; the
    sweep then reads the copied moves sequentially. Values and remoteness are packed in one
    integer per position so that each move costs a single random read and a maximum (in
    Kahn's order, scored: one cache line, the key and score side by side), unpacked in one
    pass at the end; the loops prefetch the positions they will read a few dozen moves ahead
    (see ``_dag_kernels``).

    Cost: O(n + m) time. Memory on top of the graph, per position: 9 bytes (+ 8 for scores;
    29 in all for scores in Kahn's order, where keys widen to 8 bytes to sit next to the
    scores and the scores are copied out at the end). While an order is computed, per
    position 5 bytes, 1 bit and one index pointer more, and a copy of the moves (4 bytes each
    while ids fit in int32, + 8 for gains).
    """
    n = graph.n
    prim = _EMPTY_UINT8 if primitive is None else primitive_values(primitive, n)
    scored = graph.gain is not None or terminal_score is not None
    terminal = _EMPTY_INT64 if terminal_score is None else _check_terminal(terminal_score, n)
    small = n < (1 << kernels.SHIFT32) - 1
    key_dtype, shift = (np.int32, kernels.SHIFT32) if small else (np.int64, kernels.SHIFT64)
    per_position = 1 + 4 + (8 + 8 + 8 if scored else np.dtype(key_dtype).itemsize)
    check_memory(float(per_position) * n, f"solving a graph of {n} positions")
    keys = np.empty(n, dtype=key_dtype)
    score = np.empty(n if scored else 0, dtype=np.int64)
    info = np.zeros(1, dtype=np.int64)
    gain = _EMPTY_INT64 if graph.gain is None else graph.gain
    no_move = WIN if misere else LOSE
    # First try the ids as they are (moves going up, the common case), checking as it goes.
    status = kernels.sweep(
        graph.indptr, graph.indices, 1, prim, no_move, gain, terminal, keys, shift, score,
        scored, info, True,
    )  # fmt: skip
    if status != kernels.OK:  # not increasing ids after all, or an overflow: cycles first
        direction = int(kernels.monotone_direction(graph.indptr, graph.indices))
        unordered = status == kernels.UNORDERED
        if direction == -1 and unordered:
            status = kernels.sweep(
                graph.indptr, graph.indices, -1, prim, no_move, gain, terminal, keys, shift,
                score, scored, info, False,
            )  # fmt: skip
        elif direction == 0:
            order = _kahn(graph, prim, gains=unordered)  # raises CyclicGraphError
            if unordered:
                if scored:
                    # Targets are met in random order: each position's key and score side by
                    # side, so that a move reads one cache line.
                    del keys, score
                    record = np.empty((n, 2), dtype=np.int64)
                    keys, score, shift = record[:, 0], record[:, 1], kernels.SHIFT64
                status = kernels.sweep_ordered(
                    order.order, order.kptr, order.kids, prim, no_move, order.kgain, terminal,
                    keys, shift, score, scored, info,
                )  # fmt: skip
            del order
    if status == kernels.OVERFLOW:
        raise ScoreOverflowError(
            f"the score of position {int(info[0])} does not fit in int64 "
            "(gains and terminal scores add up beyond ±9.2e18)"
        )
    value = np.empty(n, dtype=VALUE_DTYPE)
    remoteness = np.empty(n, dtype=REMOTENESS_DTYPE)
    kernels.decode(keys, shift, value, remoteness)
    scores = np.ascontiguousarray(score) if scored else None
    return Solution(graph, value, remoteness, score=scores, solver="dag")
