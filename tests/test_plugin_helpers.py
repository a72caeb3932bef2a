"""The helper functions a slot function may call (strategies.helpers_nb), each against a state
set up by hand, and the README's example strategy, which uses them."""

from __future__ import annotations

import numpy as np
import pytest

from sim.api.rules_array import rules_scalars
from sim.kernel import layout as L
from sim.kernel.bag import add_chip, reset_potion
from sim.rules import chips
from sim.rules.ruleset import load_ruleset
from strategies import helpers_nb as H

RS = load_ruleset("base")


def state():
    """Two players; seat 0's bag w1 w1 w3 o1 r2 (the pot holds w2 on 3, w1 on 4), white total
    3, limit 7, 2 rubies, droplet 4, flask empty, 20 VP; seat 1 has 27 VP."""
    P = np.zeros((2, L.P_WIDTH), dtype=np.int64)
    for name in ("w1", "w1", "w3", "o1", "r2"):
        add_chip(P, 0, chips.parse_chips(name)[0])
    reset_potion(P, 0, 0, 7)  # every chip into the bag
    P[0, L.F_WHITE], P[0, L.F_LIMIT] = 3, 7
    P[0, L.F_RUBIES], P[0, L.F_DROPLET], P[0, L.F_SCORE], P[1, L.F_SCORE] = 2, 4, 20, 27
    P[0, L.F_NPOT] = 2
    P[0, L.POT_T], P[0, L.POT_P] = chips.W2, 3
    P[0, L.POT_T + 1], P[0, L.POT_P + 1] = chips.W1, 4
    G = np.zeros(L.G_WIDTH, dtype=np.int64)
    G[L.G_NP], G[L.G_ROUND], G[L.G_SEEN] = 2, 6, 0b10
    return P, G, rules_scalars(RS)


def test_bag_and_pot_helpers():
    P, G, R = state()
    assert H.white_total(P, 0) == 3 and H.explosion_limit(P, 0) == 7
    assert H.chips_in_bag(P, 0) == 5
    assert H.in_bag(P, 0, chips.W1) == 2 and H.in_bag(P, 0, chips.W2) == 0
    assert H.colour_in_bag(P, 0, chips.WHITE) == 3 and H.colour_in_bag(P, 0, chips.RED) == 1
    # white total 3, limit 7: even the w3 (3 + 3 = 6) is safe
    assert H.explosion_chance(P, 0) == 0.0
    P[0, L.F_WHITE] = 5  # now the w3 (5 + 3 = 8 > 7) explodes: 1 chip of 5
    assert H.explosion_chance(P, 0) == pytest.approx(1 / 5)
    P[0, L.F_WHITE] = 7  # every white explodes: 3 of 5
    assert H.explosion_chance(P, 0) == pytest.approx(3 / 5)
    assert H.reward_space(P, 0) == 5  # the space after the last chip (4)
    assert not H.flask_full(P, 0) and H.rubies(P, 0) == 2 and H.droplet(P, 0) == 4


def test_track_helpers():
    R = rules_scalars(RS)
    # component-data.md section 2: space 9 pays 9 coins, 1 VP and shows a ruby; space 10 2 VP
    assert (H.space_coins(R, 9), H.space_vp(R, 9), H.space_ruby(R, 9)) == (9, 1, 1)
    assert (H.space_coins(R, 10), H.space_vp(R, 10), H.space_ruby(R, 10)) == (10, 2, 0)


def test_game_helpers():
    P, G, R = state()
    assert H.score(P, 0) == 20 and H.best_other_score(P, 0, G) == 27
    assert H.score_gap(P, 0, G) == -7 and H.score_gap(P, 1, G) == 7
    assert H.round_number(G) == 6 and H.rounds_left(G, R) == 3 and H.players(G) == 2
    assert H.potion_seen(G, 1) and not H.potion_seen(G, 0)


def test_can_buy():
    P, G, R = state()
    r4, y4 = chips.parse_chips("r4")[0], chips.parse_chips("y4")[0]
    G[L.G_AVAIL + r4], G[L.G_SUPPLY + r4] = 1, 3
    assert H.can_buy(G, R, r4, 16, 0)  # Set 1 price of r4: 16
    assert not H.can_buy(G, R, r4, 15, 0)  # too dear
    assert not H.can_buy(G, R, r4, 16, 1 << chips.RED)  # a red bought already
    assert not H.can_buy(G, R, y4, 30, 0)  # not for sale this round
    G[L.G_SUPPLY + r4] = 0
    assert not H.can_buy(G, R, r4, 16, 0)  # sold out
    assert not H.can_buy(G, R, -1, 16, 0) and not H.can_buy(G, R, chips.N_TYPES, 99, 0)



