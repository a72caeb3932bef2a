"""Each purple chip scores VP equal to the printed value of the chip placed right after it (locoweed
1).

Purple Set 6 (ghost's breath, B): each purple chip scores the printed value of the chip placed
right after it."""

from __future__ import annotations

from sim.kernel.books.common import count_colour
from sim.kernel.event_codes import event_code
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import F_NPOT, F_SCORE, POT_T
from sim.rules.chips import PURPLE, TYPE_COLOUR, TYPE_VALUE
from sim.rules.declare import book, event

BOOK = book("purple", 6, "B", prices=6, doc=__doc__,
            events=event("purple_vp", a="vp", text="purple: +{vp} VP"))
EV_PURPLE_VP = event_code(BOOK, "purple_vp")


@kernel(inline=True)
def purple_at_b(P, s, G, E):
    """Step B for seat s (nothing without a purple chip in the pot)."""
    if count_colour(P, s, PURPLE) == 0:
        return
    vp = 0
    for i in range(P[s, F_NPOT] - 1):
        if TYPE_COLOUR[P[s, POT_T + i]] == PURPLE:
            vp += TYPE_VALUE[P[s, POT_T + i + 1]]
    if vp > 0:
        P[s, F_SCORE] += vp
    record(E, G, s, EV_PURPLE_VP, vp, 0, 0)
