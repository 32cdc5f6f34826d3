"""Edmonds' blossom matching and the Gallai–Edmonds set D(G) on general graphs.

Small graphs are checked against the brute force in ``tests/brute.py`` (exhaustive maximum
matching size, and D(G) by its definition); larger ones against networkx (size) and against a
Tutte–Berge certificate built from the returned D(G) (which proves the matching maximum).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from brute import gallai_edmonds_d, max_matching_size
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse.csgraph import connected_components

from perfectplay.errors import TooLargeError
from perfectplay.solvers._blossom import _edmonds, general_matching
from perfectplay.solvers._greedy_matching import karp_sipser

Edges = list[tuple[int, int]]


def csr(n: int, edges: Edges, dtype: Any = np.int32) -> tuple[np.ndarray, np.ndarray]:
    """Symmetric CSR (every edge in both directions, duplicates merged)."""
    if edges:
        arr = np.array(edges, dtype=np.int64)
        rows = np.concatenate([arr[:, 0], arr[:, 1]])
        cols = np.concatenate([arr[:, 1], arr[:, 0]])
    else:
        rows = cols = np.zeros(0, dtype=np.int64)
    a = sp.csr_matrix((np.ones(rows.size), (rows, cols)), shape=(n, n))
    a.sum_duplicates()
    return a.indptr.astype(dtype), a.indices.astype(dtype)


def assert_valid_matching(n: int, edges: Edges, mate: np.ndarray) -> int:
    """`mate` is a matching of the graph; returns its number of edges."""
    edge_set = {(min(u, v), max(u, v)) for u, v in edges}
    assert mate.shape == (n,)
    for v in range(n):
        w = int(mate[v])
        if w >= 0:
            assert w != v
            assert int(mate[w]) == v
            assert (min(v, w), max(v, w)) in edge_set
        else:
            assert w == -1
    return int((mate >= 0).sum()) // 2


def assert_tutte_berge(
    indptr: np.ndarray, indices: np.ndarray, mate: np.ndarray, in_d: Any
) -> None:
    """D and A = N(D) - D certify the matching maximum: the components of G - A made of D
    vertices are odd, those made of other vertices even, and #odd - |A| = #exposed."""
    n = indptr.shape[0] - 1
    src = np.repeat(np.arange(n), np.diff(indptr))
    a_set = np.zeros(n, dtype=bool)
    a_set[indices[in_d[src]]] = True
    a_set &= ~in_d
    keep = ~a_set[src] & ~a_set[indices]
    g = sp.csr_matrix((np.ones(int(keep.sum())), (src[keep], indices[keep])), shape=(n, n))
    _, comp = connected_components(g, directed=False)
    comp = comp[~a_set]
    d_of = in_d[~a_set]
    sizes = np.bincount(comp)
    d_count = np.bincount(comp, weights=d_of.astype(float)).astype(np.int64)
    present = sizes > 0
    # each component is all-D or D-free
    assert np.all((d_count[present] == 0) | (d_count[present] == sizes[present]))
    odd = present & (d_count > 0)
    assert np.all(sizes[odd] % 2 == 1)
    assert np.all(sizes[present & ~odd] % 2 == 0)
    exposed = int((mate < 0).sum())
    assert int(odd.sum()) - int(a_set.sum()) == exposed


def check_small(n: int, edges: Edges) -> None:
    """general_matching and the bare Edmonds kernel (from an empty matching) against brute."""
    size = max_matching_size(n, edges)
    d = gallai_edmonds_d(n, edges)
    indptr, indices = csr(n, edges)
    mate, in_d = general_matching(indptr, indices)
    assert mate.dtype == indices.dtype
    assert assert_valid_matching(n, edges, mate) == size
    assert in_d.tolist() == d
    mate0 = np.full(n, -1, dtype=indices.dtype)
    in_d0 = np.zeros(n, dtype=bool)
    _edmonds(indptr, indices, mate0, in_d0)
    assert assert_valid_matching(n, edges, mate0) == size
    assert in_d0.tolist() == d


def relabel(n: int, edges: Edges, perm: list[int]) -> Edges:
    return [(perm[u], perm[v]) for u, v in edges]


