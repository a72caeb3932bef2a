"""What the long report-writing runs (``quacks tournament``, ``sweep``, ``compare``) share on the
command line: which errors are the user's, the default report folder, SIGTERM as Ctrl-C, the
progress bar, and the call and answer of a study question (``sensitivity``, ``design``:
:func:`ask_study`, :func:`show_study`, both :func:`answer_study`). The checks of ``--out`` and
the settings a resumed run takes from the interrupted one are the Python API's
(``sim.questions.running``)."""

import sys
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

from rich.console import Console

# The study layer (pandas, pyarrow, matplotlib, the kernels) is imported inside the functions,
# never at module level, so quacks --help starts at once.


def user_errors() -> tuple[type[BaseException], ...]:
    """The errors of the settings that are the user's to fix: one line, exit status 2."""
    from sim.api.errors import GameInputError
    from sim.rules.chips import BagSpecError
    from sim.rules.ruleset import RulesetError
    from sim.study.reports.schema import ReportError
    from sim.study.tournament.plan import TournamentError
    from strategies.builtin import StrategySpecError

    return (RulesetError, BagSpecError, StrategySpecError, GameInputError, TournamentError,
            ReportError, ValueError, OSError)


def run_errors() -> tuple[type[BaseException], ...]:
    """While a run goes, only these are the user's doing (a directory, a disk, a resume
    mismatch); anything else is a bug and keeps its traceback."""
    from sim.api.errors import GameInputError
    from sim.rules.ruleset import RulesetError
    from sim.study.reports.schema import ReportError
    from sim.study.tournament.local import BackendError
    from sim.study.tournament.plan import TournamentError
    from strategies.builtin import StrategySpecError

    return (ReportError, TournamentError, RulesetError, StrategySpecError, GameInputError,
            OSError, BackendError)


def default_out(prefix: str = "") -> Path:
    """``./reports/<timestamp>/`` (a suffix keeps it new if that exists already)."""
    stamp = datetime.now().strftime("%Y-%m-%d_%H-%M-%S")
    base = Path("reports") / f"{prefix}{stamp}"
    p, i = base, 2
    while p.exists():
        p = base.with_name(f"{base.name}-{i}")
        i += 1
    return p


@contextmanager
def sigterm_as_interrupt():
    """While a run goes, SIGTERM stops it like Ctrl-C (finished chunks kept, files closed)."""
    import signal

    from sim.cli.common import signal_handler

    def handler(signum, frame):
        raise KeyboardInterrupt

    with signal_handler(signal.SIGTERM, handler):
        yield


@contextmanager
def progress_bar(quiet: bool, label: str):
    """A rich progress bar on stderr (games, games/s, time left); None when quiet or not a tty."""
    if quiet or not sys.stderr.isatty():
        yield None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TextColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class Rate(ProgressColumn):
        def render(self, task):
            return Text(f"{task.speed:,.0f}/s" if task.speed else "-/s")

    prog = Progress(TextColumn("{task.description}"), BarColumn(bar_width=24), MofNCompleteColumn(),
                    TextColumn("games,"), Rate(), TextColumn("left"), TimeRemainingColumn(),
                    console=Console(stderr=True), transient=True)
    task = {}

    def update(done: int, total: int) -> None:
        if "id" not in task:
            task["id"] = prog.add_task(label, total=total, completed=done)
        else:
            prog.update(task["id"], completed=done, total=total)

    with prog:
        yield update


def run_and_report(run, write, out: Path | None, *, force: bool, json_: bool, errors, show) -> None:
    """The tail of a study command (``balance``, ``sensitivity``, ``design``): ``run()`` the
    study, ``write`` its report folder when ``out`` is given, then print one JSON object (the
    result's ``to_json`` with ``out`` and ``files``) or ``show(result, files)``. Ctrl-C writes
    nothing (exit 130); an error of ``errors`` is one line with exit status 2."""
    import typer

    from sim.cli.common import fail

    try:
        res = run()
        files = write(res, out, force=force, argv=sys.argv) if out is not None else []
    except KeyboardInterrupt:
        typer.echo("interrupted: nothing written", err=True)
        raise typer.Exit(130) from None
    except errors as e:
        fail(str(e))
    show_study(res, files, out, json_=json_, show=show)


def ask_guarded(ask, progress, *, errors: tuple, later: tuple):
    """Call a command's question ``ask(bar)`` with the progress hook ``bar`` that opens
    ``progress()`` (a bar factory) when the games start (:func:`~sim.cli.hooks.when_work_starts`);
    its answer. Before the games, an error of ``errors`` is the user's (one line, exit status 2)
    and Ctrl-C is the command group's; once they run, only an error of ``later`` is the user's
    (any other keeps its traceback), and Ctrl-C writes nothing (exit 130)."""
    import typer

    from sim.cli.common import fail
    from sim.cli.hooks import when_work_starts

    try:
        with when_work_starts(progress) as bar:
            return ask(bar)
    except typer.Exit:
        raise
    except KeyboardInterrupt:
        if not bar.started:  # before the games: the command group's line
            raise
        typer.echo("interrupted: nothing written", err=True)
        raise typer.Exit(130) from None
    except errors as e:
        if bar.started and not isinstance(e, later):
            raise
        fail(str(e))


def ask_study(ask, *, quiet: bool):
    """Call a study's question (``sim.sensitivity``, ``sim.design``: ``ask(progress=,
    on_note=, on_compile=)``) with the command's hooks: the progress bar from the first games
    on, ``note:`` lines and the compile notice (none when ``quiet``); its Report. A user's error
    is one line with exit status 2; Ctrl-C writes nothing (exit 130)."""
    import typer

    from sim.cli.common import compile_notice, fail, work_progress
    from sim.cli.hooks import note_line, when_work_starts
    from sim.cli.user_input import USER_ERRORS

    try:
        with when_work_starts(lambda: work_progress("games", quiet=quiet)) as bar:
            return ask(progress=bar, on_note=note_line(quiet),
                       on_compile=lambda entry: compile_notice(entry, quiet=quiet))
    except typer.Exit:
        raise
    except KeyboardInterrupt:
        typer.echo("interrupted: nothing written", err=True)
        raise typer.Exit(130) from None
    except (*USER_ERRORS, *run_errors()) as e:
        fail(str(e))


def answer_study(ask, run, show, console: Console) -> None:
    """A study command's work and answer: its question ``ask`` (``sim.exploit`` ..., its own
    options already given) called through :func:`ask_study` with the run options ``run`` (a
    :class:`~sim.cli.options.StudyRun`) and the command line, then :func:`show_study`: the
    tables by ``show(result, console)`` and the line naming the report folder and its files."""
    from functools import partial

    def tables(res, files: list[str]) -> None:
        show(res, console)
        if run.out is not None:
            console.print(f"report: {run.out}/ ({', '.join(files)})", markup=False,
                          soft_wrap=True)

    report = ask_study(partial(ask, **run.question_options(), argv=sys.argv), quiet=run.hush)
    show_study(report.result, report.written, run.out, json_=run.json_, show=tables)


def show_study(res, files: list[str], out: Path | None, *, json_: bool, show) -> None:
    """A study's answer on stdout: one JSON object (the result's ``to_json`` with ``out`` and
    ``files``) or ``show(result, files)``."""
    import typer

    from sim.study.reports.files import dumps

    if json_:
        typer.echo(dumps({**res.to_json(), "out": str(out) if out else None, "files": files}))
        return
    show(res, files)
