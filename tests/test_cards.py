"""The 24 fortune-teller cards, one scripted round each, worked out by hand from shared/rules
component-data.md section 8.1 and decisions.md (a card's draws never explode a pot; a chip a card
grants goes into the bag at once, only if its book is out; Lucky Devil pays an exploded pot too).

Pot track (index: coins / VP / ruby): 1:1/0 2:2/0 3:3/0 4:4/0 5:5/0 R 6:6/1 7:7/1 8:8/1 9:9/1 R
10:10/2. Set 1 prices: g2 8, b2 10, r2 10, y2 12, k1 10, g4 14, b4 19, r4 16, y4 18, o1 3, g1 4,
b1 5, r1 6, y1 8. Rat tails after scores 1, 4, 7, 10, 12, ... Bags print in kernel type order
w1 w2 w3 o1 o6 g1 g2 g4 b1 b2 b4 r1 r2 r4 y1 y2 y4 p1 k1.
"""

from __future__ import annotations

import pytest

from sim.api.round_file import RoundFileError, play_round_data

QUIET = {"bag": "w1", "draws": "w1"}  # places w1 (reward 2 from the start)


def play(card, round_, *players, die=("vp1",), sets=()):
    d = {"players": len(players), "round": round_, "card": card, "die": list(die),
         "set": list(sets),
         "player": [dict(p) for p in players]}
    return play_round_data(d, "test round")


def seats(card, round_, *players, **kw):
    return play(card, round_, *players, **kw)["players"]


# --- purple cards: once before the round -------------------------------------------------------


def test_roll_the_die():
    # Round 1 (no rats). Card rolls in seat order: seat 0 vp2, seat 1 ruby. Both reach space 2 and
    # roll the bonus die (A): vp1 each.
    out = seats("roll-the-die", 1, {"bag": "o1", "draws": "o1"}, QUIET,
                die=("vp2", "ruby", "vp1", "vp1"))
    assert (out[0]["score"], out[0]["rubies"]) == (2 + 1, 1)
    assert (out[1]["score"], out[1]["rubies"]) == (1, 2)


def test_the_pot_is_filling_up():
    out = seats("the-pot-is-filling-up", 1, {"bag": "o1", "draws": "o1"}, QUIET, die=("vp1", "vp1"))
    assert out[0]["placements"] == [{"chip": "o1", "index": 2}] and out[0]["droplet"] == 1
    assert out[1]["droplet"] == 1


def test_charity_goes_to_the_fewest_rubies():
    out = seats("charity", 1, {**QUIET, "rubies": 2}, {**QUIET, "rubies": 1}, die=("vp1", "vp1"))
    assert (out[0]["rubies"], out[1]["rubies"]) == (2, 2)
    out = seats("charity", 1, {**QUIET, "rubies": 0}, {**QUIET, "rubies": 0}, die=("vp1", "vp1"))
    assert (out[0]["rubies"], out[1]["rubies"]) == (1, 1)  # ties all take one


def test_rat_infestation_doubles_the_tails():
    # Scores 5 and 0: tails after 1 and 4 lie between: 2, doubled to 4.
    out = seats("rat-infestation", 2, {**QUIET, "score": 5}, {**QUIET, "score": 0}, die=("vp1",))
    assert out[1]["rat"] == 4 and out[1]["placements"] == [{"chip": "w1", "index": 5}]


def test_beginners_bonus_chip_can_be_drawn_at_once():
    # Seat 1 has the fewest VP and takes a green 1 into the bag; 2 rats (start 2): g1 -> 3, w1 -> 4.
    out = seats("beginners-bonus", 2, {**QUIET, "score": 5}, {"bag": "w1", "draws": "g1,w1"})
    assert out[1]["bag"] == "w1,g1"
    assert out[1]["placements"] == [{"chip": "g1", "index": 3}, {"chip": "w1", "index": 4}]
    assert out[0]["bag"] == "w1"


