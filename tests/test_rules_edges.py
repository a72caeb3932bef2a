"""Rules edges settled after an audit (decisions.md, "Readings settled after an independent
audit"), one scripted round each, worked out by hand:

- a fortune card's draws carry no risk: A Second Chance's first five chips never explode the pot;
  a pot they leave over the limit may stop intact, restart, or draw on and explode on the next
  ordinary draw, whatever the chip;
- every chip placed past the last space goes to the overflow bowl (Strong Ingredient's chip, a red
  Set 2 chip from beside the pot, a held red Set 6 chip);
- A Second Chance's restart puts everything of the abandoned potion back (red Set 2 chips set
  aside during it, held red Set 6 chips) and places green Set 5 picks first again;
- a held red Set 6 chip is placed by the same path as a drawn one (Pumpkin Patch Party's +1), and
  may be placed before any later draw, with its action;
- locoweed Set 5's cap of 4 comes after yellow Set 2's doubling;
- every extra distance may be declined (red Set 4's white 1, yellow Sets 2, 4, 5).

Pot track (index: coins / VP, R = ruby): 1-5: coins = index, 0 VP (5 R); 6-9: 1 VP (9 R); 10-13:
2 VP (13 R); 51-52: 33 coins, 14 VP (52 R); 53 (the spoon): 35 coins, 15 VP. Bags print in kernel
type order.
"""

from __future__ import annotations

import pytest
from round_helpers import events, play_round, spots

from sim.api.round_file import RoundFileError

QUIET = {"bag": "w1", "draws": "w1"}  # places w1 on space 1 (reward 2)
play = play_round


def seats(*args, **kw):
    return play(*args, **kw)["players"]


# --- A Second Chance: the card's five chips carry no risk --------------------------------------

def test_second_chance_five_card_draws_never_explode_and_the_pot_may_stop_over_the_limit():
    # w3 -> 3, w3 -> 6, w2 -> 8 (white 8 > 7: no explosion, a card draw), o1 -> 9, o1 -> 10. The
    # card asks; the seat goes on, then stops (its draws end): intact, reward space 11 (white 8).
    res = play(1, {"bag": "w3x2,w2,o1x2", "draws": "w3,w3,w2,o1,o1", "card_choice": False}, QUIET,
               card="a-second-chance")
    out = res["players"][0]
    assert spots(out) == [("w3", 3), ("w3", 6), ("w2", 8), ("o1", 9), ("o1", 10)]
    assert not out["exploded"] and out["reward_space"] == 11
    assert events(res, "explode") == []


def test_second_chance_a_pot_over_the_limit_explodes_on_the_next_ordinary_draw():
    # As above, then one more draw: an o1 (not white) -> 11. The white total 8 is over the limit,
    # so this ordinary draw explodes the pot.
    out = seats(1, {"bag": "w3x2,w2,o1x3", "draws": "w3,w3,w2,o1,o1,o1", "card_choice": False},
                QUIET, card="a-second-chance")[0]
    assert spots(out)[-1] == ("o1", 11) and out["exploded"]


def test_second_chance_before_the_fifth_chip_nothing_explodes():
    # w3, w3, w2, o1: four chips (3, 6, 8, 9), white 8: no explosion, and no question yet (it
    # comes after the fifth chip). The draws end: stopped intact, reward 10. Without the card the
    # same draws explode on the w2.
    out = seats(1, {"bag": "w3x2,w2,o1", "draws": "w3,w3,w2,o1"}, QUIET, card="a-second-chance")[0]
    assert spots(out) == [("w3", 3), ("w3", 6), ("w2", 8), ("o1", 9)] and not out["exploded"]
    assert out["reward_space"] == 10
    out = seats(1, {"bag": "w3x2,w2,o1", "draws": "w3,w3,w2"}, QUIET)[0]
    assert out["exploded"]


