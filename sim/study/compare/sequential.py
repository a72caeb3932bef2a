"""``quacks compare --sequential``: play the rulesets' deals in batches and stop once every
question is decided, with anytime-valid confidence sequences (``sim.stats.sequences``).

The questions are the paired differences to the reference that the differences table leads
with: per ruleset after the first, the **mean VP** (score level), the **explosions per potion**
and, with more than one strategy in the field, **every strategy's win share**. A question is
decided when its 95% confidence sequence over deals excludes 0, or (with ``width``) is within
+-width. The level is split evenly over the questions (Bonferroni), so the chance that *any*
question is wrongly decided is at most 5% however the run stops. A ruleset that is the same
game as the reference (same ruleset hash and field) asks nothing: its differences are 0 by
construction.

Batches are whole deals with boundaries fixed by the budget (``batch_bounds``), so the same
settings play the same games and stop at the same deal on any machine.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sim.stats.sequences import (
    ALPHA,
    METHOD_SEQUENCE,
    NO_VARIATION,
    Sequence,
    SequentialRun,
    batch_bounds,
    run_sequential,
)
from sim.study.compare.stats import DealTotals

QUESTION_METRICS = ("mean_vp", "explosion_rate")
SEQUENTIAL_METHOD = (f"{METHOD_SEQUENCE}; level 5% split evenly over the questions "
                     "(Bonferroni), so any wrong decision at most 5%")


def question_keys(strategies: int) -> list[str]:
    """The metric keys asked of every ruleset: mean VP, explosions per potion and (with more
    than one strategy) each strategy's win share."""
    return [*QUESTION_METRICS, *(f"win_share[{i}]" for i in range(strategies) if strategies > 1)]


def deal_values(t: DealTotals, key: str) -> np.ndarray:
    """Per deal, the figure ``key`` (total over count)."""
    return np.asarray(t.x[key], np.float64) / np.asarray(t.n[key], np.float64)


@dataclass
class SequentialStop:
    """How a sequential comparison stopped: each question's last confidence sequence (running
    intersection), the deals played and the budget, and the deals at which each question was
    first decided."""

    questions: list[tuple[str, str]]  # (ruleset label, metric key)
    run: SequentialRun
    alpha: float
    width: float | None
    games_per_deal: int
    arms: int

    def sequence(self, label: str, key: str) -> Sequence | None:
        """The question's sequence at the stop (None: not a question)."""
        return self.run.sequences.get(f"{label}|{key}")

    def decided_at(self, label: str, key: str) -> int | None:
        """Deals played when the question was first decided (None: never)."""
        for h in self.run.history:
            s = h.get(f"{label}|{key}")
            if s is not None and s.decided:
                return s.deals
        return None

    @property
    def games(self) -> int:
        """Games played per ruleset."""
        return self.run.deals * self.games_per_deal

    @property
    def budget_games(self) -> int:
        return self.run.budget * self.games_per_deal

    @property
    def games_saved(self) -> int:
        """Games not played, over all rulesets."""
        return self.run.saved * self.games_per_deal * self.arms

    def facts(self) -> dict:
        """The stop in a few numbers (JSON-ready)."""
        return {"decided": self.run.decided, "deals": self.run.deals,
                "budget_deals": self.run.budget, "games": self.games,
                "budget_games": self.budget_games, "games_saved": self.games_saved,
                "batches": self.run.batches, "alpha_per_question": self.alpha,
                "width": self.width, "questions": len(self.questions),
                "method": SEQUENTIAL_METHOD}


def play_sequential(plans, play_deals: Callable, same: list[bool], strategies: int,
                    width: float | None) -> tuple[list[list[DealTotals]], SequentialStop]:
    """Play every plan's deals batch by batch (``play_deals(plan, d0, d1)`` -> DealTotals)
    until every question is decided or the plans' deals are spent; the per-ruleset totals
    played and the stop."""
    from sim.study.compare.config import CompareError

    labels = [p[0] for p in plans]
    plans = [p[1] for p in plans]
    keys = question_keys(strategies)
    questions = [(lb, k) for lb, s in zip(labels[1:], same[1:]) if not s for k in keys]
    alpha = ALPHA / max(len(questions), 1)
    budget = plans[0].deals
    bounds = batch_bounds(budget)
    parts: list[list[DealTotals]] = [[] for _ in plans]

    def play(d0: int, d1: int) -> dict[str, np.ndarray]:
        tots = [play_deals(p, d0, d1) for p in plans]
        for part, t in zip(parts, tots):
            part.append(t)
        ref = {k: deal_values(tots[0], k) for k in keys}
        return {f"{lb}|{k}": deal_values(tots[labels.index(lb)], k) - ref[k]
                for lb, k in questions}

    if budget < 2:
        raise CompareError("--sequential: the budget holds fewer than two deals; give more --games")
    run = run_sequential(play, budget=budget, batch=bounds[1] - bounds[0], width=width,
                         alpha=alpha)
    return parts, SequentialStop(questions, run, alpha, width, plans[0].games_per_deal,
                                 len(plans))


def stop_table(res) -> pd.DataFrame:
    """One row per question: the ruleset, the figure, the difference with its anytime-valid
    interval, whether and why it is decided, the deals when it was first decided, and the
    run's deals, games, budget and games saved."""
    from sim.study.compare.stats import metric_label, strategy_key

    st: SequentialStop = res.sequential
    rows = []
    for label, key in st.questions:
        s = st.sequence(label, key)
        sk = strategy_key(key)
        strategy = res.plans[0].names[sk[1]] if sk else "all"
        lo, hi = (s.lo, s.hi) if s.why != NO_VARIATION else res.fixed_interval(label, key)
        rows.append({"ruleset": label, "reference": res.labels[0],
                     "metric": sk[0] if sk else key, "strategy": strategy,
                     "label": (f"{strategy}: win share" if sk
                               else metric_label(key, res.config.leader_round)),
                     "diff": s.mean, "ci_lo": lo, "ci_hi": hi, "decided": s.decided,
                     "why": s.why, "decided_at_deals": st.decided_at(label, key),
                     "deals": st.run.deals, "budget_deals": st.run.budget,
                     "games": st.games, "budget_games": st.budget_games,
                     "games_saved": st.games_saved})
    cols = ["ruleset", "reference", "metric", "strategy", "label", "diff", "ci_lo", "ci_hi",
            "decided", "why", "decided_at_deals", "deals", "budget_deals", "games",
            "budget_games", "games_saved"]
    df = pd.DataFrame(rows, columns=cols)
    df["decided_at_deals"] = df["decided_at_deals"].astype("Int64")
    return df
