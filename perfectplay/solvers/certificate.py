"""Certificates for geography results: why the matching is maximum and why D(G) is what it is.

:func:`geography_certificate` turns a :class:`~perfectplay.solvers.geography.GeographyResult`
into a :class:`GeographyCertificate` that :func:`perfectplay.verify.check_geography_certificate`
checks in (near) linear time without any solver:

* **Bipartite graphs**: two König vertex covers of the size of the matching (each proves the
  matching maximum), one grown from the exposed vertices of each side. A vertex of a minimum
  vertex cover is covered by every maximum matching (dropping it leaves a cover of G - v one
  smaller), so every winning start lies in one of them; and every losing start v gets a
  ``parent`` pointer (an even alternating path from an exposed vertex to v, whose flip is a
  maximum matching missing v).
* **General graphs**: a Tutte–Berge barrier, the Gallai–Edmonds set A(G) = N(D) - D: with
  ``odd(G - A)`` odd components, ``|M| = (n + |A| - odd(G - A)) / 2`` proves M maximum, and
  every maximum matching then covers A and the even components (the winning starts); the
  losing starts are the odd components.

Examples
--------
>>> from perfectplay.solvers.geography import solve_geography
>>> cert = geography_certificate(solve_geography([(0, 1), (1, 2)]))
>>> cert.bipartite, cert.losers.tolist(), [c.tolist() for c in cert.covers]
(True, [True, False, True], [[False, True, False], [False, True, False]])
>>> geography_certificate(solve_geography([(0, 1), (1, 2), (2, 0)])).barrier.tolist()
[False, False, False]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from perfectplay._atomic import atomic_file
from perfectplay.solvers._bipartite import two_colour
from perfectplay.solvers.geography import GeographyResult

__all__ = [
    "CERTIFICATE_FORMAT",
    "GeographyCertificate",
    "certificate_arrays",
    "geography_certificate",
    "neighbours",
    "save_certificates",
]

IntArray = NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class GeographyCertificate:
    """A checkable proof of a geography result (see the module notes).

    Attributes
    ----------
    mate : ndarray of int64, shape (n,)
        A maximum matching: ``mate[v]`` is v's partner, -1 if v is exposed.
    losers : ndarray of bool, shape (n,)
        The starts the player to move loses from: the claimed D(G).
    bipartite : bool
        Which kind of proof follows.
    covers : tuple of two bool arrays, or None
        Bipartite: two minimum vertex covers (each of size ``|M|``).
    parent : ndarray of int64, or None
        Bipartite: for a matched loser v, a loser w adjacent to ``mate[v]`` with
        ``depth[w] < depth[v]`` (-1 for the others).
    depth : ndarray of int64, or None
        Bipartite: the length of v's alternating path, in pairs of moves (-1 for winners).
    barrier : ndarray of bool, or None
        General graphs: the Tutte–Berge barrier A(G).
    """

    mate: IntArray
    losers: NDArray[np.bool_]
    bipartite: bool
    covers: tuple[NDArray[np.bool_], NDArray[np.bool_]] | None = None
    parent: IntArray | None = None
    depth: IntArray | None = None
    barrier: NDArray[np.bool_] | None = None


def neighbours(
    indptr: IntArray, indices: IntArray, vertices: IntArray
) -> tuple[IntArray, IntArray]:
    """``(source, target)``: every move out of `vertices`, source given by its index in `vertices`.

    Cost: O(len(vertices) + moves out of them), numpy.

    >>> neighbours(np.array([0, 2, 3, 3]), np.array([1, 2, 0]), np.array([0, 1]))
    (array([0, 0, 1]), array([1, 2, 0]))
    """
    starts = indptr[vertices]
    counts = indptr[vertices + 1] - starts
    source = np.repeat(np.arange(vertices.shape[0]), counts)
    offsets = np.arange(source.shape[0]) - np.repeat(np.cumsum(counts) - counts, counts)
    return source, indices[np.repeat(starts, counts) + offsets].astype(np.int64)


def _alternating_forest(
    indptr: IntArray, indices: IntArray, mate: IntArray, roots: IntArray
) -> tuple[IntArray, IntArray, NDArray[np.bool_]]:
    """Breadth-first even alternating paths from `roots` (exposed vertices of one side).

    Returns ``depth`` and ``parent`` of the even vertices reached, and the odd vertices
    reached (neighbours of even ones). Cost: O(n + m), one numpy round per level.
    """
    n = mate.shape[0]
    depth = np.full(n, -1, dtype=np.int64)
    parent = np.full(n, -1, dtype=np.int64)
    odd = np.zeros(n, dtype=np.bool_)
    depth[roots] = 0
    frontier, level = roots, 0
    while frontier.size:
        level += 1
        source, y = neighbours(indptr, indices, frontier)
        keep = y != frontier[source]  # self-loops are no moves
        source, y = source[keep], y[keep]
        odd[y] = True
        z = mate[y]
        fresh = (z >= 0) & (depth[np.maximum(z, 0)] < 0)
        z, source = z[fresh], source[fresh]
        z, first = np.unique(z, return_index=True)
        depth[z] = level
        parent[z] = frontier[source[first]]
        frontier = z
    return depth, parent, odd


def geography_certificate(result: GeographyResult) -> GeographyCertificate:
    """The certificate of `result` (see the module notes for what it proves).

    Parameters
    ----------
    result : GeographyResult
        From :func:`~perfectplay.solvers.geography.solve_geography` (or one of its named
        solvers).

    Returns
    -------
    GeographyCertificate
        Bipartite (two covers, alternating-path parents) when the graph is 2-colourable,
        otherwise general (the Gallai–Edmonds barrier).

    Notes
    -----
    Cost: O(n + m) in numpy (a 2-colouring, then per side one breadth-first alternating
    search level by level, or the neighbourhood of D(G)).
    """
    g = result.graph
    indptr = g.indptr.astype(np.int64)
    indices = g.indices.astype(np.int64)
    mate = np.asarray(result.mate, dtype=np.int64)
    losers = np.asarray(result.in_d, dtype=np.bool_).copy()
    odd_vertex, colour = two_colour(g.indptr, g.indices)
    if odd_vertex < 0:
        depth = np.full(g.n, -1, dtype=np.int64)
        parent = np.full(g.n, -1, dtype=np.int64)
        covers = []
        for side in (0, 1):
            roots = np.flatnonzero((colour == side) & (mate < 0))
            d, p, odd = _alternating_forest(indptr, indices, mate, roots)
            even = d >= 0
            depth[even], parent[even] = d[even], p[even]
            covers.append(((colour == side) & ~even) | odd)
        return GeographyCertificate(
            mate, losers, True, covers=(covers[0], covers[1]), parent=parent, depth=depth
        )
    _, target = neighbours(indptr, indices, np.flatnonzero(losers))
    barrier = np.zeros(g.n, dtype=np.bool_)
    barrier[target] = True
    barrier &= ~losers
    return GeographyCertificate(mate, losers, False, barrier=barrier)


CERTIFICATE_FORMAT = "perfectplay-geography-certificate"
"""The ``format`` entry of a certificate file."""
_OPTIONAL = ("parent", "depth", "barrier")


def certificate_arrays(results: Sequence[GeographyResult]) -> dict[str, NDArray[np.generic]]:
    """The arrays of a certificate file for `results` (one case each), by name.

    ``format`` and ``cases``, then per case k: ``k.indptr``, ``k.indices`` (the graph),
    ``k.mate``, ``k.losers``, ``k.bipartite``, and ``k.cover0``, ``k.cover1``, ``k.parent``,
    ``k.depth`` (bipartite) or ``k.barrier`` (general). Cost: one certificate per result.
    """
    arrays: dict[str, NDArray[np.generic]] = {
        "format": np.array(CERTIFICATE_FORMAT),
        "cases": np.array(len(results)),
    }
    for k, result in enumerate(results):
        cert = geography_certificate(result)
        case = {
            "indptr": np.asarray(result.graph.indptr),
            "indices": np.asarray(result.graph.indices),
            "mate": cert.mate,
            "losers": cert.losers,
            "bipartite": np.array(cert.bipartite),
        }
        if cert.covers is not None:
            case["cover0"], case["cover1"] = cert.covers
        for name in _OPTIONAL:
            value = getattr(cert, name)
            if value is not None:
                case[name] = value
        arrays.update({f"{k}.{name}": value for name, value in case.items()})
    return arrays


def save_certificates(path: str, results: Sequence[GeographyResult]) -> None:
    """Write the certificates of `results` (with their graphs) to `path`, atomically.

    The file is a numpy ``.npz`` archive of :func:`certificate_arrays`; ``perfectplay verify
    FILE`` checks it. It is written to a temporary file in the same directory and renamed
    over `path`; its mode follows the user's umask. Cost: O(n + m) per result.

    Raises
    ------
    OSError
        If the file cannot be written (nothing is left behind).
    """
    arrays = certificate_arrays(results)
    with atomic_file(path, prefix=".certificate.", durable=False) as out:
        np.savez(out, **arrays)  # type: ignore[arg-type]
