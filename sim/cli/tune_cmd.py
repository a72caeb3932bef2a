"""The ``tune`` command: ``register(app)`` adds it to a Typer app.

``quacks tune SPEC --param KEY=LO:HI [--param ...] --vs FIELD`` searches the parameter ranges
for the values that win most against the field (``sim.tune``, :mod:`sim.questions.ask_tune`),
prints the best spec with its re-tested win share and the paired improvement over SPEC, and with
``--out DIR`` writes ``history.parquet`` (every candidate), ``progress.png``, ``tune.json`` and
``report.html`` (``sim.study.tune.report``).
"""

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from sim.cli.common import exit_on_interrupt, fail, work_progress
from sim.cli.hooks import note_line, when_work_starts
from sim.cli.options import (
    Backend,
    BackendOpt,
    RulesFileOpt,
    RulesOpt,
    SchedulerOpt,
    SetOpt,
    StrategyFileOpt,
    StudyForceOpt,
    ThreadsOpt,
    WorkersOpt,
)

out = Console(soft_wrap=True)


def register(app: typer.Typer) -> None:
    """Add ``quacks tune`` to the app."""

    @app.command()
    def tune(
        spec: Annotated[str, typer.Argument(help="The strategy to tune, NAME or NAME:key=value,... "
                                                 "(its values are the starting point).")],
        param: Annotated[list[str], typer.Option(
            "--param", help="A parameter and its range, KEY=LO:HI (repeatable).")],
        vs: Annotated[str, typer.Option("--vs", help="The field: one strategy for every other "
                                                     "seat, or one per seat, comma-separated.")],
        players: Annotated[int | None, typer.Option(
            "--players",
            help="Seats per game (default: 1 + the field, or 4 for one field spec).")] = None,
        budget: Annotated[int, typer.Option("--budget", help="Games the search may play "
                                                             "(the re-test comes on "
                                                             "top).")] = 200_000,
        seed: Annotated[int, typer.Option("--seed", help="Run seed (default 1).")] = 1,
        out_dir: Annotated[str | None, typer.Option(
            "--out", help="Directory for history.parquet, progress.png, tune.json and "
                     "report.html.")] = None,
        force: StudyForceOpt = False,
        rules: RulesOpt = "base",
        rules_file: RulesFileOpt = None,
        set_: SetOpt = None,
        threads: ThreadsOpt = None,
        json_: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
        strategy_file: StrategyFileOpt = None,
        backend: BackendOpt = Backend.local,
        scheduler: SchedulerOpt = None,
        workers: WorkersOpt = None,
    ) -> None:
        """Find the parameter values of a strategy that win most against a field (Optuna TPE,
        successive halving on shared deals, then a re-test against the start on fresh deals)."""
        from sim.cli.user_input import USER_ERRORS
        from sim.questions.ask_tune import tune as ask_tune

        try:
            with when_work_starts(exit_on_interrupt,
                                  lambda: work_progress("games", quiet=json_)) as bar:
                report = ask_tune(
                    spec=spec, param=param, vs=vs, players=players, budget=budget, seed=seed,
                    out=out_dir, force=force, rules=rules, set=set_, threads=threads,
                    strategy_file=strategy_file, backend=backend, scheduler=scheduler,
                    workers=workers, progress=bar, on_note=note_line(json_))
        except typer.Exit:
            raise
        except USER_ERRORS as e:
            fail(str(e))
        res = report.result
        if json_:
            typer.echo(json.dumps(res.as_json()))
            return
        print_tune(res, res.players, report.written, Path(out_dir) if out_dir else None)


def print_tune(res, players: int, files: list[str], target: Path | None) -> None:
    """The lines ``quacks tune`` prints."""
    from sim.api.events import plural
    from sim.cli.printing import ci_text

    out.print(f"{plural(res.evaluations, 'candidate')}, {res.games:,} games ({players} players); "
              f"re-test on {res.retest_deals:,} fresh deals x {players} seatings", markup=False)
    out.print(f"best:  {res.best}", markup=False)
    out.print(f"  win share {res.best_win_share:.4f} {ci_text(res.best_win_share_ci)}",
              markup=False)
    out.print(f"start: {res.start}", markup=False)
    out.print(f"  win share {res.start_win_share:.4f} {ci_text(res.start_win_share_ci)}",
              markup=False)
    out.print(f"improvement (paired by deal): {res.improvement:+.4f} {ci_text(res.improvement_ci)}",
              markup=False)
    if target is not None:
        out.print(f"report: {target}/ ({', '.join(files)})", markup=False)
