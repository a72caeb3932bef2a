"""The overflow bowl (Herb Witches): once a chip lies on the last space of the pot, every chip
drawn after it goes into the bowl. A chip in the bowl has no action; a white one still counts
towards the explosion. The bowl scores half its chips' total value, rounded down, as VP, on top
of the spoon, for a player who takes the VP (``sim.kernel.evaluation.phase_d_points``).
"""

from __future__ import annotations

from numba import njit

from sim.kernel.bag import return_chip
from sim.kernel.events import record
from sim.kernel.layout import (
    EV_BOWL,
    EV_EXPLODE,
    F_BOWL_N,
    F_BOWL_SUM,
    F_EXPLODED,
    F_LIMIT,
    F_NPOT,
    F_WHITE,
    POT_P,
    R_BOWL,
    R_LAST,
)
from sim.rules.chips import TYPE_COLOUR, TYPE_VALUE, WHITE


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def in_bowl(P, s, R):
    """True when the next chip drawn goes into the bowl: the ruleset has one and a chip lies on
    the last space."""
    k = P[s, F_NPOT]
    return R[R_BOWL] != 0 and k > 0 and P[s, POT_P + k - 1] >= R[R_LAST]


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def into_bowl(P, s, t, G, E):
    """Put drawn chip t into the bowl; a white one counts towards the explosion."""
    v = TYPE_VALUE[t]
    P[s, F_BOWL_N] += 1
    P[s, F_BOWL_SUM] += v
    record(E, G, s, EV_BOWL, t, P[s, F_BOWL_SUM], 0)
    if TYPE_COLOUR[t] == WHITE:
        P[s, F_WHITE] += v
        if P[s, F_WHITE] > P[s, F_LIMIT]:
            P[s, F_EXPLODED] = 1
            record(E, G, s, EV_EXPLODE, P[s, F_WHITE], 0, 0)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def bowl_white_back(P, s, t):
    """The last chip into the bowl, white chip t, goes back to the bag (the flask or a witch)."""
    v = TYPE_VALUE[t]
    P[s, F_BOWL_N] -= 1
    P[s, F_BOWL_SUM] -= v
    P[s, F_WHITE] -= v
    return_chip(P, s, t)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def bowl_vp(P, s):
    """VP the bowl scores: half its total value, rounded down."""
    return P[s, F_BOWL_SUM] // 2
