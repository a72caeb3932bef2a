"""Each purple chip scores by the printed coin number of its space: 0-9 none, 10-19 1 VP, 20-29 2
VP, 30 or more 3 VP.

Purple Set 3 (ghost's breath, B): each purple chip scores by the printed coin number of its
space: 0-9 none, 10-19 1 VP, 20-29 2 VP, 30 and up 3 VP."""

from __future__ import annotations

from sim.kernel.books.common import count_colour
from sim.kernel.event_codes import event_code
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import F_NPOT, F_SCORE, POT_P, POT_T, R_COINS
from sim.rules.chips import PURPLE, TYPE_COLOUR
from sim.rules.declare import book, event

BOOK = book("purple", 3, "B", prices=3, doc=__doc__,
            events=event("purple_vp", a="vp", text="purple: +{vp} VP"))
EV_PURPLE_VP = event_code(BOOK, "purple_vp")


@kernel(inline=True)
def purple_at_b(P, s, G, R, E):
    """Step B for seat s (nothing without a purple chip in the pot)."""
    if count_colour(P, s, PURPLE) == 0:
        return
    vp = 0
    for i in range(P[s, F_NPOT]):
        if TYPE_COLOUR[P[s, POT_T + i]] == PURPLE:
            c = R[R_COINS + P[s, POT_P + i]]
            vp += 3 if c >= 30 else c // 10
    if vp > 0:
        P[s, F_SCORE] += vp
    record(E, G, s, EV_PURPLE_VP, vp, 0, 0)
