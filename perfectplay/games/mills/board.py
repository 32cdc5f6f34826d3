"""The boards of the Morris family: points, lines, mills, neighbours and symmetries.

A board is a set of points on a square grid of ``side`` x ``side`` coordinates, named as the
literature names them: a file letter ``a``, ``b``, ... from the left and a rank number ``1``,
``2``, ... from the bottom (``a1`` is the bottom-left corner, ``g7`` the top-right corner of
Nine Men's Morris). The points are numbered in that reading order, **rank by rank from rank 1
up, each rank from file a rightwards**: Nine Men's Morris's 24 points are

``a1 d1 g1 b2 d2 f2 c3 d3 e3 a4 b4 c4 e4 f4 g4 c5 d5 e5 b6 d6 f6 a7 d7 g7``

(points 0 to 23). The drawn lines are runs of points; two points next to each other on a
line are *neighbours* (a stone moves between neighbours), and every three consecutive points
of a line are a *mill*. The layouts:

* ``nine``: three concentric squares (7 x 7 grid) joined at their midpoints; 24 points, 16
  mills (the squares' 12 sides and the 4 midlines).
* ``morabaraba``: the same with the four diagonals joining the corners (``a1-b2-c3`` ...);
  24 points, 20 mills.
* ``six``: two concentric squares (5 x 5 grid) joined at their midpoints by lines of two
  points; 16 points, 8 mills (the sides only).
* ``three``: the 3 x 3 grid with its rows and columns; 9 points, 6 mills.

The symmetries are point permutations keeping the lines: the 8 of the square and, on boards
of concentric squares without a centre, the same 8 composed with exchanging the innermost and
outermost squares (16 in all), the identity first.

Examples
--------
>>> board = layout("nine")
>>> len(board.points), len(board.mills), len(board.symmetries)
(24, 16, 16)
>>> [board.points[q] for q in board.neighbours[board.index("d2")]]
['d1', 'b2', 'f2', 'd3']
>>> len(layout("three").symmetries), len(layout("six").mills)
(8, 8)
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from dataclasses import dataclass

from perfectplay.errors import GameDefinitionError

__all__ = ["LAYOUTS", "Layout", "layout"]

LAYOUTS = ("nine", "morabaraba", "six", "three")
"""The board layouts, by name."""


@dataclass(frozen=True)
class Layout:
    """One board: its points in order, lines, mills, neighbours and symmetries."""

    name: str
    """The layout's name (:data:`LAYOUTS`)."""
    side: int
    """The grid's side: files ``a`` onwards and ranks ``1..side``."""
    xy: tuple[tuple[int, int], ...]
    """Per point, its ``(file, rank)`` on the grid, both from 0 (``a1`` is ``(0, 0)``)."""
    lines: tuple[tuple[int, ...], ...]
    """The drawn lines, each its points in order along it."""
    mills: tuple[tuple[int, int, int], ...]
    """Every three consecutive points of a line, each sorted."""
    neighbours: tuple[tuple[int, ...], ...]
    """Per point, the points next to it on a line, increasing."""
    symmetries: tuple[tuple[int, ...], ...]
    """Point permutations ``perm[d]`` (the image of point ``d``) keeping lines; identity first."""

    @property
    def points(self) -> tuple[str, ...]:
        """The points' names (``a1``), in point order."""
        return tuple(f"{'abcdefghi'[x]}{y + 1}" for x, y in self.xy)

    def index(self, name: str) -> int:
        """The number of point `name` (``"d2"``); GameDefinitionError if the board lacks it."""
        try:
            return self.points.index(name)
        except ValueError:
            raise GameDefinitionError(f"the {self.name} board has no point {name!r}") from None