def test_just_in_time():
    # Default: early (round 2) a white 1 leaves the bag for good; scripted "vp": 4 VP. The card
    # comes before the rats: seat 1 leads with 4, seat 0 gets 1 tail (start 1: o1 -> 2, reward 3)
    # and alone rolls the die.
    out = seats("just-in-time", 2, {"bag": "w1x2,o1", "draws": "o1"},
                {"bag": "w1x2,o1", "draws": "o1", "card_choice": "vp"}, die=("vp1",))
    assert out[0]["bag"] == "w1,o1" and out[0]["score"] == 1 and out[0]["rat"] == 1
    assert out[1]["bag"] == "w1x2,o1" and out[1]["score"] == 4
    out = seats("just-in-time", 5, {"bag": "w1x2,o1", "draws": "o1"}, QUIET, die=("vp1", "vp1"))
    assert out[0]["bag"] == "w1x2,o1" and out[0]["score"] == 4 + 1  # late: the 4 VP


def test_you_only_get_to_choose_one():
    # Round 1 (yellow not out): the dearest 2-chip is blue 2 (10; red 2 ties, black is 10 too);
    # round 3: yellow 2 (12). Scripted "rubies": 3 rubies.
    out = seats("you-only-get-to-choose-one", 1, QUIET, {**QUIET, "card_choice": "rubies"},
                die=("vp1", "vp1"))
    assert out[0]["bag"] == "w1,b2" and out[1]["rubies"] == 1 + 3
    out = seats("you-only-get-to-choose-one", 3, QUIET, {**QUIET, "card_choice": "k1"},
                die=("vp1", "vp1"))
    assert out[0]["bag"] == "w1,y2" and out[1]["bag"] == "w1,k1"


def test_rats_are_your_friends():
    # Seat 1 (0 VP, leader 5) gets 2 tails: default takes the dearest 4-chip out (round 2: blue 4,
    # 19); scripted "vp": 1 VP per tail.
    out = seats("rats-are-your-friends", 2, {**QUIET, "score": 5}, QUIET)
    assert out[1]["bag"] == "w1,b4"
    out = seats("rats-are-your-friends", 2, {**QUIET, "score": 5}, {**QUIET, "card_choice": "vp"})
    assert out[1]["bag"] == "w1" and out[1]["score"] == 2 + 1  # and it rolls (w1 -> 3, reward 4)


def test_a_good_start():
    # 2 tails; giving up 1 for a ruby: start 1, w1 -> 2.
    out = seats("a-good-start", 2, {**QUIET, "score": 5}, {**QUIET, "card_choice": 1})
    assert out[1]["rat"] == 1 and out[1]["rubies"] == 2
    assert out[1]["placements"] == [{"chip": "w1", "index": 2}]
    out = seats("a-good-start", 2, {**QUIET, "score": 5}, QUIET)  # default: keep the rats
    assert out[1]["rat"] == 2 and out[1]["rubies"] == 1


def test_choose_wisely():
    out = seats("choose-wisely", 3, QUIET, {**QUIET, "card_choice": "purple"}, die=("vp1", "vp1"))
    assert out[0]["droplet"] == 2 and out[1]["bag"] == "w1,p1" and out[1]["droplet"] == 0
    # Round 1: the purple book is not out: droplet +2 instead.
    out = seats("choose-wisely", 1, QUIET, {**QUIET, "card_choice": "purple"}, die=("vp1", "vp1"))
    assert out[1]["droplet"] == 2 and out[1]["bag"] == "w1"


def test_wheel_and_deal():
    # 1 ruby for the dearest 1-chip out: yellow 1 (8) in round 2, red 1 (6) in round 1.
    out = seats("wheel-and-deal", 2, QUIET, {**QUIET, "rubies": 0}, die=("vp1", "vp1"))
    assert out[0]["bag"] == "w1,y1" and out[0]["rubies"] == 0
    assert out[1]["bag"] == "w1"  # no ruby to pay
    out = seats("wheel-and-deal", 1, QUIET, {**QUIET, "card_choice": "none"}, die=("vp1", "vp1"))
    assert out[0]["bag"] == "w1,r1" and out[1]["bag"] == "w1"


def test_an_opportunistic_moment():
    # Seat 0 draws g1, o1, w1, w2: the green 1 becomes a green 2 (the best gain); seat 1 draws
    # o1, o1, k1, p1: nothing can be exchanged, so a green 1. The drawn chips go back first.
    out = seats("an-opportunistic-moment", 3,
                {"bag": "g1,o1,w1,w2,r1", "card_draws": "g1,o1,w1,w2", "draws": "o1"},
                {"bag": "o1x2,k1,p1", "card_draws": "o1,o1,k1,p1", "draws": "o1"},
                die=("vp1", "vp1"))
    assert out[0]["bag"] == "w1,w2,o1,g2,r1"
    assert out[1]["bag"] == "o1x2,g1,p1,k1"


