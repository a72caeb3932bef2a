"""master's value model: the compiled evaluation against a direct computation on hand-set
states, the model file's round trip, the fit, seeded training, and master's games."""

from __future__ import annotations

import itertools
import json
import math
import os

import numpy as np
import pytest

from sim.api.game import lineup_arrays, play_batch
from sim.api.rules_array import rules_scalars
from sim.kernel import layout as L
from sim.kernel.decisions import slots as S
from sim.kernel.decisions.buy_marginal import marginal_context, marginal_worth
from sim.kernel.decisions.leaf_marginal import (
    marginal_explosion_takes_coins,
    marginal_leaf_table,
)
from sim.kernel.decisions.value_layout import FEATURE_NAMES, MODEL_BASE, N_FEATURES
from sim.kernel.decisions.value_model import (
    for_sale_this_round,
    model_leaf_table,
    position_features,
)
from sim.kernel.records import O_ERR, O_NWIN, O_WIN
from sim.rules import chips
from sim.rules.ruleset import load_ruleset
from sim.study.train.features import positions
from sim.study.train.fit import fit_logistic, fit_margin
from strategies.builtin import parse_strategy
from strategies.value_model_file import ModelFileError, ValueModel, load_model, resolve


def _model(rounds: int = 9) -> ValueModel:
    rng = np.random.default_rng(7)
    w = rng.normal(0.0, 0.5, size=(rounds, N_FEATURES))
    w[:, FEATURE_NAMES.index("gap_best")] = 0.8
    return ValueModel("base", 4, rng.normal(0, 0.2, rounds), 0.1 + rng.random(rounds),
                      rng.normal(0, 3, rounds), w)


def _state(round_: int):
    """Four seats with hand-set scores, rubies, droplets and chips; seat 0 decides."""
    P = np.zeros((4, L.P_WIDTH), dtype=np.int64)
    G = np.zeros(L.G_WIDTH, dtype=np.int64)
    G[L.G_NP] = 4
    G[L.G_ROUND] = round_
    owned = [chips.parse_chips(x)[0] for x in ("w1", "w1", "w2", "w3", "o1", "g1", "r2", "b4")]
    for s, score in enumerate((12, 15, 9, 20)):
        P[s, L.F_SCORE] = score
    P[0, L.F_RUBIES] = 3
    P[0, L.F_DROPLET] = 4
    P[0, L.F_FLASK] = 1
    P[0, L.F_NCHIPS] = len(owned)
    P[0, L.CHIPS:L.CHIPS + len(owned)] = owned
    for t in ("o1", "g1", "g2", "r1", "r2", "b2", "y1", "k1", "p1", "r4"):
        G[L.G_AVAIL + chips.parse_chips(t)[0]] = 1
    return P, G, owned


def _direct_features(owned) -> np.ndarray:
    x = dict.fromkeys(FEATURE_NAMES, 0.0)
    x["gap_best"] = 12 - 20
    x["gap_total"] = (12 - 15) + (12 - 9) + (12 - 20)
    x["rubies"], x["droplet"], x["flask"] = 3, 4, 1
    for t in owned:
        c = chips.COLOUR_NAMES[chips.TYPE_COLOUR[t]]
        x[f"count_{c}"] += 1
        x[f"value_{c}"] += chips.TYPE_VALUE[t]
    return np.array([x[n] for n in FEATURE_NAMES])


def test_position_features_match_a_direct_count():
    P, G, owned = _state(3)
    x = np.zeros(N_FEATURES)
    position_features(P, 0, G, x)
    assert np.array_equal(x, _direct_features(owned))


# base game, Set 1: the books of orange, green, blue, red and black are out from round 1, yellow
# from round 2, purple from round 3 (rules: "Round 2/3" of the round overview)
BOOK_ROUND = {"orange": 1, "green": 1, "blue": 1, "red": 1, "black": 1, "yellow": 2, "purple": 3}


def _for_sale(t, r):
    return BOOK_ROUND.get(chips.COLOUR_NAMES[chips.TYPE_COLOUR[t]], 99) <= r


