"""numba kernels of the pursuit game: the position graph straight into CSR, board reachability."""

from __future__ import annotations

import numba as nb

__all__ = ["fill_pursuit_graph"]


@nb.njit(cache=True)
def fill_pursuit_graph(bindptr, bindices, indptr, indices):  # type: ignore[no-untyped-def]
    """Fill the CSR arrays of the pursuit position graph of a board with ``n`` vertices.

    Position ``side * n * n + e * n + p``: evader on ``e``, pursuer on ``p``, ``side`` to move
    (0 evader, 1 pursuer). The mover's piece moves along one board edge; contact positions
    (``e == p``) have no moves. `indptr` has ``2 * n * n + 1`` slots; `indices` has
    ``2 * m * (n - 1)`` slots: each board edge ``e -> e'`` is a move from the ``n - 1``
    non-contact positions with the evader on ``e`` (evader to move), and again from the
    ``n - 1`` with the pursuer on ``e`` (pursuer to move). Rows are written in id order, so
    each row's moves follow the board's edge order.
    """
    n = bindptr.shape[0] - 1
    nn = n * n
    k = 0
    indptr[0] = 0
    for e in range(n):  # evader to move: (e, p) -> (e', p), pursuer to move
        for p in range(n):
            if e != p:
                base = nn + p
                for j in range(bindptr[e], bindptr[e + 1]):
                    indices[k] = base + bindices[j] * n
                    k += 1
            indptr[e * n + p + 1] = k
    for e in range(n):  # pursuer to move: (e, p) -> (e, p'), evader to move
        base = e * n
        for p in range(n):
            if e != p:
                for j in range(bindptr[p], bindptr[p + 1]):
                    indices[k] = base + bindices[j]
                    k += 1
            indptr[nn + e * n + p + 1] = k
