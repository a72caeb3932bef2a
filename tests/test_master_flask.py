"""master's flask (``flask_by=solve``): the two states it solves, worked out by hand on bags small
enough to list every draw, its choice on both sides of the kept flask's worth, the last round,
and its fallbacks to the fixed rule."""

from __future__ import annotations

import numpy as np
import pytest

from sim.api.rules_array import rules_scalars
from sim.kernel import layout as L
from sim.kernel.decisions import slots as S
from sim.kernel.decisions.leaf_marginal import marginal_leaf_table
from sim.kernel.decisions.master_flask import flask_gain, master_flask
from sim.kernel.decisions.value_layout import MODEL_BASE
from sim.rules import chips
from sim.rules.ruleset import load_ruleset
from strategies.builtin import parse_strategy

W2, W3, O1 = (chips.parse_chips(x)[0] for x in ("w2", "w3", "o1"))
MEMO = 2 + 2 * (1 << 12)


def _seat(round_, pot, bag, *, keep=0.0, rules=None, spec=""):
    """Seat 0 of four, in ``round_``, with ``pot`` ([(type, space)], the last a white just
    placed) and ``bag`` ({type: count}); its master values a kept flask at ``keep`` VP."""
    rs = load_ruleset("base", rules or [])
    R = rules_scalars(rs)
    P = np.zeros((4, L.P_WIDTH), dtype=np.int64)
    G = np.zeros(L.G_WIDTH, dtype=np.int64)
    G[L.G_NP] = 4
    G[L.G_ROUND] = round_
    owned = [t for t, _ in pot] + [t for t, c in bag.items() for _ in range(c)]
    P[0, L.F_NCHIPS] = len(owned)
    P[0, L.CHIPS:L.CHIPS + len(owned)] = owned
    for t, c in bag.items():
        P[0, L.BAGCNT + t] = c
    P[0, L.F_NBAG] = sum(bag.values())
    for i, (t, space) in enumerate(pot):
        P[0, L.POT_T + i] = t
        P[0, L.POT_P + i] = space
    P[0, L.F_NPOT] = len(pot)
    P[0, L.F_ANCHOR] = pot[-1][1]
    P[0, L.F_WHITE] = sum(chips.TYPE_VALUE[t] for t, _ in pot if chips.TYPE_COLOUR[t] == 0)
    P[0, L.F_LIMIT] = 7
    P[0, L.F_FLASK] = 1
    P[0, L.F_NORANGE] = sum(1 for t, _ in pot if chips.TYPE_COLOUR[t] == chips.ORANGE)
    st = parse_strategy(f"master:model=none,flask_keep={keep}{spec}")
    SP = np.zeros((4, MODEL_BASE + 21, S.PARAM_WIDTH))  # room for a model's rows (none here)
    SP[:, : st.params.shape[0]] = st.params
    return P, G, R, SP


def test_flask_values_the_two_pots_as_worked_out_by_hand():
    # pot: w3 on 3, w3 on 6 (just placed, white total 6); the bag is empty. Kept: stop, scoring
    # space 7. Sent back: the bag is one w3, the emptied space 6 stays the anchor: stop (the
    # space after the first w3, 4) or draw it (white 6, on 9; the bag is then empty: 10).
    P, G, R, SP = _seat(4, [(W3, 3), (W3, 6)], {}, keep=1.5)
    V = marginal_leaf_table(P, 0, G, R, SP)
    back, keep = flask_gain(P, 0, W3, G, R, SP, np.zeros(MEMO))
    assert keep == pytest.approx(V[7, 0])
    assert back == pytest.approx(max(V[4, 0], V[10, 0]) - 1.5)
    assert V[10, 0] - 1.5 > V[7, 0]  # so master sends it back
    assert master_flask(P, 0, G, R, SP, W3, 0, np.zeros(MEMO)) == 1


def test_flask_space_reuse_counts_on_from_the_chip_before():
    # flask_space = reuse: the w3 drawn again lands on 3 + 3 = 6 and scores 7, not 10
    P, G, R, SP = _seat(4, [(W3, 3), (W3, 6)], {}, rules=["game.flask_space=reuse"])
    V = marginal_leaf_table(P, 0, G, R, SP)
    back, keep = flask_gain(P, 0, W3, G, R, SP, np.zeros(MEMO))
    assert keep == pytest.approx(V[7, 0])
    assert back == pytest.approx(max(V[4, 0], V[7, 0]))


