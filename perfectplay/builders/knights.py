"""One knight, or two indistinguishable knights, on a board with blocked cells.

A move jumps one knight by a chess knight move to an unblocked cell of the board, never onto
the other knight. No position (the set of occupied cells) may occur twice in a game, the start
included; the player who cannot move loses. This is vertex geography on the position graph,
which is bipartite: a jump changes the colour of the knight's square, so the parity of the
summed coordinates flips with every move. The player to move wins iff every maximum matching
covers the position.

Positions: with one knight, the free cells (row-major ids ``0..F-1``); with two, the unordered
pairs of distinct free cells ranked ``j(j-1)/2 + i`` for cell ids ``i < j``.

Examples
--------
>>> game = Knights.square(3)
>>> game.n, game.graph()  # the centre has no jump; the other eight cells form a cycle
(9, <GameGraph undirected, n=9, m=16>)
>>> two = Knights.square(3, blocked=[(1, 1)], count=2)
>>> two.n, two.graph().m
(28, 96)
>>> print(two.draw(two.encode((0, 0), (2, 1))))
N..
.#.
.N.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numpy.typing import ArrayLike

from perfectplay._ranking import pair_count, pair_rank, pair_unrank
from perfectplay.builders._cells import KNIGHT_JUMPS, Board
from perfectplay.errors import GameDefinitionError, InputFormatError, InvalidGraphError
from perfectplay.graph import GameGraph
from perfectplay.values import Position

__all__ = ["Knights"]


class Knights:
    """One or two knights on a board; positions are free cells or unordered pairs of them.

    Parameters
    ----------
    free : array of bool, shape (rows, cols)
        True on the cells a knight may stand on.
    count : {1, 2}
        Number of knights.

    Raises
    ------
    GameDefinitionError
        If `count` is not 1 or 2.
    InvalidGraphError
        If `free` is not a two-dimensional boolean array.
    """

    __slots__ = ("board", "count")

    def __init__(self, free: ArrayLike, count: int = 1) -> None:
        if count not in (1, 2) or isinstance(count, bool):
            raise GameDefinitionError(f"the number of knights must be 1 or 2, got {count!r}")
        self.board = Board(free)
        self.count = int(count)

    @classmethod
    def square(cls, size: int, blocked: Iterable[tuple[int, int]] = (), count: int = 1) -> Knights:
        """Knights on a `size` x `size` board with the `blocked` cells ``(row, col)`` (0-based).

        Repeated blocked cells are blocked once.

        Raises
        ------
        InputFormatError
            A blocked cell off the board.
        """
        cells = np.asarray(list(blocked), dtype=np.int64).reshape(-1, 2)
        off = np.flatnonzero((cells < 0).any(axis=1) | (cells >= size).any(axis=1))
        if off.size:
            r, c = cells[off[0]]
            raise InputFormatError(f"blocked cell ({r}, {c}) is off the {size} x {size} board")
        free = np.ones((size, size), dtype=np.bool_)
        free[cells[:, 0], cells[:, 1]] = False
        return cls(free, count)

    @property
    def n(self) -> int:
        """Number of positions: free cells (one knight) or unordered pairs of them (two)."""
        cells = self.board.cells
        return cells if self.count == 1 else pair_count(cells)

    def graph(self) -> GameGraph:
        """The position graph (undirected): one knight jumps to a free, unoccupied cell.

        Notes
        -----
        Cost: O(F) time and memory for one knight, O(F^2) for two (at most 16 moves per pair;
        about 4 bytes per move), vectorized in blocks of pairs, memory checked first.
        """
        if self.count == 1:
            return self.board.cell_graph(KNIGHT_JUMPS)
        return self.board.pair_graph(KNIGHT_JUMPS, min_distance=1)

    def encode(self, *cells: tuple[int, int]) -> Position:
        """The position with knights on `cells` (``count`` cells ``(row, col)``, 0-based).

        Raises
        ------
        InputFormatError
            The wrong number of cells, a cell off the board or blocked, or the same cell twice.
        """
        if len(cells) != self.count:
            raise InputFormatError(f"expected {self.count} knight cells, got {len(cells)}")
        ids = [self.board.cell_id(*cell) for cell in cells]
        if self.count == 1:
            return ids[0]
        if ids[0] == ids[1]:
            raise InputFormatError(f"the two knights cannot share the cell {cells[0]}")
        return int(pair_rank(ids[0], ids[1]))

    def decode(self, position: Position) -> tuple[tuple[int, int], ...]:
        """The knights' cells ``(row, col)`` in `position`, in row-major order.

        Raises
        ------
        InvalidGraphError
            If `position` is not a position id.
        """
        return tuple(self.board.coordinates(c) for c in self._cells(position))

    def _cells(self, position: Position) -> tuple[int, ...]:
        if not 0 <= position < self.n:
            raise InvalidGraphError(f"position {position} is out of range 0..{self.n - 1}")
        if self.count == 1:
            return (position,)
        i, j = pair_unrank(position)
        return int(i), int(j)

    def draw(self, position: Position | None = None) -> str:
        """The board as text with the knights drawn as ``N`` (none if `position` is None)."""
        return self.board.draw(() if position is None else self._cells(position), "N")

    def __repr__(self) -> str:
        b = self.board
        return f"<Knights count={self.count}, {b.rows}x{b.cols}, {b.cells} free cells>"
