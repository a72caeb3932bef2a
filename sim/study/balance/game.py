"""The game's own balance figures, from a games table and a rounds table (the columns of
``games.parquet``: game, deal, seat, strategy, vp, win_share, explosions; and of
``rounds.parquet``: game, round, seat, score, exploded).

Every figure is declared once in ``FAMILIES`` (its name, group, kind, label and digits; a
family with ``{k}`` has one metric per seat or per round), and its names, labels and the metric
names a targets file may use all follow from it. The figures:

- **seat**: each seat's win share (``seat0_win_share``: seat 1 in labels, the start player of
  round 1) and the start player's excess over 1/n (``seat0_excess``);
- **catch-up**: how often the player last after round k wins (``last_after_round_{k}_wins``),
  and the leader after round k (``leader_after_round_{k}_wins``), for every round; tied players
  count as one picked at random (the mean of their win shares), a shared win 1/k;
- **lead**: lead changes per game (after round k no player who led after round k-1 still
  leads; tied leaders all lead), the round from which the winner leads for good (``lock_round``:
  the first round after which the winner leads after every later round too, tied leads
  counting; a shared win weighs each winner by its share) and its distribution
  (``lock_round_{k}``). The score after the last round is the final VP, so the winner always
  leads then;
- **ties**: games whose top VP is tied (``tie_rate``: the tie-break, the furthest last potion,
  decides them) and games whose win is still shared after the tie-break (``shared_win_rate``);
- **spread**: the winner's VP, the winning margin (1st - 2nd) and every player's VP, each as a
  mean and a standard deviation (over games, or player-games for VP);
- **explosions**: explosions per potion, overall and in each round.

Figures decided by definition are left out (``DECIDED``; tables, targets and plots): the score
after the last round (``game.rounds`` of the ruleset, 9 in the base game) is the final VP, and
the winner is the player with the most VP (a tie goes to the pot filled furthest in the last
round, then is shared). So the leader after the last round is the winner (the figure would be
1 but for ties: E[1/k] over k tied leaders), and the player last after it wins only when every
player is tied (P(all tied)/n): neither measures catch-up, and ``tie_rate`` already counts ties.

Statistics (``sim.study.compare.stats``): per-deal totals, the deal as the independent unit;
rates get the Wilson interval at the cluster effective sample size (inside [0, 1]), means a
cluster-robust t interval, standard deviations the delta method.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from sim.study.compare import stats as cs
from sim.study.compare.stats import DealTotals, Estimate

# (name, group, kind, label, digits). kind: "share" (a rate, Wilson), "mean" (t), "sd" (the
# standard deviation of the quantity whose mean is NAME_mean, delta method), "excess" (seat 0's
# win share minus 1/n). {k}: one metric per seat (0-based; labels count from 1) or per round.
FAMILIES: tuple[tuple[str, str, str, str, int], ...] = (
    ("seat{k}_win_share", "seat", "share", "seat {s} win share", 4),
    ("seat0_excess", "seat", "excess", "seat 1 win share - 1/n", 4),
    ("last_after_round_{k}_wins", "catch-up", "share", "last after round {k} wins", 4),
    ("leader_after_round_{k}_wins", "catch-up", "share", "leader after round {k} wins", 4),
    ("lead_changes", "lead", "mean", "lead changes per game", 3),
    ("lock_round", "lead", "mean", "round from which the winner leads for good", 2),
    ("lock_round_{k}", "lead", "share", "winner leads for good from round {k}", 4),
    ("tie_rate", "ties", "share", "top VP tied (the tie-break decides)", 4),
    ("shared_win_rate", "ties", "share", "win shared after the tie-break", 4),
    ("winner_vp_mean", "spread", "mean", "winner's VP, mean", 2),
    ("winner_vp_sd", "spread", "sd", "winner's VP, sd over games", 2),
    ("margin_mean", "spread", "mean", "winning margin (1st - 2nd VP), mean", 2),
    ("margin_sd", "spread", "sd", "winning margin, sd over games", 2),
    ("vp_mean", "spread", "mean", "VP per player, mean", 2),
    ("vp_sd", "spread", "sd", "VP per player, sd over player-games", 2),
    ("explosion_rate", "explosions", "share", "explosions per potion", 4),
    ("explosion_rate_round_{k}", "explosions", "share", "explosions per potion in round {k}", 4),
)
# Per-round families decided by definition in the last round (see the module): name -> why.
DECIDED = {
    "last_after_round_{k}_wins": "the player last after the final round wins only when every "
                                 "player is tied on VP: it would measure ties, not catch-up",
    "leader_after_round_{k}_wins": "the leader after the final round is the winner, but for "
                                   "ties on VP: it would measure ties, not catch-up",
}
GROUPS = tuple(dict.fromkeys(f[1] for f in FAMILIES))
PER_SEAT = ("seat{k}_win_share",)  # the other {k} families are per round
TABLE_COLUMNS = ("metric", "group", "label", "seat", "round", "value", "ci_lo", "ci_hi", "n",
                 "deals", "digits")
# compare's per-deal totals under the names here (seat_k: seat{k}_win_share)
_FROM_COMPARE = {"mean_vp": "vp_mean", "vp_sq": "vp_sq", "winner_vp": "winner_vp_mean",
                 "win_margin": "margin_mean", "explosion_rate": "explosion_rate"}


def metrics(players: int, rounds: int) -> list[dict]:
    """Every metric of a game of ``players`` seats and ``rounds`` rounds, in display order:
    dicts with ``metric``, ``group``, ``kind``, ``label``, ``seat`` and ``round`` (None where not
    per seat or round) and ``digits``. A game of one player has no margin; the figures decided
    by definition (:func:`decided`) are left out."""
    out = []
    for name, group, kind, label, digits in FAMILIES:
        if name.startswith("margin") and players < 2:
            continue
        if "{k}" not in name:
            out.append({"metric": name, "group": group, "kind": kind, "label": label,
                        "seat": None, "round": None, "digits": digits})
            continue
        per_seat = name in PER_SEAT
        for k in range(players) if per_seat else range(1, rounds + 1):
            if not per_seat and k == rounds and name in DECIDED:
                continue
            out.append({"metric": name.format(k=k), "group": group, "kind": kind,
                        "label": label.format(s=k + 1, k=k), "seat": k if per_seat else None,
                        "round": None if per_seat else k, "digits": digits})
    return out


def decided(rounds: int) -> dict[str, str]:
    """The metrics a game of ``rounds`` rounds decides by definition (``DECIDED`` in its last
    round), with why; they are in no table."""
    return {name.format(k=rounds): why for name, why in DECIDED.items()}


def metric_names(players: int, rounds: int) -> list[str]:
    """The metric names of :func:`metrics` (the keys a targets file may use)."""
    return [m["metric"] for m in metrics(players, rounds)]


def name_patterns(players: int, rounds: int) -> list[str]:
    """The metric names in short, one per family (``seat{k}_win_share (k 0-3)``)."""
    out = []
    for name, *_ in FAMILIES:
        if name.startswith("margin") and players < 2:
            continue
        if "{k}" in name:
            lo, hi = (0, players - 1) if name in PER_SEAT else (1, rounds - (name in DECIDED))
            name = f"{name} (k {lo}-{hi})"
        out.append(name)
    return out


def _round_matrix(rounds: Mapping[str, np.ndarray], gids: np.ndarray, n: int, R: int,
                  name: str) -> np.ndarray:
    """(game, round - 1, seat) array of one rounds column."""
    rg = np.asarray(rounds["round"])
    out = np.zeros((len(gids), R, n))
    for k in range(1, R + 1):
        at = rg == k
        out[:, k - 1] = cs.by_game({c: np.asarray(v)[at] for c, v in rounds.items()
                                    if c in ("game", "seat", name)}, gids, n, name)
    return out


def deal_totals(games: Mapping[str, np.ndarray], rounds: Mapping[str, np.ndarray], *,
                players: int, rounds_per_game: int) -> DealTotals:
    """Per-deal totals (and counts) of every quantity the figures need, from whole deals of
    game rows and their round rows (numpy columns or a DataFrame)."""
    n, R = players, rounds_per_game
    base = cs.deal_totals(games, None, players=n, rounds_per_game=R, strategies=0)
    rename = {**_FROM_COMPARE, **{f"seat_{k}": f"seat{k}_win_share" for k in range(n)}}
    gids, deals, gdeal = cs.game_index(games)
    vp = cs.by_game(games, gids, n, "vp")
    ws = cs.by_game(games, gids, n, "win_share")
    score = _round_matrix(rounds, gids, n, R, "score")
    exploded = _round_matrix(rounds, gids, n, R, "exploded")
    top = np.sort(vp, axis=1)[:, ::-1]
    per: dict[str, tuple[np.ndarray, float | np.ndarray]] = {
        "winner_vp_sq": (top[:, 0] ** 2, 1),
        "tie_rate": ((vp == top[:, :1]).sum(1) > 1, 1),
        "shared_win_rate": (ws.max(1) < 1, 1),
    }
    if n >= 2:
        per["margin_sq"] = ((top[:, 0] - top[:, 1]) ** 2, 1)
    for k in range(1, R + 1):
        if k < R:  # the last round's are decided by definition (DECIDED)
            per[f"last_after_round_{k}_wins"] = (cs.leader_share(-score[:, k - 1], ws), 1)
            per[f"leader_after_round_{k}_wins"] = (cs.leader_share(score[:, k - 1], ws), 1)
        per[f"explosion_rate_round_{k}"] = (exploded[:, k - 1].sum(1), n)
    lead = score == score.max(axis=2, keepdims=True)  # (game, round, seat): leads, ties too
    per["lead_changes"] = ((~(lead[:, 1:] & lead[:, :-1]).any(axis=2)).sum(1), 1)
    for_good = np.flip(np.logical_and.accumulate(np.flip(lead, 1), axis=1), 1)
    lock = R + 1 - for_good.sum(1)  # (game, seat): the first round of the lead kept to the end
    per["lock_round"] = ((ws * lock).sum(1), 1)
    for k in range(1, R + 1):
        per[f"lock_round_{k}"] = ((ws * (lock == k)).sum(1), 1)
    own = cs.sum_by_deal(per, deals, gdeal)
    return DealTotals(own.deals, pd.concat([base.x.rename(columns=rename), own.x], axis=1),
                      pd.concat([base.n.rename(columns=rename), own.n], axis=1))


def estimates(t: DealTotals, players: int, rounds: int) -> dict[str, Estimate]:
    """Every metric (see :func:`metrics`) as an estimate with its per-deal residuals."""
    out: dict[str, Estimate] = {}
    for m in metrics(players, rounds):
        name, kind = m["metric"], m["kind"]
        if kind == "sd":
            base = name[:-len("_sd")]
            out[name] = cs.spread(t.x[f"{base}_mean"], t.x[f"{base}_sq"], t.n[f"{base}_mean"])
        elif kind == "excess":
            s0 = cs.ratio(t.x["seat0_win_share"], t.n["seat0_win_share"], "share")
            out[name] = cs.shifted(s0, 1 / players)
        else:
            out[name] = cs.ratio(t.x[name], t.n[name], kind)
    return out


def estimate_row(e: Estimate) -> dict:
    """An estimate's ``value``, ``ci_lo``, ``ci_hi``, ``n`` and ``deals``."""
    lo, hi = e.interval()
    return {"value": e.value, "ci_lo": lo, "ci_hi": hi, "n": e.n, "deals": e.deals}


def game_table(t: DealTotals, players: int, rounds: int) -> pd.DataFrame:
    """One row per metric (``TABLE_COLUMNS``): the value, its 95% interval (deals as the unit),
    the observations and deals behind it."""
    est = estimates(t, players, rounds)
    rows = [{**{k: m[k] for k in ("metric", "group", "label", "seat", "round")},
             **estimate_row(est[m["metric"]]), "digits": m["digits"]}
            for m in metrics(players, rounds)]
    df = pd.DataFrame(rows, columns=list(TABLE_COLUMNS))
    for c in ("seat", "round"):
        df[c] = df[c].astype("Int64")
    return df


def game_figures(games: Mapping[str, np.ndarray], rounds: Mapping[str, np.ndarray], *,
                 players: int, rounds_per_game: int) -> pd.DataFrame:
    """:func:`game_table` straight from a games and a rounds table."""
    t = deal_totals(games, rounds, players=players, rounds_per_game=rounds_per_game)
    return game_table(t, players, rounds_per_game)

