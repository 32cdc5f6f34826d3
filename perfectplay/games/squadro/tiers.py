"""Squadro for the tier engine: a tier per leg of every piece (out, back or home).

A piece's leg only advances: a jumped piece goes back to the start of the leg it is on, never
to an earlier leg, and a piece home stays home. A tier fixes the leg of each of the ``2n``
pieces (``3^(2n)`` vectors, the tier number ``sum(leg[k] * 3^k)``, the top player's pieces
``k = 0..n-1`` first); a move that takes a piece to the far side or home goes to the tier
with that piece's leg one further, any other move stays in its tier (jumps included), so a
tier has moves inside it and up to ``n`` child tiers per side. Tiers where a side has more
than ``home`` pieces home, or both sides ``home``, hold no position and are left out.
Squadro (5 pieces a side, 4 home wins): 58,464 tiers of at most 83,980,800 ranks
(``2 * 6480^2``), 104,054,652,218 ranks in all (ndeineko's state IDs number 104,055,570,432).

The label of a tier is its legs, the top player's pieces then the left player's:
``"01200-00000"``. ``analyze --by-tier`` groups tiers by the legs completed by each side.

Ranks are mixed-radix numbers (:mod:`perfectplay.games.squadro._tier_kernels`): the side to
move, then each piece's index among the track positions it may stand on in its leg. The slots
are the positions where no two pieces share a crossing and the player to move has fewer than
``home`` pieces home. The game has no symmetry (the two sides' speeds differ).

Examples
--------
>>> game = TieredSquadro((1, 3), home=1)
>>> tier, rank = game.initial()
>>> game.tier_label(tier), [game.tier_label(t) for t in game.child_tiers(tier)]
('00-00', ['10-00', '01-00', '00-10', '00-01'])
>>> moves = game.children(tier, np.array([rank]))
>>> [game.position(game.child_tiers(tier)[w - 1] if w else tier, r)
...  for w, r in zip(moves.which.tolist(), moves.rank.tolist())]
[((1, 0), (0, 0), 'L'), ((0, 3), (0, 0), 'L')]
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.games.squadro import _tier_kernels as kernels
from perfectplay.games.squadro.rules import SIDES, Squadro, SquadroPosition, check_params
from perfectplay.protocol.game import GameInfo
from perfectplay.protocol.tiered import TieredGame, TierMoves

__all__ = ["TierShape", "TieredSquadro"]


class TierShape(NamedTuple):
    """A tier's legs and mixed-radix place values, and those of its child tiers."""

    legs: NDArray[np.int64]
    """Per piece: its leg (0 out, 1 back, 2 home)."""
    mult: NDArray[np.int64]
    """Per piece: the place value of its index within its leg."""
    half: int
    """The ranks of one side to move (the tier has twice as many)."""
    which_of: NDArray[np.int64]
    """Per piece: the child tier (1-based among ``child_tiers``) its next leg leads to, 0 if
    none."""
    child_mult: NDArray[np.int64]
    """Per piece: the place values of that child tier (row of zeros if none)."""
    child_half: NDArray[np.int64]
    """Per piece: ``half`` of that child tier (1 if none)."""
    children: tuple[int, ...]
    """The child tiers."""
    top: kernels.Half
    """The top player's halves (:class:`~perfectplay.games.squadro._tier_kernels.Half`)."""
    left: kernels.Half
    """The left player's halves."""


