"""Turn order: the seat k places after another, without a division."""

from __future__ import annotations

from sim.kernel.jit import kernel


@kernel(inline=True)
def seat_after(sp, k, n):
    """The k-th seat in turn order from seat sp (0 <= sp, k < n): ``(sp + k) % n`` without a
    division (one per draw in the chip loop, one per seat in every step of a round: an integer
    division costs 25-40 cycles, a compare and a subtraction one or two)."""
    s = sp + k
    return s - n if s >= n else s
