"""Teeko, as GamesmanOne plays it: drop 4 pieces, then slide them; 4 in a row or a square wins.

The rules of GamesmanOne's standard variant (``src/games/teeko/teeko.c``, v1.3.0, in
https://github.com/GamesCrafters/GamesmanOne), with the board side and the pieces per player
as parameters (5 and 4 are Teeko; smaller boards are for tests):

* The board is n x n, empty at the start; **X moves first**.
* Drop phase: the players take turns placing one of their pieces on an empty cell until each
  has placed its ``k`` pieces.
* Moving phase: the player to move slides one of their pieces to an empty cell next to it in
  any of the 8 directions.
* A player wins with their ``k`` pieces on a pattern: ``k`` adjacent cells of a row, a column or
  a diagonal, or, for ``k = 4``, the corners of a 2x2 square (44 patterns on 5x5; GamesmanOne's
  "advanced" variant, which adds larger squares, is not played here).
* A position with a pattern on the board is over, lost for the player to move (the player who
  just moved made it; GamesmanOne scores the boards no game reaches, where the pattern is the
  mover's, the same way). Boards where both players have a pattern are not positions.
* Endless play is a DRAW. A player without a move would lose; no position of Teeko has one.

Values, for the player to move: the start of Teeko is a DRAW (Guy Steele's 1998 result, as
GamesmanOne finds it; ``perfectplay solve teeko --tiers DIR``).

A position is ``(board, turn)``: `board` is a string of n * n cells ``X``, ``O`` or ``-``, row by
row from the top, and `turn` is ``"X"`` or ``"O"``, the player to move. Move labels are
GamesmanOne's move strings with ``-`` for the blank: a drop is the cell, numbered 1 to n * n row
by row from the top left (``"13"``); a slide is its cell and the empty cell it goes to
(``"7-13"``). Moves come in GamesmanOne's order. The 8 symmetries of the square keep the
value, and so does swapping the colours and the player to move once every piece is down:
:meth:`Teeko.canonical` makes X the player to move in the moving phase, then picks the image
whose bitboards (X first, then O; bit ``d`` for cell ``d``) are smallest.

:class:`~perfectplay.games.teeko.tiers.TieredTeeko` is the same game for the tier engine.

References
----------
GamesCrafters, *GamesmanOne*, ``src/games/teeko/teeko.c`` (R. Shi), after J. S. Scarne's
*Teeko* (1937); G. L. Steele Jr., *Teeko is a draw* (1998).

Examples
--------
>>> game = Teeko()
>>> [label for label, _ in game.moves(game.initial())][:3]
['1', '2', '3']
>>> board = "XX---" "OO---" "XX---" "OO---" "-----"
>>> [label for label, _ in game.moves((board, "X"))][:4]
['2-3', '2-8', '12-8', '12-13']
>>> game.outcome(("XX---" "XX---" "OOO--" "O----" "-----", "O"))  # X's square: O has lost
<Value.LOSE: 0>
"""

from __future__ import annotations

from math import comb
from typing import Any

from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.games._square_board import BoardText, bitboards, board_of, square_symmetries
from perfectplay.protocol.game import Game, GameInfo
from perfectplay.values import Value

__all__ = ["Teeko", "TeekoPosition", "check_params", "patterns", "swap"]

TeekoPosition = tuple[str, str]
"""``(board, turn)``: n * n cells ``X``/``O``/``-`` row by row from the top; ``"X"``/``"O"``."""

_DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
"""GamesmanOne's order of a piece's slides: rows above first, then columns left to right."""


def patterns(n: int, k: int) -> list[tuple[int, ...]]:
    """The winning patterns of ``k`` cells on the n x n board, as sorted cell tuples.

    ``k`` adjacent cells in a row, a column or a diagonal of either direction, and, for
    ``k = 4``, the corners of a 2x2 square (GamesmanOne's standard rule). Cost: O(n^2 k).

    >>> len(patterns(5, 4)), len(patterns(4, 3))  # 10 + 10 + 4 + 4 lines and 16 squares
    (44, 24)
    """
    found = set()
    for r in range(n):
        for c in range(n):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                if 0 <= end_r < n and 0 <= end_c < n:
                    found.add(tuple(sorted((r + dr * i) * n + c + dc * i for i in range(k))))
            if k == 4 and r + 1 < n and c + 1 < n:
                found.add((r * n + c, r * n + c + 1, (r + 1) * n + c, (r + 1) * n + c + 1))
    return sorted(found)


def check_params(size: Any, pieces: Any) -> tuple[int, int]:
    """``(size, pieces)`` checked: a side of 3 to 5 and 3 to `size` pieces per player."""
    for name, value, low, high in (("size", size, 3, 5), ("pieces", pieces, 3, size)):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise GameDefinitionError(f"teeko needs {name} between {low} and {high}, got {value!r}")
    return size, pieces