def odd_cycle(k: int) -> Edges:
    return [(i, (i + 1) % k) for i in range(k)]


def nested_blossom(levels: int, arms: int = 3) -> tuple[int, Edges]:
    """A blossom of blossoms: an `arms`-cycle (arms odd) whose vertices are each a copy of
    the previous level, linked through the copies' vertex 0 (their base)."""
    n, edges = 1, []
    for _ in range(levels):
        copies = [(i * n, [(u + i * n, v + i * n) for u, v in edges]) for i in range(arms)]
        edges = [e for _, es in copies for e in es]
        edges += [(copies[i][0], copies[(i + 1) % arms][0] + n // 2) for i in range(arms)]
        n *= arms
    return n, edges


def flower(petals: int, petal_len: int, stem: int) -> tuple[int, Edges]:
    """Odd cycles (petals) sharing one vertex 0, with a path (stem) hanging from it."""
    edges: Edges = []
    n = 1
    for _ in range(petals):
        ring = [0, *range(n, n + petal_len - 1)]
        edges += [(ring[i], ring[(i + 1) % petal_len]) for i in range(petal_len)]
        n += petal_len - 1
    prev = 0
    for _ in range(stem):
        edges.append((prev, n))
        prev = n
        n += 1
    return n, edges


@st.composite
def random_graphs(draw: st.DrawFn, max_n: int = 12) -> tuple[int, Edges]:
    n = draw(st.integers(0, max_n))
    pairs = list(combinations(range(n), 2))
    if not pairs:
        return n, []
    return n, sorted(draw(st.sets(st.sampled_from(pairs))))


@st.composite
def structured_graphs(draw: st.DrawFn) -> tuple[int, Edges]:
    """Disjoint unions of odd cycles, cliques, flowers, nested blossoms, paths and isolated
    vertices, shuffled, plus a few random extra edges."""
    n, edges = 0, []
    while n < 11:
        kind = draw(st.sampled_from(["cycle", "clique", "flower", "nested", "path", "single"]))
        if kind == "cycle":
            k = draw(st.sampled_from([3, 5, 7]))
            part: tuple[int, Edges] = (k, odd_cycle(k))
        elif kind == "clique":
            k = draw(st.integers(2, 5))
            part = (k, list(combinations(range(k), 2)))
        elif kind == "flower":
            part = flower(
                draw(st.integers(1, 3)), draw(st.sampled_from([3, 5])), draw(st.integers(0, 2))
            )
        elif kind == "nested":
            part = nested_blossom(2)
        elif kind == "path":
            k = draw(st.integers(2, 6))
            part = (k, [(i, i + 1) for i in range(k - 1)])
        else:
            part = (1, [])
        if n + part[0] > 14:
            break
        edges += [(u + n, v + n) for u, v in part[1]]
        n += part[0]
    perm = draw(st.permutations(range(n)))
    edges = relabel(n, edges, perm)
    if n >= 2:
        extra = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3))
        edges += [(u, v) for u, v in extra if u != v]
    return n, sorted({(min(u, v), max(u, v)) for u, v in edges})


@settings(max_examples=300)
@given(random_graphs())
def test_random_small_graphs_match_brute_force(graph: tuple[int, Edges]) -> None:
    check_small(*graph)


@settings(max_examples=200)
@given(structured_graphs())
def test_structured_small_graphs_match_brute_force(graph: tuple[int, Edges]) -> None:
    check_small(*graph)


@settings(max_examples=150)
@given(random_graphs(max_n=11), st.randoms(use_true_random=False))
def test_edmonds_from_any_matching(graph: tuple[int, Edges], rnd: Any) -> None:
    """The Edmonds kernel completes an arbitrary (not maximal) starting matching."""
    n, edges = graph
    order = list(edges)
    rnd.shuffle(order)
    indptr, indices = csr(n, edges, np.int64)
    mate = np.full(n, -1, dtype=np.int64)
    for u, v in order:
        if mate[u] < 0 and mate[v] < 0 and rnd.random() < 0.7:
            mate[u], mate[v] = v, u
    in_d = np.zeros(n, dtype=bool)
    _edmonds(indptr, indices, mate, in_d)
    assert assert_valid_matching(n, edges, mate) == max_matching_size(n, edges)
    assert in_d.tolist() == gallai_edmonds_d(n, edges)


