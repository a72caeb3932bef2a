"""If the pot explodes within the next 1/2/4 chips drawn, the player still gets both VP and coins
(no bonus die). Windows never add up: the longer remaining one counts.

Blue Set 2 (crow skull, draw): a protection window over the next (value) draws, in which an
explosion still scores VP and coins (no bonus die); windows do not add up, the longer remaining one
counts (``F_PROTECT``; each draw asks the hook point ``draw_protected``)."""

from __future__ import annotations

from sim.kernel.event_codes import event_code
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import F_PROTECT
from sim.rules.chips import TYPE_VALUE
from sim.rules.declare import book, event

BOOK = book("blue", 2, "draw", prices=2, flags=("protects",), doc=__doc__,
            events=event("protect", a="draws", text="protected for the next {draws:~draw}",
                         doc="draws in the protection window now"))
EV_PROTECT = event_code(BOOK, "protect")


@kernel(inline=True)
def placed(P, s, t, G, E):
    """Blue chip t just placed: open (or keep) the window."""
    if TYPE_VALUE[t] > P[s, F_PROTECT]:
        P[s, F_PROTECT] = TYPE_VALUE[t]
    record(E, G, s, EV_PROTECT, P[s, F_PROTECT], 0, 0)


@kernel(inline=True)
def draw_protected(P, s):
    """A chip was just drawn: whether it is inside a window (an explosion on it scores VP and
    coins both); the draw counts off the window."""
    protected = P[s, F_PROTECT] > 0
    if protected:
        P[s, F_PROTECT] -= 1
    return protected
