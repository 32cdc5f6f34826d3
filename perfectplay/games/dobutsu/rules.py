"""Dobutsu Shogi ("animal shogi"), as GamesmanOne plays it: catch the lion, or reach the far row.

The rules of GamesmanOne's ``src/games/dshogi/dshogi.c`` (v1.0.2, in
https://github.com/GamesCrafters/GamesmanOne), which are those Tanaka (2009) solved:

* The board has 3 columns and 4 rows. The first player, **Forest** (upper case, ``L G E C``),
  starts on the bottom rows and moves up; **Sky** (lower case) starts on the top rows and moves
  down. Start: ``gle/-c-/-C-/ELG``, Forest to move.
* A lion (``L``) steps one cell in any of the 8 directions, a giraffe (``G``) one cell
  orthogonally, an elephant (``E``) one cell diagonally, a chick (``C``) one cell forward. A
  chick that reaches the far row becomes a hen (``H``), which steps like a gold general: any
  direction but the two backward diagonals.
* A piece may step onto an empty cell or capture an opponent's piece there. A captured giraffe,
  elephant or chick goes to the captor's hand (a captured hen becomes a chick). Instead of
  stepping, a player may drop a piece from their hand on any empty cell; a chick dropped on the
  far row stays a chick (it can never move again).
* A player who captures the opposing lion wins: the position after it is over, lost for the
  player to move (who has no lion).
* **Try**: a lion that reaches the far row ends the game at once. The position after it is
  over: won for the player to move if they can capture that lion with one of their pieces
  (a "try into check"), lost otherwise. (GamesmanOne's primitive; "the lion survives the
  opponent's reply" in the printed rules, up to one ply of remoteness.)
* Endless play is a DRAW (the printed rules call a game repeating a position three times a
  draw; GamesmanOne, Tanaka and this module treat every cycle so).

The parameters ``giraffes``, ``elephants`` and ``chicks`` (0 to 2 each, 2 in Dobutsu Shogi) give
smaller games for the tests: the missing pieces are simply not in play (the first of each kind
stands where the start puts it: one chick stands in front of each lion; one giraffe and one
elephant at the back, Forest's elephant on the left).

A position is ``(board, hands, turn)``: `board` is 12 cells row by row from the top (``-`` for
empty), `hands` the pieces held, Forest's upper case first, each player's in the order ``GEC``
(``"CCg"``: Forest holds both chicks, Sky a giraffe), and `turn` ``"F"`` (Forest to move) or
``"S"``. Its one-line notation (:meth:`DobutsuShogi.notation`) is the rows joined by ``/``, the
player to move and the hands (``-`` for none): ``gle/-c-/-C-/ELG F -`` is the start.

Move labels are GamesmanOne's move strings with ``-`` for its blank: a step is its cell and
the cell it goes to, numbered 1 to 12 row by row from the top left (``"8-5"``: Forest's chick
takes Sky's); a drop is the piece's letter and the cell (``"g-5"``). Moves come in
GamesmanOne's order: the steps by cell, each to its cells in increasing order, then the drops of
a giraffe, an elephant, a chick, each on the empty cells in increasing order.

The mirror image (left and right swapped) of a position has its value, and so does the board
turned half round with the colours and hands swapped and the other player to move:
:meth:`DobutsuShogi.canonical` gives Forest the move, then takes the smaller of the board and
its mirror image.

References
----------
T. Tanaka, *An analysis of a board game "Doubutsu Shogi"*, IPSJ SIG Technical Report
2009-GI-22 (2009): 246,803,167 positions reachable from the start, a loss in 78 plies for the
first player. GamesCrafters, *GamesmanOne*, ``src/games/dshogi/dshogi.c`` (R. Shi).

Examples
--------
>>> game = DobutsuShogi()
>>> start = game.initial()
>>> game.notation(start)
'gle/-c-/-C-/ELG F -'
>>> [label for label, _ in game.moves(start)]
['8-5', '11-7', '11-9', '12-9']
>>> after = dict(game.moves(start))["8-5"]
>>> game.notation(after)
'gle/-C-/---/ELG S C'
"""

