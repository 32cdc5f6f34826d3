"""What every source of answers offers the front ends: :class:`Answers`, the one protocol.

A solved game in memory (:class:`~perfectplay.api.GameSolution`), a store file
(:class:`~perfectplay.store.SolutionStore`), a tier directory
(:class:`~perfectplay.tiers.database.TierDatabase`), an opening book
(:class:`~perfectplay.search.book.OpeningBook`) and a game played by search
(:class:`~perfectplay.search.service.SearchedGame`) all answer a position alike: its
:class:`PositionValue` (``probe`` raises where the source does not hold it, ``get`` returns a
default, as python-chess's tablebases do), and its moves as :class:`GameMove` records.
Shared by every engine, so that none of them imports another to describe an answer. Every
value is stated for the player to move (a :class:`GameMove` for the player making the move).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, runtime_checkable

from perfectplay.errors import PositionNotFoundError
from perfectplay.protocol.game import Game, P
from perfectplay.values import Value

__all__ = ["Answers", "GameMove", "GetByProbe", "PositionValue", "valued_moves"]


@dataclass(frozen=True)
class GameMove(Generic[P]):
    """One move from a position, valued from the side of the player who makes it."""

    label: str
    """The move's label, as the game's ``moves`` names it."""
    position: P
    """The position the move leads to (as ``moves`` yields it, not canonicalised)."""
    value: Value
    """The outcome for the player making the move, if both play perfectly afterwards."""
    remoteness: int
    """Moves until the game ends after choosing this move, counting it
    (:data:`~perfectplay.values.NO_REMOTENESS` for a draw,
    :data:`~perfectplay.values.UNKNOWN_REMOTENESS` where a weak source knows only the value)."""
    score: int | None = None
    """Scored games: the mover's (own - opponent) total from here when choosing this move."""


@dataclass(frozen=True)
class PositionValue:
    """The solved value of one position, for the player to move there."""

    value: Value
    """The outcome for the player to move, with best play from both sides."""
    remoteness: int
    """Moves until the game ends under best play (0: over here;
    :data:`~perfectplay.values.NO_REMOTENESS`: a draw, never ends;
    :data:`~perfectplay.values.UNKNOWN_REMOTENESS`: not known, a weak search or book)."""
    score: int | None = None
    """Scored games: the (own - opponent) total the player to move can force."""


def valued_moves(
    moves: Iterable[tuple[Any, ...]], probe: Callable[[Any], PositionValue]
) -> list[GameMove[Any]]:
    """Each move ``(label, child[, gain])`` with its value for the player making it.

    The child's value (from `probe`, for the player to move there) is flipped, its remoteness
    one more (a sentinel stays as it is), and a scored child's score subtracted from the
    move's gain. Shared by every saved solution (store files, tier directories, books).
    Cost: one probe per move.
    """
    result: list[GameMove[Any]] = []
    for move in moves:
        label, child = move[0], move[1]
        entry = probe(child)
        r = entry.remoteness
        score = None
        if entry.score is not None:
            score = (int(move[2]) if len(move) > 2 else 0) - entry.score
        result.append(
            GameMove(
                str(label),
                child,
                entry.value.flipped(),
                r if r < 0 else r + 1,
                score,
            )
        )
    return result


@runtime_checkable
class Answers(Protocol):
    """A source of answers for the positions of one game, values for the player to move.

    Every source satisfies it (tests/protocol/test_answers.py checks each): front ends (the
    terminal player, the web app, ``query``, ``search --db``) take any of them alike.
    """

    @property
    def game(self) -> Game[Any]:
        """The game answered for (its rules: moves, outcome, parse, render)."""
        ...

    def probe(self, position: Any) -> PositionValue:
        """The value of `position`; raises PositionNotFoundError where the source lacks it."""
        ...

    def get(self, position: Any, default: PositionValue | None = None) -> PositionValue | None:
        """The value of `position`, or `default` where the source lacks it."""
        ...

    def move_values(self, position: Any) -> list[GameMove[Any]]:
        """Every move from `position`, valued for the player making it (empty where over)."""
        ...

    def best_moves(self, position: Any) -> list[GameMove[Any]]:
        """The optimal moves from `position`, in the game's order (empty where over)."""
        ...


class GetByProbe:
    """``get`` written once over a source's ``probe``: the value, or `default` where ``probe``
    raises PositionNotFoundError (the source does not hold the position)."""

    __slots__ = ()

    def probe(self, position: Any) -> PositionValue:
        """The value of `position` for the player to move (each source defines it)."""
        raise NotImplementedError

    def get(self, position: Any, default: PositionValue | None = None) -> PositionValue | None:
        """The value of `position`, or `default` where the source does not hold it."""
        try:
            return self.probe(position)
        except PositionNotFoundError:
            return default
