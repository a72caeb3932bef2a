"""``quacks sensitivity``: how each ruleset knob moves the balance figures, on the same deals.

Each knob is swept over its values with every other key as the ruleset gives it (one knob at a
time); with ``pair`` two knobs are also played on the grid of their values. Every value (every
cell) plays the same deals ``0 .. deals - 1`` of the seed in every seating of the field
(``sim.study.design.measure``), so the figures of two values are paired by deal and each figure
at a value is the one ``quacks balance --set KEY=VALUE`` reports. Two arms that resolve to the
same ruleset are played once. The statistics are in ``sim.study.design.effects``.
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import ClassVar

import pandas as pd

from sim.rules.ruleset import Ruleset, load_ruleset
from sim.stats.multiplicity import DEFAULT_ADJUST, check_adjust
from sim.study.balance.settings import SeatedSettings
from sim.study.common.settings import placed_backend
from sim.study.design import effects as fx
from sim.study.design.defaults import DEFAULT_METRICS, DEFAULT_STEPS
from sim.study.design.defaults import SENSITIVITY_GAMES as DEFAULT_GAMES
from sim.study.design.knobs import Knob, KnobError, check_distinct, parse_knob
from sim.study.design.measure import (
    Measured,
    check_metric_names,
    figure_row,
    measure,
    metric_info,
)

LEVEL_COLUMNS = ("knob", "setting", "x", "metric", "label", "value", "ci_lo", "ci_hi", "n",
                 "deals")
PAIR_COLUMNS = ("a", "a_setting", "a_x", "b", "b_setting", "b_x", "metric", "label", "value",
                "ci_lo", "ci_hi", "n", "deals")
Progress = Callable[[int, int], None]


class SensitivityError(ValueError):
    """Settings that cannot run; the message is one line naming the option."""


@dataclass(frozen=True)
class SensitivitySettings(SeatedSettings):
    """What one sensitivity run plays: the knobs (``--knob`` texts), the values per range
    (``steps``), the ruleset, the field (cycled to ``players`` seats), the games per value, the
    seed, an optional ``pair`` of knob keys for a grid, the figures analysed (``metrics``) and
    where the games run (the result is the same wherever)."""

    TUPLES: ClassVar[tuple[str, ...]] = ("knobs", "overrides", "field", "metrics")
    knobs: tuple[str, ...]
    steps: int = DEFAULT_STEPS
    games: int = DEFAULT_GAMES
    pair: tuple[str, str] | None = None
    metrics: tuple[str, ...] = DEFAULT_METRICS
    adjust: str = DEFAULT_ADJUST

    def __post_init__(self):
        super().__post_init__()
        if self.pair is not None:
            object.__setattr__(self, "pair", tuple(self.pair))

    @property
    def deals(self) -> int:
        """Deals per value: ``games`` rounded up to whole deals of ``players`` seatings."""
        return -(-int(self.games) // max(1, int(self.players)))

    def to_json(self) -> dict:
        """JSON-ready settings and the deals they give."""
        d = self.json_lists(asdict(self))
        d["pair"] = list(self.pair) if self.pair else None
        return {**d, "deals": self.deals}

    def command(self) -> str:
        """The ``quacks sensitivity`` command line that reproduces the run."""
        parts = ["quacks", "sensitivity"]
        for k in self.knobs:
            parts += ["--knob", k]
        parts += ["--steps", str(self.steps), "--rules", self.rules]
        for o in self.overrides:
            parts += ["--set", o]
        parts += ["--players", str(self.players), "--field", ",".join(self.field),
                  "--games", str(self.games), "--seed", str(self.seed)]
        if self.pair:
            parts += ["--pair", *self.pair]
        if self.metrics != DEFAULT_METRICS:
            parts += ["--metrics", ",".join(self.metrics)]
        if self.adjust != DEFAULT_ADJUST:
            parts += ["--adjust", self.adjust]
        return shlex.join(parts)


@dataclass
class SensitivityPlan:
    """A checked run: the knobs, the seated field, every distinct ruleset to play (by hash, in
    play order), each knob value's and each pair cell's ruleset hash."""

    settings: SensitivitySettings
    knobs: list[Knob]
    base: Ruleset
    seated: list[str]
    rulesets: dict[str, Ruleset]
    values: list[list[str]]  # per knob, per value: the ruleset hash
    cells: dict[tuple[int, int], str] = field(default_factory=dict)  # (i of A, j of B) -> hash

    @property
    def players(self) -> int:
        """Seats per game."""
        return len(self.seated)

    @property
    def games(self) -> int:
        """Games the run plays."""
        return len(self.rulesets) * self.settings.deals * self.players


def check_variant(rs: Ruleset, seated: list[str]) -> None:
    """One-line ValueError unless the field can play this ruleset (players, per-round values)."""
    from sim.api.game import check_players, check_round_values
    from strategies.builtin import parse_strategy

    rs.check_implemented()
    check_players(rs, len(seated))
    check_round_values(rs, [parse_strategy(s) for s in dict.fromkeys(seated)])


def plan_sensitivity(s: SensitivitySettings) -> SensitivityPlan:
    """Check the settings and lay out every arm; SensitivityError, KnobError or the ruleset's,
    strategy parser's or game layer's own one-line ValueError."""
    from sim.study.balance.arms import seated_field

    if not s.knobs:
        raise SensitivityError("--knob: give at least one, e.g. --knob game.explosion_limit=5:9")
    base = load_ruleset(s.rules, list(s.overrides))
    seated = seated_field(s.field, s.players)
    check_variant(base, seated)
    if s.deals < 2:
        raise SensitivityError(f"--games {s.games}: expected at least {2 * s.players} (two deals "
                               f"of {s.players} seatings; intervals need two deals)")
    check_adjust(s.adjust)
    if not s.metrics:
        raise SensitivityError("--metrics: give at least one figure, e.g. seat0_win_share")
    check_metric_names(s.metrics, s.players, int(base.game("rounds")), "--metrics")
    knobs = [parse_knob(t, s.rules, s.overrides, s.steps) for t in s.knobs]
    check_distinct(knobs)
    rulesets: dict[str, Ruleset] = {}

    def arm(extra: list[str]) -> str:
        rs = load_ruleset(s.rules, [*s.overrides, *extra])
        check_variant(rs, seated)
        rulesets.setdefault(rs.hash, rs)
        return rs.hash

    values = [[arm([k.override(v)]) for v in k.values] for k in knobs]
    cells = {}
    if s.pair is not None:
        keys = [k.key for k in knobs]
        a, b = s.pair
        for p in (a, b):
            if p not in keys:
                raise KnobError(f"--pair {a} {b}: {p} is not a --knob key; the knobs are "
                                f"{', '.join(keys)}")
        if a == b:
            raise KnobError(f"--pair {a} {b}: give two different knobs")
        ka, kb = knobs[keys.index(a)], knobs[keys.index(b)]
        cells = {(i, j): arm([ka.override(va), kb.override(vb)])
                 for i, va in enumerate(ka.values) for j, vb in enumerate(kb.values)}
    return SensitivityPlan(s, knobs, base, seated, rulesets, values, cells)


@dataclass
class SensitivityResult:
    """A finished run: its plan, the tables (``levels``, ``differences``, ``effects``,
    ``ranking`` and, with a pair, ``pair``), the seconds it took and the games played."""

    plan: SensitivityPlan
    tables: dict[str, pd.DataFrame]
    seconds: float
    played: int

    @property
    def settings(self) -> SensitivitySettings:
        """The run's settings."""
        return self.plan.settings

    def no_effect(self) -> list[str]:
        """The knobs that move none of the figures analysed."""
        return fx.no_effect(self.tables["ranking"])

    def to_json(self) -> dict:
        """One JSON-ready object: the run (``kind`` "sensitivity", rules, players, strategies by
        seat, games and deals per value, seed, knobs, metrics, settings), then ``ranking``,
        ``no_effect``, ``effects``, ``differences``, ``levels`` (every figure at every value)
        and ``pair`` (None without one), ``seconds``, ``games_played``."""
        from sim.study.balance.run import records

        s, p = self.settings, self.plan
        return {"kind": "sensitivity", "rules": s.rules, "overrides": list(s.overrides),
                "rules_display": p.base.display, "rules_hash": p.base.hash,
                "players": p.players, "strategies": p.seated,
                "games": s.deals * p.players, "deals": s.deals, "seed": s.seed,
                "knobs": [k.to_json() for k in p.knobs], "metrics": list(s.metrics),
                "pair": list(s.pair) if s.pair else None, "adjust": s.adjust,
                "families": family_text(s.adjust), "settings": s.to_json(),
                "ranking": records(self.tables["ranking"]), "no_effect": self.no_effect(),
                "effects": records(self.tables["effects"]),
                "differences": records(self.tables["differences"]),
                "levels": records(self.tables["levels"]),
                "pair_grid": records(self.tables.get("pair")),
                "seconds": round(self.seconds, 3), "games_played": self.played}


