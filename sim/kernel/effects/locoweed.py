"""Locoweed (Herb Witches; a chip with no printed value, counted 1 by every other rule): how far
it moves, by book (component-data.md 10.4, decisions.md).

Set 5: the spaces the rat stone moved this round (fortune-card changes included) plus 1, at most 4.
Set 6: the value and on-draw action of the last coloured (non-white) chip in the pot; with none, 1
and no action. It copies only that: everywhere else it counts as a locoweed.
"""

from __future__ import annotations

from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import EV_LOCO, F_NPOT, F_RAT, POT_T, R_BOOK
from sim.rules.chips import LOCOWEED, TYPE_COLOUR, WHITE


@kernel(inline=True)
def acting_type(P, s, t, G, R, E):
    """The chip whose value and on-draw action chip t takes: t itself, or for a Set 6 locoweed
    the last coloured chip in the pot (a locoweed there stands for the chip it copied)."""
    if TYPE_COLOUR[t] != LOCOWEED or R[R_BOOK + LOCOWEED] != 6:
        return t
    for k in range(P[s, F_NPOT] - 1, -1, -1):
        u = P[s, POT_T + k]
        if TYPE_COLOUR[u] != WHITE and TYPE_COLOUR[u] != LOCOWEED:
            record(E, G, s, EV_LOCO, u, -1, 0)
            return u
    record(E, G, s, EV_LOCO, -1, 1, 0)
    return t


@kernel(inline=True)
def locoweed_move(P, s, G, R, E):
    """Spaces a locoweed moves when it acts as itself: Set 5 the rat spaces + 1 (at most 4), else 1."""
    if R[R_BOOK + LOCOWEED] == 5:
        move = min(P[s, F_RAT] + 1, 4)
        record(E, G, s, EV_LOCO, -1, move, 0)
        return move
    return 1
