"""Gobblet Gobblers for the tier engine: a tier per pair of reserves, seen from the mover.

A position is seen from the player to move (the rules treat both players alike, so a board
with O to move is the same position as its colour swap with X to move): the *mover's* pieces
and the *opponent's*. A placement spends a piece of the mover's reserve; a move of a piece on
the board keeps both reserves. So a tier is an unordered pair of reserves ``{a, b}`` (pieces
of each size still off the board): its positions are those where the mover holds ``a`` and the
opponent ``b`` (*orientation* 0), and, if ``a != b``, those where the mover holds ``b``
(orientation 1). Moves of pieces go from one orientation to the other, inside the tier, and
can repeat positions (the tier's draws); a placement goes to the tier ``{b, a - one piece}``.
Labels name the reserves, smallest size first: ``"222-222"`` is the start's tier, ``"000-000"``
every piece on the board (GamesmanOne's tiers are the ordered pairs with the side to move,
each of its 729 tiers half of one of these 378).

Ranks are the canonical boards under the 8 symmetries of the square, each orientation a block
of ranks (:mod:`perfectplay.games.gobblet._tier_kernels`); the largest tier, every piece on
the board, has 61,725,888 ranks for its 432,081,216 boards seen from the mover (GamesmanOne's
first tier, with either side to move: 864,162,432); 27 placements from the start are 3 cells
up to symmetry for each of the 3 sizes. Gobblet Gobblers: 378 tiers of
414,105,595 ranks in all.

Examples
--------
>>> game = TieredGobblet()
>>> tier, rank = game.initial()
>>> game.tier_label(tier), [game.tier_label(t) for t in game.child_tiers(tier)]
('222-222', ['221-222', '212-222', '122-222'])
>>> moves = game.children(tier, np.array([rank]))
>>> len(moves.rank), len(set(zip(moves.which.tolist(), moves.rank.tolist())))
(27, 9)
>>> game.tier_size(game.locate(game.as_game().parse("SL,sM,ml/S,M,sL/ml,-,- X"))[0])
61725888
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.games.gobblet import _tier_kernels as kernels
from perfectplay.games.gobblet.rules import SIZES, GobbletGobblers, GobbletPosition, check_params
from perfectplay.protocol.game import GameInfo
from perfectplay.protocol.tiered import TieredGame, TierMoves

__all__ = ["TieredGobblet"]


_Plan = tuple[NDArray[np.int64], int, NDArray[np.int64], NDArray[np.int64], list[int]]
"""A tier for the kernels: geometry rows, orientations, reserves, placements, child tiers."""


class TieredGobblet(TieredGame):
    """Gobblet Gobblers for the tier engine: tiers by the two reserves (module doc).

    Parameters
    ----------
    sizes, pieces : int
        As for :class:`~perfectplay.games.gobblet.rules.GobbletGobblers`.
    """

    def __init__(self, sizes: int = 3, pieces: int = 2) -> None:
        self.sizes, self.pieces = check_params(sizes, pieces)
        self.info = GameInfo(
            "gobblet-gobblers",
            {"sizes": sizes, "pieces": pieces},
            cyclic=True,
            description=f"Gobblet Gobblers with {sizes} sizes of {pieces} pieces each, by reserves",
        )
        self.base = pieces + 1
        self.reserves = self.base**sizes
        self._tables = kernels.tables(pieces)
        self._game = GobbletGobblers(sizes, pieces)
        self._plans: dict[int, _Plan] = {}

    # ------------------------------------------------------------------ reserves and tiers
    def _reserve(self, code: int) -> list[int]:
        """Pieces of each of the 3 sizes left off the board (0 for sizes not played)."""
        out = [0, 0, 0]
        for s in range(self.sizes):
            code, out[s] = divmod(code, self.base)
        return out

    def _code(self, reserve: list[int]) -> int:
        return sum(reserve[s] * self.base**s for s in range(self.sizes))

    def pair(self, tier: int) -> tuple[int, int]:
        """The reserve codes ``(a, b)``, ``a <= b``, of `tier`; GameDefinitionError if none."""
        if isinstance(tier, bool) or not isinstance(tier, int | np.integer):
            raise GameDefinitionError(f"gobblet-gobblers has no tier {tier!r}")
        a, b = divmod(int(tier), self.reserves)
        if not 0 <= a <= b < self.reserves:
            raise GameDefinitionError(f"gobblet-gobblers has no tier {tier!r}")
        return a, b

    def _tier_of(self, mover: int, opponent: int) -> tuple[int, int]:
        """``(tier, orientation)`` of the positions where the mover holds reserve `mover`."""
        if mover <= opponent:
            return mover * self.reserves + opponent, 0
        return opponent * self.reserves + mover, 1

    def _geometry(self, mover: int, opponent: int, base: int) -> list[int]:
        """The kernels' geometry row of one orientation (``kernels.GEO_COLUMNS``)."""
        t = self._tables
        k = self.pieces + 1
        mine, theirs = self._reserve(mover), self._reserve(opponent)
        classes = [
            (self.pieces - mine[s]) * k + (self.pieces - theirs[s]) if s < self.sizes else 0
            for s in range(3)
        ]
        order = sorted(range(3), key=lambda s: (-int(t.class_size[classes[s]]), -s))
        orbits = int(t.orbits[classes[order[0]]])
        second, third = int(t.class_size[classes[order[1]]]), int(t.class_size[classes[order[2]]])
        return [*classes, *order, orbits * second * third, second, third, base]

    def _plan(self, tier: int) -> _Plan:
        """``(geo, rows, reserve, place, child tiers)`` of `tier` for the kernels (cached)."""
        if tier in self._plans:
            return self._plans[tier]
        a, b = self.pair(tier)
        sides = [(a, b)] if a == b else [(a, b), (b, a)]
        rows = [self._geometry(a, b, 0)]
        if a != b:
            rows.append(self._geometry(b, a, rows[0][6]))
        reserve = np.zeros((2, 3), dtype=np.int64)
        place = np.full((2, 6), -1, dtype=np.int64)
        targets: list[tuple[int, int, int, int]] = []  # (k, s, child tier, orientation)
        for k, (mover, opponent) in enumerate(sides):
            reserve[k] = self._reserve(mover)
            for s in range(self.sizes):
                if reserve[k, s]:
                    left = self._reserve(mover)
                    left[s] -= 1
                    targets.append((k, s, *self._tier_of(opponent, self._code(left))))
        child_tiers = sorted({target[2] for target in targets})
        child_rows: dict[tuple[int, int], int] = {}
        for k, s, child, orientation in targets:
            if (child, orientation) not in child_rows:
                ca, cb = self.pair(child)
                mover, opponent = (ca, cb) if orientation == 0 else (cb, ca)
                start = 0 if orientation == 0 else self._geometry(ca, cb, 0)[6]
                child_rows[(child, orientation)] = len(rows)
                rows.append(self._geometry(mover, opponent, start))
            place[k, s] = child_rows[(child, orientation)]
            place[k, 3 + s] = child_tiers.index(child) + 1
        plan = (np.array(rows, dtype=np.int64), len(sides), reserve, place, child_tiers)
        self._plans[tier] = plan
        return plan

    def tiers(self) -> list[int]:
        r = self.reserves
        return [a * r + b for a in range(r) for b in range(a, r)]

    def child_tiers(self, tier: int) -> list[int]:
        return self._plan(tier)[4]

    def tier_size(self, tier: int) -> int:
        geo, rows, *_ = self._plan(tier)
        return int(geo[0, 6]) * rows

    def tier_label(self, tier: int) -> str:
        """The two reserves, each as its counts from the smallest size up: ``"222-221"``."""
        a, b = self.pair(tier)
        show = "".join
        return "-".join(show(str(n) for n in self._reserve(code)[: self.sizes]) for code in (a, b))

    def inner_moves(self, tier: int) -> bool:
        """Every tier has moves of pieces inside it, but the start's tier has no piece down."""
        return tier != self.tiers()[-1]

    def max_moves(self) -> int:
        """A placement of each size on each cell, or a move of each visible piece."""
        return 9 * self.sizes + 8 * min(9, self.sizes * self.pieces)

    # ------------------------------------------------------------------ positions
    def children(self, tier: int, ranks: NDArray[np.int64]) -> TierMoves:
        """Primitive values and canonical children of `ranks`; ~50 ns per child."""
        geo, rows, reserve, place, _ = self._plan(tier)
        primitive, indptr, which, rank = kernels.children(
            np.ascontiguousarray(ranks, dtype=np.int64), geo, rows, reserve, place, self._tables
        )
        return TierMoves(primitive, indptr, which, rank)

    def parents(
        self, tier: int, ranks: NDArray[np.int64]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Canonical slots of `tier` with a move of a piece to each rank; ~50 ns per parent."""
        geo, rows, *_ = self._plan(tier)
        return kernels.parents(np.ascontiguousarray(ranks, dtype=np.int64), geo, rows, self._tables)

    def slots(self, tier: int, start: int, stop: int) -> NDArray[np.bool_]:
        """Ranks holding their board's smallest symmetric image; ~40 ns per rank."""
        geo, rows, *_ = self._plan(tier)
        return kernels.slots(start, stop, geo, rows, self._tables)

    def orbit_sizes(self, tier: int, ranks: NDArray[np.int64]) -> NDArray[np.int64]:
        """Positions each rank stands for: its board's distinct symmetric images, each with X
        to move and with the colours swapped and O to move."""
        geo, rows, *_ = self._plan(tier)
        return kernels.orbit_sizes(
            np.ascontiguousarray(ranks, dtype=np.int64), geo, rows, self._tables
        )

    def initial(self) -> tuple[int, int]:
        return self.locate(self._game.initial())

    def position(self, tier: int, rank: int) -> GobbletPosition:
        """The board of `rank` with the mover as X, X to move."""
        geo, rows, *_ = self._plan(tier)
        if not 0 <= rank < self.tier_size(tier):
            raise GameDefinitionError(
                f"rank {rank} is outside gobblet-gobblers tier {self.tier_label(tier)} "
                f"(0..{self.tier_size(tier) - 1})"
            )
        layers = kernels.boards(np.array([rank], dtype=np.int64), geo, rows, self._tables)[0]
        cells = []
        for d in range(9):
            stack = ""
            for s in range(self.sizes):
                code = int(layers[s])
                letter = SIZES[s] if code >> d & 1 else SIZES[s].lower()
                stack += letter if code >> d & 1 or code >> (9 + d) & 1 else ""
            cells.append(stack)
        return tuple(cells), "X"

    def locate(self, position: Any) -> tuple[int, int]:
        ok = isinstance(position, tuple) and len(position) == 2
        cells, turn = position if ok else ((), "")
        valid = (
            isinstance(cells, tuple)
            and len(cells) == 9
            and all(isinstance(stack, str) for stack in cells)
            and turn in ("X", "O")
        )
        if not valid:
            raise InputFormatError(
                f"expected a gobblet-gobblers position (9 stacks, 'X' or 'O' to move), "
                f"got {position!r}"
            )
        cells, turn = self._game.parse(self._game.notation(position))
        if turn == "O":
            cells = tuple(stack.swapcase() for stack in cells)
        mover = self._code(self._game.reserve(cells, "X"))
        opponent = self._code(self._game.reserve(cells, "O"))
        tier, orientation = self._tier_of(mover, opponent)
        geo, *_ = self._plan(tier)
        codes = np.zeros((1, 3), dtype=np.int64)
        for d, stack in enumerate(cells):
            for piece in stack:
                s = SIZES.index(piece.upper())
                codes[0, s] |= 1 << (d if piece.isupper() else 9 + d)
        rank = kernels.ranks(codes, geo, np.array([orientation]), self._tables)
        return tier, int(rank[0])

    def as_game(self) -> GobbletGobblers:
        return self._game
