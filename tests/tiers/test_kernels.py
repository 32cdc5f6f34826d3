"""The tier engine's bit-array kernels against plain Python sets."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from perfectplay.tiers._kernels import claim_bits, get_bits, set_bits


@given(
    st.lists(st.integers(0, 99), max_size=30),
    st.lists(st.integers(0, 99), max_size=60),
)
def test_claim_bits_returns_the_new_ranks_once_in_first_met_order(
    before: list[int], ranks: list[int]
) -> None:
    flags = np.zeros(13, dtype=np.uint8)
    set_bits(flags, np.array(before, dtype=np.int64))
    claimed = claim_bits(flags, np.array(ranks, dtype=np.int64))
    assert claimed.tolist() == [r for r in dict.fromkeys(ranks) if r not in set(before)]
    everything = np.arange(100, dtype=np.int64)
    assert everything[get_bits(flags, everything)].tolist() == sorted({*before, *ranks})
