"""Yellow (mandrake): what a yellow chip does right after it is placed."""

from __future__ import annotations

from numba import njit

from sim.kernel.bag import remove_pot_entry, return_chip
from sim.kernel.events import record
from sim.kernel.layout import EV_YELLOW, F_NPOT, F_WHITE, F_YELLOW_PTR, POT_P, POT_T, R_BOOK
from sim.rules.chips import TYPE_COLOUR, TYPE_VALUE, WHITE, YELLOW
from strategies.decide_nb import decide_yellow


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def yellow_placed(P, s, G, R, SK, SP, SC, rng, E, UF):
    """Resolve the yellow chip just placed.

    Set 1: if the chip before it is white, the strategy may put that white back into the bag
    (its space stays empty, the yellow stays where it landed).
    """
    if R[R_BOOK + YELLOW] == 1:
        k = P[s, F_NPOT]
        if k >= 2 and TYPE_COLOUR[P[s, POT_T + k - 2]] == WHITE:
            wt = P[s, POT_T + k - 2]
            if decide_yellow(P, s, wt, G, R, SK, SP, SC, rng, UF):
                wpos = P[s, POT_P + k - 2]
                remove_pot_entry(P, s, k - 2)
                P[s, F_WHITE] -= TYPE_VALUE[wt]
                return_chip(P, s, wt)
                record(E, G, s, EV_YELLOW, wt, wpos, 0)
    P[s, F_YELLOW_PTR] += 1
