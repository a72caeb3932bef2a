"""What an experiment, ``quacks report`` and ``quacks plot`` write, and what they refuse (issue 43
item 8): an experiment's tournament part keeps the tables ``quacks tournament`` writes (the same
writer), tables as CSV too (``--csv`` or ``csv = true``), a player count given twice refused,
``quacks report`` refusing an empty manifest, ``quacks plot`` failing loudly when plots fail, and
no temporary file left behind after an error."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from cli_helpers import assert_user_error, invokers
from experiment_texts import seats_experiment, write_experiment

from sim.cli.main import app

invoke, ok = invokers(app)

TOURNAMENT = """
[experiment]
title = "t"
seed = 3
games = 60
players = 2

[[part]]
kind = "tournament"
name = "field"
strategies = ["threshold", "random"]
"""

SEATS = seats_experiment(title="s", games=40, strategy="random")


def _hidden(folder: Path) -> list[str]:
    """Temporary names (``.x.partial``, staging folders) anywhere under ``folder``."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob(".*"))


@pytest.fixture(scope="module")
def tournament_part(tmp_path_factory):
    """The tournament part of an experiment (with --csv) and the same tournament played
    alone."""
    root = tmp_path_factory.mktemp("exp")
    f = write_experiment(root, TOURNAMENT)
    ok("experiment", "run", f, "--out", root / "exp", "--csv")
    ok("tournament", "--strategies", "threshold,random", "--players", 2, "--games", 60,
       "--seed", 3, "--out", root / "alone", "--no-plots")
    return root / "exp" / "field", root / "alone"


def test_the_tournament_part_keeps_the_standalone_tables(tournament_part):
    from sim.study.reports.files import TABLE_FILES

    part, alone = tournament_part
    standalone = sorted(n for n in TABLE_FILES.values() if (alone / n).is_file())
    assert {"pairs.csv", "seats.csv"} <= set(standalone)
    assert sorted(p.name for p in part.glob("*.csv")) == standalone  # the same tables
    for name in standalone:  # with the same rows: the same games
        mine, theirs = pd.read_csv(part / name), pd.read_csv(alone / name)
        pd.testing.assert_frame_equal(mine, theirs, check_dtype=False)
        back = pd.read_parquet(part / name.replace(".csv", ".parquet"))
        assert list(back.columns) == list(theirs.columns) and len(back) == len(theirs)
    report = (part.parent / "report.md").read_text()
    assert "Paired differences per deal" in report and "threshold" in report


def test_csv_only_when_asked_for(tmp_path):
    f = write_experiment(tmp_path, SEATS)
    r = ok("experiment", "run", f, "--out", tmp_path / "plain")
    assert "seats.csv" not in r.stdout
    assert not list((tmp_path / "plain").rglob("*.csv"))
    r = ok("experiment", "run", f, "--out", tmp_path / "csv", "--csv")
    assert "mirror (seats): seats.parquet, seats.csv" in r.stdout
    got = pd.read_csv(tmp_path / "csv" / "mirror" / "seats.csv")
    want = pd.read_parquet(tmp_path / "csv" / "mirror" / "seats.parquet")
    pd.testing.assert_frame_equal(got, want, check_dtype=False)
    # the file can ask for it too
    g = write_experiment(tmp_path, SEATS.replace('games = 40', 'games = 40\ncsv = true'), "y.toml")
    d = json.loads(ok("experiment", "run", g, "--out", tmp_path / "file", "--json").stdout)
    assert d["parts"][0]["tables"] == ["mirror/seats.parquet", "mirror/seats.csv"]
    assert (tmp_path / "file" / "mirror" / "seats.csv").is_file()
    g.write_text(SEATS.replace('games = 40', 'games = 40\ncsv = "yes"'))
    assert_user_error(invoke("experiment", "run", g, "--out", tmp_path / "bad"),
                      "y.toml: [experiment]: key 'csv' must be true or false")


