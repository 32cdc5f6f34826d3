"""Tests of GameGraph: constructors, the one validator, the reverse CSR."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay._graph_kernels import reverse_csr
from perfectplay.errors import InvalidGraphError
from perfectplay.graph import GameGraph, as_game_graph


@st.composite
def edge_lists(draw: st.DrawFn, max_n: int = 15) -> tuple[int, list[int], list[int]]:
    """Random moves over n positions: multi-edges, self-loops and move-less positions."""
    n = draw(st.integers(1, max_n))
    pos = st.integers(0, n - 1)
    edges = draw(st.lists(st.tuples(pos, pos), max_size=4 * n))
    return n, [u for u, _ in edges], [v for _, v in edges]


def moves_of(g: GameGraph) -> list[tuple[int, int]]:
    return [(p, int(c)) for p in range(g.n) for c in g.moves(p)]


# ---------------------------------------------------------------- constructors


@settings(max_examples=300)
@given(edge_lists(), st.data())
def test_from_edges_keeps_every_move_in_input_order_with_its_gain(
    case: tuple[int, list[int], list[int]], data: st.DataObject
) -> None:
    n, src, dst = case
    gain = data.draw(st.lists(st.integers(-(2**40), 2**40), min_size=len(src), max_size=len(src)))
    g = GameGraph.from_edges(src, dst, n=n, gain=gain)
    assert (g.n, g.m) == (n, len(src))
    assert g.indptr.dtype == np.int32 and g.indices.dtype == np.int32
    assert g.gain is not None and g.gain.dtype == np.int64
    assert g.out_degree().tolist() == np.bincount(src, minlength=n).tolist()
    for p in range(n):
        expected = [(v, w) for u, v, w in zip(src, dst, gain, strict=True) if u == p]
        gains = g.gain[g.indptr[p] : g.indptr[p + 1]].tolist()
        got = list(zip(g.moves(p).tolist(), gains, strict=True))
        assert got == expected


@settings(max_examples=300)
@given(edge_lists())
def test_reverse_csr_equals_a_sorted_reference(case: tuple[int, list[int], list[int]]) -> None:
    n, src, dst = case
    g = GameGraph.from_edges(src, dst, n=n)
    rindptr, rindices = g.reverse()
    assert rindptr.dtype == np.int32 and rindices.dtype == np.int32
    assert rindptr.tolist() == [0, *np.cumsum(np.bincount(dst, minlength=n)).tolist()]
    for v in range(n):
        assert g.predecessors(v).tolist() == sorted(
            u for u, w in zip(src, dst, strict=True) if w == v
        )
    assert g.reverse() is g.reverse()  # built once


@settings(max_examples=200)
@given(edge_lists(), st.integers(0, 3))
def test_bucketed_reverse_equals_the_one_pass_reverse(
    case: tuple[int, list[int], list[int]], shift: int
) -> None:
    n, src, dst = case
    g = GameGraph.from_edges(src, dst, n=n)
    direct = reverse_csr(g.indptr, g.indices)
    bucketed = reverse_csr(g.indptr, g.indices, shift=shift)
    for a, b in zip(direct, bucketed, strict=True):
        assert a.dtype == b.dtype and a.tolist() == b.tolist()


def test_from_edges_infers_n_and_keeps_isolated_positions() -> None:
    assert GameGraph.from_edges([0, 3], [1, 1]).n == 4
    assert GameGraph.from_edges([], []).n == 0
    g = GameGraph.from_edges([0], [1], n=5)
    assert g.n == 5 and g.out_degree().tolist() == [1, 0, 0, 0, 0]


def test_unsigned_ids_infer_n() -> None:  # regression: max(initial=-1) overflowed on uint
    for dtype in (np.uint8, np.uint32, np.uint64):
        g = GameGraph.from_edges(np.array([0, 1], dtype=dtype), np.array([1, 2], dtype=dtype))
        assert (g.n, moves_of(g)) == (3, [(0, 1), (1, 2)])
    assert GameGraph.from_edges(np.array([], dtype=np.uint8), np.array([], dtype=np.uint8)).n == 0


def test_undirected_edges_give_both_directions_and_both_gains() -> None:
    g = GameGraph.from_edges([0, 1], [1, 2], gain=[5, 7], undirected=True)
    assert g.undirected and g.m == 4
    assert moves_of(g) == [(0, 1), (1, 2), (1, 0), (2, 1)]
    assert g.gain is not None and g.gain.tolist() == [5, 7, 5, 7]


def test_constructor_from_csr_arrays() -> None:
    g = GameGraph(np.array([0, 2, 2, 3], dtype=np.int64), np.array([1, 2, 0], dtype=np.int16))
    assert g.indptr.dtype == np.int32 and g.indices.dtype == np.int32
    assert moves_of(g) == [(0, 1), (0, 2), (2, 0)]
    assert repr(g) == "<GameGraph n=3, m=3>"
    scored = GameGraph([0, 1], [0], gain=[4], undirected=True)
    assert repr(scored) == "<GameGraph undirected, n=1, m=1, scored>"


@pytest.mark.parametrize("fmt", ["csr", "coo", "lil"])
def test_from_scipy_keeps_explicit_zeros(fmt: str) -> None:
    coo = sp.coo_matrix(([1.0, 0.0, 2.0], ([0, 1, 2], [1, 2, 2])), shape=(4, 4))
    g = GameGraph.from_scipy(coo.asformat(fmt))
    assert g.n == 4 and moves_of(g) == [(0, 1), (1, 2), (2, 2)]
    sym = GameGraph.from_scipy(coo.asformat(fmt), undirected=True)
    assert sorted(moves_of(sym)) == [(0, 1), (1, 0), (1, 2), (2, 1), (2, 2), (2, 2)]


def test_from_networkx_digraph_graph_and_multigraph() -> None:
    dg = nx.DiGraph([("a", "b"), ("b", "c"), ("c", "a")])
    dg.add_node("lonely")
    g = GameGraph.from_networkx(dg)
    assert g.labels == ["a", "b", "c", "lonely"] and not g.undirected
    assert moves_of(g) == [(0, 1), (1, 2), (2, 0)]
    ug = GameGraph.from_networkx(nx.Graph([(10, 20), (20, 30)]))
    assert ug.undirected and ug.labels == [10, 20, 30]
    assert sorted(moves_of(ug)) == [(0, 1), (1, 0), (1, 2), (2, 1)]
    mg = GameGraph.from_networkx(nx.MultiDiGraph([(0, 1), (0, 1)]))
    assert moves_of(mg) == [(0, 1), (0, 1)]
    assert GameGraph.from_networkx(nx.DiGraph()).n == 0


def test_as_game_graph_normalises_every_supported_form() -> None:
    g = GameGraph.from_edges([0], [1])
    assert as_game_graph(g) is g
    expected = [(0, 1), (1, 2)]
    forms = [
        [(0, 1), (1, 2)],
        np.array([[0, 1], [1, 2]]),
        ([0, 1, 2], [1, 2, 0]),
        sp.csr_matrix(([1, 1], ([0, 1], [1, 2])), shape=(3, 3)),
        nx.DiGraph([(0, 1), (1, 2)]),
    ]
    for form in forms:
        got = as_game_graph(form)
        assert moves_of(got)[:2] == expected
    assert moves_of(as_game_graph(([0, 1, 2], [1, 2, 0]))) == [(0, 1), (1, 2), (2, 0)]
    assert as_game_graph([]).n == 0
    assert as_game_graph([(0, 1)], undirected=True).m == 2


# ---------------------------------------------------------------- the validator


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (
            lambda: GameGraph.from_edges([[0]], [[1]]),
            r"src must be one-dimensional, got shape \(1, 1\)",
        ),
        (lambda: GameGraph.from_edges([0, 1], [1]), "same length, got 2 and 1"),
        (lambda: GameGraph.from_edges([0, -1], [1, 1]), r"src\[1\] = -1 is not a position id"),
        (lambda: GameGraph.from_edges([0, 1], [1, 9], n=3), r"dst\[1\] = 9 .*expected 0\.\.2"),
        (lambda: GameGraph.from_edges([0.0], [1.0]), "src must hold integers, got dtype float64"),
        (lambda: GameGraph.from_edges([True], [False]), "src must hold integers, got dtype bool"),
        (lambda: GameGraph.from_edges([0], [1], n=-1), "n must be a non-negative integer, got -1"),
        (lambda: GameGraph.from_edges([0], [1], n=True), "got True"),
        (lambda: GameGraph.from_edges([0], [1], n=2.0), "got 2.0"),  # type: ignore[arg-type]
        (lambda: GameGraph.from_edges([0], [1], gain=[1, 2]), r"one entry per move \(1\), got 2"),
        (lambda: GameGraph.from_edges([0], [1], gain=[0.5]), "gain must hold integers"),
        (lambda: GameGraph.from_edges([[0], [1, 2]], [1, 2]), "src must be a 1-D array"),
        (lambda: GameGraph([], []), "at least one entry"),
        (lambda: GameGraph([[0, 1]], [0]), "indptr must be one-dimensional"),
        (lambda: GameGraph([1, 1], [0]), r"indptr\[0\] = 1, expected 0"),
        (lambda: GameGraph([0, 2, 1], [0, 0]), r"indptr\[2\] = 1 < indptr\[1\] = 2"),
        (lambda: GameGraph([0, 2], [0]), r"indptr\[-1\] = 2 must equal the number of moves 1"),
        (lambda: GameGraph([0, 1, 1], [2]), r"indices\[0\] = 2 is not a position id"),
        (lambda: GameGraph([0, 1], [0.0]), "indices must hold integers, got dtype float64"),
        (lambda: GameGraph([0, 1], [0], gain=[1, 2]), r"one entry per move \(1\), got 2"),
        (
            lambda: GameGraph([0, 1], [0], labels=["a", "b"]),
            "labels must name all 1 positions, got 2",
        ),
        (lambda: GameGraph.from_scipy(np.eye(2)), "expected a scipy sparse matrix, got ndarray"),
        (lambda: GameGraph.from_scipy(sp.csr_matrix((2, 3))), r"square, got shape \(2, 3\)"),
        (lambda: GameGraph.from_networkx([1, 2]), "expected a networkx graph, got list"),
        (lambda: as_game_graph("abc"), "cannot read a game graph from str"),
        (lambda: as_game_graph(np.zeros((3, 3), dtype=int)), r"of shape \(3, 3\)"),
        (lambda: as_game_graph([[0, 1], [2]]), "cannot read a game graph from list"),
    ],
)
def test_bad_graphs_raise_one_error_naming_what_and_where(build: object, message: str) -> None:
    with pytest.raises(InvalidGraphError, match=message):
        build()  # type: ignore[operator]


def test_unsigned_indptr_that_decreases_is_caught() -> None:
    with pytest.raises(InvalidGraphError, match=r"indptr\[2\] = 3 < indptr\[1\] = 5"):
        GameGraph(np.array([0, 5, 3], dtype=np.uint64), np.zeros(3, dtype=np.int64))
