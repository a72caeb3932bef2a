"""If the white chips total exactly the explosion limit (7, before any raise), the last chip moves
on by the sum of all green values in the pot; after the bonus die, so it changes the scoring space
only.

Green Set 3 (garden spider, B): if the white chips total exactly the explosion limit, the last
chip moves on by the values of all green chips in the pot (after the bonus die: a new reward space
for steps C-E)."""

from __future__ import annotations

from sim.kernel.event_codes import event_code
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    F_COINS,
    F_EXPLODED,
    F_FINALPOS,
    F_NPOT,
    F_REWARD,
    F_WHITE,
    POT_P,
    POT_T,
    R_COINS,
    R_LAST,
    R_LIMIT,
)
from sim.rules.chips import GREEN, TYPE_COLOUR, TYPE_VALUE
from sim.rules.declare import book, event

BOOK = book("green", 3, "B", prices=3, doc=__doc__,
            events=event("green_move", a="spaces", b="reward_space",
                         text="green: last chip +{spaces}; reward space {reward_space}",
                         doc="spaces; the new reward space"))
EV_GREEN_MOVE = event_code(BOOK, "green_move")


@kernel(inline=True)
def green_at_b(P, s, G, R, E):
    """Step B for seat s."""
    npot = P[s, F_NPOT]
    if P[s, F_EXPLODED] == 0 and npot > 0 and P[s, F_WHITE] == R[R_LIMIT]:
        g = 0
        for i in range(npot):
            if TYPE_COLOUR[P[s, POT_T + i]] == GREEN:
                g += TYPE_VALUE[P[s, POT_T + i]]
        if g > 0:
            pos = min(P[s, POT_P + npot - 1] + g, R[R_LAST])
            P[s, POT_P + npot - 1] = pos
            P[s, F_FINALPOS] = pos
            P[s, F_REWARD] = pos + 1
            P[s, F_COINS] = R[R_COINS + pos + 1]
            record(E, G, s, EV_GREEN_MOVE, g, pos + 1, 0)
