"""Purple Set 6 (ghost's breath, B): each purple chip scores the printed value of the chip placed
right after it."""

from __future__ import annotations

from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import EV_PURPLE_VP, F_NPOT, F_SCORE, POT_T
from sim.rules.chips import PURPLE, TYPE_COLOUR, TYPE_VALUE


@kernel(inline=True)
def at_b(P, s, G, E):
    """Step B for seat s (at least one purple chip in the pot)."""
    vp = 0
    for i in range(P[s, F_NPOT] - 1):
        if TYPE_COLOUR[P[s, POT_T + i]] == PURPLE:
            vp += TYPE_VALUE[P[s, POT_T + i + 1]]
    if vp > 0:
        P[s, F_SCORE] += vp
    record(E, G, s, EV_PURPLE_VP, vp, 0, 0)
