"""Red (toadstool): the extra distance of a red chip (Sets 1, 3), white 1-chips after a red
(Set 4), and red chips set beside the pot until the potion ends (Set 2)."""

from __future__ import annotations

from numba import njit

from sim.kernel.bag import place_plain, return_chip
from sim.kernel.events import record
from sim.kernel.layout import (
    ASIDE,
    BAGCNT,
    CHIPS,
    EV_ASIDE,
    EV_RED,
    EV_RED_AFTER,
    F_BOOK_PTR,
    F_NBAG,
    F_NORANGE,
    F_NPOT,
    F_NRED,
    F_RED_PTR,
    F_REWARD,
    POT_P,
    POT_T,
    R_BOOK,
    R_LAST,
)
from sim.rules.chips import R1, RED, TYPE_COLOUR, TYPE_VALUE, W1, WHITE
from strategies.choices_nb import decide_book
from strategies.decide_nb import decide_red
from strategies.slots import Q_RED_AFTER, RED_KEEP, RED_PLACE, RED_RETURN

N_RED_TYPES = 3  # r1, r2, r4 are types R1, R1 + 1, R1 + 2


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def red_extra(P, s, t, G, R, SK, SP, SC, rng, E, UF):
    """Extra spaces red chip t moves by its book; the bonus is optional (the strategy decides).

    Set 1: +1 with one or two pumpkins in the pot, +2 with three or more.
    Set 3: + the value of the chip placed directly before it, if that chip is white.
    """
    book = R[R_BOOK + RED]
    extra = 0
    if book == 1:
        n_orange = P[s, F_NORANGE]
        extra = 2 if n_orange >= 3 else (1 if n_orange >= 1 else 0)
    elif book == 3:
        k = P[s, F_NPOT]
        if k >= 1 and TYPE_COLOUR[P[s, POT_T + k - 1]] == WHITE:
            extra = TYPE_VALUE[P[s, POT_T + k - 1]]
    if extra > 0:
        take = decide_red(P, s, extra, t, P[s, F_RED_PTR], G, R, SK, SP, SC, rng, UF)
        record(E, G, s, EV_RED, t, extra, 1 if take else 0)
        if not take:
            extra = 0
    P[s, F_RED_PTR] += 1
    P[s, F_NRED] += 1
    return extra


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def white_extra(P, s, t, R):
    """Set 4: once a red chip is in the pot, every white 1-chip moves 2 spaces (counts 1)."""
    if t == W1 and R[R_BOOK + RED] == 4 and P[s, F_NRED] > 0:
        return 1
    return 0


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def goes_aside(R, t):
    """Set 2: a red chip drawn is not placed but set beside the pot."""
    return TYPE_COLOUR[t] == RED and R[R_BOOK + RED] == 2


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def set_aside(P, s, t, G, E):
    """Put red chip t (already out of the bag) beside the pot."""
    P[s, ASIDE + t - R1] += 1
    record(E, G, s, EV_ASIDE, t, 0, 0)


@njit(cache=True, error_model="numpy", _nrt=False)
def hold_aside(P, s):
    """After the bag is refilled: red chips kept beside the pot from earlier rounds stay out."""
    for j in range(N_RED_TYPES):
        t = R1 + j
        for _ in range(P[s, ASIDE + j]):
            nb = P[s, F_NBAG]
            for i in range(nb):
                if P[s, CHIPS + i] == t:
                    P[s, CHIPS + i] = P[s, CHIPS + nb - 1]
                    P[s, CHIPS + nb - 1] = t
                    P[s, F_NBAG] = nb - 1
                    P[s, BAGCNT + t] -= 1
                    break


@njit(cache=True, error_model="numpy", _nrt=False)
def reds_after_stop(P, s, G, R, SK, SP, SC, rng, E, UF):
    """Set 2, once the potion has ended (stopped or exploded): each red chip beside the pot is
    placed after the last chip (it moves its value), kept beside the pot, or returned to the bag."""
    if R[R_BOOK + RED] != 2:
        return
    moved = False
    for j in range(N_RED_TYPES):
        t = R1 + j
        for _ in range(P[s, ASIDE + j]):
            a = decide_book(P, s, Q_RED_AFTER, t, G, R, SK, SP, SC, rng, UF)
            P[s, F_BOOK_PTR] += 1
            if a == RED_PLACE:
                pos = place_plain(P, s, t, R[R_LAST])
                P[s, F_NRED] += 1
                P[s, ASIDE + j] -= 1
                moved = True
                record(E, G, s, EV_RED_AFTER, t, RED_PLACE, pos)
            elif a == RED_RETURN:
                P[s, ASIDE + j] -= 1
                return_chip(P, s, t)
                record(E, G, s, EV_RED_AFTER, t, RED_RETURN, 0)
            else:
                record(E, G, s, EV_RED_AFTER, t, RED_KEEP, 0)
    if moved:
        P[s, F_REWARD] = min(P[s, POT_P + P[s, F_NPOT] - 1] + 1, R[R_LAST] + 1)
