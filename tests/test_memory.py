"""The memory guard refuses oversized work with an estimate."""

from __future__ import annotations

import pytest

from perfectplay._memory import available_bytes, check_memory, format_bytes
from perfectplay.errors import TooLargeError


def test_available_memory_is_positive() -> None:
    assert available_bytes() > 0


def test_refusal_names_the_work_and_both_sizes() -> None:
    with pytest.raises(TooLargeError, match=r"a graph of 1e15 moves needs about .* but only .*"):
        check_memory(2.0**62, "a graph of 1e15 moves")
    with pytest.raises(MemoryError) as error:
        check_memory(2**62, "anything")
    assert (error.value.limit, error.value.estimate) == ("memory", 2**62)  # type: ignore[attr-defined]


def test_small_work_passes() -> None:
    check_memory(1.0, "one byte")


@pytest.mark.parametrize(("n", "text"), [(0, "0 B"), (1023, "1023 B"), (1536, "1.5 KiB")])
def test_format_bytes(n: int, text: str) -> None:
    assert format_bytes(n) == text


@pytest.mark.parametrize(
    ("estimate", "power"), [(10**400, 1328), (2**60, 60), (2.0**62, 62), (float("inf"), None)]
)
def test_huge_estimates_are_refused_without_overflow(
    estimate: int | float, power: int | None
) -> None:
    expected = "unboundedly many bytes" if power is None else f"2\\^{power} bytes"
    with pytest.raises(TooLargeError, match=f"x needs about {expected} of memory"):
        check_memory(estimate, "x")
