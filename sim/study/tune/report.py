"""The report folder of ``quacks tune`` (``--out DIR``): ``history.parquet`` (every candidate),
``progress.png``, ``tune.json`` (the result, the settings, the command line, its provenance, the
package versions, the date and the files) and ``report.html`` (all of it on one page).

``settings`` is the dict of what was run: ``spec``, ``params`` (the ``KEY=LO:HI`` texts),
``vs`` (the field, one spec a seat), ``players``, ``budget``, ``seed``, ``rules``,
``overrides`` and ``strategy_files``.
"""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

HISTORY = "history.parquet"
TUNE_JSON = "tune.json"


def plot_jobs(res) -> list[tuple[str, Callable[[], object]]]:
    """The figures of a tune, as (PNG file name, function drawing the Figure)."""
    from sim.study.tune.plots import progress_figure

    return [("progress.png", lambda: progress_figure(res))]


def tune_command(settings: dict) -> str:
    """The ``quacks tune`` command that reproduces a tune with these settings."""
    parts = ["quacks", "tune", settings["spec"]]
    for p in settings["params"]:
        parts += ["--param", p]
    parts += ["--vs", ",".join(settings["vs"]), "--players", str(settings["players"]),
              "--budget", str(settings["budget"]), "--seed", str(settings["seed"]),
              "--rules", settings["rules"]]
    for o in settings["overrides"]:
        parts += ["--set", o]
    for f in settings.get("strategy_files", []):
        parts += ["--strategy-file", f]
    return shlex.join(parts)


def write_tune_report(res, target: Path, settings: dict, rules_hash: str,
                      argv: Sequence[str] | None = None) -> list[str]:
    """history.parquet, progress.png, tune.json and report.html in ``target`` (made if
    missing), each written through a temporary name; ``argv`` (default ``sys.argv``) is the
    command line recorded. Returns the file names."""
    from sim.rules.ruleset import rules_label
    from sim.study.common.plot_style import save_png
    from sim.study.reports.files import (
        REPORT_HTML,
        atomic_write,
        atomic_write_text,
        now_iso,
        package_versions,
    )
    from sim.study.reports.html import write_html
    from sim.study.reports.provenance import PROVENANCE_KEY, make_provenance

    argv = list(sys.argv if argv is None else argv)
    target = Path(target)
    target.mkdir(parents=True, exist_ok=True)
    atomic_write(target / HISTORY, lambda tmp: res.history.to_parquet(tmp, index=False))
    pngs = [save_png(draw(), target, name) for name, draw in plot_jobs(res)]
    files = [HISTORY, *pngs, REPORT_HTML, TUNE_JSON]
    prov = make_provenance(tune_command(settings), argv=argv, seed=settings["seed"],
                           rules=[(rules_label(settings["rules"], settings["overrides"]),
                                   rules_hash)])
    atomic_write_text(target / TUNE_JSON, json.dumps(
        {**res.as_json(), "settings": settings, "argv": argv,
         PROVENANCE_KEY: prov.to_json(), "versions": package_versions(),
         "created": now_iso(), "files": files}, indent=2) + "\n")
    write_html(target)
    return files
