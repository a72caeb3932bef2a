"""A ruleset as the kernels take it: the rules scalars array ``R`` (``sim.kernel.layout.R_*``).

The rules package describes a ruleset as data and knows nothing of the kernel's layout; packing
it into the kernel's array is the api's job.
"""

from __future__ import annotations

import numpy as np

from sim.kernel import layout as L
from sim.rules import chips
from sim.rules.cards import CARDS, card_number, in_deck
from sim.rules.ruleset import Ruleset
from sim.rules.schema import CHIP_KEYS, INFO_MODELS, TRACK_LEN
from sim.rules.witches import GROUPS, witch_group, witch_number


def rules_scalars(ruleset: Ruleset) -> np.ndarray:
    """The rules scalars array ``R`` the kernels take (layout ``sim.kernel.layout.R_*``)."""
    g = ruleset.data["game"]
    R = np.zeros(L.R_WIDTH, dtype=np.int64)
    R[L.R_ROUNDS] = g["rounds"]
    R[L.R_LIMIT] = g["explosion_limit"]
    R[L.R_WHITE_ROUND] = g["round_white_chip"]
    R[L.R_MAX_BUYS] = g["max_buys"]
    R[L.R_RUBY_DROPLET] = g["ruby_cost_droplet"]
    R[L.R_RUBY_FLASK] = g["ruby_cost_flask"]
    R[L.R_FINAL_COINS] = g["final_coins_per_vp"]
    R[L.R_FINAL_RUBIES] = g["final_rubies_per_vp"]
    R[L.R_FLASK_REUSE] = 1 if g["flask_space"] == "reuse" else 0
    R[L.R_INFO] = INFO_MODELS.index(g["info_model"])
    R[L.R_FINAL_INFO] = INFO_MODELS.index(g["final_info_model"])
    R[L.R_RATS_FROM] = g["rats_from_round"]
    R[L.R_LAST] = ruleset.data["track"]["last_chip_space"]
    R[L.R_LAP] = ruleset.data["rats"]["lap"]
    R[L.R_START_RUBIES] = g["starting_rubies"]
    R[L.R_START_DROPLET] = g["starting_droplet"]
    R[L.R_BOOK : L.R_BOOK + chips.N_COLOURS] = ruleset.book_set
    R[L.R_COINS : L.R_COINS + TRACK_LEN] = ruleset.coins
    R[L.R_VP : L.R_VP + TRACK_LEN] = ruleset.vp
    R[L.R_RUBY : L.R_RUBY + TRACK_LEN] = ruleset.ruby
    R[L.R_PRICE : L.R_PRICE + chips.N_TYPES] = ruleset.price
    R[L.R_BOOK_ROUND : L.R_BOOK_ROUND + chips.N_COLOURS] = ruleset.book_round
    cards = ruleset.data["cards"]
    R[L.R_DECK] = 1 if cards["deck"] else 0
    out = {card_number(c) for c in cards["exclude"]}
    extra = {card_number(c) for c in cards["extra"]}  # a user's card is in a deck only so
    witches = ruleset.data["witches"]["enabled"]  # a witch-hat card needs the witches
    R[L.R_CARD_MASK] = sum(1 << c.number for c in CARDS
                           if ((in_deck(c, witches) and not c.source) or c.number in extra)
                           and c.number not in out)
    order = [card_number(c) for c in cards["order"] if card_number(c) not in out]
    R[L.R_CARD_ORDER_N] = len(order)
    R[L.R_CARD_ORDER : L.R_CARD_ORDER + len(order)] = order
    R[L.R_CARD_FORCE] = card_number(cards["force"]) if cards["force"] else 0
    R[L.R_CARD_FORCE_ROUND] = cards["force_round"]
    pot = ruleset.data["pot"]
    R[L.R_TUBE] = 1 if pot["side"] == "test-tube" else 0
    R[L.R_TEAMS] = 1 if g["teams"] else 0
    for i, v in enumerate(pot["test_tube"]):
        R[L.R_TUBE_GLASS + 1 + i] = glass_code(v)
    R[L.R_BOWL] = 1 if g["overflow_bowl"] else 0
    R[L.R_PENNY_VP] = g["penny_vp"]
    w = ruleset.data["witches"]
    R[L.R_WITCHES] = 1 if w["enabled"] else 0
    for wid in w["fixed"]:
        R[L.R_WITCH_FIXED + GROUPS.index(witch_group(wid))] = witch_number(wid)
    for wid in w["extra"]:
        R[L.R_WITCH_EXTRA + GROUPS.index(witch_group(wid))] = witch_number(wid)
    return R


def glass_code(v: str) -> int:
    """A test-tube glass bonus (``ruby``, ``ruby:N``, ``vp:N`` or a chip such as ``b1``) as the
    kernel's code (``sim.kernel.layout.TUBE_*``)."""
    if v == "ruby":
        return L.TUBE_RUBY + 1
    if v.startswith("ruby:"):
        return L.TUBE_RUBY + int(v[5:])
    if v.startswith("vp:"):
        return L.TUBE_VP + int(v[3:])
    return CHIP_KEYS.index(v)