from __future__ import annotations

from typing import Any

from perfectplay.errors import GameDefinitionError, InputFormatError
from perfectplay.protocol.game import Game, GameInfo
from perfectplay.values import Value

__all__ = [
    "DobutsuPosition",
    "DobutsuShogi",
    "check_params",
    "destinations",
    "mirror",
    "turn_over",
]

DobutsuPosition = tuple[str, str, str]
"""``(board, hands, turn)``: 12 cells from the top, the pieces held (``GECgec``), ``F``/``S``."""

ROWS, COLS, CELLS = 4, 3, 12
_HAND_ORDER = "GECgec"
_STEPS = {
    "L": [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc],
    "G": [(-1, 0), (0, -1), (0, 1), (1, 0)],
    "E": [(-1, -1), (-1, 1), (1, -1), (1, 1)],
    "H": [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0)],
    "C": [(-1, 0)],
}
"""Forest's steps (row offset first; up is -1); Sky's are the same turned upside down."""


def destinations(piece: str, cell: int) -> list[int]:
    """The cells `piece` (a letter, upper case Forest's) on `cell` steps to, in increasing order.

    >>> destinations("C", 7), destinations("c", 7), destinations("E", 0)
    ([4], [10], [4])
    """
    r, c = divmod(cell, COLS)
    sign = 1 if piece.isupper() else -1
    out = []
    for dr, dc in _STEPS[piece.upper()]:
        r2, c2 = r + sign * dr, c + dc
        if 0 <= r2 < ROWS and 0 <= c2 < COLS:
            out.append(r2 * COLS + c2)
    return sorted(out)


