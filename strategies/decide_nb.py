"""The decision slots, compiled with Numba: built-in kinds, and the call into slot functions.

Each ``decide_*`` function reads the seat's kind ``SK[s, slot]`` and parameters ``SP[s, slot, :]``
and returns a decision. Kinds ``>= USER_BASE`` call the compiled slot function
``UF[0][kind - USER_BASE](P, s, G, R, SP, a, b, M)`` with the seat's memory ``M = UF[1][s]``
(see ``strategies.plugin``). A strategy may read
the player's own row ``P[s]`` (bag multiset, pot, flask, rubies, droplet, score), the scores in
every row, the game row ``G`` and the rules ``R``; never the order of the chips in the bag.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.kernel.layout import (
    BAGCNT,
    CARD_LOOK,
    F_ANCHOR,
    F_BLUE_PTR,
    F_BOOK_PTR,
    F_CARD_PTR,
    F_FLASK,
    F_FORCED_N,
    F_FORCED_PTR,
    F_GREEN_PTR,
    F_LIMIT,
    F_NBAG,
    F_NORANGE,
    F_NPOT,
    F_PLACED_NO,
    F_RUBIES,
    F_START,
    F_WHITE,
    F_YELLOW_PTR,
    G_ROUND,
    G_SUPPLY,
    POT_P,
    POT_T,
    R_BOOK,
    R_BOOK_ROUND,
    R_COINS,
    R_FINAL_COINS,
    R_LAST,
    R_PRICE,
    R_ROUNDS,
    R_RUBY,
    R_RUBY_DROPLET,
    R_RUBY_FLASK,
    R_VP,
    SPEND_DROPLET,
    SPEND_FLASK,
)
from sim.kernel.rng import randint, uniform
from sim.rules.chips import (
    B1,
    BLACK,
    G1,
    K1,
    LOCOWEED,
    N_TYPES,
    O1,
    ORANGE,
    P1,
    PURPLE,
    R1,
    RED,
    TYPE_COLOUR,
    TYPE_VALUE,
    W1,
    WHITE,
    Y1,
)
from strategies.slots import (
    BLUE_BEST,
    BLUE_RANDOM,
    BOOK_DECLINE,
    BOOK_DEFAULT,
    BUY_EXPENSIVE,
    BUY_PER_COIN,
    BUY_PRIORITY,
    BUY_RANDOM,
    BUY_VALUE,
    CARD_CHOOSE_ONE,
    CARD_CHOOSE_WISELY,
    CARD_GOOD_START,
    CARD_JUST_IN_TIME,
    CARD_OPPORTUNISTIC,
    CARD_RATS_FRIENDS,
    CARD_SCHADENFREUDE,
    CARD_SECOND_CHANCE,
    CARD_STRONG_INGREDIENT,
    CARD_TAKE_OTHER,
    CARD_WELL_STIRRED,
    CARD_WHEEL_AND_DEAL,
    EXPLODE_BY_ROUND,
    EXPLODE_RANDOM,
    EXPLODE_VALUE,
    FLASK_MIN,
    FLASK_RANDOM,
    P_BUY_MIN_VALUE,
    P_RUBY_VALUE,
    P_VP_VALUE,
    PARAM_WIDTH,
    Q_GREEN_CHIP,
    Q_GREEN_RUBY,
    Q_PURPLE_TRADE,
    Q_PURPLE_UPGRADE,
    Q_RED_AFTER,
    RED_NEVER,
    RED_PLACE,
    RED_RETURN,
    ROUND_PARAMS,
    RUBY_DEFAULT,
    RUBY_RANDOM,
    SC_BLUE,
    SC_BUY,
    SC_CARD,
    SC_CHOICE,
    SC_FLASK_ON,
    SC_GREEN,
    SC_NBLUE,
    SC_NBUY,
    SC_NCARD,
    SC_NGREEN,
    SC_NRED,
    SC_NRED_AFTER,
    SC_NSPEND,
    SC_NYELLOW,
    SC_PURPLE,
    SC_RED,
    SC_RED_AFTER,
    SC_SPEND,
    SC_UPGRADE,
    SC_YELLOW,
    SCRIPTED,
    SLOT_BLUE,
    SLOT_BOOK,
    SLOT_BUY,
    SLOT_CARD,
    SLOT_EXPLODE,
    SLOT_FLASK,
    SLOT_PURPLE,
    SLOT_RED,
    SLOT_RUBY,
    SLOT_STOP,
    SLOT_YELLOW,
    STOP_EV,
    STOP_NEVER,
    STOP_RANDOM,
    STOP_RISK,
    STOP_WHITE,
    USER_BASE,
    YELLOW_NEVER,
    YELLOW_RANDOM,
)


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def round_param(SP, s, slot, G):
    """The per-round parameter of a slot for the current round (index 0 outside a game)."""
    r = G[G_ROUND]
    if r >= ROUND_PARAMS:
        r = ROUND_PARAMS - 1
    return SP[s, slot, r]


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
def space_value(R, space, exploded, coin_value, ruby_value, vp_value):
    """What ending the potion on reward space ``space`` is worth, in VP.

    Intact: VP + coins x coin value + ruby x ruby value. Exploded: the better of the VP and the
    coins (the explosion choice), plus the ruby, which an exploded pot still takes.
    """
    c = R[R_COINS + space] * coin_value
    v = R[R_VP + space] * vp_value
    r = R[R_RUBY + space] * ruby_value
    if exploded:
        return max(v, c) + r
    return v + c + r


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def current_reward(P, s):
    """Reward space if the potion stopped now."""
    n = P[s, F_NPOT]
    if n == 0:
        return min(P[s, F_START] + 1, 53)
    return min(P[s, POT_P + n - 1] + 1, 53)


@njit(cache=True, error_model="numpy", _nrt=False)
def one_step_ev_draws(P, s, G, R, SP):
    """True if one more chip (then stopping) is worth more in expectation than stopping now.

    Counts the explosion chance and the explosion choice, the red bonus, and a flask that would
    send a white straight back (the reward then stays); a blue chip's look is not counted.
    """
    cv = round_param(SP, s, SLOT_STOP, G)
    rv = SP[s, SLOT_STOP, P_RUBY_VALUE]
    vv = SP[s, SLOT_STOP, P_VP_VALUE]
    now = space_value(R, current_reward(P, s), False, cv, rv, vv)
    n = P[s, F_NBAG]
    if n <= 0:
        return False
    last = R[R_LAST]
    # a full flask set to a value V > 0 sends a non-exploding white of value >= V straight back
    flask_v = SP[s, SLOT_FLASK, 0] if P[s, F_FLASK] != 0 and SP[s, SLOT_FLASK, 0] > 0 else 1e9
    exp = 0.0
    for t in range(N_TYPES):
        cnt = P[s, BAGCNT + t]
        if cnt == 0:
            continue
        p = cnt / n
        c = TYPE_COLOUR[t]
        move = TYPE_VALUE[t]
        if c == RED:
            no = P[s, F_NORANGE]
            move += 2 if no >= 3 else (1 if no >= 1 else 0)
        pos = min(P[s, F_ANCHOR] + move, last)
        if c == WHITE:
            if P[s, F_WHITE] + TYPE_VALUE[t] > P[s, F_LIMIT]:
                exp += p * space_value(R, min(pos + 1, 53), True, cv, rv, vv)
                continue
            if TYPE_VALUE[t] >= flask_v:
                exp += p * now
                continue
        exp += p * space_value(R, min(pos + 1, 53), False, cv, rv, vv)
    return exp > now + 1e-12


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def decide_draw(P, s, G, R, SK, SP, SC, rng, UF):
    """True to draw another chip. Called only when a draw is possible and a chip is placed."""
    k = SK[s, SLOT_STOP]
    if k == STOP_WHITE:
        return P[s, F_WHITE] < round_param(SP, s, SLOT_STOP, G)
    if k == STOP_RISK:
        return explosion_risk(P, s) <= round_param(SP, s, SLOT_STOP, G)
    if k == STOP_NEVER:
        return True
    if k == STOP_RANDOM:
        return uniform(rng, s) >= SP[s, SLOT_STOP, 0]
    if k == STOP_EV:
        return one_step_ev_draws(P, s, G, R, SP)
    if k == SCRIPTED:
        return P[s, F_FORCED_PTR] < P[s, F_FORCED_N]
    if k >= USER_BASE:
        return UF[0][k - USER_BASE](P, s, G, R, SP, 0, 0, UF[1][s]) != 0
    return False


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def decide_flask(P, s, t, G, R, SK, SP, SC, rng, UF):
    """True to send the white chip of type t just placed back into the bag with the flask."""
    k = SK[s, SLOT_FLASK]
    if k == FLASK_MIN:
        return TYPE_VALUE[t] >= SP[s, SLOT_FLASK, 0] and P[s, F_WHITE] >= SP[s, SLOT_FLASK, 1]
    if k == FLASK_RANDOM:
        return uniform(rng, s) < SP[s, SLOT_FLASK, 0]
    if k == SCRIPTED:
        return SC[s, SC_FLASK_ON] == P[s, F_PLACED_NO]
    if k >= USER_BASE:
        return UF[0][k - USER_BASE](P, s, G, R, SP, t, 0, UF[1][s]) != 0
    return False


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def decide_blue(P, s, looked, nlooked, G, R, SK, SP, SC, rng, UF):
    """Index into looked[:nlooked] of the chip to place, or -1 for none (-3/-4: script errors)."""
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
    if k >= USER_BASE:
        i = UF[0][k - USER_BASE](P, s, G, R, SP, nlooked, 0, UF[1][s])
        return i if -1 <= i < nlooked else -1
    return -1


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def decide_yellow(P, s, white_type, G, R, SK, SP, SC, rng, UF):
    """True to return the white chip placed right before a yellow chip."""
    k = SK[s, SLOT_YELLOW]
    if k == SCRIPTED:
        return scripted_yellow(SC, s, P[s, F_YELLOW_PTR])
    if k == YELLOW_NEVER:
        return False
    if k == YELLOW_RANDOM:
        return uniform(rng, s) < 0.5
    if k >= USER_BASE:
        return UF[0][k - USER_BASE](P, s, G, R, SP, white_type, 0, UF[1][s]) != 0
    return True


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def decide_red(P, s, extra, red_type, ptr, G, R, SK, SP, SC, rng, UF):
    """True to take the extra distance ``extra`` a red chip is offered (pumpkins in the pot);
    ``ptr`` counts the red chips placed before it this potion (for a scripted decision)."""
    k = SK[s, SLOT_RED]
    if k == SCRIPTED:
        return scripted_red(SC, s, ptr)
    if k == RED_NEVER:
        return False
    if k >= USER_BASE:
        return UF[0][k - USER_BASE](P, s, G, R, SP, extra, red_type, UF[1][s]) != 0
    return True


@njit(cache=True, error_model="numpy", _nrt=False)
def decide_explosion(P, s, vp, coins, G, R, SK, SP, SC, rng, UF):
    """An exploded player's choice: 0 takes the VP, 1 takes the coins (or their VP in the final round)."""
    k = SK[s, SLOT_EXPLODE]
    if k == SCRIPTED:
        return SC[s, SC_CHOICE]
    if k == EXPLODE_RANDOM:
        return randint(rng, s, 2)
    if k >= USER_BASE:
        return 1 if UF[0][k - USER_BASE](P, s, G, R, SP, vp, coins, UF[1][s]) != 0 else 0
    if G[G_ROUND] >= R[R_ROUNDS]:
        return 1 if coins // R[R_FINAL_COINS] > vp else 0
    if k == EXPLODE_BY_ROUND:
        return 1 if G[G_ROUND] <= SP[s, SLOT_EXPLODE, 0] else 0
    if k == EXPLODE_VALUE:
        return 1 if coins * round_param(SP, s, SLOT_EXPLODE, G) > vp else 0
    return 0


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
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
def decide_buy(P, s, coins, max_buys, supply, price, avail, out, G, R, SK, SP, SC, rng, UF):
    """Fill out[:n] with the chip types to buy and return n (the kernel checks legality).

    Slot functions read the supply, what is for sale and the prices from ``G[G_SUPPLY:]``,
    ``G[G_AVAIL:]`` and ``R[R_PRICE:]`` and write their chips to ``G[G_OUT:]``.
    """
    k = SK[s, SLOT_BUY]
    n = 0
    if k == SCRIPTED:
        n = SC[s, SC_NBUY]
        for i in range(n):
            out[i] = SC[s, SC_BUY + i]
        return n
    if k >= USER_BASE:
        n = UF[0][k - USER_BASE](P, s, G, R, SP, coins, max_buys, UF[1][s])
        return max(0, min(n, out.shape[0]))
    used = 0
    left = coins
    nt = price.shape[0]
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
    if k == BUY_EXPENSIVE or k == BUY_PER_COIN:
        while n < max_buys:
            best = -1
            bestkey = -1.0
            for t in range(nt):
                w = SP[s, SLOT_BUY, t]
                if w <= 0 or w < SP[s, SLOT_BUY, P_BUY_MIN_VALUE]:
                    continue
                if _buyable(t, left, supply, price, avail, used):
                    key = price[t] + w * 1e-6 if k == BUY_EXPENSIVE else w / max(price[t], 1)
                    if key > bestkey:
                        best = t
                        bestkey = key
            if best < 0:
                break
            out[n] = best
            n += 1
            left -= price[best]
            used |= 1 << TYPE_COLOUR[best]
        return n
    if k == BUY_VALUE:
        # The legal set of at most two chips (different colours) of the greatest total value.
        best_v = 0.0
        b1 = -1
        b2 = -1
        floor = SP[s, SLOT_BUY, P_BUY_MIN_VALUE]
        for t in range(nt):
            wt = SP[s, SLOT_BUY, t]
            if wt <= 0 or wt < floor or not _buyable(t, left, supply, price, avail, 0):
                continue
            if wt > best_v + 1e-12 or (b1 >= 0 and b2 < 0 and abs(wt - best_v) <= 1e-12 and price[t] < price[b1]):
                best_v = wt
                b1 = t
                b2 = -1
            if max_buys < 2:
                continue
            for u in range(t + 1, nt):
                wu = SP[s, SLOT_BUY, u]
                if wu <= 0 or wu < floor or TYPE_COLOUR[u] == TYPE_COLOUR[t]:
                    continue
                if not _buyable(u, left - price[t], supply, price, avail, 0):
                    continue
                if wt + wu > best_v + 1e-12:
                    best_v = wt + wu
                    b1 = t
                    b2 = u
        if b1 >= 0:
            out[n] = b1
            n += 1
        if b2 >= 0:
            out[n] = b2
            n += 1
        return n
    if k == BUY_RANDOM:
        while n < max_buys:
            m = 0
            for t in range(nt):
                if _buyable(t, left, supply, price, avail, used):
                    m += 1
            if m == 0:
                break
            j = randint(rng, s, m + 1)  # m means: buy nothing more
            if j == m:
                break
            for t in range(nt):
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
def decide_spend(P, s, i, G, R, SK, SP, SC, rng, UF):
    """The i-th ruby spending of this round: 0 stop, SPEND_DROPLET or SPEND_FLASK."""
    k = SK[s, SLOT_RUBY]
    if k == SCRIPTED:
        if i < SC[s, SC_NSPEND]:
            return SC[s, SC_SPEND + i]
        return 0
    if k >= USER_BASE:
        return UF[0][k - USER_BASE](P, s, G, R, SP, i, 0, UF[1][s])
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
def decide_purple(P, s, npurple, G, R, SK, SP, SC, rng, UF):
    """The purple tier taken (1..min(npurple, 3)); a lower tier may be chosen."""
    top = min(npurple, 3)
    k = SK[s, SLOT_PURPLE]
    if k == SCRIPTED and SC[s, SC_PURPLE] >= 0:
        return min(SC[s, SC_PURPLE], top)
    if k >= USER_BASE:
        t = UF[0][k - USER_BASE](P, s, G, R, SP, npurple, 0, UF[1][s])
        return t if 1 <= t <= top else top
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


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def scripted_red(SC, s, ptr):
    """Scripted red decision for the ptr-th red chip placed (default: take the extra distance)."""
    if ptr >= SC[s, SC_NRED]:
        return True
    return (SC[s, SC_RED] >> ptr) & 1 != 0


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def book_out(G, R, colour):
    """Whether a colour's book is in the game and out this round (chips of it may be granted)."""
    return R[R_BOOK + colour] > 0 and G[G_ROUND] >= R[R_BOOK_ROUND + colour]


@njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def grantable(G, R, t):
    """A chip type that may be given to a player now: its book is out and the supply has one."""
    return book_out(G, R, TYPE_COLOUR[t]) and G[G_SUPPLY + t] > 0


@njit(cache=True, error_model="numpy", _nrt=False)
def green_chip_default(G, R, value):
    """Green Set 2: the better chip (by this ruleset's price) a green chip of ``value`` grants."""
    a, b = -1, -1
    if value == 1:
        a = O1
    elif value == 2:
        a, b = B1, R1
    else:
        a, b = Y1, P1
    best = -1
    for t in (a, b):
        if t >= 0 and grantable(G, R, t) and (best < 0 or R[R_PRICE + t] > R[R_PRICE + best]):
            best = t
    return best


@njit(cache=True, error_model="numpy", _nrt=False)
def upgrade_target(t, tier):
    """The chip type chip t becomes at a purple Set 4 tier, or -1 (orange never upgrades)."""
    c = TYPE_COLOUR[t]
    v = TYPE_VALUE[t]
    if c == ORANGE or c == PURPLE or c == BLACK or c == LOCOWEED:
        return -1
    want_from = 2 if tier == 2 else 1
    want_to = 2 if tier == 1 else 4
    if v != want_from:
        return -1
    for u in range(N_TYPES):
        if TYPE_COLOUR[u] == c and TYPE_VALUE[u] == want_to:
            return u
    return -1


