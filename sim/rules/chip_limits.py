"""Bag notation with a cap on its chip count, checked before any list is built.

``w1x99999999999`` is short to type but stands for a list of a hundred billion chips; every
command that reads bag notation from the user (a potion bag, forced draws, threshold bags,
round files, strategy chip lists) reads it through :func:`parse_chips_capped`, which adds up
the counts first and refuses more than the place can hold with one
:class:`~sim.rules.chips.BagSpecError`, so nothing is expanded that could not be used.
"""

from __future__ import annotations

import re

from sim.rules.chips import STARTING_BAG_SPEC, BagSpecError, parse_chips

_ITEM = re.compile(r"^([a-z])(\d+)(?:x(\d+))?$")
_HUGE = 10**18  # a count or value with more digits than this is "huge" (never converted)


def _number(digits: str) -> int:
    return int(digits) if len(digits) <= 18 else _HUGE


def chip_count(spec: str, starting: str | None = None) -> int:
    """How many chips bag notation stands for, without building the list (an item that is not
    bag notation counts as one chip: :func:`~sim.rules.chips.parse_chips` names it)."""
    text = spec.replace(" ", "").lower()
    if not text:
        return 0
    total = 0
    for item in text.split(","):
        if item == "start":
            total += len(parse_chips(starting or STARTING_BAG_SPEC))
            continue
        m = _ITEM.match(item)
        total += _number(m.group(3)) if m and m.group(3) is not None else 1
    return total


def parse_chips_capped(spec: str, *, most: int, what: str = "bag",
                       starting: str | None = None) -> list[int]:
    """:func:`~sim.rules.chips.parse_chips`, after checking that the notation stands for at
    most ``most`` chips and that no chip value is absurdly long (BagSpecError otherwise)."""
    for item in spec.replace(" ", "").lower().split(","):
        m = _ITEM.match(item)
        if m and len(m.group(2)) > 3:
            raise BagSpecError(f"{what} '{spec}': there is no chip '{item[:12]}...'")
    n = chip_count(spec, starting)
    if n > most:
        many = f"{n:,}" if n < _HUGE else "too many"
        raise BagSpecError(f"{what} '{spec}': {many} chips; at most {most}")
    return parse_chips(spec, what=what, starting=starting)
