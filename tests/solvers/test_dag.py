"""The DAG solver against its brute-force twin, the retrograde solver and its own properties."""

from __future__ import annotations

import itertools
import pickle
import re

import networkx as nx
import numpy as np
import pytest
from brute import dag_negamax
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.errors import CyclicGraphError, InvalidGraphError, ScoreOverflowError
from perfectplay.graph import GameGraph
from perfectplay.solvers import _dag_kernels as kernels
from perfectplay.solvers.dag import _kahn, solve_dag, topological_order
from perfectplay.solvers.retrograde import solve_retrograde
from perfectplay.values import LOSE, TIE, UNDECIDED, WIN, Value

INT64_MAX = np.iinfo(np.int64).max
INT64_MIN = np.iinfo(np.int64).min


@st.composite
def scored_dags(draw: st.DrawFn, max_n: int = 9) -> dict:  # type: ignore[type-arg]
    """A random acyclic graph with gains, primitives, terminal scores and shuffled ids."""
    n = draw(st.integers(1, max_n))
    pairs = [(u, v) for u in range(n) for v in range(u + 1, n)]
    chosen = draw(st.lists(st.sampled_from(pairs), max_size=3 * n) if pairs else st.just([]))
    perm = draw(st.permutations(range(n)))  # the identity keeps ids topological
    gain = st.integers(-3, 3)
    edges = [(perm[u], perm[v], draw(gain)) for u, v in chosen]
    primitive = draw(
        st.none()
        | st.lists(st.sampled_from([UNDECIDED] * 4 + [WIN, LOSE, TIE]), min_size=n, max_size=n)
    )
    terminal = draw(st.none() | st.lists(st.integers(-5, 5), min_size=n, max_size=n))
    return {
        "n": n,
        "edges": edges,
        "primitive": primitive,
        "terminal": terminal,
        "misere": draw(st.booleans()),
    }


def build(case: dict) -> GameGraph:  # type: ignore[type-arg]
    edges = np.array(case["edges"], dtype=np.int64).reshape(-1, 3)
    return GameGraph.from_edges(edges[:, 0], edges[:, 1], n=case["n"], gain=edges[:, 2])


@settings(max_examples=400)
@given(scored_dags())
def test_whole_arrays_match_brute_force(case: dict) -> None:  # type: ignore[type-arg]
    graph = build(case)
    solution = solve_dag(
        graph, case["primitive"], misere=case["misere"], terminal_score=case["terminal"]
    )
    value, remoteness, score = dag_negamax(
        case["n"],
        case["edges"],
        case["primitive"],
        misere=case["misere"],
        terminal=case["terminal"],
    )
    assert solution.solver == "dag"
    assert solution.value.tolist() == value
    assert solution.remoteness.tolist() == remoteness
    assert solution.score is not None
    assert solution.score.tolist() == score


@settings(max_examples=150)
@given(scored_dags(max_n=40))
def test_value_and_remoteness_match_retrograde(case: dict) -> None:  # type: ignore[type-arg]
    graph = build(case)
    dag = solve_dag(graph, case["primitive"], misere=case["misere"])
    retro = solve_retrograde(graph, case["primitive"], misere=case["misere"])
    np.testing.assert_array_equal(dag.value, retro.value)
    np.testing.assert_array_equal(dag.remoteness, retro.remoteness)
    assert dag.score is not None  # the graph has gains


@settings(max_examples=150)
@given(scored_dags(max_n=12))
def test_best_moves_follow_the_documented_rule(case: dict) -> None:  # type: ignore[type-arg]
    solution = solve_dag(build(case), case["primitive"], terminal_score=case["terminal"])
    assert solution.score is not None
    for p in range(case["n"]):
        best = solution.best_moves(p)
        if solution.remoteness[p] == 0:
            assert best == []
            continue
        options = solution.move_values(p)
        top = max(o.score for o in options if o.score is not None)
        assert top == solution.score[p]
        optimal = [o for o in options if o.score == top]
        value = max(o.value for o in optimal)
        kept = [o for o in optimal if o.value == value]
        pick = max if value == Value.LOSE else min
        length = pick(o.remoteness for o in kept)
        assert sorted(best) == sorted(o.position for o in kept if o.remoteness == length)


