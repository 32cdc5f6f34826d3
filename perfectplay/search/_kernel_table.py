"""The transposition table of compiled searches: score bounds by key, in one numpy array.

A game's numba alpha-beta (its :class:`~perfectplay.search.kernel.SearchKernel`) probes and
stores bounds with :func:`table_get` and :func:`table_put`; the engine allocates the table
from the memory budget (:func:`new_table`).

The table maps a position's key (any 64-bit integer that identifies the position exactly,
e.g. a bitboard) to a lower and an upper bound on the position's score. Nothing here knows
about any game: scores are integers in ``[-127, 127]``, and a search stores whatever bounds
its fail-hard or fail-soft results prove.

Layout
------
``slots`` is a ``uint64`` array of ``2**log_size`` entries, **8 bytes per entry**, read as
``2**(log_size - 1)`` *buckets* of two neighbouring entries (``2b`` and ``2b + 1``: one cache
line). A key is first mixed by a bijection of the 64-bit integers, ``h = key * MIX`` (mod
``2**64``, ``MIX`` odd), then split:

- the top ``log_size - 1`` bits of ``h`` select the bucket (Fibonacci hashing: every bit of the
  key moves them, so keys that differ only in a few high or low bits still spread out);
- the low ``65 - log_size`` bits of ``h`` (the *check*) are stored in the entry's top bits,
  above a *work* field of ``log_size - 17`` bits and two bytes of bounds:
  ``entry = check << (log_size - 1) | work << 16 | lower_code << 8 | upper_code``.

Invariants
----------
- **No false hits.** The bucket index and the check together are all 64 bits of ``h``, and
  ``h`` determines the key (``MIX`` is invertible mod ``2**64``), so an entry of the key's
  bucket whose check matches holds bounds of *this* key, never of another one, whichever of
  the two entries it is in. This needs ``65 - log_size <= 48`` bits of check, i.e.
  ``log_size >= 17`` (128 Ki entries, 1 MiB). Each entry is one aligned 8-byte word that
  carries its own check, so searches on several threads may share a table without locks: a
  store lost to a concurrent one costs work again, a torn entry cannot happen.
- **Bound codes.** ``lower_code = lower + 128`` and ``upper_code = upper + 128`` for a bound
  in ``[-127, 127]``; code 0 means "no bound of that kind". An all-zero entry is empty: a
  stored entry always has at least one nonzero code.
- **Bounds are facts.** Each stored bound is a true bound of the key's exact score, so
  entries stay valid for any later search (any window, any root) as long as scores keep
  one meaning per key; a table can be reused across searches and needs no clearing.
- **Replacement.** Storing a key found in its bucket merges the new bounds into the old ones
  (keeps the tighter of each, and the larger work); storing a new key overwrites the entry of
  the bucket that took less work to find (the first on a tie). *Work* is the searched subtree's
  size, ``nodes`` as a code that grows with it (about ``log4(nodes)``, capped by the field's
  width: a table of ``2**17`` entries has none and always overwrites the first entry), so a
  result that took a large search survives the many small ones stored after it, and the
  newest result is always stored.

Wide keys
---------
A key of ``64 + extra`` bits (a board of two words), ``high * 2**64 + low`` with ``high <
2**extra``, is mixed as ``h = (low ^ high * MIX2) * MIX`` (for a known ``high``, a bijection of
``low``): the bucket is taken from ``h`` as above, and the check is ``h``'s low bits with
``high`` appended below them, ``extra`` bits longer (:func:`wide_get`, :func:`wide_put`). The
bucket index and the check again hold ``h`` whole and ``high``, which give back ``low``: no
false hits, as long as the check fits in 48 bits, i.e. ``log_size >= 17 + extra``
(:func:`least_wide_entries`; the work field keeps ``log_size - 17 - extra`` bits).
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros
from numpy.typing import NDArray

from perfectplay._mappings import populated_zeros
from perfectplay.errors import InputFormatError

__all__ = [
    "ENTRY_BYTES",
    "MAX_LOG_SIZE",
    "MIN_LOG_SIZE",
    "NO_BOUND",
    "entries_for_bytes",
    "least_wide_entries",
    "new_table",
    "table_get",
    "table_put",
    "table_shift",
    "table_slot",
    "wide_get",
    "wide_put",
    "wide_shift",
    "wide_slot",
]

ENTRY_BYTES = 8
"""One uint64 per entry: 48 or fewer bits of check, the work, two bound codes."""
MIN_LOG_SIZE = 17
"""Below 2**17 entries the check would not fit beside the two bound bytes."""
MAX_LOG_SIZE = 40
"""At most 2**40 entries (8 TiB)."""
NO_BOUND = 128
"""What :func:`table_get` returns for a missing bound: outside ``[-127, 127]``."""

# An odd multiplier (2**64 / golden ratio, made odd): a bijection of uint64 by multiplication.
_MIX = np.uint64(0x9E3779B97F4A7C15)
# Any constant: spreads the high word of a wide key over the bits the low word is mixed with.
_MIX2 = np.uint64(0xD6E8FEB86659FD93)
_BYTE = np.uint64(0xFF)
_OFFSET = np.int64(128)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_SIXTEEN = np.uint64(16)
_leading_zeros: Any = leading_zeros  # the number of zero bits above the highest set bit


def entries_for_bytes(nbytes: int) -> int:
    """The number of entries of the largest table that fits in `nbytes` bytes.

    A power of two, at least ``2**MIN_LOG_SIZE`` (1 MiB) whatever the budget.

    Parameters
    ----------
    nbytes : int
        The memory budget in bytes (8 bytes per entry).

    Returns
    -------
    int
        ``2**k`` entries with ``8 * 2**k <= nbytes`` (or ``2**MIN_LOG_SIZE``).

    Examples
    --------
    >>> entries_for_bytes(64 * 2**20)
    8388608
    >>> entries_for_bytes(100 * 2**20)
    8388608
    """
    entries = max(int(nbytes) // ENTRY_BYTES, 1 << MIN_LOG_SIZE)
    log_size = min(entries.bit_length() - 1, MAX_LOG_SIZE)
    return 1 << log_size


def new_table(nbytes: int = 64 * 2**20) -> NDArray[np.uint64]:
    """An empty table (all slots zero) of ``entries_for_bytes(nbytes)`` entries.

    Its pages are mapped at once (:func:`perfectplay._mappings.populated_zeros`): random probes
    of a fresh table would otherwise take a page fault each (64 MiB: 0.11 s here, 0.02 s mapped
    at once).
    """
    return populated_zeros(entries_for_bytes(nbytes), np.uint64)


@nb.njit(cache=True, inline="always")
def table_slot(shift: np.uint64, key: np.uint64) -> np.int64:
    """The index of the first entry of `key`'s bucket (e.g. to prefetch it before
    :func:`table_get`; the bucket's two entries share a cache line)."""
    return np.int64(((np.uint64(key) * _MIX) >> (shift + _ONE)) << _ONE)


