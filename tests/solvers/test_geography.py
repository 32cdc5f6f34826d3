"""Vertex geography by maximum matching: cross-checked against exhaustive game-tree search,
networkx matchings, and by playing both strategies out against every opponent reply."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from brute import gallai_edmonds_d, geography_mover_wins, max_matching_size
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.errors import InvalidGraphError, LosingPositionError, PositionNotFoundError
from perfectplay.graph import GameGraph
from perfectplay.solvers._bipartite import alternating_reach, flip_to, pothen_fan, two_colour
from perfectplay.solvers.geography import (
    GeographyResult,
    solve_geography,
    solve_geography_bipartite,
    solve_geography_general,
)

Edges = list[tuple[int, int]]


# ---------------------------------------------------------------- random instances
@st.composite
def any_graphs(draw: st.DrawFn, max_n: int = 10) -> tuple[int, Edges]:
    """A random undirected graph: odd cycles, self-loops, repeated edges, isolated vertices."""
    n = draw(st.integers(0, max_n))
    if n == 0:
        return 0, []
    node = st.integers(0, n - 1)
    return n, draw(st.lists(st.tuples(node, node), max_size=2 * n))


@st.composite
def bipartite_graphs(draw: st.DrawFn, max_n: int = 10, density: int = 2) -> tuple[int, Edges]:
    """A random bipartite graph with a random 2-colouring (colours are not id ranges)."""
    n = draw(st.integers(0, max_n))
    side = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    pairs = [(u, v) for u in range(n) for v in range(u + 1, n) if side[u] != side[v]]
    edges = draw(st.lists(st.sampled_from(pairs), max_size=density * n)) if pairs else []
    return n, [(v, u) if draw(st.booleans()) else (u, v) for u, v in edges]


@st.composite
def blossom_graphs(draw: st.DrawFn) -> tuple[int, Edges]:
    """Odd cycles glued together (nested blossoms) plus random chords, tails and components."""
    edges: Edges = []
    n = 0
    for _ in range(draw(st.integers(1, 3))):
        length = draw(st.sampled_from([1, 3, 5]))
        cycle = list(range(n, n + length))
        if length > 1:
            edges += [(cycle[i], cycle[(i + 1) % length]) for i in range(length)]
        if n and draw(st.booleans()):  # glue to the previous part: a blossom in a blossom
            edges.append((draw(st.integers(0, n - 1)), cycle[0]))
        n += length
    n_extra = draw(st.integers(0, 2))
    n += n_extra
    node = st.integers(0, n - 1)
    edges += draw(st.lists(st.tuples(node, node), max_size=3))
    return n, edges


# ---------------------------------------------------------------- checks
def _neighbours(n: int, edges: Edges) -> list[set[int]]:
    adjacent: list[set[int]] = [set() for _ in range(n)]
    for u, v in edges:
        if u != v:
            adjacent[u].add(v)
            adjacent[v].add(u)
    return adjacent


def _solve(n: int, edges: Edges) -> GeographyResult:
    src = [u for u, _ in edges]
    dst = [v for _, v in edges]
    return solve_geography(GameGraph.from_edges(src, dst, n=n, undirected=True))


def _check_matching(mate: np.ndarray, adjacent: list[set[int]], size: int) -> None:
    """`mate` is a matching of the graph with exactly `size` edges."""
    for v, w in enumerate(mate.tolist()):
        if w >= 0:
            assert mate[w] == v
            assert w in adjacent[v]
    assert int(np.count_nonzero(mate >= 0)) == 2 * size


def _nx_matching_size(n: int, edges: Edges) -> int:
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from((u, v) for u, v in edges if u != v)
    return len(nx.max_weight_matching(graph, maxcardinality=True))


def _winner_wins(result: GeographyResult, adjacent: list[set[int]], start: int) -> None:
    """Play the winner's strategy from `start` against every possible loser; it must win."""
    mover_wins = bool(result.mover_wins[start])

    def winner_moves(at: int, visited: frozenset[int]) -> None:
        answer = result.reply(start, at)
        assert answer is not None, f"no answer at {at} (start {start})"
        assert answer in adjacent[at] and answer not in visited
        loser_moves(answer, visited | {answer})

    def loser_moves(at: int, visited: frozenset[int]) -> None:
        for w in adjacent[at] - visited:
            winner_moves(w, visited | {w})

    if mover_wins:
        first = result.winning_move(start)
        assert first == result.reply(start, start)
        assert first in adjacent[start]
        loser_moves(first, frozenset({start, first}))
    else:
        loser_moves(start, frozenset({start}))


