"""Dodgem: the board, the cars, and one arrow per legal car move, coloured by its value.

Blue's cars are dark, Red's white (the value colours stay for the moves); an arrow from a
car to the cell it would reach, or off the far edge, carries the move's value initial and
remoteness.

Examples
--------
>>> from perfectplay.games.registry import load_game
>>> game = load_game("dodgem")
>>> drawing(game, game.initial(), {}).caption
'Blue to move (Blue drives right, up or down; Red drives up, left or right)'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from perfectplay.protocol.game import Game
from perfectplay.svg.elements import Drawing, arrow, el, move_mark, tag
from perfectplay.svg.palette import INK, STONE_DARK, STONE_LIGHT, value_colour

__all__ = ["drawing"]

_CELL = 80.0
_EDGE = 44.0  # room around the board for the arrows that leave it
_STEPS = {"r": (0, 1), "l": (0, -1), "u": (-1, 0), "d": (1, 0)}


def _centre(row: int, col: int) -> tuple[float, float]:
    return _EDGE + (col + 0.5) * _CELL, _EDGE + (row + 0.5) * _CELL


def drawing(game: Game[Any], position: tuple[str, str], moves: Mapping[str, Any]) -> Drawing:
    """The board of `position` = ``(cells, turn)``, each move of `moves` as an arrow.

    Cost: O(size^2).
    """
    board, turn = position
    n = int(game.info.params["size"])
    parts = [
        el(
            "rect",
            x=_EDGE,
            y=_EDGE,
            width=n * _CELL,
            height=n * _CELL,
            fill="#F4F4F4",
            stroke=INK,
            stroke_width=2,
        )
    ]
    for k in range(1, n):
        parts += [
            el(
                "line",
                x1=_EDGE + k * _CELL,
                y1=_EDGE,
                x2=_EDGE + k * _CELL,
                y2=_EDGE + n * _CELL,
                stroke="#999999",
            ),
            el(
                "line",
                x1=_EDGE,
                y1=_EDGE + k * _CELL,
                x2=_EDGE + n * _CELL,
                y2=_EDGE + k * _CELL,
                stroke="#999999",
            ),
        ]
    for c in range(n):
        parts.append(
            el(
                "text",
                "abcdefghijklmnopqrstuvwxyz"[c],
                x=_EDGE + (c + 0.5) * _CELL,
                y=_EDGE + n * _CELL + 18,
                font_size=14,
                fill=INK,
                text_anchor="middle",
            )
        )
    for r in range(n):
        parts.append(
            el(
                "text",
                str(n - r),
                x=_EDGE - 12,
                y=_EDGE + (r + 0.5) * _CELL + 5,
                font_size=14,
                fill=INK,
                text_anchor="middle",
            )
        )
    for index, car in enumerate(board):
        if car == ".":
            continue
        cx, cy = _centre(*divmod(index, n))
        dark = car == "B"
        parts += [
            el(
                "rect",
                x=cx - 20,
                y=cy - 16,
                width=40,
                height=32,
                rx=8,
                fill=STONE_DARK if dark else STONE_LIGHT,
                stroke=INK,
                stroke_width=2,
            ),
            el(
                "text",
                car,
                x=cx,
                y=cy + 6,
                font_size=17,
                font_weight="bold",
                fill=STONE_LIGHT if dark else STONE_DARK,
                text_anchor="middle",
            ),
        ]
    for label, move in moves.items():
        cell, direction = label[:-1], label[-1]
        row, col = n - int(cell[1:]), "abcdefghijklmnopqrstuvwxyz".index(cell[0])
        dr, dc = _STEPS[direction]
        x1, y1 = _centre(row, col)
        colour = value_colour(move.value)
        # From the car's edge to a badge in the target cell (or just past the board's edge).
        reach = 0.85 * _CELL
        bx, by = x1 + dc * reach, y1 + dr * reach
        start = 22.0 if dc else 18.0
        parts.append(
            move_mark(
                move,
                [
                    *arrow(x1 + dc * start, y1 + dr * start, bx - dc * 17, by - dr * 17, colour, 5),
                    el("circle", cx=bx, cy=by, r=16, fill=colour, stroke=INK),
                    tag(move, bx, by, 11),
                ],
            )
        )
    whose = {"B": "Blue", "R": "Red"}[turn]
    caption = f"{whose} to move (Blue drives right, up or down; Red drives up, left or right)"
    side = 2 * _EDGE + n * _CELL
    return Drawing(side, side, parts, caption)
