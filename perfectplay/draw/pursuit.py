"""Pursuit on a digraph: the board, both pieces, and the outcome of every start.

Left: the directed graph (force layout), Bob's piece (the evader, moving first) on its
vertex, Alice's (the pursuer) on hers. Right: one square per start ``(Bob's vertex, Alice's
vertex)``, coloured by the value for Bob, who moves first (endless games counted by the
rule given, Bob's win in problem make-you-happy); the actual start is framed.

Examples
--------
>>> svg = pursuit_svg(3, [(0, 1), (1, 2), (2, 0)], 1, 0, title="a triangle")
>>> svg.count("data-bob="), 'data-bob="1" data-alice="0" data-value="WIN"' in svg
(6, True)
"""

from __future__ import annotations

import numpy as np

from perfectplay.draw.layout import place
from perfectplay.svg.elements import Drawing, arrow, el, group, page
from perfectplay.svg.palette import INK, PALETTE, STONE_DARK, STONE_LIGHT
from perfectplay.svg.size import check_picture_size
from perfectplay.values import Value

__all__ = ["MAX_VERTICES", "pursuit_svg"]

MAX_VERTICES = 60
"""Largest board drawn (its outcome table has a square per pair of vertices)."""


def pursuit_svg(
    n: int,
    edges: list[tuple[int, int]],
    bob: int,
    alice: int,
    *,
    title: str,
    endless: str = "evader",
    size: float | None = None,
) -> str:
    """The pursuit game on `n` vertices with directed `edges`, Bob on `bob`, Alice on `alice`.

    Parameters
    ----------
    n : int
        Number of vertices (0-based ids; drawn 1-based).
    edges : list of (int, int)
        The directed edges.
    bob, alice : int
        The start: the evader's and the pursuer's vertex; Bob moves first.
    endless : {"evader", "pursuer", "draw"}
        Who wins a game that never ends (:class:`~perfectplay.builders.pursuit.Pursuit`).

    Raises
    ------
    PictureTooLargeError
        More than :data:`MAX_VERTICES` vertices.

    Notes
    -----
    Cost: solving the whole board, O(n^2 + m n), then O(n^2) to draw.
    """
    from perfectplay.builders.pursuit import EVADER, Pursuit
    from perfectplay.graph import GameGraph

    check_picture_size(n, "vertices", MAX_VERTICES)
    u = np.array([e[0] for e in edges], dtype=np.int64)
    v = np.array([e[1] for e in edges], dtype=np.int64)
    game = Pursuit(GameGraph.from_edges(u, v, n=n), endless=endless)
    value = game.outcome(game.solve())
    radius = 15.0
    side = max(240.0, min(560.0, 70.0 * np.sqrt(n)))
    xy = place(n, u, v, radius=radius, side=side)
    side = float(xy.max()) + radius + 4
    parts: list[str] = []
    for a, b in zip(u.tolist(), v.tolist(), strict=True):
        (xa, ya), (xb, yb) = xy[a], xy[b]
        length = max(float(np.hypot(xb - xa, yb - ya)), 1e-9)
        ux, uy = (xb - xa) / length, (yb - ya) / length
        parts += arrow(
            xa + ux * radius,
            ya + uy * radius,
            xb - ux * (radius + 1),
            yb - uy * (radius + 1),
            "#777777",
            2,
        )
    for i in range(n):
        x, y = xy[i]
        fill, ink = (STONE_DARK, STONE_LIGHT) if i == bob else (STONE_LIGHT, INK)
        ring = 4 if i == alice else 1
        parts += [
            el("circle", cx=x, cy=y, r=radius, fill=fill, stroke=INK, stroke_width=ring),
            el("text", str(i + 1), x=x, y=y + 4, font_size=11, fill=ink, text_anchor="middle"),
        ]
    cell = max(8.0, min(24.0, 360.0 / n))
    left = side + 50
    top = 4.0
    below = top + n * cell + 30
    parts.append(el("text", "rows: Bob's vertex", x=left, y=below, font_size=11, fill=INK))
    parts.append(el("text", "columns: Alice's", x=left, y=below + 14, font_size=11, fill=INK))
    for b in range(n):
        if cell >= 14 or b % 5 == 0:
            parts.append(
                el(
                    "text",
                    str(b + 1),
                    x=left - 4,
                    y=top + (b + 0.5) * cell + 4,
                    font_size=10,
                    fill=INK,
                    text_anchor="end",
                )
            )
            parts.append(
                el(
                    "text",
                    str(b + 1),
                    x=left + (b + 0.5) * cell,
                    y=top + n * cell + 12,
                    font_size=10,
                    fill=INK,
                    text_anchor="middle",
                )
            )
        for a in range(n):
            x, y = left + a * cell, top + b * cell
            if a == b:
                parts.append(el("rect", x=x, y=y, width=cell, height=cell, fill="#DDDDDD"))
                continue
            outcome = Value(int(value[game.encode(b, a, EVADER)]))
            framed = (b, a) == (bob, alice)
            parts.append(
                group(
                    [
                        el("title", f"Bob on {b + 1}, Alice on {a + 1}: {outcome.name} for Bob"),
                        el(
                            "rect",
                            x=x,
                            y=y,
                            width=cell,
                            height=cell,
                            fill=PALETTE[outcome.name],
                            stroke=INK if framed else "#FFFFFF",
                            stroke_width=3 if framed else 0.5,
                        ),
                    ],
                    class_="start",
                    data_bob=b,
                    data_alice=a,
                    data_value=outcome.name,
                )
            )
    start = Value(int(value[game.encode(bob, alice, EVADER)]))
    winner = "Bob" if start == Value.WIN else "Alice"
    caption = (
        f"Bob (dark) on {bob + 1}, Alice (thick ring) on {alice + 1}, Bob moves first: "
        f"{winner} wins"
    )
    width = left + max(n * cell, 110) + 10
    drawing = Drawing(width, max(side, top + n * cell + 50), parts, caption)
    entries = [(PALETTE["WIN"], "W", "Bob wins"), (PALETTE["LOSE"], "L", "Alice wins")]
    if endless == "draw":
        entries.append((PALETTE["DRAW"], "D", "endless"))
    rule = {
        "evader": "an endless game is Bob's",
        "pursuer": "an endless game is Alice's",
        "draw": "an endless game is a draw",
    }[endless]
    return page(
        drawing,
        title=title,
        entries=entries,
        note=f"value for Bob, who moves first; {rule}",
        size=size,
    )
