"""Squadro: the crossings, each piece as a triangle pointing its way, each move as an arrow.

The top player's pieces are dark, the left player's light; a piece points where it goes
next (home pieces point back off the board, greyed). The speeds stand as dots beside each
lane's start (out) and far end (back). A move is an arrow from its piece to where it lands,
in the move's value colour, with the value initial and remoteness on it.

Examples
--------
>>> from perfectplay.games.registry import load_game
>>> game = load_game("squadro")
>>> drawing(game, game.initial(), {}).caption
'top to move'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from perfectplay.protocol.game import Game
from perfectplay.svg.elements import Drawing, arrow, el, move_mark, tag
from perfectplay.svg.palette import INK, STONE_DARK, STONE_LIGHT, value_colour

__all__ = ["drawing"]

_CELL = 70.0
_NAMES = {"T": "top", "L": "left"}


def _row(p: int, n: int) -> int:
    """The row (top pieces) or column (left pieces) of track position `p`: 0 at the start."""
    return p if p <= n + 1 else 2 * n + 2 - p


def _cell(side: int, piece: int, p: int, n: int) -> tuple[float, float]:
    """The centre of the cell where `piece` of `side` (0 top, 1 left) stands at `p`."""
    r, c = (_row(p, n), piece + 1) if side == 0 else (piece + 1, _row(p, n))
    return (c + 0.5) * _CELL, (r + 0.5) * _CELL


def _piece(side: int, x: float, y: float, forward: bool, home: bool) -> str:
    """A triangle centred on (x, y) pointing down/right (`forward`) or up/left."""
    h = 0.3 * _CELL
    tip = h if forward else -h
    if side == 0:
        points = [(x, y + tip), (x - h, y - tip), (x + h, y - tip)]
    else:
        points = [(x + tip, y), (x - tip, y - h), (x - tip, y + h)]
    fill = STONE_DARK if side == 0 else STONE_LIGHT
    return el(
        "polygon", points=" ".join(f"{px:g},{py:g}" for px, py in points), fill=fill,
        stroke=INK, stroke_width=2, opacity=0.35 if home else 1,
    )  # fmt: skip


def _caption(game: Game[Any], position: tuple[Any, Any, str]) -> str:
    turn = position[2]
    if game.outcome(position) is not None:
        winner = "left" if turn == "T" else "top"
        return f"{winner} has {game.info.params['home']} pieces home and wins"
    return f"{_NAMES[turn]} to move"


def drawing(
    game: Game[Any], position: tuple[tuple[int, ...], tuple[int, ...], str],
    moves: Mapping[str, Any],
) -> Drawing:  # fmt: skip
    """The board of `position` = ``(top, left, turn)``, each move of `moves` by its value.

    Cost: O(n^2 + moves * n).
    """
    top, left, turn = position
    speeds = tuple(game.info.params["speeds"])
    n = len(speeds)
    end = 2 * n + 2
    size = (n + 2) * _CELL
    parts = [el("rect", x=_CELL, y=_CELL, width=n * _CELL, height=n * _CELL, fill="#EDE3C8",
                stroke=INK, stroke_width=2)]  # fmt: skip
    for k in range(n):
        at = (k + 1.5) * _CELL
        parts += [
            el("line", x1=at, y1=0.5 * _CELL, x2=at, y2=size - 0.5 * _CELL, stroke="#999999"),
            el("line", x1=0.5 * _CELL, y1=at, x2=size - 0.5 * _CELL, y2=at, stroke="#999999"),
        ]
        for side, out in ((0, speeds[k]), (1, 4 - speeds[k])):
            for lane_end, dots in ((6.0, out), (size - 6.0, 4 - out)):  # outside the pieces
                for d in range(dots):
                    offset = (d - (dots - 1) / 2) * 9
                    x, y = (at + offset, lane_end) if side == 0 else (lane_end, at + offset)
                    parts.append(el("circle", cx=x, cy=y, r=3, fill=INK))
    for side, pieces in enumerate((top, left)):
        for i, p in enumerate(pieces):
            x, y = _cell(side, i, p, n)
            parts.append(_piece(side, x, y, p <= n, p == end))
    mover = 0 if turn == "T" else 1
    for label, move in moves.items():
        i = int(label) - 1
        start = (top, left)[mover][i]
        child = move.position
        landing = (child[0], child[1])[mover][i]
        x1, y1 = _cell(mover, i, start, n)
        x2, y2 = _cell(mover, i, landing, n)
        colour = value_colour(move.value)
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        shapes = [*arrow(x1, y1, x2, y2, colour, 5.0),
                  el("circle", cx=mx, cy=my, r=13, fill=colour, stroke=INK),
                  tag(move, mx, my, 10)]  # fmt: skip
        parts.append(move_mark(move, shapes))
    return Drawing(size, size, parts, _caption(game, position))
