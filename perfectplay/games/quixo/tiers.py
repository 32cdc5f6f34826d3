"""Quixo for the tier engine: tiers by the numbers of X and O cubes, loopy inside each tier.

Tier ``(nx, no)`` holds the positions with ``nx`` X cubes and ``no`` O cubes (the rules of
:mod:`perfectplay.games.quixo.rules`); a move stays in the tier (the mover took their own cube)
or goes to the tier with one more of the mover's cubes. Cubes are never removed, so tiers are
solved from the full boards back to the empty one, each by retrograde analysis with
:meth:`TieredQuixo.parents`. Ranks and the kernels are described in
:mod:`perfectplay.games.quixo._kernels`.
"""

from __future__ import annotations

from math import comb
from typing import Any

import numpy as np
from numpy.typing import NDArray

from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.games._square_board import bitboards, board_of
from perfectplay.games.quixo import _kernels as kernels
from perfectplay.games.quixo.rules import (
    SYMBOLS,
    Quixo,
    QuixoPosition,
    check_size,
)
from perfectplay.protocol.game import GameInfo
from perfectplay.protocol.tiered import TieredGame, TierMoves

__all__ = ["Tier", "TieredQuixo"]

Tier = int
"""A tier ``(nx, no)`` as the integer ``nx * (n * n + 1) + no``."""


