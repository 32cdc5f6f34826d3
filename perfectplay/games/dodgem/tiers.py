"""Dodgem as a tiered game: tiers by the cars left on the board, loopy inside each tier.

A car only ever leaves the board, never comes back, so the numbers ``(b, r)`` of Blue and Red
cars on the board never grow: they are the tier (numbered ``b * size + r``). Cars stepping
forward or sideways stay in the tier, and sideways steps make play loop, so each tier is solved
by retrograde analysis with :meth:`DodgemTiers.parents` (a car stepping back); a car driving
off the board moves to tier ``(b - 1, r)`` or ``(b, r - 1)``, solved before. Inside a tier the
boards are ranked by the colex ranks of the Blue cells and of the Red cells among the others,
and the player to move (:mod:`perfectplay.games.dodgem._tier_kernels`): a bijection, every
rank a position (unreachable ones included). No symmetry is used: Dodgem has none.

Examples
--------
>>> game = DodgemTiers(3)
>>> game.initial(), game.tier_label(8), game.tier_size(8)
((8, 166), 'b2r2', 1512)
>>> print(game.as_game().render(game.position(*game.initial())))
B . .
B . .
. R R
Blue to move
>>> moves = game.children(8, np.array([166]))  # three car steps, all inside the tier
>>> moves.which.tolist(), [game.position(8, r)[0] for r in moves.rank.tolist()]
([0, 0, 0], ['.B.B...RR', 'B...B..RR', 'B.....BRR'])
>>> game.locate(("B.......R", "R"))  # one car each: tier b1r1
(4, 15)
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from perfectplay._ranking import binomials
from perfectplay.errors import InputFormatError, PositionNotFoundError
from perfectplay.games.dodgem import _tier_kernels as kernels
from perfectplay.games.dodgem.rules import OFF, Dodgem, DodgemPosition
from perfectplay.protocol.tiered import TieredGame, TierMoves
from perfectplay.values import UNDECIDED, VALUE_DTYPE

__all__ = ["DodgemTiers"]

_STEPS = 3
"""A car has at most three steps (forward, and two sideways), hence at most three sources."""


class DodgemTiers(TieredGame):
    """Dodgem on a `size` x `size` board as a tiered game (see the module docstring).

    Parameters
    ----------
    size : int
        Board side, 2 to 6, as for :class:`~perfectplay.games.dodgem.rules.Dodgem`.

    Raises
    ------
    GameDefinitionError
        If `size` is not an integer from 2 to 6.

    Notes
    -----
    ``size ** 2`` tiers ``(b, r)``, ``b, r = 0..size - 1``; tier ``(b, r)`` has
    ``2 C(N, b) C(N - b, r)`` ranks (``N = size ** 2``): 320,320 for the full 4x4 tier,
    1.3·10^11 for 6x6's. :meth:`children` and :meth:`parents` cost O(N) per move found.
    """

    def __init__(self, size: int = 3) -> None:
        self.game = Dodgem(size)
        self.size = size
        self.info = self.game.info
        cells = size * size
        self._binom = binomials(cells, size - 1)
        # Car steps per player (0 Blue, 1 Red) and cell, from the rules' own table.
        self._steps = np.full((2, cells, _STEPS), kernels.NONE, dtype=np.int64)
        self._sources = np.full((2, cells, _STEPS), kernels.NONE, dtype=np.int64)
        found = np.zeros((2, cells), dtype=np.int64)
        for player, name in enumerate("BR"):
            for cell in range(cells):
                for k, (_, target) in enumerate(self.game.steps[name][cell]):
                    self._steps[player, cell, k] = kernels.OFF if target == OFF else target
                    if target != OFF:
                        self._sources[player, target, found[player, target]] = cell
                        found[player, target] += 1

    # ------------------------------------------------------------------ tiers
    def _cars(self, tier: int) -> tuple[int, int]:
        if not 0 <= tier < self.size * self.size:
            raise PositionNotFoundError(
                f"dodgem {self.size}x{self.size} has tiers 0..{self.size * self.size - 1}, "
                f"not {tier}"
            )
        b, r = divmod(tier, self.size)
        return b, r

    def tiers(self) -> list[int]:
        return list(range(self.size * self.size))

    def child_tiers(self, tier: int) -> list[int]:
        b, r = self._cars(tier)
        return [t for t, cars in ((tier - self.size, b), (tier - 1, r)) if cars > 0]

    def tier_size(self, tier: int) -> int:
        b, r = self._cars(tier)
        cells = self.size * self.size
        return int(2 * self._binom[cells, b] * self._binom[cells - b, r])

    def tier_label(self, tier: int) -> str:
        b, r = self._cars(tier)
        return f"b{b}r{r}"

    def inner_moves(self, tier: int) -> bool:
        return tier != 0  # with no car left, nothing moves

    def max_moves(self) -> int:
        return _STEPS * (self.size - 1)

    def children(self, tier: int, ranks: NDArray[np.int64]) -> TierMoves:
        """The moves of `ranks` of `tier`: inner ones (``which`` 0) and cars leaving.

        A position whose player to move has no move is a WIN for them (primitive).
        """
        b, r = self._cars(tier)
        ranks = np.asarray(ranks, dtype=np.int64)
        count = ranks.shape[0]
        room = count * _STEPS * max(b, r)
        primitive = np.full(count, UNDECIDED, dtype=VALUE_DTYPE)
        indptr = np.empty(count + 1, dtype=np.int64)
        which = np.empty(room, dtype=np.int8)
        child = np.empty(room, dtype=np.int64)
        kernels.tier_children(
            b, r, ranks, self._binom, self._steps, primitive, indptr, which, child
        )
        moves = int(indptr[-1])
        return TierMoves(primitive, indptr, which[:moves].copy(), child[:moves].copy())

    def parents(
        self, tier: int, ranks: NDArray[np.int64]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """The ranks of `tier` with a car step onto each rank's board (the other player moved)."""
        b, r = self._cars(tier)
        ranks = np.asarray(ranks, dtype=np.int64)
        indptr = np.empty(ranks.shape[0] + 1, dtype=np.int64)
        parent = np.empty(ranks.shape[0] * _STEPS * max(b, r), dtype=np.int64)
        kernels.tier_parents(b, r, ranks, self._binom, self._sources, indptr, parent)
        return indptr, parent[: int(indptr[-1])].copy()

    # ------------------------------------------------------------------ positions
    def initial(self) -> tuple[int, int]:
        return self.locate(self.game.initial())

    def unrank(self, tier: int, ranks: ArrayLike) -> tuple[NDArray[np.int8], NDArray[np.int64]]:
        """Boards (cells ``0`` empty, ``1`` Blue, ``2`` Red; shape ``(k, N)``) and turns
        (1: Red to move) of `ranks` of `tier`.

        Raises
        ------
        PositionNotFoundError
            If `tier` is not a tier or a rank is outside ``0..tier_size(tier) - 1``.
        """
        b, r = self._cars(tier)
        arr = np.asarray(ranks, dtype=np.int64).reshape(-1)
        bad = np.flatnonzero((arr < 0) | (arr >= self.tier_size(tier)))
        if bad.size:
            raise PositionNotFoundError(
                f"tier {self.tier_label(tier)} of dodgem {self.size}x{self.size} has ranks "
                f"0..{self.tier_size(tier) - 1}, not {int(arr[bad[0]])}"
            )
        boards = np.empty((arr.shape[0], self.size * self.size), dtype=np.int8)
        turns = np.empty(arr.shape[0], dtype=np.int64)
        kernels.tier_unrank(b, r, arr, self._binom, boards, turns)
        return boards, turns

    def rank(
        self, boards: ArrayLike, turns: ArrayLike
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Tiers and ranks of many boards (shape ``(k, N)``, cells 0/1/2) and turns at once.

        Raises
        ------
        InputFormatError
            If a board has the wrong length, a cell other than 0, 1 or 2, a turn other than
            0 or 1, or more than ``size - 1`` cars of one colour.
        """
        cells = self.size * self.size
        arr = np.asarray(boards, dtype=np.int8).reshape(-1, cells)
        turn = np.asarray(turns, dtype=np.int64).reshape(-1)
        cars = np.stack([(arr == 1).sum(axis=1), (arr == 2).sum(axis=1)], axis=1)
        bad = (arr < 0).any(axis=1) | (arr > 2).any(axis=1) | (turn < 0) | (turn > 1)
        bad |= (cars >= self.size).any(axis=1)
        if arr.shape[0] != turn.shape[0] or bad.any():
            raise InputFormatError(
                f"not a dodgem {self.size}x{self.size} position: expected {cells} cells 0-2 "
                f"with at most {self.size - 1} cars of each colour and a turn 0 or 1"
            )
        tiers = np.empty((arr.shape[0], 2), dtype=np.int64)
        ranks = np.empty(arr.shape[0], dtype=np.int64)
        kernels.cells_rank(arr, turn, self._binom, tiers, ranks)
        return tiers[:, 0] * self.size + tiers[:, 1], ranks

    def rank_codes(self, codes: ArrayLike) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Tiers and ranks of positions given by :meth:`Dodgem.encode` codes, at once."""
        arr = np.asarray(codes, dtype=np.int64).reshape(-1)
        pow3 = 3 ** np.arange(self.size * self.size - 1, -1, -1, dtype=np.int64)
        boards = (arr[:, None] // 2 // pow3[None, :]) % 3
        return self.rank(boards, arr & 1)

    def position(self, tier: int, rank: int) -> DodgemPosition:
        boards, turns = self.unrank(tier, [rank])
        return "".join(".BR"[c] for c in boards[0]), "BR"[int(turns[0])]

    def locate(self, position: DodgemPosition) -> tuple[int, int]:
        board, turn = position
        if not isinstance(board, str) or len(board) != self.size**2 or set(board) - set(".BR"):
            raise InputFormatError(
                f"not a dodgem {self.size}x{self.size} board: {board!r} (expected "
                f"{self.size**2} cells '.', 'B' or 'R')"
            )
        if turn not in ("B", "R"):
            raise InputFormatError(f"the player to move must be 'B' or 'R', got {turn!r}")
        tiers, ranks = self.rank([[".BR".index(c) for c in board]], [turn == "R"])
        return int(tiers[0]), int(ranks[0])

    def as_game(self) -> Dodgem:
        return self.game
