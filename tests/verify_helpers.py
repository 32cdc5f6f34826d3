"""Solutions of random graphs by the brute-force twin, for the verifier's tests."""

from __future__ import annotations

import brute
import numpy as np
from numpy.typing import NDArray

from perfectplay.graph import GameGraph


def graph_sources(graph: GameGraph) -> NDArray[np.int64]:
    """The source position of every move of `graph`, in CSR order."""
    return np.repeat(np.arange(graph.n), np.diff(graph.indptr))


def brute_solved(
    graph: GameGraph, primitive: list[int], misere: bool
) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    """Value and remoteness of every position by :func:`brute.retrograde` (rounds of sweeps)."""
    edges = list(zip(graph_sources(graph).tolist(), graph.indices.tolist(), strict=True))
    value, remoteness = brute.retrograde(graph.n, edges, primitive, misere=misere)
    return np.array(value, np.uint8), np.array(remoteness, np.int64)