def test_unscored_graphs_have_no_score_and_terminal_scores_alone_make_one() -> None:
    graph = GameGraph.from_edges([0, 0], [1, 2], n=3)
    assert solve_dag(graph).score is None
    scored = solve_dag(graph, terminal_score=[0, 4, -1])
    assert scored.score is not None
    assert scored.score.tolist() == [1, 4, -1]  # moving to 2 leaves the opponent -1
    assert scored.best_moves(0) == [2]


def test_primitive_positions_with_moves_score_their_terminal_score() -> None:
    graph = GameGraph.from_edges([0, 1], [1, 2], n=3, gain=[10, 10])
    primitive = [UNDECIDED, TIE, UNDECIDED]
    s = solve_dag(graph, primitive, terminal_score=[0, 7, 100])
    assert s.score is not None
    assert s.score.tolist() == [10 - 7, 7, 100]
    assert s.value.tolist() == [TIE, TIE, LOSE]
    assert s.remoteness.tolist() == [1, 0, 0]
    assert s.best_moves(1) == []


@pytest.mark.parametrize("misere", [False, True])
def test_long_chains_any_numbering(misere: bool) -> None:
    n = 1000
    rng = np.random.default_rng(5)
    # The last numbering goes up except for one move low down: the sweep over the ids,
    # already well under way, must notice it and start again in Kahn's order.
    numberings = (np.arange(n), np.arange(n)[::-1], rng.permutation(n), np.roll(np.arange(n), 1))
    for ids in (*numberings, np.r_[1, 0, np.arange(2, n)]):
        graph = GameGraph.from_edges(ids[:-1], ids[1:], n=n)
        s = solve_dag(graph, misere=misere)
        # Position k along the chain has n - 1 - k moves left; the parity decides.
        left = n - 1 - np.arange(n)
        lost = left % 2 == (1 if misere else 0)
        np.testing.assert_array_equal(s.remoteness[ids], left)
        np.testing.assert_array_equal(s.value[ids], np.where(lost, LOSE, WIN))


@settings(max_examples=100)
@given(scored_dags(max_n=30))
def test_topological_order_puts_every_move_forward(case: dict) -> None:  # type: ignore[type-arg]
    graph = build(case)
    order = topological_order(graph)
    assert sorted(order.tolist()) == list(range(case["n"]))
    where = np.empty(case["n"], dtype=np.int64)
    where[order] = np.arange(case["n"])
    for u, v, _ in case["edges"]:
        assert where[u] < where[v]


@settings(max_examples=100)
@given(st.integers(2, 40), st.integers(0, 2**32 - 1), st.integers(1, 6))
def test_cycle_error_names_a_real_cycle(n: int, seed: int, length: int) -> None:
    rng = np.random.default_rng(seed)
    length = min(length, n)
    src = rng.integers(0, n, 2 * n)
    dst = rng.integers(0, n, 2 * n)
    forward = src < dst  # acyclic part, plus hanging positions upstream and downstream
    cycle = rng.choice(n, length, replace=False)
    src = np.concatenate([src[forward], cycle])
    dst = np.concatenate([dst[forward], np.roll(cycle, -1)])
    graph = GameGraph.from_edges(src, dst, n=n)
    with pytest.raises(CyclicGraphError, match="retrograde") as info:
        solve_dag(graph)
    shown = re.search(r"through position (\d+) \(([\d >-]+)\)", str(info.value))
    assert shown is not None
    named = [int(x) for x in shown.group(2).split(" -> ")]
    assert named[0] == named[-1] == int(shown.group(1))
    edges = set(zip(src.tolist(), dst.tolist(), strict=True))
    assert all((u, v) in edges for u, v in itertools.pairwise(named))
    assert len(set(named[:-1])) == len(named) - 1
    # The whole cycle, as data: each position moves to the next, the last to the first.
    whole = info.value.cycle
    assert whole is not None and list(whole[:8]) == named[: min(len(whole), 8)]
    assert all((u, v) in edges for u, v in itertools.pairwise((*whole, whole[0])))
    assert len(set(whole)) == len(whole)