def test_second_chance_restart_over_the_limit_is_the_default():
    # Five card draws leave white 8: the default restarts (over the limit); the restarted potion
    # draws o1 -> 1 (an ordinary draw from a full bag again).
    out = seats(1, {"bag": "w3x2,w2,o1x3", "draws": "w3,w3,w2,o1,o1,o1"}, QUIET,
                card="a-second-chance")[0]
    assert spots(out) == [("o1", 1)] and not out["exploded"] and out["bag"] == "w2,w3x2,o1x3"


def test_second_chance_the_restarted_potion_carries_risk():
    # Five chips, white 6 (>= limit - 1): restart by default. Then w3 -> 3, w3 -> 6, w2 -> 8:
    # ordinary draws, white 8: explodes.
    out = seats(1, {"bag": "w3x2,w2,o1x2", "draws": "w3,w3,o1,o1,w2,w3,w3,w2"}, QUIET,
                card="a-second-chance")[0]
    assert spots(out) == [("w3", 3), ("w3", 6), ("w2", 8)] and out["exploded"]


# --- the overflow bowl takes every chip placed past the last space ------------------------------

def test_strong_ingredient_chip_goes_to_the_bowl_past_the_last_space():
    # Herb Witches, droplet 50: o1 -> 51, o1 -> 52, stop. Strong Ingredient draws g4 and places it:
    # the pot is on the last space, so into the bowl (value 4: 2 VP); reward stays the spoon (53).
    # Before the fix it was stacked on 52 and its bowl VP lost.
    res = play(1, {"bag": "o1x2,g4", "draws": "o1,o1", "droplet": 50, "card_draws": "g4",
                   "card_choice": "g4"}, QUIET, rules="herb-witches", card="strong-ingredient")
    out = res["players"][0]
    assert spots(out) == [("o1", 51), ("o1", 52)]
    assert out["bowl"] == {"chips": ["g4"], "value": 4, "vp": 2} and out["reward_space"] == 53
    assert out["vp_gained"] == 15 + 2 + 1  # the spoon, the bowl, the die (vp1: furthest pot)


def test_strong_ingredient_white_in_the_bowl_counts_but_never_explodes():
    # o1 -> 51, w3 -> 54? no: w3 -> 52 (capped, white 3), stop. The card's w3 goes into the bowl:
    # white 6, still no explosion (a card's draw).
    out = seats(1, {"bag": "o1,w3x2", "draws": "o1,w3", "droplet": 50, "card_draws": "w3",
                    "card_choice": "w3"}, QUIET, rules="herb-witches", card="strong-ingredient")[0]
    assert out["bowl"] == {"chips": ["w3"], "value": 3, "vp": 1} and not out["exploded"]


def test_red_set_2_chip_from_beside_the_pot_goes_to_the_bowl_past_the_last_space():
    # Herb Witches, red Set 2, droplet 50: r2 set beside the pot, o1 -> 51, o1 -> 52, stop. The r2
    # placed from beside the pot goes into the bowl (value 2: 1 VP).
    res = play(1, {"bag": "r2,o1x2", "draws": "r2,o1,o1", "droplet": 50, "red_after": ["place"]},
               QUIET, rules="herb-witches", sets=["books.red=2"])
    out = res["players"][0]
    assert spots(out) == [("o1", 51), ("o1", 52)]
    assert out["bowl"] == {"chips": ["r2"], "value": 2, "vp": 1}
    assert events(res, "red_after")[0]["action"] == "bowl"


def test_held_red_set_6_chip_goes_to_the_bowl_past_the_last_space():
    # Droplet 50: r1 -> 51, o1 drawn after it is held; o1 -> 52, stop; the held o1 -> the bowl.
    out = seats(1, {"bag": "r1,o1x2", "draws": "r1,o1,o1", "droplet": 50, "red_hold": [False]},
                QUIET, rules="herb-witches", sets=["books.red=6"])[0]
    assert spots(out) == [("r1", 51), ("o1", 52)] and out["bowl"]["chips"] == ["o1"]


# --- A Second Chance's restart puts everything back ---------------------------------------------

