"""master's learned value of the whole bag (issue 48): the value net's file and rows, its fit and
export, the compiled buyer against every legal set tried directly, the sequential test, and the
refusal of buy_by=net without a net."""

from __future__ import annotations

import itertools
import json
from dataclasses import replace

import numpy as np
import pytest

from sim.api.errors import GameInputError
from sim.api.game import lineup_arrays
from sim.kernel import layout as L
from sim.kernel.decisions import slots as S
from sim.kernel.decisions.net_layout import N_NET_IN, NET_BASE, NET_INPUTS, NET_ROWS
from sim.kernel.decisions.value_layout import FEATURE_NAMES, N_FEATURES
from sim.kernel.decisions.value_model import position_features
from sim.kernel.decisions.value_net import net_best_set, net_vp_to_come
from sim.rules import chips
from sim.rules.ruleset import load_ruleset
from sim.stats.sprt import Sprt
from sim.study.train.features import Positions
from sim.study.train.net import fit_net, net_inputs
from strategies.builtin import parse_strategy
from strategies.value_model_file import (
    ModelFileError,
    ValueNet,
    load_model,
    shipped_path,
)


def _net(hidden: int = 12, seed: int = 5) -> ValueNet:
    rng = np.random.default_rng(seed)
    return ValueNet(rng.normal(0, 0.4, (N_NET_IN, hidden)), rng.normal(0, 0.5, hidden),
                    rng.normal(0, 0.5, hidden), 0.3, 20.0, 8.0)


def _state(round_: int):
    P = np.zeros((4, L.P_WIDTH), dtype=np.int64)
    G = np.zeros(L.G_WIDTH, dtype=np.int64)
    G[L.G_NP] = 4
    G[L.G_ROUND] = round_
    owned = [chips.parse_chips(x)[0] for x in ("w1", "w1", "w1", "w2", "w2", "w3", "o1", "g1",
                                               "r2", "b2", "y2")]
    for s, score in enumerate((18, 15, 9, 24)):
        P[s, L.F_SCORE] = score
    P[0, L.F_RUBIES] = 2
    P[0, L.F_DROPLET] = 3
    P[0, L.F_NCHIPS] = len(owned)
    P[0, L.CHIPS:L.CHIPS + len(owned)] = owned
    k1 = chips.parse_chips("k1")[0]
    P[1, L.F_NCHIPS] = 3  # the neighbours: 3 and 0 black chips
    P[1, L.CHIPS:L.CHIPS + 3] = k1
    return P, G


def _sp(net: ValueNet) -> np.ndarray:
    model = replace(load_model(shipped_path("base", 4)), net=net)
    rows = model.rows()
    SP = np.zeros((4, S.N_SLOTS + rows.shape[0], S.PARAM_WIDTH))
    SP[0, S.N_SLOTS:] = rows
    return SP


def _inputs(P, G, extra=()) -> np.ndarray:
    x = np.zeros(N_FEATURES)
    position_features(P, 0, G, x)
    for t in extra:
        c = chips.COLOUR_NAMES[chips.TYPE_COLOUR[t]]
        x[FEATURE_NAMES.index(f"count_{c}")] += 1
        x[FEATURE_NAMES.index(f"value_{c}")] += chips.TYPE_VALUE[t]
    return np.append(x, [G[L.G_ROUND], 1.5])  # the neighbours' mean of black chips


def test_net_rows_and_file_round_trip(tmp_path):
    net = _net()
    model = replace(load_model(shipped_path("base", 4)), net=net)
    rows = model.rows()
    assert rows.shape[0] == 21 + NET_ROWS
    assert rows[NET_BASE - S.N_SLOTS, 0] == net.hidden
    path = tmp_path / "m.json"
    model.save(path)
    again = load_model(path)
    assert np.array_equal(again.rows(), rows)
    assert list(json.loads(path.read_text())["net"]["w1"]) == list(NET_INPUTS)
    d = json.loads(path.read_text())
    d["net"]["b1"] = d["net"]["b1"][:-1]
    path.write_text(json.dumps(d))
    with pytest.raises(ModelFileError, match="every weight list"):
        load_model(path)


def test_the_compiled_net_is_the_file_net():
    net = _net()
    P, G = _state(4)
    assert net_vp_to_come(P, 0, G, _sp(net)) == pytest.approx(
        net.predict(_inputs(P, G)[None, :])[0], rel=1e-12)


