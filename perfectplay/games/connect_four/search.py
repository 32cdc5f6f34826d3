"""Connect Four's compiled search: the :class:`~perfectplay.search.kernel.SearchKernel` that
:meth:`ConnectFour.search_kernel <perfectplay.games.connect_four.rules.ConnectFour.search_kernel>`
offers the search engine, on any board with ``(rows + 1) * cols <= 64`` (past it:
:mod:`~perfectplay.games.connect_four.wide_search`).

The kernels (:mod:`._search_kernels`) score a position as Pascal Pons's solver does (the
*Pons score*, for the player to move): a win whose winning stone is the ``s``-th stone of the
game scores ``(cells + 2 - s) // 2``, a loss minus the opponent's, a full-board tie 0. A score
gives the value and the remoteness at once (:func:`score_to_value`), so the search of one
position answers what the strong solvers answer there.

Examples
--------
>>> from perfectplay.games.connect_four.rules import ConnectFour
>>> from perfectplay.search import search
>>> game = ConnectFour(rows=6, cols=7)
>>> r = search(game, game.parse("2252576253462244111563365343671351441"), all_moves=True)
>>> r.value, r.remoteness, r.best_moves
(<Value.LOSE: 0>, 4, ('f',))
>>> [str(m) for m in r.moves]
['f: LOSE in 4', 'g: LOSE in 2']
>>> score_to_value(-2, 4, 6, 7)  # 4453 on 6 x 7: the player to move loses with stone 40
(<Value.LOSE: 0>, 36)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from perfectplay.games.connect_four import _search_kernels as kernels
from perfectplay.games.connect_four._bitboard import COLUMN_LABELS
from perfectplay.search._kernel_table import table_shift
from perfectplay.values import Value

__all__ = ["ConnectFourSearch", "score_to_value"]

Board = tuple[str, ...]
"""A position as :class:`~perfectplay.games.connect_four.rules.ConnectFour` writes it."""


def score_to_value(score: int, n: int, rows: int, cols: int) -> tuple[Value, int]:
    """``(value, remoteness)`` of a Pons score at a position with `n` stones, for the player
    to move: the value by the score's sign, the remoteness the stones still to be played up
    to the winning one (a tie: to the full board, ``cells - n``).

    >>> score_to_value(18, 6, 6, 7), score_to_value(-18, 5, 6, 7), score_to_value(0, 4, 6, 7)
    ((<Value.WIN: 3>, 1), (<Value.LOSE: 0>, 2), (<Value.TIE: 2>, 38))
    """
    cells = rows * cols
    if score == 0:
        return Value.TIE, cells - n
    # The winning stone s has (cells + 2 - s) // 2 == |score|: s is cells + 2 - 2|score| or one
    # less; the mover plays stones n + 1, n + 3, ... (a win), the opponent n + 2, ... (a loss).
    s = cells + 2 - 2 * abs(score)
    if (s - n) % 2 != (1 if score > 0 else 0):
        s -= 1
    return (Value.WIN if score > 0 else Value.LOSE), s - n


class ConnectFourSearch:
    """The alpha-beta of :mod:`._search_kernels` for one board size, on the game's positions,
    each bitboard one ``uint64`` (:class:`~.wide_search.ConnectFourWideSearch`: two).

    Its tables hold bounds keyed by bitboards of this board size only (the engine allocates a
    table per search).
    """

    offset = 0
    """The bit of the board's first cell (0 but in tests of the two-word search)."""
    extra = np.uint64(0)
    """The bits of a key past one word."""

    def __init__(self, game: Any) -> None:
        self.game = game
        """The :class:`~perfectplay.games.connect_four.rules.ConnectFour` it searches."""
        self.rows, self.cols = game.rows, game.cols
        self._shift: tuple[NDArray[np.uint64] | None, np.uint64] = (None, np.uint64(0))
        """The last table searched and its shift, checked once per table."""

    def _table_shift(self, table: NDArray[np.uint64]) -> np.uint64:
        kept, shift = self._shift
        if kept is not table:
            shift = self._shift_of(table)
            self._shift = table, shift
        return shift

    def _shift_of(self, table: NDArray[np.uint64]) -> np.uint64:
        """The table's :func:`~perfectplay.search._kernel_table.table_shift` (checks it)."""
        return table_shift(table)

    def _word(self, bits: int) -> Any:
        """A bitboard of the game's layout as the kernels' board word."""
        return np.uint64(bits)

    def _bits(self, position: Board) -> tuple[Any, Any, int]:
        """``(current, mask, stones)`` of `position`, the bitboards as board words."""
        mask, current = self.game._bits(position)
        return self._word(current), self._word(mask), mask.bit_count()

    def solve(self, position: Board, weak: bool, table: NDArray[np.uint64]) -> tuple[int, int]:
        """``(Pons score, nodes)`` of `position` (only its sign, -1/0/1, when `weak`).

        Cost: the nodes of a null-window narrowing of the score (a few searches), about 70 ns
        each on one core on one word, a little more on two, plus the table's probes.
        """
        current, mask, n = self._bits(position)
        score, nodes = kernels.solve_kernel(
            current, mask, n, self.rows, self.cols, self.offset, weak, table,
            self._table_shift(table), self.extra,
        )  # fmt: skip
        return int(score), int(nodes)

    def _labelled(self, out: NDArray[np.int64]) -> tuple[tuple[str, int], ...]:
        return tuple(
            (COLUMN_LABELS[c], int(s)) for c, s in enumerate(out) if int(s) != kernels.INVALID_MOVE
        )

    def move_scores(
        self, position: Board, weak: bool, table: NDArray[np.uint64]
    ) -> tuple[tuple[tuple[str, int], ...], int]:
        """``((label, score), ...), nodes``: every move's exact score (its sign when `weak`)
        for the player making it, in ``moves`` order. Cost: a search per move."""
        current, mask, n = self._bits(position)
        out = np.empty(self.cols, dtype=np.int64)
        nodes = kernels.move_scores_kernel(
            current, mask, n, self.rows, self.cols, self.offset, weak, table,
            self._table_shift(table), self.extra, out,
        )  # fmt: skip
        return self._labelled(out), int(nodes)

    def move_bounds(
        self, position: Board, alpha: int, beta: int, table: NDArray[np.uint64]
    ) -> tuple[tuple[tuple[str, int], ...], int]:
        """``((label, bound), ...), nodes``: every move's score bounded by the window
        ``(alpha, beta)`` (exact inside it, a bound outside). Cost: a windowed search per move."""
        current, mask, n = self._bits(position)
        out = np.empty(self.cols, dtype=np.int64)
        nodes = kernels.move_bounds_kernel(
            current, mask, n, self.rows, self.cols, self.offset, alpha, beta, table,
            self._table_shift(table), self.extra, out,
        )  # fmt: skip
        return self._labelled(out), int(nodes)

    def solve_bitboards(
        self, currents: Sequence[int], masks: Sequence[int], weak: bool, table: NDArray[np.uint64]
    ) -> tuple[NDArray[np.int64], int]:
        """``(scores, nodes)`` of many positions given as bitboards in the game's layout (the
        stones of the player to move, every stone: integers, or arrays of uint64 on one
        word), in one call with one table.

        Every position must be one where nobody has four yet. Cost: their searches, each
        helped by what the ones before it stored (two words: first a Python step per position
        to split its bitboards).
        """
        boards = self._boards(currents, masks)
        scores = np.empty(len(boards), dtype=np.int64)
        nodes = kernels.solve_many_kernel(
            boards, self.rows, self.cols, self.offset, weak, table, self._table_shift(table),
            self.extra, scores,
        )  # fmt: skip
        return scores, int(nodes)

    def _boards(self, currents: Sequence[int], masks: Sequence[int]) -> NDArray[np.uint64]:
        """The positions as :func:`~._search_kernels.solve_many_kernel` takes them."""
        return np.stack(
            [np.asarray(currents, dtype=np.uint64), np.asarray(masks, dtype=np.uint64)], axis=1
        )

    def score_to_value_remoteness(self, position: Board, score: int) -> tuple[Value, int]:
        """The value and remoteness an exact Pons score of `position` stands for."""
        return score_to_value(score, sum(map(len, position)), self.rows, self.cols)

    def over(self, position: Board) -> Value | None:
        """The value for the player to move if the game is over at `position`, else None: the
        rules' ``outcome``, as a board without four that is not full has a move (the answer of
        :func:`~perfectplay.protocol.game.over_value`, without building the moves)."""
        return self.game.outcome(position)
