"""Gobblet Gobblers, as GamesmanOne plays it: tic-tac-toe with pieces that cover smaller ones.

The rules of GamesmanOne's ``src/games/gobblet/gobblet_gobblers.c`` (v1.3.0, in
https://github.com/GamesCrafters/GamesmanOne), which possiblywrong's 2024 solver also plays,
with the number of sizes and of pieces per size as parameters (3 and 2 are the game; fewer are
for tests):

* A 3x3 board, empty at the start; each player holds two pieces of each of three sizes
  (small, medium, large) in reserve; **X moves first**.
* A turn either places a piece from the reserve, or moves one of the player's own pieces that
  is on top of its stack (visible) to another cell; which may uncover the piece below it. Either
  way the piece goes to an empty cell or onto a cell whose top piece (of either player) is
  smaller. A cell holds at most one piece of each size, smaller ones under larger ones.
* Only top pieces count: three visible pieces of one player in a row, column or diagonal.
* **A move that uncovers a line** (GamesmanOne's primitive, chosen there and kept here): a
  position where the player to move has a visible line is a WIN for them, whatever the
  opponent has; otherwise one where the opponent has a line is a LOSE. So a move that uncovers
  the opponent's line loses, even when it also makes the mover's own line (both lines at
  once: the player to move, whose line was uncovered, wins). No rule forbids putting a lifted
  piece back elsewhere or requires a lifted piece to cover the uncovered line.
* Positions repeat; endless play is a DRAW (no repetition rule ends a game).

Values, for the player to move: the first player wins (``perfectplay solve gobblet-gobblers
--tiers DIR``; docs/tiers.md, Gobblet Gobblers).

A position is ``(cells, turn)``: `cells` is a tuple of 9 stacks, row by row from the top, each
a string of its pieces from the bottom up, one letter per piece: its size ``S``, ``M`` or ``L``,
upper case for X's pieces and lower case for O's (``"sL"``: O's small under X's large; ``""``
an empty cell); `turn` is ``"X"`` or ``"O"``. The notation writes the cells of a row joined by
``,`` (``-`` for an empty cell), the rows joined by ``/``, a blank and the side to move:
``sL,-,-/-,M,-/-,-,l O``. Move labels: a placement is the size and the cell (``"Lb2"``: a
large piece on the centre), a move is two cells (``"a1-b2"``); cells are named as in
tic-tac-toe, a column letter ``a``-``c`` and a row ``1``-``3`` from the top. Moves come in
GamesmanOne's order (placements by size then cell, then moves by source then destination).

The 8 symmetries of the square keep the value, and so does swapping the colours together with
the player to move (the rules treat both players alike; each player's reserve follows from the
board): :meth:`GobbletGobblers.canonical` makes X the player to move, then picks the smallest
image. Classes up to both symmetries are what possiblywrong counts (341,024,631 reachable).

:class:`~perfectplay.games.gobblet.tiers.TieredGobblet` is the same game for the tier engine.

References
----------
GamesCrafters, *GamesmanOne*, ``src/games/gobblet/gobblet_gobblers.c`` (R. Shi, 2024);
possiblywrong, *Strongly solving Gobblet Gobblers using retrograde analysis* (2024),
https://possiblywrong.wordpress.com/2024/06/.

Examples
--------
>>> game = GobbletGobblers()
>>> labels = [label for label, _ in game.moves(game.initial())]
>>> len(labels), labels[:2], labels[-1]
(27, ['Sa1', 'Sb1'], 'Lc3')
>>> position = game.parse("sL,-,-/-,M,-/-,-,l O")
>>> [label for label, _ in game.moves(position)][-3:]
['c3-c2', 'c3-a3', 'c3-b3']
>>> game.outcome(game.parse("L,M,S/-,-,-/-,-,- O"))  # X's line: O, to move, has lost
<Value.LOSE: 0>
>>> game.notation(game.canonical(position))
'-,-,L/-,m,-/Sl,-,- X'
"""

from __future__ import annotations

from math import comb
from typing import Any

from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.games._square_board import square_symmetries
from perfectplay.protocol.game import Game, GameInfo
from perfectplay.values import Value

__all__ = [
    "LINES",
    "SYMMETRIES",
    "GobbletGobblers",
    "GobbletPosition",
    "cell_name",
    "check_params",
    "swap",
]

GobbletPosition = tuple[tuple[str, ...], str]
"""``(cells, turn)``: 9 stacks bottom-up (``SML`` X's pieces, ``sml`` O's), ``"X"``/``"O"``."""

