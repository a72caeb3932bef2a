"""``sim.experiment``: a study declared in an experiment file, run into one report folder
(``quacks experiment run``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from sim.questions.report import Report, report_folder
from sim.questions.running import check_ints, check_out_text, open_backend, set_threads


class ExperimentError(ValueError):
    """An experiment that cannot run as asked: the command's one line (an error while the
    parts run names the experiment file first, as the command does)."""


def experiment(
    file: str | Path,
    *,
    out: str | Path | None = None,
    games: int | None = None,
    resume: bool = False,
    csv: bool = False,
    threads: int | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    workers: int | None = None,
    progress: Callable[[str], None] | None = None,
    on_note: Callable[[str], None] | None = None,
    argv: Sequence[str] | None = None,
    default_out: Callable[[str], str | Path] | None = None,
) -> Report:
    """Run an experiment file (``quacks experiment run FILE``): every part in order, into one
    report folder with each part's tables and PNG figures in its own sub-folder, ``report.md``,
    ``experiment.json`` and ``report.html``.

    ``file`` is an experiment file or the name of a shipped one (``quacks experiment list``);
    ``games`` replaces every game part's count (a quick run); ``csv`` writes every table as CSV
    too; ``resume`` continues the interrupted run in ``out``. Without ``out`` the run goes to
    ``default_out(name)`` when given (the command's ``reports/<name>``), else to a temporary
    folder that lives as long as the result. The result is a :class:`Report` over the folder:
    ``tables["<part>/<table>"]``, ``figures["<part>/<figure>"]`` (the saved PNGs), ``result``
    the study's ``ExperimentResult``. The same file, seed and ``games`` give the same tables as
    the command. Hooks: ``progress(message)`` as each part starts, ``on_note(line)`` where the
    games run; ``argv`` the command's arguments as given, for the report's provenance.

    A malformed file raises ``ExperimentFileError``, another bad argument a ValueError, each
    with the command's one line; Ctrl-C raises ``ExperimentInterrupted`` (the finished parts
    kept in ``out`` for ``resume``; none kept in a temporary folder, which is removed)."""
    from sim.study.experiments.file import find_experiment, load_experiment

    check_ints(ExperimentError, games=games, workers=workers)
    set_threads(threads, ExperimentError)
    check_out_text(out, ExperimentError)
    exp = load_experiment(find_experiment(str(file)))
    if out is None and default_out is not None:
        out = default_out(exp.name)
    with report_folder("experiment", out) as (target, tmp):
        res = _run(exp, target, games=games, resume=resume, csv=csv, threads=threads,
                   backend=backend, scheduler=scheduler, workers=workers, progress=progress,
                   on_note=on_note, argv=argv)
    from sim.study.experiments.run import plot_jobs

    return Report("experiment", target, res, figures=lambda: plot_jobs(res), temporary=tmp,
                  written=[] if tmp is not None else written_files(res))


def _run(exp, target: Path, *, games, resume, csv, threads, backend, scheduler, workers,
         progress, on_note, argv):
    """Run ``exp`` into ``target`` on the backend named; an error of a part is the command's
    line, the experiment file named first."""
    from sim.api.errors import GameInputError
    from sim.rules.chips import BagSpecError
    from sim.rules.ruleset import RulesetError
    from sim.study.experiments.file import ExperimentFileError
    from sim.study.experiments.run import ExperimentRunError, run_experiment
    from sim.study.tournament.plan import TournamentError
    from strategies.builtin import StrategySpecError

    with open_backend(backend, scheduler, workers, threads, note=on_note) as be:
        try:
            return run_experiment(exp, target, games=games, argv=argv, progress=progress,
                                  backend=be, resume=resume, csv=csv)
        except ExperimentFileError:
            raise
        except (ExperimentRunError, TournamentError, RulesetError, StrategySpecError,
                BagSpecError, GameInputError) as e:
            raise ExperimentError(f"{exp.path.name}: {e}") from e


def written_files(res) -> list[str]:
    """The files of a finished run, in the order the command lists them: each part's tables
    and figures, then the report's own files."""
    from sim.study.experiments.run import EXPERIMENT_JSON, REPORT_FILE
    from sim.study.reports.files import REPORT_HTML

    parts = res.to_json()["parts"]
    return [*(f for p in parts for f in [*p["tables"], *p["figures"]]), REPORT_FILE,
            EXPERIMENT_JSON, REPORT_HTML]
