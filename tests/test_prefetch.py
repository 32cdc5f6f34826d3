"""The prefetch hint (perfectplay._prefetch): compiles in kernels, changes nothing, never faults."""

from __future__ import annotations

import numba as nb
import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from perfectplay._prefetch import prefetch


@nb.njit(cache=False)
def _gather_sum(values, order, ahead):  # type: ignore[no-untyped-def]
    """Sum ``values[order[k]]``, hinting the element `ahead` steps on (even past the end)."""
    total = 0
    for k in range(order.shape[0]):
        prefetch(values, order[min(k + ahead, order.shape[0] - 1)] if ahead >= 0 else -ahead)
        total += values[order[k]]
    return total


@given(st.integers(1, 200), st.integers(-10_000, 64), st.integers(0, 2**32 - 1))
def test_a_kernel_with_hints_computes_what_it_computes_without(
    n: int, ahead: int, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    values = rng.integers(-1000, 1000, size=n)
    order = rng.permutation(n)
    # A negative `ahead` hints an index far outside the array: a hint never faults.
    assert _gather_sum(values, order, ahead) == int(values[order].sum())


def test_the_hint_takes_any_integer_index_and_any_array() -> None:
    @nb.njit(cache=False)
    def hint_all(a, b):  # type: ignore[no-untyped-def]
        prefetch(a, np.int32(1))
        prefetch(b, np.uint64(3))
        prefetch(b, -5)
        return a[0] + b[0]

    assert hint_all(np.arange(3, dtype=np.int8), np.ones(2)) == 1.0
