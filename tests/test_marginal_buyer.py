"""The marginal buyer (``buyer=marginal``, ``sim.kernel.decisions.buy_marginal``).

* ``draw_chance``: the chance a non-white chip is drawn before the whites reach the stop total,
  worked out by hand on small bags and against every ordering of the starting bag's whites.
* ``marginal_worth``: worth falls with the rounds left (nothing in the last round) and with more
  whites in the bag; a black chip's worth is the chance it breaks a tie with a neighbour.
* ``decide_buy`` with it: the legal pair of greatest worth, the bigger chip of a colour, and
  nothing in the last round.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from sim.api.rules_array import rules_scalars
from sim.kernel import layout as L
from sim.kernel.decisions import slots as S
from sim.kernel.decisions.buy_marginal import (
    draw_chance,
    equal_chance,
    marginal_context,
    marginal_worth,
)
from sim.kernel.decisions.decide import decide_buy
from sim.kernel.rng import N_STREAMS
from sim.rules import chips
from sim.rules.ruleset import load_ruleset
from strategies.builtin import parse_strategy
from strategies.registry import slot_table

RS = load_ruleset("base", ["cards.deck=false"])
START = "w1x4,w2x2,w3,o1,g1"


@pytest.mark.parametrize("n1,n2,n3,stop,expected", [
    (1, 0, 0, 1, 0.5),  # drawn only if before the one white
    (0, 2, 0, 3, 2 / 3),  # the second w2 stops the potion: before it, 2 gaps of 3
    (1, 0, 0, 5, 1.0),  # the whites never reach 5: every chip is drawn
    (1, 0, 1, 3, 0.5),  # w1 then w3: J = 2; w3 first: J = 1; E[J] = 1.5 over 3 gaps
    (0, 0, 0, 6, 1.0),  # no whites at all
])
def test_draw_chance_by_hand(n1, n2, n3, stop, expected):
    assert draw_chance(n1, n2, n3, stop) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("stop", [3, 6, 7, 9])
def test_draw_chance_over_every_ordering_of_the_starting_whites(stop):
    whites = [1, 1, 1, 1, 2, 2, 3]
    total = Fraction(0)
    orders = list(itertools.permutations(whites))
    for order in orders:
        j, acc = 0, 0
        while j < len(order) and acc < stop:
            acc += order[j]
            j += 1
        if acc < stop:
            j = len(order) + 1  # never reached: everything is drawn
        total += Fraction(j, len(order) + 1)
    assert draw_chance(4, 2, 1, stop) == pytest.approx(float(total / len(orders)), abs=1e-12)


def test_draw_chance_falls_with_whites_and_rises_with_the_stop():
    assert draw_chance(4, 2, 1, 6) > draw_chance(5, 2, 1, 6) > draw_chance(5, 3, 1, 6)
    assert draw_chance(4, 2, 1, 5) < draw_chance(4, 2, 1, 6) < draw_chance(4, 2, 1, 8)


def table(bags: list[str], round_: int, nplayers: int | None = None):
    """P and G for seats owning ``bags`` in ``round_``."""
    n = nplayers or len(bags)
    P = np.zeros((n, L.P_WIDTH), dtype=np.int64)
    for s, bag in enumerate(bags):
        for i, t in enumerate(chips.parse_chips(bag)):
            P[s, L.CHIPS + i] = t
        P[s, L.F_NCHIPS] = len(chips.parse_chips(bag))
    G = np.zeros(L.G_WIDTH, dtype=np.int64)
    G[L.G_ROUND] = round_
    G[L.G_NP] = n
    return P, G


def worth(spec: str, bags: list[str], round_: int, chip: str, seat: int = 0) -> float:
    st = parse_strategy(spec)
    SP = np.repeat(st.params[None], len(bags), axis=0)
    P, G = table(bags, round_)
    ctx = marginal_context(P, seat, G, rules_scalars(RS), SP)
    return marginal_worth(SP, seat, chips.parse_chips(chip)[0], ctx)


def test_worth_by_hand():
    """Round 3 of 9 (6 rounds left), the starting bag, the bag model stopping at 6: a drawn r4
    moves 4 + its pumpkin bonus (one orange drawn with chance f, so f spaces) at 0.5 VP a
    space; worth = 6 x f x (4 + f) x 0.5."""
    f = draw_chance(4, 2, 1, 6)
    got = worth("ev:buyer=marginal", [START], 3, "r4")
    assert got == pytest.approx(6 * f * (4 + f) * 0.5, rel=1e-12)
    # a purple: its 1-space move and 1 VP a draw; a white is never worth buying
    assert worth("ev:buyer=marginal,buy=p1", [START], 3, "p1") == pytest.approx(6 * f * (0.5 + 1.0))
    assert worth("ev:buyer=marginal,buy=p1", [START], 3, "w1") == 0.0


def test_worth_with_the_shape_knobs_by_hand():
    """``mg_horizon`` bends the rounds left, ``mg_size`` the chip's own value, ``worth_red``
    weights every red chip: worth = 0.8 x 6 ** 1.5 x f x (4 ** 1.2 + f) x 0.5 for the r4 of
    ``test_worth_by_hand``; a 1-chip's move stays 1 whatever ``mg_size``."""
    f = draw_chance(4, 2, 1, 6)
    spec = "ev:buyer=marginal,mg_horizon=1.5,mg_size=1.2,worth_red=0.8"
    assert worth(spec, [START], 3, "r4") == pytest.approx(
        0.8 * 6 ** 1.5 * f * (4 ** 1.2 + f) * 0.5, rel=1e-12)
    assert worth(spec + ",buy=o1", [START], 3, "o1") == pytest.approx(6 ** 1.5 * f * 0.5,
                                                                       rel=1e-12)
    assert worth("ev:buyer=marginal,worth_red=0", [START], 3, "r4") == 0.0


