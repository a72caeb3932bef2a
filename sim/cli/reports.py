"""The report commands ``tournament``, ``sweep`` and ``plot``: ``register(app)`` adds them to a
Typer app. Results go to stdout (tables, or one JSON object with ``--json``), progress and notes
to stderr; a user error is one line ``error: ...`` on stderr with exit status 2; Ctrl-C keeps
every finished chunk and exits 130 with the command that resumes the run.
"""

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from sim.cli.common import (
    Backend,
    BackendOpt,
    FieldOpt,
    JsonOpt,
    RulesFileOpt,
    SchedulerOpt,
    SetOpt,
    StrategyFileOpt,
    ThreadsOpt,
    WorkersOpt,
    compile_notice,
    fail,
)
from sim.cli.hooks import note_line, when_work_starts
from sim.cli.options import seats_option
from sim.cli.printing import print_table, stdout_console
from sim.cli.run_support import (
    default_out,
    progress_bar,
    run_errors,
    sigterm_as_interrupt,
    user_errors,
)
from sim.study.reports.saved import nothing_to_resume
from sim.study.tournament.defaults import DEFAULT_CI_CAP, DEFAULT_GAMES

# The study layer (pandas, pyarrow, matplotlib, the kernels) is imported inside the commands and
# the functions below, never at module level, so quacks --help starts at once.


class Format(str, Enum):
    """Tournament formats."""

    rotate = "rotate"
    round_robin = "round-robin"
    vs_field = "vs-field"


class Detail(str, Enum):
    """How much is recorded per game."""

    games = "games"
    rounds = "rounds"


# options of tournament and sweep beside common.py's (None: the default, or with --resume the
# interrupted run's setting)
RunRulesOpt = Annotated[str | None, typer.Option(
    "--rules", help="Built-in ruleset name or a TOML file (default base).")]
RunForceOpt = Annotated[bool, typer.Option(
    "--force", help="Overwrite the report in a non-empty --out.")]
RunQuietOpt = Annotated[bool, typer.Option(
    "--quiet", help="No progress bar and no notes on stderr.")]
SWEEP_PREFIX = "sweep-"  # a sweep's default report folder: ./reports/sweep-<timestamp>/


def run_out_option(prefix: str = ""):
    """The type of the ``--out`` option of a run that writes to ``default_out(prefix)`` when it
    is not given."""
    return Annotated[Path | None, typer.Option(
        help=f"Report directory. Default: ./reports/{prefix}<timestamp>/.")]


def _sweep_interrupted(target: Path) -> str:
    """The line an interrupted sweep prints: what is kept and the command that resumes it."""
    if nothing_to_resume(target):
        return f"interrupted before the sweep kept anything in {target}; run it again to start"
    return (f"interrupted: finished chunks kept in {target}; continue with: "
            f"quacks sweep --out {target} --resume")


def _answer(res, json_: bool, show) -> None:
    """A run's answer on stdout: its result's JSON (``--json``) or ``show(res)``."""
    if json_:
        from sim.study.reports.files import dumps

        typer.echo(dumps(res.to_json()))
        return
    show(res)


def _compile_hook(quiet: bool, json_: bool):
    """The API's ``on_compile``: the compile notice (its live line not under --json)."""
    return lambda entry: compile_notice(entry, quiet=quiet, progress=not json_)


_KEY_COLUMNS = ("A", "B", "games", "deals")  # the names and counts of the tables below


