"""What a solved position answers (perfectplay.protocol.answers): moves valued for their maker."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perfectplay.protocol.answers import GameMove, PositionValue, valued_moves
from perfectplay.values import NO_REMOTENESS, Value

DECIDED = [Value.LOSE, Value.DRAW, Value.TIE, Value.WIN]


@st.composite
def entries(draw: st.DrawFn, scored: bool) -> PositionValue:
    value = draw(st.sampled_from(DECIDED))
    remoteness = NO_REMOTENESS if value == Value.DRAW else draw(st.integers(0, 50))
    return PositionValue(value, remoteness, draw(st.integers(-99, 99)) if scored else None)


@given(st.booleans(), st.data())
def test_each_move_takes_its_childs_answer_seen_from_the_mover(
    scored: bool, data: st.DataObject
) -> None:
    n = data.draw(st.integers(0, 6))
    answers = [data.draw(entries(scored)) for _ in range(n)]
    gains = [data.draw(st.integers(-9, 9)) for _ in range(n)]
    moves = [
        (f"m{i}", 100 + i, gains[i]) if i % 2 else (i, 100 + i)  # a gain, or none (then 0)
        for i in range(n)
    ]
    asked: list[int] = []

    def probe(child: int) -> PositionValue:
        asked.append(child)
        return answers[child - 100]

    result = valued_moves(moves, probe)
    assert asked == [100 + i for i in range(n)]  # one probe per move, in order
    assert [m.label for m in result] == [str(m[0]) for m in moves]
    assert [m.position for m in result] == asked
    for i, (move, entry) in enumerate(zip(result, answers, strict=True)):
        assert move.value == entry.value.flipped()
        assert (move.value == Value.WIN) == (entry.value == Value.LOSE)
        if entry.remoteness == NO_REMOTENESS:
            assert move.remoteness == NO_REMOTENESS
        else:
            assert move.remoteness == entry.remoteness + 1
        if entry.score is None:
            assert move.score is None
        else:
            assert move.score == (gains[i] if i % 2 else 0) - entry.score


def test_answers_are_frozen_and_unscored_by_default() -> None:
    entry = PositionValue(Value.WIN, 3)
    move = GameMove("a1", (1, 2), Value.LOSE, 4)
    assert entry.score is None and move.score is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        entry.value = Value.LOSE  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        move.label = "b2"  # type: ignore[misc]
    assert move == GameMove("a1", (1, 2), Value.LOSE, 4, None)


def test_no_moves_ask_no_probe() -> None:
    def probe(child: object) -> PositionValue:
        raise AssertionError("probed")

    assert valued_moves([], probe) == []
