"""Tests of retrograde analysis: each kernel step, the public solver, and the brute-force twin."""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

import brute
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import perfectplay._memory
from perfectplay.errors import InvalidGraphError, TooLargeError
from perfectplay.graph import GameGraph
from perfectplay.solvers import _retrograde_kernels as k
from perfectplay.solvers.retrograde import _state_dtype, primitive_values, solve_retrograde
from perfectplay.values import DRAW, LOSE, NO_REMOTENESS, TIE, UNDECIDED, WIN, Value

# ---------------------------------------------------------------- random small games


@st.composite
def games(draw: st.DrawFn, max_n: int = 12) -> tuple[int, list[tuple[int, int]], list[int], bool]:
    """A random game: cycles, self-loops, multi-edges, move-less and primitive positions."""
    n = draw(st.integers(1, max_n))
    pos = st.integers(0, n - 1)
    edges = draw(st.lists(st.tuples(pos, pos), max_size=3 * n))
    code = st.sampled_from([UNDECIDED, UNDECIDED, UNDECIDED, UNDECIDED, WIN, LOSE, TIE])
    primitive = draw(st.lists(code, min_size=n, max_size=n))
    misere = draw(st.booleans())
    return n, edges, primitive, misere


def build(n: int, edges: list[tuple[int, int]]) -> GameGraph:
    src = [u for u, _ in edges]
    dst = [v for _, v in edges]
    return GameGraph.from_edges(src, dst, n=n)


@settings(max_examples=2000)
@given(games())
def test_matches_brute_force_on_random_games(game: tuple[int, list, list, bool]) -> None:
    n, edges, primitive, misere = game
    solution = solve_retrograde(build(n, edges), np.array(primitive), misere=misere)
    value, remoteness = brute.retrograde(n, edges, primitive, misere=misere)
    assert solution.value.tolist() == value
    assert solution.remoteness.tolist() == remoteness


@settings(max_examples=300)
@given(games())
def test_every_position_satisfies_the_value_equations(game: tuple[int, list, list, bool]) -> None:
    n, edges, primitive, misere = game
    g = build(n, edges)
    s = solve_retrograde(g, np.array(primitive), misere=misere)
    for p in range(n):
        v, r = int(s.value[p]), int(s.remoteness[p])
        kids = g.moves(p).tolist()
        kid_values = [int(s.value[c]) for c in kids]
        if primitive[p] != UNDECIDED or not kids:
            assert r == 0
            assert s.best_moves(p) == []
            expected = primitive[p] if primitive[p] != UNDECIDED else (WIN if misere else LOSE)
            assert v == expected
            continue
        assert r != 0
        best = s.best_moves(p)
        best_values = {int(s.value[c]) for c in best}
        best_remoteness = {int(s.remoteness[c]) for c in best}
        if v == WIN:
            assert best_values == {LOSE}
            assert best_remoteness == {r - 1}
            assert min(int(s.remoteness[c]) for c in kids if s.value[c] == LOSE) == r - 1
        elif v == LOSE:
            assert set(kid_values) == {WIN}
            assert max(int(s.remoteness[c]) for c in kids) == r - 1
            assert best_values == {WIN} and best_remoteness == {r - 1}
        elif v == TIE:
            assert LOSE not in kid_values and set(kid_values) != {WIN}
            assert best_values == {TIE} and best_remoteness == {r - 1}
            assert min(int(s.remoteness[c]) for c in kids if s.value[c] == TIE) == r - 1
        else:
            assert v == DRAW and r == NO_REMOTENESS
            assert LOSE not in kid_values and TIE not in kid_values
            assert DRAW in kid_values
            assert best and best_values == {DRAW}


@settings(max_examples=200)
@given(games())
def test_best_moves_reach_the_end_in_exactly_remoteness_moves(
    game: tuple[int, list, list, bool],
) -> None:
    n, edges, primitive, misere = game
    s = solve_retrograde(build(n, edges), np.array(primitive), misere=misere)
    for p in range(n):
        r = int(s.remoteness[p])
        if r == NO_REMOTENESS:
            continue
        q, steps, mover_value = p, 0, int(s.value[p])
        while s.best_moves(q):
            q = s.best_moves(q)[0]
            steps += 1
        assert steps == r
        final = Value(int(s.value[q]))
        assert (final if steps % 2 == 0 else final.flipped()) == mover_value


