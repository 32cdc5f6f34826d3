"""The fallback picture of any game: its text drawing, and one button per legal move.

Used for games without a board renderer of their own (a user's game, a board too large to
draw cell by cell), and for moves a board renderer did not place.

Examples
--------
>>> from perfectplay.games.registry import load_game
>>> game = load_game("subtraction", heap=5)
>>> d = text_drawing(game.render(5))
>>> round(d.width), "5" in "".join(d.parts)
(200, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from perfectplay.svg.elements import Drawing, el, move_mark, tag
from perfectplay.svg.palette import INK, ink_on, value_colour

__all__ = ["BUTTON_HEIGHT", "BUTTON_WIDTH", "move_buttons", "text_drawing"]

BUTTON_WIDTH = 96.0
BUTTON_HEIGHT = 44.0
_PER_ROW = 6
_LINE = 20.0
_MAX_LINES = 60


def move_buttons(moves: Sequence[Any], top: float) -> tuple[float, list[str]]:
    """One button per move (label above, value tag below), six to a row; returns the height.

    Cost: O(len(moves)).
    """
    parts = []
    for k, move in enumerate(moves):
        x = (k % _PER_ROW) * (BUTTON_WIDTH + 8)
        y = top + (k // _PER_ROW) * (BUTTON_HEIGHT + 8)
        colour = value_colour(move.value)
        shapes = [
            el(
                "rect",
                x=x,
                y=y,
                width=BUTTON_WIDTH,
                height=BUTTON_HEIGHT,
                rx=6,
                fill=colour,
                stroke=INK,
            ),
            el(
                "text",
                move.label[:14],
                x=x + BUTTON_WIDTH / 2,
                y=y + 16,
                font_size=12,
                text_anchor="middle",
                fill=ink_on(move.value),
            ),
            tag(move, x + BUTTON_WIDTH / 2, y + 31, 14),
        ]
        parts.append(move_mark(move, shapes))
    rows = (len(moves) + _PER_ROW - 1) // _PER_ROW
    return rows * (BUTTON_HEIGHT + 8), parts


def text_drawing(text: str, moves: Sequence[Any] = ()) -> Drawing:
    """`text` (a position as the game renders it) in monospace lines (at most 60), then
    :func:`move_buttons`.

    Cost: O(size of the text + moves).
    """
    lines = text.splitlines() or [""]
    if len(lines) > _MAX_LINES:
        lines = [*lines[: _MAX_LINES - 1], f"... ({len(lines) - _MAX_LINES + 1} more lines)"]
    parts = [
        el(
            "text",
            line,
            x=0,
            y=(i + 1) * _LINE - 5,
            font_size=16,
            fill=INK,
            font_family="DejaVu Sans Mono, monospace",
            xml_space="preserve",
        )
        for i, line in enumerate(lines)
    ]
    text_height = len(lines) * _LINE + 10
    height, buttons = move_buttons(moves, text_height)
    width = max(
        9.7 * max(len(line) for line in lines), min(len(moves), _PER_ROW) * (BUTTON_WIDTH + 8), 200
    )
    return Drawing(width, text_height + height, parts + buttons)