@nb.njit(cache=True, inline="always")
def table_get(slots: NDArray[np.uint64], shift: np.uint64, key: np.uint64) -> tuple[Any, Any]:
    """The stored ``(lower, upper)`` bounds of `key`, each ``NO_BOUND`` (128) when unknown.

    Parameters
    ----------
    slots : ndarray of uint64
        The table (length ``2**log_size``).
    shift : uint64
        ``64 - log_size``, computed once by the caller (see :func:`table_shift`).
    key : uint64
        The position's exact key.
    """
    h = key * _MIX
    index = np.int64((h >> (shift + _ONE)) << _ONE)
    check = h & ((_ONE << (shift + _ONE)) - _ONE)
    return _read(slots, index, check, np.uint64(63) - shift)


@nb.njit(cache=True, inline="always")
def _read(
    slots: NDArray[np.uint64], index: np.int64, check: np.uint64, low_bits: np.uint64
) -> tuple[Any, Any]:
    """The bounds held by the entry of the bucket at `index` whose top bits (above the
    `low_bits` of work and bounds) are `check`; ``NO_BOUND`` for each when neither is."""
    # Selects, not branches: whether either entry holds the key is unpredictable.
    first = slots[index]
    second = slots[index + 1]
    second &= _ZERO - np.uint64((second >> low_bits) == check)
    entry = first if (first >> low_bits) == check else second
    low = np.int64((entry >> np.uint64(8)) & _BYTE)
    up = np.int64(entry & _BYTE)
    return (low - _OFFSET if low else NO_BOUND), (up - _OFFSET if up else NO_BOUND)