@settings(max_examples=200)
@given(games())
def test_misere_swaps_only_the_move_less_positions(game: tuple[int, list, list, bool]) -> None:
    n, edges, primitive, _ = game
    g = build(n, edges)
    normal = solve_retrograde(g, primitive)
    misere = solve_retrograde(g, primitive, misere=True)
    no_moves = (g.out_degree() == 0) & (np.array(primitive) == UNDECIDED)
    assert (normal.value[no_moves] == LOSE).all()
    assert (misere.value[no_moves] == WIN).all()
    # Marking those positions primitive WIN instead gives the misere answer.
    as_rule = np.where(no_moves, WIN, primitive)
    by_rule = solve_retrograde(g, as_rule)
    assert (by_rule.value == misere.value).all()
    assert (by_rule.remoteness == misere.remoteness).all()


def test_matches_brute_force_on_seeded_random_games() -> None:
    # A second, denser source of small games than hypothesis's (which favours short lists):
    # up to 3 moves per position on average and any share of primitive positions.
    rng = np.random.default_rng(12345)
    for _ in range(3000):
        n = int(rng.integers(1, 13))
        m = int(rng.integers(0, 3 * n + 1))
        src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
        codes = np.array([UNDECIDED] * int(rng.integers(1, 9)) + [WIN, LOSE, TIE], dtype=np.uint8)
        primitive = rng.choice(codes, n)
        misere = bool(rng.integers(2))
        s = solve_retrograde(GameGraph.from_edges(src, dst, n=n), primitive, misere=misere)
        edges = list(zip(src.tolist(), dst.tolist(), strict=True))
        expected = brute.retrograde(n, edges, primitive.tolist(), misere=misere)
        assert (s.value.tolist(), s.remoteness.tolist()) == expected, (n, edges, primitive)


@pytest.mark.parametrize("seed", range(6))
def test_matches_brute_force_on_larger_sparse_games(seed: int) -> None:
    # Thousands of positions: levels spread over many bitmap words, so both the sorted and
    # the queue-order visits of a level run, with long chains of remoteness.
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1000, 3000))
    m = int(n * rng.uniform(0.8, 2.0))
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    chain = np.arange(n - 1)  # a long path through random positions
    perm = rng.permutation(n)
    src = np.concatenate([src, perm[chain]])
    dst = np.concatenate([dst, perm[chain + 1]])
    codes = np.array([UNDECIDED] * 40 + [WIN, LOSE, TIE], dtype=np.uint8)
    primitive = rng.choice(codes, n)
    edges = list(zip(src.tolist(), dst.tolist(), strict=True))
    misere = bool(seed % 2)
    s = solve_retrograde(GameGraph.from_edges(src, dst, n=n), primitive, misere=misere)
    value, remoteness = brute.retrograde(n, edges, primitive.tolist(), misere=misere)
    assert s.value.tolist() == value
    assert s.remoteness.tolist() == remoteness


def test_levels_far_apart_in_position_order() -> None:
    # Two chains at opposite ends of a large id range: every level holds two distant
    # positions, which the solver visits in queue order.
    n = 64 * 64
    a, b = list(range(0, 30)), list(range(n - 30, n))
    edges = list(itertools.pairwise(a)) + list(itertools.pairwise(b))
    edges += [(p, p) for p in range(30, n - 30)]
    s = solve_retrograde(build(n, edges))
    assert s.remoteness[:30].tolist() == list(range(29, -1, -1))
    assert s.remoteness[n - 30 :].tolist() == list(range(29, -1, -1))
    assert s.summary() == {"WIN": 30, "LOSE": 30, "TIE": 0, "DRAW": n - 60}


# ---------------------------------------------------------------- hand-made games


def solve_edges(
    edges: list[tuple[int, int]], n: int, primitive: dict[int, int] | None = None
) -> tuple[list[str], list[int]]:
    prim = np.full(n, UNDECIDED, dtype=np.uint8)
    for p, v in (primitive or {}).items():
        prim[p] = v
    s = solve_retrograde(build(n, edges), prim)
    return [s[p].name for p in range(n)], s.remoteness.tolist()


def test_chain_alternates_and_counts_moves() -> None:
    n = 1000
    names, remoteness = solve_edges([(p, p + 1) for p in range(n - 1)], n)
    assert remoteness == list(range(n - 1, -1, -1))
    assert names == ["LOSE" if (n - 1 - p) % 2 == 0 else "WIN" for p in range(n)]


