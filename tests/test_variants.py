"""The published variants: the test-tube side of the pot, teams of two, and sequential brewing.

Scripted rounds are worked out by hand from shared/rules (component-data.md 2.1: glass 1 ruby,
2 1 VP, 3 b1, 4 2 VP, 5 k1, 6 2 VP, 7 r2, 8 3 VP, 9 p1, 10 3 VP, 11 y4, 12 4 VP; decisions.md:
after glass 12 only the pot droplet moves, a 2-space move is two single moves; rules guide:
the teaching teams and the synchronized/sequential information models). Pot track: index i
pays i coins up to 15; ruby spaces 5, 9, 13, ...; the reward space is the one after the last chip.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from test_game_invariants import drive_game

from sim.api.events import event_dict
from sim.api.game import GameInputError, play_batch, replay
from sim.api.round_file import RoundFileError, play_round_data
from sim.kernel.records import O_ERR, O_NWIN, O_RANK, O_SCORE, O_WIN, RD_NPOT, RD_SCORE
from sim.rules.ruleset import RulesetError, load_ruleset
from strategies.builtin import parse_strategy

TUBE = "pot.side=test-tube"
QUIET = {"bag": "w1", "draws": "w1"}  # w1 on index 1: reward space 2
FAR = {"bag": "o1x2", "draws": "o1,o1"}  # index 2: reward space 3, furthest: rolls the die


def play(*players, round_=1, die=("droplet",), sets=(TUBE,), card=None):
    d = {"players": len(players), "round": round_, "die": list(die), "set": list(sets),
         "player": [dict(p) for p in players]}
    if card:
        d["card"] = card
    return play_round_data(d, "test round")


def seats(*players, **kw):
    return play(*players, **kw)["players"]


# --- test-tube side: scripted rounds ------------------------------------------------------------


def test_die_droplet_to_the_tube_takes_glass_1_ruby():
    out = seats({**FAR, "tube": ["tube"]}, QUIET)
    assert (out[0]["glass"], out[0]["droplet"], out[0]["rubies"]) == (1, 0, 1 + 1)
    assert out[1]["glass"] == 0


def test_die_droplet_to_the_pot():
    out = seats({**FAR, "tube": ["pot"]}, QUIET)
    assert (out[0]["glass"], out[0]["droplet"], out[0]["rubies"]) == (0, 1, 1)


def test_glass_3_puts_a_blue_1_into_the_bag():
    out = seats({**FAR, "glass": 2, "tube": ["tube"]}, QUIET)
    assert out[0]["glass"] == 3 and "b1" in out[0]["bag"].split(",")


def test_glass_bonuses_vp():
    out = seats({**FAR, "glass": 3, "tube": ["tube"]}, QUIET)  # glass 4: 2 VP
    # score: 0 + the reward space's VP (space 3: 0) + 2 from the glass
    assert (out[0]["glass"], out[0]["score"]) == (4, 2)


def test_after_glass_12_only_the_pot_droplet_moves():
    out = seats({**FAR, "glass": 12, "tube": ["tube"]}, QUIET)
    assert (out[0]["glass"], out[0]["droplet"]) == (12, 1)


def test_a_purple_chip_before_its_book_is_out_is_not_given():
    # Glass 9 gives a purple 1-chip; in round 1 the purple book is not out (decisions.md).
    res = play({**FAR, "glass": 8, "tube": ["tube"]}, QUIET)
    p0 = res["players"][0]
    assert p0["glass"] == 9 and "p1" not in p0["bag"]
    tube = [e for e in res["events"] if e["event"] == "tube"]
    assert tube == [{"round": 1, "event": "tube", "seat": 0, "glass": 9, "bonus": "p1",
                     "given": False}]


def test_a_two_space_move_is_two_single_moves_and_the_pot_move_sets_the_start():
    # Choose Wisely (before the round): droplet +2 -> one glass (ruby), one pot space. The pot
    # droplet on 1 is the start: w1 lands on index 2.
    out = seats({"bag": "w1", "draws": "w1", "card_choice": "droplet", "tube": ["tube", "pot"]},
                {**QUIET, "card_choice": "droplet", "tube": ["pot", "pot"]},
                die=("vp1", "vp1"), card="choose-wisely")
    assert (out[0]["glass"], out[0]["droplet"], out[0]["rubies"]) == (1, 1, 2)
    assert out[0]["placements"] == [{"chip": "w1", "index": 2}]
    assert (out[1]["glass"], out[1]["droplet"]) == (0, 2)
    assert out[1]["placements"] == [{"chip": "w1", "index": 3}]


def test_two_rubies_buy_a_tube_move():
    # F: 2 rubies for a droplet move, sent to the tube: glass 1 gives a ruby back.
    out = seats({**QUIET, "rubies": 2, "spend": ["droplet"], "tube": ["tube"]}, QUIET,
                die=("vp1", "vp1"))
    assert (out[0]["glass"], out[0]["droplet"], out[0]["rubies"]) == (1, 0, 1)


def test_black_chip_droplet_goes_through_the_tube():
    # 2 players: more black chips than the opponent -> droplet +1 and a ruby.
    out = seats({"bag": "k1", "draws": "k1", "tube": ["tube"]}, QUIET, die=("vp1", "vp1"))
    assert (out[0]["glass"], out[0]["droplet"], out[0]["rubies"]) == (1, 0, 1 + 1 + 1)


def test_default_tube_choice_by_rounds_left():
    # Unscripted: round 1 sends the die's droplet to the pot (a ruby is worth less than eight
    # rounds of a pot space); the last round sends it to the tube (the pot space is worth nothing).
    first = seats(FAR, QUIET)
    assert (first[0]["glass"], first[0]["droplet"]) == (0, 1)
    last = seats(FAR, QUIET, round_=9)
    assert (last[0]["glass"], last[0]["droplet"]) == (1, 0)


def test_ordinary_side_has_no_glass():
    out = seats(FAR, QUIET, sets=())
    assert "glass" not in out[0] and out[0]["droplet"] == 1
    # a test-tube answer on the ordinary side is refused, not dropped (issue 43)
    for key, v in (("tube", ["tube"]), ("glass", 2)):
        with pytest.raises(RoundFileError, match=f"key '{key}': the test-tube track is on the"):
            play({**FAR, key: v}, QUIET, sets=())


def test_tube_script_errors():
    with pytest.raises(RoundFileError, match="tube"):
        play({**FAR, "tube": ["up"]}, QUIET)
    with pytest.raises(RoundFileError, match="glass"):
        play({**FAR, "glass": 13}, QUIET)


def test_ruleset_glass_table_is_validated():
    with pytest.raises(RulesetError, match="test_tube"):
        load_ruleset("base", ['pot.test_tube=["ruby"]'])
    with pytest.raises(RulesetError, match="side"):
        load_ruleset("base", ["pot.side=back"])
    rs = load_ruleset("base", [TUBE, 'pot.test_tube=["vp:5","ruby:2","b1","vp:2","k1","vp:2",'
                                     '"r2","vp:3","p1","vp:3","y4","vp:4"]'])
    res = play_round_data({"players": 2, "round": 1, "die": ["droplet"], "set": list(rs.overrides),
                           "player": [{**FAR, "tube": ["tube"]}, QUIET]}, "t")
    assert res["players"][0]["score"] == 5


# --- complete games under each variant ----------------------------------------------------------

LINEUP = ["balanced", "ev:die=1", "threshold:tube=tube", "greenruby:tube=value,tube_space=0.3"]


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("variant",
                         [[TUBE], [TUBE, "cards.deck=false"], ["game.info_model=sequential"],
                                     ["game.info_model=synchronized"]])
def test_complete_games_keep_every_chip(variant, n):
    """Round by round through the kernels: bags + supply = the box after every round, no illegal
    decision, and the same result as play_game."""
    rs = load_ruleset("base", variant)
    lineup = [parse_strategy(s) for s in LINEUP[:n]]
    for g in range(12):
        events, out, _, bags = drive_game(500 + n, g, lineup, RS=rs)
        assert (out[:, O_ERR] == 0).all()
        if TUBE in variant:
            for e in (e for e in events if e["event"] == "tube"):
                assert 1 <= e["glass"] <= 12


def test_test_tube_games_use_the_tube():
    rs = load_ruleset("base", [TUBE])
    lineup = [parse_strategy(s) for s in ("threshold:tube=tube", "threshold:tube=pot")]
    glasses = Counter()
    for g in range(20):
        E, out = replay(rs, lineup, seed=3, game=g)
        for e in map(event_dict, E):
            if e["event"] == "tube":
                glasses[e["seat"]] += 1
                assert e["glass"] <= 12
    assert glasses[0] > 20 and glasses[1] == 0


def test_pot_side_choice_changes_nothing_when_always_pot():
    """tube=pot on the test-tube side plays exactly the ordinary game."""
    lineup = [parse_strategy(s) for s in ("balanced:tube=pot", "ev:tube=pot", "greedy:tube=pot")]
    idx = np.arange(60, dtype=np.int64)
    a = play_batch(load_ruleset("base", [TUBE]), lineup, games=idx, rotations=idx % 3, seed=5,
                   detail=True)
    b = play_batch(load_ruleset("base", []), lineup, games=idx, rotations=idx % 3, seed=5,
                   detail=True)
    assert np.array_equal(a.out, b.out) and np.array_equal(a.rounds, b.rounds)


# --- teams --------------------------------------------------------------------------------------

TEAMS = "game.teams=true"


def _batch(sets, specs, games=80, seed=9, rotations=None):
    lineup = [parse_strategy(s) for s in specs]
    idx = np.arange(games, dtype=np.int64)
    rot = np.zeros(games, dtype=np.int64) if rotations is None else rotations
    return play_batch(load_ruleset("base", sets), lineup, games=idx, rotations=rot, seed=seed,
                      detail=True)


def test_teams_with_like_teammates_play_the_two_player_game():
    """One cauldron per team, the 2-player black book, one allowance: with both teammates the
    same strategy a team game is the 2-player game, draw for draw."""
    team = _batch([TEAMS, "cards.deck=false"],
                  ["balanced", "blackpurple", "balanced", "blackpurple"])
    two = _batch(["cards.deck=false"], ["balanced", "blackpurple"])
    assert np.array_equal(team.out[:, :2], two.out)
    assert np.array_equal(team.rounds[:, :, :2], two.rounds)


def test_teammates_share_the_result_and_win_together():
    res = _batch([TEAMS], ["balanced", "greedy", "cautious", "random"], games=60,
                 rotations=np.arange(60, dtype=np.int64) % 4)
    out = res.out
    assert np.array_equal(out[:, 0], out[:, 2]) and np.array_equal(out[:, 1], out[:, 3])
    assert np.array_equal(res.rounds[:, :, 0], res.rounds[:, :, 2])
    # exactly one team wins unless the two cauldrons tie on VP and final position
    assert ((out[:, :, O_WIN].sum(axis=1) == 2) | (out[:, :, O_WIN].sum(axis=1) == 4)).all()
    assert (out[:, :, O_NWIN] >= 1).all() and (out[:, 0, O_RANK] != out[:, 1, O_RANK]).any()
    assert (out[:, :, O_ERR] == 0).all()


def test_teammates_take_turns_deciding():
    """Player 0 decides for cauldron 0 in odd rounds, player 2 in even rounds: swapping who
    sits second changes only even rounds' decisions (round 1 is identical), and vice versa."""
    base = _batch([TEAMS, "cards.deck=false"],
                  ["reckless", "balanced", "threshold:t=1", "balanced"])
    swap2 = _batch([TEAMS, "cards.deck=false"], ["reckless", "balanced", "reckless", "balanced"])
    swap0 = _batch([TEAMS, "cards.deck=false"],
                   ["threshold:t=1", "balanced", "threshold:t=1", "balanced"])
    # round 1 is decided by player 0: same as when player 2 is also reckless
    assert np.array_equal(base.rounds[:, 0], swap2.rounds[:, 0])
    assert not np.array_equal(base.rounds[:, 1, 0, RD_NPOT], swap2.rounds[:, 1, 0, RD_NPOT])
    # round 2 of base is decided by threshold t=1 (stops at the first white): few chips
    assert not np.array_equal(base.rounds[:, 0], swap0.rounds[:, 0])
    assert base.rounds[:, 1, 0, RD_NPOT].mean() < base.rounds[:, 0, 0, RD_NPOT].mean()