def _squares(rings: int, joins: int) -> tuple[list[tuple[int, int]], list[list[tuple[int, int]]]]:
    """Points and lines of `rings` concentric squares around the centre of a grid of side
    ``2 * rings + 1``, joined at the midpoints by lines through `joins` squares (from the
    outside in; the centre itself is no point)."""
    c = rings
    points, lines = [], []
    for r in range(1, rings + 1):
        corners = [(c - r, c - r), (c + r, c - r), (c + r, c + r), (c - r, c + r)]
        for k in range(4):
            (x0, y0), (x1, y1) = corners[k], corners[(k + 1) % 4]
            lines.append([(x0, y0), ((x0 + x1) // 2, (y0 + y1) // 2), (x1, y1)])
        points += corners + [((x0 + x1) // 2, (y0 + y1) // 2) for (x0, y0), (x1, y1) in
                             zip(corners, corners[1:] + corners[:1], strict=True)]  # fmt: skip
    for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
        lines.append([(c + dx * r, c + dy * r) for r in range(rings, rings - joins, -1)])
    return points, lines


def _grid_symmetries(side: int, xy: list[tuple[int, int]], swap: bool) -> list[tuple[int, ...]]:
    """The 8 symmetries of the square on points `xy`, and with `swap` each composed with the
    exchange of the innermost and outermost squares (ring ``r`` to ring ``rings + 1 - r``)."""
    m, c = side - 1, (side - 1) // 2
    where = {p: d for d, p in enumerate(xy)}
    maps: list[Callable[[int, int], tuple[int, int]]] = [
        lambda x, y: (x, y), lambda x, y: (y, m - x), lambda x, y: (m - x, m - y),
        lambda x, y: (m - y, x), lambda x, y: (m - x, y), lambda x, y: (x, m - y),
        lambda x, y: (y, x), lambda x, y: (m - y, m - x),
    ]  # fmt: skip

    def exchange(x: int, y: int) -> tuple[int, int]:
        ring = max(abs(x - c), abs(y - c))
        new = c + 1 - ring
        return c + (x - c) // ring * new, c + (y - c) // ring * new

    out = []
    for flip in (False, True) if swap else (False,):
        for f in maps:
            out.append(tuple(where[f(*exchange(x, y))] if flip else where[f(x, y)] for x, y in xy))
    return out


@functools.cache
def layout(name: str) -> Layout:
    """The board layout `name` (one of :data:`LAYOUTS`), built once. Cost: O(points^2).

    Raises
    ------
    GameDefinitionError
        If there is no such layout.
    """
    if name == "three":
        side = 3
        points = [(x, y) for y in range(3) for x in range(3)]
        lines = [[(x, y) for x in range(3)] for y in range(3)]
        lines += [[(x, y) for y in range(3)] for x in range(3)]
    elif name in ("nine", "morabaraba", "six"):
        rings = 2 if name == "six" else 3
        side = 2 * rings + 1
        points, lines = _squares(rings, 2 if name == "six" else 3)
        if name == "morabaraba":
            for ex, ey in ((0, 0), (6, 0), (0, 6), (6, 6)):
                lines.append([(ex + (3 - ex) * k // 3, ey + (3 - ey) * k // 3) for k in range(3)])
    else:
        raise GameDefinitionError(f"no morris board {name!r}; the boards: {', '.join(LAYOUTS)}")
    xy = sorted(points, key=lambda p: (p[1], p[0]))
    where = {p: d for d, p in enumerate(xy)}
    numbered = tuple(tuple(where[p] for p in line) for line in lines)
    mills = sorted(
        {tuple(sorted(line[k : k + 3])) for line in numbered for k in range(len(line) - 2)}
    )
    near: list[set[int]] = [set() for _ in xy]
    for line in numbered:
        for a, b in itertools.pairwise(line):
            near[a].add(b)
            near[b].add(a)
    return Layout(
        name,
        side,
        tuple(xy),
        numbered,
        tuple((a, b, c) for a, b, c in mills),
        tuple(tuple(sorted(s)) for s in near),
        tuple(_grid_symmetries(side, xy, swap=name != "three")),
    )
