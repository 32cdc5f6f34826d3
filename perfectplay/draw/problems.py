"""Pictures of contest problems: the first instance of a judge input, drawn as its theory.

:func:`problem_svg` reads the first instance (a problem whose input holds several cases or
boards is drawn from its first one only) and draws it with the renderer of its kind:

================  ============================================================================
problem           picture
================  ============================================================================
jsoi-game         the maze; each cell coloured by the value for B, who moves first (A wins
                  from D(G)); the maximum matching and winning arrows
planinarenje      peaks (left) and valleys (right), the matching, each start coloured
hamilg            the first case's graph (force layout), matching, D(G) in the LOSE colour
knights           one knight: the board's cells as vertices, knight jumps as edges; two
                  knights: the board only (positions are pairs of cells)
board-game        the first board, both tokens, Alice's winning move (or her losing moves)
make-you-happy    the first case's digraph, both pieces, the outcome of every start
staircase         the board, both gains per cell, one perfect game's stones in order
================  ============================================================================

The input is read with the problem's own reader and should have passed the problem's
``solve`` first (``perfectplay problem NAME --draw FILE`` does that), so only the first
instance is read here.

Examples
--------
>>> svg = problem_svg("jsoi-game", b"3 3\\n.##\\n...\\n#.#\\n")
>>> svg.count('data-in-d="true"')
2
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from perfectplay.errors import InputFormatError
from perfectplay.problems import get_problem
from perfectplay.problems._reader import TokenReader

__all__ = ["problem_svg"]


def _jsoi_game(data: bytes, size: float | None) -> str:
    from perfectplay.draw.boards import grid_svg
    from perfectplay.problems.board_game import read_board

    reader = TokenReader(data)
    rows = reader.integer("N", low=1)
    cols = reader.integer("M", low=1)
    codes, _ = read_board(reader, rows, cols, ".#")
    caption = (
        "A places the token, B moves first: A wins from the cells where B (to move) loses, D(G)"
    )
    return grid_svg(codes == ord("."), title="jsoi-game: the maze", caption=caption, size=size)


def _planinarenje(data: bytes, size: float | None) -> str:
    from perfectplay.builders.undirected import Geography
    from perfectplay.draw.geography import bipartite_svg
    from perfectplay.solvers.geography import solve_geography

    reader = TokenReader(data)
    n = reader.integer("N", low=1)
    m = reader.integer("M", low=0)
    trails = reader.integers(2 * m, "a trail", low=1, high=n)
    result = solve_geography(Geography.bipartite(n, n, trails[0::2] - 1, trails[1::2] - 1).graph())
    labels = [f"P{i + 1}" for i in range(n)] + [f"V{i + 1}" for i in range(n)]
    caption = "Slavko moves first from each peak P: he wins from the peaks in the WIN colour"
    return bipartite_svg(
        result,
        n,
        labels=labels,
        title="planinarenje: peaks and valleys",
        caption=caption,
        size=size,
    )


def _hamilg(data: bytes, size: float | None) -> str:
    from perfectplay.builders.undirected import Geography
    from perfectplay.draw.geography import geography_svg
    from perfectplay.solvers.geography import solve_geography

    reader = TokenReader(data)
    if reader.integer("T", low=0) == 0:
        raise InputFormatError("the input has no case to draw (T = 0)")
    n = reader.integer("N", low=1)
    m = reader.integer("M", low=0)
    edges = reader.integers(2 * m, "an edge", low=1, high=n)
    result = solve_geography(Geography(n, edges[0::2] - 1, edges[1::2] - 1).graph())
    return geography_svg(
        result, title="hamilg: case 1", labels=[str(i + 1) for i in range(n)], size=size
    )


def _knights(data: bytes, size: float | None) -> str:
    from perfectplay.draw.boards import board_svg, knights_svg

    reader = TokenReader(data)
    n = reader.integer("n", low=1)
    m = reader.integer("m", low=1, high=2)
    k = reader.integer("k", low=0)
    cells = reader.integers(2 * k, "a blocked cell", low=1, high=n).reshape(-1, 2) - 1
    free = np.ones((n, n), dtype=np.bool_)
    free[cells[:, 0], cells[:, 1]] = False
    if m == 1:
        return knights_svg(
            free,
            title="knights: one knight",
            size=size,
            caption="the mover wins from the cells in the WIN colour",
        )
    from perfectplay.builders.knights import Knights
    from perfectplay.solvers.geography import solve_geography

    game = Knights(free, 2)
    wins = int(np.count_nonzero(solve_geography(game.graph()).mover_wins))
    return board_svg(
        free,
        title="knights: two knights",
        size=size,
        caption=f"the mover wins from {wins} of the {game.n} pairs of free cells; positions are "
        "pairs of cells, so only the board is drawn",
    )


def _board_game(data: bytes, size: float | None) -> str:
    from perfectplay.draw.boards import two_tokens_svg
    from perfectplay.problems.board_game import read_board

    reader = TokenReader(data)
    rows = reader.integer("m", low=1)
    cols = reader.integer("n", low=1)
    codes, _ = read_board(reader, rows, cols, ".#P")
    tokens = np.flatnonzero(codes.reshape(-1) == ord("P"))
    (r1, r2), (c1, c2) = np.divmod(tokens, cols)
    return two_tokens_svg(
        codes != ord("#"),
        (int(r1), int(c1)),
        (int(r2), int(c2)),
        title="board-game: instance 1",
        size=size,
    )


def _make_you_happy(data: bytes, size: float | None) -> str:
    from perfectplay.draw.pursuit import pursuit_svg

    reader = TokenReader(data)
    if reader.integer("T", low=0) == 0:
        raise InputFormatError("the input has no case to draw (T = 0)")
    n = reader.integer("n", low=2)
    m = reader.integer("m", low=0)
    edges = (reader.integers(2 * m, "an edge", low=1, high=n).reshape(m, 2) - 1).tolist()
    x, y = reader.integers(2, "x y", low=1, high=n).tolist()
    return pursuit_svg(
        n, [(a, b) for a, b in edges], x - 1, y - 1, title="make-you-happy: case 1", size=size
    )


def _staircase(data: bytes, size: float | None) -> str:
    from perfectplay.builders.staircase.picture import staircase_svg

    reader = TokenReader(data)
    n = reader.integer("n", low=1)
    m = reader.integer("m", low=1)
    a = reader.integers(n * m, "a").reshape(n, m)
    b = reader.integers(n * m, "b").reshape(n, m)
    return staircase_svg(a, b, title="staircase", size=size)


_DRAWERS: dict[str, Callable[[bytes, float | None], str]] = {
    "jsoi-game": _jsoi_game,
    "planinarenje": _planinarenje,
    "hamilg": _hamilg,
    "knights": _knights,
    "board-game": _board_game,
    "make-you-happy": _make_you_happy,
    "staircase": _staircase,
}


def problem_svg(name: str, data: bytes, *, size: float | None = None) -> str:
    """The picture of the first instance of judge input `data` of problem `name`.

    Raises
    ------
    UnknownNameError
        Unknown problem.
    InputFormatError
        Malformed input, or no instance.
    PictureTooLargeError
        An instance too large to draw (over 2500 vertices or cells; pursuit: 60 vertices).
    """
    return _DRAWERS[get_problem(name).name](data, size)
