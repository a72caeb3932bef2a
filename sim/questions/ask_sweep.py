"""``sim.sweep``: one strategy at each value of a parameter against a field, and its report
(``quacks sweep``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sim.questions.ask_rules import as_list
from sim.questions.report import Report, report_folder
from sim.questions.running import (
    RunOptions,
    check_out_free,
    merge_settings,
    open_run_backend,
    resume_checks,
    run_options,
    strategy_paths,
    strategy_specs,
    warm_games,
)

if TYPE_CHECKING:
    from typing import Unpack  # Python 3.11+

KIND = "sweep"
EXAMPLE = "quacks sweep --strategy threshold --param t=4:9:1 --vs threshold"


class SweepInputError(ValueError):
    """A sweep the simulator cannot run as asked (one line, the option named); the error it
    stands for, when another, is its ``__cause__``."""


class SweepInterrupted(KeyboardInterrupt):
    """A sweep stopped by Ctrl-C once its games were under way: every finished chunk is kept
    in ``out`` for ``resume``."""

    def __init__(self, out: Path):
        super().__init__(f"sweep interrupted; finished chunks kept in {out}")
        self.out = out


@run_options
def sweep(
    *,
    strategy: str | None = None,
    param: Sequence[str] | str | None = None,
    baseline: str | None = None,
    vs: Sequence[str] | str | None = None,
    players: int | None = None,
    games: int | None = None,
    seed: int | None = None,
    out: str | Path | None = None,
    rules: str | None = None,
    set: Sequence[str] | str | None = None,  # noqa: A002 - named as the CLI's --set
    until_ci: float | None = None,
    sequential: bool = False,
    width: float | None = None,
    detail: str | None = None,
    resume: bool = False,
    force: bool = False,
    plots: bool = True,
    **run: Unpack[RunOptions],
) -> Report:
    """Play ``strategy`` at each value of ``param`` against the field ``vs`` and tabulate its
    win share and VP against the parameter (``quacks sweep``).

    ``param`` is ``KEY=START:STOP:STEP`` (STOP included) or a list of two for a grid;
    ``baseline`` the value (``V1,V2`` for a grid) every other is compared with on the same
    deals; ``vs`` the field (comma-separated or a list). ``sequential=True`` plays the baseline's
    ``games`` and stops every other value once its win-share and VP differences to the baseline
    are decided by 95% anytime-valid confidence sequences (excluding 0, or within +-``width``);
    the table's difference intervals are then the sequences'. ``strategy``, ``param`` and ``vs`` are
    required unless ``resume`` takes them from the interrupted sweep in ``out``. The report goes
    to ``out`` or, without it, to a temporary folder that lives as long as the result: ``tables``
    (``sweep``, and each value's report as ``<KEY>=<value>/summary`` and so on), ``figures``
    (``sweep``), ``result`` (the study's ``SweepResult``: ``to_json()`` is ``--json``),
    ``written``. The same seed gives the same numbers as the command. Hooks as
    :func:`sim.tournament`. A bad argument raises :class:`SweepInputError` (a ValueError) with
    the command's line; an interrupted sweep raises :class:`SweepInterrupted` (a
    KeyboardInterrupt) after keeping every finished chunk for ``resume``."""
    from sim.study.sweep.plots import plot_jobs

    try:
        s = _settings(strategy=strategy, param=param, baseline=baseline, vs=vs, players=players,
                      games=games, seed=seed, out=out, rules=rules, set=set, until_ci=until_ci,
                      sequential=sequential, width=width, detail=detail, resume=resume,
                      force=force, run=run)
    except SweepInputError:
        raise
    except (ValueError, OSError) as e:
        raise SweepInputError(str(e)) from e
    with report_folder(KIND, out) as (target, tmp):
        if getattr(run["backend"], "value", run["backend"]) == "local":  # Dask compiles its own
            _warm(s, run["on_compile"])
        res = _run(s, target, resume=resume, force=force, plots=plots, run=run)
    return Report(KIND, target, res, figures=lambda: plot_jobs(res.table, res.settings),
                  temporary=tmp, written=res.files)


def _run(s: dict, target: Path, *, resume, force, plots, run: RunOptions):
    """The sweep's games and its report in ``target`` (SweepInterrupted on Ctrl-C)."""
    from sim.study.sweep.run import run_sweep

    try:
        with open_run_backend(run) as be:
            return run_sweep(s["strategy"], s["params"], s["vs"], players=s.get("players"),
                             baseline=s.get("baseline"), games=s.get("games"),
                             seed=s["seed"] if s.get("seed") is not None else 1,
                             rules=s.get("rules") or "base", overrides=s.get("overrides") or (),
                             until_ci=s.get("until_ci"), detail=s.get("detail") or "games",
                             strategy_files=s.get("strategy_files") or (), out=target,
                             resume=resume, force=force, progress=run["progress"],
                             plots=plots, argv=run["argv"], backend=be, note=run["on_note"],
                             sequential=bool(s.get("sequential")), width=s.get("width"))
    except KeyboardInterrupt as e:  # in a value's games, or between or after the values
        raise SweepInterrupted(target) from e


def _settings(*, strategy, param, baseline, vs, players, games, seed, out, rules,
              set, until_ci, sequential, width, detail, resume, force,  # noqa: A002
              run) -> dict:
    """The checks of the arguments, in the command's order, and the sweep's settings (with
    ``resume``, those not given taken from the interrupted sweep)."""
    from sim.study.sweep.run import plan_sweep
    from sim.study.tournament.plan import load_strategy_files

    saved = resume_checks(SweepInputError, out=out, threads=run["threads"], resume=resume,
                          force=force, what="sweep", players=players, games=games, seed=seed,
                          workers=run["workers"])
    params, overrides = as_list(param), as_list(set)
    s = merge_settings({"strategy": strategy, "params": params or None, "baseline": baseline,
                        "vs": strategy_specs(vs) if vs is not None else None,
                        "players": players, "games": games, "seed": seed, "rules": rules,
                        "overrides": overrides or None, "until_ci": until_ci,
                        "sequential": sequential or None, "width": width,
                        "detail": getattr(detail, "value", detail),
                        "strategy_files": strategy_paths(run["strategy_file"])}, saved)
    if not s.get("params") and s.get("param"):  # a sweep saved before grids existed
        s["params"] = [s["param"]]
    for key, opt in (("strategy", "strategy"), ("params", "param"), ("vs", "vs")):
        if not s.get(key):
            raise SweepInputError(f"--{opt}: required, e.g. {EXAMPLE}")
    if out is not None:  # a temporary folder is new and writable
        check_out_free(out, resume=resume, force=force, what="sweep")
    load_strategy_files(s.get("strategy_files") or ())
    s["first"] = plan_sweep(s["strategy"], s["params"], s.get("baseline")).specs[0]
    return s


def _warm(s: dict, on_compile) -> None:
    """Compile (or load) the game kernel outside the clock; a bad field or player count is
    left to the sweep to report, naming its option."""
    from sim.rules.ruleset import load_ruleset
    from strategies.builtin import parse_strategy

    n = s.get("players") or 4
    try:
        rs = load_ruleset(s.get("rules") or "base", list(s.get("overrides") or []))
        lineup = [parse_strategy(x) for x in ([s["first"]] + list(s["vs"]) * n)[:n]]
        warm_games(rs, lineup, on_compile=on_compile)
    except (ValueError, OSError):
        pass
