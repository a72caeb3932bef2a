"""The ``tune`` command: ``register(app)`` adds it to a Typer app.

``quacks tune SPEC --param KEY=LO:HI [--param ...] --vs FIELD`` searches the parameter ranges
for the values that win most against the field (``sim.study.tune.run``), prints the best spec with
its re-tested win share and the paired improvement over SPEC, and with ``--out DIR`` writes
``history.parquet`` (every candidate), ``progress.png``, ``tune.json`` and ``report.html``.
"""

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from sim.cli.common import (
    Backend,
    BackendOpt,
    SchedulerOpt,
    WorkersOpt,
    exit_on_interrupt,
    fail,
    open_backend,
    set_threads,
    work_progress,
)

out = Console(soft_wrap=True)


def register(app: typer.Typer) -> None:
    """Add ``quacks tune`` to the app."""

    @app.command()
    def tune(
        spec: Annotated[str, typer.Argument(help="The strategy to tune, NAME or NAME:key=value,... "
                                                 "(its values are the starting point).")],
        param: Annotated[list[str], typer.Option(
            "--param", help="A parameter and its range, KEY=LO:HI (repeatable).")],
        vs: Annotated[str, typer.Option("--vs", help="The field: one strategy for every other "
                                                     "seat, or one per seat, comma-separated.")],
        players: Annotated[int | None, typer.Option(
            "--players",
            help="Seats per game (default: 1 + the field, or 4 for one field spec).")] = None,
        budget: Annotated[int, typer.Option("--budget", help="Games the search may play "
                                                             "(the re-test comes on "
                                                             "top).")] = 200_000,
        seed: Annotated[int, typer.Option("--seed", help="Run seed (default 1).")] = 1,
        out_dir: Annotated[str | None, typer.Option(
            "--out", help="Directory for history.parquet, progress.png, tune.json and "
                     "report.html.")] = None,
        rules: Annotated[str, typer.Option("--rules",
                                           help="Built-in ruleset name or a TOML file.")] = "base",
        set_: Annotated[list[str] | None, typer.Option(
            "--set", help="Override one ruleset value: section.key=value (repeatable).")] = None,
        threads: Annotated[int | None, typer.Option(
            "--threads", help="Numba threads (results never depend on it).")] = None,
        json_: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
        strategy_file: Annotated[list[str] | None, typer.Option(
            "--strategy-file",
            help="Load user strategies from a Python file (repeatable).")] = None,
        backend: BackendOpt = Backend.local,
        scheduler: SchedulerOpt = None,
        workers: WorkersOpt = None,
    ) -> None:
        """Find the parameter values of a strategy that win most against a field (Optuna TPE,
        successive halving on shared deals, then a re-test against the start on fresh deals)."""
        from sim.cli.user_input import USER_ERRORS, load_strategies
        from sim.rules.ruleset import load_ruleset
        from sim.study.tune.run import TuneError, parse_tune_param
        from sim.study.tune.run import tune as run_tune
        from strategies.builtin import split_specs

        set_threads(threads)
        try:
            load_strategies(strategy_file)
            rs = load_ruleset(rules, set_ or [])
            rs.check_implemented()
            from strategies.builtin import parse_strategy

            parse_strategy(spec)
            params = [parse_tune_param(spec, p) for p in param]
            if len({p.key for p in params}) != len(params):
                fail("--param: each parameter once")
            field = split_specs(vs)
            n = players or (4 if len(field) == 1 else len(field) + 1)
            target = Path(out_dir) if out_dir else None
            if target is not None:  # before any work, as tournament does
                from sim.study.common.out_probe import probe_writable

                probe_writable(target)
            with open_backend(backend, scheduler, workers, threads, quiet=json_) as be, \
                    exit_on_interrupt(), work_progress("games", quiet=json_) as bar:
                res = run_tune(spec, params, field, rs, players=n, budget=budget, seed=seed,
                               progress=bar, backend=be)
        except typer.Exit:
            raise
        except (TuneError, *USER_ERRORS) as e:
            fail(str(e))
        files = write_tune_report(res, target, settings={
            "spec": spec, "params": param, "vs": field, "players": n, "budget": budget,
            "seed": seed, "rules": rs.name, "overrides": list(rs.overrides),
            "strategy_files": list(strategy_file or [])},
            rules_hash=rs.hash) if target is not None else []
        if json_:
            typer.echo(json.dumps(res.as_json()))
            return
        print_tune(res, n, files, target)


def print_tune(res, players: int, files: list[str], target: Path | None) -> None:
    """The lines ``quacks tune`` prints."""
    from sim.api.events import plural
    from sim.cli.printing import ci_text

    out.print(f"{plural(res.evaluations, 'candidate')}, {res.games:,} games ({players} players); "
              f"re-test on {res.retest_deals:,} fresh deals x {players} seatings", markup=False)
    out.print(f"best:  {res.best}", markup=False)
    out.print(f"  win share {res.best_win_share:.4f} {ci_text(res.best_win_share_ci)}",
              markup=False)
    out.print(f"start: {res.start}", markup=False)
    out.print(f"  win share {res.start_win_share:.4f} {ci_text(res.start_win_share_ci)}",
              markup=False)
    out.print(f"improvement (paired by deal): {res.improvement:+.4f} {ci_text(res.improvement_ci)}",
              markup=False)
    if target is not None:
        out.print(f"report: {target}/ ({', '.join(files)})", markup=False)


def tune_command(settings: dict) -> str:
    """The ``quacks tune`` command that reproduces a tune with these settings."""
    import shlex

    parts = ["quacks", "tune", settings["spec"]]
    for p in settings["params"]:
        parts += ["--param", p]
    parts += ["--vs", ",".join(settings["vs"]), "--players", str(settings["players"]),
              "--budget", str(settings["budget"]), "--seed", str(settings["seed"]),
              "--rules", settings["rules"]]
    for o in settings["overrides"]:
        parts += ["--set", o]
    for f in settings.get("strategy_files", []):
        parts += ["--strategy-file", f]
    return shlex.join(parts)


def write_tune_report(res, target: Path, settings: dict, rules_hash: str) -> list[str]:
    """history.parquet, progress.png, tune.json (the result, the settings, the command line,
    its provenance, the package versions, the date and the files) and report.html (all of it
    on one page) in ``target``, each written through a temporary name."""
    import sys

    from sim.rules.ruleset import rules_label
    from sim.study.common.plot_style import save_png
    from sim.study.reports.files import (
        REPORT_HTML,
        atomic_write,
        atomic_write_text,
        now_iso,
        package_versions,
    )
    from sim.study.reports.html import write_html
    from sim.study.reports.provenance import PROVENANCE_KEY, make_provenance
    from sim.study.tune.plots import progress_figure

    target.mkdir(parents=True, exist_ok=True)
    atomic_write(target / "history.parquet", lambda tmp: res.history.to_parquet(tmp, index=False))
    save_png(progress_figure(res), target, "progress.png")
    files = ["history.parquet", "progress.png", REPORT_HTML, "tune.json"]
    prov = make_provenance(tune_command(settings), argv=sys.argv, seed=settings["seed"],
                           rules=[(rules_label(settings["rules"], settings["overrides"]),
                                   rules_hash)])
    atomic_write_text(target / "tune.json", json.dumps(
        {**res.as_json(), "settings": settings, "argv": sys.argv,
         PROVENANCE_KEY: prov.to_json(), "versions": package_versions(),
         "created": now_iso(), "files": files}, indent=2) + "\n")
    write_html(target)
    return files
