"""The Python API of the rule-design commands: ``sim.sensitivity``, ``sim.design`` and
``sim.experiment`` give the CLI's numbers for the same seed, their reports' tables are the files
the command writes (an experiment's parts as sub-folders), ``save`` writes the same file names as
the command's ``--out``, the figures are named as its PNGs, and a bad argument is a ValueError
with the command's one line."""

from __future__ import annotations

import gc
import json
import re
from pathlib import Path

import pytest
from cli_helpers import assert_user_error, invokers
from pandas.testing import assert_frame_equal

import sim
from sim.cli.main import app
from sim.questions.report import Report, read_tables

invoke, ok = invokers(app)
RUN_TIME = {"seconds", "out", "files"}  # what differs between two runs, or says where they went

FIELD = ["threshold:t=6,flask=0", "balanced"]
SENS = dict(knob=["game.explosion_limit=6:8", "game.penny_vp=0:4"], steps=2, players=2,
            field=",".join(FIELD), games=120, seed=3, metrics="explosion_rate,seat0_win_share")
SENS_ARGS = ["sensitivity", "--knob", "game.explosion_limit=6:8", "--knob", "game.penny_vp=0:4",
             "--steps", 2, "--players", 2, "--field", ",".join(FIELD), "--games", 120, "--seed",
             3, "--metrics", "explosion_rate,seat0_win_share"]
# the toy of test_design: one-round games, the band holds explosion limit 6 only
DESIGN = dict(target="explosion_rate=0.08:0.13", knob="game.explosion_limit=3:9", budget=2000,
              players=2, field="threshold:t=5,flask=0",
              set=["game.rounds=1", "cards.deck=false"], retest_games=1000, seed=5)
DESIGN_ARGS = ["design", "--target", "explosion_rate=0.08:0.13", "--knob",
               "game.explosion_limit=3:9", "--budget", 2000, "--players", 2, "--field",
               "threshold:t=5,flask=0", "--set", "game.rounds=1", "--set", "cards.deck=false",
               "--retest-games", 1000, "--seed", 5]
EXPERIMENT_ARGS = ["experiment", "run", "seat-advantage", "--games", 40]


def _files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in Path(folder).rglob("*") if p.is_file())


def _same_tables(api: Report, folder: Path) -> None:
    """Every table of the command's folder, read with pandas, is the API's table."""
    cli = read_tables(Path(folder))
    assert cli and set(api.tables) == set(cli)
    for name, df in cli.items():
        assert_frame_equal(api.tables[name], df, obj=name)


def _same_report(r: Report, cli_out: Path, tmp_path: Path) -> None:
    """The tables are the command's; ``save`` writes the command's file names; the figures are
    named as its PNGs and draw."""
    from matplotlib.figure import Figure

    _same_tables(r, cli_out)
    saved = r.save(tmp_path / "saved")
    assert _files(saved) == _files(cli_out)
    pngs = sorted(str(Path(f).with_suffix("")) for f in _files(cli_out) if f.endswith(".png"))
    assert sorted(r.figures) == pngs and pngs
    assert isinstance(r.figures[pngs[0]], Figure)


def _without_run_time(d: dict) -> dict:
    return {k: v for k, v in d.items() if k not in RUN_TIME}


def _cli_json(*args) -> dict:
    return json.loads(ok(*args, "--json").stdout)


def test_sensitivity_equals_the_cli(tmp_path):
    cli_out = tmp_path / "cli"
    d = _cli_json(*SENS_ARGS, "--out", cli_out)
    r = sim.sensitivity(**{**SENS, "field": FIELD, "metrics": SENS["metrics"].split(",")})
    assert r.kind == "sensitivity" and r.written == []  # nothing written until asked for
    assert _without_run_time(r.result.to_json()) == _without_run_time(d)
    _same_report(r, cli_out, tmp_path)
    folder = r.folder  # the temporary folder goes with the result
    del r
    gc.collect()
    assert not folder.exists()
    # with out, the files are written at once, listed as the command lists them
    r = sim.sensitivity(**SENS, out=tmp_path / "api")
    assert r.written == d["files"] and r.folder == tmp_path / "api"
    _same_tables(r, cli_out)


def test_sensitivity_pair_as_a_list_or_a_string():
    keys = ["game.explosion_limit", "game.penny_vp"]
    a = sim.sensitivity(**SENS, pair=keys).result.tables["pair"]
    b = sim.sensitivity(**SENS, pair=" ".join(keys)).result.tables["pair"]
    assert len(a) == 2 * 2 * 2
    assert_frame_equal(a, b)


