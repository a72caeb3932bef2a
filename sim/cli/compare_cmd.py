"""``quacks compare``: the same field of strategies under two or more rulesets or variants, on the
same deals; ``register(app)`` adds the command to a Typer app. Tables (or one JSON object with
``--json``) go to stdout, progress to stderr; a user error is one line ``error: ...`` with exit
status 2 and writes nothing; Ctrl-C exits 130 and writes nothing. The checks and the run are
``sim.compare`` (:mod:`sim.questions.ask_compare`)."""

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from sim.cli.common import (
    FieldOpt,
    JsonOpt,
    QuietOpt,
    RulesFileOpt,
    StrategyFileOpt,
    StudyForceOpt,
    ThreadsOpt,
    compile_notice,
)
from sim.cli.options import seats_option, set_option
from sim.cli.printing import print_table, stdout_console
from sim.study.tournament.defaults import DEFAULT_GAMES

# Every error of the settings is a ValueError subclass (ruleset, strategy spec, strategy file,
# players, compare's own), or an OSError for a strategy file or --out (sim.compare raises them).
USER_ERRORS = (ValueError, OSError)


def _table(console: Console, title: str, header: list[str], rows: list[list[str]],
           counted: bool = True) -> None:
    """Print one table; split to fit a narrow console, every part repeating the first column
    and (``counted``) the last, the count."""
    print_table(console, title, header, rows, keys=(0, -1) if counted else (0,))


def print_result(res, files: list[str], out: Path | None, console: Console) -> None:
    """The header line, the tables (metrics, differences, strategies' win share), the notes
    and the line naming the report folder and its ``files`` (with ``out``)."""
    from sim.study.compare.report import difference_rows, metric_rows, strategy_rows

    p = res.plans[0]
    console.print(f"{res.games:,} games per ruleset ({res.deals:,} deals x {p.games_per_deal} "
                  f"seatings), {res.players} players, field {','.join(p.names)}, seed "
                  f"{res.config.seed}; {res.seconds:.1f} s", markup=False)
    for label, plan in zip(res.labels, res.plans):
        console.print(f"  {label}: {plan.ruleset.display}", markup=False)
    _table(console, "per ruleset (95% CI, deals as the unit)", *metric_rows(res))
    _table(console, f"paired differences to {res.labels[0]} (95% CI over deals; * excludes 0)",
           *difference_rows(res), counted=False)
    if res.sequential is not None:
        from sim.study.compare.report import sequential_rows

        st = res.sequential
        _table(console, f"sequential stop: {st.games:,} of {st.budget_games:,} games per ruleset "
               f"({'every question decided' if st.run.decided else 'budget spent'}; "
               f"{st.games_saved:,} games saved)", *sequential_rows(res), counted=False)
    _table(console, "win share by strategy (95% CI)", *strategy_rows(res))
    console.print(f"game length: the total of a player's reward spaces over the game; round-"
                  f"{res.config.leader_round} leader: tied leaders count as one picked at random; "
                  "seat 1 starts round 1", markup=False)
    for n in res.notes:
        console.print(f"note: {n}", markup=False)
    if out is not None:
        console.print(f"report: {out}/ ({', '.join(files)})", markup=False)


def register(app: typer.Typer) -> None:
    """Add the ``compare`` command to a Typer app."""

    @app.command()
    def compare(
        rules: Annotated[list[str] | None, typer.Option(
            "--rules", help="Built-in ruleset name or a TOML file (repeatable: each is one "
            "ruleset; the first is the reference). Default base.")] = None,
        rules_file: RulesFileOpt = None,
        variant: Annotated[list[str] | None, typer.Option(
            "--variant", help="LABEL=section.key=value;section.key=value: the first --rules with "
            "these overrides (repeatable; a label has no dot; without LABEL= the overrides name "
            "it).")] = None,
        set_: set_option("in every ruleset") = None,
        strategies: FieldOpt = None,
        players: seats_option(" and the presets") = None,
        games: Annotated[int | None, typer.Option(
            help="Games per ruleset, rounded up to whole deals (every seating of a deal). Default "
            f"{DEFAULT_GAMES:,}.")] = None,
        seed: Annotated[int, typer.Option(
            help="Run seed; every ruleset plays the same deals.")] = 1,
        leader_round: Annotated[int, typer.Option(
            "--leader-round",
            help="The round after which the leader is taken for 'leader wins'.")] = 6,
        sequential: Annotated[bool, typer.Option(
            "--sequential", help="Play the deals in batches and stop once every question (each "
            "ruleset's difference to the first in mean VP, explosions per potion and each "
            "strategy's win share) is decided by a 95% anytime-valid confidence sequence; "
            "--games is the budget.")] = False,
        width: Annotated[float | None, typer.Option(
            "--width", help="With --sequential: a question is also decided once its interval "
            "is within +-W (in the figure's own units: VP for mean VP).")] = None,
        out: Annotated[Path | None, typer.Option(
            help="Write a report folder: parquet tables, PNG plots, report.md, run.json.")] = None,
        force: StudyForceOpt = False,
        quiet: QuietOpt = False,
        json_: JsonOpt = False,
        threads: ThreadsOpt = None,
        strategy_file: StrategyFileOpt = None,
    ) -> None:
        """Compare rulesets side by side: the same field on the same deals under each ruleset or
        variant; score level and spread, explosions, game length, seat advantage, the round-6
        leader, each strategy's win share, and the paired differences to the first ruleset."""
        from sim.cli.run_support import ask_guarded, progress_bar, show_study
        from sim.questions.ask_compare import compare as ask_compare

        report = ask_guarded(  # the settings' errors; once the games run, only writing --out
            lambda bar: ask_compare(
                rules=rules, variant=variant, set=set_, strategies=strategies,
                players=players, games=games, seed=seed, leader_round=leader_round,
                sequential=sequential, width=width, out=out,
                force=force, threads=threads, strategy_file=strategy_file, progress=bar,
                on_compile=lambda entry: compile_notice(entry, quiet=quiet,
                                                        progress=not json_)),
            lambda: progress_bar(quiet, "compare"), errors=USER_ERRORS, later=(OSError,))
        show_study(report.result, report.written, out, json_=json_,
                   show=lambda res, files: print_result(res, files, out, stdout_console()))
