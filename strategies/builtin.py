"""The strategy registry: built-in strategies and presets, typed parameters, and the spec notation
``name`` or ``name:key=value,key=value``.

A strategy is a row of slot kinds and a table of float parameters (see
``sim.kernel.decisions.slots``); ``parse_strategy`` turns a spec into those arrays. Every
registered strategy has a name, a one-line description and typed parameters with defaults and
ranges. User strategies join the same registry (``strategies.registry.register``).
"""

from __future__ import annotations

import numpy as np

from sim.kernel.decisions import slots as S
from sim.rules import chips
from sim.rules.chip_limits import parse_chips_capped
from strategies.common_player import (  # noqa: F401 (DEFAULT_*, chip_values: re-exported)
    BUYERS,
    DEFAULT_BUY,
    DEFAULT_COIN_VALUE,
    apply_common,
    chip_values,
    common_params,
)
from strategies.spec_types import (  # noqa: F401 (re-exported: the registry's public types)
    COLOUR_WORDS,
    Param,
    Strategy,
    StrategyDef,
    StrategySpecError,
    blank_arrays,
    chip_types,
    parse_chip_list,
    set_round,
)

REGISTRY: dict[str, StrategyDef] = {}


def _die_param(default: float = 0.0) -> tuple[Param, ...]:
    return (Param("die", "float", default, 0, 5, "VP worth of the bonus die: once another player's "
                  "finished potion is in sight (sequential or synchronized brewing), reaching it "
                  "earns the die; 0 ignores what the others brewed"),)


def _press_param(default: float = 0.0) -> tuple[Param, ...]:
    return (Param("press", "float", default, -2, 2, "score-aware stopping: VP of expected value "
                  "given up for one more chip per VP behind the leader, divided by the rounds "
                  "left + 1 (a trailing player presses harder, a leader plays safer); 0 ignores "
                  "the score"),)


def _value_params(coin=None, ruby=0.5) -> tuple[Param, ...]:
    return (
        Param("coin", "round", list(coin or DEFAULT_COIN_VALUE[1:]), 0, 5,
              "VP worth of one coin (one value, or one per round)"),
        Param("ruby", "float", ruby, 0, 5, "VP worth of one ruby"),
    )


OPTIMAL_REQUESTED = False  # set once a strategy uses the optimal stopper (compiled on demand)


def _stop_builder(stop_kind: int, key: str | None):
    def build(v: dict) -> tuple[np.ndarray, np.ndarray]:
        global OPTIMAL_REQUESTED
        if stop_kind == S.STOP_OPTIMAL:
            OPTIMAL_REQUESTED = True
        kinds, params = blank_arrays()
        kinds[S.SLOT_STOP] = stop_kind
        if stop_kind in (S.STOP_EV, S.STOP_OPTIMAL):
            coin = v["coin"]
            if isinstance(coin, list):
                set_round(params, S.SLOT_STOP, coin)
                params[S.SLOT_STOP, 0] = (DEFAULT_COIN_VALUE[0] if coin == DEFAULT_COIN_VALUE[1:]
                                          else coin[0])
            else:
                set_round(params, S.SLOT_STOP, coin)
            params[S.SLOT_STOP, S.P_RUBY_VALUE] = v["ruby"]
            params[S.SLOT_STOP, S.P_VP_VALUE] = 1.0
            params[S.SLOT_STOP, S.P_DIE_VALUE] = v.get("die", 0.0)
            params[S.SLOT_STOP, S.P_PRESS] = v.get("press", 0.0)
            if stop_kind == S.STOP_OPTIMAL:
                params[S.SLOT_STOP, S.P_OPT_MAX_SUBBAGS] = v["max_subbags"]
        elif key is not None:
            set_round(params, S.SLOT_STOP, v[key])
        apply_common(v, kinds, params)
        return kinds, params

    return build


