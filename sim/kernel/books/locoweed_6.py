"""A locoweed moves as the last coloured (non-white) chip in the pot and takes its on-draw action;
with none, 1 space and no action. It counts as a locoweed for everything else.

Locoweed Set 6 (Herb Witches): a locoweed takes the value and on-draw action of the last
coloured (non-white) chip in the pot; with none, 1 and no action. It copies only that: everywhere
else it counts as a locoweed."""

from __future__ import annotations

from sim.kernel.event_codes import event_code
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import F_NPOT, POT_T
from sim.rules.chips import LOCOWEED, TYPE_COLOUR, WHITE
from sim.rules.declare import book, event

BOOK = book("locoweed", 6, "draw", prices=6, doc=__doc__,
            events=event("locoweed", a="copies:chip", b="spaces:opt",
                         doc="the chip type copied (-1 none); the spaces moved"))
EV_LOCO = event_code(BOOK, "locoweed")


@kernel(inline=True)
def acting_type(P, s, t, G, E):
    """The chip whose value and action locoweed t takes (a locoweed in the pot stands for the chip
    it copied)."""
    for k in range(P[s, F_NPOT] - 1, -1, -1):
        u = P[s, POT_T + k]
        if TYPE_COLOUR[u] != WHITE and TYPE_COLOUR[u] != LOCOWEED:
            record(E, G, s, EV_LOCO, u, -1, 0)
            return u
    record(E, G, s, EV_LOCO, -1, 1, 0)
    return t
