"""Calling a slot function from compiled code, through its address.

The kernels receive the slot functions as ``UF = (addresses, memory)``: ``addresses`` an int64
array of ``N_UF`` rows (the function's entry point in Numba's calling convention, then its C
wrapper; see ``strategies.plugin.slot_addresses``) and ``memory`` every seat's scratch row.

Why addresses and not a tuple of compiled functions: every kernel function on the way to a
decision passes ``UF`` on, and a call passes its arguments flattened, by value. A tuple of 32
first-class functions is 96 machine words, half of what each call of ``brew_until_stop`` pushed
on the stack; with the caller's frame laid out so that the pushes read exactly 4 KiB above the
slot they write, each push waited for the one before it (4K aliasing), and the same game ran at
half speed from the on-disk cache. An address table is one array (7 words).
"""

from __future__ import annotations

from numba import types
from numba.extending import intrinsic

from sim.kernel.jit import kernel
from sim.kernel.numba_patches import function_value

SLOT_SIGNATURE = types.int64(
    types.int64[:, ::1],
    types.int64,
    types.int64[::1],
    types.int64[::1],
    types.float64[:, :, ::1],
    types.int64,
    types.int64,
    types.float64[::1],
)
SLOT_FUNCTION = types.FunctionType(SLOT_SIGNATURE)
ADDRESS_COLUMNS = 2  # addresses[i] = (entry point, C wrapper)


@intrinsic
def slot_function(typingctx, jit_address, c_address):
    """The slot function at these two addresses, as a first-class function value."""
    if not (isinstance(jit_address, types.Integer) and isinstance(c_address, types.Integer)):
        return None

    def codegen(context, builder, sig, args):
        return function_value(context, builder, SLOT_FUNCTION, args[0], args[1])

    return SLOT_FUNCTION(jit_address, c_address), codegen


@kernel(inline=True)
def call_slot(UF, i, P, s, G, R, SP, a, b):
    """Slot function ``i`` of the table asked ``(a, b)`` for seat ``s``, with the seat's memory."""
    f = slot_function(UF[0][i, 0], UF[0][i, 1])
    return f(P, s, G, R, SP, a, b, UF[1][s])
