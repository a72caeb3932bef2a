"""Anytime-valid confidence sequences for a mean over deals, and the rule that stops a run once
every question is decided (``--sequential`` of ``compare``, ``sweep`` and ``tournament
--until-ci``).

A fixed-size 95% interval is valid once, at the size chosen in advance; looked at after every
batch, and the run stopped when it first excludes 0, it errs far more often than 5%. A
confidence sequence holds the mean at every size at once with probability 95%, so the run may
look after every batch and stop when it likes.

The sequence here is the normal-mixture boundary (Robbins 1970; Howard, Ramdas, McAuliffe and
Sekhon 2021, "Time-uniform, nonparametric, nonasymptotic confidence sequences") with the
running variance in place of the known one (the asymptotic confidence sequence of
Waudby-Smith, Arbour, Sinha, Kennedy and Ramdas 2024, "Time-uniform central limit theory and
asymptotic confidence sequences", Theorem 2.2): after t deals with mean m and standard
deviation s,

    m +- s * sqrt(2 (t rho^2 + 1) / (t^2 rho^2) * log(sqrt(t rho^2 + 1) / alpha))

two-sided at level 1 - alpha, with rho chosen so that the sequence is narrowest at ``t_opt``
deals. The deal is the unit (each deal's value is one observation: a paired difference, a win
share). ``tests/test_sequences.py`` checks the error rate over 200 simulated runs.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np

ALPHA = 0.05
METHOD_SEQUENCE = ("95% anytime-valid confidence sequence over deals (normal mixture, running "
                   "variance; Waudby-Smith et al. 2024): valid at whatever look the run stopped")


def mixture_rho(t_opt: float, alpha: float = ALPHA) -> float:
    """The mixture's precision that makes the boundary narrowest after ``t_opt`` deals
    (Waudby-Smith et al. 2024, eq. (13))."""
    la = -2.0 * math.log(alpha)
    return math.sqrt((la + math.log(la + 1.0)) / max(float(t_opt), 1.0))


def cs_radius(t, sd, alpha: float = ALPHA, t_opt: float = 1000.0):
    """The half-width of the two-sided (1 - alpha) normal-mixture confidence sequence after
    ``t`` deals with standard deviation ``sd`` (arrays broadcast); inf for t < 2."""
    t = np.asarray(t, dtype=np.float64)
    sd = np.asarray(sd, dtype=np.float64)
    r2 = mixture_rho(t_opt, alpha) ** 2
    with np.errstate(divide="ignore", invalid="ignore"):
        w = sd * np.sqrt(2.0 * (t * r2 + 1.0) / (t * t * r2)
                         * np.log(np.sqrt(t * r2 + 1.0) / alpha))
    return np.where(t >= 2, w, np.inf)


@dataclass
class Running:
    """Running sums of one question's per-deal values (count, sum, sum of squares)."""

    n: int = 0
    s: float = 0.0
    s2: float = 0.0
    nonzero: int = 0  # values other than 0 (deals where a paired difference shows)

    def add(self, values: Iterable[float]) -> None:
        v = np.asarray(list(values) if not isinstance(values, np.ndarray) else values,
                       dtype=np.float64)
        self.n += int(v.size)
        self.s += float(v.sum())
        self.s2 += float((v * v).sum())
        self.nonzero += int(np.count_nonzero(v))

    @property
    def mean(self) -> float:
        return self.s / self.n if self.n else float("nan")

    @property
    def sd(self) -> float:
        if self.n < 2:
            return float("nan")
        var = (self.s2 - self.s * self.s / self.n) / (self.n - 1)
        return math.sqrt(max(var, 0.0))


@dataclass(frozen=True)
class Sequence:
    """A question's confidence sequence now: the mean, its anytime-valid interval, the deals,
    and whether it is decided (the interval excludes ``null``, or is narrower than the target
    half-width)."""

    mean: float
    lo: float
    hi: float
    deals: int
    decided: bool
    why: str


NO_VARIATION = "no variation yet"
TOO_FEW = "too few deals yet"
MIN_DEALS = 30  # no decision on fewer deals: the sequence's normal limit needs some
MIN_NONZERO = 10  # nor before this many deals show a value other than 0 (a sparse difference)


def sequence(r: Running, *, null: float = 0.0, width: float | None = None,
             alpha: float = ALPHA, t_opt: float = 1000.0) -> Sequence:
    """The confidence sequence of ``r`` and whether it decides its question. Values the same
    on every deal so far (standard deviation 0) decide nothing: a radius of 0 is no evidence
    (why: ``NO_VARIATION``); neither do fewer than ``MIN_DEALS`` deals or fewer than
    ``MIN_NONZERO`` deals with a value other than ``null`` (why: ``TOO_FEW``), where the
    sequence's normal approximation is not yet to be trusted."""
    rad = float(cs_radius(r.n, r.sd if r.n >= 2 else float("inf"), alpha, t_opt))
    lo, hi = r.mean - rad, r.mean + rad
    if r.n >= 2 and rad == 0.0:
        return Sequence(r.mean, lo, hi, r.n, False, NO_VARIATION)
    if r.n < MIN_DEALS or (null == 0.0 and r.nonzero < MIN_NONZERO):
        return Sequence(r.mean, lo, hi, r.n, False, TOO_FEW)
    if math.isfinite(rad) and (lo > null or hi < null):
        return Sequence(r.mean, lo, hi, r.n, True, f"excludes {null:g}")
    if width is not None and math.isfinite(rad) and rad <= width:
        return Sequence(r.mean, lo, hi, r.n, True, f"half-width <= {width:g}")
    return Sequence(r.mean, lo, hi, r.n, False, "undecided")


