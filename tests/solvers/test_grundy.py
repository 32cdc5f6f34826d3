"""Sprague–Grundy solver: cross-checked against the brute-force mex, Nim, and sums of games."""

from __future__ import annotations

import itertools
from functools import reduce
from operator import xor

import numpy as np
import pytest
from brute import brute_grundy
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.errors import CyclicGraphError, InvalidGraphError
from perfectplay.graph import GameGraph
from perfectplay.solvers.grundy import GrundySolution, grundy_sum, grundy_values, solve_grundy
from perfectplay.values import Value


@st.composite
def random_dags(draw: st.DrawFn, max_n: int = 12) -> tuple[int, list[tuple[int, int]]]:
    """A random DAG whose numbering is shuffled, so ids are not a topological order."""
    n = draw(st.integers(0, max_n))
    order = draw(st.permutations(range(n)))
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    chosen = draw(st.lists(st.sampled_from(pairs), max_size=3 * n)) if pairs else []
    return n, [(order[i], order[j]) for i, j in chosen]


@st.composite
def random_digraphs(draw: st.DrawFn, max_n: int = 8) -> tuple[int, list[tuple[int, int]]]:
    """A random directed graph, cycles and self-loops allowed."""
    n = draw(st.integers(1, max_n))
    node = st.integers(0, n - 1)
    return n, draw(st.lists(st.tuples(node, node), max_size=2 * n))


def _graph(n: int, edges: list[tuple[int, int]]) -> GameGraph:
    src = [u for u, _ in edges]
    dst = [v for _, v in edges]
    return GameGraph.from_edges(src, dst, n=n)


def _on_a_cycle(graph: GameGraph, p: int) -> bool:
    """Whether `p` can reach itself in one or more moves."""
    seen: set[int] = set()
    frontier = [int(c) for c in graph.moves(p)]
    while frontier:
        q = frontier.pop()
        if q == p:
            return True
        if q not in seen:
            seen.add(q)
            frontier.extend(int(c) for c in graph.moves(q))
    return False


@settings(max_examples=300)
@given(random_dags())
def test_grundy_matches_brute_force_on_random_dags(case: tuple[int, list[tuple[int, int]]]) -> None:
    n, edges = case
    graph = _graph(n, edges)
    grundy = grundy_values(graph)
    assert grundy.tolist() == brute_grundy(n, edges)
    assert np.all(grundy <= graph.out_degree())


@settings(max_examples=150)
@given(random_dags(), st.booleans())
def test_monotone_numberings_take_the_sweep_and_agree(
    case: tuple[int, list[tuple[int, int]]], upwards: bool
) -> None:
    """DAGs whose moves all go to higher (or all to lower) ids: the one-pass sweep."""
    n, edges = case
    ordered = [(min(u, v), max(u, v)) if upwards else (max(u, v), min(u, v)) for u, v in edges]
    assert grundy_values(_graph(n, ordered)).tolist() == brute_grundy(n, ordered)


@settings(max_examples=200)
@given(random_digraphs())
def test_cycles_are_reported_with_a_position_on_them(
    case: tuple[int, list[tuple[int, int]]],
) -> None:
    n, edges = case
    graph = _graph(n, edges)
    expected = brute_grundy(n, edges)
    if expected is not None:
        assert grundy_values(graph).tolist() == expected
        return
    with pytest.raises(CyclicGraphError) as info:
        grundy_values(graph)
    position = int(str(info.value).split("position ")[1].split(":")[0])
    assert _on_a_cycle(graph, position)


def _nim_graph(heaps: list[int]) -> tuple[GameGraph, np.ndarray]:
    """All positions of Nim with heaps at most `heaps`, mixed-radix encoded; and their heaps."""
    radix = [h + 1 for h in heaps]
    n = int(np.prod(radix)) if heaps else 1
    sizes = np.array(list(itertools.product(*[range(r) for r in radix])), dtype=np.int64)
    sizes = sizes.reshape(n, len(heaps))
    weights = np.array([int(np.prod(radix[i + 1 :])) for i in range(len(heaps))], dtype=np.int64)
    src, dst = [], []
    for i in range(len(heaps)):
        for take in range(1, radix[i]):
            movers = np.flatnonzero(sizes[:, i] >= take)
            src.append(movers)
            dst.append(movers - take * weights[i])
    if src:
        graph = GameGraph.from_edges(np.concatenate(src), np.concatenate(dst), n=n)
    else:
        graph = GameGraph.from_edges([], [], n=n)
    return graph, sizes


