"""The value model's layout, declared once: the features of a position and where a seat's model
sits in its parameter array.

A position is a seat's state at the end of a round (after buying and spending) against the
others' scores before that round: what a player knows while brewing. ``FEATURES`` names each
feature in order; the kernel (``sim.kernel.decisions.value_model``) and the training data
(``sim.study.train.features``) both compute them from this list's offsets.

A seat whose strategy has a value model (``master``) gets ``MODEL_ROWS`` extra rows after the
slots of its parameters: ``SP[s, N_SLOTS + r, :]`` is the model of round r (1..20) and row
``N_SLOTS`` its header. A row holds ``(a, b, w0, w_1 .. w_F)``: the expected final margin (own
VP minus the best other's at the end) is ``w0 + sum w_i x_i`` and the chance of winning
``1 / (1 + exp(-(a + b * margin)))``.
"""

from __future__ import annotations

from sim.kernel.decisions.slots import N_SLOTS, PARAM_WIDTH
from sim.rules.chips import COLOUR_NAMES

FEATURES: tuple[tuple[str, str], ...] = (
    ("gap_best", "own VP minus the best other player's VP before the round"),
    ("gap_total", "the sum over the other players of own VP minus theirs, before the round"),
    ("rubies", "rubies held"),
    ("droplet", "droplet position"),
    ("flask", "1 if the flask is full"),
    *((f"count_{c}", f"{c} chips owned") for c in COLOUR_NAMES),
    *((f"value_{c}", f"{c} chips owned: their values added up") for c in COLOUR_NAMES),
)
FEATURE_NAMES = tuple(name for name, _ in FEATURES)
N_FEATURES = len(FEATURES)
X_GAP_BEST, X_GAP_TOTAL, X_RUBIES, X_DROPLET, X_FLASK = range(5)
X_COUNT = FEATURE_NAMES.index(f"count_{COLOUR_NAMES[0]}")
X_VALUE = FEATURE_NAMES.index(f"value_{COLOUR_NAMES[0]}")

M_A, M_B, M_W0 = 0, 1, 2  # a row: logistic intercept and slope, then the margin's intercept
M_W = 3  # the margin's weights w_1.. start here
MODEL_ROUNDS = 20  # rows for rounds 1..20; a later round uses the last
MODEL_ROWS = MODEL_ROUNDS + 1
MODEL_BASE = N_SLOTS  # SP[s, MODEL_BASE + r]: round r's row; SP[s, MODEL_BASE]: the header
H_ROUNDS = 0  # header: rounds the model has rows for (0: no model; the leaves fall back)

assert M_W + N_FEATURES <= PARAM_WIDTH, "a round's model must fit one parameter row"
