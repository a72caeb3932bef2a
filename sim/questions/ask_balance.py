"""``sim.balance``: a ruleset's balance report (``quacks balance``)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from sim.questions.ask_rules import as_list, load_rules_files
from sim.questions.report import Report
from sim.questions.running import check_ints, open_backend, set_threads, strategy_specs, warm_games
from sim.study.balance.settings import DEFAULT_GAMES, DEFAULT_PLAYERS, STRONG


def balance(
    *,
    rules: str = "base",
    set: Sequence[str] | str | None = None,  # noqa: A002 - named as the CLI's --set
    rules_file: Sequence[str] | str | None = None,
    players: int = DEFAULT_PLAYERS,
    field: Sequence[str] | str | None = None,
    games: int = DEFAULT_GAMES,
    seed: int = 1,
    strong: str = STRONG,
    weak: Sequence[str] | str | None = None,
    parts: Sequence[str] | str | None = None,
    targets: str | Path | None = None,
    out: str | Path | None = None,
    force: bool = False,
    threads: int | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    workers: int | None = None,
    progress: Callable[[str, int | None, int | None], None] | None = None,
    on_note: Callable[[str], None] | None = None,
    on_compile: Callable[[str], None] | None = None,
) -> Report:
    """A ruleset's balance (``quacks balance``): win share by seat, catch-up, lead changes,
    ties, the spread of the winner's VP and margin, explosions by round, how much skill pays,
    each card's, witch's and book's effect and rank (``rank_lo``/``rank_hi``: the rank's 95%
    interval, a bootstrap over deals), and ``targets`` bands (a TOML file) checked as pass /
    fail / undecided; every figure with its 95% interval clustered by deal and its counts,
    every part on the same deals; figures decided by definition (the last round's catch-up)
    are left out.

    ``field`` (the strategies seated), ``weak`` and ``parts`` are comma-separated or lists
    (defaults: the command's). With ``out`` the report folder is written there (new or empty,
    or any with ``force``); without it, to a temporary folder when first needed. The result's
    ``result`` is the study's ``BalanceResult`` (``to_json()`` is what ``--json`` prints, less
    ``out`` and ``files``; ``tables`` every part's table, None for a part left out); the
    report's ``tables`` hold the tables written (an empty one is left out). The same seed gives
    the same numbers as the command. ``progress(part, done, total)`` is called as each part
    goes (``done``/``total`` None for a part that does not count its games); ``on_note(line)``
    hears where the games run; ``on_compile(entry)`` is called before the game kernel is first
    used. Raises a ValueError with the command's one line on a bad argument; Ctrl-C
    (KeyboardInterrupt) writes nothing.
    ``rules_file``: rules files loaded first (the CLI's ``--rules-file``; ValueError if bad)."""
    load_rules_files(rules_file)
    from sim.study.balance.plots import plot_jobs
    from sim.study.balance.report import check_out, write_report
    from sim.study.balance.run import BalanceError, plan_balance, run_balance
    from sim.study.balance.settings import DEFAULT_FIELD, PARTS, WEAK, BalanceSettings
    from sim.study.common.out_probe import probe_writable

    check_ints(BalanceError, players=players, games=games, seed=seed, workers=workers)
    set_threads(threads, BalanceError)
    for opt, path, what in (("--targets", targets, "a TOML file"), ("--out", out, "a path")):
        if path is not None and not str(path).strip():
            raise BalanceError(f"{opt} '': empty; give {what}")
    if out is not None:  # under a file, read-only: refused first, as the command's --out is
        probe_writable(out)
    settings = BalanceSettings(
        rules=rules, overrides=tuple(as_list(set)), players=players,
        field=_specs(field, "--field") if field is not None else DEFAULT_FIELD,
        games=games, seed=seed, strong=strong,
        weak=_specs(weak, "--weak") if weak is not None else WEAK,
        parts=_parts(parts) if parts is not None else PARTS,
        targets=str(targets) if targets is not None else None,
        backend=str(getattr(backend, "value", backend)), scheduler=scheduler, workers=workers,
        threads=threads)
    plan = plan_balance(settings)
    if out is not None:
        check_out(out, force)
    warm_games(plan.ruleset, plan.game.lineup(0), on_compile=on_compile)  # outside the clock
    with open_backend(backend, scheduler, workers, threads, note=on_note) as be:
        res = run_balance(plan, backend=be, progress=progress)

    def figures():
        return plot_jobs(res.tables, res.plan.players)

    if out is None:
        return Report("balance", None, res, figures=figures,
                      write=lambda folder: write_report(res, folder, argv=sys.argv))
    files = write_report(res, out, force=force, argv=sys.argv)
    return Report("balance", out, res, figures=figures, written=files)


def _specs(value: Sequence[str] | str, option: str) -> tuple[str, ...]:
    """Strategy specs, comma-separated or a list (a spec's own ``key=value,...`` kept whole);
    BalanceError if there are none."""
    from sim.study.balance.run import BalanceError
    from sim.study.balance.settings import DEFAULT_FIELD

    items = tuple(strategy_specs(value))
    if not items:
        raise BalanceError(f"{option}: give at least one, e.g. {option} {','.join(DEFAULT_FIELD)}")
    return items


def _parts(value: Sequence[str] | str) -> tuple[str, ...]:
    """The measurements to make, comma-separated or a list (blanks dropped; the plan checks
    the names)."""
    items = value.split(",") if isinstance(value, str) else [str(v) for v in value]
    return tuple(p.strip() for p in items if p.strip())
