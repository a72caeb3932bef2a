"""After the yellow chip, one more chip is drawn: the yellow moves on by its value (locoweed 1) and
the chip goes back to the bag, with no effect.

Yellow Set 5 (mandrake, draw): one more chip is drawn; the yellow chip may move on by its value
(locoweed 1; an extra distance the red slot may decline) and the chip goes back to the bag with no
effect (nothing on the last space: a "next chip" effect, lost there)."""

from __future__ import annotations

from sim.kernel.bag import draw_chip, finish_potion, return_chip
from sim.kernel.books.common import ACTION_ABORT, ACTION_NONE, offer_extra
from sim.kernel.event_codes import event_code
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    F_ANCHOR,
    F_NBAG,
    F_NPOT,
    POT_P,
    POT_T,
    R_LAST,
    STOP_SCRIPT,
)
from sim.rules.chips import TYPE_VALUE
from sim.rules.declare import book, event

BOOK = book("yellow", 5, "draw", prices=5, choices=('take or decline the move on',), doc=__doc__,
            puts_back="any",
            events=event("yellow_push", a="chip:chip", b="spaces", c="index",
                         doc="the chip type drawn; the spaces the yellow moves on; its new space"))
EV_YELLOW_PUSH = event_code(BOOK, "yellow_push")


@kernel(inline=True)
def _push(P, s, G, R, SK, SP, SC, FD, rng, E, UF):
    """The yellow chip just placed; ``ACTION_ABORT`` if a scripted draw failed."""
    if P[s, F_ANCHOR] >= R[R_LAST] or P[s, F_NBAG] == 0:
        return ACTION_NONE
    u = draw_chip(P, s, FD, rng)
    if u < 0:
        finish_potion(P, s, STOP_SCRIPT, E, G)
        return ACTION_ABORT
    k = P[s, F_NPOT] - 1
    return_chip(P, s, u)
    spaces = offer_extra(P, s, TYPE_VALUE[u], P[s, POT_T + k], G, R, SK, SP, SC, rng, E, UF)
    pos = min(P[s, POT_P + k] + spaces, R[R_LAST])
    P[s, POT_P + k] = pos
    P[s, F_ANCHOR] = pos
    record(E, G, s, EV_YELLOW_PUSH, u, spaces, pos)
    return ACTION_NONE


@kernel(inline=True)
def chip_action(P, s, G, R, SK, SP, SC, FD, rng, E, UF):
    """The yellow chip just placed: (``ACTION_NONE``, 0), or (``ACTION_ABORT``, 0) if a scripted
    draw failed."""
    return _push(P, s, G, R, SK, SP, SC, FD, rng, E, UF), 0
