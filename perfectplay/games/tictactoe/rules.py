"""Tic-tac-toe (noughts and crosses): a TIE from the start, 5,478 reachable positions.

X moves first; players alternately fill an empty cell; three in a row (row, column or
diagonal) wins; a full board without a line is a tie. Play stops at the first line, so 5,478
positions are reachable (765 up to the 8 symmetries of the square).

A position is a string of 9 characters ``X``, ``O`` or ``.``, row by row from the top. Move
labels name the cell: a column letter ``a``-``c`` and a row digit ``1``-``3`` counted from the
top (``"b2"`` is the centre). Both enumeration paths are implemented: the plain one
(``moves``/``outcome`` on strings) and the vectorized one on base-3 codes.

References
----------
The position counts: OEIS A008907 is the number of games; the 5,478 legal positions reachable
in play and the 765 essentially different ones are listed e.g. in A. Bhatt, P. Varshney,
K. Deb, "In search of no-loss strategies for the game of tic-tac-toe using a customized
genetic algorithm", GECCO 2008, doi:10.1145/1389095.1389241.

Examples
--------
>>> game = TicTacToe()
>>> game.moves("XOX" "OXO" "...")[:2]
[('a3', 'XOXOXOX..'), ('b3', 'XOXOXO.X.')]
>>> game.outcome("XOX" "OXO" "X.."), game.outcome("XOX" "XOO" "OXX")
(<Value.LOSE: 0>, <Value.TIE: 2>)
>>> print(game.render("X...O...."))
X . .
. O .
. . .
>>> game.notation("X...O....")
'X../.O./...'
>>> game.parse("X../.O./...") == game.parse(game.render("X...O....")) == "X...O...."
True
"""

from __future__ import annotations

from operator import itemgetter

import numpy as np
from numpy.typing import NDArray

from perfectplay.errors import InputFormatError
from perfectplay.protocol.game import Game, GameInfo
from perfectplay.values import LOSE, TIE, UNDECIDED, VALUE_DTYPE, Value

__all__ = ["TicTacToe"]

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
"""The eight lines of three cells."""

SYMMETRIES = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8),
    (2, 5, 8, 1, 4, 7, 0, 3, 6),
    (8, 7, 6, 5, 4, 3, 2, 1, 0),
    (6, 3, 0, 7, 4, 1, 8, 5, 2),
    (2, 1, 0, 5, 4, 3, 8, 7, 6),
    (0, 3, 6, 1, 4, 7, 2, 5, 8),
    (6, 7, 8, 3, 4, 5, 0, 1, 2),
    (8, 5, 2, 7, 4, 1, 6, 3, 0),
)
"""The 8 symmetries of the square as cell permutations: image[i] = position[perm[i]]."""

_IMAGES = tuple(itemgetter(*perm) for perm in SYMMETRIES)  # position -> its image's characters
_join = "".join

LABELS = tuple(f"{'abc'[cell % 3]}{cell // 3 + 1}" for cell in range(9))

# Codes: base-3 numbers, cell 0 the most significant digit, '.' = 0, 'O' = 1, 'X' = 2. This
# order agrees with the characters' order, so the smallest string is the smallest code.
_DIGITS = str.maketrans(".OX", "012")
_POW3 = 3 ** np.arange(8, -1, -1, dtype=np.int64)
_EMPTY, _O, _X = 0, 1, 2


