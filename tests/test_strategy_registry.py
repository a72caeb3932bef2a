"""The strategy registry and the spec notation (no kernels run here).

Contract (the strategy-layer issue): every strategy has a name, a one-line description and typed
parameters with defaults and ranges; a spec is ``name`` or ``name:key=value,key=value`` (e.g.
``risk:p=0.25,buy=red>blue>orange``); unknown names or parameters, values out of range and
malformed specs are errors that say what is accepted; ``quacks strategies`` lists every strategy
(``--json``: names, descriptions, parameters with defaults), ``quacks strategies NAME`` explains
one and an unknown NAME exits 2.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from sim.api.rules_array import rules_scalars
from sim.cli.main import app
from sim.kernel.decisions import slots as S
from sim.kernel.rng import N_STREAMS
from sim.rules import chips
from strategies.builtin import (
    PRESETS,
    REGISTRY,
    Param,
    StrategySpecError,
    parse_stop_policy,
    parse_strategy,
    split_specs,
)

runner = CliRunner()

BUILTIN = sorted(n for n, d in REGISTRY.items() if d.source == "built-in")
# The library the issue asks for: stop rules, presets and archetypes.
REQUIRED = {"threshold", "risk", "ev", "optimal", "reckless", "random", "cautious", "balanced",
            "greedy", "pumpkin", "blueyellow", "blackpurple", "greenruby", "expected-value"}
PARAM_KINDS = {"int", "float", "round", "chips", "choice", "text", "witches"}


def chip(name: str) -> int:
    return chips.parse_chips(name)[0]


def buy_list(st) -> list[str]:
    """The priority list a strategy wrote into SP[stop, SLOT_BUY, :] (ended by -1)."""
    out = []
    for x in st.params[S.SLOT_BUY]:
        if x < 0:
            break
        out.append(chips.chip_name(int(x)))
    return out


# --- the registry -----------------------------------------------------------------------------


def test_library_is_complete():
    assert REQUIRED <= set(REGISTRY)
    for p in ("cautious", "balanced", "greedy", "pumpkin", "blueyellow", "blackpurple",
              "greenruby", "expected-value", "optimal", "random"):
        assert p in PRESETS
        assert p in REGISTRY


@pytest.mark.parametrize("name", BUILTIN)
def test_definition_fields(name):
    d = REGISTRY[name]
    assert d.name == name
    assert d.description and "\n" not in d.description, "one-line description"
    assert d.source == "built-in"
    names = [p.name for p in d.params]
    assert len(names) == len(set(names)), f"duplicate parameter names in {name}: {names}"
    for p in d.params:
        assert isinstance(p, Param)
        assert p.kind in PARAM_KINDS, (name, p)
        assert p.help, (name, p.name)
        if p.kind in ("int", "float", "round"):
            assert p.lo is not None and p.hi is not None and p.lo <= p.hi
            vals = p.default if isinstance(p.default, list) else [p.default]
            assert all(p.lo <= v <= p.hi for v in vals), (name, p)
        if p.kind == "choice":
            assert p.choices and p.default in p.choices
        if p.kind == "chips":
            assert p.default and all(isinstance(c, str) for c in p.default)


@pytest.mark.parametrize("name", BUILTIN)
def test_every_strategy_parses_with_defaults(name):
    st = parse_strategy(name)
    assert st.name == name and st.spec == name
    assert st.values == {p.name: p.default for p in REGISTRY[name].params}
    assert st.kinds.shape == (S.N_SLOTS,) and st.kinds.dtype == np.int64
    assert st.params.shape == (S.N_SLOTS, S.PARAM_WIDTH) and st.params.dtype == np.float64
    assert np.isfinite(st.params).all()
    # an empty parameter list and case/space variations mean the same
    same = parse_strategy(f"  {name.upper()}:  ")
    assert np.array_equal(same.kinds, st.kinds) and np.array_equal(same.params, st.params)


@pytest.mark.parametrize("name", BUILTIN)
def test_every_default_round_trips_through_the_spec(name):
    """Writing every default out as key=value gives the same arrays as the bare name."""
    d = REGISTRY[name]
    parts = []
    for p in d.params:
        parts.append(f"{p.name}={p.text(p.default)}")
    spec = f"{name}:{','.join(parts)}" if parts else name
    a, b = parse_strategy(name), parse_strategy(spec)
    assert np.array_equal(a.kinds, b.kinds)
    assert np.array_equal(a.params, b.params)


@pytest.mark.parametrize("name", BUILTIN)
def test_describe_and_json(name):
    for p in REGISTRY[name].params:
        line = p.describe()
        assert "\n" not in line and line.startswith(p.name + " (")
        assert "default" in line
        if p.kind in ("int", "float", "round"):
            assert f"{p.lo:g}..{p.hi:g}" in line
        if p.kind == "round":
            assert "per round" in line
        if p.kind == "choice":
            assert "|".join(p.choices) in line
        if p.kind == "chips":
            assert ">".join(p.default) in line
        j = p.as_json()
        assert set(j) >= {"name", "type", "default", "min", "max", "choices", "help"}
        assert j["name"] == p.name and j["type"] == p.kind and j["default"] == p.default
        assert j["min"] == p.lo and j["max"] == p.hi
        assert j["choices"] == (list(p.choices) or None)
        json.dumps(j)  # JSON-ready


# --- spec parsing -----------------------------------------------------------------------------


def test_threshold_single_value_fills_every_round():
    st = parse_strategy("threshold:t=5")
    assert st.kinds[S.SLOT_STOP] == S.STOP_WHITE
    assert np.all(st.params[S.SLOT_STOP, : S.ROUND_PARAMS] == 5)
    assert st.values["t"] == 5


def test_per_round_values_fill_sp_as_documented():
    """``set_round``: SP[slot, r] is the value for round r (1..20), the last value repeats,
    and SP[slot, 0] (outside a game) takes the first value."""
    st = parse_strategy("threshold:t=5/6/7")
    row = st.params[S.SLOT_STOP]
    assert st.values["t"] == [5, 6, 7]
    assert row[0] == 5
    assert row[1] == 5 and row[2] == 6 and row[3] == 7
    assert np.all(row[4 : S.ROUND_PARAMS] == 7)


def test_per_round_nine_values():
    vals = [0.1, 0.12, 0.14, 0.16, 0.18, 0.2, 0.22, 0.24, 0.26]
    st = parse_strategy("risk:p=" + "/".join(map(str, vals)))
    row = st.params[S.SLOT_STOP]
    assert st.kinds[S.SLOT_STOP] == S.STOP_RISK
    assert row[0] == vals[0]
    for r in range(1, 10):
        assert row[r] == pytest.approx(vals[r - 1])
    assert np.all(row[10 : S.ROUND_PARAMS] == vals[-1])


def test_per_round_maximum_is_twenty_values():
    vals = [float(1 + i % 9) for i in range(S.ROUND_PARAMS - 1)]
    st = parse_strategy("threshold:t=" + "/".join(f"{v:g}" for v in vals))
    assert list(st.params[S.SLOT_STOP, 1 : S.ROUND_PARAMS]) == vals
    with pytest.raises(StrategySpecError, match=f"at most {S.ROUND_PARAMS - 1}"):
        parse_strategy("threshold:t=" + "/".join(["5"] * S.ROUND_PARAMS))


def test_balanced_default_is_per_round():
    st = parse_strategy("balanced")
    d = REGISTRY["balanced"].params[0].default
    assert isinstance(d, list) and len(d) == 9
    row = st.params[S.SLOT_STOP]
    for r in range(1, 10):
        assert row[r] == pytest.approx(d[r - 1])


def test_ev_and_optimal_value_parameters():
    for name, kind in (("ev", S.STOP_EV), ("optimal", S.STOP_OPTIMAL)):
        st = parse_strategy(f"{name}:coin=0.4,ruby=1.5")
        row = st.params[S.SLOT_STOP]
        assert st.kinds[S.SLOT_STOP] == kind
        assert np.all(row[: S.ROUND_PARAMS] == 0.4)
        assert row[S.P_RUBY_VALUE] == 1.5
        assert row[S.P_VP_VALUE] == 1.0
        st = parse_strategy(f"{name}:coin=0.1/0.2")
        row = st.params[S.SLOT_STOP]
        assert row[0] == 0.1 and row[1] == 0.1 and np.all(row[2 : S.ROUND_PARAMS] == 0.2)
        default = parse_strategy(name).params[S.SLOT_STOP]
        assert default[S.P_RUBY_VALUE] == 0.5 and default[S.P_VP_VALUE] == 1.0


def test_colour_names_expand_big_first():
    st = parse_strategy("risk:p=0.25,buy=red>blue>orange")
    assert st.values["p"] == 0.25
    want = ["r4", "r2", "r1", "b4", "b2", "b1"]
    assert st.values["buy"][:6] == want
    assert [n[0] for n in st.values["buy"][6:]] == ["o"] * (len(st.values["buy"]) - 6)
    orange = [chips.chip_name(t) for t in range(chips.N_TYPES)
              if chips.TYPE_COLOUR[t] == chips.ORANGE]
    assert sorted(st.values["buy"][6:]) == sorted(orange)
    vals = [int(chips.TYPE_VALUE[chip(n)]) for n in st.values["buy"][6:]]
    assert vals == sorted(vals, reverse=True)
    assert buy_list(st) == st.values["buy"]
    assert np.all(st.params[S.SLOT_BUY, len(st.values["buy"]) :] == -1)
    assert np.all(st.params[S.SLOT_STOP, : S.ROUND_PARAMS] == 0.25)


def test_chip_lists_mixed_names_aliases_and_duplicates():
    st = parse_strategy("threshold:buy=r4>blue>B4>o1>pumpkin")
    assert st.values["buy"][:5] == ["r4", "b4", "b2", "b1", "o1"]  # duplicates dropped
    assert "o1" in st.values["buy"] and st.values["buy"].count("o1") == 1
    # a comma-separated chip list inside one spec is accepted too
    a = parse_strategy("threshold:buy=r4,b4,t=7")
    assert a.values["buy"] == ["r4", "b4"] and a.values["t"] == 7
    assert buy_list(a) == ["r4", "b4"]


def test_value_buyers_weight_earlier_chips_more():
    for buyer, kind in (("expensive", S.BUY_EXPENSIVE), ("value", S.BUY_VALUE),
                        ("percoin", S.BUY_PER_COIN)):
        st = parse_strategy(f"threshold:buyer={buyer},buy=r4>b2>o1")
        assert st.kinds[S.SLOT_BUY] == kind
        w = st.params[S.SLOT_BUY]
        assert w[chip("r4")] > w[chip("b2")] > w[chip("o1")] > 0
        others = [t for t in range(chips.N_TYPES) if chips.chip_name(t) not in ("r4", "b2", "o1")]
        assert np.all(w[others] == 0)
    assert parse_strategy("threshold:buyer=none").kinds[S.SLOT_BUY] == S.BUY_NOTHING
    assert parse_strategy("threshold:buyer=random").kinds[S.SLOT_BUY] == S.BUY_RANDOM


def test_common_parameters_reach_their_slots():
    st = parse_strategy("threshold:flask=3,flask_white=4,coins_until=2,droplet_until=5,refill=0")
    assert st.kinds[S.SLOT_FLASK] == S.FLASK_MIN
    assert st.params[S.SLOT_FLASK, 0] == 3 and st.params[S.SLOT_FLASK, 1] == 4
    assert st.params[S.SLOT_EXPLODE, 0] == 2
    assert st.params[S.SLOT_RUBY, 0] == 0 and st.params[S.SLOT_RUBY, 1] == 5
    assert parse_strategy("threshold:flask=0").kinds[S.SLOT_FLASK] == S.FLASK_NEVER


def test_parameters_change_data_not_kinds():
    """Differently tuned copies of a strategy differ only in SP (data), never in SK."""
    a, b = parse_strategy("threshold:t=5"), parse_strategy("threshold:t=9/8/7")
    assert np.array_equal(a.kinds, b.kinds)
    assert not np.array_equal(a.params, b.params)
    a, b = parse_strategy("risk:p=0.1"), parse_strategy("risk:p=0.4,buy=green")
    assert np.array_equal(a.kinds, b.kinds)


def test_stop_policy_accepts_registry_and_short_forms():
    k, row = parse_stop_policy("white:7")
    assert k == S.STOP_WHITE and np.all(row[: S.ROUND_PARAMS] == 7)
    k, row = parse_stop_policy("risk:0.15")
    assert k == S.STOP_RISK and np.all(row[: S.ROUND_PARAMS] == 0.15)
    assert parse_stop_policy("never")[0] == S.STOP_NEVER
    assert parse_stop_policy("ev")[0] == S.STOP_EV
    assert parse_stop_policy("optimal:coin=0.4")[0] == S.STOP_OPTIMAL
    k, row = parse_stop_policy("balanced")
    assert k == S.STOP_RISK
    assert np.array_equal(row, parse_strategy("balanced").params[S.SLOT_STOP])
    k, row = parse_stop_policy("threshold:t=4")
    assert k == S.STOP_WHITE and row[1] == 4
    for name in BUILTIN:
        assert parse_stop_policy(name)[0] == parse_strategy(name).kinds[S.SLOT_STOP]


# --- split_specs ------------------------------------------------------------------------------


@pytest.mark.parametrize("text,expected", [
    ("threshold,random", ["threshold", "random"]),
    ("threshold, threshold:t=5 ,random", ["threshold", "threshold:t=5", "random"]),
    ("risk:p=0.25,buy=red>blue>orange,threshold:t=5/6/7,balanced",
     ["risk:p=0.25,buy=red>blue>orange", "threshold:t=5/6/7", "balanced"]),
    ("ev:coin=0.4,ruby=1,expected-value,random:p=0.5",
     ["ev:coin=0.4,ruby=1", "expected-value", "random:p=0.5"]),
    ("threshold:t=5,flask=3,buyer=value,greedy", ["threshold:t=5,flask=3,buyer=value", "greedy"]),
    ("", []),
    ("balanced,,random,", ["balanced", "random"]),
])
def test_split_specs(text, expected):
    assert split_specs(text) == expected
    for s in expected:
        parse_strategy(s)


def test_split_specs_keeps_comma_chip_lists():
    assert split_specs("threshold:buy=r4,b4,random") == ["threshold:buy=r4,b4", "random"]


# --- errors: StrategySpecError naming what is accepted ------------------------------------------

ERRORS = [
    # unknown name: lists the known names
    ("nope", ["unknown strategy 'nope'", "balanced", "threshold", "optimal"]),
    ("nope:t=5", ["unknown strategy 'nope'", "known:"]),
    ("", ["unknown strategy", "known:"]),
    # unknown parameter: lists the strategy's parameters
    ("threshold:x=1", ["unknown parameter 'x'", "parameters of threshold", "t,", "buy"]),
    ("risk:t=6", ["unknown parameter 't'", "parameters of risk", "p,"]),
    ("random:buy=red", ["unknown parameter 'buy'", "parameters of random: p"]),
    ("reckless:p=0.2", ["unknown parameter 'p'", "parameters of reckless"]),
    # out of range: gives the range
    ("threshold:t=99", ["t=99", "out of range", "1 to 30"]),
    ("threshold:t=0", ["out of range", "1 to 30"]),
    ("threshold:t=5/6/31", ["out of range", "1 to 30"]),
    ("risk:p=1.5", ["out of range", "0 to 1"]),
    ("risk:p=-0.1", ["out of range", "0 to 1"]),
    ("random:p=2", ["out of range", "0 to 1"]),
    ("threshold:flask=4", ["out of range", "0 to 3"]),
    ("ev:coin=6", ["out of range", "0 to 5"]),
    ("ev:ruby=-1", ["out of range", "0 to 5"]),
    ("threshold:refill=2", ["out of range", "0 to 1"]),
    ("risk:p=nan", ["out of range"]),
    # not a number: says which numbers
    ("threshold:t=abc", ["expected a number from 1 to 30"]),
    ("threshold:t=5//6", ["expected a number"]),
    ("threshold:flask=1.5", ["expected an integer from 0 to 3"]),
    ("threshold:coins_until=x", ["expected an integer from 0 to 20"]),
    # not key=value
    ("threshold:t", ["'t' is not key=value", "parameters of threshold"]),
    ("threshold:6", ["'6' is not key=value", "parameters of threshold"]),
    # bad chips: says the notation / the colour names
    ("threshold:buy=z9", ["unknown colour 'z'", "or a colour name", "red"]),
    ("threshold:buy=r3", ["no red 3-chip", "1/2/4"]),
    ("threshold:buy=reds", ["cannot read 'reds'", "colour name"]),
    ("threshold:buy=", ["give at least one chip or colour"]),
    # white is never for sale
    ("threshold:buy=white", ["white chips are never for sale"]),
    ("threshold:buy=r4>w1", ["white chips are never for sale"]),
    ("risk:buy=w3", ["white chips are never for sale"]),
    # bad choice: lists the choices
    ("threshold:buyer=cheap", ["buyer=cheap", "expected one of", "priority", "expensive", "value",
                               "percoin", "random", "none"]),
]


@pytest.mark.parametrize("spec,fragments", ERRORS)
def test_spec_errors(spec, fragments):
    with pytest.raises(StrategySpecError) as e:
        parse_strategy(spec)
    msg = str(e.value)
    assert "\n" not in msg
    for f in fragments:
        assert f in msg, (f, msg)


@pytest.mark.parametrize("spec", ["white:0", "white:x", "white", "never:1", "nope", "white:2.5",
                                  "white:-3", "never:x", "whiteish:3"])
def test_stop_policy_errors(spec):
    with pytest.raises(StrategySpecError) as e:
        parse_stop_policy(spec)
    msg = str(e.value)
    assert "white:T" in msg and "risk:P" in msg and "never" in msg, msg


@pytest.mark.parametrize("spec,fragment", [("risk:p=2", "0 to 1"), ("threshold:t=0", "1 to 30"),
                                           ("ev:coin=9", "0 to 5")])
def test_stop_policy_errors_from_registry_names(spec, fragment):
    """A registry spec with a bad value fails with the registry's message (its range)."""
    with pytest.raises(StrategySpecError) as e:
        parse_stop_policy(spec)
    assert fragment in str(e.value)