def test_restart_puts_red_set_2_chips_set_aside_back_into_the_bag():
    # Red Set 2: r1 set beside the pot; w3 -> 3, w3 -> 6, o1 -> 7, o1 -> 8, o1 -> 9: five chips
    # placed, white 6: restart. The r1 goes back into the bag with the rest, so it can be drawn
    # again: r1 beside the pot, o1 -> 1, stop; the r1 is placed after the last chip -> 2.
    # (Before the fix the r1 stayed beside the pot: drawing it again was a script error.)
    out = seats(1, {"bag": "r1,w3x2,o1x3", "draws": "r1,w3,w3,o1,o1,o1,r1,o1",
                    "red_after": ["place"]}, QUIET, card="a-second-chance", sets=["books.red=2"])[0]
    assert spots(out) == [("o1", 1), ("r1", 2)]


def test_restart_keeps_red_set_2_chips_from_earlier_rounds_beside_the_pot():
    # An r1 kept beside the pot from an earlier round stays out of the bag through the restart:
    # w3, w3, o1, o1, o1 (white 6) restart; o1 -> 1, stop; the kept r1 is then placed -> 2.
    out = seats(2, {"bag": "r1,w3x2,o1x3", "beside": "r1", "draws": "w3,w3,o1,o1,o1,o1",
                    "red_after": ["place"]}, QUIET, card="a-second-chance", sets=["books.red=2"])[0]
    assert spots(out) == [("o1", 1), ("r1", 2)]


def test_restart_places_green_set_5_picks_first_again():
    # Herb Witches, green Set 5, round 3: the r4 picked last round is placed first -> 4; w3 -> 7,
    # w3 -> 10, o1 -> 11, o1 -> 12: five chips, white 6: restart. The r4 is placed first again -> 4,
    # then o1 -> 5. (Before the fix the restarted potion began with the o1 -> 1.)
    out = seats(3, {"bag": "r4,w3x2,o1x3", "first": "r4", "draws": "w3,w3,o1,o1,o1"}, QUIET,
                rules="herb-witches", card="a-second-chance", sets=["books.green=5"])[0]
    assert spots(out) == [("r4", 4), ("o1", 5)]


def test_restart_places_both_green_set_5_picks_first_again_in_their_order():
    # decisions.md: "green Set 5 picks are placed first in the restarted potion too" (component
    # data: several are placed in the player's order). Herb Witches, green Set 5, round 3: the g2
    # and o1 picked last round are placed first, in that order: g2 -> 2, o1 -> 3; w3 -> 6,
    # w3 -> 9, o1 -> 10: five chips, white 6 (limit 7): A Second Chance restarts. The g2 and o1
    # are placed first again -> 2, 3, then the last draw o1 -> 4. (If green Set 5's
    # potion_restarted were not called, the restarted potion would be the o1 -> 1 alone.)
    out = seats(3, {"bag": "g2,w3x2,o1x2", "first": "g2,o1", "draws": "w3,w3,o1,o1"}, QUIET,
                rules="herb-witches", card="a-second-chance", sets=["books.green=5"])[0]
    assert spots(out) == [("g2", 2), ("o1", 3), ("o1", 4)]


def test_restart_puts_held_red_set_6_chips_back():
    # Red Set 6: r1 -> 1, g1 drawn after it is held; w3 -> 4, w3 -> 7, o1 -> 8, o1 -> 9: five chips
    # placed, white 6: restart. The held g1 is back in the bag: g1 -> 1, stop; nothing is held.
    out = seats(1, {"bag": "r1,g1,w3x2,o1x2", "draws": "r1,g1,w3,w3,o1,o1,g1", "red_hold": [False]},
                QUIET, rules="herb-witches", card="a-second-chance", sets=["books.red=6"])[0]
    assert spots(out) == [("g1", 1)]


