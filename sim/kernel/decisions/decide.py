"""The decision slots, compiled with Numba: built-in kinds, and the call into slot functions.

Each ``decide_*`` function reads the seat's kind ``SK[s, slot]`` and parameters ``SP[s, slot, :]``
and returns a decision. Kinds ``>= USER_BASE`` call slot function ``kind - USER_BASE`` of the
table ``UF`` as ``f(P, s, G, R, SP, a, b, M)`` with the seat's memory ``M = UF[1][s]``
(``slot_call.call_slot``; see ``strategies.plugin``). A strategy may read
the player's own row ``P[s]`` (bag multiset, pot, flask, rubies, droplet, score), the scores in
every row, the game row ``G`` and the rules ``R``; never the order of the chips in the bag.
"""

from __future__ import annotations

import numpy as np
from numba import uint64

from sim.kernel.costs import droplet_cost, flask_cost
from sim.kernel.decisions.buy_marginal import marginal_context, memo_worth
from sim.kernel.decisions.potion_value import (
    explosion_risk,
    one_step_ev_draws,
    round_param,
    rounds_left,
)
from sim.kernel.decisions.slot_call import call_slot
from sim.kernel.decisions.slots import (
    BLUE_BEST,
    BLUE_RANDOM,
    BUY_EXPENSIVE,
    BUY_MARGINAL,
    BUY_PER_COIN,
    BUY_PRIORITY,
    BUY_RANDOM,
    BUY_VALUE,
    EXPLODE_BY_ROUND,
    EXPLODE_RANDOM,
    EXPLODE_VALUE,
    FLASK_MIN,
    FLASK_RANDOM,
    P_BUY_MIN_VALUE,
    PARAM_WIDTH,
    RED_NEVER,
    RUBY_DEFAULT,
    RUBY_RANDOM,
    RUBY_VALUE,
    SC_BLUE,
    SC_BUY,
    SC_CHOICE,
    SC_EXTRA,
    SC_FLASK_ON,
    SC_NBLUE,
    SC_NBUY,
    SC_NEXTRA,
    SC_NRED,
    SC_NSPEND,
    SC_NYELLOW,
    SC_PURPLE,
    SC_RED,
    SC_SPEND,
    SC_YELLOW,
    SCRIPTED,
    SLOT_BLUE,
    SLOT_BUY,
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
from sim.kernel.float_bits import bits_float, float_bits
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    F_BLUE_PTR,
    F_FLASK,
    F_FORCED_N,
    F_FORCED_PTR,
    F_PLACED_NO,
    F_RUBIES,
    F_WHITE,
    F_YELLOW_PTR,
    G_BUY_LIST,
    G_ROUND,
    G_WORTH,
    G_WORTH_AFTER,
    R_FINAL_COINS,
    R_ROUNDS,
    SPEND_DROPLET,
    SPEND_FLASK,
)
from sim.kernel.rng import CHOICE_STREAM, randint, uniform
from sim.rules.chips import (
    TYPE_COLOUR,
    TYPE_VALUE,
    WHITE,
)

# BLUE_BEST's order of the chips a blue chip looks at: the highest value first, ties to the later
# colour in w,o,g,b,r,y,p,k; 0 for a white, never picked (one table look-up a chip)
BLUE_BEST_KEY = np.where(TYPE_COLOUR != WHITE, TYPE_VALUE * 16 + TYPE_COLOUR, 0)


@kernel(inline=True)
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
        return uniform(rng, CHOICE_STREAM + s) >= SP[s, SLOT_STOP, 0]
    if k == STOP_EV:
        return one_step_ev_draws(P, s, G, R, SP)
    if k == SCRIPTED:
        return P[s, F_FORCED_PTR] < P[s, F_FORCED_N]
    if k >= USER_BASE:
        return call_slot(UF, k - USER_BASE, P, s, G, R, SP, 0, 0) != 0
    return False


@kernel(inline=True)
def decide_flask(P, s, t, G, R, SK, SP, SC, rng, UF):
    """True to send the white chip of type t just placed back into the bag with the flask."""
    k = SK[s, SLOT_FLASK]
    if k == FLASK_MIN:
        return TYPE_VALUE[t] >= SP[s, SLOT_FLASK, 0] and P[s, F_WHITE] >= SP[s, SLOT_FLASK, 1]
    if k == FLASK_RANDOM:
        return uniform(rng, CHOICE_STREAM + s) < SP[s, SLOT_FLASK, 0]
    if k == SCRIPTED:
        return SC[s, SC_FLASK_ON] == P[s, F_PLACED_NO]
    if k >= USER_BASE:
        return call_slot(UF, k - USER_BASE, P, s, G, R, SP, t, 0) != 0
    return False


