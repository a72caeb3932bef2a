"""Running an experiment file: every part in order, into one report folder.

``OUT/`` gets, per part, ``OUT/<part>/<table>.parquet`` (and ``<table>.csv`` with ``csv``: the
file's ``csv = true`` or ``--csv``) and its PNG figures, and at the top ``report.md`` (each part's
tables and figures, then how to reproduce it: the command, the seed, the ruleset's hash, the
versions and the git commit), ``experiment.json`` (the resolved file, games per part, versions,
the provenance) and
``report.html`` (all of it on one page, ``sim.study.reports.html``). Everything is
written into a hidden staging folder that is renamed to ``OUT`` only when complete; an error
removes it, and Ctrl-C keeps the finished parts in ``OUT`` for ``--resume``. The same file,
seed and ``--games`` give the same tables.
"""

from __future__ import annotations

import json
import shlex
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from sim.study.common.out_probe import OutDirError, probe_writable
from sim.study.experiments.check import check_experiment
from sim.study.experiments.file import Experiment
from sim.study.experiments.parts import (
    Context,
    PartReport,
    run_catchup_part,
    run_ingredient_part,
    run_seats_part,
    run_sweep_part,
    run_tournament_part,
)
from sim.study.reports.files import dumps, now_iso, package_versions
from sim.study.reports.html import write_html
from sim.study.reports.provenance import PROVENANCE_KEY, Provenance, make_provenance
from sim.study.reports.writer import write_frames

REPORT_FILE = "report.md"
EXPERIMENT_JSON = "experiment.json"
STATE_FILE = ".experiment.json.partial"  # an interrupted run: its settings and finished parts


def _runners() -> dict[str, Callable[[dict, Context, Path], PartReport]]:
    from sim.study.design.experiment_part import run_design_part
    from sim.study.experiments.analysis import run_compare_part, run_thresholds_part
    from sim.study.experiments.balance_part import run_balance_part

    return {"thresholds": run_thresholds_part, "sweep": run_sweep_part,
            "tournament": run_tournament_part, "compare": run_compare_part,
            "ingredient": run_ingredient_part, "catchup": run_catchup_part,
            "seats": run_seats_part, "balance": run_balance_part, "design": run_design_part}


class ExperimentRunError(ValueError):
    """An experiment that cannot run as asked (e.g. its report folder)."""


class ExperimentInterrupted(KeyboardInterrupt):
    """Ctrl-C during a run: ``kept`` parts of ``total`` are kept in ``out`` for ``--resume``
    (none kept: ``out`` is as it was)."""

    def __init__(self, kept: int, total: int, out: Path):
        super().__init__(f"{kept} of {total} parts kept in {out}")
        self.kept, self.total, self.out = kept, total, out


@dataclass
class ExperimentResult:
    """A finished experiment: its parts and where the report is."""

    experiment: Experiment
    parts: list[PartReport]
    out: Path
    seconds: float
    games: int
    csv: bool = False

    def formats(self) -> tuple[str, ...]:
        """The formats every table is written in."""
        return table_formats(self.csv)

    def to_json(self) -> dict:
        """Summary for ``--json``: the report folder and, per part, its tables and figures."""
        return {"experiment": self.experiment.name, "title": self.experiment.title,
                "out": str(self.out), "report": str(self.out / REPORT_FILE),
                "seconds": round(self.seconds, 3), "games": self.games,
                "parts": [{"name": p.name, "kind": p.kind, "games": p.games,
                           "tables": [f"{p.name}/{t}.{f}" for t in p.tables
                                      for f in self.formats()],
                           "figures": [f"{p.name}/{f}" for f, _ in p.figures]}
                          for p in self.parts]}


def plot_jobs(res: ExperimentResult) -> list[tuple[str, Callable[[], object]]]:
    """Every part's figures as (``part/file.png``, function drawing it): the PNG the run saved
    in the report folder, read back (the parts draw their figures as they run)."""
    from sim.study.experiments.plots import png_figure

    def job(path: Path) -> Callable[[], object]:
        return lambda: png_figure(path)

    return [(f"{p.name}/{f}", job(res.out / p.name / f)) for p in res.parts for f, _ in p.figures]


def table_formats(csv: bool) -> tuple[str, ...]:
    """parquet always (a resumed run reads it back), CSV too when asked for."""
    return ("parquet", "csv") if csv else ("parquet",)


