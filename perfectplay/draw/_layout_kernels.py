"""numba kernel of the force-directed layout (:func:`perfectplay.draw.layout.spring_layout`).

One round moves every vertex at once: all pairs repel (k^2 / d), every edge pulls its ends
(d^2 / k), a weak pull towards the centre keeps components together, and no vertex moves
further than the round's step. O(n^2 + m) per round, no temporaries.
"""

from __future__ import annotations

import numba as nb
import numpy as np

__all__ = ["spring_rounds"]


@nb.njit(cache=True)
def spring_rounds(pos, u, v, k, step, cooling, rounds):  # type: ignore[no-untyped-def]
    """Run `rounds` rounds on `pos` (n x 2, changed in place)."""
    n = pos.shape[0]
    push = np.zeros((n, 2))
    for _ in range(rounds):
        push[:] = 0.0
        cx = 0.0
        cy = 0.0
        for i in range(n):
            cx += pos[i, 0]
            cy += pos[i, 1]
        cx /= n
        cy /= n
        for i in range(n):
            for j in range(i + 1, n):
                dx = pos[i, 0] - pos[j, 0]
                dy = pos[i, 1] - pos[j, 1]
                d2 = max(dx * dx + dy * dy, 1e-6)
                f = k * k / d2
                push[i, 0] += dx * f
                push[i, 1] += dy * f
                push[j, 0] -= dx * f
                push[j, 1] -= dy * f
        for e in range(u.shape[0]):
            a = u[e]
            b = v[e]
            dx = pos[a, 0] - pos[b, 0]
            dy = pos[a, 1] - pos[b, 1]
            f = max(np.sqrt(dx * dx + dy * dy), 1e-3) / k
            push[a, 0] -= dx * f
            push[a, 1] -= dy * f
            push[b, 0] += dx * f
            push[b, 1] += dy * f
        for i in range(n):
            push[i, 0] -= (pos[i, 0] - cx) * 2.0 * k
            push[i, 1] -= (pos[i, 1] - cy) * 2.0 * k
            size = max(np.sqrt(push[i, 0] ** 2 + push[i, 1] ** 2), 1e-9)
            move = min(size, step)
            pos[i, 0] += push[i, 0] / size * move
            pos[i, 1] += push[i, 1] / size * move
        step *= cooling
