"""The potion phase for one player: draw, place, chip effects, flask, explosion.

``potion_step`` draws and resolves one chip (a blue chip's look-and-place included); the caller
asks the strategy between steps whether to draw again, so the same step serves independent,
synchronized and sequential brewing, and the scripted scenarios of the tests and ``quacks round``.
Colour effects live in ``sim.kernel.effects``, one module per colour.
"""

from __future__ import annotations

from numba import njit

from sim.kernel.bag import draw_chip, finish_potion, remove_pot_entry, return_chip
from sim.kernel.cards import PUMPKIN_PARTY, SECOND_CHANCE, WELL_STIRRED, second_chance, well_stirred
from sim.kernel.effects.blue import BLUE_ABORT, blue_placed
from sim.kernel.effects.red import goes_aside, red_extra, set_aside, white_extra
from sim.kernel.effects.yellow import yellow_extra, yellow_placed
from sim.kernel.events import record
from sim.kernel.layout import (
    EV_DRAW,
    EV_EXPLODE,
    EV_FLASK,
    EV_PLACE,
    EV_PROTECTED,
    F_ANCHOR,
    F_CARD_USED,
    F_DONE,
    F_DOUBLE,
    F_DRAWS,
    F_EXPLODED,
    F_FLASK,
    F_FORCED_N,
    F_FORCED_PTR,
    F_LIMIT,
    F_NBAG,
    F_NORANGE,
    F_NPOT,
    F_PLACED_NO,
    F_PROTECT,
    F_PROTECTED,
    F_START,
    F_WHITE,
    G_CARD,
    LOOK_NO,
    LOOK_T,
    POT_P,
    POT_T,
    R_FLASK_REUSE,
    R_LAST,
    STOP_CHOICE,
    STOP_EMPTY,
    STOP_EXPLODED,
    STOP_SCRIPT,
    STOP_TRACK,
)
from sim.rules.chips import BLUE, ORANGE, RED, TYPE_COLOUR, TYPE_VALUE, WHITE, YELLOW
from strategies.decide_nb import decide_draw, decide_flask


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def place_chip(P, s, t, G, R, SK, SP, SC, rng, E, UF):
    """Place chip t after the anchor (with its book's extra distance, doubled after a yellow
    Set 2 chip); update the white total and the explosion."""
    c = TYPE_COLOUR[t]
    move = TYPE_VALUE[t]
    if c == RED:
        move += red_extra(P, s, t, G, R, SK, SP, SC, rng, E, UF)
    elif c == WHITE:
        move += white_extra(P, s, t, R)
    elif c == YELLOW:
        move += yellow_extra(P, s, R)
    elif c == ORANGE and G[G_CARD] == PUMPKIN_PARTY:
        move += 1
    if P[s, F_DOUBLE] != 0:
        move *= 2
        P[s, F_DOUBLE] = 0
    pos = min(P[s, F_ANCHOR] + move, R[R_LAST])
    k = P[s, F_NPOT]
    P[s, POT_T + k] = t
    P[s, POT_P + k] = pos
    P[s, F_NPOT] = k + 1
    P[s, F_ANCHOR] = pos
    if c == ORANGE:
        P[s, F_NORANGE] += 1
    record(E, G, s, EV_PLACE, t, pos, 0)
    if c == WHITE:
        P[s, F_WHITE] += TYPE_VALUE[t]
        if P[s, F_WHITE] > P[s, F_LIMIT]:
            P[s, F_EXPLODED] = 1
            record(E, G, s, EV_EXPLODE, P[s, F_WHITE], 0, 0)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def use_flask(P, s, G, R, SK, SP, SC, rng, E, UF):
    """The flask: only for the last chip placed, if it is white and the pot is intact."""
    k = P[s, F_NPOT]
    tl = P[s, POT_T + k - 1]
    if TYPE_COLOUR[tl] == WHITE and P[s, F_FLASK] != 0:
        if decide_flask(P, s, tl, G, R, SK, SP, SC, rng, UF):
            wpos = P[s, POT_P + k - 1]
            remove_pot_entry(P, s, k - 1)
            P[s, F_WHITE] -= TYPE_VALUE[tl]
            return_chip(P, s, tl)
            P[s, F_FLASK] = 0
            if R[R_FLASK_REUSE] != 0:
                P[s, F_ANCHOR] = P[s, POT_P + k - 2] if k >= 2 else P[s, F_START]
            record(E, G, s, EV_FLASK, tl, wpos, 0)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def potion_step(P, s, G, R, SK, SP, SC, FD, rng, E, UF):
    """Draw and resolve one chip for seat s; finish the potion if it can go no further."""
    t = draw_chip(P, s, FD, rng)
    if t < 0:
        finish_potion(P, s, STOP_SCRIPT, E, G)
        return
    record(E, G, s, EV_DRAW, t, 0, 0)
    protected = P[s, F_PROTECT] > 0  # blue Set 2: this draw is inside a protection window
    if protected:
        P[s, F_PROTECT] -= 1
    t_no = P[s, F_DRAWS]
    placed = True
    while True:
        if goes_aside(R, t):  # red Set 2: beside the pot until the potion ends
            set_aside(P, s, t, G, E)
            placed = False
            break
        P[s, F_PLACED_NO] = t_no
        place_chip(P, s, t, G, R, SK, SP, SC, rng, E, UF)
        if P[s, F_EXPLODED] != 0:
            break
        c = TYPE_COLOUR[t]
        if c == YELLOW:
            yellow_placed(P, s, G, R, SK, SP, SC, rng, E, UF)
        if c == BLUE:
            pos = P[s, POT_P + P[s, F_NPOT] - 1]
            pick = blue_placed(P, s, t, pos, G, R, SK, SP, SC, FD, rng, E, UF)
            if pick == BLUE_ABORT:
                return
            if pick >= 0:  # the chip the blue chose is placed next, with its own action
                t = P[s, LOOK_T + pick]
                t_no = P[s, LOOK_NO + pick]
                continue
        break
    if P[s, F_EXPLODED] != 0:
        if G[G_CARD] == SECOND_CHANCE and P[s, F_CARD_USED] == 0 and P[s, F_NPOT] <= 5:
            if second_chance(P, s, G, R, SK, SP, SC, rng, E, UF):
                return
        if protected:
            P[s, F_PROTECTED] = 1
            record(E, G, s, EV_PROTECTED, 0, 0, 0)
        finish_potion(P, s, STOP_EXPLODED, E, G)
        return
    if placed:
        if G[G_CARD] == WELL_STIRRED and P[s, F_CARD_USED] == 0 and TYPE_COLOUR[t] == WHITE:
            well_stirred(P, s, G, R, SK, SP, SC, rng, E, UF)
        use_flask(P, s, G, R, SK, SP, SC, rng, E, UF)
    if G[G_CARD] == SECOND_CHANCE and P[s, F_CARD_USED] == 0 and P[s, F_NPOT] >= 5:
        if second_chance(P, s, G, R, SK, SP, SC, rng, E, UF):
            return
    k = P[s, F_NPOT]
    if k > 0 and P[s, POT_P + k - 1] >= R[R_LAST]:  # a chip on the last space (the flask may free it)
        finish_potion(P, s, STOP_TRACK, E, G)
    elif P[s, F_NBAG] == 0:
        finish_potion(P, s, STOP_EMPTY, E, G)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def wants_draw(P, s, G, R, SK, SP, SC, rng, UF):
    """Whether seat s draws again: forced draws run to the end of their list, else the strategy."""
    if P[s, F_FORCED_N] > 0:
        return P[s, F_FORCED_PTR] < P[s, F_FORCED_N]
    return decide_draw(P, s, G, R, SK, SP, SC, rng, UF)


