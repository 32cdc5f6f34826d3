"""What every source of answers offers the front ends: :class:`Answers`, the one protocol.

A solved game in memory (:class:`~perfectplay.api.GameSolution`), a store file
(:class:`~perfectplay.store.SolutionStore`), a tier directory
(:class:`~perfectplay.tiers.database.TierDatabase`), an opening book
(:class:`~perfectplay.search.book.OpeningBook`) and a game played by search
(:class:`~perfectplay.search.service.SearchedGame`) all answer a position alike: its
:class:`PositionValue` (``probe`` raises where the source does not hold it, ``get`` returns a
default, as python-chess's tablebases do), and its moves as :class:`~perfectplay.moves.Move`
records. Shared by every engine, so that none of them imports another to describe an answer.
Every value is stated for the player to move (a move's for the player making the move).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from perfectplay.errors import PositionNotFoundError
from perfectplay.moves import Move
from perfectplay.protocol.game import Game
from perfectplay.values import Value

__all__ = ["Answers", "GetByProbe", "PositionValue", "valued_moves"]


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
) -> list[Move[Any]]:
    """Each move ``(label, child[, gain])`` with its value for the player making it.

    The child's answer (from `probe`, for the player to move there) seen from the mover
    (:meth:`Move.into <perfectplay.moves.Move.into>`). Shared by every saved solution (store
    files, tier directories, books). Cost: one probe per move.
    """
    result: list[Move[Any]] = []
    for move in moves:
        label, child = move[0], move[1]
        entry = probe(child)
        gain = int(move[2]) if len(move) > 2 else 0
        result.append(
            Move.into(str(label), child, entry.value, entry.remoteness, entry.score, gain)
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

    def move_values(self, position: Any) -> list[Move[Any]]:
        """Every move from `position`, valued for the player making it (empty where over)."""
        ...

    def best_moves(self, position: Any) -> list[Move[Any]]:
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
