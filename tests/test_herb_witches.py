"""The Herb Witches: the overflow bowl, the orange 6-chip and the twelve witches, one scripted round
each, worked out by hand from shared/rules/seeds/rules-herb-witches.txt, component-data.md section
10 and decisions.md.

Pot track (index: coins / VP, R = ruby): 1-5: coins = index, 0 VP (5 R); 6-9: 1 VP (9 R); 10-13:
2 VP (13 R); 14-17: 3 VP (16 R); ... 29-31: 22/22/23 coins, 7 VP (30 R); 48-50: 13 VP (50 R);
51-52: 33 coins, 14 VP (52 R); 53 (the spoon): 35 coins, 15 VP. Set 1 prices: g1 4, b1 5, r1 6,
b2 10, r2 10, o6 22 (the Herb Witches pumpkin book).
"""

from __future__ import annotations

import pytest

from sim.api.round_file import RoundFileError, play_round_data
from sim.api.rules_array import rules_scalars

QUIET = {"bag": "w1", "draws": "w1"}  # places w1 on space 1 (reward 2, 0 VP, 2 coins)


def play(round_, *players, witches=(), die=("vp1", "vp1"), rules="herb-witches", card=None, sets=(),
         extra=None):
    d = {"players": len(players), "round": round_, "rules": rules, "die": list(die),
         "witches": list(witches), "set": list(sets), "player": [dict(p) for p in players],
         **(extra or {})}
    if card:
        d["card"] = card
    return play_round_data(d, "test round")


def seats(*args, **kw):
    return play(*args, **kw)["players"]


def witch_events(res, seat):
    return [e for e in res["events"] if e["event"] == "witch" and e.get("seat") == seat]


# --- the overflow bowl ------------------------------------------------------------------------


def test_chips_after_the_last_space_go_to_the_bowl_and_score_half_their_value():
    # Droplet 48: r4 lands on 52 (no pumpkin in the pot, no extra). o1, w3, p1 go into the bowl
    # (value 5, white total 3, intact). The spoon: 15 VP and 35 coins, plus 5 // 2 = 2 VP; the
    # furthest intact pot rolls the die (1 VP). The purple chip in the bowl has no action at B.
    out = seats(1, {"bag": "r4,o1,w3,p1,w1", "draws": "r4,o1,w3,p1", "droplet": 48}, QUIET)
    assert out[0]["placements"] == [{"chip": "r4", "index": 52}]
    assert out[0]["bowl"] == {"chips": ["o1", "w3", "p1"], "value": 5, "vp": 2}
    assert (out[0]["exploded"], out[0]["reward_space"], out[0]["coins"]) == (False, 53, 35)
    assert out[0]["vp_gained"] == 15 + 2 + 1
    assert out[0]["die"] == ["vp1"]


def test_a_white_chip_in_the_bowl_still_explodes_the_pot():
    # r4 on 52, then w3, w3, w2 into the bowl: white total 8 > 7, the pot explodes. Taking the
    # VP: 15 + 8 // 2 = 4, no coins and no die; taking the coins: 35 coins, no VP at all.
    p = {"bag": "r4,w3x2,w2", "draws": "r4,w3,w3,w2", "droplet": 48}
    out = seats(1, p, QUIET)
    assert out[0]["exploded"] and out[0]["bowl"]["value"] == 8
    assert (out[0]["vp_gained"], out[0]["coins"], out[0]["die"]) == (19, 0, [])
    out = seats(1, {**p, "choice": "coins"}, QUIET)
    assert (out[0]["vp_gained"], out[0]["coins"]) == (0, 35)


def test_a_chip_on_the_last_space_loses_its_next_chip_effect():
    # A blue chip landing on 52 looks at nothing; the next chip drawn goes into the bowl.
    res = play(1, {"bag": "b2,o6,w1", "draws": "b2,o6", "droplet": 50}, QUIET)
    out = res["players"][0]
    assert not [e for e in res["events"] if e["event"] == "blue_look"]
    assert out["placements"] == [{"chip": "b2", "index": 52}]
    assert out["bowl"] == {"chips": ["o6"], "value": 6, "vp": 3}
    assert out["vp_gained"] == 15 + 3 + 1


