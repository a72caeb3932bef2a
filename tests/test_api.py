"""The Python API (``import sim``): light to import, the same numbers as the CLI for the same
seed, keyword arguments named as the CLI's options with the same defaults, and the report
result's tables, figures and save."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys

import pandas as pd
import pytest

import sim
from sim.questions.report import Report, ReportSaveError


def test_import_sim_is_light():
    """``import sim`` in a fresh process loads nothing but the standard library and sim's own
    light modules: no kernel, numpy, numba, pandas or any other package (they come on first
    use). Checked by the modules loaded, not by the clock (the machine may be loaded)."""
    # the cache locator reads the Numba patches' switch (sim.patch_switch, the standard library
    # only) at start-up; no kernel module, not even the package, may load
    code = ("import sys; before = set(sys.modules); import sim; "
            "new = sorted(set(sys.modules) - before); "
            "print(','.join(m for m in new if m.split('.')[0] not in sys.stdlib_module_names "
            "and m.split('.')[0] != 'sim')); "
            "print(','.join(m for m in new if m.split('.')[:2] == ['sim', 'kernel']))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         timeout=60)  # a hang guard, not a speed target
    packages, kernel = out.stdout.split("\n")[:2]
    assert packages == "", packages  # numpy, numba, pandas, typer, ...: none
    assert kernel == "", kernel


def test_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError):
        sim.no_such_question  # noqa: B018


REQUIRED = inspect.Parameter.empty  # a required option or argument: no default either side


def _cli_defaults(command: str) -> dict:
    """The click parameters of ``quacks COMMAND`` (a sub-command as ``experiment run``): python
    name (an option's long name in snake_case: ``--set`` is ``set``, ``--out`` is ``out``,
    ``--strategy-file`` is ``strategy_file``; an argument's own name) -> default (REQUIRED when
    it must be given)."""
    import typer

    from sim.cli.app import app

    cmd = typer.main.get_command(app)
    for word in command.split():
        cmd = cmd.commands[word]
    out = {}
    for p in cmd.params:
        longest = max((o for o in p.opts if o.startswith("--")), key=len, default=None)
        name = longest[2:].replace("-", "_") if longest else p.name.rstrip("_")
        out[name] = REQUIRED if p.required else p.default
    return out


@pytest.mark.parametrize("name", ["potion", "play", "tournament", "sweep", "thresholds",
                                  "tune", "compare", "balance", "sensitivity", "design",
                                  "experiment run"])
def test_keywords_and_defaults_are_the_cli_options(name):
    """Every option of the command is a keyword of the function with the same default (a
    list option's default None is the function's None too); a command's argument may also be
    the function's first positional parameter (``sim.experiment(file, ...)``). A sub-command
    is its group's function: ``experiment run`` is ``sim.experiment``."""
    cli = _cli_defaults(name)
    for k in ("json", "quiet"):  # the CLI's output; the API returns objects, prints nothing
        cli.pop(k, None)
    sig = inspect.signature(getattr(sim, name.split()[0]))
    api = {k: p.default for k, p in sig.parameters.items()
           if p.kind in (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)}
    missing = set(cli) - set(api)
    assert not missing, f"options without a keyword: {sorted(missing)}"
    for k, default in cli.items():
        assert api[k] == default, f"{k}: API default {api[k]!r}, CLI default {default!r}"


def test_potion_equals_the_cli_json():
    """``sim.potion(...).to_dict()`` is ``quacks potion --json`` less ``seconds``."""
    args = {"bag": "start,r1", "stop": "risk:0.25", "n": 20_000, "seed": 7}
    r = sim.potion(**args)
    out = subprocess.run(["quacks", "potion", "--bag", "start,r1", "--stop", "risk:0.25",
                          "--n", "20000", "--seed", "7", "--json"],
                         capture_output=True, text=True, check=True)
    cli = json.loads(out.stdout)
    cli.pop("seconds")
    assert r.to_dict() == cli
    # a list where the CLI takes comma-separated values
    assert sim.potion(**{**args, "bag": ["start", "r1"]}).to_dict() == cli
    dist = r.distribution
    assert dist.to_numpy().sum() == 20_000
    assert set(dist.columns) <= {"intact", "exploded", "protected"}


def test_potion_exact_and_bad_input():
    r = sim.potion(bag="w1x4,w2x2,w3,o1,g1", stop="white:6", exact=True)
    assert r.mode == "exact"
    assert r["p_explode"] == pytest.approx(r.distribution["exploded"].sum())
    with pytest.raises(ValueError, match="--n 0"):
        sim.potion(n=0)


def _folder(tmp_path):
    d = tmp_path / "rep"
    d.mkdir()
    pd.DataFrame({"strategy": ["a", "b"], "win_share": [0.4, 0.6]}).to_csv(d / "summary.csv",
                                                                         index=False)
    pd.DataFrame({"game": [0, 1], "vp": [50, 60]}).to_parquet(d / "games.parquet")
    pd.DataFrame({"game": [9]}).to_csv(d / "games.csv", index=False)  # parquet wins
    (d / "summary.md").write_text("# a summary\n")
    (d / ".games.parquet.partial").write_text("x")
    return d


def test_report_tables_save_and_display(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    drawn = []

    def draw():
        drawn.append(1)
        return Figure()

    r = Report("tournament", _folder(tmp_path), figures=lambda: [("win_share.png", draw)])
    assert set(r.tables) == {"summary", "games"}
    assert list(r.tables["games"]["vp"]) == [50, 60]
    assert list(r.figures) == ["win_share"] and not drawn  # drawn on first use only
    assert isinstance(r.figures["win_share"], Figure)
    r.figures["win_share"]
    assert drawn == [1]
    out = r.save(tmp_path / "saved")
    assert sorted(p.name for p in out.iterdir()) == ["games.csv", "games.parquet", "summary.csv",
                                                     "summary.md"]
    with pytest.raises(ReportSaveError, match="not empty"):
        r.save(tmp_path / "saved")
    r.save(tmp_path / "saved", force=True)
    with pytest.raises(ReportSaveError):
        r.save("")
    assert "a summary" in r._repr_html_()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".saved")]


def test_report_written_on_first_use(tmp_path):
    """A report made without a folder writes nothing until its files are asked for, then
    writes them once into a temporary folder that goes with the result."""
    calls = []

    def write(folder):
        calls.append(folder)
        pd.DataFrame({"x": [1, 2]}).to_csv(folder / "summary.csv", index=False)

    r = Report("compare", None, figures=lambda: [], write=write, written=[])
    assert calls == [] and r.written == []
    assert list(r.tables["summary"]["x"]) == [1, 2]
    assert r.files() == ["summary.csv"] and len(calls) == 1
    folder = r.folder
    assert folder.is_dir() and "temporary folder" in repr(r)
    del r
    import gc

    gc.collect()
    assert not folder.exists()
    with pytest.raises(TypeError):
        Report("compare", None)
