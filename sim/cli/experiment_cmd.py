"""The ``experiment`` commands: ``register(app)`` adds ``quacks experiment run`` and
``quacks experiment list`` to a Typer app.

``quacks experiment run FILE [--out DIR] [--games N]`` runs a study declared in TOML (see
``sim.study.experiments.file``) and writes a report folder (parquet tables, PNG plots and
``report.md``); FILE is a path or the name of a shipped experiment (``quacks experiment list``).
The run is ``sim.experiment`` (:mod:`sim.questions.ask_experiment`), handed the part messages
and the notes.
"""

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from sim.cli.common import (
    Backend,
    BackendOpt,
    QuacksGroup,
    SchedulerOpt,
    WorkersOpt,
    fail,
)

out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)


def register(app: typer.Typer) -> None:
    """Add ``quacks experiment run|list``."""
    exp_app = typer.Typer(cls=QuacksGroup,
                          help="Studies declared in TOML files: run one into a report folder, or "
                               "list the shipped ones.", no_args_is_help=True)
    app.add_typer(exp_app, name="experiment")

    @exp_app.command("list")
    def list_() -> None:
        """The shipped experiments (experiments/*.toml): name, title, parts and games per part."""
        from sim.study.experiments.file import (
            ExperimentFileError,
            load_experiment,
            no_shipped_reason,
            shipped_experiments,
        )

        if not shipped_experiments():  # a broken install, not a bad command: exit 1, not 2
            typer.echo(f"error: {no_shipped_reason()}", err=True)
            raise typer.Exit(1)
        t = Table(title="shipped experiments (quacks experiment run NAME)")
        t.add_column("name", no_wrap=True)  # what to type: never broken across lines
        for c in ("title", "parts", "games/part"):
            t.add_column(c)
        for p in shipped_experiments():
            try:
                e = load_experiment(p)
            except ExperimentFileError as exc:
                t.add_row(p.stem, f"[red]malformed: {exc}[/red]", "", "")
                continue
            t.add_row(e.name, e.title, ", ".join(f"{q['name']} ({q['kind']})" for q in e.parts),
                      f"{e.games:,}")
        out.print(t)

    @exp_app.command("run")
    def run(
        file: Annotated[str, typer.Argument(help="An experiment file, or the name of a shipped "
                                                 "one (quacks experiment list).")],
        out_dir: Annotated[str | None, typer.Option(
            "--out", help="Report folder (default: reports/<experiment name>).")] = None,
        games: Annotated[int | None, typer.Option(
            "--games",
            help="Games for every game part instead of the file's (a quick run).")] = None,
        resume: Annotated[bool, typer.Option(
            "--resume", help="Continue the interrupted run in --out (the same file and --games; "
                             "finished parts are kept).")] = False,
        csv: Annotated[bool, typer.Option(
            "--csv", help="Write every table as CSV too, next to its parquet file (as the "
                          "file's csv = true does).")] = False,
        json_: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
        threads: Annotated[int | None, typer.Option(
            "--threads", help="Numba threads (results never depend on it).")] = None,
        backend: BackendOpt = Backend.local,
        scheduler: SchedulerOpt = None,
        workers: WorkersOpt = None,
    ) -> None:
        """Run an experiment file: every part in order, into a report folder with parquet tables,
        PNG plots and report.md (tables and figures, the exact command and versions)."""
        from sim.api.events import plural
        from sim.cli.hooks import note_line
        from sim.questions.ask_experiment import ExperimentError
        from sim.questions.ask_experiment import experiment as ask_experiment
        from sim.study.experiments.file import ExperimentFileError
        from sim.study.experiments.run import ExperimentInterrupted
        from sim.study.tournament.local import BackendError

        resume_cmd = f"quacks experiment run {file}" + (f" --out {out_dir}" if out_dir else "") \
            + (f" --games {games}" if games is not None else "") + (" --csv" if csv else "") \
            + " --resume"

        def say(msg: str) -> None:
            if not json_ and sys.stderr.isatty():
                err.print(f"[dim]{msg}[/dim]")

        try:
            res = ask_experiment(
                file, out=out_dir or None, games=games, resume=resume, csv=csv, threads=threads,
                backend=backend, scheduler=scheduler, workers=workers, progress=say,
                on_note=note_line(json_), argv=sys.argv[3:] or [file],
                default_out=lambda name: Path("reports") / name).result
        except ExperimentInterrupted as e:
            if e.kept:
                typer.echo(f"interrupted: {plural(e.kept, 'part')} of {e.total} kept in "
                           f"{e.out}; continue with: {resume_cmd}", err=True)
            else:
                typer.echo("interrupted: no report written", err=True)
            raise typer.Exit(130) from None
        except KeyboardInterrupt:
            typer.echo("interrupted: no report written", err=True)
            raise typer.Exit(130) from None
        except (ExperimentFileError, ExperimentError, BackendError) as e:
            fail(str(e))
        if json_:
            typer.echo(json.dumps(res.to_json(), indent=2))
            return
        out.print(f"[bold]{res.experiment.title}[/bold]: {plural(len(res.parts), 'part')}, "
                  f"{res.games:,} {'game' if res.games == 1 else 'games'} in "
                  f"{res.seconds:.1f} s")
        for p in res.parts:
            out.print(f"  {p.name} ({p.kind}): "
                      f"{', '.join(f'{t}.{f}' for t in p.tables for f in res.formats())}"
                      + (f"; {', '.join(f for f, _ in p.figures)}" if p.figures else ""))
        out.print(f"report: {res.out / 'report.md'}")
