"""Scripted rounds for the evaluation-step (B) effects of ingredient Sets 2-4 and red Set 2's
chips beside the pot, each worked out by hand from shared/rules component-data.md sections 6-7
and decisions.md.

Pot track (index: coins / VP / ruby): 1:1/0 2:2/0 3:3/0 4:4/0 5:5/0 R 6:6/1 7:7/1 8:8/1 9:9/1 R
10:10/2 11:11/2 12:12/2 13:13/2 R 14:14/3 ... Set 1 prices (the other colours' books): y1 8, p1 9,
b1 5, r1 6, g2 8, g4 14. Bags print in kernel type order w1 w2 w3 o1 o6 g1 g2 g4 b1 b2 b4 r1 r2 r4
y1 y2 y4 p1 k1.
"""

from __future__ import annotations

import pytest

from sim.api.round_file import RoundFileError, play_round_data


def play(sets, round_, *players, die=("vp1",), **top):
    d = {"players": len(players), "round": round_, "set": list(sets), "die": list(die),
         "player": [dict(p) for p in players], **top}
    return play_round_data(d, "test round")["players"]


QUIET = {"bag": "w1", "draws": "w1"}  # a seat that places w1 on 1 (reward 2) and does nothing


# --- green -----------------------------------------------------------------------------------


def test_green_set2_default_takes_the_dearer_chip():
    # Seat 0: g2 -> 2, o1 -> 3, g4 -> 7; last two: o1, g4 -> yellow 1 (8) or purple 1 (9) in
    # round 3: the purple. Seat 1: w1 -> 1, g1 -> 2, g2 -> 4: g1 -> orange 1; g2 -> blue 1 (5) or
    # red 1 (6): the red.
    out = play(["books.green=2"], 3,
               {"bag": "g2,o1,g4", "draws": "g2,o1,g4"},
               {"bag": "w1,g1,g2", "draws": "w1,g1,g2"})
    assert out[0]["bag"] == "o1,g2,g4,p1"
    assert out[1]["bag"] == "w1,o1,g1,g2,r1"
    # No Set 1 rubies with Set 2: seat 0 keeps 1; seat 1 only takes space 5's ruby (C).
    assert out[0]["rubies"] == 1 and out[1]["rubies"] == 2


def test_green_set2_scripted_choices():
    out = play(["books.green=2"], 3,
               {"bag": "g2,o1,g4", "draws": "g2,o1,g4", "green": ["y1"]},
               {"bag": "w1,g1,g2", "draws": "w1,g1,g2", "green": ["none", "b1"]})
    assert out[0]["bag"] == "o1,g2,g4,y1"
    assert out[1]["bag"] == "w1,g1,g2,b1"


def test_green_set2_only_grants_books_that_are_out():
    # Round 2: the purple book is not out (round 3), so the green 4 gives the yellow 1; a script
    # asking for the purple gets nothing.
    out = play(["books.green=2"], 2,
               {"bag": "g2,o1,g4", "draws": "g2,o1,g4"},
               {"bag": "o1,g4", "draws": "o1,g4", "green": ["p1"]})
    assert out[0]["bag"] == "o1,g2,g4,y1"
    assert out[1]["bag"] == "o1,g4"


def test_green_set3_exactly_seven_moves_the_last_chip():
    # Seat 0: g2 -> 2, w3 -> 5, w2 -> 7, w2 -> 9 (white 7), g1 -> 10; reward 11 before B.
    # Seat 1: w3 -> 3, w3 -> 6, then o1 x5 -> 7..11; reward 12, white 6: it rolls the die (A).
    # B: seat 0 has exactly 7: greens 2 + 1 = 3, the last chip moves 10 -> 13, reward 14
    # (14 coins, 3 VP). The die is not rolled again (green Set 3 acts after A).
    out = play(["books.green=3"], 1,
               {"bag": "g2,w3,w2x2,g1", "draws": "g2,w3,w2,w2,g1"},
               {"bag": "w3x2,o1x5", "draws": "w3,w3,o1,o1,o1,o1,o1"}, die=("vp2",))
    assert out[0]["reward_space"] == 14 and out[0]["coins"] == 14
    assert out[0]["score"] == 3 and out[0]["die"] == []
    assert out[0]["placements"][-1] == {"chip": "g1", "index": 13}
    assert out[1]["reward_space"] == 12 and out[1]["die"] == ["vp2"] and out[1]["score"] == 4


