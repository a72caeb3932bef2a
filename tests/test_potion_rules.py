"""Forced-draw scenarios for one potion: placement, red, explosion, flask, yellow, blue, track end.

Every expected number is worked out by hand from shared/rules (rules-guide-base-game.txt "Draw one
ingredient blindly", "Watch the white total", "Use the selected books' effects", "Evaluate
together", "Find the reward space"; component-data.md sections 2 and 7; decisions.md "Board and
counting"). The reasoning is in the comment next to each case. Positions are track indices
0..53 (decisions.md): a chip moves ``value`` spaces from the previous chip (from the start space
for the first chip), and the reward space is the space right after the last chip in the pot.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from sim.api.potion import PotionInputError, make_query
from sim.api.potion_draws import forced
from sim.cli.main import app
from sim.rules.ruleset import load_ruleset

runner = CliRunner()


def brew(bag, draws, *, flask=None, start=0, sets=(), stop="never"):
    rs = load_ruleset("base", list(sets))
    return forced(make_query(bag, stop, flask, start, rs), draws)


def places(res):
    """The chips in the pot at the end, in order (a chip sent back to the bag is not placed)."""
    return [(p["chip"], p["index"]) for p in res["placements"]]


def returned(res):
    """Chips placed and then sent back to the bag: (chip, space it left, by flask / yellow)."""
    return [(p["chip"], p["index"], p["by"]) for p in res["returned"]]


def cli_draws(*args):
    r = runner.invoke(app, ["potion", *args, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


# ---------------------------------------------------------------------------------------------
# plain placement and the start offset


def test_placement_counts_from_previous_chip():
    # Rules guide demo: "an orange 1 at space 1, then a white 2 at space 3", reward = next space 4.
    res = brew("o1,w2", "o1,w2")
    assert places(res) == [("o1", 1), ("w2", 3)]
    assert res["reward_space"] == 4
    assert res["exploded"] is False
    assert res["white_total"] == 2


def test_start_offset():
    # Start (droplet) on 3: w1 -> 3+1 = 4, o1 -> 5, reward 6 (coins 6, VP 1, no ruby; §2 idx 6).
    res = brew("w1,o1", "w1,o1", start=3)
    assert places(res) == [("w1", 4), ("o1", 5)]
    assert (res["reward_space"], res["coins"], res["vp"], res["ruby"]) == (6, 6, 1, False)


def test_start_offset_first_chip_large():
    # Start 10: g4 -> 14, w3 -> 17; reward 18 (§2 idx 18: 16 coins, 4 VP, no ruby).
    res = brew("g4,w3", "g4,w3", start=10)
    assert places(res) == [("g4", 14), ("w3", 17)]
    assert (res["reward_space"], res["coins"], res["vp"], res["ruby"]) == (18, 16, 4, False)


# ---------------------------------------------------------------------------------------------
# red (Set 1): +1 with 1-2 pumpkins already in the pot, +2 with 3 or more


@pytest.mark.parametrize(
    "bag,draws,expected",
    [
        # no pumpkin: red moves its printed value
        ("r1", "r1", [("r1", 1)]),
        ("r2", "r2", [("r2", 2)]),
        ("r4", "r4", [("r4", 4)]),
        # one pumpkin: o1 on 1, r1 moves 1+1 -> 3; r4 moves 4+1 -> 6
        ("o1,r1", "o1,r1", [("o1", 1), ("r1", 3)]),
        ("o1,r4", "o1,r4", [("o1", 1), ("r4", 6)]),
        # two pumpkins: 1, 2, then r2 moves 2+1 -> 5
        ("o1x2,r2", "o1,o1,r2", [("o1", 1), ("o1", 2), ("r2", 5)]),
        # three pumpkins: 1, 2, 3, then r1 moves 1+2 -> 6
        ("o1x3,r1", "o1,o1,o1,r1", [("o1", 1), ("o1", 2), ("o1", 3), ("r1", 6)]),
        # four pumpkins: still +2 only: 4, then r4 moves 4+2 -> 10
        ("o1x4,r4", "o1,o1,o1,o1,r4", [("o1", 1), ("o1", 2), ("o1", 3), ("o1", 4), ("r4", 10)]),
        # pumpkins count, not their values; a pumpkin placed after the red does not count:
        # r1 -> 1 (none yet), o1 -> 2, r1 -> 2+1+1 = 4
        ("r1x2,o1", "r1,o1,r1", [("r1", 1), ("o1", 2), ("r1", 4)]),
        # the extra applies to each red placement on its own: o1 1, r1 3, r1 5
        ("o1,r1x2", "o1,r1,r1", [("o1", 1), ("r1", 3), ("r1", 5)]),
        # whites between do not matter: o1 1, w2 3, r2 3+2+1 = 6
        ("o1,w2,r2", "o1,w2,r2", [("o1", 1), ("w2", 3), ("r2", 6)]),
    ],
)
def test_red_pumpkin_bonus(bag, draws, expected):
    res = brew(bag, draws)
    assert places(res) == expected
    assert res["reward_space"] == expected[-1][1] + 1
    assert res["exploded"] is False


def test_red_bonus_capped_at_last_space():
    # Start 48: o1 49, 50, 51; r4 moves 4+2 -> 57, placed on 52 (decisions.md: a chip reaching or
    # passing 52 sits on 52); reward is the spoon 53: 35 coins, 15 VP, no ruby.
    res = brew("o1x3,r4", "o1,o1,o1,r4", start=48)
    assert places(res) == [("o1", 49), ("o1", 50), ("o1", 51), ("r4", 52)]
    assert (res["reward_space"], res["coins"], res["vp"], res["ruby"]) == (53, 35, 15, False)


# ---------------------------------------------------------------------------------------------
# explosion: white total > 7 explodes (7 safe); the exploding chip is placed and counts


def test_white_total_7_is_safe_8_explodes():
    # w3 3, w3 6, w1 7 (total 7: safe, rules guide "exactly 7 is safe"), w1 8 (total 8: explodes).
    res = brew("w3x2,w1x2", "w3,w3,w1")
    assert res["exploded"] is False and res["white_total"] == 7 and res["reward_space"] == 8
    res = brew("w3x2,w1x2", "w3,w3,w1,w1")
    assert places(res) == [("w3", 3), ("w3", 6), ("w1", 7), ("w1", 8)]
    assert res["exploded"] is True and res["white_total"] == 8
    # reward space = the space after the exploding chip: 9 (9 coins, 1 VP, ruby; §2 idx 9)
    assert (res["reward_space"], res["coins"], res["vp"], res["ruby"]) == (9, 9, 1, True)


def test_explosion_rules_guide_example():
    # Rules guide: whites total 6, another white 2 makes 8 and explodes. w3 3, w3 6, w2 8 ->
    # reward 9.
    res = brew("w3x2,w2", "w3,w3,w2")
    assert places(res) == [("w3", 3), ("w3", 6), ("w2", 8)]
    assert res["exploded"] is True
    assert res["white_total"] == 8
    assert res["reward_space"] == 9


def test_explosion_stops_brewing():
    # After the explosion no chip is drawn: the listed o1 stays unused.
    res = brew("w3x2,w2,o1", "w3,w3,w2,o1")
    assert res["exploded"] is True
    assert res["draws_unused"] == 1
    assert [c for c, _ in places(res)] == ["w3", "w3", "w2"]
    assert res["reward_space"] == 9


def test_coloured_chips_do_not_count_toward_explosion():
    # w3 3, w3 6, g4 10, r4 14, w1 15: white total 7 -> intact, reward 16 (15 coins, 3 VP, ruby).
    res = brew("w3x2,g4,r4,w1", "w3,w3,g4,r4,w1")
    assert res["exploded"] is False and res["white_total"] == 7
    assert (res["reward_space"], res["coins"], res["vp"], res["ruby"]) == (16, 15, 3, True)


def test_explosion_limit_override():
    # --set game.explosion_limit=8: total 8 is safe, 9 explodes.
    res = brew("w3x2,w2,w1", "w3,w3,w2", sets=["game.explosion_limit=8"])
    assert res["exploded"] is False and res["reward_space"] == 9
    res = brew("w3x2,w2,w1", "w3,w3,w2,w1", sets=["game.explosion_limit=8"])
    assert res["exploded"] is True and res["white_total"] == 9 and res["reward_space"] == 10


def test_exploding_chip_at_track_end_scores_spoon_space():
    # Start 45: w3 48, w3 51, w2 -> 53, placed on 52, total 8 explodes; reward space is the
    # spoon 53.
    res = brew("w3x2,w2", "w3,w3,w2", start=45)
    assert places(res) == [("w3", 48), ("w3", 51), ("w2", 52)]
    assert res["exploded"] is True
    assert (res["reward_space"], res["coins"], res["vp"]) == (53, 35, 15)


# ---------------------------------------------------------------------------------------------
# the flask (keep: the emptied space stays, the next chip counts on from it)


def test_flask_keep_next_chip_counts_from_emptied_space():
    # --flask 3: w1 on 1 (value 1 < 3: kept), w3 on 4 -> sent back (total back to 1), the space 4
    # stays empty and o1 counts on from it: 5; reward 6.
    res = brew("w1,w3,o1", "w1,w3,o1", flask=3)
    assert places(res) == [("w1", 1), ("o1", 5)]
    assert returned(res) == [("w3", 4, "flask")]
    assert "flask returns w3 from space 4 to the bag" in res["events"]
    assert res["white_total"] == 1
    assert res["reward_space"] == 6


def test_flask_reuse_counts_from_chip_before():
    # flask_space = reuse: after w3 (on 4) goes back, o1 counts from w1 on 1 -> 2; reward 3.
    for value in ('"reuse"', "reuse"):
        res = brew("w1,w3,o1", "w1,w3,o1", flask=3, sets=[f"game.flask_space={value}"])
        assert places(res) == [("w1", 1), ("o1", 2)]
        assert returned(res) == [("w3", 4, "flask")]
        assert res["white_total"] == 1
        assert res["reward_space"] == 3


def test_flask_reuse_on_first_chip_counts_from_start():
    # Start 5, flask 3. keep: w3 on 8 goes back, o1 -> 9, reward 10.
    # reuse: o1 counts from the start space 5 -> 6, reward 7.
    res = brew("w3,o1", "w3,o1", flask=3, start=5)
    assert places(res)[-1] == ("o1", 9) and res["reward_space"] == 10
    res = brew("w3,o1", "w3,o1", flask=3, start=5, sets=["game.flask_space=reuse"])
    assert places(res)[-1] == ("o1", 6) and res["reward_space"] == 7


def test_flask_stop_right_after_rewards_after_last_chip_in_pot():
    # w1 on 1, w3 on 4 sent back; the list ends: the reward space follows w1 (the last chip still
    # in the pot): 2.
    res = brew("w1,w3,o1", "w1,w3", flask=3)
    assert res["reward_space"] == 2
    assert res["white_total"] == 1
    # only chip flasked: nothing left in the pot -> the space after the start: 1 (start 0)
    res = brew("w3,o1", "w3", flask=3)
    assert res["reward_space"] == 1


def test_flask_threshold_and_once_only():
    # --flask 2: w1 (below 2) stays on 1; w2 on 3 goes back; o1 -> 4 (keep); reward 5.
    res = brew("w1,w2,o1", "w1,w2,o1", flask=2)
    assert places(res) == [("w1", 1), ("o1", 4)]
    assert returned(res) == [("w2", 3, "flask")]
    assert res["white_total"] == 1 and res["reward_space"] == 5
    # Once per potion: first w3 on 3 goes back; the second w3 (6) stays; o1 7; total 3; reward 8.
    res = brew("w3x2,o1", "w3,w3,o1", flask=3)
    assert places(res) == [("w3", 6), ("o1", 7)]
    assert returned(res) == [("w3", 3, "flask")]
    assert res["white_total"] == 3 and res["reward_space"] == 8
    assert sum("flask" in e for e in res["events"]) == 1


def test_flask_returned_chip_can_be_drawn_again():
    # bag w3,o1 --flask 3: w3 on 3 goes back into the bag, so it can be drawn again: o1 4, w3 7.
    res = brew("w3,o1", "w3,o1,w3", flask=3)
    assert places(res) == [("o1", 4), ("w3", 7)]
    assert returned(res) == [("w3", 3, "flask")]
    assert res["white_total"] == 3 and res["reward_space"] == 8


def test_flask_cannot_undo_an_explosion():
    # --flask 3: w2 2, w2 4, w2 6 (values < 3), w3 9: total 9 explodes; the flask is not used
    # ("The bottle cannot undo an explosion"); reward 10.
    res = brew("w2x3,w3", "w2,w2,w2,w3", flask=3)
    assert res["exploded"] is True
    assert res["white_total"] == 9
    assert res["reward_space"] == 10
    assert not any("flask" in e for e in res["events"])


def test_flask_unused_without_option():
    res = brew("w1,w3,o1", "w1,w3,o1")
    assert places(res) == [("w1", 1), ("w3", 4), ("o1", 5)]
    assert res["white_total"] == 4 and res["reward_space"] == 6


def test_flask_keep_on_last_space_may_continue():
    # Start 49, --flask 3: w3 -> 52 and goes back with the flask; space 52 is empty again and the
    # pot is intact, so brewing may go on (rules guide: "You may continue or stop"). With keep the
    # next chip counts on from 52: o1 reaches past 52, sits on 52 -> reward the spoon 53.
    res = brew("w3,o1", "w3,o1", flask=3, start=49)
    assert res["draws_unused"] == 0
    assert places(res) == [("o1", 52)]
    assert returned(res) == [("w3", 52, "flask")]
    assert res["reward_space"] == 53


# ---------------------------------------------------------------------------------------------
# yellow (Set 1): returns the white placed right before it


def test_yellow_returns_preceding_white():
    # w2 on 2, y1 on 3: w2 back to the bag, its space stays empty, total 0; reward after y1: 4.
    res = brew("w2,y1", "w2,y1")
    assert places(res) == [("y1", 3)]
    assert returned(res) == [("w2", 2, "yellow")]
    assert "yellow returns w2 from space 2 to the bag" in res["events"]
    assert res["white_total"] == 0
    assert res["reward_space"] == 4


def test_yellow_returned_white_is_back_in_bag():
    # The returned w2 can be drawn again: it lands 2 after the yellow: 5; total 2; reward 6.
    res = brew("w2,y1", "w2,y1,w2")
    assert places(res) == [("y1", 3), ("w2", 5)]
    assert returned(res) == [("w2", 2, "yellow")]
    assert res["white_total"] == 2 and res["reward_space"] == 6


def test_yellow_after_non_white_returns_nothing():
    # w2 2, o1 3, y1 4: the chip right before the yellow is orange -> nothing returned; total 2.
    res = brew("w2,o1,y1", "w2,o1,y1")
    assert places(res) == [("w2", 2), ("o1", 3), ("y1", 4)]
    assert returned(res) == []
    assert not any("yellow returns" in e for e in res["events"])
    assert res["white_total"] == 2 and res["reward_space"] == 5


def test_yellow_returns_only_the_immediately_preceding_white():
    # w1 1, w2 3, y2 5: only w2 goes back; total 1; next o1 counts from the yellow: 6; reward 7.
    res = brew("w1,w2,y2,o1", "w1,w2,y2,o1")
    assert places(res) == [("w1", 1), ("y2", 5), ("o1", 6)]
    assert returned(res) == [("w2", 3, "yellow")]
    assert res["white_total"] == 1 and res["reward_space"] == 7


def test_yellow_lowers_total_so_later_white_is_safe():
    # w3 3, w3 6, y1 7 (one w3 back: total 3), w3 10 (total 6), w1 11 (total 7): safe; reward 12.
    res = brew("w3x2,y1,w1", "w3,w3,y1,w3,w1")
    assert res["exploded"] is False
    assert res["white_total"] == 7
    assert res["reward_space"] == 12


def test_yellow_cannot_repair_an_explosion():
    # w3 3, w3 6, w2 8 explodes: brewing ends, the listed y1 is never drawn.
    res = brew("w3x2,w2,y1", "w3,w3,w2,y1")
    assert res["exploded"] is True and res["draws_unused"] == 1 and res["reward_space"] == 9


def test_flask_then_yellow_both_returned_neither_placed():
    # --flask 3: w1 on 1 (kept: below 3), w3 on 4 goes back with the flask (keep: 4 stays empty),
    # y1 counts on from 4: 5. The chip placed right before the yellow is now w1 (decisions.md:
    # "the flasked white is no longer placed"), so the yellow returns w1 from space 1. Only y1 is
    # left in the pot: white total 0, reward 6.
    res = brew("w1,w3,y1", "w1,w3,y1", flask=3)
    assert places(res) == [("y1", 5)]
    assert returned(res) == [("w3", 4, "flask"), ("w1", 1, "yellow")]
    assert res["white_total"] == 0 and res["reward_space"] == 6


def test_placements_are_the_pot_at_the_end():
    # The README example: w2 2, o1 3, 4, 5, r1 5+1+2 (three pumpkins) = 8, w3 11 goes back with
    # the flask, w1 counts on from 11: 12; reward 13 (13 coins, 2 VP, ruby). The w3 is returned,
    # not placed; the reward space follows the last chip in the pot.
    res = brew("start,o1x2,r1", "w2,o1,o1,o1,r1,w3,w1", flask=3)
    assert places(res) == [("w2", 2), ("o1", 3), ("o1", 4), ("o1", 5), ("r1", 8), ("w1", 12)]
    assert returned(res) == [("w3", 11, "flask")]
    assert res["white_total"] == 3
    assert (res["reward_space"], res["coins"], res["vp"], res["ruby"]) == (13, 13, 2, True)
    assert "r1: takes +2 extra" in res["events"]


# ---------------------------------------------------------------------------------------------
# blue (Set 1): looks at `value` chips and places the highest-value non-white one


@pytest.mark.parametrize(("bag", "draws", "placed", "white_total", "reward"), [
    # o1 on 1, b1 on 2, looks at r1 and places it: one pumpkin in the pot -> 1+1: on 4; reward 5.
    pytest.param("o1,b1,r1", "o1,b1,r1", [("o1", 1), ("b1", 2), ("r1", 4)], 0, 5,
                 id="red-gets-the-pumpkin-bonus"),
    # b4 on 4 looks at w3, o1, g2, r1: places g2 (value 2; the w3 is never chosen) on 6; reward 7.
    pytest.param("b4,w3,o1,g2,r1", "b4,w3,o1,g2,r1", [("b4", 4), ("g2", 6)], 0, 7,
                 id="highest-value-never-white"),
    # b2 on 2 looks at o1 and r1 (both value 1): the documented tie rule takes the later colour
    # (red). The looked-at o1 went back, so no pumpkin is in the pot: r1 moves 1 -> 3.
    # Then the o1 (back in the bag) is drawn: 4; reward 5.
    pytest.param("b2,o1,r1", "b2,o1,r1,o1", [("b2", 2), ("r1", 3), ("o1", 4)], 0, 5,
                 id="tie-later-colour-looked-pumpkin-not-in-pot"),
    # b1 on 1 looks at b1, places it on 2; that blue looks at o1, places it on 3; reward 4.
    pytest.param("b1x2,o1", "b1,b1,o1", [("b1", 1), ("b1", 2), ("o1", 3)], 0, 4,
                 id="blue-placing-blue-chains"),
    # b4 on 4 with only o1 left in the bag: looks at that one, places it on 5; reward 6.
    pytest.param("b4,o1", "b4,o1", [("b4", 4), ("o1", 5)], 0, 6, id="fewer-when-bag-small"),
    # w1 1, b1 2 places y1 on 3; the chip right before the yellow is the blue -> no return; total 1.
    pytest.param("w1,b1,y1", "w1,b1,y1", [("w1", 1), ("b1", 2), ("y1", 3)], 1, 4,
                 id="placed-yellow-after-blue-returns-nothing"),
])
def test_blue_places_the_chip_it_picks(bag, draws, placed, white_total, reward):
    res = brew(bag, draws)
    assert places(res) == placed
    assert res["white_total"] == white_total and res["reward_space"] == reward


def test_draws_events_read_as_each_events_one_declared_text():
    # Blue Set 2: b2 on 2 opens a protection window of 2 draws (its book's own event, declared
    # with it: "protected for the next {draws:~draw}"), o1 on 3, the bag is empty: reward 4. Each
    # event's text is the replay's (no second table), the draws themselves are the list's own.
    res = brew("b2,o1", "b2,o1", sets=["books.blue=2"])
    assert res["events"] == ["b2 -> space 2", "protected for the next 2 draws", "o1 -> space 3",
                             "bag empty; reward space 4 (white 0)"]


def test_blue_with_only_whites_places_nothing_and_returns_them():
    # b2 on 2 looks at w1, w2: no non-white -> nothing placed, both back, total 0; reward 3.
    res = brew("b2,w1,w2", "b2,w1,w2")
    assert places(res) == [("b2", 2)]
    assert any("blue places nothing" in e for e in res["events"])
    assert res["white_total"] == 0 and res["reward_space"] == 3
    # the looked-at whites are back in the bag: w1 drawn next lands on 3; reward 4
    res = brew("b2,w1,w2", "b2,w1,w2,w1")
    assert places(res) == [("b2", 2), ("w1", 3)]
    assert res["white_total"] == 1 and res["reward_space"] == 4


def test_blue_on_last_space_looks_at_nothing():
    # Start 50: b4 -> 54, sits on 52; the track is full, brewing ends; o1 unused; spoon 53.
    res = brew("b4,o1", "b4,o1", start=50)
    assert places(res) == [("b4", 52)]
    assert res["draws_unused"] == 1
    assert res["reward_space"] == 53


def test_blue_draw_list_too_short_is_an_error():
    with pytest.raises(PotionInputError, match="blue"):
        brew("b1,o1", "b1")


# ---------------------------------------------------------------------------------------------
# the end of the track and the spoon


def test_track_end_spoon_and_stop():
    # Start 50: r4 -> 54, placed on 52 -> reward the spoon 53 (35 coins, 15 VP, no ruby);
    # brewing ends there: the listed o1 is not drawn.
    res = brew("r4,o1", "r4,o1", start=50)
    assert places(res) == [("r4", 52)]
    assert (res["reward_space"], res["coins"], res["vp"], res["ruby"]) == (53, 35, 15, False)
    assert res["draws_unused"] == 1
    assert res["exploded"] is False


def test_chip_exactly_on_52_scores_spoon():
    # Start 51: o1 lands on 52 exactly -> reward 53.
    res = brew("o1", "o1", start=51)
    assert places(res) == [("o1", 52)] and res["reward_space"] == 53


def test_chip_on_51_scores_space_52_with_ruby():
    # Start 49: o1 50, o1 51 -> reward 52 (printed 33: 33 coins, 14 VP, ruby; §2 note: the ruby
    # on 52 is only collected when the last chip is on 51).
    res = brew("o1x2", "o1,o1", start=49)
    assert places(res) == [("o1", 50), ("o1", 51)]
    assert (res["reward_space"], res["coins"], res["vp"], res["ruby"]) == (52, 33, 14, True)


# ---------------------------------------------------------------------------------------------
# coins / VP / ruby read from the reward space (component-data.md §2 table rows, read by hand)

REWARD_TABLE = [
    # (reward idx, coins, VP, ruby) from the §2 table
    (2, 2, 0, False),
    (5, 5, 0, True),
    (6, 6, 1, False),
    (9, 9, 1, True),
    (13, 13, 2, True),
    (14, 14, 3, False),
    (15, 15, 3, False),
    (16, 15, 3, True),
    (17, 16, 3, False),
    (29, 22, 7, False),
    (30, 22, 7, True),
    (35, 25, 9, False),
    (47, 31, 12, False),
    (51, 33, 14, False),
    (52, 33, 14, True),
    (53, 35, 15, False),
]


@pytest.mark.parametrize("space,coins,vp,ruby", REWARD_TABLE)
def test_reward_read_from_reward_space(space, coins, vp, ruby):
    # Start space-2, one o1 on space-1: the reward space is `space`.
    res = brew("o1", "o1", start=space - 2)
    assert places(res) == [("o1", space - 1)]
    assert (res["reward_space"], res["coins"], res["vp"], res["ruby"]) == (space, coins, vp, ruby)


# ---------------------------------------------------------------------------------------------
# bad draws


def test_draw_not_in_bag_is_an_error():
    with pytest.raises(PotionInputError, match="not in the bag"):
        brew("w1,o1", "r1")
    # the bag has one w1 only
    with pytest.raises(PotionInputError, match="w1"):
        brew("w1,o1", "w1,w1")


def test_draws_that_do_not_parse_are_an_error():
    from sim.rules.chips import BagSpecError

    with pytest.raises(BagSpecError):
        brew("w1,o1", "w1,q1")
    with pytest.raises(PotionInputError):
        brew("w1,o1", "")


# ---------------------------------------------------------------------------------------------
# the same scenarios through the CLI --draws --json


def test_cli_draws_red_and_explosion():
    # o1 1, r1 1+1+1 = 3, w3 6, w3 9, w2 11: total 8 explodes; reward 12 (12 coins, 2 VP).
    res = cli_draws("--bag", "o1,r1,w3x2,w2", "--draws", "o1,r1,w3,w3,w2")
    assert places(res) == [("o1", 1), ("r1", 3), ("w3", 6), ("w3", 9), ("w2", 11)]
    assert res["exploded"] is True
    assert (res["reward_space"], res["coins"], res["vp"], res["ruby"]) == (12, 12, 2, False)


def test_cli_draws_flask_keep_and_reuse():
    base = ["--bag", "w1,w3,o1", "--flask", "3", "--draws", "w1,w3,o1"]
    res = cli_draws(*base)
    assert res["reward_space"] == 6  # o1 counts from the emptied space 4 -> 5
    res = cli_draws(*base, "--set", 'game.flask_space="reuse"')
    assert res["reward_space"] == 3  # o1 counts from w1 on 1 -> 2


def test_cli_draws_start_and_spoon():
    # --start 50: o1 51, r4 (one pumpkin) 51+5 -> placed on 52; reward the spoon.
    res = cli_draws("--bag", "o1,r4", "--start", "50", "--draws", "o1,r4")
    assert places(res) == [("o1", 51), ("r4", 52)]
    assert (res["reward_space"], res["coins"], res["vp"], res["ruby"]) == (53, 35, 15, False)


def test_cli_draws_blue_and_yellow():
    # w2 on 2, y1 on 3 returns w2 (total 0); b1 on 4 looks at the one chip in the bag, the
    # returned w2 -> places nothing; reward 5, total 0.
    res = cli_draws("--bag", "w2,y1,b1", "--draws", "w2,y1,b1,w2")
    assert places(res) == [("y1", 3), ("b1", 4)]
    assert returned(res) == [("w2", 2, "yellow")]
    assert res["white_total"] == 0 and res["reward_space"] == 5


def test_cli_draws_text_names_returned_chips():
    # The text lists the same returns as the JSON: w1 on 1, w3 on 4 back with the flask, y1 on 5
    # returns w1 from 1; reward 6.
    args = ["potion", "--bag", "w1,w3,y1", "--flask", "3", "--draws", "w1,w3,y1"]
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    lines = [x.strip() for x in r.stdout.splitlines()]
    first = lines.index("w1 -> space 1")
    assert lines[first:first + 5] == ["w1 -> space 1", "w3 -> space 4",
                                      "flask returns w3 from space 4 to the bag",
                          "y1 -> space 5", "yellow returns w1 from space 1 to the bag"]
    assert "reward space 6" in r.stdout
    res = cli_draws(*args[1:])
    assert returned(res) == [("w3", 4, "flask"), ("w1", 1, "yellow")]
    assert places(res) == [("y1", 5)]


def test_cli_draw_not_in_bag_exit_2():
    r = runner.invoke(app, ["potion", "--bag", "w1,o1", "--draws", "w1,r1", "--json"])
    assert r.exit_code == 2
    assert "not in the bag" in r.stderr
    assert "Traceback" not in r.output
