"""The fixed-size table of bounds: slots, replacement, the byte budget."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perfectplay.errors import InputFormatError, TooLargeError
from perfectplay.search.table import BYTES_PER_ENTRY, BoundTable


@given(st.lists(st.tuples(st.integers(0, 30), st.integers(-5, 5)), max_size=60),
       st.integers(1, 16))  # fmt: skip
def test_get_returns_the_last_store_or_nothing(stores: list[tuple[int, int]], cap: int) -> None:
    table = BoundTable(cap)
    last: dict[int, int] = {}
    for key, bound in stores:
        table.store(key, bound, bound + 1, key % 3)
        last[key] = bound
    assert len(table) <= cap
    for key in range(31):
        got = table.get(key)
        if got is not None:  # a kept entry is the latest one for its key, never another key's
            assert got == (last[key], last[key] + 1, key % 3)
    if stores:  # the very last store is always kept
        key, bound = stores[-1]
        assert table.get(key) == (bound, bound + 1, key % 3)


def test_budget_sets_capacity() -> None:
    assert BoundTable.for_budget(10 * BYTES_PER_ENTRY + 5).capacity == 10


def test_budget_refusals() -> None:
    with pytest.raises(TooLargeError, match=r"needs about 2\^62 bytes"):
        BoundTable.for_budget(2**62)
    with pytest.raises(InputFormatError, match="holds no entry"):
        BoundTable.for_budget(BYTES_PER_ENTRY - 1)
    with pytest.raises(InputFormatError, match="number of bytes"):
        BoundTable.for_budget(2.5)  # type: ignore[arg-type]
    with pytest.raises(InputFormatError, match="at least 1 slot"):
        BoundTable(0)


def test_bytes_per_entry_estimate_holds() -> None:
    """A filled table of tuple keys stays within the per-entry estimate."""
    import tracemalloc

    n = 20_000
    keys = [(i, i + 1, i % 7) for i in range(n)]  # made before measuring: like live positions
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    table = BoundTable(n)
    for i, key in enumerate(keys):
        table.store(key, -(1 << 40) - i, (1 << 40) + i, 1)
    used = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    key_bytes = 64 + 3 * 28
    assert used / n + key_bytes <= BYTES_PER_ENTRY * 1.1


def test_slots_are_the_same_in_every_process() -> None:
    """Python salts ``hash`` of a string per process; the table's slots must not depend on it,
    or a worker process searches other node counts than its parent."""
    code = "from perfectplay.search.table import slot_hash; print(slot_hash(('xo.', 3)) % 1009)"
    seen = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2", "3")
    }
    assert len(seen) == 1