def test_restart_while_the_six_chips_witch_places_ends_her_placing():
    # Herb Witches: w3 -> 3, w3 -> 6; after 2 chips the six-chips witch draws o1, o1, o1, g1, k1,
    # w1 and the seat places o1 -> 7, o1 -> 8, o1 -> 9: five chips, white 6: A Second Chance
    # restarts. Every chip is back in the bag (the three still in hand too), and her placing
    # ends. The next draw g1 -> 1, stop. (Before the fix she went on placing g1 and k1 from a hand
    # the restart had already put back: chips in two places at once.)
    p = {"bag": "w3x2,o1x3,g1,k1,w1", "draws": "w3,w3,o1,o1,o1,g1,k1,w1,g1",
         "witch": {"six-chips": {"after": 2, "place": "o1,o1,o1,g1,k1"}}}
    out = seats(2, p, QUIET, rules="herb-witches", card="a-second-chance", witches=["six-chips"])[0]
    assert spots(out) == [("g1", 1)] and out["bag"] == "w1,w3x2,o1x3,g1,k1"


# --- held red Set 6 chips: the drawn chip's placement, and placed before a later draw -----------

def test_held_orange_gets_pumpkin_patch_party_bonus():
    # Red Set 6 under Pumpkin Patch Party: r1 -> 1, the o1 drawn after it is held; w1 -> 2, stop.
    # The held o1 is placed at the end like a drawn one: 1 + 1 (the card) -> 4. (Was 3.)
    out = seats(1, {"bag": "r1,o1,w1", "draws": "r1,o1,w1", "red_hold": [False]}, QUIET,
                rules="herb-witches", card="pumpkin-patch-party", sets=["books.red=6"])[0]
    assert spots(out) == [("r1", 1), ("w1", 2), ("o1", 4)]


def test_held_chip_placed_before_a_later_draw_with_its_action():
    # Red Set 6, yellow Set 2: r1 -> 1, y1 drawn after it is held. Before the next draw: keep it
    # ("none"); o1 -> 2. Before the next: place the y1 now -> 3, with its action (the next chip
    # moves twice as far); o1 -> 3 + 2 = 5.
    res = play(1, {"bag": "r1,y1,o1x2", "draws": "r1,y1,o1,o1", "red_hold": [False],
                   "red_place": ["none", "y1"]}, QUIET, rules="herb-witches",
               sets=["books.red=6", "books.yellow=2"])
    assert spots(res["players"][0]) == [("r1", 1), ("o1", 2), ("y1", 3), ("o1", 5)]
    assert [e.get("placed_from_beside", False) for e in events(res, "red_hold")] == [False, True]
    # By default it is held to the end and placed without its action: o1 -> 2, o1 -> 3, y1 -> 4.
    out = seats(1, {"bag": "r1,y1,o1x2", "draws": "r1,y1,o1,o1", "red_hold": [False]}, QUIET,
                rules="herb-witches", sets=["books.red=6", "books.yellow=2"])[0]
    assert spots(out) == [("r1", 1), ("o1", 2), ("o1", 3), ("y1", 4)]


def test_red_place_round_file_key_errors():
    with pytest.raises(RoundFileError, match="red_place"):
        play(1, {**QUIET, "red_place": "y1"}, QUIET, rules="herb-witches")
    with pytest.raises(RoundFileError, match="red_place"):
        play(1, {**QUIET, "red_place": [3]}, QUIET, rules="herb-witches")
    with pytest.raises(RoundFileError, match="extra"):
        play(1, {**QUIET, "extra": ["yes"]}, QUIET)


# --- locoweed Set 5: the cap comes last ---------------------------------------------------------

def test_locoweed_5_cap_after_yellow_2_doubling():
    # Round 2, scores 5 and 0: seat 1 gets 2 rat spaces (start 2). y1 -> 3 (the next chip moves
    # twice as far); l1 moves 2 + 1 = 3, doubled 6, capped at 4 -> 7. (Was 9: capped before.)
    out = seats(2, {**QUIET, "score": 5}, {"bag": "y1,l1", "draws": "y1,l1"}, rules="herb-witches",
                sets=["books.locoweed=5", "books.yellow=2"])
    assert spots(out[1]) == [("y1", 3), ("l1", 7)]


