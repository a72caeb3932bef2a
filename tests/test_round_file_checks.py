"""Issue 43, items 2-4: what a round file or scripted game may say, refused with one line naming
the file instead of played wrongly or dropped silently: teams of two (exactly two cauldrons, as
``quacks play`` plays them), the last round's `buy` and `spend`, test-tube answers on the ordinary
pot side, and a binary file.

Pot track (index: coins / VP, R = ruby): 1-5: coins = index, 0 VP (5 R); 6-9: 1 VP (9 R).
"""

from __future__ import annotations

import pytest
from cli_helpers import assert_user_error, invokers

from sim.api.game_file import play_scripted_game
from sim.api.round_file import RoundFileError, play_round_data
from sim.cli.main import app

invoke, ok = invokers(app)

TEAMS = "game.teams=true"
BLACK = {"bag": "k1", "draws": "k1"}  # k1 on space 1: reward space 2
QUIET = {"bag": "w1", "draws": "w1"}  # w1 on space 1: reward space 2


def play(players, *tables, round_=2, sets=(TEAMS,), die=("vp1", "vp1")):
    return play_round_data({"players": players, "round": round_, "set": list(sets),
                            "die": list(die), "player": [dict(t) for t in tables]}, "t.toml")


# --- teams of two: two cauldrons, the 2-player black book (decisions.md: "teams of two") --------

def test_teams_round_file_plays_four_players_as_two_cauldrons():
    # players = 4 as `quacks play --players 4` counts them; one [[player]] table per team.
    # k1 -> 1 and w1 -> 1: both reward space 2, tied furthest, both roll (vp1, vp1). Black,
    # 2-player side: 1 black chip against none -> droplet +1 and 1 ruby (the 3-4 player side would
    # compare with two neighbours). Rubies 1 + 1 = 2 and 1; score 0 + 1 each.
    res = play(4, BLACK, QUIET)
    assert len(res["players"]) == 2
    assert [e for e in res["events"] if e["event"] == "black"] == [
        {"round": 2, "event": "black", "seat": 0, "droplet": 1, "ruby": 1}]
    assert [(p["rubies"], p["droplet"], p["score"]) for p in res["players"]] == [(2, 1, 1),
                                                                                (1, 0, 1)]


@pytest.mark.parametrize("players, tables, message", [
    (4, 4, "expected 2 [[player]] tables, one per team's cauldron (game.teams), found 4"),
    (4, 3, "expected 2 [[player]] tables, one per team's cauldron (game.teams), found 3"),
    (3, 3, "key 'players' = 3: game.teams = true plays exactly 4 players (two teams of two), "
           "with one [[player]] table per team's cauldron"),
    (2, 2, "key 'players' = 2: game.teams = true plays exactly 4 players"),
])
def test_teams_round_file_with_other_cauldrons_is_refused(players, tables, message):
    # Before: 3 or 4 tables were played as separate players (3-4 player black book).
    with pytest.raises(RoundFileError) as e:
        play(players, *([BLACK] * tables))
    assert str(e.value).startswith(f"t.toml: {message}")


def _game(players, tables=2, sets=(TEAMS,)):
    # every round: o1 -> 1 for each cauldron, both on reward space 2, both roll (vp1, vp1)
    return {"players": players, "set": list(sets),
            "round": [{"die": ["vp1", "vp1"], "player": [{"draws": "o1"}] * tables}
                      for _ in range(9)]}


def test_teams_scripted_game_has_two_cauldrons():
    # 9 rounds of o1 -> 1 (reward space 2: 0 VP, no ruby) and a vp1 roll each: 9 VP per cauldron,
    # the starting ruby kept (1 ruby is no VP at the end); a tie on VP and on the final potion.
    res = play_scripted_game(_game(4), "g.toml")
    assert [(f["score"], f["rubies"], f["win_share"]) for f in res["final"]] == [(9, 1, 0.5)] * 2
    with pytest.raises(RoundFileError, match=r"^g\.toml: key 'players' = 2: game\.teams = true "):
        play_scripted_game(_game(2), "g.toml")
    with pytest.raises(RoundFileError, match=r"^g\.toml: round 1: expected 2 \[\[round\.player\]\] "
                                             r"tables, one per team's cauldron \(game\.teams\)"):
        play_scripted_game(_game(4, tables=4), "g.toml")


# --- the last round: no buying and no ruby spending (decisions.md: rubies after round 9) ---------

