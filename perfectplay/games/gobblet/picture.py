"""Gobblet Gobblers: the stacks, the reserves, and each move by its value.

Each cell shows its stack as nested discs, a disc's radius by the piece's size (X's dark, O's
white): the top piece full, the pieces it covers as dashed rings inside it. Under the board,
each player's reserve. A placement ``"Lb2"`` is a small disc at the foot of its cell, one slot
per size (small, medium, large from the left), in the value's colour with the value tag; a
move ``"a1-b2"`` is an arrow from the piece to the cell it goes to, its tag on the arrow.

Examples
--------
>>> from perfectplay.games.registry import load_game
>>> game = load_game("gobblet-gobblers")
>>> drawing(game, game.initial(), {}).caption
'X to move'
>>> drawing(game, game.parse("L,M,S/-,-,-/-,-,- O"), {}).caption
'X has a line'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from perfectplay.protocol.game import Game
from perfectplay.svg.elements import Drawing, arrow, el, move_mark, tag
from perfectplay.svg.palette import INK, STONE_DARK, STONE_LIGHT, value_colour
from perfectplay.values import Value

__all__ = ["drawing"]

_CELL = 130.0
_RADIUS = (0.13, 0.21, 0.29)
"""Disc radius of a small, medium and large piece, in cells."""
_SIZES = "SML"
_RESERVE = 60.0
"""Height of the reserves' strip under the board."""


def _cell_xy(name: str) -> tuple[float, float]:
    """The centre of a stack in cell `name` (``"b2"``)."""
    return ("abc".index(name[0]) + 0.5) * _CELL, (int(name[1]) - 0.55) * _CELL


def _disc(piece: str, cx: float, cy: float, scale: float, top: bool) -> str:
    r = _RADIUS[_SIZES.index(piece.upper())] * scale
    fill = STONE_DARK if piece.isupper() else STONE_LIGHT
    if top:
        return el("circle", cx=cx, cy=cy, r=r, fill=fill, stroke=INK, stroke_width=3)
    ring = STONE_LIGHT if piece.isupper() else STONE_DARK
    return el("circle", cx=cx, cy=cy, r=r, fill="none", stroke=ring, stroke_width=2,
              stroke_dasharray="5 4")  # fmt: skip


def _caption(game: Game[Any], position: tuple[tuple[str, ...], str]) -> str:
    outcome = game.outcome(position)
    turn = position[1]
    if outcome is None:
        return f"{turn} to move"
    other = "O" if turn == "X" else "X"
    return f"{turn if outcome == Value.WIN else other} has a line"


def drawing(
    game: Game[Any], position: tuple[tuple[str, ...], str], moves: Mapping[str, Any]
) -> Drawing:
    """The board of `position` = ``(cells, turn)`` and the reserves, each move of `moves` by
    its value. Cost: O(pieces + moves)."""
    cells, _ = position
    parts: list[str] = []
    for index, stack in enumerate(cells):
        r, c = divmod(index, 3)
        x, y = c * _CELL, r * _CELL
        parts.append(el("rect", x=x + 3, y=y + 3, width=_CELL - 6, height=_CELL - 6, rx=10,
                        fill="#F1E6D0", stroke=INK, stroke_width=2))  # fmt: skip
        cx, cy = _cell_xy("abc"[c] + str(r + 1))
        parts += [_disc(piece, cx, cy, _CELL, i == len(stack) - 1)
                  for i, piece in reversed(list(enumerate(stack)))]  # fmt: skip
        name = "abc"[c] + str(r + 1)
        parts.append(el("text", name, x=x + 10, y=y + 18, font_size=11, fill="#666666"))
    for row, player in enumerate("XO"):
        y = 3 * _CELL + (row + 0.5) * _RESERVE / 2
        parts.append(el("text", f"{player}:", x=6, y=y + 5, font_size=14, fill=INK))
        x = 40.0
        for size, left in enumerate(game.reserve(cells, player)):  # type: ignore[attr-defined]
            piece = _SIZES[size] if player == "X" else _SIZES[size].lower()
            for _ in range(left):
                parts.append(_disc(piece, x, y, 0.4 * _CELL, True))
                x += 2 * 0.4 * _CELL * _RADIUS[size] + 8
    for label, move in moves.items():
        colour = value_colour(move.value)
        if "-" in label:
            src, dest = label.split("-")
            (sx, sy), (tx, ty) = _cell_xy(src), _cell_xy(dest)
            mx, my = sx + 0.45 * (tx - sx), sy + 0.45 * (ty - sy)
            shapes = [*arrow(sx, sy, tx, ty, colour, 4.0),
                      el("circle", cx=mx, cy=my, r=13, fill=colour, stroke=INK),
                      tag(move, mx, my, 10)]  # fmt: skip
        else:
            size, name = _SIZES.index(label[0]), label[1:]
            cx, _ = _cell_xy(name)
            lx = cx + (size - 1) * 0.3 * _CELL
            ly = (int(name[1]) - 0.12) * _CELL
            shapes = [el("circle", cx=lx, cy=ly, r=12, fill=colour, stroke=INK),
                      tag(move, lx, ly, 9)]  # fmt: skip
        parts.append(move_mark(move, shapes))
    return Drawing(3 * _CELL, 3 * _CELL + _RESERVE, parts, _caption(game, position))