def test_the_flask_sends_a_white_back_from_the_bowl():
    # w2 goes into the bowl and the flask sends it back (draw 2); o6 follows: bowl value 6, not 8.
    out = seats(1, {"bag": "r4,w2,o6", "draws": "r4,w2,o6", "droplet": 48, "flask_on": 2}, QUIET)
    assert out[0]["bowl"] == {"chips": ["o6"], "value": 6, "vp": 3} and not out[0]["flask"]


def test_without_the_bowl_the_potion_ends_on_the_last_space():
    res = play(1, {"bag": "r4,o1,w1", "draws": "r4", "droplet": 48}, QUIET, rules="base")
    out = res["players"][0]
    assert "bowl" not in out and out["vp_gained"] == 15 + 1
    assert any(e["event"] == "stop" and e["reason"] == "end of track" for e in res["events"])


# --- the orange 6-chip ------------------------------------------------------------------------


def test_orange_6_moves_six_and_costs_22():
    # o6 from the start lands on 6. Droplet 28: o1 -> 29, reward 30: 22 coins, exactly an o6.
    out = seats(2, {"bag": "o6", "draws": "o6"}, {"bag": "o1", "draws": "o1", "droplet": 28,
                                                  "buy": "o6"}, die=("vp1",))
    assert out[0]["placements"] == [{"chip": "o6", "index": 6}]
    assert out[1]["coins"] == 22 and out[1]["bought"] == ["o6"]
    with pytest.raises(RoundFileError, match="cannot buy o6"):
        play(2, QUIET, {"bag": "o1", "draws": "o1", "droplet": 28, "buy": "o6"}, rules="base")


# --- the potion witches -----------------------------------------------------------------------


def test_second_flask_undoes_the_explosion():
    # w3 -> 3, w3 -> 6, w2 -> 8: white total 8, exploded. The witch sends w2 back, empties the
    # flask; o1 counts on from the emptied space (flask_space = keep): 9. Reward 10 (2 VP).
    res = play(2, {"bag": "w3x2,w2,o1", "draws": "w3,w3,w2,o1", "witch": {"second-flask": True}},
               QUIET, witches=["second-flask"])
    out = res["players"][0]
    assert not out["exploded"] and not out["flask"]
    assert out["placements"] == [{"chip": "w3", "index": 3}, {"chip": "w3", "index": 6},
                                 {"chip": "o1", "index": 9}]
    assert (out["reward_space"], out["vp_gained"]) == (10, 2 + 1)
    assert out["witches"] == ["second-flask"] and out["pennies"] == ["buying", "points"]


def test_second_flask_needs_a_full_flask():
    out = seats(2, {"bag": "w3x2,w2,o1", "draws": "w3,w3,w2", "flask": False,
                    "witch": {"second-flask": True}}, QUIET, witches=["second-flask"])
    assert out[0]["exploded"] and out[0]["witches"] == [] and "potion" in out[0]["pennies"]


def test_six_chips_places_the_chosen_chips_in_order():
    # w3 -> 3, w2 -> 5; after 2 chips the witch draws o1, o1, r1, g1, k1, w1. Placed in this
    # order: o1 -> 6, o1 -> 7, r1 with 2 pumpkins in the pot 1 + 1 -> 9, g1 -> 10, k1 -> 11; w1
    # goes back. Reward 12 (2 VP); the white total stays 5.
    p = {"bag": "w3,w2,o1x2,r1,g1,k1,w1", "draws": "w3,w2,o1,o1,r1,g1,k1,w1", "red": [True],
         "witch": {"six-chips": {"after": 2, "place": "o1,o1,r1,g1,k1"}}}
    res = play(2, p, QUIET, witches=["six-chips"])
    out = res["players"][0]
    assert [(x["chip"], x["index"]) for x in out["placements"]] == [
        ("w3", 3), ("w2", 5), ("o1", 6), ("o1", 7), ("r1", 9), ("g1", 10), ("k1", 11)]
    assert out["reward_space"] == 12 and not out["exploded"]
    assert [e["chip"] for e in res["events"] if e["event"] == "witch_look"] == \
        ["o1", "o1", "r1", "g1", "k1", "w1"]


