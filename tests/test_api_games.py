"""The Python API of the game-playing commands: ``sim.play``, ``sim.tournament`` and
``sim.sweep`` give the CLI's numbers for the same seed, their reports save what the command
writes, and a bad argument is a ValueError with the command's one line."""

from __future__ import annotations

import json
import re

import pytest
from cli_helpers import installed_refusal_line, invokers, refusal_line

import sim
from sim.cli.main import app


def _same_line(cli: str, api: str) -> bool:
    """The command's line and the API's, the same but for the list of known strategies (this
    process may have loaded user strategies that a fresh command has not)."""
    return cli.partition("; known: ")[0] == api.partition("; known: ")[0] and "\n" not in cli


def _cli(*args: str):
    """The command run in this process (Typer's CliRunner; exit 0 asserted): the app a fresh
    ``quacks`` runs, without ~1.5 CPU s of interpreter and import start-up each."""
    return invokers(app)[1](*args)


def test_play_equals_the_cli_json():
    """``sim.play(...).to_dict()`` is ``quacks play --json`` less ``seconds``; a list of specs
    is the comma-separated string."""
    cli = json.loads(_cli("play", "--strategies", "threshold:t=5,random", "--games", "60",
                          "--seed", "5", "--json").stdout)
    cli.pop("seconds")
    r = sim.play(strategies="threshold:t=5,random", games=60, seed=5)
    assert r.to_dict() == cli
    assert sim.play(strategies=["threshold:t=5", "random"], games=60, seed=5).to_dict() == cli
    assert list(r.strategies["name"]) == ["threshold:t=5", "random"]
    assert r.header().startswith("60 games, 2 players, seed 5, rules base")
    assert "threshold:t=5" in r._repr_html_()


@pytest.mark.parametrize("kwargs, message", [
    ({"games": 0}, "--games 0: expected 1 to 1000000000"),
    ({"seed": -1}, "--seed -1: expected 0 to 9223372036854775807"),
    ({"players": 6}, "--players 6: expected 1 to 5 (no ruleset seats more)"),
    ({"players": 5}, "--players 5: this ruleset plays 2 to 4 players; 5 players need the Herb"),
    ({"strategies": "threshold,random", "players": 3},
     "--strategies: 2 strategies for 3 players; give one per seat, or one for all"),
    ({"strategies": []}, "--strategies: give at least one strategy"),
    ({"threads": 0}, "--threads 0: expected 1 to"),
    ({"rules": "no-such-rules"}, "no-such-rules"),
    ({"strategies": "no_such_strategy"}, "no_such_strategy"),
])
def test_play_bad_arguments_are_the_cli_lines(kwargs, message):
    with pytest.raises(ValueError, match=re.escape(message)) as e:
        sim.play(**kwargs)
    if kwargs.get("strategies") == []:
        return  # the CLI has no empty list
    args = [f"--{k}={v}" for k, v in kwargs.items()]
    assert _same_line(refusal_line(app, "play", *args), str(e.value))


def test_the_installed_command_refuses_with_the_apps_line():
    """``quacks`` in a process of its own prints the line the app prints in this one (the
    refusal tests here run the app in this process, without a second start-up each)."""
    for args in (("play", "--players=6"), ("tournament", "--resume")):
        assert installed_refusal_line(*args) == refusal_line(app, *args)


def _files(folder) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


def _same_tables(report, folder) -> None:
    """Every table of the command's report folder, read as the API reads its own, is the
    API's to the last digit (the folders differ only in run.json, the markdown and HTML, which
    hold the command line and the times)."""
    from pandas.testing import assert_frame_equal

    from sim.questions.report import read_tables

    cli = read_tables(folder)
    assert set(report.tables) == set(cli)
    for name, frame in cli.items():
        assert_frame_equal(report.tables[name], frame, obj=name)


