"""One token on a grid: geography on the free cells of a board, moving up, down, left or right.

The token stands on a free cell (``.``); a move takes it one step to an orthogonally adjacent
free cell it has never visited (the start counts as visited); the player who cannot move
loses. This is vertex geography on the grid graph of free cells, which is bipartite by the
parity of ``row + col``: the player to move from a cell wins iff every maximum matching covers
it (:func:`perfectplay.solvers.geography.solve_geography`).

Examples
--------
>>> game = Grid.from_text('''
... .##
... ...
... #.#
... ''')
>>> game.n, game.graph()
(5, <GameGraph undirected, n=5, m=8>)
>>> game.encode(1, 2), game.decode(3)
(3, (1, 2))
>>> print(game.draw(3))
.##
..P
#.#
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from perfectplay.builders._cells import KING_STEPS, TokenGame, marked_cells, parse_rows, parse_text
from perfectplay.graph import GameGraph
from perfectplay.values import Position

__all__ = ["Grid", "marked_cells", "parse_board"]

parse_board = parse_rows
"""Board rows as a validated uint8 array of characters (see ``_board.parse_rows``)."""


class Grid(TokenGame):
    """One token on a board of free and blocked cells; positions are the free cells.

    Parameters
    ----------
    free : array of bool, shape (rows, cols)
        True on free cells. Position ids number the free cells in row-major order.

    Raises
    ------
    InvalidGraphError
        If `free` is not a two-dimensional boolean array.
    """

    __slots__ = ()

    @classmethod
    def from_text(cls, text: str) -> Grid:
        """A grid from rows of ``.`` (free), ``#`` (blocked) and at most one ``P`` (the token's
        start, a free cell); blank lines are ignored.

        Raises
        ------
        InputFormatError
            Rows of different lengths, other characters or several ``P`` (the message names the
            row and column).
        """
        free, tokens = parse_text(text, at_most=1)
        game = cls(free)
        game.start = int(game.board.id_of[tokens[0]]) if tokens.size else None
        return game

    @property
    def n(self) -> int:
        """Number of positions (free cells)."""
        return self.board.cells

    def graph(self) -> GameGraph:
        """The position graph (undirected): each free cell joined to its free 4-neighbours.

        Notes
        -----
        Cost: O(cells) time and memory, vectorized; about 40 bytes per free cell at the peak
        (checked with ``check_memory`` first).
        """
        return self.board.cell_graph(KING_STEPS)

    def reachable(self, *cells: tuple[int, int]) -> NDArray[np.bool_]:
        """The free cells the token can reach from any of `cells` (``(row, col)``, 0-based),
        as a ``(rows, cols)`` boolean array (the cells themselves included).

        Raises
        ------
        InputFormatError
            A cell off the board or blocked.

        Notes
        -----
        Cost: O(cells), one breadth-first search.

        >>> Grid.from_text(".#.\\n.#.").reachable((0, 0)).astype(int).tolist()
        [[1, 0, 0], [1, 0, 0]]
        """
        ids = [self.board.cell_id(r, c) for r, c in cells]
        mask = np.zeros(self.board.rows * self.board.cols, dtype=np.bool_)
        mask[self.board.cell_of] = self.board.reachable(ids, KING_STEPS)
        return mask.reshape(self.board.rows, self.board.cols)

    def encode(self, row: int, col: int) -> Position:
        """The position of the token on (`row`, `col`), 0-based.

        Raises
        ------
        InputFormatError
            If the cell is off the board or blocked.
        """
        return self.board.cell_id(row, col)

    def decode(self, position: Position) -> tuple[int, int]:
        """``(row, col)`` (0-based) of the token in `position`."""
        return self.board.coordinates(position)

    def draw(self, position: Position | None = None) -> str:
        """The board as text with the token drawn as ``P`` (none if `position` is None)."""
        return self.board.draw(() if position is None else (position,))

    def __repr__(self) -> str:
        return f"<Grid {self.board.rows}x{self.board.cols}, {self.n} free cells>"