@nb.njit(cache=True, inline="always")
def table_put(
    slots: NDArray[np.uint64],
    shift: np.uint64,
    key: np.uint64,
    lower: int,
    upper: int,
    nodes: int,
) -> None:
    """Record that `key`'s score lies in ``[lower, upper]``, found by a search of `nodes`
    positions.

    Either bound may be ``NO_BOUND`` (128) for "unknown". When the bucket already holds this
    key, its stored bounds are tightened by the new ones; otherwise the bucket's entry of less
    work is overwritten.

    Parameters
    ----------
    slots : ndarray of uint64
        The table.
    shift : uint64
        ``64 - log_size`` (see :func:`table_shift`).
    key : uint64
        The position's exact key.
    lower, upper : int
        Bounds in ``[-127, 127]``, or ``NO_BOUND``.
    nodes : int
        The size of the search that found them (1 or more): the entry's work.
    """
    h = key * _MIX
    index = np.int64((h >> (shift + _ONE)) << _ONE)
    check = h & ((_ONE << (shift + _ONE)) - _ONE)
    _write(slots, index, check, np.uint64(63) - shift, lower, upper, nodes)


@nb.njit(cache=True, inline="always")
def _write(
    slots: NDArray[np.uint64],
    index: np.int64,
    check: np.uint64,
    low_bits: np.uint64,
    lower: int,
    upper: int,
    nodes: int,
) -> None:
    """Store the bounds under `check` in the bucket at `index` (as :func:`table_put`), with
    `low_bits` below the check: the work field and the two bound bytes."""
    work_max = np.int64((_ONE << (low_bits - _SIXTEEN)) - _ONE)
    work = (np.int64(65) - np.int64(_leading_zeros(np.uint64(nodes)))) >> 1  # ~log4(nodes) + 1
    if work > work_max:
        work = work_max
    low_code = np.int64(0) if lower == NO_BOUND else np.int64(lower) + _OFFSET
    up_code = np.int64(0) if upper == NO_BOUND else np.int64(upper) + _OFFSET
    # An empty entry (0) reads as the check 0 with no bounds and no work: merging into it is
    # storing afresh, and the first entry, filled first, is looked at first (as by get).
    # Selects rather than branches where the outcome is unpredictable.
    first = slots[index]
    second = slots[index + 1]
    in_first = (first >> low_bits) == check
    in_second = (second >> low_bits) == check
    mask = np.uint64(work_max) << _SIXTEEN
    to_second = not in_first and (in_second or (second & mask) < (first & mask))
    entry = second if to_second else first
    entry &= _ZERO - np.uint64(in_first or in_second)  # a new key: nothing to merge
    index += np.int64(to_second)
    old_low = np.int64((entry >> np.uint64(8)) & _BYTE)
    old_up = np.int64(entry & _BYTE)
    old_work = np.int64((entry & mask) >> _SIXTEEN)
    low_code = max(low_code, old_low)  # a code grows with its bound: the larger lower bound
    if up_code == 0 or (old_up != 0 and old_up < up_code):  # and the smaller upper bound
        up_code = old_up
    work = max(work, old_work)
    slots[index] = (
        (check << low_bits)
        | (np.uint64(work) << _SIXTEEN)
        | np.uint64(low_code << 8)
        | np.uint64(up_code)
    )


