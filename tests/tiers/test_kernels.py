"""The tier engine's bit-array kernels against plain Python sets, its grouping of moves by
child tier against a stable sort, and its widest run against the runs an indptr is built
from."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from perfectplay.tiers._kernels import (
    claim_bits,
    claim_bits_where,
    get_bits,
    group_moves,
    set_bits,
    set_bits_where,
    widest_run,
)


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


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 99)), max_size=60), st.integers(0, 3))
def test_the_where_forms_take_the_moves_into_one_tier_only(
    moves: list[tuple[int, int]], j: int
) -> None:
    which = np.array([w for w, _ in moves], dtype=np.int8)
    rank = np.array([r for _, r in moves], dtype=np.int64)
    mine = rank[which == j]
    flags, plain = np.zeros(13, dtype=np.uint8), np.zeros(13, dtype=np.uint8)
    assert claim_bits_where(flags, which, rank, j).tolist() == claim_bits(plain, mine).tolist()
    assert flags.tolist() == plain.tolist()
    set_bits_where(flags, which, rank, (j + 1) % 4)
    set_bits(plain, rank[which == (j + 1) % 4])
    assert flags.tolist() == plain.tolist()


@given(st.integers(1, 9), st.data())
def test_group_moves_sorts_the_moves_into_earlier_tiers_stably_or_names_the_first_outside(
    groups: int, data: st.DataObject
) -> None:
    # Up to 4 child tiers a pass per tier, beyond a counting sort: both sides of the bound.
    which = data.draw(st.lists(st.integers(-2, groups + 2), max_size=80))
    order, starts, bad = group_moves(np.array(which, dtype=np.int8), groups)
    outside = [i for i, w in enumerate(which) if not 0 <= w <= groups]
    assert bad == (outside[0] if outside else -1)
    if not outside:
        assert starts.tolist() == [sum(0 < w <= j for w in which) for j in range(groups + 1)]
        into = [i for i, w in enumerate(which) if w]
        assert order.tolist() == sorted(into, key=lambda i: which[i])


@given(st.lists(st.integers(0, 40), max_size=30))
def test_widest_run_is_the_largest_step_of_indptr(runs: list[int]) -> None:
    indptr = np.concatenate([[0], np.cumsum(runs, dtype=np.int64)]).astype(np.int64)
    assert widest_run(indptr) == max(runs, default=0)
