"""The value model in compiled code: a seat's position as features, its chance of winning, what
the chips it may buy add, and the table of what ending the potion on each space is worth.

The model (``value_layout``) predicts the final margin linearly and turns it into a chance of
winning by a logistic per round. Because the margin is linear, a chip bought adds the same to it
whatever else the position holds (``chip_gain``), so the best purchase for any budget is found once
per decision (``gains_by_budget``), and the worth of a reward space is the chance of winning
after its VP, its ruby and the best purchase its coins allow (``model_leaf_table``), which the
optimal stopper's solve then uses as its leaves. The explosion choice and the buyer of ``master``
(``sim.kernel.decisions.master``) decide by the same numbers.
"""

from __future__ import annotations

import numpy as np
from numba import uint64

from sim.kernel.bag import colour_totals
from sim.kernel.decisions.value_layout import (
    H_ROUNDS,
    M_A,
    M_B,
    M_W,
    M_W0,
    MODEL_BASE,
    N_FEATURES,
    X_COUNT,
    X_DROPLET,
    X_FLASK,
    X_GAP_BEST,
    X_GAP_TOTAL,
    X_RUBIES,
    X_VALUE,
)
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    CHIPS,
    F_DROPLET,
    F_FLASK,
    F_NCHIPS,
    F_RUBIES,
    F_SCORE,
    G_NP,
    G_ROUND,
    R_BOOK,
    R_BOOK_ROUND,
    R_COINS,
    R_FINAL_COINS,
    R_FINAL_RUBIES,
    R_MAX_BUYS,
    R_PRICE,
    R_ROUNDS,
    R_RUBY,
    R_VP,
)
from sim.rules.chips import N_TYPES, TYPE_COLOUR, TYPE_VALUE, WHITE
from sim.rules.track import TRACK_LEN

MAX_BUDGET = 127  # coins beyond this buy nothing more (no chip set costs as much)


@kernel(inline=True)
def has_model(SP, s):
    """True if seat s's parameters carry a value model (rows after the slots)."""
    return SP.shape[1] > MODEL_BASE and SP[s, MODEL_BASE, H_ROUNDS] > 0


@kernel(inline=True)
def model_row(SP, s, r):
    """The row of seat s's model for round r (the last row it has for a later round)."""
    n = np.int64(SP[s, MODEL_BASE, H_ROUNDS])
    return MODEL_BASE + min(max(r, 1), n)


@kernel
def position_features(P, s, G, x):
    """Fill ``x`` (``N_FEATURES``) with seat s's position now (``value_layout.FEATURES``)."""
    best = 0
    total = 0
    others = 0
    for o in range(G[G_NP]):
        if o != s:
            best = P[o, F_SCORE] if others == 0 else max(best, P[o, F_SCORE])
            total += P[o, F_SCORE]
            others += 1
    own = P[s, F_SCORE]
    x[X_GAP_BEST] = own - best
    x[X_GAP_TOTAL] = others * own - total
    x[X_RUBIES] = P[s, F_RUBIES]
    x[X_DROPLET] = P[s, F_DROPLET]
    x[X_FLASK] = 1.0 if P[s, F_FLASK] != 0 else 0.0
    colour_totals(P, s, x, X_COUNT, X_VALUE)


@kernel(inline=True)
def margin_of(SP, s, row, x):
    """The model's expected final margin of the position ``x``."""
    m = SP[s, row, M_W0]
    for i in range(N_FEATURES):
        m += SP[s, row, M_W + i] * x[i]
    return m


@kernel(inline=True)
def win_chance(SP, s, row, margin):
    """The model's chance of winning with this expected final margin."""
    z = SP[s, row, M_A] + SP[s, row, M_B] * margin
    if z >= 0:
        return 1.0 / (1.0 + np.exp(-z))
    e = np.exp(z)
    return e / (1.0 + e)


@kernel(inline=True)
def vp_weight(SP, s, row, G):
    """What one more VP adds to the margin (it raises the gap to the best other player by 1 and
    the total gap by the number of other players)."""
    return SP[s, row, M_W + X_GAP_BEST] + max(G[G_NP] - 1, 0) * SP[s, row, M_W + X_GAP_TOTAL]


@kernel(inline=True)
def chip_gain(SP, s, row, t):
    """What owning one more chip of type t adds to the margin (0 for a white)."""
    c = TYPE_COLOUR[t]
    if c == WHITE:
        return 0.0
    return SP[s, row, M_W + X_COUNT + c] + SP[s, row, M_W + X_VALUE + c] * TYPE_VALUE[t]


@kernel
def best_set(gain, cost, coins, max_buys):
    """The set of at most ``max_buys`` (1 or 2; more is taken as 2) chips of different colours
    within ``coins`` of the greatest total gain, among the types with ``cost >= 0``, buying
    nothing when no gain is positive: (gain, first type, second type), -1 for none."""
    best, t1, t2 = 0.0, -1, -1
    if max_buys <= 0:
        return best, t1, t2
    for t in range(N_TYPES):
        if cost[t] < 0 or cost[t] > coins or gain[t] <= 0.0:
            continue
        if gain[t] > best:
            best, t1, t2 = gain[t], t, -1
        if max_buys < 2:
            continue
        for u in range(t + 1, N_TYPES):
            if (cost[u] < 0 or gain[u] <= 0.0 or TYPE_COLOUR[u] == TYPE_COLOUR[t]
                    or cost[t] + cost[u] > coins):
                continue
            if gain[t] + gain[u] > best:
                best, t1, t2 = gain[t] + gain[u], t, u
    return best, t1, t2