# ------------------------------------------------------------------------- wide keys
@nb.njit(cache=True, inline="always")
def _wide_hash(
    shift: np.uint64, extra: np.uint64, low: np.uint64, high: np.uint64
) -> tuple[np.int64, np.uint64]:
    """The bucket index and check of the key ``high * 2**64 + low`` (``high < 2**extra``):
    ``h = (low ^ high * MIX2) * MIX``, a bijection of `low` once `high` is known, gives the
    bucket (its top bits) and the check (its low bits with `high` below them)."""
    h = (low ^ (high * _MIX2)) * _MIX
    index = np.int64((h >> (shift + _ONE)) << _ONE)
    check = ((h & ((_ONE << (shift + _ONE)) - _ONE)) << extra) | high
    return index, check


@nb.njit(cache=True, inline="always")
def wide_slot(shift: np.uint64, extra: np.uint64, low: np.uint64, high: np.uint64) -> np.int64:
    """:func:`table_slot` of a key of ``64 + extra`` bits, ``high * 2**64 + low``."""
    return _wide_hash(shift, extra, low, high)[0]


@nb.njit(cache=True, inline="always")
def wide_get(
    slots: NDArray[np.uint64], shift: np.uint64, extra: np.uint64, low: np.uint64, high: np.uint64
) -> tuple[Any, Any]:
    """:func:`table_get` of a key of ``64 + extra`` bits, ``high * 2**64 + low`` with
    ``high < 2**extra``, in a table of :func:`wide_shift`."""
    index, check = _wide_hash(shift, extra, low, high)
    return _read(slots, index, check, np.uint64(63) - shift - extra)


@nb.njit(cache=True, inline="always")
def wide_put(
    slots: NDArray[np.uint64],
    shift: np.uint64,
    extra: np.uint64,
    low: np.uint64,
    high: np.uint64,
    lower: int,
    upper: int,
    nodes: int,
) -> None:
    """:func:`table_put` of a key of ``64 + extra`` bits, ``high * 2**64 + low`` with
    ``high < 2**extra``, in a table of :func:`wide_shift`."""
    index, check = _wide_hash(shift, extra, low, high)
    _write(slots, index, check, np.uint64(63) - shift - extra, lower, upper, nodes)


def least_wide_entries(extra: int) -> int:
    """The fewest entries of a table for keys of ``64 + extra`` bits: ``2**(17 + extra)``
    (their check holds ``extra`` more bits, taken from the work field).

    >>> least_wide_entries(8) * ENTRY_BYTES // 2**20  # 72-bit keys (7 x 9, 8 x 8): MiB
    256
    """
    return 1 << (MIN_LOG_SIZE + extra)


def wide_shift(slots: NDArray[np.uint64], extra: int) -> np.uint64:
    """:func:`table_shift` of a table for keys of ``64 + extra`` bits (:func:`wide_get`,
    :func:`wide_put`), which needs at least :func:`least_wide_entries` entries."""
    shift = table_shift(slots)
    if int(slots.shape[0]) < least_wide_entries(extra):
        raise InputFormatError(
            f"a search table for keys of {64 + extra} bits needs at least "
            f"2**{MIN_LOG_SIZE + extra} slots, got {slots.shape[0]}"
        )
    return shift


def table_shift(slots: NDArray[np.uint64]) -> np.uint64:
    """``64 - log2(len(slots))``: the number of check bits, passed to get/put."""
    size = int(slots.shape[0])
    if size & (size - 1) or not (1 << MIN_LOG_SIZE) <= size <= (1 << MAX_LOG_SIZE):
        raise InputFormatError(
            f"a search table needs 2**{MIN_LOG_SIZE}..2**{MAX_LOG_SIZE} slots, got {size}"
        )
    return np.uint64(64 - (size.bit_length() - 1))