@pytest.mark.parametrize("round_", [1, 2, 3])
def test_chips_for_sale_while_brewing_follow_the_books_out(round_):
    """While a seat brews round r, the buying phase has not published G_AVAIL yet (it still holds
    round r-1's books, or nothing in round 1): the leaves read the books out from the rules."""
    rs = load_ruleset("base")
    R = rules_scalars(rs)
    G = np.zeros(L.G_WIDTH, dtype=np.int64)
    G[L.G_ROUND] = round_
    got = {t for t in range(chips.N_TYPES) if for_sale_this_round(G, R, t)}
    want = {t for t in range(chips.N_TYPES) if _for_sale(t, round_) and rs.price[t] >= 0}
    assert got == want and got


def _best_purchase(model, r, rs, G, coins):
    """The greatest margin gain of a legal set within coins, by trying every set."""
    types = [t for t in range(chips.N_TYPES) if _for_sale(t, r) and rs.price[t] >= 0]
    best = 0.0
    for k in (1, 2):
        for combo in itertools.combinations(types, k):
            if len({chips.TYPE_COLOUR[t] for t in combo}) < k:
                continue
            if sum(rs.price[t] for t in combo) > coins:
                continue
            x = np.zeros(N_FEATURES)
            for t in combo:
                c = chips.COLOUR_NAMES[chips.TYPE_COLOUR[t]]
                x[FEATURE_NAMES.index(f"count_{c}")] += 1
                x[FEATURE_NAMES.index(f"value_{c}")] += chips.TYPE_VALUE[t]
            best = max(best, float(x @ model.weights[r - 1]))
    return best


def _leaves(round_: int):
    """The compiled leaf table of seat 0 in the hand-set state of ``round_`` under ``_model``,
    with the ruleset, model, game row and the direct features it is checked against."""
    rs = load_ruleset("base")
    model = _model()
    P, G, owned = _state(round_)
    SP = np.zeros((4, MODEL_BASE + 21, S.PARAM_WIDTH))
    SP[0, MODEL_BASE:] = model.rows()
    return rs, model, G, model_leaf_table(P, 0, G, rules_scalars(rs), SP), _direct_features(owned)


@pytest.mark.parametrize("space", [0, 7, 19, 33, 53])
def test_leaf_values_equal_a_direct_computation(space):
    rs, model, G, V, x = _leaves(3)
    vp, coins, ruby = rs.vp[space], rs.coins[space], rs.ruby[space]
    dvp = np.zeros(N_FEATURES)
    dvp[FEATURE_NAMES.index("gap_best")] = 1
    dvp[FEATURE_NAMES.index("gap_total")] = 3
    druby = np.zeros(N_FEATURES)
    druby[FEATURE_NAMES.index("rubies")] = 1

    def chance(extra):
        m = model.margin(3, (x + extra)[None, :])[0]
        return 1 / (1 + np.exp(-(model.a[2] + model.b[2] * m)))

    gain = _best_purchase(model, 3, rs, G, coins)
    intact = chance(vp * dvp + ruby * druby + gain * _unit(model, 3))
    exploded = max(chance(vp * dvp + ruby * druby), chance(ruby * druby + gain * _unit(model, 3)))
    assert V[space, 0] == pytest.approx(intact, rel=1e-12)
    assert V[space, 1] == pytest.approx(exploded, rel=1e-12)


def _unit(model, r):
    """A feature vector that adds exactly 1 to round r's margin (to add a purchase's gain)."""
    u = np.zeros(N_FEATURES)
    i = int(np.argmax(np.abs(model.weights[r - 1])))
    u[i] = 1.0 / model.weights[r - 1][i]
    return u


def test_last_round_leaves_convert_coins_and_rubies():
    rs, model, _, V, x = _leaves(9)
    space = 40
    vp, coins, ruby = rs.vp[space], rs.coins[space], rs.ruby[space]
    held = 3 + ruby
    final = x.copy()
    gain_vp = vp + coins // 5 + held // 2
    final[FEATURE_NAMES.index("gap_best")] += gain_vp
    final[FEATURE_NAMES.index("gap_total")] += 3 * gain_vp
    final[FEATURE_NAMES.index("rubies")] = held % 2
    m = model.margin(9, final[None, :])[0]
    assert V[space, 0] == pytest.approx(1 / (1 + np.exp(-(model.a[8] + model.b[8] * m))))


