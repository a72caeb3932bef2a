"""A blue chip landing on a ruby space earns 1 ruby at once, whatever its value.

Blue Set 3 (crow skull, draw): a blue chip landing on a ruby space earns 1 ruby at once."""

from __future__ import annotations

from sim.kernel.event_codes import event_code
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import F_NPOT, F_RUBIES, POT_P, R_RUBY
from sim.rules.declare import book, event

BOOK = book("blue", 3, "draw", prices=3, doc=__doc__,
            events=event("blue_ruby", a="rubies", text="blue on a ruby space: +1 ruby"))
EV_BLUE_RUBY = event_code(BOOK, "blue_ruby")


@kernel(inline=True)
def placed(P, s, G, R, E):
    """A blue chip just placed (the last chip in the pot)."""
    pos = P[s, POT_P + P[s, F_NPOT] - 1]
    if R[R_RUBY + pos] != 0:
        P[s, F_RUBIES] += 1
        record(E, G, s, EV_BLUE_RUBY, 1, 0, 0)
