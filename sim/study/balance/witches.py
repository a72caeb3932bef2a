"""What each herb witch is worth (``quacks balance``, witches; rulesets with the witches only).

Design. For each witch, the "available" arm fixes her in play (``witches.fixed``: she is her
group's witch in every game; a witch the ruleset fixes for another group stays, the third group
is dealt at random as usual) and plays the field on deals 0..deals-1
(``sim.study.balance.arms``). The "not available" arms are the same deals, the same ruleset and
the same seats with one member of the field never calling her (``witch_off=WITCH``), in the
seat of its first occurrence, which rotates from deal to deal (``sim.study.balance.restricted``:
each distinct spec of the field in an arm of its own, weighed by its seats).

- ``called``: the share of seat-games of the available arm in which she was called, with a
  Wilson interval at the cluster effective sample size (deals as the unit).
- ``win_share``, ``vp``: what having her is worth to a seat, paired by deal and seat: the seat's
  win share (a shared win counts 1/k) and final VP in the available arm minus the same seat's
  when it never calls her (it keeps her penny, ``game.penny_vp``, and calls the other groups'
  witches as usual), with a 95% t interval over deals.

``rank``: 1 for the witch most worth having (the largest ``win_share``; ties share a rank), with
its 95% interval ``rank_lo``/``rank_hi`` (a bootstrap over deals, ``sim.study.balance.ranks``).
``games``: games of her available arm; ``deals``: deals paired. Without the witches the table is
empty (with these columns).
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from sim.rules.ruleset import load_ruleset
from sim.rules.witches import WITCHES, witch_group
from sim.stats.clusters import ClusterSums
from sim.study.balance.arms import arm_plan, play_arm, seated_field
from sim.study.balance.paired import diff_columns, interval_names
from sim.study.balance.ranks import RANK_COLUMNS, rank_columns
from sim.study.balance.restricted import restricted_effects, with_param
from sim.study.reports.witch_use import called_bits

METRICS = ("win_share", "vp")
RANK_BY = "win_share"  # rank 1: the witch worth most win share to the seat that may call her
COLUMNS = ["witch", "group", *interval_names(("called", *METRICS)), *RANK_COLUMNS, "games",
           "deals"]


def fixed_with(fixed: list[str], witch: str) -> list[str]:
    """The ruleset's fixed witches with ``witch`` in her group's place."""
    group = witch_group(witch)
    return [w for w in fixed if witch_group(w) != group] + [witch]


def called_share(called: np.ndarray, deals: int) -> dict[str, float]:
    """``called`` (games, seats; games in deal order) 0/1 as a share with its Wilson interval at
    the cluster effective sample size over deals."""
    c = np.asarray(called, np.int64).reshape(deals, -1)
    cs = ClusterSums(1)
    cs.add_totals(c.sum(axis=1)[:, None], np.full((deals, 1), c.shape[1], np.int64))
    m, (lo, hi) = cs.share_ci(deals)
    return {"called": float(m[0]), "called_lo": float(lo[0]), "called_hi": float(hi[0])}


def witch_effects(rules: str, overrides: list[str], players: int, field: list[str], deals: int,
                  seed: int, backend) -> pd.DataFrame:
    """One row per herb witch (see the module): ``witch``, ``group``, ``called``,
    ``win_share``, ``vp`` (each with ``_lo``/``_hi``), ``games``, ``deals``; empty without the
    witches. ``backend``: an entered backend (None: this process)."""
    rs = load_ruleset(rules, list(overrides))
    if not rs.data["witches"]["enabled"]:
        return pd.DataFrame(columns=COLUMNS)
    seated = seated_field(field, players)
    fixed = list(rs.data["witches"]["fixed"])
    rows, worth = [], []
    for w in WITCHES:
        over = [*overrides, f"witches.fixed={json.dumps(fixed_with(fixed, w.id))}"]
        avail = play_arm(arm_plan(rules, over, seated, deals, seed), backend,
                         ["win_share", "vp", "witches"])
        called = called_bits(avail.cols["witches"].reshape(-1))[:, WITCHES.index(w)]
        effect, _ = restricted_effects(avail, backend,
                                       lambda s, w=w: with_param(s, "witch_off", w.id), METRICS)
        row = {"witch": w.id, "group": w.group,
               **called_share(called.reshape(avail.games, -1), avail.deals)}
        for m in METRICS:
            row.update(diff_columns(m, -effect[m]))  # available minus not
        row.update(games=avail.games, deals=avail.deals)
        rows.append(row)
        worth.append(-effect[RANK_BY])
    ranks = rank_columns(np.column_stack(worth), lambda means: means, seed, "witches")
    return pd.DataFrame(rows).assign(**ranks)[COLUMNS]
