"""The next chip placed moves twice as far (its value plus any extra from its own book), whatever
the yellow's value.

Yellow Set 2 (mandrake, draw): the next chip placed may move twice as far (offered when it is
placed: ``F_DOUBLE``, spent through the hook point ``doubles_next``; an extra distance
the red slot may decline)."""

from __future__ import annotations

from sim.kernel.event_codes import event_code
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import F_DOUBLE
from sim.rules.declare import book, event

BOOK = book("yellow", 2, "draw", prices=2,
            choices=('take or decline the doubling, when the next chip is placed',), doc=__doc__,
            events=event("double", text="the next chip moves twice as far"))
EV_DOUBLE = event_code(BOOK, "double")


@kernel(inline=True)
def placed(P, s, G, E):
    """The yellow chip just placed: the next chip's distance doubles."""
    P[s, F_DOUBLE] = 1
    record(E, G, s, EV_DOUBLE, 0, 0, 0)


@kernel(inline=True)
def doubles_next(P, s):
    """A chip is being placed: whether a yellow chip doubles its distance (spent now)."""
    if P[s, F_DOUBLE] != 0:
        P[s, F_DOUBLE] = 0
        return True
    return False
