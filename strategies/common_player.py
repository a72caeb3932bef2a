"""The parameters every complete built-in player takes (flask, buyer and buy list, the marginal
buyer's values, explosion and ruby rules, the test tube, the witches), declared once
(``common_params``) and written into a strategy's arrays (``apply_common``)."""

from __future__ import annotations

import numpy as np

from sim.kernel.decisions import slots as S
from sim.rules.chips import COLOUR_NAMES, TYPE_COLOUR, WHITE
from sim.rules.witch_files import FIRST_USER_WITCH, USER_OFF
from sim.rules.witches import WITCHES, witch_number
from strategies.spec_types import Param, chip_types

DEFAULT_BUY = ["r4", "b4", "y4", "g4", "p1", "k1", "r2", "b2", "y2", "g2", "o1", "r1", "b1"]
# VP per coin, by round (index 0: outside a game): coins buy chips early, are worth 1/5 VP at the
# end
DEFAULT_COIN_VALUE = [0.3, 0.5, 0.45, 0.4, 0.35, 0.3, 0.25, 0.2, 0.15, 0.2]
BUYERS = ("priority", "expensive", "value", "percoin", "marginal", "random", "none")
_BUY_KIND = {"priority": S.BUY_PRIORITY, "expensive": S.BUY_EXPENSIVE, "value": S.BUY_VALUE,
             "percoin": S.BUY_PER_COIN, "marginal": S.BUY_MARGINAL, "random": S.BUY_RANDOM,
             "none": S.BUY_NOTHING}
# buyer=marginal: its parameter, the SP index it fills, and the default
MARGINAL_PARAMS = (("mg_stop", S.P_MG_STOP, 6.0), ("mg_space", S.P_MG_SPACE, 0.5),
                   ("mg_yellow", S.P_MG_YELLOW, 2.0), ("mg_ruby", S.P_MG_RUBY, 1.0),
                   ("mg_purple", S.P_MG_PURPLE, 1.0), ("mg_black", S.P_MG_BLACK, 2.0),
                   ("mg_horizon", S.P_MG_HORIZON, 1.0), ("mg_size", S.P_MG_SIZE, 1.0))
# buyer=marginal: one weight per non-white colour on the worth the model gives its chips
# (``worth_orange`` ... ``worth_locoweed``), written into the buy slot at each listed chip type
WORTH_PARAMS = tuple((f"worth_{name}", colour) for colour, name in enumerate(COLOUR_NAMES)
                     if colour != WHITE)

# witches=default: the built-in answer's knobs, from each witch's declaration (sim.rules.witches):
# the first round she is called in (``<id>_from``) and her thresholds (``w_<name>``, P_W_<NAME>)
WITCH_ROUND_PARAMS = tuple((f"{w.id}_from", w.number, w.first_round) for w in WITCHES)
WITCH_THRESHOLD_PARAMS = tuple((f"w_{name[len('P_W_'):].lower()}", offset, default, w.id)
                               for w in WITCHES for name, offset, default in w.params)


