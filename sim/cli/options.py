"""The options several ``quacks`` commands share, each declared once as Typer's
``Annotated[..., typer.Option(...)]`` alias that a command's parameter is typed with, and
:func:`study_options`: the run options every study command (``balance``, ``sensitivity``,
``design``, ``exploit``, ``styles``) ends with, declared once as the fields of :class:`StudyRun`.

No ``from __future__ import annotations`` here (see :mod:`sim.cli.app`): Typer reads these
annotations when it builds the app."""

from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Annotated, NamedTuple

import typer

from sim.questions.running import keyword_group
from sim.study.exploit.defaults import DEFAULT_FIELD

try:  # Typer >= 0.26 carries its own copy of click
    from typer._click.exceptions import UsageError
except ImportError:  # pragma: no cover - older Typer on the real click
    from click.exceptions import UsageError


@contextmanager
def usage_error(*errors: type[Exception]):
    """In an option's callback: one of ``errors`` raised in the block is a usage error with its
    line (exit status 2 as the options are read, before any work)."""
    try:
        yield
    except errors as e:
        raise UsageError(str(e)) from None


def writable_out(value: Path | None) -> Path | None:
    """The callback of a report folder option: a folder that cannot be made or written (under
    a file, read-only) is one usage error as the options are read, before any work."""
    if value is not None:
        from sim.study.common.out_probe import OutDirError, probe_writable

        with usage_error(OutDirError):
            probe_writable(value)
    return value


def scheduler_address(value: str | None) -> str | None:
    """The callback of --scheduler: an address not of the form Dask connects to is one usage
    error as the options are read (no connection is tried)."""
    if value is None:
        return None
    from sim.study.tournament.backend import check_scheduler_address
    from sim.study.tournament.local import BackendError

    with usage_error(BackendError):
        check_scheduler_address(value)
    return value


# ---------------------------------------------------------------------------------------------
# The ruleset, the seats and the seed

RulesOpt = Annotated[str, typer.Option("--rules", help="Built-in ruleset name or a TOML file.")]


def set_option(where: str = ""):
    """The type of a ``--set`` option; ``where`` (``"in every variant"``, ``"for every arm"``)
    names the rulesets of the command an override applies to."""
    return Annotated[list[str] | None, typer.Option(
        "--set", help=f"Override one ruleset value{' ' + where if where else ''}: "
        "section.key=value (repeatable).")]


SetOpt = set_option()


def count_option(low: int, high: int, text: str):
    """The type of a whole-number option from ``low`` to ``high`` (shown as ``<int>``; Typer
    refuses a number outside in one line); ``text`` is its help."""
    return Annotated[int, typer.Option(min=low, max=high, metavar="<int>", help=text)]


PlayersOpt = Annotated[int, typer.Option(help="Seats per game.")]


def lineup_players_option(start: str = "Players"):
    """The type of the ``--players`` option of the commands that seat one strategy spec per
    seat as ``quacks play`` does (``play``, ``replay``); ``start`` begins its help."""
    return Annotated[int | None, typer.Option(
        help=f"{start} (2-4; 2-5 with herb-witches); default: one per strategy (4 for a single "
        "spec).")]


def seats_option(field: str):
    """The type of the ``--players`` option of a command whose players default to one per
    strategy of its field; ``field`` names what else takes the default 4 (``" and the
    presets"``)."""
    return Annotated[int | None, typer.Option(
        help="Seats per game (2-4; 2-5 with herb-witches). Default: one per strategy (4 for a "
        f"single spec{field}).")]
SearchSeedOpt = Annotated[int, typer.Option(  # exploit and styles
    help="Run seed: the search plays its deals, the re-test those of seed + 1000003.")]

# sensitivity and design: the knobs, the field seated, the adjustment of their flags
KnobOpt = Annotated[list[str] | None, typer.Option(
    "--knob", help="A ruleset key and its values: KEY=LO:HI (--steps values, whole numbers for a "
    "key that holds one), KEY=LO:HI:STEP, or alternatives KEY=A|B|... (TOML values; bare words "
    "in lists, e.g. cards.exclude=[]|\\[charity]). Repeatable.")]
SeatedFieldOpt = Annotated[str | None, typer.Option(
    "--field", help="The strategies seated, comma-separated (cycled to fill the seats); default "
    "quacks balance's field.")]
AdjustOpt = Annotated[str, typer.Option(
    "--adjust", metavar="holm|bh|none", help="How the flags (moves, no effect, figures moved, "
    "side effects) are adjusted over their family of tests: holm (the chance of any wrong flag "
    "in the family at most 5%), bh (Benjamini-Hochberg: the expected share of wrong flags at "
    "most 5%) or none (each test on its own).")]

# ---------------------------------------------------------------------------------------------
# Output and strategies

StudyOutOpt = Annotated[Path | None, typer.Option(
    "--out", help="Write a report folder: parquet tables, PNG plots, report.md, run.json, "
    "report.html.", callback=writable_out)]
StudyForceOpt = Annotated[bool, typer.Option(
    "--force", help="Write into a non-empty --out (replacing a previous report's files).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")]
QuietOpt = Annotated[bool, typer.Option("--quiet", help="No progress bar on stderr.")]
ThreadsOpt = Annotated[int | None, typer.Option(
    "--threads", help="Numba threads (results never depend on it).")]
FieldOpt = Annotated[str | None, typer.Option(
    "--strategies", help="The field: strategy specs (name or name:key=value,...), "
    "comma-separated. Default: the built-in presets.")]
StrategyFileOpt = Annotated[list[str] | None, typer.Option(
    "--strategy-file", help="Load user strategies from a Python file (repeatable); see README.")]


