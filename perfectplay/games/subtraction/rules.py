"""The subtraction game S(take): one heap; a move removes an allowed number of tokens.

Who takes the last token wins (normal play: the player who cannot move loses). With
``take = (1, 2, ..., k)`` the player to move loses exactly when the heap is a multiple of
``k + 1`` (Bachet's game); every subtraction game's values are eventually periodic. The game
is impartial; its Sprague–Grundy values are computed by the Grundy solver on its graph.

Both enumeration paths are implemented; the vectorized one is the smallest example of it:
codes are heap sizes, and ``batch_moves`` subtracts each allowed amount from a whole layer.

References
----------
E. R. Berlekamp, J. H. Conway, R. K. Guy, *Winning Ways for your Mathematical Plays*, vol. 1,
2nd ed., A K Peters, 2001, ch. 4 "Taking and Breaking" (subtraction games and their periods).

Examples
--------
>>> game = Subtraction(heap=5, take=(1, 3, 4))
>>> game.moves(5)
[('1', 4), ('3', 2), ('4', 1)]
>>> game.batch_moves(np.array([5, 2]))
(array([0, 1, 0, 0]), array([4, 1, 2, 1]))
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.protocol.game import Game, GameInfo
from perfectplay.values import UNDECIDED, VALUE_DTYPE, Value

__all__ = ["Subtraction"]


class Subtraction(Game[int]):
    """The subtraction game on one heap; a position is the number of tokens left.

    Parameters
    ----------
    heap : int
        Starting heap size (0 <= heap < 2**63: the heap size is the position's code).
    take : tuple of int
        The numbers of tokens a move may remove (distinct, each >= 1). A move's label is the
        number it takes.
    """

    def __init__(self, heap: int = 20, take: tuple[int, ...] = (1, 2, 3)) -> None:
        take = tuple(take)
        if (
            not 0 <= heap < 2**63
            or not take
            or min(take) < 1
            or max(take) >= 2**63
            or len(set(take)) != len(take)
        ):
            raise GameDefinitionError(
                f"subtraction needs 0 <= heap < 2**63 and distinct amounts 1..2**63 - 1 to take, "
                f"got heap={heap}, take={take}"
            )
        self.heap, self.take = heap, take
        self.info = GameInfo(
            "subtraction",
            {"heap": heap, "take": take},
            impartial=True,
            description=f"subtraction game S{take} from a heap of {heap}",
        )

    def position_bound(self) -> int:
        """Heap sizes ``0..heap``: ``heap + 1``."""
        return self.heap + 1

    def move_bound(self) -> int:
        """Heap sizes ``0..heap``, each with a move per amount it holds: ``sum(heap + 1 - k)``."""
        return sum(max(0, self.heap + 1 - k) for k in self.take)

    def initial(self) -> int:
        return self.heap

    def moves(self, position: int) -> list[tuple[str, int]]:
        return [(str(k), position - k) for k in self.take if k <= position]

    def outcome(self, position: int) -> Value | None:
        return None  # no allowed amount fits: the player to move cannot move and loses

    def render(self, position: int) -> str:
        return str(position)

    def parse(self, text: str) -> int:
        word = text.strip()
        if not word.isdigit() or int(word) > self.heap:
            raise InputFormatError(f"expected a heap size from 0 to {self.heap}, got {text!r}")
        return int(word)

    def encode(self, position: int) -> int:
        return position

    def decode(self, code: int) -> int:
        return code

    def batch_outcome(self, codes: NDArray[np.int64]) -> NDArray[np.uint8]:
        return np.full(codes.shape, UNDECIDED, dtype=VALUE_DTYPE)

    def batch_moves(self, codes: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        parents = [np.flatnonzero(codes >= k) for k in self.take]
        children = [codes[rows] - k for rows, k in zip(parents, self.take, strict=True)]
        return np.concatenate(parents).astype(np.int64), np.concatenate(children)