def test_winner_takes_the_shortest_win_and_loser_the_longest_loss() -> None:
    # 0 -> 1 (LOSE in 0) and 0 -> 2 -> 3 -> 4 (2 is LOSE in 2): 0 wins in 1.
    # 5 -> 6 (WIN in 1: 6 -> 1) and 5 -> 0 (WIN in 1) and 5 -> 7 (WIN in 3): 5 loses in 4.
    edges = [(0, 1), (0, 2), (2, 3), (3, 4), (5, 6), (6, 1), (5, 0), (5, 7), (7, 2)]
    names, remoteness = solve_edges(edges, 8)
    assert names[0] == "WIN" and remoteness[0] == 1
    assert names[7] == "WIN" and remoteness[7] == 3
    assert names[5] == "LOSE" and remoteness[5] == 4


def test_multi_edges_count_as_separate_moves() -> None:
    # 0 has two moves to the WIN 1 and one to the endless 2 <-> 3: a DRAW, not a LOSE.
    edges = [(0, 1), (0, 1), (1, 4), (0, 2), (2, 3), (3, 2)]
    names, _ = solve_edges(edges, 5)
    assert names == ["DRAW", "WIN", "DRAW", "DRAW", "LOSE"]
    # Without the escape, both moves lead to the WIN: a LOSE in 2.
    names, remoteness = solve_edges([(0, 1), (0, 1), (1, 2)], 3)
    assert names == ["LOSE", "WIN", "LOSE"] and remoteness == [2, 1, 0]


def test_self_loops() -> None:
    assert solve_edges([(0, 0)], 1) == (["DRAW"], [-1])
    assert solve_edges([(0, 0), (0, 1)], 2) == (["WIN", "LOSE"], [1, 0])
    # A self-loop on a position whose other move wins keeps it from being a LOSE.
    assert solve_edges([(0, 0), (0, 1), (1, 2)], 3)[0] == ["DRAW", "WIN", "LOSE"]


def test_primitive_positions_ignore_their_moves() -> None:
    edges = [(0, 1), (1, 0), (2, 0)]
    assert solve_edges(edges, 3, {0: WIN}) == (["WIN", "LOSE", "LOSE"], [0, 1, 1])
    assert solve_edges(edges, 3, {0: LOSE}) == (["LOSE", "WIN", "WIN"], [0, 1, 1])
    assert solve_edges(edges, 3, {0: TIE}) == (["TIE", "TIE", "TIE"], [0, 1, 1])
    assert solve_edges(edges, 3) == (["DRAW"] * 3, [-1] * 3)


def test_tie_only_where_no_win_and_not_all_lose() -> None:
    # 0 -> TIE 1, 0 -> LOSE 2: WIN. 3 -> TIE 1, 3 -> WIN 4: TIE. 5 -> 3 (TIE in 1): TIE in 2.
    edges = [(0, 1), (0, 2), (3, 1), (3, 4), (4, 2), (5, 3)]
    names, remoteness = solve_edges(edges, 6, {1: TIE})
    assert names == ["WIN", "TIE", "LOSE", "TIE", "WIN", "TIE"]
    assert remoteness == [1, 0, 0, 1, 1, 2]


def test_tie_takes_the_nearest_tie_and_a_tie_never_makes_a_win() -> None:
    # 0 -> 1 -> 2 -> TIE 3 and 0 -> TIE 3: 0 ties in 1; 4 <-> 5 with 5 -> TIE 3 stay TIE.
    edges = [(0, 1), (1, 2), (2, 3), (0, 3), (4, 5), (5, 4), (5, 3)]
    names, remoteness = solve_edges(edges, 6, {3: TIE})
    assert names == ["TIE"] * 6
    assert remoteness == [1, 2, 1, 0, 2, 1]


def test_a_stale_tie_never_circulates_around_a_cycle() -> None:
    # Regression (found in the brute-force twin): 0 ties via 1 after one move but wins via 3
    # after two; the cycle 2 -> 8 -> 4 -> 2 (and the self-loops on 5 and 8) must not keep that
    # early tie alive. 7 is move-less (a WIN in misere play).
    edges = [(5, 2), (8, 7), (5, 8), (8, 8), (6, 7), (8, 4), (2, 0), (2, 7), (4, 2), (0, 1)]
    edges += [(0, 6), (3, 7), (6, 4), (1, 1), (5, 5), (6, 0), (0, 3), (2, 8), (2, 8)]
    primitive = [UNDECIDED, TIE] + [UNDECIDED] * 7
    s = solve_retrograde(build(9, edges), primitive, misere=True)
    assert [s[p].name for p in range(9)] == [
        "WIN",
        "TIE",
        "DRAW",
        "LOSE",
        "DRAW",
        "DRAW",
        "DRAW",
        "WIN",
        "DRAW",
    ]
    assert s.remoteness.tolist() == [2, 0, -1, 1, -1, -1, -1, 0, -1]
    assert brute.retrograde(9, edges, primitive, misere=True) == (
        s.value.tolist(),
        s.remoteness.tolist(),
    )


