"""Purple chips in the pot: 1 gives 1 VP; 2 give 1 VP and 1 ruby; 3 or more give 2 VP and droplet
+1. One tier only.

Purple Set 1 (ghost's breath, B): one tier by the purple chips in the pot (a lower one may be
chosen): 1 -> 1 VP; 2 -> 1 VP and 1 ruby; 3 or more -> 2 VP and droplet +1. Asked through the
purple slot (``decide_purple``); round-file key ``purple``."""

from __future__ import annotations

from sim.kernel.books.common import count_colour
from sim.kernel.decisions.decide import decide_purple
from sim.kernel.droplet import move_droplet
from sim.kernel.event_codes import event_code
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import F_RUBIES, F_SCORE
from sim.rules.chips import PURPLE
from sim.rules.declare import book, event

BOOK = book("purple", 1, "B", prices=1, choices=('a lower tier (or none) is allowed',), doc=__doc__,
            events=event("purple", a="tier", text="purple tier {tier}"))
EV_PURPLE = event_code(BOOK, "purple")


@kernel(inline=True)
def purple_at_b(P, s, G, R, SK, SP, SC, rng, E, UF):
    """Step B for seat s: nothing without a purple chip in the pot."""
    npurple = count_colour(P, s, PURPLE)
    if npurple == 0:
        return
    tier = decide_purple(P, s, npurple, G, R, SK, SP, SC, rng, UF)
    if tier == 1:
        P[s, F_SCORE] += 1
    elif tier == 2:
        P[s, F_SCORE] += 1
        P[s, F_RUBIES] += 1
    elif tier >= 3:
        P[s, F_SCORE] += 2
        move_droplet(P, s, 1)
    record(E, G, s, EV_PURPLE, tier, 0, 0)