@settings(max_examples=150)
@given(st.integers(1, 12), st.integers(0, 2**32 - 1))
def test_play_stops_at_primitive_positions(n: int, seed: int) -> None:
    """Moves out of primitive positions are ignored: only cycles of play are cycles."""
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n, 2 * n)
    dst = rng.integers(0, n, 2 * n)
    primitive = np.where(rng.random(n) < 0.3, rng.choice([WIN, LOSE, TIE], n), UNDECIDED)
    graph = GameGraph.from_edges(src, dst, n=n)
    play = nx.DiGraph()
    play.add_nodes_from(range(n))
    play.add_edges_from((u, v) for u, v in zip(src, dst, strict=True) if primitive[u] == UNDECIDED)
    if nx.is_directed_acyclic_graph(play):
        dag = solve_dag(graph, primitive)
        retro = solve_retrograde(graph, primitive)
        np.testing.assert_array_equal(dag.value, retro.value)
        np.testing.assert_array_equal(dag.remoteness, retro.remoteness)
        return
    with pytest.raises(CyclicGraphError) as info:
        solve_dag(graph, primitive)
    shown = re.search(r"\(([\d >.-]+)\)", str(info.value))
    assert shown is not None
    words = shown.group(1).split(" -> ")
    named = (
        [int(x) for x in words[: words.index("...")]] if "..." in words else list(map(int, words))
    )
    assert all(play.has_edge(u, v) for u, v in itertools.pairwise(named))


def test_self_loop_is_a_cycle() -> None:
    with pytest.raises(CyclicGraphError, match=r"position 1 \(1 -> 1\)") as info:
        topological_order(GameGraph.from_edges([0, 1], [1, 1], n=2))
    assert info.value.cycle == (1,)


def test_cycle_attribute_survives_pickling_and_defaults_to_none() -> None:
    error = CyclicGraphError("a cycle", cycle=(3, 4))
    copy = pickle.loads(pickle.dumps(error))
    assert (str(copy), copy.cycle) == ("a cycle", (3, 4))
    assert CyclicGraphError("no cycle named").cycle is None


def test_score_overflow_is_detected_not_wrapped() -> None:
    chain = GameGraph.from_edges([0, 1], [1, 2], n=3, gain=[2**62, -(2**62)])
    # score(1) = -2**62, score(0) = 2**62 + 2**62 = 2**63: one past the int64 range.
    with pytest.raises(ScoreOverflowError, match="position 0"):
        solve_dag(chain)
    with pytest.raises(OverflowError):
        solve_dag(GameGraph.from_edges([0], [1], n=2), terminal_score=[0, INT64_MIN])
    edge = solve_dag(GameGraph.from_edges([0], [1], n=2, gain=[-1]), terminal_score=[0, INT64_MIN])
    assert edge.score is not None
    assert edge.score.tolist() == [INT64_MAX, INT64_MIN]
    # A cycle among low ids is reported before an overflow met higher up.
    both = GameGraph.from_edges([0, 1, 2, 3], [1, 0, 3, 4], n=5, gain=[0, 0, 2**62, -(2**62)])
    with pytest.raises(CyclicGraphError):
        solve_dag(both)


def test_bad_primitive_and_terminal_arrays() -> None:
    graph = GameGraph.from_edges([0], [1], n=2)
    with pytest.raises(InvalidGraphError, match="primitive"):
        solve_dag(graph, [UNDECIDED])
    with pytest.raises(InvalidGraphError, match="DRAW"):
        solve_dag(graph, [UNDECIDED, 1])
    with pytest.raises(InvalidGraphError, match="terminal_score"):
        solve_dag(graph, terminal_score=[0.5, 1.0])
    with pytest.raises(InvalidGraphError, match="terminal_score"):
        solve_dag(graph, terminal_score=[0, 1, 2])
    with pytest.raises(InvalidGraphError, match=r"terminal_score\[1\]"):
        solve_dag(graph, terminal_score=np.array([0, 2**63], dtype=np.uint64))


