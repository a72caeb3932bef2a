"""The value of a potion's state, compiled with Numba: the per-round parameter of a slot, the
exact chance that the next chip explodes, what a reward space is worth, and the one-step
expected-value rule (``ev``) that weighs one more chip against stopping. Used by the stop slot
(``sim.kernel.decisions.decide``), the optimal stopper and the plugin helpers.
"""

from __future__ import annotations

import numpy as np

from sim.kernel.bowl import in_bowl
from sim.kernel.decisions.slots import (
    P_DIE_VALUE,
    P_PRESS,
    P_RUBY_VALUE,
    P_VP_VALUE,
    ROUND_PARAMS,
    SLOT_FLASK,
    SLOT_STOP,
)
from sim.kernel.jit import kernel
from sim.kernel.layout import (
    BAGCNT,
    F_ANCHOR,
    F_BOWL_SUM,
    F_DONE,
    F_EXPLODED,
    F_FLASK,
    F_LIMIT,
    F_NBAG,
    F_NORANGE,
    F_NPOT,
    F_REWARD,
    F_SCORE,
    F_START,
    F_WHITE,
    G_NP,
    G_ROUND,
    G_SEEN,
    MAX_CHIPS,
    POT_P,
    R_COINS,
    R_LAST,
    R_ROUNDS,
    R_RUBY,
    R_VP,
)
from sim.rules.chips import (
    N_TYPES,
    RED,
    TYPE_COLOUR,
    TYPE_VALUE,
    WHITE,
)
from sim.rules.track import SPOON


@kernel(inline=True)
def round_param(SP, s, slot, G):
    """The per-round parameter of a slot for the current round (index 0 outside a game)."""
    r = G[G_ROUND]
    if r >= ROUND_PARAMS:
        r = ROUND_PARAMS - 1
    return SP[s, slot, r]


@kernel(inline=True)
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


@kernel(inline=True)
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


@kernel(inline=True)
def current_reward(P, s):
    """Reward space if the potion stopped now."""
    n = P[s, F_NPOT]
    if n == 0:
        return min(P[s, F_START] + 1, SPOON)
    return min(P[s, POT_P + n - 1] + 1, SPOON)


@kernel(inline=True)
def best_seen_reward(P, s, G):
    """The furthest reward space among the other players' finished, intact potions of this round
    that seat s may see (``G_SEEN``: the information model), or -1 if none."""
    seen = G[G_SEEN] & ~(1 << s)
    best = -1
    if seen == 0:  # the usual case while brewing at the same time: nothing to look at
        return best
    for o in range(G[G_NP]):
        if (seen >> o) & 1 and P[o, F_DONE] != 0 and P[o, F_EXPLODED] == 0:
            best = max(best, P[o, F_REWARD])
    return best


@kernel(inline=True)
def best_other_score(P, s, G):
    """The highest VP among the other players (-1 outside a game of two or more)."""
    best = -1
    for o in range(G[G_NP]):
        if o != s:
            best = max(best, P[o, F_SCORE])
    return best


@kernel(inline=True)
def score_gap(P, s, G):
    """Seat s's VP minus the best other player's (negative: behind)."""
    return P[s, F_SCORE] - best_other_score(P, s, G)


@kernel(inline=True)
def rounds_left(G, R):
    """Rounds still to come after this one."""
    return max(R[R_ROUNDS] - G[G_ROUND], 0)


@kernel(inline=True)
def press_shift(P, s, G, R, SP):
    """VP of expected value seat s gives up for one more chip because of the score (``P_PRESS``):
    press x (best other score - own score) / (rounds left + 1), so a trailing player presses
    harder, more so the fewer rounds are left, and a leader is more careful (a negative shift).
    Zero outside a game."""
    press = SP[s, SLOT_STOP, P_PRESS]
    if press == 0.0 or G[G_ROUND] <= 0 or G[G_NP] < 2:
        return 0.0
    return -press * score_gap(P, s, G) / (rounds_left(G, R) + 1.0)


