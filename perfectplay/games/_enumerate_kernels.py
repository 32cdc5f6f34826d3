"""numba kernels of the vectorized enumerator (see :mod:`perfectplay.games.enumerate`)."""

from __future__ import annotations

import numba as nb
import numpy as np
from numpy.typing import NDArray

__all__ = ["layer_csr"]

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)  # Fibonacci hashing multiplier


@nb.njit(cache=True)
def _layer_csr(
    parent: NDArray[np.int64],
    child: NDArray[np.int64],
    keys: NDArray[np.int64],
    ids: NDArray[np.int64],
    width: int,
    degree: NDArray[np.int64],
    dst: NDArray[np.int64],
) -> None:
    # Open-addressing table of the layer's distinct children: 2 ** bits slots >= 2 * len(keys),
    # so probes stay short; key -1 marks a free slot (codes are non-negative).
    size = 1
    bits = 0
    while size < 2 * keys.shape[0]:
        size *= 2
        bits += 1
    shift = np.uint64(64 - bits) if bits > 0 else np.uint64(63)
    mask = size - 1
    # Each slot holds (key, id) side by side: one cache line per probe.
    table = np.full((size, 2), -1, dtype=np.int64)
    for i in range(keys.shape[0]):
        h = int((np.uint64(keys[i]) * _GOLDEN) >> shift) & mask
        while table[h, 0] != -1:
            h = (h + 1) & mask
        table[h, 0] = keys[i]
        table[h, 1] = ids[i]
    # CSR of the layer by counting sort on the parent, keeping the game's order per parent.
    for i in range(parent.shape[0]):
        degree[parent[i]] += 1
    start = np.empty(width, dtype=np.int64)
    total = 0
    for p in range(width):
        start[p] = total
        total += degree[p]
    for i in range(parent.shape[0]):
        code = child[i]
        h = int((np.uint64(code) * _GOLDEN) >> shift) & mask
        while table[h, 0] != code:
            h = (h + 1) & mask
        dst[start[parent[i]]] = table[h, 1]
        start[parent[i]] += 1


def layer_csr(
    parent: NDArray[np.int64],
    child: NDArray[np.int64],
    keys: NDArray[np.int64],
    ids: NDArray[np.int64],
    width: int,
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """One layer's moves in CSR form: ``(degree, dst)``.

    ``degree[p]`` counts the moves of frontier position ``p`` (``0 <= p < width``); ``dst`` lists
    the id of each move's child, grouped by parent in increasing order and, within a parent, in
    the order given. `keys` are the distinct children (every ``child[i]`` among them) and `ids`
    their position ids. Cost: O(len(child) + len(keys) + width), a hash table of 16 bytes
    times 2 to 4 slots per key.
    """
    degree = np.zeros(width, dtype=np.int64)  # one count per frontier position
    dst = np.empty(child.shape[0], dtype=np.int64)  # one id per move
    _layer_csr(parent, child, keys, ids, width, degree, dst)
    return degree, dst
