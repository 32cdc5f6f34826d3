"""Quixo: the cubes, and on each edge cube one pointer per push, coloured by its value.

A move ``"<cell><end>"`` takes the cube on `cell` (1-based, row by row) and pushes it back in
at the row's right or left end (``R``, ``L``) or the column's bottom or top (``D``, ``U``).
Each is drawn inside the cube it takes as a triangle pointing the way the cube travels, in
the value's colour, with the value initial and remoteness beside it.

Examples
--------
>>> from perfectplay.games.registry import load_game
>>> game = load_game("quixo", size=3)
>>> drawing(game, game.initial(), {}).caption
'X to move'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from perfectplay.protocol.game import Game
from perfectplay.svg.elements import Drawing, el, move_mark, tag, xo_mark
from perfectplay.svg.palette import INK, value_colour
from perfectplay.values import Value

__all__ = ["drawing"]

_CELL = 110.0
_DIRECTIONS = {"R": (1, 0), "L": (-1, 0), "D": (0, 1), "U": (0, -1)}


def _caption(game: Game[Any], position: tuple[str, str]) -> str:
    outcome = game.outcome(position)
    turn = position[1]
    if outcome is None:
        return f"{turn} to move"
    other = "O" if turn == "X" else "X"
    return f"{turn if outcome == Value.WIN else other} has a line"


def drawing(game: Game[Any], position: tuple[str, str], moves: Mapping[str, Any]) -> Drawing:
    """The board of `position` = ``(cells, turn)``, each move of `moves` as a pointer.

    Cost: O(size^2 + moves).
    """
    board, _ = position
    n = int(game.info.params["size"])
    parts: list[str] = []
    for index, cube in enumerate(board):
        r, c = divmod(index, n)
        x, y = c * _CELL, r * _CELL
        parts.append(
            el(
                "rect",
                x=x + 3,
                y=y + 3,
                width=_CELL - 6,
                height=_CELL - 6,
                rx=10,
                fill="#F1E6D0",
                stroke=INK,
                stroke_width=2,
            )
        )
        cx, cy = x + _CELL / 2, y + _CELL / 2
        parts += xo_mark(cube, cx, cy, 0.09 * _CELL, 0.1 * _CELL, 5)
        parts.append(el("text", str(index + 1), x=x + 10, y=y + 17, font_size=10, fill="#666666"))
    for label, move in moves.items():
        cell, end = int(label[:-1]) - 1, label[-1]
        r, c = divmod(cell, n)
        dx, dy = _DIRECTIONS[end]
        cx, cy = (c + 0.5) * _CELL, (r + 0.5) * _CELL
        # Pointer from the cube's symbol outwards, the value tag beyond its tip.
        tx, ty = cx + dx * 0.28 * _CELL, cy + dy * 0.28 * _CELL
        bx, by = cx + dx * 0.16 * _CELL, cy + dy * 0.16 * _CELL
        half = 0.08 * _CELL
        points = [(tx, ty), (bx - dy * half, by + dx * half), (bx + dy * half, by - dx * half)]
        colour = value_colour(move.value)
        lx, ly = cx + dx * 0.385 * _CELL, cy + dy * 0.385 * _CELL
        parts.append(
            move_mark(
                move,
                [
                    el(
                        "polygon",
                        points=" ".join(f"{px:.1f},{py:.1f}" for px, py in points),
                        fill=colour,
                        stroke=INK,
                    ),
                    el("circle", cx=lx, cy=ly, r=13, fill=colour, stroke=INK),
                    tag(move, lx, ly, 10),
                ],
            )
        )
    return Drawing(n * _CELL, n * _CELL, parts, _caption(game, position))
