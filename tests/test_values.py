"""Tests of the value enum, its integer constants, sentinels and dtypes."""

from __future__ import annotations

import numpy as np
import pytest

from perfectplay import values
from perfectplay.errors import InputFormatError
from perfectplay.values import Value


def test_order_is_the_preference_of_the_player_to_move() -> None:
    assert sorted(Value) == [Value.LOSE, Value.DRAW, Value.TIE, Value.WIN, Value.UNDECIDED]
    assert Value.LOSE < Value.DRAW < Value.TIE < Value.WIN


def test_plain_constants_match_the_enum_and_fit_the_dtypes() -> None:
    for v in Value:
        assert getattr(values, v.name) == int(v)
        assert np.array([v], dtype=values.VALUE_DTYPE)[0] == int(v)
    assert values.VALUE_DTYPE is np.uint8 and values.REMOTENESS_DTYPE is np.int32
    assert values.NO_REMOTENESS == -1
    assert len({int(v) for v in Value}) == len(Value)


@pytest.mark.parametrize("word", ["win", "WIN", "Win", "lose", "tie", "DRAW"])
def test_parse_reads_value_words_in_any_case(word: str) -> None:
    assert Value.parse(word) is Value[word.upper()]


@pytest.mark.parametrize("word", ["undecided", "", "wins", "3", "L"])
def test_parse_rejects_other_words_naming_word_and_line(word: str) -> None:
    with pytest.raises(InputFormatError, match=f"line 7: unknown value {word!r}") as info:
        Value.parse(word, line=7)
    assert info.value.line == 7
    with pytest.raises(InputFormatError, match=r"^unknown value"):
        Value.parse(word)


def test_flipped_swaps_win_and_lose_only_and_is_an_involution() -> None:
    assert Value.WIN.flipped() is Value.LOSE and Value.LOSE.flipped() is Value.WIN
    for v in Value:
        assert v.flipped().flipped() is v
        if v not in (Value.WIN, Value.LOSE):
            assert v.flipped() is v


@pytest.mark.parametrize("value", list(Value))
def test_a_value_prints_as_its_name_and_converts_to_its_number(value: Value) -> None:
    assert str(value) == f"{value}" == value.name
    assert f"{value:>9}" == f"{value.name:>9}"
    assert f"{value:d}" == str(int(value)) and f"{value:03d}" == f"{int(value):03d}"


@pytest.mark.parametrize("value", [Value.LOSE, Value.DRAW, Value.TIE, Value.WIN])
def test_a_printed_value_parses_back(value: Value) -> None:
    assert Value.parse(str(value)) is value
