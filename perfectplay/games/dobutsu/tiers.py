"""Dobutsu Shogi for the tier engine: one tier, the player to move always "own", mirror images once.

No quantity of Dobutsu Shogi only grows or shrinks as it is played: pieces change hands both
ways (a capture puts a piece in the captor's hand, a drop puts it back on the board), hens turn
back into chicks when taken, lions wander. So every position is in the one tier ``0``
(labelled ``"all"``), with moves inside it, solved by retrograde analysis (draws live here).

A rank stands for a position with the player to move at the bottom of the board (the other
player's positions are turned half round, colours and hands swapped) and for its mirror image:
``orbit_sizes`` counts 1 or 2 per rank (a board that is its own mirror image: 1). The ranking
(:mod:`perfectplay.games.dobutsu._tier_kernels`) picks a class by the lions' cells, then ranks
the other pieces on the cells the lions leave and the hands. Its three regions: play goes on
(41 lion classes), the opponent has just made a try (13 classes: primitive, WIN if the try can
be caught), the own lion has just been caught (8 classes, hands not ranked: primitive LOSE).
Dobutsu Shogi: 768,996,810 ranks (:meth:`sizes`).

Examples
--------
>>> game = TieredDobutsu(giraffes=0, elephants=0, chicks=2)
>>> tier, rank = game.initial()
>>> game.as_game().notation(game.position(tier, rank))
'-l-/-c-/-C-/-L- F -'
>>> moves = game.children(tier, np.array([rank]))
>>> len(moves.rank)  # the chick takes the chick, or the lion steps to one of 4 cells
5
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.games.dobutsu import _tier_kernels as kernels
from perfectplay.games.dobutsu.rules import (
    CELLS,
    DobutsuPosition,
    DobutsuShogi,
    check_params,
    turn_over,
)
from perfectplay.protocol.game import GameInfo
from perfectplay.protocol.tiered import TieredGame, TierMoves

__all__ = ["TieredDobutsu"]


class TieredDobutsu(TieredGame):
    """Dobutsu Shogi for the tier engine: one loopy tier (module doc).

    Parameters
    ----------
    giraffes, elephants, chicks : int
        As for :class:`~perfectplay.games.dobutsu.rules.DobutsuShogi`.
    """

    def __init__(self, giraffes: int = 2, elephants: int = 2, chicks: int = 2) -> None:
        self.totals = check_params(giraffes, elephants, chicks)
        self.info = GameInfo(
            "dobutsu",
            {"giraffes": giraffes, "elephants": elephants, "chicks": chicks},
            cyclic=True,
            description="Dobutsu Shogi, one tier, the player to move at the bottom",
        )
        self._tables = kernels.tables(*self.totals)
        self._game = DobutsuShogi(*self.totals)

    def _check_tier(self, tier: int) -> None:
        if isinstance(tier, bool) or tier != 0:
            raise GameDefinitionError(f"dobutsu has one tier, 0; got {tier!r}")

    def tiers(self) -> list[int]:
        return [0]

    def child_tiers(self, tier: int) -> list[int]:
        self._check_tier(tier)
        return []

    def tier_size(self, tier: int) -> int:
        self._check_tier(tier)
        return int(self._tables[kernels.BASE + kernels.CLASSES])

    def tier_label(self, tier: int) -> str:
        """``"all"``: the one tier."""
        self._check_tier(tier)
        return "all"

    def inner_moves(self, tier: int) -> bool:
        return True

    def max_moves(self) -> int:
        """36 steps (a lion, two giraffes, two elephants, two hens) and 3 x 10 drops, rounded up."""
        return kernels.MAX_MOVES

    def sizes(self) -> dict[str, int]:
        """Ranks per region: ``"play"`` (play goes on), ``"try"``, ``"caught"``.

        >>> TieredDobutsu().sizes()
        {'play': 487007307, 'try': 154416951, 'caught': 127572552}
        """
        t = self._tables
        out = {"play": 0, "try": 0, "caught": 0}
        names = ("play", "try", "caught")
        for cls in range(kernels.CLASSES):
            out[names[int(t[kernels.REGION + cls])]] += int(
                t[kernels.BASE + cls + 1] - t[kernels.BASE + cls]
            )
        return out

    # ------------------------------------------------------------------ positions
    def children(self, tier: int, ranks: NDArray[np.int64]) -> TierMoves:
        """Primitive values and canonical children of `ranks`; ~0.1 us per child."""
        self._check_tier(tier)
        primitive, indptr, which, rank = kernels.children(
            np.ascontiguousarray(ranks, dtype=np.int64), self._tables
        )
        return TierMoves(primitive, indptr, which, rank)

    def parents(
        self, tier: int, ranks: NDArray[np.int64]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Canonical ranks of the positions with a move to each rank; ~0.1 us per parent."""
        self._check_tier(tier)
        return kernels.parents(np.ascontiguousarray(ranks, dtype=np.int64), self._tables)

    def slots(self, tier: int, start: int, stop: int) -> NDArray[np.bool_]:
        """Canonical ranks (a board of two lions in the middle column and its mirror image
        share a class: the smaller rank is the slot); ~50 ns per rank."""
        self._check_tier(tier)
        return kernels.slots(start, stop, self._tables)

    def orbit_sizes(self, tier: int, ranks: NDArray[np.int64]) -> NDArray[np.int64]:
        """1 for a board that is its own mirror image, else 2."""
        self._check_tier(tier)
        return kernels.orbit_sizes(np.ascontiguousarray(ranks, dtype=np.int64), self._tables)

    def initial(self) -> tuple[int, int]:
        return self.locate(self._game.initial())

    def position(self, tier: int, rank: int) -> DobutsuPosition:
        """The position of `rank`, Forest to move (where the own lion was caught, Forest holds
        every piece off the board: such a rank stands for every split of the hands)."""
        self._check_tier(tier)
        if not 0 <= rank < self.tier_size(tier):
            raise GameDefinitionError(
                f"rank {rank} is outside dobutsu's tier (0..{self.tier_size(tier) - 1})"
            )
        boards, owns, opps, _ = kernels.decode(np.array([rank], dtype=np.int64), self._tables)
        board = "".join(kernels.CODES[int(c)] for c in boards[0])
        hands = "".join(k * int(n) for k, n in zip("GEC", owns[0], strict=True))
        hands += "".join(k * int(n) for k, n in zip("gec", opps[0], strict=True))
        return board, hands, "F"

    def locate(self, position: Any) -> tuple[int, int]:
        ok = isinstance(position, tuple) and len(position) == 3
        if not ok or not all(isinstance(part, str) for part in position):
            raise InputFormatError(
                f"expected a dobutsu position (board, hands, turn), got {position!r}"
            )
        board, hands, turn = position
        if len(board) != CELLS or turn not in ("F", "S"):
            raise InputFormatError(
                f"expected a dobutsu position (board, hands, turn), got {position!r}"
            )
        self._game.check(position)
        if turn == "S":
            board, hands, _ = turn_over(position)
        codes = np.array([[kernels.CODES.index(c) for c in board]], dtype=np.int64)
        own = np.array([[hands.count(k) for k in "GEC"]], dtype=np.int64)
        return 0, int(kernels.encode(codes, own, self._tables)[0])

    def as_game(self) -> DobutsuShogi:
        return self._game