@njit(cache=True, error_model="numpy", _nrt=False)
def stop_by_choice(P, s, E, G):
    """End the potion because the player (or the end of a script) says stop."""
    finish_potion(P, s, STOP_SCRIPT if P[s, F_FORCED_N] > 0 else STOP_CHOICE, E, G)


@njit(cache=True, error_model="numpy", _nrt=False)
def brew_first(P, s, G, R, SK, SP, SC, FD, rng, E, UF):
    """The first chip of a potion (never stop before it), or the end if the bag is empty."""
    if P[s, F_FORCED_N] < 0:  # scripted with no draws at all
        finish_potion(P, s, STOP_SCRIPT, E, G)
    elif P[s, F_NBAG] == 0:
        finish_potion(P, s, STOP_EMPTY, E, G)
    else:
        potion_step(P, s, G, R, SK, SP, SC, FD, rng, E, UF)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def brew_until_stop(P, s, G, R, SK, SP, SC, FD, rng, E, UF):
    """Brew a whole potion for seat s (the independent information model)."""
    if P[s, F_FORCED_N] < 0:  # scripted with no draws at all
        finish_potion(P, s, STOP_SCRIPT, E, G)
        return
    if P[s, F_NBAG] == 0:
        finish_potion(P, s, STOP_EMPTY, E, G)
        return
    potion_step(P, s, G, R, SK, SP, SC, FD, rng, E, UF)
    while P[s, F_DONE] == 0:
        if not wants_draw(P, s, G, R, SK, SP, SC, rng, UF):
            stop_by_choice(P, s, E, G)
            return
        potion_step(P, s, G, R, SK, SP, SC, FD, rng, E, UF)
