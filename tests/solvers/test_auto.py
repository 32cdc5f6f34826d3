"""`solve_graph` picks the DAG solver for acyclic graphs and retrograde analysis for cyclic ones."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.errors import CyclicGraphError
from perfectplay.graph import GameGraph
from perfectplay.solvers.auto import solve_graph
from perfectplay.solvers.retrograde import solve_retrograde
from perfectplay.values import LOSE, TIE, UNDECIDED, WIN


@st.composite
def graphs(draw: st.DrawFn) -> tuple[GameGraph, list[int] | None, bool]:
    n = draw(st.integers(1, 15))
    edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3 * n))
    src = [u for u, _ in edges]
    dst = [v for _, v in edges]
    codes = st.sampled_from([UNDECIDED] * 3 + [WIN, LOSE, TIE])
    primitive = draw(st.none() | st.lists(codes, min_size=n, max_size=n))
    return GameGraph.from_edges(src, dst, n=n), primitive, draw(st.booleans())


def has_cycle(graph: GameGraph, primitive: list[int] | None) -> bool:
    """A cycle of play: cycles through primitive positions do not count, play stops there.

    Decided by networkx on the moves of non-primitive positions, independently of the solvers.
    """
    play = nx.DiGraph()
    play.add_nodes_from(range(graph.n))
    for u in range(graph.n):
        if primitive is None or primitive[u] == UNDECIDED:
            play.add_edges_from((u, int(v)) for v in graph.moves(u))
    return not nx.is_directed_acyclic_graph(play)


def test_has_cycle_is_independent_of_the_solvers() -> None:
    ring = GameGraph.from_edges([0, 1, 2], [1, 2, 0], n=3)
    assert has_cycle(ring, None)
    assert not has_cycle(ring, [UNDECIDED, WIN, UNDECIDED])  # play stops at 1
    assert not has_cycle(GameGraph.from_edges([0, 0, 1], [1, 2, 2], n=3), None)


@settings(max_examples=150)
@given(graphs())
def test_picks_the_solver_by_acyclicity_and_agrees_with_it(
    case: tuple[GameGraph, list[int] | None, bool],
) -> None:
    graph, primitive, misere = case
    solution = solve_graph(graph, primitive, misere=misere)
    assert solution.solver == ("retrograde" if has_cycle(graph, primitive) else "dag")
    twin = solve_retrograde(graph, primitive, misere=misere)
    np.testing.assert_array_equal(solution.value, twin.value)
    np.testing.assert_array_equal(solution.remoteness, twin.remoteness)
    assert solution.score is None


def test_scored_acyclic_graphs_get_scores() -> None:
    graph = GameGraph.from_edges([0, 0], [1, 2], n=3, gain=[4, -1])
    solution = solve_graph(graph, terminal_score=[0, 2, 0])
    assert solution.solver == "dag"
    assert solution.score is not None
    assert solution.score.tolist() == [2, 2, 0]


def test_scored_cyclic_graphs_are_refused_naming_the_cycle() -> None:
    cyclic = GameGraph.from_edges([0, 1, 2], [1, 2, 1], n=3, gain=[1, 1, 1])
    with pytest.raises(
        CyclicGraphError, match=r"scores need an acyclic .*\((1 -> 2 -> 1|2 -> 1 -> 2)\)"
    ):
        solve_graph(cyclic)
    unscored = GameGraph.from_edges([0, 1, 2], [1, 2, 1], n=3)
    with pytest.raises(CyclicGraphError, match="scores need an acyclic") as info:
        solve_graph(unscored, terminal_score=[0, 0, 0])
    assert info.value.cycle in ((1, 2), (2, 1))
    assert solve_graph(unscored).solver == "retrograde"
    # Play stops at a primitive position, so a cycle through one is no cycle of play.
    stopped = solve_graph(unscored, [UNDECIDED, TIE, UNDECIDED])
    assert stopped.solver == "dag"
    assert stopped.value.tolist() == [TIE, TIE, TIE]
    assert stopped.remoteness.tolist() == [1, 0, 1]