def family_text(method: str) -> dict[str, str]:
    """What each flag and interval of a sensitivity run is adjusted over, and how
    (``run.json``)."""
    from sim.stats.multiplicity import ADJUST_TEXT, METHOD_KNOB_WIDE, METHOD_SIMULTANEOUS

    holm = method == "holm"
    how = (ADJUST_TEXT[method] + (": Holm's step-down with the max-|t| bound of the "
                                  "simultaneous intervals in place of Bonferroni's, so a flag "
                                  "never contradicts its interval" if holm else ""))
    return {"method": how,
            "moves, pairs_moving, differences' p_adj": "all pairs of values of one knob for "
            "one figure",
            "ranking's figures moved, effect and p_adj": (
                "every pair of every figure of one knob, the family of the ranking's interval "
                "(each figure's smallest adjusted p-value)" if holm else
                "the figures of one knob (each figure's family p_adj, adjusted again over the "
                "knob's figures)"),
            "effects' interval": METHOD_SIMULTANEOUS,
            "ranking's interval": METHOD_KNOB_WIDE,
            "rank_lo, rank_hi": f"percentile bootstrap over deals ({fx.RANK_REPS} resamples)"}


def _level_rows(knob: str, setting: str, x: float, m: Measured) -> list[dict]:
    est, info = m.estimates(), metric_info(m.players, m.rounds)
    return [{"knob": knob, "setting": setting, "x": x, **figure_row(name, est[name], i)}
            for name, i in info.items()]


