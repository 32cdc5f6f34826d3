"""Teeko for the tier engine: a tier per number of pieces dropped, then the moving phase.

Tier ``t < 2k`` holds the drop-phase boards with ``t`` pieces on the board (``ceil(t / 2)`` X,
``floor(t / 2)`` O; X to move when ``t`` is even), labelled ``"t pieces"``; every move drops a
piece, into tier ``t + 1``. Tier ``2k``, labelled ``"moving"``, holds the boards with every
piece down and X to move: a board with O to move is the same position as its colour swap with
X to move, so the moving tier needs half of GamesmanOne's ranks (its tier 8 keeps both). Moves
in the moving tier stay in it: the one tier with inner moves (draws live there). The tiers
form a chain, as GamesmanOne's do (its names: ``t_dropped``, ``moving_phase``).

Ranks are colex ranks of the two bitboards (:mod:`perfectplay.games.teeko._tier_kernels`); the
slots are the canonical boards under the 8 symmetries of the square where not both players
have a pattern. Teeko (5x5, 4 pieces): 9 tiers, 96,691,476 ranks (GamesmanOne: 172,401,726
hash values), of which 12,096,896 are slots; the moving tier 75,710,250 ranks (9,469,832
slots). Solved on 2 threads: a DRAW from the start (docs/tiers.md, Teeko).

Examples
--------
>>> game = TieredTeeko()
>>> tier, rank = game.initial()
>>> game.tier_label(tier), [game.tier_label(t) for t in game.child_tiers(tier)]
('0 pieces', ['1 piece'])
>>> moves = game.children(tier, np.array([rank]))
>>> len(moves.rank), sorted(set(moves.rank.tolist()))  # 25 drops, 6 cells up to symmetry
(25, [0, 1, 2, 6, 7, 12])
>>> game.tier_label(game.tiers()[-1]), game.tier_size(game.tiers()[-1])
('moving', 75710250)
"""

from __future__ import annotations

from math import comb
from typing import Any

import numpy as np
from numpy.typing import NDArray

from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.games._square_board import bitboards
from perfectplay.games.teeko import _tier_kernels as kernels
from perfectplay.games.teeko.rules import Teeko, TeekoPosition, check_params, swap
from perfectplay.protocol.game import GameInfo
from perfectplay.protocol.tiered import TieredGame, TierMoves

__all__ = ["TieredTeeko"]


