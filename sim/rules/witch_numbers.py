"""The twelve herb witches as the kernel knows them: numbers, groups, and the built-in strategy's
defaults, and nothing a person reads (her phase, text and event fields are in
``sim.rules.witches``, which the kernel does not import: editing a witch's text recompiles no
kernel module).

Witch ``k`` (1..``PER_GROUP``) of group ``g`` (0.. in ``GROUPS``) is number ``PER_GROUP * g + k``:
``WITCH_DECK`` lists them in that order, ``PER_GROUP`` of each group in turn. Per witch: the first
round the built-in strategy calls her (``SP[s, SLOT_WITCH, w]``) and her thresholds, ``(name,
offset, default)`` each (``P_W_*``; offsets 13-27 of the slot's parameters, after the first
rounds; a new one takes the next free offset).
"""

from __future__ import annotations

GROUPS = ("potion", "buying", "points")
PARAM_FIRST = 13  # SP[s, SLOT_WITCH, 13..]: the thresholds (P_W_*), after p0 and the first rounds

# (id, first round, thresholds) in number order, group by group
WITCH_DECK: tuple[tuple[str, int, tuple], ...] = (
    ("second-flask", 1, ()),
    ("six-chips", 6, ()),
    ("whites-back", 4, (("P_W_WHITES", 13, 6),)),
    ("both-rewards", 1, (("P_W_BOTH", 14, 2.0), ("P_W_COIN_VP", 22, 0.25))),
    ("upgrade", 3, ()),
    ("double-coins", 1, (("P_W_COINS", 15, 20),)),
    ("free-twin", 2, (("P_W_TWIN", 17, 12),)),
    ("ruby-coins", 2, (("P_W_RUBY_COINS", 16, 6),)),
    ("colours", 1, (("P_W_COLOURS", 18, 4),)),
    ("bag-points", 1, (("P_W_BAG", 19, 8),)),
    ("ruby-space", 1, (("P_W_RUBIES", 20, 4),)),
    ("cheap-rubies", 1, (("P_W_CHEAP", 21, 4),)),
)
WITCH_IDS: tuple[str, ...] = tuple(w[0] for w in WITCH_DECK)
N_WITCHES = len(WITCH_DECK)
N_GROUPS = len(GROUPS)
PER_GROUP = N_WITCHES // N_GROUPS  # witch k (1..PER_GROUP) of group g is number PER_GROUP * g + k
if PER_GROUP * N_GROUPS != N_WITCHES:
    raise ValueError("sim.rules.witch_numbers: every group has as many witches")


def witch_number(witch_id: str) -> int:
    """The kernel number (1-12) of a witch id."""
    return WITCH_IDS.index(witch_id) + 1


def witch_group(witch_id: str) -> str:
    """The group of a witch id: potion, buying or points."""
    return GROUPS[(witch_number(witch_id) - 1) // PER_GROUP]


def param_offset(name: str) -> int:
    """The offset in ``SP[s, SLOT_WITCH]`` of a witch's declared threshold ``P_W_*``."""
    for _id, _first, params in WITCH_DECK:
        for n, off, _ in params:
            if n == name:
                return off
    raise KeyError(name)


def witch_defaults() -> tuple:
    """The built-in strategy's witch parameters: p0 (0.0), each witch's first round (1..N), then
    every declared threshold at its offset."""
    out: list = [0.0, *(first for _id, first, _params in WITCH_DECK)]
    params = sorted(p[1:] for _id, _first, ps in WITCH_DECK for p in ps)
    if len({off for off, _ in params}) != len(params) or params[0][0] < PARAM_FIRST:
        raise ValueError("sim.rules.witch_numbers: two thresholds at one offset, or one before "
                         "PARAM_FIRST")
    for off, default in params:
        out += [0] * (off - len(out)) + [default]
    return tuple(out)
