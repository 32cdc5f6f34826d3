"""`Solution`: the solved values of every position of a game graph.

Every value is stated **for the player to move** at that position.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from perfectplay.graph import GameGraph
from perfectplay.moves import Move, optimal_moves
from perfectplay.values import UNDECIDED, Value

__all__ = ["Solution"]


class Solution:
    """Values for every position of `graph`, for the player to move.

    Attributes
    ----------
    graph : GameGraph
        The solved game graph.
    value : ndarray of uint8, shape (n,)
        :class:`~perfectplay.values.Value` of each position for the player to move.
    remoteness : ndarray of int32, shape (n,)
        Moves to the end under best play (winner fastest, loser slowest); -1 for DRAW.
        0 marks a position where the game is over (no moves, or its value fixed by the rules).
    score : ndarray of int64, shape (n,), or None
        Scored games only: the best (own - opponent) total the player to move can force.
    solver : str
        Which solver produced this solution (``"retrograde"`` or ``"dag"``).
    """

    __slots__ = ("graph", "remoteness", "score", "solver", "value")

    def __init__(
        self,
        graph: GameGraph,
        value: NDArray[np.uint8],
        remoteness: NDArray[np.int32],
        *,
        score: NDArray[np.int64] | None = None,
        solver: str,
    ) -> None:
        self.graph = graph
        self.value = value
        self.remoteness = remoteness
        self.score = score
        self.solver = solver

    def __len__(self) -> int:
        return self.graph.n

    def __getitem__(self, p: int) -> Value:
        """The value of position `p` for the player to move."""
        return Value(int(self.value[p]))

    def move_values(self, p: int) -> list[Move[int]]:
        """Every move from `p` with its value, remoteness (and score) for the player at `p`.

        Each move is labelled by the id of the position it leads to. A child that is LOSE for
        its player to move is a WIN for the player moving into it, one move further from the
        end. Cost: O(out-degree of `p`).
        """
        start, stop = int(self.graph.indptr[p]), int(self.graph.indptr[p + 1])
        result = []
        for e in range(start, stop):
            c = int(self.graph.indices[e])
            score = None if self.score is None else int(self.score[c])
            gain = 0 if self.graph.gain is None else int(self.graph.gain[e])
            result.append(
                Move.into(
                    str(c), c, Value(int(self.value[c])), int(self.remoteness[c]), score, gain
                )
            )
        return result

    def best_moves(self, p: int) -> list[int]:
        """The optimal moves from `p` (empty where the game is over at `p`).

        Unscored games: moves achieving the value of `p`; among them the shortest win or tie,
        the longest loss, any drawing move. Scored games: moves achieving the score of `p`;
        among them those with the best value for the mover (which may be worse than the value
        of `p`: score comes first), then the same remoteness rule. Cost: O(out-degree of `p`).
        """
        if int(self.remoteness[p]) == 0:
            return []
        score = None if self.score is None else int(self.score[p])
        return [o.position for o in optimal_moves(self.move_values(p), int(self.value[p]), score)]

    def _repr_svg_(self) -> str:
        """The positions counted by value and remoteness as a bar chart (notebooks).

        >>> g = GameGraph.from_edges([0, 1], [1, 2], n=3)
        >>> value, remoteness = np.array([3, 0, 0], np.uint8), np.array([1, 0, 0], np.int32)
        >>> s = Solution(g, value, remoteness, solver="dag")
        >>> s._repr_svg_().count("data-count=")
        2
        """
        from perfectplay.draw.charts import counts_svg, value_counts

        return counts_svg(value_counts(self.value, self.remoteness), f"solved by {self.solver}")

    def summary(self) -> dict[str, int]:
        """Number of positions of each value, keyed by value name (WIN, LOSE, TIE, DRAW)."""
        counts = np.bincount(self.value, minlength=256)
        result = {v.name: int(counts[v]) for v in (Value.WIN, Value.LOSE, Value.TIE, Value.DRAW)}
        if counts[UNDECIDED]:
            result["UNDECIDED"] = int(counts[UNDECIDED])
        return result

    def __repr__(self) -> str:
        counts = ", ".join(f"{k}={v}" for k, v in self.summary().items())
        return f"<Solution by {self.solver}: n={self.graph.n}, {counts}>"
