"""The game commands through Typer's CliRunner: ``play --json``, ``replay --json``, ``round FILE``,
and their one-line user errors (exit status 2, no traceback)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import assert_user_error
from typer.testing import CliRunner

from sim.cli.main import app

runner = CliRunner()
ROUNDS = Path(__file__).parent / "rounds"


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def ok_json(*args):
    r = invoke(*args, "--json")
    assert r.exit_code == 0, (r.output, r.exception)
    return json.loads(r.stdout)




# --- play ------------------------------------------------------------------------------------

def test_play_json_keys():
    d = ok_json("play", "--strategies", "threshold,random,threshold:t=5", "--games", 60,
                "--seed", 3)
    assert d["players"] == 3 and d["games"] == 60
    rows = d["strategies"]
    assert len(rows) == 3
    for row in rows:
        for k in ("name", "games", "win_share", "win_share_ci", "mean_vp", "mean_vp_ci",
                  "mean_rank", "explosion_rate"):
            assert k in row, k
        assert row["games"] == 60  # every seat plays every game (seats rotate)
        lo, hi = row["win_share_ci"]
        assert 0.0 <= lo <= row["win_share"] <= hi <= 1.0
        lo, hi = row["mean_vp_ci"]
        assert lo <= row["mean_vp"] <= hi
        assert 1.0 <= row["mean_rank"] <= 3.0
        assert 0.0 <= row["explosion_rate"] <= 1.0
    assert [r["name"] for r in rows] == ["threshold", "random", "threshold:t=5"]
    # win shares (shared wins split) add up to one win per game
    assert sum(r["win_share"] for r in rows) == pytest.approx(1.0)


def test_play_json_is_reproducible():
    a = ok_json("play", "--strategies", "threshold,random", "--games", 40, "--seed", 9)
    b = ok_json("play", "--strategies", "threshold,random", "--games", 40, "--seed", 9)
    assert a["strategies"] == b["strategies"]


def test_play_one_strategy_for_all_seats():
    d = ok_json("play", "--strategies", "random", "--players", 4, "--games", 20)
    assert d["players"] == 4 and len(d["strategies"]) == 4


# --- replay ----------------------------------------------------------------------------------

def test_replay_json_has_events_and_is_repeatable():
    args = ("replay", "--seed", 4, "--game", 7, "--strategies", "threshold,random,random",
            "--rotation", 1)
    a = ok_json(*args)
    b = ok_json(*args)
    assert a == b
    assert a["seats"] == ["random", "random", "threshold"]  # rotation 1: seat s gets (s+1) % 3
    ev = a["events"]
    assert ev
    kinds = {e["event"] for e in ev}
    assert {"round", "rat", "draw", "place", "stop", "reward", "score", "final"} <= kinds
    assert sorted({e["round"] for e in ev}) == list(range(1, 10))
    assert len([e for e in ev if e["event"] == "final"]) == 3


# --- round -----------------------------------------------------------------------------------

def test_round_file_json():
    d = ok_json("round", ROUNDS / "r01-2p-round1-basics.toml")
    assert [p["score"] for p in d["players"]] == [1, 0]  # see test_golden_rounds for the reasoning
    assert d["players"][1]["exploded"] is True


def test_round_file_table():
    r = invoke("round", ROUNDS / "r06-4p-purple-tiers-black.toml")
    assert r.exit_code == 0, r.output
    assert "purple tier 3" in r.stdout


# --- user errors -----------------------------------------------------------------------------

def test_unknown_strategy():
    assert_user_error(invoke("play", "--strategies", "threshold,bogus", "--games", 5), "bogus")


def test_bad_strategy_parameter():
    assert_user_error(invoke("play", "--strategies", "threshold:t=99,random", "--games", 5), "t=99")


def test_unknown_strategy_parameter():
    assert_user_error(invoke("play", "--strategies", "threshold:zz=1,random", "--games", 5), "zz")


@pytest.mark.parametrize("players", [1, 5])
def test_players_out_of_range(players):
    assert_user_error(invoke("play", "--strategies", "threshold", "--players", players,
                             "--games", 5), str(players))


def test_games_zero():
    assert_user_error(invoke("play", "--strategies", "threshold,random", "--games", 0), "--games")


def test_replay_unknown_strategy():
    assert_user_error(invoke("replay", "--seed", 1, "--game", 0, "--strategies", "nope,random"),
                      "nope")


def test_round_file_missing(tmp_path):
    assert_user_error(invoke("round", tmp_path / "nothing.toml"), "nothing.toml")


def test_round_file_broken_toml(tmp_path):
    f = tmp_path / "broken.toml"
    f.write_text('players = 2\n[[player]\nbag = "start"\n')
    assert_user_error(invoke("round", f), "TOML")


def test_round_file_illegal_buy(tmp_path):
    # r01 with seat 1 buying a yellow chip in round 1 (yellow is out from round 2)
    text = (ROUNDS / "r01-2p-round1-basics.toml").read_text()
    assert 'buy = "g1,o1"' in text
    f = tmp_path / "yellow.toml"
    f.write_text(text.replace('buy = "g1,o1"', 'buy = "y1"'))
    assert_user_error(invoke("round", f), "seat 1", "y1")


def test_round_file_over_budget(tmp_path):
    text = (ROUNDS / "r01-2p-round1-basics.toml").read_text()
    f = tmp_path / "budget.toml"
    f.write_text(text.replace('buy = "g1,o1"', 'buy = "k1"'))  # 10 > 9 coins
    assert_user_error(invoke("round", f), "seat 1")


def test_replay_players_out_of_range():
    assert_user_error(invoke("replay", "--seed", 1, "--game", 0, "--strategies", "threshold",
                             "--players", 1), "2 to 4")
