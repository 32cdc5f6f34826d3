"""Connect Four tiered by column heights: the form that holds boards of 36 cells and more.

A tier is a vector of column heights ``h`` (mirror images share one tier: the vector not
above its mirror image); a move raises one height by one, so the children of tier ``h`` lie in
the tiers ``h + e_c`` and no tier has moves inside it. Within a tier the cells are fixed and
only their colours vary: with ``n = sum(h)`` stones of which X holds ``(n + 1) // 2``, a board
is ranked by the colex rank of the cells X holds
(:mod:`~perfectplay.games.connect_four._height_kernels`), so a tier has ``C(n, (n + 1) // 2)``
ranks and the largest tiers are the fullest boards: 9.1e9 ranks for the full 6x6 board, read
with its one parent tier of 4.5e9 (13.6 GB at a byte per rank), where the tiers by stone count
(:mod:`~perfectplay.games.connect_four.tiers`) need 7.6e10 ranks twice over.

==========  ========  ===============  ===============
board       tiers     ranks            by stone count
==========  ========  ===============  ===============
4 x 4       325       112,861          201,755
5 x 5       3,996     95,598,887       171,976,899
5 x 6       23,436    5,149,807,912    9,918,556,649
6 x 6       58,996    3.1e11           6.0e11
==========  ========  ===============  ===============

A board's slots are those of the stone-count form (the player to move has no four; the last
mover owns a top stone whose removal leaves them without a four), and, in a tier that is its
own mirror image, not above its mirror image. Values are for the player to move, exactly as
:class:`~perfectplay.games.connect_four.rules.ConnectFour`.

Examples
--------
>>> game = HeightTieredConnectFour(rows=4, cols=4)
>>> game.tier_label(game.initial()[0]), game.tier_size(game.initial()[0])
('0-0-0-0', 1)
>>> tier, rank = game.locate(("X", "", "", "O"))
>>> game.tier_label(tier), game.position(tier, rank)
('1-0-0-1', ('X', '', '', 'O'))
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from math import comb
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from perfectplay._ranking import binomials, colex_unrank
from perfectplay.errors import InputFormatError
from perfectplay.games.connect_four import _height_kernels as kernels
from perfectplay.games.connect_four._bitboard import refuse_untiered
from perfectplay.games.connect_four.checks import checked_board, checked_ranks
from perfectplay.games.connect_four.rules import Board, ConnectFour
from perfectplay.protocol.game import GameInfo
from perfectplay.protocol.tiered import TieredGame, TierMoves

__all__ = ["HeightTieredConnectFour"]


@functools.lru_cache(maxsize=1)
def _global_tables() -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """``(binom, colex)``: binomials below 64 and the colex table, once per process."""
    binom = binomials(63, 63)
    colex = kernels.build_colex(binom)
    binom.flags.writeable = colex.flags.writeable = False
    return binom, colex


@functools.cache
def _central(n: int) -> int:
    """``C(n, (n + 1) // 2)``: the colourings of ``n`` cells, X holding ``(n + 1) // 2``."""
    return comb(n, (n + 1) // 2)


def _times(poly: list[int], step: int, most: int) -> list[int]:
    """`poly` times ``1 + x**step + ... + x**(step * most)`` (coefficient lists)."""
    out = [0] * (len(poly) + step * most)
    for i, a in enumerate(poly):
        for h in range(most + 1):
            out[i + step * h] += a
    return out


def _holes(missing: int, cols: int, rows: int) -> list[tuple[int, ...]]:
    """The height vectors of `cols` columns of at most `rows` cells that miss `missing`
    stones of a full board."""
    if cols == 0:
        return [()] if missing == 0 else []
    return [
        (rows - gap, *rest)
        for gap in range(min(missing, rows) + 1)
        for rest in _holes(missing - gap, cols - 1, rows)
    ]


class _Tier(NamedTuple):
    """What the kernels need of one tier."""

    heights: NDArray[np.int64]
    offsets: NDArray[np.int64]
    n: int
    x: int
    filled: int
    palindrome: bool
    deposit: NDArray[np.int64]
    mirror_offsets: NDArray[np.int64]
    children: tuple[int, ...]
    which_of: NDArray[np.int8]
    mirrored: NDArray[np.bool_]
    symmetric: NDArray[np.bool_]


class HeightTieredConnectFour(TieredGame):
    """Connect Four on `rows` x `cols` cells tiered by column heights (module docstring).

    Parameters
    ----------
    rows, cols : int
        Board height and width, each at least 1, with ``(rows + 1) * cols <= 63``.

    Raises
    ------
    GameDefinitionError
        If the board is outside these limits.

    Notes
    -----
    Cost per call: :meth:`slots` one mask step, ``n / 8`` table reads and two four-in-a-row
    tests per rank; :meth:`children` one unranking (``n`` steps) per board and ``n / 8``
    table reads per move. Tables: 1 MiB once per process and 16 KiB per tier in use.
    """

    def __init__(self, rows: int = 6, cols: int = 6) -> None:
        refuse_untiered(rows, cols)
        self.rows, self.cols = rows, cols
        self.game = ConnectFour(rows, cols)
        self.info = GameInfo(
            "connect-four",
            {"rows": rows, "cols": cols},
            description=f"Connect Four on {rows} rows x {cols} columns, tiered by column heights",
        )

    # ------------------------------------------------------------------ tiers and their names
    def _encode(self, heights: Sequence[int]) -> int:
        return sum(h * (self.rows + 1) ** c for c, h in enumerate(heights))

    def _heights(self, tier: int) -> tuple[int, ...]:
        """The column heights of `tier`, its digits (checked without listing the tiers)."""
        heights: tuple[int, ...] | None = None
        integer = isinstance(tier, int | np.integer) and not isinstance(tier, bool)
        if integer and 0 <= tier < (self.rows + 1) ** self.cols:
            rest, digits = int(tier), []
            for _ in range(self.cols):
                rest, h = divmod(rest, self.rows + 1)
                digits.append(h)
            heights = tuple(digits)
        if heights is None or heights > heights[::-1]:
            raise InputFormatError(
                f"connect-four {self.rows}x{self.cols}: {tier!r} is not a tier (a vector of "
                "column heights not above its mirror image, as an integer)"
            )
        return heights

    def _canonical(self, heights: Sequence[int]) -> tuple[int, bool]:
        """The tier of `heights` and whether its boards are mirrored into it."""
        mirrored = tuple(heights) > tuple(heights[::-1])
        return self._encode(heights[::-1] if mirrored else heights), mirrored

    @functools.cached_property
    def _vectors(self) -> dict[int, tuple[int, ...]]:
        """Every tier's heights, fullest boards first."""
        vectors = np.indices((self.rows + 1,) * self.cols).reshape(self.cols, -1).T[:, ::-1]
        keep = [tuple(v) for v in vectors.tolist() if tuple(v) <= tuple(v[::-1])]
        keep.sort(key=lambda v: (-sum(v), v))
        return {self._encode(v): v for v in keep}

    def tiers(self) -> list[int]:
        """Every canonical height vector (as an integer, column ``c`` the digit of weight
        ``(rows + 1) ** c``), fullest boards first."""
        return list(self._vectors)

    def total_size(self) -> int:
        """The ranks of every tier: ``C(n, (n + 1) // 2)`` times the tiers of ``n`` stones,
        counted by polynomials (height vectors, and those that are their own mirror image),
        without listing the tiers. Cost: ``O((rows * cols)**2)`` steps."""
        every, mirrored = [1], [1]  # coefficient n: height vectors of n stones
        for c in range(self.cols):
            every = _times(every, 1, self.rows)
            if c < self.cols // 2:
                mirrored = _times(mirrored, 2, self.rows)
        if self.cols % 2:
            mirrored = _times(mirrored, 1, self.rows)
        return sum(
            _central(n) * (all_ + own) // 2
            for n, (all_, own) in enumerate(zip(every, mirrored, strict=True))
        )

    def largest_tiers(self, count: int) -> list[int]:
        """The `count` tiers of most ranks, fullest boards first (as :meth:`tiers` orders
        them), without listing every tier: the tiers missing 0, 1, 2... stones. Cost: the
        height vectors up to the last number of missing stones taken."""
        found: list[int] = []
        for missing in range(self.rows * self.cols + 1):
            if len(found) >= count:
                break
            vectors = [v for v in _holes(missing, self.cols, self.rows) if v <= v[::-1]]
            found += [self._encode(v) for v in sorted(vectors)]
        return found[:count]

    def tier_label(self, tier: int) -> str:
        """The column heights, left to right: ``6-6-5-6-6-6``."""
        return "-".join(map(str, self._heights(tier)))

    def tier_stones(self, tier: int) -> int:
        """The number of stones on the boards of `tier`."""
        return sum(self._heights(tier))

    def tier_group(self, tier: int) -> str:
        """Tiers are reported by their number of stones: ``"17 stones"``."""
        stones = self.tier_stones(tier)
        return f"{stones} stone{'' if stones == 1 else 's'}"

    def child_tiers(self, tier: int) -> list[int]:
        """The canonical tiers one stone higher in each open column, each once."""
        return list(self._tier(tier).children)

    def tier_size(self, tier: int) -> int:
        """``C(n, (n + 1) // 2)`` for ``n`` stones: every colouring of the tier's cells."""
        n = sum(self._heights(tier))
        return _central(n)

    @functools.lru_cache(maxsize=1024)  # noqa: B019 (the instance lives as long as its solve)
    def _tier(self, tier: int) -> _Tier:
        heights = self._heights(tier)
        height = self.rows + 1
        filled = 0
        for c, h in enumerate(heights):
            filled |= ((1 << h) - 1) << (c * height)
        n = sum(heights)
        children: list[int] = []
        which_of = np.zeros(self.cols, dtype=np.int8)
        mirrored = np.zeros(self.cols, dtype=np.bool_)
        symmetric = np.zeros(self.cols, dtype=np.bool_)
        for c, h in enumerate(heights):
            if h == self.rows:
                continue
            raised = (*heights[:c], h + 1, *heights[c + 1 :])
            child, flip = self._canonical(raised)
            if child not in children:
                children.append(child)
            which_of[c] = children.index(child) + 1
            mirrored[c] = flip
            symmetric[c] = raised == raised[::-1]
        return _Tier(
            np.array(heights, dtype=np.int64),
            np.cumsum((0, *heights[:-1]), dtype=np.int64),
            n,
            (n + 1) // 2,
            filled,
            heights == heights[::-1],
            kernels.build_deposit(filled),
            np.cumsum((0, *heights[::-1][:-1]), dtype=np.int64),
            tuple(children),
            which_of,
            mirrored,
            symmetric,
        )

    # ------------------------------------------------------------------ the protocol
    def slots(self, tier: int, start: int, stop: int) -> NDArray[np.bool_]:
        """Which ranks ``start..stop-1`` of `tier` to solve (module docstring). Cost: a few ns
        per rank."""
        size = self.tier_size(tier)
        if not 0 <= start <= stop <= size:
            raise InputFormatError(
                f"connect-four tier {self.tier_label(tier)}: rank range {start}..{stop} outside "
                f"0..{size}"
            )
        t = self._tier(tier)
        binom, colex = _global_tables()
        out = np.empty(stop - start, dtype=np.bool_)
        if stop > start:
            kernels.slots(
                start, t.n, t.x, t.filled, t.palindrome, t.heights, t.offsets, self.rows,
                binom, t.deposit, colex, out,
            )  # fmt: skip
        return out

    def children(self, tier: int, ranks: NDArray[np.int64]) -> TierMoves:
        """Primitive values and canonical children of `ranks` (slots of `tier`): LOSE (for the
        player to move) where the last mover has four in a row, TIE on a full board, else one
        move per open column, left to right. Cost: ``n`` steps per board and ``n / 8`` table
        reads per move."""
        ranks = self._ranks(tier, ranks)
        t = self._tier(tier)
        binom, colex = _global_tables()
        primitive = np.empty(len(ranks), dtype=np.uint8)
        indptr = np.empty(len(ranks) + 1, dtype=np.int64)
        which = np.empty(len(ranks) * self.cols, dtype=np.int8)
        child_rank = np.empty(len(ranks) * self.cols, dtype=np.int64)
        m = kernels.children(
            ranks, t.n, t.x, t.filled, self.rows, t.heights, t.offsets, t.mirror_offsets,
            binom, t.deposit, colex, t.which_of, t.mirrored, t.symmetric,
            primitive, indptr, which, child_rank,
        )  # fmt: skip
        return TierMoves(primitive, indptr, which[:m].copy(), child_rank[:m].copy())

    def orbit_sizes(self, tier: int, ranks: NDArray[np.int64]) -> NDArray[np.int64]:
        """1 for a board that is its own mirror image, 2 otherwise (every board of a tier that
        is not its own mirror image stands for its image in the mirror tier too)."""
        ranks = self._ranks(tier, ranks)
        t = self._tier(tier)
        if not t.palindrome:
            return np.full(len(ranks), 2, dtype=np.int64)
        out = np.empty(len(ranks), dtype=np.int64)
        kernels.orbit_sizes(
            ranks, t.n, t.x, self.rows, self.cols, _global_tables()[0], t.deposit, out
        )
        return out

    def initial(self) -> tuple[int, int]:
        """The empty board: tier ``0-0-...-0``, rank 0."""
        return (0, 0)

    def position(self, tier: int, rank: int) -> Board:
        """The board of `rank` in `tier` as a ConnectFour position (columns bottom up).

        Raises
        ------
        InputFormatError
            If `tier` or `rank` is out of range.
        """
        t = self._tier(tier)
        ranks = self._ranks(tier, [rank])
        xs = sum(1 << int(cell) for cell in colex_unrank(ranks, t.x, t.n)[0])
        columns = []
        for c, h in enumerate(int(v) for v in t.heights):
            base = int(t.offsets[c])
            columns.append("".join("X" if xs >> (base + r) & 1 else "O" for r in range(h)))
        return tuple(columns)

    def locate(self, position: Any) -> tuple[int, int]:
        """``(tier, rank)`` of the canonical form of `position` (any board with X moving first).
        Cost: :meth:`locate_bitboards` of its one board.

        Raises
        ------
        InputFormatError
            If `position` is not a tuple of `cols` column strings of X and O, each at most
            `rows` long, with X holding as many stones as O or one more.
        """
        mask, current = self.game._bits(checked_board(position, self.rows, self.cols))
        x = current if mask.bit_count() % 2 == 0 else mask ^ current
        tiers, ranks = self.locate_bitboards(np.array([x]), np.array([mask ^ x]))
        return int(tiers[0]), int(ranks[0])

    def locate_bitboards(
        self, xs: NDArray[np.int64], os: NDArray[np.int64]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """``(tiers, ranks)`` of the canonical forms of many boards, given as bitboards of
        their X stones `xs` and O stones `os` (bit ``c * (rows + 1) + r``: column ``c``, row
        ``r`` from the bottom): :meth:`locate` without a Python object per board.

        Cost: a pass over the columns and ``n / 8`` table reads per board (twice in a tier
        that is its own mirror image): 13 ns a board over the 35 M slots by stone count of 5x5.

        Raises
        ------
        InputFormatError
            If `xs` and `os` are not one-dimensional integer arrays of one length, or a pair is
            no board (named by its index): stones overlapping, off the board or above an empty
            cell, or X not holding ``(n + 1) // 2`` of the ``n`` stones.

        Examples
        --------
        >>> game = HeightTieredConnectFour(rows=4, cols=4)
        >>> xs, os = np.array([1 << 15]), np.array([1 << 5])  # X in the 4th column, O in the 2nd
        >>> tiers, ranks = game.locate_bitboards(xs, os)
        >>> game.tier_label(int(tiers[0])), game.position(int(tiers[0]), int(ranks[0]))
        ('0-1-0-1', ('', 'O', '', 'X'))
        >>> game.locate_bitboards(np.array([1, 1]), np.array([2, 4]))
        Traceback (most recent call last):
        ...
        perfectplay.errors.InputFormatError: connect-four 4x4 board 1 (X 0b1, O 0b100) is no ...
        """
        xs, os = np.asarray(xs), np.asarray(os)
        if (
            xs.ndim != 1
            or xs.shape != os.shape
            or not np.issubdtype(xs.dtype, np.integer)
            or not np.issubdtype(os.dtype, np.integer)
        ):
            raise InputFormatError(
                "connect-four bitboards must be two one-dimensional integer arrays of one "
                f"length, got shapes {xs.shape} and {os.shape}"
            )
        xs = np.ascontiguousarray(xs, dtype=np.int64)
        os = np.ascontiguousarray(os, dtype=np.int64)
        tiers = np.empty(xs.shape[0], dtype=np.int64)
        ranks = np.empty(xs.shape[0], dtype=np.int64)
        bad = kernels.locate_bitboards(
            xs, os, self.rows, self.cols, _global_tables()[1], tiers, ranks
        )
        if bad >= 0:
            raise InputFormatError(
                f"connect-four {self.rows}x{self.cols} board {bad} (X {bin(int(xs[bad]))}, O "
                f"{bin(int(os[bad]))}) is no board: stones overlapping, off the board or above "
                "an empty cell, or X not holding (n + 1) // 2 of the n stones"
            )
        return tiers, ranks

    def as_game(self) -> ConnectFour:
        """The same board as a :class:`~perfectplay.games.connect_four.rules.ConnectFour`."""
        return self.game

    def inner_moves(self, tier: int) -> bool:
        """False: every move adds a stone."""
        return False

    def max_moves(self) -> int:
        """One move per column."""
        return self.cols

    # ------------------------------------------------------------------ helpers
    def _ranks(self, tier: int, ranks: Sequence[int] | NDArray[Any]) -> NDArray[np.int64]:
        return checked_ranks(ranks, self.tier_size(tier), self.tier_label(tier))