def test_param_is_the_raw_custom_read():
    from sim.kernel.decisions.slots import N_SLOTS, PARAM_WIDTH, SLOT_CUSTOM

    SP = np.arange(2 * N_SLOTS * PARAM_WIDTH, dtype=np.float64).reshape(2, N_SLOTS, PARAM_WIDTH)
    for s in (0, 1):
        for i in (0, 1, 5, PARAM_WIDTH - 1):
            assert H.param(SP, s, i) == SP[s, SLOT_CUSTOM, i]


def test_pot_and_look_helpers_are_the_raw_reads():
    P, G, R = state()
    P[0, L.LOOK_T:L.LOOK_T + 4] = [5, 7, 9, 11]
    P[1, L.CARD_LOOK:L.CARD_LOOK + 5] = [1, 2, 3, 4, 6]
    P[1, L.WITCH_LOOK:L.WITCH_LOOK + 6] = [12, 13, 14, 15, 16, 17]
    assert H.pot_size(P, 0) == P[0, L.F_NPOT] == 2
    assert [H.pot_chip(P, 0, k) for k in range(2)] == [chips.W2, chips.W1]
    assert [H.pot_space(P, 0, k) for k in range(2)] == [3, 4]
    for s in (0, 1):
        assert [H.looked_at(P, s, i) for i in range(4)] == list(P[s, L.LOOK_T:L.LOOK_T + 4])
        assert [H.card_look(P, s, i) for i in range(5)] == list(P[s, L.CARD_LOOK:L.CARD_LOOK + 5])
        assert [H.witch_look(P, s, i) for i in range(6)] == \
            list(P[s, L.WITCH_LOOK:L.WITCH_LOOK + 6])
    G[L.G_CARD] = 7
    assert H.round_card(G) == 7
    assert [H.colour_of(t) for t in range(chips.N_TYPES)] == list(chips.TYPE_COLOUR)


def test_buy_helpers_are_the_raw_reads_and_writes():
    P, G, R = state()
    G[L.G_SUPPLY:L.G_SUPPLY + chips.N_TYPES] = np.arange(chips.N_TYPES)
    G[L.G_AVAIL + 3] = 1
    for t in range(chips.N_TYPES):
        assert H.supply(G, t) == G[L.G_SUPPLY + t]
        assert H.for_sale(G, t) == (G[L.G_AVAIL + t] != 0)
        assert H.price(R, t) == R[L.R_PRICE + t]
    H.write_purchase(G, 0, 13)
    H.write_purchase(G, 1, 10)
    assert list(G[L.G_OUT:L.G_OUT + 2]) == [13, 10]
    assert (H.purchase(G, 0), H.purchase(G, 1)) == (13, 10)


def _raw_buy(SP, s, G, R, i, coins, max_chips):
    """The buy loop over a chip list written with raw offsets (what ``buy_list`` replaces)."""
    from sim.kernel.decisions.slots import SLOT_CUSTOM

    code, n, used = int(SP[s, SLOT_CUSTOM, i]), 0, 0
    while code > 0 and n < max_chips:
        t = code % 21 - 1
        code //= 21
        c = chips.TYPE_COLOUR[t]
        if (G[L.G_AVAIL + t] and G[L.G_SUPPLY + t] > 0 and not (used >> c) & 1
                and 0 <= R[L.R_PRICE + t] <= coins):
            G[L.G_OUT + n] = t
            n += 1
            coins -= R[L.R_PRICE + t]
            used |= 1 << c
    return n