def check_params(giraffes: Any, elephants: Any, chicks: Any) -> tuple[int, int, int]:
    """The numbers of giraffes, elephants and chicks in play, checked: 0 to 2 each."""
    out = []
    for name, value in (("giraffes", giraffes), ("elephants", elephants), ("chicks", chicks)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 2:
            raise GameDefinitionError(f"dobutsu needs {name} between 0 and 2, got {value!r}")
        out.append(value)
    return out[0], out[1], out[2]


def sorted_hands(hands: str) -> str:
    """`hands` in the order ``GECgec``."""
    return "".join(sorted(hands, key=_HAND_ORDER.index))


def mirror(board: str) -> str:
    """`board` with its columns swapped left and right."""
    return "".join(board[r * COLS : (r + 1) * COLS][::-1] for r in range(ROWS))


def turn_over(position: DobutsuPosition) -> DobutsuPosition:
    """`position` seen by the other player: the board turned half round, colours, hands and the
    player to move swapped (the same value for the player to move)."""
    board, hands, turn = position
    return board[::-1].swapcase(), sorted_hands(hands.swapcase()), "S" if turn == "F" else "F"


class DobutsuShogi(Game[DobutsuPosition]):
    """Dobutsu Shogi with `giraffes`, `elephants` and `chicks` (0 to 2 each) in play.

    Parameters
    ----------
    giraffes, elephants, chicks : int
        Pieces of each kind in play (both players' together), 0 to 2; Dobutsu Shogi: 2 each.

    Raises
    ------
    GameDefinitionError
        If a parameter is out of range.
    """

    def __init__(self, giraffes: int = 2, elephants: int = 2, chicks: int = 2) -> None:
        self.totals = check_params(giraffes, elephants, chicks)
        self.info = GameInfo(
            "dobutsu",
            {"giraffes": giraffes, "elephants": elephants, "chicks": chicks},
            cyclic=True,
            description="Dobutsu Shogi (3x4 animal shogi; GamesmanOne's and Tanaka's rules)",
        )

    def initial(self) -> DobutsuPosition:
        g, e, c = self.totals
        board = list("-l----------")
        board[10] = "L"
        for cell, piece, count in ((0, "g", g), (2, "e", e), (4, "c", c)):
            if count:
                board[cell] = piece
                board[11 - cell] = piece.upper()
                if count == 1:
                    board[11 - cell] = "-"  # one piece of the kind: Sky's
        return "".join(board), "", "F"

    # ------------------------------------------------------------------ rules
    def moves(self, position: DobutsuPosition) -> list[tuple[str, DobutsuPosition]]:
        if self.outcome(position) is not None:
            return []
        board, hands, turn = position
        mine = str.isupper if turn == "F" else str.islower
        other = "S" if turn == "F" else "F"
        out = []
        for src, piece in enumerate(board):
            if piece == "-" or not mine(piece):
                continue
            for dest in destinations(piece, src):
                target = board[dest]
                if target != "-" and mine(target):
                    continue
                cells = list(board)
                moved = piece
                if piece in "Cc" and dest // COLS == (0 if turn == "F" else ROWS - 1):
                    moved = "H" if piece == "C" else "h"
                cells[src], cells[dest] = "-", moved
                held = hands
                if target not in "-Ll":
                    kind = "C" if target.upper() == "H" else target.upper()
                    held = sorted_hands(hands + (kind if turn == "F" else kind.lower()))
                out.append((f"{src + 1}-{dest + 1}", ("".join(cells), held, other)))
        for kind in "GEC":
            piece = kind if turn == "F" else kind.lower()
            if piece not in hands:
                continue
            held = hands.replace(piece, "", 1)
            for dest, cell in enumerate(board):
                if cell == "-":
                    dropped = board[:dest] + piece + board[dest + 1 :]
                    out.append((f"{kind.lower()}-{dest + 1}", (dropped, held, other)))
        return out

    def attacks(self, position: DobutsuPosition, cell: int) -> bool:
        """Whether a piece of the player to move steps to `cell`."""
        board, _, turn = position
        mine = str.isupper if turn == "F" else str.islower
        return any(
            piece != "-" and mine(piece) and cell in destinations(piece, src)
            for src, piece in enumerate(board)
        )

    def outcome(self, position: DobutsuPosition) -> Value | None:
        """LOSE without a lion (it was caught); after a try, WIN if the player to move can catch
        the lion on the far row, else LOSE; None while play goes on."""
        board = position[0]
        if "L" not in board or "l" not in board:
            return Value.LOSE
        for lion, row in (("L", 0), ("l", ROWS - 1)):
            cell = board.index(lion)
            if cell // COLS == row:
                return Value.WIN if self.attacks(position, cell) else Value.LOSE
        return None

    def canonical(self, position: DobutsuPosition) -> DobutsuPosition:
        board, hands, turn = turn_over(position) if position[2] == "S" else position
        return min(board, mirror(board)), hands, turn

    # ------------------------------------------------------------------ text
    def render(self, position: DobutsuPosition) -> str:
        board, hands, turn = position
        sky = "".join(p for p in hands if p.islower()) or "-"
        forest = "".join(p for p in hands if p.isupper()) or "-"
        rows = [" ".join(board[r * COLS : (r + 1) * COLS]) for r in range(ROWS)]
        who = "Forest" if turn == "F" else "Sky"
        return "\n".join([f"sky holds {sky}", *rows, f"forest holds {forest}", f"{who} to move"])

    def labelled(self, position: DobutsuPosition) -> str:
        """:meth:`render`'s picture with the cell numbers of the move labels (``8-5``,
        ``C-5``) beside the board.

        >>> game = DobutsuShogi()
        >>> print(game.labelled(game.initial()))
        sky holds -
        g l e     1  2  3
        - c -     4  5  6
        - C -     7  8  9
        E L G    10 11 12
        forest holds -
        Forest to move
        """
        lines = self.render(position).splitlines()
        keys = [" ".join(f"{r * COLS + c + 1:>2}" for c in range(COLS)) for r in range(ROWS)]
        board = [f"{row}    {key}" for row, key in zip(lines[1:-2], keys, strict=True)]
        return "\n".join([lines[0], *board, *lines[-2:]])

    def notation(self, position: DobutsuPosition) -> str:
        """The rows from the top joined by ``/``, the player to move (``F`` or ``S``) and the
        hands (``-`` for none), separated by blanks."""
        board, hands, turn = position
        rows = "/".join(board[r * COLS : (r + 1) * COLS] for r in range(ROWS))
        return f"{rows} {turn} {hands or '-'}"

    def parse(self, text: str) -> DobutsuPosition:
        """The position :meth:`notation` writes or :meth:`render` draws; InputFormatError for
        anything else, or for a position no game reaches by its pieces (see :meth:`check`)."""
        lines = [line.strip() for line in text.strip().splitlines()]
        if len(lines) == 7 and lines[0].startswith("sky holds "):
            words = lines[6].split()
            side = {"Forest": "F", "Sky": "S"}.get(words[0], "?") if words else "?"
            held = (lines[0][10:] + lines[5][13:]).replace("-", "") or "-"
            text = "/".join(line.replace(" ", "") for line in lines[1:5]) + f" {side} {held}"
        words = text.split()
        if len(words) == 2:
            words.append("-")
        rows = words[0].split("/") if words else []
        if (
            len(words) != 3
            or len(rows) != ROWS
            or any(len(row) != COLS for row in rows)
            or words[1] not in ("F", "S")
        ):
            raise InputFormatError(
                "expected a dobutsu position: 4 rows of 3 cells joined by '/', 'F' or 'S' to "
                f"move and the hands (e.g. 'gle/-c-/-C-/ELG F -'), got {text!r}"
            )
        board = "".join(rows)
        hands = "" if words[2] == "-" else words[2]
        if set(board) - set("-LGECHlgech") or set(hands) - set(_HAND_ORDER):
            raise InputFormatError(
                f"dobutsu cells are - or one of LGECH lgech and hands of GEC gec, got {text!r}"
            )
        position = board, sorted_hands(hands), words[1]
        self.check(position)
        return position

    def check(self, position: DobutsuPosition) -> None:
        """Raise InputFormatError unless `position` has this game's pieces and could be played
        to: each kind counted on the board and in hand as many times as in play, one lion each
        (the lion of the player to move may be caught), no lion of the player to move on the
        far row (the try ended the game before)."""
        board, hands, turn = position
        for kind, total in zip("GEC", self.totals, strict=True):
            found = sum(board.upper().count(p) for p in ({kind, "H"} if kind == "C" else {kind}))
            found += hands.upper().count(kind)
            if found != total:
                raise InputFormatError(
                    f"dobutsu position {self.notation(position)!r} has {found} pieces of kind "
                    f"{kind} on the board and in hand, the game {total}"
                )
        mover, waiting = ("L", "l") if turn == "F" else ("l", "L")
        if board.count(waiting) != 1 or board.count(mover) > 1:
            raise InputFormatError(
                f"dobutsu position {self.notation(position)!r}: each player has one lion (only "
                "the lion of the player to move may have been caught)"
            )
        if mover in board and board.index(mover) // COLS == (0 if turn == "F" else ROWS - 1):
            raise InputFormatError(
                f"dobutsu position {self.notation(position)!r}: the lion of the player to move "
                "is on the far row, where its try ended the game"
            )

    def encode(self, position: DobutsuPosition) -> int:
        board, hands, turn = position
        code = 0
        for cell in board:
            code = code * 11 + "-LGECHlgech".index(cell)
        for piece in _HAND_ORDER:
            code = code * 3 + hands.count(piece)
        return code * 2 + (turn == "S")

    def decode(self, code: int) -> DobutsuPosition:
        code, sky = divmod(code, 2)
        held = []
        for piece in reversed(_HAND_ORDER):
            code, count = divmod(code, 3)
            held.append(piece * count)
        cells = []
        for _ in range(CELLS):
            code, digit = divmod(code, 11)
            cells.append("-LGECHlgech"[digit])
        return "".join(reversed(cells)), sorted_hands("".join(held)), "S" if sky else "F"
