"""The ingredient books as plugins: every book is a module declaring itself with ``BOOK =
book(colour, set, timing, ...)`` (``sim.rules.declare``) and functions named after the book hook
points (``BOOK_HOOK_POINTS``): the shipped ones in ``sim/kernel/books/`` (Sets 1-6), a user's in a
rules file (``--rules-file``, ``plugins = [...]``; Set 7 or later).

Once loaded, ``books.<colour> = <set>`` chooses a user's book in a ruleset (its chips cost the
prices of the set it names, ``prices=``), ``quacks rules`` lists it, and the kernel's generated
book table (``sim.kernel.books.hooks``, built from ``book_sources()``) calls its functions when
the round's ruleset chose it, as it calls the shipped books'. Like a card's, a book's declaration
is read without importing the kernel.
"""

from __future__ import annotations

import functools
from pathlib import Path

from sim.rules.book_numbers import QUESTION_IDS
from sim.rules.card_files import BookSource, RulesFileError, read_book
from sim.rules.declare import (
    FIRST_USER_SET,
    USER_QUESTION_NUMBERS,
    BookDeclaration,
    ScriptKey,
    StateKey,
)

# the shipped books' modules (kernel layer: read as text here, never imported)
SHIPPED_BOOKS_FOLDER = Path(__file__).resolve().parent.parent / "kernel" / "books"

# the user's books loaded, in load order
USER_BOOKS: list[BookSource] = []
# set by the kernel's table of the user's books once it is generated
BOOKS_BUILT: list[bool] = [False]
BOOK_LISTENERS: list = []  # called with each user book added (the ruleset's accepted sets)


def add_book(src: BookSource) -> str:
    """Add a user's book read from its file (``read_book``); return its id (``colour-set``).
    RulesFileError (one line naming the file and the book) for a set already taken or a book
    added once the kernel's table is built."""
    d = src.decl
    if d.set < FIRST_USER_SET:
        raise RulesFileError(f"{src.path}: book '{d.id}': a user's book is Set {FIRST_USER_SET} "
                             "or later (Sets 1-6 are the shipped books)")
    if any(b.decl.id == d.id for b in USER_BOOKS):
        raise RulesFileError(f"{src.path}: book '{d.id}': the set is taken ({d.colour} Set "
                             f"{d.set} is already loaded)")
    if BOOKS_BUILT[0]:
        raise RulesFileError(f"{src.path}: book '{d.id}': rules files must be loaded before the "
                             "first game is played (the kernel's book table is built)")
    for q in d.questions:
        if q[0] in QUESTION_IDS or q[0] in USER_QUESTION_NUMBERS:
            raise RulesFileError(f"{src.path}: book '{d.id}': question '{q[0]}': the id is taken")
    state, script = state_keys(), script_keys()
    for k in (*d.script, *d.state):
        if (k.key in state) != (k in d.state) and (k.key in state or k.key in script):
            raise RulesFileError(f"{src.path}: book '{d.id}': round-file key '{k.key}' is "
                                 f"another book's {'state' if k.key in state else 'script'} key")
    for k in d.script:
        other = script_keys().get(k.key)
        if other and other[0][1].shape != k.shape:
            raise RulesFileError(f"{src.path}: book '{d.id}': round-file key '{k.key}' is "
                                 f"declared by {books_text(other)} in another form")
    for q in d.questions:  # numbered after the shipped books' questions, in load order
        USER_QUESTION_NUMBERS[q[0]] = len(QUESTION_IDS) + len(USER_QUESTION_NUMBERS) + 1
    USER_BOOKS.append(src)
    for listener in BOOK_LISTENERS:
        listener(src)
    return d.id


def user_book(colour: str, set_: int) -> BookSource | None:
    """The user's book of this colour and set, if one is loaded."""
    return next((b for b in USER_BOOKS if b.decl.colour == colour and b.decl.set == set_), None)


def price_set(colour: str, set_: int) -> int:
    """The set whose prices the chips of ``colour`` cost with book ``set_``: the set itself for a
    shipped book, the set a user's book names (``prices=``) for one of theirs."""
    b = user_book(colour, set_)
    return set_ if b is None else b.decl.prices


def is_book_file(path: str | Path) -> bool:
    """Whether a rules file declares a book (``BOOK = book(...)``)."""
    return read_book(path) is not None


@functools.cache
def shipped_books() -> tuple[BookSource, ...]:
    """Every shipped book (a module of ``sim/kernel/books/`` that declares one), by colour and
    set; RulesFileError if one is not in ``<colour>_<set>.py`` or is a user's set."""
    found = []
    for path in sorted(SHIPPED_BOOKS_FOLDER.glob("*.py")):
        src = read_book(path)
        if src is None:
            continue
        d = src.decl
        if path.stem != f"{d.colour}_{d.set}" or d.set >= FIRST_USER_SET:
            raise RulesFileError(f"{path}: book '{d.id}' must be in {d.colour}_{d.set}.py, a set "
                                 f"below {FIRST_USER_SET}")
        found.append(src)
    return tuple(found)


def is_shipped(src: BookSource) -> bool:
    """Whether a book is a shipped one (its module in ``sim/kernel/books/``)."""
    return src.path.resolve().parent == SHIPPED_BOOKS_FOLDER


def book_sources() -> list[BookSource]:
    """Every book the kernel's table is built from: the shipped ones, then the user's (load
    order)."""
    return [*shipped_books(), *USER_BOOKS]


def script_keys() -> dict[str, list[tuple[BookDeclaration, ScriptKey]]]:
    """Every book's round-file keys (``book(..., script=...)``: the shipped books', then the
    user's loaded): key -> each book declaring it and its declaration there (several books of a
    colour may share one, in one form: green Sets 2, 4, 5's ``green``)."""
    out: dict[str, list[tuple[BookDeclaration, ScriptKey]]] = {}
    for src in book_sources():
        for k in src.decl.script:
            out.setdefault(k.key, []).append((src.decl, k))
    return out


def state_keys() -> dict[str, list[tuple[BookSource, StateKey]]]:
    """Every book's round-file state keys (``book(..., state=...)``: the shipped books', then the
    user's loaded): key -> each book declaring it (its source: the module with its ``read_state``
    and ``write_state``) and its declaration there (several books may share one: a user's copy
    of red Set 2 declares ``beside``)."""
    out: dict[str, list[tuple[BookSource, StateKey]]] = {}
    for src in book_sources():
        for k in src.decl.state:
            out.setdefault(k.key, []).append((src, k))
    return out


def books_text(users: list[tuple[BookDeclaration, ScriptKey]]) -> str:
    """``red Set 2``, ``green Sets 2, 4, 5``: the books that declare a round-file key."""
    parts = []
    for colour in dict.fromkeys(d.colour for d, _ in users):
        sets = [str(d.set) for d, _ in users if d.colour == colour]
        parts.append(f"{colour} Set{'s' if len(sets) > 1 else ''} {', '.join(sets)}")
    return ", ".join(parts)


def chosen_flag(flag: str, chosen: dict) -> bool:
    """Whether a book a ruleset chose (``chosen``: its ``books`` table, colour -> set) raises
    the flag hook point ``flag`` (``book(..., flags=...)``, ``sim.rules.declare.BOOK_FLAGS``)."""
    return any(flag in s.decl.flags for s in book_sources()
               if int(chosen.get(s.decl.colour, 0)) == s.decl.set)