def _random_build(v: dict) -> tuple[np.ndarray, np.ndarray]:
    kinds, params = blank_arrays()
    kinds[S.SLOT_STOP] = S.STOP_RANDOM
    params[S.SLOT_STOP, 0] = v["p"]
    kinds[S.SLOT_FLASK] = S.FLASK_RANDOM
    params[S.SLOT_FLASK, 0] = 0.5
    kinds[S.SLOT_BLUE] = S.BLUE_RANDOM
    kinds[S.SLOT_YELLOW] = S.YELLOW_RANDOM
    kinds[S.SLOT_EXPLODE] = S.EXPLODE_RANDOM
    kinds[S.SLOT_BUY] = S.BUY_RANDOM
    kinds[S.SLOT_RUBY] = S.RUBY_RANDOM
    kinds[S.SLOT_PURPLE] = S.PURPLE_MAX
    kinds[S.SLOT_RED] = S.RED_ALWAYS
    kinds[S.SLOT_WITCH] = S.WITCH_RANDOM
    params[S.SLOT_WITCH, 0] = 0.5
    return kinds, params


def _define(name, description, idea, stop_kind, stop_params, key=None, **common):
    REGISTRY[name] = StrategyDef(name, description, tuple(stop_params) + common_params(**common),
                                 _stop_builder(stop_kind, key), idea)


def _t(default):
    return Param("t", "round", default, 1, 30,
                 "stop once the white total is at least t (one value, or one per round)")


def _p(default):
    return Param("p", "round", default, 0, 1,
                 "stop once the next chip's explosion chance is above p")


# --- configurable stop rules (complete players with sensible defaults for the other slots)
_define("threshold", "Stops at a white total; flasks big whites; buys from a priority list.",
        "The classic rule of thumb: stop once the white chips in the pot add up to t.",
        S.STOP_WHITE, [_t(6)], key="t")
_define("risk", "Stops when the exact chance that the next chip explodes is above p.",
        "Reads the bag: the chance that the next chip pushes the white total over the limit.",
        S.STOP_RISK, [_p(0.2)], key="p")
_define("ev", "One-step expected value: draws while one more chip is worth more than stopping.",
        "Values a reward space as VP + coins x coin + ruby x ruby, counts the chance of exploding "
        "and the explosion choice, and draws when one more chip beats stopping now.",
        S.STOP_EV, _value_params() + _die_param() + _press_param())
_define("optimal", "Exact optimal stopping by dynamic programming over the bag (the reference).",
        "Solves the rest of the potion exactly at every decision, with the same value of a reward "
        "space as ev; no stop rule can do better in expectation for that value. While the bag left "
        "has more than max_subbags sub-bags it decides by the one-step expected value instead.",
        S.STOP_OPTIMAL, _value_params() + (
            Param("max_subbags", "int", 5000, 0, 10_000_000, "solve exactly once the bag left has "
                  "at most this many sub-bags (product of count+1); 0: always (may be very "
                  "slow)"),))
_define("reckless",
        "Never stops: draws until the pot explodes, the bag is empty or the track ends.",
        "A baseline that shows what pressing your luck without limit costs.",
        S.STOP_NEVER, [])
REGISTRY["random"] = StrategyDef(
    "random", "A random legal player: stops, buys, spends and chooses at random.",
    (Param("p", "float", 0.25, 0.0, 1.0, "chance of stopping after each chip"),), _random_build,
    "A floor: any sensible strategy should beat it by a wide margin.")

# --- presets: complete players built on the rules above
_define("cautious", "Preset: stops early (risk above 10%), buys the biggest chips it can.",
        "Rarely explodes; makes up for short potions with strong chips.",
        S.STOP_RISK, [_p(0.10)], key="p", flask=1, buyer="expensive")
_define("balanced", "Preset: risk 20% early, a little bolder late; balanced buying.",
        "A solid all-round player: moderate risk, flask on big whites, the strongest chips first.",
        S.STOP_RISK, [_p([0.2, 0.2, 0.2, 0.22, 0.22, 0.25, 0.25, 0.28, 0.3])], key="p")
_define("greedy", "Preset: presses its luck (risk up to 35%), coins when it explodes early.",
        "Big potions and many explosions; takes the coins after an early explosion.",
        S.STOP_RISK, [_p(0.35)], key="p", coins_until=7)
_define("pumpkin", "Archetype: pumpkins and red toadstools (red moves further with pumpkins).",
        "Every pumpkin in the pot pushes red chips one or two spaces further.",
        S.STOP_RISK, [_p(0.2)], key="p", buy=["r4", "k1", "r2", "o1", "r1"])
