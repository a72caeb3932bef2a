"""Blue (crow skull): what a blue chip does right after it is placed."""

from __future__ import annotations

from numba import njit

from sim.kernel.bag import (
    ERR_BLUE_NOT_SEEN,
    ERR_BLUE_SCRIPT,
    draw_chip,
    finish_potion,
    return_chip,
)
from sim.kernel.events import record
from sim.kernel.layout import (
    EV_BLUE_LOOK,
    EV_BLUE_PICK,
    F_ANCHOR,
    F_BLUE_PTR,
    F_DRAWS,
    F_NBAG,
    F_SCRIPT_ERR,
    LOOK_NO,
    LOOK_T,
    R_BOOK,
    R_LAST,
    STOP_SCRIPT,
)
from sim.rules.chips import BLUE, TYPE_VALUE
from strategies.decide_nb import decide_blue

BLUE_NONE = -1  # no chip to place next
BLUE_ABORT = -2  # a scripted draw failed; the potion is finished


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def blue_placed(P, s, t, G, R, SK, SP, SC, FD, rng, E, UF):
    """Resolve blue chip t just placed; return the index into ``LOOK_T`` of the chip to place
    next, ``BLUE_NONE`` or ``BLUE_ABORT``.

    Set 1: look at as many chips as its value; the strategy may place one of them next (its own
    action resolves), the rest go back.
    """
    if R[R_BOOK + BLUE] != 1 or P[s, F_ANCHOR] >= R[R_LAST] or P[s, F_NBAG] == 0:
        return BLUE_NONE
    looked = P[s, LOOK_T : LOOK_T + 4]
    m = min(TYPE_VALUE[t], P[s, F_NBAG])
    for i in range(m):
        u = draw_chip(P, s, FD, rng)
        if u < 0:
            finish_potion(P, s, STOP_SCRIPT, E, G)
            return BLUE_ABORT
        looked[i] = u
        P[s, LOOK_NO + i] = P[s, F_DRAWS]
        record(E, G, s, EV_BLUE_LOOK, u, 0, 0)
    pick = decide_blue(P, s, looked, m, G, R, SK, SP, SC, rng, UF)
    P[s, F_BLUE_PTR] += 1
    if pick <= -3:
        P[s, F_SCRIPT_ERR] = ERR_BLUE_SCRIPT if pick == -3 else ERR_BLUE_NOT_SEEN
        pick = -1
    for i in range(m):
        if i != pick:
            return_chip(P, s, looked[i])
    if pick >= 0:
        record(E, G, s, EV_BLUE_PICK, looked[pick], 0, 0)
        return pick
    record(E, G, s, EV_BLUE_PICK, -1, 0, 0)
    return BLUE_NONE