def test_worth_falls_with_rounds_and_whites():
    assert (worth("ev:buyer=marginal", [START], 2, "b4")
            > worth("ev:buyer=marginal", [START], 7, "b4"))
    assert worth("ev:buyer=marginal", [START], 9, "b4") == 0.0
    assert worth("ev:buyer=marginal", [START], 3, "b4") > worth("ev:buyer=marginal",
                                                                 [START + ",w3x2"], 3, "b4")


def test_equal_chance_by_hand():
    # X ~ Bin(1, 1/2), Y ~ Bin(2, 1/2): P(X = Y) = P(0, 0) + P(1, 1) = 1/2 x 1/4 + 1/2 x 1/2
    assert equal_chance(1, 0.5, 2, 0.5) == pytest.approx(0.375, abs=1e-15)
    assert equal_chance(0, 0.3, 0, 0.9) == 1.0  # no blacks anywhere: always level
    assert equal_chance(0, 0.5, 3, 1.0) == 0.0  # the neighbour always draws 3


def test_black_is_worth_what_breaking_a_tie_with_the_neighbours_pays():
    """Seat 0's neighbours are seats 3 and 1, all with the starting whites (the same draw chance
    f). A black chip is worth its 1-space move and ``mg_black`` x the mean chance over the
    neighbours that the pots hold as many blacks (one more then wins that comparison)."""
    spec = "ev:buyer=marginal"
    me = START + ",k1"
    f = draw_chance(4, 2, 1, 6)

    def expected(share):
        return 6 * f * (1 * 0.5 + 2.0 * share)

    nobody = worth(spec, [START] * 4, 3, "k1")
    assert nobody == pytest.approx(expected(1.0), rel=1e-12)  # the first black always wins
    ahead = worth(spec, [me, START, START, START], 3, "k1")
    level = worth(spec, [me, me, START, me], 3, "k1")
    behind = worth(spec, [START, START + ",k1x3", START, START + ",k1x3"], 3, "k1")
    assert ahead == pytest.approx(expected(1 - f), rel=1e-12)  # tie only if my black stays in
    assert level == pytest.approx(expected(f * f + (1 - f) ** 2), rel=1e-12)
    assert behind == pytest.approx(expected((1 - f) ** 3), rel=1e-12)
    assert behind < min(ahead, level)  # far behind is worth least


def buys(spec: str, coins: int, round_: int, bag: str = START) -> list[str]:
    st = parse_strategy(spec)
    P, G = table([bag], round_)
    out = np.zeros(8, dtype=np.int64)
    n = decide_buy(P, 0, coins, 2, RS.supply.copy(), RS.price, (RS.price >= 0).astype(np.int64),
                   out,
                   G, rules_scalars(RS), st.kinds[None].copy(), st.params[None].copy(),
                   np.zeros((1, S.SC_WIDTH), dtype=np.int64), np.zeros(N_STREAMS, dtype=np.uint64),
                   slot_table())
    return sorted(chips.chip_name(int(t)) for t in out[:n])


def test_marginal_buyer_spends_on_the_pair_of_greatest_worth():
    """16 coins in round 3: no affordable legal set (one chip, or two of different colours) is
    worth more than what it buys. A chip its buy list leaves out is worth 0 to it, so every chip
    for sale can be put in the comparison."""
    spec = "ev:buyer=marginal"
    got = buys(spec, 16, 3)
    assert 1 <= len(got) <= 2 and len({g[0] for g in got}) == len(got)
    total = sum(worth(spec, [START], 3, g) for g in got)
    for_sale = [chips.chip_name(t) for t in range(chips.N_TYPES) if 0 <= RS.price[t] <= 16]
    for a in for_sale:
        assert total >= worth(spec, [START], 3, a) - 1e-12, (got, a)
    for a, b in itertools.combinations(for_sale, 2):
        ta, tb = chips.parse_chips(a)[0], chips.parse_chips(b)[0]
        if chips.TYPE_COLOUR[ta] != chips.TYPE_COLOUR[tb] and RS.price[ta] + RS.price[tb] <= 16:
            pair = worth(spec, [START], 3, a) + worth(spec, [START], 3, b)
            assert total >= pair - 1e-12, (got, a, b)


def test_marginal_buyer_takes_the_bigger_chip_and_nothing_in_the_last_round():
    assert buys("ev:buyer=marginal,buy=r2>r4", 20, 3) == ["r4"]  # the list order does not matter
    assert buys("ev:buyer=marginal", 30, 9) == []
    assert buys("ev:buyer=marginal", 2, 3) == []  # nothing affordable in the list


def test_a_colour_weight_moves_the_purchase():
    """``worth_blue=0`` never buys a blue chip; ``worth_blue=5`` puts the blue 4 first."""
    assert not any(g.startswith("b") for g in buys("ev:buyer=marginal,worth_blue=0", 20, 3))
    assert buys("ev:buyer=marginal,worth_blue=5", 20, 3) == ["b4"]
