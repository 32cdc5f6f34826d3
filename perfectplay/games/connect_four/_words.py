"""Bitboards of one or two words for Connect Four's search kernels: one search, two widths.

The search (:mod:`._search_kernels`) is written once over a *board word*: a ``uint64`` on
boards of up to 64 bits, a :class:`Wide` ``(lo, hi)`` of two ``uint64`` (bits 0-63 and
64-127) past them. numba compiles the same source for each (one machine-code version per
type, each cached): the operators ``&``, ``|``, ``^``, ``~``, ``<<`` and ``>>`` act on a
:class:`Wide` as on a 128-bit integer (overloaded here for that type only; a shift by ``s``
is defined for ``0 <= s < 128``), and what an operator cannot say for both is a function
here, each compiled for either type: :func:`nonzero` (a :class:`Wide` is a tuple, so
``if board:`` would be true of every one: the search never tests a board's truth),
:func:`many`, :func:`plus`, :func:`count`, :func:`one_like`, :func:`lesser`, the work
arrays (:func:`board_array`, :func:`load`, :func:`store`) and the transposition table's
probe and store (:func:`probe`, :func:`record`, :func:`bucket`: keys of one word, or of
``64 + extra`` bits in two).

These functions run in compiled code only: called from Python they raise.

Examples
--------
>>> import numba as nb
>>> @nb.njit
... def spread(x):
...     return (x << np.uint64(63)) | (x >> np.uint64(1)), nonzero(x), count(x)
>>> spread(Wide(np.uint64(3), np.uint64(0)))
(Wide(lo=9223372036854775809, hi=1), True, 2)
>>> spread(np.uint64(3))
(9223372036854775809, True, 2)
"""

from __future__ import annotations

import operator
import warnings
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
from numba import types
from numba.core.errors import NumbaIRAssumptionWarning
from numba.extending import overload

from perfectplay._bits import popcount
from perfectplay.search._kernel_table import (
    table_get,
    table_put,
    table_slot,
    wide_get,
    wide_put,
    wide_slot,
)

# numba's inliner (``inline="always"`` on the functions here) reports the inlined functions'
# phi variables as out of scope when it compiles the search for Wide boards, about twenty
# warnings on a user's terminal at the first compile; the compiled code is right (the kernels
# are cross-checked against the rules and the plain search in the tests).
warnings.filterwarnings(
    "ignore", message=r".*variable '.*' is not in scope", category=NumbaIRAssumptionWarning
)

__all__ = [
    "Wide",
    "board_array",
    "bucket",
    "count",
    "lesser",
    "load",
    "many",
    "nonzero",
    "one_like",
    "plus",
    "probe",
    "record",
    "store",
]

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_WORD = np.uint64(64)


class Wide(NamedTuple):
    """A bitboard of 128 bits: ``lo`` holds bits 0-63, ``hi`` bits 64-127 (both ``uint64``)."""

    lo: Any
    hi: Any


def _is_wide(t: Any) -> bool:
    return isinstance(t, types.NamedUniTuple) and t.instance_class is Wide


def _is_word(t: Any) -> bool:
    return isinstance(t, types.Integer)


def _compiled_only(*args: Any) -> Any:
    raise NotImplementedError("a board word function runs in numba-compiled code only")


def _either(t: Any, wide: Any, word: Any) -> Any:
    """The version of a function for the numba type `t`: `wide` for a :class:`Wide`, `word`
    for an integer, None (no version) for any other."""
    if _is_wide(t):
        return wide
    return word if _is_word(t) else None


# ---------------------------------------------------------------------------- operators
def _bitwise(op: Callable[[Any, Any], Any]) -> None:
    @overload(op, inline="always")
    def wide_op(a: Any, b: Any) -> Any:
        def wide(a: Any, b: Any) -> Any:
            return Wide(op(a.lo, b.lo), op(a.hi, b.hi))

        return wide if _is_wide(a) and _is_wide(b) else None


for _op in (
    operator.and_, operator.or_, operator.xor, operator.iand, operator.ior, operator.ixor,
):  # fmt: skip
    _bitwise(_op)


@overload(operator.invert, inline="always")
def _invert(a: Any) -> Any:
    def wide(a: Any) -> Any:
        return Wide(~a.lo, ~a.hi)

    return wide if _is_wide(a) else None


