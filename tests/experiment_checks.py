"""The end-to-end check of a shipped experiment's report folder, shared by the run of every
shipped experiment (tests/test_experiments.py) and the notebooks that run one through
``sim.experiment`` (tests/test_notebooks.py), so that an experiment a notebook runs is not run a
second time with the same seed and game count."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_GAMES = 120  # QUACKS_NB_GAMES of the notebook test, the game count of the shipped runs


def notebooks_run() -> bool:
    """True when the notebook test can execute the notebooks (nbformat and nbclient there)."""
    return all(importlib.util.find_spec(m) is not None for m in ("nbformat", "nbclient"))


def notebook_experiments() -> dict[str, str]:
    """The shipped experiments the notebooks run (``sim.experiment("name", ...)``), each with
    the notebook's name."""
    found = {}
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        for name in re.findall(r'sim\.experiment\(\\?"([\w-]+)\\?"', path.read_text("utf-8")):
            found[name] = path.stem
    return found


def check_report_folder(exp, out: Path, res=None) -> None:
    """``out`` holds ``exp``'s whole report: the markdown with the title and the command that
    reproduces it, experiment.json, every part's tables (non-empty; with ``res``, the run's
    result, each equal in length to the result's table) and figures (real PNGs, each linked from
    the markdown), and no staging folder left beside it."""
    report = (out / "report.md").read_text()
    assert exp.title in report and "quacks experiment run" in report
    assert (out / "experiment.json").is_file()
    names = [q["name"] for q in exp.parts]
    if res is not None:
        assert [p.name for p in res.parts] == names
        for part in res.parts:
            assert part.tables, part.name
            for name, df in part.tables.items():
                back = pd.read_parquet(out / part.name / f"{name}.parquet")
                assert len(back) == len(df) > 0
            for f, _ in part.figures:
                assert (out / part.name / f).stat().st_size > 1000
                assert f"]({part.name}/{f})" in report
    else:
        for name in names:
            tables = list((out / name).glob("*.parquet"))
            assert tables, name
            assert all(len(pd.read_parquet(t)) > 0 for t in tables), name
            for f in re.findall(rf"\]\({re.escape(name)}/([^)]+\.png)\)", report):
                assert (out / name / f).stat().st_size > 1000, f
    assert not list(out.parent.glob(".*partial*"))
