"""Retrograde analysis: WIN/LOSE/TIE/DRAW and remoteness on any game graph, cycles allowed.

Examples
--------
>>> from perfectplay.graph import GameGraph
>>> from perfectplay.solvers.retrograde import solve_retrograde
>>> solve_retrograde(GameGraph.from_edges([0, 1], [1, 2], n=3)).value.tolist()
[0, 3, 0]
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from perfectplay._memory import check_memory
from perfectplay.errors import InvalidGraphError
from perfectplay.graph import GameGraph
from perfectplay.solution import Solution
from perfectplay.solvers._retrograde_kernels import (
    count_children,
    mark_draws,
    propagate_ties,
    propagate_win_lose,
    seed_primitives,
    seed_ties,
)
from perfectplay.values import (
    LOSE,
    REMOTENESS_DTYPE,
    TIE,
    UNDECIDED,
    VALUE_DTYPE,
    WIN,
    Value,
)

__all__ = ["primitive_values", "solve_retrograde"]

_PRIMITIVE_CODES = (LOSE, TIE, WIN, UNDECIDED)


def _state_dtype(graph: GameGraph) -> type[np.signedinteger]:
    """The smallest signed integer type holding every out-degree of `graph`.

    The solver's hot loop reads and writes one `state` entry per move at random: a smaller
    array stays in cache longer (10^7 positions take 10 MB as int8, 40 MB as int32).
    """
    most = int(np.diff(graph.indptr).max(initial=0))
    for dtype in (np.int8, np.int16, np.int32):
        if most <= np.iinfo(dtype).max:
            return dtype
    return np.int64


def primitive_values(primitive: ArrayLike | None, n: int) -> NDArray[np.uint8]:
    """Check and convert a primitive-value array for a graph of `n` positions.

    Parameters
    ----------
    primitive : array of int, shape (n,), or None
        WIN, LOSE or TIE (for the player to move) where the rules decide a position,
        UNDECIDED elsewhere. None means no position is decided by the rules.
    n : int
        Number of positions.

    Returns
    -------
    ndarray of uint8, shape (n,)
        The same codes (all UNDECIDED for None).

    Raises
    ------
    InvalidGraphError
        Wrong shape or length, a non-integer dtype, or a code other than WIN, LOSE, TIE or
        UNDECIDED (the message names the first bad index and its value).

    Examples
    --------
    >>> primitive_values(None, 2).tolist()
    [255, 255]
    >>> primitive_values([3, 1], 2)
    Traceback (most recent call last):
    ...
    perfectplay.errors.InvalidGraphError: primitive[1] = 1 (DRAW) is not a primitive value ...
    """
    if primitive is None:
        return np.full(n, UNDECIDED, dtype=VALUE_DTYPE)
    arr = np.asarray(primitive)
    if arr.ndim != 1 or arr.shape[0] != n:
        raise InvalidGraphError(
            f"primitive must have one entry per position (shape ({n},)), got shape {arr.shape}"
        )
    if arr.size and (arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer)):
        raise InvalidGraphError(f"primitive must hold integer value codes, got dtype {arr.dtype}")
    bad = np.flatnonzero(~np.isin(arr, _PRIMITIVE_CODES))
    if bad.size:
        i = int(bad[0])
        code = int(arr[i])
        name = f" ({Value(code).name})" if code in Value._value2member_map_ else ""
        raise InvalidGraphError(
            f"primitive[{i}] = {code}{name} is not a primitive value "
            f"(expected WIN={WIN}, LOSE={LOSE}, TIE={TIE} or UNDECIDED={UNDECIDED})"
        )
    return arr.astype(VALUE_DTYPE, copy=False)


def solve_retrograde(
    graph: GameGraph, primitive: ArrayLike | None = None, *, misere: bool = False
) -> Solution:
    """Value and remoteness of every position, for the player to move, by retrograde analysis.

    Parameters
    ----------
    graph : GameGraph
        The moves. Cycles, self-loops and multi-edges are allowed.
    primitive : array of int, shape (n,), optional
        Positions whose value the rules fix: WIN, LOSE or TIE for the player to move there,
        UNDECIDED (255) elsewhere. A primitive position has remoteness 0 and its moves are
        ignored (the game is over there).
    misere : bool
        A position without moves and without a primitive value is a LOSE for the player to
        move (normal play, the default) or, with ``misere=True``, a WIN.

    Returns
    -------
    Solution
        ``value`` (uint8: LOSE < DRAW < TIE < WIN) and ``remoteness`` (int32, -1 for DRAW) of
        every position, ``solver="retrograde"``.

    Raises
    ------
    InvalidGraphError
        If `primitive` has the wrong length or dtype, or holds a code other than WIN, LOSE,
        TIE or UNDECIDED.
    TooLargeError
        If the work arrays would not fit in the available memory.

    Notes
    -----
    The value of a position for the player to move:

    - WIN if some move leads to a LOSE; remoteness 1 + the smallest remoteness of such a
      child (the winner wins fastest);
    - else LOSE if every move leads to a WIN; remoteness 1 + the largest (the loser resists);
    - else TIE if some move leads to a TIE; remoteness 1 + the smallest TIE child remoteness;
    - else DRAW (remoteness -1): best play never ends.

    These equations can have several solutions on cyclic graphs; this is the least one: a
    position is WIN, LOSE or TIE only through a finite chain of moves down to positions
    decided by the rules, everything else is a DRAW.

    The algorithm counts each position's moves, seeds the primitive and move-less positions,
    then walks the reverse graph breadth first from them, level by level of remoteness: a
    LOSE makes its undecided predecessors WIN, a WIN takes one off each undecided
    predecessor's count of moves (once per move, so multi-edges count twice) and a count
    reaching zero makes a LOSE. Once WIN/LOSE reach their fixed point (a TIE can never create
    a new WIN or LOSE), TIEs spread to undecided predecessors, again level by level (only if
    some primitive is a TIE). What is left is a DRAW. Large levels are visited in position
    order, which keeps the memory accesses to the reverse graph sequential, and the
    positions a few places ahead in a level are prefetched.

    Cost: O(n + m) time; each move of the reverse graph is scanned at most once by each of
    the two propagations. Memory: the reverse CSR (built once and cached on `graph`:
    4 (n + 1) + 4 m bytes with int32 indices) plus 10 to 13 bytes per position (move
    counters in the smallest integer type that holds the largest out-degree, remoteness,
    queue, value, one bit for sorting).

    Examples
    --------
    Position 2 has no move (a LOSE), 4 is a TIE by the rules, 5 and 6 chase each other:

    >>> import numpy as np
    >>> from perfectplay.graph import GameGraph
    >>> from perfectplay.values import TIE, UNDECIDED
    >>> g = GameGraph.from_edges(
    ...     [0, 1, 1, 3, 3, 5, 6, 7, 7],
    ...     [1, 2, 3, 4, 5, 6, 5, 5, 1],
    ...     n=8,
    ... )
    >>> primitive = np.full(8, UNDECIDED, dtype=np.uint8)
    >>> primitive[4] = TIE
    >>> s = solve_retrograde(g, primitive)
    >>> [s[p].name for p in range(8)]
    ['LOSE', 'WIN', 'LOSE', 'TIE', 'TIE', 'DRAW', 'DRAW', 'DRAW']
    >>> s.remoteness.tolist()
    [2, 1, 0, 1, 0, -1, -1, -1]
    >>> s.best_moves(0), s.best_moves(1), s.best_moves(3), s.best_moves(7)
    ([1], [2], [4], [5])

    1 moves to the LOSE 2 and wins at once, so 0, whose only move leads to 1, loses in 2.
    3 can tie (4) or enter the endless 5-6 cycle, and prefers the tie. 7 would lose by moving
    to 1, so it moves to 5 instead: a DRAW.
    """
    n = graph.n
    prim = primitive_values(primitive, n)
    state_dtype = _state_dtype(graph)
    queue_dtype = np.int32 if n < 2**31 else np.int64
    # Work arrays (at most 13.2 bytes per position) plus the reverse CSR if not cached yet.
    check_memory(
        13.2 * n + 8.0 * (n + 1) + 4.0 * graph.m,
        f"retrograde analysis of {n} positions and {graph.m} moves",
    )
    rindptr, rindices = graph.reverse()
    # `state` holds move counters, then values (see _retrograde_kernels).
    state = np.empty(n, dtype=state_dtype)
    remoteness = np.empty(n, dtype=REMOTENESS_DTYPE)
    # Each position enters the queue at most once, when it is decided: n slots are enough.
    queue = np.empty(n, dtype=queue_dtype)
    # One bit per position, for sorting a level of the queue by position.
    marks = np.zeros((n + 63) // 64, dtype=np.uint64)
    count_children(graph.indptr, state)
    terminal = WIN if misere else LOSE
    tail = seed_primitives(prim, terminal, state, queue)
    tail = propagate_win_lose(rindptr, rindices, state, remoteness, queue, marks, 0, tail)
    if primitive is not None and bool((prim == TIE).any()):
        # Only TIE primitives start ties: without them, skip a pass over every position.
        head = tail
        tail = seed_ties(state, queue, tail)
        propagate_ties(rindptr, rindices, state, remoteness, queue, marks, head, tail)
    value = np.empty(n, dtype=VALUE_DTYPE)
    mark_draws(state, value, remoteness)
    return Solution(graph, value, remoteness, solver="retrograde")
