"""Bitboard helpers for numba kernels: set bits counted, the lowest and highest set bit, and
runs of four set bits found by shifting.

A bitboard is an int64 (or uint64) whose bit ``i`` is cell ``i`` of a board. The helpers take
and return machine integers only (no arrays, no Python objects), are compiled with
``inline="always"`` so that a kernel calling them pays no call, and release the GIL.

A *run of four* with step ``d`` is four set bits ``i, i + d, i + 2d, i + 3d``; on a board laid
out column by column with one spare (guard) bit on top of each column of ``h`` bits, the
lines of Connect Four are the runs with steps 1 (vertical), ``h`` (horizontal), ``h + 1`` and
``h - 1`` (diagonals), and the guard bits, never set, keep runs from wrapping from one column
into the next (John Tromp's layout; see :mod:`perfectplay.games.connect_four`).

Examples
--------
>>> board = np.int64(0b101100)
>>> int(popcount(board)), int(lowest_bit(board)), int(highest_bit(board))
(3, 4, 32)
>>> bin(runs_of_four(np.int64(0b1111_0111), 1))  # bit 4 starts the one run of four
'0b10000'
"""

from __future__ import annotations

from typing import Any

import numba as nb
import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import types
from numba.cpython.unsafe.numbers import leading_zeros
from numba.extending import intrinsic

__all__ = ["highest_bit", "lowest_bit", "popcount", "runs_of_four"]

_leading_zeros: Any = leading_zeros  # the number of zero bits above the highest set bit


def _ctpop(typingctx: Any, x: Any) -> Any:
    """LLVM's ``ctpop`` of a 64-bit integer: one ``popcnt`` instruction where the CPU has it."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        value = context.cast(builder, args[0], signature.args[0], types.uint64)
        function = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
        return builder.call(function, [value])

    return types.uint64(x), codegen


_popcount: Any = intrinsic(_ctpop)


@nb.njit(cache=True, nogil=True, inline="always")
def popcount(x):  # type: ignore[no-untyped-def]
    """The number of set bits of `x` (int64 or uint64; a negative int64 counts its 64 bits),
    as an int64: one instruction (LLVM's ``ctpop``)."""
    return np.int64(_popcount(x))


@nb.njit(cache=True, nogil=True, inline="always")
def lowest_bit(x):  # type: ignore[no-untyped-def]
    """The lowest set bit of `x` alone (``x & -x``), 0 when `x` is 0."""
    return x & -x


@nb.njit(cache=True, nogil=True, inline="always")
def highest_bit(x):  # type: ignore[no-untyped-def]
    """The highest set bit of `x` (``x > 0``, int64) alone, by counting leading zero bits."""
    return np.int64(1) << (63 - _leading_zeros(np.int64(x)))


@nb.njit(cache=True, nogil=True, inline="always")
def runs_of_four(stones, step):  # type: ignore[no-untyped-def]
    """The bits ``i`` of `stones` that start a run of four set bits ``i, i + step, i + 2 step,
    i + 3 step``: two shifts (pairs, then pairs of pairs) whatever the direction."""
    pairs = stones & (stones >> step)
    return pairs & (pairs >> (2 * step))
