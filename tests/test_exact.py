"""The exact enumeration against hand-computed small bags, its refusal of large bags, and Monte
Carlo against exact.

Hand computations use the rules in shared/rules (see test_potion_rules.py for the placement
rules) and the fixed choices of ``quacks potion``: blue places the highest-value non-white chip it
sees (ties: the later colour in w,o,g,b,r,y,p,k), yellow always returns the white before it, the
flask goes on the first white of value >= V that does not explode; stop policies: ``white:T``
stops once the white total is >= T, ``risk:P`` stops once the chance that the next chip explodes
is > P, ``never`` draws until explosion, empty bag or track end. Every draw from the bag is
uniform over the chips in it.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction as F

import numpy as np
import pytest
from typer.testing import CliRunner

from sim.api import potion as pot
from sim.api.exact import MAX_STATES, Setup, TooLargeError, exact_distribution, sub_bag_count
from sim.cli.main import app
from sim.rules.chips import counts_of, parse_chips
from sim.rules.ruleset import load_ruleset
from strategies.builtin import parse_stop_policy

runner = CliRunner()
BASE = load_ruleset("base")


def exact_fr(bag, stop, *, flask=0, start=0, limit=7, reuse=False):
    """Exact distribution with Fractions: {(reward space, exploded): probability}."""
    kind, row = parse_stop_policy(stop)
    setup = Setup(start=start, limit=limit, last=52, stop_kind=kind, stop_param=float(row[0]),
                  flask_min=flask, flask_reuse=reuse, exact_fractions=True)
    dist = exact_distribution(counts_of(parse_chips(bag)), setup)
    return {k: v for k, v in dist.items() if v != 0}


def exact_api(bag, stop, *, flask=None, start=0, sets=()):
    rs = load_ruleset("base", list(sets)) if sets else BASE
    return pot.exact(pot.make_query(bag, stop, flask, start, rs))


# ---------------------------------------------------------------------------------------------
# hand-computed distributions (Fractions)


@pytest.mark.parametrize(
    "stop,expected",
    [
        # w1 first (1/2): reward 2; w2 first (1/2): reward 3 (white total >= 1 after any chip)
        ("white:1", {(2, 0): F(1, 2), (3, 0): F(1, 2)}),
        # w1 first: 1 < 2 -> draw w2 on 3 -> reward 4; w2 first: 2 >= 2 stop -> reward 3
        ("white:2", {(4, 0): F(1, 2), (3, 0): F(1, 2)}),
        # both chips always placed: last one on 3 either way -> reward 4; total 3, never explodes
        ("white:3", {(4, 0): F(1)}),
        ("never", {(4, 0): F(1)}),
    ],
)
def test_w1_w2(stop, expected):
    assert exact_fr("w1,w2", stop) == expected


def test_w1_w2_start_offset():
    # as above from space 10: last chip on 13 -> reward 14
    assert exact_fr("w1,w2", "never", start=10) == {(14, 0): F(1)}


def test_w3x3_o1_never():
    # The o1 is equally likely in each of the 4 draw slots. The third w3 always explodes (9 > 7).
    # o1 in slot 1, 2 or 3 (3/4): it is placed before the third w3 -> that w3 on 1+9 = 10 ->
    # reward 11; o1 last (1/4): third w3 on 9 -> reward 10.
    assert exact_fr("w3x3,o1", "never") == {(11, 1): F(3, 4), (10, 1): F(1, 4)}


def test_w3x3_o1_white6():
    # Stop at total 6 = after the second w3. o1 in slot 1 or 2 (1/2): second w3 on 7 -> reward 8;
    # else (1/2) second w3 on 6 -> reward 7.
    assert exact_fr("w3x3,o1", "white:6") == {(8, 0): F(1, 2), (7, 0): F(1, 2)}


def test_w3_w3_o1_limit5():
    # Explosion limit 5: the second w3 explodes (6 > 5). o1 first or second (2/3): second w3 on 7
    # -> reward 8; o1 last (1/3): second w3 on 6 -> reward 7.
    assert exact_fr("w3x2,o1", "never", limit=5) == {(8, 1): F(2, 3), (7, 1): F(1, 3)}


@pytest.mark.parametrize(
    "stop,limit,expected",
    [
        # four w2 on 2, 4, 6, 8: the fourth makes 8 > 7 -> explodes, reward 9
        ("never", 7, {(9, 1): F(1)}),
        # white:7 draws at 6 -> same
        ("white:7", 7, {(9, 1): F(1)}),
        # white:6 stops at 6, third w2 on 6 -> reward 7
        ("white:6", 7, {(7, 0): F(1)}),
        # risk:0.5: risk 0 until total 6, then 1 w2 left -> risk 1 > 0.5 -> stop -> reward 7
        ("risk:0.5", 7, {(7, 0): F(1)}),
        # risk:1: 1 <= 1 -> draw -> explodes
        ("risk:1", 7, {(9, 1): F(1)}),
        # limit 8: the fourth w2 makes exactly 8 -> safe; bag empty -> reward 9 intact
        ("never", 8, {(9, 0): F(1)}),
    ],
)
def test_w2x4(stop, limit, expected):
    assert exact_fr("w2x4", stop, limit=limit) == expected


def test_w1_w2_w3_white4():
    # 6 equally likely orders (positions, stop at total >= 4):
    # 1,2,3: 1 3 6 -> 7   1,3: 1 4 -> 5   2,1,3: 2 3 6 -> 7   2,3: 2 5 -> 6   3,1: 3 4 -> 5
    # 3,2: 3 5 -> 6
    assert exact_fr("w1,w2,w3", "white:4") == {(5, 0): F(1, 3), (6, 0): F(1, 3), (7, 0): F(1, 3)}


def test_risk_half():
    # bag w3,w3,w2,o1, risk:0.5 (draw while the next-chip explosion chance <= 1/2), worked out
    # by the tree of draws (each branch: positions; "r" = risk after the chip):
    #  o1 first (1/4): o 1 (r 0); w3 4 (2/3, r 0): w3 7 (r 1, stop -> 8) | w2 6 (r 1, stop -> 7);
    #                 w2 3 (1/3, r 0): w3 6 (r 1, stop -> 7)  => 8: 1/12, 7: 2/12
    #  w3 first (1/2): w3 3; w3 6 (1/3, r 1/2 draw): w2 8 explode -> 9x | o1 7 (r 1 stop) -> 8;
    #                 w2 5 (1/3, r 1/2 draw): w3 8 explode -> 9x | o1 6 (r 1 stop) -> 7;
    #                 o1 4 (1/3, r 0): w3 7 (stop) -> 8 | w2 6 (stop) -> 7  => 1/6 each of 9x, 8, 7
    #  w2 first (1/4): w2 2; w3 5 (2/3, r 1/2 draw): w3 8 explode -> 9x | o1 6 (stop) -> 7;
    #                 o1 3 (1/3): w3 6 (stop) -> 7  => 9x: 1/12, 7: 2/12
    # totals: 7: 1/2, 8: 1/4, 9 exploded: 1/4
    assert exact_fr("w3x2,w2,o1", "risk:0.5") == {(7, 0): F(1, 2), (8, 0): F(1, 4), (9, 1): F(1, 4)}


def test_blue_tie_rule():
    # bag b2,r1,o1 never; 6 orders:
    #  b first (1/3): b 2 looks at r1 and o1 (value tie -> the later colour, red): r1 3 (no pumpkin
    #    in the pot), o1 4 -> reward 5
    #  r,b,o: r 1, b 3 looks at o1 -> 4 -> 5;   r,o,b: r 1, o 2, b 4 -> 5
    #  o,b,r: o 1, b 3 looks at r1, places it with +1: 5 -> 6;   o,r,b: o 1, r 3, b 5 -> 6
    assert exact_fr("b2,r1,o1", "never") == {(5, 0): F(2, 3), (6, 0): F(1, 3)}


def test_yellow_return():
    # w2 first (1/2): w2 2, y1 3 returns w2, w2 drawn again: 5 -> reward 6;
    # y1 first (1/2): y1 1, w2 3 -> reward 4
    assert exact_fr("w2,y1", "never") == {(6, 0): F(1, 2), (4, 0): F(1, 2)}


def test_flask_keep_vs_reuse():
    # bag w1,w3,o1, flask 3, never. Every chip ends in the pot; the w3 goes back once and is placed
    # again. keep: the total distance is the sum of all values plus the flasked w3's 3:
    # 1+3+1+3 = 8 -> reward 9 in every order. reuse: the flasked move is undone: 5 -> reward 6.
    # No flask: 5 -> reward 6. White total at the end 4: never explodes.
    assert exact_fr("w1,w3,o1", "never", flask=3) == {(9, 0): F(1)}
    assert exact_fr("w1,w3,o1", "never", flask=3, reuse=True) == {(6, 0): F(1)}
    assert exact_fr("w1,w3,o1", "never") == {(6, 0): F(1)}


def test_flask_then_explosion():
    # bag w3,w3,w2, flask 3, never: the first w3 drawn goes back; then all three chips are placed
    # and the last one explodes (total 8). keep: 3 (flasked) + 8 = 11 -> reward 12 in both
    # orders (w2 first: 2, w3 5 flasked, 8, 11). reuse: the flasked move undone: 8 -> reward 9.
    assert exact_fr("w3x2,w2", "never", flask=3) == {(12, 1): F(1)}
    assert exact_fr("w3x2,w2", "never", flask=3, reuse=True) == {(9, 1): F(1)}


def test_fractions_sum_to_one_and_are_fractions():
    d = exact_fr("start", "white:6")
    assert all(isinstance(v, F) for v in d.values())
    assert sum(d.values()) == 1


def test_potion_exact_api_matches_fractions():
    # sim.api.potion.exact gives floats on a 54 x 3 array (intact, exploded, protected: 0 with
    # the Set 1 books exact odds cover): same numbers as the hand result
    p = exact_api("w3x2,w2,o1", "risk:0.5")
    assert p.shape == (54, 3) and not p[:, 2].any()
    assert p[7, 0] == pytest.approx(0.5) and p[8, 0] == pytest.approx(0.25)
    assert p[9, 1] == pytest.approx(0.25)
    assert p.sum() == pytest.approx(1.0)
    # flask and reuse through the query and ruleset
    assert exact_api("w1,w3,o1", "never", flask=3)[9, 0] == pytest.approx(1.0)
    assert exact_api("w1,w3,o1", "never", flask=3,
                     sets=["game.flask_space=reuse"])[6, 0] == pytest.approx(1.0)
    # explosion limit from the ruleset
    assert exact_api("w2x4", "never", sets=["game.explosion_limit=8"])[9, 0] == pytest.approx(1.0)


def test_cli_exact_json():
    r = runner.invoke(app, ["potion", "--bag", "w1,w2", "--stop", "white:1", "--exact", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["exact"] is True and d["n"] is None
    assert d["p_explode"] == 0.0
    assert d["expected_reward_space"] == pytest.approx(2.5)  # (2 + 3) / 2
    # coins of space 2 and 3 are 2 and 3 (§2)
    assert d["expected_coins"] == pytest.approx(2.5)
    assert d["distribution"]["intact"] == {"2": pytest.approx(0.5), "3": pytest.approx(0.5)}
    assert d["distribution"]["exploded"] == {}


# ---------------------------------------------------------------------------------------------
# refusal of bags too large to enumerate


TOO_LARGE = "w1x4,w2x4,w3x4,o1x4,g1x4,b1x4,r1x4"  # 5**7 = 78,125 sub-bags > 60,000


def test_sub_bag_count():
    assert sub_bag_count(counts_of(parse_chips("start"))) == 5 * 3 * 2 * 2 * 2
    assert sub_bag_count(counts_of(parse_chips(TOO_LARGE))) == 5**7 > MAX_STATES


def test_too_large_raises():
    with pytest.raises(TooLargeError, match="too large"):
        exact_api(TOO_LARGE, "white:6")


def test_cli_too_large_exit_2():
    r = runner.invoke(app, ["potion", "--bag", TOO_LARGE, "--exact", "--json"])
    assert r.exit_code == 2
    msg = r.stderr.strip()
    assert len(msg.splitlines()) == 1
    assert "too large" in msg and "78,125" in msg
    assert "Traceback" not in r.output


# ---------------------------------------------------------------------------------------------
# Monte Carlo against exact: |difference| < 4.5 standard errors (SE from the exact distribution)

N_MC = 200_000
Z_MEAN = 4.5
Z_CELL = 5.0

MC_CASES = [
    # id, bag, stop, flask, start, --set overrides
    ("start-white6", "start", "white:6", None, 0, ()),
    ("start-never", "start", "never", None, 0, ()),
    ("reds-pumpkins-risk", "w1x4,w2x2,w3,o1x3,r1,r2,r4", "risk:0.3", None, 0, ()),
    ("start-offset", "start,r2,o1", "white:5", None, 7, ()),
    ("flask-keep", "start,o1", "white:7", 2, 0, ()),
    ("flask-reuse", "start,o1", "white:7", 2, 0, ("game.flask_space=reuse",)),
    ("blue", "w1x3,w2,w3,b1,b2,r1,o1,g1", "white:6", None, 0, ()),
    ("yellow-risk", "w1x3,w2x2,w3,y1,y2,o1", "risk:0.4", None, 0, ()),
    ("mixed-flask-start", "w1x3,w2,w3,b2,y1,r1,o1x2", "white:7", 3, 3, ()),
    ("track-end", "w1x2,w2,w3,o1,r4,g4", "never", None, 40, ()),
    ("limit-8", "start,o1", "never", None, 0, ("game.explosion_limit=8",)),
]


@pytest.mark.parametrize("case", MC_CASES, ids=[c[0] for c in MC_CASES])
def test_monte_carlo_matches_exact(case):
    _, bag, stop, flask, start, sets = case
    rs = load_ruleset("base", list(sets))
    q = pot.make_query(bag, stop, flask, start, rs)
    p = pot.exact(q)
    assert p.sum() == pytest.approx(1.0)
    h = pot.sample(q, N_MC, seed=12345)
    assert h.sum() == N_MC
    n = N_MC
    spaces = np.arange(54)

    # P(explode)
    pe = float(p[:, 1].sum())
    se = math.sqrt(max(pe * (1 - pe), 0.0) / n)
    me = h[:, 1].sum() / n
    assert abs(me - pe) <= Z_MEAN * se + 1e-9, (me, pe, se)

    # mean reward space
    pr = p.sum(axis=1)
    mean = float((pr * spaces).sum())
    var = float((pr * (spaces - mean) ** 2).sum())
    se = math.sqrt(var / n)
    mm = float((h.sum(axis=1) * spaces).sum() / n)
    assert abs(mm - mean) <= Z_MEAN * se + 1e-9, (mm, mean, se)

    # every cell of the (reward space, exploded) distribution; impossible cells never sampled
    for s in range(54):
        for x in range(2):
            pc = float(p[s, x])
            mc = h[s, x] / n
            if pc < 1e-12:
                assert h[s, x] == 0, (s, x)
                continue
            se = math.sqrt(pc * (1 - pc) / n)
            assert abs(mc - pc) <= Z_CELL * se + 1e-9, (s, x, mc, pc, se)
