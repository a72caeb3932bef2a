"""The Herb Witches' ingredient books: Sets 5 and 6 for green, blue, red, yellow, purple and
black, and both locoweed books, one scripted round each, worked out by hand from
component-data.md section 10.6 (10.4 for locoweed) and decisions.md.

Pot track (index: coins / VP, R = ruby): 1-5: coins = index, 0 VP (5 R); 6-9: 1 VP (9 R); 10-13:
2 VP (13 R); 14-17: 3 VP; 18-21: 4 VP; 22-25: 5 VP. Rat tails after scores 1, 4, 7, 10, ...
"""

from __future__ import annotations

import pytest
from round_helpers import events, play_round, spots

from sim.api.round_file import RoundFileError
from sim.rules.ruleset import load_ruleset

QUIET = {"bag": "w1", "draws": "w1"}  # places w1 on space 1 (reward 2)


def play(round_, *players, sets=(), die=("vp1", "vp1", "vp1")):
    return play_round(round_, *players, rules="herb-witches", sets=sets, die=die)


def seats(*args, **kw):
    return play(*args, **kw)["players"]


# --- green --------------------------------------------------------------------------------------

def test_green_5_picks_a_chip_to_place_first_next_round():
    # r4 -> 4, g4 -> 8: the green 4 (last) may pick a chip worth at most 4: the r4.
    res = play(2, {"bag": "r4,g4", "draws": "r4,g4", "green": ["r4"]}, QUIET,
               sets=["books.green=5"])
    assert [e["chip"] for e in events(res, "green_first")] == ["r4"]
    # Next round the picked chip is placed first, before any draw: r4 -> 4, then o1 -> 5.
    out = seats(3, {"bag": "r4,o1", "draws": "o1", "first": "r4"}, QUIET, sets=["books.green=5"])
    assert spots(out[0]) == [("r4", 4), ("o1", 5)]
    # A chip worth more than the green is refused.
    res = play(2, {"bag": "r4,g2", "draws": "r4,g2", "green": ["r4"]}, QUIET,
               sets=["books.green=5"])
    assert events(res, "green_first") == []


def test_green_6_rolls_the_die_for_each_green_at_the_end():
    # g2 -> 2, g1 -> 3: reward 4, the furthest pot rolls (vp1), then two green rolls (vp2, ruby).
    out = seats(2, {"bag": "g2,g1", "draws": "g2,g1"}, QUIET, sets=["books.green=6"],
                die=("vp1", "vp2", "ruby"))
    assert out[0]["die"] == ["vp1", "vp2", "ruby"]
    assert (out[0]["vp_gained"], out[0]["rubies"]) == (1 + 2, 1 + 1)


# --- blue ---------------------------------------------------------------------------------------

def test_blue_5_scores_its_value_with_enough_pumpkins():
    # o1, o1, b2 -> 4: two pumpkins for a blue 2: 2 VP; reward 5 (0 VP) and the die (1 VP).
    out = seats(2, {"bag": "o1x2,b2", "draws": "o1,o1,b2"}, QUIET, sets=["books.blue=5"])
    assert out[0]["vp_gained"] == 2 + 1
    out = seats(2, {"bag": "o1,b2", "draws": "o1,b2"}, QUIET, sets=["books.blue=5"])
    assert out[0]["vp_gained"] == 0 + 1  # one pumpkin is not enough


def test_blue_6_pays_a_ruby_for_each_white_1_just_before_it():
    # w1 -> 1, o1 -> 2, w1 -> 3, b2 -> 5: the 2 chips before it are o1, w1: 1 ruby. A b4 looks at
    # 3 chips (w1, o1, w1): 2 rubies.
    out = seats(2, {"bag": "w1x2,o1,b2", "draws": "w1,o1,w1,b2"}, QUIET, sets=["books.blue=6"])
    assert spots(out[0])[-1] == ("b2", 5) and out[0]["rubies"] == 1 + 1
    out = seats(2, {"bag": "w1x2,o1,b4", "draws": "w1,o1,w1,b4"}, QUIET, sets=["books.blue=6"])
    assert out[0]["rubies"] == 1 + 2


# --- red ----------------------------------------------------------------------------------------

def test_red_5_moves_by_the_higher_red_in_the_pot():
    # r4 -> 4; r1 with a red 4 in the pot moves 4 -> 8 (or 1 -> 5 when declined).
    out = seats(2, {"bag": "r4,r1", "draws": "r4,r1", "red": [True, True]}, QUIET,
                sets=["books.red=5"])
    assert spots(out[0]) == [("r4", 4), ("r1", 8)]
    out = seats(2, {"bag": "r4,r1", "draws": "r4,r1", "red": [True, False]}, QUIET,
                sets=["books.red=5"])
    assert spots(out[0]) == [("r4", 4), ("r1", 5)]