def test_empty_graph_and_isolated_positions() -> None:
    empty = solve_retrograde(GameGraph.from_edges([], [], n=0))
    assert empty.value.shape == (0,) and empty.remoteness.shape == (0,)
    s = solve_retrograde(GameGraph.from_edges([], [], n=3), misere=True)
    assert s.value.tolist() == [WIN] * 3 and s.remoteness.tolist() == [0] * 3


def test_solution_arrays_and_solver_name() -> None:
    g = GameGraph.from_edges([0, 1], [1, 2], n=3)
    s = solve_retrograde(g)
    assert s.graph is g and s.solver == "retrograde" and s.score is None
    assert s.value.dtype == np.uint8 and s.remoteness.dtype == np.int32
    assert s.summary() == {"WIN": 1, "LOSE": 2, "TIE": 0, "DRAW": 0}


@pytest.mark.parametrize(
    ("degree", "dtype"),
    [(1, np.int8), (127, np.int8), (128, np.int16), (32767, np.int16), (32768, np.int32)],
)
def test_move_counters_count_past_the_smallest_state_dtype(degree: int, dtype: type) -> None:
    # 0 has `degree` moves, each to a WIN (i -> the move-less last position): a LOSE in 2.
    src = [0] * degree + list(range(1, degree + 1))
    dst = list(range(1, degree + 1)) + [degree + 1] * degree
    g = GameGraph.from_edges(src, dst, n=degree + 2)
    assert _state_dtype(g) is dtype
    s = solve_retrograde(g)
    assert (s[0], int(s.remoteness[0])) == (Value.LOSE, 2)
    assert s.summary() == {"WIN": degree, "LOSE": 2, "TIE": 0, "DRAW": 0}
    # One move to a DRAW (a self-loop) keeps the counter from reaching zero.
    g = GameGraph.from_edges([*src, 0], [*dst, 0], n=degree + 2)
    assert solve_retrograde(g)[0] == Value.DRAW


def test_primitive_accepts_any_integer_dtype_and_value_members() -> None:
    g = GameGraph.from_edges([0], [1], n=2)
    for prim in ([UNDECIDED, Value.TIE], np.array([255, 2], dtype=np.int64), (255, 2)):
        assert solve_retrograde(g, prim).value.tolist() == [TIE, TIE]


# ---------------------------------------------------------------- validation


@pytest.mark.parametrize(
    ("primitive", "message"),
    [
        ([0, 0], r"one entry per position \(shape \(3,\)\), got shape \(2,\)"),
        ([[0, 0, 0]], r"got shape \(1, 3\)"),
        (np.zeros(3, dtype=np.float64), "integer value codes, got dtype float64"),
        (np.zeros(3, dtype=bool), "integer value codes, got dtype bool"),
        ([255, 255, DRAW], r"primitive\[2\] = 1 \(DRAW\) is not a primitive value"),
        ([255, 7, 9], r"primitive\[1\] = 7 is not a primitive value"),
        ([-1, 0, 0], r"primitive\[0\] = -1 is not"),
        (np.array([3, 256, 0], dtype=np.int64), r"primitive\[1\] = 256 is not"),
    ],
)
def test_bad_primitive_arrays_are_rejected(primitive: object, message: str) -> None:
    g = GameGraph.from_edges([0], [1], n=3)
    with pytest.raises(InvalidGraphError, match=message):
        solve_retrograde(g, primitive)  # type: ignore[arg-type]


def test_primitive_values_passes_codes_through_as_uint8() -> None:
    out = primitive_values(np.array([3, 0, 2, 255], dtype=np.int16), 4)
    assert out.dtype == np.uint8 and out.tolist() == [3, 0, 2, 255]
    assert primitive_values(np.array([]), 0).shape == (0,)


def test_refuses_graphs_larger_than_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    g = GameGraph.from_edges([0, 1], [1, 2], n=3)
    monkeypatch.setattr(perfectplay._memory, "available_bytes", lambda: 10)
    with pytest.raises(TooLargeError, match="retrograde analysis of 3 positions and 2 moves"):
        solve_retrograde(g)


# ---------------------------------------------------------------- kernel steps, one by one