def test_flask_with_a_risky_draw_left_is_the_expectation_over_the_bag():
    # kept: white 6 with a w2 and an o1 in the bag: the o1 (on 7, then the w2 is a sure
    # explosion) or the w2 (explodes on 8): stop now (7) or draw: 1/2 (best of stopping on 8 and
    # drawing the w2, exploded on 10) + 1/2 exploded on 9
    P, G, R, SP = _seat(4, [(W3, 3), (W3, 6)], {W2: 1, O1: 1})
    V = marginal_leaf_table(P, 0, G, R, SP)
    _, keep = flask_gain(P, 0, W3, G, R, SP, np.zeros(MEMO))
    draw = 0.5 * max(V[8, 0], V[10, 1]) + 0.5 * V[9, 1]
    assert keep == pytest.approx(max(V[7, 0], draw))


def test_a_full_flask_worth_more_than_the_gain_is_kept_except_in_the_last_round():
    pot, bag = [(W3, 3), (W3, 6)], {W2: 1, O1: 4}
    P, G, R, SP = _seat(4, pot, bag, keep=0.0)
    back, keep = flask_gain(P, 0, W3, G, R, SP, np.zeros(MEMO))
    assert back > keep
    assert master_flask(P, 0, G, R, SP, W3, 0, np.zeros(MEMO)) == 1
    P, G, R, SP = _seat(4, pot, bag, keep=back - keep + 0.5)
    assert master_flask(P, 0, G, R, SP, W3, 0, np.zeros(MEMO)) == 0
    P, G, R, SP = _seat(9, pot, bag, keep=back - keep + 0.5)  # a flask left full is worth nothing
    assert master_flask(P, 0, G, R, SP, W3, 0, np.zeros(MEMO)) == 1


@pytest.mark.parametrize("case", ["big bag", "bowl"])
def test_where_it_does_not_solve_it_follows_the_rule(case):
    # the rule (flask=3, flask_white=3) sends a w3 back at white 6; the solve would keep it
    # (a full flask valued at 10 VP), so the answer shows which one decided
    pot, bag = [(W3, 3), (W3, 6)], {W2: 1, O1: 4}
    rules, spec = [], ""
    if case == "big bag":
        spec = ",flask_subbags=10"  # (1 + 1) x (1 + 1) x (4 + 1) = 20 sub-bags with the w3 back
    else:
        rules = ["game.overflow_bowl=true"]
        pot = [(W3, 3), (W3, 52)]
    P, G, R, SP = _seat(4, pot, bag, keep=10.0, rules=rules, spec=spec)
    assert master_flask(P, 0, G, R, SP, W3, 0, np.zeros(MEMO)) == 1
    SP[0, S.SLOT_FLASK, 0] = 4  # the rule now needs a white of value 4: a w3 stays
    assert master_flask(P, 0, G, R, SP, W3, 0, np.zeros(MEMO)) == 0


def test_below_the_rules_white_total_it_keeps_the_white_without_solving():
    # pot: w1 on 1, w2 on 3 (white total 3), the bag empty. Kept: stop, scoring 4. Sent back:
    # stop (scoring 2) or draw the w2 again from the emptied space 3 (on 5, scoring 6). The
    # solve sends it back where the rule would not (a w2 is below flask=3)
    W1 = chips.parse_chips("w1")[0]
    pot = [(W1, 1), (W2, 3)]
    P, G, R, SP = _seat(4, pot, {}, keep=0.0)
    V = marginal_leaf_table(P, 0, G, R, SP)
    back, keep = flask_gain(P, 0, W2, G, R, SP, np.zeros(MEMO))
    assert (back, keep) == (pytest.approx(max(V[2, 0], V[6, 0])), pytest.approx(V[4, 0]))
    assert back > keep
    assert master_flask(P, 0, G, R, SP, W2, 0, np.zeros(MEMO)) == 1
    SP[0, S.SLOT_FLASK, 1] = 4  # flask_white=4: white total 3 is below it
    assert master_flask(P, 0, G, R, SP, W2, 0, np.zeros(MEMO)) == 0


def test_flask_by_rule_is_the_fixed_rule():
    assert parse_strategy("master:flask_by=rule").kinds[S.SLOT_FLASK] == S.FLASK_MIN
    assert parse_strategy("master").kinds[S.SLOT_FLASK] == S.USER_BASE + S.UF_MASTER_FLASK
    assert parse_strategy("master:flask=0").kinds[S.SLOT_FLASK] == S.FLASK_NEVER


def test_the_same_pot_with_nothing_to_fall_back_on_is_solved():
    # the control for the cases above: same seat, solvable, the 10-VP flask is kept
    P, G, R, SP = _seat(4, [(W3, 3), (W3, 6)], {W2: 1, O1: 4}, keep=10.0)
    assert master_flask(P, 0, G, R, SP, W3, 0, np.zeros(MEMO)) == 0
