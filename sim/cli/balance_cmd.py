"""``quacks balance``: a ruleset's balance report; ``register(app)`` adds the command to a Typer
app. Tables (or one JSON object with ``--json``) go to stdout, progress to stderr; a user error
is one line ``error: ...`` with exit status 2 and writes nothing; Ctrl-C exits 130 and writes
nothing. The checks and the run are ``sim.balance`` (:mod:`sim.questions.ask_balance`)."""

import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from sim.cli.common import compile_notice
from sim.cli.hooks import note_line
from sim.cli.options import RulesFileOpt, RulesOpt, SetOpt, StudyRun, study_options
from sim.cli.printing import print_table, stdout_console
from sim.study.balance.settings import (
    DEFAULT_FIELD,
    DEFAULT_GAMES,
    DEFAULT_PLAYERS,
    PARTS,
    STRONG,
    WEAK,
)

_KEY_COLUMNS = ("name", "n", "games", "seat-games", "deals")  # repeated in a split table


def _table(console: Console, title: str, header: list[str], rows: list[list[str]]) -> None:
    """Print one table; split to fit a narrow console, every part repeating the first column,
    the names and the counts, and leaving out a second name (the metric's or card's
    identifier beside its label; the report files and --json keep it)."""
    from sim.study.balance.report import numeric_columns

    second = [1 if header[1:2] == ["metric"] else 0 if header[1:2] == ["name"] else None]
    print_table(console, title, header, rows,
                keys=[i for i, h in enumerate(header) if i == 0 or h in _KEY_COLUMNS],
                drop=[d for d in second if d is not None],
                justify=["right" if right else "left"
                         for right in numeric_columns(header, rows)])


def print_result(res, files: list[str], out: Path | None, console: Console) -> None:
    """The header line and the tables: targets, the game, by round, skill, cards, witches,
    books."""
    from sim.study.balance.report import (
        TITLES,
        decided_note,
        effect_rows,
        game_rows,
        headline,
        rank_note,
        round_rows,
        skill_rows,
        target_rows,
    )

    T = res.tables
    console.print(f"{headline(res)}; {res.seconds:.1f} s", markup=False)
    if T["targets"] is not None and len(T["targets"]):
        _table(console, "targets (pass: the 95% CI inside the band; fail: wholly outside; "
               "undecided: it straddles an edge)", *target_rows(T["targets"]))
    if T["game"] is not None:
        _table(console, "the game (95% CI, deals as the unit)", *game_rows(T["game"]))
        _table(console, "by round (95% CI)", *round_rows(T["game"]))
        console.print(decided_note(res.plan.rounds), markup=False)
    if T["skill"] is not None:
        _table(console, "skill (95% CI; the gap paired by deal)", *skill_rows(T["skill"]))
    for part in ("cards", "witches", "books"):
        df = T[part]
        if df is not None:
            if len(df):
                _table(console, f"{TITLES[part].lower()} (95% CI; ranks: bootstrap over "
                       "deals)", *effect_rows(df))
                console.print(rank_note(part, df), markup=False)
            else:
                console.print(f"{TITLES[part].lower()}: none in this ruleset", markup=False)
    for n in res.notes:
        console.print(f"note: {n}", markup=False)
    if out is not None:
        console.print(f"report: {out}/ ({', '.join(files)})", markup=False)


@contextmanager
def phase_progress(quiet: bool):
    """``update(part, done, total)``: a progress bar on stderr naming the part being played
    (a spinner for a part that does not count its games); nothing when quiet or not a tty."""
    if quiet or not sys.stderr.isatty():
        yield lambda part, done, total: None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    prog = Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(bar_width=24),
                    MofNCompleteColumn(), TextColumn("games,"), TimeElapsedColumn(),
                    console=Console(stderr=True), transient=True)
    task = prog.add_task("balance", total=None)

    def update(part: str, done: int | None, total: int | None) -> None:
        prog.update(task, description=f"balance: {part}", completed=done or 0, total=total)

    with prog:
        yield update


def register(app: typer.Typer) -> None:
    """Add the ``balance`` command to a Typer app."""

    @app.command()
    @study_options(strategy_file=False)
    def balance(
        rules: RulesOpt = "base",
        rules_file: RulesFileOpt = None,
        set_: SetOpt = None,
        players: Annotated[int, typer.Option(
            help="Seats per game (2-4; 2-5 with herb-witches).")] = DEFAULT_PLAYERS,
        field: Annotated[str | None, typer.Option(
            "--field", help="The strategies seated for the game figures and the cards, witches "
            "and books, comma-separated (cycled to fill the seats). Default "
            f"{','.join(DEFAULT_FIELD)}.")] = None,
        games: Annotated[int, typer.Option(
            help="Games per part, rounded up to whole deals (every seating of a deal).")]
        = DEFAULT_GAMES,
        seed: Annotated[int, typer.Option(help="Run seed; every part plays the same deals.")] = 1,
        strong: Annotated[str, typer.Option(
            "--strong", help="Skill: the strongest strategy, in one seat against --weak.")]
        = STRONG,
        weak: Annotated[str | None, typer.Option(
            "--weak", help="Skill: the weakest sensible strategies, cycled into the other seats; "
            f"the first also plays against copies of --strong. Default {','.join(WEAK)}.")]
        = None,
        parts: Annotated[str | None, typer.Option(
            "--parts", help=f"The measurements to make, comma-separated (default all: "
            f"{','.join(PARTS)}).")] = None,
        targets: Annotated[Path | None, typer.Option(
            "--targets", help="A TOML file of target bands (each metric = a list of two "
            "numbers, low and high), checked as pass / fail / undecided.")] = None,
        *,
        run: StudyRun,
    ) -> None:
        """A ruleset's balance: win share by seat, catch-up, lead changes, ties, the spread of
        the winner's VP and margin, explosions by round, how much skill pays, each card's,
        witch's and book's effect and rank (with the rank's 95% interval, a bootstrap over
        deals), and target bands; every figure with its 95% interval clustered by deal, every
        part on the same deals; figures the rules decide (the last round's catch-up) are left
        out."""
        from sim.cli.run_support import ask_guarded, run_errors, show_study
        from sim.cli.user_input import USER_ERRORS
        from sim.questions.ask_balance import balance as ask_balance

        hush = run.hush
        report = ask_guarded(  # the settings' errors; once the games run, only run_errors
            lambda bar: ask_balance(
                rules=rules, set=set_, players=players, field=field, games=games, seed=seed,
                strong=strong, weak=weak, parts=parts, targets=targets, out=run.out,
                force=run.force, threads=run.threads, backend=run.backend,
                scheduler=run.scheduler, workers=run.workers,
                progress=bar, on_note=note_line(hush),
                on_compile=lambda entry: compile_notice(entry, quiet=hush)),
            lambda: phase_progress(hush), errors=(*USER_ERRORS, OSError), later=run_errors())
        show_study(report.result, report.written, run.out, json_=run.json_,
                   show=lambda res, files: print_result(res, files, run.out, stdout_console()))