_define("blueyellow", "Archetype: blue crow skulls and yellow mandrakes (pick chips, undo whites).",
        "Blue picks the best of several chips; yellow sends a white back, so it can draw longer.",
        S.STOP_RISK, [_p(0.22)], key="p", buy=["b4", "y4", "k1", "b2", "y2", "b1", "y1", "o1"])
_define("blackpurple", "Archetype: black moths and purple ghosts (droplets, VP and rubies at B).",
        "Black beats the neighbours for droplet moves and rubies; purple pays VP by count.",
        S.STOP_RISK, [_p(0.2)], key="p", buy=["p1", "k1", "r4", "b4", "r2", "b2", "o1"])
_define("greenruby", "Archetype: green spiders and rubies turned into droplet moves.",
        "Greens at the end of the potion pay rubies; rubies move the droplet forward for good.",
        S.STOP_RISK, [_p(0.2)], key="p", buy=["g4", "k1", "g2", "g1", "r4", "b4", "o1"],
        droplet_until=8)
_define("expected-value", "Preset: the one-step expected-value stopper with value-based buying.",
        "Draws while one more chip is worth more than stopping; buys the pair of greatest value.",
        S.STOP_EV, _value_params() + _die_param() + _press_param(), buyer="value")

_define("expert",
        "Preset: the strongest built-in; ev with the marginal buyer, tuned by quacks tune.",
        "The one-step expected-value stopper and the marginal buyer with the values `quacks tune` "
        "found against balanced, greedy and ev (4 players, base game with the deck): a coin worth "
        "1.61 VP in every round and a ruby 1.21 (so it draws on for coins), the bonus die worth "
        "1.52 VP once it can see the others' potions, and score-aware: it gives up 0.085 VP of "
        "expected value per chip for every VP it trails the leader by, divided by the rounds left "
        "+ 1 (a leader plays safer). It buys the legal pair that adds most to its bag for the "
        "rounds left (a space of movement 0.47 VP, a chip of value v moving v ** 1.04 spaces, a "
        "chip's worth growing as (rounds left) ** 1.05, its bag model stopping at a white total "
        "of 6.0, a black chip 2.81 VP times the chance it breaks a tie with a neighbour's pot). "
        "The flask only on a white 3 that leaves the white total at 3 or more; rubies by value for "
        "the rounds left (a droplet space 0.44 VP a round, a full flask 0.05, a kept ruby 0.5: "
        "droplet moves up to round 6, no refills); the coins of an explosion up to round 6; the "
        "witches by the built-in answer with its own first rounds and thresholds. README "
        "(Strategies) says how it was found.",
        S.STOP_EV, (Param("coin", "round", 1.61, 0, 5,
                          "VP worth of one coin (one value, or one per round)"),
                    Param("ruby", "float", 1.21, 0, 5, "VP worth of one ruby"), *_die_param(1.52),
                    *_press_param(0.085)),
        flask=3, flask_white=3, coins_until=6, droplet_until=9, refill=0, rubies="value",
        space_worth=0.44, flask_worth=0.05, buyer="marginal", buy=[*DEFAULT_BUY, "o6", "l1"],
        mg={"mg_space": 0.47, "mg_stop": 6.0, "mg_black": 2.81, "mg_purple": 0.96,
            "mg_yellow": 1.21, "mg_ruby": 0.87, "mg_size": 1.04, "mg_horizon": 1.05},
        # the witches' built-in answer, tuned for expert under herb-witches (README)
        witch={"six-chips_from": 7, "whites-back_from": 8, "w_whites": 4.49, "w_both": 2.02,
               "upgrade_from": 3, "w_coins": 5.79, "w_twin": 10.6, "w_ruby_coins": 6.12,
               "w_colours": 4.43, "w_bag": 17.3, "w_rubies": 6.02, "w_cheap": 2.70})

MASTER_REQUESTED = False  # set once a strategy uses master's slot functions (compiled on demand)
BUY_BY = ("model", "marginal", "net")
FLASK_BY = ("solve", "rule")
CHOICES_BY = ("value", "rule")
LEAVES = ("model", "marginal")
LASTS = ("seen", "model")