def run_sensitivity(settings: SensitivitySettings | SensitivityPlan, *, backend=None,
                    progress: Progress | None = None) -> SensitivityResult:
    """Play every arm and return the result. ``backend``: an entered backend (default: the one
    the settings name, entered here); ``progress(games done, games in all)``."""
    from sim.stats.clusters import warm

    plan = settings if isinstance(settings, SensitivityPlan) else plan_sensitivity(settings)
    s = plan.settings
    with placed_backend(s, backend) as backend:
        warm()
        t0 = time.perf_counter()
        played: dict[str, Measured] = {}
        per = s.deals * plan.players
        for h, rs in plan.rulesets.items():
            played[h] = measure(rs, plan.seated, s.seed, 0, s.deals, backend)
            if progress:
                progress(len(played) * per, plan.games)
        levels, families = [], []
        for k, hashes in zip(plan.knobs, plan.values):
            arms = [played[h] for h in hashes]
            for v, m in zip(k.values, arms):
                levels += _level_rows(k.key, k.label(v), k.x(v), m)
            families += fx.pair_families(k.key, k.labels, [m.estimates() for m in arms], s.metrics,
                                         hashes)
        tables = {"levels": pd.DataFrame(levels, columns=list(LEVEL_COLUMNS)),
                  **fx.analyse(families, [k.key for k in plan.knobs], s.adjust, s.seed)}
        if plan.cells:
            tables["pair"] = _pair_table(plan, played)
        return SensitivityResult(plan, tables, time.perf_counter() - t0, len(played) * per)


def _pair_table(plan: SensitivityPlan, played: dict[str, Measured]) -> pd.DataFrame:
    keys = [k.key for k in plan.knobs]
    a, b = plan.settings.pair
    ka, kb = plan.knobs[keys.index(a)], plan.knobs[keys.index(b)]
    rows = []
    for (i, j), h in plan.cells.items():
        m = played[h]
        est, info = m.estimates(), metric_info(m.players, m.rounds)
        va, vb = ka.values[i], kb.values[j]
        for name in plan.settings.metrics:
            rows.append({"a": a, "a_setting": ka.label(va), "a_x": ka.x(va), "b": b,
                         "b_setting": kb.label(vb), "b_x": kb.x(vb),
                         **figure_row(name, est.get(name), info.get(name))})
    return pd.DataFrame(rows, columns=list(PAIR_COLUMNS))
