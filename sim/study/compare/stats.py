"""The statistics of ``quacks compare``: per-deal totals of one ruleset's games, and the
estimates, 95% intervals and paired differences built from them.

The deal (one game seed: every seating of it shares the random streams) is the independent unit.
Every statistic is a function of per-deal totals, and carries, besides its value, its *influence
residual* per deal r_d (the deal's contribution to the estimate's error, summing to 0). Its
variance is the cluster-robust (CR1) one,

    var = D / (D - 1) * sum_d r_d^2,

with D the number of deals. For a ratio mean m = sum X_d / sum N_d the residual is
r_d = (X_d - m N_d) / sum N, which gives exactly the variance of ``sim.stats.clusters``; the VP
spread (standard deviation over player-games) is linearised the same way (delta method).
Means and spreads get a t interval with D - 1 degrees of freedom, rates and shares the Wilson
interval at the cluster effective sample size, never narrower than the exact interval on the
count, and the exact interval alone for a rate with few events (``share_interval``, i.e.
``sim.stats.intervals.rate_interval``; inside [0, 1]).

Paired differences. Every ruleset plays the same deals (same seed, same deal indices), so the
difference B - A of a statistic has residuals r_B,d - r_A,d: its variance is the paired one (with
equal counts per deal, exactly the paired t test on per-deal differences), and its interval a t
interval over deals. A ruleset compared with itself gives residuals that cancel exactly:
difference 0, interval [0, 0], noted "the same ruleset". Two different rulesets whose figure is
the same on every one of the n deals do not get [0, 0] (the sample cannot show a true 0): their
interval is +-3/n times the figure's largest change on one deal (1 for a share), noted "identical
on all n deals" (``sim.study.design.effects.paired``, ``sim.stats.multiplicity``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from sim.stats.clusters import METHOD_DIFF, METHOD_MEAN, METHOD_SHARE, share_interval, t_interval
from sim.stats.multiplicity import METHOD_NO_DEAL
from sim.study.common.plot_style import seat_label

# Ruleset-level metrics: key -> (label, kind, digits). kind "mean": t interval; "share": Wilson at
# the effective sample size. Seat metrics (seat_0 ... seat_{n-1}, first_seat_excess) follow.
METRICS: dict[str, tuple[str, str, int]] = {
    "mean_vp": ("mean VP (score level)", "mean", 2),
    "vp_sd": ("VP spread (sd over players)", "mean", 2),
    "winner_vp": ("winner's VP", "mean", 2),
    "win_margin": ("winning margin (1st - 2nd, VP)", "mean", 2),
    "explosion_rate": ("explosions per potion", "share", 4),
    "reward_space": ("reward space per potion", "mean", 2),
    "game_length": ("game length (reward spaces per player)", "mean", 1),
    "leader_wins": ("round-{k} leader wins", "share", 4),
}
METHOD_SD = "delta-method t over deals (cluster-robust)"
INTERVAL_METHODS = {
    "mean_vp, winner_vp, win_margin, reward_space, game_length, strategy mean VP": METHOD_MEAN,
    "vp_sd": METHOD_SD,
    "explosion_rate, leader_wins, seat win shares, strategy win share": METHOD_SHARE,
    "differences": METHOD_DIFF + " (residuals of both rulesets per deal); " + METHOD_NO_DEAL,
}


def metric_label(key: str, leader_round: int = 6) -> str:
    """The human label of a ruleset-level metric key."""
    if key.startswith("seat_"):  # the key keeps the 0-based index; people read seats from 1
        return f"{seat_label(int(key[5:]))} win share"
    if key == "first_seat_excess":
        return f"{seat_label(0)} win share - 1/n"
    return METRICS[key][0].format(k=leader_round)


def metric_digits(key: str) -> int:
    """Decimals to print a metric with."""
    return METRICS[key][2] if key in METRICS else 4


# --- per-deal totals ----------------------------------------------------------------------------

@dataclass
class DealTotals:
    """Per deal (rows, ``deals`` in order) the total ``x`` and the count ``n`` behind every
    quantity (columns: the metric keys, ``vp_sq`` for the squares of VP, and ``win_share[i]`` /
    ``mean_vp[i]`` for strategy id ``i``)."""

    deals: np.ndarray
    x: pd.DataFrame
    n: pd.DataFrame

    @staticmethod
    def concat(parts: Sequence[DealTotals]) -> DealTotals:
        """The totals of several chunks (each holding whole, distinct deals), by deal."""
        deals = np.concatenate([p.deals for p in parts])
        order = np.argsort(deals, kind="stable")
        x = pd.concat([p.x for p in parts], ignore_index=True).iloc[order].reset_index(drop=True)
        n = pd.concat([p.n for p in parts], ignore_index=True).iloc[order].reset_index(drop=True)
        return DealTotals(deals[order], x, n)

    def frame(self) -> pd.DataFrame:
        """One row per deal: ``deal``, then ``<key>_x`` and ``<key>_n`` for every quantity."""
        cols = {"deal": self.deals}
        for k in self.x.columns:
            cols[f"{k}_x"] = self.x[k].to_numpy()
            cols[f"{k}_n"] = self.n[k].to_numpy()
        return pd.DataFrame(cols)


def by_game(cols: Mapping[str, np.ndarray], games: np.ndarray, n: int, name: str) -> np.ndarray:
    """The (game, seat) matrix of one per-row column (games in the order of ``games``)."""
    gi = np.searchsorted(games, np.asarray(cols["game"]))
    out = np.zeros((len(games), n), dtype=np.float64)
    np.add.at(out, (gi, np.asarray(cols["seat"], np.intp)), np.asarray(cols[name], np.float64))
    return out


def leader_share(score: np.ndarray, ws: np.ndarray) -> np.ndarray:
    """Per game (rows of the (game, seat) matrices ``score`` and ``ws``), the win share of the
    player with the highest score, tied leaders counting as one picked at random (the mean of
    their win shares). ``-score`` gives the player with the lowest score."""
    lead = score == score.max(axis=1, keepdims=True)
    return (ws * lead).sum(1) / lead.sum(1)


def deal_totals(games: Mapping[str, np.ndarray], rounds: Mapping[str, np.ndarray] | None, *,
                players: int, rounds_per_game: int, strategies: int,
                leader_round: int = 6) -> DealTotals:
    """Per-deal totals of whole deals of game rows (the columns of ``games.parquet``: game, deal,
    seat, strategy, vp, win_share, explosions) and, optionally, their round rows (those of
    ``rounds.parquet``: game, round, seat, reward_space, score). Without round rows the metrics
    that need them (reward_space, game_length, leader_wins) are left out; ``leader_wins`` also
    when the game has fewer than ``leader_round`` rounds, and when ``leader_round`` is its last
    round (decided by definition: the leader after the last round is the winner, bar ties)."""
    n, R = players, rounds_per_game
    gids, deals, gdeal = game_index(games)
    vp = by_game(games, gids, n, "vp")
    ws = by_game(games, gids, n, "win_share")
    ex = by_game(games, gids, n, "explosions")
    sid = by_game(games, gids, n, "strategy").astype(np.int64)
    per_game: dict[str, tuple[np.ndarray, np.ndarray | float]] = {}
    top = np.sort(vp, axis=1)[:, ::-1]
    per_game["mean_vp"] = (vp.sum(1), n)
    per_game["vp_sq"] = ((vp * vp).sum(1), n)
    per_game["winner_vp"] = (top[:, 0], 1)
    if n >= 2:
        per_game["win_margin"] = (top[:, 0] - top[:, 1], 1)
    per_game["explosion_rate"] = (ex.sum(1), n * R)
    if rounds is not None:
        rg = np.asarray(rounds["round"])
        reward = by_game(rounds, gids, n, "reward_space")
        per_game["reward_space"] = (reward.sum(1), n * R)
        per_game["game_length"] = (reward.sum(1), n)
        at = rg == leader_round
        if at.any() and leader_round < R:
            score = by_game({k: np.asarray(v)[at] for k, v in rounds.items()}, gids, n, "score")
            per_game["leader_wins"] = (leader_share(score, ws), 1)
    for k in range(n):
        per_game[f"seat_{k}"] = (ws[:, k], 1)
    for i in range(strategies):
        here = sid == i
        per_game[f"win_share[{i}]"] = ((ws * here).sum(1), here.sum(1))
        per_game[f"mean_vp[{i}]"] = ((vp * here).sum(1), here.sum(1))
    return sum_by_deal(per_game, deals, gdeal)


def game_index(games: Mapping[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(the games in order, the deals in order, each game's deal as an index into them) of
    game rows with columns ``game`` and ``deal``."""
    gids, first = np.unique(np.asarray(games["game"]), return_index=True)
    deals, gdeal = np.unique(np.asarray(games["deal"])[first], return_inverse=True)
    return gids, deals, gdeal


