"""Red (toadstool): the extra distance of a red chip (Sets 1, 3, 5), white 1-chips after a red
(Set 4), red chips set beside the pot until the potion ends (Set 2), and the chip drawn after a
red chip (Set 6)."""

from __future__ import annotations

from sim.kernel.bag import draw_chip, finish_potion, return_chip, take_type
from sim.kernel.bowl import place_after
from sim.kernel.decisions.choices import decide_book
from sim.kernel.decisions.decide import decide_red
from sim.kernel.decisions.slots import Q_RED_AFTER, Q_RED_HOLD, RED_KEEP, RED_PLACE, RED_RETURN
from sim.kernel.effects.extra import offer_extra
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    ASIDE,
    ASIDE_NEW,
    EV_ASIDE,
    EV_RED,
    EV_RED_AFTER,
    EV_RED_HOLD,
    F_ANCHOR,
    F_BOOK_PTR,
    F_NBAG,
    F_NHOLD,
    F_NORANGE,
    F_NPOT,
    F_NRED,
    F_RED_PTR,
    F_REWARD,
    HOLD_T,
    POT_P,
    POT_T,
    R_BOOK,
    R_LAST,
    STOP_SCRIPT,
)
from sim.rules.chips import R1, RED, TYPE_COLOUR, TYPE_VALUE, W1, WHITE

N_RED_TYPES = 3  # r1, r2, r4 are types R1, R1 + 1, R1 + 2


@kernel(inline=True)
def red_extra(P, s, t, G, R, SK, SP, SC, rng, E, UF):
    """Extra spaces red chip t moves by its book; the bonus is optional (the strategy decides).

    Set 1: +1 with one or two pumpkins in the pot, +2 with three or more.
    Set 3: + the value of the chip placed directly before it, if that chip is white.
    Set 5: with a red chip of a higher value in the pot, it moves that value instead of its own.
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
    elif book == 5:
        hi = 0
        for i in range(P[s, F_NPOT]):
            u = P[s, POT_T + i]
            if TYPE_COLOUR[u] == RED and TYPE_VALUE[u] > hi:
                hi = TYPE_VALUE[u]
        extra = max(hi - TYPE_VALUE[t], 0)
    if extra > 0:
        take = decide_red(P, s, extra, t, P[s, F_RED_PTR], G, R, SK, SP, SC, rng, UF)
        record(E, G, s, EV_RED, t, extra, 1 if take else 0)
        if not take:
            extra = 0
    P[s, F_RED_PTR] += 1
    P[s, F_NRED] += 1
    return extra


@kernel(inline=True)
def white_extra(P, s, t, G, R, SK, SP, SC, rng, E, UF):
    """Set 4: once a red chip is in the pot, every white 1-chip may move 2 spaces (counts 1)."""
    if t == W1 and R[R_BOOK + RED] == 4 and P[s, F_NRED] > 0:
        return offer_extra(P, s, 1, t, G, R, SK, SP, SC, rng, E, UF)
    return 0


@kernel(inline=True)
def goes_aside(R, t):
    """Set 2: a red chip drawn is not placed but set beside the pot."""
    return TYPE_COLOUR[t] == RED and R[R_BOOK + RED] == 2


@kernel(inline=True)
def set_aside(P, s, t, G, E):
    """Put red chip t (already out of the bag) beside the pot (``ASIDE_NEW`` counts this potion's,
    which A Second Chance's restart puts back)."""
    P[s, ASIDE + t - R1] += 1
    P[s, ASIDE_NEW + t - R1] += 1
    record(E, G, s, EV_ASIDE, t, 0, 0)


@kernel
def hold_aside(P, s):
    """After the bag is refilled: red chips kept beside the pot from earlier rounds stay out."""
    for j in range(N_RED_TYPES):
        for _ in range(P[s, ASIDE + j]):
            take_type(P, s, R1 + j)


@kernel
def reds_after_stop(P, s, G, R, SK, SP, SC, rng, E, UF):
    """Set 2, once the potion has ended (stopped or exploded): each red chip beside the pot is
    placed after the last chip (it moves its value; into the overflow bowl past the last space),
    kept beside the pot, or returned to the bag."""
    if R[R_BOOK + RED] != 2:
        return
    moved = False
    for j in range(N_RED_TYPES):
        t = R1 + j
        for _ in range(P[s, ASIDE + j]):
            a = decide_book(P, s, Q_RED_AFTER, t, G, R, SK, SP, SC, rng, UF)
            P[s, F_BOOK_PTR] += 1
            if a == RED_PLACE:
                pos = place_after(P, s, t, G, R, E)
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
    if moved and P[s, F_NPOT] > 0:
        P[s, F_REWARD] = min(P[s, POT_P + P[s, F_NPOT] - 1] + 1, R[R_LAST] + 1)


RED_ABORT = -2  # red_six_draw: a scripted draw failed


@kernel
def red_six_draw(P, s, G, R, SK, SP, SC, FD, rng, E, UF):
    """Set 6, after a red chip is placed: draw one more chip; the strategy places it at once
    (return it, to be resolved next) or holds it beside the pot until the potion ends (-1). On
    the last space (a "next chip" effect, lost there) or with an empty bag: nothing (-1)."""
    if P[s, F_ANCHOR] >= R[R_LAST] or P[s, F_NBAG] == 0 or P[s, F_NHOLD] >= 4:
        return -1
    u = draw_chip(P, s, FD, rng)
    if u < 0:
        finish_potion(P, s, STOP_SCRIPT, E, G)
        return RED_ABORT
    now = decide_book(P, s, Q_RED_HOLD, u, G, R, SK, SP, SC, rng, UF) != 0
    P[s, F_BOOK_PTR] += 1
    record(E, G, s, EV_RED_HOLD, u, 0 if now else 1, 0)
    if now:
        return u
    P[s, HOLD_T + P[s, F_NHOLD]] = u
    P[s, F_NHOLD] += 1
    return -1
