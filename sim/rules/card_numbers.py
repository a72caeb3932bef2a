"""The fortune-teller cards as the kernel knows them: numbers, timings and the kinds of a card's
effect event, and nothing a person reads.

Each card declares itself in its own module (``sim.rules.declare``: the shipped ones in
``sim/kernel/cards/``, a user's in a rules file); ``CARD_DECK`` here is read from those
declarations (``sim.rules.card_files``), in number order. The shipped cards' numbers are a
contract: 1-24 the base deck, 25-27 the witch-hat cards (``needs=HERB_WITCHES``: in a deck only
with ``witches.enabled``); number 0 means "no card". A user's card (``add_card_file``) is numbered
after them in the order the files are loaded, and is in no deck unless a ruleset adds it
(``cards.extra``).

What the kernel compiles reads none of the derived values here: the hook dispatch
(``sim.kernel.cards.hooks``) is generated from ``CARD_SOURCES`` with the numbers written in, and
a card's functions, called only when the round's card is theirs, read that number from the round
(``G[G_CARD]``).
"""

from __future__ import annotations

from pathlib import Path

from sim.numba_cache import RULES_FILES, add_rules_file
from sim.rules.book_files import add_book
from sim.rules.card_files import CardSource, RulesFileError, read_book, read_card, shipped_cards
from sim.rules.declare import (
    BLUE,
    HERB_WITCHES,
    PURPLE,
    TAKE_OTHER,
    TIMINGS,
    USER_NUMBER,
    USER_NUMBERS,
)
from sim.rules.input_files import not_a_file
from sim.rules.witch_files import add_witch, read_witch

__all__ = ["BLUE", "CARD_DECK", "CARD_GAINS", "CARD_IDS", "CARD_LISTENERS", "CARD_SOURCES",
           "HERB_WITCHES", "N_CARDS", "NO_CARD", "PURPLE", "PURPLE_CARDS", "TAKE_OTHER", "TIMINGS",
           "add_card_file", "card_number", "gain_number", "loaded_rules_files", "rules_files_used",
           "user_cards"]

# the most cards the kernel has room for (``R_CARD_MASK`` bits and the ``per_card`` rows of
# ``sim.kernel.layout`` are wider; a deck holds at most 28)
MAX_CARDS = 32


def _entry(c: CardSource) -> tuple[str, ...]:
    return (c.decl.id, c.decl.timing, *((c.decl.needs,) if c.decl.needs else ()))


# Every known card in number order (the shipped ones, then a user's, once loaded). Lists, kept in
# place, so a user's card added later is seen by every module that imported them.
CARD_SOURCES: list[CardSource] = list(shipped_cards())
# (id, timing[, needs]) in the kernel's order: a card's number is its place here, from 1
CARD_DECK: list[tuple[str, ...]] = [_entry(c) for c in CARD_SOURCES]
CARD_IDS: list[str] = [entry[0] for entry in CARD_DECK]
N_CARDS = len(CARD_SOURCES)  # the shipped cards (27)
PURPLE_CARDS = sum(1 << n for n, entry in enumerate(CARD_DECK, 1) if entry[1] == PURPLE)  # bit c
NO_CARD = 0
# set by the kernel's hook table once it is generated: a card added later would not be played
HOOKS_BUILT: list[bool] = [False]
_USER_FILES: dict[str, list[str]] = {}  # resolved path -> the ids it added
CARD_LISTENERS: list = []  # called with each user card added (sim.rules.cards keeps CARDS in step)


def user_cards() -> list[CardSource]:
    """The cards added from rules files, in number order."""
    return CARD_SOURCES[N_CARDS:]


