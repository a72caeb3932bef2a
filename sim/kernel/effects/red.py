"""Red (toadstool): the extra distance a red chip moves when it is placed."""

from __future__ import annotations

from numba import njit

from sim.kernel.events import record
from sim.kernel.layout import EV_RED, F_NORANGE, F_RED_PTR, R_BOOK
from sim.rules.chips import RED
from strategies.decide_nb import decide_red


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def red_extra(P, s, t, G, R, SK, SP, SC, rng, E, UF):
    """Extra spaces red chip t moves by its book; an optional bonus is the strategy's choice.

    Set 1: +1 with one or two pumpkins in the pot, +2 with three or more.
    """
    extra = 0
    if R[R_BOOK + RED] == 1:
        n_orange = P[s, F_NORANGE]
        extra = 2 if n_orange >= 3 else (1 if n_orange >= 1 else 0)
    if extra > 0:
        take = decide_red(P, s, extra, t, P[s, F_RED_PTR], G, R, SK, SP, SC, rng, UF)
        record(E, G, s, EV_RED, t, extra, 1 if take else 0)
        if not take:
            extra = 0
    P[s, F_RED_PTR] += 1
    return extra