@overload(operator.lshift, inline="always")
def _shift_up(a: Any, s: Any) -> Any:
    def wide(a: Any, s: Any) -> Any:
        s = np.uint64(s)
        if s == _ZERO:
            return a
        if s < _WORD:
            return Wide(a.lo << s, (a.hi << s) | (a.lo >> (_WORD - s)))
        return Wide(_ZERO, a.lo << (s - _WORD))

    return wide if _is_wide(a) and _is_word(s) else None


@overload(operator.rshift, inline="always")
def _shift_down(a: Any, s: Any) -> Any:
    def wide(a: Any, s: Any) -> Any:
        s = np.uint64(s)
        if s == _ZERO:
            return a
        if s < _WORD:
            return Wide((a.lo >> s) | (a.hi << (_WORD - s)), a.hi >> s)
        return Wide(a.hi >> (s - _WORD), _ZERO)

    return wide if _is_wide(a) and _is_word(s) else None


# ---------------------------------------------------------------------------- board functions
# Each function is a stub for Python (it raises) with its numba versions: the versions'
# parameters are the stub's, annotations included (numba checks them).
def nonzero(x: Any) -> Any:
    """Whether any bit of `x` is set."""
    return _compiled_only(x)


@overload(nonzero, inline="always")
def _nonzero(x: Any) -> Any:
    def wide(x: Any) -> Any:
        return (x.lo | x.hi) != _ZERO

    def word(x: Any) -> Any:
        return x != _ZERO

    return _either(x, wide, word)


def many(x: Any) -> Any:
    """Whether more than one bit of `x` is set."""
    return _compiled_only(x)


@overload(many, inline="always")
def _many(x: Any) -> Any:
    def wide(x: Any) -> Any:
        if x.lo != _ZERO:
            return x.hi != _ZERO or (x.lo & (x.lo - _ONE)) != _ZERO
        return (x.hi & (x.hi - _ONE)) != _ZERO

    def word(x: Any) -> Any:
        return (x & (x - _ONE)) != _ZERO

    return _either(x, wide, word)


def plus(a: Any, b: Any) -> Any:
    """The sum of two boards (mod the board's width), the low word's carry into the high."""
    return _compiled_only(a, b)


@overload(plus, inline="always")
def _plus(a: Any, b: Any) -> Any:
    def wide(a: Any, b: Any) -> Any:
        lo = a.lo + b.lo
        return Wide(lo, a.hi + b.hi + np.uint64(lo < a.lo))

    def word(a: Any, b: Any) -> Any:
        return a + b

    return _either(a, wide, word)


def count(x: Any) -> Any:
    """The number of set bits of `x`."""
    return _compiled_only(x)


@overload(count, inline="always")
def _count(x: Any) -> Any:
    def wide(x: Any) -> Any:
        return popcount(x.lo) + popcount(x.hi)

    def word(x: Any) -> Any:
        return popcount(x)

    return _either(x, wide, word)


def one_like(x: Any) -> Any:
    """The board of `x`'s type holding bit 0 alone."""
    return _compiled_only(x)


@overload(one_like, inline="always")
def _one_like(x: Any) -> Any:
    def wide(x: Any) -> Any:
        return Wide(_ONE, _ZERO)

    def word(x: Any) -> Any:
        return _ONE

    return _either(x, wide, word)


def lesser(a: Any, b: Any) -> Any:
    """The smaller of two boards read as numbers."""
    return _compiled_only(a, b)


@overload(lesser, inline="always")
def _lesser(a: Any, b: Any) -> Any:
    def wide(a: Any, b: Any) -> Any:
        return a if a.hi < b.hi or (a.hi == b.hi and a.lo <= b.lo) else b

    def word(a: Any, b: Any) -> Any:
        return min(a, b)

    return _either(a, wide, word)


# ---------------------------------------------------------------------------- work arrays
def board_array(n: Any, m: Any, like: Any) -> Any:
    """An uninitialised ``n`` x ``m`` array of boards of `like`'s type: ``uint64`` of shape
    ``(n, m)``, or ``(n, m, 2)`` for two words."""
    return _compiled_only(n, m, like)


