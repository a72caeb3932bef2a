"""``quacks styles``: how many ways to win? ``register(app)`` adds the command to a Typer app;
the work is ``sim.styles`` (:mod:`sim.questions.ask_styles`), handed the progress bar, the notes
and the compile notice. The tables (or one JSON object with ``--json``) go to stdout, progress
to stderr; a user error is one line ``error: ...`` with exit status 2 and writes nothing;
Ctrl-C exits 130 and writes nothing."""

from typing import Annotated

import typer
from rich.console import Console

from sim.cli import options as opt
from sim.study.exploit import defaults
from sim.study.styles.descriptors import DEFAULT_DESCRIPTORS, DESCRIPTORS


def print_result(res, console: Console) -> None:
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


def register(app: typer.Typer) -> None:
    """Add the ``styles`` command to a Typer app."""
    from sim.cli.printing import stdout_console

    out_console = stdout_console()

    @app.command()
    @opt.study_options()
    @opt.search_options
    def styles(
        rules_file: opt.RulesFileOpt = None,
        descriptors: Annotated[str | None, typer.Option(
            "--descriptors", help="The map's two behaviour descriptors, comma-separated: "
            f"{', '.join(d.name for d in DESCRIPTORS)}. Default "
            f"{','.join(DEFAULT_DESCRIPTORS)}.")] = None,
        players: opt.PlayersOpt = defaults.DEFAULT_PLAYERS,
        games: Annotated[int, typer.Option(
            help="Games per candidate of the search, rounded up to whole deals.")]
        = defaults.STYLE_GAMES,
        batch: opt.count_option(1, defaults.MAX_BATCH, "Candidates per step of the search.")
        = defaults.STYLE_BATCH,
        batches: opt.count_option(1, defaults.MAX_BATCHES, "Steps of the search.")
        = defaults.STYLE_BATCHES,
        retest_games: Annotated[int, typer.Option(
            "--retest-games", help="Games each elite plays again on fresh deals: the first "
            "half picks the best style, the other half measures every style.")]
        = defaults.STYLE_RETEST_GAMES,
        margin: Annotated[float, typer.Option(
            help="A style is viable within this much win share of the best.")]
        = defaults.STYLE_MARGIN,
        cells: opt.count_option(2, defaults.MAX_CELLS, "Cells of the map per descriptor.")
        = defaults.STYLE_CELLS,
        seed: opt.SearchSeedOpt = 1,
        *,
        search: opt.SearchOptions,
        run: opt.StudyRun,
    ) -> None:
        """How many ways to win? A quality-diversity map (MAP-Elites, pyribs) of the
        candidate's parameters against the field: each candidate placed by what it does in its
        games (how far it pushes its luck, where its rubies go, ...) and scored by its win
        share; every elite re-tested on fresh deals, and the styles within --margin of the best
        counted, with intervals, per variant."""
        from functools import partial

        from sim.cli.run_support import answer_study
        from sim.questions.ask_styles import styles as ask_styles

        answer_study(partial(
            ask_styles, **search.question_options(), descriptors=descriptors, players=players,
            games=games, batch=batch, batches=batches, retest_games=retest_games,
            margin=margin, cells=cells, seed=seed), run,
            print_result, out_console)