def test_red_6_draws_a_chip_to_place_now_or_at_the_end():
    p = {"bag": "r1,o1,w1", "draws": "r1,o1,w1", "red_hold": [True]}
    out = seats(2, p, QUIET, sets=["books.red=6"])
    assert spots(out[0]) == [("r1", 1), ("o1", 2), ("w1", 3)]
    out = seats(2, {**p, "red_hold": [False]}, QUIET, sets=["books.red=6"])
    assert spots(out[0]) == [("r1", 1), ("w1", 2), ("o1", 3)]


def test_red_6_a_held_white_explodes_the_pot_at_the_end():
    # r1 -> 1, w3 held; w3 -> 4, w2 -> 6 (whites 5), stop; the held w3 -> 9: whites 8, exploded.
    out = seats(2, {"bag": "r1,w3x2,w2", "draws": "r1,w3,w3,w2", "red_hold": [False]}, QUIET,
                sets=["books.red=6"])
    assert spots(out[0]) == [("r1", 1), ("w3", 4), ("w2", 6), ("w3", 9)] and out[0]["exploded"]


# --- yellow -------------------------------------------------------------------------------------

def test_yellow_5_moves_on_by_the_next_chip_drawn():
    # y1 -> 1, then o6 is drawn: the yellow moves on 6 -> 7; o6 goes back to the bag.
    res = play(2, {"bag": "y1,o6", "draws": "y1,o6"}, QUIET, sets=["books.yellow=5"])
    out = res["players"][0]
    assert spots(out) == [("y1", 7)] and out["reward_space"] == 8 and out["bag"] == "o6,y1"
    assert events(res, "yellow_push")[0] == {"round": 2, "event": "yellow_push", "seat": 0,
                                             "chip": "o6", "spaces": 6, "index": 7}


def test_yellow_6_pays_a_ruby_for_three_more_spaces():
    # y1 with a ruby paid: 1 + 3 -> 4; reward 5 shows a ruby: rubies 2 - 1 + 1.
    out = seats(2, {"bag": "y1", "draws": "y1", "rubies": 2, "yellow_ruby": [True]}, QUIET,
                sets=["books.yellow=6"])
    assert spots(out[0]) == [("y1", 4)] and out[0]["rubies"] == 2
    out = seats(2, {"bag": "y1", "draws": "y1", "rubies": 2, "yellow_ruby": [False]}, QUIET,
                sets=["books.yellow=6"])
    assert spots(out[0]) == [("y1", 1)] and out[0]["rubies"] == 2


# --- purple -------------------------------------------------------------------------------------

def test_purple_5_buys_with_the_vp_of_the_purple_spaces():
    # Droplet 10: p1 -> 11 (2 VP), p1 -> 12 (2 VP): 4 coins at B, a green 1 (4).
    res = play(3, {"bag": "p1x2", "draws": "p1,p1", "droplet": 10, "purple_buy": "g1"}, QUIET,
               sets=["books.purple=5"])
    assert res["players"][0]["bought"] == ["g1"]
    assert events(res, "purple_coins")[0]["coins"] == 4
    with pytest.raises(RoundFileError, match="cannot afford"):
        play(3, {"bag": "p1x2", "draws": "p1,p1", "droplet": 10, "purple_buy": "b1"}, QUIET,
             sets=["books.purple=5"])
    # The last round: p1 -> 21 (4 VP), p1 -> 22 (5 VP): 9 coins, 1 VP; reward 23: 5 VP; die 1.
    out = seats(9, {"bag": "p1x2", "draws": "p1,p1", "droplet": 20, "rubies": 0}, QUIET,
                sets=["books.purple=5"])
    assert out[0]["vp_gained"] == 5 + 1 + 1 + 19 // 5


def test_purple_6_scores_the_value_of_the_chip_after_each_purple():
    # p1 -> 1, r2 -> 3, p1 -> 4, o1 -> 5: 2 + 1 VP; reward 6 (1 VP), die 1 VP.
    out = seats(3, {"bag": "p1x2,r2,o1", "draws": "p1,r2,p1,o1"}, QUIET, sets=["books.purple=6"])
    assert out[0]["vp_gained"] == 3 + 1 + 1


# --- black --------------------------------------------------------------------------------------

