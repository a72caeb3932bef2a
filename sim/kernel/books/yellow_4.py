"""The round's 1st, 2nd and 3rd yellow chips move 1, 2 and 3 extra spaces; later ones nothing extra.

Yellow Set 4 (mandrake, draw): the 1st / 2nd / 3rd yellow chip of the potion may move +1 / +2
/ +3 (an extra distance the red slot may decline)."""

from __future__ import annotations

from sim.kernel.books.common import offer_extra
from sim.kernel.jit import kernel
from sim.kernel.layout import F_YELLOW_PTR
from sim.rules.chips import TYPE_VALUE
from sim.rules.declare import book

BOOK = book("yellow", 4, "draw", prices=4, choices=('take or decline the extra distance',),
            doc=__doc__)


@kernel(inline=True)
def _extra(P, s, t, G, R, SK, SP, SC, rng, E, UF):
    """The extra spaces yellow chip t takes."""
    if P[s, F_YELLOW_PTR] < 3:
        return offer_extra(P, s, P[s, F_YELLOW_PTR] + 1, t, G, R, SK, SP, SC, rng, E, UF)
    return 0


@kernel(inline=True)
def chip_move(P, s, t, G, R, SK, SP, SC, rng, E, UF):
    """The spaces yellow chip t moves: its value and the extra it takes."""
    return TYPE_VALUE[t] + _extra(P, s, t, G, R, SK, SP, SC, rng, E, UF)
