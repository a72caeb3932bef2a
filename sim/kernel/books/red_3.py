"""Red Set 3 (toadstool, draw): a red chip moves + the value of the chip placed directly before
it, if that chip is white (optional: the red question, ``hooks.chip_move``)."""

from __future__ import annotations

from sim.kernel.jit import kernel
from sim.kernel.layout import F_NPOT, POT_T
from sim.rules.chips import TYPE_COLOUR, TYPE_VALUE, WHITE


@kernel(inline=True)
def extra(P, s, t):
    """The extra spaces red chip t is offered."""
    k = P[s, F_NPOT]
    if k >= 1 and TYPE_COLOUR[P[s, POT_T + k - 1]] == WHITE:
        return TYPE_VALUE[P[s, POT_T + k - 1]]
    return 0
