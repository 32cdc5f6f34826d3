"""numba kernels of the reach count (:mod:`perfectplay.games.dobutsu.reach`).

Kernels run array-at-a-time without the GIL (``nogil``).
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numpy.typing import NDArray

from perfectplay.games.dobutsu._tier_kernels import (
    LIONS,
    REGION,
    REGION_T,
    REGION_X,
    _attacked,
    _unrank,
)

__all__ = ["CATCH", "CAUGHT", "PLAY", "TRY", "kinds"]

PLAY, CATCH, TRY, CAUGHT = 0, 1, 2, 3
"""Kinds of position: play goes on and the mover cannot catch the opposing lion; the mover
can catch it (after a try too); the opponent's try stands; the mover's lion was caught."""


@nb.njit(cache=True, nogil=True)
def kinds(rank: NDArray[np.int64], tab: NDArray[np.int64]) -> NDArray[np.uint8]:
    """The kind (``PLAY``, ``CATCH``, ``TRY``, ``CAUGHT``) of each rank."""
    out = np.empty(rank.shape[0], dtype=np.uint8)
    board = np.empty(12, dtype=np.int64)
    own = np.empty(3, dtype=np.int64)
    opp = np.empty(3, dtype=np.int64)
    for i in range(rank.shape[0]):
        cls = _unrank(rank[i], board, own, opp, tab)
        region = tab[REGION + cls]
        if region == REGION_X:
            out[i] = CAUGHT
        elif _attacked(board, tab[LIONS + cls * 2 + 1], tab):
            out[i] = CATCH
        elif region == REGION_T:
            out[i] = TRY
        else:
            out[i] = PLAY
    return out
