"""The staircase game's board: both players' gains per cell and one perfect game's stones.

Each cell shows black's gain (top) and white's gain (bottom); the stones of one game played
perfectly by both sides are drawn with their move numbers, black's dark and white's light.

Examples
--------
>>> svg = staircase_svg([[2, 7, 3], [9, 1, 2]], [[3, 7, 2], [2, 3, 1]], title="sample")
>>> svg.count('class="stone"'), "black - white = 2" in svg
(6, True)
"""

from __future__ import annotations

from typing import Any

from perfectplay.svg.elements import Drawing, el, group, page
from perfectplay.svg.palette import INK, STONE_DARK, STONE_LIGHT
from perfectplay.svg.size import check_picture_size

__all__ = ["MAX_POSITIONS", "perfect_game", "staircase_svg"]

MAX_POSITIONS = 3_000_000
"""Largest number of staircases solved for a picture (a 12 x 12 board has 2.7 million)."""


def perfect_game(game: Any) -> list[tuple[int, int, int]]:
    """One perfect game of a :class:`~perfectplay.builders.staircase.rules.Staircase`: the stones
    ``(row, col, gain)`` in the order played (0-based cells).

    At each turn the first move (in the game's order) reaching the best (own - opponent)
    total is played. Cost: the score sweep, then O(n * m * min(n, m)) look-ups.
    """
    scores = game.scores()
    position = game.initial()
    stones = []
    while game.outcome(position) is None:
        best = max(
            game.moves(position), key=lambda move: move[2] - int(scores[game.encode(move[1])])
        )
        _, child, gain = best
        row = next(i for i in range(game.n) if child[i] != position[i])
        stones.append((row, position[row], gain))
        position = child
    return stones


def staircase_svg(a: Any, b: Any, *, title: str, size: float | None = None) -> str:
    """The board with gains `a` (black) and `b` (white) and one perfect game on it.

    Raises
    ------
    PictureTooLargeError
        More than 400 cells or :data:`MAX_POSITIONS` staircases.

    Notes
    -----
    Cost: that of :func:`perfect_game`.
    """
    from perfectplay.builders.staircase.rules import Staircase

    game = Staircase(a, b)
    check_picture_size(game.n * game.m, "cells", 400)
    check_picture_size(game.size, "staircases (positions to solve)", MAX_POSITIONS)
    cell = max(34.0, min(64.0, 640.0 / max(game.n, game.m)))
    parts: list[str] = []
    total = 0
    for k, (r, c, gain) in enumerate(perfect_game(game)):
        black = k % 2 == 0
        total += gain if black else -gain
        x, y = c * cell, r * cell
        parts.append(
            group(
                [
                    el(
                        "circle",
                        cx=x + cell / 2,
                        cy=y + cell / 2,
                        r=0.3 * cell,
                        fill=STONE_DARK if black else STONE_LIGHT,
                        stroke=INK,
                        stroke_width=1.5,
                    ),
                    el(
                        "text",
                        str(k + 1),
                        x=x + cell / 2,
                        y=y + cell / 2 + 4,
                        font_size=0.22 * cell,
                        fill=STONE_LIGHT if black else STONE_DARK,
                        text_anchor="middle",
                        font_weight="bold",
                    ),
                ],
                class_="stone",
                data_move=k + 1,
                data_player="black" if black else "white",
            )
        )
    for r in range(game.n):
        for c in range(game.m):
            x, y = c * cell, r * cell
            parts += [
                el("rect", x=x, y=y, width=cell, height=cell, fill="none", stroke=INK),
                el("text", str(int(game.a[r, c])), x=x + 3, y=y + 11, font_size=10, fill=INK),
                el(
                    "text",
                    str(int(game.b[r, c])),
                    x=x + cell - 3,
                    y=y + cell - 4,
                    font_size=10,
                    fill="#666666",
                    text_anchor="end",
                ),
            ]
    caption = f"perfect play: black - white = {total}"
    drawing = Drawing(game.m * cell, game.n * cell, parts, caption)
    entries = [(STONE_DARK, "B", "black's stone"), ("#FFFFFF", "W", "white's stone")]
    note = (
        "numbers on stones: move order; in each cell black's gain (top left), white's "
        "(bottom right)"
    )
    return page(drawing, title=title, entries=entries, note=note, size=size)
