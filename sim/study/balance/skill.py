"""How much better play is rewarded under a ruleset: the strongest preset against the weakest
sensible ones, and the reverse, on the same deals.

Two lineups, each played on every deal in every seating (vs-field: the focus strategy takes
each seat in turn):

- **strong**: ``strong`` (default ``expert``) in one seat, the ``weak`` presets (default
  ``balanced``, ``greedy``, ``cautious``: plain stop rules without look-ahead) cycled into the
  others. Its win share against the fair 1/n says how far skill carries one player;
- **weak**: the first weak preset in one seat against copies of ``strong``: how far a weaker
  player falls behind a table of strong ones.

``skill_gap`` is the strong focus's win share minus the weak focus's, paired by deal (both
lineups play the same deals): 0 in a game of pure luck, larger the more skill pays.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from sim.study.compare import stats as cs
from sim.study.compare.stats import DealTotals, Estimate

FOCUS = 0  # the focus strategy's id in a vs-field plan
# (name, lineup, label, digits): the label's {strong}, {weak} and {n} are filled in
METRICS: tuple[tuple[str, str, str, int], ...] = (
    ("skill_strong_win_share", "strong", "{strong} win share against {weak}", 4),
    ("skill_strong_excess", "strong", "{strong} win share - 1/{n}", 4),
    ("skill_weak_win_share", "weak", "{weak1} win share against {strong} x{others}", 4),
    ("skill_weak_excess", "weak", "{weak1} win share - 1/{n}", 4),
    ("skill_gap", "both", "{strong} share - {weak1} share (paired by deal)", 4),
)
METRIC_NAMES = tuple(m[0] for m in METRICS)
TABLE_COLUMNS = ("metric", "lineup", "label", "value", "ci_lo", "ci_hi", "n", "deals", "digits")


def opponents(weak: tuple[str, ...] | list[str], players: int) -> list[str]:
    """The weak presets in the other ``players - 1`` seats (cycled; the first ones when there
    are more)."""
    return [weak[k % len(weak)] for k in range(players - 1)]


def lineups(strong: str, weak: tuple[str, ...] | list[str],
            players: int) -> dict[str, tuple[str, ...]]:
    """The vs-field specs (the focus first, then one spec per other seat) of the two lineups,
    ``strong`` and ``weak``."""
    return {"strong": (strong, *opponents(weak, players)),
            "weak": (weak[0], *[strong] * (players - 1))}


def focus_totals(games: Mapping[str, np.ndarray]) -> DealTotals:
    """Per deal, the focus strategy's (strategy id 0) win share and its count of seat-games,
    from whole deals of game rows (game, deal, strategy, win_share)."""
    gids, deals, gdeal = cs.game_index(games)
    gi = np.searchsorted(gids, np.asarray(games["game"]))
    here = np.asarray(games["strategy"]) == FOCUS
    ws = np.bincount(gi, weights=np.asarray(games["win_share"], np.float64) * here,
                     minlength=len(gids))
    count = np.bincount(gi, weights=here.astype(np.float64), minlength=len(gids))
    return cs.sum_by_deal({"win_share": (ws, count)}, deals, gdeal)


def skill_table(strong: DealTotals, weak: DealTotals, *, players: int, strong_spec: str,
                weak_specs: tuple[str, ...] | list[str]) -> pd.DataFrame:
    """One row per metric of ``METRICS``: value, 95% interval (deals as the unit), the
    seat-games and deals behind it."""
    if not np.array_equal(strong.deals, weak.deals):
        raise ValueError("the skill lineups must play the same deals")
    fair = 1 / players
    s = cs.ratio(strong.x["win_share"], strong.n["win_share"], "share")
    w = cs.ratio(weak.x["win_share"], weak.n["win_share"], "share")
    est: dict[str, Estimate] = {
        "skill_strong_win_share": s,
        "skill_strong_excess": cs.shifted(s, fair),
        "skill_weak_win_share": w,
        "skill_weak_excess": cs.shifted(w, fair),
        "skill_gap": s.minus(w),
    }
    words = {"strong": strong_spec, "weak": ", ".join(dict.fromkeys(opponents(weak_specs,
                                                                              players))),
             "weak1": weak_specs[0],
             "n": players, "others": players - 1}
    rows = []
    for name, lineup, label, digits in METRICS:
        e = est[name]
        lo, hi = e.interval()
        rows.append({"metric": name, "lineup": lineup, "label": label.format(**words),
                     "value": e.value, "ci_lo": lo, "ci_hi": hi, "n": e.n, "deals": e.deals,
                     "digits": digits})
    return pd.DataFrame(rows, columns=list(TABLE_COLUMNS))
