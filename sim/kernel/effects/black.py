"""Black (hawkmoth, one book for every set): evaluation step B, against the neighbours."""

from __future__ import annotations

from numba import njit

from sim.kernel.droplet import move_droplet
from sim.kernel.effects.purple import count_colour
from sim.kernel.events import record
from sim.kernel.layout import EV_BLACK, F_RUBIES, G_NP
from sim.rules.chips import BLACK


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def count_black(P, n, black):
    """black[s] = black chips in seat s's pot, for every seat (counted before anyone gains)."""
    for s in range(n):
        black[s] = count_colour(P, s, BLACK)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def black_at_b(P, s, black, G, E):
    """Two players: as many black chips as the opponent -> droplet +1, more -> and 1 ruby
    (nothing without a black chip). Three or more: more than one neighbour -> droplet +1, more
    than both -> and 1 ruby."""
    n = G[G_NP]
    drop = 0
    rub = 0
    if n == 2:
        o = 1 - s
        if black[s] > 0 and black[s] >= black[o]:
            drop = 1
            if black[s] > black[o]:
                rub = 1
    elif n >= 3:
        beaten = 0
        if black[s] > black[(s + 1) % n]:
            beaten += 1
        if black[s] > black[(s + n - 1) % n]:
            beaten += 1
        if beaten >= 1:
            drop = 1
        if beaten == 2:
            rub = 1
    if drop + rub > 0:
        move_droplet(P, s, drop)
        P[s, F_RUBIES] += rub
        record(E, G, s, EV_BLACK, drop, rub, 0)
