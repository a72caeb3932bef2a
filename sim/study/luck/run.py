"""``quacks luck``: play the pick-freeze design of every variant (``sim.study.luck.design``) on a
backend and estimate each source's share of the variance of seat 0's outcome, the skill side
(the seating's share) and, for every pair of strategies in the lineup, how many games the
stronger needs to win a best-of-N match with 95% probability.

Every variant plays the same rows (the same game indices and rotations), so two variants'
shares are paired by row: their differences get intervals from the rows' paired influence
values (delta method).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sim.rules.ruleset import Ruleset
from sim.stats.intervals import Z95
from sim.stats.sobol import SobolIndices, games_to_win, sobol_indices
from sim.study.luck.design import (
    OUTCOMES,
    SEATING,
    LuckError,
    LuckSettings,
    Source,
    make_design,
    pieces,
    rows_for,
    seated,
    sources,
)

Progress = Callable[[int, int], None]

SHARE_COLUMNS = ("variant", "input", "kind", "outcome", "first", "first_lo", "first_hi",
                 "total", "total_lo", "total_hi", "first_raw", "total_raw", "consistent",
                 "rows", "games")
SUMMARY_COLUMNS = ("variant", "outcome", "mean", "sd", "skill", "skill_lo", "skill_hi", "luck",
                   "luck_lo", "luck_hi", "interactions", "interactions_lo", "interactions_hi",
                   "top_source", "rows", "games")
MATCH_COLUMNS = ("variant", "stronger", "weaker", "p", "p_lo", "p_hi", "best_of",
                 "best_of_lo", "best_of_hi", "games")
DIFF_COLUMNS = ("variant", "reference", "input", "outcome", "total_diff", "ci_lo", "ci_hi",
                "rows")


FIELDS = 3  # per seat: win share, VP, rank


def outcome_fields(res) -> np.ndarray:
    """A batch's per-seat (win share, VP, rank): what ``quacks luck`` keeps (module level: the
    Dask backend sends it to the workers)."""
    from sim.api.columns import final_rank, final_vp, win_shares

    return np.stack([win_shares(res.out), final_vp(res.out), final_rank(res.out)],
                    axis=-1).astype(np.float64)


def seat0_outcomes(f: np.ndarray) -> dict[str, np.ndarray]:
    """Seat 0's outcomes per game: win share, VP, rank."""
    return {"win": f[:, 0, 0], "vp": f[:, 0, 1], "rank": f[:, 0, 2]}


@dataclass
class VariantLuck:
    """One variant's games' outcomes (rows x (inputs + 2) x seats x fields) and its indices per
    outcome."""

    label: str
    ruleset: Ruleset
    fields: np.ndarray
    indices: dict[str, SobolIndices] = field(default_factory=dict)

    def outcome(self, name: str) -> np.ndarray:
        """rows x (inputs + 2): seat 0's outcome ``name`` in each game of the design."""
        r, per = self.fields.shape[:2]
        return seat0_outcomes(self.fields.reshape(r * per, *self.fields.shape[2:]))[name] \
            .reshape(r, per)


@dataclass
class LuckPlan:
    """A checked run: the settings, each variant's ruleset, the seated lineup, the inputs and
    the rows of the design."""

    settings: LuckSettings
    rulesets: list[Ruleset]
    seated: list[str]
    inputs: list[Source]
    rows: int

    @property
    def base(self) -> Ruleset:
        """The first variant's ruleset (the reference)."""
        return self.rulesets[0]

    @property
    def players(self) -> int:
        return len(self.seated)

    @property
    def games_per_variant(self) -> int:
        return self.rows * (len(self.inputs) + 2)

    @property
    def games(self) -> int:
        return self.games_per_variant * len(self.rulesets)