def test_six_chips_a_placed_white_can_explode_the_pot():
    # w3, w2 (5); the witch draws w3, o1: placing w3 makes 8 and the pot explodes.
    p = {"bag": "w3x2,w2,o1", "draws": "w3,w2,w3,o1",
         "witch": {"six-chips": {"after": 2, "place": "w3,o1"}}}
    out = seats(2, p, QUIET, witches=["six-chips"])
    assert out[0]["exploded"] and [x["chip"] for x in out[0]["placements"]] == ["w3", "w2", "w3"]


def test_whites_back_returns_the_last_two_whites_and_leaves_the_gaps():
    # w3 -> 3, o1 -> 4, w2 -> 6, w1 -> 7 (whites 6). After 4 chips: w1 and w2 go back (whites 3),
    # their spaces stay empty; g1 counts on from 7 -> 8. Reward 9 (1 VP, a ruby space; the green
    # chip last in the pot pays a ruby too).
    p = {"bag": "w3,o1,w2,w1,g1", "draws": "w3,o1,w2,w1,g1",
         "witch": {"whites-back": {"after": 4, "whites": 2}}}
    res = play(2, p, QUIET, witches=["whites-back"])
    out = res["players"][0]
    assert [(x["chip"], x["index"]) for x in out["placements"]] == [("w3", 3), ("o1", 4), ("g1", 8)]
    assert out["reward_space"] == 9 and out["rubies"] == 1 + 1 + 1
    ev = witch_events(res, 0)
    assert ev[0]["witch"] == "whites-back" and ev[0]["whites"] == 2
    assert sorted(ev[0]["chips"]) == ["w1", "w2"]


def test_whites_back_just_one():
    p = {"bag": "w3,o1,w2,w1,g1", "draws": "w3,o1,w2,w1,g1",
         "witch": {"whites-back": {"after": 4, "whites": 1}}}
    out = seats(2, p, QUIET, witches=["whites-back"])
    assert [x["chip"] for x in out[0]["placements"]] == ["w3", "o1", "w2", "g1"]


def test_both_rewards_takes_vp_and_coins_and_rolls_if_furthest():
    # w3 -> 3, w3 -> 6, w2 -> 8: exploded, reward 9 (9 coins, 1 VP, a ruby). The witch: VP and
    # coins; no intact pot is further (seat 1, the furthest intact, reaches 2), so seat 0 rolls
    # too (first, in seat order): 2 VP. Buys b1 (5).
    p = {"bag": "w3x2,w2", "draws": "w3,w3,w2", "witch": {"both-rewards": True}, "buy": "b1"}
    out = seats(2, p, QUIET, witches=["both-rewards"], die=("vp2", "vp1"))
    assert out[0]["exploded"] and out[0]["coins"] == 9
    assert out[0]["vp_gained"] == 1 + 2 and out[0]["die"] == ["vp2"] and out[0]["bought"] == ["b1"]
    assert out[1]["die"] == ["vp1"]
    # Seat 1 intact and further (droplet 10: w1 -> 11, reward 12): only seat 1 rolls.
    out = seats(2, p, {**QUIET, "droplet": 10}, witches=["both-rewards"], die=("vp2",))
    assert out[0]["vp_gained"] == 1 and out[0]["die"] == [] and out[1]["die"] == ["vp2"]


# --- the buying witches -----------------------------------------------------------------------


def test_upgrade_the_last_two_chips():
    # o1 -> 1, g1 -> 2, r1 -> 3 (o1 in the pot: r1 may take 1 extra; declined). The last two
    # chips g1 and r1 become g2 and r2 in the bag; their old chips go back to the supply.
    p = {"bag": "o1,g1,r1", "draws": "o1,g1,r1", "red": [False], "witch": {"upgrade": "last2"}}
    res = play(2, p, QUIET, witches=["upgrade"])
    assert res["players"][0]["bag"] == "o1,g2,r2"
    assert [e["chip"] + ">" + e["to"] for e in res["events"] if e["event"] == "upgrade"] == \
        ["r1>r2", "g1>g2"]


