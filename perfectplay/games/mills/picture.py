"""Morris: the board with its coordinates, its stones, and every move by value.

A placement ``d2`` is a disc on its point in the value's colour, with the value initial and
remoteness on it; a move ``d2-d3`` (or a jump) is an arrow from the stone towards its point,
the value tag on the arrow. A move that closes a mill, ``d2xg7`` or ``d2-d3xg7``, is a dashed
line in the value's colour from the point the stone arrives on to the stone it removes, tagged
near that stone (a move closing a mill has one such line per stone it may remove).

Examples
--------
>>> from perfectplay.games.registry import load_game
>>> game = load_game("nine-mens-morris")
>>> drawing(game, game.initial(), {}).caption
'White to place (9 in hand)'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from perfectplay.games.mills.rules import Mills, MillsPosition
from perfectplay.svg.elements import Drawing, arrow, el, move_mark, tag
from perfectplay.svg.palette import INK, value_colour

__all__ = ["drawing"]

_STEP = 80.0  # grid spacing
_MARGIN = 50.0
_STONE = {"W": "#FFFFFF", "B": "#222222"}
_NAMES = {"W": "White", "B": "Black"}


def _caption(game: Mills, position: MillsPosition) -> str:
    board, turn, wf, bf = position
    hand = wf if turn == "W" else bf
    if game.outcome(position) is not None:
        return f"{_NAMES[turn]} has fewer than 3 stones and has lost"
    if not game.moves(position):
        return f"{_NAMES[turn]} cannot move and has lost"
    if hand:
        return f"{_NAMES[turn]} to place ({hand} in hand)"
    jumps = game.can_jump(board, turn, hand)
    return f"{_NAMES[turn]} to {'jump' if jumps else 'move'}"


def drawing(game: Mills, position: MillsPosition, moves: Mapping[str, Any]) -> Drawing:
    """The board of `position`, each move of `moves` (label -> valued move) by its value.

    Cost: O(points + moves).
    """
    board, _, _, _ = position
    lay = game.board
    side = lay.side
    size = 2 * _MARGIN + (side - 1) * _STEP

    def at(name: str) -> tuple[float, float]:
        x, y = lay.xy[lay.index(name)]
        return _MARGIN + x * _STEP, _MARGIN + (side - 1 - y) * _STEP

    parts: list[str] = []
    for line in lay.lines:
        (x1, y1), (x2, y2) = at(lay.points[line[0]]), at(lay.points[line[-1]])
        parts.append(el("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=INK, stroke_width=3))
    for k in range(side):
        parts.append(el("text", "abcdefghi"[k], x=_MARGIN + k * _STEP, y=size - 12,
                        font_size=14, fill="#666666", text_anchor="middle"))  # fmt: skip
        parts.append(el("text", str(side - k), x=14, y=_MARGIN + k * _STEP + 5, font_size=14,
                        fill="#666666", text_anchor="middle"))  # fmt: skip
    for d, name in enumerate(lay.points):
        cx, cy = at(name)
        if board[d] == "-":
            parts.append(el("circle", cx=cx, cy=cy, r=6, fill=INK))
        else:
            parts.append(el("circle", cx=cx, cy=cy, r=0.3 * _STEP, fill=_STONE[board[d]],
                            stroke=INK, stroke_width=2))  # fmt: skip
    for label, move in moves.items():
        colour = value_colour(move.value)
        step, _, removed = label.partition("x")
        ends = step.split("-")
        tx, ty = at(ends[-1])
        shapes: list[str] = []
        if len(ends) == 2:
            sx, sy = at(ends[0])
            dx, dy = tx - sx, ty - sy
            length = max((dx * dx + dy * dy) ** 0.5, 1e-9)
            ux, uy = dx / length, dy / length
            shapes += arrow(sx + ux * 0.32 * _STEP, sy + uy * 0.32 * _STEP, tx - ux * 0.1 * _STEP,
                            ty - uy * 0.1 * _STEP, colour, 4.0)  # fmt: skip
        elif not removed:
            shapes.append(el("circle", cx=tx, cy=ty, r=0.26 * _STEP, fill=colour, stroke=INK))
        if removed:
            rx, ry = at(removed)
            shapes.append(el("line", x1=tx, y1=ty, x2=rx, y2=ry, stroke=colour, stroke_width=3,
                             stroke_dasharray="8 5"))  # fmt: skip
            mx, my = rx + (tx - rx) * 0.3, ry + (ty - ry) * 0.3
            shapes += [el("circle", cx=mx, cy=my, r=13, fill=colour, stroke=INK),
                       tag(move, mx, my, 10)]  # fmt: skip
        elif len(ends) == 2:
            mx, my = (sx + tx) / 2, (sy + ty) / 2
            shapes += [el("circle", cx=mx, cy=my, r=13, fill=colour, stroke=INK),
                       tag(move, mx, my, 10)]  # fmt: skip
        else:
            shapes.append(tag(move, tx, ty, 16))
        parts.append(move_mark(move, shapes))
    return Drawing(size, size, parts, _caption(game, position))