def _print_result(res, console: Console) -> None:
    from sim.api.events import plural
    from sim.study.reports.markdown import (
        head_to_head_counts,
        head_to_head_rows,
        pair_rows,
        seat_rows,
        strategy_rows,
    )

    s = res.plan.settings()
    cap = ""
    if s["until_ci"] is not None:
        kind = "confidence sequence" if s.get("sequential") else "interval"
        if res.stopped == "until-ci":
            cap = (f"; every win-share {kind} within +-{s['until_ci']:g} after {res.games:,} "
                   f"games")
        else:
            cap = (f"; reached the cap of {res.games:,} games (widest win-share {kind} "
                   f"half-width {res.max_halfwidth:.4f} > {s['until_ci']:g})")
    gps = f" ({res.games_per_second:,.0f} games/s)" if res.seconds_total > 0 else ""
    play = res.seconds_total - res.report_seconds
    rep = f", report {res.report_seconds:.1f} s" if res.report_seconds > 0 else ""
    deals = f"{res.deals:,} {'deal' if res.deals == 1 else 'deals'}"
    seatings = plural(res.plan.games_per_deal, "seating")
    console.print(f"{res.games:,} {'game' if res.games == 1 else 'games'} ({deals} x {seatings}), "
                  f"{s['players']} players, format {s['format']}, seed {s['seed']}, rules "
                  f"{res.plan.ruleset.display}; {play:.1f} s{gps}{rep}{cap}", markup=False)
    h2h = res.summary.head_to_head
    if h2h is not None and len(h2h):  # round-robin with more strategies than seats
        h2h_table = (f"head to head: A's win share vs B (95% CI; "
                     f"{head_to_head_counts(h2h)})", head_to_head_rows(h2h))
    else:
        h2h_table = ("", ([], []))
    for title, (header, rows) in (("strategies (95% CI)", strategy_rows(res.summary.strategies)),
                                  ("paired differences per deal (95% CI)",
                                   pair_rows(res.summary.pairs) if len(res.summary.pairs)
                                   else ([], [])),
                                  h2h_table,
                                  ("seats (95% CI)", seat_rows(res.summary.seats))):
        if not rows:
            continue
        # narrow: the names and the games/deals column repeat in every part of a split table
        print_table(console, title, header, rows,
                    keys=[i for i, h in enumerate(header) if i == 0 or h in _KEY_COLUMNS],
                    justify=["left" if i == 0 or h in ("A", "B") else "right"
                             for i, h in enumerate(header)],
                    split_header=[f"{header[i - 1].removesuffix(' [95% CI]')} {h}"
                                  if h == "(if unpaired)" else h for i, h in enumerate(header)])
    if res.summary.info.get("rating_note"):
        console.print(f"rating: {res.summary.info['rating_note']}")
    if res.out is not None:
        console.print(f"report: {res.out}/ ({', '.join(res.files)})")


def _print_sweep(res, console: Console) -> None:
    """The sweep's header line and table (values, focus results, paired difference to baseline)."""
    from sim.api.events import plural
    from sim.rules.ruleset import rules_label

    st = res.settings
    keys = st.get("keys") or [st["key"]]
    grid = len(keys) > 1
    b = res.baseline
    console.print(f"sweep of {' x '.join(keys)} for {st['strategy']} vs {','.join(st['vs'])}: "
                  f"{plural(len(res.table), 'cell' if grid else 'value')} x {st['games']:,} "
                  f"{'game' if st['games'] == 1 else 'games'}, "
                  f"{st['players']} players, seed {st['seed']}, rules "
                  f"{rules_label(st['rules'], st.get('overrides') or [])}; {res.seconds:.1f} s",
                  markup=False)
    console.print(f"baseline {b['spec']}"
                  + ("" if b["in_grid"] else " (played on the same deals: win share "
                     f"{b['win_share']:.4f})")
                  + "; differences are paired over deals (95% CI)")
    header = (*keys, "strategy", "games", "win share [95% CI]", "mean VP [95% CI]",
              "explosions/potion [95% CI]", "win share - baseline", "VP - baseline")
    rows = []
    for r in res.table.to_dict(orient="records"):
        vals = [f"{r['value']:g}"] + ([f"{r['value2']:g}"] if grid else [])
        if r["baseline"]:
            vals[-1] = f"*{vals[-1]}"
        rows.append([*vals, str(r["strategy"]), f"{int(r['games']):,}",
                     f"{r['win_share']:.4f} [{r['win_share_ci_lo']:.4f}, "
                     f"{r['win_share_ci_hi']:.4f}]",
                     f"{r['mean_vp']:.2f} [{r['mean_vp_ci_lo']:.2f}, {r['mean_vp_ci_hi']:.2f}]",
                     f"{r['explosion_rate']:.4f} [{r['explosion_rate_ci_lo']:.4f}, "
                     f"{r['explosion_rate_ci_hi']:.4f}]",
                     f"{r['win_share_diff']:+.4f} [{r['win_share_diff_ci_lo']:+.4f}, "
                     f"{r['win_share_diff_ci_hi']:+.4f}]",
                     f"{r['vp_diff']:+.2f} [{r['vp_diff_ci_lo']:+.2f}, {r['vp_diff_ci_hi']:+.2f}]"])
    n_keys = len(keys) + 2  # the values, the strategy and its games repeat in every part
    print_table(console, "", header, rows, keys=range(n_keys),
                justify=["left" if h == "strategy" else "right" for h in header])
    if any(res.table["baseline"]):
        console.print("* the baseline")
    if res.sequential_alpha is not None:
        t = res.table
        console.print(f"sequential: every value stopped once its differences were decided "
                      f"(confidence sequences, level {res.sequential_alpha:.3g} each); "
                      f"{int(t['games_saved'].sum()):,} of {len(t) * st['games']:,} games saved; "
                      f"undecided: {int((t['decided'] == False).sum())}",  # noqa: E712
                      markup=False)