def test_upgrade_one_chip_anywhere_but_never_orange():
    # b2 -> 2 looks at o1 and g1 and places o1 -> 3; g1 goes back. Entry 0 (b2) becomes b4.
    p = {"bag": "b2,o1,g1,w1", "draws": "b2,o1,g1", "blue": ["o1"], "witch": {"upgrade": 0}}
    out = seats(2, p, QUIET, witches=["upgrade"])
    assert out[0]["bag"] == "w1,o1,g1,b4"
    out = seats(2, {"bag": "o1,g1", "draws": "o1,g1", "witch": {"upgrade": 0}}, QUIET,
                witches=["upgrade"])
    assert out[0]["bag"] == "o1,g1" and out[0]["witches"] == []  # orange: nothing, penny kept


def test_double_coins_buys_two_ten_coin_chips():
    # Droplet 9: o1 -> 10, reward 11: 11 coins, doubled to 22: b2 and r2 (10 each).
    p = {"bag": "o1", "draws": "o1", "droplet": 9, "buy": "b2,r2", "witch": {"double-coins": True}}
    out = seats(2, p, QUIET, witches=["double-coins"])
    assert out[0]["bought"] == ["b2", "r2"]
    with pytest.raises(RoundFileError, match="cannot afford"):
        play(2, {**p, "witch": {}}, QUIET, witches=["double-coins"])


def test_double_coins_in_the_last_round_doubles_the_conversion():
    # Round 9, droplet 9: o1 -> 10, reward 11: 2 VP, 11 coins -> 22 -> 4 VP; 1 ruby keeps.
    out = seats(9, {"bag": "o1", "draws": "o1", "droplet": 9, "witch": {"double-coins": True}},
                QUIET, witches=["double-coins"], die=("vp1",))
    assert out[0]["vp_gained"] == 2 + 1 + 4


def test_free_twin():
    p = {"bag": "o1", "draws": "o1", "droplet": 9, "buy": "r2", "witch": {"free-twin": "r2"}}
    out = seats(2, p, QUIET, witches=["free-twin"])
    assert out[0]["bag"] == "o1,r2x2" and out[0]["bought"] == ["r2"]


def test_ruby_coins_adds_two_coins_a_ruby_and_keeps_them():
    # o1 -> 1, reward 2: 2 coins + 2 x 4 rubies = 10: a b2. The rubies stay.
    p = {"bag": "o1", "draws": "o1", "rubies": 4, "buy": "b2", "witch": {"ruby-coins": True}}
    out = seats(2, p, QUIET, witches=["ruby-coins"])
    assert out[0]["bought"] == ["b2"] and out[0]["rubies"] == 4


def test_ruby_coins_after_an_explosion_and_the_vp():
    # Exploded, took the VP: only the witch's coins (2 x 3 = 6) may be spent: a b1 (5).
    p = {"bag": "w3x2,w2", "draws": "w3,w3,w2", "rubies": 3, "buy": "b1",
         "witch": {"ruby-coins": True}}
    out = seats(2, p, QUIET, witches=["ruby-coins"])
    assert out[0]["exploded"] and out[0]["bought"] == ["b1"]


# --- the points witches -----------------------------------------------------------------------


def test_colours_counts_the_different_colours_in_the_pot():
    # o1 -> 1, g1 -> 2, b1 -> 3 looks at w1 (placed: none), r1 -> 4 (declines its pumpkin extra),
    # k1 -> 5. Five colours: 4 VP; reward 6: 1 VP; the furthest pot rolls: 1 VP.
    p = {"bag": "o1,g1,b1,r1,k1,w1", "draws": "o1,g1,b1,w1,r1,k1", "blue": ["none"], "red": [False],
         "witch": {"colours": True}}
    out = seats(2, p, QUIET, witches=["colours"])
    assert [x["index"] for x in out[0]["placements"]] == [1, 2, 3, 4, 5]
    assert out[0]["vp_gained"] == 1 + 1 + 4


def test_bag_points_count_the_big_chips_left_in_the_bag():
    # The bag keeps g2, b4, p1 (2 VP each), r1, w1, k1 (nothing): 6 VP, even after an explosion
    # and taking the coins.
    p = {"bag": "w3x2,w2,g2,b4,p1,r1,w1,k1", "draws": "w3,w3,w2", "choice": "coins",
         "witch": {"bag-points": True}}
    out = seats(2, p, QUIET, witches=["bag-points"])
    assert out[0]["exploded"] and out[0]["vp_gained"] == 6


