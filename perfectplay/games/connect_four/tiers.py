"""Connect Four as a tiered game for the tier engine: tier ``k`` holds the boards of ``k`` stones.

Every move drops one stone, so the children of tier ``k`` lie in tier ``k + 1`` and no tier
has moves inside it. Within a tier a board is ranked by its column states (see
:mod:`perfectplay.games.connect_four._tier_kernels`): a mixed combinatorial number system over
the columns, where a column of height ``h`` is one of ``2**h`` colourings and X has
``(k + 1) // 2`` of the ``k`` stones. The ranking covers every such board (a superset of the
reachable ones); :meth:`TieredConnectFour.slots` keeps the boards to solve:

* canonical: the column tuple is not above its mirror image's (the mirror keeps the value);
* the player to move has no four in a row (the game would have ended before);
* unless the board is empty, the last mover owns a top stone whose removal leaves them without
  a four (the stone they just dropped; without it the board cannot be reached).

Ranks (all tiers), slots, and the classes reachable from the start (a board and its mirror
image count once; :func:`~perfectplay.enumeration.enumerate.enumerate_game`, and the issue's figures
for 5x5 and 5x6, there in positions: 69.8 M and 2.82e9): the slots are within 3 % of the
reachable classes, the ranks 2.5 to 7 times more (17 on 6x6, 6.0e11 ranks for 6.92e10
positions).

==========  ===============  ==============  ================
board       ranks            slots           reachable
==========  ===============  ==============  ================
4 x 4       201,755          82,408          80,541
4 x 5       5,621,939        1,990,762       1,974,174
5 x 4       3,039,959        877,842         853,185
5 x 5       171,976,899      35,239,151      34.9 M
5 x 6       9,918,556,649    1,414,648,107   about 1.41e9
6 x 7       7.07e13
==========  ===============  ==============  ================

Values are for the player to move, exactly as
:class:`~perfectplay.games.connect_four.rules.ConnectFour`
(its positions, tuples of column strings, are what :meth:`TieredConnectFour.position` gives and
:meth:`TieredConnectFour.locate` takes).

Examples
--------
>>> game = TieredConnectFour(rows=4, cols=5)
>>> game.initial(), game.tier_size(1), game.child_tiers(1)
((0, 0), 5, [2])
>>> tier, rank = game.locate(("X", "", "", "", ""))
>>> moves = game.children(tier, np.array([rank]))
>>> [game.position(2, int(r)) for r in moves.rank[:2]]  # canonical: the mirror images
[('O', '', '', '', 'X'), ('', 'O', '', '', 'X')]
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.games.connect_four import _tier_kernels as kernels
from perfectplay.games.connect_four._bitboard import refuse_untiered
from perfectplay.games.connect_four.checks import checked_board, checked_ranks
from perfectplay.games.connect_four.heights import HeightTieredConnectFour
from perfectplay.games.connect_four.rules import Board, ConnectFour, superset_sizes
from perfectplay.protocol.game import GameInfo
from perfectplay.protocol.tiered import TieredGame, TierMoves

__all__ = [
    "HEIGHT_TIERS_FROM",
    "TieredConnectFour",
    "tiered_form",
]

HEIGHT_TIERS_FROM = 31
"""Boards of this many cells and more are tiered by column heights
(:class:`~perfectplay.games.connect_four.heights.HeightTieredConnectFour`): the largest tier by
stone count of 6x6 with the tier it reads needs 1.5e11 bytes, its largest tier by heights with
its parent 1.4e10; smaller boards keep the stone tiers, fewer and faster to schedule."""

_MAX_TABLE_BYTES = 1 << 28  # the rank and next-state tables; 7x6 needs 10 MB


_Tables = tuple[
    NDArray[np.int64], NDArray[np.int32], NDArray[np.int64], NDArray[np.int64], kernels.Tails
]


@functools.lru_cache(maxsize=4)
def _tables(rows: int, cols: int) -> _Tables:
    """The kernels' tables for a board, built once per process (shared by instances):
    ``(table, nxt, h_of, x_of, tails)`` as :mod:`~perfectplay.games.connect_four._tier_kernels`
    describes them."""
    table, nxt, h_of, x_of = kernels.build_tables(rows, cols)
    tails = kernels.build_tails(rows, cols, table, h_of, x_of)
    for array in (table, nxt, h_of, x_of, *tails):
        array.flags.writeable = False
    return table, nxt, h_of, x_of, tails


class TieredConnectFour(TieredGame):
    """Connect Four on `rows` x `cols` cells as a tiered game (see the module docstring).

    Parameters
    ----------
    rows, cols : int
        Board height and width, each at least 1, with ``(rows + 1) * cols <= 63`` (one
        bitboard in int64) and rank tables of at most 256 MiB (7x6 and 6x7: 10 MB; 12x4 is
        refused).

    Raises
    ------
    GameDefinitionError
        If the board is outside these limits (the message names it).

    Notes
    -----
    Building the rank tables takes O(cols * (rows * cols)**2 * 2**rows) steps (under a second;
    7x6: 10 MB, once per process). On the biggest tiers of 5x6, one core: :meth:`slots` 4-7
    ns per rank of the range, :meth:`children` 20-40 ns per slot when the ranks come sorted
    and close together as the engine asks for them (``benchmarks/bench_connect_four_tiers.py``).
    """

    def __init__(self, rows: int = 4, cols: int = 5) -> None:
        refuse_untiered(rows, cols)
        self.game = ConnectFour(rows, cols)
        self.rows, self.cols = rows, cols
        # Within 63 bits the largest tier has fewer than 2^57 ranks (8x7: 1.2e17): int64 ranks.
        self.sizes = superset_sizes(rows, cols)
        table_bytes = 12 * cols * (rows * cols + 1) * ((rows * cols + 3) // 2) * 2 ** (rows + 1)
        if table_bytes > _MAX_TABLE_BYTES:
            raise GameDefinitionError(
                f"connect-four {rows}x{cols}: columns of {rows} cells need rank tables of "
                f"{table_bytes:,} bytes, more than the {_MAX_TABLE_BYTES:,} allowed"
            )
        self.info = GameInfo(
            "connect-four",
            {"rows": rows, "cols": cols},
            description=f"Connect Four on {rows} rows x {cols} columns, tiered by stones",
        )

    @property
    def _kernel_tables(self) -> _Tables:
        return _tables(self.rows, self.cols)

    # ------------------------------------------------------------------ required
    def tiers(self) -> list[int]:
        """Tiers ``0..rows * cols``: the number of stones on the board."""
        return list(range(self.rows * self.cols + 1))

    def child_tiers(self, tier: int) -> list[int]:
        """``[tier + 1]`` below a full board, ``[]`` on it."""
        return [tier + 1] if tier < self.rows * self.cols else []

    def tier_size(self, tier: int) -> int:
        """Boards of `tier` stones with X holding ``(tier + 1) // 2``: the superset ranked."""
        return self.sizes[self._tier(tier)]

    def children(self, tier: int, ranks: NDArray[np.int64]) -> TierMoves:
        """Primitive values and canonical children of `ranks` (slots of `tier`).

        LOSE (for the player to move) where the last mover has four in a row, TIE on a full
        board, else one move per open column, left to right, into tier ``tier + 1``.
        Cost: 20-40 ns per rank when the ranks are sorted and close together, a few hundred
        ns for scattered ones (a binary search per column).
        """
        ranks = self._ranks(tier, ranks)
        table, nxt, h_of, x_of, tails = self._kernel_tables
        primitive = np.empty(ranks.shape[0], dtype=np.uint8)
        indptr = np.empty(ranks.shape[0] + 1, dtype=np.int64)
        child = np.empty(ranks.shape[0] * self.cols, dtype=np.int64)
        m = kernels.children(
            ranks, tier, self.rows, table, nxt, h_of, x_of, tails, primitive, indptr, child
        )
        return TierMoves(primitive, indptr, np.ones(m, dtype=np.int8), child[:m].copy())

    def initial(self) -> tuple[int, int]:
        """The empty board: tier 0, rank 0."""
        return (0, 0)

    def position(self, tier: int, rank: int) -> Board:
        """The board of `rank` in `tier` as a ConnectFour position (columns bottom up).

        Raises
        ------
        InputFormatError
            If `tier` or `rank` is out of range.
        """
        table, _, h_of, x_of, _ = self._kernel_tables
        out = np.empty((1, self.cols), dtype=np.int64)
        kernels.unrank_boards(self._ranks(tier, np.array([rank])), tier, table, h_of, x_of, out)
        return tuple(
            "".join("X" if state >> r & 1 else "O" for r in range(int(h_of[state])))
            for state in out[0].tolist()
        )

    def locate(self, position: Any) -> tuple[int, int]:
        """``(tier, rank)`` of the canonical form of `position` (any board with X moving first).

        Raises
        ------
        InputFormatError
            If `position` is not a tuple of `cols` column strings of X and O, each at most
            `rows` long, with X holding as many stones as O or one more.
        """
        states = self._states(position)
        mirrored = states[::-1]
        boards = np.array([min(states, mirrored)], dtype=np.int64)
        table, _, h_of, x_of, _ = self._kernel_tables
        rank = np.empty(1, dtype=np.int64)
        kernels.rank_boards(boards, table, h_of, x_of, rank)
        return sum(map(len, position)), int(rank[0])

    def as_game(self) -> ConnectFour:
        """The same board as a :class:`~perfectplay.games.connect_four.rules.ConnectFour`."""
        return self.game

    # ------------------------------------------------------------------ optional extras
    def inner_moves(self, tier: int) -> bool:
        """False: every move adds a stone."""
        return False

    def slots(self, tier: int, start: int, stop: int) -> NDArray[np.bool_]:
        """Which ranks ``start..stop-1`` of `tier` to solve (canonical and reachable-looking,
        see the module docstring). Cost: 4-7 ns per rank."""
        size = self.tier_size(tier)
        if not 0 <= start <= stop <= size:
            raise InputFormatError(
                f"connect-four tier {tier}: rank range {start}..{stop} outside 0..{size}"
            )
        table, nxt, h_of, x_of, tails = self._kernel_tables
        out = np.empty(stop - start, dtype=np.bool_)
        if stop > start:
            kernels.slots(start, tier, self.rows, table, nxt, h_of, x_of, tails, out)
        return out

    def orbit_sizes(self, tier: int, ranks: NDArray[np.int64]) -> NDArray[np.int64]:
        """1 for a board that is its own mirror image, 2 otherwise."""
        ranks = self._ranks(tier, ranks)
        table, _, h_of, x_of, _ = self._kernel_tables
        out = np.empty(ranks.shape[0], dtype=np.int64)
        kernels.orbit_sizes(ranks, tier, table, h_of, x_of, out)
        return out

    def max_moves(self) -> int:
        """One move per column."""
        return self.cols

    def bitboards(
        self, tier: int, ranks: Sequence[int] | NDArray[Any]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """The X stones and the O stones of the boards `ranks` of `tier`, as bitboards (bit
        ``c * (rows + 1) + r``: column ``c``, row ``r`` from the bottom).

        Cost: a table read per rank when the ranks come sorted and close together (8 ns a
        slot over the 35 M slots of 5x5), a binary search per column for a scattered one.

        Raises
        ------
        InputFormatError
            If `tier` or a rank is out of range.

        Examples
        --------
        >>> game = TieredConnectFour(rows=4, cols=5)
        >>> xs, os = game.bitboards(*game.locate(("X", "O", "", "", "")))  # its mirror image
        >>> int(xs[0]).bit_length() - 1, int(os[0]).bit_length() - 1  # 4 * 5 + 0, 3 * 5 + 0
        (20, 15)
        """
        ranks = self._ranks(tier, ranks)
        table, nxt, h_of, x_of, tails = self._kernel_tables
        xs = np.empty(ranks.shape[0], dtype=np.int64)
        os = np.empty(ranks.shape[0], dtype=np.int64)
        kernels.bitboards(ranks, tier, self.rows, table, nxt, h_of, x_of, tails, xs, os)
        return xs, os

    # ------------------------------------------------------------------ helpers
    def _tier(self, tier: int) -> int:
        if isinstance(tier, bool) or not isinstance(tier, int | np.integer):
            raise InputFormatError(f"connect-four tier must be an integer, got {tier!r}")
        if not 0 <= tier <= self.rows * self.cols:
            raise InputFormatError(
                f"connect-four {self.rows}x{self.cols} has tiers 0..{self.rows * self.cols}, "
                f"got {tier}"
            )
        return int(tier)

    def _ranks(self, tier: int, ranks: Sequence[int] | NDArray[Any]) -> NDArray[np.int64]:
        """`ranks` as a contiguous int64 array, checked to lie in `tier`."""
        return checked_ranks(ranks, self.sizes[self._tier(tier)], str(tier))

    def _states(self, position: Any) -> tuple[int, ...]:
        """The column states of `position`, checked."""
        states = []
        for column in checked_board(position, self.rows, self.cols):
            state = 1 << len(column)
            for r, stone in enumerate(column):
                state |= (stone == "X") << r
            states.append(state)
        return tuple(states)


def tiered_form(rows: int = 4, cols: int = 5) -> TieredGame:
    """Connect Four's tier form for a board: by column heights from
    :data:`HEIGHT_TIERS_FROM` cells (6x6 and up), else by stone count.

    >>> type(tiered_form(5, 6)).__name__, type(tiered_form(6, 6)).__name__
    ('TieredConnectFour', 'HeightTieredConnectFour')
    """
    if rows * cols >= HEIGHT_TIERS_FROM:
        return HeightTieredConnectFour(rows, cols)
    return TieredConnectFour(rows, cols)
