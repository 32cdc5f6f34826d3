"""Refuse oversized work before allocating it."""

from __future__ import annotations

import math
import os
import re

from perfectplay._mappings import idle_bytes
from perfectplay.errors import InputFormatError, TooLargeError

__all__ = [
    "available_bytes",
    "check_memory",
    "format_bytes",
    "parse_bytes",
]


def available_bytes() -> int:
    """Memory this process may still allocate: MemAvailable from /proc/meminfo (else total RAM)
    and the mappings it keeps for reuse (:func:`perfectplay._mappings.idle_bytes`)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024 + idle_bytes()
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


_SIZE = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([kmgt]?)(i?b)?\s*", re.IGNORECASE)
_UNITS = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}


def parse_bytes(text: str, what: str = "a size") -> int:
    """The byte count `text` writes: ``4096``, ``64M``, ``1G``, ``1.5GiB`` (powers of 1024).

    Raises
    ------
    InputFormatError
        If `text` is not a positive size; the message names `what` and `text`.

    Examples
    --------
    >>> parse_bytes("1G"), parse_bytes("64MiB"), parse_bytes("4096"), parse_bytes("1.5k")
    (1073741824, 67108864, 4096, 1536)
    """
    match = _SIZE.fullmatch(text)
    if match is None or float(match.group(1)) <= 0:
        raise InputFormatError(
            f"{what}: expected a positive size such as 512M or 1G (K, M, G, T: powers of 1024), "
            f"got {text!r}"
        )
    return int(float(match.group(1)) * _UNITS[match.group(2).lower()])


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
            f"{what} needs about {need} of memory but only {format_bytes(available)} is available",
            limit="memory",
            estimate=estimate,
        )
