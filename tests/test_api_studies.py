"""The Python API of the study commands: ``sim.thresholds``, ``sim.tune``, ``sim.compare`` and
``sim.balance`` give the CLI's numbers for the same seed, their reports' tables are the files the
command writes, ``save`` writes the same file names as the command's ``--out``, and a bad
argument is a ValueError with the command's one line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest
from cli_helpers import installed_refusal_line, invokers, refusal_line
from pandas.testing import assert_frame_equal

import sim
from sim.cli.main import app
from sim.questions.report import Report

RUN_TIME = {"seconds", "argv", "created", "provenance", "versions", "out", "files"}


def _cli(*args):
    """The command run in this process (Typer's CliRunner; exit 0 asserted): the app a fresh
    ``quacks`` runs, without ~1.5 CPU s of interpreter and import start-up each."""
    return invokers(app)[1](*args)


def _names(folder: Path) -> list[str]:
    return sorted(p.name for p in Path(folder).iterdir())


def _refused(command: str, kwargs: dict, message: str, cli_args: list) -> None:
    """The function raises a ValueError with ``message``; the command prints that very line
    (exit 2; run in this process: the installed command prints the same line, see
    test_the_installed_command_refuses_with_the_apps_line)."""
    with pytest.raises(ValueError, match=re.escape(message)) as e:
        getattr(sim, command)(**kwargs)
    assert refusal_line(app, command, *cli_args) == str(e.value)


def test_the_installed_command_refuses_with_the_apps_line():
    """``quacks`` in a process of its own prints the line the app prints in this one (the
    refusal tests below run the app in this process)."""
    args = ("thresholds", "--n", 100, "--round", 99)
    line = "--round 99: expected 0 to 20 (no ruleset plays more rounds)"
    assert installed_refusal_line(*args) == refusal_line(app, *args) == line


def _same_tables(api: Report, folder: Path) -> None:
    """Every table of the command's folder, read with pandas, is the API's table."""
    from sim.questions.report import read_tables

    cli = read_tables(Path(folder))
    assert set(api.tables) == set(cli) and cli
    for name, df in cli.items():
        assert_frame_equal(api.tables[name], df, obj=name)


# --- thresholds --------------------------------------------------------------------------------

TH = {"bag": "start,r1", "n": 3000, "white": "5:7", "risk": "0.2,0.3", "seed": 4}
TH_ARGS = ["--bag", "start,r1", "--n", 3000, "--white", "5:7", "--risk", "0.2,0.3", "--seed", 4]


def test_thresholds_equal_the_cli(tmp_path):
    """The table, the policy and the JSON of ``sim.thresholds`` are the command's; lists where
    the command takes comma-separated values; save writes the command's file names."""
    cli_out = tmp_path / "cli"
    _cli("thresholds", *TH_ARGS, "--out", cli_out)
    cli_json = json.loads(_cli("thresholds", *TH_ARGS, "--json").stdout)
    r = sim.thresholds(**TH)
    assert r.written == [] and r.kind == "thresholds"
    got = r.result.to_json()
    for d in (got, cli_json):
        d.pop("seconds")
    assert got == cli_json
    _same_tables(r, cli_out)
    assert set(r.tables) == {"thresholds", "policy"}
    assert list(r.figures) == ["stop_curve", "policy"]
    assert r.figures["stop_curve"].axes
    saved = r.save(tmp_path / "api")
    assert _names(saved) == _names(cli_out)
    listed = sim.thresholds(**{**TH, "bag": ["start", "r1"], "white": [5, 6, 7],
                               "risk": [0.2, 0.3]})
    assert_frame_equal(listed.tables["thresholds"], r.tables["thresholds"])


def test_thresholds_files_are_written_where_asked(tmp_path):
    out, csv = tmp_path / "out", tmp_path / "t.csv"
    r = sim.thresholds(**TH, csv=csv, out=out)
    assert r.folder == out
    assert r.written == [str(csv), *(str(out / f) for f in
                                     json.loads((out / "thresholds.json").read_text())["files"])]
    assert csv.read_text() == (out / "thresholds.csv").read_text()
    assert len(pd.read_csv(csv)) == len(r.tables["thresholds"]) == 3 + 2 + 1  # and the optimum


@pytest.mark.parametrize("kwargs, message, cli_args", [
    ({"white": "none", "risk": "none"},
     "--white none and --risk none: nothing to compare; give some thresholds",
     ["--white", "none", "--risk", "none"]),
    ({"round": 99}, "--round 99: expected 0 to 20 (no ruleset plays more rounds)",
     ["--round", 99]),
    ({"n_optimal": 0}, "--n-optimal 0: expected 1 to", ["--n-optimal", 0]),
    ({"risk": "2"}, "--risk 2: expected chances from 0 to 1", ["--risk", 2]),
    ({"csv": "no-such-dir/x.csv"}, "--csv no-such-dir/x.csv: the folder no-such-dir does not "
                                   "exist", ["--csv", "no-such-dir/x.csv"]),
    ({"png": "x.zzz"}, "--png x.zzz: matplotlib cannot write .zzz files", ["--png", "x.zzz"]),
    ({"bag": "q9"}, "bag 'q9': unknown colour 'q'", ["--bag", "q9"]),
])
def test_thresholds_bad_arguments_are_the_cli_lines(kwargs, message, cli_args):
    _refused("thresholds", {"n": 100, **kwargs}, message, ["--n", 100, *cli_args])


# --- tune --------------------------------------------------------------------------------------

TUNE = {"spec": "threshold:t=3", "param": "t=1:20", "vs": "threshold:t=3", "players": 2,
        "budget": 3000, "seed": 5, "set": "game.explosion_limit=40"}
TUNE_ARGS = ["threshold:t=3", "--param", "t=1:20", "--vs", "threshold:t=3", "--players", 2,
             "--budget", 3000, "--seed", 5, "--set", "game.explosion_limit=40"]


def test_tune_equals_the_cli(tmp_path):
    """``sim.tune`` finds the command's best spec with the same win shares, its history table is
    the command's history.parquet, and save writes the command's file names."""
    cli_out = tmp_path / "cli"
    cli = json.loads(_cli("tune", *TUNE_ARGS, "--out", cli_out, "--json").stdout)
    r = sim.tune(**{**TUNE, "param": ["t=1:20"], "vs": ["threshold:t=3"],
                    "set": ["game.explosion_limit=40"]})
    assert r.result.as_json() == cli
    assert r.result.players == 2
    _same_tables(r, cli_out)
    assert list(r.figures) == ["progress"]
    assert _names(r.save(tmp_path / "api")) == _names(cli_out)
    settings = json.loads((tmp_path / "api" / "tune.json").read_text())["settings"]
    assert settings == json.loads((cli_out / "tune.json").read_text())["settings"]


@pytest.mark.parametrize("kwargs, message, cli_args", [
    ({"param": ["t=1:9", "t=2:8"]}, "--param: each parameter once",
     ["--param", "t=1:9", "--param", "t=2:8"]),
    ({"budget": 10}, "--budget 10: too small", ["--budget", 10]),
    ({"param": "q=1:9"}, "no such parameter", ["--param", "q=1:9"]),
    ({"vs": "balanced,greedy", "players": 4}, "--vs: 2 strategies for 3 other seats",
     ["--vs", "balanced,greedy", "--players", 4]),
])
def test_tune_bad_arguments_are_the_cli_lines(kwargs, message, cli_args):
    given = {"spec": "threshold", "param": "t=1:9", "vs": "balanced", **kwargs}
    args = ["threshold", *(["--param", "t=1:9"] if "param" not in kwargs else []),
            *(["--vs", "balanced"] if "vs" not in kwargs else []), *cli_args]
    _refused("tune", given, message, args)


# --- compare -----------------------------------------------------------------------------------

CMP = {"strategies": "threshold:t=5,random", "games": 40, "seed": 3,
       "variant": "x=game.explosion_limit=8"}
CMP_ARGS = ["--strategies", "threshold:t=5,random", "--games", 40, "--seed", 3,
            "--variant", "x=game.explosion_limit=8"]


def _json_less_run_time(d: dict) -> dict:
    """A result's JSON as the command prints it (``dumps``: inf and NaN as null), less the
    run-time keys."""
    from sim.study.reports.files import dumps

    return {k: v for k, v in json.loads(dumps(d)).items() if k not in RUN_TIME}


def test_compare_equals_the_cli(tmp_path):
    """The tables and the JSON of ``sim.compare`` are the command's (lists where it takes
    repeated or comma-separated values); save writes the command's file names."""
    cli_out = tmp_path / "cli"
    cli = json.loads(_cli("compare", *CMP_ARGS, "--out", cli_out, "--json").stdout)
    r = sim.compare(**{**CMP, "strategies": ["threshold:t=5", "random"],
                       "variant": ["x=game.explosion_limit=8"]})
    assert _json_less_run_time(r.result.to_json()) == _json_less_run_time(cli)
    _same_tables(r, cli_out)
    assert set(r.tables) == {"rulesets", "strategies", "differences", "deals"}
    assert list(r.figures) == ["metrics", "differences", "win_share"]
    assert _names(r.save(tmp_path / "api")) == _names(cli_out)


def test_compare_writes_out_and_refuses_a_full_one(tmp_path):
    out = tmp_path / "out"
    r = sim.compare(**CMP, out=out)
    assert r.folder == out and r.written == json.loads((out / "run.json").read_text())["files"]
    with pytest.raises(ValueError, match="the directory is not empty; use --force"):
        sim.compare(**CMP, out=out)
    sim.compare(**CMP, out=out, force=True)


@pytest.mark.parametrize("kwargs, message, cli_args", [
    ({"variant": []}, "1 ruleset given; compare needs at least two", []),
    ({"variant": ["x=game.explosion_limit=8", "x=game.explosion_limit=9"]},
     "--variant x=game.explosion_limit=9: the label 'x' is used twice",
     ["--variant", "x=game.explosion_limit=9"]),
    ({"strategies": " , "}, "--strategies: give at least one strategy",
     ["--strategies", " , "]),
    ({"leader_round": 0}, "--leader-round 0: expected 1 to 20", ["--leader-round", 0]),
    ({"rules": ["base", "no-such-rules"]}, "no-such-rules",
     ["--rules", "base", "--rules", "no-such-rules"]),
])
def test_compare_bad_arguments_are_the_cli_lines(kwargs, message, cli_args):
    given = {"games": 40, "variant": "x=game.explosion_limit=8", **kwargs}
    args = ["--games", 40, *(["--variant", "x=game.explosion_limit=8"]
                             if kwargs.get("variant") != [] else []), *cli_args]
    _refused("compare", given, message, args)


# --- balance -----------------------------------------------------------------------------------

BAL = {"games": 40, "parts": "game,skill,cards", "seed": 3}
BAL_ARGS = ["--games", 40, "--parts", "game,skill,cards", "--seed", 3]


def test_balance_equals_the_cli(tmp_path):
    """The tables and the JSON of ``sim.balance`` are the command's; lists where it takes
    comma-separated values; save writes the command's file names."""
    cli_out = tmp_path / "cli"
    cli = json.loads(_cli("balance", *BAL_ARGS, "--out", cli_out, "--json").stdout)
    r = sim.balance(**{**BAL, "parts": ["game", "skill", "cards"]})
    assert _json_less_run_time(r.result.to_json()) == _json_less_run_time(cli)
    _same_tables(r, cli_out)
    assert set(r.tables) == {"game", "skill", "cards"}
    assert list(r.figures) == ["game", "skill", "cards"]
    assert _names(r.save(tmp_path / "api")) == _names(cli_out)


@pytest.mark.parametrize("kwargs, message, cli_args", [
    ({"field": " , "}, "--field: give at least one, e.g. --field expert,balanced,greedy,ev",
     ["--field", " , "]),
    ({"weak": []}, "--weak: give at least one", None),
    ({"parts": "game,nosuch"}, "nosuch", ["--parts", "game,nosuch"]),
    ({"players": 6}, "--players 6: expected 1 to 5", ["--players", 6]),
    ({"scheduler": "tcp://h:1"}, "--scheduler", ["--scheduler", "tcp://h:1"]),
])
def test_balance_bad_arguments_are_the_cli_lines(kwargs, message, cli_args):
    given = {"games": 40, "parts": "game", **kwargs}
    if cli_args is None:  # the command has no empty list
        with pytest.raises(ValueError, match=re.escape(message)):
            sim.balance(**given)
        return
    args = ["--games", 40, *(["--parts", "game"] if "parts" not in kwargs else []), *cli_args]
    _refused("balance", given, message, args)