def register(app: typer.Typer) -> None:
    """Add the ``tournament``, ``sweep`` and ``plot`` commands to a Typer app."""

    @app.command()
    def tournament(
        strategies: FieldOpt = None,
        players: seats_option(", the presets and vs-field") = None,
        games: Annotated[int | None, typer.Option(
            help="Games to play, rounded up to whole deals (every seating of a deal). Default "
            f"{DEFAULT_GAMES:,}; with --until-ci the cap (default {DEFAULT_CI_CAP:,}).")] = None,
        seed: Annotated[int | None, typer.Option(help="Run seed (default 1).")] = None,
        out: run_out_option() = None,
        rules: RunRulesOpt = None,
        rules_file: RulesFileOpt = None,
        set_: SetOpt = None,
        format_: Annotated[Format | None, typer.Option(
            "--format", help="rotate: every deal in every seat rotation; round-robin: every "
            "combination of --players strategies from the pool; vs-field: the first strategy "
            "against copies of the rest. Default: rotate, or round-robin with more strategies than "
            "seats.")] = None,
        until_ci: Annotated[float | None, typer.Option(
            "--until-ci", help="Add chunks of games until every strategy's 95% win-share interval "
            "is within +-W (capped by --games).")] = None,
        sequential: Annotated[bool, typer.Option(
            "--sequential", help="With --until-ci: stop by 95% anytime-valid confidence "
            "sequences, valid however often the run looks (the fixed intervals are not); the "
            "win-share intervals reported are the sequences'.")] = False,
        detail: Annotated[Detail | None, typer.Option(
            help="games: games.parquet; rounds: also rounds.parquet and the per-round "
            "plots.")] = None,
        resume: Annotated[bool, typer.Option(
            "--resume", help="Continue the interrupted run in --out (options not given are taken "
            "from it).")] = False,
        force: RunForceOpt = False,
        quiet: RunQuietOpt = False,
        json_: JsonOpt = False,
        threads: ThreadsOpt = None,
        plots: Annotated[bool, typer.Option("--plots/--no-plots",
                                            help="Draw the PNG plots.")] = True,
        strategy_file: StrategyFileOpt = None,
        backend: BackendOpt = Backend.local,
        scheduler: SchedulerOpt = None,
        workers: WorkersOpt = None,
    ) -> None:
        """Play a seat-balanced tournament and write a report (parquet, CSV, markdown, PNG,
        run.json)."""
        from sim.questions.ask_tournament import TournamentInputError
        from sim.questions.ask_tournament import tournament as ask_tournament
        from sim.study.tournament.errors import RunInterrupted

        try:
            with sigterm_as_interrupt(), \
                    when_work_starts(lambda: progress_bar(quiet, "tournament")) as bar:
                report = ask_tournament(
                    strategies=strategies, players=players, games=games, seed=seed,
                    out=out if out is not None or resume else default_out(), rules=rules,
                    set=set_, format=format_, until_ci=until_ci,
                    sequential=sequential or None, detail=detail, resume=resume,
                    force=force, threads=threads, plots=plots, strategy_file=strategy_file,
                    backend=backend, scheduler=scheduler, workers=workers, progress=bar,
                    on_note=note_line(quiet), on_compile=_compile_hook(quiet, json_),
                    argv=sys.argv)
        except RunInterrupted as e:
            typer.echo(f"interrupted: {e.games_done:,} games kept in {e.out}; continue with: "
                       f"quacks tournament --out {e.out} --resume", err=True)
            raise typer.Exit(130) from None
        except (TournamentInputError, *run_errors()) as e:
            fail(str(e))
        _answer(report.result, json_, lambda res: _print_result(res, stdout_console()))

    @app.command()
    def sweep(
        strategy: Annotated[str | None, typer.Option(
            help="The strategy to sweep, with any fixed parameters: NAME or "
            "NAME:key=value,...")] = None,
        param: Annotated[list[str] | None, typer.Option(
            help="KEY=START:STOP:STEP (STOP included), e.g. t=4:9:1; give it twice for a grid over "
            "two parameters.")] = None,
        baseline: Annotated[str | None, typer.Option(
            help="The value(s) every other value is compared with on the same deals: V (V1,V2 for "
            "a grid). Default: the strategy's own default.")] = None,
        vs: Annotated[str | None, typer.Option(
            "--vs", help="The field: one or more specs, cycled into the other seats.")] = None,
        players: Annotated[int | None, typer.Option(help="Seats per game (default 4).")] = None,
        games: Annotated[int | None, typer.Option(
            help=f"Games per value (default {DEFAULT_GAMES:,}; with --until-ci the cap).")] = None,
        seed: Annotated[int | None, typer.Option(
            help="Run seed (default 1); every value plays the same deals.")] = None,
        out: run_out_option(SWEEP_PREFIX) = None,
        rules: RunRulesOpt = None,
        rules_file: RulesFileOpt = None,
        set_: SetOpt = None,
        until_ci: Annotated[float | None, typer.Option(
            "--until-ci",
            help="Per value: play until the win-share intervals are within +-W.")] = None,
        sequential: Annotated[bool, typer.Option(
            "--sequential", help="Play the baseline's --games, then stop every other value once "
            "its win-share and VP differences to the baseline are decided by 95% anytime-valid "
            "confidence sequences (they exclude 0).")] = False,
        width: Annotated[float | None, typer.Option(
            "--width", help="With --sequential: a difference is also decided once its interval "
            "is within +-W (in its own units: VP for the VP difference).")] = None,
        detail: Annotated[Detail | None, typer.Option(
            help="games or rounds (per-value reports).")] = None,
        resume: Annotated[bool, typer.Option(
            "--resume", help="Continue an interrupted sweep in --out.")] = False,
        force: RunForceOpt = False,
        quiet: RunQuietOpt = False,
        json_: JsonOpt = False,
        threads: ThreadsOpt = None,
        plots: Annotated[bool, typer.Option("--plots/--no-plots", help="Draw sweep.png.")] = True,
        strategy_file: StrategyFileOpt = None,
        backend: BackendOpt = Backend.local,
        scheduler: SchedulerOpt = None,
        workers: WorkersOpt = None,
    ) -> None:
        """Play one strategy at each value of a parameter against a field; table and plot of win
        share and mean VP against the parameter (parameters never recompile the kernels)."""
        from sim.questions.ask_sweep import SweepInputError, SweepInterrupted
        from sim.questions.ask_sweep import sweep as ask_sweep

        target = out if out is not None or resume else default_out(SWEEP_PREFIX)
        try:
            with sigterm_as_interrupt(), \
                    when_work_starts(lambda: progress_bar(quiet, "sweep")) as bar:
                report = ask_sweep(
                    strategy=strategy, param=param, baseline=baseline, vs=vs, players=players,
                    games=games, seed=seed, out=target, rules=rules, set=set_,
                    until_ci=until_ci, sequential=sequential or None, width=width,
                    detail=detail, resume=resume, force=force,
                    threads=threads, plots=plots, strategy_file=strategy_file, backend=backend,
                    scheduler=scheduler, workers=workers, progress=bar,
                    on_note=note_line(quiet), on_compile=_compile_hook(quiet, json_),
                    argv=sys.argv)
        except SweepInputError as e:
            fail(str(e))
        except SweepInterrupted:  # in a value's games, or between or after the values
            typer.echo(_sweep_interrupted(target), err=True)
            raise typer.Exit(130) from None
        except run_errors() as e:
            fail(str(e))
        def show(res) -> None:
            _print_sweep(res, stdout_console())
            if res.out is not None:
                stdout_console().print(f"report: {res.out}/ ({', '.join(res.files)}; one report "
                                       "per value)")

        _answer(report.result, json_, show)

    @app.command()
    def plot(
        directory: Annotated[Path, typer.Argument(
            help="A report directory written by quacks tournament or sweep.")],
    ) -> None:
        """Re-draw the plots of a saved report from its tables."""
        from sim.study.reports.check import check_report_files
        from sim.study.reports.plots import render_all

        USER_ERRORS = user_errors()

        if directory.is_file():
            fail(f"{directory}: a file; quacks plot needs a report folder (the --out of quacks "
                 "tournament or sweep)")
        try:
            used = check_report_files(directory) if directory.is_dir() else []
            drawn = render_all(directory)
        except USER_ERRORS as e:
            fail(str(e))
        for n in drawn.notes:
            typer.echo(f"note: {n}", err=True)
        if drawn.files:
            stdout_console().print(f"{directory}/: {', '.join(drawn.files)} (drawn from "
                              f"{', '.join(used)})")
        for line in drawn.failure_lines():  # exit 2: tables it cannot draw; 1: a failure
            typer.echo(f"error: {directory}: {line}", err=True)
        if drawn.failed:
            raise typer.Exit(2 if drawn.bad_input else 1)