# --- every extra distance may be declined -------------------------------------------------------

@pytest.mark.parametrize("take, where", [(True, 3), (False, 2)])
def test_red_4_white_1_extra_may_be_declined(take, where):
    # Red Set 4: r1 -> 1; a white 1 after a red moves 2 (-> 3), or 1 when declined (-> 2).
    out = seats(1, {"bag": "r1,w1", "draws": "r1,w1", "extra": [take]}, QUIET,
                sets=["books.red=4"])[0]
    assert spots(out) == [("r1", 1), ("w1", where)]


@pytest.mark.parametrize("take, where", [(True, 3), (False, 2)])
def test_yellow_2_doubling_may_be_declined(take, where):
    # Yellow Set 2: y1 -> 1; the o1 after it moves 2 (-> 3), or 1 when the doubling is declined.
    out = seats(2, {"bag": "y1,o1", "draws": "y1,o1", "extra": [take]}, QUIET,
                sets=["books.yellow=2"])[0]
    assert spots(out) == [("y1", 1), ("o1", where)]


@pytest.mark.parametrize("extra, where", [([True, True], [2, 5]), ([False, True], [1, 4]),
                                          ([True, False], [2, 3])])
def test_yellow_4_extra_may_be_declined(extra, where):
    # Yellow Set 4: the 1st yellow moves +1, the 2nd +2. y1 -> 1 + 1 = 2, y1 -> 2 + 1 + 2 = 5;
    # each extra declined on its own.
    out = seats(2, {"bag": "y1x2", "draws": "y1,y1", "extra": extra}, QUIET,
                sets=["books.yellow=4"])[0]
    assert [i for _, i in spots(out)] == where


@pytest.mark.parametrize("take, where", [(True, 7), (False, 1)])
def test_yellow_5_move_on_may_be_declined(take, where):
    # Herb Witches, yellow Set 5: y1 -> 1, o6 drawn: the yellow moves on 6 -> 7, or stays on 1 when
    # declined; the o6 goes back to the bag either way.
    out = seats(2, {"bag": "y1,o6", "draws": "y1,o6", "extra": [take]}, QUIET, rules="herb-witches",
                sets=["books.yellow=5"])[0]
    assert spots(out) == [("y1", where)] and out["bag"] == "o6,y1"


def test_the_red_slot_answers_every_extra_distance():
    # decide_extra: red=always takes, red=never declines, a script reads its own 'extra' list
    # (default take once the list is used up).
    import numpy as np

    from sim.kernel import layout as L
    from sim.kernel.decisions import slots as S
    from sim.kernel.decisions.decide import decide_extra
    from sim.kernel.rng import N_STREAMS
    from sim.rules import chips
    from strategies.registry import slot_table

    P = np.zeros((1, L.P_WIDTH), dtype=np.int64)
    G = np.zeros(L.G_WIDTH, dtype=np.int64)
    R = np.zeros(L.R_WIDTH, dtype=np.int64)
    SK = np.zeros((1, S.N_SLOTS), dtype=np.int64)
    SP = np.zeros((1, S.N_SLOTS, S.PARAM_WIDTH), dtype=np.float64)
    SC = np.zeros((1, S.SC_WIDTH), dtype=np.int64)
    rng = np.zeros(N_STREAMS, dtype=np.uint64)
    y1 = chips.parse_chips("y1")[0]

    def ask(kind, ptr=0):
        SK[0, S.SLOT_RED] = kind
        return decide_extra(P, 0, 1, y1, ptr, G, R, SK, SP, SC, rng, slot_table())

    assert ask(S.RED_ALWAYS) and not ask(S.RED_NEVER)
    SC[0, S.SC_NEXTRA], SC[0, S.SC_EXTRA] = 2, 0b10
    assert [ask(S.SCRIPTED, i) for i in range(3)] == [False, True, True]
