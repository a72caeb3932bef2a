"""With at least as many orange chips in the pot as the blue chip's value (an orange 6 counts as one
chip), the blue scores its value in VP at once.

Blue Set 5 (crow skull, draw): with at least as many orange chips in the pot as its value, a
blue chip scores its value in VP at once."""

from __future__ import annotations

from sim.kernel.event_codes import event_code
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import F_NORANGE, F_SCORE
from sim.rules.chips import TYPE_VALUE
from sim.rules.declare import book, event

BOOK = book("blue", 5, "draw", prices=5, doc=__doc__,
            events=event("blue_orange", a="vp", b="orange", text="blue: {orange:~orange chip} "
                         "in the pot, at least its value: +{vp} VP",
                         doc="VP: the blue chip's value; the orange chips in the pot"))
EV_BLUE_ORANGE = event_code(BOOK, "blue_orange")


@kernel(inline=True)
def placed(P, s, t, G, E):
    """Blue chip t just placed."""
    if P[s, F_NORANGE] >= TYPE_VALUE[t]:
        P[s, F_SCORE] += TYPE_VALUE[t]
        record(E, G, s, EV_BLUE_ORANGE, TYPE_VALUE[t], P[s, F_NORANGE], 0)
