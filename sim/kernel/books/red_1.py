"""With 1-2 orange chips already in the pot the red chip moves 1 extra space, with 3 or more 2
extra.

Red Set 1 (toadstool, draw): a red chip moves +1 with one or two pumpkins in the pot, +2 with
three or more (optional: the red question, ``hooks.chip_move``)."""

from __future__ import annotations

from sim.kernel.books.common import offer_red
from sim.kernel.jit import kernel
from sim.kernel.layout import F_NORANGE
from sim.rules.chips import TYPE_VALUE
from sim.rules.declare import book

BOOK = book("red", 1, "draw", prices=1, choices=('take or decline the extra distance',),
            doc=__doc__)


@kernel(inline=True)
def _extra(P, s, t):
    """The extra spaces red chip t is offered."""
    n_orange = P[s, F_NORANGE]
    return 2 if n_orange >= 3 else (1 if n_orange >= 1 else 0)


@kernel(inline=True)
def chip_move(P, s, t, G, R, SK, SP, SC, rng, E, UF):
    """The spaces red chip t moves: its value and the extra offered (the red question)."""
    return TYPE_VALUE[t] + offer_red(P, s, t, _extra(P, s, t), G, R, SK, SP, SC, rng, E, UF)
