"""``quacks sensitivity``: how each ruleset knob moves the balance figures, on the same deals;
``register(app)`` adds the command to a Typer app; the work is ``sim.sensitivity``
(:mod:`sim.questions.ask_sensitivity`), handed the progress bar, the notes and the compile
notice. Tables (or one JSON object with ``--json``) go to stdout, progress to stderr; a user
error is one line ``error: ...`` with exit status 2 and writes nothing; Ctrl-C exits 130 and
writes nothing."""

import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from sim.cli import options as opt


def table(title: str, header: list[str], rows: list[list[str]], left: int = 2) -> Table:
    """A rich table: the first ``left`` columns left-aligned, the rest right-aligned."""
    from rich.markup import escape

    t = Table(title=escape(title), show_header=True, header_style="bold", title_justify="left")
    for i, h in enumerate(header):
        t.add_column(escape(h), justify="left" if i < left else "right")
    for r in rows:
        t.add_row(*(escape(c) for c in r))
    return t


def print_result(res, console: Console) -> None:
    """The header line, the ranking, the effects, each knob's values and the pair's grids."""
    from sim.study.design.sensitivity_report import (
        effect_rows,
        flags_line,
        headline,
        level_rows,
        no_effect_line,
        pair_rows,
        ranking_rows,
    )

    console.print(f"{headline(res)}; {res.seconds:.1f} s", markup=False, soft_wrap=True)
    console.print(table("knobs ranked by effect (rank [95% CI]: bootstrap over deals; "
                        "strength > 1: the CI excludes 0)", *ranking_rows(res), left=5))
    console.print(table("effects: the two values furthest apart, paired by deal (95% CI "
                        "simultaneous over the knob's pairs)", *effect_rows(res), left=3))
    console.print(flags_line(res), markup=False, soft_wrap=True)
    for k in res.plan.knobs:
        console.print(table(f"{k.key} (95% CI, deals as the unit)", *level_rows(res, k.key),
                            left=1))
    if "pair" in res.tables:
        for m in res.settings.metrics:
            console.print(table(f"{m} over {' x '.join(res.settings.pair)} (95% CI)",
                                *pair_rows(res, m), left=1))
    console.print(no_effect_line(res), markup=False, soft_wrap=True)


def register(app: typer.Typer) -> None:
    """Add the ``sensitivity`` command to a Typer app."""
    from sim.study.balance.settings import DEFAULT_PLAYERS
    from sim.study.design.defaults import DEFAULT_METRICS, DEFAULT_STEPS
    from sim.study.design.defaults import SENSITIVITY_GAMES as DEFAULT_GAMES

    out_console = Console(highlight=False, width=None if sys.stdout.isatty() else 200)

    @app.command()
    @opt.study_options()
    def sensitivity(
        knob: opt.KnobOpt = None,
        steps: Annotated[int, typer.Option(
            "--steps", help="Values of each KEY=LO:HI range, evenly spaced, both ends "
            "included.")] = DEFAULT_STEPS,
        rules: opt.RulesOpt = "base",
        rules_file: opt.RulesFileOpt = None,
        set_: opt.set_option("for every arm") = None,
        players: opt.PlayersOpt = DEFAULT_PLAYERS,
        field: opt.SeatedFieldOpt = None,
        games: Annotated[int, typer.Option(
            help="Games per value (and per cell of --pair), rounded up to whole deals (every "
            "seating of a deal).")] = DEFAULT_GAMES,
        seed: Annotated[int, typer.Option(help="Run seed; every value plays the same "
                                               "deals.")] = 1,
        pair: Annotated[tuple[str, str] | None, typer.Option(
            "--pair", metavar="A B", help="Two knob keys (given with --knob) also played on the "
            "grid of their values: a heat map of each figure.")] = None,
        metrics: Annotated[str | None, typer.Option(
            "--metrics", help="The balance figures analysed, comma-separated (the names of "
            f"quacks balance --json); default {','.join(DEFAULT_METRICS)}.")] = None,
        adjust: opt.AdjustOpt = "holm",
        *,
        run: opt.StudyRun,
    ) -> None:
        """How each ruleset knob moves the balance figures: every value of a knob on the same
        deals, each figure with its 95% interval clustered by deal, the response curves, the
        knobs ranked by their largest paired difference (the ones that do nothing named) and,
        with --pair, a two-knob heat map."""
        from functools import partial

        from sim.cli.run_support import answer_study
        from sim.questions.ask_sensitivity import sensitivity as ask_sensitivity

        answer_study(partial(
            ask_sensitivity, knob=knob, steps=steps, rules=rules, set=set_, players=players,
            field=field, games=games, seed=seed, pair=pair, metrics=metrics, adjust=adjust), run,
            print_result, out_console)
