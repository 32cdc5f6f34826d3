"""Vertex geography as its theory is explained: a maximum matching, D(G), winning arrows.

Every vertex (or grid cell) is coloured by who wins when the game starts there with the token
on it: the WIN colour where the player to move wins (every maximum matching covers the
vertex), the LOSE colour on the Gallai–Edmonds set D(G) (some maximum matching misses it:
the player to move loses). The edges of one maximum matching are drawn thick; on each
matching edge an arrowhead in the WIN colour points from every winning start to its partner:
the winning strategy is "move along the matching edge". Other edges are thin and grey.

Each vertex's shape carries ``data-vertex`` (its index), ``data-value`` (WIN or LOSE for the
player to move) and ``data-in-d``; each matching edge ``data-u`` and ``data-v``.

Examples
--------
>>> from perfectplay.solvers.geography import solve_geography
>>> svg = geography_svg(solve_geography([(0, 1), (1, 2)]), title="a path")
>>> svg.count('class="matching"'), svg.count('data-in-d="true"')
(1, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from perfectplay.draw.layout import place
from perfectplay.svg.elements import Drawing, arrow, el, group, page
from perfectplay.svg.palette import INK, PALETTE
from perfectplay.svg.size import check_picture_size
from perfectplay.values import Value

__all__ = ["LEGEND", "bipartite_svg", "edges_of", "geography_drawing", "geography_svg"]

LEGEND = [
    (PALETTE["WIN"], "W", "mover wins from here"),
    (PALETTE["LOSE"], "L", "in D(G): mover loses"),
    (INK, "M", "maximum matching; arrow: winning move"),
]
"""Legend swatches of every geography picture."""
NOTE = "colour of a vertex: who wins when the token starts there, for the player to move"


def edges_of(graph: Any) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Each undirected edge once, as arrays ``(u, v)`` with ``u < v``. Cost: O(n + m)."""
    indptr = np.asarray(graph.indptr, dtype=np.int64)
    source = np.repeat(np.arange(graph.n, dtype=np.int64), np.diff(indptr))
    target = np.asarray(graph.indices, dtype=np.int64)
    keep = source < target
    return source[keep], target[keep]


def geography_drawing(
    result: Any,
    xy: NDArray[np.float64],
    *,
    radius: float = 14.0,
    cell: float | None = None,
    labels: Sequence[str] | None = None,
    background: Sequence[str] = (),
    width: float,
    height: float,
    caption: str = "",
) -> Drawing:
    """The picture of a :class:`~perfectplay.solvers.geography.GeographyResult`.

    Parameters
    ----------
    result : GeographyResult
        The solved graph.
    xy : array of float, shape (n, 2)
        Each vertex's centre, in picture coordinates.
    radius : float
        Vertex circle radius (ignored when `cell` is given).
    cell : float, optional
        Draw each vertex as a square of this side (board cells) instead of a circle; edges
        outside the matching are then left out (the board shows how pieces move).
    labels : sequence of str, optional
        Text written on each vertex.
    background : sequence of str
        Elements drawn first (a board's blocked cells).
    width, height : float
        The drawing's size.
    caption : str
        The line under the title.

    Notes
    -----
    Cost: O(n + m).
    """
    n = result.graph.n
    mate = np.asarray(result.mate, dtype=np.int64)
    in_d = np.asarray(result.in_d, dtype=bool)
    u, v = edges_of(result.graph)
    matched = mate[u] == v
    reach = (0.5 * cell - 2) if cell is not None else radius
    parts = list(background)
    others = zip(u[~matched].tolist(), v[~matched].tolist(), strict=True) if cell is None else ()
    for a, b in others:
        parts.append(
            el(
                "line",
                x1=xy[a, 0],
                y1=xy[a, 1],
                x2=xy[b, 0],
                y2=xy[b, 1],
                stroke="#AAAAAA",
                stroke_width=1.5,
            )
        )
    lines: list[str] = []
    thick = 4.0 if cell is None else max(1.5, min(4.0, cell / 10))  # matching line width
    for a, b in zip(u[matched].tolist(), v[matched].tolist(), strict=True):
        (xa, ya), (xb, yb) = xy[a], xy[b]
        # On board cells the line runs centre to centre, black with a white halo; between
        # circles it runs edge to edge with green arrowheads (the WIN colour) on white.
        halo = (
            []
            if cell is None
            else [
                el(
                    "line",
                    x1=xa,
                    y1=ya,
                    x2=xb,
                    y2=yb,
                    stroke="#FFFFFF",
                    stroke_width=2 * thick,
                    stroke_linecap="round",
                )
            ]
        )
        shapes = [
            *halo,
            el(
                "line",
                x1=xa,
                y1=ya,
                x2=xb,
                y2=yb,
                stroke=INK,
                stroke_width=thick,
                stroke_linecap="round",
            ),
        ]
        head_colour = PALETTE["WIN"] if cell is None else INK
        stop = reach + 1 if cell is None else 0.12 * cell
        for s, t in ((a, b), (b, a)):
            if in_d[s]:
                continue  # no winning move from a losing start
            (xs, ys), (xt, yt) = xy[s], xy[t]
            length = max(float(np.hypot(xt - xs, yt - ys)), 1e-9)
            ux, uy = (xt - xs) / length, (yt - ys) / length
            tip_x, tip_y = xt - ux * stop, yt - uy * stop
            back = min(18.0, 0.4 * length)
            shapes += arrow(tip_x - ux * back, tip_y - uy * back, tip_x, tip_y, head_colour, thick)
        lines.append(group(shapes, class_="matching", data_u=a, data_v=b))
    spots: list[str] = []
    for i in range(n):
        value = Value.LOSE if in_d[i] else Value.WIN
        fill = PALETTE[value.name]
        x, y = float(xy[i, 0]), float(xy[i, 1])
        if cell is not None:
            shape = el(
                "rect",
                x=x - cell / 2 + 1,
                y=y - cell / 2 + 1,
                width=cell - 2,
                height=cell - 2,
                rx=3,
                fill=fill,
            )
        else:
            shape = el("circle", cx=x, cy=y, r=radius, fill=fill, stroke=INK)
        shapes = [shape]
        if labels is not None and (cell or 2 * radius) >= 18:
            ink = "#FFFFFF"
            shapes.append(
                el(
                    "text",
                    labels[i],
                    x=x,
                    y=y + 4,
                    font_size=min(11, reach),
                    fill=ink,
                    text_anchor="middle",
                )
            )
        spots.append(
            group(
                shapes,
                class_="vertex",
                data_vertex=i,
                data_value=value.name,
                data_in_d="true" if in_d[i] else "false",
            )
        )
    # Circles go over the edges they end at; board cells under the matching drawn across them.
    parts += spots + lines if cell is not None else lines + spots
    return Drawing(width, height, parts, caption)