def plan_luck(s: LuckSettings) -> LuckPlan:
    """Check the settings (one-line LuckError, or the ruleset's, strategy parser's or game
    layer's own ValueError) and lay out the design."""
    from sim.api.game import check_players, check_round_values
    from sim.rules.ruleset import load_ruleset
    from strategies.builtin import parse_strategy

    if s.players < 2:
        raise LuckError(f"--players {s.players}: expected at least 2")
    if not s.strategies:
        raise LuckError("--strategies: give at least one")
    lineup = seated(s.strategies, s.players)
    parsed = [parse_strategy(x) for x in dict.fromkeys(lineup)]
    rulesets = []
    for v in s.variants:
        rs = load_ruleset(v.rules, list(v.overrides))
        rs.check_implemented()
        check_players(rs, len(lineup))
        check_round_values(rs, parsed)
        rulesets.append(rs)
    teams = bool(rulesets[0].game("teams"))
    inputs = sources(s.players // 2 if teams else s.players)
    rows = rows_for(s.games, len(inputs))
    if rows < 10:
        raise LuckError(f"--games {s.games}: expected at least {10 * (len(inputs) + 2)} (ten "
                        f"rows of the design, {len(inputs) + 2} games each)")
    return LuckPlan(s, rulesets, lineup, inputs, rows)


@dataclass
class LuckResult:
    """A finished run: the plan, each variant's indices, the tables and the wall time."""

    settings: LuckSettings
    plan: LuckPlan
    variants: list[VariantLuck]
    tables: dict[str, pd.DataFrame]
    seconds: float

    def to_json(self) -> dict:
        """The settings and the headline tables, JSON-ready."""
        return {"settings": self.settings.to_json(), "rows": self.plan.rows,
                "games": self.plan.games, "seconds": round(self.seconds, 3),
                "summary": self.tables["summary"].to_dict(orient="records"),
                "shares": self.tables["shares"].to_dict(orient="records"),
                "matches": self.tables["matches"].to_dict(orient="records"),
                "differences": self.tables["differences"].to_dict(orient="records")
                if "differences" in self.tables else []}


def play_variant(plan: LuckPlan, k: int, backend, progress: Progress | None,
                 done: int) -> VariantLuck:
    """Variant k's design played on ``backend`` (games counted on from ``done``)."""
    from sim.study.tournament.local import LOCAL

    be = backend or LOCAL
    design = make_design(plan.rows, plan.inputs, plan.players, plan.settings.seed)
    parts = []
    for f in be.map_batches(plan.rulesets[k], list(plan.seated), plan.settings.seed,
                            pieces(design), outcome_fields, detail=False):
        parts.append(f)
        done += len(f)
        if progress is not None:
            progress(done, plan.games)
    fields = np.concatenate(parts).reshape(plan.rows, design.per_row, plan.players, FIELDS)
    v = VariantLuck(plan.settings.variants[k].label, plan.rulesets[k], fields)
    for name in OUTCOMES:
        y = v.outcome(name)
        v.indices[name] = sobol_indices(y[:, 0], y[:, 1], y[:, 2:].T)
    return v


def run_luck(plan: LuckPlan, backend=None, progress: Progress | None = None) -> LuckResult:
    """Play every variant and build the tables."""
    t0 = time.perf_counter()
    out = []
    for k in range(len(plan.rulesets)):
        out.append(play_variant(plan, k, backend, progress, k * plan.games_per_variant))
    tables = {"summary": summary_table(plan, out), "shares": share_table(plan, out),
              "matches": match_table(plan, out)}
    if len(out) > 1:
        tables["differences"] = difference_table(plan, out)
    return LuckResult(plan.settings, plan, out, tables, time.perf_counter() - t0)


def share_table(plan: LuckPlan, variants: list[VariantLuck]) -> pd.DataFrame:
    """Every variant, input and outcome: first-order and total index with 95% intervals."""
    rows = []
    for v in variants:
        for name in OUTCOMES:
            ix = v.indices[name]
            for j, src in enumerate(plan.inputs):
                f, t = ix.first[j], ix.total[j]
                rows.append((v.label, src.name, src.kind, name, f.value, f.lo, f.hi, t.value,
                             t.lo, t.hi, f.raw, t.raw, ix.consistent(j), ix.rows,
                             plan.games_per_variant))
    return pd.DataFrame(rows, columns=list(SHARE_COLUMNS))


def top_source(plan: LuckPlan, ix: SobolIndices) -> str:
    """The luck source with the largest total index."""
    best = max((j for j, s in enumerate(plan.inputs) if s.kind == "luck"),
               key=lambda j: ix.total[j].value if math.isfinite(ix.total[j].raw) else -1.0)
    return plan.inputs[best].name


def summary_table(plan: LuckPlan, variants: list[VariantLuck]) -> pd.DataFrame:
    """Every variant and outcome: its mean and spread, the skill share (the seating's
    first-order index), the luck share (1 minus it), the interactions (1 minus the sum of the
    first-order indices) and the luck source with the largest total index."""
    seat = next(j for j, s in enumerate(plan.inputs) if s.name == SEATING)
    rows = []
    for v in variants:
        for name in OUTCOMES:
            ix = v.indices[name]
            sk, fs = ix.first[seat], ix.first_sum
            inter = (min(max(1 - fs.raw, 0.0), 1.0), min(max(1 - fs.raw - Z95 * fs.se, 0.0), 1.0),
                     min(max(1 - fs.raw + Z95 * fs.se, 0.0), 1.0))
            rows.append((v.label, name, ix.mean, math.sqrt(max(ix.variance, 0.0)), sk.value,
                         sk.lo, sk.hi, 1 - sk.value, 1 - sk.hi, 1 - sk.lo, *inter,
                         top_source(plan, ix), ix.rows, plan.games_per_variant))
    return pd.DataFrame(rows, columns=list(SUMMARY_COLUMNS))


def duel_scores(fields: np.ndarray, rotations: np.ndarray, lineup: list[str], a: str,
                b: str) -> np.ndarray:
    """Per game: the mean over the seats of ``a`` and of ``b`` of 1 (a ranked ahead of b), 1/2
    (level) or 0."""
    n = len(lineup)
    spec = np.array(lineup, dtype=object)[(np.arange(n)[None, :] + rotations[:, None]) % n]
    rank = fields[:, :, 2]
    total = np.zeros(len(fields))
    count = np.zeros(len(fields))
    for i in range(n):
        for j in range(n):
            if i != j:
                both = (spec[:, i] == a) & (spec[:, j] == b)
                ahead = np.where(rank[:, i] < rank[:, j], 1.0,
                                 np.where(rank[:, i] == rank[:, j], 0.5, 0.0))
                total += np.where(both, ahead, 0.0)
                count += both
    return total / np.maximum(count, 1)


def match_table(plan: LuckPlan, variants: list[VariantLuck]) -> pd.DataFrame:
    """Every variant and pair of strategies in the lineup: the chance that the stronger ends a
    game ahead of the weaker (a level finish counts half; games A and B of every row, each game
    its own unit) and the best-of-N it needs to win the match with 95% probability (its range
    from the chance's interval; None: more than ``MAX_MATCH`` games, or no stronger one)."""
    names = list(dict.fromkeys(plan.seated))
    design = make_design(plan.rows, plan.inputs, plan.players, plan.settings.seed)
    per = design.per_row
    rot = design.rotations.reshape(plan.rows, per)[:, :2].reshape(-1)
    rows = []
    for v in variants:
        f = v.fields[:, :2].reshape(plan.rows * 2, plan.players, FIELDS)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                d = duel_scores(f, rot, plan.seated, a, b)
                p = float(d.mean())
                se = float(d.std(ddof=1)) / math.sqrt(len(d))
                if p < 0.5:
                    a2, b2, p = b, a, 1.0 - p
                else:
                    a2, b2 = a, b
                lo, hi = p - Z95 * se, p + Z95 * se
                rows.append((v.label, a2, b2, p, max(lo, 0.0), min(hi, 1.0), games_to_win(p),
                             games_to_win(hi), games_to_win(lo), len(d)))
    return pd.DataFrame(rows, columns=list(MATCH_COLUMNS))


def paired_total_difference(ref: np.ndarray, other: np.ndarray, j: int):
    """Total index of input j under ``other`` minus under ``ref`` (both rows x (inputs + 2)
    outcome arrays on the same rows) with its delta-method 95% interval."""
    def parts(y):
        f0 = float(y[:, :2].mean())
        a, b, ab = y[:, 0] - f0, y[:, 1] - f0, y[:, 2 + j] - f0
        u = (a - ab) ** 2 / 2.0
        w = (a * a + b * b) / 2.0
        r = u.mean() / w.mean()
        return r, (u - r * w) / w.mean()

    r1, i1 = parts(ref)
    r2, i2 = parts(other)
    d = i2 - i1
    se = float(d.std(ddof=1)) / math.sqrt(len(d))
    return r2 - r1, r2 - r1 - Z95 * se, r2 - r1 + Z95 * se


def difference_table(plan: LuckPlan, variants: list[VariantLuck]) -> pd.DataFrame:
    """Every variant after the first, input and outcome: its total index minus the first
    variant's, paired by row, with 95% intervals."""
    ref = variants[0]
    rows = []
    for v in variants[1:]:
        for name in OUTCOMES:
            y0, y1 = ref.outcome(name), v.outcome(name)
            for j, src in enumerate(plan.inputs):
                d, lo, hi = paired_total_difference(y0, y1, j)
                rows.append((v.label, ref.label, src.name, name, d, lo, hi, plan.rows))
    return pd.DataFrame(rows, columns=list(DIFF_COLUMNS))

