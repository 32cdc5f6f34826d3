"""`Solution`: the solved values of every position of a game graph.

Every value is stated **for the player to move** at that position.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

import numpy as np
from numpy.typing import NDArray

from perfectplay.graph import GameGraph
from perfectplay.values import DRAW, LOSE, NO_REMOTENESS, UNDECIDED, Value

__all__ = ["MoveValue", "Solution", "optimal_moves"]


@dataclass(frozen=True)
class MoveValue:
    """One move from a position, valued from the side of the player who makes it."""

    move: int
    """The position the move leads to."""
    value: Value
    """The outcome for the player making the move, if both play perfectly afterwards."""
    remoteness: int
    """Moves until the game ends after choosing this move, counting it (-1 for a draw)."""
    score: int | None = None
    """For scored games: the mover's (own - opponent) total from here when choosing this move."""


class _Valued(Protocol):
    """A move valued for the player making it (:class:`MoveValue`, ``GameMove``)."""

    @property
    def value(self) -> Value: ...
    @property
    def remoteness(self) -> int: ...
    @property
    def score(self) -> int | None: ...


_Move = TypeVar("_Move", bound=_Valued)


def optimal_moves(moves: Sequence[_Move], value: int, score: int | None = None) -> list[_Move]:
    """The optimal moves among `moves`, every move from a position where the game goes on.

    Parameters
    ----------
    moves : sequence of MoveValue or GameMove
        Every move from the position, each valued for the player making it.
    value : int
        The position's :class:`~perfectplay.values.Value` for the player to move.
    score : int, optional
        Scored games: the position's score for the player to move (None otherwise).

    Returns
    -------
    list
        Unscored games: the moves achieving `value`; among them the shortest win or tie, the
        longest loss, any drawing move. Scored games: the moves achieving `score`; among them
        those with the best value for the mover (which may be worse than `value`: score comes
        first), then the same remoteness rule. In the order of `moves`.

    Notes
    -----
    The one best-move rule of :meth:`Solution.best_moves`, ``GameSolution.best_moves`` and
    ``SolutionStore.best_moves``. Cost: O(len(moves)).

    Examples
    --------
    >>> from perfectplay.values import Value
    >>> moves = [MoveValue(1, Value.WIN, 3), MoveValue(2, Value.WIN, 1)]
    >>> moves += [MoveValue(3, Value.LOSE, 2), MoveValue(4, Value.WIN, 1)]
    >>> [m.move for m in optimal_moves(moves, Value.WIN)]  # the shortest wins
    [2, 4]
    """
    if score is not None:
        moves = [m for m in moves if m.score == score]
        target = max((int(m.value) for m in moves), default=int(value))
    else:
        target = int(value)
    options = [m for m in moves if int(m.value) == target]
    if not options or target == DRAW:
        return options
    pick = max if target == LOSE else min
    best = pick(m.remoteness for m in options)
    return [m for m in options if m.remoteness == best]


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

    def move_values(self, p: int) -> list[MoveValue]:
        """Every move from `p` with its value, remoteness (and score) for the player at `p`.

        A child that is LOSE for its player to move is a WIN for the player moving into it,
        one move further from the end. Cost: O(out-degree of `p`).
        """
        start, stop = int(self.graph.indptr[p]), int(self.graph.indptr[p + 1])
        result = []
        for e in range(start, stop):
            c = int(self.graph.indices[e])
            child = Value(int(self.value[c]))
            r = int(self.remoteness[c])
            score = None
            if self.score is not None:
                gain = 0 if self.graph.gain is None else int(self.graph.gain[e])
                score = gain - int(self.score[c])
            result.append(
                MoveValue(
                    move=c,
                    value=child.flipped(),
                    remoteness=NO_REMOTENESS if r == NO_REMOTENESS else r + 1,
                    score=score,
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
        return [o.move for o in optimal_moves(self.move_values(p), int(self.value[p]), score)]

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