@pytest.mark.parametrize(("key", "text"), [
    ("player_counts", "player_counts = [2, 2]"),
    ("player_counts", "player_counts = [2, 3, 2]"),
])
def test_a_value_given_twice_is_refused(tmp_path, key, text):
    f = write_experiment(tmp_path, SEATS.replace("player_counts = [2, 3]", text))
    line = assert_user_error(invoke("experiment", "run", f, "--out", tmp_path / "o"),
                             f"x.toml: part 'mirror' (seats): {text}: 2 is given twice")
    assert str(f) in line and key in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.toml"]  # nothing written


def test_after_rounds_given_twice_is_refused(tmp_path):
    f = write_experiment(tmp_path, SEATS.replace('kind = "seats"', 'kind = "catchup"').replace(
        'strategy = "random"\nplayer_counts = [2, 3]',
        'strategies = ["balanced", "greedy"]\nafter_rounds = [3, 6, 3]\nplayers = 2'))
    assert_user_error(invoke("experiment", "run", f, "--out", tmp_path / "o"),
                      "after_rounds = [3, 6, 3]: 3 is given twice")


@pytest.mark.parametrize("manifest", ["run.json", "experiment.json", "tune.json"])
def test_report_refuses_an_empty_manifest(tmp_path, manifest):
    d = tmp_path / "rep"
    d.mkdir()
    (d / manifest).write_text("{}")
    assert_user_error(invoke("report", d), f"{d / manifest}: an empty manifest")
    assert sorted(p.name for p in d.iterdir()) == [manifest]  # no page, no temporary file


def _bad_report(tmp_path: Path) -> Path:
    d = tmp_path / "rep"
    d.mkdir()
    (d / "summary.csv").write_text("strategy,games\nbalanced,4\n")  # no win share: no plot
    return d


def test_plot_fails_when_every_plot_fails(tmp_path):
    d = _bad_report(tmp_path)
    line = assert_user_error(invoke("plot", d), "win_share.png not drawn", "'win_share'")
    assert line.startswith(f"error: {d}: ")
    assert sorted(p.name for p in d.iterdir()) == ["summary.csv"]


def test_plot_one_line_per_failure_and_exit_1_for_a_failure(tmp_path, small_report,
                                                             monkeypatch):
    import shutil

    import sim.study.reports.plots as P

    d = Path(shutil.copytree(small_report, tmp_path / "rep"))
    real = P.save_png

    def broken(fig, outdir, name, *a, **k):
        if name in ("seats.png", "pairs.png"):
            raise OSError(28, "No space left on device")
        return real(fig, outdir, name, *a, **k)

    monkeypatch.setattr(P, "save_png", broken)
    r = invoke("plot", d)
    assert r.exit_code == 1, r.output
    errors = [x for x in r.stderr.splitlines() if x.startswith("error: ")]
    assert len(errors) == 2 and all("No space left on device" in x for x in errors), r.stderr
    assert "win_share.png" in r.stdout  # what was drawn is still said
    monkeypatch.setattr(P, "save_png", real)
    assert ok("plot", d).stderr == ""


@pytest.fixture(scope="module")
def small_report(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("small") / "rep"
    ok("tournament", "--strategies", "threshold,random", "--games", 40, "--out", out)
    return out


def test_no_temporary_file_after_an_error(tmp_path, small_report, monkeypatch):
    import os
    import shutil

    import sim.study.reports.files as F

    d = Path(shutil.copytree(small_report, tmp_path / "rep"))
    (d / "report.html").unlink()

    def no_rename(src, dst):
        raise OSError(13, "Permission denied")

    monkeypatch.setattr(F.os, "replace", no_rename)
    assert_user_error(invoke("report", d), "cannot write report.html", "Permission denied")
    monkeypatch.setattr(F.os, "replace", os.replace)
    assert _hidden(d) == [] and not (d / "report.html").exists()


def test_save_png_leaves_no_temporary_file(tmp_path, monkeypatch):
    from matplotlib.figure import Figure

    import sim.study.common.plot_style as S

    fig = Figure()
    fig.subplots().plot([1, 2], [3, 4])

    def no_rename(src, dst):
        raise OSError(13, "Permission denied")

    monkeypatch.setattr(S.os, "replace", no_rename)
    with pytest.raises(OSError):
        S.save_png(fig, tmp_path, "x.png")
    assert list(tmp_path.iterdir()) == []