def _check_everything(n: int, edges: Edges) -> None:
    result = _solve(n, edges)
    adjacent = _neighbours(n, edges)
    expected = geography_mover_wins(n, edges)
    assert result.mover_wins.tolist() == expected
    assert (result.in_d == ~result.mover_wins).all()
    assert result.value.tolist() == [3 if w else 0 for w in expected]
    size = _nx_matching_size(n, edges)
    assert result.matching_size == size
    _check_matching(result.mate, adjacent, size)
    for v in range(n):
        _winner_wins(result, adjacent, v)
        if result.in_d[v]:
            # The second player's answers form a maximum matching that misses v.
            answers = np.array([-1 if (a := result.reply(v, w)) is None else a for w in range(n)])
            assert answers[v] == -1
            _check_matching(answers, adjacent, size)


# ---------------------------------------------------------------- cross-checks
@settings(max_examples=400)
@given(bipartite_graphs())
def test_bipartite_matches_brute_force_and_strategies_win(graph: tuple[int, Edges]) -> None:
    n, edges = graph
    _check_everything(n, edges)
    assert _solve(n, edges).bipartite


@settings(max_examples=150)
@given(bipartite_graphs(density=8))
def test_dense_bipartite_greedy_start(graph: tuple[int, Edges]) -> None:
    """Mean degree >= 6 takes the one-pass greedy start instead of Karp–Sipser."""
    n, edges = graph
    _check_everything(n, edges)


@settings(max_examples=400)
@given(any_graphs())
def test_any_graph_matches_brute_force_and_strategies_win(graph: tuple[int, Edges]) -> None:
    _check_everything(*graph)


@settings(max_examples=300)
@given(blossom_graphs())
def test_blossoms_match_brute_force_and_strategies_win(graph: tuple[int, Edges]) -> None:
    n, edges = graph
    _check_everything(n, edges)
    assert _solve(n, edges).in_d.tolist() == gallai_edmonds_d(n, edges)


@settings(max_examples=200)
@given(bipartite_graphs(max_n=12))
def test_general_solver_agrees_with_bipartite_solver(graph: tuple[int, Edges]) -> None:
    n, edges = graph
    g = GameGraph.from_edges([u for u, _ in edges], [v for _, v in edges], n=n, undirected=True)
    bip = solve_geography_bipartite(g)
    gen = solve_geography_general(g)
    assert (bip.in_d == gen.in_d).all()
    assert bip.matching_size == gen.matching_size == max_matching_size(n, edges)
    assert (bip.bipartite, gen.bipartite) == (True, False)
    assert bip.algorithm != gen.algorithm


@settings(max_examples=40)
@given(st.integers(2, 14), st.integers(2, 14), st.floats(0.0, 0.4), st.integers(0, 2**32 - 1))
def test_grids_with_walls_against_networkx(rows: int, cols: int, walls: float, seed: int) -> None:
    """Long augmenting paths, Hungarian trees: D(G) = {v : nu(G - v) = nu(G)}."""
    rng = np.random.default_rng(seed)
    grid = nx.grid_2d_graph(rows, cols)
    grid.remove_nodes_from([c for c in list(grid.nodes) if rng.random() < walls])
    graph = nx.convert_node_labels_to_integers(grid, label_attribute="cell")
    result = solve_geography(graph)
    assert result.bipartite
    black = {v for v, (r, c) in graph.nodes(data="cell") if (r + c) % 2 == 0}

    def nu(h: nx.Graph) -> int:
        return len(nx.bipartite.hopcroft_karp_matching(h, top_nodes=black & set(h))) // 2

    size = nu(graph)
    assert result.matching_size == size
    for v in graph.nodes:
        rest = graph.copy()
        rest.remove_node(v)
        assert bool(result.in_d[v]) == (nu(rest) == size)


