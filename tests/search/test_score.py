"""The search score: order, round trips, the negamax step and window translation."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perfectplay.search.score import (
    BIG,
    INFINITY,
    MAX_REMOTENESS,
    child_window,
    from_value,
    narrow,
    parent_score,
    to_value,
)
from perfectplay.values import Value

remoteness = st.integers(0, 500)
outcomes = st.sampled_from([Value.WIN, Value.LOSE, Value.TIE])


def _rank(value: Value, r: int) -> tuple[int, int]:
    """The player to move's preference, written from the definition (TIE ignores r)."""
    if value == Value.WIN:
        return (2, -r)
    if value == Value.LOSE:
        return (0, r)
    return (1, 0)


@given(outcomes, remoteness, outcomes, remoteness)
def test_score_orders_outcomes_for_the_player_to_move(
    v1: Value, r1: int, v2: Value, r2: int
) -> None:
    s1, s2 = from_value(v1, r1), from_value(v2, r2)
    assert (s1 < s2) == (_rank(v1, r1) < _rank(v2, r2))
    assert (s1 == s2) == (_rank(v1, r1) == _rank(v2, r2))


@given(outcomes, remoteness)
def test_round_trip(value: Value, r: int) -> None:
    s = from_value(value, r)
    assert to_value(s) == (value, None if value == Value.TIE else r)
    assert s not in (1, -1)


@given(st.lists(st.tuples(outcomes, remoteness), min_size=1, max_size=6))
def test_negamax_step_is_the_solvers_rule(children: list[tuple[Value, int]]) -> None:
    """max(parent_score(child)) = WIN 1+min LOSE, else TIE, else LOSE 1+max WIN."""
    best = max(parent_score(from_value(v, r)) for v, r in children)
    lose = [r for v, r in children if v == Value.LOSE]
    tie = [r for v, r in children if v == Value.TIE]
    if lose:
        assert to_value(best) == (Value.WIN, 1 + min(lose))
    elif tie:
        assert to_value(best) == (Value.TIE, None)
    else:
        assert to_value(best) == (Value.LOSE, 1 + max(r for _, r in children))


real_scores = st.one_of(
    st.just(0),
    st.integers(0, 400).map(lambda r: BIG - r),
    st.integers(0, 400).map(lambda r: r - BIG),
)
window_ends = st.one_of(real_scores, st.integers(-3, 3), st.sampled_from([-INFINITY, INFINITY]))


@given(real_scores, window_ends, window_ends)
def test_child_window_translates_exactly(c: int, x: int, y: int) -> None:
    alpha, beta = min(x, y), max(x, y)
    a, b = child_window(alpha, beta)
    assert (parent_score(c) <= alpha) == (c >= b)
    assert (parent_score(c) >= beta) == (c <= a)


@given(st.integers(-(10**6), 10**6), st.integers(-(10**6), 10**6), st.booleans())
def test_narrow_finds_the_score(true: int, guess: int, soft: bool) -> None:
    def probe(alpha: int, beta: int) -> int:
        if soft and true >= beta:  # fail-soft: a true bound at or beyond the window's edge
            return (true + beta) // 2
        if soft and true <= alpha:
            return (true + alpha) // 2
        return min(max(true, alpha), beta)

    found, probes = narrow(probe, guess=guess)
    assert found == true and probes >= 1


def test_refusals() -> None:
    with pytest.raises(ValueError, match="out of range"):
        from_value(Value.WIN, MAX_REMOTENESS + 1)
    with pytest.raises(ValueError, match="no search score"):
        from_value(Value.DRAW, 0)
    with pytest.raises(ValueError, match="not a search score"):
        to_value(1)
