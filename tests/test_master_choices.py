"""master's cards, books and test tube (``choices_by=value``): the worth of each kind of gain
worked out by hand on bags small enough to count (``master_worth``), each choice on both sides
of the worth it weighs, and a slot function's ``BUILT_IN`` answer leaving the choice to the
built-in one (``choices``, ``witch``)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.api.game import play_batch
from sim.api.rules_array import rules_scalars
from sim.kernel import layout as L
from sim.kernel.decisions import slots as S
from sim.kernel.decisions.buy_marginal import draw_chance
from sim.kernel.decisions.choices import dearest
from sim.kernel.decisions.master_choices import (
    book_choice,
    card_choice,
    glass_worth,
    master_book,
    master_card,
    master_tube,
)
from sim.kernel.decisions.master_worth import (
    chip_worth,
    gain_context,
    horizon,
    potion_space_worth,
    ruby_worth,
    space_worth,
    white_removal_worth,
)
from sim.rules import chips
from sim.rules.book_numbers import question_number
from sim.rules.ruleset import load_ruleset
from strategies.builtin import parse_strategy
from strategies.registry import register

W1, W2, W3, O1, B1, B2, G2, R2, Y1, Y2, K1, P1 = (
    chips.parse_chips(x)[0] for x in ("w1", "w2", "w3", "o1", "b1", "b2", "g2", "r2", "y1", "y2",
                                      "k1", "p1"))
# the hand-worked values below use these buyer values (master's defaults before the retune)
PINNED = "mg_space=0.51,mg_stop=6.8,buys=1.5,mg_black=3.21,mg_yellow=1.21,mg_size=1,mg_horizon=1"
SPACE = 0.51 * 1.5  # PINNED's mg_space x buys: one space's move in one potion, in VP
RUBY = 1.11  # master's ruby


def _seat(round_, bag, *, brewed=0, rubies=0, rules=None):
    """Seat 0 of four in ``round_`` owning ``bag`` (chip types); the others own nothing; the
    supply has 10 of every chip."""
    R = rules_scalars(load_ruleset("base", rules or []))
    P = np.zeros((4, L.P_WIDTH), dtype=np.int64)
    G = np.zeros(L.G_WIDTH, dtype=np.int64)
    G[L.G_NP] = 4
    G[L.G_ROUND] = round_
    G[L.G_BREWED] = brewed
    G[L.G_SUPPLY:L.G_SUPPLY + chips.N_TYPES] = 10
    P[0, L.F_NCHIPS] = len(bag)
    P[0, L.CHIPS:L.CHIPS + len(bag)] = bag
    P[0, L.F_RUBIES] = rubies
    st = parse_strategy("master:model=none," + PINNED)
    SP = np.zeros((4,) + st.params.shape)
    SP[:] = st.params
    return P, G, R, SP


# whites 1 + 1 + 2 = 4 never reach PINNED's stop total (6.8): a non-white chip is always drawn
SURE = [W1, W1, W2, O1, O1]
# three white 3s: the first two (6) stay below 6.8, the third reaches it: E[J] = 3 of 4 places
RISKY = [W3, W3, W3, O1, O1]


def test_horizon_counts_this_rounds_potion_until_it_is_brewed():
    for round_, brewed, h in ((3, 0, 7), (3, 1, 6), (9, 0, 1), (9, 1, 0)):
        _, G, R, _ = _seat(round_, SURE, brewed=brewed)
        assert horizon(G, R) == h


def test_chips_and_spaces_are_worth_their_moves_over_the_potions_left():
    P, G, R, SP = _seat(3, SURE)  # 7 potions, every non-white drawn (f = 1), mean move 1
    ctx = gain_context(P, 0, G, R, SP)
    assert ctx[:2] == (7.0, pytest.approx(1.0))
    assert chip_worth(SP, 0, O1, ctx) == pytest.approx(7 * 1 * SPACE)
    assert chip_worth(SP, 0, B1, ctx) == pytest.approx(7 * (1 + 1) * SPACE)  # + the mean move
    assert chip_worth(SP, 0, W1, ctx) == 0.0
    assert space_worth(SP, 0, ctx, 2) == pytest.approx(2 * 7 * SPACE)
    assert potion_space_worth(SP, 0, 3) == pytest.approx(3 * SPACE)
    P, G, R, SP = _seat(3, RISKY)
    ctx = gain_context(P, 0, G, R, SP)
    assert ctx[1] == pytest.approx(3 / 4)
    assert chip_worth(SP, 0, O1, ctx) == pytest.approx(7 * 0.75 * SPACE)


def test_rubies_are_worth_ruby_until_the_last_round_pays_the_exchange():
    P, G, R, SP = _seat(8, SURE, rubies=1)
    assert ruby_worth(P, 0, G, R, SP, 3) == pytest.approx(3 * RUBY)
    assert ruby_worth(P, 0, G, R, SP, -1) == pytest.approx(-RUBY)
    # round 9, 2 rubies a VP: from 1 ruby, +1 makes a pair (1 VP), +2 still one pair
    P, G, R, SP = _seat(9, SURE, rubies=1)
    assert [ruby_worth(P, 0, G, R, SP, n) for n in (1, 2, 3)] == [1.0, 1.0, 2.0]
    P, G, R, SP = _seat(9, SURE, rubies=3)
    assert ruby_worth(P, 0, G, R, SP, -1) == 0.0  # 3 -> 2 rubies: still one VP
    P, G, R, SP = _seat(9, SURE, rubies=2)
    assert ruby_worth(P, 0, G, R, SP, -1) == -1.0


def test_a_white_out_of_the_bag_is_worth_the_draws_it_frees():
    # RISKY, round 3 (7 potions): a non-white is drawn with chance 3/4; with one w3 fewer the
    # two left (6) never reach 6.8, so always. Each owned chip is worth 0.75 x SPACE a potion;
    # chip-potions: 2 owned x 7 + 2 bought a round x 7 x 6 / 2 = 56
    P, G, R, SP = _seat(3, RISKY)
    assert draw_chance(0, 0, 2, 6.8) == pytest.approx(1.0)
    expected = (1 / 0.75 - 1) * 0.75 * SPACE * (2 * 7 + 2 * 7 * 6 / 2)
    assert white_removal_worth(P, 0, G, R, SP, W3) == pytest.approx(expected)
    assert white_removal_worth(P, 0, G, R, SP, W1) == 0.0  # it owns none
    P, G, R, SP = _seat(3, SURE)  # whites that never stop a potion: nothing to free
    assert white_removal_worth(P, 0, G, R, SP, W1) == pytest.approx(0.0)


def test_just_in_time_takes_the_white_out_when_it_frees_more_than_4_vp():
    bag = [W1, W3, W3, W3, O1, O1]
    P, G, R, SP = _seat(1, bag)  # 9 potions to come
    assert white_removal_worth(P, 0, G, R, SP, W1) > 4
    assert card_choice(P, 0, S.CARD_JUST_IN_TIME, 1, G, R, SP) == W1
    assert card_choice(P, 0, S.CARD_JUST_IN_TIME, 0, G, R, SP) == -1  # no white 1 to take
    P, G, R, SP = _seat(9, bag)  # the last potion only
    assert 0 < white_removal_worth(P, 0, G, R, SP, W1) < 4
    assert card_choice(P, 0, S.CARD_JUST_IN_TIME, 1, G, R, SP) == -1


def test_choose_one_takes_the_chip_worth_most_or_the_rubies():
    # SURE, round 3: a k1 breaks every tie with the empty neighbours (3.21 + its move 0.51 a
    # potion) and is worth most: 7 x (0.51 + 3.21) x 1.5 = 39.1 VP against 3 rubies (3.33)
    P, G, R, SP = _seat(3, SURE)
    assert card_choice(P, 0, S.CARD_CHOOSE_ONE, 0, G, R, SP) == K1
    G[L.G_SUPPLY + K1] = 0  # then the 2-chip worth most: y2 (2 + 1.21 spaces a potion)
    assert card_choice(P, 0, S.CARD_CHOOSE_ONE, 0, G, R, SP) == Y2
    G[L.G_ROUND] = 1  # yellow's book is not out yet: b2 and r2 tie at 2 + 1 spaces; b2 first
    assert card_choice(P, 0, S.CARD_CHOOSE_ONE, 0, G, R, SP) == B2
    SP[0, S.SLOT_STOP, S.P_LEAF_BUYS] = 0.05  # chips worth 1/30 as much: the rubies
    assert card_choice(P, 0, S.CARD_CHOOSE_ONE, 0, G, R, SP) == S.CARD_TAKE_OTHER


def test_rats_friends_takes_the_dearest_4_chip_when_it_is_worth_more_than_the_tails():
    P, G, R, SP = _seat(3, SURE)
    best = dearest(G, R, 0, chips.N_TYPES, 4)
    worth = chip_worth(SP, 0, best, gain_context(P, 0, G, R, SP))
    assert card_choice(P, 0, S.CARD_RATS_FRIENDS, int(worth), G, R, SP) == best
    assert card_choice(P, 0, S.CARD_RATS_FRIENDS, int(worth) + 1, G, R, SP) == S.CARD_TAKE_OTHER
    G[L.G_SUPPLY:L.G_SUPPLY + chips.N_TYPES] = 0  # no 4-chip left: the VP
    assert card_choice(P, 0, S.CARD_RATS_FRIENDS, 0, G, R, SP) == S.CARD_TAKE_OTHER


def test_choose_wisely_weighs_the_purple_chip_against_two_spaces_for_good():
    P, G, R, SP = _seat(3, SURE)  # p1: 7 x (0.51 + 0.96) x 1.5 = 15.4 against 2 x 7 x SPACE
    assert card_choice(P, 0, S.CARD_CHOOSE_WISELY, 0, G, R, SP) == P1
    SP[0, S.SLOT_BUY, S.P_MG_PURPLE] = 0.0  # the purple only moves: 5.4 against 10.7
    assert card_choice(P, 0, S.CARD_CHOOSE_WISELY, 0, G, R, SP) == 0
    P, G, R, SP = _seat(2, SURE)  # purple's book is out from round 3
    assert card_choice(P, 0, S.CARD_CHOOSE_WISELY, 0, G, R, SP) == 0


def test_good_start_trades_tails_for_rubies_while_a_ruby_is_worth_more_than_a_space():
    P, G, R, SP = _seat(3, SURE)  # 1.11 a ruby against 0.765 a space of this potion
    assert card_choice(P, 0, S.CARD_GOOD_START, 2, G, R, SP) == 2
    assert card_choice(P, 0, S.CARD_GOOD_START, 5, G, R, SP) == 3
    SP[0, S.SLOT_STOP, S.P_RUBY_VALUE] = 0.5
    assert card_choice(P, 0, S.CARD_GOOD_START, 5, G, R, SP) == 0
    # the last round pays 1 VP for 2 rubies: holding 1, one tail makes a pair (1 - 0.765 > 0),
    # three make two (2 - 2.295 < 0); holding none, nothing pays
    P, G, R, SP = _seat(9, SURE, rubies=1)
    assert card_choice(P, 0, S.CARD_GOOD_START, 5, G, R, SP) == 1
    P, G, R, SP = _seat(9, SURE, rubies=0)
    assert card_choice(P, 0, S.CARD_GOOD_START, 5, G, R, SP) == 0


def test_wheel_and_deal_buys_the_1_chip_worth_most_for_a_ruby():
    P, G, R, SP = _seat(3, SURE)  # y1: 7 x (1 + 1.21) x SPACE, the most of o1 g1 b1 r1 y1
    assert card_choice(P, 0, S.CARD_WHEEL_AND_DEAL, 1, G, R, SP) == Y1
    assert card_choice(P, 0, S.CARD_WHEEL_AND_DEAL, 0, G, R, SP) == -1  # no ruby
    SP[0, S.SLOT_STOP, S.P_LEAF_BUYS] = 0.05
    assert card_choice(P, 0, S.CARD_WHEEL_AND_DEAL, 1, G, R, SP) == -1


def test_schadenfreude_takes_the_2_chip_worth_most():
    P, G, R, SP = _seat(3, SURE)
    assert card_choice(P, 0, S.CARD_SCHADENFREUDE, 1, G, R, SP) == Y2
    G[L.G_SUPPLY:L.G_SUPPLY + chips.N_TYPES] = 0  # none to take: the card's own answer
    assert card_choice(P, 0, S.CARD_SCHADENFREUDE, 1, G, R, SP) == S.BUILT_IN


@pytest.mark.parametrize("card", [S.CARD_OPPORTUNISTIC, S.CARD_WELL_STIRRED,
                                  S.CARD_SECOND_CHANCE, S.CARD_STRONG_INGREDIENT])
def test_cards_without_a_value_answer_are_left_to_the_built_in(card):
    P, G, R, SP = _seat(3, SURE)
    assert master_card(P, 0, G, R, SP, card, 1, np.zeros(1)) == S.BUILT_IN


def test_books_weigh_a_ruby_against_the_spaces_it_buys():
    P, G, R, SP = _seat(3, SURE, rubies=2)  # green: 1 space for good, 7 x 0.765 > 1.11
    assert book_choice(P, 0, question_number("green-ruby"), 0, G, R, SP) == 1
    P, G, R, SP = _seat(9, SURE, rubies=2)  # the last potion: 0.765 < the pair's 1 VP
    assert book_choice(P, 0, question_number("green-ruby"), 0, G, R, SP) == 0
    P, G, R, SP = _seat(3, SURE, rubies=2)  # yellow: 3 spaces now, 2.295 > 1.11
    assert book_choice(P, 0, question_number("yellow-ruby"), 0, G, R, SP) == 1
    SP[0, S.SLOT_STOP, S.P_RUBY_VALUE] = 2.5
    assert book_choice(P, 0, question_number("yellow-ruby"), 0, G, R, SP) == 0
    assert master_book(P, 0, G, R, SP, question_number("red-place"), 0, np.zeros(1)) == S.BUILT_IN


def test_purple_upgrade_takes_the_pot_chip_that_gains_most():
    P, G, R, SP = _seat(3, SURE + [B1])
    P[0, L.POT_T:L.POT_T + 2] = (O1, B1)  # orange never upgrades; b1 -> b2 at tier 1
    P[0, L.F_NPOT] = 2
    assert book_choice(P, 0, question_number("purple-upgrade"), 1, G, R, SP) == 1 * 32 + B1
    G[L.G_SUPPLY + B2] = 0
    assert book_choice(P, 0, question_number("purple-upgrade"), 1, G, R, SP) == -1


def test_the_tube_droplet_goes_for_a_bonus_worth_more_than_a_space_for_good():
    P, G, R, SP = _seat(3, SURE)  # a space for good: 7 x 0.765 = 5.36
    R[L.R_TUBE_GLASS + 4] = L.TUBE_VP + 6
    R[L.R_TUBE_GLASS + 5] = L.TUBE_VP + 5
    R[L.R_TUBE_GLASS + 6] = L.TUBE_RUBY + 2  # 2.22
    R[L.R_TUBE_GLASS + 7] = B1  # a b1: 10.7
    assert glass_worth(P, 0, G, R, SP, R[L.R_TUBE_GLASS + 6]) == pytest.approx(2 * RUBY)
    assert [master_tube(P, 0, G, R, SP, a, 0, np.zeros(1)) for a in (4, 5, 6, 7)] == [1, 0, 0, 1]


def test_choices_by_sets_the_card_book_and_tube_slots():
    master = parse_strategy("master")
    assert master.kinds[S.SLOT_CARD] == S.USER_BASE + S.UF_MASTER_CARD
    assert master.kinds[S.SLOT_BOOK] == S.USER_BASE + S.UF_MASTER_BOOK
    assert master.kinds[S.SLOT_TUBE] == S.USER_BASE + S.UF_MASTER_TUBE
    rule, expert = parse_strategy("master:choices_by=rule"), parse_strategy("expert")
    for slot in (S.SLOT_CARD, S.SLOT_BOOK, S.SLOT_TUBE):
        assert rule.kinds[slot] == expert.kinds[slot]
    assert parse_strategy("master:tube=pot").kinds[S.SLOT_TUBE] < S.USER_BASE


def _leave_it(P, s, G, R, SP, a, b, M):
    return -1000  # BUILT_IN


def _always_other(P, s, G, R, SP, a, b, M):
    return 99  # CARD_TAKE_OTHER: Rats Friends' VP, Choose One's rubies, ...


def _wins(strategy, rules, games=150):
    rs = load_ruleset(rules[0], rules[1:])
    idx = np.arange(games, dtype=np.int64)
    lineup = [parse_strategy(strategy)] + [parse_strategy("balanced")] * 3
    return play_batch(rs, lineup, games=idx, rotations=idx % 4, seed=7).out


def test_a_slot_function_answering_built_in_plays_the_built_in_answers():
    assert S.BUILT_IN == -1000
    register("leave-it-mc", "BUILT_IN everywhere", fallback="expert", card=_leave_it,
             book=_leave_it, witch=_leave_it)
    register("other-mc", "CARD_TAKE_OTHER", fallback="expert", card=_always_other)
    kinds = parse_strategy("leave-it-mc").kinds
    assert all(kinds[k] >= S.USER_BASE for k in (S.SLOT_CARD, S.SLOT_BOOK, S.SLOT_WITCH))
    for rules in (["base"], ["base", "books.all=2"], ["herb-witches"]):
        assert np.array_equal(_wins("leave-it-mc", rules), _wins("expert", rules)), rules
    assert not np.array_equal(_wins("other-mc", ["base"]), _wins("expert", ["base"]))