def common_params(*, flask=2, buyer="priority", buy=None, coins_until=6, droplet_until=8,
                   refill=1, flask_white=0, rubies="rounds", space_worth=0.5,
                   flask_worth=0.3, mg=None, witch=None) -> tuple[Param, ...]:
    mg = {**{k: d for k, _, d in MARGINAL_PARAMS}, **{k: 1.0 for k, _ in WORTH_PARAMS},
          **(mg or {})}
    return (
        Param("flask", "int", flask, 0, 3,
              "use the flask on a white of at least this value (0 never)"),
        Param("flask_white", "int", flask_white, 0, 30,
              "use the flask only if the white total is then at least this"),
        Param("buyer", "choice", buyer,
              help="how to buy: priority list, most expensive, best total "
              "value, best value per coin, marginal (what a chip adds to the bag for the rounds "
              "left), random or nothing", choices=BUYERS),
        Param("buy", "chips", list(buy or DEFAULT_BUY), help="chips or colours, best first (the "
              "priority list; for expensive/value/percoin/marginal: the chips considered; for "
              "value and percoin earlier worth more)"),
        Param("coins_until", "int", coins_until, 0, 20,
              "an exploded pot takes the coins up to this round, "
              "then the VP (the last round takes whichever is worth more)"),
        Param("droplet_until", "int", droplet_until, 0, 20,
              "spend rubies on droplet moves up to this round"),
        Param("refill", "int", refill, 0, 1,
              "refill an empty flask (2 rubies) before droplet moves"),
        Param("rubies", "choice", rubies,
              help="how to spend rubies: by round (refill, then droplet "
              "moves up to droplet_until) or by value (each spending whose worth for the rounds "
              "left beats keeping the rubies: space_worth, flask_worth, ruby_keep)",
              choices=RUBY_RULES),
        Param("space_worth", "float", space_worth, 0, 10, "rubies=value: VP worth of one droplet "
              "space for each round still to play"),
        Param("flask_worth", "float", flask_worth, 0, 10, "rubies=value: VP worth of a full flask "
              "for each round still to play"),
        Param("ruby_keep", "float", 0.5, 0, 10, "rubies=value: VP worth of keeping one ruby "
              "(2 rubies are 1 VP at the end)"),
        Param("mg_stop", "float", mg["mg_stop"], 1, 30, "buyer=marginal: the white total its bag "
              "model stops at (a non-white chip counts if drawn before the whites reach it)"),
        Param("mg_space", "float", mg["mg_space"], 0, 10, "buyer=marginal: VP of one space a drawn "
              "chip moves the pot"),
        Param("mg_yellow", "float", mg["mg_yellow"], 0, 10, "buyer=marginal: spaces a yellow chip "
              "adds by sending a white back"),
        Param("mg_ruby", "float", mg["mg_ruby"], 0, 10, "buyer=marginal: VP of the ruby a green "
              "chip at the end of the pot pays"),
        Param("mg_purple", "float", mg["mg_purple"], 0, 10,
              "buyer=marginal: VP of a drawn purple chip"),
        Param("mg_black", "float", mg["mg_black"], 0, 10,
              "buyer=marginal: VP of a drawn black chip "
              "that breaks a tie with a neighbour's pot (times the chance it does)"),
        Param("mg_horizon", "float", mg["mg_horizon"], 0, 3, "buyer=marginal: a chip's worth "
              "grows as (rounds left) to this power (1: in proportion)"),
        Param("mg_size", "float", mg["mg_size"], 0, 3, "buyer=marginal: a chip of value v moves "
              "the pot v to this power spaces in the model (1: its value)"),
        *(Param(key, "float", mg[key], 0, 5, f"buyer=marginal: weight of the worth the model "
                f"gives a {COLOUR_NAMES[colour]} chip (1 as it says; 0 never buys one)")
          for key, colour in WORTH_PARAMS),
        Param("tube", "choice", "value",
              help="test-tube side only: where each droplet move goes: the "
              "glass when its bonus is worth more than the pot spaces it gives up (value), always "
              "the pot, or always the tube", choices=TUBE_CHOICES),
        Param("tube_space", "float", S.TUBE_DEFAULTS[0], 0, 10, "tube=value: VP worth of one pot "
              "space for one round (a glass is taken when its bonus beats this x rounds left)"),
        Param("witches", "choice", "default",
              help="Herb Witches only: call each witch in play when "
              "her gain passes the default thresholds (default), or keep every penny for its 2 VP "
              "(never)", choices=WITCH_CHOICES),
        Param("witch_off", "witches", [], help="Herb Witches only: witches this seat never "
              "calls, not even in the last round (e.g. witch_off=upgrade/free-twin; quacks "
              "balance measures a witch's worth with it)"),
        *(Param(key, "int", (witch or {}).get(key, first), 1, 20,
                f"Herb Witches, witches=default: the first round {key[:-len('_from')]} is called "
                "in (in the last round she is called whenever she beats the penny)")
          for key, _, first in WITCH_ROUND_PARAMS),
        *(Param(key, "float", (witch or {}).get(key, default), 0, 100,
                f"Herb Witches, witches=default: a number of {wid}'s built-in answer (a "
                "threshold her gain must reach; w_coin_vp: a coin's VP; README: Herb Witches)")
          for key, _, default, wid in WITCH_THRESHOLD_PARAMS),
    )


TUBE_CHOICES = ("value", "pot", "tube")
WITCH_CHOICES = ("default", "never")
RUBY_RULES = ("rounds", "value")
_TUBE_KIND = {"value": S.TUBE_VALUE, "pot": S.TUBE_POT, "tube": S.TUBE_ALWAYS}