def test_ruby_space_takes_as_many_rubies_as_the_space_has_vp():
    # Droplet 11: o1 -> 12, reward 13: 2 VP and a ruby: 2 rubies instead of 1 (the VP are scored
    # as well, and the furthest pot rolls: 1 VP).
    p = {"bag": "o1", "draws": "o1", "droplet": 11, "rubies": 0, "witch": {"ruby-space": True}}
    out = seats(2, p, QUIET, witches=["ruby-space"])
    assert out[0]["reward_space"] == 13 and out[0]["rubies"] == 2 and out[0]["vp_gained"] == 2 + 1
    # It's Shining Extra Bright: the witch instead of the card's 2 rubies.
    out = seats(2, {**p, "droplet": 47}, QUIET, witches=["ruby-space"],
                card="its-shining-extra-bright")
    assert out[0]["reward_space"] == 49 and out[0]["rubies"] == 0  # no ruby on 49: nothing
    out = seats(2, {**p, "droplet": 48}, QUIET, witches=["ruby-space"],
                card="its-shining-extra-bright")
    assert out[0]["reward_space"] == 50 and out[0]["rubies"] == 13


def test_cheap_rubies_moves_the_droplet_for_one_ruby_each():
    p = {"bag": "o1", "draws": "o1", "rubies": 3, "spend": ["droplet", "droplet", "droplet"],
         "witch": {"cheap-rubies": True}}
    out = seats(2, p, QUIET, witches=["cheap-rubies"])
    assert (out[0]["droplet"], out[0]["rubies"]) == (3, 0)
    with pytest.raises(RoundFileError, match="not enough rubies"):
        play(2, {**p, "witch": {}}, QUIET, witches=["cheap-rubies"])


# --- pennies and bad input --------------------------------------------------------------------


def test_a_witch_needs_her_groups_penny():
    out = seats(2, {"bag": "o1", "draws": "o1", "rubies": 4, "pennies": ["potion", "points"],
                    "witch": {"ruby-coins": True}}, QUIET, witches=["ruby-coins"])
    assert out[0]["witches"] == [] and out[0]["coins"] == 2


def test_witches_need_the_herb_witches_ruleset():
    with pytest.raises(RoundFileError, match="without the herb witches"):
        play(2, QUIET, QUIET, witches=["upgrade"], rules="base")
    with pytest.raises(RoundFileError, match="one per group"):
        play(2, QUIET, QUIET, witches=["upgrade", "double-coins"])
    with pytest.raises(RoundFileError, match="no such witch"):
        play(2, {**QUIET, "witch": {"nobody": True}}, QUIET)


def test_whites_back_when_the_listed_draws_end():
    # No 'after': called when the draws end (the player stops): w3 -> 3, w2 -> 5, w1 -> 6; the
    # last two whites (w1, w2) go back and the pot stops: reward 4 (after w3, the last chip left).
    # (An o1 stays in the bag: with the bag empty the potion would end before any decision.)
    out = seats(2, {"bag": "w3,w2,w1,o1", "draws": "w3,w2,w1", "witch": {"whites-back": True}},
                QUIET,
                witches=["whites-back"])
    assert out[0]["placements"] == [{"chip": "w3", "index": 3}] and out[0]["reward_space"] == 4


def test_six_chips_in_a_round_file_needs_after():
    with pytest.raises(RoundFileError, match="after = N"):
        play(2, {**QUIET, "witch": {"six-chips": True}}, QUIET, witches=["six-chips"])


# --- quacks potion with the bowl ----------------------------------------------------------------


