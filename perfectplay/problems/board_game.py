"""Two tokens that capture on contact, no repeated positions (POJ 2990, CTU Open 2005 "Board Game").

Input: instances until the end of the input, separated by blank lines (read by tokens): a line
``m n``, then m rows of n characters: ``.`` free, ``#`` removed, ``P`` a free cell holding one
of the two tokens. Output per instance: ``Alice wins.`` if Alice, who moves first, wins, else
``Bob wins.``.

Limits: ``1 <= m, n <= 8`` (the judge's), refused with the line by default;
``limits=False`` (``--no-limits``) lifts them: any board whose pair graph fits in memory.

Tokens adjacent at the start: Alice captures at once. Otherwise the game is vertex geography
on the pairs of cells at distance >= 2 (:class:`~perfectplay.builders.two_tokens.TwoTokens`), and
Alice wins iff every maximum matching covers the start. Only the cells the tokens can ever
reach matter, so the board is first cut down to the free cells connected to a token.

>>> print(solve(b"1 3\\nP.P\\n\\n1 4\\nP..P\\n"), end="")
Bob wins.
Alice wins.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from perfectplay.builders.grid import Grid, marked_cells, parse_board
from perfectplay.builders.two_tokens import TwoTokens
from perfectplay.errors import InputFormatError
from perfectplay.problems._reader import TokenReader

__all__ = ["JUDGE_SIZE", "read_board", "solve"]

JUDGE_SIZE = 8
"""The judge's bound on the number of rows and of columns."""


def read_board(
    reader: TokenReader, rows: int, cols: int, symbols: str
) -> tuple[NDArray[np.uint8], Callable[[int], int]]:
    """The next `rows` words of `reader` as a board of `cols` characters from `symbols`.

    Returns
    -------
    codes : array of uint8, shape (rows, cols)
        The characters.
    line_of : callable
        Input line number of board row ``r`` (0-based), for later messages.

    Raises
    ------
    InputFormatError
        A missing row, a row of another length or a character outside `symbols`, with the line.
    """
    words: list[str] = []
    ends: list[int] = []
    for r in range(rows):
        words.append(reader.word(f"board row {r + 1} of {rows}"))
        ends.append(reader.pos)

    def line_of(r: int) -> int:
        return reader.line_at(ends[r] - 1)

    return parse_board(words, symbols, width=cols, line_of=line_of), line_of


def _alice_wins(codes: NDArray[np.uint8], line_of: Callable[[int], int], line: int) -> bool:
    """Does Alice, to move, win on the board `codes` (two ``P`` required)?"""
    tokens = marked_cells(codes, "P", at_most=2, line_of=line_of)
    if tokens.size != 2:
        raise InputFormatError(f"the board must hold exactly two 'P', got {tokens.size}", line)
    cols = codes.shape[1]
    (r1, r2), (c1, c2) = np.divmod(tokens, cols)
    if abs(int(r1) - int(r2)) + abs(int(c1) - int(c2)) == 1:
        return True
    first, second = (int(r1), int(c1)), (int(r2), int(c2))
    game = TwoTokens(Grid(codes != ord("#")).reachable(first, second))
    return bool(game.mover_wins()[game.encode(first, second)])


def solve(data: bytes, *, limits: bool = True) -> str:
    """Judge input -> one line per instance, ``Alice wins.`` or ``Bob wins.``.

    Parameters
    ----------
    data : bytes
        The judge input.
    limits : bool, default True
        Refuse boards above the judge's 8 x 8 before reading them.

    Raises
    ------
    InputFormatError
        Bad sizes, rows or characters, not exactly two ``P``, or a size above the judge's
        limit (the message names the line).
    TooLargeError
        A board whose work arrays (10 bytes per pair of cells) would not fit in memory.

    Notes
    -----
    Cost per instance: O(rows * cols) to read and cut the board down to the ``c`` free cells
    connected to a token, then O(c^2) positions with at most 8 moves each, solved by a
    maximum matching on moves generated from the board, never stored
    (:meth:`~perfectplay.builders.two_tokens.TwoTokens.mover_wins`): about 10 bytes per
    position.
    """
    reader = TokenReader(data, limits=limits)
    out: list[str] = []
    while not reader.at_end():
        first = reader.line()
        rows = reader.integer("the number of rows m", low=1, at_most=JUDGE_SIZE)
        cols = reader.integer("the number of columns n", low=1, at_most=JUDGE_SIZE)
        codes, line_of = read_board(reader, rows, cols, ".#P")
        out.append("Alice wins.\n" if _alice_wins(codes, line_of, first) else "Bob wins.\n")
    return "".join(out)
