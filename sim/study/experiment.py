"""Running an experiment file: every part in order, into one report folder.

``OUT/`` gets, per part, ``OUT/<part>/<table>.parquet`` and its PNG figures, and at the top
``report.md`` (each part's tables and figures, the exact command, the seed and the package
versions) and ``experiment.json`` (the resolved file, games per part, versions). Everything is
written into a hidden staging folder that is renamed to ``OUT`` only when complete. The same
file, seed and ``--games`` give the same tables.
"""

from __future__ import annotations

import shlex
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from sim.study.experiment_file import Experiment
from sim.study.experiment_parts import (
    Context,
    PartReport,
    run_catchup_part,
    run_ingredient_part,
    run_seats_part,
    run_sweep_part,
    run_tournament_part,
)
from sim.study.reports import dumps, now_iso, package_versions

REPORT_FILE = "report.md"
EXPERIMENT_JSON = "experiment.json"


def _runners() -> dict[str, Callable[[dict, Context, Path], PartReport]]:
    from sim.study.experiment_analysis import run_compare_part, run_thresholds_part

    return {"thresholds": run_thresholds_part, "sweep": run_sweep_part,
            "tournament": run_tournament_part, "compare": run_compare_part,
            "ingredient": run_ingredient_part, "catchup": run_catchup_part,
            "seats": run_seats_part}


class ExperimentRunError(ValueError):
    """An experiment that cannot run as asked (e.g. its report folder)."""


@dataclass
class ExperimentResult:
    """A finished experiment: its parts and where the report is."""

    experiment: Experiment
    parts: list[PartReport]
    out: Path
    seconds: float
    games: int

    def to_json(self) -> dict:
        """Summary for ``--json``: the report folder and, per part, its tables and figures."""
        return {"experiment": self.experiment.name, "title": self.experiment.title,
                "out": str(self.out), "report": str(self.out / REPORT_FILE),
                "seconds": round(self.seconds, 3), "games": self.games,
                "parts": [{"name": p.name, "kind": p.kind, "games": p.games,
                           "tables": [f"{p.name}/{t}.parquet" for t in p.tables],
                           "figures": [f"{p.name}/{f}" for f, _ in p.figures]}
                          for p in self.parts]}


def _write_tables(part: PartReport, folder: Path) -> None:
    # straight into the staging folder: the whole folder is renamed into place at the end
    for name, df in part.tables.items():
        df.to_parquet(folder / f"{name}.parquet", index=False)


def report_markdown(exp: Experiment, parts: Sequence[PartReport], command: str,
                    versions: dict, seconds: float, games_override: int | None) -> str:
    """The experiment's ``report.md``: what was run, then each part's tables and figures."""
    lines = [f"# {exp.title}", ""]
    if exp.description.strip():
        lines += [exp.description.strip(), ""]
    lines += ["```", command, "```", "",
              f"- experiment file: `{exp.path.name}`; seed {exp.seed}; ruleset `{exp.rules}`"
              + (f" with {', '.join(f'`{s}`' for s in exp.overrides)}" if exp.overrides else ""),
              f"- games per part: {games_override if games_override else exp.games:,}"
              + (" (--games)" if games_override else ""),
              f"- games played: {sum(p.games for p in parts):,} in {seconds:.1f} s",
              "- versions: " + ", ".join(f"{k} {v}" for k, v in versions.items()),
              "- every figure comes with its 95% interval; intervals are clustered by deal "
              "(games that share random streams)", ""]
    for p in parts:
        lines += [f"## {p.title or p.name}", "", f"Part `{p.name}` ({p.kind}, "
                  f"{p.games:,} games); tables in `{p.name}/`.", ""]
        if p.markdown:
            lines += [p.markdown.strip(), ""]
        for f, caption in p.figures:
            lines += [f"![{caption}]({p.name}/{f})", "", f"*{caption}*", ""]
    return "\n".join(lines)


def run_experiment(exp: Experiment, out: str | Path, *, games: int | None = None,
                   argv: Sequence[str] | None = None,
                   progress: Callable[[str], None] | None = None,
                   backend=None) -> ExperimentResult:
    """Run every part of ``exp`` and write the report folder ``out`` (replacing a previous
    report of the same experiment there). ``games`` replaces every part's game count.
    ``backend`` (entered, see ``sim.study.backend``) plays the games of the tournament, sweep,
    ingredient, catchup and seats parts; compare and thresholds parts run here."""
    out = Path(out)
    if out.exists() and (not out.is_dir() or (any(out.iterdir())
                                              and not (out / EXPERIMENT_JSON).is_file())):
        raise ExperimentRunError(f"--out {out}: exists and is not an experiment report; "
                                 "choose a new folder")
    staging = out.with_name(f".{out.name}.partial")
    if staging.exists():
        shutil.rmtree(staging)
    staging.mkdir(parents=True)
    ctx = Context(exp.seed, exp.games, exp.rules, exp.overrides, exp.players, games, progress,
                  backend)
    runners = _runners()
    t0 = time.perf_counter()
    parts = []
    for part in exp.parts:
        ctx.say(f"part {part['name']} ({part['kind']})")
        folder = staging / part["name"]
        folder.mkdir()
        rep = runners[part["kind"]](part, ctx, folder)
        _write_tables(rep, folder)
        parts.append(rep)
    seconds = time.perf_counter() - t0
    versions = package_versions()
    command = "quacks experiment run " + " ".join(shlex.quote(a) for a in (argv or [str(exp.path)]))
    meta = {"experiment": exp.to_json(), "games_override": games, "created": now_iso(),
            "seconds": round(seconds, 3), "versions": versions, "command": command,
            "games": {p.name: p.games for p in parts}}
    (staging / EXPERIMENT_JSON).write_text(dumps(meta), encoding="utf-8")
    (staging / REPORT_FILE).write_text(
        report_markdown(exp, parts, command, versions, seconds, games), encoding="utf-8")
    if out.exists():
        shutil.rmtree(out)
    staging.replace(out)
    return ExperimentResult(exp, parts, out, seconds, sum(p.games for p in parts))
