"""Reading the herb witches' declarations from their modules, without importing them.

A witch is one module (``sim.rules.declare.witch``): the shipped ones in ``sim/kernel/witches/``
(numbers 1-12: witch ``k`` of group ``g`` is number ``4 g + k``), a user's in a rules file
(``--rules-file``, ``plugins = [...]``), numbered after them when loaded (``add_witch``). As for
a card (``sim.rules.card_files``), the ``WITCH = witch(...)`` statement is evaluated with the
module's ``sim.rules`` imports and the names of its top-level functions say which hook points
(``WITCH_HOOK_POINTS``) she uses; nothing of the kernel is imported.

A user's witch plays when a ruleset names her: in ``witches.fixed`` she is her group's witch in
every game; in ``witches.extra`` she is dealt with her group's shipped witches (one of five) and
may be Visit from a Witch's visitor while not in play (``sim.rules.witch_deal``). A loaded witch
that no ruleset names changes no game. Her questions to a strategy are asked as
the shipped witches' follow-up questions are (``witch_answer``: her ``default`` answers for the
built-in strategy from round 1, a round file cannot script her).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from sim.rules.card_files import KERNEL_FOLDER, RulesFileError, read_rule, shipped_rules
from sim.rules.declare import (
    USER_NUMBER,
    USER_WITCH_NUMBERS,
    WITCH_GROUPS,
    WITCH_HOOKS,
    WITCH_SPECIAL_FUNCTIONS,
    WitchDeclaration,
)

SHIPPED_WITCH_FOLDER = KERNEL_FOLDER / "witches"  # the shipped witches' modules
WITCH_DECLARATION = "WITCH"  # the module-level name of a witch's declaration
PER_GROUP = 4  # shipped witches per group
# a user's witch is numbered from here: 13 is six-chips' follow-up question (WQ_SIX_NEXT), and
# the report's ``witches`` column (int32) keeps bit w (called) and bit 16 + w (in play): 14 is
# the last number both fit, so one user witch is loaded at a time
FIRST_USER_WITCH = 14
MAX_WITCH = 14
# the strategy's witch slot has PARAM_WIDTH (32) parameters: a user's threshold takes a free one;
# the last holds the user witches a seat never calls (witch_off: bit w - FIRST_USER_WITCH)
USER_OFF = 31
USER_PARAM_OFFSETS = range(23, USER_OFF)


@dataclass(frozen=True)
class WitchSource:
    """A witch's declaration, her file, her module's name in ``sim/kernel/witches/`` ("" for a
    user's) and the hook points she uses (in the order of ``WITCH_HOOK_POINTS``)."""

    decl: WitchDeclaration
    path: Path
    module: str
    hooks: tuple[str, ...]


def read_witch(path: Path | str, module: str = "") -> WitchSource | None:
    """The witch a module declares (``WITCH = witch(...)``; None if it declares none);
    RulesFileError naming the file, the witch and the function for a public function that is no
    hook point (or asks for an argument its hook point does not give)."""
    found = read_rule(path, WITCH_DECLARATION, WitchDeclaration, "witch", WITCH_HOOKS,
                      WITCH_SPECIAL_FUNCTIONS)
    return None if found is None else WitchSource(found[0], Path(path), module, found[1])


@functools.cache
def shipped_witches() -> tuple[WitchSource, ...]:
    """Every shipped witch in number order; RulesFileError unless the numbers are 1..12 with
    witch k of group g numbered 4 g + k, each in the module named after her id."""
    found = shipped_rules(SHIPPED_WITCH_FOLDER, read_witch, "witch")
    n = PER_GROUP * len(WITCH_GROUPS)
    if len(found) != n:
        raise RulesFileError(f"{SHIPPED_WITCH_FOLDER}: the shipped witches' numbers must be "
                             f"1..{n}, each once")
    for w in found:
        if w.decl.group != WITCH_GROUPS[(w.decl.number - 1) // PER_GROUP]:
            raise RulesFileError(f"{w.path}: witch '{w.decl.id}': number {w.decl.number} is "
                                 f"in group {WITCH_GROUPS[(w.decl.number - 1) // PER_GROUP]}")
    return tuple(found)


# every known witch in number order: the shipped ones, then a user's once loaded (kept in place,
# so a witch added later is seen by every module that imported it)
WITCH_SOURCES: list[WitchSource] = list(shipped_witches())
N_SHIPPED = len(WITCH_SOURCES)
# set by the kernel's witch table once it is generated: a witch added later would not be played
WITCHES_BUILT: list[bool] = [False]
WITCH_LISTENERS: list = []  # called with each user witch added (sim.rules.witches keeps WITCHES)


def user_witches() -> list[WitchSource]:
    """The witches added from rules files, in number order."""
    return WITCH_SOURCES[N_SHIPPED:]


def add_witch(src: WitchSource) -> str:
    """Add a user's witch read from her file (``read_witch``), numbered after every witch known;
    return her id. RulesFileError (one line naming the file and the witch) for an id already
    taken, a number given, a threshold at a taken offset, no room left, or the kernel's table
    already built."""
    d = src.decl
    taken = {w.decl.id: w.decl.number for w in WITCH_SOURCES}
    if d.id in taken:
        raise RulesFileError(f"{src.path}: witch '{d.id}': the id is taken (witch {taken[d.id]})")
    if d.number != USER_NUMBER:
        raise RulesFileError(f"{src.path}: witch '{d.id}': a rules file's witch gives no number "
                             f"(she is numbered after the shipped witches); remove {d.number}")
    if d.first_round != 1:
        raise RulesFileError(f"{src.path}: witch '{d.id}': a rules file's witch is asked from "
                             "round 1 (first_round); her default can test G[G_ROUND] itself")
    known = {p for w in WITCH_SOURCES for p in w.decl.params}
    used = {off for _n, off, _d in known}
    names = {n for n, _o, _d in known}
    for name, off, default in d.params:
        if (name, off, default) in known:  # a threshold shared with the witch who declared it
            continue
        if off not in USER_PARAM_OFFSETS or off in used or name in names:
            raise RulesFileError(
                f"{src.path}: witch '{d.id}': threshold {name} at offset {off}: a new threshold "
                f"takes a free offset {USER_PARAM_OFFSETS.start}-{USER_PARAM_OFFSETS.stop - 1} "
                f"and a new name (taken: {sorted(used)}), a shared one is declared as its witch "
                "declares it")
        used.add(off)
        names.add(name)
    if WITCHES_BUILT[0]:
        raise RulesFileError(f"{src.path}: witch '{d.id}': rules files must be loaded before the "
                             "first game is played (the kernel's witch table is built)")
    number = max(FIRST_USER_WITCH, WITCH_SOURCES[-1].decl.number + 1)
    if number > MAX_WITCH:
        raise RulesFileError(f"{src.path}: witch '{d.id}': room for one user witch only "
                             f"('{WITCH_SOURCES[-1].decl.id}' is loaded)")
    USER_WITCH_NUMBERS[d.id] = number
    src = WitchSource(type(d)(**{**d.__dict__, "number": number}), src.path, "", src.hooks)
    WITCH_SOURCES.append(src)
    for listener in WITCH_LISTENERS:
        listener(src)
    return d.id


def witch_source(witch_id: str) -> WitchSource:
    """The witch with this id; ValueError (one line naming every known id) for an unknown one."""
    for w in WITCH_SOURCES:
        if w.decl.id == witch_id:
            return w
    raise ValueError(f"unknown witch '{witch_id}'; known: "
                     f"{', '.join(w.decl.id for w in WITCH_SOURCES)}")