@settings(max_examples=150)
@given(st.integers(10, 80), st.floats(0.6, 3.0), st.integers(0, 2**32 - 1))
def test_sparse_random_bipartite_against_networkx(n: int, degree: float, seed: int) -> None:
    """Many free vertices after the greedy start: blocked and resumed searches, deleted trees."""
    rng = np.random.default_rng(seed)
    m = int(degree * n / 2)
    left = n // 2
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from(
        zip(rng.integers(0, left, m).tolist(), rng.integers(left, n, m).tolist(), strict=True)
    )
    result = solve_geography(graph)
    top = set(range(left))

    def nu(h: nx.Graph) -> int:
        return len(nx.bipartite.hopcroft_karp_matching(h, top_nodes=top & set(h))) // 2

    size = nu(graph)
    assert result.matching_size == size
    _check_matching(result.mate, [set(graph[v]) for v in range(n)], size)
    for v in range(n):
        rest = graph.copy()
        rest.remove_node(v)
        assert bool(result.in_d[v]) == (nu(rest) == size)


@settings(max_examples=300)
@given(bipartite_graphs(max_n=14))
def test_pothen_fan_from_an_empty_matching(graph: tuple[int, Edges]) -> None:
    """No greedy start: many searches per phase block one another, resume, and augment."""
    n, edges = graph
    g = GameGraph.from_edges([u for u, _ in edges], [v for _, v in edges], n=n, undirected=True)
    odd, colour = two_colour(g.indptr, g.indices)
    assert odd == -1
    mate = np.full(n, -1, dtype=g.indices.dtype)
    in_d = np.zeros(n, dtype=np.bool_)
    parent = np.full(n, -1, dtype=g.indices.dtype)
    pothen_fan(g.indptr, g.indices, colour, mate, in_d, parent)
    in_d[colour == 1] = False
    alternating_reach(g.indptr, g.indices, mate, colour, 1, in_d, parent)
    size = max_matching_size(n, edges)
    _check_matching(mate, _neighbours(n, edges), size)
    assert in_d.tolist() == gallai_edmonds_d(n, edges)
    for v in np.flatnonzero(in_d).tolist():  # the stored paths give matchings missing v
        _check_matching(flip_to(mate, parent, v), _neighbours(n, edges), size)
        assert flip_to(mate, parent, v)[v] == -1


@pytest.mark.parametrize("seed", range(4))
def test_walled_80x80_grid_matching_is_maximum(seed: int) -> None:
    """Large enough for searches that resume through another search's region and augment."""
    rng = np.random.default_rng(seed)
    grid = nx.grid_2d_graph(80, 80)
    grid.remove_nodes_from([c for c in list(grid.nodes) if rng.random() < 0.1])
    graph = nx.convert_node_labels_to_integers(grid, label_attribute="cell")
    black = {v for v, (r, c) in graph.nodes(data="cell") if (r + c) % 2 == 0}
    result = solve_geography(graph)
    size = len(nx.bipartite.hopcroft_karp_matching(graph, top_nodes=black)) // 2
    _check_matching(result.mate, [set(graph[v]) for v in graph.nodes], size)
    assert result.in_d[result.mate < 0].all()
    for v in rng.choice(np.flatnonzero(result.in_d), 20).tolist():
        answers = np.array([-1 if (a := result.reply(v, w)) is None else a for w in graph.nodes])
        assert answers[v] == -1
        _check_matching(answers, [set(graph[u]) for u in graph.nodes], size)


@pytest.mark.parametrize("degree", [4, 12])
@pytest.mark.parametrize("seed", range(3))
def test_medium_random_bipartite_size_matches_scipy(seed: int, degree: int) -> None:
    rng = np.random.default_rng(seed)
    half = 3000
    src = rng.integers(0, half, degree * half)
    dst = rng.integers(half, 2 * half, degree * half)
    g = GameGraph.from_edges(src, dst, n=2 * half, undirected=True)
    result = solve_geography(g)
    assert result.algorithm == ("greedy+pothen-fan" if degree >= 6 else "karp-sipser+pothen-fan")
    biadjacency = sp.csr_matrix((np.ones(src.size), (src, dst - half)), shape=(half, half))
    matched = sp.csgraph.maximum_bipartite_matching(biadjacency, perm_type="column")
    assert result.matching_size == int(np.count_nonzero(matched >= 0))
    assert result.bipartite
    # Every exposed vertex is in D(G); every vertex in D(G) has only neighbours outside it
    # (in a bipartite graph D(G) is an independent set: the vertices on one side of each
    # alternating tree).
    assert result.in_d[result.mate < 0].all()
    assert not (result.in_d[src] & result.in_d[dst]).any()


