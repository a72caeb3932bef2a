"""The one-step expected-value rule counts a white chip's advance unless a flask set to a value
would send that white straight back."""

import numpy as np

from sim.api.rules_array import rules_scalars
from sim.kernel import layout as L
from sim.kernel.decisions.potion_value import one_step_ev_draws
from sim.rules.ruleset import load_ruleset
from strategies.builtin import parse_strategy

RS = load_ruleset("base")


def _state(flask_full: int) -> np.ndarray:
    P = np.zeros((1, L.P_WIDTH), dtype=np.int64)
    P[0, L.F_NBAG] = 1
    P[0, L.BAGCNT + 0] = 1  # only a w1 left: drawing it is safe (white 0 + 1 <= 7)
    P[0, L.F_LIMIT] = 7
    P[0, L.F_START] = 9
    P[0, L.F_ANCHOR] = 9
    P[0, L.F_NPOT] = 1
    P[0, L.POT_T] = 3  # an o1 on space 9: stopping now scores space 10
    P[0, L.POT_P] = 9
    P[0, L.F_FLASK] = flask_full
    return P


def _decide(spec: str, flask_full: int) -> bool:
    st = parse_strategy(spec)
    SP = st.params[None, :, :].copy()
    G = np.zeros(L.G_WIDTH, dtype=np.int64)
    return bool(one_step_ev_draws(_state(flask_full), 0, G, rules_scalars(RS), SP))


def test_ev_draws_a_safe_white_when_the_flask_is_off():
    # Space 11 (2 VP, 11 coins) beats space 10 (2 VP, 10 coins): the w1 is worth drawing even
    # with a full flask, because flask=0 means the flask is never used.
    assert _decide("ev:flask=0", flask_full=1)
    assert _decide("ev:flask=0", flask_full=0)


def test_ev_counts_a_flasked_white_as_no_advance():
    # With flask=1 a full flask would send the w1 straight back: the reward stays, so no gain.
    assert not _decide("ev:flask=1", flask_full=1)
    assert _decide("ev:flask=1", flask_full=0)
