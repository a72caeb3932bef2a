"""The twelve herb witches of The Herb Witches expansion, as data: id, group, the phase she acts
in and a short paraphrase in our own words (component-data.md 10.2 and the rules seed, with the
simulator's readings folded in). The kernel knows a witch by her number
(``sim.kernel.decisions.slots.W_*``): witch ``k`` of group ``g`` is number ``4 * g + k``.

This is the one declaration of a witch; her effect, her built-in answer and (if special) her
scripted one are her own module in ``sim.kernel.witches`` (named after the id), hooked in
``sim.kernel.witches.hooks``. What the rest needs to know of her is here too:

- ``first_round`` and ``params``: the built-in strategy's defaults (``WITCH_DEFAULTS`` in
  ``sim.kernel.decisions.slots``): the first round she is called in (``SP[s, SLOT_WITCH, w]``)
  and her thresholds, ``(name, offset, default)`` each (``P_W_*``; offsets 13-27 of the slot's
  parameters, after the first rounds; a new one takes the next free offset);
- ``script``: how a round file's ``witch.<id>`` answers her (``sim.api.round_script``):
  ``SCRIPT_CALL`` true/false (the default), ``SCRIPT_WHITES`` true, 1, 2 or ``{after, whites}``,
  ``SCRIPT_SIX`` ``{after, place}``, ``SCRIPT_POT_ENTRY`` "last2", an index or "none",
  ``SCRIPT_BOUGHT`` the chip bought;
- ``event``: the fields of her ``witch`` event from its ``b`` and ``c`` (``sim.api.events``).

The counts the kernel loops over (``N_WITCHES``, ``N_GROUPS``, ``PER_GROUP``) come from here; the
numbering ``4 * g + k`` is checked at import. Still fixed at 3 groups of 4: the event of the deal
(three witches), ``WQ_SIX_NEXT = N_WITCHES + 1``, the 12 ``SC_WITCH`` entries of a script and the
report's ``witches`` column (bit w called, bit 16 + w in play); see docs/adding-rules.md (c).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sim.rules.chips import chip_name

GROUPS = ("potion", "buying", "points")

# Witch.script: the forms of a round file's answer (sim.api.round_script)
SCRIPT_CALL = "call"  # true (call her) or false
SCRIPT_WHITES = "whites"  # true, 1, 2 or {after = N, whites = 1 or 2}: the whites sent back
SCRIPT_SIX = "six"  # {after = N, place = "chips"}: called after N draws, the chips placed in order
SCRIPT_POT_ENTRY = "pot-entry"  # "last2", the index of a chip in the pot, or "none"
SCRIPT_BOUGHT = "bought"  # the one chip just bought she acts on
SCRIPT_FORMS = (SCRIPT_CALL, SCRIPT_WHITES, SCRIPT_SIX, SCRIPT_POT_ENTRY, SCRIPT_BOUGHT)
PARAM_FIRST = 13  # SP[s, SLOT_WITCH, 13..]: the thresholds (P_W_*), after p0 and the first rounds


def _whites(b: int, c: int) -> dict:
    """whites-back: b whites went back, their types packed in c (32 * (first + 1) + second + 1)."""
    return {"whites": b, "chips": [chip_name(x % 32 - 1) for x in (c // 32, c) if x % 32]}


@dataclass(frozen=True)
class Witch:
    """One herb witch."""

    number: int
    id: str
    group: str
    phase: str
    text: str
    event: Callable[[int, int], dict]  # (b, c) of her EV_WITCH -> the event's fields
    first_round: int = 1  # the built-in strategy calls her from this round on
    params: tuple = ()  # (P_W_* name, offset, default): her thresholds in the built-in strategy
    script: str = SCRIPT_CALL  # the form of a round file's answer

    def as_json(self) -> dict:
        return {"id": self.id, "number": self.number, "group": self.group, "phase": self.phase,
                "text": self.text}


WITCHES: tuple[Witch, ...] = (
    Witch(1, "second-flask", "potion", "potion phase, when the pot explodes",
          "The pot just exploded and the flask is full: the white chip that exploded it goes back "
          "to the bag, the flask empties, and the player may draw on or stop.",
          lambda b, c: {"chip": chip_name(b)}, first_round=1),
    Witch(2, "six-chips", "potion", "potion phase, pot intact",
          "Draw 6 chips; place any of them, in any order, each with its action (into the overflow "
          "bowl past the last space); the rest go back to the bag. Brewing then goes on.",
          lambda b, c: {"drawn": b}, first_round=6, script=SCRIPT_SIX),
    Witch(3, "whites-back", "potion", "potion phase, pot intact",
          "The last 2 white chips in the pot (or just the last one) go back to the bag, wherever "
          "they lie; their spaces stay empty and the white total drops.",
          _whites, first_round=4, params=(("P_W_WHITES", 13, 6),), script=SCRIPT_WHITES),
    Witch(4, "both-rewards", "potion", "evaluation step A, pot exploded",
          "An exploded player takes both the VP and the coins; if no intact potion reached "
          "further, the player also rolls the bonus die.",
          lambda b, c: {"reward_space": b}, first_round=1,
          params=(("P_W_BOTH", 14, 2.0), ("P_W_COIN_VP", 22, 0.25))),
    Witch(5, "upgrade", "buying", "buying (step E)",
          "The last 2 chips in the pot each go up one level (1 to 2, 2 to 4), or 1 chip anywhere "
          "in the pot does; never orange or white. The bigger chip comes from the supply into the "
          "bag, the old one goes back. Also after an explosion and taking the VP.",
          lambda b, c: {"chips_upgraded": c}, first_round=3, script=SCRIPT_POT_ENTRY),
    Witch(6, "double-coins", "buying", "buying (step E); last round: the coin conversion",
          "The coins to buy with are doubled (still at most 2 chips of different colours); in the "
          "last round, the coins turned into VP (5 to 1) are doubled.",
          lambda b, c: {"coins": b, "now": c}, first_round=1, params=(("P_W_COINS", 15, 20),)),
    Witch(7, "free-twin", "buying", "buying (step E), after the purchases",
          "One chip just bought comes a second time, free (if the supply has one).",
          lambda b, c: {"chip": chip_name(b)}, first_round=2, params=(("P_W_TWIN", 17, 12),),
          script=SCRIPT_BOUGHT),
    Witch(8, "ruby-coins", "buying", "buying (step E)",
          "2 extra coins for every ruby held; the rubies are kept. After an explosion and taking "
          "the VP, these coins alone may be spent.",
          lambda b, c: {"rubies": b, "coins": c}, first_round=2,
          params=(("P_W_RUBY_COINS", 16, 6),)),
    Witch(9, "colours", "points", "VP step (D), taking the VP",
          "VP by the number of different non-white colours in the pot (locoweed counts): 1-4 give "
          "3, 5 give 4, 6 give 7, 7 give 10, 8 give 14.",
          lambda b, c: {"vp": b}, first_round=1, params=(("P_W_COLOURS", 18, 4),)),
    Witch(10, "bag-points", "points", "VP step (D), any player",
          "2 VP for every chip still in the bag that is a non-white 2-, 4- or 6-chip, a purple "
          "chip or a locoweed (white and black chips and other 1-chips score nothing).",
          lambda b, c: {"vp": b}, first_round=1, params=(("P_W_BAG", 19, 8),)),
    Witch(11, "ruby-space", "points", "rubies step (C), on a ruby space",
          "The reward space shows a ruby: take as many rubies as its VP instead of the usual ruby "
          "(instead of It's Shining Extra Bright's 2 as well); the VP are scored as usual.",
          lambda b, c: {"rubies": b}, first_round=1, params=(("P_W_RUBIES", 20, 4),)),
    Witch(12, "cheap-rubies", "points", "spending rubies (step F)",
          "This step, droplet moves and flask refills cost 1 ruby each instead of 2, as often as "
          "the player likes (not in the last round's ruby conversion).",
          lambda b, c: {"rubies": b}, first_round=1, params=(("P_W_CHEAP", 21, 4),)),
)
WITCH_IDS = tuple(w.id for w in WITCHES)
_BY_ID = {w.id: w for w in WITCHES}
N_WITCHES = len(WITCHES)
N_GROUPS = len(GROUPS)
PER_GROUP = N_WITCHES // N_GROUPS  # witch k (1..PER_GROUP) of group g is number PER_GROUP * g + k
assert all(w.number == i + 1 and w.group == GROUPS[i // PER_GROUP] for i, w in enumerate(WITCHES))


def witch_number(witch_id: str) -> int:
    """The kernel number (1-12) of a witch id."""
    return _BY_ID[witch_id].number


def witch_group(witch_id: str) -> str:
    """The group of a witch id: potion, buying or points."""
    return _BY_ID[witch_id].group


def witch_by_id(witch_id: str) -> Witch:
    """The witch with id ``witch_id``."""
    return _BY_ID[witch_id]


def witch_by_number(number: int) -> Witch:
    """The witch with kernel number ``number`` (1-12)."""
    return WITCHES[number - 1]


def param_offset(name: str) -> int:
    """The offset in ``SP[s, SLOT_WITCH]`` of a witch's declared threshold ``P_W_*``."""
    for w in WITCHES:
        for n, off, _ in w.params:
            if n == name:
                return off
    raise KeyError(name)


def witch_defaults() -> tuple:
    """The built-in strategy's witch parameters: p0 (0.0), each witch's first round (1..N), then
    every declared threshold at its offset."""
    out: list = [0.0, *(w.first_round for w in WITCHES)]
    params = sorted(p[1:] for w in WITCHES for p in w.params)
    assert len({off for off, _ in params}) == len(params) and params[0][0] >= PARAM_FIRST
    for off, default in params:
        out += [0] * (off - len(out)) + [default]
    return tuple(out)