@settings(max_examples=60)
@given(st.lists(st.integers(0, 7), max_size=4))
def test_nim_values_are_the_xor_of_the_heaps(heaps: list[int]) -> None:
    graph, sizes = _nim_graph(heaps)
    grundy = grundy_values(graph)
    expected = np.bitwise_xor.reduce(sizes, axis=1) if heaps else np.zeros(1, dtype=np.int64)
    assert np.array_equal(grundy, expected)
    assert grundy[-1] == reduce(xor, heaps, 0)


@settings(max_examples=100)
@given(random_dags(max_n=7), random_dags(max_n=7))
def test_sum_of_games_is_the_xor_of_components(
    first: tuple[int, list[tuple[int, int]]], second: tuple[int, list[tuple[int, int]]]
) -> None:
    """Build the sum game directly (a move in exactly one component) and compare."""
    (n1, e1), (n2, e2) = first, second
    a, b = solve_grundy(_graph(n1, e1)), solve_grundy(_graph(n2, e2))
    edges = [(u * n2 + q, v * n2 + q) for u, v in e1 for q in range(n2)]
    edges += [(p * n2 + u, p * n2 + v) for u, v in e2 for p in range(n1)]
    total = grundy_values(_graph(n1 * n2, edges))
    for p, q in itertools.product(range(n1), range(n2)):
        assert total[p * n2 + q] == grundy_sum((a, p), (b, q))
        assert total[p * n2 + q] == grundy_sum(a[p], (b.grundy, q))


@settings(max_examples=100)
@given(random_dags())
def test_outcomes_and_winning_moves_follow_the_grundy_values(
    case: tuple[int, list[tuple[int, int]]],
) -> None:
    n, edges = case
    solution = solve_grundy(_graph(n, edges))
    assert len(solution) == n
    for p in range(n):
        winning = solution.winning_moves(p)
        assert (solution.outcome(p) is Value.WIN) == bool(winning) == (solution[p] != 0)
        assert int(solution.value[p]) == int(solution.outcome(p))
        assert all(solution[c] == 0 for c in winning)


def test_long_chain_needs_no_recursion() -> None:
    n = 200_000
    graph = GameGraph.from_edges(np.arange(1, n), np.arange(n - 1), n=n)
    assert np.array_equal(grundy_values(graph), np.arange(n) % 2)


def test_empty_graph_and_repr() -> None:
    solution = solve_grundy(GameGraph.from_edges([], [], n=0))
    assert solution.grundy.shape == (0,)
    assert "n=0" in repr(solution)


def test_self_loop_is_a_cycle() -> None:
    with pytest.raises(CyclicGraphError, match="position 2"):
        grundy_values(GameGraph.from_edges([0, 2], [1, 2], n=3))


@pytest.mark.parametrize("term", [-1, True, "3", (1, 2, 3), 2.0])
def test_bad_sum_terms_are_rejected(term: object) -> None:
    with pytest.raises(InvalidGraphError):
        grundy_sum(term)  # type: ignore[arg-type]


def test_solution_shape_is_checked() -> None:
    with pytest.raises(InvalidGraphError, match="one entry per position"):
        GrundySolution(GameGraph.from_edges([0], [1], n=2), np.zeros(3, dtype=np.int32))


@pytest.mark.parametrize("heaps", [(1, 2, 3), (2, 3, 5), (4, 4, 1, 2)])
def test_enumerated_nim_grundy_values_are_nim_sums_and_match_the_solved_values(
    heaps: tuple[int, ...],
) -> None:
    from perfectplay.api import solve
    from perfectplay.games.nim.rules import Nim

    solved = solve(Nim(heaps=heaps))
    grundy = grundy_values(solved.graph)
    for pid in range(len(solved)):
        position = solved.position_of(pid)
        assert grundy[pid] == reduce(xor, position, 0)
        assert (grundy[pid] != 0) == (solved.value(position) is Value.WIN)
