"""The staircase game as a tiered game: one acyclic tier per number of stones, scored.

Every move places one stone, so the tier of a staircase is its number of stones (``0`` for the
empty board up to ``n * m`` for the full one) and every move of tier ``k`` goes to tier
``k + 1``: each tier is solved in one pass from the next. Inside a tier, the staircases are
ranked in the order of their rank in :class:`~perfectplay.builders.staircase.rules.Staircase` (the
colexicographic order of their boundaries), renumbered ``0..size - 1`` by counting partitions
(:mod:`perfectplay.builders.staircase._tier_kernels`): a bijection, so every rank is a position.
A move's gain is the mover's points for the stone (black, gains ``a``, moves on even tiers);
the full board is over, a TIE with 0 points still to come.

Examples
--------
>>> game = StaircaseTiers([[2, 7, 3], [9, 1, 2]], [[3, 7, 2], [2, 3, 1]])
>>> [game.tier_size(k) for k in game.tiers()]
[1, 1, 2, 2, 2, 1, 1]
>>> game.position(3, 1), game.locate((2, 1))
((3, 0), (3, 0))
>>> moves = game.children(2, np.array([0, 1]))  # (1, 1) and (2, 0); black moves
>>> moves.indptr.tolist(), moves.rank.tolist(), moves.gain.tolist()
([0, 1, 3], [0, 1, 0], [7, 3, 9])
"""

from __future__ import annotations

import hashlib

import numpy as np
from numpy.typing import ArrayLike, NDArray

from perfectplay._memory import check_memory
from perfectplay.builders.staircase import _tier_kernels as kernels
from perfectplay.builders.staircase.rules import Rows, Staircase
from perfectplay.errors import PositionNotFoundError
from perfectplay.protocol.game import GameInfo
from perfectplay.protocol.tiered import TieredGame, TierMoves
from perfectplay.values import TIE, UNDECIDED, VALUE_DTYPE

__all__ = ["StaircaseTiers"]


