"""The decision slots of the built-in strategies, compiled with Numba.

Each ``decide_*`` function reads the seat's kind ``SK[s, slot]`` and parameters ``SP[s, slot, :]``
and returns a decision. A strategy may read the player's own row ``P[s]`` (bag multiset, pot,
flask, rubies, droplet, score), the scores in every row, and the game row ``G``; never the order
of the chips in the bag (``CHIPS``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.chips import TYPE_COLOUR, TYPE_VALUE
from sim.layout import (
    BAGCNT,
    F_BLUE_PTR,
    F_FLASK,
    F_FORCED_N,
    F_FORCED_PTR,
    F_LIMIT,
    F_NBAG,
    F_PLACED_NO,
    F_RUBIES,
    F_WHITE,
    F_YELLOW_PTR,
    G_ROUND,
    R_FINAL_COINS,
    R_ROUNDS,
    R_RUBY_DROPLET,
    R_RUBY_FLASK,
    SPEND_DROPLET,
    SPEND_FLASK,
)
from sim.rng_nb import randint, uniform
from strategies.slots import (
    BLUE_BEST,
    BLUE_RANDOM,
    BUY_PRIORITY,
    BUY_RANDOM,
    EXPLODE_BY_ROUND,
    EXPLODE_RANDOM,
    FLASK_MIN,
    FLASK_RANDOM,
    PARAM_WIDTH,
    RUBY_DEFAULT,
    RUBY_RANDOM,
    SC_BLUE,
    SC_BUY,
    SC_CHOICE,
    SC_FLASK_ON,
    SC_NBLUE,
    SC_NBUY,
    SC_NSPEND,
    SC_NYELLOW,
    SC_PURPLE,
    SC_SPEND,
    SC_YELLOW,
    SCRIPTED,
    SLOT_BLUE,
    SLOT_BUY,
    SLOT_EXPLODE,
    SLOT_FLASK,
    SLOT_PURPLE,
    SLOT_RUBY,
    SLOT_STOP,
    SLOT_YELLOW,
    STOP_NEVER,
    STOP_RANDOM,
    STOP_RISK,
    STOP_WHITE,
    YELLOW_NEVER,
    YELLOW_RANDOM,
)

WHITE_TYPES = np.array([0, 1, 2], dtype=np.int64)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def explosion_risk(P, s):
    """Exact chance that the next chip drawn explodes the pot, from the bag's multiset."""
    n = P[s, F_NBAG]
    if n <= 0:
        return 0.0
    bad = 0
    for t in range(3):  # the white types w1, w2, w3
        if P[s, F_WHITE] + TYPE_VALUE[t] > P[s, F_LIMIT]:
            bad += P[s, BAGCNT + t]
    return bad / n


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def decide_draw(P, s, G, R, SK, SP, SC, rng):
    """True to draw another chip. Called only when a draw is possible and a chip is placed."""
    k = SK[s, SLOT_STOP]
    if k == STOP_WHITE:
        return P[s, F_WHITE] < SP[s, SLOT_STOP, 0]
    if k == STOP_RISK:
        return explosion_risk(P, s) <= SP[s, SLOT_STOP, 0]
    if k == STOP_NEVER:
        return True
    if k == STOP_RANDOM:
        return uniform(rng, s) >= SP[s, SLOT_STOP, 0]
    if k == SCRIPTED:
        return P[s, F_FORCED_PTR] < P[s, F_FORCED_N]
    return False


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def decide_flask(P, s, t, G, R, SK, SP, SC, rng):
    """True to send the white chip of type t just placed back into the bag with the flask."""
    k = SK[s, SLOT_FLASK]
    if k == FLASK_MIN:
        return TYPE_VALUE[t] >= SP[s, SLOT_FLASK, 0]
    if k == FLASK_RANDOM:
        return uniform(rng, s) < SP[s, SLOT_FLASK, 0]
    if k == SCRIPTED:
        return SC[s, SC_FLASK_ON] == P[s, F_PLACED_NO]
    return False


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def decide_blue(P, s, looked, nlooked, G, R, SK, SP, SC, rng):
    """Index into looked[:nlooked] of the chip to place, or -1 for none."""
    k = SK[s, SLOT_BLUE]
    if k == BLUE_BEST:
        best = -1
        bestkey = 0
        for i in range(nlooked):
            t = looked[i]
            key = TYPE_VALUE[t] * 16 + TYPE_COLOUR[t]  # ties: the later colour in w,o,g,b,r,y,p,k
            if TYPE_COLOUR[t] != 0 and key > bestkey:
                best = i
                bestkey = key
        return best
    if k == BLUE_RANDOM:
        return randint(rng, s, nlooked + 1) - 1
    if k == SCRIPTED:
        want = scripted_blue(SC, s, P[s, F_BLUE_PTR])
        if want < 0:
            return want  # -1 none, -3 the script has no entry for this blue chip
        for i in range(nlooked):
            if looked[i] == want:
                return i
        return -4  # the scripted chip is not among the chips looked at
    return -1


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def decide_yellow(P, s, white_type, G, R, SK, SP, SC, rng):
    """True to return the white chip placed right before a yellow chip."""
    k = SK[s, SLOT_YELLOW]
    if k == SCRIPTED:
        return scripted_yellow(SC, s, P[s, F_YELLOW_PTR])
    if k == YELLOW_NEVER:
        return False
    if k == YELLOW_RANDOM:
        return uniform(rng, s) < 0.5
    return True