def test_design_equals_the_cli(tmp_path):
    cli_out = tmp_path / "cli"
    d = _cli_json(*DESIGN_ARGS, "--out", cli_out)
    assert d["best"]["values"] == {"game.explosion_limit": 6}
    seen = []
    r = sim.design(**DESIGN, progress=lambda done, total: seen.append((done, total)))
    assert _without_run_time(r.result.to_json()) == _without_run_time(d)
    assert seen[0] == (0, 2000) and seen[-1][1] == 2000  # the search's games, from 0
    _same_report(r, cli_out, tmp_path)


def test_experiment_equals_the_cli(tmp_path):
    """Its parts are sub-folders: ``tables["expert-mirror/seats"]``, ``figures[...]``."""
    cli_out = tmp_path / "cli"
    d = json.loads(ok(*EXPERIMENT_ARGS, "--out", cli_out, "--json").stdout)
    said = []
    r = sim.experiment("seat-advantage", games=40, progress=said.append)
    assert r.kind == "experiment" and said[0].startswith("part expert-mirror")
    assert "expert-mirror/seats" in r.tables
    assert r.result.to_json()["parts"] == d["parts"]
    _same_report(r, cli_out, tmp_path)
    folder = r.folder
    del r
    gc.collect()
    assert not folder.exists()
    # with out: written there, the files listed in the command's order
    out = tmp_path / "api"
    r = sim.experiment(file="seat-advantage", out=out, games=40, csv=True)
    assert r.folder == out and r.written[-3:] == ["report.md", "experiment.json", "report.html"]
    assert "expert-mirror/seats.csv" in r.written
    assert all((out / f).is_file() for f in r.written)


def _refused(call, kwargs: dict, message: str, cli_args: list) -> None:
    """The function raises a ValueError with ``message``; the command prints that very line
    (exit 2)."""
    with pytest.raises(ValueError, match=re.escape(message)) as e:
        call(**kwargs)
    line = assert_user_error(invoke(*cli_args))
    assert line == f"error: {e.value}"


@pytest.mark.parametrize("change, message, cli", [
    ({"knob": None}, "--knob: give at least one", ["--steps", 2]),
    ({"steps": 1}, "--steps 1: expected 2 to 50", ["--knob", "game.explosion_limit=6:8",
                                                   "--steps", 1]),
    ({"field": ""}, "--field: give at least one", ["--knob", "game.explosion_limit=6:8",
                                                   "--field", ""]),
    ({"metrics": "seat0_winshare"}, "did you mean 'seat0_win_share'",
     ["--knob", "game.explosion_limit=6:8", "--metrics", "seat0_winshare"]),
    ({"games": 2}, "--games 2: expected at least 4", ["--knob", "game.explosion_limit=6:8",
                                                      "--games", 2]),
])
def test_sensitivity_bad_arguments_are_the_cli_lines(change, message, cli):
    base = ["sensitivity", "--players", 2, "--field", ",".join(FIELD), "--games", 120]
    if "--field" in cli:
        base = ["sensitivity", "--players", 2, "--games", 120]
    _refused(sim.sensitivity, {**SENS, **change}, message, [*base, *cli])


@pytest.mark.parametrize("change, message, cli", [
    ({"target": None}, "--targets: give a targets file", ["--knob", "game.explosion_limit=3:9"]),
    ({"budget": 6}, "--budget 6: too small; give at least 8",
     ["--target", "explosion_rate=0.08:0.13", "--knob", "game.explosion_limit=3:9", "--players",
      2, "--budget", 6]),
    ({"retune_param": "t=4:8"}, "only with --retune",
     ["--target", "explosion_rate=0.08:0.13", "--knob", "game.explosion_limit=3:9",
      "--retune-param", "t=4:8"]),
])
def test_design_bad_arguments_are_the_cli_lines(change, message, cli):
    _refused(sim.design, {**DESIGN, **change}, message, ["design", *cli])


@pytest.mark.parametrize("kwargs, message, cli", [
    ({"file": "no-such-experiment"}, "not found", ["no-such-experiment"]),
    ({"file": "seat-advantage", "games": 0}, "--games 0: expected 1 to 1000000000",
     ["seat-advantage", "--games", 0]),
])
def test_experiment_bad_arguments_are_the_cli_lines(kwargs, message, cli):
    _refused(sim.experiment, kwargs, message, ["experiment", "run", *cli])


def test_a_bad_out_is_refused_before_any_game(tmp_path):
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "x").write_text("x")
    with pytest.raises(ValueError, match="not empty"):
        sim.sensitivity(**SENS, out=tmp_path / "busy")
    with pytest.raises(ValueError, match=re.escape("--out '': empty")):
        sim.design(**DESIGN, out="")
    with pytest.raises(ValueError, match="not an experiment report"):
        sim.experiment("seat-advantage", games=40, out=tmp_path / "busy")
    assert _files(tmp_path) == ["busy/x"]