@pytest.mark.parametrize(
    ("n", "edges", "size", "d"),
    [
        (0, [], 0, []),
        (1, [], 0, [True]),
        (3, odd_cycle(3), 1, [True] * 3),
        (4, [(0, 1), (1, 2), (2, 3)], 2, [False] * 4),
        (3, [(0, 1), (1, 2)], 1, [True, False, True]),
        (4, list(combinations(range(4), 2)), 2, [False] * 4),
        # hamilg sample 2 (0-based): D is the four leaves hanging from vertices 0 and 2
        (8, [(2, 1), (0, 1), (3, 1), (4, 0), (5, 2), (6, 0), (7, 2)], 3, [False] * 4 + [True] * 4),
    ],
)
def test_known_graphs(n: int, edges: Edges, size: int, d: list[bool]) -> None:
    mate, in_d = general_matching(*csr(n, edges))
    assert assert_valid_matching(n, edges, mate) == size
    assert in_d.tolist() == d


def test_nested_and_flower_blossoms_are_factor_critical() -> None:
    """Blossoms of blossoms and flowers without stem are factor-critical: D is everything."""
    for n, edges in [nested_blossom(3), nested_blossom(2, arms=5), flower(4, 5, 0)]:
        mate, in_d = general_matching(*csr(n, edges))
        assert assert_valid_matching(n, edges, mate) == (n - 1) // 2
        assert in_d.all()
        mate0 = np.full(n, -1, dtype=np.int32)
        in_d0 = np.zeros(n, dtype=bool)
        _edmonds(*csr(n, edges), mate0, in_d0)
        assert assert_valid_matching(n, edges, mate0) == (n - 1) // 2
        assert in_d0.all()


def test_deeply_nested_blossoms_from_an_empty_matching() -> None:
    """Seven levels of blossoms inside blossoms (2187 vertices): every augmentation runs the
    iterative rematch through many nested bridges; the graph is factor-critical."""
    n, edges = nested_blossom(7)
    indptr, indices = csr(n, edges)
    for start in ("empty", "karp-sipser"):
        if start == "empty":
            mate = np.full(n, -1, dtype=indices.dtype)
            in_d = np.zeros(n, dtype=bool)
            _edmonds(indptr, indices, mate, in_d)
        else:
            mate, in_d = general_matching(indptr, indices)
        assert assert_valid_matching(n, edges, mate) == (n - 1) // 2
        assert in_d.all()


def test_flower_with_a_stem() -> None:
    """A flower (13 vertices) with a stem: with 3 stem vertices the graph has a perfect
    matching (D empty); with 2, the stem's middle vertex is always covered and everything
    else is in D (the petals are factor-critical, the stem's end can take the blame)."""
    n, edges = flower(3, 5, 3)
    mate, in_d = general_matching(*csr(n, edges))
    assert assert_valid_matching(n, edges, mate) == n // 2
    assert not in_d.any()
    n, edges = flower(3, 5, 2)
    mate, in_d = general_matching(*csr(n, edges))
    assert assert_valid_matching(n, edges, mate) == n // 2
    assert in_d.tolist() == [v != 13 for v in range(n)]
    assert in_d.tolist() == gallai_edmonds_d(n, edges)