def test_model_file_round_trip(tmp_path):
    model = _model()
    path = tmp_path / "m.json"
    model.save(path)
    again = load_model(path)
    assert np.array_equal(again.rows(), model.rows())
    d = json.loads(path.read_text())
    d["rounds"][0]["weights"]["nonsense"] = 1.0
    path.write_text(json.dumps(d))
    with pytest.raises(ModelFileError, match="unknown features nonsense"):
        load_model(path)


def test_fit_recovers_a_known_margin_and_logistic():
    rng = np.random.default_rng(3)
    x = rng.integers(0, 10, size=(20_000, 3)).astype(float)
    y = 2.0 + x @ np.array([1.5, -0.5, 0.0])
    w0, w = fit_margin(x, y, ridge=0.0)
    assert w0 == pytest.approx(2.0) and np.allclose(w, [1.5, -0.5, 0.0])
    m = rng.normal(0, 5, 200_000)
    win = (rng.random(m.size) < 1 / (1 + np.exp(-(-0.5 + 0.4 * m)))).astype(float)
    a, b = fit_logistic(m, win)
    assert a == pytest.approx(-0.5, abs=0.03) and b == pytest.approx(0.4, abs=0.01)


def test_a_round_whose_wins_fall_with_the_gap_gets_the_least_slope():
    # round 1's wins fall with the VP gap, round 2's rise: round 1 gets MIN_SLOPE and the
    # intercept that fits its win share with that slope (a share of 0.3 at gap 0: logit -0.847);
    # round 2 keeps its fitted slope
    from sim.study.train.features import Positions
    from sim.study.train.fit import MIN_SLOPE, fit_model

    rng = np.random.default_rng(4)
    n = 100_000
    gap = np.zeros(2 * n)
    rnd = np.repeat([1, 2], n)
    win = np.concatenate([rng.random(n) < 0.3, rng.random(n) < 0.5]).astype(float)
    gap[:n] = np.where(win[:n] > 0, -1.0, 1.0)  # a winner of round 1 was behind
    gap[n:] = rng.normal(0, 5, n)
    win[n:] = (rng.random(n) < 1 / (1 + np.exp(-0.3 * gap[n:]))).astype(float)
    x = np.zeros((2 * n, N_FEATURES))
    x[:, FEATURE_NAMES.index("gap_best")] = gap
    model = fit_model(Positions(x, rnd, gap, win, np.arange(2 * n)), "base", 4)
    assert model.b[0] == MIN_SLOPE and model.b[1] == pytest.approx(0.3, abs=0.01)
    p = 1 / (1 + np.exp(-(model.a[0] + MIN_SLOPE * gap[:n])))
    assert p.mean() == pytest.approx(win[:n].mean(), abs=1e-9)
    assert fit_logistic(gap[:n], win[:n])[1] < 0  # what the plain fit says


def test_positions_pair_own_state_with_the_others_scores_before_the_round():
    rs = load_ruleset("base")
    lineup = [parse_strategy("expert")] * 3
    idx = np.arange(6)
    res = play_batch(rs, lineup, games=idx, rotations=idx % 3, seed=4, detail=True)
    data = positions(res.rounds, res.out, idx)
    from sim.kernel.records import O_SCORE, RD_SCORE

    k, r, s = 2, 5, 1  # game 2, round 5, seat 1
    row = (k * 9 + (r - 1)) * 3 + s
    own = res.rounds[k, r - 1, s, RD_SCORE]
    before = [res.rounds[k, r - 2, o, RD_SCORE] for o in (0, 2)]
    assert data.round[row] == r
    assert data.x[row, FEATURE_NAMES.index("gap_best")] == own - max(before)
    assert data.x[row, FEATURE_NAMES.index("gap_total")] == 2 * own - sum(before)
    final = res.out[k, :, O_SCORE]
    assert data.margin[row] == final[1] - max(final[0], final[2])


def test_master_plays_legal_games_with_the_shipped_models():
    for rules, n in (("base", 4), ("base", 2), ("herb-witches", 5)):
        rs = load_ruleset(rules)
        lineup = [parse_strategy("master")] + [parse_strategy("expert")] * (n - 1)
        idx = np.arange(40)
        res = play_batch(rs, lineup, games=idx, rotations=idx % n, seed=9)
        assert not res.out[:, :, O_ERR].any()
        SK, SP = lineup_arrays(lineup, rs)
        assert SP.shape[1] == S.N_SLOTS + 21 and SP[0, MODEL_BASE, 0] > 0
        assert not SP[1:, MODEL_BASE:].any()