def test_green_set3_needs_exactly_the_limit():
    # White 6: no move. o1 -> 1, w3 -> 4, w3 -> 7, g2 -> 9: reward 10.
    out = play(["books.green=3"], 1, {"bag": "o1,w3x2,g2", "draws": "o1,w3,w3,g2"}, QUIET)
    assert out[0]["reward_space"] == 10


def test_green_set4_pays_rubies_for_droplet_moves():
    # o1 -> 1, o1 -> 2, g1 -> 3, g2 -> 5 (ruby space 5 is not the reward: reward 6). Both greens
    # are last / next-to-last: with 3 rubies the default pays twice -> 1 ruby, droplet 2.
    out = play(["books.green=4"], 2,
               {"bag": "o1x2,g1,g2", "draws": "o1,o1,g1,g2", "rubies": 3},
               {"bag": "o1x2,g1,g2", "draws": "o1,o1,g1,g2", "rubies": 3, "green": [True, False]},
               die=("vp1", "vp1"))  # both reach 6: both roll
    assert (out[0]["rubies"], out[0]["droplet"]) == (1, 2)
    assert (out[1]["rubies"], out[1]["droplet"]) == (2, 1)


def test_green_set4_not_paid_in_the_last_round():
    out = play(["books.green=4"], 9, {"bag": "o1x2,g1,g2", "draws": "o1,o1,g1,g2", "rubies": 3},
               QUIET)
    assert out[0]["droplet"] == 0


# --- purple ----------------------------------------------------------------------------------


def test_purple_set2_trades_the_top_tier_by_default():
    # p1 -> 1, 2, 3; o1 -> 4; reward 5 (a ruby space). Tier 3: the three purples go back to the
    # supply; yellow 4, 6 VP, 1 ruby, droplet +2. Rubies 1 + 1 + 1 (space 5) = 3. Seat 0 is
    # furthest and rolls the die: +1 VP.
    out = play(["books.purple=2"], 3, {"bag": "p1x3,o1", "draws": "p1,p1,p1,o1"}, QUIET)
    assert out[0]["bag"] == "o1,y4"
    assert (out[0]["score"], out[0]["rubies"], out[0]["droplet"]) == (6 + 1, 3, 2)


@pytest.mark.parametrize("tier, bag, score, rubies, droplet", [
    (2, "o1,g1,b2,p1", 3 + 1, 2, 1),  # green 1 + blue 2 + 3 VP + droplet 1 (+1 VP die)
    (1, "o1,p1x2,k1", 1 + 1, 3, 0),   # black 1 + 1 VP + 1 ruby
    (0, "o1,p1x3", 0 + 1, 2, 0),      # no trade
])
def test_purple_set2_lower_tiers(tier, bag, score, rubies, droplet):
    out = play(["books.purple=2"], 3, {"bag": "p1x3,o1", "draws": "p1,p1,p1,o1", "purple": tier},
               QUIET)
    assert out[0]["bag"] == bag
    assert (out[0]["score"], out[0]["rubies"], out[0]["droplet"]) == (score, rubies, droplet)


def test_purple_set3_scores_by_printed_coin_number():
    # Droplet 20: p1 -> 21 (coins 18: 1 VP), g4 -> 25, p1 -> 26 (20: 2 VP), g4 -> 30, 34, 38, 42,
    # p1 -> 43 (29: 2 VP), g4 -> 47, p1 -> 48 (31: 3 VP). 8 VP from purple, reward 49 (13 VP),
    # and the die (furthest): 1 VP.
    out = play(["books.purple=3"], 3,
               {"bag": "p1x4,g4x6", "droplet": 20,
                "draws": "p1,g4,p1,g4,g4,g4,g4,p1,g4,p1"}, QUIET)
    assert out[0]["reward_space"] == 49
    assert out[0]["score"] == 8 + 13 + 1