def test_less_is_more():
    # Sums: seat 0 draws w1 x4 + o1 = 5, seat 1 w3 + w2 + w2 + o1 + g1 = 9: seat 0 (lowest) takes
    # a blue 2, seat 1 a ruby. Both then brew o1 (reward 2) and roll.
    out = seats("less-is-more", 1,
                {"bag": "start", "card_draws": "w1,w1,w1,w1,o1", "draws": "o1"},
                {"bag": "start", "card_draws": "w3,w2,w2,o1,g1", "draws": "o1"}, die=("vp1", "vp1"))
    assert "b2" in out[0]["bag"] and out[0]["rubies"] == 1
    assert "b2" not in out[1]["bag"] and out[1]["rubies"] == 2


# --- blue cards: rules for the round ---------------------------------------------------------


def test_the_pot_is_full_rolls_twice():
    out = seats("the-pot-is-full", 1, {"bag": "o1x2", "draws": "o1,o1"}, QUIET, die=("vp2", "vp1"))
    assert out[0]["die"] == ["vp2", "vp1"] and out[0]["score"] == 3


def test_pumpkin_patch_party():
    out = seats("pumpkin-patch-party", 1, {"bag": "o1,w1", "draws": "o1,w1"}, QUIET)
    assert out[0]["placements"] == [{"chip": "o1", "index": 2}, {"chip": "w1", "index": 3}]


def test_lucky_devil_even_exploded():
    # Seat 0: o1 -> 1, w3 -> 4, reward 5 (ruby): +1 ruby, +2 VP. Seat 1 explodes on 8 (w3 3, w3 6,
    # w2 8; reward 9, a ruby space), takes the coins: still +2 VP.
    out = seats("lucky-devil", 1, {"bag": "o1,w3", "draws": "o1,w3"},
                {"bag": "w3x2,w2", "draws": "w3,w3,w2", "choice": "coins"})
    assert (out[0]["rubies"], out[0]["score"]) == (2, 2 + 1)  # the die: seat 0 is the only roller
    assert out[1]["exploded"] and (out[1]["rubies"], out[1]["score"]) == (2, 2)


def test_its_shining_extra_bright():
    out = seats("its-shining-extra-bright", 1, {"bag": "o1,w3", "draws": "o1,w3"}, QUIET)
    assert out[0]["rubies"] == 1 + 2


def test_magic_potion_refills_every_flask():
    out = seats("magic-potion", 1, {**QUIET, "flask": False}, {**QUIET, "flask": False},
                die=("vp1", "vp1"))
    assert out[0]["flask"] and out[1]["flask"]


def test_magic_potion_records_each_flask_it_refills():
    # Seat 0's flask is empty, seat 1's full: one "flask" card effect, for seat 0.
    res = play("magic-potion", 1, {**QUIET, "flask": False}, QUIET, die=("vp1", "vp1"))
    refills = [e for e in res["events"] if e.get("effect") == "flask"]
    assert [(e["seat"], e["amount"]) for e in refills] == [(0, 1)]


def test_seasoned_perfectly():
    # White exactly 7 (w3, w2, w2): droplet +1; 6 gets nothing.
    out = seats("seasoned-perfectly", 1, {"bag": "w3,w2x2", "draws": "w3,w2,w2"},
                {"bag": "w3x2", "draws": "w3,w3"}, die=("vp1",))
    assert out[0]["droplet"] == 1 and out[1]["droplet"] == 0


def test_living_in_luxury():
    # w3 w3 w2 w1 = 9: safe with the limit at 9 this round; w2 x3 and w1 x4 = 10 explodes.
    out = seats("living-in-luxury", 1, {"bag": "w3x2,w2,w1", "draws": "w3,w3,w2,w1"},
                {"bag": "w2x3,w1x4", "draws": "w2,w2,w2,w1,w1,w1,w1"})
    assert not out[0]["exploded"] and out[1]["exploded"]


def test_living_in_luxury_with_yellow_set3_does_not_add_up():
    # Yellow Set 3's first yellow (+1) and the card (+2): the larger counts, limit 9, not 10.
    out = seats("living-in-luxury", 1, {"bag": "y1,w3x3,w1", "draws": "y1,w3,w3,w3,w1"}, QUIET,
                sets=("books.yellow=3",))
    assert out[0]["exploded"]


