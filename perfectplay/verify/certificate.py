"""Check a geography certificate (see :mod:`perfectplay.solvers.certificate`) in plain numpy.

What is checked, for an undirected graph (both directions of every edge stored; self-loops are
never moves):

* the matching: ``mate`` is an involution without fixed points along edges of the graph;
* bipartite certificates: each of the two covers touches every edge and has exactly ``|M|``
  vertices (so M is maximum, by weak duality), every claimed winner lies in a cover (so every
  maximum matching covers it: the mover wins), and every claimed loser is exposed or has a
  ``parent`` chain, strictly decreasing in ``depth``, that spells an even alternating path from
  an exposed vertex (its flip is a maximum matching missing it: the mover loses);
* general certificates: the barrier A is N(D) - D for the claimed losers D, the
  Tutte–Berge bound ``(n + |A| - odd(G - A)) / 2`` equals ``|M|`` (so M is maximum and every
  maximum matching covers A and the even components of G - A: those starts are wins), and
  the claimed losers are exactly the odd components of G - A. That every vertex of an odd
  component is missed by some maximum matching is the Gallai–Edmonds theorem for the barrier
  A(G); the certificate does not prove those components factor-critical.

Examples
--------
>>> from types import SimpleNamespace
>>> from perfectplay.graph import GameGraph
>>> g = GameGraph.from_edges([0, 1, 1, 2], [1, 0, 2, 1], n=3)   # the path 0 - 1 - 2
>>> cover = np.array([False, True, False])
>>> cert = SimpleNamespace(mate=np.array([1, 0, -1]), losers=np.array([True, False, True]),
...                        bipartite=True, covers=(cover, cover),
...                        parent=np.array([2, -1, -1]), depth=np.array([1, -1, 0]))
>>> check_geography_certificate(g.indptr, g.indices, cert).ok
True
>>> cert.losers[0] = False                       # claim that the mover wins from 0
>>> print(check_geography_certificate(g.indptr, g.indices, cert).problems[0])
vertex 0: a claimed win that no minimum cover holds (not proved covered by every maximum matching)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from perfectplay.verify.rules import Report

__all__ = [
    "CertificateFileReport",
    "check_geography_certificate",
    "components",
    "load_certificates",
    "verify_certificate_file",
]

IntArray = NDArray[np.int64]


def components(n: int, u: IntArray, v: IntArray) -> IntArray:
    """Connected-component labels (the smallest vertex of each component) of edges ``u - v``.

    Hooking and pointer jumping in numpy: O((n + m) log n) work in practice.

    >>> components(5, np.array([0, 3]), np.array([1, 4])).tolist()
    [0, 0, 2, 3, 3]
    """
    label = np.arange(n, dtype=np.int64)
    while True:
        lu, lv = label[u], label[v]
        differ = lu != lv
        if not differ.any():
            return label
        high, low = np.maximum(lu, lv)[differ], np.minimum(lu, lv)[differ]
        np.minimum.at(label, high, low)  # hook roots to smaller labels: no cycles
        while True:  # compress every path to its root
            jumped = label[label]
            if (jumped == label).all():
                break
            label = jumped


def _edges(indptr: IntArray, indices: IntArray) -> tuple[IntArray, IntArray]:
    n = indptr.shape[0] - 1
    u = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    v = indices.astype(np.int64)
    keep = u != v
    return u[keep], v[keep]


def _has_edge(keys: IntArray, n: int, u: IntArray, v: IntArray) -> NDArray[np.bool_]:
    """Whether each ``u - v`` is an edge (`keys`: the sorted ``u * n + v`` of every edge)."""
    want = u * n + v
    if keys.shape[0] == 0:
        return np.zeros(want.shape[0], dtype=np.bool_)
    found: NDArray[np.bool_] = (
        keys[np.minimum(np.searchsorted(keys, want), keys.shape[0] - 1)] == want
    )
    return found


def _check_matching(
    n: int, keys: IntArray, mate: IntArray, report: Report
) -> NDArray[np.bool_] | None:
    """The matched vertices, or None (with problems added) if `mate` is no matching."""
    if mate.shape != (n,) or ((mate < -1) | (mate >= n)).any():
        report.add(
            np.array([0]),
            lambda p: f"the matching must give each of {n} vertices a partner in 0..n-1 or -1",
        )
        return None
    matched = mate >= 0
    v = np.flatnonzero(matched)
    w = mate[v]
    bad = v[(mate[w] != v) | (w == v) | ~_has_edge(keys, n, v, w)]
    report.add(
        bad, lambda p: f"vertex {p}: its partner {int(mate[p])} is not matched back along an edge"
    )
    return matched if bad.size == 0 else None


def _check_bipartite(
    n: int, u: IntArray, v: IntArray, keys: IntArray, cert: Any, size: int, report: Report
) -> None:
    losers, mate = cert.losers, cert.mate
    covered = np.zeros(n, dtype=np.bool_)
    for k, cover in enumerate(cert.covers):
        loose = np.flatnonzero(~cover[u] & ~cover[v])
        report.add(u[loose], "vertex {p}: an edge from it is outside cover " + str(k))
        count = int(np.count_nonzero(cover))
        if count != size:
            report.add(np.array([0]), f"cover {k} has {count} vertices, the matching {size} edges")
        covered |= cover
    report.add(
        np.flatnonzero(~losers & ~covered),
        lambda p: (
            f"vertex {p}: a claimed win that "
            "no minimum cover holds (not proved covered by every maximum matching)"
        ),
    )
    parent, depth = cert.parent, cert.depth
    chained = np.flatnonzero(losers & (mate >= 0))
    w = parent[chained]
    no_parent = chained[(w < 0) | (w >= n)]
    report.add(
        no_parent,
        lambda p: (
            f"vertex {p}: a claimed loser has no even alternating path "
            "(no parent) from an exposed vertex"
        ),
    )
    ok = (w >= 0) & (w < n)
    chained, w = chained[ok], w[ok]
    partner = mate[chained]
    bad = chained[
        ~losers[w]
        | (depth[w] < 0)
        | (depth[w] >= depth[chained])
        | losers[partner]
        | ~_has_edge(keys, n, w, partner)
    ]
    report.add(
        bad,
        lambda p: (
            f"vertex {p}: its parent {int(parent[p])} does not continue an "
            "even alternating path (a loser of smaller depth next to its partner)"
        ),
    )
    exposed_deep = np.flatnonzero(losers & (mate < 0) & (depth != 0))
    report.add(exposed_deep, lambda p: f"vertex {p}: an exposed loser must have depth 0")


def _check_general(n: int, u: IntArray, v: IntArray, cert: Any, size: int, report: Report) -> None:
    losers, barrier = cert.losers, cert.barrier
    near = np.zeros(n, dtype=np.bool_)
    near[v[losers[u]]] = True
    wrong = np.flatnonzero(barrier != (near & ~losers))
    report.add(
        wrong,
        lambda p: (
            f"vertex {p}: the barrier must be the neighbours of the "
            "claimed losers that are not losers themselves"
        ),
    )
    keep = ~barrier[u] & ~barrier[v]
    label = components(n, u[keep], v[keep])
    sizes = np.bincount(label[~barrier], minlength=n)
    odd_root = (sizes % 2) == 1
    odd_count = int(np.count_nonzero(odd_root))
    a = int(np.count_nonzero(barrier))
    if 2 * size != n + a - odd_count:
        report.add(
            np.array([0]),
            lambda p: (
                f"the matching has {size} edges but the barrier "
                f"({a} vertices, {odd_count} odd components) bounds it by "
                f"{(n + a - odd_count) // 2}: no proof of maximality"
            ),
        )
    in_odd = ~barrier & odd_root[label]
    report.add(
        np.flatnonzero(losers != in_odd),
        lambda p: (
            f"vertex {p}: claimed "
            f"{'loser' if losers[p] else 'winner'} but it lies "
            f"{'in an odd component' if in_odd[p] else 'outside the odd components'} "
            "of G - barrier"
        ),
    )


def check_geography_certificate(indptr: Any, indices: Any, cert: Any) -> Report:
    """Check that `cert` proves its losers (the claimed D(G)) for the undirected graph.

    Parameters
    ----------
    indptr, indices : arrays of int
        The graph in CSR form with both directions of every edge (as ``solve_geography``'s
        ``result.graph``).
    cert : GeographyCertificate
        From :func:`perfectplay.solvers.certificate.geography_certificate`, or loaded from a
        file.

    Returns
    -------
    Report
        ``ok`` when the certificate holds.

    Notes
    -----
    Cost: O((n + m) log m) in numpy (edge look-ups by binary search; the general case adds
    the connected components of G - A).
    """
    indptr = np.asarray(indptr, dtype=np.int64)
    indices = np.asarray(indices, dtype=np.int64)
    n = indptr.shape[0] - 1
    u, v = _edges(indptr, indices)
    report = Report(positions=n, moves=int(u.shape[0]))
    keys = np.sort(u * n + v)
    one_way = np.flatnonzero(~_has_edge(keys, n, v, u))
    report.add(
        u[one_way],
        lambda p: f"vertex {p}: a move from it has no twin back (the graph must be undirected)",
    )
    if one_way.size:
        return report
    mate = np.asarray(cert.mate, dtype=np.int64)
    matched = _check_matching(n, keys, mate, report)
    if matched is None:
        return report
    size = int(np.count_nonzero(matched)) // 2
    if cert.bipartite:
        _check_bipartite(n, u, v, keys, cert, size, report)
    else:
        _check_general(n, u, v, cert, size, report)
    return report


_FORMAT = "perfectplay-geography-certificate"


def _array(path: str, archive: Any, name: str, kind: str, shape: tuple[int, ...]) -> Any:
    from perfectplay.errors import InputFormatError

    if name not in archive.files:
        raise InputFormatError(f"{path}: the certificate lacks the array {name!r}")
    array = archive[name]
    if array.dtype.kind not in kind or (shape and array.shape != shape):
        raise InputFormatError(
            f"{path}: {name!r} should be {'integers' if kind == 'iu' else 'booleans'} "
            f"of shape {shape}, got {array.dtype} {array.shape}"
        )
    return array


def _case(path: str, archive: Any, k: int) -> tuple[IntArray, IntArray, Any]:
    from types import SimpleNamespace

    from perfectplay.errors import InputFormatError

    indptr = _array(path, archive, f"{k}.indptr", "iu", ()).astype(np.int64)
    indices = _array(path, archive, f"{k}.indices", "iu", ()).astype(np.int64)
    n = indptr.shape[0] - 1
    if (
        indptr.ndim != 1
        or indices.ndim != 1
        or n < 0
        or indptr[0] != 0
        or indptr[-1] != indices.shape[0]
        or (np.diff(indptr) < 0).any()
        or ((indices < 0) | (indices >= n)).any()
    ):
        raise InputFormatError(f"{path}: case {k}: the graph's CSR arrays are malformed")
    bipartite = _array(path, archive, f"{k}.bipartite", "b", ())
    if bipartite.shape != ():
        raise InputFormatError(f"{path}: case {k}: 'bipartite' must be one boolean")
    fields: dict[str, Any] = {
        "mate": _array(path, archive, f"{k}.mate", "iu", (n,)).astype(np.int64),
        "losers": _array(path, archive, f"{k}.losers", "b", (n,)),
        "bipartite": bool(bipartite),
    }
    if fields["bipartite"]:
        fields["covers"] = tuple(_array(path, archive, f"{k}.cover{c}", "b", (n,)) for c in (0, 1))
        for name in ("parent", "depth"):
            fields[name] = _array(path, archive, f"{k}.{name}", "iu", (n,)).astype(np.int64)
    else:
        fields["barrier"] = _array(path, archive, f"{k}.barrier", "b", (n,))
    return indptr, indices, SimpleNamespace(**fields)


def load_certificates(path: str) -> list[tuple[IntArray, IntArray, Any]]:
    """``(indptr, indices, certificate)`` of every case in a file written by
    ``perfectplay.solvers.certificate.save_certificates``.

    Raises
    ------
    InputFormatError
        If the file is not a certificate, or an array is missing, of the wrong type or shape,
        or a graph's CSR arrays are malformed (ids out of range, pointers decreasing).
    OSError
        If the file cannot be read.
    """
    import zipfile

    from perfectplay.errors import InputFormatError

    try:
        archive = np.load(path, allow_pickle=False)
    except (ValueError, zipfile.BadZipFile, EOFError) as error:
        raise InputFormatError(f"{path} is not a geography certificate ({error})") from None
    if not isinstance(archive, np.lib.npyio.NpzFile):
        raise InputFormatError(f"{path} is not a geography certificate (not an .npz archive)")
    with archive:
        try:
            if "format" not in archive.files or str(archive["format"]) != _FORMAT:
                raise InputFormatError(f"{path} is not a geography certificate (no format)")
            cases = _array(path, archive, "cases", "iu", ())
            if cases.shape != () or int(cases) < 0:
                raise InputFormatError(f"{path}: 'cases' must be one count")
            return [_case(path, archive, k) for k in range(int(cases))]
        except (ValueError, zipfile.BadZipFile, EOFError, OSError) as error:
            if isinstance(error, InputFormatError):
                raise
            raise InputFormatError(f"{path}: damaged certificate ({error})") from None


@dataclass
class CertificateFileReport:
    """The outcome of :func:`verify_certificate_file`: the merged report and what it proves."""

    report: Report
    """Positions (vertices) and moves (directed edges) checked, problems by case."""
    cases: int
    """How many graphs (cases) the file holds."""
    matched_edges: int
    """Edges of the maximum matchings, over all cases."""
    losers: int
    """Losing starts D(G), over all cases."""


def verify_certificate_file(path: str) -> CertificateFileReport:
    """Check every case of a certificate file; problems and notes are prefixed ``case K:``.

    Cost: that of :func:`check_geography_certificate` per case, O(n + m) numpy work each.

    Raises
    ------
    InputFormatError, OSError
        As :func:`load_certificates`.
    """
    cases = load_certificates(path)
    report = Report()
    losers = edges = 0
    for k, (indptr, indices, cert) in enumerate(cases):
        part = check_geography_certificate(indptr, indices, cert)
        report.positions += part.positions
        report.moves += part.moves
        report.bad += part.bad
        report.problems += [f"case {k + 1}: {p}" for p in part.problems]
        losers += int(cert.losers.sum())
        edges += int((cert.mate >= 0).sum()) // 2
        if not cert.bipartite:
            report.notes.append(
                f"case {k + 1} is not bipartite: its losing starts are proved to be the odd "
                "components of G - A (A: the Tutte-Berge barrier); that this is D(G) rests "
                "on the Gallai-Edmonds theorem (factor-criticality is not certified)"
            )
    return CertificateFileReport(report, len(cases), edges, losers)
