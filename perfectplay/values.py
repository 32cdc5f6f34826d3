"""Values, sentinels and dtypes shared by every solver.

Every value is stated **for the player to move**. The ordering ``LOSE < DRAW < TIE < WIN`` is
the player to move's preference: a tie ends level, a draw never ends.

Examples
--------
>>> from perfectplay.values import Value
>>> Value.WIN > Value.TIE > Value.DRAW > Value.LOSE
True
>>> Value.parse("tie")
<Value.TIE: 2>
>>> print(Value.WIN)
WIN
>>> f"{Value.LOSE:>5}|{Value.TIE:d}", int(Value.DRAW)
(' LOSE|2', 1)
"""

from __future__ import annotations

from enum import IntEnum
from typing import TypeAlias

import numpy as np

from perfectplay.errors import InputFormatError

__all__ = [
    "DRAW",
    "LOSE",
    "NO_REMOTENESS",
    "REMOTENESS_DTYPE",
    "TIE",
    "UNDECIDED",
    "UNKNOWN_REMOTENESS",
    "VALUE_DTYPE",
    "WIN",
    "Position",
    "Value",
]

Position: TypeAlias = int
"""A position's id in an enumerated game: an integer in ``0..N-1``."""

VALUE_DTYPE = np.uint8
REMOTENESS_DTYPE = np.int32

# Plain integers, usable inside numba kernels.
LOSE = 0
DRAW = 1
TIE = 2
WIN = 3
UNDECIDED = 255
NO_REMOTENESS = -1
"""Remoteness sentinel for positions with no finite remoteness (draws, undecided)."""
UNKNOWN_REMOTENESS = -2
"""Remoteness sentinel for a value known without its remoteness (a weak search or book);
distinct from :data:`NO_REMOTENESS`, which says the game never ends."""


class Value(IntEnum):
    """The game-theoretic value of a position for the player to move."""

    LOSE = LOSE
    """The player to move loses against best play."""
    DRAW = DRAW
    """Neither player can force an end: best play goes on forever."""
    TIE = TIE
    """The game ends level under best play."""
    WIN = WIN
    """The player to move wins against best play."""
    UNDECIDED = UNDECIDED
    """Not (yet) decided; only seen while solving or in primitive-value arrays."""

    def __str__(self) -> str:
        """The value's name (``WIN``), as ``print`` and f-strings show it; ``int()`` its number."""
        return self.name

    def __format__(self, spec: str) -> str:
        """The name formatted by `spec` (``f"{v:>5}"``); an integer presentation type
        (``d``, ``x``, ``n``, ...) formats the number instead."""
        if spec and spec[-1] in "bcdnoxX":
            return int.__format__(self, spec)
        return format(self.name, spec)

    @classmethod
    def parse(cls, word: str, line: int | None = None) -> Value:
        """Parse ``WIN``, ``LOSE``, ``TIE`` or ``DRAW`` (any case).

        Raises
        ------
        InputFormatError
            If `word` is not one of the four value words.
        """
        try:
            value = cls[word.upper()]
        except KeyError:
            value = cls.UNDECIDED
        if value is cls.UNDECIDED:
            raise InputFormatError(
                f"unknown value {word!r} (expected WIN, LOSE, TIE or DRAW)", line
            )
        return value

    def flipped(self) -> Value:
        """The same outcome seen by the other player (WIN <-> LOSE; TIE, DRAW unchanged)."""
        return {Value.WIN: Value.LOSE, Value.LOSE: Value.WIN}.get(self, self)