def test_well_stirred():
    # o1 -> 1, w2 -> 3 goes back (space 3 stays empty), w1 -> 4; white 1. Declined: w2 stays.
    out = seats("well-stirred", 1, {"bag": "o1,w2,w1", "draws": "o1,w2,w1"},
                {"bag": "o1,w2,w1", "draws": "o1,w2,w1", "card_choice": False}, die=("vp1", "vp1"))
    assert out[0]["placements"] == [{"chip": "o1", "index": 1}, {"chip": "w1", "index": 4}]
    assert [p["chip"] for p in out[1]["placements"]] == ["o1", "w2", "w1"]


def test_strong_ingredient_places_one_more_chip():
    # Seat 0 stops after o1 (reward 2); it draws g4, w1, b2 and places the g4 at 1 + 4 = 5 with no
    # action; reward 6. Seat 1 exploded (w3 w3 w2) and draws nothing.
    out = seats("strong-ingredient", 1,
                {"bag": "o1,g4,w1,b2", "draws": "o1", "card_draws": "g4,w1,b2"},
                {"bag": "w3x2,w2", "draws": "w3,w3,w2"})
    assert out[0]["placements"][-1] == {"chip": "g4", "index": 5} and out[0]["reward_space"] == 6


def test_strong_ingredient_white_never_explodes():
    # White 7 (w3 w2 w2 -> 3, 5, 7); the card draws w3 and places it: 10, white 10, not exploded.
    out = seats("strong-ingredient", 1,
                {"bag": "w3,w2x2,w3", "draws": "w3,w2,w2", "card_draws": "w3", "card_choice": "w3"},
                QUIET)
    assert not out[0]["exploded"] and out[0]["reward_space"] == 11


def test_schadenfreude():
    # Seat 1 explodes: the player on its left (seat 0) takes the dearest 2-chip (round 1: blue 2).
    out = seats("schadenfreude", 1, QUIET, {"bag": "w3x2,w2", "draws": "w3,w3,w2"})
    assert out[0]["bag"] == "w1,b2" and out[1]["bag"] == "w2,w3x2"


def test_a_second_chance_first_chips_never_explode():
    # The card's draws carry no risk: w3 -> 3, w3 -> 6, w2 -> 8 (white 8) does not explode, nor
    # does o1 -> 9; four chips, so no question yet; the draws end: intact, reward 10. Seat 1 stops
    # after w3, w3, w2: intact too, reward 9. (tests/test_rules_edges.py has the rest.)
    out = seats("a-second-chance", 1, {"bag": "w3x2,w2,o1", "draws": "w3,w3,w2,o1"},
                {"bag": "w3x2,w2,o1", "draws": "w3,w3,w2", "card_choice": False})
    assert not out[0]["exploded"] and out[0]["reward_space"] == 10
    assert not out[1]["exploded"] and out[1]["reward_space"] == 9


def test_a_second_chance_after_five_chips():
    # Five chips placed, white 6 (>= limit - 1): start again; then o1 -> 1.
    out = seats("a-second-chance", 1,
                {"bag": "w3x2,o1x4", "draws": "w3,w3,o1,o1,o1,o1"}, QUIET, die=("vp1", "vp1"))
    assert out[0]["placements"] == [{"chip": "o1", "index": 1}]


def test_unknown_card_is_one_clear_error():
    with pytest.raises(RoundFileError, match="card"):
        play("no-such-card", 1, QUIET, QUIET)


def test_only_a_scripted_or_slot_function_card_slot_is_asked():
    """``cards.common.answer`` calls ``card_answer`` only for a seat it can answer (a round
    file's or a slot function's card slot); any other seat takes the card's built-in answer."""
    import numpy as np

    from sim.kernel.decisions.choices import card_slot_answers
    from sim.kernel.decisions.slots import CARD_DEFAULT, N_SLOTS, SCRIPTED, SLOT_CARD, USER_BASE

    SK = np.zeros((4, N_SLOTS), np.int64)
    SK[:, SLOT_CARD] = (CARD_DEFAULT, SCRIPTED, USER_BASE, USER_BASE + 3)
    assert [card_slot_answers(SK, s) for s in range(4)] == [False, True, True, True]
