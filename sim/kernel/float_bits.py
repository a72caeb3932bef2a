"""A float64 kept in an int64 array (the game row ``G``): its 64 bits, reinterpreted both ways,
so a value read back is the value stored, to the last bit."""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


@intrinsic
def float_bits(typingctx, x):
    """The int64 whose bits are those of the float64 ``x``."""
    if x != types.float64:
        return None

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.IntType(64))

    return types.int64(types.float64), codegen


@intrinsic
def bits_float(typingctx, k):
    """The float64 whose bits are those of the int64 ``k`` (``float_bits`` undone)."""
    if k != types.int64:
        return None

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.DoubleType())

    return types.float64(types.int64), codegen
