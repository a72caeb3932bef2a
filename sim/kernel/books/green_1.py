"""1 ruby for each green chip that is the last or next-to-last chip in the pot, whatever its value.

Green Set 1 (garden spider, B): one ruby for each green chip that is the last or next-to-last
chip in the pot."""

from __future__ import annotations

from sim.kernel.books.common import last_two_green
from sim.kernel.event_codes import event_code
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import F_RUBIES
from sim.rules.declare import book, event

BOOK = book("green", 1, "B", prices=1, doc=__doc__,
            events=event("green", a="rubies", text="green: +{rubies:~ruby/rubies}"))
EV_GREEN = event_code(BOOK, "green")


@kernel(inline=True)
def green_at_b(P, s, G, E):
    """Step B for seat s."""
    g = last_two_green(P, s)
    if g > 0:
        P[s, F_RUBIES] += g
        record(E, G, s, EV_GREEN, g, 0, 0)
