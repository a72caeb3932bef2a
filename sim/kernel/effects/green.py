"""Green (garden spider): evaluation step B."""

from __future__ import annotations

from numba import njit

from sim.kernel.events import record
from sim.kernel.layout import EV_GREEN, F_NPOT, F_RUBIES, POT_T, R_BOOK
from sim.rules.chips import GREEN, TYPE_COLOUR


@njit(cache=True, error_model="numpy", _nrt=False)
def last_two_green(P, s):
    """Green chips among the last and next-to-last chips in the pot."""
    npot = P[s, F_NPOT]
    g = 0
    for i in range(max(0, npot - 2), npot):
        if TYPE_COLOUR[P[s, POT_T + i]] == GREEN:
            g += 1
    return g


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def green_at_b(P, s, G, R, E):
    """Set 1: one ruby for each green chip that is the last or next-to-last chip in the pot."""
    if R[R_BOOK + GREEN] == 1:
        g = last_two_green(P, s)
        if g > 0:
            P[s, F_RUBIES] += g
            record(E, G, s, EV_GREEN, g, 0, 0)
