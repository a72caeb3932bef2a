"""The expert's decisions made cheaper without changing any (issue 45's expert-mirror aim).

* ``draw_chance`` carries C(m, j) along its loops instead of calling ``comb`` for every term:
  the same value to the last bit as the sum with ``comb`` (a plain-Python copy of the old loop).
* ``marginal_context`` (and so ``worth_context``) computes the rounds' weight
  ``left ** mg_horizon`` once, and ``drawn_worth`` reads it from the context instead of taking a
  power for every chip weighed.
* ``decide_buy`` with the marginal buyer weighs only the chips it can buy and still returns the
  pair a weighing of every chip and pair (the old order) returns.
* ``one_step_ev_draws`` values the overflow bowl in its own loop (it was a second function with
  a copy of the loop), as worked out here.
* The game row keeps the marginal buyer's memos (``G_MEMO_WHITE``: a seat's white draw chance,
  ``G_MEMO_MOVE``: v ** mg_size; ``G_BUY_LIST``, ``G_WORTH``: the chips a buy may take, each
  weighed once), as the
  bits of their float64 values: each read equals the value computed afresh.
* ``one_step_ev_draws`` draws without weighing each chip when a lower bound of the expected
  value beats the bar by far (``surely_draws``; compared as the bound and the bar times the
  bag's size, without a division).
* A seat's chips are counted in one pass (``chip_tally``: every count packed into one int64),
  the same counts as the old passes over the chips.
* The black tie chance of a seat and a neighbour is kept in the game row (``G_MEMO_TIE``);
  ``equal_chance`` carries C(n, j) and C(m, j) along its loop instead of calling ``comb``.
* ``best_pair`` weighs a chip's pairs only when the best later worth (``G_WORTH_AFTER``) could
  beat the best so far: the same choice as weighing every pair.
* The rounds' weight ``left ** mg_horizon`` is kept in the game row (``G_MEMO_WEIGHT``): every
  seat buying in a round asks for the same one.
* ``one_step_ev_draws`` settles the rest without its own sum when the sum weighted by counts
  (chips that move as far weighed together, no division) is far from the bar on either side
  (``side_of_bar``); ``best_seen_reward`` looks at no seat when it may see none.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from numba import njit

from sim.api.rules_array import rules_scalars
from sim.kernel import layout as L
from sim.kernel.decisions import slots as S
from sim.kernel.decisions.buy_marginal import (
    chip_move,
    chip_tally,
    comb,
    draw_chance,
    drawn_worth,
    equal_chance,
    marginal_context,
    marginal_worth,
    memo_worth,
    rounds_weight,
    tie_chance,
    white_black_counts,
    white_chance,
)
from sim.kernel.decisions.decide import best_pair
from sim.kernel.decisions.potion_value import (
    best_seen_reward,
    current_reward,
    one_step_ev_draws,
    press_shift,
    round_param,
    side_of_bar,
    space_value,
    surely_draws,
)
from sim.kernel.float_bits import bits_float, float_bits
from sim.rules import chips
from sim.rules.ruleset import load_ruleset
from strategies.builtin import parse_strategy
from tests.test_marginal_buyer import RS, START, buys, table


def draw_chance_with_comb(n1: int, n2: int, n3: int, stop: float) -> float:
    """The loop of ``draw_chance`` as it was, calling ``comb`` for every term."""
    m = n1 + n2 + n3
    ej = 0.0
    ca = 1.0
    for a in range(min(n1, math.ceil(stop) - 1) + 1):
        cb = 1.0
        for b in range(n2 + 1):
            if a + 2 * b >= stop:
                break
            cc = 1.0
            for c in range(n3 + 1):
                if a + 2 * b + 3 * c >= stop:
                    break
                ej += ca * cb * cc / comb(m, a + b + c)
                cc = cc * (n3 - c) / (c + 1)
            cb = cb * (n2 - b) / (b + 1)
        ca = ca * (n1 - a) / (a + 1)
    return ej / (m + 1)


@pytest.mark.parametrize("stop", [1.0, 3.0, 4.5, 6.0, 9.0, 14.0])
def test_draw_chance_is_the_comb_sum_to_the_last_bit(stop):
    for n1 in range(9):
        for n2 in range(5):
            for n3 in range(4):
                assert draw_chance(n1, n2, n3, stop) == draw_chance_with_comb(n1, n2, n3, stop), \
                    (n1, n2, n3, stop)


def expert_context(round_: int):
    SP = np.repeat(parse_strategy("expert").params[None], 4, axis=0)
    P, G = table([START, START + ",k1", START, START + ",r4"], round_)
    return SP, marginal_context(P, 0, G, rules_scalars(RS), SP)


def test_the_context_carries_the_rounds_weight():
    SP, ctx = expert_context(3)
    horizon = SP[0, S.SLOT_BUY, S.P_MG_HORIZON]
    assert horizon != 1.0
    assert len(ctx) == 7 and ctx[6] == ctx[0] ** horizon


def test_a_chips_worth_is_the_weight_of_its_context_times_the_rest():
    """Twice the weight in the context, twice the worth of every chip (the power is not taken
    again from the rounds left); a value-1 chip and a value-4 chip alike."""
    SP, ctx = expert_context(4)
    doubled = (*ctx[:6], 2 * ctx[6])
    for name in ("o1", "r4", "b2", "k1", "g4", "y4", "p1"):
        t = chips.parse_chips(name)[0]
        w = drawn_worth(SP, 0, t, ctx)
        assert w > 0 and drawn_worth(SP, 0, t, doubled) == 2 * w, name


def best_pair_weighing_everything(spec: str, coins: int, round_: int) -> list[str]:
    """The marginal buyer's choice as it was made: every chip weighed, then every pair."""
    st = parse_strategy(spec)
    SP = st.params[None].copy()
    P, G = table([START], round_)
    ctx = marginal_context(P, 0, G, rules_scalars(RS), SP)
    price, supply = RS.price, RS.supply
    floor = SP[0, S.SLOT_BUY, S.P_BUY_MIN_VALUE]
    if st.kinds[S.SLOT_BUY] == S.BUY_VALUE:
        worth = [SP[0, S.SLOT_BUY, t] for t in range(len(price))]
    else:
        worth = [marginal_worth(SP, 0, t, ctx) for t in range(len(price))]

    def ok(t, budget):
        return price[t] >= 0 and supply[t] > 0 and price[t] <= budget

    best, b1, b2 = 0.0, -1, -1
    for t in range(len(price)):
        wt = worth[t]
        if wt <= 0 or wt < floor or not ok(t, coins):
            continue
        if wt > best + 1e-12 or (b1 >= 0 and b2 < 0 and abs(wt - best) <= 1e-12
                                 and price[t] < price[b1]):
            best, b1, b2 = wt, t, -1
        for u in range(t + 1, len(price)):
            wu = worth[u]
            if wu <= 0 or wu < floor or chips.TYPE_COLOUR[u] == chips.TYPE_COLOUR[t]:
                continue
            if ok(u, coins - price[t]) and wt + wu > best + 1e-12:
                best, b1, b2 = wt + wu, t, u
    return sorted(chips.chip_name(int(t)) for t in (b1, b2) if t >= 0)


