"""Running a tournament: chunks played by a backend, summed into the statistics and, with an
output folder, written to its report as they come; resumable after an interruption.

Memory stays flat: a chunk's rows go to the statistics accumulator and (with an output
directory) to the parquet writers, and are dropped; with rounds detail the deals of a chunk run
in blocks of about ``ROUNDS_BATCH_GAMES`` games whose round records are written and summed at
once.

Interruption: Ctrl-C while a chunk runs lets the chunk finish and be written, then stops (a
second Ctrl-C stops at once, losing that chunk). :class:`RunInterrupted` (a KeyboardInterrupt)
carries the games kept; ``resume=True`` continues (see ``sim.study.reports`` for the files).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from sim.stats.clusters import warm as warm_statistics
from sim.stats.sequences import METHOD_SEQUENCE
from sim.study.common.interrupts import DeferInterrupt
from sim.study.reports.writer import ReportWriter
from sim.study.tournament.errors import RunInterrupted  # noqa: F401 (importers name it here)
from sim.study.tournament.local import LOCAL
from sim.study.tournament.plan import Plan, TournamentConfig, TournamentError, resolve_plan
from sim.study.tournament.result import ChunkInfo, TournamentResult
from sim.study.tournament.statistics import Accumulator

TWO_DEALS = "intervals need two deals"  # every interval is over deals: one deal gives none


def check_two_deals(plan: Plan, error: type[ValueError] = TournamentError) -> None:
    """Raise ``error`` (one line naming --games) when ``plan`` plays fewer than two deals: its
    intervals would be blank or NaN. ``quacks tournament``, ``sweep`` and ``compare`` refuse
    such a run before playing."""
    if plan.deals < 2:
        gpd = plan.games_per_deal
        raise error(f"--games {plan.config.games}: {plan.deals} deal of {gpd} "
                    f"{'game' if gpd == 1 else 'games'}; give at least {2 * gpd} ({TWO_DEALS})")


NOMINAL_DEAL_SD = 0.25  # a win share's nominal sd over deals, for where a sequence is narrowest


def sequence_t_opt(plan: Plan) -> float:
    """The deals at which ``--sequential``'s confidence sequences are narrowest: where a fixed
    95% interval of a win share with the nominal per-deal sd ``NOMINAL_DEAL_SD`` reaches
    +-until_ci (at most the cap's deals, at least 20); fixed by the settings alone."""
    w = plan.config.until_ci or 0.01
    return float(min(plan.deals, max(20.0, (1.96 * NOMINAL_DEAL_SD / w) ** 2)))


def halfwidths(acc: Accumulator, plan: Plan) -> np.ndarray:
    """Per strategy, the larger side of the win-share interval the run reports (inf if not
    defined): the fixed-size 95% interval, or with ``sequential`` the confidence sequence's."""
    if acc.deals == 0:
        return np.full(len(plan.names), np.inf)
    if plan.config.sequential:
        m, lo, hi = acc.win_share_sequence(sequence_t_opt(plan))
        h = np.maximum(m - lo, hi - m)
        return np.where(np.isfinite(h), h, np.inf)
    return acc.win_share_halfwidth()


def stop_reached(acc: Accumulator, plan: Plan) -> bool:
    """True once every strategy's win-share interval (deals as the unit, the interval the report
    shows: with ``sequential`` the anytime-valid confidence sequence) is within +-until_ci."""
    until_ci = plan.config.until_ci
    if until_ci is None or acc.games == 0:
        return False
    return bool(np.all(halfwidths(acc, plan) <= until_ci))


def sequential_intervals(acc: Accumulator, plan: Plan, summary, notes: list[str]) -> None:
    """With ``sequential``: the strategies' win-share intervals in ``summary`` replaced by
    their confidence sequences (the interval the stop used) and a note saying so."""
    if not plan.config.sequential:
        return
    m, lo, hi = acc.win_share_sequence(sequence_t_opt(plan))
    st = summary.strategies
    st["win_share_ci_lo"] = lo[: len(st)]
    st["win_share_ci_hi"] = hi[: len(st)]
    methods = dict(summary.info.get("interval_methods", {}))
    methods["win_share"] = METHOD_SEQUENCE
    summary.info["interval_methods"] = methods
    notes.append("--sequential: the win-share intervals are 95% anytime-valid confidence "
                 "sequences over deals (normal mixture, narrowest near "
                 f"{sequence_t_opt(plan):,.0f} deals), valid at whatever chunk the run stopped")


def run_tournament(
    config: TournamentConfig | Plan,
    *,
    out: str | Path | None = None,
    resume: bool = False,
    force: bool = False,
    progress: Callable[[int, int], None] | None = None,
    on_chunk: Callable[[ChunkInfo], None] | None = None,
    stop_after_chunks: int | None = None,
    plots: bool = True,
    argv: Sequence[str] | None = None,
    note: Callable[[str], None] | None = None,
    keep_deals: tuple[int, ...] = (),
    backend=None,
    stop_when: Callable[[Accumulator], bool] | None = None,
) -> TournamentResult:
    """Run (or resume) a tournament; with ``out`` write the report directory.

    ``progress(games_done, games_max)`` is called after every chunk (and once at the start);
    ``on_chunk(ChunkInfo)`` too (it may raise KeyboardInterrupt to simulate Ctrl-C);
    ``stop_after_chunks`` stops after that many new chunks as if interrupted. An interruption
    raises :class:`RunInterrupted` after keeping every finished chunk. ``resume`` continues the
    interrupted run in ``out`` (settings must match) and returns the finished result if it is
    already complete; ``force`` replaces a previous report there. ``note`` receives one-line
    remarks (e.g. that a partial file was unreadable). ``keep_deals`` lists strategy ids whose
    per-deal totals the result keeps (``deal_totals``), for paired comparisons across runs.
    ``backend`` (entered; default local, see ``sim.study.tournament.backend``) plays the chunks; the
    result is the same whatever it is. ``stop_when(acc)``, asked after every chunk (and on
    resuming), stops the run early when true (``stopped`` "decided"; ``sweep --sequential``).
    """
    plan = config if isinstance(config, Plan) else resolve_plan(config)
    notes: list[str] = []

    def say(msg: str) -> None:
        notes.append(msg)
        if note:
            note(msg)

    acc = Accumulator(plan.names, plan.players, plan.rounds, paired=plan.config.duplicate,
                      keep_deals=keep_deals, head_to_head=len(plan.tables) > 1)
    if out is not None:
        # the report writer needs it; importing matplotlib takes a second or two, which is no
        # part of the run's time
        import sim.study.reports.plots  # noqa: F401
    warm_statistics()  # the accumulator's compiled sums: loaded (or compiled) outside the clock
    source = (backend or LOCAL).chunks(plan)  # a cluster's workers set up outside the clock too
    t0 = time.perf_counter()
    writer = None
    chunks_done = 0
    seconds_before = 0.0
    if out is not None:
        writer = ReportWriter(Path(out), plan, resume=resume, force=force, argv=argv, note=say)
        if writer.complete_result is not None:
            source.close()
            return writer.complete_result
        try:
            chunks_done = writer.open(acc)
        except KeyboardInterrupt:  # while copying a resumed run: its sources stay for next time
            writer.close()
            raise RunInterrupted(writer.kept_games, Path(out)) from None
        seconds_before = writer.seconds_before
    kept = plan.games_after(chunks_done)
    new_chunks = 0

    def on_rounds(rcols):  # a block of rounds rows: to the file first, then the sums
        if writer is not None:
            writer.write_rounds(rcols)
        acc.add_rounds(rcols)

    try:
        if progress:
            progress(kept, plan.max_games)
        k = chunks_done
        decided = False
        while k < len(plan.chunk_bounds) - 1 and not stop_reached(acc, plan):
            if stop_when is not None and acc.games and stop_when(acc):
                decided = True
                break
            with DeferInterrupt():
                rows = source.rows(k, on_rounds=on_rounds)
                if writer is not None:  # the games rows commit the chunk
                    writer.write_chunk(rows)
                acc.add_games(rows.games)
                del rows
                k += 1
                new_chunks += 1
                kept = plan.games_after(k)
            if progress:
                progress(kept, plan.max_games)
            if on_chunk:
                on_chunk(ChunkInfo(k, kept, plan.max_games, time.perf_counter() - t0,
                                   float(np.max(halfwidths(acc, plan)))))
            if stop_after_chunks is not None and new_chunks >= stop_after_chunks \
                    and k < len(plan.chunk_bounds) - 1:
                raise KeyboardInterrupt
        halfwidth = float(np.max(halfwidths(acc, plan)))
        if decided:
            stopped = "decided"
        elif plan.config.until_ci is None:
            stopped = "games"
        else:
            stopped = "until-ci" if halfwidth <= plan.config.until_ci else "cap"
        seconds = time.perf_counter() - t0
        summary = acc.summary()
        sequential_intervals(acc, plan, summary, notes)
        result = TournamentResult(plan, summary, acc.games, acc.deals, stopped, halfwidth,
                                  seconds, seconds + seconds_before, Path(out) if out else None,
                                  notes,
                                  deal_totals={i: acc.deal_totals(i) for i in keep_deals})
        if writer is not None:
            with DeferInterrupt(reraise=False):  # a second or so: finish rather than stop
                result.files = writer.finish(result, plots=plots)
        return result
    except KeyboardInterrupt:
        if writer is not None:
            writer.interrupted(time.perf_counter() - t0)
        raise RunInterrupted(kept, Path(out) if out else None) from None
    finally:
        source.close()
        if writer is not None:
            writer.close()


def tournament(strategies: Sequence[str] = (), **kwargs) -> TournamentResult:
    """Notebook shortcut: ``tournament(["threshold", "random"], games=10_000, out="reports/x")``.

    Keyword arguments of :class:`TournamentConfig` configure the run; the rest go to
    :func:`run_tournament`.
    """
    fields = TournamentConfig.__dataclass_fields__
    cfg = TournamentConfig(strategies=tuple(strategies),
                           **{k: (tuple(v) if k == "overrides" else v) for k, v in kwargs.items()
                              if k in fields})
    rest = {k: v for k, v in kwargs.items() if k not in fields}
    return run_tournament(cfg, **rest)
