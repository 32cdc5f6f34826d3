"""Large arrays on anonymous mappings mapped at once, on huge pages, and kept for reuse.

The tier engine allocates arrays of up to gigabytes for every tier it solves (work arrays,
child tiers read, records) and drops them when the tier is done: thousands of times in a
solve. A fresh mapping costs the kernel a page fault and a zeroed page for every page touched
(in a virtual machine that hands freed memory back to its host, the host's fault too):
measured on this project's machine over a minute of Squadro's solve, zeroing fresh pages took
7.4 % of the two cores. So an array taken here is a view of a mapping kept by this process:
when every view of it is gone, the mapping waits, mapped, for the next array of about its
size, up to :data:`IDLE_BYTES` of them (the least recently freed are unmapped first).

>>> a = populated_empty(1 << 21, np.uint16)
>>> a.shape, a.dtype, a.flags.writeable
((2097152,), dtype('uint16'), True)
>>> before = idle_bytes()
>>> del a  # its mapping waits for the next array of about its size
>>> idle_bytes() - before
4194304
"""

from __future__ import annotations

import bisect
import ctypes
import itertools
import mmap
import os
import threading
import weakref
from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = ["IDLE_BYTES", "idle_bytes", "populated_empty", "populated_zeros"]

_POPULATE_MIN = 1 << 22
"""Bytes: below this, plain numpy arrays (numpy's own huge-page threshold)."""

_HUGE_PAGE = 1 << 21
"""Mappings are whole huge pages."""

_SLACK = 4
"""A kept mapping serves an array of at least ``1 - 1/_SLACK`` of its size."""

IDLE_BYTES = min(1 << 31, os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 16)
"""Bytes of mappings kept without an array, at most: 2 GiB, or 1/16 of the memory below
32 GiB."""

_MADV_POPULATE_WRITE = getattr(mmap, "MADV_POPULATE_WRITE", 23)
"""Linux's ``madvise`` advice mapping every page of a range for writing (Python's ``mmap``
names it from 3.13 on; 23 in Linux's headers)."""


def _libc_madvise() -> Any:
    """``madvise`` of the C library, called through ctypes, which lets go of the interpreter's
    lock for the call (``mmap.madvise`` keeps it while the kernel maps every page)."""
    call = ctypes.CDLL(None, use_errno=True).madvise
    call.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
    call.restype = ctypes.c_int
    return call


_madvise = _libc_madvise() if hasattr(mmap, "MADV_HUGEPAGE") else None

_PAGE = ctypes.c_char * _HUGE_PAGE

_TRACE_DOMAIN = 0x7070
"""The ``tracemalloc`` domain of the mappings lent to arrays: traced as numpy traces its own
arrays, so a measure of the memory allocated sees them (``tracemalloc.get_traced_memory``)."""
_track = ctypes.pythonapi.PyTraceMalloc_Track
_track.argtypes = (ctypes.c_uint, ctypes.c_size_t, ctypes.c_size_t)
_untrack = ctypes.pythonapi.PyTraceMalloc_Untrack
_untrack.argtypes = (ctypes.c_uint, ctypes.c_size_t)


class _Kept:
    """The mappings of this process without an array, by size, and the lock guarding them.

    An array's view of a mapping is a ctypes array over it: numpy and every view of the array
    keep that object alive, and its finalizer hands the mapping back. Finalizers run in
    whichever thread drops the last view, possibly while this thread holds the lock: it is
    re-entrant.
    """

    def __init__(self) -> None:
        self.forget()

    def forget(self) -> None:
        """Keep nothing (also in a forked child: its lock may have been held by a parent's
        thread, and the mappings are copies the parent still counts)."""
        self.lock = threading.RLock()
        self.sizes: list[int] = []  # sorted; self.maps[i] has self.sizes[i] bytes
        self.maps: list[mmap.mmap] = []
        self.freed: list[int] = []  # when each was handed back (a counter), for eviction
        self.clock = itertools.count()
        self.total = 0

    def take(self, size: int) -> mmap.mmap | None:
        """A kept mapping of `size` to ``size * _SLACK / (_SLACK - 1)`` bytes, or None."""
        with self.lock:
            i = bisect.bisect_left(self.sizes, size)
            if i == len(self.sizes) or self.sizes[i] * (_SLACK - 1) > size * _SLACK:
                return None
            self.total -= self.sizes.pop(i)
            self.freed.pop(i)
            return self.maps.pop(i)

    def give(self, mapping: mmap.mmap) -> None:
        """Keep `mapping` for a later array; unmap the least recently freed beyond the limit."""
        with self.lock:
            size = len(mapping)
            i = bisect.bisect_left(self.sizes, size)
            self.sizes.insert(i, size)
            self.maps.insert(i, mapping)
            self.freed.insert(i, next(self.clock))
            self.total += size
            while self.total > IDLE_BYTES:
                oldest = self.freed.index(min(self.freed))
                self.total -= self.sizes.pop(oldest)
                self.freed.pop(oldest)
                # Unmapped once its last view is gone (a finalizer may still hold one).
                self.maps.pop(oldest)


