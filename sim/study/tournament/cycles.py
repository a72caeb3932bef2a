"""Ratings that see cycles: Nash averaging and AlphaRank over a round-robin's head-to-head matrix.

The Plackett-Luce rating (``sim.study.tournament.rating``) gives each strategy one strength and
so assumes strength is transitive: if A usually beats B and B usually beats C, A beats C. When
the head-to-head matrix has a cycle (A beats B, B beats C, C beats A) no single strength fits
it; the fitted ratings come out near the average over the opponents each strategy happened to
meet, and they move when the pool changes: adding a copy (or a near copy) of C makes A, which C
beats, look worse, although nothing about A changed. The two ratings here are built on the
game between the strategies instead:

- **Nash averaging** (Balduzzi, Tuyls, Perolat and Graepel 2018, "Re-evaluating evaluation",
  NeurIPS): the maximum-entropy Nash equilibrium ``p`` of the symmetric zero-sum game whose
  payoff matrix is the antisymmetric head-to-head matrix ``A``, and each strategy's payoff
  against that mixture, ``r = A p``. Every member of a cycle that no one outside beats gets
  weight and rating 0; a strategy outside the equilibrium gets weight 0 and a negative rating,
  how much it loses against the mixture. Nash averaging is invariant to clones: copying a
  strategy splits its weight between the copies and leaves every rating unchanged.
- **AlphaRank** (Omidshafiei, Papadimitriou, Piliouras, Tuyls, Rowland, Lespiau, Czarnecki,
  Lanctot, Perolat and Munos 2019, "alpha-Rank: Multi-agent evaluation by evolution", Sci. Rep.
  9:9937), single-population: the stationary distribution of the Markov chain over strategies in
  which a population playing one strategy is taken over by a mutant with the fixation
  probability of a Moran process under strong selection. Mass concentrates on the strategies the
  evolutionary dynamics keep returning to (in a cycle, spread over the cycle).

On a transitive matrix all three agree on the order; Nash averaging and AlphaRank then put
(nearly) all weight on the best strategy and say nothing about the order of the rest beyond the
Nash rating (how much each loses to the best). They differ from Plackett-Luce when there is a
cycle, or when the pool holds several similar strategies (which Plackett-Luce counts, and the
equilibrium does not).

The matrix. ``W[i, j]`` is i's win share in the games where i and j sat at the same table (the
``win_share_a`` of ``head_to_head.csv``); the payoff of the game is half the difference,
``A[i, j] = (W[i, j] - W[j, i]) / 2``, antisymmetric by construction, in win-share units. At
two-player tables ``W[i, j] + W[j, i] = 1`` and ``A[i, j] = W[i, j] - 1/2``, so a Nash rating of
-0.1 means the strategy wins 0.4 of its duels against the Nash mixture; at larger tables it
compares i's share with j's share in the games they share (the other seats' wins cancel). Win
shares rather than their logits keep a cell of 0 or 1 (a strategy that never loses) finite.

The equilibrium. Three steps, each exact up to the solver's tolerance:

1. The maximin linear programme (``scipy.optimize.linprog``, HiGHS): maximise v subject to
   (A^T p)_j >= v for all j, p in the simplex. Its value is 0 (A is antisymmetric) and its
   solution p0 is one equilibrium.
   (When one strategy beats every other, the equilibrium is that strategy alone, and no
   programme is needed.)
2. The support of the maximum-entropy equilibrium is the union U of the supports of all
   equilibria (entropy pushes weight onto every strategy that can carry it). For two equilibria
   p, q of a symmetric zero-sum game q^T A p = 0, so (A p)_i = 0 on the support of q: a strategy
   with (A p0)_i < 0 is in no equilibrium. Only the strategies outside p0's support with
   (A p0)_i = 0 (a tie, e.g. a clone) need one more programme each: maximise p_i over the
   equilibria; it is in U if that maximum is positive.
3. Every equilibrium has (A p)_U = 0. When that system with sum(p) = 1 has one solution it is the
   equilibrium (found by least squares); otherwise (clones, exact ties) the entropy is maximised
   over the equilibria on U with ``scipy.optimize.minimize`` (SLSQP), started from the average of
   the programmes' solutions, which lies inside. The ratings of U are then set to exactly 0 (they
   are 0 in every equilibrium); the others are (A p)_i < 0.

Intervals. The head-to-head sums are also kept per cluster of deals (``deal % 256``, the
clusters of the Plackett-Luce sandwich: a cluster is a union of whole deals, and deals are
independent), so the uncertainty is a **cluster bootstrap over deals**: the clusters are drawn
with replacement (``BOOTSTRAP_RESAMPLES`` times, seed ``BOOTSTRAP_SEED``, so a report is the same
however it was run), the matrix, equilibrium, ratings and AlphaRank distribution are recomputed
from each draw, and the 2.5 and 97.5 percentiles are the 95% interval. With fewer than 256 deals a
cluster is one deal. The weight of a strategy and the equilibrium are not smooth functions of
the matrix (a weight is 0 on one side of a threshold), so these percentile intervals are rough
near 0: read an interval that reaches 0 as "may not be in the equilibrium". The point estimate
is the statistic of the whole sample, so it can lie outside its interval where the statistic
jumps.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

BOOTSTRAP_RESAMPLES = 400
BOOTSTRAP_SEED = 20180  # fixed: the same sums give the same intervals, byte for byte
ALPHA = 100.0  # AlphaRank selection intensity (the default of Omidshafiei et al.'s code)
POPULATION = 50  # AlphaRank population size m (likewise)
TOL = 1e-9  # weights and payoffs (relative to the largest |A|) below this count as 0

# The statistics of the table, declared once: (column, label for a person). Each column comes
# with ``_ci_lo`` and ``_ci_hi`` (the bootstrap percentiles).
CYCLE_STATS: tuple[tuple[str, str], ...] = (
    ("nash_weight", "Nash weight"),
    ("nash_rating", "Nash rating"),
    ("alpharank", "AlphaRank mass"),
)
CYCLE_STAT_NAMES = tuple(name for name, _ in CYCLE_STATS)
METHOD_CYCLES = (f"percentile cluster bootstrap over deals (deal % 256), {BOOTSTRAP_RESAMPLES} "
                 f"resamples, seed {BOOTSTRAP_SEED}")


@dataclass(frozen=True)
class NashAverage:
    """The maximum-entropy Nash equilibrium ``mixture`` of the game A and the Nash-averaged
    ``ratings`` (A @ mixture: 0 on the equilibrium's support, below 0 elsewhere).
    ``max_entropy`` is False only if the entropy step failed and an equilibrium that is not
    the maximum-entropy one was kept (its support is still the right one)."""

    mixture: np.ndarray
    ratings: np.ndarray
    max_entropy: bool = True


def antisymmetric(win: np.ndarray) -> np.ndarray:
    """The payoff matrix ``A = (W - W^T) / 2`` (diagonal 0) of a win-share matrix ``W``
    (``W[i, j]``: i's win share in the games with j; the diagonal is ignored)."""
    W = np.array(win, dtype=np.float64)
    np.fill_diagonal(W, 0.0)
    A = (W - W.T) / 2
    np.fill_diagonal(A, 0.0)
    return A


def _check_game(A) -> np.ndarray:
    A = np.asarray(A, dtype=np.float64)
    if A.ndim != 2 or A.shape[0] != A.shape[1] or A.shape[0] == 0:
        raise ValueError(f"expected a square payoff matrix, got shape {A.shape}")
    if not np.isfinite(A).all():
        raise ValueError("the payoff matrix has a missing (NaN) or infinite cell")
    scale = float(np.abs(A).max())
    if not np.allclose(A, -A.T, rtol=0, atol=1e-12 * max(scale, 1.0)):
        raise ValueError("the payoff matrix of a symmetric zero-sum game must be antisymmetric "
                         "(A = -A^T); build it with antisymmetric(W)")
    return A


def _equilibrium_lp(An: np.ndarray, target: int | None):
    """One linear programme over the simplex: the maximin one (``target`` None: maximise v with
    (A^T p)_j >= v) or, over the equilibria (A p <= 0), maximise p[target]."""
    from scipy.optimize import linprog

    S = len(An)
    if target is None:
        c = np.zeros(S + 1)
        c[-1] = -1.0
        # (A^T p)_j >= v  <=>  (A p)_j + v <= 0, as A^T = -A
        res = linprog(c, A_ub=np.hstack([An, np.ones((S, 1))]), b_ub=np.zeros(S),
                      A_eq=np.append(np.ones(S), 0.0)[None, :], b_eq=[1.0],
                      bounds=[(0.0, 1.0)] * S + [(None, None)], method="highs")
    else:
        c = np.zeros(S)
        c[target] = -1.0
        res = linprog(c, A_ub=An, b_ub=np.zeros(S), A_eq=np.ones((1, S)), b_eq=[1.0],
                      bounds=[(0.0, 1.0)] * S, method="highs")
    if res.status != 0:
        raise RuntimeError(f"the equilibrium linear programme failed: {res.message}")
    p = np.clip(res.x[:S], 0.0, None)
    return p / p.sum()


def _max_entropy(An: np.ndarray, u: np.ndarray, start: np.ndarray) -> tuple[np.ndarray, bool]:
    """The maximum-entropy point of {p on U: (A p)_U = 0, (A p)_rest <= 0, sum p = 1}."""
    E = np.vstack([An[np.ix_(u, u)], np.ones((1, len(u)))])
    rhs = np.append(np.zeros(len(u)), 1.0)
    if np.linalg.matrix_rank(E, tol=TOL) == len(u):  # one solution: the equilibrium itself
        return np.linalg.lstsq(E, rhs, rcond=None)[0], True
    from scipy.optimize import minimize

    # the equilibria on U are start + Z y (Z: a basis of E's null space) with p >= 0 and
    # (A p)_rest <= 0; SLSQP over y, so no equality is redundant
    _, sv, vt = np.linalg.svd(E)
    Z = vt[int((sv > TOL * sv[0]).sum()):].T
    rest = np.setdiff1d(np.arange(len(An)), u)
    L = np.vstack([np.eye(len(u)), -An[np.ix_(rest, u)]])  # L p >= 0

    def negent(y):
        x = np.maximum(start + Z @ y, 1e-300)
        return float(x @ np.log(x))

    def grad(y):
        return Z.T @ (np.log(np.maximum(start + Z @ y, 1e-300)) + 1.0)

    cons = [{"type": "ineq", "fun": lambda y: L @ (start + Z @ y), "jac": lambda y: L @ Z}]
    res = minimize(negent, np.zeros(Z.shape[1]), jac=grad, method="SLSQP", constraints=cons,
                   options={"ftol": 1e-15, "maxiter": 1000})
    x = start + Z @ res.x
    ok = bool(res.success) and (L @ x).min() > -1e-9
    return (x, True) if ok else (start, False)


def nash_averaging(A, *, tol: float = TOL) -> NashAverage:
    """Nash averaging of the symmetric zero-sum game with antisymmetric payoff matrix ``A``
    (``A[i, j]``: what i gains against j; ``A = -A^T``), after Balduzzi et al. (2018).

    Returns the maximum-entropy Nash equilibrium (a mixture over the strategies, the unique one
    among all equilibria with the largest entropy) and the Nash-averaged ratings ``A @ p``: each
    strategy's payoff against that mixture, 0 for every strategy in the equilibrium's support
    and below 0 for the rest. A strategy beaten by everyone gets weight 0; in a pure cycle
    (rock-paper-scissors) every member gets the same weight and rating 0; a copy of a strategy
    splits its weight and changes no rating. How the equilibrium is found is in the module
    docstring. Differs from Elo / Plackett-Luce, which rank by a strength fitted to the average
    result against the pool, whenever the matrix is not transitive or the pool holds copies.
    """
    A = _check_game(A)
    S = len(A)
    if S == 1:
        return NashAverage(np.ones(1), np.zeros(1))
    scale = float(np.abs(A).max())
    if scale == 0.0:  # every pair even: every strategy is an equilibrium
        return NashAverage(np.full(S, 1.0 / S), np.zeros(S))
    An = A / scale
    off = ~np.eye(S, dtype=bool)
    beats_all = np.flatnonzero(np.where(off, An > tol, True).all(axis=1))
    if len(beats_all):  # one strategy beats every other: the equilibrium is that strategy alone
        p = np.zeros(S)
        p[beats_all[0]] = 1.0
        r = A[:, beats_all[0]].copy()
        r[beats_all[0]] = 0.0
        return NashAverage(p, r)
    p0 = _equilibrium_lp(An, None)
    points = [p0]
    in_u = p0 > tol
    slack = An @ p0
    for k in np.flatnonzero(~in_u & (slack > -tol)):  # ties: could k carry weight?
        if in_u[k]:
            continue
        q = _equilibrium_lp(An, int(k))
        if q[k] > tol:
            points.append(q)
            in_u |= q > tol
    u = np.flatnonzero(in_u)
    start = np.mean(points, axis=0)[u]
    start /= start.sum()
    x, maxent = _max_entropy(An, u, start)
    p = np.zeros(S)
    p[u] = np.clip(x, 0.0, None)
    p /= p.sum()
    r = A @ p
    r[u] = 0.0  # exactly: every equilibrium pays 0 to the strategies of its support
    return NashAverage(p, r, maxent)


def alpharank(M, *, alpha: float = ALPHA, m: int = POPULATION) -> np.ndarray:
    """Single-population AlphaRank (Omidshafiei et al. 2019) of the payoff matrix ``M``
    (``M[i, j]``: i's payoff against j; the diagonal is not used): the stationary distribution
    over strategies.

    The chain: in a population of ``m`` players of strategy s, one mutant r appears (each other
    strategy with probability 1/(S-1)) and takes over with the Moran fixation probability
    rho = (1 - exp(-u)) / (1 - exp(-m u)), u = alpha (M[r, s] - M[s, r]) (1/m when u = 0; the
    "local selection" model of the authors' code, in which fitness is the payoff against the
    other strategy). ``alpha`` is the selection intensity: large values rank by who beats whom,
    small ones flatten the distribution towards uniform. With the antisymmetric A of
    :func:`antisymmetric`, M[r, s] - M[s, r] is W[r, s] - W[s, r], so A and the win-share matrix
    W give the same chain. Like Nash averaging it spreads the mass over a cycle instead of
    ranking its members by their average; unlike it, every strategy keeps some mass at finite
    alpha, and copies of a strategy do add up (each is a state of the chain).
    """
    M = np.asarray(M, dtype=np.float64)
    S = len(M)
    if M.ndim != 2 or M.shape[1] != S or S == 0:
        raise ValueError(f"expected a square payoff matrix, got shape {M.shape}")
    if S == 1:
        return np.ones(1)
    u = alpha * (M - M.T)  # u[r, s]: mutant r's advantage in a population of s
    rho = np.full((S, S), 1.0 / m)
    with np.errstate(over="ignore", under="ignore"):
        pos = u > 1e-14
        neg = u < -1e-14
        a = np.abs(u)
        # (1 - e^-u) / (1 - e^-mu) for u > 0; for u < 0 the same, written without overflow:
        # e^{-(m-1)|u|} (1 - e^-|u|) / (1 - e^-m|u|)
        rho[pos] = np.expm1(-a[pos]) / np.expm1(-m * a[pos])
        rho[neg] = np.exp(-(m - 1) * a[neg]) * np.expm1(-a[neg]) / np.expm1(-m * a[neg])
    C = rho.T / (S - 1)  # C[s, r]: from population s to r
    np.fill_diagonal(C, 0.0)
    np.fill_diagonal(C, 1.0 - C.sum(axis=1))
    # pi (I - C + 1 1^T) = 1^T: nonsingular when the stationary distribution is unique (it is:
    # of every two strategies one can take over from the other with probability >= 1/m)
    pi = np.linalg.solve((np.eye(S) - C + 1.0).T, np.ones(S))
    pi = np.where(pi > 1e-14, pi, 0.0)  # below that, rounding noise of the solve
    return pi / pi.sum()


def _stats(win: np.ndarray) -> np.ndarray:
    """The three statistics of one win-share matrix, shape (3, S)."""
    A = antisymmetric(win)
    nash = nash_averaging(A)
    return np.stack([nash.mixture, nash.ratings, alpharank(A)])


def cycle_columns(X: np.ndarray, N: np.ndarray, unit: float, *,
                  resamples: int = BOOTSTRAP_RESAMPLES,
                  seed: int = BOOTSTRAP_SEED) -> dict[str, np.ndarray] | None:
    """The columns of the cycle table (``CYCLE_STATS`` and their ``_ci_lo`` / ``_ci_hi``), one
    value per strategy, from head-to-head sums per cluster of deals: ``X[b, i, j]`` i's share
    units and ``N[b, i, j]`` its seat-games in the games with j, in cluster b (``unit`` share
    units make one win). None when some pair never met (no matrix to play)."""
    X = np.asarray(X, dtype=np.float64)
    N = np.asarray(N, dtype=np.float64)
    S = X.shape[1]
    off = ~np.eye(S, dtype=bool)
    tn = N.sum(axis=0)
    if S < 2 or (tn[off] <= 0).any():
        return None
    point = _stats(X.sum(axis=0) / (np.where(tn > 0, tn, 1.0) * unit))
    keep = N.reshape(len(N), -1).sum(axis=1) > 0
    Xg, Ng = X[keep].reshape(-1, S * S), N[keep].reshape(-1, S * S)
    G = len(Xg)
    lo = hi = np.full((len(CYCLE_STATS), S), np.nan)
    if G >= 2 and resamples > 0:
        rng = np.random.default_rng(seed)
        draws = rng.multinomial(G, np.full(G, 1.0 / G), size=resamples).astype(np.float64)
        xs, ns = draws @ Xg, draws @ Ng
        boot = np.empty((resamples, len(CYCLE_STATS), S))
        for k in range(resamples):
            n = ns[k].reshape(S, S)
            w = np.where(n > 0, xs[k].reshape(S, S) / (np.where(n > 0, n, 1.0) * unit), 0.5)
            boot[k] = _stats(w)  # a pair that did not meet in the draw counts as even
        lo, hi = np.percentile(boot, [2.5, 97.5], axis=0)
    out: dict[str, np.ndarray] = {}
    for i, name in enumerate(CYCLE_STAT_NAMES):
        out[name] = point[i]
        out[name + "_ci_lo"] = lo[i]
        out[name + "_ci_hi"] = hi[i]
    return out
