"""How far a candidate's figures are from their target bands (``quacks design``), and the
candidates no other beats on every band at once (the Pareto front).

- **distance** of a figure from its band ``[lo, hi]``: 0 inside it, else how far the estimate
  lies outside, in units of the band's width ``hi - lo`` (so every band counts alike whatever
  its figure's scale: 0.01 of win share outside a band 0.02 wide is 0.5, as is 1 VP outside a
  band 2 VP wide). A figure the candidate does not have (a round its game does not play)
  counts ``MISSING``.
- **loss**: the sum of the distances over the targets; 0 exactly when every estimate is inside
  its band.
- **objective** (what the search minimises): the loss plus ``TIE_WEIGHT`` times the **centre
  distance**, the sum over the targets of ``|estimate - centre| / width``: among candidates
  inside every band (loss 0) the one nearest the bands' centres wins, and outside them the
  order is the loss's.
- **Pareto front**: the candidates whose distances no other candidate matches or beats on every
  band while beating them on one; when the bands cannot all be met together it is the set of
  trade-offs between them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

TIE_WEIGHT = 0.01
MISSING = 1_000.0
LOSS_TEXT = ("loss = the sum over the targets of the distance from the band in band widths (0 "
             "inside it); ties (e.g. every band met) go to the candidate nearest the bands' "
             f"centres (objective = loss + {TIE_WEIGHT:g} x the centre distance)")


def distance(x: float, lo: float, hi: float) -> float:
    """How far ``x`` lies outside ``[lo, hi]`` in band widths (0 inside; ``MISSING`` for NaN)."""
    if x is None or not math.isfinite(x):
        return MISSING
    return max(0.0, lo - x, x - hi) / (hi - lo)


def centre_distance(x: float, lo: float, hi: float) -> float:
    """``|x - centre| / width`` (``MISSING`` for NaN)."""
    if x is None or not math.isfinite(x):
        return MISSING
    return abs(x - (lo + hi) / 2) / (hi - lo)


def score(values: Mapping[str, float], bands: Mapping[str, tuple[float, float]]) -> dict:
    """``loss``, ``centre``, ``objective`` and per target ``distances`` of the estimates
    ``values`` (by figure name)."""
    d = {m: distance(values.get(m, math.nan), lo, hi) for m, (lo, hi) in bands.items()}
    c = sum(centre_distance(values.get(m, math.nan), lo, hi) for m, (lo, hi) in bands.items())
    loss = float(sum(d.values()))
    return {"loss": loss, "centre": float(c), "objective": loss + TIE_WEIGHT * float(c),
            "distances": d}


def pareto_mask(distances: np.ndarray) -> np.ndarray:
    """Rows (candidates) of ``distances`` (candidates, targets) that no other row dominates (at
    most as far on every target and nearer on one); equal rows all stay."""
    D = np.asarray(distances, np.float64)
    keep = np.ones(len(D), bool)
    for i in range(len(D)):
        no_worse = (D <= D[i]).all(axis=1)
        better = (D < D[i]).any(axis=1)
        keep[i] = not (no_worse & better).any()
    return keep
