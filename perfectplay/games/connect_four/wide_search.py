"""Connect Four's compiled search on boards past 64 bits: the
:class:`~perfectplay.search.kernel.SearchKernel` of boards with ``64 < (rows + 1) * cols <=
MAX_WIDE_BITS`` (7 rows x 9 columns, 8 x 8, 6 x 10, 20 rows x 4 columns ...), the search of
:mod:`._search_kernels` compiled for bitboards of two words (:class:`~._words.Wide`).

It answers as :class:`~perfectplay.games.connect_four.search.ConnectFourSearch` does (the same
Pons scores), with keys of ``(rows + 1) * cols`` bits: its table needs at least
``2**(17 + extra)`` entries of 8 bytes, ``extra = (rows + 1) * cols - 64``
(:attr:`ConnectFourWideSearch.least_table_bytes`; 7 x 9 and 8 x 8: 256 MiB, 6 x 10: 64 MiB),
which the search engine allocates when its budget is smaller by default and refuses below
when the budget was given. The kernel itself takes any board up to 128 bits (a row's or
diagonal's shifts carry across the words at any height), but past :data:`MAX_WIDE_BITS` no
table holds the keys (it would need more than ``2**40`` entries): those boards (7 rows x 11
columns, 21 rows x 4 columns, 87 rows x 1 column ...) are searched on the plain path.

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

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from perfectplay.errors import GameDefinitionError
from perfectplay.games.connect_four._bitboard import SEARCH_BITS
from perfectplay.games.connect_four._words import Wide
from perfectplay.games.connect_four.search import ConnectFourSearch
from perfectplay.search._kernel_table import (
    ENTRY_BYTES,
    MAX_LOG_SIZE,
    MIN_LOG_SIZE,
    least_wide_entries,
    wide_shift,
)

__all__ = ["MAX_WIDE_BITS", "ConnectFourWideSearch"]

MAX_WIDE_BITS = 64 + MAX_LOG_SIZE - MIN_LOG_SIZE
"""The longest key (87 bits) a table holds whole: its least table, ``2**(17 + extra)``
entries, is at most the largest one, ``2**MAX_LOG_SIZE``."""

Board = tuple[str, ...]
_LOW = (1 << 64) - 1


class ConnectFourWideSearch(ConnectFourSearch):
    """The search of :class:`~.search.ConnectFourSearch` with each bitboard two words
    (:class:`~._words.Wide`), on boards past 64 bits; `offset` (tests only) moves the board up
    by that many bits, so that a small board straddles the two words.

    Its tables hold bounds keyed by bitboards of this board size only (the engine allocates a
    table per search), at least :attr:`least_table_bytes` of them.
    """

    def __init__(self, game: Any, offset: int = 0) -> None:
        super().__init__(game)
        bits = offset + (self.rows + 1) * self.cols
        if offset < 0 or bits > SEARCH_BITS:
            raise GameDefinitionError(
                f"the two-word search takes boards with offset + (rows + 1) * cols <= "
                f"{SEARCH_BITS}, got rows={self.rows}, cols={self.cols}, offset={offset}"
            )
        self.offset = offset
        self.extra = np.uint64(max(bits - 64, 0))
        self.least_table_bytes = least_wide_entries(int(self.extra)) * ENTRY_BYTES
        """The smallest table whose checks hold the keys whole (no false hits)."""

    def _shift_of(self, table: NDArray[np.uint64]) -> np.uint64:
        """The table's :func:`~perfectplay.search._kernel_table.wide_shift` (checks it)."""
        return wide_shift(table, int(self.extra))

    def _word(self, bits: int) -> Wide:
        return Wide(np.uint64(bits << self.offset & _LOW), np.uint64(bits << self.offset >> 64))

    def _boards(self, currents: Sequence[int], masks: Sequence[int]) -> NDArray[np.uint64]:
        return np.array(
            [(self._word(c), self._word(m)) for c, m in zip(currents, masks, strict=True)],
            dtype=np.uint64,
        ).reshape(len(currents), 2, 2)
