"""Black (hawkmoth): evaluation step B. The base book (``books.black = 1``, for every set of
Sets 1-4) goes by the player count, against the neighbours; the Herb Witches' Sets 5 and 6
replace it whatever the count. Set 5's chips bought (or given by a card) go into the left
neighbour's bag (``black_gift``)."""

from __future__ import annotations

from sim.kernel.bag import add_chip
from sim.kernel.droplet import move_droplet
from sim.kernel.effects.purple import count_colour
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    EV_BLACK,
    EV_BLACK_GIFT,
    EV_BLACK_RUBY,
    F_NPOT,
    F_RUBIES,
    G_NP,
    POT_P,
    POT_T,
    R_BOOK,
)
from sim.rules.chips import BLACK, TYPE_COLOUR


@kernel(inline=True)
def count_black(P, n, black):
    """black[s] = black chips in seat s's pot, for every seat (counted before anyone gains)."""
    for s in range(n):
        black[s] = count_colour(P, s, BLACK)


@kernel
def furthest_black(P, n, before):
    """The furthest space holding a black chip in any pot, below ``before`` (-1 if none)."""
    far = -1
    for s in range(n):
        for i in range(P[s, F_NPOT]):
            if TYPE_COLOUR[P[s, POT_T + i]] == BLACK and far < P[s, POT_P + i] < before:
                far = P[s, POT_P + i]
    return far


@kernel
def has_black_on(P, s, pos):
    """Whether seat s has a black chip on space ``pos``."""
    for i in range(P[s, F_NPOT]):
        if TYPE_COLOUR[P[s, POT_T + i]] == BLACK and P[s, POT_P + i] == pos:
            return True
    return False


@kernel
def black_last_two(P, s):
    """Black chips among the last and next-to-last chips in seat s's pot."""
    n = 0
    for i in range(max(0, P[s, F_NPOT] - 2), P[s, F_NPOT]):
        if TYPE_COLOUR[P[s, POT_T + i]] == BLACK:
            n += 1
    return n


@kernel(inline=True)
def black_at_b(P, s, black, R, G, E):
    """The base book. Two players: as many black chips as the opponent -> droplet +1, more ->
    and 1 ruby (nothing without a black chip). Three or more: more than one neighbour -> droplet
    +1, more than both -> and 1 ruby.
    Set 5: 1 ruby per black chip in the left neighbour's pot, and 1 per black chip that is the
    seat's own last or next-to-last chip.
    Set 6: the furthest black chip of all pots (by space) moves its owner's droplet +1, the
    second furthest gives its owner 1 ruby; ties all receive; one player may get both."""
    n = G[G_NP]
    drop = 0
    rub = 0
    book = R[R_BOOK + BLACK]
    if book == 5:
        rub = black[(s + 1) % n] + black_last_two(P, s)
        if rub > 0:
            P[s, F_RUBIES] += rub
            record(E, G, s, EV_BLACK_RUBY, rub, 0, 0)
        return
    if book == 6:
        far = furthest_black(P, n, 1000)
        if far >= 0 and has_black_on(P, s, far):
            drop = 1
        second = furthest_black(P, n, far) if far >= 0 else -1
        if second >= 0 and has_black_on(P, s, second):
            rub = 1
    elif n == 2:
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


@kernel
def black_gift(P, s, t, G, R, E):
    """Set 5: a black chip seat s gains (bought, or from a card) goes into the left neighbour's
    bag, and the seat moves its droplet +1. Returns True if it did (else the chip is the seat's)."""
    if R[R_BOOK + BLACK] != 5 or TYPE_COLOUR[t] != BLACK:
        return False
    left = (s + 1) % G[G_NP]
    if add_chip(P, left, t):
        move_droplet(P, s, 1)
        record(E, G, s, EV_BLACK_GIFT, left, 0, 0)
        return True
    return False
