"""Drawn right after a white chip, the yellow may send that white back to the bag; the white's space
stays empty and the white total drops.

Yellow Set 1 (mandrake, draw): if the chip placed before the yellow chip is white, the player
may put that white back into the bag (its space stays empty, the yellow stays where it landed).
Asked through the yellow slot (``decide_yellow``); round-file key ``yellow``."""

from __future__ import annotations

from sim.kernel.bag import remove_pot_entry, return_chip
from sim.kernel.decisions.decide import decide_yellow
from sim.kernel.event_codes import event_code
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import F_NPOT, F_WHITE, POT_P, POT_T
from sim.rules.chips import TYPE_COLOUR, TYPE_VALUE, WHITE
from sim.rules.declare import book, event

BOOK = book("yellow", 1, "draw", prices=1, choices=('return the white or not',), doc=__doc__,
            puts_back="white",
            events=event("yellow_return", a="chip:chip", b="index",
                         text="yellow returns {chip} from space {index} to the bag",
                         returns="yellow",
                         doc="the white chip type returned; the space it leaves empty"))
EV_YELLOW = event_code(BOOK, "yellow_return")


@kernel(inline=True)
def placed(P, s, G, R, SK, SP, SC, rng, E, UF):
    """The yellow chip just placed: the white before it back into the bag, if the seat wants."""
    k = P[s, F_NPOT]
    if k >= 2 and TYPE_COLOUR[P[s, POT_T + k - 2]] == WHITE:
        wt = P[s, POT_T + k - 2]
        if decide_yellow(P, s, wt, G, R, SK, SP, SC, rng, UF):
            wpos = P[s, POT_P + k - 2]
            remove_pot_entry(P, s, k - 2)
            P[s, F_WHITE] -= TYPE_VALUE[wt]
            return_chip(P, s, wt)
            record(E, G, s, EV_YELLOW, wt, wpos, 0)
