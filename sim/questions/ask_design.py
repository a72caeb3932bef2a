"""``sim.design``: a search for the rule values that put every target figure inside its band
(``quacks design``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sim.questions.ask_rules import as_list
from sim.questions.ask_sensitivity import play_study, study_settings, study_setup
from sim.questions.report import Report
from sim.questions.running import RunOptions, run_options
from sim.study.balance.settings import DEFAULT_PLAYERS
from sim.study.design.defaults import DESIGN_BUDGET, RETUNE_BUDGET

if TYPE_CHECKING:
    from typing import Unpack  # Python 3.11+


@run_options
def design(
    *,
    targets: str | Path | None = None,
    target: Sequence[str] | str | None = None,
    knob: Sequence[str] | str | None = None,
    budget: int = DESIGN_BUDGET,
    seed: int = 1,
    rules: str = "base",
    set: Sequence[str] | str | None = None,  # noqa: A002 - named as the CLI's --set
    players: int = DEFAULT_PLAYERS,
    field: Sequence[str] | str | None = None,
    first_rung: int | None = None,
    retest_games: int | None = None,
    retune: str | None = None,
    retune_param: Sequence[str] | str | None = None,
    retune_budget: int = RETUNE_BUDGET,
    adjust: str = "holm",
    out: str | Path | None = None,
    force: bool = False,
    **run: Unpack[RunOptions],
) -> Report:
    """Find the rule values that put every target figure inside its band (``quacks design``):
    Optuna over the knobs, every candidate on the same deals, successive halving, then a
    re-test of the best on fresh deals (each target pass, fail or undecided) and the Pareto
    front when the bands conflict.

    ``targets`` is a targets file (``quacks balance``'s), ``target`` one ``METRIC=LO:HI`` band
    or a list of them, ``knob`` one knob or a list (as ``sim.sensitivity``), ``field``
    comma-separated or a list (None: ``quacks balance``'s field), ``retune_param`` one
    ``KEY=LO:HI`` or a list; ``adjust`` how the side effects' p-values are adjusted over the
    arm's figures (``holm``, ``bh`` or ``none``, as ``sim.sensitivity``). With ``out`` the
    report folder is written there (``targets``,
    ``differences``, ``pareto``, ``history`` and ``figures`` as parquet, ``progress.png``,
    ``targets.png``, ``report.md``, ``run.json``, ``report.html``); without it, to a temporary
    folder when first needed. The result's ``result`` is the study's ``DesignResult`` (best
    rules, verdicts, why the search stopped). The same seed gives the same numbers as the
    command. Hooks: ``progress(games, budget)`` from 0 as the search goes, ``on_note(line)``
    where the games run, ``on_compile(entry)`` before the game kernel is first used; ``argv``
    the command line as given, for the report's provenance. A bad argument raises a ValueError
    (``DesignError``, ``KnobError``, ...) with the command's one line."""
    from sim.stats.multiplicity import check_adjust
    from sim.study.design.design import DesignError, parse_target, plan_design, run_design
    from sim.study.design.design_report import plot_jobs, write_report

    study_setup(DesignError, run, budget=budget, seed=seed, players=players,
                first_rung=first_rung, retest_games=retest_games, retune_budget=retune_budget)
    plan = plan_design(study_settings("design", DesignError, dict(
        knob=knob, targets=str(targets) if targets is not None else None,
        bands=tuple(parse_target(t) for t in as_list(target)), budget=budget, seed=seed,
        rules=rules, set=set, players=players, field=field, first_rung=first_rung,
        retest_games=retest_games, retune=retune, retune_params=tuple(as_list(retune_param)),
        retune_budget=retune_budget, adjust=check_adjust(adjust)), run))

    def play(plan, *, backend, progress):  # the search's progress only
        return run_design(plan, backend=backend, progress=lambda phase, done, total: (
            progress(done, total) if phase == "search" and progress is not None else None))

    return play_study(
        "design", DesignError, plan, play, games=budget, warm=(plan.base, plan.seated),
        out=out, force=force, report=(write_report, plot_jobs), run=run)
