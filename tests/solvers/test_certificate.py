"""Geography certificates: built from every result, accepted by the independent checker, and
refuted when any part of them is damaged; the file round trip and ``perfectplay verify``."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import brute
import numpy as np
import pytest
from cli_helpers import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.errors import InputFormatError
from perfectplay.solvers.certificate import (
    GeographyCertificate,
    geography_certificate,
    save_certificates,
)
from perfectplay.solvers.geography import GeographyResult, solve_geography
from perfectplay.verify.certificate import (
    check_geography_certificate,
    components,
    load_certificates,
)


@st.composite
def graphs(draw: st.DrawFn, bipartite: bool) -> tuple[int, list[tuple[int, int]]]:
    """A random small undirected graph (bipartite: edges between 0..a-1 and a..n-1)."""
    n = draw(st.integers(1, 10))
    a = draw(st.integers(0, n))
    if bipartite:
        if a in (0, n):
            return n, []
        pair = st.tuples(st.integers(0, a - 1), st.integers(a, n - 1))
    else:
        pair = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    return n, draw(st.lists(pair, max_size=2 * n))


def _solved(n: int, edges: list[tuple[int, int]]) -> GeographyResult:
    ends = np.array(edges, dtype=np.int64).reshape(-1, 2)
    ends = np.vstack([ends, [[v, v] for v in range(n)]])  # self-loops fix n; they are no moves
    return solve_geography(ends)


def _check(result: GeographyResult, cert: Any) -> Any:
    return check_geography_certificate(result.graph.indptr, result.graph.indices, cert)


def _copy(cert: GeographyCertificate) -> SimpleNamespace:
    fields = {k: getattr(cert, k) for k in ("mate", "losers", "bipartite", "parent", "depth")}
    fields = {k: v.copy() if isinstance(v, np.ndarray) else v for k, v in fields.items()}
    fields["barrier"] = None if cert.barrier is None else cert.barrier.copy()
    fields["covers"] = None if cert.covers is None else tuple(c.copy() for c in cert.covers)
    return SimpleNamespace(**fields)


@settings(max_examples=300)
@given(st.booleans().flatmap(graphs))
def test_every_certificate_is_accepted_and_names_d(graph: tuple[int, list]) -> None:
    n, edges = graph
    result = _solved(n, edges)
    cert = geography_certificate(result)
    report = _check(result, cert)
    assert report.ok, report.problems
    assert cert.losers.tolist() == brute.gallai_edmonds_d(n, edges)


@settings(max_examples=200)
@given(graphs(bipartite=True), st.data())
def test_every_damaged_bipartite_certificate_is_refuted(graph, data) -> None:  # type: ignore[no-untyped-def]
    n, edges = graph
    result = _solved(n, edges)
    cert = geography_certificate(result)
    assert cert.bipartite or not edges
    v = data.draw(st.integers(0, n - 1))
    flipped = _copy(cert)
    flipped.losers[v] = not flipped.losers[v]  # one start's winner claimed wrongly
    assert not _check(result, flipped).ok
    if cert.covers is not None and cert.covers[0].any():
        thin = _copy(cert)
        thin.covers[0][np.flatnonzero(thin.covers[0])[0]] = False
        assert not _check(result, thin).ok
    matched = np.flatnonzero(cert.mate >= 0)
    if matched.size:
        u = int(matched[0])
        smaller = _copy(cert)
        smaller.mate[[u, cert.mate[u]]] = -1  # no longer maximum
        assert not _check(result, smaller).ok
    chained = np.flatnonzero(cert.losers & (cert.mate >= 0))
    if chained.size:
        broken = _copy(cert)
        broken.parent[chained[0]] = -1
        assert not _check(result, broken).ok


@settings(max_examples=200)
@given(graphs(bipartite=False), st.data())
def test_every_damaged_general_certificate_is_refuted(graph, data) -> None:  # type: ignore[no-untyped-def]
    n, edges = graph
    result = _solved(n, edges)
    cert = geography_certificate(result)
    v = data.draw(st.integers(0, n - 1))
    flipped = _copy(cert)
    flipped.losers[v] = not flipped.losers[v]
    assert not _check(result, flipped).ok
    matched = np.flatnonzero(cert.mate >= 0)
    if matched.size:
        u = int(matched[0])
        smaller = _copy(cert)
        smaller.mate[[u, cert.mate[u]]] = -1
        assert not _check(result, smaller).ok


def test_a_triangle_with_a_tail_needs_the_blossom_barrier() -> None:
    result = solve_geography([(0, 1), (1, 2), (2, 0), (2, 3), (3, 4)])
    cert = geography_certificate(result)
    assert not cert.bipartite and cert.barrier is not None
    assert cert.barrier.tolist() == [False, False, False, True, False]
    assert _check(result, cert).ok


def test_a_matching_along_a_missing_edge_is_refuted() -> None:
    result = solve_geography([(0, 1), (2, 3)])
    cert = _copy(geography_certificate(result))
    cert.mate[:] = [2, 3, 0, 1]  # a perfect matching, but along no edge
    assert _check(result, cert).problems[0].startswith("vertex 0: its partner 2 is not matched")


def test_components_by_hooking() -> None:
    rng = np.random.default_rng(4)
    u, v = rng.integers(0, 200, 150), rng.integers(0, 200, 150)
    import networkx as nx

    g = nx.Graph()
    g.add_nodes_from(range(200))
    g.add_edges_from(zip(u.tolist(), v.tolist(), strict=True))
    label = components(200, u, v)
    for part in nx.connected_components(g):
        assert {int(label[p]) for p in part} == {min(part)}


def test_certificate_file_round_trip_and_cli(tmp_path: Path) -> None:
    results = [_solved(5, [(0, 1), (1, 2), (2, 3)]), _solved(3, [(0, 1), (1, 2), (2, 0)])]
    path = tmp_path / "cert.npz"
    save_certificates(str(path), results)
    cases = load_certificates(str(path))
    assert len(cases) == 2 and all(check_geography_certificate(*case).ok for case in cases)
    result = run_cli(["verify", str(path)])
    assert result.code == 0 and "2 maximum matchings" in result.out
    assert "case 2 is not bipartite" in result.err
    damaged = dict(np.load(path))
    damaged["0.losers"] = ~damaged["0.losers"]
    np.savez(tmp_path / "bad.npz", **damaged)
    refused = run_cli(["verify", str(tmp_path / "bad.npz")])
    assert refused.code == 1 and refused.out.startswith("NOT VERIFIED")
    del damaged["1.mate"]
    np.savez(tmp_path / "worse.npz", **damaged)
    with pytest.raises(InputFormatError, match=r"lacks the array '1\.mate'"):
        load_certificates(str(tmp_path / "worse.npz"))
    (tmp_path / "junk.npz").write_bytes(b"PK\x03\x04 not really a zip")
    assert run_cli(["verify", str(tmp_path / "junk.npz")]).code == 2


def test_problem_writes_a_certificate(tmp_path: Path) -> None:
    path = tmp_path / "jsoi.npz"
    result = run_cli(["problem", "jsoi-game", "--certificate", str(path)], "3 3\n.##\n...\n#.#\n")
    assert result.code == 0 and result.out.startswith("WIN")
    assert run_cli(["verify", str(path)]).code == 0
    staircase = run_cli(["problem", "staircase", "--certificate", str(path)], "1 1\n5\n100\n")
    assert staircase.code == 2 and "solves no geography game" in staircase.err
