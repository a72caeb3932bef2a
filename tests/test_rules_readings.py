"""Issue 43, items 1 and 5: blue Sets 5 and 6 report what they did, and six readings of
decisions.md ("Readings settled after an independent audit") pinned by scripted rounds, each
worked out by hand from the rules texts (rules seeds, component-data.md sections 8.1, 10.2 and
10.6) and decisions.md.

Pot track (index: coins / VP, R = ruby): 1-5: coins = index, 0 VP (5 R); 6-9: 1 VP (9 R); 10-13:
2 VP (13 R). Rat tails after scores 1, 4, 7, 10, then every even score 12..48; a player's rat
count is the tails strictly between its score and the leader's.
"""

from __future__ import annotations

import pytest
from cli_helpers import invokers
from round_helpers import events, play_round, spots

from sim.api.round_file import RoundFileError
from sim.cli.main import app

invoke, ok = invokers(app)

QUIET = {"bag": "w1", "draws": "w1"}  # w1 on space 1: reward space 2 (2 coins, 0 VP)


def witches(round_, *players, sets=(), die=("vp1", "vp1"), witch=()):
    return play_round(round_, *players, rules="herb-witches", sets=sets, die=die, witches=witch)


# --- item 1: blue Sets 5 and 6 have their own events, with the real count -----------------------

BLUE_ROUND = """rules = "herb-witches"
set = ["books.blue={book}"]
players = 2
round = 2
die = ["vp1"]

[[player]]
bag = "{bag}"
draws = "{draws}"

[[player]]
bag = "w1"
draws = "w1"
"""


def _round_text(tmp_path, book, bag, draws):
    f = tmp_path / f"blue{book}.toml"
    f.write_text(BLUE_ROUND.format(book=book, bag=bag, draws=draws))
    return ok("round", f).stdout.splitlines()


def test_blue_6_reports_one_ruby_per_white_1_it_looks_back_at(tmp_path):
    # Blue Set 6: a blue chip looks at the chips placed just before it, as many as its value, and
    # pays 1 ruby per white 1-chip among them. w1 -> 1, o1 -> 2, w1 -> 3, b4 -> 7 (no ruby space):
    # the b4 looks back at 4 chips, the pot has 3 (w1, o1, w1): two white 1-chips, 2 rubies.
    # Reward space 8 (1 VP), the furthest: die vp1. Rubies 1 + 2 = 3; VP 1 + 1 = 2.
    # (Before: "blue on a ruby space: +1 ruby", with 2 rubies taken.)
    lines = _round_text(tmp_path, 6, "w1x2,o1,b4", "w1,o1,w1,b4")
    assert "  player 0 (seat 0): blue: +2 rubies, one per white 1-chip among the 3 chips before " \
           "it" in lines
    assert not any("ruby space" in x for x in lines)
    res = witches(2, {"bag": "w1x2,o1,b4", "draws": "w1,o1,w1,b4"}, QUIET, sets=["books.blue=6"])
    assert events(res, "blue_white") == [{"round": 2, "event": "blue_white", "seat": 0,
                                          "rubies": 2, "looked": 3}]
    assert (res["players"][0]["rubies"], res["players"][0]["vp_gained"]) == (1 + 2, 1 + 1)


def test_blue_5_reports_the_pumpkins_it_counted(tmp_path):
    # Blue Set 5: with at least as many orange chips in the pot as its value, the blue scores its
    # value in VP at once. o1 -> 1, 2, 3, 4, b2 -> 6 (no ruby space): 4 orange chips >= 2: +2 VP.
    # Reward space 7 (1 VP), the furthest: die vp1. VP 2 + 1 + 1 = 4.
    # (Before: "blue on a ruby space: +2 VP".)
    lines = _round_text(tmp_path, 5, "o1x4,b2", "o1,o1,o1,o1,b2")
    assert "  player 0 (seat 0): blue: 4 orange chips in the pot, at least its value: +2 VP" \
        in lines
    assert not any("ruby space" in x for x in lines)
    res = witches(2, {"bag": "o1x4,b2", "draws": "o1,o1,o1,o1,b2"}, QUIET, sets=["books.blue=5"])
    assert events(res, "blue_orange") == [{"round": 2, "event": "blue_orange", "seat": 0,
                                           "vp": 2, "orange": 4}]
    assert res["players"][0]["vp_gained"] == 2 + 1 + 1