def test_potion_counts_the_bowl():
    # Start 50, bag o6 and w3, drawing both: whichever comes first lands on 52, the other goes to
    # the bowl: 1 VP (w3: 3 // 2) or 3 VP (o6), each with chance 1/2. Mean bowl VP 2, mean VP 17.
    from sim.api import potion as pot
    from sim.rules.ruleset import load_ruleset

    q = pot.make_query("o6,w3", "never", None, 50, load_ruleset("herb-witches"))
    res = pot.summarize(pot.sample(q, 40_000, 1, full=True), q, is_exact=False, seed=1)
    assert res["p_bowl"] == 1.0 and res["expected_reward_space"] == 53
    lo, hi = res["expected_bowl_vp_ci"]
    assert lo < 2 < hi and hi - lo < 0.05
    lo, hi = res["expected_vp_ci"]
    assert lo < 17 < hi
    assert not pot.exact_supported(q)
    q = pot.make_query("o6,w3", "never", None, 50, load_ruleset("base"))
    res = pot.summarize(pot.sample(q, 1_000, 1), q, is_exact=False, seed=1)
    assert res["expected_vp"] == 15 and "p_bowl" not in res


def test_potion_draws_show_the_bowl():
    # quacks potion --draws: r4 on 52 (start 48), w2 into the bowl and straight back with the
    # flask (set to whites of 2 or more), o6 into the bowl: value 6, 3 VP.
    from sim.api import potion as pot
    from sim.api import potion_draws as draws_api
    from sim.rules.ruleset import load_ruleset

    q = pot.make_query("r4,w2,o6", "never", 2, 48, load_ruleset("herb-witches"))
    res = draws_api.forced(q, "r4,w2,o6")
    assert res["placements"] == [{"chip": "r4", "index": 52}]
    assert res["bowl"] == {"chips": ["o6"], "value": 6, "vp": 3}
    assert res["returned"] == [{"chip": "w2", "index": 53, "by": "flask"}]
    assert res["white_total"] == 0 and not res["exploded"]


# --- the witch-hat fortune cards (need the herb witches) ----------------------------------------


def test_a_quick_exchange_gives_a_penny_for_a_chip():
    out = seats(2, {**QUIET, "card_choice": "r4/buying"}, QUIET, card="a-quick-exchange")
    assert out[0]["bag"] == "w1,r4" and out[0]["pennies"] == ["potion", "points"]
    # the default, early in the game: the buying penny for the dearest 4-chip whose book is out
    out = seats(2, QUIET, QUIET, card="a-quick-exchange")
    assert out[1]["bag"] == "w1,b4" and out[1]["pennies"] == ["potion", "points"]


def test_visit_from_a_witch_is_free_once_this_round():
    # No witch in play and no penny held: the visiting colours witch is still called, for free.
    p = {"bag": "o1,g1,b1,r1,k1,w1", "draws": "o1,g1,b1,w1,r1,k1", "blue": ["none"], "red": [False],
         "pennies": [], "witch": {"colours": True}}
    res = play(2, p, QUIET, card="visit-from-a-witch", extra={"visit": "colours"})
    out = res["players"][0]
    assert out["witches"] == ["colours"] and out["vp_gained"] == 1 + 1 + 4 and out["pennies"] == []
    assert [e["witch"] for e in res["events"] if e["event"] == "visit"] == ["colours"]


def test_a_joyful_reunion_returns_a_spent_penny():
    out = seats(2, {**QUIET, "pennies": ["potion"], "card_choice": "points"}, QUIET,
                card="a-joyful-reunion")
    assert out[0]["pennies"] == ["potion", "points"]
    out = seats(2, {**QUIET, "pennies": ["potion"]}, QUIET, card="a-joyful-reunion")
    assert out[0]["pennies"] == ["potion", "buying"]  # the default: the first group spent


def test_witch_cards_are_in_the_deck_only_with_the_witches():
    from sim.kernel import layout as L
    from sim.rules.ruleset import RulesetError, load_ruleset

    mask = int(rules_scalars(load_ruleset("herb-witches"))[L.R_CARD_MASK])
    assert all((mask >> k) & 1 for k in range(1, 28))
    assert (int(rules_scalars(load_ruleset("base"))[L.R_CARD_MASK])
            == sum(1 << k for k in range(1, 25)))
    with pytest.raises(RulesetError, match="need the herb witches"):
        load_ruleset("base", ['cards.order=["a-quick-exchange"]'])
    with pytest.raises(RoundFileError, match="needs the herb witches"):
        play(2, QUIET, QUIET, card="a-joyful-reunion", rules="base")
