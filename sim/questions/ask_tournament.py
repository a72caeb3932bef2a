"""``sim.tournament``: a seat-balanced tournament and its report (``quacks tournament``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sim.questions.report import Report
from sim.questions.resumable import check_out_free, play_resumable, resumable_options, resumed
from sim.questions.running import RunOptions, run_options, strategy_specs, warm_games

if TYPE_CHECKING:
    from typing import Unpack  # Python 3.11+

    from sim.questions.resumable import ResumableSettings

KIND = "tournament"


class TournamentInputError(ValueError):
    """A tournament the simulator cannot run as asked (one line, the option named); the error
    it stands for, when another, is its ``__cause__``."""


@run_options
@resumable_options
def tournament(
    *,
    strategies: Sequence[str] | str | None = None,
    format: str | None = None,  # noqa: A002 - named as the CLI's --format
    given: ResumableSettings,
    **run: Unpack[RunOptions],
) -> Report:
    """Play a seat-balanced tournament and write its report (``quacks tournament``).

    Its own keywords come first, then those of
    :class:`~sim.questions.resumable.ResumableSettings` (``players`` ... ``plots``), then the
    :class:`~sim.questions.running.RunOptions`. ``strategies`` are specs (comma-separated or a
    list; default: the built-in presets), ``format`` ``rotate``, ``round-robin`` or
    ``vs-field``; ``None`` takes the command's default (or, with ``resume``, the interrupted
    run's setting). The report goes to ``out`` or, without it, to a temporary folder that lives
    as long as the result: ``tables`` (``summary``, ``pairs``, ``seats``, ``games``, ...),
    ``figures`` (``win_share``, ...), ``result`` (the study's ``TournamentResult``:
    ``to_json()`` is ``--json``), ``written`` (the files, as the command lists them). The same
    seed gives the same numbers as the command. With ``until_ci`` W, ``sequential=True`` stops
    by 95% anytime-valid confidence sequences (every strategy's win-share half-width <= W at
    whatever chunk it looks), and the win-share intervals reported are the sequences'.
    ``progress(games, max_games)`` is called from the start of the games, ``on_note(line)``
    hears remarks and where the games run, ``on_compile(entry)`` comes before the game kernel is
    first used; ``argv`` is the command line the report records (default ``sys.argv``). A bad
    argument raises :class:`TournamentInputError` (a ValueError) with the command's line; an
    interrupted run raises ``RunInterrupted`` (a KeyboardInterrupt) after keeping every finished
    chunk for ``resume``."""
    # (the study modules import the kernel: only once resume_checks loaded a resumed run's
    # rules files)
    def play(plan, target: Path, backend):
        from sim.study.tournament.run import run_tournament

        return run_tournament(plan, out=target, resume=given.resume, force=given.force,
                              progress=run["progress"], plots=given.plots, argv=run["argv"],
                              backend=backend, note=run["on_note"])

    return play_resumable(
        KIND, TournamentInputError, given, run,
        settings=lambda saved: _plan(saved, strategies, format, given, run),
        warm=lambda plan: warm_games(plan.ruleset, plan.lineup(0), on_compile=run["on_compile"]),
        play=play, figures=lambda res: _figures(res.summary))


def _figures(summary):
    """The figures of a tournament's report (``Report.figures``)."""
    from sim.study.reports.plots import plot_jobs

    return plot_jobs(summary)[0]


def _plan(saved: dict | None, strategies, format, given: ResumableSettings,  # noqa: A002
          run: RunOptions):
    """The checks of the arguments after :func:`~sim.questions.resumable.resume_checks`, in the
    command's order, and the resolved plan (``saved``: the interrupted run's settings)."""
    from sim.study.tournament.plan import TournamentConfig, resolve_plan
    from sim.study.tournament.run import check_two_deals

    specs = None
    if strategies is not None:
        specs = tuple(strategy_specs(strategies))
        if not specs:
            raise TournamentInputError(
                "--strategies: give at least one strategy, e.g. threshold,random")
    own = {"strategies": specs, "format": getattr(format, "value", format)}
    plan = resolve_plan(TournamentConfig.from_settings(resumed(own, given, run, saved)))
    check_two_deals(plan)
    if given.out is not None:  # a temporary folder is new and writable
        check_out_free(given.out, resume=given.resume, force=given.force)
    return plan
