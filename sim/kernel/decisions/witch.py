"""The herb witch slot, compiled with Numba: whether to call a witch now, and her choices.

The kernel (``sim.kernel.witches``) asks ``decide_witch(q, arg)`` only when witch ``q`` is in play,
the seat still holds her penny and her phase has come; the questions and answers are listed in
``slots`` (``W_*``, ``WQ_SIX_NEXT``). The built-in default calls a witch once her gain
passes a threshold (``P_W_*``) from her first round on, and in the last round whenever she is worth
more than the penny kept (``game.penny_vp``).
"""

from __future__ import annotations

from sim.kernel.decisions.choices import upgrade_target
from sim.kernel.decisions.slots import (
    N_WITCHES,
    P_W_BAG,
    P_W_BOTH,
    P_W_CHEAP,
    P_W_COIN_VP,
    P_W_COINS,
    P_W_COLOURS,
    P_W_RUBIES,
    P_W_RUBY_COINS,
    P_W_TWIN,
    P_W_WHITES,
    SC_NSIX,
    SC_SIX,
    SC_UNSET,
    SC_WITCH,
    SCRIPTED,
    SLOT_WITCH,
    USER_BASE,
    W_BAG_POINTS,
    W_BOTH_REWARDS,
    W_CHEAP_RUBIES,
    W_COLOURS,
    W_DOUBLE_COINS,
    W_FREE_TWIN,
    W_RUBY_COINS,
    W_RUBY_SPACE,
    W_SECOND_FLASK,
    W_SIX_CHIPS,
    W_UPGRADE,
    W_WHITES_BACK,
    WITCH_NEVER,
    WITCH_RANDOM,
    WQ_SIX_NEXT,
)
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    F_DRAWS,
    F_LIMIT,
    F_NPOT,
    F_REWARD,
    F_SIX_PTR,
    F_WHITE,
    G_OUT,
    G_ROUND,
    G_SUPPLY,
    G_VISIT,
    POT_T,
    R_COINS,
    R_FINAL_COINS,
    R_PENNY_VP,
    R_PRICE,
    R_ROUNDS,
    R_VP,
    WITCH_LOOK,
)
from sim.kernel.rng import randint, uniform
from sim.rules.chips import BLUE, GREEN, ORANGE, RED, TYPE_COLOUR, TYPE_VALUE, WHITE


@kernel
def one_level_up(t):
    """The chip one level above t (1 -> 2, 2 -> 4 of the same colour), or -1: never orange or
    white, and purple, black and locoweed have no bigger chip."""
    if TYPE_COLOUR[t] == WHITE:
        return -1
    return upgrade_target(t, 1 if TYPE_VALUE[t] == 1 else 2)


@kernel
def upgrade_gain(P, s, k, G, R):
    """Price gained by upgrading pot entry k (0 if it cannot be upgraded or the supply is out)."""
    t = P[s, POT_T + k]
    u = one_level_up(t)
    if u < 0 or G[G_SUPPLY + u] <= 0:
        return 0
    return max(R[R_PRICE + u] - R[R_PRICE + t], 1)


@kernel
def upgrade_default(P, s, G, R):
    """The upgrade of greatest gain by price: 1 = the last two chips, 2 + k = pot entry k, 0 none."""
    n = P[s, F_NPOT]
    best, best_gain = 0, 0
    if n >= 2:
        best_gain = upgrade_gain(P, s, n - 1, G, R) + upgrade_gain(P, s, n - 2, G, R)
        best = 1 if best_gain > 0 else 0
    for k in range(n):
        g = upgrade_gain(P, s, k, G, R)
        if g > best_gain:
            best, best_gain = 2 + k, g
    return best


@kernel
def six_rank(t):
    """Order the six-chips witch places chips in: pumpkins first (a red chip counts them), then
    green, blue and the rest, reds last; whites after all coloured chips."""
    c = TYPE_COLOUR[t]
    if c == WHITE:
        return 100 - TYPE_VALUE[t]
    if c == ORANGE:
        return 0
    if c == RED:
        return 50
    if c == GREEN or c == BLUE:
        return 10
    return 20


@kernel
def six_next_default(P, s, held):
    """Index of the drawn chip to place next: every coloured chip, then the biggest white that
    keeps the pot from exploding; -1 when none is left worth placing."""
    best, rank = -1, 1000
    for i in range(held):
        t = P[s, WITCH_LOOK + i]
        if TYPE_COLOUR[t] == WHITE and P[s, F_WHITE] + TYPE_VALUE[t] > P[s, F_LIMIT]:
            continue
        r = six_rank(t)
        if r < rank:
            best, rank = i, r
    return best


@kernel
def twin_default(P, s, nbought, G, R, min_price):
    """The dearest chip just bought that costs at least ``min_price`` and is still in the supply."""
    best = -1
    for i in range(nbought):
        t = G[G_OUT + i]
        if G[G_SUPPLY + t] > 0 and R[R_PRICE + t] >= min_price and (
                best < 0 or R[R_PRICE + t] > R[R_PRICE + best]):
            best = t
    return best


