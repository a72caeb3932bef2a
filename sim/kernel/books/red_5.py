"""Red Set 5 (toadstool, draw): with a red chip of a higher value in the pot, a red chip moves
that value instead of its own (optional: the red question, ``hooks.chip_move``)."""

from __future__ import annotations

from sim.kernel.jit import kernel
from sim.kernel.layout import F_NPOT, POT_T
from sim.rules.chips import RED, TYPE_COLOUR, TYPE_VALUE


@kernel(inline=True)
def extra(P, s, t):
    """The extra spaces red chip t is offered."""
    hi = 0
    for i in range(P[s, F_NPOT]):
        u = P[s, POT_T + i]
        if TYPE_COLOUR[u] == RED and TYPE_VALUE[u] > hi:
            hi = TYPE_VALUE[u]
    return max(hi - TYPE_VALUE[t], 0)
