"""The twelve herb witches of The Herb Witches expansion, as data: id, group, the phase she acts
in and a short paraphrase in our own words (component-data.md 10.2 and the rules seed, with the
simulator's readings folded in). The kernel knows a witch by her number
(``sim.kernel.decisions.slots.W_*``): witch ``k`` of group ``g`` is number ``4 * g + k``.
"""

from __future__ import annotations

from dataclasses import dataclass

GROUPS = ("potion", "buying", "points")


@dataclass(frozen=True)
class Witch:
    """One herb witch."""

    number: int
    id: str
    group: str
    phase: str
    text: str

    def as_json(self) -> dict:
        return {"id": self.id, "number": self.number, "group": self.group, "phase": self.phase,
                "text": self.text}


WITCHES: tuple[Witch, ...] = (
    Witch(1, "second-flask", "potion", "potion phase, when the pot explodes",
          "The pot just exploded and the flask is full: the white chip that exploded it goes back "
          "to the bag, the flask empties, and the player may draw on or stop."),
    Witch(2, "six-chips", "potion", "potion phase, pot intact",
          "Draw 6 chips; place any of them, in any order, each with its action (into the overflow "
          "bowl past the last space); the rest go back to the bag. Brewing then goes on."),
    Witch(3, "whites-back", "potion", "potion phase, pot intact",
          "The last 2 white chips in the pot (or just the last one) go back to the bag, wherever "
          "they lie; their spaces stay empty and the white total drops."),
    Witch(4, "both-rewards", "potion", "evaluation step A, pot exploded",
          "An exploded player takes both the VP and the coins; if no intact potion reached further, "
          "the player also rolls the bonus die."),
    Witch(5, "upgrade", "buying", "buying (step E)",
          "The last 2 chips in the pot each go up one level (1 to 2, 2 to 4), or 1 chip anywhere in "
          "the pot does; never orange or white. The bigger chip comes from the supply into the bag, "
          "the old one goes back. Also after an explosion and taking the VP."),
    Witch(6, "double-coins", "buying", "buying (step E); last round: the coin conversion",
          "The coins to buy with are doubled (still at most 2 chips of different colours); in the "
          "last round, the coins turned into VP (5 to 1) are doubled."),
    Witch(7, "free-twin", "buying", "buying (step E), after the purchases",
          "One chip just bought comes a second time, free (if the supply has one)."),
    Witch(8, "ruby-coins", "buying", "buying (step E)",
          "2 extra coins for every ruby held; the rubies are kept. After an explosion and taking the "
          "VP, these coins alone may be spent."),
    Witch(9, "colours", "points", "VP step (D), taking the VP",
          "VP by the number of different non-white colours in the pot (locoweed counts): 1-4 give "
          "3, 5 give 4, 6 give 7, 7 give 10, 8 give 14."),
    Witch(10, "bag-points", "points", "VP step (D), any player",
          "2 VP for every chip still in the bag that is a non-white 2-, 4- or 6-chip, a purple chip "
          "or a locoweed (white and black chips and other 1-chips score nothing)."),
    Witch(11, "ruby-space", "points", "rubies step (C), on a ruby space",
          "The reward space shows a ruby: take as many rubies as its VP instead of the usual ruby "
          "(instead of It's Shining Extra Bright's 2 as well); the VP are scored as usual."),
    Witch(12, "cheap-rubies", "points", "spending rubies (step F)",
          "This step, droplet moves and flask refills cost 1 ruby each instead of 2, as often as the "
          "player likes (not in the last round's ruby conversion)."),
)
WITCH_IDS = tuple(w.id for w in WITCHES)
_BY_ID = {w.id: w for w in WITCHES}


def witch_number(witch_id: str) -> int:
    """The kernel number (1-12) of a witch id."""
    return _BY_ID[witch_id].number


def witch_group(witch_id: str) -> str:
    """The group of a witch id: potion, buying or points."""
    return _BY_ID[witch_id].group


def witch_by_number(number: int) -> Witch:
    """The witch with kernel number ``number`` (1-12)."""
    return WITCHES[number - 1]
