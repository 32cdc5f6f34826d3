"""Quixo, as GamesmanOne plays it: push cubes back into rows, n in a row wins; loopy, with draws.

The rules, exactly as GamesmanOne implements them (``src/games/quixo/quixo.c``, file version
2.1.0 of 2025-03-15, in https://github.com/GamesCrafters/GamesmanOne; its variants "3x3
3-in-a-row", "4x4 4-in-a-row" and "5x5 5-in-a-row"):

* The board is n x n, every cube blank at the start; **X moves first**.
* A move takes a cube from the edge of the board that is blank or shows the mover's symbol
  (never the opponent's), and pushes it back in at the far end of its row or column (any end
  other than where it is: a corner has 2 choices, other edge cells 3); the cubes in between
  slide one cell towards the hole. The cube shows the mover's symbol afterwards. Taking a
  blank cube adds one of the mover's cubes; blank cubes never come back.
* The player to move is part of the position (the same board may occur with either to move).
* A position is over when a row, column or main diagonal is all one symbol: it is a WIN for
  the player to move if they have such a line (whether or not the opponent has one too),
  otherwise a LOSE. So a push that completes lines of both symbols loses for the pusher, and
  a push that completes only the opponent's line loses too.
* Endless play is a DRAW.

Values, for the player to move: the 3x3 start is a WIN in 7 (no draws); the 4x4 start is a WIN
in 21, as GamesmanOne reports, with 82,497,861 positions reachable from the start in
10,339,244 classes up to symmetry (GamesmanOne: 10.3 million), of which 3,213,236 positions
(402,690 classes) are draws (``perfectplay solve quixo --param size=4 --tiers DIR``, then
``perfectplay analyze DIR``). A player is never without a move: all edge cubes the
opponent's would make a line of theirs.

GamesmanOne also rules out, as illegal, positions where the player who has just moved has no
cube on the edge (the cube they pushed in lands on the edge);
:class:`~perfectplay.games.quixo.tiers.TieredQuixo` solves the same positions: its slots are
the canonical positions passing this test.

A position is ``(board, turn)``: `board` is a string of n * n cells ``X``, ``O`` or ``-``, row by
row from the top, and `turn` is ``"X"`` or ``"O"``, the player to move. Move labels are
GamesmanOne's move strings without the space: the cell taken, numbered 1 to n * n row by row
from the top left, and the end it is pushed in at, ``R``/``L`` (right or left end of its row),
``D``/``U`` (bottom or top of its column): ``"1R"`` takes the top-left cube and pushes it in at
the right end of the top row. Moves come in GamesmanOne's order. The 8 symmetries of the square
keep the value; :meth:`Quixo.canonical` picks the image whose bitboards (X first, then O;
bit ``d`` for cell ``d``) are smallest.

:class:`~perfectplay.games.quixo.tiers.TieredQuixo` is the same game for the tier engine.

References
----------
GamesCrafters, *GamesmanOne*, ``src/games/quixo/quixo.c`` (R. Shi et al., after F. Bonnet's
solver of 5x5 Quixo, arXiv:2007.15895), https://github.com/GamesCrafters/GamesmanOne.
S. Tanaka, F. Bonnet, S. Tixeuil, Y. Tamura, *Quixo is solved*, arXiv:2007.15895, 2020.

Examples
--------
>>> game = Quixo(3)
>>> [label for label, _ in game.moves(game.initial())][:6]
['1R', '2L', '1D', '4U', '2R', '3L']
>>> board, turn = dict(game.moves(game.initial()))["1R"]
>>> print(game.render((board, turn)))
- - X
- - -
- - -
O to move
>>> game.outcome(("XXXOOO---", "X"))  # both have a line: the player to move wins
<Value.WIN: 3>
"""

from __future__ import annotations

from typing import Any

from perfectplay.errors import GameDefinitionError
from perfectplay.games._square_board import BoardText, bitboards, board_of, square_symmetries
from perfectplay.games.quixo import _kernels as kernels
from perfectplay.protocol.game import Game, GameInfo
from perfectplay.values import Value

__all__ = ["SIZES", "SYMBOLS", "Quixo", "QuixoPosition", "check_size"]

SIZES = (3, 4, 5)
"""The board sides GamesmanOne plays (its three variants)."""

QuixoPosition = tuple[str, str]
"""``(board, turn)``: n * n cells ``X``/``O``/``-`` row by row from the top; ``"X"``/``"O"``."""

SYMBOLS = "XO"
"""The players' symbols, X (moves first) then O: index 0 or 1 is the turn bit of a rank."""