class StaircaseTiers(TieredGame):
    """The staircase game on an ``n x m`` board (black gains `a`, white `b`), tier by stones.

    Parameters
    ----------
    a, b : 2-D arrays of int, shape (n, m)
        As for :class:`~perfectplay.builders.staircase.rules.Staircase` (which checks them).

    Raises
    ------
    GameDefinitionError, ScoreOverflowError, TooLargeError
        As :class:`~perfectplay.builders.staircase.rules.Staircase`; TooLargeError also if the
        partition table (``8 (n + 1)(m + 1)(n m + 1)`` bytes) does not fit in memory.

    Notes
    -----
    ``n * m + 1`` tiers; tier ``k`` holds the staircases of ``k`` stones (the coefficients of
    the Gaussian binomial ``[n + m choose n]_q``: at most about ``C(n + m, n) / (n m)`` on a
    square board). ``info.params`` holds ``n``, ``m`` and a digest of the gains, so tier
    directories of boards with other gains are told apart. :meth:`children` costs
    O(n + m) per rank (the rank is decoded once, every child's rank follows from prefix and
    suffix sums), :meth:`locate` O(n).
    """

    def __init__(self, a: ArrayLike, b: ArrayLike) -> None:
        self.game = Staircase(a, b)
        n, m = self.game.n, self.game.m
        digest = hashlib.sha256(self.game.a.tobytes() + self.game.b.tobytes()).hexdigest()
        self.info = GameInfo(
            "staircase",
            {"n": n, "m": m, "gains": f"sha256:{digest[:16]}"},
            scored=True,
            description="fill a board in staircase shape; black gains a, white gains b",
        )
        check_memory(
            8.0 * (n + 1) * (m + 1) * (n * m + 1), "the partition table of " + self._board()
        )
        self._table = kernels.partition_table(n, m)
        self._sizes = self._table[n, m].copy()

    def _board(self) -> str:
        return f"a {self.game.n} x {self.game.m} staircase board"

    # ------------------------------------------------------------------ tiers
    def tiers(self) -> list[int]:
        return list(range(self.game.n * self.game.m + 1))

    def child_tiers(self, tier: int) -> list[int]:
        return [tier + 1] if tier < self.game.n * self.game.m else []

    def tier_size(self, tier: int) -> int:
        return int(self._sizes[tier])

    def inner_moves(self, tier: int) -> bool:
        return False

    def max_moves(self) -> int:
        return min(self.game.n, self.game.m)

    def children(self, tier: int, ranks: NDArray[np.int64]) -> TierMoves:
        """The moves of `ranks` of tier `tier`: all to tier ``tier + 1``, with the mover's gain.

        The full board (tier ``n * m``) is a TIE with score 0 and no moves.
        """
        ranks = np.asarray(ranks, dtype=np.int64)
        count = ranks.shape[0]
        n = self.game.n
        if tier == n * self.game.m:
            return TierMoves(
                primitive=np.full(count, TIE, dtype=VALUE_DTYPE),
                indptr=np.zeros(count + 1, dtype=np.int64),
                which=np.zeros(0, dtype=np.int8),
                rank=np.zeros(0, dtype=np.int64),
                gain=np.zeros(0, dtype=np.int64),
                score=np.zeros(count, dtype=np.int64),
            )
        indptr = np.empty(count + 1, dtype=np.int64)
        child = np.empty(count * n, dtype=np.int64)  # at most one move per row
        gain = np.empty(count * n, dtype=np.int64)
        kernels.tier_children(
            tier, ranks, n, self.game.m, self._table, self.game.a, self.game.b, indptr, child, gain
        )
        moves = int(indptr[-1])
        return TierMoves(
            primitive=np.full(count, UNDECIDED, dtype=VALUE_DTYPE),
            indptr=indptr,
            which=np.ones(moves, dtype=np.int8),
            rank=child[:moves].copy(),
            gain=gain[:moves].copy(),
            score=np.zeros(count, dtype=np.int64),
        )

    # ------------------------------------------------------------------ positions
    def initial(self) -> tuple[int, int]:
        return (0, 0)

    def unrank(self, tier: int, ranks: ArrayLike) -> NDArray[np.int64]:
        """Row lengths (top row first, shape ``(k, n)``) of `ranks` of tier `tier`.

        Raises
        ------
        PositionNotFoundError
            If `tier` is not a tier or a rank is outside ``0..tier_size(tier) - 1``.
        """
        arr = np.asarray(ranks, dtype=np.int64).reshape(-1)
        self._check(tier, arr)
        rows = np.empty((arr.shape[0], self.game.n), dtype=np.int64)
        kernels.tier_unrank(tier, arr, self.game.n, self.game.m, self._table, rows)
        return rows

    def rank(self, rows: ArrayLike) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Tiers and ranks of many staircases (rows top first, shape ``(k, n)``) at once.

        Raises
        ------
        InvalidGraphError
            If a row is not a staircase of this board (checked by
            :meth:`.rules.Staircase.encode_many`).
        """
        arr = np.asarray(rows, dtype=np.int64).reshape(-1, self.game.n)
        self.game.encode_many(arr)  # validates
        lengths = arr[:, ::-1]  # bottom row first
        stones = np.cumsum(lengths, axis=1)
        j = np.arange(1, self.game.n + 1)
        terms = self._table[j, np.maximum(lengths - 1, 0), stones]
        return stones[:, -1].copy(), np.where(lengths > 0, terms, 0).sum(axis=1)

    def position(self, tier: int, rank: int) -> Rows:
        return tuple(int(x) for x in self.unrank(tier, [rank])[0])

    def locate(self, position: Rows) -> tuple[int, int]:
        tiers, ranks = self.rank([position])
        return int(tiers[0]), int(ranks[0])

    def as_game(self) -> Staircase:
        return self.game

    def _check(self, tier: int, ranks: NDArray[np.int64]) -> None:
        if not 0 <= tier <= self.game.n * self.game.m:
            raise PositionNotFoundError(
                f"{self._board()} has tiers 0..{self.game.n * self.game.m}, not {tier}"
            )
        bad = np.flatnonzero((ranks < 0) | (ranks >= self._sizes[tier]))
        if bad.size:
            raise PositionNotFoundError(
                f"tier {tier} of {self._board()} has ranks 0..{int(self._sizes[tier]) - 1}, "
                f"not {int(ranks[bad[0]])}"
            )
