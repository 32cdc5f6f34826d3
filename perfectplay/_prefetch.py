"""A software prefetch for numba kernels: ``prefetch(arr, i)`` hints the CPU to load ``arr[i]``.

Kernels that walk large arrays in an order they know a few dozen steps ahead (Kahn's waves,
retrograde levels, hash-table probes) issue these hints to keep many cache misses in flight:
memory latency, not arithmetic, bounds them on graphs of millions of positions. The hint is
LLVM's ``llvm.prefetch`` (read access, high temporal locality, data cache); it never faults,
so the index needs no bounds check.
"""

from __future__ import annotations

from typing import Any

from llvmlite import ir  # type: ignore[import-untyped]
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = ["prefetch"]


def _prefetch_intrinsic(typingctx: Any, arr: Any, index: Any) -> Any:
    """Hint the CPU to load ``arr[index]`` into cache (no bounds check, never faults)."""
    if not isinstance(arr, types.Array) or not isinstance(index, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        array_type = signature.args[0]
        array = context.make_array(array_type)(context, builder, args[0])
        index = context.cast(builder, args[1], signature.args[1], types.intp)
        pointer = cgutils.get_item_pointer(  # type: ignore[no-untyped-call]
            context, builder, array_type, array, [index], wraparound=False
        )
        byte_pointer = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        hint = ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32])
        name = "llvm.prefetch.p0i8"
        function = cgutils.get_or_insert_function(  # type: ignore[no-untyped-call]
            builder.module, hint, name
        )
        # read access, high temporal locality, data cache
        flags = [ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)]
        builder.call(function, [builder.bitcast(pointer, byte_pointer), *flags])
        return context.get_dummy_value()

    return types.void(arr, index), codegen


prefetch: Any = intrinsic(_prefetch_intrinsic)
