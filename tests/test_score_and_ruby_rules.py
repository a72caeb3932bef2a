"""Score-aware stopping (the ``press`` value of ev) and ruby spending by value for the rounds left,
each checked on hand-set states worked out from the rule's definition."""

import numpy as np
import pytest

from sim.api.rules_array import rules_scalars
from sim.kernel import layout as L
from sim.kernel.decisions import slots as S
from sim.kernel.decisions.decide import decide_spend
from sim.kernel.decisions.potion_value import one_step_ev_draws, press_shift
from sim.kernel.rng import N_STREAMS
from sim.rules.ruleset import load_ruleset
from strategies.builtin import parse_strategy
from strategies.plugin import function_table

RS = load_ruleset("base")
R = rules_scalars(RS)


def _game(round_no: int, scores: list[int]) -> tuple[np.ndarray, np.ndarray]:
    P = np.zeros((len(scores), L.P_WIDTH), dtype=np.int64)
    P[:, L.F_SCORE] = scores
    G = np.zeros(L.G_WIDTH, dtype=np.int64)
    G[L.G_ROUND] = round_no
    G[L.G_NP] = len(scores)
    return P, G


def _params(spec: str, seats: int) -> np.ndarray:
    return np.repeat(parse_strategy(spec).params[None, :, :], seats, axis=0).copy()


@pytest.mark.parametrize(("round_no", "scores", "press", "want"), [
    (9, [10, 30, 20], 0.1, 0.1 * 20 / 1),  # last round, 20 behind: 2 VP
    (5, [10, 30, 20], 0.1, 0.1 * 20 / 5),  # 4 rounds after this one: spread over 5
    (9, [40, 30, 20], 0.1, 0.1 * -10 / 1),  # leading by 10: more careful
    (9, [10, 30, 20], 0.0, 0.0),  # press 0 ignores the score
    (0, [10, 30, 20], 0.1, 0.0),  # outside a game
])
def test_press_shift_by_gap_and_rounds_left(round_no, scores, press, want):
    P, G = _game(round_no, scores)
    SP = _params(f"ev:press={press}", len(scores))
    assert press_shift(P, 0, G, R, SP) == pytest.approx(want)


def _brewing(P: np.ndarray, s: int) -> None:
    """Seat s: white total 5, the bag holds one w3 (explodes) and one o1 (safe), the last chip
    on space 9 (stopping scores space 10: 2 VP and 10 coins)."""
    P[s, L.F_NBAG] = 2
    P[s, L.BAGCNT + 2] = 1  # w3
    P[s, L.BAGCNT + 3] = 1  # o1
    P[s, L.F_WHITE] = 5
    P[s, L.F_LIMIT] = 7
    P[s, L.F_START] = 9
    P[s, L.F_ANCHOR] = 9
    P[s, L.F_NPOT] = 1
    P[s, L.POT_T] = 3
    P[s, L.POT_P] = 9


def test_press_turns_a_losing_draw_into_a_draw_only_when_behind():
    # Coin 0.2, ruby 0: stop = space 10 = 2 + 10*0.2 = 4.0. One chip: half w3 (explodes on
    # space 12: max(2 VP, 12*0.2) = 2.4) and half o1 (space 11: 2 + 11*0.2 = 4.2); 3.3 < 4.0,
    # so ev stops. Behind by 30 in round 9 with press 0.1 the bar drops by 3 VP: 3.3 > 1.0.
    spec = "ev:coin=0.2,ruby=0,flask=0,press=0.1"
    P, G = _game(9, [10, 40])
    _brewing(P, 0)
    SP = _params(spec, 2)
    assert one_step_ev_draws(P, 0, G, R, SP)
    P, G = _game(9, [40, 10])  # leading: stops
    _brewing(P, 0)
    assert not one_step_ev_draws(P, 0, G, R, SP)
    P, G = _game(9, [10, 40])  # behind but press 0: stops
    _brewing(P, 0)
    assert not one_step_ev_draws(P, 0, G, R, _params("ev:coin=0.2,ruby=0,flask=0", 2))
    # behind by 30 with 8 rounds left: shift 30*0.1/9 = 0.33, not enough (3.3 < 3.67)
    P, G = _game(1, [10, 40])
    _brewing(P, 0)
    assert not one_step_ev_draws(P, 0, G, R, SP)


def _spend(spec: str, round_no: int, rubies: int, flask_full: int, i: int = 0) -> int:
    P, G = _game(round_no, [0])
    P[0, L.F_RUBIES] = rubies
    P[0, L.F_FLASK] = flask_full
    st = parse_strategy(spec)
    SK = st.kinds[None, :].copy()
    SP = st.params[None, :, :].copy()
    SC = np.zeros((1, S.SC_WIDTH), dtype=np.int64)
    rng = np.zeros(N_STREAMS, dtype=np.uint64)
    return decide_spend(P, 0, i, G, R, SK, SP, SC, rng, function_table())


VALUE = "threshold:rubies=value,space_worth=0.5,flask_worth=0.3,ruby_keep=0.5"


def test_ruby_value_rule_kind_and_params():
    st = parse_strategy(VALUE)
    assert st.kinds[S.SLOT_RUBY] == S.RUBY_VALUE
    assert list(st.params[S.SLOT_RUBY, :3]) == [0.5, 0.3, 0.5]


@pytest.mark.parametrize(("round_no", "rubies", "flask_full", "want"), [
    (1, 2, 0, 1),  # 8 rounds left: droplet 0.5*8-1 = 3.0 beats flask 0.3*8-1 = 1.4
    (1, 2, 1, 1),  # flask full: droplet
    (7, 2, 0, 0),  # 2 left: droplet 0.5*2-1 = 0.0 is no gain, flask -0.4: keep them
    (8, 2, 0, 0),  # 1 left: droplet -0.5, flask -0.7: keep the rubies
    (9, 4, 0, 0),  # last round: nothing serves, keep them
    (3, 1, 0, 0),  # one ruby buys nothing
])
def test_ruby_value_rule_spends_by_rounds_left(round_no, rubies, flask_full, want):
    assert _spend(VALUE, round_no, rubies, flask_full) == want


def test_ruby_value_rule_prefers_the_flask_when_it_is_worth_more():
    spec = "threshold:rubies=value,space_worth=0.2,flask_worth=0.6,ruby_keep=0.5"
    assert _spend(spec, 3, 2, 0) == 2  # 6 left: flask 2.6 beats droplet 0.2
    assert _spend(spec, 3, 2, 1) == 1  # flask full: droplet 0.2 > 0
