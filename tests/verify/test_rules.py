"""Checking a solution against the rules (perfectplay.verify.rules): correct solutions pass,
every single mutation is refuted, the offender and its reason are named.
"""

from __future__ import annotations

import itertools

import brute
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from verify_helpers import brute_solved as _solved
from verify_helpers import graph_sources

from perfectplay.graph import GameGraph
from perfectplay.values import DRAW, LOSE, TIE, UNDECIDED, WIN
from perfectplay.verify import check_solution
from perfectplay.verify.rules import chunks


@st.composite
def games(draw: st.DrawFn, max_n: int = 10) -> tuple[GameGraph, list[int], bool]:
    """A random game: cycles, self-loops, multi-edges, stuck and primitive positions."""
    n = draw(st.integers(1, max_n))
    pos = st.integers(0, n - 1)
    edges = draw(st.lists(st.tuples(pos, pos), max_size=3 * n))
    code = st.sampled_from([UNDECIDED, UNDECIDED, UNDECIDED, WIN, LOSE, TIE])
    primitive = draw(st.lists(code, min_size=n, max_size=n))
    graph = GameGraph.from_edges([u for u, _ in edges], [v for _, v in edges], n=n)
    return graph, primitive, draw(st.booleans())


def _check(graph: GameGraph, value, remoteness, primitive, misere):  # type: ignore[no-untyped-def]
    return check_solution(
        graph.indptr, graph.indices, value, remoteness, np.array(primitive, np.uint8),
        misere=misere,
    )  # fmt: skip


@settings(max_examples=500)
@given(games())
def test_every_correct_solution_is_accepted(game: tuple[GameGraph, list[int], bool]) -> None:
    graph, primitive, misere = game
    value, remoteness = _solved(graph, primitive, misere)
    report = _check(graph, value, remoteness, primitive, misere)
    assert report.ok, report.problems
    assert (report.positions, report.moves) == (graph.n, graph.m)


@settings(max_examples=150)
@given(games(max_n=7))
def test_every_single_mutation_is_rejected(game: tuple[GameGraph, list[int], bool]) -> None:
    graph, primitive, misere = game
    value, remoteness = _solved(graph, primitive, misere)
    for p in range(graph.n):
        for v in (LOSE, DRAW, TIE, WIN, 7):
            for r in range(-2, graph.n + 2):
                if (v, r) == (int(value[p]), int(remoteness[p])):
                    continue
                bad_value, bad_remoteness = value.copy(), remoteness.copy()
                bad_value[p], bad_remoteness[p] = v, r
                report = _check(graph, bad_value, bad_remoteness, primitive, misere)
                assert not report.ok, (p, v, r)
                assert report.problems and report.bad >= 1


def test_the_offender_and_its_reason_are_named() -> None:
    # 0 -> 1 -> 2: claim that 1 loses in 3; its move to 2 leaves the opponent LOSE 0.
    graph = GameGraph.from_edges([0, 1], [1, 2], n=5)  # 3 and 4: stuck, LOSE 0
    report = _check(graph, np.array([WIN, LOSE, LOSE, LOSE, LOSE], np.uint8),
                    np.array([2, 3, 0, 0, 0]), [UNDECIDED] * 5, False)  # fmt: skip
    assert report.bad == 2
    assert report.problems[0] == (
        "position 0: WIN 2 but move to 1 gives LOSE 3 to the opponent (its moves imply WIN 4)"
    )
    assert report.problems[1] == (
        "position 1: LOSE 3 but move to 2 gives LOSE 0 to the opponent (its moves imply WIN 1)"
    )


def test_rules_and_stuck_positions_are_checked() -> None:
    graph = GameGraph.from_edges([0], [1], n=3)
    primitive = [TIE, UNDECIDED, UNDECIDED]
    report = _check(graph, np.array([TIE, WIN, LOSE], np.uint8), np.array([1, 0, 0]),
                    primitive, False)  # fmt: skip
    assert report.problems == [
        "position 0: TIE 1 but the rules fix TIE 0",
        "position 1: WIN 0 but it has no moves (LOSE 0)",
    ]


def test_draws_must_be_closed() -> None:
    # 0 <-> 1 is an endless chase, but 1 can also move to the stuck 2 and win.
    graph = GameGraph.from_edges([0, 1, 1], [1, 0, 2], n=3)
    value = np.array([DRAW, DRAW, LOSE], np.uint8)
    report = _check(graph, value, np.array([-1, -1, 0]), [UNDECIDED] * 3, False)
    assert report.problems == [
        "position 1: DRAW but move to 2 gives LOSE 0 to the opponent (its moves imply WIN 1)"
    ]


@settings(max_examples=200)
@given(games(max_n=8), st.data())
def test_scores_are_checked_against_gains(game, data) -> None:  # type: ignore[no-untyped-def]
    graph, _, _ = game
    acyclic = graph_sources(graph) < graph.indices  # keep the moves to larger ids: a DAG
    src, dst = graph_sources(graph)[acyclic], graph.indices[acyclic]
    gain = data.draw(st.lists(st.integers(-5, 5), min_size=src.size, max_size=src.size))
    dag = GameGraph.from_edges(src, dst, n=graph.n, gain=np.array(gain, np.int64))
    gains = dag.gain.tolist() if dag.gain is not None else []
    edges = list(zip(graph_sources(dag).tolist(), dag.indices.tolist(), gains, strict=True))
    value, remoteness, score = brute.dag_negamax(dag.n, edges)
    args = (dag.indptr, dag.indices, np.array(value, np.uint8), np.array(remoteness))
    score_array = np.array(score, np.int64)
    terminal = np.zeros(dag.n, np.int64)
    assert check_solution(*args, score=score_array, gain=dag.gain, terminal_score=terminal).ok
    p = data.draw(st.integers(0, dag.n - 1))
    score_array[p] += data.draw(st.sampled_from([-1, 1]))
    assert not check_solution(*args, score=score_array, gain=dag.gain, terminal_score=terminal).ok


def test_chunks_cover_every_position_once() -> None:
    indptr = np.cumsum([0, *np.random.default_rng(1).integers(0, 9, 1000)])
    ranges = list(chunks(indptr, size=50))
    assert ranges[0][0] == 0 and ranges[-1][1] == 1000
    assert all(a < b and b == c for (a, b), (c, _) in itertools.pairwise(ranges))


def test_chunked_check_matches_one_chunk(monkeypatch: pytest.MonkeyPatch) -> None:
    import perfectplay.verify.rules as rules

    rng = np.random.default_rng(5)
    graph = GameGraph.from_edges(rng.integers(0, 300, 900), rng.integers(0, 300, 900), n=300)
    value, remoteness = _solved(graph, [UNDECIDED] * 300, False)
    value[7] = DRAW if value[7] != DRAW else WIN
    whole = _check(graph, value, remoteness, [UNDECIDED] * 300, False)
    monkeypatch.setattr(rules, "CHUNK_MOVES", 17)
    monkeypatch.setattr(rules.chunks, "__defaults__", (17,))
    assert _check(graph, value, remoteness, [UNDECIDED] * 300, False).bad == whole.bad >= 1
