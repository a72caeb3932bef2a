"""The base black book (Sets 1-4), a side for 2 players and one for 3-4 (their texts:
sim.rules.books).

The base black book (hawkmoth, B; ``books.black = 1``, for every set of Sets 1-4), by the
player count, against the neighbours (black chips counted before anyone gains). Two players: as
many black chips as the opponent -> droplet +1, more -> and 1 ruby (nothing without a black chip).
Three or more: more than one neighbour -> droplet +1, more than both -> and 1 ruby."""

from __future__ import annotations

from sim.kernel.books.common import black_reward
from sim.kernel.jit import kernel
from sim.kernel.layout import G_NP
from sim.kernel.seats import seat_after
from sim.rules.declare import book

BOOK = book("black", 1, "B", prices=1, doc=__doc__)


@kernel(inline=True)
def black_at_b(P, s, black, G, E):
    """Step B for seat s; ``black[s]`` = black chips in seat s's pot."""
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
        if black[s] > black[seat_after(s, 1, n)]:
            beaten += 1
        if black[s] > black[seat_after(s, n - 1, n)]:
            beaten += 1
        if beaten >= 1:
            drop = 1
        if beaten == 2:
            rub = 1
    black_reward(P, s, drop, rub, G, E)