@kernel(inline=True)
def decide_blue(P, s, looked, nlooked, G, R, SK, SP, SC, rng, UF):
    """Index into looked[:nlooked] of the chip to place, or -1 for none (-3/-4: script errors)."""
    k = SK[s, SLOT_BLUE]
    if k == BLUE_BEST:
        best = -1
        bestkey = 0
        for i in range(nlooked):
            key = BLUE_BEST_KEY[looked[i]]
            if key > bestkey:
                best = i
                bestkey = key
        return best
    if k == BLUE_RANDOM:
        return randint(rng, CHOICE_STREAM + s, nlooked + 1) - 1
    if k == SCRIPTED:
        want = scripted_blue(SC, s, P[s, F_BLUE_PTR])
        if want < 0:
            return want  # -1 none, -3 the script has no entry for this blue chip
        for i in range(nlooked):
            if looked[i] == want:
                return i
        return -4  # the scripted chip is not among the chips looked at
    if k >= USER_BASE:
        i = call_slot(UF, k - USER_BASE, P, s, G, R, SP, nlooked, 0)
        return i if -1 <= i < nlooked else -1
    return -1


@kernel(inline=True)
def decide_yellow(P, s, white_type, G, R, SK, SP, SC, rng, UF):
    """True to return the white chip placed right before a yellow chip."""
    k = SK[s, SLOT_YELLOW]
    if k == SCRIPTED:
        return scripted_yellow(SC, s, P[s, F_YELLOW_PTR])
    if k == YELLOW_NEVER:
        return False
    if k == YELLOW_RANDOM:
        return uniform(rng, CHOICE_STREAM + s) < 0.5
    if k >= USER_BASE:
        return call_slot(UF, k - USER_BASE, P, s, G, R, SP, white_type, 0) != 0
    return True


@kernel(inline=True)
def decide_red(P, s, extra, red_type, ptr, G, R, SK, SP, SC, rng, UF):
    """True to take the extra distance ``extra`` a chip is offered (a red chip's by its book; any
    other chip's through ``decide_extra``);
    ``ptr`` counts the red chips placed before it this potion (for a scripted decision)."""
    k = SK[s, SLOT_RED]
    if k == SCRIPTED:
        return scripted_red(SC, s, ptr)
    if k == RED_NEVER:
        return False
    if k >= USER_BASE:
        return call_slot(UF, k - USER_BASE, P, s, G, R, SP, extra, red_type) != 0
    return True


@kernel
def decide_extra(P, s, extra, t, ptr, G, R, SK, SP, SC, rng, UF):
    """True to take an extra distance ``extra`` that chip t's book offers (red Set 4's white 1,
    yellow Sets 2, 4, 5): the red slot decides; a script reads the ptr-th entry of its ``extra``
    list (default: take)."""
    if SK[s, SLOT_RED] == SCRIPTED:
        return ptr >= SC[s, SC_NEXTRA] or (SC[s, SC_EXTRA] >> ptr) & 1 != 0
    return decide_red(P, s, extra, t, 0, G, R, SK, SP, SC, rng, UF)


@kernel
def decide_explosion(P, s, vp, coins, G, R, SK, SP, SC, rng, UF):
    """An exploded player's choice: 0 takes the VP, 1 takes the coins (or their VP in the final
    round)."""
    k = SK[s, SLOT_EXPLODE]
    if k == SCRIPTED:
        return SC[s, SC_CHOICE]
    if k == EXPLODE_RANDOM:
        return randint(rng, CHOICE_STREAM + s, 2)
    if k >= USER_BASE:
        return 1 if call_slot(UF, k - USER_BASE, P, s, G, R, SP, vp, coins) != 0 else 0
    if G[G_ROUND] >= R[R_ROUNDS]:
        return 1 if coins // R[R_FINAL_COINS] > vp else 0
    if k == EXPLODE_BY_ROUND:
        return 1 if G[G_ROUND] <= SP[s, SLOT_EXPLODE, 0] else 0
    if k == EXPLODE_VALUE:
        return 1 if coins * round_param(SP, s, SLOT_EXPLODE, G) > vp else 0
    return 0


@kernel(inline=True)
def _buyable(t, coins, supply, price, avail, used_colours):
    """Whether chip t is for sale now, affordable, and of a colour not yet bought (bit mask)."""
    return (
        avail[t] != 0
        and supply[t] > 0
        and price[t] >= 0
        and price[t] <= coins
        and (used_colours >> TYPE_COLOUR[t]) & 1 == 0
    )


@kernel(inline=True)
def _on_list(out, n, t, left, used_colours, price):
    """Chip t put on the buy list at ``out[n]``: the list's new length, the coins left and the
    colours used (bit mask)."""
    out[n] = t
    return n + 1, left - price[t], used_colours | (1 << TYPE_COLOUR[t])


