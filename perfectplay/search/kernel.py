"""The hook for games with a compiled search: the :class:`SearchKernel` protocol.

numba cannot cache a generic alpha-beta that takes a game's jitted move generator as an
argument (it would recompile in every process), so a game that wants a fast search compiles
its own alpha-beta over its own position encoding and offers it through the optional method
``Game.search_kernel()``. The kernel probes and stores score bounds in the engine's table
(:mod:`perfectplay.search._kernel_table`: a ``uint64`` array the engine allocates from the
memory budget and refuses up front when it does not fit) and narrows its score itself (its own
null-window schedule); the engine keeps the rest: validation, the table, weak or strong,
every move's value, the best moves, the result.

The kernel's score convention is its own, with two rules the engine relies on: a larger score
is better for the player to move, and its sign is the value (positive: WIN, zero: TIE,
negative: LOSE). :meth:`SearchKernel.score_to_value_remoteness` turns an exact score into a
value and a remoteness exactly as :func:`~perfectplay.solvers.dag.solve_dag` defines them,
ties included. The score of a TIE is 0, so a game may have a kernel only if the remoteness of
a tie is fixed by the position alone (every tie line from it has the same length: in Connect
Four every tie ends on the full board); games with ties of several lengths search on the plain
path, which finds the shortest tie.

A kernel may also offer ``over(position)``: the value for the player to move if the game is
over at `position`, else None, exactly as :func:`~perfectplay.protocol.game.over_value` (the
engine's test before every search, which builds the moves otherwise: a few microseconds that
count when the search itself takes a few).

Examples
--------
A kernel for the take-away game (take 1 or 2 tokens, who takes the last wins), scoring a win
in r moves ``100 - r`` and a loss ``r - 100``; a real one would be numba code over the table:

>>> import numpy as np
>>> from perfectplay.values import Value
>>> class TakeAwayKernel:
...     def exact(self, heap: int) -> int:
...         if heap == 0:
...             return -100
...         return max(self.move(heap, k) for k in (1, 2) if k <= heap)
...     def move(self, heap: int, k: int) -> int:
...         child = self.exact(heap - k)
...         return -child - (1 if child < 0 else -1)
...     def solve(self, heap, weak, table):
...         s = self.exact(heap)
...         return (int(np.sign(s)) if weak else s), 1
...     def move_scores(self, heap, weak, table):
...         scores = tuple((f"take {k}", self.move(heap, k)) for k in (1, 2) if k <= heap)
...         return tuple((m, int(np.sign(s)) if weak else s) for m, s in scores), len(scores)
...     def move_bounds(self, heap, alpha, beta, table):
...         return self.move_scores(heap, False, table)
...     def score_to_value_remoteness(self, heap, score):
...         return (Value.WIN if score > 0 else Value.LOSE), 100 - abs(score)
>>> isinstance(TakeAwayKernel(), SearchKernel)
True
>>> TakeAwayKernel().solve(4, False, np.zeros(1, np.uint64))
(97, 1)
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from perfectplay.values import Value

__all__ = ["SearchKernel"]


@runtime_checkable
class SearchKernel(Protocol):
    """What a game's compiled alpha-beta offers the search engine (``Game.search_kernel()``).

    Every method takes a position where play goes on (the engine checks), as ``Game.moves``
    yields it, and the table of one search (:func:`~perfectplay.search._kernel_table.new_table`,
    the same array for every call of that search).
    """

    def solve(self, position: Any, weak: bool, table: NDArray[np.uint64]) -> tuple[int, int]:
        """``(score, nodes)``: the exact score of `position` for the player to move, or with
        `weak` only its sign (-1, 0 or 1)."""
        ...

    def move_scores(
        self, position: Any, weak: bool, table: NDArray[np.uint64]
    ) -> tuple[tuple[tuple[str, int], ...], int]:
        """``((label, score), ...), nodes``: every move's exact score (its sign with `weak`),
        for the player making it, on :meth:`solve`'s scale, in ``moves`` order."""
        ...

    def move_bounds(
        self, position: Any, alpha: int, beta: int, table: NDArray[np.uint64]
    ) -> tuple[tuple[tuple[str, int], ...], int]:
        """``((label, bound), ...), nodes``: every move's score bounded by the window ``alpha <
        beta`` (fail-hard or fail-soft alike): a bound ``v`` with ``alpha < v < beta`` is exact,
        ``v <= alpha`` means at most ``v``, ``v >= beta`` at least ``v``."""
        ...

    def score_to_value_remoteness(self, position: Any, score: int) -> tuple[Value, int]:
        """The value and remoteness (ties included) an exact score of `position` stands for."""
        ...