def test_last_round_buy_and_spend_are_refused_naming_the_file():
    for key, v, message in (
            ("spend", ["droplet"], "key 'spend': no rubies are spent after the last round "
                                   "(round 9): they turn into VP, 2 rubies each"),
            ("buy", "o1", "key 'buy': nothing is bought in the last round (round 9): its coins "
                          "turn into VP, 5 coins each")):
        with pytest.raises(RoundFileError) as e:
            play(2, {**BLACK, key: v}, QUIET, round_=9, sets=())
        assert str(e.value) == f"t.toml: seat 0: {message}"
        # An empty list or bag asks for nothing: played. k1 -> 1, reward 2 (2 coins, 0 VP), tied
        # furthest: vp1; black 1 against 0: ruby +1; 2 coins -> 0 VP, 1 + 1 rubies -> 1 VP.
        out = play(2, {**BLACK, key: [] if key == "spend" else ""}, QUIET, round_=9, sets=())
        p0 = out["players"][0]
        assert (p0["bought"], p0["vp_gained"], p0["rubies"]) == ([], 1 + 1, 0)


def test_last_round_spend_in_a_scripted_game_is_refused():
    g = _game(2, sets=())
    g["round"][8]["player"] = [{"draws": "o1", "spend": ["droplet"]}, {"draws": "o1"}]
    with pytest.raises(RoundFileError, match=r"^g\.toml: round 9: seat 0: key 'spend': no rubies"):
        play_scripted_game(g, "g.toml")
    g["round"][7]["player"] = [{"draws": "o1", "spend": ["flask"]}, {"draws": "o1"}]
    g["round"][8]["player"] = [{"draws": "o1"}, {"draws": "o1"}]
    with pytest.raises(RoundFileError, match="round 8: seat 0: cannot spend rubies on flask"):
        play_scripted_game(g, "g.toml")  # round 8 spends as ever (here: the flask is full)


def test_last_round_on_the_test_tube_side_refuses_spend_too():
    with pytest.raises(RoundFileError, match="seat 0: key 'spend': no rubies are spent after"):
        play(2, {**BLACK, "spend": ["droplet"], "glass": 3}, QUIET, round_=9,
             sets=("pot.side=test-tube",))


# --- test-tube answers on the ordinary side ------------------------------------------------------

@pytest.mark.parametrize("key, value, glass", [("tube", ["tube"], 1), ("glass", 3, 3),
                                              ("glass", 0, 0)])
def test_test_tube_keys_on_the_ordinary_side_are_refused(key, value, glass):
    with pytest.raises(RoundFileError) as e:
        play(2, {**BLACK, key: value}, QUIET, sets=())
    assert str(e.value) == (f"t.toml: seat 0: key '{key}': the test-tube track is on the pot's "
                            f"reverse side only (set pot.side = \"test-tube\")")
    # on the test-tube side they are answers: the black book's droplet move (1 black against 0)
    # goes to the tube (glass 0 -> 1) when scripted so; a starting glass stays where it is
    out = play(2, {**BLACK, key: value}, QUIET, sets=("pot.side=test-tube",))["players"]
    assert out[0]["glass"] == glass


# --- the command: one line, exit 2, the file named -----------------------------------------------

def test_binary_round_file_names_the_file(tmp_path):
    f = tmp_path / "round.toml"
    f.write_bytes(bytes([0x70, 0xCC, 0x00, 0xFF, 0x81]) * 20)
    r = invoke("round", f)
    assert_user_error(r, str(f), "not a text file: byte 1 is not UTF-8")


def test_round_file_refusals_are_one_line(tmp_path):
    f = tmp_path / "r9.toml"
    f.write_text('players = 2\nround = 9\ndie = ["vp1", "vp1"]\n'
                 '[[player]]\nbag = "k1"\ndraws = "k1"\nspend = ["droplet"]\n'
                 '[[player]]\nbag = "w1"\ndraws = "w1"\n')
    assert_user_error(invoke("round", f), f"{f}: seat 0: key 'spend': no rubies are spent")
    f.write_text('players = 3\nround = 2\nset = ["game.teams=true"]\n'
                 + '[[player]]\nbag = "k1"\ndraws = "k1"\n' * 3)
    assert_user_error(invoke("round", f), f"{f}: key 'players' = 3: game.teams = true plays "
                      "exactly 4 players")