def geography_svg(
    result: Any,
    *,
    title: str = "vertex geography",
    labels: Sequence[str] | None = None,
    size: float | None = None,
) -> str:
    """A geography result on its graph, laid out by force (:func:`spring_layout`).

    Parameters
    ----------
    result : GeographyResult
        From :func:`~perfectplay.solvers.geography.solve_geography`.
    title : str
        The picture's title.
    labels : sequence of str, optional
        Vertex names; default the graph's labels, else the vertex numbers.
    size : float, optional
        Width in pixels of the rendered picture.

    Raises
    ------
    PictureTooLargeError
        More than :data:`~perfectplay.svg.size.MAX_ITEMS` vertices.

    Notes
    -----
    Cost: the layout, O(300 n^2), then O(n + m).
    """
    n = result.graph.n
    check_picture_size(n, "vertices")
    u, v = edges_of(result.graph)
    side = max(300.0, min(900.0, 90.0 * np.sqrt(max(n, 1))))
    radius = max(6.0, min(16.0, side / (3.0 * np.sqrt(max(n, 1)))))
    pad = radius + 4
    xy = place(n, u, v, radius=radius, side=side)
    width, height = (xy.max(axis=0) + pad).tolist() if n else (side, side)
    if labels is None:
        names = result.graph.labels
        labels = [str(x) for x in names] if names is not None else [str(i) for i in range(n)]
    wins = int(np.count_nonzero(~np.asarray(result.in_d)))
    caption = (
        f"{n} vertices, maximum matching of {result.matching_size} edges; "
        f"the mover wins from {wins}, |D(G)| = {n - wins}"
    )
    drawing = geography_drawing(
        result, xy, radius=radius, labels=labels, width=width, height=height, caption=caption
    )
    return page(drawing, title=title, entries=LEGEND, note=NOTE, size=size)


def bipartite_svg(
    result: Any,
    left: int,
    *,
    labels: Sequence[str],
    title: str,
    caption: str,
    size: float | None = None,
) -> str:
    """A bipartite geography result: vertices ``0..left-1`` in a left column, the rest right.

    The right column is ordered by the mean position of each vertex's left neighbours (one
    barycentre pass), which removes most crossings.

    Raises
    ------
    PictureTooLargeError
        More than 200 vertices on a side.

    Notes
    -----
    Cost: O(n log n + m).
    """
    n = result.graph.n
    right = n - left
    check_picture_size(max(left, right), "vertices on a side", 200)
    u, v = edges_of(result.graph)
    step, radius = 40.0, 15.0
    mean = np.full(right, np.inf)
    if u.size:
        sums = np.bincount(v - left, weights=u.astype(float), minlength=right)
        counts = np.bincount(v - left, minlength=right)
        mean = np.where(counts > 0, sums / np.maximum(counts, 1), np.inf)
    order = np.argsort(mean, kind="stable")
    rank = np.empty(right, dtype=np.int64)
    rank[order] = np.arange(right)
    xy = np.zeros((n, 2))
    xy[:left, 0], xy[:left, 1] = 30.0, 30.0 + step * np.arange(left)
    xy[left:, 0], xy[left:, 1] = 330.0, 30.0 + step * rank
    drawing = geography_drawing(
        result,
        xy,
        radius=radius,
        labels=labels,
        width=360.0,
        height=30.0 + step * max(left, right),
        caption=caption,
    )
    return page(drawing, title=title, entries=LEGEND, note=NOTE, size=size)