def intersect(before: Sequence | None, now: Sequence, *, null: float = 0.0,
              width: float | None = None) -> Sequence:
    """The running intersection of a question's sequences (valid too: the sequence holds at
    every size at once), so a question once decided stays decided; ``now``'s mean and deals."""
    if now.why in (NO_VARIATION, TOO_FEW):
        return now
    if before is None or before.why in (NO_VARIATION, TOO_FEW) \
            or not math.isfinite(before.hi - before.lo):
        return now
    lo, hi = max(before.lo, now.lo), min(before.hi, now.hi)
    if lo > null or hi < null:
        why = before.why if before.decided else f"excludes {null:g}"
        return Sequence(now.mean, lo, hi, now.deals, True, why)
    if width is not None and (hi - lo) / 2 <= width:
        why = before.why if before.decided else f"half-width <= {width:g}"
        return Sequence(now.mean, lo, hi, now.deals, True, why)
    return Sequence(now.mean, lo, hi, now.deals, False, now.why)


def ratio_radius(sx, sn, sxx, sxn, snn, deals: int, scale: float = 1.0, *,
                 alpha: float = ALPHA, t_opt: float = 1000.0):
    """Per cell, the ratio mean sum X / sum N / ``scale`` of per-deal totals (from their sums,
    as ``sim.stats.clusters.ClusterSums`` keeps them) and its confidence-sequence half-width:
    the deal's value is its residual X_d - m N_d over the mean count per deal (with the same
    count on every deal, exactly the deal's own mean)."""
    sx, sn, sxx, sxn, snn = (np.asarray(a, np.float64) for a in (sx, sn, sxx, sxn, snn))
    with np.errstate(divide="ignore", invalid="ignore"):
        m = sx / sn
        ss = np.maximum(sxx - 2 * m * sxn + m * m * snn, 0.0)
        sd = np.sqrt(ss / max(deals - 1, 1)) / (sn / max(deals, 1)) / scale
    rad = cs_radius(deals, np.where(np.isfinite(sd), sd, np.inf), alpha, t_opt)
    return m / scale, np.where(np.isfinite(rad), rad, np.inf)


def batch_bounds(deals: int, looks: int = 25, least: int = 10) -> list[int]:
    """Deal boundaries of a sequential run of at most ``deals`` deals: about ``looks`` equal
    batches of at least ``least`` deals, fixed by the budget alone (never by threads, chunking
    or the backend), so the same settings stop at the same deal."""
    size = max(least, -(-deals // looks))
    return [*range(0, deals, size), deals]


@dataclass
class SequentialRun:
    """The outcome of :func:`run_sequential`: each question's last sequence, the deals played,
    the budget and the deals saved (budget minus played)."""

    sequences: dict[str, Sequence]
    deals: int
    budget: int
    batches: int
    history: list[dict[str, Sequence]] = field(default_factory=list)

    @property
    def saved(self) -> int:
        return max(self.budget - self.deals, 0)

    @property
    def decided(self) -> bool:
        return all(s.decided for s in self.sequences.values())


def run_sequential(play: Callable[[int, int], dict[str, np.ndarray]], *, budget: int,
                   batch: int, width: float | None = None, null: float = 0.0,
                   alpha: float = ALPHA, t_opt: float | None = None,
                   min_deals: int = 20) -> SequentialRun:
    """Play deals in batches until every question is decided or ``budget`` deals are played.

    ``play(d0, d1)`` plays deals d0..d1-1 and returns, per question, one value per deal. After
    each batch every question's confidence sequence is updated; the run stops once each is
    decided (see :func:`sequence`; no decision before ``min_deals`` deals; a question's interval
    is the running intersection of its sequences, :func:`intersect`; no question at all is
    decided at once). ``t_opt`` (default a quarter of the budget) is where the sequences are
    narrowest."""
    if budget < 1 or batch < 1:
        raise ValueError("budget and batch must be at least 1")
    t_opt = float(t_opt if t_opt is not None else max(budget / 4, min_deals))
    runs: dict[str, Running] = {}
    seqs: dict[str, Sequence] = {}
    history = []
    done = 0
    batches = 0
    while done < budget:
        d1 = min(done + batch, budget)
        values = play(done, d1)
        batches += 1
        done = d1
        for q, v in values.items():
            runs.setdefault(q, Running()).add(v)
        seqs = {q: intersect(seqs.get(q), sequence(r, null=null, width=width, alpha=alpha,
                                                   t_opt=t_opt), null=null, width=width)
                for q, r in runs.items()}
        history.append(seqs)
        if done >= min_deals and all(s.decided for s in seqs.values()):
            break
    return SequentialRun(seqs, done, budget, batches, history)
