"""Running ``quacks balance``: every part on the same deals, through the project's backends.

:func:`plan_balance` checks the settings and lays every part out before a game is played (the
field's tournament with rounds detail for the game figures, the two skill lineups, the targets
file against the metric names, and that the card, witch and book measurements exist);
:func:`run_balance` plays them (local or Dask, see ``sim.study.tournament.backend``; the result
is the same to the last digit) and returns a :class:`BalanceResult`.

Every part plays deals ``0 .. deals - 1`` of the same seed in every seating, so every part's
deal ``d`` starts from the same random streams. Games are reduced chunk by chunk to per-deal
totals (whole deals per chunk), so memory stays small and nothing depends on threads, chunks or
the backend.
"""

from __future__ import annotations

import importlib
import importlib.util
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import pandas as pd

from sim.study.balance import game as game_figures
from sim.study.balance import skill as skill_figures
from sim.study.balance.settings import PARTS, BalanceSettings
from sim.study.balance.targets import check_decided, check_names, check_targets, load_targets
from sim.study.common.settings import placed_backend
from sim.study.compare.stats import DealTotals
from sim.study.tournament.plan import Plan, TournamentConfig, resolve_plan

# The measurements that live in their own modules: part -> (module, function). Each is called
# as function(rules, overrides, players, field, deals, seed, backend) -> DataFrame.
MEASUREMENTS = {"cards": ("sim.study.balance.cards", "card_effects"),
                "witches": ("sim.study.balance.witches", "witch_effects"),
                "books": ("sim.study.balance.books", "book_effects")}
ROUND_COLUMNS = ("game", "round", "seat", "score", "exploded")  # what the game figures read
# Chunks of the game and skill parts: a first of about 2,000 games, doubling up to 16,000 (the
# game part's round rows of one chunk: about 8 MB). Results never depend on them.
CHUNKS = {"first_chunk_games": 2_000, "max_chunk_games": 16_000}

Progress = Callable[[str, int | None, int | None], None]  # (part, games done, games in it)


class BalanceError(ValueError):
    """Settings that cannot run; the message is one line naming the option."""


@dataclass
class BalancePlan:
    """A checked run: the settings, the plans of the game part and of each skill lineup, the
    target bands and the metric names they may use."""

    settings: BalanceSettings
    game: Plan
    skill: dict[str, Plan]
    bands: dict[str, tuple[float, float]]

    @property
    def ruleset(self):
        return self.game.ruleset

    @property
    def rounds(self) -> int:
        return self.game.rounds

    @property
    def players(self) -> int:
        return self.game.players


def _plan(s: BalanceSettings, strategies, fmt: str, detail: str) -> Plan:
    return resolve_plan(TournamentConfig(
        strategies=tuple(strategies), players=s.players, format=fmt, games=s.deals * s.players,
        seed=s.seed, rules=s.rules, overrides=s.overrides, detail=detail, **CHUNKS))


def _measurement(part: str):
    """The function of a card, witch or book measurement, or BalanceError if it is missing."""
    module, name = MEASUREMENTS[part]
    if importlib.util.find_spec(module) is None:
        raise BalanceError(f"the {part} measurement ({module}.{name}) is not in this version; "
                           f"leave it out with --parts "
                           f"{','.join(p for p in PARTS if p != part)}")
    return getattr(importlib.import_module(module), name)


def plan_balance(s: BalanceSettings) -> BalancePlan:
    """Check the settings and lay out every part; raise BalanceError (or the ruleset's, the
    strategy parser's or the tournament's own one-line ValueError)."""
    from sim.api.game import check_players
    from sim.rules.ruleset import load_ruleset

    unknown = [p for p in s.parts if p not in PARTS]
    if unknown or not s.parts:
        raise BalanceError(f"--parts {','.join(s.parts)}: expected one or more of "
                           f"{', '.join(PARTS)}")
    if not s.field:
        raise BalanceError("--field: give at least one strategy, e.g. expert,balanced,greedy,ev")
    if not s.weak:
        raise BalanceError("--weak: give at least one strategy, e.g. balanced,greedy,cautious")
    rs = load_ruleset(s.rules, list(s.overrides))
    rs.check_implemented()
    lo, hi = max(2, int(rs.game("min_players"))), int(rs.game("max_players"))
    if not lo <= s.players <= hi:
        raise BalanceError(f"--players {s.players}: expected {lo} to {hi} for rules "
                           f"{rs.display}")
    check_players(rs, s.players)
    if s.deals < 2:
        raise BalanceError(f"--games {s.games}: expected at least {2 * s.players} (two deals of "
                           f"{s.players} seatings; intervals need two deals)")
    game = _plan(s, s.seated, "rotate", "rounds")
    skill = {}
    if s.runs("skill"):
        skill = {name: _plan(s, specs, "vs-field", "games")
                 for name, specs in skill_figures.lineups(s.strong, s.weak, s.players).items()}
    for part in MEASUREMENTS:
        if s.runs(part):
            _measurement(part)
    bands = {}
    if s.targets is not None:
        bands = load_targets(s.targets)
        check_decided(bands, game_figures.decided(game.rounds), s.targets)
        known = [*game_figures.metric_names(game.players, game.rounds),
                 *skill_figures.METRIC_NAMES]
        check_names(bands, known, s.targets,
                    [*game_figures.name_patterns(game.players, game.rounds),
                     *skill_figures.METRIC_NAMES])
    return BalancePlan(s, game, skill, bands)