def swap(board: str) -> str:
    """`board` with the colours of the pieces swapped."""
    return board.translate(str.maketrans("XO", "OX"))


class Teeko(Game[TeekoPosition]):
    """Teeko on a `size` x `size` board with `pieces` pieces each (see the module docstring).

    Parameters
    ----------
    size : int
        Board side, 3 to 5 (Teeko: 5).
    pieces : int
        Pieces per player and the length of a winning line, 3 to `size` (Teeko: 4; the 2x2
        squares count only for 4).

    Raises
    ------
    GameDefinitionError
        If a parameter is out of range.
    """

    def __init__(self, size: int = 5, pieces: int = 4) -> None:
        self.size, self.pieces = check_params(size, pieces)
        self.cells = size * size
        self.info = GameInfo(
            "teeko",
            {"size": size, "pieces": pieces},
            cyclic=True,
            description=f"Teeko on {size}x{size} with {pieces} pieces each (GamesmanOne's rules)",
        )
        self._patterns = set(patterns(size, pieces))
        self._perms = square_symmetries(size)
        self._text = BoardText(size, size)

    def initial(self) -> TeekoPosition:
        return "-" * self.cells, "X"

    def position_bound(self) -> int:
        """The boards with as many X as O pieces, or one X more, at most ``k`` each, and one
        player to move (either once all are down): 320,329 on 4x4 with 3 pieces."""
        n, k = self.cells, self.pieces
        drops = sum(comb(n, (t + 1) // 2) * comb(n - (t + 1) // 2, t // 2) for t in range(2 * k))
        return drops + 2 * comb(n, k) * comb(n - k, k)

    def moves(self, position: TeekoPosition) -> list[tuple[str, TeekoPosition]]:
        board, turn = position
        if self.outcome(position) is not None:
            return []
        other = "O" if turn == "X" else "X"
        result = []
        if board.count("-") > self.cells - 2 * self.pieces:  # drop phase
            for d, cell in enumerate(board):
                if cell == "-":
                    result.append((str(d + 1), (board[:d] + turn + board[d + 1 :], other)))
            return result
        n = self.size
        for src, cell in enumerate(board):
            if cell != turn:
                continue
            r, c = divmod(src, n)
            for dr, dc in _DIRECTIONS:
                if 0 <= r + dr < n and 0 <= c + dc < n and board[(r + dr) * n + c + dc] == "-":
                    dest = (r + dr) * n + c + dc
                    cells = list(board)
                    cells[src], cells[dest] = "-", turn
                    result.append((f"{src + 1}-{dest + 1}", ("".join(cells), other)))
        return result

    def winner(self, board: str) -> str | None:
        """``"X"`` or ``"O"`` if that player's pieces form a pattern (X first), else None."""
        for symbol in "XO":
            cells = tuple(d for d, cell in enumerate(board) if cell == symbol)
            if cells in self._patterns:
                return symbol
        return None

    def outcome(self, position: TeekoPosition) -> Value | None:
        return Value.LOSE if self.winner(position[0]) is not None else None

    def canonical(self, position: TeekoPosition) -> TeekoPosition:
        board, turn = position
        if turn == "O" and board.count("-") == self.cells - 2 * self.pieces:
            board, turn = swap(board), "X"

        def key(perm: list[int]) -> tuple[int, int]:
            image = [""] * len(board)
            for d, cell in enumerate(board):
                image[perm[d]] = cell
            x, o = bitboards("".join(image))
            return x, o

        return board_of(min(key(perm) for perm in self._perms), self.cells), turn

    def render(self, position: TeekoPosition) -> str:
        return self._text.render(position)

    def notation(self, position: TeekoPosition) -> str:
        """The rows from the top joined by ``/``, a blank and the side to move."""
        return self._text.notation(position)

    def parse(self, text: str) -> TeekoPosition:
        """The position :meth:`render` draws (rows, then ``X to move``) or :meth:`notation`
        writes (rows joined by ``/``, a blank, ``X`` or ``O``); raises InputFormatError for a
        board no game of Teeko reaches by its counts of pieces."""
        board, turn = self._text.parse(text)
        self.check(board, turn)
        return board, turn

    def check(self, board: str, turn: str) -> None:
        """Raise InputFormatError unless the piece counts of `board` fit `turn` to move."""
        nx, no = board.count("X"), board.count("O")
        k = self.pieces
        ok = nx == no == k or (no <= nx <= k and nx - no == (turn == "O"))
        if not ok:
            raise InputFormatError(
                f"no teeko game reaches {nx} X and {no} O pieces with {turn} to move "
                f"({k} pieces each, X drops first)"
            )

    def encode(self, position: TeekoPosition) -> int:
        return self._text.encode(position)

    def decode(self, code: int) -> TeekoPosition:
        return self._text.decode(code)