def test_black_5_a_black_chip_bought_goes_to_the_left_neighbour():
    # Droplet 10: o1 -> 11, reward 12: 12 coins, a k1 (10): into seat 1's bag, droplet + 1.
    out = seats(2, {"bag": "o1", "draws": "o1", "droplet": 10, "buy": "k1"}, QUIET, QUIET,
                sets=["books.black=5"])
    assert out[0]["bag"] == "o1" and out[1]["bag"] == "w1,k1" and out[0]["droplet"] == 11


def test_black_5_rubies_for_the_left_neighbours_blacks_and_the_own_last_two():
    # Seat 0: k1 -> 1, o1 -> 2 (its own black is next-to-last: 1 ruby); seat 1 (its left) has a
    # black in the pot: 1 ruby more. Seat 1's left (seat 2) has none, its own black is last: 1.
    # Seat 2's left is seat 0, with one black in the pot: 1.
    out = seats(2, {"bag": "k1,o1", "draws": "k1,o1"}, {"bag": "k1", "draws": "k1"}, QUIET,
                sets=["books.black=5"])
    assert (out[0]["rubies"], out[1]["rubies"], out[2]["rubies"]) == (1 + 2, 1 + 1, 1 + 1)


def test_black_6_furthest_and_second_furthest_black_chip():
    # Seat 0: k1 on 5; seat 1: k1 on 1; seat 2: k1 on 7. Seat 2 furthest: droplet + 1; seat 0
    # second: 1 ruby (reward 6: no ruby space).
    a = {"bag": "o1x4,k1", "draws": "o1,o1,o1,o1,k1"}
    b = {"bag": "k1,o6", "draws": "k1,o6"}
    c = {"bag": "o6,k1", "draws": "o6,k1"}
    out = seats(2, a, b, c, sets=["books.black=6"])
    assert [x["droplet"] for x in out] == [0, 0, 1]
    assert [x["rubies"] for x in out] == [2, 1, 1]
    # A tie for the furthest: both move; the second furthest (seat 1, space 1) takes the ruby.
    out = seats(2, {"bag": "o6,k1", "draws": "o6,k1"}, b, c, sets=["books.black=6"])
    assert [x["droplet"] for x in out] == [1, 0, 1] and out[1]["rubies"] == 2


# --- locoweed -----------------------------------------------------------------------------------

def test_locoweed_5_moves_the_rat_spaces_plus_one_at_most_four():
    # Round 2, scores 5 and 0: tails after 1 and 4 lie between: 2 rat spaces (start 2); the
    # locoweed moves 2 + 1 -> 5. Scores 11 and 0: 4 tails (1, 4, 7, 10), start 4; the locoweed
    # moves 4 + 1, capped at 4 -> 8.
    out = seats(2, {**QUIET, "score": 5}, {"bag": "l1", "draws": "l1"}, sets=["books.locoweed=5"])
    assert spots(out[1]) == [("l1", 5)]
    out = seats(2, {**QUIET, "score": 11}, {"bag": "l1", "draws": "l1"}, sets=["books.locoweed=5"])
    assert out[1]["rat"] == 4 and spots(out[1]) == [("l1", 4 + 4)]


def test_locoweed_6_copies_the_last_coloured_chip():
    # r4 -> 4, l1 copies the r4: 4 more -> 8. With only whites before: 1 space, no action.
    out = seats(2, {"bag": "r4,w1,l1", "draws": "r4,w1,l1"}, QUIET,
                sets=["books.locoweed=6"])
    assert spots(out[0]) == [("r4", 4), ("w1", 5), ("l1", 9)]
    out = seats(2, {"bag": "w1,l1", "draws": "w1,l1"}, QUIET, sets=["books.locoweed=6"])
    assert spots(out[0]) == [("w1", 1), ("l1", 2)]
    # It copies the action too: after a yellow Set 2 chip (the next chip moves twice as far) it
    # moves 1 x 2 and doubles the chip after it: y1 -> 1, l1 -> 3, o1 -> 5.
    out = seats(2, {"bag": "y1,l1,o1", "draws": "y1,l1,o1"}, QUIET,
                sets=["books.locoweed=6", "books.yellow=2"])
    assert spots(out[0]) == [("y1", 1), ("l1", 3), ("o1", 5)]


def test_books_all_5_takes_black_and_locoweed_too():
    rs = load_ruleset("herb-witches", ["books.all=5"])
    assert {c: rs.data["books"][c] for c in ("green", "black", "locoweed", "orange")} == \
        {"green": 5, "black": 5, "locoweed": 5, "orange": 5}
    rs.check_implemented()
    assert load_ruleset("herb-witches", ["books.all=2"]).data["books"]["black"] == 1
