"""``sim.tune``: the parameter values of a strategy that win most against a field
(``quacks tune``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from sim.questions.ask_rules import as_list, load_rules_files, load_strategy_files
from sim.questions.report import Report
from sim.questions.running import check_ints, open_backend, set_threads, strategy_specs


def tune(
    *,
    spec: str,
    param: Sequence[str] | str,
    vs: Sequence[str] | str,
    players: int | None = None,
    budget: int = 200_000,
    seed: int = 1,
    out: str | Path | None = None,
    force: bool = False,
    rules: str = "base",
    set: Sequence[str] | str | None = None,  # noqa: A002 - named as the CLI's --set
    rules_file: Sequence[str] | str | None = None,
    threads: int | None = None,
    strategy_file: Sequence[str] | str | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    on_note: Callable[[str], None] | None = None,
) -> Report:
    """Find the parameter values of a strategy that win most against a field (``quacks tune``).

    ``spec`` is the strategy to tune (``NAME`` or ``NAME:key=value,...``: its values are the
    starting point), ``param`` its ranges (``"KEY=LO:HI"`` or a list of them), ``vs`` the field
    (one spec for every other seat, or one per seat: comma-separated or a list). With ``out``
    the report folder is written there (``history.parquet``, ``progress.png``, ``tune.json``,
    ``report.html``; a folder holding files only with ``force``); without it, to a temporary
    folder when first needed. The result's
    ``result`` is the study's ``TuneResult`` (best spec, re-tested win shares, improvement,
    ``history``); ``tables["history"]`` every candidate. The same seed gives the same numbers
    as the command. ``progress(games, budget)`` is called from 0 as the search goes;
    ``on_note(line)`` hears where the games run. Raises ``TuneError`` (a ValueError) with the
    command's one line on a bad argument.
    ``rules_file``: rules files loaded first (the CLI's ``--rules-file``; ValueError if bad)."""
    load_rules_files(rules_file)
    from sim.rules.ruleset import load_ruleset
    from sim.study.common.out_probe import probe_writable
    from sim.study.tune.report import plot_jobs, write_tune_report
    from sim.study.tune.run import TuneError, parse_tune_param
    from sim.study.tune.run import tune as run_tune
    from strategies.builtin import parse_strategy

    check_ints(TuneError, players=players, budget=budget, seed=seed, workers=workers)
    set_threads(threads, TuneError)
    load_strategy_files(strategy_file)
    rs = load_ruleset(rules, as_list(set))
    rs.check_implemented()
    parse_strategy(spec)
    texts = as_list(param)
    params = [parse_tune_param(spec, p) for p in texts]
    if len({p.key for p in params}) != len(params):
        raise TuneError("--param: each parameter once")
    field = strategy_specs(vs)
    n = players or (4 if len(field) == 1 else len(field) + 1)
    if out is not None and not str(out).strip():
        raise TuneError("--out '': empty; give a folder")
    target = Path(out) if out is not None else None
    if target is not None:  # before any game
        if target.is_dir() and any(target.iterdir()) and not force:
            raise TuneError(f"--out {out}: the folder is not empty; use --force to replace the "
                            "report there")
        probe_writable(target)
    with open_backend(backend, scheduler, workers, threads, note=on_note) as be:
        if progress is not None:
            progress(0, budget)
        res = run_tune(spec, params, field, rs, players=n, budget=budget, seed=seed,
                       progress=progress, backend=be)
    settings = {"spec": spec, "params": texts, "vs": field, "players": n, "budget": budget,
                "seed": seed, "rules": rs.name, "overrides": list(rs.overrides),
                "strategy_files": as_list(strategy_file)}

    def write(folder: Path) -> list[str]:
        return write_tune_report(res, folder, settings=settings, rules_hash=rs.hash)

    if target is None:
        return Report("tune", None, res, figures=lambda: plot_jobs(res), write=write)
    return Report("tune", target, res, figures=lambda: plot_jobs(res), written=write(target))