def test_a_reloaded_model_plays_the_same_games(tmp_path):
    rs = load_ruleset("base")
    model, _ = resolve("auto", rs, 3)
    path = tmp_path / "copy.json"
    model.save(path)
    idx = np.arange(30)
    outs = []
    for spec in ("master", f"master:model={path}"):
        lineup = [parse_strategy(spec), parse_strategy("expert"), parse_strategy("expert")]
        outs.append(play_batch(rs, lineup, games=idx, rotations=idx % 3, seed=2).out)
    assert np.array_equal(outs[0], outs[1])
    other = _model()
    other.save(path)
    lineup = [parse_strategy(f"master:model={path}"), parse_strategy("expert"),
              parse_strategy("expert")]
    assert not np.array_equal(outs[0], play_batch(rs, lineup, games=idx, rotations=idx % 3,
                                                  seed=2).out)


def test_training_with_the_same_seed_writes_the_same_file(tmp_path):
    from sim.study.train.run import TrainSettings, train

    settings = TrainSettings(players=2, games=60, iterations=2, seed=5)
    train(settings, tmp_path / "a.json")
    train(settings, tmp_path / "b.json")
    a, b = (tmp_path / "a.json").read_text(), (tmp_path / "b.json").read_text()
    assert a == b
    train(TrainSettings(players=2, games=60, iterations=2, seed=6), tmp_path / "c.json")
    assert (tmp_path / "c.json").read_text() != a


def test_nearest_model_note():
    rs = load_ruleset("base", ["game.rounds=7"])
    _, note = resolve("auto", rs, 4)
    assert note is not None and "nearest" not in note and "using the shipped base 4-player" in note
    _, exact = resolve("auto", load_ruleset("base"), 4)
    assert exact is None


BUYS = 1.25  # weight of what the coins buy


def _marginal_setup(round_: int, with_model: bool):
    rs = load_ruleset("base")
    R = rules_scalars(rs)
    P, G, _ = _state(round_)
    st = parse_strategy(f"master:leaf=marginal,model=none,buy_by=marginal,ruby=0.9,buys={BUYS}")
    SP = np.zeros((4, MODEL_BASE + 21, S.PARAM_WIDTH))
    SP[:, : st.params.shape[0]] = st.params
    if with_model:
        SP[0, MODEL_BASE:] = _model().rows()
    return rs, R, P, G, SP


def _best_marginal_purchase(P, G, R, SP, rs, r, coins):
    """The most VP a legal set within coins adds by the marginal buyer's chip worths, by trying
    every set of the chips for sale in round r."""
    ctx = marginal_context(P, 0, G, R, SP)
    worth = {t: marginal_worth(SP, 0, t, ctx) for t in range(chips.N_TYPES)
             if _for_sale(t, r) and rs.price[t] >= 0 and chips.TYPE_COLOUR[t] != chips.WHITE}
    best = 0.0
    for k in (1, 2):
        for combo in itertools.combinations(worth, k):
            if len({chips.TYPE_COLOUR[t] for t in combo}) == k and \
                    sum(rs.price[t] for t in combo) <= coins:
                best = max(best, sum(worth[t] for t in combo))
    return best


@pytest.mark.parametrize("round_", [1, 4])
@pytest.mark.parametrize("space", [0, 9, 21, 40])
def test_marginal_leaves_are_vp_plus_what_the_coins_buy(round_, space):
    rs, R, P, G, SP = _marginal_setup(round_, with_model=False)
    V = marginal_leaf_table(P, 0, G, R, SP)
    vp, coins, ruby = rs.vp[space], rs.coins[space], rs.ruby[space]
    buys = BUYS * _best_marginal_purchase(P, G, R, SP, rs, round_, coins)
    assert buys > 0 or coins < 3  # the cheapest chip (orange) costs 3
    assert V[space, 0] == pytest.approx(vp + buys + 0.9 * ruby, rel=1e-12)
    assert V[space, 1] == pytest.approx(max(vp, buys) + 0.9 * ruby, rel=1e-12)


