"""Connect Four: the board from the bottom up, and above each column its drop's value.

Each legal drop is marked twice in one ``data-move`` group: a badge above the column (value
initial and remoteness) and a ring in the value's colour on the cell the stone would reach.

Examples
--------
>>> from perfectplay.games.registry import load_game
>>> d = drawing(load_game("connect-four", rows=4, cols=5), ("X", "", "", "", ""), {})
>>> d.caption
'O to move'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from perfectplay.games.connect_four._bitboard import COLUMN_LABELS
from perfectplay.protocol.game import Game
from perfectplay.svg.elements import Drawing, el, move_mark, tag
from perfectplay.svg.palette import INK, STONE_DARK, STONE_LIGHT, value_colour
from perfectplay.values import Value

__all__ = ["drawing"]

_CELL = 64.0
_TOP = 52.0  # room for the badges above the columns


def _caption(game: Game[Any], position: tuple[str, ...]) -> str:
    stones = sum(map(len, position))
    mover, other = ("X", "O") if stones % 2 == 0 else ("O", "X")
    outcome = game.outcome(position)
    if outcome is None:
        return f"{mover} to move"
    return "a tie: the board is full" if outcome == Value.TIE else f"{other} has four in a row"


def drawing(game: Game[Any], position: tuple[str, ...], moves: Mapping[str, Any]) -> Drawing:
    """The board of `position` (one string per column, bottom first), `moves` by label marked.

    Cost: O(rows * cols).
    """
    rows, cols = int(game.info.params["rows"]), len(position)
    width, height = cols * _CELL, rows * _CELL
    parts = [
        el(
            "rect",
            x=0,
            y=_TOP,
            width=width,
            height=height,
            rx=10,
            fill="#C8C8C8",
            stroke=INK,
            stroke_width=2,
        )
    ]
    for c, column in enumerate(position):
        cx = (c + 0.5) * _CELL
        for r in range(rows):
            cy = _TOP + (rows - r - 0.5) * _CELL
            stone = column[r] if r < len(column) else "."
            fill = {"X": STONE_DARK, "O": STONE_LIGHT}.get(stone, "#F4F4F4")
            parts.append(
                el(
                    "circle",
                    cx=cx,
                    cy=cy,
                    r=0.4 * _CELL,
                    fill=fill,
                    stroke=INK,
                    stroke_width=2 if stone != "." else 0.5,
                )
            )
        label = COLUMN_LABELS[c]
        parts.append(
            el(
                "text",
                label,
                x=cx,
                y=_TOP + height + 20,
                font_size=15,
                fill=INK,
                text_anchor="middle",
            )
        )
        if label in moves:
            move = moves[label]
            colour = value_colour(move.value)
            landing = _TOP + (rows - len(column) - 0.5) * _CELL
            parts.append(
                move_mark(
                    move,
                    [
                        el(
                            "rect",
                            x=c * _CELL + 5,
                            y=4,
                            width=_CELL - 10,
                            height=_TOP - 12,
                            rx=8,
                            fill=colour,
                            stroke=INK,
                        ),
                        tag(move, cx, 4 + (_TOP - 12) / 2, 18),
                        el(
                            "circle",
                            cx=cx,
                            cy=landing,
                            r=0.34 * _CELL,
                            fill="none",
                            stroke=colour,
                            stroke_width=6,
                            stroke_dasharray="7 4",
                        ),
                    ],
                )
            )
    return Drawing(width, _TOP + height + 28, parts, _caption(game, position))