def sum_by_deal(per_game: Mapping[str, tuple[np.ndarray, np.ndarray | float]], deals: np.ndarray,
                gdeal: np.ndarray) -> DealTotals:
    """Per-deal totals of per-game quantities: ``per_game`` maps a key to (value per game,
    count per game or one count for all), ``gdeal`` is each game's index into ``deals``."""
    D = len(deals)
    x, cnt = {}, {}
    for k, (v, c) in per_game.items():
        v = np.asarray(v, np.float64)
        x[k] = np.bincount(gdeal, weights=v, minlength=D)
        cnt[k] = np.bincount(gdeal, weights=np.broadcast_to(c, v.shape).astype(np.float64),
                             minlength=D)
    return DealTotals(np.asarray(deals).astype(np.int64), pd.DataFrame(x), pd.DataFrame(cnt))


# --- estimates ---------------------------------------------------------------------------------

@dataclass
class Estimate:
    """A statistic: its value, its influence residual per deal, the observations behind it and
    its interval kind ("mean", "share" or "diff"); ``offset`` is subtracted from a share (the
    seat advantage is the first seat's (index 0, ``seat 1`` in labels) win share minus 1/n)."""

    value: float
    resid: np.ndarray
    n: int
    kind: str
    offset: float = 0.0
    event_deals: int | None = None  # a share: deals holding an event (or non-event), the rarer

    @property
    def deals(self) -> int:
        return len(self.resid)

    def variance(self) -> float:
        """The cluster-robust variance D / (D - 1) sum r_d^2 (NaN below two deals)."""
        D = self.deals
        return float(D / (D - 1) * np.sum(self.resid ** 2)) if D > 1 else float("nan")

    def interval(self) -> tuple[float, float]:
        """The 95% interval (see the module docstring)."""
        v, D = self.variance(), self.deals
        if self.kind == "share":
            lo, hi = share_interval(self.value + self.offset, v, D, n=self.n,
                                    event_deals=self.event_deals)
            return float(lo[0]) - self.offset, float(hi[0]) - self.offset
        lo, hi = t_interval(self.value, v, D)
        return float(lo), float(hi)

    def minus(self, ref: Estimate) -> Estimate:
        """The paired difference self - ref over the same deals."""
        if self.deals != ref.deals:
            raise ValueError("a paired difference needs the same deals on both sides")
        return Estimate(self.value - ref.value, self.resid - ref.resid, min(self.n, ref.n), "diff")


