"""Connect Four on small boards: drop stones into columns; four in a row wins.

Players alternately drop a stone into a column that is not full; it falls to the lowest empty
cell. Whoever first lines up four of their stones (horizontally, vertically or diagonally)
wins; a full board without a line is a tie. X moves first.

A position is a tuple of strings, one per column from left to right, each listing that
column's stones from the bottom up (``("X", "", "OX", "", "")``). Move labels are column
letters ``a``, ``b``, ... (so at most 26 columns). A position may also be typed as the columns
played from the start, 1-based: digits (``4453``) or, on any board, numbers joined by commas
(``4,4,10``, which boards past 9 columns need). Mirroring the board left-right keeps the
value, so ``canonical`` picks the mirror image with the smaller code.

Codes are bitboards in the layout of John Tromp's Fhourstones solver: bit ``c * (rows + 1) + r``
is the cell in column ``c``, row ``r`` from the bottom, with one empty guard row on top of each
column so that line tests by shifting never wrap around. A code is ``(mask << S) | current``
where ``mask`` holds every stone, ``current`` the stones of the player to move and
``S = (rows + 1) * cols``. Boards up to ``(rows + 1) * cols <= 128`` bits are accepted (7x6,
6x7, 7 rows x 8 columns, 7 x 9 among them); the plain path works on any of them with Python
integers, and the compiled search (:mod:`~perfectplay.games.connect_four.search`) takes one
uint64 per bitboard up to 64 bits and two up to 87 (its table's keys need more entries past
them: :data:`~perfectplay.games.connect_four.wide_search.MAX_WIDE_BITS`). The vectorized
path, which generates the children of a whole layer in one numba pass over its codes
(:mod:`perfectplay.games.connect_four._kernels`, a few bit operations per move), needs a code
in int64, so ``(rows + 1) * cols <= 31``; bigger boards are solved by the tier engine
(:class:`~perfectplay.games.connect_four.tiers.TieredConnectFour`, whose bitboards and ranks
are int64: ``(rows + 1) * cols <= 63``), and boards past it are searched position by position.

Values: 4x4, 4x5 (4 rows, 5 columns), 5x4 and 5x5 are draws (TIE) from the start, ending on
the last cell (remoteness ``rows * cols``), as in the table of results of J. Tromp (all
boards with width + height <= 15) reproduced by C. Steininger's solver; 4 rows x 6 columns
is a second-player win.

References
----------
J. Tromp, *John's Connect Four Playground* (board logic, Fhourstones benchmark and results on
other board sizes), https://tromp.github.io/c4/c4.html. C. Steininger, *c4* (outcome and last
move for every board with width + height <= 16), https://github.com/ChristopheSteininger/c4.
L. V. Allis, *A Knowledge-based Approach of Connect-Four*, M.Sc. thesis, Vrije Universiteit
Amsterdam, 1988.

Examples
--------
>>> game = ConnectFour(rows=4, cols=5)
>>> p = ("XO", "X", "", "", "")
>>> game.moves(p)[:2]
[('a', ('XOO', 'X', '', '', '')), ('b', ('XO', 'XO', '', '', ''))]
>>> print(game.render(p))
. . . . .
. . . . .
O . . . .
X X . . .
>>> game.outcome(("XXXX", "OOO", "", "", ""))
<Value.LOSE: 0>
>>> game.notation(p)
'...../...../O..../XX...'
>>> game.parse("...../...../O..../XX...") == game.parse("112") == p
True
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from perfectplay.errors import GameDefinitionError, InputFormatError, TooLargeError
from perfectplay.games.connect_four import _kernels as kernels
from perfectplay.games.connect_four import _sequence_kernels as sequence_kernels
from perfectplay.games.connect_four._bitboard import (
    COLUMN_LABELS,
    MAX_BITS,
    SEARCH_BITS,
    VECTOR_BITS,
    WORD_BITS,
)
from perfectplay.protocol.game import Game, GameInfo
from perfectplay.values import VALUE_DTYPE, Value

if TYPE_CHECKING:
    from perfectplay.games.connect_four.search import ConnectFourSearch
    from perfectplay.games.connect_four.wide_search import ConnectFourWideSearch

__all__ = ["ConnectFour", "superset_sizes"]

_COLUMN_DIGITS = "123456789"
"""The 1-based column digits of a sequence of moves (boards of at most 9 columns)."""
_X_BITS = str.maketrans("XO", "10")
"""A column's stones as binary digits of X's stones (read top first)."""
_TEXT = str.maketrans("10", "XO")
"""Binary digits of X's stones as a column's stones."""


@functools.lru_cache(maxsize=1 << 12)
def _column_x(column: str) -> int:
    """X's stones of one column as bits, the bottom stone lowest (cached: a board of 6 rows
    has 127 possible column contents, met again and again)."""
    return int(column[::-1].translate(_X_BITS), 2)


@functools.lru_cache(maxsize=1 << 12)
def _column_text(stones: int) -> str:
    """One column's text from its bits: X's stones, and a 1 above the top stone (cached, as
    :func:`_column_x`, which it inverts).

    >>> _column_text(0b1101), _column_text(1)
    ('XOX', '')
    """
    return f"{stones:b}"[1:][::-1].translate(_TEXT)


Board = tuple[str, ...]


def superset_sizes(rows: int, cols: int) -> list[int]:
    """Per number of stones ``k``, the boards with ``k`` stones stacked in columns, X holding
    ``(k + 1) // 2`` of them: an upper bound on the positions of ``k`` stones.

    Cost: O((rows * cols)**2 * cols) integer additions.

    >>> sum(superset_sizes(5, 5)), max(superset_sizes(5, 6))
    (171976899, 1310475600)
    """
    heights = [1] + [0] * (rows * cols)  # ways to stack k stones in the columns so far
    for _ in range(cols):
        heights = [
            sum(heights[k - h] for h in range(min(k, rows) + 1)) for k in range(len(heights))
        ]
    return [count * math.comb(k, (k + 1) // 2) for k, count in enumerate(heights)]


class ConnectFour(Game[Board]):
    """Connect Four with `rows` x `cols` cells (see the module docstring).

    Parameters
    ----------
    rows, cols : int
        Board height and width, each at least 1, with ``(rows + 1) * cols <= 128`` (e.g. 7x6,
        7 rows x 8 or 9 columns) and at most 26 columns (move labels ``a`` to ``z``); the
        tier engine needs ``(rows + 1) * cols <= 63``;
        the vectorized path (``batch_outcome``/``batch_moves``) needs ``(rows + 1) * cols
        <= 31`` (e.g. 4x5, 5x4, 5x5, 4x6, 6x4) and refuses bigger boards with TooLargeError.
    """

    def __init__(self, rows: int = 4, cols: int = 5) -> None:
        if rows < 1 or not 1 <= cols <= len(COLUMN_LABELS) or (rows + 1) * cols > SEARCH_BITS:
            raise GameDefinitionError(
                f"connect-four needs rows >= 1 and 1 <= cols <= {len(COLUMN_LABELS)} (one move "
                f"label a to z per column) with (rows + 1) * cols <= {SEARCH_BITS}, got "
                f"rows={rows}, cols={cols}"
            )
        self.rows, self.cols = rows, cols
        self.height = rows + 1  # bits per column, with the guard row
        self.shift = self.height * cols  # S: bits of one board
        self.bottom = sum(1 << (c * self.height) for c in range(cols))
        self.board = self.bottom * ((1 << rows) - 1)  # every cell
        self.directions = (1, self.height, self.height + 1, self.height - 1)
        self._bases = range(0, self.shift, self.height)  # each column's lowest bit
        self._last_bits: tuple[Board | None, tuple[int, int]] = (None, (0, 0))
        """The last position :meth:`_bits` read and its bitboards: a search reads the same
        position several times (its outcome, its moves, the kernel's arguments)."""
        self.info = GameInfo(
            "connect-four",
            {"rows": rows, "cols": cols},
            description=f"Connect Four on {rows} rows x {cols} columns",
        )

    # ------------------------------------------------------------------ plain path
    def initial(self) -> Board:
        return ("",) * self.cols

    def moves(self, position: Board) -> list[tuple[str, Board]]:
        if self.outcome(position) is not None:
            return []
        mark = "X" if sum(map(len, position)) % 2 == 0 else "O"
        return [
            (COLUMN_LABELS[c], (*position[:c], column + mark, *position[c + 1 :]))
            for c, column in enumerate(position)
            if len(column) < self.rows
        ]

    def outcome(self, position: Board) -> Value | None:
        mask, current = self._bits(position)
        if self._four(mask ^ current):
            return Value.LOSE  # the player who just moved has four in a row
        return Value.TIE if mask == self.board else None

    def canonical(self, position: Board) -> Board:
        mirror = position[::-1]
        return mirror if self.encode(mirror) < self.encode(position) else position

    def render(self, position: Board) -> str:
        return "\n".join(
            " ".join(column[r] if r < len(column) else "." for column in position)
            for r in reversed(range(self.rows))
        )

    def labelled(self, position: Board) -> str:
        """The board with the column letters of the move labels under it.

        >>> print(ConnectFour(2, 3).labelled(("X", "", "O")))
        . . .
        X . O
        a b c
        """
        return self.render(position) + "\n" + " ".join(COLUMN_LABELS[: self.cols])

    def notation(self, position: Board) -> str:
        """The rows from the top joined by ``/``, as :meth:`render` draws them without blanks."""
        return "/".join(line.replace(" ", "") for line in self.render(position).splitlines())

    def parse(self, text: str) -> Board:
        """The position `text` writes: the board as :meth:`render` draws it (rows from the top,
        cells ``X``, ``O`` or ``.``), as :meth:`notation` writes it (rows joined by ``/``), or
        the columns played from the start, 1-based: digits (``4453``, the notation of Pons's
        and Tromp's solvers, columns 1 to 9), or numbers separated by commas on any board
        (``4,4,10,3``; blanks around them are ignored, and a comma may end the list: one
        move into column 10 or beyond is ``10,``). :meth:`sequence` writes the latter.

        Raises
        ------
        InputFormatError
            Naming the bad row, column, character or move (and its index).

        Examples
        --------
        >>> wide = ConnectFour(rows=4, cols=11)
        >>> wide.parse("11,1,11") == wide.parse("11, 1, 11") == ("O",) + ("",) * 9 + ("XX",)
        True
        >>> wide.parse("1,12")
        Traceback (most recent call last):
        ...
        perfectplay.errors.InputFormatError: move 2 of '1,12': no column 12 (columns 1 to 11)
        """
        words = text.strip()
        if words.isascii() and words.isdigit():
            played = self._played(words)
            return played if played is not None else self._play_columns(list(words), words)
        if "," in words:
            numbers = [w.strip() for w in words.split(",")]
            return self._play_columns(numbers[:-1] if not numbers[-1] else numbers, words)
        rows = words.replace("/", "\n").splitlines()
        lines = [list("".join(line.split())) for line in rows]
        if len(lines) != self.rows or any(len(line) != self.cols for line in lines):
            sizes = [len(line) for line in lines]
            raise InputFormatError(
                f"expected {self.rows} rows of {self.cols} cells (X, O or .) or the columns "
                f"played (4453, or 4,4,10 on any board), got {len(lines)} rows of {sizes} "
                f"cells in {text!r}"
            )
        for r, line in enumerate(lines):
            bad = next((c for c, cell in enumerate(line) if cell.upper() not in "XO."), None)
            if bad is not None:
                raise InputFormatError(
                    f"row {r + 1} from the top, column {bad + 1}: expected X, O or '.', got "
                    f"{line[bad]!r} in {text!r}"
                )
        columns = []
        for c in range(self.cols):
            cells = "".join(lines[r][c] for r in reversed(range(self.rows))).upper()
            stones = cells.rstrip(".")
            if "." in stones:
                raise InputFormatError(f"column {c + 1}: stones must rest on stones, got {text!r}")
            columns.append(stones)
        position = tuple(columns)
        x = sum(column.count("X") for column in columns)
        if x - (sum(map(len, columns)) - x) not in (0, 1):
            raise InputFormatError("X moves first: X must have as many stones as O or one more")
        return position

    def sequence(self, played: list[int]) -> str:
        """The text :meth:`parse` reads as the columns `played` (0-based) from the start: 1-based
        digits on boards of at most 9 columns, numbers joined by commas on wider ones (one
        move ending with a comma, so that ``10,`` is not read as the digits 1 and 0).

        >>> ConnectFour(6, 7).sequence([3, 3, 4]), ConnectFour(4, 11).sequence([10, 0])
        ('445', '11,1')
        >>> ConnectFour(4, 11).sequence([9])
        '10,'
        """
        numbers = [str(c + 1) for c in played]
        if self.cols <= 9:
            return "".join(numbers)
        return ",".join(numbers) + ("," if len(numbers) == 1 else "")

    def _played(self, digits: str) -> Board | None:
        """The position after the columns `digits` (1-based) are played from the start, or
        None if a move cannot be played (:meth:`_play_columns` then names the first) or the
        board is wider than one word (``(rows + 1) * cols > 64``).

        Played by :func:`~._sequence_kernels.played` on bitboards; each column's text comes
        from its stones (:func:`_column_text`), and the bitboards are kept for :meth:`_bits`,
        which the search asks next. Cost: one kernel call (a few bit operations per move) and
        a cached look-up per column (about a quarter of the Python loop of
        :meth:`_play_columns`).
        """
        if self.shift > WORD_BITS:
            return None
        status, mask, x = sequence_kernels.played(digits.encode(), self.rows, self.cols)
        if status:
            return None
        tops = x | (mask + self.bottom)  # each column: its stones, a 1 above its top stone
        column = (1 << self.height) - 1
        position = tuple([_column_text(tops >> base & column) for base in self._bases])
        self._last_bits = position, (mask, x if len(digits) % 2 == 0 else mask ^ x)
        return position

    def _play_columns(self, numbers: list[str], text: str) -> Board:
        """The position after the columns `numbers` (1-based, as `text` writes them) are
        played from the start.

        Cost: a few integer operations per move (each player's stones as one bitboard, four in
        a row tested on the mover's stones only).
        """
        columns: list[list[str]] = [[] for _ in range(self.cols)]
        stones = [0, 0]  # X's, O's
        for k, number in enumerate(numbers):
            c = int(number) - 1 if number.isascii() and number.isdigit() else -1
            if not 0 <= c < self.cols:
                raise InputFormatError(
                    f"move {k + 1} of {text!r}: no column {number or '(empty)'} (columns 1 to "
                    f"{self.cols})"
                )
            over = k > 6 and self._four(stones[(k - 1) % 2])  # four stones need 7 moves
            if over or len(columns[c]) == self.rows:
                why = "cannot be played: the game is over" if over else "is full"
                raise InputFormatError(f"move {k + 1} of {text!r}: column {number} {why}")
            stones[k % 2] |= 1 << (c * self.height + len(columns[c]))
            columns[c].append("XO"[k % 2])
        return tuple("".join(column) for column in columns)

    def search_kernel(self) -> ConnectFourSearch | ConnectFourWideSearch | None:
        """The compiled alpha-beta (bitboards, a bound table, null-window narrowing of the Pons
        score) for this board size: :mod:`perfectplay.games.connect_four.search` up to
        ``(rows + 1) * cols <= 64``, :mod:`perfectplay.games.connect_four.wide_search` (two
        words per bitboard) past it; None (the plain search) past 87 bits, whose keys no table
        holds (:data:`~perfectplay.games.connect_four.wide_search.MAX_WIDE_BITS`)."""
        from perfectplay.games.connect_four.search import ConnectFourSearch
        from perfectplay.games.connect_four.wide_search import MAX_WIDE_BITS, ConnectFourWideSearch

        if self.shift <= WORD_BITS:
            return ConnectFourSearch(self)
        return ConnectFourWideSearch(self) if self.shift <= MAX_WIDE_BITS else None

    def encode(self, position: Board) -> int:
        mask, current = self._bits(position)
        return (mask << self.shift) | current

    def decode(self, code: int) -> Board:
        mask, current = code >> self.shift, code & ((1 << self.shift) - 1)
        x = current if mask.bit_count() % 2 == 0 else mask ^ current
        return tuple(
            "".join(
                "X" if x >> (c * self.height + r) & 1 else "O"
                for r in range(self.rows)
                if mask >> (c * self.height + r) & 1
            )
            for c in range(self.cols)
        )

    def _bits(self, position: Board) -> tuple[int, int]:
        """``(mask, current)``: every stone, and the stones of the player to move."""
        last, bits = self._last_bits
        if last is position:
            return bits
        mask = x = 0
        base = 0
        for column in position:
            if column:
                mask |= ((1 << len(column)) - 1) << base
                x |= _column_x(column) << base
            base += self.height
        bits = mask, (x if mask.bit_count() % 2 == 0 else mask ^ x)
        self._last_bits = position, bits
        return bits

    def _four(self, stones: int) -> bool:
        """Whether `stones` hold four in a row (the guard row stops wrap-around): the reference,
        one direction at a time, that the kernels' :func:`~._bitboard.four` is tested against."""
        for d in self.directions:
            pairs = stones & (stones >> d)
            if pairs & (pairs >> (2 * d)):
                return True
        return False

    # ------------------------------------------------------------------ vectorized path
    def _check_vector_width(self) -> None:
        """Refuse the vectorized path on boards whose codes do not fit in int64."""
        if self.shift > VECTOR_BITS:
            boards = sum(superset_sizes(self.rows, self.cols))
            raise TooLargeError(
                f"connect-four {self.rows}x{self.cols} has up to {boards:.2e} positions and "
                f"needs {2 * self.shift}-bit codes",
                limit="code bits",
                estimate=2 * self.shift,
                advice=f"the in-memory solver takes boards with (rows + 1) * cols <= "
                f"{VECTOR_BITS}: {self._bigger_boards()}",
            )

    def _bigger_boards(self) -> str:
        """What solves or searches this board past the in-memory solver, as a command."""
        params = f"connect-four --param rows={self.rows} --param cols={self.cols}"
        if self.shift <= MAX_BITS:
            return f"solve it with the tier engine (perfectplay solve {params} --tiers DIR)"
        return (
            f"search its positions one by one (perfectplay search {params} POSITION); the tier "
            f"engine takes boards with (rows + 1) * cols <= {MAX_BITS}"
        )

    def batch_outcome(self, codes: NDArray[np.int64]) -> NDArray[np.uint8]:
        self._check_vector_width()
        codes = np.ascontiguousarray(codes, dtype=np.int64)
        out = np.empty(codes.shape[0], dtype=VALUE_DTYPE)  # one value per code
        kernels.batch_outcome(codes, self.shift, self.height, self.board, out)
        return out

    def batch_moves(self, codes: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        self._check_vector_width()
        codes = np.ascontiguousarray(codes, dtype=np.int64)
        # at most one move per column from each code; untouched pages cost no memory
        parent = np.empty(codes.shape[0] * self.cols, dtype=np.int64)
        child = np.empty(codes.shape[0] * self.cols, dtype=np.int64)
        k = kernels.batch_moves(
            codes, self.shift, self.height, self.bottom, self.cols, self.board, parent, child
        )
        return parent[:k], child[:k]
