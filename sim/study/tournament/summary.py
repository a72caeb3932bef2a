"""The tables of a tournament (``Summary``) and their JSON-ready records."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sim.study.tournament.cycles import CYCLE_STAT_NAMES


@dataclass
class Summary:
    """The tables of a tournament (pandas frames, ``strategy`` columns categorical)."""

    strategies: pd.DataFrame
    pairs: pd.DataFrame
    seats: pd.DataFrame
    bought: pd.DataFrame
    vp_hist: pd.DataFrame
    rounds: pd.DataFrame | None
    info: dict = field(default_factory=dict)
    head_to_head: pd.DataFrame | None = None  # round-robin only (strategies at several tables)
    nash: pd.DataFrame | None = None  # Nash averaging and AlphaRank of the head-to-head game

    def records(self) -> list[dict]:
        """Per-strategy rows as JSON-ready dicts: ``name`` first, intervals as [low, high],
        NaN as None."""
        rows = frame_records(self.strategies, INTERVAL_PAIRS)
        return [{"name": r.pop("strategy"), **r} for r in rows]


INTERVAL_PAIRS = ("win_share_ci", "mean_vp_ci", "mean_rank_ci", "explosion_rate_ci", "rating_ci",
                  "vp_diff_ci",
                  "vp_diff_ci_unpaired", "win_share_diff_ci", "win_share_diff_ci_unpaired",
                  "win_share_a_ci") + tuple(f"{name}_ci" for name in CYCLE_STAT_NAMES)


def _clean(v):
    if isinstance(v, (np.floating, float)):
        v = float(v)
        return None if math.isnan(v) else v
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.bool_):
        return bool(v)
    return v


def frame_records(df: pd.DataFrame, pairs=INTERVAL_PAIRS) -> list[dict]:
    """Rows of a summary frame as dicts; ``X_lo``/``X_hi`` columns become ``X: [lo, hi]``."""
    rows = []
    for rec in df.to_dict(orient="records"):
        out: dict = {}
        for k, v in rec.items():
            for p in pairs:
                if k == p + "_lo":
                    out[p] = [_clean(v), _clean(rec[p + "_hi"])]
                    break
                if k == p + "_hi":
                    break
            else:
                out[k] = _clean(v)
        rows.append(out)
    return rows