def test_empty_graph() -> None:
    s = solve_dag(GameGraph.from_edges([], [], n=0))
    assert s.value.shape == s.remoteness.shape == (0,)


@settings(max_examples=60)
@given(scored_dags(max_n=20))
def test_wide_keys_give_the_same_answer(case: dict) -> None:  # type: ignore[type-arg]
    """The int64 key layout (graphs beyond 2**29 positions) on small graphs, both sweeps."""
    graph = build(case)
    n = case["n"]
    s = solve_dag(graph, case["primitive"], terminal_score=case["terminal"])
    prim = np.asarray(case["primitive"] or [UNDECIDED] * n, dtype=np.uint8)
    terminal = np.asarray(case["terminal"] or [0] * n, dtype=np.int64)
    assert graph.gain is not None
    info = np.zeros(1, dtype=np.int64)
    keys = np.empty(n, dtype=np.int64)
    score = np.empty(n, dtype=np.int64)
    if kernels.monotone_direction(graph.indptr, graph.indices) == 1:
        status = kernels.sweep(
            graph.indptr, graph.indices, 1, prim, LOSE, graph.gain, terminal, keys,
            kernels.SHIFT64, score, True, info, False,
        )  # fmt: skip
    else:
        o = _kahn(graph, prim, gains=True)
        status = kernels.sweep_ordered(
            o.order, o.kptr, o.kids, prim, LOSE, o.kgain, terminal, keys, kernels.SHIFT64, score,
            True, info,
        )  # fmt: skip
    assert status == kernels.OK
    value = np.empty(n, dtype=np.uint8)
    remoteness = np.empty(n, dtype=np.int32)
    kernels.decode(keys, kernels.SHIFT64, value, remoteness)
    np.testing.assert_array_equal(value, s.value)
    np.testing.assert_array_equal(remoteness, s.remoteness)
    np.testing.assert_array_equal(score, s.score)


@settings(max_examples=20)
@given(st.integers(0, 2**32 - 1), st.integers(1, 4))
def test_renumbering_a_large_dag_permutes_the_solution(seed: int, degree: int) -> None:
    """Waves of thousands of positions (sorted by id in Kahn's order) give the same answer."""
    n = 5000
    rng = np.random.default_rng(seed)
    src = np.repeat(np.arange(n - 1), degree)
    dst = src + 1 + (rng.random(src.size) * (n - 1 - src)).astype(np.int64)
    prim = np.where(rng.random(n) < 0.05, rng.choice([WIN, LOSE, TIE], n), UNDECIDED)
    perm = rng.permutation(n)
    plain = solve_dag(GameGraph.from_edges(src, dst, n=n), prim.astype(np.uint8))
    shuffled = GameGraph.from_edges(perm[src], perm[dst], n=n)
    s = solve_dag(shuffled, prim[np.argsort(perm)].astype(np.uint8))
    np.testing.assert_array_equal(s.value[perm], plain.value)
    np.testing.assert_array_equal(s.remoteness[perm], plain.remoteness)
    where = np.empty(n, dtype=np.int64)
    where[topological_order(shuffled)] = np.arange(n)
    assert (where[perm[src]] < where[perm[dst]]).all()