@pytest.mark.parametrize("listed,coins,max_chips", [
    ("r4,b4,o1", 30, 2), ("r4,r2,b2,o1", 20, 2), ("r4,b4", 10, 2), ("o1,o1,g1", 8, 3),
    ("y4,o1", 40, 1), ("b2", 0, 2),
])
def test_buy_list_is_the_raw_buy_loop(listed, coins, max_chips):
    from sim.kernel.decisions.slots import N_SLOTS, PARAM_WIDTH, SLOT_CUSTOM
    from strategies.registry import encode_chip_list

    _, G, R = state()
    for t in range(chips.N_TYPES):  # Set 1 books out, yellow not yet; two r4 left
        G[L.G_AVAIL + t] = int(chips.TYPE_COLOUR[t] != chips.YELLOW and R[L.R_PRICE + t] >= 0)
        G[L.G_SUPPLY + t] = 2 if t == chips.parse_chips("r4")[0] else 5
    SP = np.zeros((2, N_SLOTS, PARAM_WIDTH))
    SP[1, SLOT_CUSTOM, 3] = encode_chip_list(listed.split(","), "test")
    G2 = G.copy()
    n = H.buy_list(SP, 1, G, R, 3, coins, max_chips)
    assert n == _raw_buy(SP, 1, G2, R, 3, coins, max_chips)
    assert list(G[L.G_OUT:L.G_OUT + n]) == list(G2[L.G_OUT:L.G_OUT + n])
    assert (G == G2).all()


def test_buy_list_expectations():
    from sim.kernel.decisions.slots import N_SLOTS, PARAM_WIDTH, SLOT_CUSTOM
    from strategies.registry import encode_chip_list

    _, G, R = state()
    G[L.G_AVAIL:L.G_AVAIL + chips.N_TYPES] = 1
    G[L.G_SUPPLY:L.G_SUPPLY + chips.N_TYPES] = 5
    SP = np.zeros((1, N_SLOTS, PARAM_WIDTH))
    SP[0, SLOT_CUSTOM, 0] = encode_chip_list(["r4", "r2", "b2", "o1"], "test")
    # 20 coins: r4 (16), then r2 is red again, b2 (5) too dear with 4 left, o1 (3)
    assert H.buy_list(SP, 0, G, R, 0, 20, 2) == 2
    assert list(G[L.G_OUT:L.G_OUT + 2]) == [chips.parse_chips("r4")[0], chips.O1]


PREFER_FILE = '''
from strategies.builtin import Param
from strategies.helpers_nb import buy_list
from strategies.registry import register


def buy(P, s, G, R, SP, a, b, M):
    # the first affordable legal chips of the list, in order
    return buy_list(SP, s, G, R, 0, a, b)


register("ut-prefer", "Buys from its own chip list.", fallback="balanced", buy=buy,
         params=[Param("prefer", "chips", ["o1"], help="chips to buy, best first")])
'''


def test_chip_list_parameters_reach_the_slot_function(tmp_path):
    from sim.api.game import play_batch
    from sim.kernel.decisions.slots import SLOT_CUSTOM
    from sim.kernel.records import O_BOUGHT, O_ERR
    from strategies.builtin import parse_strategy
    from strategies.registry import load_strategy_file

    p = tmp_path / "prefer.py"
    p.write_text(PREFER_FILE)
    load_strategy_file(p)
    st = parse_strategy("ut-prefer:prefer=k1>blue>o1")
    SP = st.params[None]
    want = [chips.parse_chips(x)[0] for x in ("k1", "b4", "b2", "b1", "o1")]
    assert [H.chip_at(SP, 0, 0, k) for k in range(6)] == [*want, -1]
    assert H.chip_rank(SP, 0, 0, chips.parse_chips("b2")[0]) == 2
    assert H.chip_rank(SP, 0, 0, chips.parse_chips("r4")[0]) == -1
    assert SP[0, SLOT_CUSTOM, 0] == sum((t + 1) * 21**k for k, t in enumerate(want))
    idx = np.arange(200, dtype=np.int64)
    res = play_batch(RS, [st, parse_strategy("balanced")], games=idx, rotations=idx % 2, seed=3)
    mine = res.out[res.seat_strategy() == 0]
    assert (mine[:, O_ERR] == 0).all()
    bought = mine[:, O_BOUGHT:O_BOUGHT + chips.N_COLOURS].sum(axis=0)
    listed = {chips.BLACK, chips.BLUE, chips.ORANGE}
    assert all(bought[c] == 0 for c in range(chips.N_COLOURS) if c not in listed)
    assert bought[chips.BLACK] > 0 and bought[chips.BLUE] > 0


def test_chip_lists_are_limited():
    from strategies.builtin import StrategySpecError
    from strategies.registry import encode_chip_list

    assert encode_chip_list(["w1"], "x") == 1.0
    with pytest.raises(StrategySpecError, match="at most 12"):
        encode_chip_list(["o1"] * 13, "x")
