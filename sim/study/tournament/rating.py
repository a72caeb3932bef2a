"""Plackett-Luce ratings of finishing orders, with intervals that treat deals as the unit.

The rating is the maximum-likelihood Plackett-Luce model of the finishing orders, fitted with the
MM algorithm of Hunter (2004, Ann. Statist. 32:384-406); a tie is split evenly over the strict
orders it stands for. The games of a deal share random streams, so the likelihood is a
*composite* one (games treated as independent for the point estimate) and its covariance is the
cluster-robust sandwich H^-1 (sum_b s_b s_b^T) H^-1 (sum-zero constraint, pseudo-inverse), where
s_b is the score of the finishing orders of cluster b. Clusters are deals, grouped as
``deal % RATING_BUCKETS`` so that memory stays flat (a bucket is a union of whole deals, so the
sandwich stays valid; it only has fewer degrees of freedom). Intervals use Student's t with
(clusters - 1) degrees of freedom. Ratings are on the Elo scale: 400 log10 of the strength,
centred on 0.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from sim.stats.intervals import t_quantile

ELO = 400.0 / math.log(10.0)
RATING_BUCKETS = 256


@dataclass
class Rating:
    """A fitted Plackett-Luce model: centred log-strengths, their covariance and notes."""

    theta: np.ndarray
    cov: np.ndarray
    iterations: int
    converged: bool
    regularized: bool
    note: str = ""
    df: float = math.inf  # degrees of freedom of the interval (clusters - 1)

    def elo(self) -> np.ndarray:
        """Ratings on the Elo scale (400 log10 strength), centred on 0."""
        return self.theta * ELO

    def elo_ci(self) -> np.ndarray:
        """95% intervals of the Elo-scale ratings, shape (S, 2)."""
        se = np.sqrt(np.clip(np.diag(self.cov), 0, None)) * ELO
        e = self.elo()
        q = t_quantile(0.975, self.df) if self.df >= 1 else float("nan")
        return np.stack([e - q * se, e + q * se], axis=1)


def _stages(orders: Mapping[tuple, float], S: int):
    """Aggregate the choice stages of weighted finishing orders (ties split evenly)."""
    acc: dict[tuple, float] = {}
    for key, count in orders.items():
        # key: ((rank, strategy), ...) sorted by rank
        groups = [list(g) for _, g in itertools.groupby(key, key=lambda rs: rs[0])]
        perms = [list(itertools.permutations([s for _, s in g])) for g in groups]
        nperm = math.prod(len(p) for p in perms)
        w = count / nperm
        for combo in itertools.product(*perms):
            order = [s for part in combo for s in part]
            remaining = np.bincount(order, minlength=S)
            for t in range(len(order) - 1):
                k = (order[t], tuple(remaining))
                acc[k] = acc.get(k, 0.0) + w
                remaining[order[t]] -= 1
    keys = sorted(acc)
    chosen = np.array([k[0] for k in keys], dtype=np.int64)
    M = np.array([k[1] for k in keys], dtype=np.float64).reshape(len(keys), S)
    w = np.array([acc[k] for k in keys], dtype=np.float64)
    return chosen, M, w


def _strongly_connected(chosen: np.ndarray, M: np.ndarray, S: int) -> bool:
    A = np.zeros((S, S), dtype=bool)
    for c, row in zip(chosen, M):
        A[c, row > 0] = True
    np.fill_diagonal(A, True)
    R = A.copy()
    for _ in range(max(1, int(math.ceil(math.log2(S))) + 1)):
        R = R | ((R.astype(np.int64) @ R.astype(np.int64)) > 0)
    return bool(R.all())


def plackett_luce(orders: Mapping[tuple, float], S: int, *, tol: float = 1e-10,
                  max_iter: int = 100_000, clusters: ClusterOrders | None = None) -> Rating:
    """Maximum-likelihood Plackett-Luce strengths by Hunter's MM algorithm.

    ``orders`` maps a finishing order, ``((rank, strategy), ...)`` sorted by rank (equal ranks
    are a tie), to how many games ended that way. A tie of k is split into its k! strict orders,
    1/k! each; a strategy may appear more than once in an order (copies share one strength).
    When no maximum-likelihood estimate exists (some strategy never beats, or never loses to,
    the rest), half a virtual win and half a virtual loss are added between every two
    strategies, and ``regularized`` says so.

    With ``clusters`` (the same orders, counted per cluster of deals) the covariance is the
    cluster-robust sandwich; without, the inverse observed information (games independent).
    """
    if S == 1 or not orders:
        return Rating(np.zeros(S), np.zeros((S, S)), 0, True, False, "")
    chosen, M, w = _stages(orders, S)
    regularized = False
    note = ""
    if not _strongly_connected(chosen, M, S):
        regularized = True
        note = ("no maximum-likelihood rating exists (a strategy never beat, or never lost to, "
                "the others); half a virtual win and loss between every two strategies added")
        extra_c, extra_M = [], []
        for i in range(S):
            for j in range(S):
                if i != j:
                    row = np.zeros(S)
                    row[i] = row[j] = 1
                    extra_c.append(i)
                    extra_M.append(row)
        chosen = np.concatenate([chosen, np.array(extra_c, dtype=np.int64)])
        M = np.vstack([M, np.array(extra_M)])
        w = np.concatenate([w, np.full(len(extra_c), 0.5)])
    wins = np.bincount(chosen, weights=w, minlength=S)
    present = M.sum(axis=0) > 0
    gamma = np.ones(S)
    it = 0
    converged = False
    for it in range(1, max_iter + 1):  # noqa: B007
        denom = M @ gamma
        d = M.T @ (w / denom)
        new = np.where(present, wins / np.where(d > 0, d, 1.0), 1.0)
        new = np.where(new > 0, new, 1e-300)
        new /= math.exp(np.log(new[present]).mean())
        delta = np.max(np.abs(np.log(new) - np.log(gamma)))
        gamma = new
        if delta < tol:
            converged = True
            break
    theta = np.log(gamma)
    theta -= theta[present].mean()
    # observed information of theta
    P = M * gamma[None, :]
    P /= P.sum(axis=1, keepdims=True)
    info = np.diag(w @ P) - (P.T * w) @ P
    cov = np.linalg.pinv(info, rcond=1e-12, hermitian=True)
    if clusters is None:
        return Rating(theta, cov, it, converged, regularized, note)
    scores = clusters.cluster_scores(gamma, S)
    G = len(scores)
    if G < 2:
        return Rating(theta, np.full((S, S), np.nan), it, converged, regularized, note, df=0)
    meat = scores.T @ scores * (G / (G - 1))
    return Rating(theta, cov @ meat @ cov, it, converged, regularized, note, df=G - 1)


def order_score(key: tuple, gamma: np.ndarray, S: int) -> np.ndarray:
    """Gradient of the log-likelihood of one finishing order in the log-strengths (a tie split
    evenly over its strict orders, as in the fit)."""
    groups = [list(g) for _, g in itertools.groupby(key, key=lambda rs: rs[0])]
    perms = [list(itertools.permutations([s for _, s in g])) for g in groups]
    w = 1.0 / math.prod(len(p) for p in perms)
    g = np.zeros(S)
    for combo in itertools.product(*perms):
        order = [s for part in combo for s in part]
        remaining = np.bincount(order, minlength=S).astype(np.float64)
        for t in range(len(order) - 1):
            p = remaining * gamma
            g -= w * p / p.sum()
            g[order[t]] += w
            remaining[order[t]] -= 1
    return g


def key_scores(keys: list, gamma: np.ndarray, S: int) -> np.ndarray:
    """``order_score`` of every key at once, shape (len(keys), S) (vectorized over stages)."""
    kid, chosen, rem, w = [], [], [], []
    for i, key in enumerate(keys):
        groups = [list(g) for _, g in itertools.groupby(key, key=lambda rs: rs[0])]
        if all(len(g) == 1 for g in groups):  # no tie: one strict order
            order, wt = [s for _, s in key], 1.0
            combos = [order]
        else:
            perms = [list(itertools.permutations([s for _, s in g])) for g in groups]
            wt = 1.0 / math.prod(len(p) for p in perms)
            combos = [[s for part in c for s in part] for c in itertools.product(*perms)]
        for order in combos:
            remaining = np.bincount(order, minlength=S)
            for t in range(len(order) - 1):
                kid.append(i)
                chosen.append(order[t])
                rem.append(remaining.copy())
                w.append(wt)
                remaining[order[t]] -= 1
    if not kid:
        return np.zeros((len(keys), S))
    kid_a, ch = np.array(kid), np.array(chosen)
    P = np.array(rem, dtype=np.float64) * gamma[None, :]
    P /= P.sum(axis=1, keepdims=True)
    wa = np.array(w)
    G = -wa[:, None] * P
    G[np.arange(len(ch)), ch] += wa
    out = np.zeros((len(keys), S))
    np.add.at(out, kid_a, G)
    return out


@dataclass
class ClusterOrders:
    """Finishing orders counted per cluster: ``keys`` the distinct orders, and parallel arrays
    ``cluster``, ``key`` (index into ``keys``) and ``count``."""

    keys: list
    cluster: np.ndarray
    key: np.ndarray
    count: np.ndarray

    def cluster_scores(self, gamma: np.ndarray, S: int) -> np.ndarray:
        """Score vectors of the non-empty clusters, shape (clusters, S)."""
        g = key_scores(self.keys, gamma, S)
        ids, inv = np.unique(self.cluster, return_inverse=True)
        out = np.zeros((len(ids), S))
        np.add.at(out, inv, g[self.key] * self.count[:, None])
        return out
