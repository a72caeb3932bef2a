"""``sim.sweep``: one strategy at each value of a parameter against a field, and its report
(``quacks sweep``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sim.questions.ask_rules import as_list
from sim.questions.report import Report
from sim.questions.resumable import check_out_free, play_resumable, resumable_options, resumed
from sim.questions.running import RunOptions, run_options, strategy_specs, warm_games

if TYPE_CHECKING:
    from typing import Unpack  # Python 3.11+

    from sim.questions.resumable import ResumableSettings

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
@resumable_options
def sweep(
    *,
    strategy: str | None = None,
    param: Sequence[str] | str | None = None,
    baseline: str | None = None,
    vs: Sequence[str] | str | None = None,
    width: float | None = None,
    given: ResumableSettings,
    **run: Unpack[RunOptions],
) -> Report:
    """Play ``strategy`` at each value of ``param`` against the field ``vs`` and tabulate its
    win share and VP against the parameter (``quacks sweep``).

    Its own keywords come first, then those of
    :class:`~sim.questions.resumable.ResumableSettings` (``players`` ... ``plots``), then the
    :class:`~sim.questions.running.RunOptions`. ``param`` is ``KEY=START:STOP:STEP`` (STOP
    included) or a list of two for a grid; ``baseline`` the value (``V1,V2`` for a grid) every
    other is compared with on the same deals; ``vs`` the field (comma-separated or a list).
    ``sequential=True`` plays the baseline's ``games`` and stops every other value once its
    win-share and VP differences to the baseline are decided by 95% anytime-valid confidence
    sequences (excluding 0, or within +-``width``); the table's difference intervals are then
    the sequences'. ``strategy``, ``param`` and ``vs`` are required unless ``resume`` takes them
    from the interrupted sweep in ``out``. The report goes to ``out`` or, without it, to a
    temporary folder that lives as long as the result: ``tables`` (``sweep``, and each value's
    report as ``<KEY>=<value>/summary`` and so on), ``figures`` (``sweep``), ``result`` (the
    study's ``SweepResult``: ``to_json()`` is ``--json``), ``written``. The same seed gives the
    same numbers as the command. Hooks as :func:`sim.tournament`. A bad argument raises
    :class:`SweepInputError` (a ValueError) with the command's line; an interrupted sweep raises
    :class:`SweepInterrupted` (a KeyboardInterrupt) after keeping every finished chunk for
    ``resume``."""
    # (the study modules import the kernel: only once resume_checks loaded a resumed sweep's
    # rules files)
    def play(s: dict, target: Path, backend):
        from sim.study.sweep.run import run_sweep

        return run_sweep(s["strategy"], s["params"], s["vs"], players=s.get("players"),
                         baseline=s.get("baseline"), games=s.get("games"),
                         seed=s["seed"] if s.get("seed") is not None else 1,
                         rules=s.get("rules") or "base", overrides=s.get("overrides") or (),
                         until_ci=s.get("until_ci"), detail=s.get("detail") or "games",
                         strategy_files=s.get("strategy_files") or (), out=target,
                         resume=given.resume, force=given.force, progress=run["progress"],
                         plots=given.plots, argv=run["argv"], backend=backend,
                         note=run["on_note"], sequential=bool(s.get("sequential")),
                         width=s.get("width"))

    return play_resumable(  # Ctrl-C: in a value's games, or between or after the values
        KIND, SweepInputError, given, run,
        settings=lambda saved: _settings(saved, {"strategy": strategy, "param": param,
                                                 "baseline": baseline, "vs": vs, "width": width},
                                         given, run),
        warm=lambda s: _warm(s, run["on_compile"]), play=play,
        figures=lambda res: _figures(res), what="sweep",
        interrupted=SweepInterrupted)


def _figures(res):
    """The figures of a sweep's report (``Report.figures``)."""
    from sim.study.sweep.plots import plot_jobs

    return plot_jobs(res.table, res.settings)


def _settings(saved: dict | None, own: dict, given: ResumableSettings, run: RunOptions) -> dict:
    """The checks of the arguments after :func:`~sim.questions.resumable.resume_checks`, in the
    command's order, and the sweep's settings (with ``resume``, those not given taken from
    ``saved``, the interrupted sweep's); ``own`` the sweep's own keywords."""
    from sim.study.sweep.run import plan_sweep
    from sim.study.tournament.plan import load_strategy_files

    params, vs = as_list(own["param"]), own["vs"]
    s = resumed({"strategy": own["strategy"], "params": params or None,
                 "baseline": own["baseline"], "vs": strategy_specs(vs) if vs is not None else None,
                 "width": own["width"]}, given, run, saved)
    if not s.get("params") and s.get("param"):  # a sweep saved before grids existed
        s["params"] = [s["param"]]
    for key, opt in (("strategy", "strategy"), ("params", "param"), ("vs", "vs")):
        if not s.get(key):
            raise SweepInputError(f"--{opt}: required, e.g. {EXAMPLE}")
    if given.out is not None:  # a temporary folder is new and writable
        check_out_free(given.out, resume=given.resume, force=given.force, what="sweep")
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