@kernel(llvm_inline=True)
def one_step_ev_draws(P, s, G, R, SP):
    """True if one more chip (then stopping) is worth more in expectation than stopping now.

    Counts the explosion chance and the explosion choice, the red bonus, and a flask that would
    send a white straight back (the reward then stays); a blue chip's look is not counted. With
    a die value (``P_DIE_VALUE``) and another player's finished potion in sight (sequential or
    synchronized brewing), an intact potion that reaches the best one seen also earns the die.
    With a press value the score gap moves the bar (``press_shift``). A lower bound often settles
    it without weighing each chip (``surely_draws``), and the sum weighted by counts does unless
    it lies within rounding of the bar (``side_of_bar``); only then is each chip weighed here.

    Once a chip lies on the last space (Herb Witches, ``in_bowl``) a chip drawn goes into the
    overflow bowl, which scores half its value (rounded down): the potion is worth the last
    space and the bowl, without the die or the press; a white may still explode the pot (valued
    without the bowl: the better of the spoon's VP and coins) or go straight back with the flask.
    """
    cv = round_param(SP, s, SLOT_STOP, G)
    rv = SP[s, SLOT_STOP, P_RUBY_VALUE]
    vv = SP[s, SLOT_STOP, P_VP_VALUE]
    dv = SP[s, SLOT_STOP, P_DIE_VALUE]
    best = best_seen_reward(P, s, G) if dv > 0 else -1
    now = space_value(R, current_reward(P, s), False, cv, rv, vv)
    if best >= 0 and current_reward(P, s) >= best:
        now += dv
    n = P[s, F_NBAG]
    if n <= 0:
        return False
    bowl = in_bowl(P, s, R)
    top = 0.0  # with the bowl: the last space's worth
    held = 0  # with the bowl: the value of the chips in it
    if bowl:
        top = space_value(R, SPOON, False, cv, rv, vv)
        held = P[s, F_BOWL_SUM]
        now = top + vv * (held // 2)
    last = R[R_LAST]
    # a full flask set to a value V > 0 sends a non-exploding white of value >= V straight back
    flask_v = SP[s, SLOT_FLASK, 0] if P[s, F_FLASK] != 0 and SP[s, SLOT_FLASK, 0] > 0 else 1e9
    bar = now - press_shift(P, s, G, R, SP) + 1e-12  # what the expected value must beat
    if not bowl:
        if surely_draws(P, s, R, bar, now, n, flask_v, cv, rv, vv, dv, best):
            return True
        side = side_of_bar(P, s, R, bar, now, n, flask_v, cv, rv, vv, dv, best)
        if side != 0:
            return side > 0
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
        pos = SPOON if bowl else min(P[s, F_ANCHOR] + move, last)
        if c == WHITE:
            if P[s, F_WHITE] + TYPE_VALUE[t] > P[s, F_LIMIT]:
                exp += p * space_value(R, min(pos + 1, SPOON), True, cv, rv, vv)
                continue
            if TYPE_VALUE[t] >= flask_v:
                exp += p * now
                continue
        if bowl:
            exp += p * (top + vv * ((held + TYPE_VALUE[t]) // 2))
            continue
        gain = space_value(R, min(pos + 1, SPOON), False, cv, rv, vv)
        if best >= 0 and min(pos + 1, SPOON) >= best:
            gain += dv
        exp += p * gain
    if bowl:
        return exp > now + 1e-12
    return exp > bar


@kernel(inline=True)
def surely_draws(P, s, R, bar, now, n, flask_v, cv, rv, vv, dv, best):
    """True when ``one_step_ev_draws`` (without the bowl) is sure to draw before it weighs each
    chip: a lower bound of the expected value beats ``bar`` by a margin far above the rounding
    of the rule's sum (1e-9 relative).

    The bound: every chip but a white the flask sends back (worth ``now``) moves at least one
    space, onto a space worth at least the VP and coins of the nearest one it can reach (the
    ruleset's coins and VP never fall along the track and are never negative), with the die as
    the rule counts it there; a white that explodes the pot ends there or further, worth at
    least the better of that space's VP and coins. With no value negative (else: not sure)
    every term of the rule's sum is at least its bound. Relies on ``n`` being the sum of the
    bag's counts.
    """
    if cv < 0 or rv < 0 or vv < 0 or dv < 0:
        return False
    back = 0  # whites the flask sends back
    boom = 0  # whites that explode the pot
    for t in range(3):  # the white types w1, w2, w3
        cnt = P[s, BAGCNT + t]
        if P[s, F_WHITE] + TYPE_VALUE[t] > P[s, F_LIMIT]:
            boom += cnt
        elif TYPE_VALUE[t] >= flask_v:
            back += cnt
    near = min(min(P[s, F_ANCHOR] + 1, R[R_LAST]) + 1, SPOON)
    vp = R[R_VP + near] * vv
    coins = R[R_COINS + near] * cv
    low = vp + coins
    if best >= 0 and near >= best:
        low += dv
    # the bound times n, compared with bar times n: no division (the margin, n times as large,
    # covers the rounding of the product as it did the quotient's)
    sum_low = (n - back - boom) * low + back * now + boom * max(vp, coins)
    return sum_low - 1e-9 * (n + abs(sum_low)) > bar * n


# a chip's count in the field of its move (8 bits a field: a bag holds at most MAX_CHIPS = 64
# chips), summed over the bag by ``side_of_bar``; a red chip's field before its pumpkin bonus,
# which moves every red field at once, and a white's 0 (a white is weighed by its own rule)
MOVE_BITS = 8
MOVE_FIELDS = 1 + max(int(v) + (2 if TYPE_COLOUR[t] == RED else 0)  # to the furthest move
                      for t, v in enumerate(TYPE_VALUE))
assert MOVE_FIELDS * MOVE_BITS <= 63 and MAX_CHIPS < 1 << MOVE_BITS
MOVE_TALLY = np.array([0 if TYPE_COLOUR[t] in (WHITE, RED) else 1 << (MOVE_BITS * int(v))
                       for t, v in enumerate(TYPE_VALUE)], dtype=np.int64)
RED_TALLY = np.array([1 << (MOVE_BITS * int(v)) if TYPE_COLOUR[t] == RED else 0
                      for t, v in enumerate(TYPE_VALUE)], dtype=np.int64)


@kernel(inline=True)
def side_of_bar(P, s, R, bar, now, n, flask_v, cv, rv, vv, dv, best):
    """1 if ``one_step_ev_draws``'s expected value (without the bowl) is surely above ``bar``, -1
    if surely not, 0 if the two are too close to tell without the rule's own sum.

    The same terms as the rule's sum, each chip's worth times its count, compared with ``bar``
    times the bag's size: no division, and the chips that move as far (every chip but a white
    that explodes the pot or goes back with the flask) weighed together, their counts added up
    by move in one pass (``MOVE_TALLY``). The sums differ from the rule's by rounding only, far
    below the margin (1e-9 of the bag's size times the largest worth or the bar).
    """
    acc = 0
    red = 0
    for t in range(N_TYPES):
        acc += P[s, BAGCNT + t] * MOVE_TALLY[t]
        red += P[s, BAGCNT + t] * RED_TALLY[t]
    no = P[s, F_NORANGE]
    acc += red << (MOVE_BITS * (2 if no >= 3 else (1 if no >= 1 else 0)))
    anchor = P[s, F_ANCHOR]
    last = R[R_LAST]
    tot = 0.0
    big = abs(bar)
    back = 0  # whites the flask sends back
    for t in range(3):  # the white types w1, w2, w3
        cnt = P[s, BAGCNT + t]
        if cnt == 0:
            continue
        v = TYPE_VALUE[t]
        if P[s, F_WHITE] + v > P[s, F_LIMIT]:
            g = space_value(R, min(min(anchor + v, last) + 1, SPOON), True, cv, rv, vv)
            tot += cnt * g
            big = max(big, abs(g))
        elif v >= flask_v:
            back += cnt
        else:
            acc += cnt << (MOVE_BITS * v)
    if back > 0:
        tot += back * now
        big = max(big, abs(now))
    for m in range(1, MOVE_FIELDS):  # every move, a move no chip makes weighed 0 times: no branch
        cnt = (acc >> (MOVE_BITS * m)) & ((1 << MOVE_BITS) - 1)
        sp = min(min(anchor + m, last) + 1, SPOON)
        g = space_value(R, sp, False, cv, rv, vv)
        if best >= 0 and sp >= best:
            g += dv
        tot += cnt * g
        big = max(big, abs(g))
    margin = 1e-9 * n * big
    diff = tot - bar * n
    if diff > margin:
        return 1
    if diff < -margin:
        return -1
    return 0
