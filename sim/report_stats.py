"""Tournament statistics, every one with its 95% interval and the count it rests on.

The tournament runner feeds chunks of per-game rows (one row per game and seat, the columns of
``games.parquet``) to an :class:`Accumulator`, which keeps only integer sufficient statistics:
per-cell sums over deals (``sim.cluster_stats.ClusterSums``), per-deal Gram matrices, a VP
histogram and the counts of each distinct finishing order (in total and per cluster of deals).
Integer sums do not depend on the order in which chunks arrive, so a summary is bit-identical
however the run was chunked, threaded, interrupted or resumed, and memory stays flat however many
games run.

A *deal* is one game seed (the kernel's game index): every seat's chips, die and choices come from
streams (run seed, deal, seat). Duplicate format plays each deal in every cyclic rotation of the
seats (and in round-robin, at every table), so a strategy's games within a deal are correlated:
**the deal is the independent unit of every interval** (see ``sim.cluster_stats`` for the
formulas and ``INTERVAL_METHODS`` for which statistic uses which). :meth:`Accumulator.summary`
turns the sums into tables:

- **strategies**: win share (a k-way shared win counts 1/k to each winner) and explosions per
  potion (rates: Wilson intervals at the cluster effective sample size, inside [0, 1]), mean VP
  and mean rank (cluster-robust t intervals over deals), and a Plackett-Luce rating (sandwich
  covariance over clusters of deals, ``sim.rating``);
- **pairs**: the paired per-deal difference between every two strategies (mean over deals of the
  difference of their per-deal average VP and average win share) with a t-interval over deals,
  next to the width the two clustered means would give if they had been measured on independent
  deals (what pairing buys; not an interval for this run's difference);
- **seats**: win share and mean VP by seat, pooled and per strategy;
- **bought**, **vp_hist** and (with rounds detail) **rounds**: chips bought by colour, the VP
  distribution, and per-round means (explosion rate, reward space, bag composition, ...).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sim.chips import COLOUR_NAMES, N_COLOURS
from sim.cluster_stats import (
    METHOD_DIFF,
    METHOD_MEAN,
    METHOD_RATING,
    METHOD_SHARE,
    METHOD_UNPAIRED,
    ClusterSums,
    t_interval,
)
from sim.rating import RATING_BUCKETS, ClusterOrders, Rating, plackett_luce
from sim.stats import Z95, t_quantile
from sim.stats import wilson as _wilson

SHARE_UNIT = 60  # lcm(1..5): a k-way shared win is exactly SHARE_UNIT // k units

# Which interval each statistic uses (written to run.json and summary.md).
INTERVAL_METHODS: dict[str, str] = {
    "win_share": METHOD_SHARE,
    "explosion_rate": METHOD_SHARE,
    "mean_vp": METHOD_MEAN,
    "mean_rank": METHOD_MEAN,
    "rating": METHOD_RATING,
    "vp_diff, win_share_diff": METHOD_DIFF,
    "(if unpaired) columns": METHOD_UNPAIRED + "; a width for comparison, not an interval "
                             "for this run's difference",
    "seats": f"{METHOD_SHARE} (win share); {METHOD_MEAN} (VP)",
    "bought, rounds": f"{METHOD_MEAN} ({METHOD_SHARE} for the explosion rate by round)",
}

# Per-round metrics kept from rounds detail: (column in rounds.parquet, description).
ROUND_METRICS: tuple[tuple[str, str], ...] = (
    ("reward_space", "reward space of the potion"),
    ("exploded", "the pot exploded"),
    ("vp_gained", "VP gained in the round"),
    ("coins", "coins from the reward space"),
    ("white_total", "white total in the pot"),
    ("rat", "rat spaces"),
    ("score", "score after the round"),
    ("rubies", "rubies after the round"),
    ("droplet", "droplet position after the round"),
    ("chips", "chips in the bag after the round"),
    ("pot_chips", "chips in the pot"),
) + tuple((f"bag_{c}", f"{c} chips in the bag after the round") for c in COLOUR_NAMES)
ROUND_METRIC_NAMES = tuple(m for m, _ in ROUND_METRICS)
BOUGHT_COLUMNS = tuple(f"bought_{c}" for c in COLOUR_NAMES)


# --- small interval helpers ---------------------------------------------------------------------

def normal_ci(s1: float, s2: float, n: float) -> tuple[float, tuple[float, float]]:
    """Mean and normal 95% interval from a count, a sum and a sum of squares."""
    if n <= 0:
        return float("nan"), (float("nan"), float("nan"))
    m = s1 / n
    if n < 2:
        return m, (m, m)
    var = max(0.0, (s2 - n * m * m) / (n - 1))
    h = Z95 * math.sqrt(var / n)
    return m, (m - h, m + h)


def t_ci(s1: float, s2: float, n: float) -> tuple[float, tuple[float, float]]:
    """Mean and Student-t 95% interval from a count, a sum and a sum of squares."""
    if n <= 0:
        return float("nan"), (float("nan"), float("nan"))
    m = s1 / n
    if n < 2:
        return m, (float("nan"), float("nan"))
    var = max(0.0, (s2 - n * m * m) / (n - 1))
    h = t_quantile(0.975, n - 1) * math.sqrt(var / n)
    return m, (m - h, m + h)


def wilson(successes: float, n: int) -> tuple[float, float]:
    """Wilson 95% interval (``sim.stats.wilson``), nudged to contain the estimate exactly when
    rounding puts a bound a hair past it (at 0 or 1)."""
    lo, hi = _wilson(successes, n)
    if n > 0:
        p = successes / n
        lo, hi = min(lo, p), max(hi, p)
    return lo, hi


# --- the accumulator ----------------------------------------------------------------------------

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

    def records(self) -> list[dict]:
        """Per-strategy rows as JSON-ready dicts: ``name`` first, intervals as [low, high],
        NaN as None."""
        rows = frame_records(self.strategies, INTERVAL_PAIRS)
        return [{"name": r.pop("strategy"), **r} for r in rows]


INTERVAL_PAIRS = ("win_share_ci", "mean_vp_ci", "mean_rank_ci", "explosion_rate_ci", "rating_ci", "vp_diff_ci",
                  "vp_diff_ci_unpaired", "win_share_diff_ci", "win_share_diff_ci_unpaired")


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


class Accumulator:
    """Integer sufficient statistics of a tournament, updated chunk by chunk.

    ``names`` are the distinct strategies (their ids are positions in this list), ``players``
    the seats per game, ``rounds`` the rounds per game. Chunks must hold whole deals (every game
    of a deal), which the tournament runner guarantees. ``keep_deals`` lists strategy ids whose
    per-deal totals are kept (for paired comparisons across runs on the same deals, e.g. a sweep).
    """

    def __init__(self, names: list[str], players: int, rounds: int, *, paired: bool = True,
                 keep_deals: tuple[int, ...] = ()):
        S = len(names)
        self.names = list(names)
        self.S, self.n, self.rounds, self.paired = S, players, rounds, paired
        i8 = np.int64
        self.games = 0
        self.deals = 0
        self.count = np.zeros(S, i8)
        self.illegal = np.zeros(S, i8)
        # per strategy, over deals: share units, VP, rank, explosions (per potion)
        self.c_share, self.c_vp, self.c_rank, self.c_expl = (ClusterSums(S) for _ in range(4))
        # per (strategy, seat) and, in the last n cells, per seat over all strategies
        self.c_seat_share = ClusterSums((S + 1) * players)
        self.c_seat_vp = ClusterSums((S + 1) * players)
        self.c_bought = ClusterSums(S * N_COLOURS)
        self.vp_hist = np.zeros((S, 1), i8)
        # paired differences: per-deal sums of each strategy and their Gram matrices
        self.per_deal = np.zeros(S, i8) - 1  # seat-games of each strategy in one deal
        self.deal_vp = np.zeros(S, i8)
        self.deal_sh = np.zeros(S, i8)
        self.gram_vp = np.zeros((S, S), i8)
        self.gram_sh = np.zeros((S, S), i8)
        # finishing orders, in total and per cluster of deals (for the rating's sandwich)
        self.orders: dict[tuple, int] = {}
        self.order_ids: dict[tuple, int] = {}
        self.cluster_orders: dict[tuple[int, int], int] = {}
        self.keep_deals = tuple(keep_deals)
        self.kept: list[np.ndarray] = []  # rows (deal, games, vp sum, share units) per kept id
        self.round_rows = 0
        self.r_count = np.zeros((S, rounds), i8)
        self.c_round = [ClusterSums(S * rounds) for _ in ROUND_METRICS]
        self.last_round_deal = -1

    # -- updates ---------------------------------------------------------------------------

    def add_games(self, cols: Mapping[str, np.ndarray]) -> None:
        """Add a chunk of ``games.parquet`` rows (ordered by game, then seat; whole deals, in
        any order of chunks)."""
        S, n = self.S, self.n
        strat = np.asarray(cols["strategy"]).astype(np.intp, copy=False)
        rows = len(strat)
        if rows == 0:
            return
        if rows % n:
            raise ValueError("a chunk must hold whole games")
        vp = np.asarray(cols["vp"]).astype(np.int64, copy=False)
        rank = np.asarray(cols["rank"]).astype(np.int64, copy=False)
        share = np.rint(np.asarray(cols["win_share"], dtype=np.float64) * SHARE_UNIT).astype(np.int64)
        expl = np.asarray(cols["explosions"]).astype(np.int64, copy=False)
        seat = np.asarray(cols["seat"]).astype(np.intp, copy=False)
        deal = np.asarray(cols["deal"], dtype=np.int64)
        dl = deal - deal.min()
        nd = int(dl.max()) + 1
        self.games += rows // n
        self.count += np.bincount(strat, minlength=S)
        if "illegal" in cols:
            self.illegal += np.bincount(strat, weights=np.asarray(cols["illegal"]) != 0,
                                        minlength=S).astype(np.int64)
        self.c_share.add(dl, nd, strat, share)
        self.c_vp.add(dl, nd, strat, vp)
        self.c_rank.add(dl, nd, strat, rank)
        self.c_expl.add(dl, nd, strat, expl, np.full(rows, self.rounds))
        for cell in (strat * n + seat, S * n + seat):
            self.c_seat_share.add(dl, nd, cell, share)
            self.c_seat_vp.add(dl, nd, cell, vp)
        for c, name in enumerate(BOUGHT_COLUMNS):
            self.c_bought.add(dl, nd, strat * N_COLOURS + c, np.asarray(cols[name], dtype=np.int64))
        top = int(vp.max()) + 1
        if top > self.vp_hist.shape[1]:
            grown = np.zeros((S, top), np.int64)
            grown[:, : self.vp_hist.shape[1]] = self.vp_hist
            self.vp_hist = grown
        H = self.vp_hist.shape[1]
        self.vp_hist += np.bincount(strat * H + np.clip(vp, 0, None),
                                    minlength=S * H).reshape(S, H)
        self._add_deal_sums(deal, dl, nd, strat, vp, share)
        # finishing orders for the rating: per game the sorted (rank, strategy) codes
        self._add_orders((rank * S + strat).reshape(-1, n), deal[::n])

    def _add_deal_sums(self, deal, dl, nd, strat, vp, share) -> None:
        S = self.S
        idx = dl * S + strat
        cnt = np.bincount(idx, minlength=nd * S).reshape(nd, S)
        present = cnt.sum(axis=1) > 0
        ud = np.arange(nd, dtype=np.int64)[present] + int(deal.min())
        cnt = cnt[present]
        nd = len(ud)
        per = cnt[0]
        if not (cnt == per).all() or ((self.per_deal >= 0).any() and not (self.per_deal == per).all()):
            raise ValueError("every deal must seat each strategy equally often")
        self.per_deal = per.astype(np.int64)
        self.deals += nd
        V = np.rint(np.bincount(idx, weights=vp, minlength=len(present) * S)).astype(np.int64)
        W = np.rint(np.bincount(idx, weights=share, minlength=len(present) * S)).astype(np.int64)
        V, W = V.reshape(-1, S)[present], W.reshape(-1, S)[present]
        self.deal_vp += V.sum(axis=0)
        self.deal_sh += W.sum(axis=0)
        self.gram_vp += V.T @ V
        self.gram_sh += W.T @ W
        for i in self.keep_deals:
            self.kept.append(np.stack([ud, np.full(nd, i), cnt[:, i], V[:, i], W[:, i]], axis=1))

    def _add_orders(self, code: np.ndarray, game_deal: np.ndarray) -> None:
        code = np.sort(code, axis=1)
        bucket = (game_deal % RATING_BUCKETS)[:, None]
        uniq, cnt = np.unique(np.concatenate([bucket, code], axis=1), axis=0, return_counts=True)
        S = self.S
        for row, c in zip(uniq.tolist(), cnt.tolist()):
            key = tuple((v // S, v % S) for v in row[1:])
            self.orders[key] = self.orders.get(key, 0) + c
            k = self.order_ids.setdefault(key, len(self.order_ids))
            ck = (row[0], k)
            self.cluster_orders[ck] = self.cluster_orders.get(ck, 0) + c

    def add_rounds(self, cols: Mapping[str, np.ndarray]) -> None:
        """Add a chunk of ``rounds.parquet`` rows (whole deals, any order)."""
        S, R = self.S, self.rounds
        strat = np.asarray(cols["strategy"], dtype=np.int64)
        if len(strat) == 0:
            return
        deal = np.asarray(cols["deal"], dtype=np.int64)
        self.last_round_deal = max(self.last_round_deal, int(deal.max()))
        dl = deal - deal.min()
        nd = int(dl.max()) + 1
        rnd = np.asarray(cols["round"], dtype=np.int64) - 1
        idx = strat * R + rnd
        self.round_rows += len(strat)
        self.r_count += np.bincount(idx, minlength=S * R).reshape(S, R)
        for cs, name in zip(self.c_round, ROUND_METRIC_NAMES):
            cs.add(dl, nd, idx, np.asarray(cols[name], dtype=np.int64))

    # -- queries ---------------------------------------------------------------------------

    def win_share_ci(self) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
        """Per strategy: win share and its 95% interval (deals as the independent unit)."""
        return self.c_share.share_ci(self.deals, SHARE_UNIT)

    def win_share_halfwidth(self) -> np.ndarray:
        """Per strategy, the larger side of its 95% win-share interval (inf if not defined)."""
        m, (lo, hi) = self.win_share_ci()
        h = np.maximum(m - lo, hi - m)
        return np.where(np.isfinite(h), h, np.inf)

    def deal_totals(self, strategy: int) -> pd.DataFrame:
        """Per deal, a kept strategy's seat-games, VP sum and win-share units (see keep_deals)."""
        if strategy not in self.keep_deals:
            raise ValueError(f"per-deal totals of strategy {strategy} were not kept")
        cols = ["deal", "strategy", "games", "vp", "share_units"]
        if not self.kept:
            return pd.DataFrame({c: np.zeros(0, np.int64) for c in cols})
        a = np.concatenate(self.kept)
        a = a[a[:, 1] == strategy]
        return pd.DataFrame(a, columns=cols)

    def state(self) -> dict:
        """Every sum, as plain lists (for tests that compare two runs exactly)."""
        d = {}
        for k, v in vars(self).items():
            if k in ("orders", "order_ids", "cluster_orders", "kept"):
                continue
            if isinstance(v, ClusterSums):
                v = [v.sx, v.sn, v.sxx, v.sxn, v.snn]
            elif isinstance(v, list) and v and isinstance(v[0], ClusterSums):
                v = [[c.sx, c.sn, c.sxx, c.sxn, c.snn] for c in v]
            d[k] = _plain(v)
        d["orders"] = sorted((list(k), v) for k, v in self.orders.items())
        keys = {i: k for k, i in self.order_ids.items()}
        d["cluster_orders"] = sorted(([b, list(keys[k])], v) for (b, k), v in self.cluster_orders.items())
        return d

    def rating(self) -> Rating:
        """The Plackett-Luce fit of every finishing order so far, with the sandwich covariance
        over clusters of deals."""
        keys = [None] * len(self.order_ids)
        for k, i in self.order_ids.items():
            keys[i] = k
        items = list(self.cluster_orders.items())
        clusters = ClusterOrders(
            keys,
            np.array([b for (b, _), _ in items], dtype=np.int64),
            np.array([k for (_, k), _ in items], dtype=np.int64),
            np.array([c for _, c in items], dtype=np.float64))
        return plackett_luce(self.orders, self.S, clusters=clusters)

    def summary(self) -> Summary:
        """All tables from the sums so far."""
        cat = pd.CategoricalDtype(self.names, ordered=True)
        return Summary(
            strategies=self._strategy_table(cat),
            pairs=self._pairs_table(cat),
            seats=self._seat_table(cat),
            bought=self._bought_table(cat),
            vp_hist=self._vp_hist_table(cat),
            rounds=self._rounds_table(cat) if self.round_rows else None,
            info={"games": self.games, "deals": self.deals, "players": self.n,
                  "rounds": self.rounds, "rating_note": self.rating().note,
                  "interval_methods": dict(INTERVAL_METHODS)},
        )

    def _strategy_table(self, cat) -> pd.DataFrame:
        rating = self.rating()
        elo, elo_ci = rating.elo(), rating.elo_ci()
        D = self.deals
        ws, ws_ci = self.c_share.share_ci(D, SHARE_UNIT)
        vp, vp_ci = self.c_vp.mean_ci(D)
        rk, rk_ci = self.c_rank.mean_ci(D)
        ex, ex_ci = self.c_expl.share_ci(D)
        df = pd.DataFrame({
            "strategy": pd.Categorical.from_codes(np.arange(self.S), dtype=cat),
            "games": self.count, "deals": D,
            "win_share": ws, "win_share_ci_lo": ws_ci[0], "win_share_ci_hi": ws_ci[1],
            "mean_vp": vp, "mean_vp_ci_lo": vp_ci[0], "mean_vp_ci_hi": vp_ci[1],
            "mean_rank": rk, "mean_rank_ci_lo": rk_ci[0], "mean_rank_ci_hi": rk_ci[1],
            "explosion_rate": ex, "explosion_rate_ci_lo": ex_ci[0], "explosion_rate_ci_hi": ex_ci[1],
            "potions": self.count * self.rounds,
            "rating": elo, "rating_ci_lo": elo_ci[:, 0], "rating_ci_hi": elo_ci[:, 1],
            "illegal_decisions": self.illegal,
        })
        return df

    def _pairs_table(self, cat) -> pd.DataFrame:
        rows = []
        D = self.deals
        means_var = {"vp_diff": self.c_vp.mean_var(D),
                     "win_share_diff": self.c_share.mean_var(D, SHARE_UNIT)}
        for a, b in itertools.combinations(range(self.S), 2):
            ca = self.per_deal[a] if self.per_deal[a] > 0 else 1
            cb = self.per_deal[b] if self.per_deal[b] > 0 else 1
            row = {"strategy_a": self.names[a], "strategy_b": self.names[b], "deals": D}
            for key, sums, G, unit in (("vp_diff", self.deal_vp, self.gram_vp, 1.0),
                                       ("win_share_diff", self.deal_sh, self.gram_sh, SHARE_UNIT)):
                s1 = sums[a] / (ca * unit) - sums[b] / (cb * unit)
                s2 = (G[a, a] / (ca * unit) ** 2 + G[b, b] / (cb * unit) ** 2
                      - 2 * G[a, b] / (ca * cb * unit * unit))
                m, ci = t_ci(s1, s2, D)
                row[key] = m
                row[key + "_ci_lo"], row[key + "_ci_hi"] = ci
                # as if the two means were independent (each still clustered over deals)
                mv, vv = means_var[key]
                lo, hi = t_interval(mv[a] - mv[b], vv[a] + vv[b], D)
                row[key + "_ci_unpaired_lo"], row[key + "_ci_unpaired_hi"] = float(lo), float(hi)
            rows.append(row)
        cols = ["strategy_a", "strategy_b", "deals", "vp_diff", "vp_diff_ci_lo", "vp_diff_ci_hi",
                "vp_diff_ci_unpaired_lo", "vp_diff_ci_unpaired_hi",
                "win_share_diff", "win_share_diff_ci_lo", "win_share_diff_ci_hi",
                "win_share_diff_ci_unpaired_lo", "win_share_diff_ci_unpaired_hi"]
        df = pd.DataFrame(rows, columns=cols)
        df["strategy_a"] = df["strategy_a"].astype(cat)
        df["strategy_b"] = df["strategy_b"].astype(cat)
        return df

    def _seat_table(self, cat) -> pd.DataFrame:
        n, S, D = self.n, self.S, self.deals
        names = ["all", *self.names]
        ws, (wlo, whi) = self.c_seat_share.share_ci(D, SHARE_UNIT)
        vp, (vlo, vhi) = self.c_seat_vp.mean_ci(D)
        games = self.c_seat_vp.sn
        rows = []
        for s in range(n):
            for i in range(-1, S):
                c = (S if i < 0 else i) * n + s
                rows.append({"seat": s, "strategy": names[i + 1], "games": int(games[c]),
                             "win_share": ws[c], "win_share_ci_lo": wlo[c], "win_share_ci_hi": whi[c],
                             "mean_vp": vp[c], "mean_vp_ci_lo": vlo[c], "mean_vp_ci_hi": vhi[c]})
        df = pd.DataFrame(rows)
        df["strategy"] = df["strategy"].astype(pd.CategoricalDtype(names, ordered=True))
        return df

    def _bought_table(self, cat) -> pd.DataFrame:
        m, (lo, hi) = self.c_bought.mean_ci(self.deals)
        S, C = self.S, N_COLOURS
        df = pd.DataFrame({
            "strategy": pd.Categorical.from_codes(np.repeat(np.arange(S), C), dtype=cat),
            "colour": pd.Categorical.from_codes(np.tile(np.arange(C), S),
                                                dtype=pd.CategoricalDtype(COLOUR_NAMES, ordered=True)),
            "games": np.repeat(self.count, C),
            "mean": m, "ci_lo": np.maximum(lo, 0.0), "ci_hi": hi,  # counts are >= 0
        })
        return df

    def _vp_hist_table(self, cat) -> pd.DataFrame:
        s, v = np.nonzero(self.vp_hist)
        df = pd.DataFrame({"strategy": pd.Categorical.from_codes(s, dtype=cat),
                           "vp": v.astype(np.int64), "count": self.vp_hist[s, v]})
        return df

    def _rounds_table(self, cat) -> pd.DataFrame:
        S, R, M = self.S, self.rounds, len(ROUND_METRICS)
        D = self.deals if self.deals else (self.last_round_deal + 1)
        mean = np.empty((S, R, M))
        lo, hi = np.empty((S, R, M)), np.empty((S, R, M))
        m_ex = ROUND_METRIC_NAMES.index("exploded")
        for m, cs in enumerate(self.c_round):
            # a 0/1 metric (exploded) gets the share interval, which does not collapse at 0 or 1
            x, (a, b) = cs.share_ci(D) if m == m_ex else cs.mean_ci(D)
            mean[:, :, m], lo[:, :, m], hi[:, :, m] = (v.reshape(S, R) for v in (x, a, b))
        lo = np.maximum(lo, 0.0)  # every round metric is >= 0
        n = np.repeat(self.r_count[:, :, None], M, axis=2)
        si, ri, mi = np.meshgrid(np.arange(S), np.arange(R), np.arange(M), indexing="ij")
        df = pd.DataFrame({
            "strategy": pd.Categorical.from_codes(si.ravel(), dtype=cat),
            "round": (ri.ravel() + 1).astype(np.int64),
            "metric": pd.Categorical.from_codes(mi.ravel(), categories=list(ROUND_METRIC_NAMES)),
            "n": n.ravel().astype(np.int64),
            "mean": mean.ravel(),
            "ci_lo": lo.ravel(),
            "ci_hi": hi.ravel(),
        })
        return df[df["n"] > 0].reset_index(drop=True)