class TicTacToe(Game[str]):
    """Tic-tac-toe on 3x3; positions are 9-character strings (see the module docstring)."""

    def __init__(self) -> None:
        self.info = GameInfo("tic-tac-toe", description="noughts and crosses on 3x3")

    def initial(self) -> str:
        return "........."

    def moves(self, position: str) -> list[tuple[str, str]]:
        if "." not in position or _has_line(position):
            return []
        mark = "XO"[position.count("X") - position.count("O")]
        return [
            (LABELS[i], position[:i] + mark + position[i + 1 :])
            for i in range(9)
            if position[i] == "."
        ]

    def outcome(self, position: str) -> Value | None:
        if _has_line(position):
            return Value.LOSE  # only the player who just moved can have a line
        return None if "." in position else Value.TIE

    def canonical(self, position: str) -> str:
        return min([_join(image(position)) for image in _IMAGES])

    def render(self, position: str) -> str:
        return "\n".join(" ".join(position[r : r + 3]) for r in (0, 3, 6))

    def labelled(self, position: str) -> str:
        """The board with the column letters and row numbers of the move labels (``b2``).

        >>> print(TicTacToe().labelled("X...O...."))
          a b c
        1 X . .
        2 . O .
        3 . . .
        """
        rows = self.render(position).splitlines()
        return "\n".join(["  a b c", *(f"{r} {row}" for r, row in enumerate(rows, start=1))])

    def notation(self, position: str) -> str:
        """The rows from the top joined by ``/``: ``X../.O./...``."""
        return "/".join(position[r : r + 3] for r in (0, 3, 6))

    def parse(self, text: str) -> str:
        """The position :meth:`render` draws or :meth:`notation` writes (rows top down, cells
        ``X``, ``O`` or ``.``; blanks and ``/`` between them are ignored)."""
        cells = "".join(text.replace("/", " ").split()).upper()
        bad = next((i for i, c in enumerate(cells) if c not in ".OX"), None)
        if bad is not None:
            raise InputFormatError(
                f"cell {bad + 1}: expected X, O or '.', got {cells[bad]!r} in {text!r}"
            )
        if len(cells) != 9:
            raise InputFormatError(f"expected 9 cells of X, O or '.', got {len(cells)} in {text!r}")
        if cells.count("X") - cells.count("O") not in (0, 1):
            raise InputFormatError(
                f"X moves first: X must have as many marks as O or one more, got {text!r}"
            )
        return cells

    def encode(self, position: str) -> int:
        return int(position.translate(_DIGITS), 3)

    def decode(self, code: int) -> str:
        return "".join(".OX"[(code // 3 ** (8 - i)) % 3] for i in range(9))

    # ------------------------------------------------------------------ vectorized path
    def batch_outcome(self, codes: NDArray[np.int64]) -> NDArray[np.uint8]:
        return _outcomes(_cells(codes))

    def batch_moves(self, codes: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        cells = _cells(codes)
        playing = _outcomes(cells) == UNDECIDED
        mark = np.where((cells == _X).sum(axis=1) == (cells == _O).sum(axis=1), _X, _O)
        parents, children = [], []
        for i in range(9):  # one array operation per cell, in moves() order
            rows = np.flatnonzero(playing & (cells[:, i] == _EMPTY))
            parents.append(rows)
            children.append(codes[rows] + mark[rows] * _POW3[i])
        parent = np.concatenate(parents).astype(np.int64)
        return parent, _canonical_codes(_cells(np.concatenate(children)))


def _has_line(position: str) -> bool:
    """Whether some line holds three equal marks."""
    for a, b, c in LINES:
        if position[a] != "." and position[a] == position[b] == position[c]:
            return True
    return False


def _cells(codes: NDArray[np.int64]) -> NDArray[np.int64]:
    """Digits of base-3 codes, shape (k, 9): 0 empty, 1 O, 2 X."""
    return (np.asarray(codes, dtype=np.int64)[:, None] // _POW3[None, :]) % 3


def _outcomes(cells: NDArray[np.int64]) -> NDArray[np.uint8]:
    """LOSE where the player who just moved has a line, TIE on a full board, else UNDECIDED."""
    last = np.where((cells == _X).sum(axis=1) == (cells == _O).sum(axis=1), _O, _X)
    line = np.zeros(cells.shape[0], dtype=bool)
    for a, b, c in LINES:
        line |= (cells[:, a] == last) & (cells[:, b] == last) & (cells[:, c] == last)
    full = (cells != _EMPTY).all(axis=1)
    result = np.full(cells.shape[0], UNDECIDED, dtype=VALUE_DTYPE)
    result[full] = TIE
    result[line] = LOSE
    return result


def _canonical_codes(cells: NDArray[np.int64]) -> NDArray[np.int64]:
    """The smallest code among the 8 symmetric images of each position."""
    perms = np.array(SYMMETRIES)
    images = cells[:, perms] @ _POW3  # shape (k, 8)
    result: NDArray[np.int64] = images.min(axis=1)
    return result