class TieredSquadro(TieredGame):
    """Squadro for the tier engine: tiers by the legs of the pieces (module doc).

    Parameters
    ----------
    speeds, home
        As for :class:`~perfectplay.games.squadro.rules.Squadro`.
    """

    def __init__(self, speeds: tuple[int, ...] = (1, 3, 2, 3, 1), home: int = 4) -> None:
        self.speeds, self.home = check_params(speeds, home)
        self.n = len(speeds)
        self.info = GameInfo(
            "squadro",
            {"speeds": speeds, "home": home},
            cyclic=True,
            description=f"Squadro with {self.n} pieces a side, by the legs of the pieces",
        )
        self._tables = kernels.tables(speeds, home)
        self._game = Squadro(speeds, home)
        self._shapes: dict[int, TierShape] = {}
        self._halves: dict[tuple[int, tuple[int, ...]], kernels.Half] = {}

    # ------------------------------------------------------------------ tiers
    def legs(self, tier: int) -> list[int]:
        """The leg of each piece in `tier`; GameDefinitionError if `tier` is no tier."""
        if isinstance(tier, bool) or not isinstance(tier, int | np.integer):
            raise GameDefinitionError(f"squadro has no tier {tier!r}")
        tier = int(tier)
        legs = [tier // 3**k % 3 for k in range(2 * self.n)]
        if not 0 <= tier < 3 ** (2 * self.n) or not self._valid(legs):
            raise GameDefinitionError(f"squadro has no tier {tier!r}")
        return legs

    def _valid(self, legs: list[int]) -> bool:
        top, left = legs[: self.n].count(2), legs[self.n :].count(2)
        return top <= self.home and left <= self.home and min(top, left) < self.home

    def tiers(self) -> list[int]:
        return [
            t for t in range(3 ** (2 * self.n))
            if self._valid([t // 3**k % 3 for k in range(2 * self.n)])
        ]  # fmt: skip

    def shape(self, tier: int) -> TierShape:
        """The legs, place values and child tiers of `tier` (built once per tier)."""
        known = self._shapes.get(tier)
        if known is not None:
            return known
        legs = self.legs(tier)
        size = 2 * self.n
        t = self._tables

        def place_values(legs: list[int]) -> tuple[NDArray[np.int64], int]:
            mult = np.empty(size, dtype=np.int64)
            value = 1
            for k in reversed(range(size)):
                mult[k] = value
                value *= int(t.sizes[k, legs[k]])
            return mult, value

        mult, half = place_values(legs)
        which_of = np.zeros(size, dtype=np.int64)
        child_mult = np.zeros((size, size), dtype=np.int64)
        child_half = np.ones(size, dtype=np.int64)
        children: list[int] = []
        for k in range(size):
            after = [*legs[:k], legs[k] + 1, *legs[k + 1 :]]
            if legs[k] < 2 and self._valid(after):
                children.append(int(tier) + 3**k)
                which_of[k] = len(children)
                child_mult[k], child_half[k] = place_values(after)
        shape = self._shapes[tier] = TierShape(
            np.array(legs, dtype=np.int64), mult, half, which_of, child_mult, child_half,
            tuple(children), self._half(0, legs[: self.n]), self._half(1, legs[self.n :]),
        )  # fmt: skip
        return shape

    def _half(self, side: int, legs: list[int]) -> kernels.Half:
        """The halves of `side` on `legs`, shared by every tier where that side has them."""
        key = (side, tuple(legs))
        known = self._halves.get(key)
        if known is None:
            known = self._halves[key] = kernels.half(self._tables, side, key[1])
        return known

    def child_tiers(self, tier: int) -> list[int]:
        return list(self.shape(tier).children)

    def tier_size(self, tier: int) -> int:
        return 2 * self.shape(tier).half

    def tier_label(self, tier: int) -> str:
        """The legs of the top player's pieces, ``-``, the left player's: ``"01200-00000"``."""
        legs = "".join(map(str, self.legs(tier)))
        return f"{legs[: self.n]}-{legs[self.n :]}"

    def tier_group(self, tier: int) -> str:
        """The legs completed by each side: ``"top 3 left 0"``."""
        legs = self.legs(tier)
        return f"top {sum(legs[: self.n])} left {sum(legs[self.n :])}"

    def inner_moves(self, tier: int) -> bool:
        """Moves stay inside a tier unless a side has ``home`` pieces home (then every
        position is over)."""
        legs = self.legs(tier)
        return max(legs[: self.n].count(2), legs[self.n :].count(2)) < self.home

    def max_moves(self) -> int:
        """One move per piece."""
        return self.n

    # ------------------------------------------------------------------ positions
    def children(self, tier: int, ranks: NDArray[np.int64]) -> TierMoves:
        """Primitive values and children of `ranks`; ~0.1 us per rank."""
        s = self.shape(tier)
        primitive, indptr, which, rank = kernels.children(
            np.ascontiguousarray(ranks, dtype=np.int64), s.legs, s.mult, s.half, s.which_of,
            s.child_mult, s.child_half, s.top, s.left, self._tables,
        )  # fmt: skip
        return TierMoves(primitive, indptr, which, rank)

    def parents(
        self, tier: int, ranks: NDArray[np.int64]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Slots of `tier` with a move to each rank that stays in `tier`; ~0.07 us per rank."""
        s = self.shape(tier)
        return kernels.parents(
            np.ascontiguousarray(ranks, dtype=np.int64), s.legs, s.mult, s.half, s.top, s.left,
            self._tables,
        )  # fmt: skip

    def slots(self, tier: int, start: int, stop: int) -> NDArray[np.bool_]:
        """No two pieces on a crossing, fewer than ``home`` home for the player to move."""
        s = self.shape(tier)
        return kernels.slots(start, stop, s.legs, s.half, s.top, s.left, self._tables)

    def initial(self) -> tuple[int, int]:
        return self.locate(self._game.initial())

    def starts(self) -> list[tuple[int, int]]:
        """Either player may move first: the start with the top player to move, then the
        start with the left player to move (neither reaches the other)."""
        top, left, _ = self._game.initial()
        return [self.initial(), self.locate((top, left, "L"))]

    def players(self) -> tuple[str, str]:
        return ("top", "left")

    def movers(self, tier: int, ranks: NDArray[np.int64]) -> NDArray[np.int64]:
        """The side to move is a rank's leading digit: 0 (the top player) in the tier's first
        half of ranks, 1 (the left player) in the second."""
        return np.asarray(ranks, dtype=np.int64) // self.shape(tier).half

    def position(self, tier: int, rank: int) -> SquadroPosition:
        s = self.shape(tier)
        if not 0 <= rank < 2 * s.half:
            raise GameDefinitionError(
                f"rank {rank} is outside squadro tier {self.tier_label(tier)} (0..{2 * s.half - 1})"
            )
        pos, side = kernels.decode(
            np.array([rank], dtype=np.int64), s.legs, s.mult, s.half, self._tables
        )
        places = tuple(int(p) for p in pos[0])
        return places[: self.n], places[self.n :], SIDES[int(side[0])]

    def locate(self, position: Any) -> tuple[int, int]:
        ok = (
            isinstance(position, tuple) and len(position) == 3 and position[2] in ("T", "L")
            and all(isinstance(side, tuple) and len(side) == self.n and
                    all(isinstance(p, int) for p in side) for side in position[:2])
        )  # fmt: skip
        if not ok:
            raise InputFormatError(
                f"expected a squadro position ({self.n} track positions of the top player's "
                f"pieces, {self.n} of the left player's, 'T' or 'L' to move), got {position!r}"
            )
        self._game.check(position)
        top, left, turn = position
        legs = [int(self._tables.leg[p]) for p in (*top, *left)]
        tier = sum(leg * 3**k for k, leg in enumerate(legs))
        s = self.shape(tier)
        rank = kernels.encode(
            np.array([[*top, *left]], dtype=np.int64), np.array([SIDES.index(turn)]),
            s.mult, s.half, self._tables,
        )  # fmt: skip
        return tier, int(rank[0])

    def as_game(self) -> Squadro:
        return self._game
