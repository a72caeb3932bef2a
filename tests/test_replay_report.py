"""Issue 8, "what was run is what is shown": ``--set`` overrides in every header and JSON, replays
of a report's games (rotate, round-robin, vs-field, a sweep value's folder) that reproduce the
report's rows, play/replay default lineups, replay argument checks, ``--resume`` with nothing to
resume, the sweep's interrupt hint, ``plot FILE`` and singular/plural in event text."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from cli_helpers import assert_user_error, invokers

from sim.cli.main import app

CAREFUL = Path(__file__).resolve().parents[1] / "experiments" / "strategies" / "careful.py"


invoke, ok = invokers(app)


def ok_json(*args):
    return json.loads(ok(*args, "--json").stdout)


# --- --set shown everywhere --------------------------------------------------------------------

def test_set_shown_in_play_json_and_header():
    d = ok_json("play", "--players", 2, "--games", 20, "--set", "game.rounds=7")
    assert d["rules"] == "base" and d["overrides"] == ["game.rounds=7"]
    r = ok("play", "--players", 2, "--games", 20, "--set", "game.rounds=7", "--set",
           "game.explosion_limit=8")
    assert "rules base + game.rounds=7 + game.explosion_limit=8;" in r.stdout.splitlines()[0]
    assert ok_json("play", "--players", 2, "--games", 20)["overrides"] == []


def test_set_shown_in_potion_json_and_headers():
    d = ok_json("potion", "--n", 1000, "--set", "game.explosion_limit=8")
    assert d["rules"] == "base" and d["overrides"] == ["game.explosion_limit=8"]
    r = ok("potion", "--n", 1000, "--set", "game.explosion_limit=8")
    assert r.stdout.splitlines()[0].endswith("| rules base + game.explosion_limit=8")
    d = ok_json("potion", "--draws", "w1,w2", "--set", "game.explosion_limit=8")
    assert d["rules"] == "base" and d["overrides"] == ["game.explosion_limit=8"]
    d = ok_json("potion", "--regret", "--compare", "white:6", "--bag", "w1x4,w2x2,o1",
                "--set", "game.explosion_limit=8")
    assert d["ruleset"] == "base" and d["overrides"] == ["game.explosion_limit=8"]


def test_set_shown_in_tournament_json_summary_and_run_json(tmp_path):
    out = tmp_path / "t"
    args = ("tournament", "--strategies", "threshold,random", "--games", 60, "--out", out,
            "--no-plots", "--set", "game.rounds=7")
    d = ok_json(*args)
    assert d["rules"] == "base" and d["overrides"] == ["game.rounds=7"]
    md = (out / "summary.md").read_text()
    assert "rules `base + game.rounds=7`" in md
    run = json.loads((out / "run.json").read_text())
    assert run["rules"] == "base" and run["overrides"] == ["game.rounds=7"]
    assert run["ruleset"]["data"]["game"]["rounds"] == 7
    r = ok("tournament", "--strategies", "threshold,random", "--games", 60, "--out",
           tmp_path / "t2",
           "--no-plots", "--set", "game.rounds=7")
    assert "rules base + game.rounds=7;" in r.stdout.splitlines()[0]


def test_set_shown_in_round_file(tmp_path):
    f = tmp_path / "r.toml"
    f.write_text('players = 2\nround = 3\nset = ["game.ruby_cost_flask=1"]\ndie = ["vp2"]\n'
                 '[[player]]\nrubies = 3\nflask = false\nbag = "start"\ndraws = "w1,w2"\n'
                 'spend = ["flask"]\n[[player]]\nbag = "start"\ndraws = "w3,w2"\n')
    r = ok("round", f)
    assert r.stdout.splitlines()[0] == "rules base + game.ruby_cost_flask=1"
    assert "spends 1 ruby on flask (2 left)" in r.stdout  # the ruleset's cost, in the singular
    d = ok_json("round", f)
    assert d["overrides"] == ["game.ruby_cost_flask=1"]


# --- replays of report rows --------------------------------------------------------------------

def _rows_to_check(g: pd.DataFrame, k: int = 7) -> list[int]:
    rng = np.random.default_rng(11)
    picks = {0, len(g) - 1, len(g) // 2, *rng.integers(0, len(g), k).tolist()}
    return sorted(int(x) for x in picks)


def _check_report_rows(out: Path, min_tables: int = 1) -> None:
    g = pd.read_parquet(out / "games.parquet")
    g["strategy"] = g["strategy"].astype(str)
    assert g["combo"].nunique() >= min_tables
    assert g["rotation"].nunique() > 1
    for n in _rows_to_check(g):
        row = g.iloc[n]
        game = g[g["game"] == row["game"]].sort_values("seat")
        d = ok_json("replay", out, "--row", n)
        assert d["matches"] is True, d["final"]
        assert (d["game"], d["deal"], d["table"], d["rotation"], d["seat"]) == (
            int(row["game"]), int(row["deal"]), int(row["combo"]), int(row["rotation"]),
            int(row["seat"]))
        # the replay's own FINAL events, seat by seat, against the report's rows
        finals = {e["seat"]: e for e in d["events"] if e["event"] == "final"}
        assert [finals[s]["score"] for s in range(len(game))] == game["vp"].tolist()
        assert [finals[s]["rank"] for s in range(len(game))] == game["rank"].tolist()
        assert d["seats"] == game["strategy"].tolist()
        # the same game by --game and --seat
        d2 = ok_json("replay", out, "--game", int(row["game"]), "--seat", int(row["seat"]))
        assert d2["events"] == d["events"]


@pytest.mark.parametrize("fmt, strategies, players, min_tables", [
    ("rotate", "cautious,balanced,greedy", 3, 1),
    ("round-robin", "threshold,threshold:t=7,random,balanced", 3, 4),
    ("vs-field", "threshold:t=7,threshold,random", 4, 1),
])
def test_replay_rows_of_a_tournament(tmp_path, fmt, strategies, players, min_tables):
    out = tmp_path / fmt
    ok("tournament", "--strategies", strategies, "--players", players, "--format", fmt,
       "--games", 96, "--seed", 13, "--out", out, "--no-plots", "--quiet", "--set", "game.rounds=8")
    _check_report_rows(out, min_tables)


def test_the_check_can_fail(tmp_path):
    """A replay with the report's seed and deal but another rotation, or without the override,
    does not reproduce the rows: the comparison above discriminates."""
    out = tmp_path / "r"
    ok("tournament", "--strategies", "cautious,balanced,greedy", "--games", 30, "--seed", 13,
       "--out", out, "--no-plots", "--quiet", "--set", "game.rounds=8")
    g = pd.read_parquet(out / "games.parquet")
    g["strategy"] = g["strategy"].astype(str)
    wrong = 0
    for deal in range(5):
        rows = g[(g["deal"] == deal) & (g["rotation"] == 1)].sort_values("seat")
        base = ("replay", "--seed", 13, "--game", deal, "--strategies", "cautious,balanced,greedy")
        for extra in (("--rotation", 0, "--set", "game.rounds=8"), ("--rotation", 1)):
            d = ok_json(*base, *extra)
            finals = {e["seat"]: e["score"] for e in d["events"] if e["event"] == "final"}
            wrong += [finals[s] for s in range(3)] != rows["vp"].tolist()
        d = ok_json(*base, "--rotation", 1, "--set", "game.rounds=8")  # the right one
        finals = {e["seat"]: e["score"] for e in d["events"] if e["event"] == "final"}
        assert [finals[s] for s in range(3)] == rows["vp"].tolist()
    assert wrong >= 8


def test_replay_uses_the_saved_rules_file_and_strategy_file(tmp_path):
    if not CAREFUL.is_file():
        pytest.skip("no example strategy file in this checkout")
    rules = tmp_path / "limit8.toml"
    rules.write_text('extends = "base"\nname = "limit-8"\n[game]\nexplosion_limit = 8\n')
    out = tmp_path / "f"
    ok("tournament", "--rules", rules, "--strategy-file", CAREFUL, "--strategies",
       "careful:t=7,threshold,random", "--games", 60, "--seed", 2, "--out", out, "--no-plots",
       "--quiet", "--set", "game.rounds=8")
    # changed since
    rules.write_text('extends = "base"\nname = "limit-8"\n[game]\nexplosion_limit = 12\n')
    _check_report_rows(out)
    r = ok("replay", out, "--row", 5)
    header = " ".join(" ".join(r.stdout.splitlines()[:3]).split())  # wraps if the path is long
    assert "rules limit-8 + game.rounds=8" in header
    assert "the replay matches the report" in r.stdout


def test_replay_a_sweep_value_folder(tmp_path):
    out = tmp_path / "sw"
    ok("sweep", "--strategy", "threshold", "--param", "t=5:6:1", "--vs", "random", "--players", 2,
       "--games", 40, "--out", out, "--no-plots", "--quiet", "--set", "game.rounds=7")
    subs = sorted(p for p in out.iterdir() if p.is_dir() and (p / "games.parquet").is_file())
    assert subs
    _check_report_rows(subs[-1])
    assert_user_error(invoke("replay", out, "--row", 0), "sweep folder")


def test_replay_report_argument_errors(tmp_path):
    out = tmp_path / "r"
    ok("tournament", "--strategies", "threshold,random", "--games", 20, "--out", out, "--no-plots",
       "--quiet")
    assert_user_error(invoke("replay", out), "--row")
    assert_user_error(invoke("replay", out, "--row", 40), "--row 40", "40 rows")
    assert_user_error(invoke("replay", out, "--game", 99, "--seat", 0), "--game 99")
    assert_user_error(invoke("replay", out, "--game", 1, "--seat", 2), "--seat 2")
    assert_user_error(invoke("replay", out, "--row", 1, "--seed", 3), "--seed")
    assert_user_error(invoke("replay", out, "--row", 1, "--rotation", 0), "--rotation")
    assert_user_error(invoke("replay", tmp_path / "none", "--row", 1), "no such report")
    assert_user_error(invoke("replay", out / "run.json", "--row", 1), "not a folder")


# --- default lineups and rotation --------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3])
def test_play_players_without_strategies(players):
    d = ok_json("play", "--players", players, "--games", 30)
    assert d["players"] == players
    assert ([s["name"] for s in d["strategies"]]
            == ["threshold", "threshold:t=5", "threshold:t=7"][:players])


def test_replay_default_lineup_is_plays():
    a = ok_json("replay", "--seed", 1, "--game", 5, "--players", 3, "--rotation", 2)
    b = ok_json("replay", "--seed", 1, "--game", 5, "--rotation", 2,
                "--strategies", "threshold,threshold:t=5,threshold:t=7")
    assert a == b
    assert len(ok_json("replay", "--seed", 1, "--game", 5)["seats"]) == 4


@pytest.mark.parametrize("rotation", [3, 7, -1])
def test_replay_rotation_out_of_range(rotation):
    assert_user_error(invoke("replay", "--seed", 1, "--game", 0, "--strategies",
                             "threshold,random,random",
                             "--rotation", rotation), f"--rotation {rotation}", "0 to 2")


# --- resume, interrupt hint, plot FILE ---------------------------------------------------------

@pytest.mark.parametrize("make", [False, True])
def test_resume_with_nothing_to_resume(tmp_path, make):
    out = tmp_path / "empty"
    if make:
        out.mkdir()
    assert_user_error(invoke("tournament", "--resume", "--out", out), "nothing to resume in",
                      str(out))
    assert_user_error(invoke("tournament", "--resume", "--out", out, "--strategies",
                             "threshold,random",
                             "--games", 20), "nothing to resume")
    assert_user_error(invoke("sweep", "--resume", "--out", out, "--strategy", "threshold",
                             "--param", "t=5:6:1", "--vs", "random"), "nothing to resume")
    if make:
        assert list(out.iterdir()) == []
    else:
        assert not out.exists()


def test_interrupted_sweep_prints_the_resume_hint(tmp_path, monkeypatch):
    import sim.study.sweep.run as C  # what sim.sweep runs
    from sim.study.reports.files import SWEEP_STATE

    def interrupted_between_values(*a, **k):
        Path(k["out"]).mkdir(parents=True)
        (Path(k["out"]) / SWEEP_STATE).write_text("{}")
        raise KeyboardInterrupt  # a plain Ctrl-C, outside any tournament's chunk

    monkeypatch.setattr(C, "run_sweep", interrupted_between_values)
    r = invoke("sweep", "--strategy", "threshold", "--param", "t=5:6:1", "--vs", "random",
               "--out", tmp_path / "s")
    assert r.exit_code == 130
    assert f"quacks sweep --out {tmp_path / 's'} --resume" in r.stderr


def test_plot_of_a_file(tmp_path):
    f = tmp_path / "games.parquet"
    f.write_text("x")
    assert_user_error(invoke("plot", f), "report folder")


# --- singular and plural -----------------------------------------------------------------------

def test_event_text_singular_and_plural():
    from sim.api.events import event_text

    names = ["a"]
    one = {"event": "score", "seat": 0, "round": 1, "score": 3, "rubies": 1, "droplet": 0}
    assert "3 VP, 1 ruby, droplet 0" in event_text(one, names)
    assert "2 rubies" in event_text({**one, "rubies": 2}, names)
    rew = {"event": "reward", "seat": 0, "round": 1, "space": 1, "coins": 1, "vp": 0}
    assert "1 coin, 0 VP" in event_text(rew, names)
    rat = {"event": "rat", "seat": 0, "round": 2, "tails": 1, "start": 1}
    assert "rat 1 space;" in event_text(rat, names)
    green = {"event": "green", "seat": 0, "round": 2, "rubies": 2}
    assert "+2 rubies" in event_text(green, names)
    spend = {"event": "spend", "seat": 0, "round": 2, "on": "flask", "rubies_left": 1}
    assert "spends 2 rubies on flask" in event_text(spend, names)
    assert "spends 1 ruby on flask" in event_text(spend, names, {"flask": 1, "droplet": 2})


def test_replay_text_has_no_wrong_plurals():
    text = "\n".join(ok("replay", "--seed", s, "--game", 3, "--players", 4).stdout
                     for s in (1, 2, 3))
    for bad in (" 1 rubies", " 1 coins", " 1 spaces"):
        assert bad not in text
    assert " 1 ruby" in text