def experiment_command(exp: Experiment, games: int | None, csv: bool) -> str:
    """The ``quacks experiment run`` command that reproduces the run: a shipped experiment by
    its name, any other file by its path as given; ``csv``: ``--csv`` was given."""
    from sim.study.experiments.file import shipped_dir

    d = shipped_dir()
    shipped = d is not None and exp.path.resolve().parent == Path(d).resolve()
    return shlex.join(["quacks", "experiment", "run", exp.name if shipped else str(exp.path),
                       *(["--games", str(games)] if games is not None else []),
                       *(["--csv"] if csv else [])])


def experiment_provenance(exp: Experiment, games: int | None, csv: bool,
                          given: str) -> Provenance:
    """The run's provenance; the ruleset is the experiment's (its ``rules`` and ``set``)."""
    from sim.rules.ruleset import load_ruleset

    rs = load_ruleset(exp.rules, list(exp.overrides))
    return make_provenance(experiment_command(exp, games, csv), given=given, seed=exp.seed,
                           rules=[(rs.display, rs.hash)])


def report_markdown(exp: Experiment, parts: Sequence[PartReport], prov: Provenance,
                    seconds: float, games_override: int | None) -> str:
    """The experiment's ``report.md``: what was run, then each part's tables and figures."""
    lines = [f"# {exp.title}", ""]
    if exp.description.strip():
        lines += [exp.description.strip(), ""]
    lines += ["```", prov.command, "```", "",
              f"- experiment file: `{exp.path.name}`; seed {exp.seed}; ruleset `{exp.rules}`"
              + (f" with {', '.join(f'`{s}`' for s in exp.overrides)}" if exp.overrides else ""),
              f"- games per part: {games_override if games_override else exp.games:,}"
              + (" (--games)" if games_override else ""),
              f"- games played: {sum(p.games for p in parts):,} in {seconds:.1f} s",
              "- every figure comes with its 95% interval; intervals are clustered by deal "
              "(games that share random streams)", ""]
    for p in parts:
        lines += [f"## {p.title or p.name}", "", f"Part `{p.name}` ({p.kind}, "
                  f"{p.games:,} games); tables in `{p.name}/`.", ""]
        if p.markdown:
            lines += [p.markdown.strip(), ""]
        for f, caption in p.figures:
            lines += [f"![{caption}]({p.name}/{f})", "", f"*{caption}*", ""]
    return "\n".join([*lines, prov.markdown()])


def _settings(exp: Experiment, games: int | None) -> dict:
    """What a resumed run must share with the interrupted one (the file's content, --games)."""
    d = {k: v for k, v in exp.to_json().items() if k != "file"}
    return json.loads(dumps({"experiment": d, "games_override": games}))