class TieredQuixo(TieredGame):
    """Quixo for the tier engine: tiers by the numbers of X and O cubes (module docstring).

    The tiers are the start ``(0, 0)``, ``(1, 0)`` (O to move after X's first cube) and every
    ``(nx, no)`` with ``nx, no >= 1`` and ``nx + no <= n * n``. Tier ``(nx, no)`` has
    ``2 * C(n*n, nx) * C(n*n - nx, no)`` ranks (both players to move); its slots are the
    canonical ranks that pass GamesmanOne's legality test. 4x4: 85,831,334 ranks in all
    (10,693,969 slots), 5x5: 1.7 * 10^12 (the engine refuses it: about 784 GiB of memory for
    its largest tier).

    Parameters
    ----------
    size : int
        Board side: 3, 4 or 5.

    Examples
    --------
    >>> game = TieredQuixo(4)
    >>> start, rank = game.initial()
    >>> game.tier_label(start), [game.tier_label(t) for t in game.child_tiers(start)]
    ('16Blank_0X_0O', ['15Blank_1X_0O'])
    >>> moves = game.children(start, np.array([rank]))
    >>> len(moves.rank), sorted(set(moves.rank.tolist()))  # 32 pushes, 2 boards up to symmetry
    (32, [1, 3])
    """

    def __init__(self, size: int = 4) -> None:
        self.size = check_size(size)
        self.cells = size * size
        self.info = GameInfo(
            "quixo",
            {"size": size},
            cyclic=True,
            description=f"Quixo on {size}x{size} (GamesmanOne's rules), by cube counts",
        )
        self._tables = kernels.tables(size)
        self._game = Quixo(size)
        counts = [(0, 0), (1, 0)]
        counts += [(x, o) for x in range(1, self.cells) for o in range(1, self.cells + 1 - x)]
        self._tiers = [self._tier(x, o) for x, o in counts]
        self._known = set(self._tiers)

    # ------------------------------------------------------------------ tiers
    def _tier(self, nx: int, no: int) -> Tier:
        return nx * (self.cells + 1) + no

    def counts(self, tier: Tier) -> tuple[int, int]:
        """``(nx, no)`` of `tier`; raises GameDefinitionError for a tier the game lacks."""
        if tier not in self._known:
            raise GameDefinitionError(f"quixo {self.size}x{self.size} has no tier {tier!r}")
        nx, no = divmod(tier, self.cells + 1)
        return nx, no

    def tiers(self) -> list[Tier]:
        return list(self._tiers)

    def child_tiers(self, tier: Tier) -> list[Tier]:
        nx, no = self.counts(tier)
        if nx + no == self.cells:
            return []
        return [t for t in (self._tier(nx + 1, no), self._tier(nx, no + 1)) if t in self._known]

    def _which(self, tier: Tier) -> tuple[int, int]:
        """``which`` codes of the tiers where X or O takes a blank cube (0: not a child tier)."""
        nx, no = self.counts(tier)
        children = self.child_tiers(tier)
        x_tier, o_tier = self._tier(nx + 1, no), self._tier(nx, no + 1)
        x_code = children.index(x_tier) + 1 if x_tier in children else 0
        return x_code, children.index(o_tier) + 1 if o_tier in children else 0

    def tier_size(self, tier: Tier) -> int:
        nx, no = self.counts(tier)
        return 2 * comb(self.cells, nx) * comb(self.cells - nx, no)

    def tier_label(self, tier: Tier) -> str:
        """GamesmanOne's tier name, e.g. ``"6Blank_5X_5O"``."""
        nx, no = self.counts(tier)
        return f"{self.cells - nx - no}Blank_{nx}X_{no}O"

    def inner_moves(self, tier: Tier) -> bool:
        """Moves stay in the tier when the mover takes their own cube: not at the first two."""
        nx, no = self.counts(tier)
        return nx >= 1 and no >= 1

    def max_moves(self) -> int:
        """Every edge cell pushed to each of its far ends: ``4 * (3n - 4)``."""
        return 4 * (3 * self.size - 4)

    # ------------------------------------------------------------------ positions
    def children(self, tier: Tier, ranks: NDArray[np.int64]) -> TierMoves:
        """Primitive values and canonical children of `ranks`; ~20 ns per child on 4x4 (module
        :mod:`~perfectplay.games.quixo._kernels`)."""
        nx, no = self.counts(tier)
        which_x, which_o = self._which(tier)
        primitive, indptr, which, rank = kernels.children(
            np.ascontiguousarray(ranks, dtype=np.int64), nx, no, which_x, which_o, self._tables
        )
        return TierMoves(primitive, indptr, which, rank)

    def parents(
        self, tier: Tier, ranks: NDArray[np.int64]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Canonical slots of `tier` with a move inside the tier to each rank (a parent with
        symmetric moves to it may repeat); ~30 ns per parent on 4x4."""
        nx, no = self.counts(tier)
        return kernels.parents(np.ascontiguousarray(ranks, dtype=np.int64), nx, no, self._tables)

    def slots(self, tier: Tier, start: int, stop: int) -> NDArray[np.bool_]:
        """Canonical ranks passing GamesmanOne's legality test; ~5 ns per rank on 4x4."""
        nx, no = self.counts(tier)
        return kernels.slots(start, stop, nx, no, self._tables)

    def orbit_sizes(self, tier: Tier, ranks: NDArray[np.int64]) -> NDArray[np.int64]:
        """How many distinct boards the 8 symmetries make of each rank's board (1, 2, 4 or 8)."""
        nx, no = self.counts(tier)
        return kernels.orbit_sizes(
            np.ascontiguousarray(ranks, dtype=np.int64), nx, no, self._tables
        )

    def initial(self) -> tuple[Tier, int]:
        return self.locate(self._game.initial())

    def position(self, tier: Tier, rank: int) -> QuixoPosition:
        nx, no = self.counts(tier)
        if not 0 <= rank < self.tier_size(tier):
            raise GameDefinitionError(
                f"rank {rank} is outside tier {self.tier_label(tier)} "
                f"(0..{self.tier_size(tier) - 1})"
            )
        xs, os, turns = kernels.boards(np.array([rank], dtype=np.int64), nx, no, self._tables)
        return board_of((int(xs[0]), int(os[0])), self.cells), SYMBOLS[int(turns[0])]

    def locate(self, position: Any) -> tuple[Tier, int]:
        board, turn = self._checked(position)
        x, o = bitboards(board)
        nx, no = board.count("X"), board.count("O")
        tier = self._tier(nx, no)
        if tier not in self._known:
            raise InputFormatError(
                f"no quixo game reaches a board with {nx} X and {no} O cubes (X moves first)"
            )
        xs, os = np.array([x], dtype=np.int64), np.array([o], dtype=np.int64)
        turns = np.array([SYMBOLS.index(turn)], dtype=np.int64)
        rank = kernels.ranks(xs, os, turns, nx, no, self._tables, True)
        return tier, int(rank[0])

    def _checked(self, position: Any) -> QuixoPosition:
        ok = isinstance(position, tuple) and len(position) == 2
        board, turn = position if ok else ("", "")
        if not (
            isinstance(board, str) and len(board) == self.cells and not set(board) - set("XO-")
        ) or turn not in ("X", "O"):
            raise InputFormatError(
                f"expected a quixo position (board of {self.cells} cells X/O/-, 'X' or 'O' to "
                f"move), got {position!r}"
            )
        return board, turn

    def as_game(self) -> Quixo:
        return self._game
