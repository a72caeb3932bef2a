"""``quacks luck``: how much of a game's outcome is luck, and from which source; ``register(app)``
adds the command to a Typer app; the work is ``sim.luck`` (:mod:`sim.questions.ask_luck`). Tables
(or one JSON object with ``--json``) go to stdout, progress to stderr; a user error is one line
``error: ...`` with exit status 2 and writes nothing; Ctrl-C exits 130 and writes nothing."""

import sys
from typing import Annotated

import typer
from rich.console import Console

from sim.cli import options as opt


def print_result(res, console: Console) -> None:
    """The answer, the summary, the shares of seat 0's win (and of the other outcomes), the
    best-of-N table and, with variants, the differences of seat 0's win."""
    from sim.cli.sensitivity_cmd import table
    from sim.study.luck.design import OUTCOME_TEXT, OUTCOMES
    from sim.study.luck.report import (
        answer_lines,
        difference_rows,
        headline,
        match_rows,
        share_rows,
        summary_rows,
    )

    console.print(f"{headline(res)}; {res.seconds:.1f} s", markup=False, soft_wrap=True)
    for line in answer_lines(res):
        console.print(line, markup=False, soft_wrap=True)
    console.print(table("skill and luck (percent of the variance, 95% CI, rows as the unit)",
                        *summary_rows(res), left=2))
    for o in OUTCOMES:
        console.print(table(f"shares of the variance of {OUTCOME_TEXT[o]} (percent, 95% CI)",
                            *share_rows(res, o), left=1))
    console.print(table("best-of-N: games the stronger needs to win a match with 95% "
                        "probability", *match_rows(res), left=3))
    if "differences" in res.tables:
        console.print(table(f"differences of the total indices of {OUTCOME_TEXT['win']} "
                            "(paired by row)", *difference_rows(res, "win"), left=2))


def register(app: typer.Typer) -> None:
    """Add the ``luck`` command to a Typer app."""
    from sim.study.luck.defaults import DEFAULT_GAMES, DEFAULT_PLAYERS, DEFAULT_STRATEGIES

    out_console = Console(highlight=False, width=None if sys.stdout.isatty() else 200)

    @app.command()
    @opt.study_options()
    def luck(
        rules: Annotated[list[str] | None, typer.Option(
            "--rules", help="Built-in ruleset name or a TOML file (repeatable: each is one "
            "variant, played on the same games; the first is the reference, the one --variant "
            "changes). Default base.")] = None,
        rules_file: opt.RulesFileOpt = None,
        set_: opt.set_option("in every variant") = None,
        variant: Annotated[list[str] | None, typer.Option(
            "--variant", help="LABEL=RULES, LABEL=section.key=value;... or LABEL=RULES;"
            "section.key=value;...: another variant played on the same games beside --rules "
            "(repeatable; a label has no dot).")] = None,
        players: opt.PlayersOpt = DEFAULT_PLAYERS,
        strategies: Annotated[str | None, typer.Option(
            help="The lineup: strategy specs, comma-separated, cycled to fill the seats; "
            f"default {','.join(DEFAULT_STRATEGIES)} (a strong and a weak one).")] = None,
        games: Annotated[int, typer.Option(
            help="Games per variant, rounded down to whole rows of the design (a row plays "
            "one game per input and two more).")] = DEFAULT_GAMES,
        seed: Annotated[int, typer.Option(help="Run seed; every variant plays the same "
                                               "games.")] = 1,
        *,
        run: opt.StudyRun,
    ) -> None:
        """How much of a game is luck, and from where: each source of randomness (each seat's
        bag, the bonus die, the deck, the herb witches, the strategies' own draws) gets the
        share of the variance of seat 0's win, VP and rank it explains (first-order and total
        Sobol indices, 95% intervals), beside the skill side (which strategy sits where) and
        the best-of-N the stronger of two strategies needs to win with 95% probability."""
        from functools import partial

        from sim.cli.run_support import answer_study
        from sim.questions.ask_luck import luck as ask_luck

        answer_study(partial(
            ask_luck, rules=rules, set=set_, variant=variant, players=players,
            strategies=strategies, games=games, seed=seed), run, print_result, out_console)
