"""Dodgem, Colin Vout's car race: a loopy game, won by the first player on 3x3.

The rules (Berlekamp, Conway and Guy, *Winning Ways*): on an n x n board each player
has n - 1 cars. Blue's cars start on the left edge, Red's on the bottom edge; the bottom-left
cell stays empty. Blue moves first. On a turn a player moves one car one cell *forward* or
*sideways* onto an empty cell: Blue's cars go right (forward), up or down; Red's cars go up
(forward), left or right. A car leaves the board only by a forward move off the far edge
(Blue's right edge, Red's top edge) and is then out of the game. **The player who has no legal
move on their turn wins**, whether all their cars have left the board or the rest are blocked:
a player must leave the opponent a move. Sideways moves let positions repeat, so best play
may go on forever (a DRAW).

Values, for the player to move: the 3x3 game is a win for the first player (Winning Ways
gives the value of every position); David des Jardins (1996) showed that on 4x4 and 5x5 best
play never ends.

A position is ``(board, turn)``: `board` is a string of n * n cells ``B``, ``R`` or ``.``, row
by row from the top, and `turn` is ``"B"`` or ``"R"``, the player to move. Move labels name the
car's cell (column letter, row digit from the bottom) and a direction: ``r`` right, ``l``
left, ``u`` up, ``d`` down (``"c2r"`` drives the car on c2 right, off the board).

Codes are base-3 numbers over the cells (``.`` 0, ``B`` 1, ``R`` 2) followed by one binary
digit for the player to move. Both enumeration paths are implemented; the vectorized one
tries every car step for a whole layer at once (a loopy game: children may lie in earlier
layers), which solves the 4x4 board (395,294 positions) in seconds.

References
----------
E. R. Berlekamp, J. H. Conway, R. K. Guy, *Winning Ways for your Mathematical Plays*,
vol. 2, Academic Press, 1982 (the value of every 3x3 position: p. 686). Rules as summarised
at https://en.wikipedia.org/wiki/Dodgem, which also reports des Jardins' 4x4 and 5x5 result.

Examples
--------
>>> game = Dodgem()
>>> print(game.render(game.initial()))
B . .
B . .
. R R
Blue to move
>>> [label for label, _ in game.moves(game.initial())]
['a3r', 'a2r', 'a2d']
>>> game.outcome(("....RR...", "B"))  # every Blue car has left: Blue cannot move and wins
<Value.WIN: 3>
"""

from __future__ import annotations

from math import comb

import numpy as np
from numpy.typing import NDArray

from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.protocol.game import Game, GameInfo
from perfectplay.values import UNDECIDED, VALUE_DTYPE, WIN, Value

__all__ = ["MAX_SIZE", "Dodgem"]

MAX_SIZE = 6
"""The largest board side whose codes ``2 * 3**(size * size)`` stay below ``2**63``."""

DodgemPosition = tuple[str, str]
OFF = -1
"""The target of a step that leaves the board (:attr:`Dodgem.steps`)."""
_NAMES = {"B": "Blue", "R": "Red"}