@overload(board_array, inline="always")
def _board_array(n: Any, m: Any, like: Any) -> Any:
    def wide(n: Any, m: Any, like: Any) -> Any:
        return np.empty((n, m, 2), dtype=np.uint64)

    def word(n: Any, m: Any, like: Any) -> Any:
        return np.empty((n, m), dtype=np.uint64)

    return _either(like, wide, word)


def load(boards: Any, i: Any, j: Any) -> Any:
    """The board at ``[i, j]`` of a :func:`board_array` (two words: ``[i, j, 0]`` and
    ``[i, j, 1]``)."""
    return _compiled_only(boards, i, j)


@overload(load, inline="always")
def _load(boards: Any, i: Any, j: Any) -> Any:
    def wide(boards: Any, i: Any, j: Any) -> Any:
        return Wide(boards[i, j, 0], boards[i, j, 1])

    def word(boards: Any, i: Any, j: Any) -> Any:
        return boards[i, j]

    if isinstance(boards, types.Array) and boards.dtype == types.uint64:
        return {3: wide, 2: word}.get(boards.ndim)
    return None


def store(boards: Any, i: Any, j: Any, x: Any) -> Any:
    """Write the board `x` at ``[i, j]`` of a :func:`board_array`."""
    return _compiled_only(boards, i, j, x)


@overload(store, inline="always")
def _store(boards: Any, i: Any, j: Any, x: Any) -> Any:
    def wide(boards: Any, i: Any, j: Any, x: Any) -> Any:
        boards[i, j, 0] = x.lo
        boards[i, j, 1] = x.hi

    def word(boards: Any, i: Any, j: Any, x: Any) -> Any:
        boards[i, j] = x

    return _either(x, wide, word)


# ---------------------------------------------------------------------------- the table
def probe(slots: Any, shift: Any, extra: Any, key: Any) -> Any:
    """The stored ``(lower, upper)`` bounds of `key`
    (:func:`~perfectplay.search._kernel_table.table_get`; two words:
    :func:`~perfectplay.search._kernel_table.wide_get`, `extra` bits in the high one)."""
    return _compiled_only(slots, shift, extra, key)


@overload(probe, inline="always")
def _probe(slots: Any, shift: Any, extra: Any, key: Any) -> Any:
    def wide(slots: Any, shift: Any, extra: Any, key: Any) -> Any:
        return wide_get(slots, shift, extra, key.lo, key.hi)

    def word(slots: Any, shift: Any, extra: Any, key: Any) -> Any:
        return table_get(slots, shift, key)

    return _either(key, wide, word)


def record(slots: Any, shift: Any, extra: Any, key: Any, lower: Any, upper: Any, nodes: Any) -> Any:
    """Store bounds of `key` (:func:`~perfectplay.search._kernel_table.table_put`, or
    :func:`~perfectplay.search._kernel_table.wide_put`)."""
    return _compiled_only(slots, shift, extra, key, lower, upper, nodes)


@overload(record, inline="always")
def _record(
    slots: Any, shift: Any, extra: Any, key: Any, lower: Any, upper: Any, nodes: Any
) -> Any:
    def wide(
        slots: Any, shift: Any, extra: Any, key: Any, lower: Any, upper: Any, nodes: Any
    ) -> Any:
        wide_put(slots, shift, extra, key.lo, key.hi, lower, upper, nodes)

    def word(
        slots: Any, shift: Any, extra: Any, key: Any, lower: Any, upper: Any, nodes: Any
    ) -> Any:
        table_put(slots, shift, key, lower, upper, nodes)

    return _either(key, wide, word)


def bucket(shift: Any, extra: Any, key: Any) -> Any:
    """The index of `key`'s bucket (:func:`~perfectplay.search._kernel_table.table_slot`,
    or :func:`~perfectplay.search._kernel_table.wide_slot`), to prefetch it."""
    return _compiled_only(shift, extra, key)


@overload(bucket, inline="always")
def _bucket(shift: Any, extra: Any, key: Any) -> Any:
    def wide(shift: Any, extra: Any, key: Any) -> Any:
        return wide_slot(shift, extra, key.lo, key.hi)

    def word(shift: Any, extra: Any, key: Any) -> Any:
        return table_slot(shift, key)

    return _either(key, wide, word)