def test_tournament_report_equals_the_cli_report(tmp_path):
    """``sim.tournament`` without ``out`` runs into a temporary folder whose tables are those of
    ``quacks tournament --out``; ``save`` writes the same files; the figures are the PNGs."""
    _cli("tournament", "--strategies", "threshold,random", "--games", "40", "--seed", "3",
         "--out", str(tmp_path / "cli"), "--quiet")
    r = sim.tournament(strategies=["threshold", "random"], games=40, seed=3)
    _same_tables(r, tmp_path / "cli")
    assert r.tables["summary"]["strategy"].tolist() == ["threshold", "random"]
    saved = r.save(tmp_path / "api")
    assert _files(saved) == _files(tmp_path / "cli")
    assert r.written == json.loads((tmp_path / "cli" / "run.json").read_text())["files"]
    pngs = sorted(p.stem for p in (tmp_path / "cli").glob("*.png"))
    assert sorted(r.figures) == pngs
    assert r.result.games == 40 and r.result.to_json()["kind"] == "tournament"


def test_tournament_into_out_is_the_command(tmp_path):
    """With ``out`` the report is written there, as the command writes it, and kept; a second
    call into the same folder needs ``force``, as the command's --out does."""
    r = sim.tournament(strategies="threshold,random", games=40, seed=3, out=tmp_path / "o")
    assert r.folder == tmp_path / "o" and (tmp_path / "o" / "summary.csv").is_file()
    msg = _refusal("tournament", "--strategies", "threshold,random", "--games", "40",
                   "--out", str(tmp_path / "o"))
    with pytest.raises(ValueError) as e:
        sim.tournament(strategies="threshold,random", games=40, out=tmp_path / "o")
    assert str(e.value) == msg


def test_sweep_report_equals_the_cli_report(tmp_path):
    """``sim.sweep``: sweep.csv and every value's report tables are the command's, the same
    files, the sweep figure."""
    args = {"strategy": "threshold", "param": "t=5:7:1", "vs": "threshold", "games": 16,
            "seed": 2, "players": 2}
    _cli("sweep", *[f"--{k}={v}" for k, v in args.items()], "--out", str(tmp_path / "cli"),
         "--quiet")
    r = sim.sweep(**{**args, "param": ["t=5:7:1"], "vs": ["threshold"]})
    _same_tables(r, tmp_path / "cli")
    assert r.tables["sweep"]["value"].tolist() == [5, 6, 7]
    assert _files(r.save(tmp_path / "api")) == _files(tmp_path / "cli")
    assert list(r.figures) == ["sweep"]
    assert r.result.to_json()["kind"] == "sweep"


def _refusal(*args: str) -> str:
    """The one line a command refuses with (exit 2), less ``error: `` (run in this process)."""
    return refusal_line(app, *args)


@pytest.mark.parametrize("name, kwargs", [
    ("tournament", {"resume": True, "force": True, "out": "x"}),
    ("tournament", {"resume": True}),
    ("tournament", {"strategies": "threshold,random", "games": 1}),
    ("tournament", {"strategies": "threshold,no_such_strategy"}),
    ("tournament", {"games": 0}),
    ("tournament", {"rules": "no-such-rules"}),
    ("sweep", {"param": "t=4:9:1", "vs": "threshold"}),
    ("sweep", {"strategy": "threshold", "vs": "threshold"}),
    ("sweep", {"strategy": "threshold", "param": "t=4:9:1"}),
    ("sweep", {"strategy": "threshold", "param": "t=9:4:1", "vs": "threshold"}),
    ("sweep", {"strategy": "threshold", "param": "zz=1:2:1", "vs": "threshold"}),
    ("sweep", {"strategy": "threshold", "param": "t=4:9:1", "vs": "threshold", "games": 2}),
    ("sweep", {"resume": True}),
])
def test_bad_arguments_are_the_cli_lines(name, kwargs, tmp_path):
    """A bad argument is a ValueError whose text is the line the command prints."""
    args = [f"--{k.replace('_', '-')}" if v is True else f"--{k.replace('_', '-')}={v}"
            for k, v in kwargs.items()]
    msg = _refusal(name, *args)
    with pytest.raises(ValueError) as e:
        getattr(sim, name)(**kwargs)
    assert _same_line(msg, str(e.value))


def test_a_bad_choice_names_the_option_and_the_choices():
    """(The command's parser refuses these with click's wording before the function is
    called.)"""
    with pytest.raises(ValueError, match="^--format ladder: expected one of rotate, "
                                         "round-robin, vs-field$"):
        sim.tournament(strategies="threshold,random", format="ladder")
    with pytest.raises(ValueError, match="^--detail all: expected one of games, rounds$"):
        sim.tournament(strategies="threshold,random", detail="all")