@njit(cache=True, error_model="numpy", _nrt=False)
def decide_explosion(P, s, vp, coins, G, R, SK, SP, SC, rng):
    """An exploded player's choice: 0 takes the VP, 1 takes the coins (or their VP in the final round)."""
    k = SK[s, SLOT_EXPLODE]
    final = G[G_ROUND] >= R[R_ROUNDS]
    if k == SCRIPTED:
        return SC[s, SC_CHOICE]
    if k == EXPLODE_RANDOM:
        return randint(rng, s, 2)
    if final:
        return 1 if coins // R[R_FINAL_COINS] > vp else 0
    if k == EXPLODE_BY_ROUND:
        return 1 if G[G_ROUND] <= SP[s, SLOT_EXPLODE, 0] else 0
    return 0


@njit(cache=True, error_model="numpy", _nrt=False)
def _buyable(t, coins, supply, price, avail, used_colours):
    """Whether chip t is for sale now, affordable, and of a colour not yet bought (bit mask)."""
    return (
        avail[t] != 0
        and supply[t] > 0
        and price[t] >= 0
        and price[t] <= coins
        and (used_colours >> TYPE_COLOUR[t]) & 1 == 0
    )


@njit(cache=True, error_model="numpy", _nrt=False)
def decide_buy(P, s, coins, max_buys, supply, price, avail, out, G, R, SK, SP, SC, rng):
    """Fill out[:n] with the chip types to buy and return n (the kernel checks legality)."""
    k = SK[s, SLOT_BUY]
    n = 0
    if k == SCRIPTED:
        n = SC[s, SC_NBUY]
        for i in range(n):
            out[i] = SC[s, SC_BUY + i]
        return n
    used = 0
    left = coins
    if k == BUY_PRIORITY:
        for j in range(PARAM_WIDTH):
            t = np.int64(SP[s, SLOT_BUY, j])
            if t < 0 or n >= max_buys:
                break
            if _buyable(t, left, supply, price, avail, used):
                out[n] = t
                n += 1
                left -= price[t]
                used |= 1 << TYPE_COLOUR[t]
        return n
    if k == BUY_RANDOM:
        while n < max_buys:
            m = 0
            for t in range(price.shape[0]):
                if _buyable(t, left, supply, price, avail, used):
                    m += 1
            if m == 0:
                break
            j = randint(rng, s, m + 1)  # m means: buy nothing more
            if j == m:
                break
            for t in range(price.shape[0]):
                if _buyable(t, left, supply, price, avail, used):
                    if j == 0:
                        out[n] = t
                        n += 1
                        left -= price[t]
                        used |= 1 << TYPE_COLOUR[t]
                        break
                    j -= 1
        return n
    return 0


@njit(cache=True, error_model="numpy", _nrt=False)
def decide_spend(P, s, i, G, R, SK, SP, SC, rng):
    """The i-th ruby spending of this round: 0 stop, SPEND_DROPLET or SPEND_FLASK."""
    k = SK[s, SLOT_RUBY]
    if k == SCRIPTED:
        if i < SC[s, SC_NSPEND]:
            return SC[s, SC_SPEND + i]
        return 0
    rubies = P[s, F_RUBIES]
    if k == RUBY_DEFAULT:
        if SP[s, SLOT_RUBY, 0] > 0 and P[s, F_FLASK] == 0 and rubies >= R[R_RUBY_FLASK]:
            return SPEND_FLASK
        if G[G_ROUND] <= SP[s, SLOT_RUBY, 1] and rubies >= R[R_RUBY_DROPLET]:
            return SPEND_DROPLET
        return 0
    if k == RUBY_RANDOM:
        j = randint(rng, s, 3)
        if j == 1 and rubies >= R[R_RUBY_DROPLET]:
            return SPEND_DROPLET
        if j == 2 and P[s, F_FLASK] == 0 and rubies >= R[R_RUBY_FLASK]:
            return SPEND_FLASK
        return 0
    return 0


@njit(cache=True, error_model="numpy", _nrt=False)
def decide_purple(P, s, npurple, G, R, SK, SP, SC, rng):
    """The purple tier taken (1..min(npurple, 3)); a lower tier may be chosen."""
    top = min(npurple, 3)
    if SK[s, SLOT_PURPLE] == SCRIPTED and SC[s, SC_PURPLE] >= 0:
        return min(SC[s, SC_PURPLE], top)
    return top


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def scripted_blue(SC, s, ptr):
    """The scripted chip type placed for the ptr-th blue chip (-1 none, -3 script too short)."""
    if ptr >= SC[s, SC_NBLUE]:
        return -3
    return SC[s, SC_BLUE + ptr]


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def scripted_yellow(SC, s, ptr):
    """Scripted yellow decision for the ptr-th yellow chip (default: return the white)."""
    if ptr >= SC[s, SC_NYELLOW]:
        return True
    return SC[s, SC_YELLOW + ptr] != 0
