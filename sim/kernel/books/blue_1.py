"""Look at as many chips as the blue value (1/2/4); one of them may be placed next (its action
resolves, a white may explode), the rest go back.

Blue Set 1 (crow skull, draw): look at as many chips as the blue chip's value; one of them may
be placed next (its own action resolves, a white may explode), the rest go back. Asked through the
blue slot (``decide_blue``); round-file key ``blue``."""

from __future__ import annotations

from sim.kernel.bag import (
    ERR_BLUE_NOT_SEEN,
    ERR_BLUE_SCRIPT,
    draw_chip,
    finish_potion,
    return_looked,
)
from sim.kernel.books.common import ACTION_ABORT, ACTION_NONE
from sim.kernel.decisions.decide import decide_blue
from sim.kernel.event_codes import event_code
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    F_ANCHOR,
    F_BLUE_PTR,
    F_DRAWS,
    F_NBAG,
    F_SCRIPT_ERR,
    LOOK_NO,
    LOOK_T,
    R_LAST,
    STOP_SCRIPT,
)
from sim.rules.chips import TYPE_VALUE
from sim.rules.declare import book, event

BOOK = book("blue", 1, "draw", prices=1, choices=('which chip to place, or none',), doc=__doc__,
            events=(
                event("blue_look", a="chip:chip", text="blue looks at {chip}", takes_draw=True,
                      doc="the chip type seen"),
                event("blue_pick", a="chip:chip", text="blue places {chip:|nothing}",
                      doc="the chip type placed, -1 none"),
            ))
EV_BLUE_LOOK = event_code(BOOK, "blue_look")
EV_BLUE_PICK = event_code(BOOK, "blue_pick")


@kernel(inline=True)
def _look(P, s, t, G, R, SK, SP, SC, FD, rng, E, UF):
    """Blue chip t just placed: the index into ``LOOK_T`` of the chip to place next,
    ``ACTION_NONE`` or ``ACTION_ABORT`` (nothing on the last space or with an empty bag)."""
    if P[s, F_ANCHOR] >= R[R_LAST] or P[s, F_NBAG] == 0:
        return ACTION_NONE
    looked = P[s, LOOK_T : LOOK_T + 4]
    m = min(TYPE_VALUE[t], P[s, F_NBAG])
    for i in range(m):
        u = draw_chip(P, s, FD, rng)
        if u < 0:
            finish_potion(P, s, STOP_SCRIPT, E, G)
            return ACTION_ABORT
        looked[i] = u
        P[s, LOOK_NO + i] = P[s, F_DRAWS]
        record(E, G, s, EV_BLUE_LOOK, u, 0, 0)
    pick = decide_blue(P, s, looked, m, G, R, SK, SP, SC, rng, UF)
    P[s, F_BLUE_PTR] += 1
    if pick <= -3:
        P[s, F_SCRIPT_ERR] = ERR_BLUE_SCRIPT if pick == -3 else ERR_BLUE_NOT_SEEN
        pick = -1
    return_looked(P, s, looked, m, pick)
    if pick >= 0:
        record(E, G, s, EV_BLUE_PICK, looked[pick], 0, 0)
        return pick
    record(E, G, s, EV_BLUE_PICK, -1, 0, 0)
    return ACTION_NONE


@kernel(inline=True)
def chip_action(P, s, t, G, R, SK, SP, SC, FD, rng, E, UF):
    """Blue chip t just placed: (the chip it picked, placed next with its own action, and that
    chip's draw number), or (``ACTION_NONE`` / ``ACTION_ABORT``, 0)."""
    pick = _look(P, s, t, G, R, SK, SP, SC, FD, rng, E, UF)
    if pick >= 0:
        return P[s, LOOK_T + pick], P[s, LOOK_NO + pick]
    return pick, 0
