"""Nim: take any positive number of tokens from one heap; who takes the last token wins.

Bouton's theorem (1901): the player to move loses exactly when the bitwise XOR of the heap
sizes (the *nim-sum*) is 0. Nim is impartial, so its Sprague–Grundy value is that nim-sum.

References
----------
C. L. Bouton, "Nim, a game with a complete mathematical theory", Annals of Mathematics
3 (1901), 35-39. doi:10.2307/1967631

Examples
--------
>>> game = Nim(heaps=(1, 2, 3))
>>> game.moves((1, 2))
[('h1-1', (0, 2)), ('h2-1', (1, 1)), ('h2-2', (1, 0))]
>>> game.canonical((3, 1, 2)), game.render((1, 2, 3)), game.parse("3 1 2")
((1, 2, 3), '1 2 3', (3, 1, 2))
"""

from __future__ import annotations

from math import comb, prod

from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.protocol.game import Game, GameInfo
from perfectplay.values import Value

__all__ = ["Nim"]

Heaps = tuple[int, ...]


class Nim(Game[Heaps]):
    """Nim on heaps of the given sizes; a position is the tuple of heap sizes.

    Parameters
    ----------
    heaps : tuple of int
        Starting heap sizes (at least one heap, each >= 0), such that the codes
        ``(max(heaps) + 1) ** len(heaps)`` stay below ``2**63``.

    Raises
    ------
    GameDefinitionError
        No heap, a negative or non-integer size, or codes beyond int64.

    Notes
    -----
    Move labels read ``h<i>-<k>``: take `k` tokens from heap `i` (1-based). Heaps may be
    reordered without changing the value, so ``canonical`` sorts them: about
    ``prod(h + 1) / len(heaps)!`` positions remain. Codes are mixed-radix numbers with base
    ``max(heaps) + 1``.
    """

    def __init__(self, heaps: Heaps = (3, 4, 5)) -> None:
        heaps = tuple(heaps)
        if not heaps or any(isinstance(h, bool) or not isinstance(h, int) or h < 0 for h in heaps):
            raise GameDefinitionError(f"nim needs one or more heap sizes >= 0, got {heaps!r}")
        self.heaps = heaps
        self.base = max(heaps) + 1
        if self.base ** len(heaps) > 2**63:
            raise GameDefinitionError(
                f"nim heaps {heaps!r} are too large: position codes "
                f"(max(heaps) + 1) ** {len(heaps)} must stay below 2**63"
            )
        self.info = GameInfo(
            "nim", {"heaps": heaps}, impartial=True, description="Nim (Bouton 1901)"
        )

    def position_bound(self) -> int:
        """Sorted heap tuples below the start: ``min(prod(h + 1), C(max + k, k))``, k heaps."""
        return min(
            prod(h + 1 for h in self.heaps), comb(self.base - 1 + len(self.heaps), len(self.heaps))
        )

    def move_bound(self) -> int:
        """``sum(position)`` moves per position: the total over every tuple of heaps below the
        start (``sum(h (h + 1) / 2 * prod(others + 1))``), or ``position_bound() * sum(heaps)``
        if smaller. Sorting only merges positions, so both bound the canonical forms' moves."""
        heaps = self.heaps
        every_tuple = sum(
            h * (h + 1) // 2 * prod(g + 1 for j, g in enumerate(heaps) if j != i)
            for i, h in enumerate(heaps)
        )
        return min(every_tuple, self.position_bound() * sum(heaps))

    def initial(self) -> Heaps:
        return self.heaps

    def moves(self, position: Heaps) -> list[tuple[str, Heaps]]:
        return [
            (f"h{i + 1}-{k}", (*position[:i], h - k, *position[i + 1 :]))
            for i, h in enumerate(position)
            for k in range(1, h + 1)
        ]

    def outcome(self, position: Heaps) -> Value | None:
        return None  # no heap left: the player to move cannot move and loses

    def canonical(self, position: Heaps) -> Heaps:
        return tuple(sorted(position))

    def render(self, position: Heaps) -> str:
        return " ".join(map(str, position))

    def labelled(self, position: Heaps) -> str:
        """The heap sizes under the heap names of the move labels (``h2-3``).

        >>> print(Nim((3, 12, 5)).labelled((3, 12, 5)))
        h1 h2 h3
         3 12  5
        """
        names = [f"h{i}" for i in range(1, len(position) + 1)]
        widths = [max(len(name), len(str(h))) for name, h in zip(names, position, strict=True)]
        return "\n".join(
            " ".join(f"{cell:>{w}}" for cell, w in zip(cells, widths, strict=True))
            for cells in (names, [str(h) for h in position])
        )

    def parse(self, text: str) -> Heaps:
        words = text.split()
        if len(words) != len(self.heaps) or not all(w.isdigit() for w in words):
            raise InputFormatError(
                f"expected {len(self.heaps)} heap sizes separated by spaces, got {text!r}"
            )
        heaps = tuple(int(w) for w in words)
        if max(heaps) >= self.base:
            raise InputFormatError(f"heap sizes must be at most {self.base - 1}, got {text!r}")
        return heaps

    def encode(self, position: Heaps) -> int:
        code = 0
        for h in reversed(position):
            code = code * self.base + h
        return code

    def decode(self, code: int) -> Heaps:
        heaps = []
        for _ in self.heaps:
            code, h = divmod(code, self.base)
            heaps.append(h)
        return tuple(heaps)