def _chunks(plan: Plan, backend, reduce, step: Callable[[int], None],
            rounds: bool) -> DealTotals:
    """Every chunk of ``plan`` played by ``backend`` and reduced by ``reduce(games, rounds)``
    to per-deal totals; ``step(games)`` after each chunk."""
    source = backend.chunks(plan)
    parts = []
    blocks: list[dict] = []

    def keep(block: dict) -> None:  # a chunk's rounds rows come in blocks, before its games
        blocks.append({c: block[c] for c in ROUND_COLUMNS})

    try:
        for k in range(len(plan.chunk_bounds) - 1):
            blocks.clear()
            rows = source.rows(k, on_rounds=keep if rounds else None)
            rd = {c: _concat([b[c] for b in blocks]) for c in ROUND_COLUMNS} if rounds else None
            parts.append(reduce(rows.games, rd))
            step(rows.n_games)
    finally:
        source.close()
    return DealTotals.concat(parts)


def _concat(arrays: list):
    import numpy as np

    return arrays[0] if len(arrays) == 1 else np.concatenate(arrays)


def run_balance(settings: BalanceSettings | BalancePlan, *, backend=None,
                progress: Progress | None = None) -> BalanceResult:
    """Play every part of the run and return its result. ``backend``: an entered backend
    (default: the one the settings name, entered here). ``progress(part, done, total)`` as the
    games go (``done`` and ``total`` None for a part that does not report its games). Ctrl-C
    raises KeyboardInterrupt; nothing is written."""
    from sim.stats.clusters import warm

    plan = settings if isinstance(settings, BalancePlan) else plan_balance(settings)
    s = plan.settings
    with placed_backend(s, backend) as backend:
        say = progress or (lambda part, done, total: None)
        warm()
        t0 = time.perf_counter()
        tables: dict[str, pd.DataFrame | None] = dict.fromkeys(PARTS)
        played = 0

        def counter(part: str, total: int):
            done = [0]
            say(part, 0, total)

            def step(games: int) -> None:
                done[0] += games
                say(part, done[0], total)
            return step

        if s.runs("game"):
            p = plan.game
            totals = _chunks(p, backend, lambda g, r: game_figures.deal_totals(
                g, r, players=p.players, rounds_per_game=p.rounds),
                counter("game", p.max_games), rounds=True)
            tables["game"] = game_figures.game_table(totals, p.players, p.rounds)
            played += p.max_games
        if s.runs("skill"):
            step = counter("skill", sum(p.max_games for p in plan.skill.values()))
            totals = {name: _chunks(p, backend, lambda g, r: skill_figures.focus_totals(g), step,
                                    rounds=False) for name, p in plan.skill.items()}
            tables["skill"] = skill_figures.skill_table(
                totals["strong"], totals["weak"], players=plan.players, strong_spec=s.strong,
                weak_specs=s.weak)
            played += sum(p.max_games for p in plan.skill.values())
        for part in MEASUREMENTS:
            if s.runs(part):
                say(part, None, None)
                tables[part] = _measurement(part)(s.rules, list(s.overrides), s.players, s.seated,
                                                  s.deals, s.seed, backend)
        figures = [t[["metric", "label", "value", "ci_lo", "ci_hi"]]
                   for t in (tables["game"], tables["skill"]) if t is not None]
        tables["targets"] = check_targets(plan.bands, pd.concat(figures, ignore_index=True)
                                          if figures else pd.DataFrame())
        return BalanceResult(plan, tables, time.perf_counter() - t0, played)


def records(df: pd.DataFrame | None) -> list[dict] | None:
    """A table as JSON-ready rows (one dict per row, its columns as keys; missing values None),
    or None for a part that did not run."""
    if df is None:
        return None
    clean = df.astype(object).where(df.notna(), None)
    return [{k: (v.item() if hasattr(v, "item") else v) for k, v in r.items()}
            for r in clean.to_dict(orient="records")]


@dataclass
class BalanceResult:
    """A finished run: its plan, one table per part (None for a part left out) and
    ``targets``, the seconds it took, the games the game and skill parts played (``played``)."""

    plan: BalancePlan
    tables: dict[str, pd.DataFrame | None]
    seconds: float
    played: int
    notes: list[str] = field(default_factory=list)

    @property
    def settings(self) -> BalanceSettings:
        return self.plan.settings

    def to_json(self) -> dict:
        """One JSON-ready object: the run (``kind`` "balance", ``rules``, ``overrides``,
        ``rules_hash``, ``players``, ``rounds``, ``strategies`` (the field by seat), ``games``
        and ``deals`` per part, ``seed``, ``settings``), then ``cards``, ``witches``, ``books``,
        ``game``, ``skill`` and ``targets`` (each a list of rows, one dict per row of its table;
        None for a part left out), ``seconds`` and ``notes``."""
        s, p = self.settings, self.plan
        out = {"kind": "balance", "rules": s.rules, "overrides": list(s.overrides),
               "rules_display": p.ruleset.display, "rules_hash": p.ruleset.hash,
               "players": p.players, "rounds": p.rounds, "strategies": s.seated,
               "games": s.deals * s.players, "deals": s.deals, "seed": s.seed,
               "settings": s.to_json()}
        out.update({name: records(self.tables.get(name)) for name in (*PARTS, "targets")})
        return {**out, "seconds": round(self.seconds, 3), "notes": list(self.notes)}