@kernel
def witch_default(P, s, q, arg, G, R, SP):
    """The built-in answer (``WITCH_DEFAULT``) to witch question ``q`` with argument ``arg``."""
    p = SP[s, SLOT_WITCH]
    free = G[G_VISIT] == q  # a visiting witch costs no penny: any gain will do
    last = G[G_ROUND] >= R[R_ROUNDS] or free
    penny = 0 if free else R[R_PENNY_VP]
    if q == WQ_SIX_NEXT:
        return six_next_default(P, s, arg)
    if q <= N_WITCHES and G[G_ROUND] < p[q] and not last:
        return 0
    if q == W_SECOND_FLASK:
        return 1
    if q == W_SIX_CHIPS:
        return 1 if arg == 1 else 0
    if q == W_WHITES_BACK:
        return 2 if arg == 1 and P[s, F_WHITE] >= p[P_W_WHITES] else 0
    if q == W_BOTH_REWARDS:
        vp = R[R_VP + P[s, F_REWARD]]
        coins = R[R_COINS + P[s, F_REWARD]]
        coin_vp = 1.0 / R[R_FINAL_COINS] if last else p[P_W_COIN_VP]
        lost = min(vp, coins * coin_vp)
        return 1 if lost >= p[P_W_BOTH] or (last and lost > penny) else 0
    if q == W_UPGRADE:
        return upgrade_default(P, s, G, R)
    if q == W_DOUBLE_COINS:
        return 1 if arg >= p[P_W_COINS] or (last and arg // R[R_FINAL_COINS] > penny) else 0
    if q == W_FREE_TWIN:
        return twin_default(P, s, arg, G, R, 0 if free else p[P_W_TWIN])
    if q == W_RUBY_COINS:
        return 1 if 2 * arg >= p[P_W_RUBY_COINS] or free else 0
    if q == W_COLOURS:
        return 1 if arg >= p[P_W_COLOURS] or (last and arg > penny) else 0
    if q == W_BAG_POINTS:
        return 1 if arg >= p[P_W_BAG] or (last and arg > penny) else 0
    if q == W_RUBY_SPACE:
        return 1 if arg >= p[P_W_RUBIES] or (free and arg > 1) else 0
    if q == W_CHEAP_RUBIES:
        return 1 if arg >= p[P_W_CHEAP] or (free and arg >= 2) else 0
    return 0


@kernel
def witch_scripted(P, s, q, arg, G, R, SP, SC):
    """A round file's answer. The potion witches (six chips, whites back) are scripted as
    ``after * 4 + n``: called once ``after`` chips are drawn (0: when the player stops), n the
    whites sent back (six chips: n = 1). The order of the six chips' placements is SC_SIX (the
    default order when not given); any other unscripted question keeps the penny."""
    if q == WQ_SIX_NEXT:
        i = P[s, F_SIX_PTR]
        if SC[s, SC_NSIX] == 0:
            return six_next_default(P, s, arg)
        if i >= SC[s, SC_NSIX]:
            return -1
        for j in range(arg):
            if P[s, WITCH_LOOK + j] == SC[s, SC_SIX + i]:
                return j
        return -1
    v = SC[s, SC_WITCH + q - 1]
    if v == SC_UNSET:
        return -1 if q == W_FREE_TWIN else 0
    if q == W_SIX_CHIPS or q == W_WHITES_BACK:
        after = v // 4
        at = (arg == 1) if after == 0 else (P[s, F_DRAWS] == after)
        return v % 4 if at else 0
    return v


@kernel
def decide_witch(P, s, q, arg, G, R, SK, SP, SC, rng, UF):
    """The seat's answer to witch question ``q`` (``slots``: ``W_*``, ``WQ_SIX_NEXT``)."""
    k = SK[s, SLOT_WITCH]
    if k == SCRIPTED:
        return witch_scripted(P, s, q, arg, G, R, SP, SC)
    if k >= USER_BASE:
        return UF[0][k - USER_BASE](P, s, G, R, SP, q, arg, UF[1][s])
    if k == WITCH_NEVER:
        return -1 if q == W_FREE_TWIN or q == WQ_SIX_NEXT else 0
    if k == WITCH_RANDOM:
        if q == WQ_SIX_NEXT:
            j = randint(rng, s, arg + 1)
            return j if j < arg else -1
        if uniform(rng, s) >= SP[s, SLOT_WITCH, 0]:
            return -1 if q == W_FREE_TWIN else 0
        if q == W_WHITES_BACK:
            return 1 + randint(rng, s, 2)
        if q == W_FREE_TWIN:
            return G[G_OUT] if arg > 0 else -1
        if q == W_UPGRADE:
            return 1
        return 1
    return witch_default(P, s, q, arg, G, R, SP)
