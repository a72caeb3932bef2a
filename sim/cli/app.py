"""The ``quacks`` Typer app: the root options and every command, registered from the command
modules. Built on import; ``sim.cli.main`` imports it only when a command (or help) is asked
for, and the command modules import the simulation only inside their commands.

The command modules (and this one) do without ``from __future__ import annotations``: Typer reads
every command's signature when it builds the app, and string annotations would be evaluated
again, twice per command (a few hundredths of a second of every ``--help``)."""

import importlib
from typing import Annotated

import typer

from sim.cli.common import QuacksGroup
from sim.cli.version import version_text

app = typer.Typer(
    cls=QuacksGroup,
    add_completion=False,
    no_args_is_help=True,
    help="Quacks of Quedlinburg strategy simulator: potions, games, replays and scripted rounds.",
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(version_text())
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[bool, typer.Option("--version", is_eager=True, callback=_version,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Quacks of Quedlinburg strategy simulator: potions, games, replays and scripted rounds."""


# Command modules: each has ``register(app)``; commands are listed in this order, groups (rules,
# experiment) after them. A module not written yet in this checkout is skipped (only when that
# very module is missing, never on an error inside it).
COMMAND_MODULES = ("sim.cli.reports", "sim.cli.report_cmd", "sim.cli.rules_cmd",
                   "sim.cli.tune_cmd", "sim.cli.thresholds_cmd", "sim.cli.compare_cmd",
                   "sim.cli.balance_cmd",
                   "sim.cli.sensitivity_cmd",
                   "sim.cli.luck_cmd",
                   "sim.cli.design_cmd",
                   "sim.cli.exploit_cmd", "sim.cli.styles_cmd",
                   "sim.cli.experiment_cmd", "sim.cli.potion_cmd", "sim.cli.game_cmd",
                   "sim.cli.strategies_cmd", "sim.cli.train_cmd")


def _register_commands() -> None:
    for full in COMMAND_MODULES:
        try:
            module = importlib.import_module(full)
        except ModuleNotFoundError as e:
            if e.name == full:
                continue
            raise
        module.register(app)


_register_commands()