def _check_out(out: Path, resume: bool) -> dict | None:
    """Refuse a report folder the run may not use; with ``resume``, the interrupted run's
    state there."""
    if out.exists() and not out.is_dir():
        raise ExperimentRunError(f"--out {out}: exists and is not a directory")
    known = out.is_dir() and ((out / EXPERIMENT_JSON).is_file() or (out / STATE_FILE).is_file())
    if out.is_dir() and any(out.iterdir()) and not known:
        raise ExperimentRunError(f"--out {out}: exists and is not an experiment report; "
                                 "choose a new folder")
    if not resume:
        return None
    if not (out / STATE_FILE).is_file():
        done = " (the report there is complete)" if (out / EXPERIMENT_JSON).is_file() else ""
        raise ExperimentRunError(f"nothing to resume in {out}{done}")
    try:
        return json.loads((out / STATE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise ExperimentRunError(f"{out / STATE_FILE}: cannot be read ({e}); run without "
                                 "--resume to start over") from None


def _kept_parts(state: dict, exp: Experiment, games: int | None, out: Path,
                staging: Path) -> list[PartReport]:
    """The finished parts of an interrupted run, copied into the staging folder."""
    import pandas as pd

    saved, now = state.get("settings", {}), _settings(exp, games)
    if saved != now:
        key = next((k for k in ("games_override", "experiment") if saved.get(k) != now.get(k)),
                   "experiment")
        what = "--games" if key == "games_override" else "the experiment file"
        raise ExperimentRunError(f"--resume: {out} holds a run with other settings ({what} "
                                 "differs); give the same file and --games, or run without "
                                 "--resume to start over")
    parts = []
    for p in state.get("parts", []):
        shutil.copytree(out / p["name"], staging / p["name"])
        tables = {t: pd.read_parquet(staging / p["name"] / f"{t}.parquet") for t in p["tables"]}
        parts.append(PartReport(p["name"], p["kind"], p["title"], tables,
                                [tuple(f) for f in p["figures"]], p["markdown"], p["games"]))
    return parts


def _state(exp: Experiment, games: int | None, parts: Sequence[PartReport],
           seconds: float) -> str:
    return dumps({"settings": _settings(exp, games), "seconds": seconds,
                  "parts": [{"name": p.name, "kind": p.kind, "title": p.title,
                             "tables": list(p.tables), "figures": [list(f) for f in p.figures],
                             "markdown": p.markdown, "games": p.games} for p in parts]})


def _keep_interrupted(staging: Path, out: Path, state: str) -> None:
    """Put the finished parts in ``out`` with the state ``--resume`` reads."""
    (staging / STATE_FILE).write_text(state, encoding="utf-8")
    if out.exists():
        shutil.rmtree(out)
    staging.replace(out)


def run_experiment(exp: Experiment, out: str | Path, *, games: int | None = None,
                   argv: Sequence[str] | None = None,
                   progress: Callable[[str], None] | None = None,
                   backend=None, resume: bool = False, csv: bool = False) -> ExperimentResult:
    """Run every part of ``exp`` and write the report folder ``out`` (replacing a previous
    report of the same experiment there). ``games`` replaces every part's game count; ``csv``
    (or the file's ``csv = true``) writes every table as CSV next to its parquet file.
    ``backend`` (entered, see ``sim.study.tournament.backend``) plays the games of the tournament,
    sweep, ingredient, catchup, seats and balance parts; compare and thresholds parts run here.

    Every part is checked before any game is played (ExperimentFileError), and ``out`` before
    that (ExperimentRunError). On an error nothing is left behind (``out`` is as it was). On
    Ctrl-C the finished parts are kept in ``out`` and :class:`ExperimentInterrupted` raised;
    ``resume=True`` continues such a run with the same file and ``games``."""
    out = Path(out)
    state = _check_out(out, resume)
    check_experiment(exp, games)
    try:
        probe_writable(out)
    except OutDirError as e:
        raise ExperimentRunError(str(e)) from None
    staging = out.with_name(f".{out.name}.partial")
    if staging.exists():
        shutil.rmtree(staging)
    staging.mkdir(parents=True)
    try:
        return _run(exp, out, staging, state, games, argv, progress, backend, csv)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _run(exp: Experiment, out: Path, staging: Path, state: dict | None, games: int | None,
         argv, progress, backend, csv: bool) -> ExperimentResult:
    parts = _kept_parts(state, exp, games, out, staging) if state else []
    kept_before = len(parts)
    seconds_before = float(state.get("seconds", 0.0)) if state else 0.0
    ctx = Context(exp.seed, exp.games, exp.rules, exp.overrides, exp.players, games, progress,
                  backend)
    runners = _runners()
    t0 = time.perf_counter()
    try:
        for part in exp.parts[len(parts):]:
            ctx.say(f"part {part['name']} ({part['kind']})")
            folder = staging / part["name"]
            folder.mkdir()
            rep = runners[part["kind"]](part, ctx, folder)
            write_frames(rep.tables, folder, table_formats(False))  # read back by --resume
            parts.append(rep)
    except KeyboardInterrupt:
        if len(parts) > kept_before:
            for extra in staging.iterdir():  # the interrupted part's folder
                if extra.name not in {p.name for p in parts}:
                    shutil.rmtree(extra, ignore_errors=True)
            seconds = seconds_before + time.perf_counter() - t0
            _keep_interrupted(staging, out, _state(exp, games, parts, seconds))
        raise ExperimentInterrupted(len(parts), len(exp.parts), out) from None
    seconds = seconds_before + time.perf_counter() - t0
    if csv or exp.csv:
        for p in parts:
            write_frames(p.tables, staging / p.name, ("csv",))
    command = "quacks experiment run " + " ".join(shlex.quote(a) for a in (argv or [str(exp.path)]))
    prov = experiment_provenance(exp, games, csv, command)
    meta = {"experiment": exp.to_json(), "games_override": games, "created": now_iso(),
            "seconds": round(seconds, 3), "versions": package_versions(), "command": command,
            PROVENANCE_KEY: prov.to_json(), "games": {p.name: p.games for p in parts}}
    (staging / EXPERIMENT_JSON).write_text(dumps(meta), encoding="utf-8")
    (staging / REPORT_FILE).write_text(
        report_markdown(exp, parts, prov, seconds, games), encoding="utf-8")
    write_html(staging)  # the page, renamed into place with the rest
    if out.exists():
        shutil.rmtree(out)
    staging.replace(out)
    return ExperimentResult(exp, parts, out, seconds, sum(p.games for p in parts),
                            csv or exp.csv)
