"""Arrays on kept mappings: reused once every view is gone, never while one lives."""

from __future__ import annotations

import gc
import itertools
import os
import threading
import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perfectplay import _mappings
from perfectplay._mappings import idle_bytes, populated_empty, populated_zeros

MIB = 1 << 20


def _span(a: np.ndarray) -> tuple[int, int]:
    return a.ctypes.data, a.ctypes.data + a.nbytes


def test_a_dropped_array_s_mapping_serves_the_next_array_of_about_its_size() -> None:
    gc.collect()  # no array of an earlier test handed back meanwhile
    a = populated_empty(8 * MIB, np.uint8)
    address = a.ctypes.data
    before = idle_bytes()
    del a
    assert idle_bytes() >= before + 8 * MIB
    b = populated_empty(7 * MIB, np.uint8)  # within the slack: the same mapping
    assert b.ctypes.data == address


def test_a_much_smaller_array_gets_a_mapping_of_its_own() -> None:
    a = populated_empty(64 * MIB, np.uint8)
    address = a.ctypes.data
    del a
    b = populated_empty(8 * MIB, np.uint8)
    assert b.ctypes.data != address


def test_a_view_keeps_its_mapping_from_reuse() -> None:
    a = populated_empty(8 * MIB, np.uint8)
    a.fill(7)
    view = a[MIB : 2 * MIB].view(np.uint16)
    del a
    b = populated_empty(8 * MIB, np.uint8)
    b.fill(9)
    assert (view == 0x0707).all()
    start, stop = _span(b)
    assert not start <= view.ctypes.data < stop


def test_zeros_are_zero_on_a_reused_mapping() -> None:
    a = populated_empty(8 * MIB, np.uint32)
    a.fill(0xFFFFFFFF)
    del a
    assert not populated_zeros(8 * MIB, np.uint32).any()


def test_small_arrays_are_plain_numpy_arrays() -> None:
    before = idle_bytes()
    a = populated_empty(1000, np.int64)
    assert a.flags.owndata
    del a
    assert idle_bytes() == before


def test_idle_mappings_stay_within_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_mappings, "IDLE_BYTES", 20 * MIB)
    arrays = [populated_empty(8 * MIB, np.uint8) for _ in range(4)]
    arrays.clear()
    assert idle_bytes() <= 20 * MIB


@settings(max_examples=30, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(4, 24), st.integers(0, 7)),  # MiB to take, which array to drop
        min_size=1,
        max_size=12,
    )
)
def test_live_arrays_never_share_memory(steps: list[tuple[int, int]]) -> None:
    live: list[tuple[np.ndarray, int]] = []
    for n, (mib, drop) in enumerate(steps):
        a = populated_empty(mib * MIB - n, np.uint8)
        a[::4096] = n % 251
        live.append((a, n % 251))
        if drop < len(live):
            live.pop(drop)
        spans = sorted(_span(x) for x, _ in live)
        assert all(stop <= start for (_, stop), (start, _) in itertools.pairwise(spans))
        assert all((x[::4096] == mark).all() for x, mark in live)


def test_threads_taking_and_dropping_at_once_keep_their_own_memory() -> None:
    failures: list[int] = []

    def work(mark: int) -> None:
        for i in range(40):
            a = populated_empty((4 + i % 5) * MIB, np.uint8)
            a.fill(mark)
            if not (a[::4096] == mark).all():
                failures.append(mark)

    threads = [threading.Thread(target=work, args=(m,)) for m in (1, 2, 3, 4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_starts_with_nothing_kept() -> None:
    a = populated_empty(8 * MIB, np.uint8)
    del a
    assert idle_bytes() > 0
    pid = os.fork()
    if pid == 0:
        ok = idle_bytes() == 0 and populated_empty(8 * MIB, np.uint8).size == 8 * MIB
        os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_tracemalloc_sees_the_mappings_lent_to_arrays() -> None:
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        a = populated_empty(8 * MIB, np.uint8)
        lent = tracemalloc.get_traced_memory()[0] - before
        del a
        back = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert lent >= 8 * MIB
    assert back < MIB
