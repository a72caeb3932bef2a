"""``sim.thresholds``: at which white total (or explosion risk) should this bag stop? Every
threshold against the optimal stopper (``quacks thresholds``)."""

from __future__ import annotations

import builtins
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from sim.questions.ask_rules import as_list, load_rules_files
from sim.questions.report import Report
from sim.questions.running import check_ints, set_threads


def thresholds(
    *,
    bag: str | Sequence[str] = "start",
    start: int = 0,
    flask: int | None = None,
    round: int = 0,  # noqa: A002 - named as the CLI's --round
    rules: str = "base",
    set: Sequence[str] | str | None = None,  # noqa: A002 - named as the CLI's --set
    rules_file: Sequence[str] | str | None = None,
    card: str | None = None,
    coin_value: float | None = None,
    ruby_value: float | None = None,
    white: str | Sequence[int] | None = None,
    risk: str | Sequence[float] | None = None,
    n: int = 1_000_000,
    n_optimal: int | None = None,
    seed: int = 1,
    exact: bool | None = None,
    csv: str | Path | None = None,
    png: str | Path | None = None,
    out: str | Path | None = None,
    force: bool = False,
    threads: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    on_compile: Callable[[str], None] | None = None,
) -> Report:
    """Every white-total and risk threshold of a bag against the optimal stopper
    (``quacks thresholds``): explosion chance, reward space, coins, VP, rubies, value and regret
    of each stop rule, and the optimal stopper's policy.

    ``bag`` is the chips (``"start,r2,b1x2"`` or a list of them); ``white`` the white-total
    thresholds (``"A:B"``, ``"3,5,7"``, ``"none"`` or a list of numbers; default 1 to the
    explosion limit), ``risk`` the risk thresholds (``"LO:HI:STEP"``, ``"0.1,0.2"``, ``"none"``
    or a list; default 0.05 to 0.5); ``exact`` True enumerates, False samples, None (default)
    enumerates when the bag allows. ``csv`` and ``png`` write the table and the stop curve to
    those files, ``out`` the whole report folder (an existing file, or a folder holding files,
    is replaced only with ``force``); without ``out`` the report is written to a
    temporary folder when first needed. The result's ``result`` is the study's
    ``ThresholdsResult`` (``table``, ``policy``, ``summary``, ``to_json()``: what ``--json``
    prints); ``tables["thresholds"]`` and ``tables["policy"]`` are its tables. The same seed
    gives the same numbers as the command. ``progress(done, total)`` counts the stop rules
    (from 0); ``on_compile(entry)`` is called before the potion kernel is first used. Raises
    ``ThresholdsError`` (a ValueError) with the command's one line on a bad argument.
    ``rules_file``: rules files loaded first (the CLI's ``--rules-file``; ValueError if bad)."""
    load_rules_files(rules_file)
    from sim.api import potion as pot
    from sim.rules.ruleset import load_ruleset
    from sim.study.thresholds import compute as th
    from sim.study.thresholds.figures import figure_format, figure_jobs

    check_ints(th.ThresholdsError, start=start, flask=flask, round=round, n=n,
               n_optimal=n_optimal, seed=seed)
    set_threads(threads, th.ThresholdsError)
    for opt, path, what in (("--csv", csv, "a file name"), ("--png", png, "a file name"),
                            ("--out", out, "a folder")):
        if path is not None and not str(path).strip():
            raise th.ThresholdsError(f"{opt} '': empty; give {what}")
    check_outputs(csv, png, out, force)
    if png is not None:
        figure_format("--png", png)  # an extension it cannot write: before any work
    rs = load_ruleset(rules, as_list(set))
    rs.check_implemented()
    bag = bag if isinstance(bag, str) else ",".join(as_list(bag))
    whites = th.white_grid(_spec(white), th.white_limit(rs, card))
    risks = th.risk_grid(_spec(risk))
    if not whites and not risks:
        raise th.ThresholdsError("--white none and --risk none: nothing to compare; give some "
                                 "thresholds")
    mode = {None: "auto", True: "exact", False: "sample"}[exact]
    q = pot.make_query(bag, "never", flask, start, rs, card=card)
    rules_exact, optimal_exact, _, _ = th.modes(q, mode)
    th.round_values(rs, round, coin_value, ruby_value)  # validates before any work
    if not (rules_exact and optimal_exact):
        if on_compile is not None:
            on_compile("sim/kernel/potions.potion_histograms")
        pot.sample(q, 1, seed)  # compile (or load) the kernel outside the clock
    if progress is not None:
        progress(0, len(whites) + len(risks) + 1)
    t0 = time.perf_counter()
    res = th.compute_thresholds(
        bag, ruleset=rs, start=start, flask=flask, card=card, round_=round,
        coin_value=coin_value, ruby_value=ruby_value, white=whites, risk=risks, n=n, seed=seed,
        exact=mode, n_optimal=n_optimal, progress=progress)
    res.summary["seconds"] = builtins.round(time.perf_counter() - t0, 3)
    written = []
    if csv is not None:
        res.write_csv(csv)
        written.append(str(csv))
    if png is not None:
        res.write_png(png)
        written.append(str(png))
    if out is None:
        return Report("thresholds", None, res, figures=lambda: figure_jobs(res), write=res.write,
                      written=written)
    written += [str(Path(out) / f) for f in res.write(out)]
    return Report("thresholds", out, res, figures=lambda: figure_jobs(res), written=written)


def check_outputs(csv, png, out, force: bool) -> None:
    """Before any work: every output can be written, and none is there already unless
    ``force`` (a file for --csv and --png; for --out a folder that is new or empty)."""
    from sim.study.common.out_probe import OutDirError, probe_file_writable, probe_writable
    from sim.study.thresholds.compute import ThresholdsError

    try:
        for opt, path in (("--csv", csv), ("--png", png)):
            if path is not None:
                probe_file_writable(path, opt, force=force)
        if out is not None:
            p = Path(out)
            if p.exists() and not p.is_dir():
                raise ThresholdsError(f"--out {out}: exists and is not a directory")
            if p.is_dir() and any(p.iterdir()) and not force:
                raise ThresholdsError(f"--out {out}: the folder is not empty; use --force to "
                                      "replace the report there")
            probe_writable(p)
    except OutDirError as e:
        raise ThresholdsError(str(e)) from None


def _spec(values: str | Sequence | None) -> str | None:
    """A threshold list as the command's text (a list: comma-separated)."""
    if values is None or isinstance(values, str):
        return values
    return ",".join(str(v) for v in values)
