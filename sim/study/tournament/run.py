"""Tournaments: many games between strategies, seat-balanced, chunked, resumable.

Formats (``TournamentConfig.format``):

- ``rotate`` (duplicate format): every deal (game seed) is played in every cyclic rotation of the
  seats, so every strategy meets the same luck from every seat. As in ``quacks play``, give one
  spec per seat or one for all (copies of one spec count as one strategy).
- ``round-robin``: every combination of ``players`` strategies from a larger pool is a table;
  every deal is played at every table in every rotation.
- ``vs-field``: the first spec is the focus strategy, the rest a field cycled into the other
  seats; every deal in every rotation.

Layout and determinism: game ``g`` (0-based) of a run is deal ``g // games_per_deal``, table
``(g % games_per_deal) // rotations``, rotation ``g % rotations``. Games run in *chunks* of whole
deals whose boundaries depend only on the settings (a first chunk of about
``first_chunk_games`` games, doubling up to ``max_chunk_games``), never on threads, timing or
interruptions. Every sum the statistics keep is an integer, so a run interrupted after any chunk
and resumed ends bit-identical to an uninterrupted one; ``until_ci`` decides after each chunk
whether to stop, from the same sums, so it stops at the same chunk too.

Memory stays flat: a chunk's rows go to the statistics accumulator and (with an output
directory) to the parquet writers, and are dropped; with rounds detail the deals of a chunk run
in blocks of about ``ROUNDS_BATCH_GAMES`` games whose round records are written and summed at
once.

Interruption: Ctrl-C while a chunk runs lets the chunk finish and be written, then stops (a
second Ctrl-C stops at once, losing that chunk). :class:`RunInterrupted` (a KeyboardInterrupt)
carries the games kept; ``resume=True`` continues (see ``sim.study.reports`` for the files).
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np

from sim.api.game import check_players, check_round_values
from sim.rules.ruleset import Ruleset, load_ruleset
from sim.stats.clusters import warm as warm_statistics
from sim.study.backend import LOCAL
from sim.study.interrupts import DeferInterrupt
from sim.study.report_stats import Accumulator, Summary

FORMATS = ("rotate", "round-robin", "vs-field")
DETAILS = ("games", "rounds")
# Preferred default field (the built-in presets); see default_field(). Adjust freely.
DEFAULT_FIELD: tuple[str, ...] = ("cautious", "balanced", "greedy", "expected-value")
DEFAULT_PLAYERS = 4
DEFAULT_GAMES = 20_000
DEFAULT_CI_CAP = 1_000_000  # the cap on games for --until-ci when --games is not given
FIRST_CHUNK_GAMES = 2_000
MAX_CHUNK_GAMES = 50_000
MAX_TABLES = 5_000

class TournamentError(ValueError):
    """Settings that cannot run; the message names the option and what would be right."""


class RunInterrupted(KeyboardInterrupt):
    """A run stopped early (Ctrl-C or a hook); every finished chunk is kept for ``resume``."""

    def __init__(self, games_done: int, out: Path | None):
        super().__init__(f"interrupted after {games_done:,} games")
        self.games_done = games_done
        self.out = out


@dataclass(frozen=True)
class TournamentConfig:
    """What to run. ``None`` fields take their defaults when the plan is resolved."""

    strategies: tuple[str, ...] = ()
    players: int | None = None
    format: str | None = None
    games: int | None = None
    seed: int = 1
    rules: str = "base"
    overrides: tuple[str, ...] = ()
    until_ci: float | None = None
    detail: str = "games"
    duplicate: bool = True
    strategy_files: tuple[str, ...] = ()
    first_chunk_games: int = FIRST_CHUNK_GAMES
    max_chunk_games: int = MAX_CHUNK_GAMES

    @classmethod
    def from_settings(cls, settings: dict) -> TournamentConfig:
        """The config a run's saved ``settings`` describe (see :meth:`Plan.settings`)."""
        keys = {f for f in cls.__dataclass_fields__}
        d = {k: v for k, v in settings.items() if k in keys}
        for k in ("strategies", "overrides", "strategy_files"):
            d[k] = tuple(d.get(k, ()))
        return cls(**d)


