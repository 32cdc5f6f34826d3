"""Tests of Solution: move values seen from the mover, best moves, summary."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay.graph import GameGraph
from perfectplay.moves import Move
from perfectplay.solution import Solution
from perfectplay.solvers.retrograde import solve_retrograde
from perfectplay.values import DRAW, LOSE, TIE, UNDECIDED, WIN, Value


def star() -> Solution:
    """0 moves to 1 (LOSE in 0), 2 (WIN in 3), 3 (TIE in 2), 4 (DRAW), 1 again, 5 (LOSE in 2)."""
    g = GameGraph.from_edges([0] * 6, [1, 2, 3, 4, 1, 5], n=6)
    value = np.array([WIN, LOSE, WIN, TIE, DRAW, LOSE], dtype=np.uint8)
    remoteness = np.array([1, 0, 3, 2, -1, 2], dtype=np.int32)
    return Solution(g, value, remoteness, solver="hand")


def test_move_values_are_seen_from_the_mover_one_move_further() -> None:
    got = star().move_values(0)
    assert got == [
        Move("1", 1, Value.WIN, 1),
        Move("2", 2, Value.LOSE, 4),
        Move("3", 3, Value.TIE, 3),
        Move("4", 4, Value.DRAW, -1),
        Move("1", 1, Value.WIN, 1),
        Move("5", 5, Value.WIN, 3),
    ]
    assert all(mv.score is None for mv in got)
    assert star().move_values(1) == []


def test_best_moves_take_the_shortest_win_and_keep_multi_edges() -> None:
    s = star()
    assert s.best_moves(0) == [1, 1]
    assert s.best_moves(1) == []  # game over


def test_best_moves_for_loss_tie_and_draw() -> None:
    # 0: all moves lose (to WINs in 2, 4, 2); 1: a WIN, a TIE in 3 and a TIE in 1;
    # 2: a losing move (to the WIN 3) and a drawing one (to 7).
    g = GameGraph.from_edges([0, 0, 0, 1, 1, 1, 2, 2], [3, 4, 3, 4, 5, 6, 3, 7], n=8)
    value = np.array([LOSE, TIE, DRAW, WIN, WIN, TIE, TIE, DRAW], dtype=np.uint8)
    remoteness = np.array([5, 2, -1, 2, 4, 3, 1, -1], dtype=np.int32)
    s = Solution(g, value, remoteness, solver="hand")
    assert s.best_moves(0) == [4]  # the longest loss
    assert s.best_moves(1) == [6]  # the nearest tie
    assert s.best_moves(2) == [7]  # the drawing move


@st.composite
def games(draw: st.DrawFn) -> tuple[GameGraph, np.ndarray]:
    n = draw(st.integers(1, 10))
    pos = st.integers(0, n - 1)
    edges = draw(st.lists(st.tuples(pos, pos), max_size=3 * n))
    code = st.sampled_from([UNDECIDED, UNDECIDED, UNDECIDED, WIN, LOSE, TIE])
    primitive = np.array(draw(st.lists(code, min_size=n, max_size=n)), dtype=np.uint8)
    g = GameGraph.from_edges([u for u, _ in edges], [v for _, v in edges], n=n)
    return g, primitive


@settings(max_examples=300)
@given(games())
def test_best_moves_match_their_definition_on_solved_games(
    game: tuple[GameGraph, np.ndarray],
) -> None:
    g, primitive = game
    s = solve_retrograde(g, primitive)
    for p in range(g.n):
        kids = g.moves(p).tolist()
        v, r = int(s.value[p]), int(s.remoteness[p])
        if r == 0:
            expected: list[int] = []
        elif v == DRAW:
            expected = [c for c in kids if s.value[c] == DRAW]
        else:
            child_value = {WIN: LOSE, LOSE: WIN, TIE: TIE}[v]
            good = [c for c in kids if s.value[c] == child_value]
            pick = max if v == LOSE else min
            target = pick(int(s.remoteness[c]) for c in good)
            expected = [c for c in good if s.remoteness[c] == target]
        assert s.best_moves(p) == expected
        for mv, c in zip(s.move_values(p), kids, strict=True):
            assert mv.position == c and mv.value == Value(int(s.value[c])).flipped()
            assert mv.remoteness == (-1 if s.remoteness[c] == -1 else s.remoteness[c] + 1)


def scored(
    gain: list[int] | None, values: list[int], remote: list[int], score: list[int]
) -> Solution:
    n = len(values)
    g = GameGraph.from_edges([0] * (n - 1), list(range(1, n)), n=n, gain=gain)
    return Solution(
        g,
        np.array(values, dtype=np.uint8),
        np.array(remote, dtype=np.int32),
        score=np.array(score, dtype=np.int64),
        solver="hand",
    )


def test_scored_move_values_add_the_gain_and_flip_the_child_score() -> None:
    s = scored([5, 1, 5], [WIN, LOSE, LOSE, TIE], [1, 0, 0, 0], [5, 2, -2, 0])
    assert [(mv.position, mv.score) for mv in s.move_values(0)] == [(1, 3), (2, 3), (3, 5)]
    assert s.best_moves(0) == [3]
    no_gain = scored(None, [WIN, LOSE, WIN], [1, 0, 0], [4, -4, 1])
    assert [mv.score for mv in no_gain.move_values(0)] == [4, -1]


def test_scored_best_moves_put_score_first_then_value_then_remoteness() -> None:
    # Moves 1, 2, 3 all score 3; 1 and 3 win (in 2 and 4), 2 ties; 4 scores less.
    s = scored(
        [3, 3, 3, 0],
        [WIN, LOSE, TIE, LOSE, LOSE],
        [2, 1, 0, 3, 0],
        [3, 0, 0, 0, -2],
    )
    assert s.best_moves(0) == [1]


def test_summary_len_getitem_and_repr() -> None:
    s = star()
    assert len(s) == 6 and s[0] is Value.WIN and s[4] is Value.DRAW
    assert s.summary() == {"WIN": 2, "LOSE": 2, "TIE": 1, "DRAW": 1}
    assert repr(s) == "<Solution by hand: n=6, WIN=2, LOSE=2, TIE=1, DRAW=1>"
    s.value[3] = UNDECIDED
    assert s.summary()["UNDECIDED"] == 1 and s.summary()["TIE"] == 0
    empty = Solution(
        GameGraph.from_edges([], []), np.empty(0, np.uint8), np.empty(0, np.int32), solver="x"
    )
    assert empty.summary() == {"WIN": 0, "LOSE": 0, "TIE": 0, "DRAW": 0}
