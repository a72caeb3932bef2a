"""Training data for the value model: the position of every seat after every round of a batch of
games (``value_layout.FEATURES``, from the per-round record), with its game's final margin and
win share.

The position after round r pairs the seat's own state at the end of round r with the others'
scores before round r: what a player knows while it brews round r, which is when ``master`` asks
the model (``sim.kernel.decisions.value_model.position_features`` computes the same numbers from
the live state). The value net (``--value net``) learns the VP still to come from it (``togo``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.api.game import result_fields, round_fields
from sim.rules.chips import COLOUR_NAMES
from strategies.value_model_file import FEATURE_NAMES, N_FEATURES

_RD = {name: lo for name, lo, _ in round_fields()}
_O = {name: lo for name, lo, _ in result_fields()}
RD_SCORE, RD_RUBIES, RD_DROPLET, RD_FLASK = (_RD[k] for k in ("score", "rubies", "droplet",
                                                              "flask"))
RD_BAG, RD_BAGVALUE = _RD["bag"], _RD["bagvalue"]
O_SCORE, O_WIN, O_NWIN = _O["score"], _O["win"], _O["nwin"]
X_GAP_BEST, X_GAP_TOTAL, X_RUBIES, X_DROPLET, X_FLASK = (
    FEATURE_NAMES.index(k) for k in ("gap_best", "gap_total", "rubies", "droplet", "flask"))
X_COUNT = FEATURE_NAMES.index(f"count_{COLOUR_NAMES[0]}")
X_VALUE = FEATURE_NAMES.index(f"value_{COLOUR_NAMES[0]}")


@dataclass
class Positions:
    """Positions after round ``round`` (1-based) with their game's outcome, one row each."""

    x: np.ndarray  # (n, N_FEATURES) float64; every entry a whole number
    round: np.ndarray  # (n,) int64
    margin: np.ndarray  # (n,) float64: own final VP minus the best other's
    win: np.ndarray  # (n,) float64: the win share (1 / players tied first)
    game: np.ndarray  # (n,) int64: the game (deal) the row comes from
    # (n,): the VP still to come after the round (final minus after the round), own minus the
    # others' mean: the value net's target
    togo: np.ndarray | None = None
    # (n, 3): gap_best and gap_total against the others' VP after the round, not before it (what
    # a seat knows when it buys at the round's end, where the value net is asked), and the
    # neighbours' mean count of black chips then
    gaps_after: np.ndarray | None = None


def positions(rd: np.ndarray, out: np.ndarray, games: np.ndarray) -> Positions:
    """Every (game, seat, round) position of a batch played with ``detail=True``: ``rd`` is
    (games, rounds, seats, RD_WIDTH), ``out`` (games, seats, O_WIDTH)."""
    m, rounds, n, _ = rd.shape
    own = rd[:, :, :, RD_SCORE].astype(np.float64)  # (m, rounds, n) after each round
    before = np.concatenate([np.zeros((m, 1, n)), own[:, :-1, :]], axis=1)
    x = np.zeros((m, rounds, n, N_FEATURES), dtype=np.float64)
    after = np.zeros((m, rounds, n, 3), dtype=np.float64)
    black = rd[..., RD_BAG + COLOUR_NAMES.index("black")].astype(np.float64)
    for s in range(n):
        others = [o for o in range(n) if o != s]
        if others:
            x[:, :, s, X_GAP_BEST] = own[:, :, s] - before[:, :, others].max(axis=2)
            x[:, :, s, X_GAP_TOTAL] = (len(others) * own[:, :, s]
                                       - before[:, :, others].sum(axis=2))
            after[:, :, s, 0] = own[:, :, s] - own[:, :, others].max(axis=2)
            after[:, :, s, 1] = len(others) * own[:, :, s] - own[:, :, others].sum(axis=2)
            near = sorted({(s - 1) % n, (s + 1) % n} - {s})
            after[:, :, s, 2] = black[:, :, near].mean(axis=2)
        else:
            x[:, :, s, X_GAP_BEST] = own[:, :, s]
            after[:, :, s, 0] = own[:, :, s]
    x[..., X_RUBIES] = rd[..., RD_RUBIES]
    x[..., X_DROPLET] = rd[..., RD_DROPLET]
    x[..., X_FLASK] = rd[..., RD_FLASK] != 0
    k = len(COLOUR_NAMES)
    x[..., X_COUNT:X_COUNT + k] = rd[..., RD_BAG:RD_BAG + k]
    x[..., X_VALUE:X_VALUE + k] = rd[..., RD_BAGVALUE:RD_BAGVALUE + k]
    final = out[:, :, O_SCORE].astype(np.float64)  # (m, n)
    margin = np.empty((m, n))
    for s in range(n):
        others = [o for o in range(n) if o != s]
        margin[:, s] = final[:, s] - (final[:, others].max(axis=1) if others else 0.0)
    win = out[:, :, O_WIN] / np.maximum(out[:, :, O_NWIN], 1)
    r = np.broadcast_to(np.arange(1, rounds + 1)[None, :, None], (m, rounds, n))
    g = np.broadcast_to(np.asarray(games)[:, None, None], (m, rounds, n))
    togo = final[:, None, :] - own
    if n > 1:
        togo = togo - (togo.sum(axis=2, keepdims=True) - togo) / (n - 1)
    return Positions(x.reshape(-1, N_FEATURES), r.reshape(-1).astype(np.int64),
                     np.broadcast_to(margin[:, None, :], (m, rounds, n)).reshape(-1).copy(),
                     np.broadcast_to(win[:, None, :], (m, rounds, n)).reshape(-1).astype(float),
                     g.reshape(-1).astype(np.int64), togo.reshape(-1), after.reshape(-1, 3))
