"""Connect Four's compiled search on boards past 64 bits: the
:class:`~perfectplay.search.kernel.SearchKernel` of boards with ``64 < (rows + 1) * cols <= 128``
(7 rows x 9 columns, 8 x 8, 6 x 10, ...), each bitboard two words (:mod:`._wide_search_kernels`).

It answers as :class:`~perfectplay.games.connect_four.search.ConnectFourSearch` does (the same
Pons scores), with keys of ``(rows + 1) * cols`` bits: its table needs at least
``2**(17 + extra)`` entries of 8 bytes, ``extra = (rows + 1) * cols - 64``
(:attr:`ConnectFourWideSearch.least_table_bytes`; 7 x 9 and 8 x 8: 256 MiB, 6 x 10: 64 MiB),
which the search engine allocates when its budget is smaller by default and refuses below
when the budget was given. Boards of 4 columns or more and more than 19 rows (4 x 20 to 4 x 31,
5 x 20 to 5 x 24, 6 x 20) are searched on the plain path: a row's or diagonal's shifts must stay
below one word. Boards of 1 to 3 columns, where only a column holds four, are searched here at
any height.

Examples
--------
>>> from perfectplay.games.connect_four.rules import ConnectFour
>>> from perfectplay.search import search
>>> game = ConnectFour(rows=7, cols=9)
>>> type(game.search_kernel()).__name__, game.search_kernel().least_table_bytes >> 20
('ConnectFourWideSearch', 256)
>>> r = search(game, game.parse("9,1,9,1,9,1"))  # X to move wins in column 9 (i)
>>> r.value, r.remoteness, r.best_moves
(<Value.WIN: 3>, 1, ('i',))
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from perfectplay.errors import GameDefinitionError
from perfectplay.games.connect_four import _wide_search_kernels as kernels
from perfectplay.games.connect_four._bitboard import COLUMN_LABELS, SEARCH_BITS
from perfectplay.games.connect_four._search_kernels import INVALID_MOVE
from perfectplay.games.connect_four.search import score_to_value
from perfectplay.search._kernel_table import ENTRY_BYTES, least_wide_entries, wide_shift
from perfectplay.values import Value

__all__ = ["MAX_WIDE_ROWS", "ConnectFourWideSearch", "board_shape"]

MAX_WIDE_ROWS = 19
"""The most rows of the two-word search on boards of 4 columns or more: a row's or diagonal's
longest shift, ``3 * (rows + 2)``, stays below 64 bits (boards of fewer columns have no such
lines and any number of rows)."""

Board = tuple[str, ...]
_LOW = (1 << 64) - 1


def _words(bits: int) -> tuple[np.uint64, np.uint64]:
    return np.uint64(bits & _LOW), np.uint64(bits >> 64)


def board_shape(rows: int, cols: int, offset: int = 0) -> NDArray[np.uint64]:
    """The masks of a board for :mod:`._wide_search_kernels`, each as two words: the bottom
    cell of every column, every cell, the cells of rows 2, 4, ... (1-based), then the cells
    of each column; the board starts at bit `offset`.

    >>> board_shape(6, 7)[0].tolist()  # bottom: bits 0, 7, ..., 42
    [4432676798593, 0]
    >>> board_shape(2, 3, 62)[3:].tolist()  # column a: bits 62, 63; b: 65, 66; c: 68, 69
    [[13835058055282163712, 0], [0, 6], [0, 48]]
    """
    height = rows + 1
    column = (1 << rows) - 1
    bottom = sum(1 << (offset + c * height) for c in range(cols))
    evens = bottom * sum(1 << r for r in range(1, rows, 2))
    masks = [bottom, bottom * column, evens]
    masks += [column << (offset + c * height) for c in range(cols)]
    return np.array([_words(m) for m in masks], dtype=np.uint64).reshape(cols + 3, 2)


class ConnectFourWideSearch:
    """The alpha-beta of :mod:`._wide_search_kernels` for one board size, on the game's
    positions; `offset` (tests only) moves the board up by that many bits, so that a small
    board straddles the two words.

    Its tables hold bounds keyed by bitboards of this board size only (the engine allocates a
    table per search).
    """

    def __init__(self, game: Any, offset: int = 0) -> None:
        self.game = game
        """The :class:`~perfectplay.games.connect_four.rules.ConnectFour` it searches."""
        self.rows, self.cols = game.rows, game.cols
        bits = offset + (self.rows + 1) * self.cols
        if offset < 0 or bits > SEARCH_BITS or (self.rows > MAX_WIDE_ROWS and self.cols >= 4):
            raise GameDefinitionError(
                f"the two-word search takes boards of at most 3 columns or {MAX_WIDE_ROWS} rows "
                f"whose offset + (rows + 1) * cols <= {SEARCH_BITS}, got rows={self.rows}, "
                f"cols={self.cols}, offset={offset}"
            )
        self.offset = offset
        self.extra = max(bits - 64, 0)
        """The bits of a key's high word."""
        self.shape = board_shape(self.rows, self.cols, offset)
        self.least_table_bytes = least_wide_entries(self.extra) * ENTRY_BYTES
        """The smallest table whose checks hold the keys whole (no false hits)."""
        self._shift: tuple[NDArray[np.uint64] | None, np.uint64] = (None, np.uint64(0))

    def _table_shift(self, table: NDArray[np.uint64]) -> np.uint64:
        kept, shift = self._shift
        if kept is not table:
            shift = wide_shift(table, self.extra)
            self._shift = table, shift
        return shift

    def _bits(self, position: Board) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64, int]:
        """``(current lo, current hi, mask lo, mask hi, stones)`` of `position`."""
        mask, current = self.game._bits(position)
        return (
            *_words(current << self.offset),
            *_words(mask << self.offset),
            mask.bit_count(),
        )

    def solve(self, position: Board, weak: bool, table: NDArray[np.uint64]) -> tuple[int, int]:
        """``(Pons score, nodes)`` of `position` (only its sign when `weak`). Cost: as the
        one-word search's nodes, each a little dearer (two words per bitboard)."""
        clo, chi, mlo, mhi, n = self._bits(position)
        score, nodes = kernels.solve_kernel(
            clo, chi, mlo, mhi, n, self.rows, self.cols, self.shape, weak, table,
            self._table_shift(table), self.extra,
        )  # fmt: skip
        return int(score), int(nodes)

    def _labelled(self, out: NDArray[np.int64]) -> tuple[tuple[str, int], ...]:
        return tuple((COLUMN_LABELS[c], int(s)) for c, s in enumerate(out) if s != INVALID_MOVE)

    def move_scores(
        self, position: Board, weak: bool, table: NDArray[np.uint64]
    ) -> tuple[tuple[tuple[str, int], ...], int]:
        """``((label, score), ...), nodes``: every move's exact score (its sign when `weak`)
        for the player making it. Cost: a search per move."""
        clo, chi, mlo, mhi, n = self._bits(position)
        out = np.empty(self.cols, dtype=np.int64)
        nodes = kernels.move_scores_kernel(
            clo, chi, mlo, mhi, n, self.rows, self.cols, self.shape, weak, table,
            self._table_shift(table), self.extra, out,
        )  # fmt: skip
        return self._labelled(out), int(nodes)

    def move_bounds(
        self, position: Board, alpha: int, beta: int, table: NDArray[np.uint64]
    ) -> tuple[tuple[tuple[str, int], ...], int]:
        """``((label, bound), ...), nodes``: every move's score bounded by the window
        ``(alpha, beta)``. Cost: a windowed search per move."""
        clo, chi, mlo, mhi, n = self._bits(position)
        out = np.empty(self.cols, dtype=np.int64)
        nodes = kernels.move_bounds_kernel(
            clo, chi, mlo, mhi, n, self.rows, self.cols, self.shape, alpha, beta, table,
            self._table_shift(table), self.extra, out,
        )  # fmt: skip
        return self._labelled(out), int(nodes)

    def solve_bitboards(
        self, currents: list[int], masks: list[int], weak: bool, table: NDArray[np.uint64]
    ) -> tuple[NDArray[np.int64], int]:
        """``(scores, nodes)`` of many positions given as bitboards (Python integers in the
        game's layout: the stones of the player to move, every stone), in one call with one
        table. Every position must be one where nobody has four yet. Cost: a Python step per
        position to split its bitboards into words, then their searches."""
        boards = np.array(
            [
                (*_words(c << self.offset), *_words(m << self.offset))
                for c, m in zip(currents, masks, strict=True)
            ],
            dtype=np.uint64,
        ).reshape(len(currents), 4)
        scores = np.empty(len(currents), dtype=np.int64)
        nodes = kernels.solve_many_kernel(
            boards, self.rows, self.cols, self.shape, weak, table, self._table_shift(table),
            self.extra, scores,
        )  # fmt: skip
        return scores, int(nodes)

    def score_to_value_remoteness(self, position: Board, score: int) -> tuple[Value, int]:
        """The value and remoteness an exact Pons score of `position` stands for."""
        return score_to_value(score, sum(map(len, position)), self.rows, self.cols)