@kernel(inline=True)
def decide_buy(P, s, coins, max_buys, supply, price, avail, out, G, R, SK, SP, SC, rng, UF):
    """Fill out[:n] with the chip types to buy and return n (the kernel checks legality).

    Slot functions read the supply, what is for sale and the prices from ``G[G_SUPPLY:]``,
    ``G[G_AVAIL:]`` and ``R[R_PRICE:]`` and write their chips to ``G[G_OUT:]``.

    Inlined into the buying step: a call passed every array word by word (about a hundred words,
    as long as the priority list's walk); the buyers that weigh every chip are one call
    (``buy_best``) with the arrays they read.
    """
    k = SK[s, SLOT_BUY]
    n = 0
    if k == SCRIPTED:
        n = SC[s, SC_NBUY]
        for i in range(n):
            out[i] = SC[s, SC_BUY + i]
        return n
    if k >= USER_BASE:
        n = call_slot(UF, k - USER_BASE, P, s, G, R, SP, coins, max_buys)
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
                n, left, used = _on_list(out, n, t, left, used, price)
        return n
    if k == BUY_RANDOM:
        while n < max_buys:
            m = 0
            for t in range(nt):
                if _buyable(t, left, supply, price, avail, used):
                    m += 1
            if m == 0:
                break
            j = randint(rng, CHOICE_STREAM + s, m + 1)  # m means: buy nothing more
            if j == m:
                break
            for t in range(nt):
                if _buyable(t, left, supply, price, avail, used):
                    if j == 0:
                        n, left, used = _on_list(out, n, t, left, used, price)
                        break
                    j -= 1
        return n
    return buy_best(P, s, k, coins, max_buys, supply, price, avail, out, G, R, SP)


@kernel(llvm_inline=True)
def buy_best(P, s, k, coins, max_buys, supply, price, avail, out, G, R, SP):
    """``decide_buy`` for the buyers that weigh every chip on sale (buy kind ``k``): the most
    expensive or the most worth per coin first, or the legal set of at most two chips of the
    greatest total worth (fixed worths, or the marginal model's); 0 for any other kind."""
    n = 0
    used = 0
    left = coins
    nt = price.shape[0]
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
            n, left, used = _on_list(out, n, best, left, used, price)
        return n
    if k == BUY_VALUE or k == BUY_MARGINAL:
        # The legal set of at most two chips (different colours) of the greatest total value:
        # the chips it may buy listed once with their worths (each weighed once), then the pairs
        mctx = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        if k == BUY_MARGINAL:
            mctx = marginal_context(P, s, G, R, SP)
        floor = SP[s, SLOT_BUY, P_BUY_MIN_VALUE]
        m = 0
        for t in range(nt):
            if _buyable(t, left, supply, price, avail, 0):
                w = SP[s, SLOT_BUY, t] if k == BUY_VALUE else memo_worth(G, SP, s, t, mctx)
                if w > 0 and w >= floor:
                    G[G_BUY_LIST + m] = t
                    G[G_WORTH + m] = float_bits(w)
                    m += 1
        b1, b2 = best_pair(G, m, left, price, max_buys)
        if b1 >= 0:
            out[n] = b1
            n += 1
        if b2 >= 0:
            out[n] = b2
            n += 1
        return n
    return 0


@kernel(inline=True)
def best_pair(G, m, left, price, max_buys):
    """The chip types (b1, b2; -1 none) of greatest total worth among the ``m`` listed at
    ``G_BUY_LIST`` (worths at ``G_WORTH``, each above 0 and the floor): one chip, or two of
    different colours that cost at most ``left`` together (two only if ``max_buys`` allows).
    Ties as before: the first found in type order, and a cheaper single chip of the same worth.
    A listed chip costs at most ``left``, so a second one needs only the price check.

    A chip's pairs with the later ones are weighed only when the best later worth
    (``G_WORTH_AFTER``, kept by ``worths_after``) could beat the best so far: rounding is
    monotone, so wt + wu <= wt + that worth, and skipping them changes no choice; for the same
    reason the pairs stop at the first later chip whose worth falls short while the best worth
    after it does too. A pair's worth is tested first, then its colours and price."""
    worths_after(G, m)
    best_v = 0.0
    b1 = -1
    b2 = -1
    for i in range(m):
        t = G[G_BUY_LIST + i]
        wt = bits_float(G[G_WORTH + i])
        if wt > best_v + 1e-12 or (b1 >= 0 and b2 < 0 and abs(wt - best_v) <= 1e-12
                                   and price[t] < price[b1]):
            best_v = wt
            b1 = t
            b2 = -1
        if max_buys < 2 or not wt + bits_float(G[G_WORTH_AFTER + i]) > best_v + 1e-12:
            continue
        colour = TYPE_COLOUR[t]
        room = left - price[t]
        bar = best_v + 1e-12
        for j in range(i + 1, m):  # unsigned indices: no check for a negative one
            v = wt + bits_float(G[uint64(G_WORTH + j)])
            if not v > bar:
                if not wt + bits_float(G[uint64(G_WORTH_AFTER + j)]) > bar:
                    break  # no later chip can beat the bar either
                continue
            u = G[uint64(G_BUY_LIST + j)]
            if TYPE_COLOUR[uint64(u)] != colour and price[uint64(u)] <= room:
                best_v = v
                bar = best_v + 1e-12
                b1 = t
                b2 = u
    return b1, b2