def _master_build(v: dict) -> tuple[np.ndarray, np.ndarray]:
    global MASTER_REQUESTED
    MASTER_REQUESTED = True
    kinds, params = _stop_builder(S.STOP_OPTIMAL, None)(v)
    params[S.SLOT_STOP, S.P_LEAF_MODEL] = (S.LEAF_MARGINAL if v["leaf"] == "marginal"
                                           else S.LEAF_MODEL)
    params[S.SLOT_STOP, S.P_LEAF_BUYS] = v["buys"]
    params[S.SLOT_STOP, S.P_LAST_SEEN] = 1.0 if v["last"] == "seen" else 0.0
    params[S.SLOT_STOP, S.P_LAST_MORE] = v["last_more"]
    params[S.SLOT_STOP, S.P_LAST_SD] = v["last_sd"]
    params[S.SLOT_STOP, S.P_LAST_SD0] = v["last_sd0"]
    kinds[S.SLOT_EXPLODE] = S.USER_BASE + S.UF_MASTER_EXPLODE
    if v["flask_by"] == "solve" and v["flask"] > 0:
        kinds[S.SLOT_FLASK] = S.USER_BASE + S.UF_MASTER_FLASK
    params[S.SLOT_FLASK, S.P_FLASK_KEEP] = v["flask_keep"]
    params[S.SLOT_FLASK, S.P_FLASK_SUBBAGS] = v["flask_subbags"]
    if v["choices_by"] == "value":
        kinds[S.SLOT_CARD] = S.USER_BASE + S.UF_MASTER_CARD
        kinds[S.SLOT_BOOK] = S.USER_BASE + S.UF_MASTER_BOOK
        if v["tube"] == "value":  # tube=pot and tube=tube stay as asked
            kinds[S.SLOT_TUBE] = S.USER_BASE + S.UF_MASTER_TUBE
    if v["buy_by"] in ("model", "net"):
        kinds[S.SLOT_BUY] = S.USER_BASE + S.UF_MASTER_BUY
        params[S.SLOT_BUY, S.P_EXPLORE] = v["explore"]
        params[S.SLOT_BUY, S.P_BUY_NET] = v["net_mix"] if v["buy_by"] == "net" else 0.0
    return kinds, params


MODEL_AUTO = "auto"
MODEL_NONE = "none"  # leaf=marginal without a model: maximise expected VP
_MASTER_COMMON = dict(flask=3, flask_white=3, coins_until=6, droplet_until=9, refill=0,
                      rubies="value", space_worth=0.40, flask_worth=0.05, buyer="marginal",
                      buy=[*DEFAULT_BUY, "o6", "l1"],
                      mg={"mg_space": 0.54, "mg_stop": 6.66, "mg_black": 3.62, "mg_purple": 0.96,
                          "mg_yellow": 0.91, "mg_ruby": 0.87, "mg_size": 1.12,
                          "mg_horizon": 1.03},
                      # the witches' built-in answer, tuned for master under herb-witches
                      witch={"six-chips_from": 8, "whites-back_from": 9, "w_whites": 7.49,
                             "w_both": 5.73, "upgrade_from": 3, "w_coins": 10.0, "w_twin": 8.32,
                             "w_ruby_coins": 13.0, "w_colours": 10.3, "w_bag": 13.2,
                             "w_rubies": 7.30, "w_cheap": 4.06})
