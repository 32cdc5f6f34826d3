"""Two indistinguishable tokens that capture on contact (CTU Open 2005 "Board Game", generalised).

Two tokens stand on distinct free cells of a board. A move takes either token one step up,
down, left or right onto a free cell; moving it onto the other token captures it and wins at
once. A position is the *unordered* pair of occupied cells, and no position may occur twice in
a game (the start counts); the player who cannot move loses.

Reduction to vertex geography. Tokens orthogonally adjacent on your turn: you win by capture
(never blocked by the repetition rule). So a non-capturing move into adjacency loses at once
and is never useful; a player whose only moves lead into adjacency loses, as if they had none.
What is left is vertex geography on the graph of pairs at Manhattan distance >= 2, bipartite by
the parity of ``r1 + c1 + r2 + c2``: the player to move from a pair ``p`` wins iff ``p`` is
adjacent (:meth:`TwoTokens.captures`) or every maximum matching covers ``p``.

Position ids rank every unordered pair of free cells (``rank = j(j-1)/2 + i`` for cell ids
``i < j``, row-major), adjacent pairs included: those have no moves in the graph.

Examples
--------
>>> game = TwoTokens.from_text('''
... P.#
... ..P
... ''')
>>> game.n, game.graph(), game.decode(game.start)
(10, <GameGraph undirected, n=10, m=6>, ((0, 0), (1, 2)))
>>> game.captures().sum()  # adjacent pairs: the mover captures
np.int64(5)
>>> print(game.draw(game.encode((0, 1), (1, 1))))
.P#
.P.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from perfectplay._memory import check_memory
from perfectplay._ranking import pair_count, pair_rank, pair_unrank
from perfectplay.builders._cells import KING_STEPS, TokenGame, parse_text
from perfectplay.builders._two_tokens_kernels import two_token_mover_wins
from perfectplay.errors import InputFormatError, InvalidGraphError, TooLargeError
from perfectplay.graph import GameGraph
from perfectplay.values import Position

__all__ = ["TwoTokens"]


class TwoTokens(TokenGame):
    """Two tokens on a board that capture on contact; positions are unordered pairs of cells.

    Parameters
    ----------
    free : array of bool, shape (rows, cols)
        True on free cells (numbered ``0..F-1`` in row-major order).
    start : int, optional
        The starting position, if the game has one.

    Raises
    ------
    InvalidGraphError
        If `free` is not a two-dimensional boolean array.
    """

    __slots__ = ()

    @classmethod
    def from_text(cls, text: str) -> TwoTokens:
        """A board from rows of ``.`` (free), ``#`` (removed) and exactly two ``P`` (the tokens'
        free cells, which set :attr:`start`); blank lines are ignored.

        Raises
        ------
        InputFormatError
            Rows of different lengths, other characters, or not exactly two ``P``.
        """
        free, tokens = parse_text(text, at_most=2)
        if tokens.size != 2:
            raise InputFormatError(f"the board must hold exactly two 'P', got {tokens.size}")
        game = cls(free)
        a, b = game.board.id_of[tokens]
        game.start = game.pair(int(a), int(b))
        return game

    @property
    def n(self) -> int:
        """Number of position ids: every unordered pair of distinct free cells."""
        return pair_count(self.board.cells)

    def graph(self) -> GameGraph:
        """The position graph (undirected): one token steps onto a free cell, both before and
        after the move the tokens are at Manhattan distance >= 2 (adjacent pairs are isolated).

        Notes
        -----
        Cost: O(F^2) time and memory for F free cells (about 4 bytes per move and 8 per
        position; at most 8 moves per position), vectorized in blocks of pairs. The memory
        needed is checked first (``TooLargeError``).
        """
        return self.board.pair_graph(KING_STEPS, min_distance=2)

    def mover_wins(self) -> NDArray[np.bool_]:
        """Per position: does the player to move win (the geography of :meth:`graph`)?

        Equal to ``solve_geography(self.graph()).mover_wins``, computed without building the
        graph: a maximum matching and the set D(G) on moves generated from the board
        (:mod:`perfectplay.builders._two_tokens_kernels`). Adjacent pairs are False here (they
        are isolated in the graph; in the game the mover captures: see :meth:`captures`).

        Raises
        ------
        TooLargeError
            If the work arrays would not fit in memory, or the pairs do not fit int32 ids.

        Notes
        -----
        Cost: a greedy matching, then phases of depth-first searches (each O(P) with at most 8
        moves per pair) until none augments, then one sweep; memory 10 bytes per pair (the
        stored graph and the CSR solver took about 69) plus search stacks.

        >>> game = TwoTokens.from_text("P..P")
        >>> game.mover_wins().tolist()  # pairs (0,1) (0,2) (1,2) (0,3) (1,3) (2,3)
        [False, False, False, True, False, False]
        """
        pairs = self.n
        if pairs >= 2**31:
            raise TooLargeError(f"{pairs} pairs of cells do not fit 32-bit position ids")
        check_memory(10.0 * pairs, f"two-token geography on {pairs} pairs of cells")
        table = self.board.neighbours(KING_STEPS)
        wins: NDArray[np.bool_] = two_token_mover_wins(table, self.board.row, self.board.col)
        return wins

    def captures(self) -> NDArray[np.bool_]:
        """Per position: are the tokens orthogonally adjacent (the mover captures and wins)?

        Cost: O(F^2) time, vectorized.
        """
        i, j = pair_unrank(np.arange(self.n, dtype=np.int64))
        return np.asarray(self.board.distance(i, j) == 1)

    def pair(self, a: int, b: int) -> Position:
        """The position of tokens on free cells with ids `a` and `b` (``a != b``).

        Raises
        ------
        InvalidGraphError
            If the ids are equal or out of range.
        """
        if a == b or not (0 <= a < self.board.cells and 0 <= b < self.board.cells):
            raise InvalidGraphError(
                f"two distinct cell ids in 0..{self.board.cells - 1} expected, got {a} and {b}"
            )
        return int(pair_rank(a, b))

    def encode(self, first: tuple[int, int], second: tuple[int, int]) -> Position:
        """The position with tokens on cells `first` and `second`, each ``(row, col)``, 0-based.

        Raises
        ------
        InputFormatError
            A cell off the board or blocked, or the same cell twice.
        """
        return self.pair(self.board.cell_id(*first), self.board.cell_id(*second))

    def decode(self, position: Position) -> tuple[tuple[int, int], tuple[int, int]]:
        """The two cells ``(row, col)`` of `position`, in row-major order.

        Raises
        ------
        InvalidGraphError
            If `position` is not a position id.
        """
        i, j = self._cells(position)
        return self.board.coordinates(i), self.board.coordinates(j)

    def _cells(self, position: Position) -> tuple[int, int]:
        if not 0 <= position < self.n:
            raise InvalidGraphError(f"position {position} is out of range 0..{self.n - 1}")
        i, j = pair_unrank(position)
        return int(i), int(j)

    def draw(self, position: Position | None = None) -> str:
        """The board as text with both tokens drawn as ``P`` (none if `position` is None)."""
        return self.board.draw(() if position is None else self._cells(position))

    def __repr__(self) -> str:
        return f"<TwoTokens {self.board.rows}x{self.board.cols}, {self.board.cells} free cells>"
