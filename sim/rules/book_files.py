"""A user's ingredient books: a colour's effect for a new set number, declared in a rules file
(``--rules-file``, ``plugins = [...]``) with ``BOOK = book(colour, set, timing, ...)``
(``sim.rules.declare``) and functions named after the book hook points (``BOOK_HOOK_POINTS``).

Once loaded, ``books.<colour> = <set>`` chooses the book in a ruleset (its chips cost the prices
of the set it names, ``prices=``), ``quacks rules`` lists it, and the kernel's generated table of
the user's books (``sim.kernel.books.user_hooks``) calls its functions when the round's ruleset
chose it. Like a card's, its declaration is read without importing the kernel.
"""

from __future__ import annotations

from pathlib import Path

from sim.rules.card_files import BookSource, RulesFileError, read_book

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
    if any(b.decl.id == d.id for b in USER_BOOKS):
        raise RulesFileError(f"{src.path}: book '{d.id}': the set is taken ({d.colour} Set "
                             f"{d.set} is already loaded)")
    if BOOKS_BUILT[0]:
        raise RulesFileError(f"{src.path}: book '{d.id}': rules files must be loaded before the "
                             "first game is played (the kernel's book table is built)")
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
