"""Tournament statistics, every one with its 95% interval and the count it rests on.

The tournament runner feeds chunks of per-game rows (one row per game and seat, the columns of
``games.parquet``) to an :class:`Accumulator`, which keeps only integer sufficient statistics:
sums, sums of squares, per-deal Gram matrices, a VP histogram and the counts of each distinct
finishing order. Integer sums do not depend on the order in which chunks arrive, so a summary is
bit-identical however the run was chunked, threaded, interrupted or resumed, and memory stays
flat however many games run. :meth:`Accumulator.summary` turns the sums into tables:

- **strategies**: win share (a k-way shared win counts 1/k to each winner) with its Wilson
  interval (and, as a robustness check, a t-interval over deals that allows for the games of a
  deal being related), mean VP, mean rank and explosion rate (explosions per potion) with normal
  intervals, and a Plackett-Luce rating with its interval;
- **pairs**: in duplicate format, the paired per-deal difference between every two strategies
  (mean over deals of the difference of their per-deal average VP and average win share) with a
  t-interval, next to the interval two independent samples would give;
- **seats**: win share and mean VP by seat, pooled and per strategy;
- **bought**, **vp_hist** and (with rounds detail) **rounds**: chips bought by colour, the VP
  distribution, and per-round means (explosion rate, reward space, bag composition, ...).

A *deal* is one game seed (the kernel's game index): every seat's chips, die and choices come from
streams (run seed, deal, seat). Duplicate format plays each deal in every cyclic rotation of the
seats (and in round-robin, at every table).

The rating is the maximum-likelihood Plackett-Luce model of the finishing orders, fitted with the
MM algorithm of Hunter (2004, Ann. Statist. 32:384-406); a tie is split evenly over the strict
orders it stands for. Intervals come from the observed information (inverse Hessian, sum-zero
constraint). Ratings are on the Elo scale: 400 log10 of the strength, centred on 0.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sim.chips import COLOUR_NAMES, N_COLOURS
from sim.stats import Z95
from sim.stats import wilson as _wilson

SHARE_UNIT = 60  # lcm(1..5): a k-way shared win is exactly SHARE_UNIT // k units
ELO = 400.0 / math.log(10.0)

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

def _t_two_sided(t: float, df: int) -> float:
    """P(|T| <= t) for Student's t with integer df (Abramowitz & Stegun 26.7.3-4)."""
    th = math.atan(t / math.sqrt(df))
    c2 = math.cos(th) ** 2
    if df % 2:  # odd
        if df == 1:
            return 2 * th / math.pi
        term, acc = 1.0, 1.0
        for k in range(3, df, 2):  # (2*4*..(k-1)) / (1*3*..k) cos^(k-1)
            term *= (k - 1) / k * c2
            acc += term
        return 2 / math.pi * (th + math.sin(th) * math.cos(th) * acc)
    term, acc = 1.0, 1.0
    for k in range(2, df, 2):  # (1*3*..(k-1)) / (2*4*..k) cos^k
        term *= (k - 1) / k * c2
        acc += term
    return math.sin(th) * acc


def t_quantile(p: float, df: float) -> float:
    """Quantile of Student's t distribution for p > 0.5: exact (bisection on the closed-form
    CDF) for whole df up to 1000, a Cornish-Fisher expansion beyond (error < 1e-6 there);
    infinite df gives the normal quantile."""
    if not math.isfinite(df):
        return _norm_ppf(p)
    if df <= 0:
        return float("nan")
    if df == int(df) and df <= 1000:
        target = 2 * p - 1
        lo, hi = 0.0, 1.0
        while _t_two_sided(hi, int(df)) < target:
            hi *= 2
        for _ in range(100):
            mid = (lo + hi) / 2
            if _t_two_sided(mid, int(df)) < target:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2
    z = _norm_ppf(p)
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