class TieredTeeko(TieredGame):
    """Teeko for the tier engine: tiers by pieces dropped, then the moving phase (module doc).

    Parameters
    ----------
    size, pieces : int
        As for :class:`~perfectplay.games.teeko.rules.Teeko`.
    """

    def __init__(self, size: int = 5, pieces: int = 4) -> None:
        self.size, self.pieces = check_params(size, pieces)
        self.cells = size * size
        self.moving = 2 * pieces
        self.info = GameInfo(
            "teeko",
            {"size": size, "pieces": pieces},
            cyclic=True,
            description=f"Teeko on {size}x{size} with {pieces} pieces each, by pieces dropped",
        )
        self._tables = kernels.tables(size, pieces)
        self._game = Teeko(size, pieces)

    # ------------------------------------------------------------------ tiers
    def counts(self, tier: int) -> tuple[int, int]:
        """``(X pieces, O pieces)`` on the boards of `tier`; GameDefinitionError if none."""
        if isinstance(tier, bool) or not isinstance(tier, int | np.integer):
            raise GameDefinitionError(f"teeko has no tier {tier!r}")
        if not 0 <= tier <= self.moving:
            raise GameDefinitionError(f"teeko has no tier {tier!r} (0..{self.moving})")
        return (int(tier) + 1) // 2, int(tier) // 2

    def tiers(self) -> list[int]:
        return list(range(self.moving + 1))

    def child_tiers(self, tier: int) -> list[int]:
        self.counts(tier)
        return [tier + 1] if tier < self.moving else []

    def tier_size(self, tier: int) -> int:
        nx, no = self.counts(tier)
        return comb(self.cells, nx) * comb(self.cells - nx, no)

    def tier_label(self, tier: int) -> str:
        """``"t pieces"`` in the drop phase (``"1 piece"``), ``"moving"`` after."""
        self.counts(tier)
        if tier == self.moving:
            return "moving"
        return f"{tier} piece{'' if tier == 1 else 's'}"

    def inner_moves(self, tier: int) -> bool:
        """Only the moving phase has moves that stay in their tier."""
        return tier == self.moving

    def max_moves(self) -> int:
        """A drop on any cell, or a slide of any piece in any of 8 directions."""
        return max(self.cells, 8 * self.pieces)

    # ------------------------------------------------------------------ positions
    def children(self, tier: int, ranks: NDArray[np.int64]) -> TierMoves:
        """Primitive values and canonical children of `ranks`; ~0.1 us per child."""
        nx, no = self.counts(tier)
        primitive, indptr, which, rank = kernels.children(
            np.ascontiguousarray(ranks, dtype=np.int64), nx, no, self._tables
        )
        return TierMoves(primitive, indptr, which, rank)

    def parents(
        self, tier: int, ranks: NDArray[np.int64]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Canonical slots of the moving tier with a move to each rank; ~0.1 us per parent."""
        if tier != self.moving:
            raise GameDefinitionError(f"teeko tier {tier} has no moves inside it")
        return kernels.parents(np.ascontiguousarray(ranks, dtype=np.int64), self._tables)

    def slots(self, tier: int, start: int, stop: int) -> NDArray[np.bool_]:
        """Canonical boards where not both players have a pattern; ~20 ns per rank."""
        nx, no = self.counts(tier)
        return kernels.slots(start, stop, nx, no, self._tables)

    def orbit_sizes(self, tier: int, ranks: NDArray[np.int64]) -> NDArray[np.int64]:
        """Distinct boards the 8 symmetries make of each rank's board; twice as many in the
        moving tier, where each board also stands for its colour swap with O to move."""
        nx, no = self.counts(tier)
        return kernels.orbit_sizes(
            np.ascontiguousarray(ranks, dtype=np.int64), nx, no, self._tables, tier == self.moving
        )

    def initial(self) -> tuple[int, int]:
        return self.locate(self._game.initial())

    def position(self, tier: int, rank: int) -> TeekoPosition:
        nx, no = self.counts(tier)
        if not 0 <= rank < self.tier_size(tier):
            raise GameDefinitionError(
                f"rank {rank} is outside teeko tier {self.tier_label(tier)} "
                f"(0..{self.tier_size(tier) - 1})"
            )
        xs, os = kernels.boards(np.array([rank], dtype=np.int64), nx, no, self._tables)
        x, o = int(xs[0]), int(os[0])
        board = "".join(
            "X" if x >> d & 1 else "O" if o >> d & 1 else "-" for d in range(self.cells)
        )
        return board, "X" if nx == no else "O"

    def locate(self, position: Any) -> tuple[int, int]:
        ok = isinstance(position, tuple) and len(position) == 2
        board, turn = position if ok else ("", "")
        if not (
            isinstance(board, str) and len(board) == self.cells and not set(board) - set("XO-")
        ) or turn not in ("X", "O"):
            raise InputFormatError(
                f"expected a teeko position (board of {self.cells} cells X/O/-, 'X' or 'O' to "
                f"move), got {position!r}"
            )
        self._game.check(board, turn)
        tier = board.count("X") + board.count("O")
        if tier == self.moving and turn == "O":
            board = swap(board)
        x, o = bitboards(board)
        nx, no = self.counts(tier)
        rank = kernels.ranks(
            np.array([x], dtype=np.int64), np.array([o], dtype=np.int64), nx, no, self._tables, True
        )
        return tier, int(rank[0])

    def as_game(self) -> Teeko:
        return self._game
