"""A locoweed moves the spaces the rat stone moved this round (cards included) + 1, at most 4 (the
cap applies last, after a yellow Set 2 doubling).

Locoweed Set 5 (Herb Witches; a chip with no printed value, counted 1 by every other rule): a
locoweed moves the spaces the rat stone moved this round (fortune-card changes included) plus 1, at
most 4, a yellow Set 2 doubling included."""

from __future__ import annotations

from sim.kernel.event_codes import event_code
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import F_RAT
from sim.rules.declare import book, event

BOOK = book("locoweed", 5, "draw", prices=5, doc=__doc__,
            events=event("locoweed", a="copies:chip", b="spaces:opt",
                         doc="the chip type copied (-1 none); the spaces moved"))
EV_LOCO = event_code(BOOK, "locoweed")


@kernel(inline=True)
def chip_move(P, s, G, E):
    """The spaces a locoweed placed now moves."""
    m = min(P[s, F_RAT] + 1, 4)
    record(E, G, s, EV_LOCO, -1, m, 0)
    return m


@kernel(inline=True)
def doubled_move(move):
    """A doubled distance, capped."""
    return min(move, 4)
