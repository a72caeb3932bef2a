"""The tables of a ``quacks design`` re-test, from the measured arms: each arm's targets, its
paired differences to the start on every game figure (the side effects decided over the arm's
figures that are not targets), and the Pareto front of the search's history."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd

from sim.study.design.loss import pareto_mask
from sim.study.design.measure import Measured, figure_row, metric_info

TARGET_COLUMNS = ("arm", "metric", "label", "band_lo", "band_hi", "value", "ci_lo", "ci_hi",
                  "verdict")
DIFF_COLUMNS = ("arm", "metric", "label", "target", "diff", "ci_lo", "ci_hi", "excludes_zero",
                "strength", "p", "p_adj", "moved", "deals", "note")


def side_effects(differences: pd.DataFrame, arm: str) -> pd.DataFrame:
    """The figures that are not targets the arm moves on the re-test (``moved``: the p-value
    of the paired difference to the start, adjusted over every figure of the arm, below 0.05),
    strongest first: what else the rule change does."""
    d = differences[(differences["arm"] == arm) & ~differences["target"]
                    & differences["moved"]]
    return d.sort_values("strength", ascending=False, kind="stable").reset_index(drop=True)


def target_rows(arm: str, est, bands, info) -> list[dict]:
    """One arm's targets table (``sim.study.balance.targets.check_targets``) as rows."""
    from sim.study.balance.targets import check_targets

    figs = pd.DataFrame([figure_row(m, est.get(m), info.get(m)) for m in bands])
    t = check_targets(bands, figs)
    t.insert(0, "arm", arm)
    return t.to_dict(orient="records")


def retest_tables(plan, measured: Mapping[str, Measured],
                  games: Mapping[str, tuple[str, tuple[str, ...]]] | None = None) -> dict:
    """The re-test's tables of ``plan`` (a ``DesignPlan``: its bands and ``settings.adjust``):
    ``targets`` (each arm's targets table), ``differences`` (each arm minus the start on
    every game figure, paired by deal: ``target`` marks the targets, ``excludes_zero`` the
    differences whose own 95% interval excludes 0, ``strength`` the difference in units of its
    interval's half-width, ``p`` its paired t test, ``p_adj`` that adjusted over the arm's
    figures that are not targets (``settings.adjust``; NaN for a target, judged by its band),
    ``moved`` ``p_adj`` below 0.05, ``note`` a difference 0
    on every deal: "identical on all n deals", or "the same ruleset" when the two arms are the
    same game by ``games``: each arm's (ruleset hash, seated field)) and ``figures`` (every game
    figure of every arm)."""
    from sim.stats.multiplicity import ALPHA, adjust, frozen_gc
    from sim.study.design.effects import excludes_zero, paired, single_quantile, strength

    est = {a: m.estimates() for a, m in measured.items()}
    games = games or {}
    targets, diffs, figs = [], [], []
    for arm, m in measured.items():
        ai = metric_info(m.players, m.rounds)
        targets += target_rows(arm, est[arm], plan.bands, ai)
        figs += [{"arm": arm, **figure_row(n, est[arm][n], i)} for n, i in ai.items()]
        if arm == "start":
            continue
        same = arm in games and games.get(arm) == games.get("start")
        names = [*plan.bands, *(n for n in ai if n not in plan.bands)]
        rows = []
        for name in names:
            a, b = est["start"].get(name), est[arm].get(name)
            if a is None or b is None:
                continue
            d = paired(a, b, same)
            lo, hi = d.interval(single_quantile(d.deals))
            rows.append({"arm": arm, "metric": name,
                         "label": ai.get(name, {}).get("label", name),
                         "target": name in plan.bands, "diff": d.value, "ci_lo": lo,
                         "ci_hi": hi, "excludes_zero": excludes_zero(lo, hi),
                         "strength": strength(d.value, lo, hi), "p": d.p(), "deals": d.deals,
                         "note": d.note()})
        with frozen_gc():
            padj = adjust([math.nan if r["target"] else r["p"] for r in rows],
                          plan.settings.adjust)
        for r, pa in zip(rows, padj):
            r["p_adj"] = float(pa)
            r["moved"] = bool(pa < ALPHA)
        diffs += rows
    return {"targets": pd.DataFrame(targets, columns=list(TARGET_COLUMNS)),
            "differences": pd.DataFrame(diffs, columns=list(DIFF_COLUMNS)),
            "figures": pd.DataFrame(figs)}


def pareto_table(history: pd.DataFrame, bands: Mapping[str, tuple[float, float]]) -> pd.DataFrame:
    """The candidates of the history on the Pareto front of the band distances (every
    candidate played, at the deals it played; repeats and invalid rulesets left out), by
    loss."""
    h = history[history["state"].isin(("complete", "pruned", "budget"))]
    cols = [f"d:{m}" for m in bands]
    if not len(h) or not all(c in h.columns for c in cols):
        return pd.DataFrame()
    keep = pareto_mask(h[cols].to_numpy(np.float64))
    front = h[keep].sort_values(["loss", "objective"], kind="stable")
    return front.drop_duplicates(subset=cols + ["overrides"]).reset_index(drop=True)
