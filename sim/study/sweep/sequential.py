"""``quacks sweep --sequential``: each swept value stops once its paired differences to the
baseline are decided, by anytime-valid confidence sequences (``sim.stats.sequences``).

The baseline plays the whole budget (``--games``) first; every other value then plays its
chunks (the tournament's, fixed by the settings) and stops after the first chunk at which both
of its questions are decided: the focus strategy's **win share** and **mean VP** minus the
baseline's, paired over the deals both played. A question is decided when its 95% confidence
sequence over deals excludes 0 or (with ``width``) is within +-width (in the figure's units).
The 5% level is split evenly over every question of the sweep (Bonferroni), so the chance that
any value is wrongly called better or worse is at most 5%. The sequence is recomputed from the
deals played at each look (no state), so a resumed sweep stops where an uninterrupted one does.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.stats.sequences import METHOD_SEQUENCE, Running, Sequence, sequence

QUESTIONS = (("win_share", "win_share_diff"), ("vp", "vp_diff"))
SEQUENTIAL_METHOD = (f"{METHOD_SEQUENCE}; level 5% split evenly over the sweep's questions "
                     "(win share and VP of every value against the baseline, Bonferroni)")


def deal_means(acc_totals: pd.DataFrame) -> pd.DataFrame:
    """Per deal, the focus strategy's average VP and win share from a run's kept totals."""
    from sim.study.tournament.statistics import SHARE_UNIT

    d = acc_totals.set_index("deal")
    return pd.DataFrame({"vp": d["vp"] / d["games"],
                         "win_share": d["share_units"] / SHARE_UNIT / d["games"]})


class ValueStop:
    """The questions of one value against the baseline: ``decide(run_means)`` gives each
    question's sequence over the deals both played; ``stop(acc)`` is ``run_tournament``'s
    ``stop_when``."""

    def __init__(self, base: pd.DataFrame, *, alpha: float, width: float | None,
                 t_opt: float):
        self.base, self.alpha, self.width, self.t_opt = base, alpha, width, t_opt
        self.sequences: dict[str, Sequence] = {}

    def decide(self, run: pd.DataFrame) -> dict[str, Sequence]:
        """Each question's sequence (key: the table's difference column)."""
        common = run.index.intersection(self.base.index)
        out = {}
        for col, key in QUESTIONS:
            r = Running()
            r.add((run.loc[common, col] - self.base.loc[common, col]).to_numpy(np.float64))
            out[key] = sequence(r, width=self.width, alpha=self.alpha, t_opt=self.t_opt)
        self.sequences = out
        return out

    def stop(self, acc) -> bool:
        """True once both questions are decided at this chunk."""
        return all(s.decided for s in self.decide(deal_means(acc.deal_totals(0))).values())


def sequential_columns(stop: ValueStop | None, run: pd.DataFrame, deals: int,
                       budget_deals: int, games_per_deal: int) -> dict:
    """A value's row of the sweep table under --sequential: its differences' intervals as the
    confidence sequences (from the deals it played), decided/why, and the deals and games it
    played, its budget and the games saved (none for the baseline, ``stop`` None)."""
    out = {"decided": None, "why": "baseline", "budget_deals": budget_deals,
           "games_saved": (budget_deals - deals) * games_per_deal}
    if stop is None:
        return out
    seqs = stop.decide(run)
    for _, key in QUESTIONS:
        s = seqs[key]
        out.update({f"{key}_ci_lo": s.lo, f"{key}_ci_hi": s.hi})
    out["decided"] = all(s.decided for s in seqs.values())
    out["why"] = "; ".join(f"{k.removesuffix('_diff')} {s.why}" for k, s in seqs.items())
    return out


def sequential_markdown(res) -> str:
    """The sweep.md section of a sequential sweep: the rule, the games played and saved."""
    st = res.settings
    t = res.table
    saved = int(t["games_saved"].sum())
    budget = int(st["games"])
    lines = ["## Sequential stop", "",
             "Every value but the baseline stopped once its win share and VP differences to the "
             "baseline were decided: their 95% anytime-valid confidence sequences excluded 0"
             + (f" or were within +-{st['width']:g}" if st.get("width") is not None else "")
             + f" (level {res.sequential_alpha:.4g} per question, 5% split over the sweep's "
             f"questions). Budget {budget:,} games per value; {saved:,} games saved over the "
             "sweep. The difference columns above hold the confidence sequences.", "",
             "| value | games | decided |", "|---:|---:|:---|"]
    for r in t.to_dict(orient="records"):
        v = f"{r['value']:g}" + (f", {r['value2']:g}" if "value2" in r else "")
        lines.append(f"| {v} | {int(r['games']):,} | "
                     f"{r['why'] if r['decided'] is not None else 'baseline (whole budget)'} |")
    return "\n".join(lines) + "\n"