def test_marginal_leaves_in_the_last_round_turn_coins_and_rubies_into_vp():
    rs, R, P, G, SP = _marginal_setup(9, with_model=False)
    V = marginal_leaf_table(P, 0, G, R, SP)
    for space in (5, 30, 52):
        vp, coins, ruby = rs.vp[space], rs.coins[space], rs.ruby[space]
        extra = (3 + ruby) // 2 - 3 // 2  # seat 0 holds 3 rubies
        assert V[space, 0] == vp + coins // 5 + extra
        assert V[space, 1] == max(vp, coins // 5) + extra


def test_marginal_leaves_with_a_model_are_chances_of_winning():
    rs, R, P, G, SP = _marginal_setup(4, with_model=True)
    V = marginal_leaf_table(P, 0, G, R, SP)
    _, _, _, _, SPn = _marginal_setup(4, with_model=False)
    vp_table = marginal_leaf_table(P, 0, G, R, SPn)
    model = _model()
    x = np.zeros(N_FEATURES)
    position_features(P, 0, G, x)
    base = model.margin(4, x[None, :])[0]
    dvp = model.weights[3][FEATURE_NAMES.index("gap_best")] + \
        3 * model.weights[3][FEATURE_NAMES.index("gap_total")]
    want = 1 / (1 + np.exp(-(model.a[3] + model.b[3] * (base + dvp * vp_table))))
    assert np.allclose(V, want, rtol=1e-12)


def test_marginal_explosion_choice_takes_coins_only_when_they_buy_more_vp():
    rs, R, P, G, SP = _marginal_setup(2, with_model=False)
    buys = BUYS * _best_marginal_purchase(P, G, R, SP, rs, 2, 10)
    assert buys > 1
    assert marginal_explosion_takes_coins(P, 0, G, R, SP, int(buys) - 1, 10)
    assert not marginal_explosion_takes_coins(P, 0, G, R, SP, int(buys) + 1, 10)
    _, R9, P9, G9, SP9 = _marginal_setup(9, with_model=False)
    assert marginal_explosion_takes_coins(P9, 0, G9, R9, SP9, 3, 20)  # 20 coins are 4 VP
    assert not marginal_explosion_takes_coins(P9, 0, G9, R9, SP9, 4, 20)


def test_gap_training_fits_only_the_logistic_of_the_vp_gap(tmp_path):
    from sim.study.train.run import TrainSettings, train

    model = train(TrainSettings(players=3, games=300, iterations=1, seed=3), tmp_path / "g.json")
    gap = FEATURE_NAMES.index("gap_best")
    assert np.all(model.weights[:, gap] == 1.0) and np.all(model.w0 == 0.0)
    others = np.delete(model.weights, gap, axis=1)
    assert not others.any()
    assert np.all(model.b > 0)  # a bigger lead is a bigger chance of winning in every round
    assert model.training["value"] == "gap"


def test_shipped_models_are_gap_models():
    for rules, n in (("base", 2), ("base", 4), ("herb-witches", 5)):
        model, note = resolve("auto", load_ruleset(rules), n)
        assert note is None and model.training["value"] == "gap" and np.all(model.b > 0)


@pytest.mark.slow
def test_master_beats_expert_on_paired_deals():
    """master in seat 0 against three expert, against expert in seat 0 on the same deals: the
    win share rises (seed-fixed; measured +0.02 to +0.03 with 10,000 games)."""
    rs = load_ruleset("base")
    idx = np.arange(8000)
    wins = []
    for first in ("master", "expert"):
        lineup = [parse_strategy(first)] + [parse_strategy("expert")] * 3
        out = play_batch(rs, lineup, games=idx, rotations=np.zeros_like(idx), seed=23).out
        assert not out[:, :, O_ERR].any()
        wins.append(out[:, 0, O_WIN] / np.maximum(out[:, 0, O_NWIN], 1))
    d = wins[0] - wins[1]  # one game per deal: the deal is the unit
    lo = d.mean() - 1.96 * d.std(ddof=1) / np.sqrt(len(d))
    assert lo > 0.0, (d.mean(), lo)


def test_a_model_file_is_read_again_only_once_it_changes(tmp_path):
    path = tmp_path / "m.json"
    _model().save(path)
    first = load_model(path)
    assert load_model(path) is first  # unchanged: the model read before
    with pytest.raises(ValueError):
        first.weights[0, 0] = 1.0  # the shared model cannot be changed by a caller
    m = _model()
    m.a[0] += 1.0
    m.save(path)
    os.utime(path, ns=(1, 1))  # a new modification time, whatever the clock's resolution
    again = load_model(path)
    assert again is not first and again.a[0] == pytest.approx(first.a[0] + 1.0)


# --- a model's settings: master's parameters for its game -------------------------------------

def test_a_model_carries_settings_that_the_spec_overrides(tmp_path):
    # the model's settings reach the seat's arrays, a parameter the spec gives itself wins, and
    # the other seats and the spec shown are untouched
    model = _model()
    model.settings = "press=0.3,mg_size=1.2,w_coins=15"
    path = tmp_path / "m.json"
    model.save(path)
    assert load_model(path).settings == model.settings
    rs = load_ruleset("base")
    seat = parse_strategy(f"master:model={path},press=0.1")
    SK, SP = lineup_arrays([seat, parse_strategy("expert")] * 2, rs)
    want = parse_strategy(f"master:model={path},press=0.1,mg_size=1.2,w_coins=15")
    n = want.params.shape[0]
    assert np.array_equal(SP[0, :n], want.params) and np.array_equal(SK[0], want.kinds)
    assert not np.array_equal(SP[0, :n], seat.params)
    assert SP[0, S.SLOT_BUY, S.P_MG_SIZE] == 1.2 and SP[0, S.SLOT_WITCH, S.P_W_COINS] == 15
    assert np.array_equal(SP[1, :n], parse_strategy("expert").params)
    idx = np.arange(40)
    played = play_batch(rs, [seat] + [parse_strategy("expert")] * 3, games=idx,
                        rotations=idx % 4, seed=3).out
    spelled = play_batch(rs, [want] + [parse_strategy("expert")] * 3, games=idx,
                         rotations=idx % 4, seed=3).out
    assert np.array_equal(played, spelled)


def test_a_model_with_bad_settings_is_refused(tmp_path):
    for i, (bad, says) in enumerate((("press=high", "press"), ("nonsense=1", "unknown parameter"),
                                     ("model=none", "may not name the model"))):
        model = _model()
        model.settings = bad
        path = tmp_path / f"bad{i}.json"
        model.save(path)
        with pytest.raises(ModelFileError, match=says):
            load_model(path)


def test_training_with_master_settings_keeps_them(tmp_path):
    from sim.study.train.run import TrainError, TrainSettings, train

    settings = TrainSettings(players=2, games=60, iterations=2, seed=5, master="press=0.2")
    model = train(settings, tmp_path / "a.json")
    assert model.settings == "press=0.2" == load_model(tmp_path / "a.json").settings
    assert load_model(tmp_path / "a.json.train" / "iter-1.json").training["lineup"][0] == \
        "master:press=0.2,model=iter-0.json"
    plain = train(TrainSettings(players=2, games=60, iterations=2, seed=5), tmp_path / "b.json")
    assert not np.array_equal(plain.rows(), model.rows())  # its self-play games differ
    with pytest.raises(TrainError, match="--master"):
        train(TrainSettings(players=2, games=60, master="model=x.json"), tmp_path / "c.json")


def test_shipped_models_follow_their_recipes():
    from strategies.models.recipes import GAMES, ITERATIONS, RECIPES, SEED
    from strategies.value_model_file import shipped_models, shipped_path

    assert sorted(shipped_models()) == sorted(RECIPES)
    for (rules, n), settings in RECIPES.items():
        model = load_model(shipped_path(rules, n))
        assert model.settings == settings and model.training["master"] == settings
        t = model.training
        assert (t["rules"], t["players"], t["games"], t["iterations"], t["seed"]) == \
            (rules, n, GAMES, ITERATIONS, SEED)
    assert RECIPES[("base", 2)] and not RECIPES[("base", 4)]


def test_the_recipe_command_trains_the_shipped_file(tmp_path):
    # the 2-player recipe, through the command line, writes the shipped model byte for byte
    # (its settings included; a fitted number keeps SIGNIFICANT digits, so numpy's build does
    # not change its last bits: tests/test_shipped_models.py)
    from sim.cli.app import app
    from strategies.models.recipes import command
    from strategies.value_model_file import shipped_path
    from tests.cli_helpers import invokers

    _, ok = invokers(app)
    out = tmp_path / "base-2p.json"
    args = command("base", 2, str(out))
    assert "--master" in args
    ok(*args, "--quiet")
    assert out.read_bytes() == shipped_path("base", 2).read_bytes()


def _seen_setup(last: str):
    """The last round in lock-step: seat 1 has stopped on space 30, seat 2 has exploded on
    space 25, seat 3 is still brewing on space 20 with white total 4 of 7; every pot in sight."""
    rs, R, P, G, SP = _marginal_setup(9, with_model=True)
    st = parse_strategy(f"master:leaf=marginal,model=none,buy_by=marginal,ruby=0.9,buys={BUYS},"
                        f"last={last},last_more=1.5,last_sd=2,last_sd0=1.2")
    SP[:, : st.params.shape[0]] = st.params
    G[L.G_SEEN] = 0b1111
    P[1, L.F_REWARD], P[1, L.F_DONE], P[1, L.F_RUBIES] = 30, 1, 3
    P[2, L.F_REWARD], P[2, L.F_DONE], P[2, L.F_EXPLODED] = 25, 1, 1
    P[3, L.F_REWARD], P[3, L.F_WHITE], P[3, L.F_LIMIT] = 20, 4, 7
    return rs, R, P, G, SP


@pytest.mark.parametrize("pennies", [None, (0b011, 0b000, 0b111, 0b001)])
def test_last_round_leaves_are_chances_of_beating_the_pots_in_sight(pennies):
    rs, R, P, G, SP = _seen_setup("seen")
    end = [0, 0, 0, 0]  # VP of the witch pennies each seat still holds (2 each)
    if pennies is not None:
        R[L.R_WITCHES], R[L.R_PENNY_VP] = 1, 2
        for seat, bits in enumerate(pennies):
            P[seat, L.F_PENNY] = bits
            end[seat] = 2 * bin(bits).count("1")
    V = marginal_leaf_table(P, 0, G, R, SP)
    _, _, _, _, SPn = _marginal_setup(9, with_model=False)
    vp = marginal_leaf_table(P, 0, G, R, SPn)  # what each ending adds to seat 0's VP
    # seat scores 12, 15, 9, 20; seat 0 holds 3 rubies (1 VP at the end), seat 1 holds 3
    others = [  # (mean, variance) of each other final score
        (15 + (3 + rs.ruby[30]) // 2 + rs.vp[30] + rs.coins[30] // 5 + end[1], 1.2 ** 2),
        (9 + rs.ruby[25] // 2 + max(rs.vp[25], rs.coins[25] // 5) + end[2], 1.2 ** 2),
        (20 + rs.ruby[20] // 2 + rs.vp[20] + rs.coins[20] // 5 + 1.5 * 3 + end[3],
         1.2 ** 2 + 4 * 3),
    ]
    for space in (5, 22, 31, 45):
        for e in (0, 1):
            mine = 12 + 1 + end[0] + vp[space, e]
            want = np.prod([0.5 * (1 + math.erf((mine - m) / math.sqrt(2 * v)))
                            for m, v in others])
            assert V[space, e] == pytest.approx(want, rel=1e-12)
    assert V[45, 0] > V[22, 0] > 0


def test_last_round_leaves_by_the_logistic_when_asked_or_unless_every_pot_is_in_sight():
    rs, R, P, G, SP = _seen_setup("model")
    _, _, _, _, SPs = _seen_setup("seen")
    for seen in (0b0001, 0b0011, 0b1101):  # its own pot only, or some of the others'
        G[L.G_SEEN] = seen
        assert np.array_equal(marginal_leaf_table(P, 0, G, R, SPs),
                              marginal_leaf_table(P, 0, G, R, SP))
    G[L.G_SEEN] = 0b1111
    assert not np.allclose(marginal_leaf_table(P, 0, G, R, SPs),
                           marginal_leaf_table(P, 0, G, R, SP))
