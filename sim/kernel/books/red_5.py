"""With a red chip of a higher value already in the pot, the red chip moves that higher value
instead of its own.

Red Set 5 (toadstool, draw): with a red chip of a higher value in the pot, a red chip moves
that value instead of its own (optional: the red question, ``hooks.chip_move``)."""

from __future__ import annotations

from sim.kernel.books.common import offer_red
from sim.kernel.jit import kernel
from sim.kernel.layout import F_NPOT, POT_T
from sim.rules.chips import RED, TYPE_COLOUR, TYPE_VALUE
from sim.rules.declare import book

BOOK = book("red", 5, "draw", prices=5, choices=('take or decline the higher value',), doc=__doc__)


@kernel(inline=True)
def _extra(P, s, t):
    """The extra spaces red chip t is offered."""
    hi = 0
    for i in range(P[s, F_NPOT]):
        u = P[s, POT_T + i]
        if TYPE_COLOUR[u] == RED and TYPE_VALUE[u] > hi:
            hi = TYPE_VALUE[u]
    return max(hi - TYPE_VALUE[t], 0)


@kernel(inline=True)
def chip_move(P, s, t, G, R, SK, SP, SC, rng, E, UF):
    """The spaces red chip t moves: its value and the extra offered (the red question)."""
    return TYPE_VALUE[t] + offer_red(P, s, t, _extra(P, s, t), G, R, SK, SP, SC, rng, E, UF)
