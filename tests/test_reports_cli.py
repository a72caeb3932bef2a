"""The report commands through Typer's CliRunner: ``tournament``, ``sweep`` and ``plot`` on a local
app (``sim.cli.reports.register``); report files (schema, row counts, no missing values, readable
by pandas), PNG files, JSON keys, and the one-line user errors (exit 2, no traceback, no file)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
import typer
from cli_helpers import assert_user_error, invokers

from sim.cli.reports import register
from sim.study.tournament.run import RunInterrupted

app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
register(app)


@app.callback()
def _root() -> None:
    """Test app with the report commands."""


PNG = b"\x89PNG\r\n\x1a\n"
THREE = "threshold,threshold:t=7,random"
JSON_KEYS = ("name", "games", "win_share", "win_share_ci", "mean_vp", "mean_vp_ci", "mean_rank",
             "explosion_rate")


invoke, ok = invokers(app)


def assert_png(path):
    data = path.read_bytes()
    assert data[:8] == PNG, path
    assert len(data) > 5_000, (path, len(data))


# --- tournament ------------------------------------------------------------------------------

def test_tournament_report_files(tmp_path):
    out = tmp_path / "rep"
    r = ok("tournament", "--strategies", THREE, "--games", 900, "--seed", 5, "--out", out,
           "--detail", "rounds", "--json")
    d = json.loads(r.stdout)
    assert d["games"] == 900 and d["players"] == 3 and d["format"] == "rotate" and d["seed"] == 5
    assert [s["name"] for s in d["strategies"]] == THREE.split(",")
    for s in d["strategies"]:
        for k in JSON_KEYS:
            assert k in s, k
        lo, hi = s["win_share_ci"]
        assert 0 <= lo <= s["win_share"] <= hi <= 1
        assert s["games"] == 900
    # games.parquet: one row per game and seat, tidy, categorical strategy, nothing missing
    g = pd.read_parquet(out / "games.parquet")
    assert len(g) == 900 * 3
    for col in ("game", "seed", "rotation", "seat", "strategy", "vp", "rank", "win_share",
                "explosions", "rubies", "droplet", *[f"bought_{c}" for c in
                                                    ("white", "orange", "green", "blue", "red",
                                                     "yellow", "purple", "black", "locoweed")]):
        assert col in g.columns, col
    assert isinstance(g["strategy"].dtype, pd.CategoricalDtype)
    assert not g.isna().any().any()
    assert sorted(g["game"].unique()) == list(range(900))
    assert g.groupby("game")["win_share"].sum().round(9).eq(1).all()
    assert (g.groupby("strategy", observed=True).size() == 900).all()
    meta = pq.read_schema(out / "games.parquet").metadata[b"quacks"]
    assert json.loads(meta)["settings"]["seed"] == 5
    # rounds.parquet: one row per game, round and seat
    rd = pd.read_parquet(out / "rounds.parquet")
    assert len(rd) == 900 * 9 * 3 and not rd.isna().any().any()
    assert set(rd["round"]) == set(range(1, 10))
    # summary tables and the manifest
    s = pd.read_csv(out / "summary.csv")
    assert (len(s) == 3
            and not s[["win_share", "win_share_ci_lo", "mean_vp", "rating"]].isna().any().any())
    assert len(pd.read_csv(out / "pairs.csv")) == 3
    assert len(pd.read_csv(out / "seats.csv")) == 3 * 4  # 3 seats x (all + 3 strategies)
    assert {"exploded", "reward_space",
            "bag_red"} <= set(pd.read_csv(out / "rounds_summary.csv")["metric"])
    md = (out / "summary.md").read_text()
    assert "## Strategies" in md and "## Paired differences" in md and "## Seats" in md
    run = json.loads((out / "run.json").read_text())
    for k in ("command", "argv", "ruleset", "strategy_specs", "seed", "games", "versions",
              "wall_seconds"):
        assert k in run, k
    assert (run["ruleset"]["hash"] == d["rules_hash"]
            and run["ruleset"]["data"]["game"]["rounds"] == 9)
    assert run["strategy_specs"][1]["params"]["t"] == 7
    for png in ("win_share.png", "vp_distribution.png", "rounds.png", "bag_by_round.png",
                "seats.png",
                "chips_bought.png", "pairs.png"):
        assert_png(out / png)
    assert not [p.name for p in out.iterdir() if p.name.startswith(".")]
    # quacks plot re-draws from the saved tables
    for png in out.glob("*.png"):
        png.unlink()
    r = ok("plot", out)
    assert "win_share.png" in r.stdout
    assert_png(out / "rounds.png")
    assert_png(out / "seats.png")


def test_tournament_table_output_and_games_detail(tmp_path):
    out = tmp_path / "t"
    r = ok("tournament", "--strategies", "threshold,random", "--games", 400, "--out", out,
           "--no-plots")
    assert "400 games (200 deals x 2 seatings), 2 players" in r.stdout
    assert "win share [95% CI]" in r.stdout and "paired differences" in r.stdout
    assert not (out / "rounds.parquet").exists() and not list(out.glob("*.png"))
    assert (out / "games.parquet").exists()


def test_no_options_runs_the_default_field(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    import sim.study.tournament.plan as T

    monkeypatch.setattr(T, "DEFAULT_GAMES", 400)
    r = ok("tournament", "--json", "--no-plots")
    d = json.loads(r.stdout)
    assert d["players"] == 4 and d["games"] == 400
    reports = list((tmp_path / "reports").iterdir())
    assert len(reports) == 1 and (reports[0] / "summary.md").exists()


@pytest.mark.parametrize("command", [
    ("tournament", "--strategies", THREE, "--games", 90),
    ("sweep", "--strategy", "threshold", "--param", "t=5:6:1", "--vs", "threshold", "--games", 90),
])
def test_a_full_out_folder_is_refused_before_the_kernels_compile(tmp_path, monkeypatch, command):
    # A first run compiles for minutes: a folder that cannot take the report fails at once.
    import sim.api.game as game

    def no_compile(*args, **kwargs):
        raise AssertionError("compiled before checking --out")

    monkeypatch.setattr(game, "play_batch", no_compile)  # the warm-up game compiles the kernel
    out = tmp_path / "x"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    assert_user_error(invoke(*command, "--out", out), "not empty", "--force")
    (out / "notes.txt").unlink()
    out.rmdir()
    out.write_text("a file")
    assert_user_error(invoke(*command, "--out", out), "not a directory")


def test_existing_dir_is_refused_unless_force_or_resume(tmp_path):
    out = tmp_path / "x"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    assert_user_error(invoke("tournament", "--strategies", THREE, "--games", 90, "--out", out),
                      "not empty", "--force")
    ok("tournament", "--strategies", THREE, "--games", 90, "--out", out, "--force", "--no-plots")
    assert (out / "notes.txt").read_text() == "mine"  # --force touches only report files
    assert (out / "games.parquet").exists()
    # --resume of a finished run reports it again
    r = ok("tournament", "--out", out, "--resume", "--json")
    assert json.loads(r.stdout)["games"] == 90


def interrupt_run(monkeypatch, module, call: int):
    """The ``call``-th ``module.run_tournament`` stops after its first chunk, as at a Ctrl-C;
    returns the real function."""
    real = module.run_tournament
    calls = {"n": 0}

    def interrupted(*a, **k):
        calls["n"] += 1
        if calls["n"] == call:
            k["stop_after_chunks"] = 1
        return real(*a, **k)

    monkeypatch.setattr(module, "run_tournament", interrupted)
    return real


def test_resume_takes_saved_settings(tmp_path, monkeypatch):
    import sim.study.tournament.run as C  # what sim.tournament runs

    interrupt_run(monkeypatch, C, 1)
    out = tmp_path / "r"
    r = invoke("tournament", "--strategies", THREE, "--games", 6000, "--seed", 3, "--out", out,
               "--no-plots")
    assert r.exit_code == 130 and "--resume" in r.stderr
    assert_user_error(invoke("tournament", "--out", out, "--resume", "--seed", 4), "seed")
    r = ok("tournament", "--out", out, "--resume", "--json", "--no-plots")
    d = json.loads(r.stdout)
    assert d["games"] == 6000 and d["seed"] == 3
    straight = json.loads(ok("tournament", "--strategies", THREE, "--games", 6000, "--seed", 3,
                             "--out", tmp_path / "s", "--json", "--no-plots").stdout)
    assert straight["strategies"] == d["strategies"]


def test_ctrl_c_exit_status(tmp_path, monkeypatch):
    import sim.study.tournament.run as C  # what sim.tournament runs

    def boom(*a, **k):
        raise RunInterrupted(1234, tmp_path / "z")

    monkeypatch.setattr(C, "run_tournament", boom)
    r = invoke("tournament", "--strategies", THREE, "--games", 90, "--out", tmp_path / "z")
    assert r.exit_code == 130
    assert "1,234 games kept" in r.stderr and "--resume" in r.stderr


@pytest.mark.parametrize("args, fragments", [
    (("--strategies", "threshold,nosuch"), ("unknown strategy 'nosuch'",)),
    (("--strategies", "threshold:t=99,random"), ("out of range",)),
    (("--strategies", "threshold:t,random"), ("not key=value",)),
    (("--strategies", THREE, "--players", "7"), ("--players 7",)),
    (("--strategies", THREE, "--games", "0"), ("--games 0",)),
    (("--strategies", THREE, "--games", "-5"), ("--games -5",)),
    (("--strategies", THREE, "--set", "game.rounds=zero"), ("game.rounds",)),
    (("--strategies", THREE, "--rules", "no-such-rules"), ("no-such-rules",)),
    (("--strategies", THREE, "--until-ci", "2"), ("--until-ci",)),
    (("--strategies", ",,"), ("--strategies",)),
    (("--resume",), ("--resume needs --out",)),
])
def test_tournament_user_errors(tmp_path, args, fragments):
    out = tmp_path / "never"
    assert_user_error(invoke("tournament", *args, "--out", out) if "--resume" not in args
                      else invoke("tournament", *args), *fragments)
    assert not out.exists()  # nothing written


def test_broken_ruleset_file(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('extends = "base"\n[game]\nexplosion_limit = "seven"\n')
    assert_user_error(invoke("tournament", "--strategies", THREE, "--rules", bad, "--out",
                             tmp_path / "o"),
                      "explosion_limit")
    bad.write_text("[game\n")
    assert_user_error(invoke("tournament", "--strategies", THREE, "--rules", bad, "--out",
                             tmp_path / "o"))
    assert not (tmp_path / "o").exists()


def test_unwritable_dir(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert_user_error(invoke("tournament", "--strategies", THREE, "--games", 30, "--out", blocker),
                      "not a directory")
    assert_user_error(invoke("tournament", "--strategies", THREE, "--games", 30, "--out",
                             blocker / "sub"),
                      "is a file, not a directory")  # the path under a file names that file


# --- sweep and plot ------------------------------------------------------------------------------

def test_sweep(tmp_path):
    out = tmp_path / "sw"
    r = ok("sweep", "--strategy", "threshold:flask=3", "--param", "t=5:7:1", "--vs", "threshold",
           "--players", 3, "--games", 300, "--out", out, "--json")
    d = json.loads(r.stdout)
    assert d["values"] == [5.0, 6.0, 7.0] and d["players"] == 3
    assert [s["name"] for s in d["strategies"]] == ["threshold:flask=3,t=5",
                                                    "threshold:flask=3,t=6",
                                                     "threshold:flask=3,t=7"]
    for s in d["strategies"]:
        for k in JSON_KEYS:
            assert k in s, k
        assert s["games"] == 300
    table = pd.read_csv(out / "sweep.csv")
    assert (table["value"].tolist() == [5, 6, 7]
            and not table[["win_share", "mean_vp"]].isna().any().any())
    assert_png(out / "sweep.png")
    assert (out / "t=6" / "games.parquet").exists()
    (out / "sweep.png").unlink()
    ok("plot", out)
    assert_png(out / "sweep.png")
    r = ok("sweep", "--strategy", "random", "--param", "p=0.1:0.3:0.1", "--vs", "threshold",
           "--games", 100, "--out", tmp_path / "sw2", "--no-plots")
    assert "0.3" in r.stdout and "random:p=0.1" in r.stdout


@pytest.mark.parametrize("args, fragment", [
    (("--strategy", "nosuch", "--param", "t=1:2:1", "--vs", "threshold"), "unknown strategy"),
    (("--strategy", "threshold", "--param", "q=1:2:1", "--vs", "threshold"), "no such parameter"),
    (("--strategy", "threshold", "--param", "t=1:2", "--vs", "threshold"), "KEY=START:STOP:STEP"),
    (("--strategy", "threshold", "--param", "t=5:1:1", "--vs", "threshold"), "STEP"),
    (("--strategy", "threshold", "--param", "t=25:35:5", "--vs", "threshold"), "out of range"),
    (("--strategy", "threshold:t=5", "--param", "t=1:2:1", "--vs", "threshold"), "also fixed"),
    (("--strategy", "threshold", "--param", "t=4:6:1"), "--vs"),
    (("--strategy", "threshold", "--param", "t=4:6:1", "--vs", "nosuch"), "unknown strategy"),
    (("--strategy", "threshold", "--param", "t=4:6:1", "--vs", "threshold", "--players", "9"),
     "--players 9"),
    (("--strategy", "threshold", "--param", "t=4:6:1", "--param", "t=4:6:1", "--vs", "threshold"),
     "the same parameter twice"),
    (("--strategy", "threshold", "--param", "t=4:6:1", "--param", "flask=2:3:1", "--param",
      "flask_white=2:3:1", "--vs", "threshold"), "one or two parameters"),
    (("--strategy", "threshold", "--param", "t=4:6:1", "--baseline", "5,2", "--vs", "threshold"),
     "--baseline"),
    (("--strategy", "threshold", "--param", "t=4:6:1", "--baseline", "99", "--vs", "threshold"),
     "out of range"),
])
def test_sweep_user_errors(tmp_path, args, fragment):
    assert_user_error(invoke("sweep", *args, "--out", tmp_path / "s"), fragment)
    assert not (tmp_path / "s").exists()


def _focus_deal_means(run_dir, focus_spec):
    g = pd.read_parquet(run_dir / "games.parquet")
    g = g[g["strategy"] == focus_spec]
    return g.groupby("deal")[["vp", "win_share"]].mean()


def test_sweep_baseline_is_a_paired_difference(tmp_path):
    from sim.stats.intervals import t_quantile

    out = tmp_path / "sw"
    d = json.loads(ok("sweep", "--strategy", "threshold", "--param", "t=5:7:1", "--vs",
                      "threshold,random",
                      "--players", 3, "--games", 600, "--out", out, "--json", "--no-plots").stdout)
    # the default t=6 is one of the values: it is the baseline and differs from itself by 0
    assert d["baseline"]["spec"] == "threshold" and d["baseline"]["in_grid"]
    rows = {s["value"]: s for s in d["strategies"]}
    assert rows[6.0]["baseline"] and rows[6.0]["win_share_diff"] == 0 and rows[6.0]["vp_diff"] == 0
    base = _focus_deal_means(out / "t=6", "threshold:t=6")
    for v in (5, 7):
        x = _focus_deal_means(out / f"t={v}", f"threshold:t={v}")
        for col, key in (("vp", "vp_diff"), ("win_share", "win_share_diff")):
            diff = (x[col] - base[col]).to_numpy()
            h = t_quantile(0.975, len(diff) - 1) * diff.std(ddof=1) / np.sqrt(len(diff))
            assert rows[float(v)][key] == pytest.approx(diff.mean(), abs=1e-12)
            assert rows[float(v)][key + "_ci"] == pytest.approx([diff.mean() - h, diff.mean() + h])
            assert rows[float(v)]["diff_deals"] == len(diff) == 200
    table = pd.read_csv(out / "sweep.csv")
    assert {"win_share_diff", "win_share_diff_ci_lo", "vp_diff_ci_hi",
            "baseline"} <= set(table.columns)
    # a baseline outside the values is played on the same deals in its own directory
    d2 = json.loads(ok("sweep", "--strategy", "threshold", "--param", "t=5:7:2", "--vs",
                       "threshold,random",
                       "--players", 3, "--games", 600, "--out", tmp_path / "sw2", "--json",
                       "--no-plots").stdout)
    assert (not d2["baseline"]["in_grid"]
            and (tmp_path / "sw2" / "baseline" / "games.parquet").exists())
    again = {s["value"]: s for s in d2["strategies"]}
    for v in (5.0, 7.0):
        assert again[v]["win_share_diff"] == pytest.approx(rows[v]["win_share_diff"], abs=1e-12)
    # --baseline picks another value
    d3 = json.loads(ok("sweep", "--strategy", "threshold", "--param", "t=5:7:1", "--baseline", "7",
                       "--vs", "threshold,random", "--players", 3, "--games", 600, "--out",
                       tmp_path / "sw3", "--json", "--no-plots").stdout)
    r3 = {s["value"]: s for s in d3["strategies"]}
    assert r3[7.0]["baseline"] and r3[7.0]["vp_diff"] == 0
    assert (r3[5.0]["vp_diff"]
            == pytest.approx(rows[5.0]["vp_diff"] - rows[7.0]["vp_diff"], abs=1e-9))


def test_sweep_grid(tmp_path):
    out = tmp_path / "grid"
    r = ok("sweep", "--strategy", "threshold", "--param", "t=5:6:1", "--param", "flask_white=0:2:2",
           "--vs", "threshold", "--players", 2, "--games", 200, "--out", out, "--json")
    d = json.loads(r.stdout)
    assert d["keys"] == ["t", "flask_white"] and len(d["strategies"]) == 4
    cells = {(s["value"], s["value2"]) for s in d["strategies"]}
    assert cells == {(5.0, 0.0), (5.0, 2.0), (6.0, 0.0), (6.0, 2.0)}
    assert [s["baseline"] for s in d["strategies"]].count(True) == 1  # t=6, flask_white=0
    assert (out / "t=5,flask_white=2" / "games.parquet").exists()
    table = pd.read_csv(out / "sweep.csv")
    assert {"value", "value2", "win_share_diff"} <= set(table.columns)
    assert_png(out / "sweep.png")
    (out / "sweep.png").unlink()
    ok("plot", out)
    assert_png(out / "sweep.png")


def test_sweep_integer_parameter_needs_whole_steps(tmp_path):
    from strategies.builtin import REGISTRY

    found = [(d.name, p) for d in REGISTRY.values() for p in d.params if p.kind == "int"
             and p.hi > p.lo]
    if not found:
        pytest.skip("no integer strategy parameter registered")
    name, p = found[0]
    r = invoke("sweep", "--strategy", name, "--param", f"{p.name}={p.lo:g}:{p.hi:g}:0.5",
               "--vs", name, "--out", tmp_path / "s")
    assert_user_error(r, "integer")
    assert not (tmp_path / "s").exists()


def test_plot_errors(tmp_path):
    assert_user_error(invoke("plot", tmp_path / "nope"), "no such report")
    (tmp_path / "empty").mkdir()
    assert_user_error(invoke("plot", tmp_path / "empty"), "summary.csv")


def test_sweep_interrupted_and_resumed(tmp_path, monkeypatch):
    import sim.study.sweep.run as T

    args = ("sweep", "--strategy", "threshold", "--param", "t=5:7:1", "--vs", "threshold,random",
            "--players", 3, "--games", 3000, "--no-plots", "--json")
    real = interrupt_run(monkeypatch, T, 2)
    r = invoke(*args, "--out", tmp_path / "a")
    assert r.exit_code == 130 and "--resume" in r.stderr
    monkeypatch.setattr(T, "run_tournament", real)
    assert_user_error(invoke("sweep", "--out", tmp_path / "a", "--resume", "--games", 10), "games")
    resumed = json.loads(ok("sweep", "--out", tmp_path / "a", "--resume", "--json").stdout)
    straight = json.loads(ok(*args, "--out", tmp_path / "b").stdout)
    assert resumed["strategies"] == straight["strategies"]


def test_strategy_file(tmp_path):
    from pathlib import Path

    example = Path(__file__).resolve().parents[1] / "experiments" / "strategies" / "careful.py"
    if not example.is_file():
        pytest.skip("no example strategy file in this checkout")
    r = ok("tournament", "--strategy-file", example, "--strategies", "careful,threshold", "--games",
           200,
           "--out", tmp_path / "f", "--no-plots", "--json")
    d = json.loads(r.stdout)
    assert [s["name"] for s in d["strategies"]] == ["careful", "threshold"]
    run = json.loads((tmp_path / "f" / "run.json").read_text())
    assert run["strategy_files"][0]["path"] == str(example) and run["strategy_files"][0]["sha256"]
    assert_user_error(invoke("tournament", "--strategy-file", tmp_path / "none.py", "--strategies",
                             "threshold,random", "--out", tmp_path / "g"), "none.py")
