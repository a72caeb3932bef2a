"""Tournament statistics, every one with its 95% interval and the count it rests on.

The tournament runner feeds chunks of per-game rows (one row per game and seat, the columns of
``games.parquet``) to an :class:`Accumulator`, which keeps only integer sufficient statistics:
per-cell sums over deals (``sim.stats.clusters.ClusterSums``), per-deal Gram matrices, a VP
histogram and the counts of each distinct finishing order (in total and per cluster of deals).
Integer sums do not depend on the order in which chunks arrive, so a summary is bit-identical
however the run was chunked, threaded, interrupted or resumed, and memory stays flat however many
games run.

A *deal* is one game seed (the kernel's game index): every seat's chips, die and choices come from
streams (run seed, deal, seat). Duplicate format plays each deal in every cyclic rotation of the
seats (and in round-robin, at every table), so a strategy's games within a deal are correlated:
**the deal is the independent unit of every interval** (see ``sim.stats.clusters`` for the
formulas and ``INTERVAL_METHODS`` for which statistic uses which). :meth:`Accumulator.summary`
turns the sums into tables:

- **strategies**: win share (a k-way shared win counts 1/k to each winner) and explosions per
  potion (rates: ``sim.stats.intervals.rate_interval``, the Wilson interval at the cluster
  effective sample size never narrower than the exact interval on the count, the exact interval
  alone with fewer than ten events; inside [0, 1]), mean VP
  and mean rank (cluster-robust t intervals over deals), and a Plackett-Luce rating (sandwich
  covariance over clusters of deals, ``sim.study.tournament.rating``);
- **pairs**: the paired per-deal difference between every two strategies (mean over deals of the
  difference of their per-deal average VP and average win share) with a t-interval over deals,
  next to the width the two clustered means would give if they had been measured on independent
  deals (what pairing buys; not an interval for this run's difference);
- **seats**: win share and mean VP by seat, pooled and per strategy;
- **head_to_head** (when the strategies sit at more than one table, i.e. a round-robin with more
  strategies than seats): for every ordered pair (A, B), A's win share in the games where A and B
  sat at the same table (per-deal sums of A's share units and seat-games in those games, a
  ``ClusterSums`` cell per pair, so the same rate interval as the per-strategy win share), with
  the games and deals behind it;
- **nash** (with the head-to-head table): ratings that see cycles in it, per strategy its weight
  in the maximum-entropy Nash equilibrium of the head-to-head game, its Nash-averaged rating and
  its AlphaRank mass, with cluster-bootstrap intervals over deals (``sim.study.tournament.cycles``);
- **bought**, **vp_hist** and (with rounds detail) **rounds**: chips bought by colour, the VP
  distribution, and per-round means (explosion rate, reward space, bag composition, ...).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping

import numpy as np
import pandas as pd

from sim.api.columns import BOUGHT_COLUMNS, ROUND_METRIC_NAMES
from sim.rules.chips import COLOUR_NAMES, N_COLOURS
from sim.stats.clusters import (
    METHOD_DIFF,
    METHOD_MEAN,
    METHOD_RATING,
    METHOD_SHARE,
    METHOD_UNPAIRED,
    ClusterSums,
    group_sums,
    t_interval,
)
from sim.stats.intervals import t_ci
from sim.study.tournament.cycles import METHOD_CYCLES
from sim.study.tournament.head_to_head import HeadToHead
from sim.study.tournament.rating import RATING_BUCKETS, ClusterOrders, Rating, plackett_luce
from sim.study.tournament.summary import Summary

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
    "head_to_head": METHOD_SHARE,
    "nash": METHOD_CYCLES,
    "bought, rounds": f"{METHOD_MEAN} ({METHOD_SHARE} for the explosion rate by round)",
}


# --- the accumulator ----------------------------------------------------------------------------

class Accumulator:
    """Integer sufficient statistics of a tournament, updated chunk by chunk.

    ``names`` are the distinct strategies (their ids are positions in this list), ``players``
    the seats per game, ``rounds`` the rounds per game. Chunks must hold whole deals (every game
    of a deal), which the tournament runner guarantees. ``keep_deals`` lists strategy ids whose
    per-deal totals are kept (for paired comparisons across runs on the same deals, e.g. a sweep).
    ``head_to_head`` keeps, for every ordered pair of strategies, the sums of the head-to-head
    table (worth it only when strategies sit at more than one table: round-robin).
    """

    def __init__(self, names: list[str], players: int, rounds: int, *, paired: bool = True,
                 keep_deals: tuple[int, ...] = (), head_to_head: bool = False):
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
        self.h2h = HeadToHead(S) if head_to_head else None
        # finishing orders, in total and per cluster of deals (for the rating's sandwich)
        self.orders: dict[tuple, int] = {}
        self.order_ids: dict[tuple, int] = {}
        self.cluster_orders = np.zeros((RATING_BUCKETS, 0), i8)  # bucket x order id
        self.keep_deals = tuple(keep_deals)
        self.kept: list[np.ndarray] = []  # rows (deal, games, vp sum, share units) per kept id
        self.round_rows = 0
        self.r_count = np.zeros((S, rounds), i8)
        self.c_round = [ClusterSums(S * rounds) for _ in ROUND_METRIC_NAMES]

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
        share = np.rint(np.asarray(cols["win_share"], dtype=np.float64)
                        * SHARE_UNIT).astype(np.int64)
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
        # per-deal totals, each cell computed once: (deal, strategy, seat) for share, VP, count
        ss = dl * (S * n) + strat * n + seat

        def per(idx, x, size):
            if x is None:
                return np.bincount(idx, minlength=size).astype(np.int64)
            return group_sums(idx, size, x)

        cnt3 = per(ss, None, nd * S * n).reshape(nd, S, n)
        sh3 = per(ss, share, nd * S * n).reshape(nd, S, n)
        vp3 = per(ss, vp, nd * S * n).reshape(nd, S, n)
        present = cnt3.sum(axis=(1, 2)) > 0
        cnt3, sh3, vp3 = cnt3[present], sh3[present], vp3[present]
        cnt, W, V = cnt3.sum(axis=2), sh3.sum(axis=2), vp3.sum(axis=2)
        ds = dl * S + strat
        rk = per(ds, rank, nd * S).reshape(nd, S)[present]
        ex = per(ds, expl, nd * S).reshape(nd, S)[present]
        self.c_share.add_totals(W, cnt)
        self.c_vp.add_totals(V, cnt)
        self.c_rank.add_totals(rk, cnt)
        self.c_expl.add_totals(ex, cnt * self.rounds)
        self.c_seat_share.add_totals(np.concatenate([sh3.reshape(len(W), -1), sh3.sum(axis=1)],
                                                    axis=1),
                                     np.concatenate([cnt3.reshape(len(W), -1), cnt3.sum(axis=1)],
                                                    axis=1))
        self.c_seat_vp.add_totals(np.concatenate([vp3.reshape(len(W), -1), vp3.sum(axis=1)],
                                                 axis=1),
                                  np.concatenate([cnt3.reshape(len(W), -1), cnt3.sum(axis=1)],
                                                 axis=1))
        bought = np.stack([per(ds, np.asarray(cols[name]), nd * S).reshape(nd, S)[present]
                           for name in BOUGHT_COLUMNS], axis=2)
        self.c_bought.add_totals(bought.reshape(len(W), -1), np.repeat(cnt, N_COLOURS, axis=1))
        top = int(vp.max()) + 1
        if top > self.vp_hist.shape[1]:
            grown = np.zeros((S, top), np.int64)
            grown[:, : self.vp_hist.shape[1]] = self.vp_hist
            self.vp_hist = grown
        H = self.vp_hist.shape[1]
        self.vp_hist += np.bincount(strat * H + np.clip(vp, 0, None),
                                    minlength=S * H).reshape(S, H)
        if self.h2h is not None:
            self.h2h.add(strat.reshape(-1, n), share.reshape(-1, n), dl[::n], nd,
                         int(deal.min()))
        ud = np.nonzero(present)[0].astype(np.int64) + int(deal.min())
        self._add_deal_sums(ud, cnt, V, W)
        # finishing orders for the rating: per game the sorted (rank, strategy) codes
        self._add_orders((rank * S + strat).reshape(-1, n), deal[::n])

    def _add_deal_sums(self, ud, cnt, V, W) -> None:
        per = cnt[0]
        if (not (cnt == per).all()
            or ((self.per_deal >= 0).any() and not (self.per_deal == per).all())):
            raise ValueError("every deal must seat each strategy equally often")
        self.per_deal = per.astype(np.int64)
        self.deals += len(ud)
        self.deal_vp += V.sum(axis=0)
        self.deal_sh += W.sum(axis=0)
        self.gram_vp += V.T @ V
        self.gram_sh += W.T @ W
        for i in self.keep_deals:
            self.kept.append(np.stack([ud, np.full(len(ud), i), cnt[:, i], V[:, i], W[:, i]],
                                      axis=1))

    def _add_orders(self, code: np.ndarray, game_deal: np.ndarray) -> None:
        S, n = self.S, code.shape[1]
        code = np.sort(code, axis=1)
        bucket = game_deal % RATING_BUCKETS
        base = (n + 1) * S
        if float(base) ** n * RATING_BUCKETS < 2**62:  # one integer per game: fast
            key = np.zeros(len(code), dtype=np.int64)
            for j in range(n):
                key = key * base + code[:, j]
            uk, kinv = np.unique(key, return_inverse=True)
            rows = np.zeros((len(uk), n), dtype=np.int64)
            rest = uk.copy()
            for j in range(n - 1, -1, -1):
                rows[:, j] = rest % base
                rest //= base
        else:
            rows, kinv = np.unique(code, axis=0, return_inverse=True)
        kinv = kinv.ravel()
        ids = np.empty(len(rows), dtype=np.int64)
        counts = np.bincount(kinv, minlength=len(rows))
        for u, row in enumerate(rows.tolist()):
            k = tuple((v // S, v % S) for v in row)
            self.orders[k] = self.orders.get(k, 0) + int(counts[u])
            ids[u] = self.order_ids.setdefault(k, len(self.order_ids))
        K = len(self.order_ids)
        if K > self.cluster_orders.shape[1]:
            grown = np.zeros((RATING_BUCKETS, max(K, 2 * self.cluster_orders.shape[1])), np.int64)
            grown[:, : self.cluster_orders.shape[1]] = self.cluster_orders
            self.cluster_orders = grown
        Kc = self.cluster_orders.shape[1]
        self.cluster_orders += np.bincount(bucket * Kc + ids[kinv], minlength=RATING_BUCKETS * Kc
                                           ).reshape(RATING_BUCKETS, Kc)

    def add_rounds(self, cols: Mapping[str, np.ndarray]) -> None:
        """Add a chunk of ``rounds.parquet`` rows (whole deals, any order)."""
        S, R = self.S, self.rounds
        strat = np.asarray(cols["strategy"], dtype=np.int64)
        if len(strat) == 0:
            return
        deal = np.asarray(cols["deal"], dtype=np.int64)
        dl = deal - deal.min()
        nd = int(dl.max()) + 1
        rnd = np.asarray(cols["round"], dtype=np.int64) - 1
        idx = strat * R + rnd
        self.round_rows += len(strat)
        self.r_count += np.bincount(idx, minlength=S * R).reshape(S, R)
        ClusterSums.add_many(self.c_round, dl, nd, idx, [cols[name] for name in ROUND_METRIC_NAMES])

    # -- queries ---------------------------------------------------------------------------

    def win_share_ci(self) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
        """Per strategy: win share and its 95% interval (deals as the independent unit)."""
        return self.c_share.share_ci(self.deals, SHARE_UNIT)

    def win_share_halfwidth(self) -> np.ndarray:
        """Per strategy, the larger side of its 95% win-share interval (inf if not defined)."""
        m, (lo, hi) = self.win_share_ci()
        h = np.maximum(m - lo, hi - m)
        return np.where(np.isfinite(h), h, np.inf)

    def win_share_sequence(self, t_opt: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per strategy: win share and its 95% anytime-valid interval (the normal-mixture
        confidence sequence over deals, ``sim.stats.sequences``, narrowest near ``t_opt``
        deals; clipped to [0, 1]): valid at whatever chunk a run stops (``--sequential``)."""
        from sim.stats.sequences import ratio_radius

        c = self.c_share
        m, rad = ratio_radius(c.sx, c.sn, c.sxx, c.sxn, c.snn, self.deals, SHARE_UNIT,
                              t_opt=t_opt)
        return m, np.clip(m - rad, 0.0, 1.0), np.clip(m + rad, 0.0, 1.0)

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
            if isinstance(v, HeadToHead):
                v = v.state()
            elif isinstance(v, ClusterSums):
                v = [v.sx, v.sn, v.sxx, v.sxn, v.snn]
            elif isinstance(v, list) and v and isinstance(v[0], ClusterSums):
                v = [[c.sx, c.sn, c.sxx, c.sxn, c.snn] for c in v]
            d[k] = _plain(v)
        d["orders"] = sorted((list(k), v) for k, v in self.orders.items())
        keys = {i: k for k, i in self.order_ids.items()}
        b, k = np.nonzero(self.cluster_orders)
        d["cluster_orders"] = sorted(([int(bi), list(keys[int(ki)])],
                                      int(self.cluster_orders[bi, ki]))
                                     for bi, ki in zip(b, k))
        return d

    def rating(self) -> Rating:
        """The Plackett-Luce fit of every finishing order so far, with the sandwich covariance
        over clusters of deals."""
        keys = [None] * len(self.order_ids)
        for k, i in self.order_ids.items():
            keys[i] = k
        b, k = np.nonzero(self.cluster_orders)
        clusters = ClusterOrders(keys, b.astype(np.int64), k.astype(np.int64),
                                 self.cluster_orders[b, k].astype(np.float64))
        return plackett_luce(self.orders, self.S, clusters=clusters)

    def summary(self) -> Summary:
        """All tables from the sums so far."""
        cat = pd.CategoricalDtype(self.names, ordered=True)
        rating = self.rating()
        methods = dict(INTERVAL_METHODS)
        nash = self.h2h.cycle_table(cat, SHARE_UNIT) if self.h2h is not None else None
        if self.h2h is None:
            del methods["head_to_head"]
        if nash is None:
            del methods["nash"]
        return Summary(
            strategies=self._strategy_table(cat, rating),
            pairs=self._pairs_table(cat),
            seats=self._seat_table(cat),
            bought=self._bought_table(cat),
            vp_hist=self._vp_hist_table(cat),
            rounds=self._rounds_table(cat) if self.round_rows else None,
            info={"games": self.games, "deals": self.deals, "players": self.n,
                  "rounds": self.rounds, "rating_note": rating.note,
                  "interval_methods": methods},
            head_to_head=self.h2h.table(cat, self.deals, SHARE_UNIT) if self.h2h is not None
            else None,
            nash=nash,
        )

    def _strategy_table(self, cat, rating: Rating) -> pd.DataFrame:
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
            "explosion_rate": ex, "explosion_rate_ci_lo": ex_ci[0],
            "explosion_rate_ci_hi": ex_ci[1],
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
                             "win_share": ws[c], "win_share_ci_lo": wlo[c],
                             "win_share_ci_hi": whi[c],
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
                                                dtype=pd.CategoricalDtype(COLOUR_NAMES,
                                                                          ordered=True)),
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
        S, R, M = self.S, self.rounds, len(ROUND_METRIC_NAMES)
        D = self.deals
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