def test_quacks_potion_shows_the_blue_events_from_their_declaration():
    # The same potions brewed by `quacks potion --draws` (no die, no evaluation): the blue lines
    # are the declared texts, with the counts worked out above.
    from sim.api.potion import make_query
    from sim.api.potion_draws import forced
    from sim.rules.ruleset import load_ruleset

    for book, bag, draws, line in (
            (6, "w1x2,o1,b4", "w1,o1,w1,b4",
             "blue: +2 rubies, one per white 1-chip among the 3 chips before it"),
            (5, "o1x4,b2", "o1,o1,o1,o1,b2",
             "blue: 4 orange chips in the pot, at least its value: +2 VP")):
        rs = load_ruleset("herb-witches", [f"books.blue={book}"])
        res = forced(make_query(bag, "never", None, 0, rs), draws)
        assert line in res["events"], res["events"]


# --- item 5: the readings ------------------------------------------------------------------------

def test_rats_are_your_friends_pays_the_tails_and_the_rat_still_moves():
    # decisions.md: 1 VP per rat tail received this round, and the rat still moves by them.
    # Scores 10 (leader) and 3: tails after 4 and after 7 lie between, so seat 1 gets 2 tails:
    # the card pays 2 VP and the rat moves 2, so o1 goes to 2 + 1 = 3 (reward space 4, 0 VP).
    # The leader gets no tail: 0 VP; w1 -> 1, reward space 2. Seat 1 is furthest: die vp1.
    # Seat 1's score: 3 + 2 (card) + 0 (space) + 1 (die) = 6.
    res = play_round(2, {**QUIET, "score": 10, "card_choice": "vp"},
                     {"bag": "o1", "draws": "o1", "score": 3, "card_choice": "vp"},
                     card="rats-are-your-friends", die=("vp1",))
    assert events(res, "rat", seat=1) == [{"round": 2, "event": "rat", "seat": 1, "tails": 2,
                                           "start": 2}]
    assert [e["amount"] for e in events(res, "card_effect", seat=1)] == [2]
    p1 = res["players"][1]
    assert spots(p1) == [("o1", 3)] and p1["reward_space"] == 4
    assert (p1["vp_gained"], p1["score"]) == (2 + 0 + 1, 6)
    assert res["players"][0]["score"] == 10


def test_black_6_tied_furthest_all_move_and_the_next_space_down_is_second():
    # decisions.md: with a tie for the furthest black chip every tied player gets the furthest
    # bonus (droplet +1); the next position down is second (1 ruby). Seats 0 and 1: o1 1, 2, 3,
    # k1 -> 4 (reward space 5: ruby, 0 VP); seat 2: o1 1, k1 -> 2 (reward space 3). Furthest
    # black: space 4, seats 0 and 1 -> droplet +1 each; second: space 2, seat 2 -> 1 ruby (had
    # the tie taken "second", seat 2 would get nothing). Seats 0 and 1 tie for the die: vp1 each.
    # Rubies: seats 0, 1: 1 + 1 (reward space 5); seat 2: 1 + 1 (black).
    far = {"bag": "o1x3,k1", "draws": "o1,o1,o1,k1"}
    res = witches(2, far, far, {"bag": "o1,k1", "draws": "o1,k1"}, sets=["books.black=6"])
    black = [(e["seat"], e["droplet"], e["ruby"]) for e in res["events"] if e["event"] == "black"]
    assert black == [(0, 1, 0), (1, 1, 0), (2, 0, 1)]
    assert [(p["droplet"], p["rubies"]) for p in res["players"]] == [(1, 2), (1, 2), (0, 2)]


def test_green_6_rolls_after_an_explosion():
    # decisions.md: green Set 6's roll is a chip action at step B, so an exploded player still
    # rolls it (the rule that an exploded pot does not roll is about step A). Seat 0: g1 -> 1,
    # w3 -> 4, w2 -> 6, g1 -> 7, w3 -> 10: whites 3 + 2 + 3 = 8 > 7, exploded; reward space 11
    # (11 coins, 2 VP). Last two chips: g1 (next-to-last) and w3: one green, one roll. Step A:
    # seat 1 (w1 -> 1, the only intact pot) rolls the first face, ruby. Step B: seat 0's green
    # roll takes the second face, vp2. Seat 0 takes the VP: 2 (die) + 2 (space) = 4.
    res = witches(2, {"bag": "w3x2,w2,g1x2", "draws": "g1,w3,w2,g1,w3", "choice": "vp"}, QUIET,
                  sets=["books.green=6"], die=("ruby", "vp2"))
    p0, p1 = res["players"]
    assert p0["exploded"] and p0["reward_space"] == 11
    assert events(res, "green_die") == [{"round": 2, "event": "green_die", "seat": 0, "rolls": 1}]
    assert (p0["die"], p0["vp_gained"], p0["rubies"]) == (["vp2"], 2 + 2, 1)
    assert (p1["die"], p1["rubies"]) == (["ruby"], 1 + 1)


