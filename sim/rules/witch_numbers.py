"""The herb witches as the kernel knows them: numbers, groups, and the built-in strategy's
defaults, and nothing a person reads, all read from each witch's declaration
(``sim.rules.witch_files``: ``WITCH = witch(...)`` in her module), never written here.

Witch ``k`` (1..``PER_GROUP``) of group ``g`` (0.. in ``GROUPS``) is shipped number
``PER_GROUP * g + k``; a user's witch (a rules file) is numbered from 14 once loaded. Per witch:
the first round the built-in strategy calls her (``SP[s, SLOT_WITCH, w]``, shipped witches) and
her thresholds, ``(name, offset, default)`` each (``P_W_*``; offsets 13-27 of the slot's
parameters, after the first rounds; a new one takes the next free offset).

``N_WITCHES``, ``N_GROUPS`` and ``PER_GROUP`` count the shipped witches: the deal, the visitor
and the strategy's question numbers (``WQ_SIX_NEXT = N_WITCHES + 1``) are theirs.
"""

from __future__ import annotations

from sim.rules.declare import WITCH_GROUPS
from sim.rules.witch_files import N_SHIPPED, PER_GROUP, WITCH_LISTENERS, WITCH_SOURCES, witch_source

GROUPS = WITCH_GROUPS
PARAM_FIRST = 13  # SP[s, SLOT_WITCH, 13..]: the thresholds (P_W_*), after p0 and the first rounds


def _entry(src) -> tuple[str, int, tuple]:
    return (src.decl.id, src.decl.first_round, src.decl.params)


# (id, first round, thresholds) in number order, group by group; then a user's witches (kept in
# place: a witch loaded later is seen here)
WITCH_DECK: list[tuple[str, int, tuple]] = [_entry(w) for w in WITCH_SOURCES]
WITCH_IDS: list[str] = [w[0] for w in WITCH_DECK]
N_WITCHES = N_SHIPPED
N_GROUPS = len(GROUPS)
if PER_GROUP * N_GROUPS != N_WITCHES:
    raise ValueError("sim.rules.witch_numbers: every group has as many witches")


def _added(src) -> None:
    WITCH_DECK.append(_entry(src))
    WITCH_IDS.append(src.decl.id)


WITCH_LISTENERS.append(_added)


def witch_number(witch_id: str) -> int:
    """The kernel number (1-12 shipped, 14 a user's) of a witch id."""
    return witch_source(witch_id).decl.number


def witch_group(witch_id: str) -> str:
    """The group of a witch id: potion, buying or points."""
    return witch_source(witch_id).decl.group


def param_offset(name: str) -> int:
    """The offset in ``SP[s, SLOT_WITCH]`` of a witch's declared threshold ``P_W_*``."""
    for _id, _first, params in WITCH_DECK:
        for n, off, _ in params:
            if n == name:
                return off
    raise KeyError(name)


def witch_defaults() -> tuple:
    """The built-in strategy's witch parameters: p0 (0.0), each shipped witch's first round
    (1..N), then every declared threshold at its offset."""
    out: list = [0.0, *(first for _id, first, _params in WITCH_DECK[:N_WITCHES])]
    params = sorted({p[1:] for _id, _first, ps in WITCH_DECK for p in ps})  # a shared one once
    if len({off for off, _ in params}) != len(params) or params[0][0] < PARAM_FIRST:
        raise ValueError("sim.rules.witch_numbers: two thresholds at one offset, or one before "
                         "PARAM_FIRST")
    for off, default in params:
        out += [0] * (off - len(out)) + [default]
    return tuple(out)