class Dodgem(Game[DodgemPosition]):
    """Dodgem on a `size` x `size` board with ``size - 1`` cars each (see the module docstring).

    Parameters
    ----------
    size : int
        Board side, 2 to 6 (codes ``2 * 3**(size * size)`` must fit in int64). 3 is the
        classic game (a few thousand positions); 4 has about a million.

    Raises
    ------
    GameDefinitionError
        If `size` is not an integer from 2 to 6.
    """

    def __init__(self, size: int = 3) -> None:
        if isinstance(size, bool) or not isinstance(size, int) or not 2 <= size <= MAX_SIZE:
            raise GameDefinitionError(
                f"dodgem needs a board side from 2 to {MAX_SIZE} (larger boards have position "
                f"codes beyond int64), got {size!r}"
            )
        self.size = size
        self.info = GameInfo(
            "dodgem",
            {"size": size},
            cyclic=True,
            description=f"Dodgem on {size}x{size} (Vout; Winning Ways)",
        )
        # Codes: base-3 digits per cell ('.' 0, 'B' 1, 'R' 2; cell 0 most significant), then
        # the player to move as the last binary digit (1 for Red).
        self._pow3 = 3 ** np.arange(size * size - 1, -1, -1, dtype=np.int64)
        self.steps: dict[str, list[list[tuple[str, int]]]] = {
            player: [self._cell_steps(player, i) for i in range(size * size)] for player in "BR"
        }
        """The car steps of each player (``"B"``, ``"R"``) from each cell (0 top-left, row by
        row): ``(label, target)`` in the order :meth:`moves` lists them, `target` the cell
        reached or :data:`OFF` for driving off the board. The tier form's kernels read it."""

    def _cell_steps(self, player: str, index: int) -> list[tuple[str, int]]:
        n = self.size
        row, col = divmod(index, n)  # row 0 is the top row
        name = f"{'abcdefghijklmnopqrstuvwxyz'[col]}{n - row}"
        if player == "B":
            candidates = [("r", OFF if col == n - 1 else index + 1)]
            candidates += [("u", index - n)] if row > 0 else []
            candidates += [("d", index + n)] if row < n - 1 else []
        else:
            candidates = [("u", OFF if row == 0 else index - n)]
            candidates += [("l", index - 1)] if col > 0 else []
            candidates += [("r", index + 1)] if col < n - 1 else []
        return [(name + direction, target) for direction, target in candidates]

    def position_bound(self) -> int:
        """Boards with at most ``size - 1`` cars of each colour, either player to move."""
        cells, cars = self.size * self.size, self.size - 1
        return 2 * sum(
            comb(cells, blue) * comb(cells - blue, red)
            for blue in range(cars + 1)
            for red in range(cars + 1)
        )

    def initial(self) -> DodgemPosition:
        n = self.size
        rows = ["B" + "." * (n - 1) for _ in range(n - 1)] + ["." + "R" * (n - 1)]
        return "".join(rows), "B"

    def moves(self, position: DodgemPosition) -> list[tuple[str, DodgemPosition]]:
        board, turn = position
        other = "R" if turn == "B" else "B"
        result = []
        for index, cell in enumerate(board):
            if cell != turn:
                continue
            for label, target in self.steps[turn][index]:
                if target == OFF:
                    child = board[:index] + "." + board[index + 1 :]
                elif board[target] == ".":
                    cells = list(board)
                    cells[index], cells[target] = ".", turn
                    child = "".join(cells)
                else:
                    continue
                result.append((label, (child, other)))
        return result

    def outcome(self, position: DodgemPosition) -> Value | None:
        return None if self.moves(position) else Value.WIN

    def render(self, position: DodgemPosition) -> str:
        board, turn = position
        n = self.size
        grid = [" ".join(board[r * n : (r + 1) * n]) for r in range(n)]
        return "\n".join([*grid, f"{_NAMES[turn]} to move"])

    def labelled(self, position: DodgemPosition) -> str:
        """The board with the row numbers (from the bottom) and column letters of the move
        labels (``a3r``), then the side to move.

        >>> print(Dodgem().labelled(Dodgem().initial()))
        3 B . .
        2 B . .
        1 . R R
          a b c
        Blue to move
        """
        n = self.size
        *rows, status = self.render(position).splitlines()
        framed = [f"{n - r} {row}" for r, row in enumerate(rows)]
        return "\n".join([*framed, "  " + " ".join("abcdefghij"[:n]), status])

    def notation(self, position: DodgemPosition) -> str:
        """The rows from the top joined by ``/``, a blank and the side to move (``B``/``R``):
        ``B../B../.RR B``."""
        board, turn = position
        n = self.size
        return "/".join(board[r * n : (r + 1) * n] for r in range(n)) + f" {turn}"

    def parse(self, text: str) -> DodgemPosition:
        """The position :meth:`render` draws (rows, then ``Blue to move``/``Red to move``) or
        :meth:`notation` writes (rows joined by ``/``, a blank, ``B`` or ``R``)."""
        lines = text.strip().splitlines()
        if len(lines) == 1 and "/" in lines[0]:
            rows, _, side = lines[0].rpartition(" ")
            lines = [*rows.split("/"), side]
        n = self.size
        words = lines[-1].split() if lines else []
        turn = {"blue": "B", "red": "R", "b": "B", "r": "R"}.get(words[0].lower() if words else "")
        board = "".join("".join(line.split()) for line in lines[:-1]).upper()
        if turn is None or len(board) != n * n or set(board) - set("BR."):
            raise InputFormatError(
                f"expected {n} lines of {n} cells (B, R or .) and 'Blue to move' or "
                f"'Red to move', got {text!r}"
            )
        if board.count("B") > n - 1 or board.count("R") > n - 1:
            raise InputFormatError(f"each player has at most {n - 1} cars, got {text!r}")
        return board, turn

    def encode(self, position: DodgemPosition) -> int:
        board, turn = position
        code = 0
        for cell in board:
            code = code * 3 + ".BR".index(cell)
        return code * 2 + (turn == "R")

    def decode(self, code: int) -> DodgemPosition:
        code, red = divmod(code, 2)
        cells = []
        for _ in range(self.size * self.size):
            code, digit = divmod(code, 3)
            cells.append(".BR"[digit])
        return "".join(reversed(cells)), "R" if red else "B"

    # ------------------------------------------------------------------ vectorized path
    def batch_outcome(self, codes: NDArray[np.int64]) -> NDArray[np.uint8]:
        parent, _ = self.batch_moves(codes)
        stuck = np.bincount(parent, minlength=codes.size) == 0
        return np.where(stuck, WIN, UNDECIDED).astype(VALUE_DTYPE)

    def batch_moves(self, codes: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        board, red = codes >> 1, codes & 1
        cells = (board[:, None] // self._pow3[None, :]) % 3  # shape (k, n * n)
        mover = red + 1  # the digit of the player to move's cars
        parents, children = [], []
        for index in range(self.size * self.size):  # one array operation per cell and step,
            mine = cells[:, index] == mover  # in moves() order
            for player, digit in (("B", 1), ("R", 2)):
                for _, target in self.steps[player][index]:
                    legal = mine & (red == digit - 1)
                    if target != OFF:
                        legal &= cells[:, target] == 0
                    rows = np.flatnonzero(legal)
                    child = board[rows] - digit * self._pow3[index]
                    if target != OFF:
                        child += digit * self._pow3[target]
                    parents.append(rows)
                    children.append(child * 2 + (1 - red[rows]))
        return np.concatenate(parents).astype(np.int64), np.concatenate(children)