def marks_for(n: int) -> np.ndarray:
    return np.zeros((n + 63) // 64, dtype=np.uint64)


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_count_children_counts_moves_not_distinct_children(dtype: type) -> None:
    g = GameGraph.from_edges([0, 0, 0, 2, 2], [1, 1, 2, 2, 0], n=4)
    state = np.full(4, -1, dtype=dtype)
    k.count_children(g.indptr.astype(dtype), state)
    assert state.tolist() == [3, 0, 2, 0]


def test_seed_primitives_decides_rules_and_move_less_positions() -> None:
    # 0 has moves and a primitive LOSE; 1 TIE; 2 no moves; 3 has moves; 4 WIN without moves.
    prim = np.array([LOSE, TIE, UNDECIDED, UNDECIDED, WIN], dtype=np.uint8)
    for terminal in (LOSE, WIN):
        state = np.array([1, 1, 0, 2, 0], dtype=np.int32)
        queue = np.full(5, -7, dtype=np.int32)
        tail = k.seed_primitives(prim, terminal, state, queue)
        assert state.tolist() == [-LOSE, -TIE, -terminal, 2, -WIN]
        assert tail == 3 and queue[:tail].tolist() == [0, 2, 4]


@given(st.lists(st.integers(0, 199), unique=True, max_size=200), st.integers(0, 5))
def test_sort_level_sorts_dense_levels_and_leaves_marks_clear(
    level: list[int], offset: int
) -> None:
    queue = np.array([-7] * offset + level + [-9], dtype=np.int32)
    marks = marks_for(200)
    did_sort = k.sort_level(queue, offset, offset + len(level), marks)
    inside = queue[offset : offset + len(level)].tolist()
    assert sorted(inside) == sorted(level)
    assert inside == (sorted(level) if did_sort else level)
    span = (max(level) >> 6) - (min(level) >> 6) + 1 if level else 0
    assert did_sort == (len(level) >= 2 and 8 * len(level) >= span)
    assert queue[:offset].tolist() == [-7] * offset and queue[-1] == -9
    assert not marks.any()


def test_sort_level_handles_every_bit_of_a_word() -> None:
    n = 64 * 5
    level = list(range(n - 1, -1, -1))
    queue = np.array(level, dtype=np.int64)
    assert k.sort_level(queue, 0, n, marks_for(n))
    assert queue.tolist() == list(range(n))


def test_propagate_win_lose_runs_in_remoteness_order() -> None:
    # 4 has no moves; 3 -> 4 (WIN 1); 2 -> 3, 2 -> 4 (WIN 1); 1 -> 2, 1 -> 3 (LOSE 2);
    # 0 -> 1, 0 -> 0 (WIN 3); 5 -> 5 stays undecided.
    g = GameGraph.from_edges([0, 0, 1, 1, 2, 2, 3, 5], [1, 0, 2, 3, 3, 4, 4, 5], n=6)
    rindptr, rindices = g.reverse()
    state = np.empty(6, dtype=np.int32)
    k.count_children(g.indptr, state)
    queue = np.full(6, -7, dtype=np.int32)
    prim = np.full(6, UNDECIDED, dtype=np.uint8)
    tail = k.seed_primitives(prim, LOSE, state, queue)
    remoteness = np.full(6, -5, dtype=np.int32)
    tail = k.propagate_win_lose(rindptr, rindices, state, remoteness, queue, marks_for(6), 0, tail)
    assert state.tolist() == [-WIN, -LOSE, -WIN, -WIN, -LOSE, 1]
    assert remoteness.tolist() == [3, 2, 1, 1, 0, -5]
    assert tail == 5 and queue[:tail].tolist() == [4, 2, 3, 1, 0]


def test_seed_ties_appends_only_tie_positions() -> None:
    state = np.array([-TIE, -WIN, 4, -TIE, -LOSE], dtype=np.int32)
    queue = np.array([1, 4, -7, -7, -7], dtype=np.int32)
    assert k.seed_ties(state, queue, 2) == 4
    assert queue[:4].tolist() == [1, 4, 0, 3]


def test_propagate_ties_fills_only_undecided_predecessors() -> None:
    # 0 -> 1 -> 2(TIE), 3(WIN) -> 2, 4 -> 4: 1 ties in 1, 0 in 2, 3 keeps its WIN.
    g = GameGraph.from_edges([0, 1, 3, 4], [1, 2, 2, 4], n=5)
    rindptr, rindices = g.reverse()
    state = np.array([1, 1, -TIE, -WIN, 1], dtype=np.int32)
    remoteness = np.array([-5, -5, -5, 5, -5], dtype=np.int32)
    queue = np.array([3, 2, -7, -7, -7], dtype=np.int32)
    tail = k.propagate_ties(rindptr, rindices, state, remoteness, queue, marks_for(5), 1, 2)
    assert tail == 4 and queue[:4].tolist() == [3, 2, 1, 0]
    assert state.tolist() == [-TIE, -TIE, -TIE, -WIN, 1]
    assert remoteness.tolist() == [2, 1, 0, 5, -5]


def test_mark_draws_writes_values_and_marks_only_undecided() -> None:
    state = np.array([2, -WIN, 1, -TIE, -LOSE], dtype=np.int32)
    remoteness = np.array([9, 3, 9, 1, 4], dtype=np.int32)
    value = np.full(5, 77, dtype=np.uint8)
    assert k.mark_draws(state, value, remoteness) == 2
    assert value.tolist() == [DRAW, WIN, DRAW, TIE, LOSE]
    assert remoteness.tolist() == [-1, 3, -1, 1, 4]


def test_kernels_accept_int64_index_arrays() -> None:
    g = GameGraph.from_edges([0, 1, 2, 4], [1, 2, 0, 3], n=5)
    rindptr, rindices = (a.astype(np.int64) for a in g.reverse())
    state = np.empty(5, dtype=np.int64)
    k.count_children(g.indptr.astype(np.int64), state)
    queue = np.empty(5, dtype=np.int64)
    remoteness = np.empty(5, dtype=np.int32)
    marks = marks_for(5)
    prim = np.full(5, UNDECIDED, dtype=np.uint8)
    tail = k.seed_primitives(prim, LOSE, state, queue)
    tail = k.propagate_win_lose(rindptr, rindices, state, remoteness, queue, marks, 0, tail)
    head, tail = tail, k.seed_ties(state, queue, tail)
    k.propagate_ties(rindptr, rindices, state, remoteness, queue, marks, head, tail)
    value = np.empty(5, dtype=np.uint8)
    assert k.mark_draws(state, value, remoteness) == 3
    assert value.tolist() == [DRAW, DRAW, DRAW, LOSE, WIN]
    assert remoteness.tolist() == [-1, -1, -1, 0, 1]


def _parallel_chains(rows: int, width: int) -> tuple[GameGraph, np.ndarray]:
    """`width` chains of `rows` positions; p moves 1 or 2 rows down (p + width, p + 2 width).

    Every level holds `width` positions and the graph has at least
    ``k.PREFETCH_MIN_MOVES`` moves, so the propagations run their prefetching path.
    Returns the graph and each position's distance (in rows) to the last row.
    """
    n = rows * width
    p = np.arange(n)
    one, two = p[p + width < n], p[p + 2 * width < n]
    g = GameGraph.from_edges(
        np.concatenate([one, two]), np.concatenate([one + width, two + 2 * width]), n=n
    )
    assert g.m >= k.PREFETCH_MIN_MOVES
    return g, (n - 1 - p) // width


def test_prefetching_path_on_wide_levels_win_lose() -> None:
    # The subtraction game {1, 2} on each chain: a LOSE exactly every third row.
    g, d = _parallel_chains(600, 1000)
    s = solve_retrograde(g)
    expected_value = np.where(d % 3 == 0, LOSE, WIN)
    assert np.array_equal(s.value, expected_value)
    assert np.array_equal(s.remoteness, 2 * (d // 3) + (d % 3 != 0))


def test_prefetching_path_on_wide_levels_ties() -> None:
    # The last row ties by the rules: everything ties, as near as the moves allow.
    g, d = _parallel_chains(600, 1000)
    primitive = np.where(d == 0, TIE, UNDECIDED).astype(np.uint8)
    s = solve_retrograde(g, primitive)
    assert (s.value == TIE).all()
    assert np.array_equal(s.remoteness, (d + 1) // 2)


def test_the_prefetching_level_pipeline_is_written_once() -> None:
    """Both propagations run one pipeline: a single kernel issues the prefetches."""
    tree = ast.parse(Path(k.__file__).read_text())
    prefetching = [
        f.name
        for f in tree.body
        if isinstance(f, ast.FunctionDef)
        and any(
            isinstance(n, ast.Call) and getattr(n.func, "id", None) == "_prefetch"
            for n in ast.walk(f)
        )
    ]
    assert prefetching == ["_propagate"]