def test_stop_policy_risk_colon_alone_is_the_risk_strategy():
    k, row = parse_stop_policy("risk:")
    assert k == S.STOP_RISK and row[1] == pytest.approx(0.2)


@pytest.mark.parametrize("spec", ["risk:2", "risk:abc"])
def test_stop_policy_short_risk_out_of_range_names_risk_p(spec):
    with pytest.raises(StrategySpecError) as e:
        parse_stop_policy(spec)
    assert "risk:P" in str(e.value) or "0 <= P <= 1" in str(e.value), str(e.value)


def test_spec_error_is_a_value_error():
    assert issubclass(StrategySpecError, ValueError)


# --- CLI: quacks strategies -------------------------------------------------------------------


def test_cli_strategies_table():
    r = runner.invoke(app, ["strategies"])
    assert r.exit_code == 0, r.output
    for name in BUILTIN:
        assert name in r.stdout
    assert "Spec: name or name:key=value" in r.stdout


def test_cli_strategies_json():
    r = runner.invoke(app, ["strategies", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    listed = {s["name"]: s for s in d["strategies"]}
    assert set(BUILTIN) <= set(listed)
    for name in BUILTIN:
        s = listed[name]
        assert s["description"] == REGISTRY[name].description
        params = s["parameters"]
        assert [p["name"] for p in params] == [p.name for p in REGISTRY[name].params]
        for pj, p in zip(params, REGISTRY[name].params):
            assert "default" in pj and pj["default"] == p.default
            assert pj["type"] == p.kind
    assert listed["balanced"]["preset"] is True
    assert listed["threshold"]["preset"] is False


def test_cli_strategies_explains_one():
    r = runner.invoke(app, ["strategies", "balanced"])
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert out.startswith("balanced (built-in): " + REGISTRY["balanced"].description)
    assert "Idea:" in out and "Parameters:" in out
    for p in REGISTRY["balanced"].params:
        assert f"  {p.name} (" in out
    assert "0.2/0.2/0.2/0.22/0.22/0.25/0.25/0.28/0.3" in out


def test_cli_strategies_one_json_is_case_insensitive():
    r = runner.invoke(app, ["strategies", "THRESHOLD", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert [s["name"] for s in d["strategies"]] == ["threshold"]


def test_cli_strategies_unknown_name():
    r = runner.invoke(app, ["strategies", "nope"])
    assert r.exit_code == 2, r.output
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert "nope" in lines[0] and "balanced" in lines[0] and "threshold" in lines[0]
    assert "Traceback" not in r.output


@pytest.mark.parametrize("spec,fragment", [
    ("threshold:t=99,random", "out of range"),
    ("nope,random", "unknown strategy 'nope'"),
    ("threshold:buyer=cheap,random", "expected one of"),
])
def test_cli_play_rejects_bad_specs(spec, fragment):
    r = runner.invoke(app, ["play", "--strategies", spec, "--games", "5"])
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and fragment in lines[0]


def _buys(spec: str, coins: int) -> list[str]:
    """What a strategy's buying slot buys with ``coins`` in a shop where everything is for sale."""
    from sim.kernel import layout as L
    from sim.kernel.decisions.decide import decide_buy
    from sim.rules.ruleset import load_ruleset
    from strategies.registry import slot_table

    rs = load_ruleset("base", ["cards.deck=false"])
    st = parse_strategy(spec)
    P = np.zeros((1, L.P_WIDTH), dtype=np.int64)
    G = np.zeros(L.G_WIDTH, dtype=np.int64)
    G[L.G_ROUND] = 5
    supply = rs.supply.copy()
    avail = (rs.price >= 0).astype(np.int64)
    out = np.zeros(8, dtype=np.int64)
    n = decide_buy(P, 0, coins, 2, supply, rs.price, avail, out, G, rules_scalars(rs),
                   st.kinds[None].copy(),
                   st.params[None].copy(), np.zeros((1, S.SC_WIDTH), dtype=np.int64),
                   np.zeros(N_STREAMS, dtype=np.uint64), slot_table())
    return sorted(chips.chip_name(int(t)) for t in out[:n])


def test_value_buyer_weighs_price_and_preference():
    """Worth = base price x a weight from 2 (first listed) to 1 (last): b2 10 x 1.5 = 15, r4 16 x 1
    = 16. The value buyer takes the greater worth it can afford (r4 with 19 coins, both with 26);
    the per-coin buyer the greater worth per coin (b2: 1.5 a coin against 1.0)."""
    from strategies.builtin import chip_values

    assert chip_values([chips.parse_chips("b2")[0], chips.parse_chips("r4")[0]]) == {
        chips.parse_chips("b2")[0]: 15.0, chips.parse_chips("r4")[0]: 16.0}
    assert _buys("ev:buyer=value,buy=b2>r4", 19) == ["r4"]
    assert _buys("ev:buyer=value,buy=b2>r4", 26) == ["b2", "r4"]
    assert _buys("ev:buyer=percoin,buy=b2>r4", 19) == ["b2"]
    assert _buys("ev:buyer=value,buy=b2>r4", 9) == []
