"""``quacks styles``: how many ways to win? ``register(app)`` adds the command to a Typer app;
the work is ``sim.styles`` (:mod:`sim.questions.ask_styles`), handed the progress bar, the notes
and the compile notice. The tables (or one JSON object with ``--json``) go to stdout, progress
to stderr; a user error is one line ``error: ...`` with exit status 2 and writes nothing;
Ctrl-C exits 130 and writes nothing."""

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from sim.cli.common import (
    Backend,
    BackendOpt,
    JsonOpt,
    QuietOpt,
    RulesFileOpt,
    SchedulerOpt,
    StrategyFileOpt,
    StudyForceOpt,
    StudyOutOpt,
    ThreadsOpt,
    WorkersOpt,
)
from sim.cli.exploit_cmd import RULES_HELP, SET_HELP, VARIANT_HELP
from sim.study.exploit.defaults import (
    DEFAULT_FIELD,
    DEFAULT_PLAYERS,
    MAX_BATCH,
    MAX_BATCHES,
    MAX_CELLS,
    STYLE_BATCH,
    STYLE_BATCHES,
    STYLE_CELLS,
    STYLE_GAMES,
    STYLE_MARGIN,
    STYLE_RETEST_GAMES,
)
from sim.study.styles.descriptors import DEFAULT_DESCRIPTORS, DESCRIPTORS


def print_result(res, files: list[str], out: Path | None, console: Console) -> None:
    """The header line, the counts by variant and each variant's styles."""
    from sim.cli.printing import print_table
    from sim.study.styles.report import headline, style_rows, summary_rows

    console.print(f"{headline(res)}; {res.seconds:.1f} s", markup=False, soft_wrap=True)
    print_table(console, "viable styles by variant (95% CI)", *summary_rows(res))
    for v in res.tables["summary"]["variant"]:
        header, rows = style_rows(res, v)
        print_table(console, f"{v}: styles, best first (re-tested; vs best paired by deal)",
                    header[:-1], [r[:-1] for r in rows], keys=(0, 1),
                    justify=["right"] * (len(header) - 2) + ["left"])
        best = rows[0][-1] if rows else "none"
        console.print(f"{v}: best style {best}", markup=False, soft_wrap=True)
    if out is not None:
        console.print(f"report: {out}/ ({', '.join(files)})", markup=False, soft_wrap=True)


def register(app: typer.Typer) -> None:
    """Add the ``styles`` command to a Typer app."""
    from sim.cli.printing import stdout_console

    out_console = stdout_console()

    @app.command()
    def styles(
        rules: Annotated[list[str] | None, typer.Option("--rules", help=RULES_HELP)] = None,
        rules_file: RulesFileOpt = None,
        variant: Annotated[list[str] | None, typer.Option("--variant", help=VARIANT_HELP)]
        = None,
        set_: Annotated[list[str] | None, typer.Option("--set", help=SET_HELP)] = None,
        strategies: Annotated[str | None, typer.Option(
            "--strategies", help="The field: one spec for every other seat, or one per seat, "
            f"comma-separated. Default {','.join(DEFAULT_FIELD)}.")] = None,
        candidate: Annotated[str | None, typer.Option(
            "--candidate", help="The strategy whose parameters are mapped (its values are the "
            "start). Default: the field's first.")] = None,
        param: Annotated[list[str] | None, typer.Option(
            "--param", help="A parameter of the candidate and its range, KEY=LO:HI (repeatable; "
            "default as quacks exploit).")] = None,
        descriptors: Annotated[str | None, typer.Option(
            "--descriptors", help="The map's two behaviour descriptors, comma-separated: "
            f"{', '.join(d.name for d in DESCRIPTORS)}. Default "
            f"{','.join(DEFAULT_DESCRIPTORS)}.")] = None,
        players: Annotated[int, typer.Option(help="Seats per game.")] = DEFAULT_PLAYERS,
        games: Annotated[int, typer.Option(
            help="Games per candidate of the search, rounded up to whole deals.")] = STYLE_GAMES,
        batch: Annotated[int, typer.Option(
            min=1, max=MAX_BATCH, metavar="<int>", help="Candidates per step of the search.")]
        = STYLE_BATCH,
        batches: Annotated[int, typer.Option(
            min=1, max=MAX_BATCHES, metavar="<int>", help="Steps of the search.")]
        = STYLE_BATCHES,
        retest_games: Annotated[int, typer.Option(
            "--retest-games", help="Games each elite plays again on fresh deals.")]
        = STYLE_RETEST_GAMES,
        margin: Annotated[float, typer.Option(
            help="A style is viable within this much win share of the best.")] = STYLE_MARGIN,
        cells: Annotated[int, typer.Option(
            min=2, max=MAX_CELLS, metavar="<int>", help="Cells of the map per descriptor.")]
        = STYLE_CELLS,
        seed: Annotated[int, typer.Option(
            help="Run seed: the search plays its deals, the re-test those of seed + 1000003.")]
        = 1,
        out: StudyOutOpt = None,
        force: StudyForceOpt = False,
        quiet: QuietOpt = False,
        json_: JsonOpt = False,
        threads: ThreadsOpt = None,
        strategy_file: StrategyFileOpt = None,
        backend: BackendOpt = Backend.local,
        scheduler: SchedulerOpt = None,
        workers: WorkersOpt = None,
    ) -> None:
        """How many ways to win? A quality-diversity map (MAP-Elites, pyribs) of the
        candidate's parameters against the field: each candidate placed by what it does in its
        games (how far it pushes its luck, where its rubies go, ...) and scored by its win
        share; every elite re-tested on fresh deals, and the styles within --margin of the best
        counted, with intervals, per variant."""
        from functools import partial

        from sim.cli.run_support import ask_study, show_study
        from sim.questions.ask_styles import styles as ask_styles

        report = ask_study(partial(
            ask_styles, rules=rules, variant=variant, set=set_, strategies=strategies,
            candidate=candidate, param=param, descriptors=descriptors, players=players,
            games=games, batch=batch, batches=batches, retest_games=retest_games,
            margin=margin, cells=cells, seed=seed, out=out, force=force, threads=threads,
            strategy_file=strategy_file, backend=backend, scheduler=scheduler, workers=workers,
            argv=sys.argv), quiet=quiet or json_)
        show_study(report.result, report.written, out, json_=json_,
                   show=lambda res, files: print_result(res, files, out, out_console))