@pytest.mark.parametrize("witch, answer", [("ruby-coins", True), ("upgrade", "last2"),
                                           ("free-twin", "o1")])
def test_buying_witches_other_than_double_coins_cannot_be_called_in_round_9(witch, answer):
    # decisions.md: in the last round only "double coins" works; the others cannot be called, so
    # the penny is kept. Seat 0: o1 -> 1, 2, 3, reward space 4 (4 coins, 0 VP), 2 rubies, the
    # furthest: die vp1. Not called: 4 coins -> 0 VP (ruby coins would have made 4 + 2 x 2 = 8 ->
    # 1 VP), 2 rubies -> 1 VP; VP 0 + 1 + 0 + 1 = 2, the buying penny still held.
    res = witches(9, {"bag": "o1x3", "draws": "o1,o1,o1", "rubies": 2, "witch": {witch: answer}},
                  QUIET, witch=[witch], die=("vp1",))
    p0 = res["players"][0]
    assert (p0["vp_gained"], p0["rubies"], p0["witches"]) == (2, 0, [])
    assert "buying" in p0["pennies"] and p0["bag"] == "o1x3"


def test_double_coins_works_in_round_9():
    # The same pot with double coins: 4 coins doubled to 8 -> 1 VP; 2 rubies -> 1 VP; VP 0 + 1
    # (die) + 1 + 1 = 3, the buying penny spent.
    res = witches(9, {"bag": "o1x3", "draws": "o1,o1,o1", "rubies": 2,
                      "witch": {"double-coins": True}}, QUIET, witch=["double-coins"], die=("vp1",))
    p0 = res["players"][0]
    assert (p0["vp_gained"], p0["witches"]) == (3, ["double-coins"])
    assert "buying" not in p0["pennies"]


def test_well_stirred_is_not_used_up_by_a_white_a_blue_chip_looks_at():
    # decisions.md: "the first white chip you draw" is the first white placed; a white a blue chip
    # looked at and returned does not use up the card. b1 -> 1 looks at w1 and places nothing (w1
    # back to the bag); w2 -> 3 is the first white placed: Well Stirred returns it, its space
    # stays empty; the pot is b1 alone, reward space 2.
    res = play_round(2, {"bag": "b1,w1,w2", "draws": "b1,w1,w2", "blue": ["none"],
                         "card_choice": True}, QUIET, card="well-stirred", die=("vp1",))
    assert [e["chip"] for e in events(res, "card_effect")] == ["w2"]
    p0 = res["players"][0]
    assert spots(p0) == [("b1", 1)] and p0["reward_space"] == 2
    # The blue chip places the white it looked at: that white is placed (b1 -> 1, w1 -> 2), so it
    # is the first white and goes back; the next white stays: w2 -> 2 + 2 = 4, reward space 5.
    res = play_round(2, {"bag": "b1,w1,w2", "draws": "b1,w1,w2", "blue": ["w1"],
                         "card_choice": True}, QUIET, card="well-stirred", die=("vp1",))
    assert [e["chip"] for e in events(res, "card_effect")] == ["w1"]
    assert spots(res["players"][0]) == [("b1", 1), ("w2", 4)]


def test_round_9_rubies_on_the_test_tube_side_only_convert():
    # decisions.md: after round 9 on the test-tube side the rubies only convert (2 = 1 VP); no
    # droplet or glass is bought, and a round-9 `spend` is refused. Seat 0: glass 3, 5 rubies,
    # o1 -> 1 (reward space 2); seat 1: w1 -> 1, tied: both roll vp1. 5 rubies -> 2 VP, 1 left;
    # VP 0 + 1 + 2 = 3; glass stays 3, droplet 0.
    sets = ["pot.side=test-tube"]
    p0 = {"bag": "o1", "draws": "o1", "rubies": 5, "glass": 3}
    out = play_round(9, p0, QUIET, sets=sets, die=("vp1", "vp1"))["players"][0]
    assert (out["vp_gained"], out["rubies"], out["glass"], out["droplet"]) == (3, 1, 3, 0)
    with pytest.raises(RoundFileError, match="key 'spend': no rubies are spent after the last"):
        play_round(9, {**p0, "spend": ["droplet"], "tube": ["tube"]}, QUIET, sets=sets,
                   die=("vp1", "vp1"))
