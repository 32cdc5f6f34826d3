"""Geography on boards: one token on a maze, one knight, two tokens that capture on contact.

The cells are drawn as the board they are; for one token or one knight each free cell is a
vertex of the geography graph, coloured by who wins from it, with the maximum matching and
the winning arrows of :mod:`perfectplay.draw.geography` on top. For two tokens a position is
a *pair* of cells, so the board shows the start and the winning move (along the matching
edge of the pair graph) as an arrow.

Examples
--------
>>> import numpy as np
>>> svg = grid_svg(np.array([[True, False, False], [True, True, True], [False, True, False]]),
...                title="maze")
>>> svg.count('class="vertex"'), svg.count('data-in-d="true"')
(5, 2)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from perfectplay.draw.geography import LEGEND, NOTE, geography_drawing
from perfectplay.svg.elements import Drawing, arrow, el, page
from perfectplay.svg.palette import INK, PALETTE, STONE_DARK, STONE_LIGHT
from perfectplay.svg.size import check_picture_size

__all__ = ["grid_svg", "knights_svg", "two_tokens_svg"]


def _cell_size(rows: int, cols: int) -> float:
    return max(10.0, min(44.0, 640.0 / max(rows, cols, 1)))


def _board_parts(free: NDArray[np.bool_], cell: float) -> list[str]:
    """The board: free cells light, blocked cells dark, with a frame."""
    rows, cols = free.shape
    parts = [
        el(
            "rect",
            x=0,
            y=0,
            width=cols * cell,
            height=rows * cell,
            fill="#F4F4F4",
            stroke=INK,
            stroke_width=2,
        )
    ]
    for r, c in zip(*np.nonzero(~free), strict=True):
        parts.append(
            el("rect", x=int(c) * cell, y=int(r) * cell, width=cell, height=cell, fill="#555555")
        )
    return parts


def _cells_drawing(game: Any, result: Any, caption: str) -> Drawing:
    board = game.board
    check_picture_size(board.rows * board.cols, "cells")
    cell = _cell_size(board.rows, board.cols)
    xy = np.column_stack([(board.col + 0.5) * cell, (board.row + 0.5) * cell]).astype(float)
    return geography_drawing(
        result,
        xy,
        cell=cell,
        background=_board_parts(board.free, cell),
        width=board.cols * cell,
        height=board.rows * cell,
        caption=caption,
    )


def grid_svg(
    free: NDArray[np.bool_], *, title: str, caption: str = "", size: float | None = None
) -> str:
    """One token moving up, down, left or right on the free cells of `free` (a bool array).

    Raises
    ------
    PictureTooLargeError
        More than 2500 cells.

    Notes
    -----
    Cost: the geography solve (near-linear) plus O(cells).
    """
    from perfectplay.builders.grid import Grid
    from perfectplay.solvers.geography import solve_geography

    check_picture_size(free.size, "cells")
    game = Grid(free)
    result = solve_geography(game.graph())
    return page(
        _cells_drawing(game, result, caption), title=title, entries=LEGEND, note=NOTE, size=size
    )


def knights_svg(
    free: NDArray[np.bool_], *, title: str, caption: str = "", size: float | None = None
) -> str:
    """One knight on the free cells of `free`: knight jumps are the edges.

    Notes
    -----
    Cost: the geography solve plus O(cells).
    """
    from perfectplay.builders.knights import Knights
    from perfectplay.solvers.geography import solve_geography

    check_picture_size(free.size, "cells")
    game = Knights(free, 1)
    result = solve_geography(game.graph())
    return page(
        _cells_drawing(game, result, caption), title=title, entries=LEGEND, note=NOTE, size=size
    )


def board_svg(
    free: NDArray[np.bool_], *, title: str, caption: str, size: float | None = None
) -> str:
    """The bare board (free and blocked cells), for positions that cannot be drawn on it."""
    check_picture_size(free.size, "cells")
    cell = _cell_size(*free.shape)
    drawing = Drawing(free.shape[1] * cell, free.shape[0] * cell, _board_parts(free, cell), caption)
    return page(
        drawing,
        title=title,
        entries=[("#F4F4F4", "", "free cell"), ("#555555", "", "blocked cell")],
        size=size,
    )


def two_tokens_svg(
    free: NDArray[np.bool_],
    first: tuple[int, int],
    second: tuple[int, int],
    *,
    title: str,
    size: float | None = None,
) -> str:
    """Two tokens on `free` (cells ``(row, col)``); Alice moves first; her winning move shown.

    If Alice wins, the arrow is her winning move: along the matching edge of the pair graph
    (a capture when the tokens start orthogonally adjacent). If she loses, every legal move of
    hers is drawn in the LOSE colour: Bob answers each along a matching that misses the start.

    Notes
    -----
    Cost: the pair graph and its geography solve, O(F^2) for F reachable free cells.
    """
    from perfectplay.builders.grid import Grid
    from perfectplay.builders.two_tokens import TwoTokens
    from perfectplay.solvers.geography import solve_geography

    rows, cols = free.shape
    check_picture_size(free.size, "cells")
    cell = _cell_size(rows, cols)
    parts = _board_parts(free, cell)

    def centre(rc: tuple[int, int]) -> tuple[float, float]:
        return (rc[1] + 0.5) * cell, (rc[0] + 0.5) * cell

    moves: list[tuple[tuple[int, int], tuple[int, int]]] = []
    if abs(first[0] - second[0]) + abs(first[1] - second[1]) == 1:
        wins, moves = True, [(first, second)]
        how = "the tokens touch: Alice captures at once"
    else:
        game = TwoTokens(Grid(free).reachable(first, second))
        result = solve_geography(game.graph())
        start = game.encode(first, second)
        wins = bool(result.mover_wins[start])
        if wins:
            after = game.decode(result.winning_move(start))
            moved = first if first not in after else second
            moves.append((moved, after[0] if after[0] not in (first, second) else after[1]))
        else:  # every step by the rules, also next to the other token (which then captures)
            for token in (first, second):
                for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                    target = (token[0] + dr, token[1] + dc)
                    inside = 0 <= target[0] < rows and 0 <= target[1] < cols
                    if inside and free[target] and target not in (first, second):
                        moves.append((token, target))
        how = (
            "arrow: Alice's winning move, along the maximum matching of the pair graph"
            if wins
            else "arrows: Alice's moves, all losing (Bob answers along a matching)"
        )
    colour = PALETTE["WIN" if wins else "LOSE"]
    for source, target in moves:
        (x1, y1), (x2, y2) = centre(source), centre(target)
        length = max(float(np.hypot(x2 - x1, y2 - y1)), 1e-9)
        lead = 0.38 * cell / length  # start at the token's rim
        x1, y1 = x1 + (x2 - x1) * lead, y1 + (y2 - y1) * lead
        parts += arrow(x1, y1, x2, y2, colour, max(3.0, cell / 8))
    for token in (first, second):
        x, y = centre(token)
        parts += [
            el(
                "circle",
                cx=x,
                cy=y,
                r=0.36 * cell,
                fill=STONE_DARK,
                stroke=STONE_LIGHT,
                stroke_width=2,
            ),
            el(
                "text",
                "P",
                x=x,
                y=y + 0.14 * cell,
                font_size=0.38 * cell,
                fill=STONE_LIGHT,
                text_anchor="middle",
                font_weight="bold",
            ),
        ]
    verdict = "Alice (to move) wins" if wins else "Bob wins"
    drawing = Drawing(cols * cell, rows * cell, parts, f"{verdict}; {how}")
    entries = [(PALETTE["WIN"], "W", "winning move"), (PALETTE["LOSE"], "L", "losing move")]
    return page(
        drawing,
        title=title,
        entries=entries,
        note="values for the player making the move (Alice)",
        size=size,
    )
