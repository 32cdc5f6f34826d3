"""perfectplay._bits against plain Python integers."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from perfectplay._bits import highest_bit, lowest_bit, popcount, runs_of_four

words = st.integers(0, 2**63 - 1)


@given(words)
def test_popcount_counts_the_set_bits(x: int) -> None:
    assert int(popcount(np.int64(x))) == x.bit_count()
    assert int(popcount(np.uint64(x))) == x.bit_count()


@given(st.integers(0, 2**64 - 1))
def test_popcount_of_every_unsigned_word(x: int) -> None:
    assert int(popcount(np.uint64(x))) == x.bit_count()


@given(words)
def test_lowest_and_highest_bit(x: int) -> None:
    assert int(lowest_bit(np.int64(x))) == (x & -x)
    if x:
        assert int(highest_bit(np.int64(x))) == 1 << (x.bit_length() - 1)


@given(st.integers(0, 2**64 - 1))
def test_lowest_bit_of_an_unsigned_word(x: int) -> None:
    assert int(lowest_bit(np.uint64(x))) == (x & -x)


@given(words, st.integers(1, 15))
def test_runs_of_four_start_where_four_bits_are_set(stones: int, step: int) -> None:
    starts = int(runs_of_four(np.int64(stones), step))
    expected = 0
    for i in range(64 - 3 * step):
        if all(stones >> (i + k * step) & 1 for k in range(4)):
            expected |= 1 << i
    assert starts == expected
