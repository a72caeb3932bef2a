"""The herb witches of The Herb Witches expansion, as data: what a person reads of them (her name,
the phase she acts in and a short paraphrase in our own words: component-data.md 10.2 and the
rules seed, with the simulator's readings folded in), read from each witch's declaration in her
module (``WITCH = witch(...)``, ``sim.rules.declare``; ``sim.rules.witch_files`` reads it without
importing the kernel), the shipped ones in ``sim/kernel/witches/`` and a user's from a rules file.

Her number, group and the built-in strategy's defaults are ``sim.rules.witch_numbers`` (the
kernel's part: witch ``k`` of group ``g`` is number ``4 * g + k``,
``sim.kernel.decisions.slots.W_*``; ``first_round`` and ``params``, the defaults in
``WITCH_DEFAULTS``). Her declaration also gives:

- ``script``: how a round file's ``witch.<id>`` answers her (``sim.api.round_script``):
  ``SCRIPT_CALL`` true/false (the default), ``SCRIPT_WHITES`` true, 1, 2 or ``{after, whites}``,
  ``SCRIPT_SIX`` ``{after, place}``, ``SCRIPT_POT_ENTRY`` "last2", an index or "none",
  ``SCRIPT_BOUGHT`` the chip bought;
- ``events``: her events (``event(...)``), the first her call's ``witch`` event with the fields
  of its ``b`` and ``c`` (``sim.api.event_table``).

Her effect, her built-in answer and (if special) her scripted one are the functions of her
module, called through the generated hook table ``sim.kernel.witches.hooks``. Still fixed at 3
groups of 4 shipped witches: the event of the deal (three witches), ``WQ_SIX_NEXT = N_WITCHES +
1``, the 12 ``SC_WITCH`` entries of a script and the report's ``witches`` column (bit w called,
bit 16 + w in play); see docs/adding-rules.md (c).
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.rules.witch_declare import SCRIPT_CALL
from sim.rules.witch_files import WITCH_LISTENERS, WITCH_SOURCES, WitchSource
from sim.rules.witch_numbers import (  # noqa: F401 (GROUPS, N_WITCHES, param_offset: read here)
    GROUPS,
    N_WITCHES,
    WITCH_DECK,
    WITCH_IDS,
    param_offset,
    witch_group,
    witch_number,
)


@dataclass(frozen=True)
class Witch:
    """One herb witch."""

    number: int
    id: str
    group: str
    phase: str
    text: str
    events: tuple  # her events (``event(...)``): her call's (``witch``) first
    first_round: int = 1  # the built-in strategy calls her from this round on
    params: tuple = ()  # (P_W_* name, offset, default): her thresholds in the built-in strategy
    script: str = SCRIPT_CALL  # the form of a round file's answer
    name: str = ""
    user: bool = False  # from a rules file

    def as_json(self) -> dict:
        return {"id": self.id, "number": self.number, "group": self.group, "phase": self.phase,
                "text": self.text}


def _witch(src: WitchSource) -> Witch:
    d = src.decl
    return Witch(d.number, d.id, d.group, d.phase, d.doc, d.events, d.first_round, d.params,
                 d.script, d.name, not src.module)


# every known witch in number order (a user's joins once loaded)
WITCHES: list[Witch] = [_witch(w) for w in WITCH_SOURCES]
WITCH_LISTENERS.append(lambda src: WITCHES.append(_witch(src)))


def witch_by_id(witch_id: str) -> Witch:
    """The witch with id ``witch_id``."""
    return witch_by_number(witch_number(witch_id))


def witch_by_number(number: int) -> Witch:
    """The witch with kernel number ``number`` (1-12 shipped, 14 a user's); IndexError for a
    number no witch has."""
    for w in WITCHES:
        if w.number == number:
            return w
    raise IndexError(f"no witch has number {number}")