@pytest.mark.parametrize(("coins", "seed"), [(0, 1), (6, 2), (13, 3), (25, 4), (40, 5)])
def test_the_net_buyer_takes_the_legal_set_the_net_values_most(coins, seed):
    net = _net(seed=seed)
    P, G = _state(5)
    rs = load_ruleset("base")
    cost = np.full(chips.N_TYPES, -1, dtype=np.int64)
    for t in range(chips.N_TYPES):
        if chips.TYPE_COLOUR[t] != chips.WHITE and rs.price[t] >= 0 and (t + seed) % 3:
            cost[t] = rs.price[t]
    sets = [()] + [(t,) for t in range(chips.N_TYPES) if 0 <= cost[t] <= coins]
    sets += [(t, u) for t, u in itertools.combinations(range(chips.N_TYPES), 2)
             if cost[t] >= 0 and cost[u] >= 0 and cost[t] + cost[u] <= coins
             and chips.TYPE_COLOUR[t] != chips.TYPE_COLOUR[u]]
    worth = [net.predict(_inputs(P, G, s)[None, :])[0] for s in sets]
    want = sets[int(np.argmax(worth))]
    base = np.zeros(chips.N_TYPES)
    t1, t2 = net_best_set(P, 0, G, _sp(net), cost, coins, 2, base, 1.0)
    assert tuple(t for t in (t1, t2) if t >= 0) == want
    one = net_best_set(P, 0, G, _sp(net), cost, coins, 1, base, 1.0)
    singles = [s for s in sets if len(s) < 2]
    best1 = singles[int(np.argmax([net.predict(_inputs(P, G, s)[None, :])[0]
                                   for s in singles]))]
    assert tuple(t for t in one if t >= 0) == best1


def test_the_fit_learns_an_interaction_and_exports_it_exactly():
    # VP to come = 2 x oranges x (rounds left) - whites' value: a chip's worth depends on the rest
    rng = np.random.default_rng(2)
    n = 40_000
    x = np.zeros((n, N_FEATURES))
    o = rng.integers(0, 6, n)
    w = rng.integers(5, 15, n)
    x[:, FEATURE_NAMES.index("count_orange")] = o
    x[:, FEATURE_NAMES.index("value_white")] = w
    rnd = rng.integers(1, 9, n)
    y = 2.0 * o * (9 - rnd) - w + rng.normal(0, 1, n)
    data = Positions(x, rnd, y, y, np.arange(n), y)
    net = fit_net(data, 9, seed=1, epochs=30)
    p = net.predict(net_inputs(data))
    assert 1 - np.mean((p - y) ** 2) / np.var(y) > 0.9
    again = fit_net(data, 9, seed=1, epochs=30)
    assert np.array_equal(again.w1, net.w1) and again.b2 == net.b2  # reproducible


def test_sprt_decides_each_way_and_rarely_promotes_an_equal_candidate():
    test = Sprt(p0=0.5, delta=0.03, alpha=0.05, beta=0.10)
    rng = np.random.default_rng(0)
    assert test.decide(rng.random(20_000) < 0.56) == "H1"
    assert test.decide(rng.random(20_000) < 0.47) == "H0"
    promoted = 0
    for _ in range(200):
        x = (rng.random(4_000) < 0.5).astype(float)
        for k in range(500, 4_001, 500):
            v = test.decide(x[:k])
            if v:
                promoted += v == "H1"
                break
    assert promoted <= 0.05 * 200 + 6  # alpha, with room for the 200 runs' own spread


def test_buy_by_net_needs_a_model_with_a_net():
    rs = load_ruleset("base")
    lineup = [parse_strategy("master:buy_by=net")] + [parse_strategy("expert")] * 3
    with pytest.raises(GameInputError, match="buy_by=net needs a model with a value net"):
        lineup_arrays(lineup, rs)


def test_a_lineup_pads_a_model_without_a_net(tmp_path):
    path = tmp_path / "net.json"
    replace(load_model(shipped_path("base", 4)), net=_net()).save(path)
    rs = load_ruleset("base")
    lineup = [parse_strategy(f"master:buy_by=net,model={path}"), parse_strategy("master")]
    SK, SP = lineup_arrays(lineup + [parse_strategy("expert")] * 2, rs)
    assert SP.shape[1] == NET_BASE + NET_ROWS
    assert SP[0, NET_BASE, 0] == 12 and not SP[1, NET_BASE:].any()
    assert SP[0, S.SLOT_BUY, S.P_BUY_NET] == 1 and SP[1, S.SLOT_BUY, S.P_BUY_NET] == 0


def test_td_targets_bootstrap_from_the_next_round_of_the_same_seat():
    from sim.study.train.net import td_targets

    games, rounds, n = 2, 3, 2
    rnd = np.broadcast_to(np.arange(1, rounds + 1)[None, :, None], (games, rounds, n)).ravel()
    game = np.broadcast_to(np.array([10, 11])[:, None, None], (games, rounds, n)).ravel()
    togo = np.arange(games * rounds * n, dtype=float)[::-1] * 1.5
    k = len(togo)
    data = Positions(np.zeros((k, N_FEATURES)), rnd, togo, togo, game, togo)
    h = 3
    flat = ValueNet(np.zeros((N_NET_IN, h)), np.zeros(h), np.zeros(h), 0.0, 5.0, 1.0)
    y = td_targets(data, flat, n)
    first = rnd == 1
    assert np.array_equal(y[first], togo[first] - togo[np.flatnonzero(first) + n] + 5.0)
    assert np.array_equal(y[~first], togo[~first])
    assert np.array_equal(td_targets(data, flat, n, lam=1.0), togo)