def load_rules_files(value: list[str] | None) -> list[str] | None:
    """The callback of ``--rules-file``: load each file's card or book as the options are read,
    before any kernel is imported (the hook tables are generated with them); a bad file is one
    usage error."""
    if not value:  # no file: nothing to import (the help and start-up stay free of numpy)
        return value
    from sim.cli.user_input import load_rules_files as load

    with usage_error(ValueError):
        load(value)
    return value


RulesFileOpt = Annotated[list[str] | None, typer.Option(
    "--rules-file", help="Load a fortune-teller card, an ingredient book or a herb witch from a "
    "Python file (repeatable; add a card to the deck with --set cards.extra=[ID], choose a book "
    "with --set books.COLOUR=SET, a witch with --set witches.fixed=[ID] (in every game) or "
    "witches.extra=[ID] (dealt at random in her group)); see "
    "docs/how-to/add-a-rule.md.",
    callback=load_rules_files)]


# ---------------------------------------------------------------------------------------------
# Where the games run: --backend local|dask, --scheduler, --workers


class Backend(str, Enum):
    """Where the games are played."""

    local = "local"
    dask = "dask"


BackendOpt = Annotated[Backend, typer.Option(
    "--backend", help="local: this process; dask: chunks of games as Dask tasks on the cluster at "
                      "--scheduler, or on --workers local worker processes (needs the 'dist' "
                      "extra). The results are the same to the last digit.")]
SchedulerOpt = Annotated[str | None, typer.Option(
    "--scheduler", help="With --backend dask: the address of a running Dask scheduler, e.g. "
                        "tcp://10.0.0.5:8786.", callback=scheduler_address)]
WorkersOpt = Annotated[int | None, typer.Option(
    "--workers", help="With --backend dask: start a local cluster of K worker processes for the "
                      "run (default: one per core).")]


# ---------------------------------------------------------------------------------------------
# The options exploit and styles begin with: one variant per --rules and per --variant (as
# quacks compare), the field, the strategy searched and its parameters


class SearchOptions(NamedTuple):
    """The options ``quacks exploit`` and ``styles`` begin with, in their ``--help`` order:
    the variants played, the field, the strategy searched and its parameters' ranges. Each
    field is typed with its option, so these fields are the declaration."""

    rules: Annotated[list[str] | None, typer.Option(
        "--rules", help="Built-in ruleset name or a TOML file (repeatable: each is one variant; "
        "the first is the one --variant changes). Default base.")] = None
    variant: Annotated[list[str] | None, typer.Option(
        "--variant", help="LABEL=section.key=value;section.key=value: the first --rules with "
        "these overrides, one more variant (repeatable; as quacks compare --variant).")] = None
    set_: set_option("in every variant") = None
    strategies: Annotated[str | None, typer.Option(
        "--strategies", help="The field: one spec for every other seat, or one per seat, "
        f"comma-separated. Default {','.join(DEFAULT_FIELD)}.")] = None
    candidate: Annotated[str | None, typer.Option(
        "--candidate", help="The strategy whose parameters are searched (its values are the "
        "start). Default: the field's first.")] = None
    param: Annotated[list[str] | None, typer.Option(
        "--param", help="A parameter of the candidate and its range, KEY=LO:HI (repeatable; "
        "default its own number parameters and a few of the common player's).")] = None

    def question_options(self) -> dict:
        """The keywords of ``sim.exploit`` and ``sim.styles`` these options give."""
        return {"rules": self.rules, "variant": self.variant, "set": self.set_,
                "strategies": self.strategies, "candidate": self.candidate, "param": self.param}


search_options = keyword_group(SearchOptions, "search", first=True)
"""Decorate ``quacks exploit`` or ``styles`` (``fn(..., search: SearchOptions)``): the
:class:`SearchOptions` first in its signature, gathered in ``search``."""


# ---------------------------------------------------------------------------------------------
# The options every study command ends with


class StudyRun(NamedTuple):
    """The run options of a study command, in the order its ``--help`` lists them (last): the
    report folder and its overwrite, the progress bar and JSON output, and how and where the
    games run. Each field is typed with its option, so these fields are the declaration."""

    out: StudyOutOpt = None
    force: StudyForceOpt = False
    quiet: QuietOpt = False
    json_: JsonOpt = False
    threads: ThreadsOpt = None
    strategy_file: StrategyFileOpt = None
    backend: BackendOpt = Backend.local
    scheduler: SchedulerOpt = None
    workers: WorkersOpt = None

    @property
    def hush(self) -> bool:
        """No progress bar, notes or compile notice (``--quiet`` or ``--json``)."""
        return self.quiet or self.json_

    def question_options(self) -> dict:
        """The keywords of a study question (``sim.sensitivity`` ...) these options give:
        ``out``, ``force`` and its :class:`~sim.questions.running.RunOptions` for where the games
        run."""
        return {"out": self.out, "force": self.force, "threads": self.threads,
                "strategy_file": self.strategy_file, "backend": self.backend,
                "scheduler": self.scheduler, "workers": self.workers}


def study_options(*, strategy_file: bool = True):
    """Decorate a study command ``fn(..., run: StudyRun)``: its signature, as Typer (and so
    ``--help``) reads it, gains the fields of :class:`StudyRun` after its own options (without
    ``--strategy-file`` when ``strategy_file`` is False), and ``fn`` is called with its own
    options and those gathered in ``run`` (:func:`sim.questions.running.keyword_group`)."""
    return keyword_group(StudyRun, "run", leave_out=() if strategy_file else ("strategy_file",))