SIZES = "SML"
"""The size letters, smallest first (X's pieces; O's are the lower case)."""

LINES = [
    *((3 * r, 3 * r + 1, 3 * r + 2) for r in range(3)),
    *((c, c + 3, c + 6) for c in range(3)),
    (0, 4, 8),
    (2, 4, 6),
]
"""The 8 lines of three cells: rows, columns, diagonals."""

SYMMETRIES = square_symmetries(3)
"""The 8 symmetries of the board as cell permutations."""


def check_params(sizes: Any, pieces: Any) -> tuple[int, int]:
    """``(sizes, pieces)`` checked: 1 to 3 sizes (the smallest ones), 1 to 3 pieces of each."""
    for name, value in (("sizes", sizes), ("pieces", pieces)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 3:
            raise GameDefinitionError(
                f"gobblet-gobblers needs {name} between 1 and 3, got {value!r}"
            )
    return sizes, pieces


def cell_name(cell: int) -> str:
    """The name of cell ``0..8`` (row by row from the top): ``"a1"`` .. ``"c3"``."""
    return "abc"[cell % 3] + str(cell // 3 + 1)


def swap(cells: tuple[str, ...]) -> tuple[str, ...]:
    """`cells` with the colours of every piece swapped."""
    return tuple(stack.swapcase() for stack in cells)


def _size(piece: str) -> int:
    return SIZES.index(piece.upper())


def _top_size(stack: str) -> int:
    """The size of the top piece of `stack`, -1 for an empty cell."""
    return _size(stack[-1]) if stack else -1


def _mine(piece: str, turn: str) -> bool:
    return piece.isupper() == (turn == "X")


class GobbletGobblers(Game[GobbletPosition]):
    """Gobblet Gobblers with `sizes` sizes of `pieces` pieces each (see the module docstring).

    Parameters
    ----------
    sizes : int
        Piece sizes, 1 to 3, the smallest ones (the game: 3).
    pieces : int
        Pieces of each size per player, 1 to 3 (the game: 2).

    Raises
    ------
    GameDefinitionError
        If a parameter is out of range.
    """

    def __init__(self, sizes: int = 3, pieces: int = 2) -> None:
        self.sizes, self.pieces = check_params(sizes, pieces)
        self.info = GameInfo(
            "gobblet-gobblers",
            {"sizes": sizes, "pieces": pieces},
            cyclic=True,
            description=f"Gobblet Gobblers with {sizes} sizes of {pieces} pieces each "
            "(GamesmanOne's rules)",
        )

    def initial(self) -> GobbletPosition:
        return ("",) * 9, "X"

    def position_bound(self) -> int:
        """Every board with any number of each player's pieces on it, either side to move
        (GamesmanOne's hash values: 5,762,947,934 for the game)."""
        k = self.pieces + 1  # i X and j O pieces of one size on the 9 cells, each size apart
        layer = sum(comb(9, i + j) * comb(i + j, i) for i in range(k) for j in range(k))
        return 2 * layer**self.sizes

    def reserve(self, cells: tuple[str, ...], player: str) -> list[int]:
        """How many pieces of each size `player` still holds off the board."""
        letters = SIZES[: self.sizes] if player == "X" else SIZES[: self.sizes].lower()
        used = "".join(cells)
        return [self.pieces - used.count(letter) for letter in letters]

    def winner_lines(self, cells: tuple[str, ...]) -> set[str]:
        """The players (``"X"``, ``"O"``) with three visible pieces in a line."""
        tops = ["X" if s and s[-1].isupper() else "O" if s else "-" for s in cells]
        return {tops[a] for a, b, c in LINES if tops[a] != "-" and tops[a] == tops[b] == tops[c]}

    def outcome(self, position: GobbletPosition) -> Value | None:
        cells, turn = position
        lines = self.winner_lines(cells)
        if turn in lines:
            return Value.WIN
        return Value.LOSE if lines else None

    def moves(self, position: GobbletPosition) -> list[tuple[str, GobbletPosition]]:
        cells, turn = position
        if self.outcome(position) is not None:
            return []
        other = "O" if turn == "X" else "X"
        result = []
        for size, left in enumerate(self.reserve(cells, turn)):
            if not left:
                continue
            piece = SIZES[size] if turn == "X" else SIZES[size].lower()
            for dest in range(9):
                if _top_size(cells[dest]) < size:
                    board = (*cells[:dest], cells[dest] + piece, *cells[dest + 1 :])
                    result.append((piece.upper() + cell_name(dest), (board, other)))
        for src in range(9):
            if not cells[src] or not _mine(cells[src][-1], turn):
                continue
            piece = cells[src][-1]
            lifted = (*cells[:src], cells[src][:-1], *cells[src + 1 :])
            for dest in range(9):
                if dest != src and _top_size(cells[dest]) < _size(piece):
                    board = (*lifted[:dest], lifted[dest] + piece, *lifted[dest + 1 :])
                    result.append((f"{cell_name(src)}-{cell_name(dest)}", (board, other)))
        return result

    def canonical(self, position: GobbletPosition) -> GobbletPosition:
        cells, turn = position
        if turn == "O":
            cells = swap(cells)
        return min(tuple(cells[p] for p in perm) for perm in SYMMETRIES), "X"

    def render(self, position: GobbletPosition) -> str:
        cells, turn = position
        shown = [stack or "-" for stack in cells]
        rows = [" ".join(f"{s:<3}" for s in shown[r * 3 : r * 3 + 3]).rstrip() for r in range(3)]
        return "\n".join([*rows, f"{turn} to move"])

    def labelled(self, position: GobbletPosition) -> str:
        """The board with the column letters and row numbers (from the top) of the move labels
        (``Sa1``, ``a1-c3``), then the side to move.

        >>> game = GobbletGobblers()
        >>> print(game.labelled(game.parse("sL,-,-/-,M,-/-,-,l O")))
          a   b   c
        1 sL  -   -
        2 -   M   -
        3 -   -   l
        O to move
        """
        *rows, status = self.render(position).splitlines()
        return "\n".join(["  a   b   c", *(f"{r} {row}" for r, row in enumerate(rows, 1)), status])

    def notation(self, position: GobbletPosition) -> str:
        """The cells of each row joined by ``,`` (``-`` if empty), the rows by ``/``, a blank
        and the side to move."""
        cells, turn = position
        rows = (",".join(stack or "-" for stack in cells[r * 3 : r * 3 + 3]) for r in range(3))
        return "/".join(rows) + f" {turn}"

    def parse(self, text: str) -> GobbletPosition:
        """The position :meth:`notation` writes or :meth:`render` draws; InputFormatError
        naming the fault for anything else (a stack not smallest-first, too many pieces)."""
        lines = text.strip().splitlines()
        if len(lines) == 1 and "/" in lines[0]:
            rows, _, side = lines[0].rpartition(" ")
            lines = [row.replace(",", " ") for row in rows.split("/")] + [f"{side} to move"]
        words = lines[-1].split() if lines else []
        turn = words[0].upper() if len(words) == 3 and words[1:] == ["to", "move"] else ""
        shown = [word for line in lines[:-1] for word in line.split()]
        if turn not in ("X", "O") or len(shown) != 9 or len(lines) != 4:
            raise InputFormatError(
                f"expected 3 rows of 3 stacks (like sL,-,M/-,-,-/-,-,- X) and the side to move, "
                f"got {text!r}"
            )
        cells = tuple("" if word == "-" else word for word in shown)
        letters = SIZES[: self.sizes] + SIZES[: self.sizes].lower()
        for name, stack in zip((cell_name(d) for d in range(9)), cells, strict=True):
            sizes = [letters.index(p) % self.sizes if p in letters else -1 for p in stack]
            if -1 in sizes or sizes != sorted(set(sizes)):
                raise InputFormatError(
                    f"cell {name} holds {stack!r}: pieces {'/'.join(letters)} from the bottom up, "
                    f"each size at most once and smaller under larger"
                )
        for player in "XO":
            if min(self.reserve(cells, player)) < 0:
                raise InputFormatError(
                    f"{player} has more than {self.pieces} pieces of one size on the board"
                )
        return cells, turn

    def encode(self, position: GobbletPosition) -> int:
        cells, turn = position
        code = 0
        for stack in cells:
            for letter in SIZES:
                code = code * 3 + (1 if letter in stack else 2 if letter.lower() in stack else 0)
        return code * 2 + (turn == "O")

    def decode(self, code: int) -> GobbletPosition:
        code, o_turn = divmod(code, 2)
        cells = []
        for _ in range(9):
            stack = ""
            for letter in reversed(SIZES):
                code, digit = divmod(code, 3)
                stack = ("", letter, letter.lower())[digit] + stack
            cells.append(stack)
        return tuple(reversed(cells)), "O" if o_turn else "X"