@settings(max_examples=50)
@given(st.lists(st.integers(0, 3000), min_size=0, max_size=400, unique=True), st.integers(0, 3))
def test_sort_wave_sorts_dense_waves_and_clears_its_bitmap(ids: list[int], lo: int) -> None:
    order = np.array([7] * lo + ids, dtype=np.int32)
    bits = np.zeros((3001 + 63) // 64, dtype=np.uint64)
    kernels._sort_wave(order, lo, order.size, bits)
    assert sorted(order[lo:].tolist()) == sorted(ids)
    dense = len(ids) >= 64 and (max(ids) - min(ids)) >> 6 <= 4 * len(ids)
    assert order[lo:].tolist() == (sorted(ids) if dense else ids)
    assert not bits.any()


@pytest.mark.parametrize("fan_in", [254, 255, 256, 1000])
def test_positions_with_hundreds_of_moves_in(fan_in: int) -> None:
    """Kahn's one-byte in-degree counters pass what is beyond 255 moves in to a wide array."""
    rng = np.random.default_rng(fan_in)
    n = fan_in + 2  # fan_in positions -> hub -> sink, ids shuffled
    perm = rng.permutation(n)
    src = np.concatenate([np.arange(fan_in), [fan_in]])
    dst = np.concatenate([np.full(fan_in, fan_in), [fan_in + 1]])
    graph = GameGraph.from_edges(perm[src], perm[dst], n=n, gain=np.arange(fan_in + 1))
    counters = np.zeros(n, dtype=np.uint8)
    excess = np.zeros(n, dtype=np.int64)
    kernels.count_indegree(graph.indptr, graph.indices, np.empty(0, np.uint8), counters, excess)
    hub = perm[fan_in]
    assert counters[hub] == min(fan_in, kernels.WIDE)
    assert counters[hub] + excess[hub] == fan_in
    s = solve_dag(graph)
    assert s.value[perm[:fan_in]].tolist() == [LOSE] * fan_in  # the hub wins by moving on
    assert s.remoteness[perm[:fan_in]].tolist() == [2] * fan_in
    assert s.score is not None
    assert s.score[perm[:fan_in]].tolist() == (np.arange(fan_in) - fan_in).tolist()


@settings(max_examples=40)
@given(st.integers(0, 2**32 - 1), st.integers(1, 3), st.booleans())
def test_hubs_with_hundreds_of_moves_in(seed: int, hubs: int, cyclic: bool) -> None:
    """Positions with more than 255 moves in (parallel moves too), cycles through them or not."""
    rng = np.random.default_rng(seed)
    n = 40
    src = rng.integers(0, n, 3 * n)
    dst = rng.integers(0, n, 3 * n)
    keep = src < dst
    hub = rng.choice(np.arange(n // 2, n), hubs, replace=False)
    into = rng.integers(0, n // 2, 900)  # about 300 moves into each hub, from lower ids
    src = np.concatenate([src[keep], into, hub[:1] if cyclic else []]).astype(np.int64)
    dst = np.concatenate([dst[keep], rng.choice(hub, into.size), into[:1] if cyclic else []])
    perm = rng.permutation(n)
    graph = GameGraph.from_edges(perm[src], perm[dst.astype(np.int64)], n=n)
    play = nx.DiGraph()
    play.add_nodes_from(range(n))
    play.add_edges_from(zip(perm[src].tolist(), perm[dst.astype(np.int64)].tolist(), strict=True))
    if nx.is_directed_acyclic_graph(play):
        s = solve_dag(graph)
        retro = solve_retrograde(graph)
        np.testing.assert_array_equal(s.value, retro.value)
        np.testing.assert_array_equal(s.remoteness, retro.remoteness)
    else:
        with pytest.raises(CyclicGraphError) as info:
            solve_dag(graph)
        cycle = info.value.cycle
        assert cycle is not None and len(set(cycle)) == len(cycle)
        assert all(play.has_edge(u, v) for u, v in itertools.pairwise((*cycle, cycle[0])))


@settings(max_examples=150)
@given(scored_dags(max_n=12), st.sampled_from([2**20, 2**29, 2**31, 2**40]))
def test_large_gains_in_kahns_order_match_brute_force(case: dict, scale: int) -> None:  # type: ignore[type-arg]
    """Scores near and past int32 and far from it, in Kahn's order or the ids'."""
    edges = [(u, v, g * scale) for u, v, g in case["edges"]]
    terminal = None if case["terminal"] is None else [t * scale for t in case["terminal"]]
    big = {**case, "edges": edges, "terminal": terminal}
    solution = solve_dag(build(big), case["primitive"], terminal_score=terminal)
    value, remoteness, score = dag_negamax(
        case["n"], edges, case["primitive"], misere=False, terminal=terminal
    )
    assert solution.value.tolist() == value
    assert solution.remoteness.tolist() == remoteness
    assert solution.score is not None
    assert solution.score.dtype == np.int64
    assert solution.score.tolist() == score
