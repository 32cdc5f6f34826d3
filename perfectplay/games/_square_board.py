"""A board of rows x cols one-character cells and a side to move: as text, as an integer, as
bitboards; the symmetries of a square board.

Games played by placing or moving symbols on a grid of cells (Quixo, Teeko) write their
positions the same way; :class:`BoardText` is that way, written once. A position is
``(board, turn)``: `board` holds ``rows * cols`` cells row by row from the top, each one of
the symbols ``cells`` (the blank first), and `turn` is one of ``sides``.

Examples
--------
>>> text = BoardText(2, 3)
>>> print(text.render(("X-O---", "O")))
X - O
- - -
O to move
>>> text.notation(("X-O---", "O")), text.parse("x-o/--- o")
('X-O/--- O', ('X-O---', 'O'))
>>> text.decode(text.encode(("X-O---", "O")))
('X-O---', 'O')
>>> bitboards("X-O---"), board_of((1, 4), 6)
((1, 4), 'X-O---')
"""

from __future__ import annotations

from perfectplay.errors import InputFormatError

__all__ = ["BoardText", "bitboards", "board_of", "square_symmetries"]


class BoardText:
    """The text and integer forms of ``(board, turn)`` positions on a `rows` x `cols` board.

    Parameters
    ----------
    rows, cols : int
        The board's shape.
    cells : str
        The symbols a cell may hold, the blank first (default ``"-XO"``).
    sides : str
        The symbols of the players, the first to move first (default ``"XO"``).

    Notes
    -----
    Letters are read in either case when no symbol is a lower-case letter. Every method
    costs O(rows * cols).
    """

    def __init__(self, rows: int, cols: int, cells: str = "-XO", sides: str = "XO") -> None:
        self.rows, self.cols = rows, cols
        self.cells, self.sides = cells, sides
        self._fold = (cells + sides).upper() == cells + sides

    def render(self, position: tuple[str, str]) -> str:
        """The rows from the top, cells apart, then ``"X to move"``."""
        board, turn = position
        grid = [" ".join(row) for row in self._rows(board)]
        return "\n".join([*grid, f"{turn} to move"])

    def notation(self, position: tuple[str, str]) -> str:
        """The rows from the top joined by ``/``, a blank and the side to move."""
        board, turn = position
        return "/".join(self._rows(board)) + f" {turn}"

    def parse(self, text: str) -> tuple[str, str]:
        """The position :meth:`render` draws or :meth:`notation` writes.

        Raises
        ------
        InputFormatError
            If `text` is neither, naming the shape and the symbols expected.
        """
        lines = text.strip().splitlines()
        if len(lines) == 1 and ("/" in lines[0] or self.rows == 1):
            rows, _, side = lines[0].rpartition(" ")
            lines = [*rows.split("/"), f"{side} to move"]
        words = lines[-1].split() if lines else []
        turn = words[0] if len(words) == 3 and words[1:] == ["to", "move"] else ""
        board = "".join("".join(line.split()) for line in lines[:-1])
        if self._fold:
            board, turn = board.upper(), turn.upper()
        fits = len(board) == self.rows * self.cols and not set(board) - set(self.cells)
        if len(turn) != 1 or turn not in self.sides or not fits:
            symbols = f"{', '.join(self.cells[1:])} or {self.cells[0]}"
            moves = " or ".join(f"'{side} to move'" for side in self.sides)
            raise InputFormatError(
                f"expected {self.rows} lines of {self.cols} cells ({symbols}) and {moves}, "
                f"got {text!r}"
            )
        return board, turn

    def encode(self, position: tuple[str, str]) -> int:
        """The cells as digits (a cell's index in ``cells``), first cell most significant,
        then the side's index: ``code * len(sides) + side``."""
        board, turn = position
        base = len(self.cells)
        code = 0
        for cell in board:
            code = code * base + self.cells.index(cell)
        return code * len(self.sides) + self.sides.index(turn)

    def decode(self, code: int) -> tuple[str, str]:
        """The position of `code` (the inverse of :meth:`encode`)."""
        code, side = divmod(code, len(self.sides))
        cells = []
        for _ in range(self.rows * self.cols):
            code, digit = divmod(code, len(self.cells))
            cells.append(self.cells[digit])
        return "".join(reversed(cells)), self.sides[side]

    def _rows(self, board: str) -> list[str]:
        return [board[r * self.cols : (r + 1) * self.cols] for r in range(self.rows)]


def bitboards(board: str, symbols: str = "XO") -> tuple[int, ...]:
    """One bitboard per symbol of `symbols`: bit ``d`` set where cell ``d`` holds it."""
    return tuple(sum(1 << d for d, cell in enumerate(board) if cell == s) for s in symbols)


def board_of(boards: tuple[int, ...], size: int, cells: str = "-XO") -> str:
    """The board of `size` cells whose ``cells[k + 1]`` are bitboard ``boards[k]`` (the
    inverse of :func:`bitboards`); cells in none are blank, ``cells[0]``."""
    out = []
    for d in range(size):
        held = [k for k, bits in enumerate(boards) if bits >> d & 1]
        out.append(cells[held[0] + 1] if held else cells[0])
    return "".join(out)


def square_symmetries(n: int) -> list[list[int]]:
    """The 8 symmetries of the n x n board as cell permutations ``cell -> image cell``.

    The identity first, then the rotations by a quarter, a half and three quarters, then the
    four reflections (left-right, top-bottom and the two diagonals). Cost: O(n^2).

    >>> square_symmetries(3)[1][:3]  # a quarter turn takes the top row to the right column
    [2, 5, 8]
    """
    m = n - 1
    out = []
    for s in range(8):
        images = []
        for d in range(n * n):
            r, c = divmod(d, n)
            r2, c2 = [(r, c), (c, m - r), (m - r, m - c), (m - c, r),
                      (r, m - c), (m - r, c), (c, r), (m - c, m - r)][s]  # fmt: skip
            images.append(r2 * n + c2)
        out.append(images)
    return out
