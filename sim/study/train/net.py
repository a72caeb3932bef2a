"""Fitting the value net (issue 48): the VP a position still brings, learned by scikit-learn's
``MLPRegressor`` (one hidden layer of rectified units) from self-play positions, and exported to
the arrays the kernel evaluates (``strategies.value_model_file.ValueNet``).

The target is the VP still to come after round r, own minus the others' mean (``Positions.togo``),
not the final margin or the win: what comes later depends only on the position (the game is
Markov in it), so a bag's worth is learned without the luck that brought it. It is relative
because a chip also acts on the others: a black chip wins the moth's comparison from the
neighbours (own VP only, the net stopped buying black, and the neighbours took those VP).
Positions after the last round bring nothing and are left out.

Fits are reproducible: the rows are taken in game order, the optimiser is seeded, and BLAS runs
on one thread during the fit, so the same positions give the same weights to the last bit.
"""

from __future__ import annotations

import numpy as np

from sim.study.train.features import X_GAP_BEST, X_GAP_TOTAL, Positions
from strategies.value_model_file import ValueNet

HIDDEN = 32  # hidden units (at most net_layout.MAX_HIDDEN)
EPOCHS = 12
BATCH = 512
L2 = 1e-4


def net_inputs(data: Positions) -> np.ndarray:
    """The net's inputs (``net_layout.NET_INPUTS``): the features, the round and the neighbours'
    black chips, the VP gaps against the others' VP after the round where the positions carry
    them (``gaps_after``: as the buyer sees them when it asks the net)."""
    x = data.x.copy()
    nb = np.zeros(len(x))
    if data.gaps_after is not None:
        x[:, X_GAP_BEST] = data.gaps_after[:, 0]
        x[:, X_GAP_TOTAL] = data.gaps_after[:, 1]
        nb = data.gaps_after[:, 2]
    return np.hstack([x, data.round[:, None].astype(np.float64), nb[:, None]])


def td_targets(data: Positions, net: ValueNet, players: int, lam: float = 0.0) -> np.ndarray:
    """Targets with less noise than the VP still to come: the VP (own minus the others' mean)
    of the next round plus ``net``'s value of the position after it, TD(lambda) mixed with the
    plain target by ``lam`` (1: the plain target). The rows are in the order ``positions``
    makes them (game, round, seat), so a seat's next round is ``players`` rows on; the last
    round before the end keeps the plain target (nothing comes after it)."""
    y = data.togo.astype(np.float64).copy()
    nxt = np.arange(len(y)) + players
    ok = nxt < len(y)
    ok[ok] &= (data.round[nxt[ok]] == data.round[ok] + 1) & (data.game[nxt[ok]] == data.game[ok])
    last = int(data.round.max())
    ok &= data.round + 1 < last  # the position after the last round is worth nothing more
    i = np.flatnonzero(ok)
    boot = (y[i] - data.togo[nxt[i]]) + net.predict(net_inputs(data)[nxt[i]])
    y[i] = lam * y[i] + (1.0 - lam) * boot
    return y


def fit_net(data: Positions, last_round: int, seed: int, hidden: int = HIDDEN,
            epochs: int = EPOCHS, target: np.ndarray | None = None) -> ValueNet:
    """A value net fitted to the positions before ``last_round`` (``target``: in place of
    ``data.togo``, e.g. ``td_targets``)."""
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    from sklearn.neural_network import MLPRegressor
    from threadpoolctl import threadpool_limits

    if data.togo is None:
        raise ValueError("the positions carry no VP still to come (togo)")
    keep = data.round < last_round
    x = net_inputs(data)[keep]
    y = (data.togo if target is None else target)[keep].astype(np.float64)
    mu = x.mean(axis=0)
    sd = x.std(axis=0)
    sd[sd == 0] = 1.0
    ym, ys = float(y.mean()), float(y.std()) or 1.0
    reg = MLPRegressor(hidden_layer_sizes=(hidden,), activation="relu", alpha=L2,
                       batch_size=BATCH, learning_rate_init=1e-3, max_iter=epochs,
                       shuffle=True, random_state=seed, tol=0.0, n_iter_no_change=epochs + 1)
    with threadpool_limits(limits=1), warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        reg.fit((x - mu) / sd, (y - ym) / ys)
    w1, w2 = reg.coefs_
    b1, b2 = reg.intercepts_
    w1f = w1 / sd[:, None]
    b1f = b1 - (mu / sd) @ w1
    return ValueNet(w1f, b1f, w2[:, 0].copy(), float(b2[0]), ym, ys)


def explained(net: ValueNet, data: Positions, last_round: int) -> float:
    """The share of the variance of the VP still to come that the net explains (R^2) on
    ``data``'s positions before ``last_round``."""
    keep = data.round < last_round
    y = data.togo[keep]
    p = net.predict(net_inputs(data)[keep])
    return float(1.0 - np.mean((y - p) ** 2) / np.var(y))