def add_card_file(path: str | Path) -> list[str]:
    """Add the card a user's rules file declares (numbered after every card known), or the book
    (``sim.rules.book_files``) or the witch (``sim.rules.witch_files``); return its id ([] if
    the file was added before). RulesFileError (one line naming the file and the rule) for a
    file that declares none, an id already taken, or a number given."""
    why = not_a_file(path)
    p = Path(path)
    if why is None and p.suffix != ".py":
        why = "not a Python file (its name must end in .py)"
    if why is not None:
        raise RulesFileError(f"--rules-file {path}: {why}")
    key = str(p.resolve())
    if key in _USER_FILES:
        return []
    src = read_card(p)
    if src is None:
        book = read_book(p)
        witch = read_witch(p) if book is None else None
        if book is None and witch is None:
            raise RulesFileError(f"{path}: declares no card (CARD = card(...)), no book (BOOK "
                                 "= book(...)) and no witch (WITCH = witch(...)); see "
                                 "docs/how-to/add-a-rule.md")
        added = add_book(book) if book is not None else add_witch(witch)
        add_rules_file(str(p))  # the kernels that depend on it are cached apart
        _USER_FILES[key] = [added]
        return [added]
    d = src.decl
    if d.id in CARD_IDS:
        raise RulesFileError(f"{path}: card '{d.id}': the id is taken (card {card_number(d.id)})")
    if d.number != USER_NUMBER:
        raise RulesFileError(f"{path}: card '{d.id}': a rules file's card gives no number (it is "
                             f"numbered after the shipped cards); remove {d.number}")
    if HOOKS_BUILT[0]:
        raise RulesFileError(f"{path}: card '{d.id}': rules files must be loaded before the "
                             "first game is played (the kernel's hook table is built)")
    if len(CARD_SOURCES) >= MAX_CARDS:
        raise RulesFileError(f"{path}: card '{d.id}': room for {MAX_CARDS} cards only")
    number = len(CARD_SOURCES) + 1
    USER_NUMBERS[d.id] = number
    add_rules_file(str(p))  # every kernel compiled from now on is cached apart (sim.numba_cache)
    src = CardSource(type(d)(**{**d.__dict__, "number": number}), src.path, "", src.hooks)
    CARD_SOURCES.append(src)
    CARD_DECK.append(_entry(src))
    CARD_IDS.append(d.id)
    _USER_FILES[key] = [d.id]
    for listener in CARD_LISTENERS:
        listener(src)
    return [d.id]


def loaded_rules_files() -> list[dict]:
    """Every rules file loaded in this process, in load order: its resolved ``path``, ``code``
    (the hash of its code, comments and texts left out: what the kernel compiles) and the
    ``rules`` it added (a card's id, a book's ``colour-set``). What a report's ``run.json``
    records, and a replay loads again."""
    return [{"path": p, "code": RULES_FILES.get(p, ""), "rules": list(ids)}
            for p, ids in _USER_FILES.items()]


def rules_files_used(rule_ids) -> list[tuple[str, str]]:
    """(rule id, code hash of its rules file) for each user rule among ``rule_ids`` (card ids,
    books' ``colour-set``), sorted: what a ruleset's hash adds for the user's rules it plays
    (nothing for shipped ones)."""
    code = {i: RULES_FILES.get(p, "") for p, ids in _USER_FILES.items() for i in ids}
    return sorted((i, code[i]) for i in set(rule_ids) if i in code)


# EV_CARD_GAIN kinds, numbered in this order (0..); their text is the card_effect event's
# (sim.api.event_table). A new kind goes at the end.
CARD_GAINS = ("rats_doubled", "vp", "rubies", "droplet", "chip", "chip_removed", "flask",
              "restart", "penny_given", "penny_back")  # penny_*: b = the witch group


def card_number(card_id: str) -> int:
    """The kernel's number (1-27 shipped, then a user's) of the card with this id (0 is reserved
    for "no card"); ValueError (one line naming every valid id) for an unknown one."""
    if card_id not in CARD_IDS:
        raise ValueError(f"unknown fortune card '{card_id}'; known: {', '.join(CARD_IDS)}")
    return CARD_IDS.index(card_id) + 1


def gain_number(name: str) -> int:
    """The EV_CARD_GAIN kind of a card effect name in ``CARD_GAINS``."""
    return CARD_GAINS.index(name)
