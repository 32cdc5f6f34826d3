"""Where to put the vertices of a graph: a force-directed layout in numpy.

Fruchterman–Reingold: vertices repel each other, edges pull their ends together, and the
step shrinks each round; a fixed seed makes pictures reproducible.

References
----------
T. M. J. Fruchterman, E. M. Reingold, "Graph drawing by force-directed placement",
Software: Practice and Experience 21 (1991) 1129-1164, doi:10.1002/spe.4380211102.

Examples
--------
>>> import numpy as np
>>> xy = spring_layout(4, np.array([0, 1, 2]), np.array([1, 2, 3]))
>>> xy.shape, bool(xy.min() >= 0 and xy.max() <= 1)
((4, 2), True)
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

__all__ = ["place", "spring_layout"]


def spring_layout(
    n: int,
    u: NDArray[np.int64],
    v: NDArray[np.int64],
    *,
    iterations: int = 300,
    seed: int = 0,
) -> NDArray[np.float64]:
    """Positions in the unit square for `n` vertices joined by edges ``u[k] - v[k]``.

    The layout touches 0 on both axes and 1 on its longer one (its aspect ratio is kept).

    Notes
    -----
    Cost: O(iterations * (n^2 + m)) time in a numba kernel (1000 vertices: about 1 s), O(n)
    memory.
    """
    if n == 0:
        return np.zeros((0, 2))
    if n == 1:
        return np.full((1, 2), 0.5)
    rng = np.random.default_rng(seed)
    angle = 2 * np.pi * np.arange(n) / n
    pos = 0.5 + 0.4 * np.column_stack([np.cos(angle), np.sin(angle)])
    pos += 0.01 * rng.standard_normal((n, 2))
    from perfectplay.draw._layout_kernels import spring_rounds

    spring_rounds(
        pos, u.astype(np.int64), v.astype(np.int64), 1.0 / np.sqrt(n), 0.1, 0.985, iterations
    )
    pos -= pos.min(axis=0)
    result: NDArray[np.float64] = pos / max(float(pos.max()), 1e-9)
    return result


def place(
    n: int, u: NDArray[np.int64], v: NDArray[np.int64], *, radius: float, side: float
) -> NDArray[np.float64]:
    """Vertex centres in pixels: :func:`spring_layout` scaled to `side` pixels or more, until
    no two vertices are closer than three radii (at most 1400 pixels), `radius` + 4 from the
    picture's top and left edges.

    Cost: that of :func:`spring_layout`.
    """
    unit = spring_layout(n, u, v)
    if n > 1:
        gap = np.hypot(*(unit[:, None, :] - unit[None, :, :]).transpose(2, 0, 1))
        np.fill_diagonal(gap, np.inf)
        side = min(max(side, 3.0 * radius / max(float(gap.min()), 1e-9)), 1400.0)
    result: NDArray[np.float64] = radius + 4 + unit * side
    return result