def test_purple_set4_upgrades_a_chip():
    # Two purples: tier 2 (a 2-chip becomes a 4-chip): the green 2 (8 -> 14, the only one).
    out = play(["books.purple=4"], 3, {"bag": "r1,g2,p1x2,o1", "draws": "r1,g2,p1,p1"}, QUIET)
    assert out[0]["bag"] == "o1,g4,r1,p1x2"
    # A lower tier by script: the red 1 becomes a red 2.
    out = play(["books.purple=4"], 3,
               {"bag": "r1,g2,p1x2,o1", "draws": "r1,g2,p1,p1", "upgrade": "r1>r2"}, QUIET)
    assert out[0]["bag"] == "o1,g2,r2,p1x2"
    # Tier 3 (1 -> 4) needs three purples: refused with two.
    out = play(["books.purple=4"], 3,
               {"bag": "r1,g2,p1x2,o1", "draws": "r1,g2,p1,p1", "upgrade": "r1>r4"}, QUIET)
    assert out[0]["bag"] == "o1,g2,r1,p1x2"


def test_purple_set4_never_upgrades_orange():
    out = play(["books.purple=4"], 3, {"bag": "o1,p1", "draws": "o1,p1"}, QUIET)
    assert out[0]["bag"] == "o1,p1"


def test_upgrade_key_is_checked():
    with pytest.raises(RoundFileError, match="upgrade"):
        play(["books.purple=4"], 3, {"bag": "o1,p1", "draws": "o1,p1", "upgrade": "r1>g2"}, QUIET)


# --- red Set 2: beside the pot ---------------------------------------------------------------


def test_red_set2_kept_beside_the_pot():
    # r2 drawn and set aside; o1 -> 1; kept: reward 2, r2 still the player's chip, beside the pot.
    out = play(["books.red=2"], 2, {"bag": "r2,o1", "draws": "r2,o1", "red_after": ["keep"]}, QUIET,
               die=("vp1", "vp1"))
    assert out[0]["reward_space"] == 2
    assert out[0]["beside"] == "r2" and out[0]["bag"] == "o1,r2"


def test_red_set2_from_an_earlier_round_is_placed_after_stopping():
    # The r2 waits beside the pot from an earlier round, so it cannot be drawn: o1 -> 1, then it is
    # placed: 1 + 2 = 3, reward 4.
    out = play(["books.red=2"], 2, {"bag": "o1", "beside": "r2", "draws": "o1"}, QUIET)
    assert out[0]["placements"] == [{"chip": "o1", "index": 1}, {"chip": "r2", "index": 3}]
    assert out[0]["reward_space"] == 4 and "beside" not in out[0]


def test_red_set2_returned_to_the_bag():
    out = play(["books.red=2"], 2,
               {"bag": "o1", "beside": "r2", "draws": "o1", "red_after": ["return"]}, QUIET,
               die=("vp1", "vp1"))
    assert out[0]["reward_space"] == 2 and "beside" not in out[0]
    assert out[0]["bag"] == "o1,r2"


def test_beside_key_takes_only_red():
    with pytest.raises(RoundFileError, match="beside"):
        play(["books.red=2"], 2, {"bag": "o1", "beside": "g1", "draws": "o1"}, QUIET)


# --- whole sets --------------------------------------------------------------------------------


def test_books_all_sets_every_coloured_book():
    from sim.rules.ruleset import load_ruleset

    rs = load_ruleset("base", ["books.all=3"])
    assert [rs.data["books"][c] for c in ("green", "blue", "red", "yellow", "purple")] == [3] * 5
    assert rs.data["books"]["orange"] == 1 and rs.data["books"]["black"] == 1
    assert int(rs.price[8]) == 4  # b1 costs 4 with blue Set 3
