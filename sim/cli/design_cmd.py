"""``quacks design``: a search for the rule values that put every target figure inside its
band; ``register(app)`` adds the command to a Typer app; the work is ``sim.design``
(:mod:`sim.questions.ask_design`), handed the progress bar, the notes and the compile notice.
Tables (or one JSON object with
``--json``) go to stdout, progress to stderr; a user error is one line ``error: ...`` with exit
status 2 and writes nothing; Ctrl-C exits 130 and writes nothing."""

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from sim.cli import options as opt
from sim.cli.sensitivity_cmd import table

SIDE_EFFECTS_SHOWN = 8  # the strongest side effects printed (report.md has them all)


def print_result(res, console: Console) -> None:
    """The header, the loss, the best rules, the re-test's targets table, the strategies and
    (when the bands are not all met) the Pareto front."""
    from sim.study.design.design import strategies_note
    from sim.study.design.design_report import (
        best_line,
        candidate_rows,
        final_arm,
        headline,
        side_effect_rows,
        side_effect_text,
        target_rows,
        verdict_line,
    )
    from sim.study.design.loss import LOSS_TEXT

    console.print(f"{headline(res)}; {res.seconds:.1f} s", markup=False, soft_wrap=True)
    console.print(res.stop_text(), markup=False, soft_wrap=True)
    console.print(LOSS_TEXT, markup=False, soft_wrap=True)
    console.print(best_line(res), markup=False, soft_wrap=True)
    console.print(table("targets on the re-test (pass: the 95% CI inside the band; fail: wholly "
                        "outside; undecided: it straddles an edge)", *target_rows(res)))
    console.print(f"verdict: {verdict_line(res)}", markup=False, soft_wrap=True)
    arm = final_arm(res)
    header, rows = side_effect_rows(res, arm, most=SIDE_EFFECTS_SHOWN)
    console.print(f"side effects: {side_effect_text(res, arm)}", markup=False, soft_wrap=True)
    if rows:
        console.print(table(f"side effects: other figures moved ({arm} - start)", header, rows))
    else:
        console.print("side effects: none", markup=False, soft_wrap=True)
    console.print(strategies_note(res), markup=False, soft_wrap=True)
    pareto = res.tables["pareto"]
    if len(res.plan.bands) > 1 and len(pareto) and res.best["loss"] > 0:
        console.print(table("Pareto front (the bands are not all met together: no candidate "
                            "beats these on every band)", *candidate_rows(res, pareto),
                            left=len(res.plan.knobs)))


def register(app: typer.Typer) -> None:
    """Add the ``design`` command to a Typer app."""
    from sim.study.balance.settings import DEFAULT_PLAYERS
    from sim.study.design.defaults import DESIGN_BUDGET, RETUNE_BUDGET

    out_console = Console(highlight=False, width=None if sys.stdout.isatty() else 200)

    @app.command()
    @opt.study_options()
    def design(
        targets: Annotated[Path | None, typer.Option(
            "--targets", help="A TOML file of target bands (quacks balance's: each figure = "
            "[low, high], e.g. seat0_win_share = [0.24, 0.26]).")] = None,
        target: Annotated[list[str] | None, typer.Option(
            "--target", help="A band on the command line instead of a file: METRIC=LO:HI, e.g. "
            "seat0_win_share=0.24:0.26 (repeatable).")] = None,
        knob: opt.KnobOpt = None,
        budget: Annotated[int, typer.Option(
            "--budget", help="Games the search may play (the re-tune and the re-test come on "
            "top).")] = DESIGN_BUDGET,
        seed: Annotated[int, typer.Option(help="Run seed; every candidate plays the same "
                                               "deals.")] = 1,
        rules: opt.RulesOpt = "base",
        rules_file: opt.RulesFileOpt = None,
        set_: opt.set_option("for every candidate") = None,
        players: opt.PlayersOpt = DEFAULT_PLAYERS,
        field: opt.SeatedFieldOpt = None,
        first_rung: Annotated[int | None, typer.Option(
            "--first-rung", help="Deals of the first successive-halving rung (default: the "
            "budget's deals / 200, at least 2).")] = None,
        retest_games: Annotated[int | None, typer.Option(
            "--retest-games", help="Games of the re-test on fresh deals, per arm (default: the "
            "longest rung's).")] = None,
        retune: Annotated[str | None, typer.Option(
            "--retune", help="A preset of the field for quacks tune to adapt to the best rules "
            "before the re-test (default: the field re-tunes nothing).")] = None,
        retune_param: Annotated[list[str] | None, typer.Option(
            "--retune-param", help="A parameter of --retune and its range, KEY=LO:HI "
            "(repeatable; default: its first number parameter over its whole range).")] = None,
        retune_budget: Annotated[int, typer.Option(
            "--retune-budget", help="Games quacks tune may play for --retune.")] = RETUNE_BUDGET,
        adjust: opt.AdjustOpt = "holm",
        *,
        run: opt.StudyRun,
    ) -> None:
        """Find the rule values that put every target figure inside its band: Optuna over the
        knobs, every candidate on the same deals, successive halving as quacks tune, then a
        re-test of the best on fresh deals (each target pass, fail or undecided) and the
        Pareto front when the bands conflict."""
        from functools import partial

        from sim.cli.run_support import answer_study
        from sim.questions.ask_design import design as ask_design

        answer_study(partial(
            ask_design, targets=targets, target=target, knob=knob, budget=budget, seed=seed,
            rules=rules, set=set_, players=players, field=field, first_rung=first_rung,
            retest_games=retest_games, retune=retune, retune_param=retune_param,
            retune_budget=retune_budget, adjust=adjust), run,
            print_result, out_console)