# ---------------------------------------------------------------- hand-made cases
def test_empty_graph() -> None:
    result = solve_geography(GameGraph.from_edges([], [], n=0, undirected=True))
    assert result.mover_wins.shape == (0,)
    assert result.matching_size == 0
    assert result.bipartite


def test_isolated_vertex_is_a_loss_for_the_mover() -> None:
    result = solve_geography(GameGraph.from_edges([0], [1], n=3, undirected=True))
    assert result.mover_wins.tolist() == [True, True, False]
    assert result.reply(2, 2) is None
    with pytest.raises(LosingPositionError, match="vertex 2 loses"):
        result.winning_move(2)


def test_self_loops_are_ignored() -> None:
    plain = solve_geography([(0, 1), (1, 2)])
    looped = solve_geography([(0, 1), (1, 1), (1, 2), (2, 2)])
    assert looped.bipartite
    assert looped.mover_wins.tolist() == plain.mover_wins.tolist() == [False, True, False]
    assert solve_geography([(0, 0)]).mover_wins.tolist() == [False]


def test_odd_cycle_with_a_tail() -> None:
    result = solve_geography([(0, 1), (1, 2), (2, 0), (2, 3), (3, 4)])
    assert not result.bipartite
    assert result.mover_wins.tolist() == [False, False, False, True, False]
    assert result.winning_move(3) in (2, 4)


def test_components_are_independent() -> None:
    # A 4-cycle (perfect matching: all win), a triangle (all lose), an isolated vertex.
    edges = [(0, 1), (1, 2), (2, 3), (3, 0), (4, 5), (5, 6), (6, 4)]
    result = solve_geography(GameGraph.from_edges(*zip(*edges, strict=True), n=8, undirected=True))
    assert result.mover_wins.tolist() == [True] * 4 + [False] * 4


def test_input_forms_agree() -> None:
    edges = np.array([(0, 1), (1, 2), (2, 3), (1, 4)])
    nxg = nx.Graph()
    nxg.add_edges_from(edges.tolist())
    matrix = sp.coo_matrix((np.ones(len(edges)), (edges[:, 0], edges[:, 1])), shape=(5, 5))
    directed = GameGraph.from_edges(
        np.concatenate([edges[:, 0], edges[:, 1]]), np.concatenate([edges[:, 1], edges[:, 0]])
    )
    expected = solve_geography(edges).mover_wins.tolist()
    assert expected == geography_mover_wins(5, [tuple(e) for e in edges.tolist()])
    for form in (edges.T, nxg, matrix, directed, nxg.to_directed()):
        assert solve_geography(form).mover_wins.tolist() == expected


def test_directed_graph_without_twins_is_rejected() -> None:
    with pytest.raises(InvalidGraphError, match="move 1 -> 2 has no twin 2 -> 1"):
        solve_geography(GameGraph.from_edges([0, 1, 1], [1, 0, 2], n=3))
    digraph = nx.DiGraph([(0, 1)])
    with pytest.raises(InvalidGraphError, match="no twin"):
        solve_geography(digraph)


def test_bipartite_solver_rejects_odd_cycles() -> None:
    with pytest.raises(InvalidGraphError, match="not bipartite"):
        solve_geography_bipartite([(0, 1), (1, 2), (2, 0)])


def test_bad_vertices_are_rejected() -> None:
    result = solve_geography([(0, 1)])
    for bad in (-1, 2, 1.0, True):
        with pytest.raises(PositionNotFoundError, match="not a vertex"):
            result.winning_move(bad)  # type: ignore[arg-type]
        with pytest.raises(PositionNotFoundError, match="not a vertex"):
            result.reply(0, bad)  # type: ignore[arg-type]
    assert result.winning_move(np.int64(0)) == 1


def test_losing_start_raises_a_value_error() -> None:
    result = solve_geography([(0, 1), (1, 2)])
    with pytest.raises(ValueError, match="vertex 0 loses"):
        result.winning_move(0)


def test_repr_summarises() -> None:
    text = repr(solve_geography([(0, 1), (1, 2)]))
    assert text.startswith("<GeographyResult n=3, matching_size=1, mover wins from 1")