@dataclass
class Plan:
    """A resolved tournament: ruleset, distinct strategies, tables and the chunk layout."""

    config: TournamentConfig
    ruleset: Ruleset
    names: list[str]
    strategies: list  # strategies.builtin.Strategy, aligned with names
    tables: list[tuple[int, ...]]
    rotations: int
    games_per_deal: int
    deals: int
    chunk_bounds: list[int] = field(repr=False)

    @property
    def players(self) -> int:
        """Seats per game."""
        return int(self.config.players)

    @property
    def rounds(self) -> int:
        """Rounds per game."""
        return int(self.ruleset.game("rounds"))

    @property
    def max_games(self) -> int:
        """Games the plan plays at most (all of them without ``until_ci``)."""
        return self.deals * self.games_per_deal

    def games_after(self, chunk: int) -> int:
        """Games played once ``chunk`` chunks are done."""
        return self.chunk_bounds[chunk] * self.games_per_deal

    def settings(self) -> dict:
        """JSON-ready settings; a resumed run must match them exactly."""
        d = asdict(self.config)
        for k in ("strategies", "overrides", "strategy_files"):
            d[k] = list(d[k])
        d["rules_hash"] = self.ruleset.hash
        return d

    def lineup(self, table: int) -> list:
        """The strategies seated at a table, in lineup order (rotation 0)."""
        return [self.strategies[i] for i in self.tables[table]]


def default_field() -> list[str]:
    """The default tournament field: the names of DEFAULT_FIELD the registry holds (at most 4),
    or, if fewer than two are registered, every registered strategy."""
    from strategies.builtin import REGISTRY

    chosen = [n for n in DEFAULT_FIELD if n in REGISTRY][:DEFAULT_PLAYERS]
    return chosen if len(chosen) >= 2 else list(REGISTRY)


def load_strategy_files(files: Sequence[str] = ()) -> None:
    """Register user strategies: ``strategies/user_*.py`` and each file given (if the strategy
    layer offers plugin files; a bad file raises its own one-line error)."""
    try:
        from strategies.registry import load_plugins_dir, load_strategy_file
    except ImportError:  # a strategy layer without plugin files
        if files:
            raise TournamentError("--strategy-file: this version has no user strategy files") from None
        return
    load_plugins_dir()
    for f in files:
        load_strategy_file(f)