@pytest.mark.parametrize("spec", ["expert", "ev:buyer=marginal", "expert:worth_blue=3",
                                  "expected-value"])
def test_the_buyer_weighing_only_what_it_can_buy_chooses_as_before(spec):
    """The buyers by worth list the chips they may buy with their worths (G_BUY_LIST, G_WORTH),
    then weigh the pairs of that list: the same choice as weighing every chip and pair."""
    for round_ in (1, 3, 5, 8, 9):
        for coins in (0, 3, 5, 6, 9, 12, 15, 18, 22, 30):
            assert buys(spec, coins, round_) == best_pair_weighing_everything(
                spec, coins, round_), (round_, coins)


def bowl_position(bag: dict[str, int], white: int, held: int):
    """Seat 0 of a Herb Witches game with a chip on the last space: ``bag`` left, ``white`` on
    the pot, ``held`` in the overflow bowl."""
    from sim.kernel import layout as L

    hw = load_ruleset("herb-witches")
    R = rules_scalars(hw)
    P, G = table([START], 3)
    for name, k in bag.items():
        P[0, L.BAGCNT + chips.parse_chips(name)[0]] = k
    P[0, L.F_NBAG] = sum(bag.values())
    P[0, L.F_NPOT] = 1
    P[0, L.POT_P] = R[L.R_LAST]
    P[0, L.F_WHITE] = white
    P[0, L.F_LIMIT] = 7
    P[0, L.F_BOWL_SUM] = held
    return P, G, R


