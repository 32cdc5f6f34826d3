"""What a solved position answers: its value, and each move's value for the player making it.

Shared by every engine that answers positions (enumeration, tiers, search) and by the store, so
that none of them imports another to describe an answer. Every value is stated for the player
to move (a :class:`GameMove` for the player making the move).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Generic

from perfectplay.protocol.game import P
from perfectplay.values import NO_REMOTENESS, Value

__all__ = ["GameMove", "PositionValue", "valued_moves"]


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
    """Moves until the game ends after choosing this move, counting it (-1 for a draw)."""
    score: int | None = None
    """Scored games: the mover's (own - opponent) total from here when choosing this move."""


@dataclass(frozen=True)
class PositionValue:
    """The solved value of one position, for the player to move there."""

    value: Value
    """The outcome for the player to move, with best play from both sides."""
    remoteness: int
    """Moves until the game ends under best play (0: over here; -1: a draw, never ends)."""
    score: int | None = None
    """Scored games: the (own - opponent) total the player to move can force."""


def valued_moves(
    moves: Iterable[tuple[Any, ...]], probe: Callable[[Any], PositionValue]
) -> list[GameMove[Any]]:
    """Each move ``(label, child[, gain])`` with its value for the player making it.

    The child's value (from `probe`, for the player to move there) is flipped, its remoteness
    one more, and a scored child's score subtracted from the move's gain. Shared by every
    saved solution (store files, tier directories). Cost: one probe per move.
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
                NO_REMOTENESS if r == NO_REMOTENESS else r + 1,
                score,
            )
        )
    return result
