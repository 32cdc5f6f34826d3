"""The shared integer-token kernels: any int of at most 18 digits round-trips, longer is refused."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from perfectplay._tokens import (
    INT_BAD,
    INT_OK,
    INT_TOO_BIG,
    MAX_DIGITS,
    PARSE_BAD,
    PARSE_END,
    PARSE_OK,
    PARSE_TOO_BIG,
    parse_ints,
    read_int,
)

_LIMIT = 10**MAX_DIGITS - 1


def _buf(text: str) -> np.ndarray:
    return np.frombuffer(text.encode(), dtype=np.uint8)


@given(st.integers(-_LIMIT, _LIMIT), st.sampled_from(["", " ", "\n", "#", "x"]))
def test_integers_round_trip_and_stop_after_their_digits(value: int, after: str) -> None:
    text = f"ab{value}{after}"
    assert read_int(_buf(text), 2) == (INT_OK, value, 2 + len(str(value)))


@given(st.integers(10**MAX_DIGITS, 10**40), st.booleans())
def test_more_than_18_digits_are_too_big(value: int, negative: bool) -> None:
    assert read_int(_buf(f"{'-' if negative else ''}{value}"), 0)[0] == INT_TOO_BIG


def test_a_token_without_digits_is_bad() -> None:
    for text in ["", "-", "x1", "--1", " 1"]:
        assert read_int(_buf(text), 0)[0] == INT_BAD


def test_parse_ints_reports_where_it_stopped() -> None:
    out = np.zeros(3, dtype=np.int64)
    assert parse_ints(_buf(" 1 -2\n3 x"), 0, out) == (PARSE_OK, 7)
    assert out.tolist() == [1, -2, 3]
    assert parse_ints(_buf("1 2x 3"), 0, out) == (PARSE_BAD, 2)
    assert parse_ints(_buf("1 " + "9" * 19), 0, out) == (PARSE_TOO_BIG, 2)
    assert parse_ints(_buf("1 2 \n"), 0, out) == (PARSE_END, 5)