@njit(cache=True, error_model="numpy", _nrt=False)
def upgrade_default(P, s, G, R, npurple):
    """Purple Set 4: the highest tier with a coloured (not white) chip to upgrade, the one whose
    upgrade gains most by price; encoded tier * 32 + chip type, -1 none."""
    for tier in range(min(npurple, 3), 0, -1):
        best = -1
        gain = -1
        for i in range(P[s, F_NPOT]):
            t = P[s, POT_T + i]
            if TYPE_COLOUR[t] == WHITE:
                continue
            u = upgrade_target(t, tier)
            if u >= 0 and G[G_SUPPLY + u] > 0 and R[R_PRICE + u] - R[R_PRICE + t] > gain:
                gain = R[R_PRICE + u] - R[R_PRICE + t]
                best = t
        if best >= 0:
            return tier * 32 + best
    return -1


@njit(cache=True, error_model="numpy", _nrt=False)
def decide_book(P, s, q, arg, G, R, SK, SP, SC, rng, UF):
    """The answer to book question ``q`` (``Q_*`` in ``strategies.slots``) with argument ``arg``."""
    k = SK[s, SLOT_BOOK]
    if k == SCRIPTED:
        if q == Q_RED_AFTER and P[s, F_BOOK_PTR] < SC[s, SC_NRED_AFTER]:
            return SC[s, SC_RED_AFTER + P[s, F_BOOK_PTR]]
        if (q == Q_GREEN_CHIP or q == Q_GREEN_RUBY) and P[s, F_GREEN_PTR] < SC[s, SC_NGREEN]:
            return SC[s, SC_GREEN + P[s, F_GREEN_PTR]]
        if q == Q_PURPLE_TRADE and SC[s, SC_PURPLE] >= 0:
            return min(SC[s, SC_PURPLE], arg, 3)
        if q == Q_PURPLE_UPGRADE and SC[s, SC_UPGRADE] != -2:
            return SC[s, SC_UPGRADE]
        k = BOOK_DEFAULT  # an optional effect that is not scripted is taken
    if k >= USER_BASE:
        return UF[0][k - USER_BASE](P, s, G, R, SP, q, arg, UF[1][s])
    decline = k == BOOK_DECLINE
    if q == Q_GREEN_CHIP:
        return -1 if decline else green_chip_default(G, R, arg)
    if q == Q_GREEN_RUBY:
        return 0 if decline or G[G_ROUND] >= R[R_ROUNDS] else 1
    if q == Q_RED_AFTER:
        return RED_RETURN if decline else RED_PLACE
    if q == Q_PURPLE_TRADE:
        return 0 if decline else min(arg, 3)
    if q == Q_PURPLE_UPGRADE:
        return -1 if decline else upgrade_default(P, s, G, R, arg)
    return 0


