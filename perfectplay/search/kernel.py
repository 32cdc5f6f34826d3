"""The hook for games with a compiled search: the :class:`SearchKernel` protocol.

numba cannot cache a generic alpha-beta that takes a game's jitted move generator as an
argument (it would recompile in every process), so a game that wants a fast search compiles
its own alpha-beta over its own position encoding and offers it through an optional method
``search_kernel()`` returning an object with the methods below. The engine
(:func:`perfectplay.search.engine.search`) keeps the driver: the byte budget and the table it
allocates, the null windows of the weak and strong searches, the per-move results. (This module
belongs to the protocol layer and is expected to move there.)

The kernel's score convention is its own, with two rules the driver relies on: a larger score
is better for the player to move, and its sign is the value (positive: WIN, zero: TIE,
negative: LOSE). :meth:`SearchKernel.score_to_value_remoteness` turns an exact score into a
value and a remoteness exactly as :func:`~perfectplay.solvers.dag.solve_dag` defines them,
ties included. The score of a TIE is 0, so a game may have a kernel only if the remoteness of
a tie is fixed by the position alone (every tie line from it has the same length: in Connect
Four every tie ends on the full board); games with ties of several lengths search on the plain
path, which finds the shortest tie.

Window contract of :meth:`SearchKernel.solve` and :meth:`SearchKernel.move_scores` (fail-soft
or fail-hard alpha-beta both satisfy it): a result ``v`` with ``alpha < v < beta`` is exact;
``v <= alpha`` means the true score is at most ``v``; ``v >= beta`` means it is at least ``v``.

Examples
--------
A kernel for the take-away game (take 1 or 2 tokens, who takes the last wins), scoring a win
in r moves ``100 - r`` and a loss ``r - 100``; a real one would be numba code over a table:

>>> import numpy as np
>>> from perfectplay.values import Value
>>> class TakeAwayKernel:
...     table_bytes_per_entry = 8
...     def exact(self, heap: int) -> int:
...         if heap == 0:
...             return -100
...         return max(-self.exact(heap - k) - (1 if self.exact(heap - k) < 0 else -1)
...                    for k in (1, 2) if k <= heap)
...     def solve(self, heap, alpha, beta, table):
...         return min(max(self.exact(heap), alpha), beta), 1
...     def move_scores(self, heap, alpha, beta, table):
...         scores = tuple((f"take {k}", -self.exact(heap - k) - (1 if self.exact(heap - k) < 0
...                         else -1)) for k in (1, 2) if k <= heap)
...         return scores, len(scores)
...     def score_range(self, heap):
...         return -100, 100
...     def score_to_value_remoteness(self, heap, score):
...         return (Value.WIN if score > 0 else Value.LOSE), 100 - abs(score)
>>> isinstance(TakeAwayKernel(), SearchKernel)
True
>>> TakeAwayKernel().solve(4, -100, 100, np.zeros((1, 1), np.uint64))
(97, 1)
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from perfectplay.values import Value

__all__ = ["SearchKernel", "table_words"]


@runtime_checkable
class SearchKernel(Protocol):
    """What a game's compiled alpha-beta offers the search engine.

    A game offers one through an optional method ``search_kernel()`` (returning the kernel,
    or None to use the plain path). The engine allocates the transposition table: a zeroed
    ``uint64`` array of shape ``(entries, table_words(kernel))`` sized from the memory budget,
    passed to every call of one search (the kernel owns its layout).
    """

    table_bytes_per_entry: int
    """Bytes one table entry takes in the kernel's layout (rounded up to 8-byte words)."""

    def solve(
        self, position: Any, alpha: int, beta: int, table: NDArray[np.uint64]
    ) -> tuple[int, int]:
        """``(score bound, nodes)`` of `position` for the player to move, by the window contract.

        `position` is the game's position as ``Game.moves`` yields it, where play goes on.
        """
        ...

    def move_scores(
        self, position: Any, alpha: int, beta: int, table: NDArray[np.uint64]
    ) -> tuple[tuple[tuple[str, int], ...], int]:
        """``((label, score bound), ...), nodes``: every move from `position` in ``moves`` order.

        Each score is the move's, for the player making it (as :meth:`solve` scores the
        position), bounded by the window contract with `alpha` and `beta`.
        """
        ...

    def score_range(self, position: Any) -> tuple[int, int]:
        """``(lowest, highest)`` score `position` can have: the full window."""
        ...

    def score_to_value_remoteness(self, position: Any, score: int) -> tuple[Value, int]:
        """The value and remoteness (ties included) an exact score of `position` stands for."""
        ...


def table_words(kernel: SearchKernel) -> int:
    """The number of uint64 words per table entry of `kernel` (its bytes rounded up).

    Examples
    --------
    >>> class K:
    ...     table_bytes_per_entry = 12
    >>> table_words(K())  # type: ignore[arg-type]
    2
    """
    return max(1, -(-int(kernel.table_bytes_per_entry) // 8))
