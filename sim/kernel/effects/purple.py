"""Purple (ghost's breath): evaluation step B."""

from __future__ import annotations

from numba import njit

from sim.kernel.events import record
from sim.kernel.layout import EV_PURPLE, F_DROPLET, F_NPOT, F_RUBIES, F_SCORE, POT_T, R_BOOK
from sim.rules.chips import PURPLE, TYPE_COLOUR
from strategies.decide_nb import decide_purple


@njit(cache=True, error_model="numpy", _nrt=False)
def count_colour(P, s, colour):
    """Chips of one colour in the pot."""
    n = 0
    for i in range(P[s, F_NPOT]):
        if TYPE_COLOUR[P[s, POT_T + i]] == colour:
            n += 1
    return n


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def purple_at_b(P, s, G, R, SK, SP, SC, rng, E, UF):
    """Set 1: by purple chips in the pot, one tier (a lower one may be chosen): 1 -> 1 VP;
    2 -> 1 VP and 1 ruby; 3 or more -> 2 VP and droplet +1."""
    npurple = count_colour(P, s, PURPLE)
    if npurple == 0 or R[R_BOOK + PURPLE] != 1:
        return
    tier = decide_purple(P, s, npurple, G, R, SK, SP, SC, rng, UF)
    if tier == 1:
        P[s, F_SCORE] += 1
    elif tier == 2:
        P[s, F_SCORE] += 1
        P[s, F_RUBIES] += 1
    elif tier >= 3:
        P[s, F_SCORE] += 2
        P[s, F_DROPLET] += 1
    record(E, G, s, EV_PURPLE, tier, 0, 0)
