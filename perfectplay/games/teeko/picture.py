"""Teeko: the board, each drop as a disc on its cell and each slide as an arrow, by value.

A drop ``"13"`` is a disc on cell 13 in the value's colour with the value initial and
remoteness on it. A slide ``"7-13"`` is an arrow from its piece towards the cell it goes to,
in the value's colour, with the value tag on the arrow's tail half (a piece's slides fan out
from it in up to 8 directions).

Examples
--------
>>> from perfectplay.games.registry import load_game
>>> game = load_game("teeko", size=4, pieces=3)
>>> drawing(game, game.initial(), {}).caption
'X to drop'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from perfectplay.protocol.game import Game
from perfectplay.svg.elements import Drawing, arrow, el, move_mark, tag, xo_mark
from perfectplay.svg.palette import INK, value_colour

__all__ = ["drawing"]

_CELL = 100.0
_COUNTS = {3: "three", 4: "four", 5: "five"}  # the pieces a player has (check_params: 3 to 5)


def _caption(game: Game[Any], position: tuple[str, str]) -> str:
    board, turn = position
    pieces = int(game.info.params["pieces"])
    if game.outcome(position) is not None:
        other = "O" if turn == "X" else "X"
        return f"{other} has {_COUNTS[pieces]} in a pattern"
    dropping = board.count("-") > len(board) - 2 * pieces
    return f"{turn} to {'drop' if dropping else 'move'}"


def drawing(game: Game[Any], position: tuple[str, str], moves: Mapping[str, Any]) -> Drawing:
    """The board of `position` = ``(cells, turn)``, each move of `moves` by its value.

    Cost: O(size^2 + moves).
    """
    board, _ = position
    n = int(game.info.params["size"])
    parts: list[str] = []
    for index, piece in enumerate(board):
        r, c = divmod(index, n)
        x, y = c * _CELL, r * _CELL
        parts.append(
            el("rect", x=x, y=y, width=_CELL, height=_CELL, fill="#EDE3C8", stroke=INK,
               stroke_width=1.5)
        )  # fmt: skip
        parts += xo_mark(piece, x + _CELL / 2, y + _CELL / 2, 0.22 * _CELL, 0.25 * _CELL, 6)
        parts.append(el("text", str(index + 1), x=x + 8, y=y + 16, font_size=11, fill="#666666"))
    for label, move in moves.items():
        ends = [int(part) - 1 for part in label.split("-")]
        colour = value_colour(move.value)
        r, c = divmod(ends[0], n)
        cx, cy = (c + 0.5) * _CELL, (r + 0.5) * _CELL
        if len(ends) == 1:
            shapes = [el("circle", cx=cx, cy=cy, r=0.28 * _CELL, fill=colour, stroke=INK),
                      tag(move, cx, cy, 16)]  # fmt: skip
        else:
            r2, c2 = divmod(ends[1], n)
            dx, dy = c2 - c, r2 - r
            sx, sy = cx + dx * 0.3 * _CELL, cy + dy * 0.3 * _CELL
            tx, ty = cx + dx * 0.85 * _CELL, cy + dy * 0.85 * _CELL
            mx, my = cx + dx * 0.52 * _CELL, cy + dy * 0.52 * _CELL
            shapes = [*arrow(sx, sy, tx, ty, colour, 5.0),
                      el("circle", cx=mx, cy=my, r=12, fill=colour, stroke=INK),
                      tag(move, mx, my, 10)]  # fmt: skip
        parts.append(move_mark(move, shapes))
    return Drawing(n * _CELL, n * _CELL, parts, _caption(game, position))
