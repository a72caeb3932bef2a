"""``quacks design``: the rule values that put every target figure inside its band.

:func:`plan_design` checks the settings before a game is played (the knobs, the targets file of
``quacks balance`` against the game figures, the rungs the budget pays for, the re-tune);
:func:`run_design` runs, in order:

1. **the search** (``sim.study.design.search``): Optuna over the knobs, every candidate on the
   same deals, successive halving as ``quacks tune``, minimising the loss of
   ``sim.study.design.loss``;
2. **the re-tune** (only with ``retune``): ``quacks tune``'s own search adapts that preset of
   the field to the best rules found (``retune_params``, ``retune_budget`` games), and the
   re-tuned spec takes the preset's seats. Without it the field re-tunes nothing: every
   candidate is played by the strategies as given, and the result says so;
3. **the re-test** on fresh deals (the seed's re-test stream, ``RETEST_SEED_OFFSET`` on, as
   ``quacks tune`` re-tests): the ruleset as given (``start``), the best rules (``best``) and,
   with a re-tune, the best rules with the re-tuned field (``retuned``), all on the same deals,
   each target checked as pass / fail / undecided (``sim.study.balance.targets``) and the
   paired difference of each target figure to the start;
4. **the Pareto front** of the search's history (``sim.study.design.loss``): the candidates no
   other beats on every band, computed from every candidate's estimates (not an Optuna
   multi-objective study), the trade-offs when the bands cannot all be met.
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import ClassVar

import pandas as pd

from sim.rules.ruleset import Ruleset, load_ruleset
from sim.stats.multiplicity import ADJUST_TEXT, DEFAULT_ADJUST, check_adjust
from sim.study.balance.settings import SeatedSettings
from sim.study.common.settings import placed_backend
from sim.study.design.defaults import DESIGN_BUDGET, RETUNE_BUDGET
from sim.study.design.knobs import Knob, check_distinct, parse_knob, start_value
from sim.study.design.measure import (
    Measured,
    check_metric_names,
    field_text,
    measure,
)
from sim.study.design.retest import pareto_table, retest_tables, side_effects
from sim.study.design.search import SearchOutcome, halving_search, plan_rungs
from sim.study.design.sensitivity import check_variant
from sim.study.tune.run import RETEST_SEED_OFFSET

ARMS = ("start", "best", "retuned")
ARM_TEXT = {"start": "the ruleset as given", "best": "the best rules found",
            "retuned": "the best rules, the field re-tuned"}
SIDE_EFFECT_FAMILY = ("every game figure of the arm that is not a target (its paired differences "
                      "to the start)")
Progress = Callable[[str, int, int], None]  # (phase, done, total)


class DesignError(ValueError):
    """Settings that cannot run; the message is one line naming the option."""


@dataclass(frozen=True)
class DesignSettings(SeatedSettings):
    """What one design run plays: the knobs (``--knob`` texts), the targets (a targets file, or
    ``bands`` given directly as (figure, low, high)), the search's budget of games and first
    rung (deals; None: the budget's / 200), the re-test's games (None: the longest rung's),
    the ruleset and field, the seed, an optional preset to re-tune (its parameters and
    budget) and where the games run (the result is the same wherever)."""

    TUPLES: ClassVar[tuple[str, ...]] = ("knobs", "overrides", "field", "retune_params")
    knobs: tuple[str, ...]
    targets: str | None = None
    bands: tuple[tuple[str, float, float], ...] = ()
    budget: int = DESIGN_BUDGET
    first_rung: int | None = None
    retest_games: int | None = None
    retune: str | None = None
    retune_params: tuple[str, ...] = ()
    retune_budget: int = RETUNE_BUDGET
    adjust: str = DEFAULT_ADJUST

    def __post_init__(self):
        super().__post_init__()
        object.__setattr__(self, "bands", tuple(tuple(b) for b in self.bands))

    def to_json(self) -> dict:
        """JSON-ready settings."""
        return {**self.json_lists(asdict(self)), "bands": [list(b) for b in self.bands]}

    def command(self) -> str:
        """The ``quacks design`` command line that reproduces the run."""
        parts = ["quacks", "design"]
        if self.targets:
            parts += ["--targets", self.targets]
        for m, lo, hi in self.bands:
            parts += ["--target", f"{m}={lo:.12g}:{hi:.12g}"]
        for k in self.knobs:
            parts += ["--knob", k]
        parts += ["--budget", str(self.budget), "--seed", str(self.seed), "--rules", self.rules]
        for o in self.overrides:
            parts += ["--set", o]
        parts += ["--players", str(self.players), "--field", ",".join(self.field)]
        if self.first_rung:
            parts += ["--first-rung", str(self.first_rung)]
        if self.retest_games:
            parts += ["--retest-games", str(self.retest_games)]
        if self.retune:
            parts += ["--retune", self.retune]
            for p in self.retune_params:
                parts += ["--retune-param", p]
            parts += ["--retune-budget", str(self.retune_budget)]
        if self.adjust != DEFAULT_ADJUST:
            parts += ["--adjust", self.adjust]
        return shlex.join(parts)


@dataclass
class DesignPlan:
    """A checked run: the knobs and their starting values, the base ruleset, the seated
    field, the bands, the rungs, the re-test's deals and the re-tune's parameters."""

    settings: DesignSettings
    knobs: list[Knob]
    start: dict[str, object]
    base: Ruleset
    seated: list[str]
    bands: dict[str, tuple[float, float]]
    rungs: list[int]
    retest_deals: int
    retune_params: list = field(default_factory=list)

    @property
    def players(self) -> int:
        """Seats per game."""
        return len(self.seated)

    @property
    def rounds(self) -> int:
        """Rounds of the ruleset as given."""
        return int(self.base.game("rounds"))


def parse_target(text: str) -> tuple[str, float, float]:
    """``METRIC=LO:HI`` (``--target``) as (figure, low, high); DesignError otherwise (the band
    itself is checked as a targets file's is)."""
    name, eq, rng = text.partition("=")
    parts = rng.split(":")
    try:
        if not eq or not name.strip() or len(parts) != 2:
            raise ValueError
        return name.strip(), float(parts[0]), float(parts[1])
    except ValueError:
        raise DesignError(f"--target {text}: expected METRIC=LO:HI, e.g. "
                          "seat0_win_share=0.24:0.26") from None


def _bands(s: DesignSettings) -> dict[str, tuple[float, float]]:
    from sim.study.balance.targets import load_targets, parse_bands

    if s.targets and s.bands:
        raise DesignError("--targets and --target: give the bands in a file or on the command "
                          "line, not both")
    if s.targets:
        return load_targets(s.targets)
    if len({m for m, _, _ in s.bands}) < len(s.bands):
        raise DesignError("--target: each figure once")
    return parse_bands({m: [lo, hi] for m, lo, hi in s.bands}, "--target")


def retune_params(s: DesignSettings, seated: list[str]) -> list:
    """The re-tune's parameters (``quacks tune``'s ``TuneParam``): ``retune_params``, or the
    preset's first number parameter over its whole range; DesignError for a preset not in
    the field."""
    from sim.study.tune.run import parse_tune_param
    from strategies.builtin import REGISTRY, parse_strategy

    if s.retune is None:
        if s.retune_params:
            raise DesignError("--retune-param: only with --retune PRESET")
        return []
    if s.retune not in seated:
        raise DesignError(f"--retune {s.retune}: not in the field ({', '.join(seated)}); give "
                          "one of its specs as written")
    name = parse_strategy(s.retune).name
    texts = list(s.retune_params)
    if not texts:
        number = [p for p in REGISTRY[name].params if p.kind in ("int", "float", "round")]
        if not number:
            raise DesignError(f"--retune {s.retune}: it has no number parameter to tune")
        p = number[0]
        texts = [f"{p.name}={p.lo:g}:{p.hi:g}"]
    params = [parse_tune_param(s.retune, t) for t in texts]
    if len({p.key for p in params}) != len(params):
        raise DesignError("--retune-param: each parameter once")
    if s.retune_budget // len(seated) < 40:  # tune's two first rungs of at least 20 deals
        raise DesignError(f"--retune-budget {s.retune_budget}: too small; give at least "
                          f"{40 * len(seated)} games")
    return params


def plan_design(s: DesignSettings) -> DesignPlan:
    """Check the settings and lay the run out; DesignError, KnobError, TargetsError,
    SearchError or the ruleset's, strategy parser's or game layer's own one-line
    ValueError."""
    from sim.study.balance.arms import seated_field

    if not s.knobs:
        raise DesignError("--knob: give at least one, e.g. --knob game.rats_from_round=1:9")
    check_adjust(s.adjust)
    if not s.targets and not s.bands:
        raise DesignError("--targets: give a targets file (each figure = [low, high]) or "
                          "--target METRIC=LO:HI")
    base = load_ruleset(s.rules, list(s.overrides))
    seated = seated_field(s.field, s.players)
    check_variant(base, seated)
    bands = _bands(s)
    if not bands:
        raise DesignError(f"{s.targets or 'targets'}: no band; write e.g. "
                          "seat0_win_share = [0.24, 0.26]")
    check_metric_names(list(bands), len(seated), int(base.game("rounds")),
                       s.targets or "--target")
    knobs = [parse_knob(t, s.rules, s.overrides) for t in s.knobs]
    check_distinct(knobs)
    start = {k.key: start_value(k, base.data) for k in knobs}
    from sim.api.limits import MAX_GAMES

    for option, v, lo in (("--first-rung", s.first_rung, 2), ("--retest-games", s.retest_games, 1),
                          ("--retune-budget", s.retune_budget, 1)):
        if v is not None and not lo <= v <= MAX_GAMES:
            raise DesignError(f"{option} {v}: expected {lo} to {MAX_GAMES}")
    rungs = plan_rungs(s.budget, len(seated), s.first_rung)
    retest = -(-int(s.retest_games) // len(seated)) if s.retest_games else rungs[-1]
    if retest < 2:
        raise DesignError(f"--retest-games {s.retest_games}: expected at least "
                          f"{2 * len(seated)} (two deals)")
    return DesignPlan(s, knobs, start, base, seated, bands, rungs, retest,
                      retune_params(s, seated))


@dataclass
class DesignResult:
    """A finished run: its plan, the search, the best candidate's values and overrides, the
    re-tune (None without one), the tables (``history``, ``targets``, ``differences``,
    ``figures``, ``pareto``), the seconds and the games of each phase."""

    plan: DesignPlan
    search: SearchOutcome
    best: dict
    retune: dict | None
    tables: dict[str, pd.DataFrame]
    seconds: float
    games: dict[str, int]

    @property
    def settings(self) -> DesignSettings:
        """The run's settings."""
        return self.plan.settings

    def verdicts(self, arm: str = "best") -> dict[str, str]:
        """Each target's verdict on the re-test of ``arm``."""
        t = self.tables["targets"]
        return dict(zip(t.loc[t["arm"] == arm, "metric"], t.loc[t["arm"] == arm, "verdict"]))

    def stop_text(self) -> str:
        """Why the search stopped and how much of its budget it used, in one sentence."""
        return self.search.stop_text(self.settings.budget)

    def to_json(self) -> dict:
        """One JSON-ready object: the run (``kind`` "design", rules, players, strategies by
        seat, seed, knobs, targets, loss), ``best`` (values, overrides, loss, deals),
        ``retuned`` (false, or the re-tune: preset, spec, improvement), ``retest`` (deals,
        seed, per arm its targets rows, the paired differences of the targets to the start and
        its side effects: the other figures the arm moves, by p-values adjusted over every figure
        of the arm (``adjust``, ``side_effects_family``)), ``pareto``,
        ``evaluations``, ``stopped`` (why the search ended: budget, space or repeats) and
        ``stop`` (that in words), ``games`` per phase, ``seconds`` and ``settings``."""
        from sim.study.balance.run import records
        from sim.study.design.loss import LOSS_TEXT

        s, p = self.settings, self.plan
        t, d = self.tables["targets"], self.tables["differences"]
        arms = list(dict.fromkeys(t["arm"]))
        return {
            "kind": "design", "rules": s.rules, "overrides": list(s.overrides),
            "rules_display": p.base.display, "rules_hash": p.base.hash, "players": p.players,
            "strategies": p.seated, "seed": s.seed, "knobs": [k.to_json() for k in p.knobs],
            "targets": {m: list(b) for m, b in p.bands.items()}, "loss": LOSS_TEXT,
            "best": self.best, "retuned": self.retune or False,
            "strategies_note": strategies_note(self), "adjust": s.adjust,
            "side_effects_family": {"family": SIDE_EFFECT_FAMILY,
                                    "method": ADJUST_TEXT[s.adjust]},
            "retest": {"deals": p.retest_deals, "games": p.retest_deals * p.players,
                       "seed": s.seed + RETEST_SEED_OFFSET,
                       "arms": {a: {"what": ARM_TEXT[a],
                                    "targets": records(t[t["arm"] == a]),
                                    "differences": records(d[(d["arm"] == a) & d["target"]]),
                                    "side_effects": records(side_effects(d, a))}
                            for a in arms}},
            "pareto": records(self.tables["pareto"]),
            "evaluations": int((self.search.history["state"] != "repeat").sum()),
            "stopped": self.search.stopped, "stop": self.stop_text(),
            "rungs": self.search.rungs, "games": self.games,
            "seconds": round(self.seconds, 3), "settings": s.to_json()}


def strategies_note(res: DesignResult) -> str:
    """What the field did about the rule changes, in one sentence."""
    if res.retune is None:
        return ("strategies not re-tuned: every candidate was played by the field as given "
                f"({field_text(res.plan.seated)}); --retune PRESET adapts one to the best rules "
                "before the re-test")
    r = res.retune
    return (f"{r['preset']} re-tuned to the best rules by quacks tune ({r['games']:,} games): "
            f"{r['spec']}, win share {r['improvement']:+.4f} [{r['improvement_ci'][0]:+.4f}, "
            f"{r['improvement_ci'][1]:+.4f}] against the preset (paired, tune's re-test)")


def run_design(settings: DesignSettings | DesignPlan, *, backend=None,
               progress: Progress | None = None) -> DesignResult:
    """Search, re-tune (if asked) and re-test (see the module). ``backend``: an entered backend
    (default: the one the settings name, entered here); ``progress(phase, done, total)``."""
    from sim.stats.clusters import warm

    plan = settings if isinstance(settings, DesignPlan) else plan_design(settings)
    s = plan.settings
    with placed_backend(s, backend) as backend:
        warm()
        say = progress or (lambda phase, done, total: None)
        t0 = time.perf_counter()
        outcome = _search(plan, backend, lambda done, total: say("search", done, total))
        best_row = outcome.best()
        best_over = [k.override(_row_value(k, best_row[k.key])) for k in plan.knobs]
        best_rs = load_ruleset(s.rules, [*s.overrides, *best_over])
        retune, tuned_field = None, None
        games = {"search": outcome.games, "retune": 0, "retest": 0}
        if s.retune is not None:
            say("re-tune", 0, s.retune_budget)
            retune, tuned_field = _retune(plan, best_rs, backend)
            games["retune"] = retune["games"]
        arms = {"start": (plan.base, plan.seated), "best": (best_rs, plan.seated)}
        if tuned_field is not None:
            arms["retuned"] = (best_rs, tuned_field)
        seed = s.seed + RETEST_SEED_OFFSET
        measured: dict[str, Measured] = {}
        for i, (arm, (rs, seated)) in enumerate(arms.items()):
            say("re-test", i, len(arms))
            measured[arm] = measure(rs, seated, seed, 0, plan.retest_deals, backend)
            games["retest"] += plan.retest_deals * plan.players
        tables = retest_tables(plan, measured, {a: (rs.hash, tuple(seated))
                                                 for a, (rs, seated) in arms.items()})
        tables["history"] = outcome.history
        tables["pareto"] = pareto_table(outcome.history, plan.bands)
        best = {"values": {k.key: k.cast(_row_value(k, best_row[k.key])) for k in plan.knobs},
                "labels": {k.key: k.label(_row_value(k, best_row[k.key])) for k in plan.knobs},
                "overrides": best_over, "trial": int(best_row["trial"]),
                "deals": int(best_row["deals"]), "loss": float(best_row["loss"]),
                "objective": float(best_row["objective"]),
                "start": {k.key: k.label(plan.start[k.key]) for k in plan.knobs}}
        return DesignResult(plan, outcome, best, retune, tables, time.perf_counter() - t0, games)


def _row_value(knob: Knob, v):
    """A history cell back to the knob's value (a choice's label to its alternative)."""
    if knob.kind == "choice":
        return knob.values[knob.labels.index(str(v))]
    return knob.cast(v)


def _search(plan: DesignPlan, backend, progress) -> SearchOutcome:
    from sim.api.errors import GameInputError
    from sim.rules.ruleset import RulesetError

    s = plan.settings

    def evaluate(overrides: list[str], d0: int, d1: int, so_far: Measured | None) -> Measured:
        rs = load_ruleset(s.rules, [*s.overrides, *overrides])
        check_variant(rs, plan.seated)
        more = measure(rs, plan.seated, s.seed, d0, d1, backend)
        return more if so_far is None else so_far.extend(more.totals)

    return halving_search(plan.knobs, plan.start, plan.bands, evaluate, players=plan.players,
                          budget=s.budget, seed=s.seed, rung_deals=plan.rungs,
                          invalid=(RulesetError, GameInputError), progress=progress)


def _retune(plan: DesignPlan, rules: Ruleset, backend) -> tuple[dict, list[str]]:
    """``quacks tune`` of the preset against the rest of the field under the best rules; the
    re-tune's summary and the field with the re-tuned spec in the preset's seats."""
    from sim.study.tune.run import tune

    s = plan.settings
    others = list(plan.seated)
    others.remove(s.retune)
    res = tune(s.retune, plan.retune_params, others, rules, players=plan.players,
               budget=s.retune_budget, seed=s.seed, backend=backend)
    summary = {"preset": s.retune, "spec": res.best, "values": res.best_values,
               "win_share": res.best_win_share, "win_share_ci": list(res.best_win_share_ci),
               "preset_win_share": res.start_win_share,
               "preset_win_share_ci": list(res.start_win_share_ci),
               "improvement": res.improvement, "improvement_ci": list(res.improvement_ci),
               "evaluations": res.evaluations, "games": res.games,
               "params": [f"{p.key}={p.lo:g}:{p.hi:g}" for p in plan.retune_params]}
    return summary, [res.best if x == s.retune else x for x in plan.seated]