@pytest.mark.parametrize("bag,white,held", [
    ({"w3": 3, "o1": 1}, 5, 0),  # a w3 explodes: three chances in four of losing the spoon's best
    ({"w1": 1, "o6": 1}, 2, 1),  # nothing explodes: the o6 adds 3 VP to the bowl
    ({"w2": 2, "r4": 2}, 5, 3),  # a w2 explodes half the time; the r4 takes the bowl to 7
])
def test_the_stop_rule_with_the_bowl_weighs_half_a_chip_against_an_explosion(bag, white, held):
    """Once a chip lies on the last space the rule values drawing as the bowl does (half the
    value of the chips in it, rounded down) against a white that explodes (the better of the
    spoon's VP and coins), with no die and no press: one loop with the ordinary pot since the
    two were folded into one."""
    SP = np.repeat(parse_strategy("ev:press=0.5").params[None], 1, axis=0)
    P, G, R = bowl_position(bag, white, held)
    from sim.kernel import layout as L

    cv = SP[0, S.SLOT_STOP, G[L.G_ROUND]]
    rv, vv = SP[0, S.SLOT_STOP, S.P_RUBY_VALUE], SP[0, S.SLOT_STOP, S.P_VP_VALUE]
    top = R[L.R_VP + 53] * vv + R[L.R_COINS + 53] * cv + R[L.R_RUBY + 53] * rv
    boom = max(R[L.R_VP + 53] * vv, R[L.R_COINS + 53] * cv) + R[L.R_RUBY + 53] * rv
    now = top + vv * (held // 2)
    n = sum(bag.values())
    exp = 0.0
    for name, k in bag.items():
        t = chips.parse_chips(name)[0]
        v = int(chips.TYPE_VALUE[t])
        if chips.TYPE_COLOUR[t] == chips.WHITE and white + v > 7:
            exp += k / n * boom
        else:
            exp += k / n * (top + vv * ((held + v) // 2))
    assert one_step_ev_draws(P, 0, G, R, SP) == (exp > now + 1e-12)


# --- the marginal buyer's memos in the game row (G_MEMO_WHITE, G_MEMO_MOVE, G_WORTH) ---------

@njit
def _round_trip(xs):
    out = np.empty_like(xs)
    for i in range(xs.shape[0]):
        out[i] = bits_float(float_bits(xs[i]))
    return out


@njit
def _bits(xs):
    out = np.empty(xs.shape[0], dtype=np.int64)
    for i in range(xs.shape[0]):
        out[i] = float_bits(xs[i])
    return out


def test_a_float_kept_as_bits_comes_back_to_the_last_bit():
    xs = np.array([0.0, -0.0, 1.0, 1.04, -2.5, 5e-324, 1e308, np.inf, -np.inf, np.pi])
    xs = np.concatenate([xs, np.random.default_rng(3).normal(0, 1e3, 1000)])
    assert (_round_trip(xs).view(np.int64) == xs.view(np.int64)).all()
    assert (_bits(xs) == xs.view(np.int64)).all()


@njit
def _white_chances(G, seats, counts, stops):
    out = np.empty(seats.shape[0])
    for i in range(seats.shape[0]):
        out[i] = white_chance(G, seats[i], counts[i, 0], counts[i, 1], counts[i, 2], stops[i])
    return out


@pytest.mark.parametrize("players", [0, 5])
def test_the_memo_of_a_seats_white_draw_chance_is_draw_chance_whatever_came_before(players):
    """Seats asked in a random order, whites and stops changing now and then (a hit returns the
    kept bits, a changed key computes again or, with players in the game row, takes another
    seat's memo of the same key, stop 6.0 and 6.0 + 2 ** -50 apart): every answer is
    draw_chance's own (fails when a seat's memo is taken for a different key or stop)."""
    rng = np.random.default_rng(5)
    m = 3000
    seats = rng.integers(0, 5, m)
    counts = np.column_stack([rng.integers(3, 7, m), rng.integers(1, 4, m), rng.integers(0, 3, m)])
    stops = rng.choice([6.0, 6.0, 6.0 + 2 ** -50, 4.5, 9.0], m)
    G = np.zeros(L.G_WIDTH, dtype=np.int64)
    G[L.G_NP] = players
    got = _white_chances(G, seats, counts, stops)
    want = [draw_chance(*counts[i], stops[i]) for i in range(m)]
    assert (got == np.array(want)).all()


@njit
def _moves(G, seats, values, sizes):
    out = np.empty(seats.shape[0])
    for i in range(seats.shape[0]):
        out[i] = chip_move(G, seats[i], values[i], sizes[i])
    return out


@njit
def _pow(values, sizes):
    out = np.empty(values.shape[0])
    for i in range(values.shape[0]):
        out[i] = 1.0 if values[i] == 1 else float(values[i]) ** sizes[i]
    return out


def test_the_memo_of_a_chips_move_is_the_power_drawn_worth_takes():
    """v ** mg_size from the seat's memo equals the power with a base known only at run time
    (a constant base 2.0 or 4.0 would let LLVM take exp2, which differs in the last bits)."""
    rng = np.random.default_rng(7)
    m = 3000
    seats = rng.integers(0, 5, m)
    values = rng.choice(np.array([1, 2, 4, 6]), m)
    sizes = rng.choice(np.array([1.04, 1.04, 0.9, 1.3, 0.0, 1.0]), m)
    G = np.zeros(L.G_WIDTH, dtype=np.int64)
    assert (_moves(G, seats, values, sizes) == _pow(values, sizes)).all()


@njit
def _worths(G, SP, ctx):
    out = np.empty((2, chips.N_TYPES))
    for t in range(chips.N_TYPES):
        out[0, t] = memo_worth(G, SP, 0, t, ctx)
        out[1, t] = marginal_worth(SP, 0, t, ctx)
    return out


@pytest.mark.parametrize("spec", ["expert", "expert:mg_size=1.3", "ev:buyer=marginal"])
def test_a_memo_worth_is_the_marginal_worth(spec):
    for round_ in (1, 4, 8, 9):
        SP = np.repeat(parse_strategy(spec).params[None], 4, axis=0)
        P, G = table([START, START + ",k1", START, START + ",r4"], round_)
        ctx = marginal_context(P, 0, G, rules_scalars(RS), SP)
        for _ in range(2):  # the second time from the memo
            w = _worths(G, SP, ctx)
            assert (w[0] == w[1]).all(), round_


# --- the stop rule's shortcut (surely_draws) --------------------------------------------------

def ev_rule_weighing_every_chip(P, s, G, R, SP) -> bool:
    """``one_step_ev_draws`` without the bowl, as it was: every chip in the bag weighed (plain
    Python, the same operations in the same order)."""
    exp, bar = ev_rule_sum(P, s, G, R, SP)
    return exp > bar


def ev_rule_sum(P, s, G, R, SP) -> tuple[float, float]:
    """The expected value ``ev_rule_weighing_every_chip`` weighs (its own sum) and its bar."""
    cv = SP[s, S.SLOT_STOP, min(G[L.G_ROUND], S.ROUND_PARAMS - 1)]
    rv, vv = SP[s, S.SLOT_STOP, S.P_RUBY_VALUE], SP[s, S.SLOT_STOP, S.P_VP_VALUE]
    dv = SP[s, S.SLOT_STOP, S.P_DIE_VALUE]

    def value(space, exploded):
        c, v, r = R[L.R_COINS + space] * cv, R[L.R_VP + space] * vv, R[L.R_RUBY + space] * rv
        return max(v, c) + r if exploded else v + c + r

    best = -1
    if dv > 0:
        for o in range(G[L.G_NP]):
            if o != s and (G[L.G_SEEN] >> o) & 1 and P[o, L.F_DONE] and not P[o, L.F_EXPLODED]:
                best = max(best, P[o, L.F_REWARD])
    k = P[s, L.F_NPOT]
    cur = min((P[s, L.POT_P + k - 1] if k else P[s, L.F_START]) + 1, 53)
    now = value(cur, False) + (dv if best >= 0 and cur >= best else 0.0)
    n = P[s, L.F_NBAG]
    if n <= 0:
        return 0.0, 1.0
    flask_v = SP[s, S.SLOT_FLASK, 0] if P[s, L.F_FLASK] and SP[s, S.SLOT_FLASK, 0] > 0 else 1e9
    exp = 0.0
    for t in range(chips.N_TYPES):
        cnt = P[s, L.BAGCNT + t]
        if cnt == 0:
            continue
        p = cnt / n
        move = int(chips.TYPE_VALUE[t])
        if chips.TYPE_COLOUR[t] == chips.RED:
            no = P[s, L.F_NORANGE]
            move += 2 if no >= 3 else (1 if no >= 1 else 0)
        pos = min(P[s, L.F_ANCHOR] + move, R[L.R_LAST])
        if chips.TYPE_COLOUR[t] == chips.WHITE:
            if P[s, L.F_WHITE] + chips.TYPE_VALUE[t] > P[s, L.F_LIMIT]:
                exp += p * value(min(pos + 1, 53), True)
                continue
            if chips.TYPE_VALUE[t] >= flask_v:
                exp += p * now
                continue
        gain = value(min(pos + 1, 53), False)
        if best >= 0 and min(pos + 1, 53) >= best:
            gain += dv
        exp += p * gain
    press = SP[s, S.SLOT_STOP, S.P_PRESS]
    shift = 0.0
    if press != 0.0 and G[L.G_ROUND] > 0 and G[L.G_NP] >= 2:
        gap = P[s, L.F_SCORE] - max(P[o, L.F_SCORE] for o in range(G[L.G_NP]) if o != s)
        shift = -press * gap / (max(R[L.R_ROUNDS] - G[L.G_ROUND], 0) + 1.0)
    return exp, now - shift + 1e-12


def potion_states(m: int, seed: int):
    """Seat 0 of ``m`` random 4-player positions in the middle of a potion (base track)."""
    rng = np.random.default_rng(seed)
    R = rules_scalars(RS)
    for _ in range(m):
        P = np.zeros((4, L.P_WIDTH), dtype=np.int64)
        G = np.zeros(L.G_WIDTH, dtype=np.int64)
        G[L.G_NP], G[L.G_ROUND], G[L.G_SEEN] = 4, rng.integers(1, 10), 15
        for o in range(4):
            P[o, L.F_SCORE], P[o, L.F_REWARD] = rng.integers(0, 60), rng.integers(5, 45)
            P[o, L.F_DONE], P[o, L.F_EXPLODED] = rng.integers(0, 2), rng.integers(0, 2)
        P[0, L.F_DONE] = P[0, L.F_EXPLODED] = 0
        cnt = np.zeros(chips.N_TYPES, dtype=np.int64)
        cnt[:3] = rng.integers(0, 5), rng.integers(0, 3), rng.integers(0, 2)
        for t in rng.choice(np.arange(3, chips.N_TYPES), size=rng.integers(1, 10), replace=False):
            cnt[t] = rng.integers(1, 3)
        P[0, L.BAGCNT:L.BAGCNT + chips.N_TYPES] = cnt
        P[0, L.F_NBAG] = cnt.sum()
        P[0, L.F_LIMIT], P[0, L.F_WHITE] = 7, rng.integers(0, 8)
        a = rng.integers(2, 53)
        P[0, L.F_ANCHOR], P[0, L.F_NPOT], P[0, L.POT_P] = a, 1, a
        P[0, L.F_NORANGE], P[0, L.F_FLASK] = rng.integers(0, 4), rng.integers(0, 2)
        yield P, G, R


@njit
def _rule_args(P, s, G, R, SP):
    """The arguments ``one_step_ev_draws`` gives its shortcuts (no bowl): the value of stopping
    now, the flask's value, the coin, ruby, VP and die values and the best reward seen."""
    cv = round_param(SP, s, S.SLOT_STOP, G)
    rv, vv = SP[s, S.SLOT_STOP, S.P_RUBY_VALUE], SP[s, S.SLOT_STOP, S.P_VP_VALUE]
    dv = SP[s, S.SLOT_STOP, S.P_DIE_VALUE]
    best = best_seen_reward(P, s, G) if dv > 0 else -1
    now = space_value(R, current_reward(P, s), False, cv, rv, vv)
    if best >= 0 and current_reward(P, s) >= best:
        now += dv
    flask_v = SP[s, S.SLOT_FLASK, 0] if P[s, L.F_FLASK] != 0 and SP[s, S.SLOT_FLASK, 0] > 0 \
        else 1e9
    return now, flask_v, cv, rv, vv, dv, best


@njit
def _sure(P, s, G, R, SP):
    """``surely_draws`` with the arguments ``one_step_ev_draws`` gives it (no bowl)."""
    now, flask_v, cv, rv, vv, dv, best = _rule_args(P, s, G, R, SP)
    bar = now - press_shift(P, s, G, R, SP) + 1e-12
    return surely_draws(P, s, R, bar, now, P[s, L.F_NBAG], flask_v, cv, rv, vv, dv, best)


@pytest.mark.parametrize("spec", ["expert", "ev", "ev:press=0.5", "expert:coin=0"])
def test_the_stop_rule_decides_as_when_it_weighed_every_chip(spec):
    """On random positions the rule (with its shortcut) draws exactly when the full sum says so,
    and the shortcut, which is only ever sure to draw when the full sum draws, settles many."""
    SP = np.repeat(parse_strategy(spec).params[None], 4, axis=0)
    sure = sure_at_risk = 0
    for P, G, R in potion_states(3000, 11):
        full = ev_rule_weighing_every_chip(P, 0, G, R, SP)
        assert one_step_ev_draws(P, 0, G, R, SP) == full
        if _sure(P, 0, G, R, SP):
            assert full
            sure += 1
            # sure although a white in the bag would explode the pot
            sure_at_risk += any(P[0, L.BAGCNT + t] and P[0, L.F_WHITE] + chips.TYPE_VALUE[t] > 7
                                for t in range(3))
    assert sure > 600 and sure_at_risk > 30, (sure, sure_at_risk)


@njit
def _side(P, s, G, R, SP, bar):
    """``side_of_bar`` with the arguments ``one_step_ev_draws`` gives it (no bowl) but ``bar``."""
    now, flask_v, cv, rv, vv, dv, best = _rule_args(P, s, G, R, SP)
    return side_of_bar(P, s, R, bar, now, P[s, L.F_NBAG], flask_v, cv, rv, vv, dv, best)


@pytest.mark.parametrize("spec", ["expert", "ev", "expert:coin=0"])
def test_the_side_of_the_bar_is_the_rules_side_or_undecided(spec):
    """On random positions, against bars far from and right at the expected value (the rule's
    sum itself, a last bit either side, 1e-12 and 1e-6 relative away), ``side_of_bar`` is 0 or
    the side the rule's own sum is on (fails when its terms or counts by move differ from the
    rule's, or its margin is below the rounding); far from the bar it decides."""
    SP = np.repeat(parse_strategy(spec).params[None], 4, axis=0)
    decided = 0
    for P, G, R in potion_states(1500, 12):
        if P[0, L.F_NBAG] <= 0:
            continue
        exp, _ = ev_rule_sum(P, 0, G, R, SP)
        for bar in (exp, np.nextafter(exp, -np.inf), np.nextafter(exp, np.inf),
                    exp * (1 - 1e-12), exp * (1 + 1e-12), exp - 1e-6 * abs(exp),
                    exp + 1e-6 * abs(exp), exp - 0.5, exp + 0.5):
            side = _side(P, 0, G, R, SP, bar)
            if side != 0:
                assert (side > 0) == (exp > bar), (exp, bar, side)
            decided += abs(side) if abs(bar - exp) >= 0.5 else 0
    assert decided > 2500, decided


# --- one pass over a seat's chips (chip_tally), the tie memo, the pairs best_pair skips --------

def counts_by_hand(types) -> tuple[int, ...]:
    """(w1, w2, w3, blacks, non-white chips, their moves, oranges) of a list of chip types, in
    plain Python (the old passes' tests)."""
    col, val = chips.TYPE_COLOUR, chips.TYPE_VALUE
    w = [sum(t == x for t in types) for x in (chips.W1, chips.W2, chips.W3)]
    nonwhite = [t for t in types if col[t] != chips.WHITE]
    return (*w, sum(col[t] == chips.BLACK for t in nonwhite), len(nonwhite),
            sum(int(val[t]) for t in nonwhite), sum(col[t] == chips.ORANGE for t in nonwhite))


@njit
def _tallies(P, s):
    acc = chip_tally(P, s)
    return (white_black_counts(P, s), (acc >> 32) & 0xFF, (acc >> 48) & 0xFFFF,
            (acc >> 40) & 0xFF)


def test_one_pass_counts_a_seats_chips_as_the_old_passes():
    """Whites by value, blacks, non-white chips, their moves and oranges from ``chip_tally`` equal
    a count by hand on random chip lists up to the 64 chips a seat may hold (fails when a type's
    entry in ``CHIP_TALLY`` is wrong or a count overflows its 8 bits)."""
    rng = np.random.default_rng(5)
    P = np.zeros((1, L.P_WIDTH), dtype=np.int64)
    for n in [0, 1, 9, 30, 64] + list(rng.integers(0, 65, 60)):
        heavy = rng.integers(0, chips.N_TYPES)  # one type often, to fill a count
        types = [int(heavy if rng.random() < 0.5 else rng.integers(0, chips.N_TYPES))
                 for _ in range(n)]
        P[0, L.CHIPS:L.CHIPS + n] = types
        P[0, L.F_NCHIPS] = n
        wb, nonwhite, moves, oranges = _tallies(P, 0)
        want = counts_by_hand(types)
        assert (*wb, nonwhite, moves, oranges) == want[:4] + want[4:], (types, want)


@njit
def _ties(G, seats, sides, ns, ps, ms, qs):
    out = np.empty(len(ns))
    for i in range(len(ns)):
        out[i] = tie_chance(G, seats[i], sides[i], ns[i], ps[i], ms[i], qs[i])
    return out


@njit
def equal_chance_with_comb(n, p, m, q):
    """``equal_chance`` as it was, calling ``comb`` for every term (compiled: the same powers)."""
    out = 0.0
    for j in range(min(n, m) + 1):
        out += comb(n, j) * p ** j * (1 - p) ** (n - j) * comb(m, j) * q ** j * (1 - q) ** (m - j)
    return out


def test_equal_chance_is_the_comb_sum_to_the_last_bit():
    rng = np.random.default_rng(4)
    for n in range(12):
        for m in range(12):
            for p, q in rng.random((4, 2)):
                assert equal_chance(n, p, m, q) == equal_chance_with_comb(n, p, m, q), (n, m, p, q)


def test_the_memo_of_a_tie_chance_is_equal_chance_whatever_came_before():
    """A run of tie chances through the memo, keys often repeated and often changed in one part
    only (a count or one chance's last bit), equals ``equal_chance`` computed afresh to the last
    bit (fails when the key leaves out an argument)."""
    rng = np.random.default_rng(9)
    m = 600
    seats, sides = rng.integers(0, 2, m), rng.integers(0, 2, m)
    ns, ms = rng.integers(0, 4, m), rng.integers(0, 4, m)
    ps = rng.choice([0.3, 0.3 + 2 ** -50, 0.55, 0.7], m)
    qs = rng.choice([0.3, 0.3 + 2 ** -50, 0.55, 0.7], m)
    G = np.zeros(L.G_WIDTH, dtype=np.int64)
    got = _ties(G, seats, sides, ns, ps, ms, qs)
    want = [equal_chance(n, p, k, q) for n, p, k, q in zip(ns, ps, ms, qs, strict=True)]
    assert (got.view(np.int64) == np.array(want).view(np.int64)).all()


@njit
def _weights(G, lefts, horizons):
    out = np.empty(len(lefts))
    for i in range(len(lefts)):
        out[i] = rounds_weight(G, lefts[i], horizons[i])
    return out


def test_the_memo_of_the_rounds_weight_is_the_power_whatever_came_before():
    """A run of rounds' weights through the game row's memo, keys often repeated and often
    changed in one part only (the rounds left, or mg_horizon's last bit), equals
    ``float(left) ** horizon`` computed afresh to the last bit (fails when the key leaves out
    an argument)."""
    rng = np.random.default_rng(11)
    m = 600
    lefts = rng.integers(0, 9, m)
    horizons = rng.choice([1.05, 1.05 + 2 ** -52, 0.9, 1.0], m)
    for i in range(1, m, 3):  # runs of the same key
        lefts[i], horizons[i] = lefts[i - 1], horizons[i - 1]
    G = np.zeros(L.G_WIDTH, dtype=np.int64)
    got = _weights(G, lefts, horizons)
    want = np.array([float(k) ** h for k, h in zip(lefts, horizons, strict=True)])
    assert (got.view(np.int64) == want.view(np.int64)).all()


def best_pair_weighing_every_pair(types, worths, left, price, max_buys):
    """``best_pair`` as it was, every pair weighed (plain Python, the same comparisons)."""
    best_v, b1, b2 = 0.0, -1, -1
    for i, (t, wt) in enumerate(zip(types, worths, strict=True)):
        if wt > best_v + 1e-12 or (b1 >= 0 and b2 < 0 and abs(wt - best_v) <= 1e-12
                                   and price[t] < price[b1]):
            best_v, b1, b2 = wt, t, -1
        if max_buys < 2:
            continue
        for u, wu in zip(types[i + 1:], worths[i + 1:], strict=True):
            if chips.TYPE_COLOUR[u] == chips.TYPE_COLOUR[t] or price[u] > left - price[t]:
                continue
            if wt + wu > best_v + 1e-12:
                best_v, b1, b2 = wt + wu, t, u
    return b1, b2


def test_best_pair_skipping_hopeless_chips_chooses_as_weighing_every_pair():
    """On random lists (worths with near-ties, from a few distinct values) the pair ``best_pair``
    returns is the one weighing every pair returns (fails when a chip is skipped whose pairs could
    still win)."""
    rng = np.random.default_rng(3)
    G = np.zeros(L.G_WIDTH, dtype=np.int64)
    levels = np.array([0.5, 1.0, 1.0 + 1e-13, 1.5, 2.0, 3.0, 3.0 - 5e-13, 4.5])
    for _ in range(3000):
        m = int(rng.integers(0, 16))
        types = sorted(int(t) for t in rng.choice(np.arange(3, chips.N_TYPES), m, replace=False))
        price = rng.integers(1, 20, chips.N_TYPES)
        left = int(rng.integers(max([price[t] for t in types], default=0), 40))
        worths = [float(x) for x in rng.choice(levels, m)]
        for i, (t, w) in enumerate(zip(types, worths, strict=True)):
            G[L.G_BUY_LIST + i], G[L.G_WORTH + i] = t, np.float64(w).view(np.int64)
        max_buys = int(rng.integers(1, 3))
        assert best_pair(G, m, left, price, max_buys) == best_pair_weighing_every_pair(
            types, worths, left, price, max_buys), (types, worths, left, list(price))
