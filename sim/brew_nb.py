"""The potion phase for one player, compiled with Numba: draw, place, effects, flask, explosion.

All functions act on one player's row ``P[s]`` (see ``sim.layout``). ``potion_step`` draws and
resolves one chip (a blue chip's look-and-place included); the caller asks the strategy between
steps whether to draw again, so the same step serves independent, synchronized and sequential
brewing, and the scripted scenarios of the tests and ``quacks round``.
"""

from __future__ import annotations

from numba import njit

from sim.chips import BLUE, N_TYPES, ORANGE, RED, TYPE_COLOUR, TYPE_VALUE, WHITE, YELLOW
from sim.layout import (
    BAGCNT,
    CHIPS,
    EV_BLUE_LOOK,
    EV_BLUE_PICK,
    EV_DRAW,
    EV_EXPLODE,
    EV_FLASK,
    EV_PLACE,
    EV_RED,
    EV_STOP,
    EV_YELLOW,
    F_ANCHOR,
    F_BLUE_PTR,
    F_DONE,
    F_DRAWS,
    F_EXPLODED,
    F_FLASK,
    F_FORCED_N,
    F_FORCED_PTR,
    F_LIMIT,
    F_NBAG,
    F_NCHIPS,
    F_NORANGE,
    F_NPOT,
    F_PLACED_NO,
    F_RED_PTR,
    F_REWARD,
    F_SCRIPT_ERR,
    F_START,
    F_STOPREASON,
    F_WHITE,
    F_YELLOW_PTR,
    G_NEV,
    G_ROUND,
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
from sim.rng_nb import randint
from strategies.decide_nb import decide_blue, decide_draw, decide_flask, decide_red, decide_yellow

# Script errors (F_SCRIPT_ERR)
ERR_DRAW_NOT_IN_BAG = 1
ERR_DRAWS_SHORT = 2  # a blue chip needs more listed chips than remain
ERR_BLUE_SCRIPT = 3  # no blue decision for a blue chip
ERR_BLUE_NOT_SEEN = 4  # the blue decision names a chip not looked at


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def record(E, G, s, code, a, b, c):
    """Append one event row if recording (E has rows)."""
    if E.shape[0] == 0:
        return
    n = G[G_NEV]
    if n < E.shape[0]:
        E[n, 0] = G[G_ROUND]
        E[n, 1] = s
        E[n, 2] = code
        E[n, 3] = a
        E[n, 4] = b
        E[n, 5] = c
        G[G_NEV] = n + 1


@njit(cache=True, error_model="numpy", _nrt=False)
def reset_potion(P, s, start, limit):
    """Put every chip back into the bag and empty the pot, ready to brew from ``start``."""
    for t in range(N_TYPES):
        P[s, BAGCNT + t] = 0
    for i in range(P[s, F_NCHIPS]):
        P[s, BAGCNT + P[s, CHIPS + i]] += 1
    empty_pot(P, s, start, limit)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def empty_pot(P, s, start, limit):
    """Reset the potion fields (the bag counts must already be right)."""
    P[s, F_NBAG] = P[s, F_NCHIPS]
    P[s, F_NPOT] = 0
    P[s, F_WHITE] = 0
    P[s, F_NORANGE] = 0
    P[s, F_EXPLODED] = 0
    P[s, F_DONE] = 0
    P[s, F_START] = start
    P[s, F_ANCHOR] = start
    P[s, F_LIMIT] = limit
    P[s, F_STOPREASON] = 0
    P[s, F_DRAWS] = 0
    P[s, F_BLUE_PTR] = 0
    P[s, F_YELLOW_PTR] = 0
    P[s, F_RED_PTR] = 0
    P[s, F_REWARD] = min(start + 1, 53)


@njit(cache=True, error_model="numpy", _nrt=False)
def add_chip(P, s, t):
    """Give the player a new chip of type t (it joins the bag at the next reset)."""
    n = P[s, F_NCHIPS]
    if n >= 64:
        return False
    P[s, CHIPS + n] = t
    P[s, F_NCHIPS] = n + 1
    return True


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def _take(P, s, j):
    """Move the chip at bag slot j out of the bag; return its type."""
    n = P[s, F_NBAG]
    t = P[s, CHIPS + j]
    P[s, CHIPS + j] = P[s, CHIPS + n - 1]
    P[s, CHIPS + n - 1] = t
    P[s, F_NBAG] = n - 1
    P[s, BAGCNT + t] -= 1
    P[s, F_DRAWS] += 1
    return t


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def draw_chip(P, s, FD, rng):
    """Draw one chip: the next forced one if a forced list is set, else uniformly from the bag.

    Returns the chip type, or -1 with F_SCRIPT_ERR set if a forced chip is not in the bag.
    """
    n = P[s, F_NBAG]
    if P[s, F_FORCED_N] > 0:
        p = P[s, F_FORCED_PTR]
        if p >= P[s, F_FORCED_N]:
            P[s, F_SCRIPT_ERR] = ERR_DRAWS_SHORT
            return -1
        want = FD[s, p]
        P[s, F_FORCED_PTR] = p + 1
        for j in range(n):
            if P[s, CHIPS + j] == want:
                return _take(P, s, j)
        P[s, F_SCRIPT_ERR] = ERR_DRAW_NOT_IN_BAG
        return -1
    return _take(P, s, randint(rng, s, n))


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def return_chip(P, s, t):
    """Put one chip of type t that is out of the bag (pot or looked at) back into the bag."""
    nb = P[s, F_NBAG]
    for i in range(nb, P[s, F_NCHIPS]):
        if P[s, CHIPS + i] == t:
            P[s, CHIPS + i] = P[s, CHIPS + nb]
            P[s, CHIPS + nb] = t
            P[s, F_NBAG] = nb + 1
            P[s, BAGCNT + t] += 1
            return


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def place_chip(P, s, t, G, R, SK, SP, SC, rng, E, UF):
    """Place chip t after the anchor, with the red bonus if the strategy takes it (ingredient
    actions are optional); update the white total and explosion."""
    c = TYPE_COLOUR[t]
    move = TYPE_VALUE[t]
    if c == RED:
        n_orange = P[s, F_NORANGE]
        extra = 2 if n_orange >= 3 else (1 if n_orange >= 1 else 0)
        if extra > 0:
            take = decide_red(P, s, extra, t, P[s, F_RED_PTR], G, R, SK, SP, SC, rng, UF)
            record(E, G, s, EV_RED, t, extra, 1 if take else 0)
            if take:
                move += extra
        P[s, F_RED_PTR] += 1
    last = R[R_LAST]
    pos = min(P[s, F_ANCHOR] + move, last)
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
def _remove_pot_entry(P, s, k):
    """Take pot entry k out of the pot list (its space stays empty); return its type."""
    t = P[s, POT_T + k]
    n = P[s, F_NPOT]
    for i in range(k, n - 1):
        P[s, POT_T + i] = P[s, POT_T + i + 1]
        P[s, POT_P + i] = P[s, POT_P + i + 1]
    P[s, F_NPOT] = n - 1
    return t


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def finish_potion(P, s, reason, E, G):
    """Mark brewing over and set the reward space (the space after the last chip in the pot)."""
    P[s, F_DONE] = 1
    P[s, F_STOPREASON] = reason
    n = P[s, F_NPOT]
    if n == 0:
        P[s, F_REWARD] = min(P[s, F_START] + 1, 53)
    else:
        P[s, F_REWARD] = min(P[s, POT_P + n - 1] + 1, 53)
    record(E, G, s, EV_STOP, reason, P[s, F_REWARD], P[s, F_WHITE])


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def potion_step(P, s, G, R, SK, SP, SC, FD, rng, E, UF):
    """Draw and resolve one chip for seat s; finish the potion if it can go no further.

    A blue chip's look-and-place and a yellow chip's return happen inside this step; the flask
    decision is taken here too, right after the white chip is placed.
    """
    looked = P[s, LOOK_T : LOOK_T + 4]
    t = draw_chip(P, s, FD, rng)
    if t < 0:
        finish_potion(P, s, STOP_SCRIPT, E, G)
        return
    record(E, G, s, EV_DRAW, t, 0, 0)
    t_no = P[s, F_DRAWS]
    last = R[R_LAST]
    while True:
        P[s, F_PLACED_NO] = t_no
        place_chip(P, s, t, G, R, SK, SP, SC, rng, E, UF)
        if P[s, F_EXPLODED] != 0:
            break
        c = TYPE_COLOUR[t]
        if c == YELLOW:
            k = P[s, F_NPOT]
            if k >= 2 and TYPE_COLOUR[P[s, POT_T + k - 2]] == WHITE:
                wt = P[s, POT_T + k - 2]
                if decide_yellow(P, s, wt, G, R, SK, SP, SC, rng, UF):
                    wpos = P[s, POT_P + k - 2]
                    _remove_pot_entry(P, s, k - 2)
                    P[s, F_WHITE] -= TYPE_VALUE[wt]
                    return_chip(P, s, wt)
                    record(E, G, s, EV_YELLOW, wt, wpos, 0)
            P[s, F_YELLOW_PTR] += 1
        if c == BLUE and P[s, F_ANCHOR] < last and P[s, F_NBAG] > 0:
            m = min(TYPE_VALUE[t], P[s, F_NBAG])
            for i in range(m):
                u = draw_chip(P, s, FD, rng)
                if u < 0:
                    finish_potion(P, s, STOP_SCRIPT, E, G)
                    return
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
                t = looked[pick]
                t_no = P[s, LOOK_NO + pick]
                record(E, G, s, EV_BLUE_PICK, t, 0, 0)
                continue
            record(E, G, s, EV_BLUE_PICK, -1, 0, 0)
        break
    if P[s, F_EXPLODED] != 0:
        finish_potion(P, s, STOP_EXPLODED, E, G)
        return
    # The flask: only for the last chip placed, if it is white and the pot is intact.
    k = P[s, F_NPOT]
    tl = P[s, POT_T + k - 1]
    if TYPE_COLOUR[tl] == WHITE and P[s, F_FLASK] != 0:
        if decide_flask(P, s, tl, G, R, SK, SP, SC, rng, UF):
            wpos = P[s, POT_P + k - 1]
            _remove_pot_entry(P, s, k - 1)
            P[s, F_WHITE] -= TYPE_VALUE[tl]
            return_chip(P, s, tl)
            P[s, F_FLASK] = 0
            if R[R_FLASK_REUSE] != 0:
                P[s, F_ANCHOR] = P[s, POT_P + k - 2] if k >= 2 else P[s, F_START]
            record(E, G, s, EV_FLASK, tl, wpos, 0)
    k = P[s, F_NPOT]
    if k > 0 and P[s, POT_P + k - 1] >= last:  # a chip on the last space (the flask may free it)
        finish_potion(P, s, STOP_TRACK, E, G)
    elif P[s, F_NBAG] == 0:
        finish_potion(P, s, STOP_EMPTY, E, G)


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
            finish_potion(P, s, STOP_SCRIPT if P[s, F_FORCED_N] > 0 else STOP_CHOICE, E, G)
            return
        potion_step(P, s, G, R, SK, SP, SC, FD, rng, E, UF)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def wants_draw(P, s, G, R, SK, SP, SC, rng, UF):
    """Whether seat s draws again: forced draws run to the end of their list, else the strategy."""
    if P[s, F_FORCED_N] > 0:
        return P[s, F_FORCED_PTR] < P[s, F_FORCED_N]
    return decide_draw(P, s, G, R, SK, SP, SC, rng, UF)
