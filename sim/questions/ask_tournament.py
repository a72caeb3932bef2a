"""``sim.tournament``: a seat-balanced tournament and its report (``quacks tournament``)."""

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

KIND = "tournament"


class TournamentInputError(ValueError):
    """A tournament the simulator cannot run as asked (one line, the option named); the error
    it stands for, when another, is its ``__cause__``."""


@run_options
def tournament(
    *,
    strategies: Sequence[str] | str | None = None,
    players: int | None = None,
    games: int | None = None,
    seed: int | None = None,
    out: str | Path | None = None,
    rules: str | None = None,
    set: Sequence[str] | str | None = None,  # noqa: A002 - named as the CLI's --set
    format: str | None = None,  # noqa: A002 - named as the CLI's --format
    until_ci: float | None = None,
    sequential: bool = False,
    detail: str | None = None,
    resume: bool = False,
    force: bool = False,
    plots: bool = True,
    **run: Unpack[RunOptions],
) -> Report:
    """Play a seat-balanced tournament and write its report (``quacks tournament``).

    ``strategies`` are specs (comma-separated or a list; default: the built-in presets),
    ``format`` ``rotate``, ``round-robin`` or ``vs-field``; ``None`` takes the command's
    default (or, with ``resume``, the interrupted run's setting). The report goes to ``out``
    or, without it, to a temporary folder that lives as long as the result: ``tables``
    (``summary``, ``pairs``, ``seats``, ``games``, ...), ``figures`` (``win_share``, ...),
    ``result`` (the study's ``TournamentResult``: ``to_json()`` is ``--json``), ``written``
    (the files, as the command lists them). The same seed gives the same numbers as the
    command. With ``until_ci`` W, ``sequential=True`` stops by 95% anytime-valid confidence
    sequences (every strategy's win-share half-width <= W at whatever chunk it looks), and the
    win-share intervals reported are the sequences'. ``progress(games, max_games)`` is called
    from the start of the games, ``on_note(line)`` hears remarks and where the games run,
    ``on_compile(entry)`` comes before the game kernel is first used; ``argv`` is the command
    line the report records (default ``sys.argv``). A bad argument raises
    :class:`TournamentInputError` (a ValueError) with the command's line; an interrupted run
    raises ``RunInterrupted`` (a KeyboardInterrupt) after keeping every finished chunk for
    ``resume``."""
    from sim.study.reports.plots import plot_jobs
    from sim.study.tournament.run import run_tournament

    try:
        plan = _plan(strategies=strategies, players=players, games=games, seed=seed, out=out,
                     rules=rules, set=set, format=format, until_ci=until_ci,
                     sequential=sequential, detail=detail, resume=resume, force=force, run=run)
    except TournamentInputError:
        raise
    except (ValueError, OSError) as e:
        raise TournamentInputError(str(e)) from e
    with report_folder(KIND, out) as (target, tmp):
        if getattr(run["backend"], "value", run["backend"]) == "local":  # Dask compiles its own
            warm_games(plan.ruleset, plan.lineup(0), on_compile=run["on_compile"])  # unclocked
        with open_run_backend(run) as be:
            res = run_tournament(plan, out=target, resume=resume, force=force,
                                 progress=run["progress"], plots=plots, argv=run["argv"],
                                 backend=be, note=run["on_note"])
    return Report(KIND, target, res, figures=lambda: plot_jobs(res.summary)[0], temporary=tmp,
                  written=res.files)


def _plan(*, strategies, players, games, seed, out, rules, set, format, until_ci,  # noqa: A002
          sequential, detail, resume, force, run):
    """The checks of the arguments, in the command's order, and the resolved plan."""
    from sim.study.tournament.plan import TournamentConfig, resolve_plan
    from sim.study.tournament.run import check_two_deals

    saved = resume_checks(TournamentInputError, out=out, threads=run["threads"], resume=resume,
                          force=force, players=players, games=games, seed=seed,
                          workers=run["workers"])
    specs = None
    if strategies is not None:
        specs = tuple(strategy_specs(strategies))
        if not specs:
            raise TournamentInputError(
                "--strategies: give at least one strategy, e.g. threshold,random")
    overrides = as_list(set)
    given = {"strategies": specs, "players": players, "games": games, "seed": seed,
             "rules": rules, "overrides": tuple(overrides) if overrides else None,
             "format": getattr(format, "value", format), "until_ci": until_ci,
             "sequential": sequential or None,
             "detail": getattr(detail, "value", detail),
             "strategy_files": strategy_paths(run["strategy_file"])}
    plan = resolve_plan(TournamentConfig.from_settings(merge_settings(given, saved)))
    check_two_deals(plan)
    if out is not None:  # a temporary folder is new and writable
        check_out_free(out, resume=resume, force=force)
    return plan
