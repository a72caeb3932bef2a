"""The twelve herb witches of The Herb Witches expansion, as data: what a person reads of them,
the phase she acts in and a short paraphrase in our own words (component-data.md 10.2 and the
rules seed, with the simulator's readings folded in).

Her number, group and the built-in strategy's defaults are ``sim.rules.witch_numbers`` (the
kernel's part: witch ``k`` of group ``g`` is number ``4 * g + k``,
``sim.kernel.decisions.slots.W_*``; ``first_round`` and ``params``, the defaults in
``WITCH_DEFAULTS``); this module, which no kernel imports, adds to each (by id, in that order):

- ``script``: how a round file's ``witch.<id>`` answers her (``sim.api.round_script``):
  ``SCRIPT_CALL`` true/false (the default), ``SCRIPT_WHITES`` true, 1, 2 or ``{after, whites}``,
  ``SCRIPT_SIX`` ``{after, place}``, ``SCRIPT_POT_ENTRY`` "last2", an index or "none",
  ``SCRIPT_BOUGHT`` the chip bought;
- ``event``: the fields of her ``witch`` event from its ``b`` and ``c`` (``sim.api.events``).

Her effect, her built-in answer and (if special) her scripted one are her own module in
``sim.kernel.witches`` (named after the id), hooked in ``sim.kernel.witches.hooks``. Still fixed
at 3 groups of 4: the event of the deal (three witches), ``WQ_SIX_NEXT = N_WITCHES + 1``, the 12
``SC_WITCH`` entries of a script and the report's ``witches`` column (bit w called, bit 16 + w in
play); see docs/adding-rules.md (c).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sim.rules.chips import chip_name
from sim.rules.witch_numbers import (  # noqa: F401 (GROUPS, N_WITCHES, param_offset: read here)
    GROUPS,
    N_WITCHES,
    WITCH_DECK,
    WITCH_IDS,
    param_offset,
    witch_group,
    witch_number,
)

# Witch.script: the forms of a round file's answer (sim.api.round_script)
SCRIPT_CALL = "call"  # true (call her) or false
SCRIPT_WHITES = "whites"  # true, 1, 2 or {after = N, whites = 1 or 2}: the whites sent back
SCRIPT_SIX = "six"  # {after = N, place = "chips"}: called after N draws, the chips placed in order
SCRIPT_POT_ENTRY = "pot-entry"  # "last2", the index of a chip in the pot, or "none"
SCRIPT_BOUGHT = "bought"  # the one chip just bought she acts on
SCRIPT_FORMS = (SCRIPT_CALL, SCRIPT_WHITES, SCRIPT_SIX, SCRIPT_POT_ENTRY, SCRIPT_BOUGHT)


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


_WORDING = {
    "second-flask": ("potion phase, when the pot explodes",
        "The pot just exploded and the flask is full: the white chip that exploded it goes back "
        "to the bag, the flask empties, and the player may draw on or stop.",
        lambda b, c: {"chip": chip_name(b)}),
    "six-chips": ("potion phase, pot intact",
        "Draw 6 chips; place any of them, in any order, each with its action (into the overflow "
        "bowl past the last space); the rest go back to the bag. Brewing then goes on.",
        lambda b, c: {"drawn": b}, SCRIPT_SIX),
    "whites-back": ("potion phase, pot intact",
        "The last 2 white chips in the pot (or just the last one) go back to the bag, wherever "
        "they lie; their spaces stay empty and the white total drops.", _whites, SCRIPT_WHITES),
    "both-rewards": ("evaluation step A, pot exploded",
        "An exploded player takes both the VP and the coins; if no intact potion reached further, "
        "the player also rolls the bonus die.", lambda b, c: {"reward_space": b}),
    "upgrade": ("buying (step E)",
        "The last 2 chips in the pot each go up one level (1 to 2, 2 to 4), or 1 chip anywhere in "
        "the pot does; never orange or white. The bigger chip comes from the supply into the bag, "
        "the old one goes back. Also after an explosion and taking the VP.",
        lambda b, c: {"chips_upgraded": c}, SCRIPT_POT_ENTRY),
    "double-coins": ("buying (step E); last round: the coin conversion",
        "The coins to buy with are doubled (still at most 2 chips of different colours); in the "
        "last round, the coins turned into VP (5 to 1) are doubled.",
        lambda b, c: {"coins": b, "now": c}),
    "free-twin": ("buying (step E), after the purchases",
        "One chip just bought comes a second time, free (if the supply has one).",
        lambda b, c: {"chip": chip_name(b)}, SCRIPT_BOUGHT),
    "ruby-coins": ("buying (step E)",
        "2 extra coins for every ruby held; the rubies are kept. After an explosion and taking "
        "the VP, these coins alone may be spent.", lambda b, c: {"rubies": b, "coins": c}),
    "colours": ("VP step (D), taking the VP",
        "VP by the number of different non-white colours in the pot (locoweed counts): 1-4 give "
        "3, 5 give 4, 6 give 7, 7 give 10, 8 give 14.", lambda b, c: {"vp": b}),
    "bag-points": ("VP step (D), any player",
        "2 VP for every chip still in the bag that is a non-white 2-, 4- or 6-chip, a purple chip "
        "or a locoweed (white and black chips and other 1-chips score nothing).",
        lambda b, c: {"vp": b}),
    "ruby-space": ("rubies step (C), on a ruby space",
        "The reward space shows a ruby: take as many rubies as its VP instead of the usual ruby "
        "(instead of It's Shining Extra Bright's 2 as well); the VP are scored as usual.",
        lambda b, c: {"rubies": b}),
    "cheap-rubies": ("spending rubies (step F)",
        "This step, droplet moves and flask refills cost 1 ruby each instead of 2, as often as "
        "the player likes (not in the last round's ruby conversion).", lambda b, c: {"rubies": b}),
}
if tuple(_WORDING) != WITCH_IDS:
    raise ValueError("sim.rules.witches: the witches' wording must follow WITCH_DECK, id for id")
WITCHES: tuple[Witch, ...] = tuple(
    Witch(number, witch_id, witch_group(witch_id), phase, text, event, first_round, params,
          *script)
    for number, ((witch_id, first_round, params), (phase, text, event, *script))
    in enumerate(zip(WITCH_DECK, _WORDING.values()), start=1)
)
def witch_by_id(witch_id: str) -> Witch:
    """The witch with id ``witch_id``."""
    return WITCHES[witch_number(witch_id) - 1]


def witch_by_number(number: int) -> Witch:
    """The witch with kernel number ``number`` (1-12)."""
    return WITCHES[number - 1]
