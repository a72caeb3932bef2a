"""Forced-draw scenarios for the draw-time effects of ingredient Sets 2-4 (red, yellow, blue).

Every expected number is worked out by hand from shared/rules component-data.md section 7 (the
book effects) and decisions.md: positions are track indices 0..53, a chip moves ``value`` spaces
from the previous chip (from the start space for the first one), the reward space is the space
right after the last chip, only white chips count toward the explosion limit (7 is safe), and only
the chosen set's effect applies to a colour. Ruby spaces: 5, 9, 13, 16, ...
"""

from __future__ import annotations

import json

from typer.testing import CliRunner

from sim.api.potion import make_query
from sim.api.potion_draws import forced
from sim.cli.main import app
from sim.rules.ruleset import load_ruleset

runner = CliRunner()


def brew(bag, draws, *sets, stop="never"):
    rs = load_ruleset("base", list(sets))
    return forced(make_query(bag, stop, None, 0, rs), draws)


def places(res):
    return [(p["chip"], p["index"]) for p in res["placements"]]


# --- red -------------------------------------------------------------------------------------


def test_red_set2_is_set_aside_then_placed_after_the_last_chip():
    # o1 -> 1; r2 is drawn but set beside the pot; w1 -> 2; the bag is empty, brewing ends;
    # the red is then placed after the last chip: 2 + 2 = 4; reward space 5.
    res = brew("o1,r2,w1", "o1,r2,w1", "books.red=2")
    assert places(res) == [("o1", 1), ("w1", 2), ("r2", 4)]
    assert res["reward_space"] == 5


def test_red_set2_placed_after_an_explosion():
    # w3 -> 3; r1 aside; w3 -> 6 (white 6); w2 -> 8 (white 8 > 7: explodes). The red still goes
    # after the last chip: 8 + 1 = 9, reward space 10.
    res = brew("w3,w3,r1,w2", "w3,r1,w3,w2", "books.red=2")
    assert res["exploded"] is True
    assert places(res) == [("w3", 3), ("w3", 6), ("w2", 8), ("r1", 9)]
    assert res["reward_space"] == 10


def test_red_set3_adds_the_white_just_before():
    # w2 -> 2; r1 follows a white 2: moves 1 + 2 = 3 -> 5; reward 6.
    res = brew("w2,r1", "w2,r1", "books.red=3")
    assert places(res) == [("w2", 2), ("r1", 5)]
    # After an orange there is no bonus (and no Set 1 pumpkin bonus: one book per colour).
    res = brew("o1,r1", "o1,r1", "books.red=3")
    assert places(res) == [("o1", 1), ("r1", 2)]


def test_red_set4_white_ones_move_two_after_a_red():
    # w1 -> 1 (no red yet); r1 -> 2; w1 -> 4 (moves 2, counts 1); w2 -> 6 (only 1-chips);
    # white total 1 + 1 + 2 = 4.
    res = brew("w1,r1,w1,w2", "w1,r1,w1,w2", "books.red=4")
    assert places(res) == [("w1", 1), ("r1", 2), ("w1", 4), ("w2", 6)]
    assert res["white_total"] == 4


# --- yellow ----------------------------------------------------------------------------------


def test_yellow_set2_doubles_the_next_chip():
    # y1 -> 1; o1 doubled -> 1 + 2 = 3; reward 4.
    assert places(brew("y1,o1", "y1,o1", "books.yellow=2")) == [("y1", 1), ("o1", 3)]


def test_yellow_set2_doubles_the_red_bonus_too():
    # o1 -> 1; y1 -> 2; r1 with one pumpkin moves (1 + 1) x 2 = 4 -> 6 (decisions.md: the next
    # chip's movement, its own book's extra included).
    res = brew("o1,y1,r1", "o1,y1,r1", "books.yellow=2")
    assert places(res) == [("o1", 1), ("y1", 2), ("r1", 6)]


def test_yellow_set2_doubles_a_white_but_not_its_count():
    # y2 -> 2; w2 doubled -> 6; white total stays 2.
    res = brew("y2,w2", "y2,w2", "books.yellow=2")
    assert places(res) == [("y2", 2), ("w2", 6)]
    assert res["white_total"] == 2


def test_yellow_set3_raises_the_limit():
    # Without yellow: w3, w3, w2 = 8 explodes. With a yellow first the limit is 8: safe.
    res = brew("w3,w3,w2", "w3,w3,w2", "books.yellow=3")
    assert res["exploded"] is True
    res = brew("y1,w3,w3,w2", "y1,w3,w3,w2", "books.yellow=3")
    assert res["exploded"] is False and res["white_total"] == 8
    # A ninth white point explodes with one yellow ...
    res = brew("y1,w3,w3,w3", "y1,w3,w3,w3", "books.yellow=3")
    assert res["exploded"] is True
    # ... but not after the third yellow (limit 9).
    res = brew("y1x3,w3x3", "y1,y1,y1,w3,w3,w3", "books.yellow=3")
    assert res["exploded"] is False and res["white_total"] == 9


def test_yellow_set3_limit_is_not_raised_in_set1():
    res = brew("y1,w3,w3,w2", "y1,w3,w3,w2")
    assert res["exploded"] is True