_kept = _Kept()
os.register_at_fork(after_in_child=_kept.forget)


def idle_bytes() -> int:
    """Bytes of mappings this process keeps without an array (at most :data:`IDLE_BYTES`)."""
    return _kept.total


def _taken(count: int, dtype: np.dtype[Any]) -> tuple[NDArray[Any], bool]:
    """An array over a kept mapping, or over a new private anonymous mapping marked for huge
    pages and mapped whole; whether the mapping is new (zeroed)."""
    size = -(-count * dtype.itemsize // _HUGE_PAGE) * _HUGE_PAGE
    mapping = _kept.take(size)
    fresh = mapping is None
    if mapping is None:
        mapping = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    view = (_PAGE * (len(mapping) // _HUGE_PAGE)).from_buffer(mapping)
    address = ctypes.addressof(view)
    if fresh and _madvise is not None:
        # A failure leaves the pages as they are: mapped when first written, 4 KiB each.
        _madvise(address, size, mmap.MADV_HUGEPAGE)
        _madvise(address, size, _MADV_POPULATE_WRITE)
    _track(_TRACE_DOMAIN, address, len(mapping))
    weakref.finalize(view, _given_back, mapping, address).atexit = False
    return np.frombuffer(memoryview(view), dtype=dtype, count=count), fresh


def _given_back(mapping: mmap.mmap, address: int) -> None:
    """The last view of `mapping` is gone: keep it for the next array."""
    _untrack(_TRACE_DOMAIN, address)
    _kept.give(mapping)


def populated_empty(count: int, dtype: Any) -> NDArray[Any]:
    """An uninitialised array of `count` entries whose memory is mapped at once, on huge pages
    where the kernel has them: the tier engine reads child tiers' records this way and looks
    them up at random, and holds its work arrays so.

    Large arrays are views of a mapping this process kept from an array dropped earlier (its
    pages mapped already), or of a new anonymous mapping, marked for huge pages
    (``MADV_HUGEPAGE``) and then mapped whole in one system call (``MADV_POPULATE_WRITE``,
    Linux 5.14; older kernels map each page at its first write, and a kernel without huge
    pages gives 4 KiB ones). On 2 MiB pages a random read of a 1 GiB array misses no
    translation cache: measured on this project's machine, a look-up of the tier engine's
    (:func:`perfectplay.tiers._kernels.lookup`, which prefetches) took 20 ns on 4 KiB pages
    and 14 on huge pages, for up to about a second more CPU to map 1 GiB (0.6 to 2.5 s, the
    kernel compacting memory into huge pages, against 0.3 to 1.4 s on 4 KiB pages with
    ``MAP_POPULATE``). The calls go through ctypes, so the threads of the process run
    Python meanwhile. Small arrays, and systems without these calls, get ``np.empty``.

    Cost: none for a kept mapping; for a new one, the kernel's mapping and zeroing of its
    pages (0.1 s a GB here).

    >>> a = populated_empty(3 << 20, np.uint8)
    >>> a.size, a.flags.writeable
    (3145728, True)
    """
    dtype = np.dtype(dtype)
    if count * dtype.itemsize < _POPULATE_MIN or _madvise is None:
        return np.empty(count, dtype=dtype)
    return _taken(count, dtype)[0]


def populated_zeros(count: int, dtype: Any) -> NDArray[Any]:
    """A zeroed array of `count` entries mapped at once (:func:`populated_empty`), for tables
    probed at random: no page fault on first touch. Cost: a write of the array when its
    mapping is kept (a new anonymous mapping is zeroed by the kernel).

    >>> populated_zeros(1 << 20, np.uint64).sum()
    np.uint64(0)
    """
    dtype = np.dtype(dtype)
    if count * dtype.itemsize < _POPULATE_MIN or _madvise is None:
        return np.zeros(count, dtype=dtype)
    array, fresh = _taken(count, dtype)
    if not fresh:
        array.fill(0)
    return array
