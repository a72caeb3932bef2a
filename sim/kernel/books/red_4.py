"""Once a red chip is in the pot, every white 1-chip drawn after it moves 2 spaces (it still counts
1 towards the limit); more reds add nothing.

Red Set 4 (toadstool, draw): once a red chip is in the pot, every white 1-chip may move 2
spaces (it still counts 1 towards the explosion; an extra distance the red slot may decline)."""

from __future__ import annotations

from sim.kernel.books.common import offer_extra
from sim.kernel.jit import kernel
from sim.kernel.layout import F_NRED
from sim.rules.chips import TYPE_VALUE, W1
from sim.rules.declare import book

BOOK = book("red", 4, "passive", prices=4,
            choices=('take or decline the extra space, per white 1-chip',), chips=('white',),
            doc=__doc__)


@kernel(inline=True)
def _extra(P, s, t, G, R, SK, SP, SC, rng, E, UF):
    """The extra spaces white chip t takes (0 or 1)."""
    if t == W1 and P[s, F_NRED] > 0:
        return offer_extra(P, s, 1, t, G, R, SK, SP, SC, rng, E, UF)
    return 0


@kernel(inline=True)
def chip_move(P, s, t, G, R, SK, SP, SC, rng, E, UF):
    """The spaces white chip t moves: its value and the extra it takes."""
    return TYPE_VALUE[t] + _extra(P, s, t, G, R, SK, SP, SC, rng, E, UF)
