"""The ``train`` command: ``register(app)`` adds it to a Typer app.

``quacks train --rules RULES --players N --out FILE`` fits ``master``'s value model by self-play
(``sim.study.train.run``) and writes the model file; ``master:model=FILE`` plays with it.
"""

from pathlib import Path
from typing import Annotated

import typer

from sim.cli.common import (
    Backend,
    BackendOpt,
    RulesFileOpt,
    SchedulerOpt,
    SetOpt,
    WorkersOpt,
    fail,
    open_backend,
    set_threads,
    work_progress,
)
from sim.cli.options import count_option
from sim.study.train.limits import MAX_GAMES, MAX_ITERATIONS


def register(app: typer.Typer) -> None:
    """Add ``quacks train`` to the app."""

    @app.command()
    def train(
        out: Annotated[str, typer.Option(
            "--out", help="The model file to write (JSON); its run is kept in the folder "
                          "OUT.train beside it.")],
        rules: Annotated[str, typer.Option("--rules",
                                           help="Built-in ruleset name or a TOML file.")] = "base",
        rules_file: RulesFileOpt = None,
        set_: SetOpt = None,
        players: Annotated[int, typer.Option("--players", help="Players per game.")] = 4,
        games: count_option(1, MAX_GAMES, "Games per iteration (every position is held in "
                            "memory for the fit).") = 20_000,
        iterations: count_option(1, MAX_ITERATIONS, "Iterations: the field first, then master "
                                 "with the model of the iteration before.") = 3,
        seed: Annotated[int, typer.Option("--seed", help="Run seed.")] = 1,
        explore: Annotated[float, typer.Option(
            "--explore", help="Chance (0 to 1) that master buys a random legal set in "
                              "training games.")] = 0.05,
        field: Annotated[str, typer.Option("--field", help="The strategy of the other seats "
                                                           "(and of iteration 0).")] = "expert",
        value: Annotated[str, typer.Option(
            "--value", help="What is fitted: gap (the chance of winning from the VP gap to the "
                            "best other, per round; master:leaf=marginal values the bag), "
                            "linear (the final margin from every feature, master:leaf=model) or "
                            "net (gap and a value net of the whole bag for master:buy_by=net, "
                            "each cycle's candidate kept only if it beats the current model "
                            "head to head: docs/how-to/train-master.md)."
                            )] = "gap",
        master: Annotated[str, typer.Option(
            "--master", help="master's parameters, k=v,k=v: played in the training games and "
                             "kept in the model file, so master:model=FILE plays with them "
                             "(unless its spec gives them itself).")] = "",
        resume: Annotated[bool, typer.Option(
            "--resume", help="Continue the run kept in OUT.train (same settings).")] = False,
        force: Annotated[bool, typer.Option(
            "--force", help="Overwrite an existing --out file, starting over a run kept in "
                            "OUT.train.")] = False,
        threads: Annotated[int | None, typer.Option(
            "--threads", help="Numba threads (results never depend on it).")] = None,
        quiet: Annotated[bool, typer.Option("--quiet", help="No progress bar or lines.")] = False,
        backend: BackendOpt = Backend.local,
        scheduler: SchedulerOpt = None,
        workers: WorkersOpt = None,
    ) -> None:
        """Fit master's value model by self-play for a ruleset and player count; writes a model
        file for master:model=FILE (seeded: the same settings give the same file)."""
        from sim.api.errors import GameInputError
        from sim.rules.ruleset import RulesetError
        from sim.study.tournament.local import BackendError
        from sim.study.train.run import TrainError, TrainSettings, check_run
        from sim.study.train.run import train as run_train
        from strategies.builtin import StrategySpecError
        from strategies.value_model_file import ModelFileError

        set_threads(threads)
        settings = TrainSettings(rules=rules, overrides=tuple(set_ or ()), players=players,
                                 games=games, iterations=iterations, seed=seed, explore=explore,
                                 field=field, value=value, master=master)
        say = None if quiet else (lambda line: typer.echo(line, err=True))
        errors = (TrainError, ModelFileError, GameInputError, RulesetError, StrategySpecError,
                  BackendError)
        try:  # before any game, and before a Dask cluster starts
            check_run(settings, out, resume=resume, force=force)
        except errors as e:
            fail(str(e))
        try:
            with open_backend(backend, scheduler, workers, threads, quiet=quiet) as be, \
                    work_progress("training", quiet=quiet) as update:
                def progress(it: int, done: int, total: int) -> None:
                    update(it * total + done, iterations * total)

                model = run_train(settings, Path(out), resume=resume, force=force,
                                  progress=progress, say=say, backend=be)
        except (*errors, OSError) as e:  # OSError: the disk, during the run
            fail(str(e))
        except KeyboardInterrupt:
            typer.echo("interrupted: pass --resume to continue from the last finished iteration",
                       err=True)
            raise typer.Exit(130) from None
        typer.echo(f"wrote {out}: value model for {model.rules}, {model.players} players, "
                   f"{model.rounds} rounds ({iterations} iterations of {games:,} games, "
                   f"seed {seed})")
