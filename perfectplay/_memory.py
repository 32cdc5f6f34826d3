"""Refuse oversized work before allocating it."""

from __future__ import annotations

import math
import os

from perfectplay.errors import TooLargeError

__all__ = ["available_bytes", "check_memory", "format_bytes"]


def available_bytes() -> int:
    """Memory this process may still allocate: MemAvailable from /proc/meminfo, else total RAM."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))


def format_bytes(n: float) -> str:
    """Human-readable byte count.

    >>> format_bytes(3 * 2**30)
    '3.0 GiB'
    """
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024:
            return f"{n:.1f} {unit}" if unit != "B" else f"{int(n)} B"
        n /= 1024
    return f"{n:.1f} TiB"


def _power_of_two(n: int | float) -> str:
    """``2^k bytes`` for the largest 2^k <= n: exact for ints of any size (no float overflow)."""
    if isinstance(n, float) and math.isinf(n):
        return "unboundedly many bytes"
    return f"2^{int(n).bit_length() - 1} bytes"


def check_memory(estimate: int | float, what: str) -> None:
    """Raise :class:`TooLargeError` if `estimate` bytes exceed the memory available.

    Parameters
    ----------
    estimate : int or float
        Bytes the work is expected to need at its peak; an int may be arbitrarily large.
    what : str
        What the work is, for the message (e.g. ``"a graph of 10^10 moves"``).

    >>> check_memory(1024, "a tiny graph")
    >>> check_memory(2**60, "a huge graph")
    Traceback (most recent call last):
    ...
    perfectplay.errors.TooLargeError: a huge graph needs about 2^60 bytes ...
    """
    available = available_bytes()
    if estimate > available:
        need = format_bytes(estimate) if estimate < 2**50 else _power_of_two(estimate)
        raise TooLargeError(
            f"{what} needs about {need} of memory but only {format_bytes(available)} is available"
        )
