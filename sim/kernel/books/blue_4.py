"""A blue chip landing on a ruby space scores its value (1/2/4) in VP at once.

Blue Set 4 (crow skull, draw): a blue chip landing on a ruby space scores its value in VP at
once."""

from __future__ import annotations

from sim.kernel.event_codes import event_code
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import F_NPOT, F_SCORE, POT_P, R_RUBY
from sim.rules.chips import TYPE_VALUE
from sim.rules.declare import book, event

BOOK = book("blue", 4, "draw", prices=4, doc=__doc__,
            events=event("blue_vp", a="vp", text="blue on a ruby space: +{vp} VP"))
EV_BLUE_VP = event_code(BOOK, "blue_vp")


@kernel(inline=True)
def placed(P, s, t, G, R, E):
    """Blue chip t just placed (the last chip in the pot)."""
    pos = P[s, POT_P + P[s, F_NPOT] - 1]
    if R[R_RUBY + pos] != 0:
        P[s, F_SCORE] += TYPE_VALUE[t]
        record(E, G, s, EV_BLUE_VP, TYPE_VALUE[t], 0, 0)