@kernel(nrt=True)
def gains_by_budget(gain, cost, max_buys, top):
    """``g[c]``, c = 0..top: the greatest gain a legal set within c coins adds (``best_set``),
    from one pass over the pairs."""
    g = np.zeros(top + 1, dtype=np.float64)
    for t in range(N_TYPES):
        if cost[t] < 0 or gain[t] <= 0.0 or cost[t] > top or max_buys <= 0:
            continue
        g[cost[t]] = max(g[cost[t]], gain[t])
        if max_buys < 2:
            continue
        for u in range(t + 1, N_TYPES):
            if cost[u] < 0 or gain[u] <= 0.0 or TYPE_COLOUR[u] == TYPE_COLOUR[t]:
                continue
            c = cost[t] + cost[u]
            if c <= top:
                g[c] = max(g[c], gain[t] + gain[u])
    for c in range(1, top + 1):
        g[c] = max(g[c], g[c - 1])
    return g


@kernel(inline=True)
def for_sale_this_round(G, R, t):
    """True if chip type t will be for sale in this round's buying (its colour's book is out):
    what a strategy needs while it brews, before the buying phase publishes ``G_AVAIL``."""
    c = TYPE_COLOUR[t]
    return R[R_BOOK + c] > 0 and G[G_ROUND] >= R[R_BOOK_ROUND + c] and R[R_PRICE + t] >= 0


@kernel(nrt=True)
def shop_gains(SP, s, row, G, R):
    """Every chip type's gain to seat s under its model row, and its price if it is for sale
    this round (-1 if not)."""
    gain = np.zeros(N_TYPES, dtype=np.float64)
    cost = np.full(N_TYPES, -1, dtype=np.int64)
    for t in range(N_TYPES):
        if TYPE_COLOUR[t] != WHITE and for_sale_this_round(G, R, t):
            gain[t] = chip_gain(SP, s, row, t)
            cost[t] = R[R_PRICE + t]
    return gain, cost


@kernel(nrt=True)
def model_leaf_table(P, s, G, R, SP):
    """``V[space, exploded]``: seat s's chance of winning if its potion ends on reward space
    ``space`` now, intact (0) or exploded (1), by its value model.

    Intact: the space's VP, its ruby, and the best purchase its coins allow. Exploded: the better
    of the VP and the coins, and the ruby (an exploded pot still takes it). In the last round the
    coins and rubies are converted into VP instead of buying. What the rest of the evaluation
    adds (the die, chip actions) is the same for every stop and is left out.
    """
    r = G[G_ROUND]
    row = model_row(SP, s, r)
    x = np.empty(N_FEATURES, dtype=np.float64)
    position_features(P, s, G, x)
    base = margin_of(SP, s, row, x)
    dvp = vp_weight(SP, s, row, G)
    druby = SP[s, row, M_W + X_RUBIES]
    rubies = P[s, F_RUBIES]
    V = np.empty((TRACK_LEN, 2), dtype=np.float64)
    if r >= R[R_ROUNDS]:
        fc = max(R[R_FINAL_COINS], 1)
        fr = max(R[R_FINAL_RUBIES], 1)
        for sp in range(TRACK_LEN):
            held = rubies + R[R_RUBY + sp]
            rest = base + dvp * (held // fr) + druby * (held % fr - rubies)
            vp = R[R_VP + sp]
            coins = R[R_COINS + sp] // fc
            V[sp, 0] = win_chance(SP, s, row, rest + dvp * (vp + coins))
            V[sp, 1] = win_chance(SP, s, row, rest + dvp * max(vp, coins))
        return V
    gain, cost = shop_gains(SP, s, row, G, R)
    g = gains_by_budget(gain, cost, R[R_MAX_BUYS], MAX_BUDGET)
    for sp in range(TRACK_LEN):
        rest = base + druby * R[R_RUBY + sp]
        vp = dvp * R[R_VP + sp]
        coins = g[min(R[R_COINS + sp], MAX_BUDGET)]
        V[sp, 0] = win_chance(SP, s, row, rest + vp + coins)
        V[sp, 1] = win_chance(SP, s, row, rest + max(vp, coins))
    return V


@kernel(inline=True)
def position_hash(P, s, G, coins):
    """A pseudo-random 64-bit number from seat s's position (for exploration in training games:
    reproducible, as the game is, and different from one position to the next)."""
    h = uint64(0xCBF29CE484222325)
    prime = uint64(0x100000001B3)
    h = (h ^ uint64(G[G_ROUND] + 7 * s + 1000 * coins)) * prime
    for o in range(G[G_NP]):
        h = (h ^ uint64(P[o, F_SCORE] + 101)) * prime
        h = (h ^ uint64(P[o, F_NCHIPS] + 211)) * prime
    for i in range(P[s, F_NCHIPS]):
        h = (h ^ uint64(P[s, CHIPS + i] + 31 * i)) * prime
    h ^= h >> uint64(29)
    h *= uint64(0xBF58476D1CE4E5B9)
    h ^= h >> uint64(32)
    return h


@kernel(inline=True)
def hash_uniform(h, k):
    """The k-th uniform number in [0, 1) drawn from hash ``h``."""
    z = (h + uint64(k + 1) * uint64(0x9E3779B97F4A7C15))
    z = (z ^ (z >> uint64(30))) * uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> uint64(27))) * uint64(0x94D049BB133111EB)
    z ^= z >> uint64(31)
    return np.float64(z >> uint64(11)) / 9007199254740992.0