def _plain(v):
    if isinstance(v, np.ndarray):
        return v.tolist()
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def summarize_games(games: pd.DataFrame, rounds_df: pd.DataFrame | None = None, *,
                    rounds: int = 9) -> Summary:
    """Summary tables straight from a ``games.parquet`` frame (and optionally ``rounds.parquet``).

    For a notebook: ``summarize_games(pd.read_parquet(DIR / "games.parquet"))`` gives the same
    tables the run wrote (the rows must be whole deals).
    """
    strat = games["strategy"]
    if not isinstance(strat.dtype, pd.CategoricalDtype):
        strat = strat.astype("category")
    names = [str(c) for c in strat.cat.categories]
    players = int(games["seat"].max()) + 1
    acc = Accumulator(names, players, rounds)
    cols = {c: games[c].to_numpy() for c in games.columns if c != "strategy"}
    cols["strategy"] = strat.cat.codes.to_numpy()
    acc.add_games(cols)
    if rounds_df is not None and len(rounds_df):
        rc = {c: rounds_df[c].to_numpy() for c in rounds_df.columns if c != "strategy"}
        rc["strategy"] = rounds_df["strategy"].astype(pd.CategoricalDtype(names)).cat.codes.to_numpy()
        acc.add_rounds(rc)
    return acc.summary()
