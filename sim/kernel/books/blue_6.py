"""The blue chip looks at the chips placed just before it, as many as its value: 1 ruby for each
white 1-chip among them.

Blue Set 6 (crow skull, draw): one ruby for each white 1-chip among the (value) chips placed
just before the blue chip."""

from __future__ import annotations

from sim.kernel.event_codes import event_code
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import F_NPOT, F_RUBIES, POT_T
from sim.rules.chips import TYPE_VALUE, W1
from sim.rules.declare import book, event

BOOK = book("blue", 6, "draw", prices=6, doc=__doc__,
            events=event("blue_white", a="rubies", b="looked",
                         text="blue: +{rubies:~ruby/rubies}, one per white 1-chip among the "
                              "{looked:~chip} before it",
                         doc="rubies: white 1-chips among the chips looked at; the chips looked at "
                             "(the blue chip's value, fewer if the pot has fewer)"))
EV_BLUE_WHITE = event_code(BOOK, "blue_white")


@kernel(inline=True)
def placed(P, s, t, G, E):
    """Blue chip t just placed (the last entry in the pot)."""
    k = P[s, F_NPOT] - 1  # the blue chip's own entry
    first = max(0, k - TYPE_VALUE[t])
    n = 0
    for i in range(first, k):
        if P[s, POT_T + i] == W1:
            n += 1
    if n > 0:
        P[s, F_RUBIES] += n
        record(E, G, s, EV_BLUE_WHITE, n, k - first, 0)
