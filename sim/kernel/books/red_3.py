"""If the chip placed right before it is white, the red chip moves its own value plus that white's
value.

Red Set 3 (toadstool, draw): a red chip moves + the value of the chip placed directly before
it, if that chip is white (optional: the red question, ``hooks.chip_move``)."""

from __future__ import annotations

from sim.kernel.books.common import offer_red
from sim.kernel.jit import kernel
from sim.kernel.layout import F_NPOT, POT_T
from sim.rules.chips import TYPE_COLOUR, TYPE_VALUE, WHITE
from sim.rules.declare import book

BOOK = book("red", 3, "draw", prices=3, choices=('take or decline the extra distance',),
            doc=__doc__)


@kernel(inline=True)
def _extra(P, s, t):
    """The extra spaces red chip t is offered."""
    k = P[s, F_NPOT]
    if k >= 1 and TYPE_COLOUR[P[s, POT_T + k - 1]] == WHITE:
        return TYPE_VALUE[P[s, POT_T + k - 1]]
    return 0


@kernel(inline=True)
def chip_move(P, s, t, G, R, SK, SP, SC, rng, E, UF):
    """The spaces red chip t moves: its value and the extra offered (the red question)."""
    return TYPE_VALUE[t] + offer_red(P, s, t, _extra(P, s, t), G, R, SK, SP, SC, rng, E, UF)