REGISTRY["master"] = StrategyDef(
    "master", "The strongest built-in: the exact in-round solve with every ending valued as a "
    "chance of winning (a per-round logistic of the VP gap, fitted by quacks train).",
    (Param("model", "text", MODEL_AUTO, help="the value model: auto (the shipped model for the "
           "ruleset and player count, or the nearest one), a model file from quacks train, "
           "or none (leaf=marginal only: expected VP, not the chance of winning)"),
     Param("leaf", "choice", "marginal", help="how the solve values an ending: its VP plus "
           "what the marginal buyer buys with its coins (marginal), as a chance of winning when "
           "a model is attached; or by a linear model's margin of the position after it (model, "
           "for quacks train --value linear)", choices=LEAVES),
     Param("buys", "float", 1.41, 0, 5, "leaf=marginal: weight of the VP the marginal buyer says "
           "an ending's coins buy (1 as it says; more values coins above its estimate)"),
     Param("last", "choice", "seen", help="how the last round's leaves become a chance of "
           "winning when a model is attached: from the other pots in sight, each other final "
           "score estimated from its pot so far (seen), or by the model's logistic of the VP gap "
           "before the round (model)", choices=LASTS),
     Param("last_more", "float", 6.5, 0, 10, "last=seen: VP a pot still brewing is expected "
           "to add per white point it has left below its explosion limit"),
     Param("last_sd", "float", 4.2, 0, 10, "last=seen: spread of what a pot still brewing "
           "adds, in VP per square root of its white points left"),
     Param("last_sd0", "float", 2.3, 0.1, 10, "last=seen: spread of every other player's "
           "final score around its estimate (the bonus die and the chips' actions)"),
     Param("buy_by", "choice", "marginal", help="how to buy: expert's marginal buyer "
           "(marginal), the legal set that adds most to a linear model's margin (model), or the "
           "legal set after which the model file's value net (quacks train --value net) values "
           "the whole bag most, every legal set compared (net)", choices=BUY_BY),
     Param("net_mix", "float", 1.0, 0.01, 1, "buy_by=net: a set's worth is this share of "
           "the VP the net says it adds plus the rest of the marginal buyer's worth of it (1: "
           "the net alone)"),
     Param("explore", "float", 0.0, 0, 1, "chance of buying a random legal set instead "
           "(quacks train's self-play games, buy_by=model or net)"),
     Param("max_subbags", "int", 500, 0, 10_000_000, "solve exactly once the bag left has at "
           "most this many sub-bags (until then it decides by the one-step expected value with "
           "coin, ruby, die and press, as expert)"),
     Param("flask_by", "choice", "solve", help="how to use the flask: by the solve of the potion "
           "with and without the white (solve; where the bag is too big to solve, or flask=0, "
           "the rule flask and flask_white), or by that rule alone (rule)", choices=FLASK_BY),
     Param("flask_keep", "float", 2.5, 0, 10, "flask_by=solve: VP worth of keeping a full "
           "flask for a later round (0 in the last round)"),
     Param("flask_subbags", "int", 500, 0, 10_000_000, "flask_by=solve: solve the flask's "
           "choice exactly once the bag has at most this many sub-bags"),
     Param("choices_by", "choice", "value", help="how to answer the choices of cards, books "
           "and the test tube: each option by its worth in VP on the scale of the leaves "
           "(value: rubies at ruby, chips by the marginal buyer times buys, droplet spaces by "
           "mg_space times buys for every potion left; the built-in answer where a card or "
           "book offers no choice of worth, and for An Opportunistic Moment, where the value "
           "measured worse), or by the built-in answers and the tube_* rule "
           "(rule)", choices=CHOICES_BY),
     Param("coin", "round", 2.05, 0, 5, "VP worth of one coin where the solve does not reach: "
           "the one-step rule of a bag too big to solve, and outside a game (quacks potion)"),
     Param("ruby", "float", 1.11, 0, 5, "VP worth of one ruby"),
     *_die_param(1.9), *_press_param(0.11))
    + common_params(**_MASTER_COMMON),
    _master_build,
    "Stops by the optimal stopper's exact solve of the rest of the potion once the bag left is "
    "small enough (max_subbags; before that by expert's one-step rule), with every ending valued "
    "as the chance of winning after it: its VP, its ruby, the bonus die if it reaches the best "
    "potion seen, and the VP that the chips its coins buy add to the bag for the rounds left "
    "(the marginal buyer's estimate, weighted by buys), added to the VP gap to the best other "
    "player and turned into a chance of winning by a logistic per round fitted by quacks train "
    "(the shipped models), so it presses when behind and plays safe when ahead; in the last "
    "round, where every pot is in sight, the chance of beating each other player's pot so far "
    "(last=seen). It buys with "
    "the marginal buyer and takes an explosion's VP or coins by the same estimate, and uses the "
    "flask by the same solve (the pot with and without the white, a full flask kept worth "
    "flask_keep), and the choices of cards, books and the test tube by the same worth in VP; "
    "rubies as expert, the witches by the built-in answer with its own first rounds and "
    "thresholds. Its numbers come from quacks tune against three expert (README); a shipped "
    "model carries the values tuned for its player count (2 players: its own).")

PRESETS = ("cautious", "balanced", "greedy", "pumpkin", "blueyellow", "blackpurple", "greenruby",
           "expected-value", "expert", "optimal", "master", "random")


