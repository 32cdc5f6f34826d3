"""Tic-tac-toe: the 3 x 3 board, X and O drawn, each empty cell coloured by its move's value.

Examples
--------
>>> from perfectplay.games.registry import load_game
>>> d = drawing(load_game("tic-tac-toe"), "X...O....", {})
>>> d.caption
'X to move'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from perfectplay.protocol.game import Game
from perfectplay.svg.elements import Drawing, el, move_mark, tag, xo_mark
from perfectplay.svg.palette import INK, ink_on, value_colour
from perfectplay.values import Value

__all__ = ["drawing"]

_CELL = 90.0
_PAD = 20.0  # room for the row digits and column letters


def _caption(game: Game[Any], position: str) -> str:
    mover = "X" if position.count("X") == position.count("O") else "O"
    other = "O" if mover == "X" else "X"
    outcome = game.outcome(position)
    if outcome is None:
        return f"{mover} to move"
    return "a tie: the board is full" if outcome == Value.TIE else f"{other} has three in a row"


def drawing(game: Game[Any], position: str, moves: Mapping[str, Any]) -> Drawing:
    """The board of `position` (9 characters ``X``, ``O``, ``.``), `moves` by label marked.

    Cost: O(9).
    """
    parts: list[str] = []
    for c in range(3):
        parts.append(
            el(
                "text",
                "abc"[c],
                x=_PAD + (c + 0.5) * _CELL,
                y=3 * _CELL + 20,
                font_size=14,
                fill=INK,
                text_anchor="middle",
            )
        )
    for r in range(3):
        parts.append(
            el(
                "text",
                str(r + 1),
                x=6,
                y=(r + 0.5) * _CELL + 5,
                font_size=14,
                fill=INK,
                text_anchor="middle",
            )
        )
    for i, mark in enumerate(position):
        r, c = divmod(i, 3)
        x, y = _PAD + c * _CELL, r * _CELL
        cx, cy = x + _CELL / 2, y + _CELL / 2
        label = f"{'abc'[c]}{r + 1}"
        if mark in ("X", "O"):
            parts += xo_mark(mark, cx, cy, 0.28 * _CELL, 0.29 * _CELL, 8)
        elif label in moves:
            move = moves[label]
            parts.append(
                move_mark(
                    move,
                    [
                        el(
                            "rect",
                            x=x + 5,
                            y=y + 5,
                            width=_CELL - 10,
                            height=_CELL - 10,
                            rx=8,
                            fill=value_colour(move.value),
                        ),
                        tag(move, cx, cy - 4, 24),
                        el(
                            "text",
                            label,
                            x=x + 12,
                            y=y + _CELL - 12,
                            font_size=11,
                            fill=ink_on(move.value),
                        ),
                    ],
                )
            )
    for k in (1, 2):
        parts += [
            el(
                "line",
                x1=_PAD + k * _CELL,
                y1=0,
                x2=_PAD + k * _CELL,
                y2=3 * _CELL,
                stroke=INK,
                stroke_width=3,
            ),
            el(
                "line",
                x1=_PAD,
                y1=k * _CELL,
                x2=_PAD + 3 * _CELL,
                y2=k * _CELL,
                stroke=INK,
                stroke_width=3,
            ),
        ]
    return Drawing(_PAD + 3 * _CELL, 3 * _CELL + 26, parts, _caption(game, position))
