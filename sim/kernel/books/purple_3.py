"""Purple Set 3 (ghost's breath, B): each purple chip scores by the printed coin number of its
space: 0-9 none, 10-19 1 VP, 20-29 2 VP, 30 and up 3 VP."""

from __future__ import annotations

from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import EV_PURPLE_VP, F_NPOT, F_SCORE, POT_P, POT_T, R_COINS
from sim.rules.chips import PURPLE, TYPE_COLOUR


@kernel(inline=True)
def at_b(P, s, G, R, E):
    """Step B for seat s (at least one purple chip in the pot)."""
    vp = 0
    for i in range(P[s, F_NPOT]):
        if TYPE_COLOUR[P[s, POT_T + i]] == PURPLE:
            c = R[R_COINS + P[s, POT_P + i]]
            vp += 3 if c >= 30 else c // 10
    if vp > 0:
        P[s, F_SCORE] += vp
    record(E, G, s, EV_PURPLE_VP, vp, 0, 0)