def check_size(size: Any) -> int:
    """`size` if it is a board side GamesmanOne plays; raises GameDefinitionError otherwise."""
    if isinstance(size, bool) or not isinstance(size, int) or size not in SIZES:
        raise GameDefinitionError(
            f"quixo needs a board side of 3, 4 or 5 (GamesmanOne's variants), got {size!r}"
        )
    return size


class Quixo(Game[QuixoPosition]):
    """Quixo on a `size` x `size` board, GamesmanOne's rules (see the module docstring).

    Parameters
    ----------
    size : int
        Board side: 3, 4 or 5 (n in a row wins). 3x3 has 39,366 positions (in memory in a
        second); 4x4 and 5x5 are for the tier engine (:class:`TieredQuixo`).

    Raises
    ------
    GameDefinitionError
        If `size` is not 3, 4 or 5.
    """

    def __init__(self, size: int = 4) -> None:
        self.size = check_size(size)
        self.info = GameInfo(
            "quixo",
            {"size": size},
            cyclic=True,
            description=f"Quixo on {size}x{size} (GamesmanOne's rules)",
        )
        n = size
        self._moves = kernels.move_list(n)
        self._lines = [[r * n + c for c in range(n)] for r in range(n)]
        self._lines += [[r * n + c for r in range(n)] for c in range(n)]
        self._lines += [[i * n + i for i in range(n)], [i * n + n - 1 - i for i in range(n)]]
        self._perms = square_symmetries(n)
        self._text = BoardText(n, n)

    def initial(self) -> QuixoPosition:
        return "-" * (self.size * self.size), "X"

    def position_bound(self) -> int:
        """Every board of X, O and blank cells, with either player to move: ``2 * 3**(n*n)``."""
        return 2 * 3 ** (self.size * self.size)

    def moves(self, position: QuixoPosition) -> list[tuple[str, QuixoPosition]]:
        board, turn = position
        if self.outcome(position) is not None:
            return []
        other = "O" if turn == "X" else "X"
        n = self.size
        result = []
        for label, src, dest in self._moves:
            if board[src] == other:
                continue
            step = (1 if abs(src - dest) < n else n) * (1 if dest > src else -1)
            cells = list(board)
            for d in range(src, dest, step):  # the cubes between slide towards the hole
                cells[d] = cells[d + step]
            cells[dest] = turn
            result.append((label, ("".join(cells), other)))
        return result

    def _line(self, board: str, symbol: str) -> bool:
        return any(all(board[d] == symbol for d in line) for line in self._lines)

    def outcome(self, position: QuixoPosition) -> Value | None:
        board, turn = position
        if self._line(board, turn):
            return Value.WIN
        if self._line(board, "O" if turn == "X" else "X"):
            return Value.LOSE
        return None

    def canonical(self, position: QuixoPosition) -> QuixoPosition:
        board, turn = position

        def key(perm: list[int]) -> tuple[int, int]:
            image = [""] * len(board)
            for d, cell in enumerate(board):
                image[perm[d]] = cell
            x, o = bitboards("".join(image))
            return x, o

        return board_of(min(key(perm) for perm in self._perms), len(board)), turn

    def render(self, position: QuixoPosition) -> str:
        return self._text.render(position)

    def labelled(self, position: QuixoPosition) -> str:
        """The board with the cell numbers of the move labels (``1R``) beside it, then the side
        to move.

        >>> print(Quixo(3).labelled(Quixo(3).initial()))
        - - -    1 2 3
        - - -    4 5 6
        - - -    7 8 9
        X to move
        """
        n = self.size
        *rows, status = self.render(position).splitlines()
        width = len(str(n * n))
        numbers = [" ".join(f"{r * n + c + 1:>{width}}" for c in range(n)) for r in range(n)]
        return "\n".join(
            [*(f"{row}    {key}" for row, key in zip(rows, numbers, strict=True)), status]
        )

    def notation(self, position: QuixoPosition) -> str:
        """The rows from the top joined by ``/``, a blank and the side to move (``X--/-O-/--- X``
        on 3x3)."""
        return self._text.notation(position)

    def parse(self, text: str) -> QuixoPosition:
        """The position :meth:`render` draws (rows, then ``X to move``/``O to move``) or
        :meth:`notation` writes (rows joined by ``/``, a blank, ``X`` or ``O``)."""
        return self._text.parse(text)

    def encode(self, position: QuixoPosition) -> int:
        return self._text.encode(position)

    def decode(self, code: int) -> QuixoPosition:
        return self._text.decode(code)