def chip_values(types_: list[int]) -> dict[int, float]:
    """What the value and per-coin buyers take a listed chip to be worth: its price in the base
    game (the designers' own scale of a chip's worth) times a preference weight from 2 for the
    first chip listed down to 1 for the last. The value buyer then buys the legal pair of the
    greatest total worth; the per-coin buyer goes by the weight, that is, by the list."""
    from sim.rules.ruleset import load_ruleset

    price = load_ruleset("base").price
    n = len(types_)
    return {t: float(max(price[t], 1)) * (1.0 + (n - 1 - i) / max(n, 1))
            for i, t in enumerate(types_)}


def apply_common(v: dict, kinds: np.ndarray, params: np.ndarray) -> None:
    kinds[S.SLOT_FLASK] = S.FLASK_MIN if v["flask"] > 0 else S.FLASK_NEVER
    params[S.SLOT_FLASK, 0] = v["flask"]
    params[S.SLOT_FLASK, 1] = v["flask_white"]
    kinds[S.SLOT_BLUE] = S.BLUE_BEST
    kinds[S.SLOT_YELLOW] = S.YELLOW_ALWAYS
    kinds[S.SLOT_EXPLODE] = S.EXPLODE_BY_ROUND
    params[S.SLOT_EXPLODE, 0] = v["coins_until"]
    buyer = v["buyer"]
    kinds[S.SLOT_BUY] = _BUY_KIND[buyer]
    types_ = chip_types(v["buy"])
    if buyer == "priority":
        params[S.SLOT_BUY, :] = -1
        for i, t in enumerate(types_[: S.PARAM_WIDTH]):
            params[S.SLOT_BUY, i] = t
    elif buyer == "expensive":
        params[S.SLOT_BUY, :] = 0
        for i, t in enumerate(types_):
            params[S.SLOT_BUY, t] = len(types_) - i  # > 0 marks the chips considered
    elif buyer in ("value", "percoin"):
        params[S.SLOT_BUY, :] = 0
        for t, worth in chip_values(types_).items():
            params[S.SLOT_BUY, t] = worth
    elif buyer == "marginal":
        params[S.SLOT_BUY, :] = 0
        weight = {colour: v[key] for key, colour in WORTH_PARAMS}
        for t in types_:
            params[S.SLOT_BUY, t] = weight[int(TYPE_COLOUR[t])]  # <= 0: never bought
        for key, index, _ in MARGINAL_PARAMS:
            params[S.SLOT_BUY, index] = v[key]
    if v["rubies"] == "value":
        kinds[S.SLOT_RUBY] = S.RUBY_VALUE
        params[S.SLOT_RUBY, 0] = v["space_worth"]
        params[S.SLOT_RUBY, 1] = v["flask_worth"]
        params[S.SLOT_RUBY, 2] = v["ruby_keep"]
    else:
        kinds[S.SLOT_RUBY] = S.RUBY_DEFAULT
        params[S.SLOT_RUBY, 0] = v["refill"]
        params[S.SLOT_RUBY, 1] = v["droplet_until"]
    kinds[S.SLOT_PURPLE] = S.PURPLE_MAX
    kinds[S.SLOT_RED] = S.RED_ALWAYS
    kinds[S.SLOT_TUBE] = _TUBE_KIND[v["tube"]]
    params[S.SLOT_TUBE, S.P_TUBE_SPACE] = v["tube_space"]
    kinds[S.SLOT_WITCH] = S.WITCH_NEVER if v["witches"] == "never" else S.WITCH_DEFAULT
    for key, index, _ in WITCH_ROUND_PARAMS:
        params[S.SLOT_WITCH, index] = v[key]
    for key, index, _, _ in WITCH_THRESHOLD_PARAMS:
        params[S.SLOT_WITCH, index] = v[key]
    for w in v["witch_off"]:  # a rules file's witch: her bit of the user witches' mask
        n = witch_number(w)
        if n <= S.N_WITCHES:
            params[S.SLOT_WITCH, n] = S.WITCH_OFF
        else:
            params[S.SLOT_WITCH, USER_OFF] += 1 << (n - FIRST_USER_WITCH)
