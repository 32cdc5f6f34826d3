"""The one move record (perfectplay.moves): a move valued for its maker, and the best-move rule."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perfectplay.moves import Move, optimal_moves, outcome_words
from perfectplay.values import NO_REMOTENESS, UNKNOWN_REMOTENESS, Value

DECIDED = [Value.LOSE, Value.DRAW, Value.TIE, Value.WIN]
SENTINELS = [NO_REMOTENESS, UNKNOWN_REMOTENESS]


def test_a_move_is_frozen_unscored_by_default_and_compared_by_its_fields() -> None:
    move = Move("a1", (1, 2), Value.LOSE, 4)
    assert (move.label, move.position, move.value, move.remoteness, move.score) == (
        "a1", (1, 2), Value.LOSE, 4, None
    )  # fmt: skip
    with pytest.raises(dataclasses.FrozenInstanceError):
        move.label = "b2"  # type: ignore[misc]
    assert move == Move("a1", (1, 2), Value.LOSE, 4, None) != Move("a1", (1, 3), Value.LOSE, 4)
    assert hash(move) == hash(Move("a1", (1, 2), Value.LOSE, 4))


@given(
    st.sampled_from(DECIDED),
    st.one_of(st.integers(0, 1000), st.sampled_from(SENTINELS)),
    st.one_of(st.none(), st.integers(-99, 99)),
    st.integers(-9, 9),
)
def test_into_sees_the_childs_answer_from_the_mover(
    value: Value, remoteness: int, score: int | None, gain: int
) -> None:
    move = Move.into("m", "child", value, remoteness, score, gain)
    assert (move.label, move.position) == ("m", "child")
    # Independently of Value.flipped: a loss there is a win here; a tie, a draw stay.
    assert move.value == {Value.LOSE: Value.WIN, Value.WIN: Value.LOSE}.get(value, value)
    if remoteness in SENTINELS:
        assert move.remoteness == remoteness  # a draw stays a draw, unknown stays unknown
    else:
        assert move.remoteness == remoteness + 1  # the move itself counts
    assert move.score == (None if score is None else gain - score)


@pytest.mark.parametrize(
    ("move", "text"),
    [
        (Move("a1", 0, Value.WIN, 3), "a1: WIN in 3"),
        (Move("b", 0, Value.DRAW, NO_REMOTENESS), "b: DRAW"),
        (Move("w", 0, Value.WIN, UNKNOWN_REMOTENESS), "w: WIN"),
        (Move("c", 0, Value.LOSE, 2, score=-4), "c: LOSE in 2, score -4"),
        (Move("d", 0, Value.TIE, 1, score=5), "d: TIE in 1, score +5"),
    ],
)
def test_a_move_in_words(move: Move[int], text: str) -> None:
    assert str(move) == text
    assert text.split(": ")[1].split(",")[0] == outcome_words(move.value, move.remoteness)


def test_outcome_words_leave_out_a_sentinel_or_missing_remoteness() -> None:
    assert outcome_words(Value.LOSE, 0) == "LOSE in 0"
    assert {outcome_words(Value.WIN, r) for r in (*SENTINELS, None)} == {"WIN"}


@st.composite
def options(draw: st.DrawFn, scored: bool, weak: bool) -> list[Move[int]]:
    moves = []
    for i in range(draw(st.integers(1, 8))):
        value = draw(st.sampled_from(DECIDED))
        if value == Value.DRAW:
            remoteness = NO_REMOTENESS
        else:
            remoteness = UNKNOWN_REMOTENESS if weak else draw(st.integers(1, 9))
        score = draw(st.integers(-3, 3)) if scored else None
        moves.append(Move(f"m{i}", i, value, remoteness, score))
    return moves


def _brute_best(moves: list[Move[int]], value: Value, score: int | None) -> list[Move[int]]:
    """The rule spelt out: the moves reaching the score (scored), then the best value for
    the mover among them (else `value`), then the fastest win or tie, the slowest loss, any
    draw; without a known remoteness, every move of that value."""
    if score is not None:
        moves = [m for m in moves if m.score == score]
        value = max((m.value for m in moves), default=value)
    same = [m for m in moves if m.value == value]
    known = [m.remoteness for m in same if m.remoteness >= 0]
    if value == Value.DRAW or not known:
        return same
    want = max(known) if value == Value.LOSE else min(known)
    return [m for m in same if m.remoteness == want]


@given(st.booleans(), st.booleans(), st.data())
def test_optimal_moves_follow_the_rule(scored: bool, weak: bool, data: st.DataObject) -> None:
    moves = data.draw(options(scored, weak))
    value = max(m.value for m in moves)  # the position's value: its best move's
    score = max(m.score for m in moves if m.score is not None) if scored else None
    best = optimal_moves(moves, value, score)
    assert best == _brute_best(moves, value, score)
    assert best  # a position where play goes on has a best move
    assert [m.position for m in best] == sorted(m.position for m in best)  # in `moves` order
    if weak and not scored:
        assert best == [m for m in moves if m.value == value]