def _norm_ppf(p: float) -> float:
    """Normal quantile (Acklam's rational approximation refined by one Halley step)."""
    if p == 0.975:
        return Z95
    a = (-3.969683028665376e01, 2.209460984245205e02, -2.759285104469687e02,
         1.383577518672690e02, -3.066479806614716e01, 2.506628277459239e00)
    b = (-5.447609879822406e01, 1.615858368580409e02, -1.556989798598866e02,
         6.680131188771972e01, -1.328068155288572e01)
    c = (-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e00,
         -2.549732539343734e00, 4.374664141464968e00, 2.938163982698783e00)
    d = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e00, 3.754408661907416e00)
    lo = 0.02425
    if p < lo:
        q = math.sqrt(-2 * math.log(p))
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / (
            (((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
    elif p > 1 - lo:
        return -_norm_ppf(1 - p)
    else:
        q = p - 0.5
        r = q * q
        x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q / (
            ((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
    e = 0.5 * math.erfc(-x / math.sqrt(2)) - p
    u = e * math.sqrt(2 * math.pi) * math.exp(x * x / 2)
    return x - u / (1 + x * u / 2)


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


def wilson_halfwidth(share_units: np.ndarray, games: np.ndarray) -> np.ndarray:
    """Per strategy, the larger side of the Wilson 95% interval of the win share."""
    out = np.full(len(games), np.inf)
    for i, (u, g) in enumerate(zip(share_units, games)):
        if g > 0:
            p = u / SHARE_UNIT / g
            lo, hi = wilson(u / SHARE_UNIT, int(g))
            out[i] = max(p - lo, hi - p)
    return out


# --- Plackett-Luce --------------------------------------------------------------------------

@dataclass
class Rating:
    """A fitted Plackett-Luce model: centred log-strengths, their covariance and notes."""

    theta: np.ndarray
    cov: np.ndarray
    iterations: int
    converged: bool
    regularized: bool
    note: str = ""

    def elo(self) -> np.ndarray:
        """Ratings on the Elo scale (400 log10 strength), centred on 0."""
        return self.theta * ELO

    def elo_ci(self) -> np.ndarray:
        """95% intervals of the Elo-scale ratings, shape (S, 2)."""
        se = np.sqrt(np.clip(np.diag(self.cov), 0, None)) * ELO
        e = self.elo()
        return np.stack([e - Z95 * se, e + Z95 * se], axis=1)


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
                  max_iter: int = 100_000) -> Rating:
    """Maximum-likelihood Plackett-Luce strengths by Hunter's MM algorithm.

    ``orders`` maps a finishing order, ``((rank, strategy), ...)`` sorted by rank (equal ranks
    are a tie), to how many games ended that way. A tie of k is split into its k! strict orders,
    1/k! each; a strategy may appear more than once in an order (copies share one strength).
    When no maximum-likelihood estimate exists (some strategy never beats, or never loses to,
    the rest), half a virtual win and half a virtual loss are added between every two
    strategies, and ``regularized`` says so.
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
    return Rating(theta, cov, it, converged, regularized, note)


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


INTERVAL_PAIRS = ("win_share_ci", "win_share_ci_deal", "mean_vp_ci", "mean_vp_ci_deal",
                  "mean_rank_ci", "explosion_rate_ci", "rating_ci", "vp_diff_ci",
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
    of a deal), which the tournament runner guarantees.
    """

    def __init__(self, names: list[str], players: int, rounds: int, *, paired: bool = True):
        S = len(names)
        self.names = list(names)
        self.S, self.n, self.rounds, self.paired = S, players, rounds, paired
        i8 = np.int64
        self.games = 0
        self.deals = 0
        self.count = np.zeros(S, i8)
        self.share = np.zeros(S, i8)
        self.vp = np.zeros(S, i8)
        self.vp2 = np.zeros(S, i8)
        self.rank = np.zeros(S, i8)
        self.rank2 = np.zeros(S, i8)
        self.expl = np.zeros(S, i8)
        self.expl2 = np.zeros(S, i8)
        self.illegal = np.zeros(S, i8)
        self.bought = np.zeros((S, N_COLOURS), i8)
        self.bought2 = np.zeros((S, N_COLOURS), i8)
        self.seat_count = np.zeros((S, players), i8)
        self.seat_share = np.zeros((S, players), i8)
        self.seat_vp = np.zeros((S, players), i8)
        self.seat_vp2 = np.zeros((S, players), i8)
        self.vp_hist = np.zeros((S, 1), i8)
        self.per_deal = np.zeros(S, i8) - 1  # seat-games of each strategy in one deal
        self.deal_vp = np.zeros(S, i8)
        self.deal_sh = np.zeros(S, i8)
        self.gram_vp = np.zeros((S, S), i8)
        self.gram_sh = np.zeros((S, S), i8)
        self.orders: dict[tuple, int] = {}
        self.round_rows = 0
        self.r_count = np.zeros((S, rounds), i8)
        self.r_sum = np.zeros((S, rounds, len(ROUND_METRICS)), i8)
        self.r_sum2 = np.zeros((S, rounds, len(ROUND_METRICS)), i8)

    # -- updates ---------------------------------------------------------------------------

    def add_games(self, cols: Mapping[str, np.ndarray]) -> None:
        """Add a chunk of ``games.parquet`` rows (ordered by game, then seat; whole deals)."""
        S, n = self.S, self.n
        strat = np.asarray(cols["strategy"]).astype(np.intp, copy=False)
        rows = len(strat)
        if rows == 0:
            return
        if rows % n:
            raise ValueError("a chunk must hold whole games")
        # small integer columns go to bincount as they are (it converts weights itself)
        vp = np.asarray(cols["vp"]).astype(np.int32, copy=False)
        rank = np.asarray(cols["rank"]).astype(np.int32, copy=False)
        share = np.rint(np.asarray(cols["win_share"], dtype=np.float64) * SHARE_UNIT).astype(np.int32)
        expl = np.asarray(cols["explosions"]).astype(np.int32, copy=False)
        seat = np.asarray(cols["seat"]).astype(np.intp, copy=False)
        deal = np.asarray(cols["deal"], dtype=np.int64)
        self.games += rows // n

        def bc(x, idx=strat, size=S):
            if x is None:
                return np.bincount(idx, minlength=size).astype(np.int64)
            return np.rint(np.bincount(idx, weights=x, minlength=size)).astype(np.int64)

        ss = strat * n + seat
        vp2 = vp * vp
        by_seat = [bc(x, ss, S * n).reshape(S, n) for x in (None, share, vp, vp2)]
        self.seat_count += by_seat[0]
        self.seat_share += by_seat[1]
        self.seat_vp += by_seat[2]
        self.seat_vp2 += by_seat[3]
        self.count += by_seat[0].sum(axis=1)
        self.share += by_seat[1].sum(axis=1)
        self.vp += by_seat[2].sum(axis=1)
        self.vp2 += by_seat[3].sum(axis=1)
        self.rank += bc(rank)
        self.rank2 += bc(rank * rank)
        self.expl += bc(expl)
        self.expl2 += bc(expl * expl)
        if "illegal" in cols:
            self.illegal += bc(np.asarray(cols["illegal"]) != 0)
        for c, name in enumerate(BOUGHT_COLUMNS):
            b = np.asarray(cols[name])
            self.bought[:, c] += bc(b)
            self.bought2[:, c] += bc(np.square(b, dtype=np.int32))
        top = int(vp.max()) + 1
        if top > self.vp_hist.shape[1]:
            grown = np.zeros((S, top), np.int64)
            grown[:, : self.vp_hist.shape[1]] = self.vp_hist
            self.vp_hist = grown
        H = self.vp_hist.shape[1]
        self.vp_hist += bc(None, strat * H + np.clip(vp, 0, None), S * H).reshape(S, H)
        # per deal: sums of VP and share units of each strategy
        dl = deal - deal.min()
        nd = int(dl.max()) + 1
        idx = dl * S + strat
        cnt = np.bincount(idx, minlength=nd * S).reshape(nd, S)
        keep = cnt.sum(axis=1) > 0
        present = cnt[keep]
        self.deals += len(present)
        per = present[0]
        if not (present == per).all() or ((self.per_deal >= 0).any() and not (self.per_deal == per).all()):
            raise ValueError("every deal must seat each strategy equally often")
        self.per_deal = per.astype(np.int64)
        V = bc(vp, idx, nd * S).reshape(nd, S)[keep]
        W = bc(share, idx, nd * S).reshape(nd, S)[keep]
        self.deal_vp += V.sum(axis=0)
        self.deal_sh += W.sum(axis=0)
        self.gram_vp += V.T @ V
        self.gram_sh += W.T @ W
        # finishing orders for the rating: per game the sorted (rank, strategy) codes
        self._add_orders((rank.astype(np.int64) * S + strat).reshape(-1, n))

    def _add_orders(self, code: np.ndarray) -> None:
        S, n = self.S, self.n
        cols = [code[:, j].copy() for j in range(n)]
        for _ in range(n):  # odd-even transposition sort of each row (n is small)
            for j in range(n - 1):
                a, b = cols[j], cols[j + 1]
                lo = np.minimum(a, b)
                cols[j + 1] = np.maximum(a, b)
                cols[j] = lo
        base = (n + 1) * S
        if base**n <= 1 << 22:
            key = np.zeros(len(code), dtype=np.int64)
            for j in range(n):
                key = key * base + cols[j]
            counts = np.bincount(key, minlength=1)
            keys = np.nonzero(counts)[0]
            found = [(int(k), int(counts[k])) for k in keys]
            rows = []
            for k, _ in found:
                digits = []
                for _j in range(n):
                    digits.append(k % base)
                    k //= base
                rows.append(digits[::-1])
        else:
            uniq, cnt = np.unique(np.stack(cols, axis=1), axis=0, return_counts=True)
            rows = uniq.tolist()
            found = list(zip(rows, cnt.tolist()))
        for row, (_, c) in zip(rows, found):
            key = tuple((int(v) // S, int(v) % S) for v in row)
            self.orders[key] = self.orders.get(key, 0) + c

    def add_rounds(self, cols: Mapping[str, np.ndarray]) -> None:
        """Add a chunk of ``rounds.parquet`` rows (any grouping)."""
        S, R = self.S, self.rounds
        strat = np.asarray(cols["strategy"], dtype=np.int64)
        if len(strat) == 0:
            return
        rnd = np.asarray(cols["round"], dtype=np.int64) - 1
        idx = strat * R + rnd
        self.round_rows += len(strat)
        self.r_count += np.bincount(idx, minlength=S * R).reshape(S, R)
        for m, name in enumerate(ROUND_METRIC_NAMES):
            x = np.asarray(cols[name], dtype=np.float64)
            self.r_sum[:, :, m] += np.rint(np.bincount(idx, weights=x, minlength=S * R)).astype(np.int64).reshape(S, R)
            self.r_sum2[:, :, m] += np.rint(np.bincount(idx, weights=x * x, minlength=S * R)).astype(np.int64).reshape(S, R)

    # -- queries ---------------------------------------------------------------------------

    def win_share_halfwidth(self) -> np.ndarray:
        """Per strategy, the larger side of its Wilson 95% win-share interval (inf if no games)."""
        return wilson_halfwidth(self.share, self.count)

    def state(self) -> dict:
        """Every sum, as plain lists (for tests that compare two runs exactly)."""
        d = {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in vars(self).items()
             if k != "orders"}
        d["orders"] = sorted((list(k), v) for k, v in self.orders.items())
        return d

    def rating(self) -> Rating:
        """The Plackett-Luce fit of every finishing order so far."""
        return plackett_luce(self.orders, self.S)

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
                  "rounds": self.rounds, "rating_note": self.rating().note},
        )

    def _deal_mean(self, sums: np.ndarray, gram_diag: np.ndarray, i: int, scale: float):
        c = self.per_deal[i] if self.per_deal[i] > 0 else 1
        s1 = sums[i] / (c * scale)
        s2 = gram_diag[i] / (c * scale) ** 2
        return t_ci(s1, s2, self.deals)

    def _strategy_table(self, cat) -> pd.DataFrame:
        rating = self.rating()
        elo, elo_ci = rating.elo(), rating.elo_ci()
        rows = []
        for i, name in enumerate(self.names):
            g = int(self.count[i])
            wins = self.share[i] / SHARE_UNIT
            ws = wins / g if g else float("nan")
            ws_ci = wilson(wins, g)
            _, ws_dci = self._deal_mean(self.deal_sh, np.diag(self.gram_sh), i, SHARE_UNIT)
            vp, vp_ci = normal_ci(self.vp[i], self.vp2[i], g)
            _, vp_dci = self._deal_mean(self.deal_vp, np.diag(self.gram_vp), i, 1.0)
            rk, rk_ci = normal_ci(self.rank[i], self.rank2[i], g)
            R = self.rounds
            ex, ex_n = normal_ci(self.expl[i] / R, self.expl2[i] / (R * R), g)
            ex_w = wilson(float(self.expl[i]), g * R)  # the union: neither collapses at 0
            ex_ci = (min(ex_n[0], ex_w[0]), max(ex_n[1], ex_w[1])) if g else ex_n
            rows.append({
                "strategy": name, "games": g, "deals": self.deals,
                "win_share": ws, "win_share_ci_lo": ws_ci[0], "win_share_ci_hi": ws_ci[1],
                "win_share_ci_deal_lo": ws_dci[0], "win_share_ci_deal_hi": ws_dci[1],
                "mean_vp": vp, "mean_vp_ci_lo": vp_ci[0], "mean_vp_ci_hi": vp_ci[1],
                "mean_vp_ci_deal_lo": vp_dci[0], "mean_vp_ci_deal_hi": vp_dci[1],
                "mean_rank": rk, "mean_rank_ci_lo": rk_ci[0], "mean_rank_ci_hi": rk_ci[1],
                "explosion_rate": ex, "explosion_rate_ci_lo": ex_ci[0], "explosion_rate_ci_hi": ex_ci[1],
                "potions": g * R,
                "rating": float(elo[i]), "rating_ci_lo": float(elo_ci[i, 0]),
                "rating_ci_hi": float(elo_ci[i, 1]),
                "illegal_decisions": int(self.illegal[i]),
            })
        df = pd.DataFrame(rows)
        df["strategy"] = df["strategy"].astype(cat)
        return df

    def _pairs_table(self, cat) -> pd.DataFrame:
        rows = []
        D = self.deals
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
            # what two independent samples of the same sizes would give, for comparison
            ga, gb = self.count[a], self.count[b]
            nan2 = (float("nan"), float("nan"))
            if ga > 1 and gb > 1:
                pa, pb = self.share[a] / SHARE_UNIT / ga, self.share[b] / SHARE_UNIT / gb
                h = Z95 * math.sqrt(pa * (1 - pa) / ga + pb * (1 - pb) / gb)
                row["win_share_diff_ci_unpaired_lo"], row["win_share_diff_ci_unpaired_hi"] = pa - pb - h, pa - pb + h
                va = max(0.0, (self.vp2[a] - self.vp[a] ** 2 / ga) / (ga - 1))
                vb = max(0.0, (self.vp2[b] - self.vp[b] ** 2 / gb) / (gb - 1))
                d = self.vp[a] / ga - self.vp[b] / gb
                h = Z95 * math.sqrt(va / ga + vb / gb)
                row["vp_diff_ci_unpaired_lo"], row["vp_diff_ci_unpaired_hi"] = d - h, d + h
            else:
                row["win_share_diff_ci_unpaired_lo"], row["win_share_diff_ci_unpaired_hi"] = nan2
                row["vp_diff_ci_unpaired_lo"], row["vp_diff_ci_unpaired_hi"] = nan2
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
        rows = []
        names = ["all", *self.names]
        for s in range(self.n):
            for i in range(-1, self.S):
                sel = slice(None) if i < 0 else i
                g = int(np.sum(self.seat_count[sel, s]))
                wins = np.sum(self.seat_share[sel, s]) / SHARE_UNIT
                lo, hi = wilson(wins, g)
                vp, vp_ci = normal_ci(np.sum(self.seat_vp[sel, s]), np.sum(self.seat_vp2[sel, s]), g)
                rows.append({"seat": s, "strategy": names[i + 1], "games": g,
                             "win_share": wins / g if g else float("nan"),
                             "win_share_ci_lo": lo, "win_share_ci_hi": hi,
                             "mean_vp": vp, "mean_vp_ci_lo": vp_ci[0], "mean_vp_ci_hi": vp_ci[1]})
        df = pd.DataFrame(rows)
        df["strategy"] = df["strategy"].astype(pd.CategoricalDtype(names, ordered=True))
        return df

    def _bought_table(self, cat) -> pd.DataFrame:
        rows = []
        for i, name in enumerate(self.names):
            g = int(self.count[i])
            for c, colour in enumerate(COLOUR_NAMES):
                m, ci = normal_ci(self.bought[i, c], self.bought2[i, c], g)
                rows.append({"strategy": name, "colour": colour, "games": g, "mean": m,
                             "ci_lo": max(0.0, ci[0]), "ci_hi": ci[1]})  # counts are >= 0
        df = pd.DataFrame(rows)
        df["strategy"] = df["strategy"].astype(cat)
        df["colour"] = df["colour"].astype(pd.CategoricalDtype(COLOUR_NAMES, ordered=True))
        return df

    def _vp_hist_table(self, cat) -> pd.DataFrame:
        s, v = np.nonzero(self.vp_hist)
        df = pd.DataFrame({"strategy": pd.Categorical.from_codes(s, dtype=cat),
                           "vp": v.astype(np.int64), "count": self.vp_hist[s, v]})
        return df

    def _rounds_table(self, cat) -> pd.DataFrame:
        S, R, M = self.S, self.rounds, len(ROUND_METRICS)
        n = np.repeat(self.r_count[:, :, None], M, axis=2).astype(np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = self.r_sum / n
            var = np.maximum(0.0, (self.r_sum2 - n * mean * mean) / (n - 1))
            half = Z95 * np.sqrt(var / n)
        # a 0/1 metric (exploded) gets the Wilson interval, which does not collapse at 0 or 1
        m_ex = ROUND_METRIC_NAMES.index("exploded")
        lo, hi = np.maximum(mean - half, 0.0), mean + half  # every round metric is >= 0
        for i in range(S):
            for r in range(R):
                if self.r_count[i, r] > 0:
                    lo[i, r, m_ex], hi[i, r, m_ex] = wilson(float(self.r_sum[i, r, m_ex]),
                                                            int(self.r_count[i, r]))
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