def test_teams_need_four_players():
    with pytest.raises(GameInputError, match="exactly 4"):
        _batch([TEAMS], ["balanced", "greedy"], games=1)


def test_team_replay_names_the_teams():
    from sim.api.events import event_seat_names

    rs = load_ruleset("base", [TEAMS])
    names = event_seat_names(rs, ["a", "b", "c", "d"])
    assert names == ["team A (a & c)", "team B (b & d)"]
    lineup = [parse_strategy(s) for s in ("balanced", "greedy", "cautious", "random")]
    E, out = replay(rs, lineup, seed=9, game=4)
    res = _batch([TEAMS], ["balanced", "greedy", "cautious", "random"], games=5)
    assert np.array_equal(out, res.out[4])
    assert set(int(x) for x in E[:, 1]) <= {-1, 0, 1}  # events name the two cauldrons


# --- sequential information model ---------------------------------------------------------------


def test_information_model_changes_nothing_for_strategies_that_ignore_the_others():
    specs = ["balanced", "ev", "greedy", "threshold"]
    a = _batch(["game.info_model=sequential"], specs, games=60)
    b = _batch([], specs, games=60)
    assert np.array_equal(a.out, b.out)


def test_later_players_see_earlier_potions():
    """ev:die=1 counts the die once a finished potion is in sight: in sequential brewing that
    changes the later players' decisions, never the start player's first-round potion; in
    independent brewing (nothing in sight until the last round) it matches ev:die=0 before
    round 9."""
    specs = ["ev:die=1", "ev:die=1", "ev:die=1"]
    seq = _batch(["game.info_model=sequential", "cards.deck=false"], specs, games=80)
    ind = _batch(["cards.deck=false"], specs, games=80)
    plain = _batch(["cards.deck=false"], ["ev", "ev", "ev"], games=80)
    # round 1, start player seat 0 sees nothing in either model
    assert np.array_equal(seq.rounds[:, 0, 0], ind.rounds[:, 0, 0])
    # but seats 1 and 2 do see seat 0's potion in sequential brewing: some round-1 potion differs
    assert not np.array_equal(seq.rounds[:, 0, 1:], ind.rounds[:, 0, 1:])
    # independent rounds 1-8 show nothing of the others: die=1 plays like die=0 there
    assert np.array_equal(ind.rounds[:, :8, :, RD_SCORE], plain.rounds[:, :8, :, RD_SCORE])
    assert (seq.out[..., O_SCORE] > 0).all()


@pytest.mark.parametrize("sets", [[TUBE], [TEAMS], ["game.info_model=sequential"]])
def test_variant_games_do_not_depend_on_chunking(sets):
    lineup = [parse_strategy(s) for s in ("balanced", "ev:die=1", "greedy", "cautious")]
    idx = np.arange(90, dtype=np.int64)
    rs = load_ruleset("base", sets)
    one = play_batch(rs, lineup, games=idx, rotations=idx % 4, seed=4, detail=True, chunks=1)
    many = play_batch(rs, lineup, games=idx, rotations=idx % 4, seed=4, detail=True, chunks=13)
    part = play_batch(rs, lineup, games=idx[45:], rotations=idx[45:] % 4, seed=4, detail=True)
    assert np.array_equal(one.out, many.out) and np.array_equal(one.rounds, many.rounds)
    assert np.array_equal(one.out[45:], part.out)