@njit(cache=True, error_model="numpy", _nrt=False)
def next_value_type(t):
    """The next-higher chip of t's colour (white 1 -> 2 -> 3; green, blue, red, yellow 1 -> 2 ->
    4), or -1 (orange, purple, black, locoweed and the top values have none)."""
    c = TYPE_COLOUR[t]
    v = TYPE_VALUE[t]
    if c == ORANGE or c == PURPLE or c == BLACK or c == LOCOWEED:
        return -1
    for u in range(N_TYPES):
        if TYPE_COLOUR[u] == c and TYPE_VALUE[u] > v:
            return u  # types of a colour are listed by value
    return -1


@njit(cache=True, error_model="numpy", _nrt=False)
def dearest(G, R, lo, hi, value):
    """The grantable chip type of ``value`` among types lo..hi-1 with the highest price, or -1."""
    best = -1
    for t in range(lo, hi):
        if TYPE_VALUE[t] == value and TYPE_COLOUR[t] != WHITE and grantable(G, R, t):
            if best < 0 or R[R_PRICE + t] > R[R_PRICE + best]:
                best = t
    return best


@njit(cache=True, error_model="numpy", _nrt=False)
def card_default(P, s, card, arg, G, R):
    """The built-in answer to a card's choice (see ``strategies.slots``, card questions)."""
    if card == CARD_JUST_IN_TIME:
        return W1 if arg > 0 and G[G_ROUND] <= 3 else -1
    if card == CARD_CHOOSE_ONE:
        best = dearest(G, R, 0, N_TYPES, 2)
        if best < 0 or (grantable(G, R, K1) and R[R_PRICE + K1] > R[R_PRICE + best]):
            best = K1 if grantable(G, R, K1) else best
        return best if best >= 0 else CARD_TAKE_OTHER
    if card == CARD_RATS_FRIENDS:
        best = dearest(G, R, 0, N_TYPES, 4)
        return CARD_TAKE_OTHER if arg >= 4 or best < 0 else best
    if card == CARD_GOOD_START:
        return 0
    if card == CARD_CHOOSE_WISELY:
        return P1 if R[R_ROUNDS] - G[G_ROUND] < 2 else 0
    if card == CARD_WHEEL_AND_DEAL:
        if arg < 1 or G[G_ROUND] >= R[R_ROUNDS]:
            return -1
        best = -1
        for t in (O1, G1, B1, R1, Y1):
            if grantable(G, R, t) and (best < 0 or R[R_PRICE + t] > R[R_PRICE + best]):
                best = t
        return best
    if card == CARD_OPPORTUNISTIC:
        best = -1
        gain = 0
        for i in range(arg):
            t = P[s, CARD_LOOK + i]
            u = next_value_type(t)
            if TYPE_COLOUR[t] != WHITE and u >= 0 and G[G_SUPPLY + u] > 0 \
                    and R[R_PRICE + u] - R[R_PRICE + t] > gain:
                gain = R[R_PRICE + u] - R[R_PRICE + t]
                best = t
        return best
    if card == CARD_WELL_STIRRED:
        return 1
    if card == CARD_STRONG_INGREDIENT:
        best = -1
        for i in range(arg):
            t = P[s, CARD_LOOK + i]
            if best < 0 or TYPE_VALUE[t] * 16 + TYPE_COLOUR[t] > TYPE_VALUE[best] * 16 + TYPE_COLOUR[best]:
                best = t
        return best
    if card == CARD_SCHADENFREUDE:
        return dearest(G, R, 0, N_TYPES, 2)
    if card == CARD_SECOND_CHANCE:
        return 1 if arg != 0 or P[s, F_WHITE] >= P[s, F_LIMIT] - 1 else 0
    return 0


@njit(cache=True, error_model="numpy", _nrt=False)
def decide_card(P, s, card, arg, G, R, SK, SP, SC, rng, UF):
    """The answer to this round's card ``card`` (1-24) with argument ``arg``."""
    k = SK[s, SLOT_CARD]
    if k == SCRIPTED:
        i = P[s, F_CARD_PTR]
        P[s, F_CARD_PTR] = i + 1
        if i < SC[s, SC_NCARD]:
            return SC[s, SC_CARD + i]
    elif k >= USER_BASE:
        return UF[0][k - USER_BASE](P, s, G, R, SP, card, arg, UF[1][s])
    return card_default(P, s, card, arg, G, R)
