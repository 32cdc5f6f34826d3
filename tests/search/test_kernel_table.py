"""The compiled searches' table: no false hits (keys of one word or of two), bounds merged, the
entry of more work kept."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from perfectplay.errors import InputFormatError
from perfectplay.search._kernel_table import (
    MIN_LOG_SIZE,
    NO_BOUND,
    entries_for_bytes,
    new_table,
    table_get,
    table_put,
    table_shift,
    table_slot,
    wide_get,
    wide_put,
    wide_shift,
    wide_slot,
)

_MIX = 0x9E3779B97F4A7C15
_UNMIX = pow(_MIX, -1, 2**64)
LOG_SIZE = MIN_LOG_SIZE + 4  # 4 bits of work beside the check
BITS = 64 - (LOG_SIZE - 1)  # the check's bits


def _key(bucket: int, check: int) -> int:
    """The key whose mixed hash has this bucket (top bits) and check (low bits)."""
    return ((bucket << BITS | check) * _UNMIX) % 2**64


def _put(slots: np.ndarray, key: int, lower: int, upper: int, nodes: int) -> None:
    table_put(slots, table_shift(slots), np.uint64(key), lower, upper, nodes)


def _get(slots: np.ndarray, key: int) -> tuple[int, int]:
    low, up = table_get(slots, table_shift(slots), np.uint64(key))
    return int(low), int(up)


bounds = st.one_of(st.just(NO_BOUND), st.integers(-127, 127))
stores = st.lists(
    st.tuples(st.integers(0, 2), st.integers(0, 5), bounds, bounds, st.integers(1, 10**9)),
    min_size=1,
    max_size=40,
)


@given(stores)
def test_bounds_come_from_stores_of_the_same_key(puts: list[tuple[int, ...]]) -> None:
    """Keys crowded into three buckets, their checks a few apart: what a probe returns is a
    bound stored for that very key (never another key's), and the newest store is kept."""
    slots = new_table(8 << LOG_SIZE)
    stored: dict[int, tuple[set[int], set[int]]] = {}
    for bucket, check, lower, upper, nodes in puts:
        if lower == upper == NO_BOUND:
            continue
        key = _key(bucket, check)
        _put(slots, key, lower, upper, nodes)
        lows, ups = stored.setdefault(key, (set(), set()))
        lows.add(lower)
        ups.add(upper)
        assert _get(slots, key) != (NO_BOUND, NO_BOUND)  # the newest store is kept
    for bucket in range(4):
        for check in range(7):
            key = _key(bucket, check)
            low, up = _get(slots, key)
            lows, ups = stored.get(key, ({NO_BOUND}, {NO_BOUND}))
            assert low in lows | {NO_BOUND}
            assert up in ups | {NO_BOUND}


@given(st.integers(0, 2**30), st.lists(st.integers(1, 2**20), max_size=30))
def test_the_entry_of_more_work_survives(big: int, smalls: list[int]) -> None:
    """A result found by a search of more than 4**11 nodes stays while any number of
    smaller ones (fewer than 4**10 nodes) are stored into its bucket; the newest is kept."""
    slots = new_table(8 << LOG_SIZE)
    kept = _key(big % 7, big)
    _put(slots, kept, 3, NO_BOUND, 4**11 + big)
    for i, nodes in enumerate(smalls):
        other = _key(big % 7, big + 1 + i)
        _put(slots, other, NO_BOUND, -4, nodes)
        assert _get(slots, other) == (NO_BOUND, -4)
    assert _get(slots, kept) == (3, NO_BOUND)


def test_a_key_stored_again_merges_its_bounds() -> None:
    slots = new_table(8 << LOG_SIZE)
    key = _key(5, 9)
    _put(slots, key, -3, 10, 100)
    _put(slots, key, -5, 7, 1)
    _put(slots, key, NO_BOUND, 8, 1)
    assert _get(slots, key) == (-3, 7)
    assert int(table_slot(table_shift(slots), np.uint64(key))) == 10  # bucket 5: entries 10, 11


def test_sizes() -> None:
    assert entries_for_bytes(1) == 1 << MIN_LOG_SIZE
    with pytest.raises(InputFormatError, match="2\\*\\*17"):
        table_shift(np.zeros(1 << (MIN_LOG_SIZE - 1), dtype=np.uint64))


EXTRA = 3  # wide keys of 67 bits
WIDE_LOG_SIZE = MIN_LOG_SIZE + EXTRA + 1  # one bit of work beside the check
_MIX2 = 0xD6E8FEB86659FD93


def _wide_key(bucket: int, check: int, high: int) -> tuple[int, int]:
    """The wide key ``(low, high)`` whose mixed hash has this bucket and low check bits."""
    h = bucket << (64 - (WIDE_LOG_SIZE - 1)) | check
    return ((h * _UNMIX) % 2**64) ^ ((high * _MIX2) % 2**64), high


def _wide(slots: np.ndarray) -> tuple[np.uint64, np.uint64]:
    return wide_shift(slots, EXTRA), np.uint64(EXTRA)


wide_stores = st.lists(
    st.tuples(
        st.integers(0, 2),
        st.integers(0, 3),
        st.integers(0, 2**EXTRA - 1),
        bounds,
        bounds,
        st.integers(1, 10**9),
    ),
    min_size=1,
    max_size=40,
)


@given(wide_stores)
def test_wide_keys_come_from_stores_of_the_same_key(puts: list[tuple[int, ...]]) -> None:
    """Keys of 64 + 3 bits crowded into three buckets, many sharing their whole mixed low word
    and differing only in the high bits: a probe returns bounds stored for that very key."""
    slots = new_table(8 << WIDE_LOG_SIZE)
    shift, extra = _wide(slots)
    stored: dict[tuple[int, int], tuple[set[int], set[int]]] = {}
    for bucket, check, high, lower, upper, nodes in puts:
        if lower == upper == NO_BOUND:
            continue
        low, high = _wide_key(bucket, check, high)
        wide_put(slots, shift, extra, np.uint64(low), np.uint64(high), lower, upper, nodes)
        lows, ups = stored.setdefault((low, high), (set(), set()))
        lows.add(lower)
        ups.add(upper)
        got = wide_get(slots, shift, extra, np.uint64(low), np.uint64(high))
        assert got != (NO_BOUND, NO_BOUND)  # the newest store is kept
    for bucket in range(4):
        for check in range(5):
            for high in range(2**EXTRA):
                low, high = _wide_key(bucket, check, high)
                got = wide_get(slots, shift, extra, np.uint64(low), np.uint64(high))
                lows, ups = stored.get((low, high), ({NO_BOUND}, {NO_BOUND}))
                assert int(got[0]) in lows | {NO_BOUND}
                assert int(got[1]) in ups | {NO_BOUND}


def test_wide_keys_share_the_buckets_of_their_hash() -> None:
    slots = new_table(8 << WIDE_LOG_SIZE)
    shift, extra = _wide(slots)
    low, high = _wide_key(5, 9, 6)
    assert int(wide_slot(shift, extra, np.uint64(low), np.uint64(high))) == 10
    wide_put(slots, shift, extra, np.uint64(low), np.uint64(high), -3, 10, 100)
    wide_put(slots, shift, extra, np.uint64(low), np.uint64(high), -5, 7, 1)
    assert wide_get(slots, shift, extra, np.uint64(low), np.uint64(high)) == (-3, 7)
    assert wide_get(slots, shift, extra, np.uint64(low), np.uint64(7)) == (NO_BOUND, NO_BOUND)


def test_wide_tables_need_room_for_the_longer_check() -> None:
    with pytest.raises(InputFormatError, match="keys of 72 bits needs at least 2\\*\\*25"):
        wide_shift(np.zeros(1 << 24, dtype=np.uint64), 8)
