"""Refuse oversized work before allocating it."""

from __future__ import annotations

import ctypes
import math
import mmap
import os
import re
from typing import Any

import numpy as np
from numpy.typing import NDArray

from perfectplay.errors import InputFormatError, TooLargeError

__all__ = [
    "available_bytes",
    "check_memory",
    "format_bytes",
    "parse_bytes",
    "populated_empty",
    "populated_zeros",
]


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


_POPULATE_MIN = 1 << 22
"""Bytes: below this, plain numpy arrays (numpy's own huge-page threshold)."""

_MADV_POPULATE_WRITE = 23
"""Linux's ``madvise`` advice mapping every page of a range for writing (Python's ``mmap``
names it from 3.13 on)."""


def _libc_madvise() -> Any:
    """``madvise`` of the C library, called through ctypes, which lets go of the interpreter's
    lock for the call (``mmap.madvise`` keeps it while the kernel maps every page)."""
    call = ctypes.CDLL(None, use_errno=True).madvise
    call.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
    call.restype = ctypes.c_int
    return call


_madvise = _libc_madvise() if hasattr(mmap, "MADV_HUGEPAGE") else None


def populated_empty(count: int, dtype: Any) -> NDArray[Any]:
    """An uninitialised array of `count` entries whose memory the kernel maps at once, on
    huge pages where it has them: the tier engine reads child tiers' records this way and
    looks them up at random.

    Large arrays get an anonymous mapping, marked for huge pages (``MADV_HUGEPAGE``) and then
    mapped whole in one system call (``MADV_POPULATE_WRITE``, Linux 5.14; older kernels map
    each page at its first write, and a kernel without huge pages gives 4 KiB ones). On 2 MiB
    pages a random read of a 1 GiB array misses no translation cache: measured on this
    project's machine, a look-up of the tier engine's
    (:func:`perfectplay.tiers._kernels.lookup`, which prefetches) took 20 ns on 4 KiB pages
    and 14 on huge pages, for up to about a second more CPU to map 1 GiB (0.6 to 2.5 s, the
    kernel compacting memory into huge pages, against 0.3 to 1.4 s on 4 KiB pages with
    ``MAP_POPULATE``). The calls go through ctypes, so the threads of the process run
    Python meanwhile. Small arrays, and systems without these calls, get ``np.empty``.

    >>> a = populated_empty(1 << 21, np.uint16)
    >>> a.shape, a.dtype, a.flags.writeable
    ((2097152,), dtype('uint16'), True)
    """
    dtype = np.dtype(dtype)
    size = count * dtype.itemsize
    if size < _POPULATE_MIN or _madvise is None:
        return np.empty(count, dtype=dtype)
    mapping = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    array = np.frombuffer(mapping, dtype=dtype)
    address = array.ctypes.data
    # A failure leaves the pages as they are: mapped when first written, 4 KiB each.
    _madvise(address, size, mmap.MADV_HUGEPAGE)
    _madvise(address, size, _MADV_POPULATE_WRITE)
    return array


def populated_zeros(count: int, dtype: Any) -> NDArray[Any]:
    """A zeroed array of `count` entries whose memory the kernel maps at once (an anonymous
    mapping is zero-filled), for tables probed at random: no page fault on first touch.

    >>> populated_zeros(1 << 20, np.uint64).sum()
    np.uint64(0)
    """
    dtype = np.dtype(dtype)
    if count * dtype.itemsize < _POPULATE_MIN or _madvise is None:
        return np.zeros(count, dtype=dtype)
    return populated_empty(count, dtype)