def _chunk_bounds(deals: int, gpd: int, first_games: int, max_games: int) -> list[int]:
    first = max(1, first_games // gpd)
    most = max(first, max_games // gpd)
    bounds, size = [0], first
    while bounds[-1] < deals:
        bounds.append(min(deals, bounds[-1] + size))
        size = min(most, size * 2)
    return bounds


def resolve_plan(config: TournamentConfig) -> Plan:
    """Validate a config and lay the tournament out; raise TournamentError (or the ruleset's,
    strategy parser's or game layer's own ValueError) with one clear line."""
    from strategies.builtin import parse_strategy

    c = config
    if c.format is not None and c.format not in FORMATS:
        raise TournamentError(f"--format {c.format}: expected one of {', '.join(FORMATS)}")
    if c.detail not in DETAILS:
        raise TournamentError(f"--detail {c.detail}: expected one of {', '.join(DETAILS)}")
    if not 0 <= c.seed < 2**63:
        raise TournamentError(f"--seed {c.seed}: expected 0 to 2**63 - 1")
    if c.games is not None and c.games <= 0:
        raise TournamentError(f"--games {c.games}: expected a positive number of games")
    if c.until_ci is not None and not (0 < c.until_ci < 0.5):
        raise TournamentError(f"--until-ci {c.until_ci}: expected a half-width between 0 and 0.5, e.g. 0.01")
    if c.players is not None and c.players < 1:
        raise TournamentError(f"--players {c.players}: expected a player count such as 2, 3 or 4")
    if c.first_chunk_games <= 0 or c.max_chunk_games <= 0:
        raise TournamentError("chunk sizes must be positive")
    rs = load_ruleset(c.rules, list(c.overrides))
    rs.check_implemented()
    load_strategy_files(c.strategy_files)
    lo, hi = int(rs.game("min_players")), int(rs.game("max_players"))
    specs = [s.strip() for s in c.strategies if s.strip()]
    players = c.players
    if not specs:
        specs = default_field()
        if not specs:
            raise TournamentError("no strategies are registered")
        if players is None:
            players = min(DEFAULT_PLAYERS, hi)
    parsed = {s: parse_strategy(s) for s in dict.fromkeys(specs)}
    distinct = list(dict.fromkeys(specs))
    fmt = c.format
    if fmt is None:
        too_many = len(distinct) > (players if players is not None else hi)
        fmt = "round-robin" if too_many else "rotate"
    if fmt == "rotate":
        if players is None:
            players = max(len(specs), lo)
        if len(specs) > players:
            raise TournamentError(
                f"--strategies: {len(specs)} strategies for {players} seats; use --format round-robin "
                f"to play every combination of {players}, or give at most {players}")
        check_players(rs, players)
        if 1 < len(specs) < players:  # as quacks play: one per seat, or one for all
            raise TournamentError(
                f"--strategies: {len(specs)} strategies for {players} seats; give one per seat, "
                f"or one for all")
        seated = [specs[k % len(specs)] for k in range(players)]
        names = list(dict.fromkeys(seated))
        tables = [tuple(names.index(s) for s in seated)]
        strategies = [parsed[s] for s in names]
    elif fmt == "round-robin":
        if players is None:
            players = min(len(distinct), hi)
        check_players(rs, players)
        if len(distinct) < players:
            raise TournamentError(
                f"--format round-robin: {len(distinct)} distinct strategies for {players} seats; "
                f"give at least {players}")
        names = distinct
        tables = list(itertools.combinations(range(len(names)), players))
        if len(tables) > MAX_TABLES:
            raise TournamentError(
                f"--format round-robin: {len(tables):,} tables of {players} from {len(names)} "
                f"strategies; at most {MAX_TABLES:,}: use a smaller pool")
        strategies = [parsed[s] for s in names]
    else:  # vs-field
        if len(specs) < 2:
            raise TournamentError("--format vs-field: give the focus strategy first, then the field "
                                  "(at least one spec), e.g. threshold:t=7,threshold")
        if players is None:
            players = min(max(DEFAULT_PLAYERS, lo), hi)
        check_players(rs, players)
        focus, fld = specs[0], specs[1:]
        if len(fld) > players - 1:
            raise TournamentError(
                f"--format vs-field: a field of {len(fld)} strategies does not fit {players - 1} "
                f"seats; give at most {players - 1} after the focus strategy")
        fnames = list(dict.fromkeys(fld))
        focus_name = f"{focus} (focus)" if focus in fnames else focus
        names = [focus_name, *fnames]
        tables = [(0, *(1 + fnames.index(fld[k % len(fld)]) for k in range(players - 1)))]
        strategies = [parsed[focus], *(parsed[s] for s in fnames)]
    check_round_values(rs, strategies)
    rotations = players if c.duplicate else 1
    gpd = len(tables) * rotations
    games = c.games
    if games is None:
        games = DEFAULT_CI_CAP if c.until_ci is not None else DEFAULT_GAMES
    deals = -(-games // gpd)
    cfg = replace(c, strategies=tuple(c.strategies) if c.strategies else tuple(specs),
                  players=players, format=fmt, games=games)
    return Plan(cfg, rs, names, strategies, tables, rotations, gpd, deals,
                _chunk_bounds(deals, gpd, c.first_chunk_games, c.max_chunk_games))


# --- running --------------------------------------------------------------------------------


@dataclass
class ChunkInfo:
    """Passed to ``on_chunk`` after each chunk is kept."""

    chunk: int
    games_done: int
    games_max: int
    seconds: float
    max_halfwidth: float


@dataclass
class TournamentResult:
    """A finished tournament: its plan, summary tables and run facts."""

    plan: Plan
    summary: Summary
    games: int
    deals: int
    stopped: str  # "games" (all planned), "until-ci" (intervals narrow enough) or "cap"
    max_halfwidth: float
    seconds: float
    seconds_total: float
    out: Path | None = None
    notes: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    deal_totals: dict = field(default_factory=dict)  # strategy id -> per-deal totals (keep_deals)
    report_seconds: float = 0.0  # writing the report (tables, plots) at the end

    @property
    def games_per_second(self) -> float:
        """Games per second of wall time over the whole run (all sessions), not counting the
        writing of the report at the end (its plots take seconds whatever the run's size)."""
        play = self.seconds_total - self.report_seconds
        return self.games / play if play > 0 else float("nan")

    def to_json(self) -> dict:
        """One JSON-ready object: run settings, per-strategy results, pairs, seats and (with
        strategies at more than one table) the head-to-head rows."""
        from sim.study.summary import frame_records

        s = self.plan.settings()
        seats = self.summary.seats
        return {
            "kind": "tournament",
            "format": s["format"], "players": s["players"], "strategies_given": s["strategies"],
            "games": self.games, "deals": self.deals, "games_per_deal": self.plan.games_per_deal,
            "games_requested": s["games"], "seed": s["seed"], "rules": self.plan.ruleset.name,
            "overrides": s["overrides"], "rules_hash": s["rules_hash"], "until_ci": s["until_ci"],
            "stopped": self.stopped, "max_win_share_halfwidth": _num(self.max_halfwidth),
            "detail": s["detail"], "duplicate": s["duplicate"],
            "out": str(self.out) if self.out is not None else None,
            "seconds": round(self.seconds_total, 3),
            "games_per_second": _num(round(self.games_per_second, 1)),
            "report_seconds": round(self.report_seconds, 3),
            "strategies": [{**r, "spec": st.spec, "params": st.values}
                           for r, st in zip(self.summary.records(), self.plan.strategies)],
            "pairs": frame_records(self.summary.pairs),
            "seats": frame_records(seats[seats["strategy"] == "all"].drop(columns="strategy")),
            "head_to_head": (frame_records(self.summary.head_to_head)
                             if self.summary.head_to_head is not None else None),
            "rating_note": self.summary.info.get("rating_note", ""),
            "interval_methods": self.summary.info.get("interval_methods", {}),
            "notes": list(self.notes),
        }


def _num(x):
    return None if x is None or (isinstance(x, float) and not math.isfinite(x)) else x


def stop_reached(acc: Accumulator, until_ci: float | None) -> bool:
    """True once every strategy's 95% win-share interval (deals as the unit, the interval the
    report shows) is within +-until_ci."""
    if until_ci is None or acc.games == 0:
        return False
    return bool(np.all(acc.win_share_halfwidth() <= until_ci))


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
    ``backend`` (entered; default local, see ``sim.study.backend``) plays the chunks; the
    result is the same whatever it is.
    """
    from sim.study import reports

    plan = config if isinstance(config, Plan) else resolve_plan(config)
    notes: list[str] = []

    def say(msg: str) -> None:
        notes.append(msg)
        if note:
            note(msg)

    acc = Accumulator(plan.names, plan.players, plan.rounds, paired=plan.config.duplicate,
                      keep_deals=keep_deals, head_to_head=len(plan.tables) > 1)
    if out is not None:
        import sim.study.plots  # noqa: F401 - the report writer needs it; importing matplotlib takes
        # a second or two, which is no part of the run's time
    warm_statistics()  # the accumulator's compiled sums: loaded (or compiled) outside the clock
    source = (backend or LOCAL).chunks(plan)  # a cluster's workers set up outside the clock too
    t0 = time.perf_counter()
    writer = None
    chunks_done = 0
    seconds_before = 0.0
    if out is not None:
        writer = reports.ReportWriter(Path(out), plan, resume=resume, force=force, argv=argv, note=say)
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
        while k < len(plan.chunk_bounds) - 1 and not stop_reached(acc, plan.config.until_ci):
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
                                   float(np.max(acc.win_share_halfwidth()))))
            if stop_after_chunks is not None and new_chunks >= stop_after_chunks \
                    and k < len(plan.chunk_bounds) - 1:
                raise KeyboardInterrupt
        halfwidth = float(np.max(acc.win_share_halfwidth()))
        if plan.config.until_ci is None:
            stopped = "games"
        else:
            stopped = "until-ci" if halfwidth <= plan.config.until_ci else "cap"
        seconds = time.perf_counter() - t0
        summary = acc.summary()
        result = TournamentResult(plan, summary, acc.games, acc.deals, stopped, halfwidth,
                                  seconds, seconds + seconds_before, Path(out) if out else None, notes,
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
                           **{k: (tuple(v) if k == "overrides" else v) for k, v in kwargs.items() if k in fields})
    rest = {k: v for k, v in kwargs.items() if k not in fields}
    return run_tournament(cfg, **rest)