def test_yellow_set4_extra_distance_for_the_first_three():
    # y1 -> 0+1+1 = 2; y1 -> 2+1+2 = 5; y1 -> 5+1+3 = 9; the fourth: 9+1 = 10; reward 11.
    res = brew("y1x4", "y1,y1,y1,y1", "books.yellow=4")
    assert places(res) == [("y1", 2), ("y1", 5), ("y1", 9), ("y1", 10)]
    assert res["reward_space"] == 11


# --- blue ------------------------------------------------------------------------------------


def test_blue_set2_explosion_inside_the_window_is_protected():
    # w3 -> 3; w3 -> 6; b2 -> 8 opens a window of 2 draws; w2 -> 10: white 8 explodes inside it.
    res = brew("w3,w3,b2,w2", "w3,w3,b2,w2", "books.blue=2")
    assert res["exploded"] is True and res["protected"] is True
    assert res["reward_space"] == 11


def test_blue_set2_explosion_after_the_window_is_not_protected():
    # b1 -> 1, window 1: w3 -> 4 uses it; w3 -> 7; w2 -> 9: white 8 explodes after the window.
    res = brew("b1,w3,w3,w2", "b1,w3,w3,w2", "books.blue=2")
    assert res["exploded"] is True and res["protected"] is False


def test_blue_set2_windows_do_not_add_up():
    # b2 -> 2 (window 2); b1 -> 3: the window is max(1 left, 1) = 1, not 1 + 1; w3 -> 6 uses it;
    # w3 -> 9; w2 -> 11: white 8 explodes outside any window.
    res = brew("b2,b1,w3,w3,w2", "b2,b1,w3,w3,w2", "books.blue=2")
    assert res["exploded"] is True and res["protected"] is False
    # b4 -> 4 then b1 -> 5: the longer window (3 left) counts: w3, w3, w2 all inside it.
    res = brew("b4,b1,w3,w3,w2", "b4,b1,w3,w3,w2", "books.blue=2")
    assert res["exploded"] is True and res["protected"] is True


def test_blue_set2_does_not_look():
    # Set 2 blue chips have no look-and-place: every draw is placed in order.
    res = brew("b1,o1,w1", "b1,o1,w1", "books.blue=2")
    assert places(res) == [("b1", 1), ("o1", 2), ("w1", 3)]


def test_blue_set3_ruby_on_a_ruby_space():
    # w2 -> 2; w2 -> 4; b1 -> 5, a ruby space: one ruby at once. A blue on 6 gives nothing.
    assert brew("w2,w2,b1", "w2,w2,b1", "books.blue=3")["book_rubies"] == 1
    assert brew("w2,w2,b2", "w2,w2,b2", "books.blue=3")["book_rubies"] == 0


def test_blue_set4_vp_on_a_ruby_space():
    # o1 -> 1; b4 -> 5 (ruby space): 4 VP at once. o1 -> 1; w3 -> 4; b1 -> 5: 1 VP.
    assert brew("o1,b4", "o1,b4", "books.blue=4")["book_vp"] == 4
    assert brew("o1,w3,b1", "o1,w3,b1", "books.blue=4")["book_vp"] == 1
    assert brew("o1,b2", "o1,b2", "books.blue=4")["book_vp"] == 0


def test_potion_cli_takes_a_book():
    r = runner.invoke(app,
                      ["potion", "--bag", "y1,o1", "--draws", "y1,o1", "--set", "books.yellow=2",
                            "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert [(p["chip"], p["index"]) for p in out["placements"]] == [("y1", 1), ("o1", 3)]


# --- a card's draw-time rule on a single potion (quacks potion --card) -------------------------


def brew_card(bag, draws, card):
    rs = load_ruleset("base")
    return forced(make_query(bag, "never", None, 0, rs, card=card), draws)


def test_potion_under_pumpkin_patch_party():
    assert places(brew_card("o1,o1", "o1,o1", "pumpkin-patch-party")) == [("o1", 2), ("o1", 4)]


def test_potion_under_living_in_luxury():
    res = brew_card("w3x3", "w3,w3,w3", "living-in-luxury")
    assert res["exploded"] is False and res["explosion_limit"] == 9


def test_potion_under_a_second_chance():
    # The card's first five chips carry no risk: w3 w3 w2 o1 -> 3, 6, 8, 9, white 8, intact.
    res = brew_card("w3x2,w2,o1", "w3,w3,w2,o1", "a-second-chance")
    assert res["exploded"] is False and places(res) == [("w3", 3), ("w3", 6), ("w2", 8), ("o1", 9)]
    # Five chips over the limit: the default starts again and draws o1 -> 1.
    res = brew_card("w3x2,w2,o1x2", "w3,w3,w2,o1,o1,o1", "a-second-chance")
    assert res["exploded"] is False and places(res) == [("o1", 1)]


def test_potion_card_errors_are_one_line():
    r = runner.invoke(app, ["potion", "--card", "no-such-card"])
    assert r.exit_code == 2 and "no such card" in r.output
    r = runner.invoke(app, ["potion", "--card", "living-in-luxury", "--exact"])
    assert r.exit_code == 2 and "--exact" in r.output
    r = runner.invoke(app, ["potion", "--set", "books.red=2", "--exact"])
    assert r.exit_code == 2