def ratio(x: np.ndarray, n: np.ndarray, kind: str = "mean") -> Estimate:
    """The ratio mean sum x / sum n of per-deal totals, with its residuals."""
    x, n = np.asarray(x, np.float64), np.asarray(n, np.float64)
    N = n.sum()
    m = x.sum() / N if N > 0 else float("nan")
    hit = int(min((x > 0).sum(), (x < n).sum())) if kind == "share" else None
    return Estimate(float(m), (x - m * n) / N if N > 0 else np.zeros_like(x), int(round(N)), kind,
                    event_deals=hit)


def shifted(e: Estimate, offset: float) -> Estimate:
    """A share less ``offset`` (seat 1's win share minus 1/n): the same residuals, counts and
    interval, shifted."""
    return Estimate(e.value - offset, e.resid, e.n, e.kind, offset=offset,
                    event_deals=e.event_deals)


def spread(x: np.ndarray, xx: np.ndarray, n: np.ndarray) -> Estimate:
    """The standard deviation (n - 1 denominator) of the observations behind per-deal sums
    ``x`` and sums of squares ``xx``, linearised per deal."""
    x, xx, n = (np.asarray(a, np.float64) for a in (x, xx, n))
    N = n.sum()
    mu = x.sum() / N
    v = max(xx.sum() / N - mu * mu, 0.0)
    sd = float(np.sqrt(v * N / (N - 1))) if N > 1 else float("nan")
    rv = (xx - 2 * mu * x + mu * mu * n - v * n) / N
    resid = rv * sd / (2 * v) if v > 0 else np.zeros_like(x)
    return Estimate(sd, resid, int(round(N)), "mean")


def estimates(t: DealTotals, players: int) -> dict[str, Estimate]:
    """Every metric of one ruleset (keys as in ``METRICS``, then ``seat_k``, ``first_seat_excess``,
    ``win_share[i]`` and ``mean_vp[i]``), in display order."""
    out: dict[str, Estimate] = {}
    for key, (_, kind, _) in METRICS.items():
        if key == "vp_sd":
            out[key] = spread(t.x["mean_vp"], t.x["vp_sq"], t.n["mean_vp"])
        elif key in t.x.columns:
            out[key] = ratio(t.x[key], t.n[key], kind)
    for k in range(players):
        out[f"seat_{k}"] = ratio(t.x[f"seat_{k}"], t.n[f"seat_{k}"], "share")
    s0 = out["seat_0"]
    out["first_seat_excess"] = shifted(s0, 1 / players)
    for key in t.x.columns:
        if key.startswith(("win_share[", "mean_vp[")):
            out[key] = ratio(t.x[key], t.n[key], "share" if key.startswith("win") else "mean")
    return out


def strategy_key(key: str) -> tuple[str, int] | None:
    """(metric, strategy id) of a per-strategy key such as ``win_share[2]``, else None."""
    if not key.endswith("]") or "[" not in key:
        return None
    metric, i = key[:-1].split("[", 1)
    return metric, int(i)