@pytest.mark.parametrize("n", [300, 1000])
@pytest.mark.parametrize("mean_degree", [2, 3, 6])
def test_random_graphs_match_networkx_size(n: int, mean_degree: int) -> None:
    g = nx.gnm_random_graph(n, n * mean_degree // 2, seed=n + mean_degree)
    edges = list(g.edges())
    indptr, indices = csr(n, edges)
    mate, in_d = general_matching(indptr, indices)
    size = len(nx.max_weight_matching(g, maxcardinality=True))
    assert assert_valid_matching(n, edges, mate) == size
    assert_tutte_berge(indptr, indices, mate, in_d)


def test_d_matches_networkx_on_mid_sized_graphs() -> None:
    """D(G) by its definition, with networkx, on graphs too big for the exhaustive search."""
    rng = np.random.default_rng(7)
    for trial in range(4):
        n = 40
        g = nx.gnm_random_graph(n, int(rng.integers(30, 60)), seed=trial)
        size = len(nx.max_weight_matching(g, maxcardinality=True))
        d = []
        for v in range(n):
            h = g.copy()
            h.remove_node(v)
            d.append(len(nx.max_weight_matching(h, maxcardinality=True)) == size)
        mate, in_d = general_matching(*csr(n, list(g.edges())))
        assert int((mate >= 0).sum()) // 2 == size
        assert in_d.tolist() == d


@pytest.mark.parametrize("seed", [1, 2])
def test_large_random_graph_has_tutte_berge_certificate(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = 20000
    edges = [tuple(e) for e in rng.integers(0, n, size=(2 * n, 2)).tolist() if e[0] != e[1]]
    indptr, indices = csr(n, edges)
    mate, in_d = general_matching(indptr, indices)
    assert_valid_matching(n, edges, mate)
    assert_tutte_berge(indptr, indices, mate, in_d)


def test_karp_sipser_gives_a_maximal_matching() -> None:
    n, edges = nested_blossom(2, arms=5)
    indptr, indices = csr(n, edges)
    mate = np.full(n, -1, dtype=indices.dtype)
    size = karp_sipser(indptr, indices, mate)
    assert assert_valid_matching(n, edges, mate) == size
    assert all(mate[u] >= 0 or mate[v] >= 0 for u, v in edges)


def test_int64_input_keeps_dtype() -> None:
    mate, in_d = general_matching(*csr(5, odd_cycle(5), np.int64))
    assert mate.dtype == np.int64
    assert in_d.dtype == np.bool_
    assert in_d.all()


def test_oversized_graph_is_refused_before_allocating(monkeypatch: pytest.MonkeyPatch) -> None:
    import perfectplay._memory

    monkeypatch.setattr(perfectplay._memory, "available_bytes", lambda: 1 << 20)
    n = 2_000_000
    with pytest.raises(TooLargeError, match="maximum matching on 2000000 vertices"):
        general_matching(np.zeros(n + 1, dtype=np.int64), np.zeros(0, dtype=np.int32))


def raw_csr(n: int, pairs: Edges) -> tuple[np.ndarray, np.ndarray]:
    """CSR keeping every pair as given, both directions: repeated edges and self-loops stay."""
    src = np.array([u for u, v in pairs] + [v for u, v in pairs], dtype=np.int64)
    dst = np.array([v for u, v in pairs] + [u for u, v in pairs], dtype=np.int32)
    order = np.argsort(src, kind="stable")
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.add.at(indptr, src + 1, 1)
    return np.cumsum(indptr), dst[order]


def test_repeated_edges_above_n_regression() -> None:
    """Karp–Sipser once took n + 1 as "infinite degree": with repeated edges a neighbour's
    degree exceeds n, no partner was chosen and the matching was corrupted (a triangle with
    doubled and tripled edges plus an isolated vertex)."""
    pairs = [(0, 2), (0, 2), (0, 3), (0, 3), (2, 3), (2, 3), (2, 3)]
    mate, in_d = general_matching(*raw_csr(4, pairs))
    assert assert_valid_matching(4, pairs, mate) == 1
    assert in_d.all()


@settings(max_examples=150)
@given(random_graphs(max_n=9), st.lists(st.integers(0, 8), max_size=4), st.integers(1, 4))
def test_repeated_edges_and_self_loops_change_nothing(
    graph: tuple[int, Edges], loops: list[int], copies: int
) -> None:
    n, edges = graph
    pairs = edges * copies + [(v, v) for v in loops if v < n]
    mate, in_d = general_matching(*raw_csr(n, pairs))
    assert assert_valid_matching(n, edges, mate) == max_matching_size(n, edges)
    assert in_d.tolist() == gallai_edmonds_d(n, edges)