@kernel(inline=True)
def worths_after(G, m):
    """``G_WORTH_AFTER + i``: the greatest worth listed after entry i of the ``m`` at
    ``G_WORTH`` (float64 bits; 0 after the last, every listed worth being above 0)."""
    top = 0.0
    for i in range(m - 1, -1, -1):
        G[G_WORTH_AFTER + i] = float_bits(top)
        top = max(top, bits_float(G[G_WORTH + i]))


@kernel(inline=True)
def decide_spend(P, s, i, G, R, SK, SP, SC, rng, UF):
    """The i-th ruby spending of this round: 0 stop, SPEND_DROPLET or SPEND_FLASK."""
    k = SK[s, SLOT_RUBY]
    if k == SCRIPTED:
        if i < SC[s, SC_NSPEND]:
            return SC[s, SC_SPEND + i]
        return 0
    if k >= USER_BASE:
        return call_slot(UF, k - USER_BASE, P, s, G, R, SP, i, 0)
    rubies = P[s, F_RUBIES]
    if k == RUBY_DEFAULT:
        if SP[s, SLOT_RUBY, 0] > 0 and P[s, F_FLASK] == 0 and rubies >= flask_cost(P, s, R):
            return SPEND_FLASK
        if G[G_ROUND] <= SP[s, SLOT_RUBY, 1] and rubies >= droplet_cost(P, s, R):
            return SPEND_DROPLET
        return 0
    if k == RUBY_VALUE:
        left = rounds_left(G, R)  # rounds a droplet move or a full flask still serves
        keep = SP[s, SLOT_RUBY, 2]
        droplet = -1.0
        if rubies >= droplet_cost(P, s, R):
            droplet = SP[s, SLOT_RUBY, 0] * left - keep * droplet_cost(P, s, R)
        flask = -1.0
        if P[s, F_FLASK] == 0 and rubies >= flask_cost(P, s, R):
            flask = SP[s, SLOT_RUBY, 1] * left - keep * flask_cost(P, s, R)
        if droplet <= 0 and flask <= 0:
            return 0
        return SPEND_FLASK if flask > droplet else SPEND_DROPLET
    if k == RUBY_RANDOM:
        j = randint(rng, CHOICE_STREAM + s, 3)
        if j == 1 and rubies >= droplet_cost(P, s, R):
            return SPEND_DROPLET
        if j == 2 and P[s, F_FLASK] == 0 and rubies >= flask_cost(P, s, R):
            return SPEND_FLASK
        return 0
    return 0


@kernel
def decide_purple(P, s, npurple, G, R, SK, SP, SC, rng, UF):
    """The purple tier taken (1..min(npurple, 3)); a lower tier may be chosen."""
    top = min(npurple, 3)
    k = SK[s, SLOT_PURPLE]
    if k == SCRIPTED and SC[s, SC_PURPLE] >= 0:
        return min(SC[s, SC_PURPLE], top)
    if k >= USER_BASE:
        t = call_slot(UF, k - USER_BASE, P, s, G, R, SP, npurple, 0)
        return t if 1 <= t <= top else top
    return top


@kernel(inline=True)
def scripted_blue(SC, s, ptr):
    """The scripted chip type placed for the ptr-th blue chip (-1 none, -3 script too short)."""
    if ptr >= SC[s, SC_NBLUE]:
        return -3
    return SC[s, SC_BLUE + ptr]


@kernel(inline=True)
def scripted_yellow(SC, s, ptr):
    """Scripted yellow decision for the ptr-th yellow chip (default: return the white)."""
    if ptr >= SC[s, SC_NYELLOW]:
        return True
    return SC[s, SC_YELLOW + ptr] != 0


@kernel(inline=True)
def scripted_red(SC, s, ptr):
    """Scripted red decision for the ptr-th red chip placed (default: take the extra distance)."""
    if ptr >= SC[s, SC_NRED]:
        return True
    return (SC[s, SC_RED] >> ptr) & 1 != 0
