"""`Move`: one move from a position and what it leads to, and the one best-move rule.

Every source of answers (a solved graph, a solved game in memory, a store file, a tier
directory, an opening book, a search) describes the moves from a position with this one
record. Its value, remoteness and score are stated **for the player making the move** (the
player to move at the parent): a child that is LOSE for its own player to move is a move that
WINs, one move further from the end.

Examples
--------
>>> from perfectplay.values import Value
>>> move = Move.into("c3", "XO.X..O..", Value.LOSE, 4)  # LOSE in 4 for the player moved to
>>> move
Move(label='c3', position='XO.X..O..', value=<Value.WIN: 3>, remoteness=5, score=None)
>>> print(move)
c3: WIN in 5
>>> moves = [move, Move.into("a2", "XOXX..O..", Value.LOSE, 2)]
>>> [m.label for m in optimal_moves(moves, Value.WIN)]  # the shortest win
['a2']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from perfectplay.values import DRAW, LOSE, Value

__all__ = ["Move", "optimal_moves", "outcome_words"]

P = TypeVar("P")
"""The type of the position a move leads to (a game's position, or a graph's position id)."""


@dataclass(frozen=True)
class Move(Generic[P]):
    """One move from a position: its label, the position it leads to, and what it is worth
    **for the player making it** (the player to move at the parent), with best play after.

    Remoteness sentinels: :data:`~perfectplay.values.NO_REMOTENESS` for a draw (play never
    ends), :data:`~perfectplay.values.UNKNOWN_REMOTENESS` where the source knows the value
    only (a weak search or book).
    """

    label: str
    """The move's name as the game writes it (its ``moves`` label; a graph's target id)."""
    position: P
    """The position the move leads to (as ``moves`` yields it, not canonicalised)."""
    value: Value
    """The outcome for the player making the move, if both play perfectly afterwards."""
    remoteness: int
    """Moves until the game ends after choosing this move, counting it; a sentinel (negative)
    for a draw or where it is not known."""
    score: int | None = None
    """Scored games: the mover's best (own - opponent) total from the parent when choosing
    this move; None for unscored games (and weak answers)."""

    @classmethod
    def into(
        cls,
        label: str,
        position: P,
        value: Value,
        remoteness: int,
        score: int | None = None,
        gain: int = 0,
    ) -> Move[P]:
        """The move into `position`, whose `value`, `remoteness` and `score` are given for the
        player to move **there**: the value flipped, the remoteness one more (a sentinel stays
        as it is), the score subtracted from the move's `gain`. Cost: O(1).

        >>> from perfectplay.values import NO_REMOTENESS
        >>> Move.into("x", 7, Value.DRAW, NO_REMOTENESS)
        Move(label='x', position=7, value=<Value.DRAW: 1>, remoteness=-1, score=None)
        >>> Move.into("y", 8, Value.TIE, 0, score=3, gain=1).score
        -2
        """
        return cls(
            label,
            position,
            Value(value).flipped(),
            remoteness if remoteness < 0 else remoteness + 1,
            None if score is None else gain - score,
        )

    def __str__(self) -> str:
        """``c3: WIN in 5``, ``b: DRAW``, ``a1: LOSE in 2, score -4``."""
        text = f"{self.label}: {outcome_words(self.value, self.remoteness)}"
        return text if self.score is None else f"{text}, score {self.score:+d}"


def outcome_words(value: Value, remoteness: int | None) -> str:
    """A value in words: ``WIN in 5``, or the value alone where its remoteness is a sentinel
    (a draw, or not known) or None.

    >>> outcome_words(Value.LOSE, 4), outcome_words(Value.DRAW, -1), outcome_words(Value.WIN, None)
    ('LOSE in 4', 'DRAW', 'WIN')
    """
    name = Value(value).name
    return name if remoteness is None or remoteness < 0 else f"{name} in {remoteness}"


_M = TypeVar("_M", bound=Move[Any])


def optimal_moves(moves: Sequence[_M], value: int, score: int | None = None) -> list[_M]:
    """The optimal moves among `moves`, every move from a position where the game goes on.

    Parameters
    ----------
    moves : sequence of Move
        Every move from the position, each valued for the player making it.
    value : int
        The position's :class:`~perfectplay.values.Value` for the player to move.
    score : int, optional
        Scored games: the position's score for the player to move (None otherwise).

    Returns
    -------
    list of Move
        Unscored games: the moves achieving `value`; among them the shortest win or tie, the
        longest loss, any drawing move (where no move's remoteness is known, a weak answer:
        every move achieving `value`). Scored games: the moves achieving `score`; among them
        those with the best value for the mover (which may be worse than `value`: score comes
        first), then the same remoteness rule. In the order of `moves`.

    Notes
    -----
    The one best-move rule of every source of answers and of the search. Cost: O(len(moves)).

    Examples
    --------
    >>> moves = [Move("a", 1, Value.WIN, 3), Move("b", 2, Value.WIN, 1)]
    >>> moves += [Move("c", 3, Value.LOSE, 2), Move("d", 4, Value.WIN, 1)]
    >>> [m.label for m in optimal_moves(moves, Value.WIN)]  # the shortest wins
    ['b', 'd']
    >>> [m.label for m in optimal_moves(moves[2:3], Value.LOSE)]
    ['c']
    """
    if score is not None:
        moves = [m for m in moves if m.score == score]
        target = max((int(m.value) for m in moves), default=int(value))
    else:
        target = int(value)
    options = [m for m in moves if int(m.value) == target]
    if not options or target == DRAW:
        return options
    known = [m.remoteness for m in options if m.remoteness >= 0]
    if not known:
        return options
    best = max(known) if target == LOSE else min(known)
    return [m for m in options if m.remoteness == best]