def parse_strategy(spec: str) -> Strategy:
    """Resolve ``name`` or ``name:key=value,key=value`` against the registry."""
    text = spec.strip()
    name, _, rest = text.partition(":")
    name = name.strip().lower()
    if name not in REGISTRY:
        raise StrategySpecError(f"unknown strategy '{name}'; known: {', '.join(sorted(REGISTRY))}")
    d = REGISTRY[name]
    values = {p.name: p.default for p in d.params}
    by_name = {p.name: p for p in d.params}
    if rest.strip():
        given: set[str] = set()
        for item in split_params(rest):
            if "=" not in item:
                raise StrategySpecError(
                    f"strategy '{spec}': '{item}' is not key=value; parameters of {name}: "
                    f"{', '.join(by_name) or 'none'}"
                )
            k, _, val = item.partition("=")
            k = k.strip()
            if k not in by_name:
                raise StrategySpecError(
                    f"strategy '{spec}': unknown parameter '{k}'; parameters of {name}: "
                    f"{', '.join(by_name) or 'none'}"
                )
            if k in given:
                raise StrategySpecError(f"strategy '{spec}': parameter '{k}' is given twice; "
                                        "give each parameter once")
            given.add(k)
            values[k] = by_name[k].parse(val.strip(), name)
    kinds, params = d.build(values)
    return Strategy(spec=text, name=name, values=values, kinds=kinds, params=params)


def split_params(rest: str) -> list[str]:
    """Split ``k=v,k=v`` where a chip-list value may itself contain commas (``buy=r4,b4``)."""
    out: list[str] = []
    for item in rest.split(","):
        if out and "=" not in item:
            out[-1] += "," + item
        else:
            out.append(item)
    return [o.strip() for o in out if o.strip()]


def split_specs(text: str) -> list[str]:
    """Split a comma-separated list of strategy specs; commas inside ``name:k=v,k=v`` stay.

    An item starts a new spec when its text before any ``=`` names a registered strategy (or has
    a ``:``); otherwise it continues the previous spec's parameters.
    """
    out: list[str] = []
    for item in text.split(","):
        head = item.split("=", 1)[0].strip()
        bare = item.strip().lower()
        if "=" not in item and ":" not in item and bare not in REGISTRY and _is_chip_token(bare):
            starts = False  # a chip or colour continuing a buy list: buy=r4,b4
        else:
            starts = ":" in head or "=" not in item or head.lower() in REGISTRY
        if out and not starts:
            out[-1] += "," + item
        else:
            out.append(item)
    return [o.strip() for o in out if o.strip()]


def _is_chip_token(text: str) -> bool:
    if text in COLOUR_WORDS:
        return True
    try:  # (capped: 'k1x999999999999' is not one chip, and is never expanded)
        return len(parse_chips_capped(text, most=1)) == 1
    except chips.BagSpecError:
        return False


def parse_stop_policy(spec: str) -> tuple[int, np.ndarray]:
    """``white:T``, ``risk:P`` or ``never`` to a stop kind and its parameter row.

    Any registered strategy spec is accepted too (``ev``, ``optimal:coin=0.3``, ``balanced``...):
    its stop rule is used.
    """
    text = spec.strip().lower()
    row = np.zeros(S.PARAM_WIDTH, dtype=np.float64)
    head, _, arg = text.partition(":")
    try:
        if head == "white" and arg:
            t = int(arg)
            if t < 1:
                raise ValueError
            row[: S.ROUND_PARAMS] = t
            return S.STOP_WHITE, row
        if head == "risk" and arg and "=" not in arg:
            p = float(arg)
            if not 0.0 <= p <= 1.0:
                raise ValueError
            row[: S.ROUND_PARAMS] = p
            return S.STOP_RISK, row
        if head == "never" and not arg:
            return S.STOP_NEVER, row
    except ValueError:
        pass
    if head in REGISTRY and not (head in ("white", "risk") and arg and "=" not in arg):
        st = parse_strategy(spec)
        return int(st.kinds[S.SLOT_STOP]), st.params[S.SLOT_STOP].copy()
    raise StrategySpecError(
        f"stop policy '{spec}': expected white:T (T a whole number >= 1), risk:P (0 <= P <= 1), "
        f"never, or a strategy from `quacks strategies` (e.g. ev, optimal, balanced)"
    )
