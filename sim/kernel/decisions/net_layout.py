"""The learned value of the whole bag (issue 48), declared once: its inputs and where its weights
sit in a seat's parameter array.

The value net predicts a seat's VP still to come (final VP minus the VP after the round, own minus
the others' mean) from its position after a round's buying: the value model's features
(``value_layout.FEATURES``: the bag by colour, counts and values, rubies, droplet, flask, the VP
gaps), the round and the neighbours' mean count of black chips (what a black chip's moth bonus
is measured against). It is one hidden
layer of rectified units: ``y = out_mean + out_scale * (b2 + w2 . relu(b1 + W1 x))``, the inputs'
standardisation folded into ``W1`` and ``b1``, so the kernel reads the raw features.

A model file with a net adds ``NET_ROWS`` rows after the value model's (``MODEL_BASE +
MODEL_ROWS``): a header (``N_HIDDEN``: 0 for no net; ``N_OUT_MEAN``, ``N_OUT_SCALE``, ``N_B2``),
one row per input holding its weights to the hidden units (at most ``PARAM_WIDTH``), then
``b1`` and ``w2``.
"""

from __future__ import annotations

from sim.kernel.decisions.slots import PARAM_WIDTH
from sim.kernel.decisions.value_layout import FEATURE_NAMES, MODEL_BASE, MODEL_ROWS, N_FEATURES

NET_INPUTS: tuple[str, ...] = (*FEATURE_NAMES, "round", "black_neighbours")
N_NET_IN = len(NET_INPUTS)
X_ROUND = N_FEATURES  # the round is the input after the features
X_BLACK_NEAR = N_FEATURES + 1  # then the neighbours' mean count of black chips
MAX_HIDDEN = PARAM_WIDTH
NET_BASE = MODEL_BASE + MODEL_ROWS  # the header row
N_HIDDEN, N_OUT_MEAN, N_OUT_SCALE, N_B2 = 0, 1, 2, 3  # header fields
NET_W1 = NET_BASE + 1  # NET_W1 + i: input i's weights to the hidden units
NET_B1 = NET_W1 + N_NET_IN
NET_W2 = NET_B1 + 1
NET_ROWS = NET_W2 + 1 - NET_BASE
