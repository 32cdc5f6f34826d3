"""Dobutsu Shogi: the board between the two hands, each step as an arrow and each drop as a disc.

A piece is a tile with its letter (``L`` lion, ``G`` giraffe, ``E`` elephant, ``C`` chick, ``H``
hen); Sky's tiles are tinted and their letters upside down, as the players sit. Sky's hand is
drawn above the board, Forest's below. A step ``"8-5"`` is an arrow from its piece towards the
cell it goes to, in the value's colour, with the value tag on it; a drop ``"g-5"`` is a disc on
the cell, in one of three places by the piece dropped (giraffe left, elephant middle, chick
right), lettered with the piece and tagged with the value.

Examples
--------
>>> from perfectplay.games.registry import load_game
>>> game = load_game("dobutsu")
>>> drawing(game, game.initial(), {}).caption
'Forest to move'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from perfectplay.protocol.game import Game
from perfectplay.svg.elements import Drawing, arrow, el, move_mark, tag
from perfectplay.svg.palette import INK, value_colour
from perfectplay.values import Value

__all__ = ["drawing"]

_CELL = 100.0
_HAND = 60.0
"""Height of each hand's band."""
_FILL = {"F": "#F6E7C1", "S": "#D5E1EF"}


def _tile(piece: str, x: float, y: float, size: float) -> list[str]:
    """A piece's tile with its top-left corner at (x, y)."""
    owner = "F" if piece.isupper() else "S"
    cx, cy = x + size / 2, y + size / 2
    letter = el(
        "text", piece.upper(), x=cx, y=cy + 0.18 * size, font_size=0.5 * size,
        font_weight="bold", text_anchor="middle", fill=INK,
        transform=None if owner == "F" else f"rotate(180 {cx:g} {cy:g})",
    )  # fmt: skip
    tile = el(
        "rect", x=x, y=y, width=size, height=size, rx=0.12 * size, fill=_FILL[owner],
        stroke=INK, stroke_width=1.5,
    )  # fmt: skip
    return [tile, letter]


def _caption(game: Game[Any], position: tuple[str, str, str]) -> str:
    board, _, turn = position
    mover, other = ("Forest", "Sky") if turn == "F" else ("Sky", "Forest")
    outcome = game.outcome(position)
    if outcome is None:
        return f"{mover} to move"
    if "L" not in board or "l" not in board:
        return f"{other} caught the lion"
    if outcome is Value.WIN:
        return f"{other}'s lion reached the far row where {mover} catches it"
    return f"{other}'s lion reached the far row: a try"


def drawing(game: Game[Any], position: tuple[str, str, str], moves: Mapping[str, Any]) -> Drawing:
    """The board and hands of `position` = ``(board, hands, turn)``, each move of `moves` by
    its value. Cost: O(cells + moves)."""
    board, hands, _ = position
    parts: list[str] = []
    for row, held in (
        (0, [p for p in hands if p.islower()]),
        (1, [p for p in hands if p.isupper()]),
    ):
        y = 10.0 if row == 0 else _HAND + 4 * _CELL + 10.0
        for i, piece in enumerate(held):
            parts += _tile(piece, 8.0 + 48.0 * i, y, 40.0)
    for cell, piece in enumerate(board):
        r, c = divmod(cell, 3)
        x, y = c * _CELL, _HAND + r * _CELL
        parts.append(
            el("rect", x=x, y=y, width=_CELL, height=_CELL, fill="#E3EBD3", stroke=INK,
               stroke_width=1.5)
        )  # fmt: skip
        if piece != "-":
            parts += _tile(piece, x + 12.0, y + 12.0, _CELL - 24.0)
        parts.append(el("text", str(cell + 1), x=x + 5, y=y + 13, font_size=10, fill="#666666"))
    for label, move in moves.items():
        source, _, dest = label.partition("-")
        colour = value_colour(move.value)
        r, c = divmod(int(dest) - 1, 3)
        if source.isalpha():
            cx = c * _CELL + 22.0 + 28.0 * "gec".index(source)
            cy = _HAND + r * _CELL + 78.0
            shapes = [
                el("circle", cx=cx, cy=cy, r=13.0, fill=colour, stroke=INK),
                el("text", source.upper(), x=cx, y=cy - 15.0, font_size=9, text_anchor="middle",
                   fill=INK),
                tag(move, cx, cy, 9.0),
            ]  # fmt: skip
        else:
            r0, c0 = divmod(int(source) - 1, 3)
            cx, cy = (c0 + 0.5) * _CELL, _HAND + (r0 + 0.5) * _CELL
            dx, dy = c - c0, r - r0
            sx, sy = cx + dx * 0.3 * _CELL, cy + dy * 0.3 * _CELL
            tx, ty = cx + dx * 0.85 * _CELL, cy + dy * 0.85 * _CELL
            mx, my = cx + dx * 0.55 * _CELL, cy + dy * 0.55 * _CELL
            shapes = [*arrow(sx, sy, tx, ty, colour, 5.0),
                      el("circle", cx=mx, cy=my, r=12, fill=colour, stroke=INK),
                      tag(move, mx, my, 10)]  # fmt: skip
        parts.append(move_mark(move, shapes))
    return Drawing(3 * _CELL, 4 * _CELL + 2 * _HAND, parts, _caption(game, position))
