"""The hook table of the ingredient books, generated from the books' declarations.

Every point where a book can change the round (``sim.rules.declare.BOOK_HOOK_POINTS``) is a
kernel function here that tests the book the ruleset chose (``R[R_BOOK + colour] == set``) and
calls the function of that name in the book's module, handing it the arguments it names. The
functions are generated as Python source (``sim.kernel.books.table``) from
``sim.rules.book_files.book_sources()``: every shipped book's module in ``sim/kernel/books/``
(``<colour>_<set>.py``, declaring itself with ``BOOK = book(...)``), then the books of any rules
file loaded before this module is imported. A user's book gets the same hook points as a shipped
one. The brewing, round, evaluation and single-potion code call these functions and never name a
book; ``SOURCE`` is the generated text (``python -m sim.kernel.books.hooks`` prints it). The
hook points the cards call too (``bag_refilled``, ``chip_bought``) are generated into
``sim.kernel.books.gain_hooks`` and named here from there.

Hook points, in the order of a round: ``bag_refilled``; per draw, inlined, one compare of the
ruleset's book when none uses it: ``draw_protected``; per chip, inlined, one compare of the
chip's colour when no book acts: ``not_placed``, ``acting_type``, ``chip_move`` (``NO_BOOK_MOVE``
for a colour with no move of its own: a card's applies), ``doubles_next`` (a compare of the book),
``doubled_move``, ``has_action`` /
``chip_action`` (a book's ``placed`` or ``chip_action``); ``before_draw_chip``, ``potion_ended``;
step B, each seat in start-player order: ``grants_at_b`` (a flag), ``green_at_b``, ``purple_at_b``,
``coins_at_b``, ``bought_at_b`` (a scripted seat), ``black_at_b``, ``user_books_at_b`` (the
``at_b`` hook point); buying: ``chip_bought``, ``buying_moves_droplet`` (a flag). A per-chip hook
point calls a book for the chips of the colours it acts on (its own, or ``book(..., chips=...)``:
red Set 4's white chips).

Chips held beside the pot (red Set 6) and chips picked to go first (green Set 5) are placed by
``sim.kernel.brew`` (``place_held``, ``place_first``): the core's placements, whose fields
(``HOLD_T``, ``FIRST_T``, ...) the layout documents as the core's, filled by the books.

The Numba cache stamps this module with every module of the folder (the marker line below, read
by ``sim.numba_cache``); with a rules file loaded, every kernel that depends on this table is
cached apart (``sim.numba_cache.RULES_TABLES``).
"""

# numba-cache-depends: sim/kernel/books/*.py

from __future__ import annotations

# the generated source's names (it runs in this module's namespace)
from sim.kernel.books.common import ACTION_ABORT, ACTION_NONE, offer_red  # noqa: F401
from sim.kernel.books.gain_hooks import bag_refilled, chip_bought  # noqa: F401
from sim.kernel.books.table import (
    GAIN_POINTS,
    NO_BOOK_MOVE,  # noqa: F401
    book_modules,
    generate,
    ordered_sources,
    shipped,
)
from sim.kernel.jit import kernel  # noqa: F401
from sim.kernel.layout import F_YELLOW_PTR, R_BOOK  # noqa: F401
from sim.kernel.rules_modules import install
from sim.rules.book_files import BOOKS_BUILT
from sim.rules.chips import TYPE_COLOUR, TYPE_VALUE  # noqa: F401
from sim.rules.declare import BOOK_FLAG_POINTS, BOOK_HOOK_POINTS

SOURCES = ordered_sources()
_modules = book_modules(SOURCES)
_POINTS = tuple(p.name for p in (*BOOK_HOOK_POINTS, *BOOK_FLAG_POINTS) if p.name not in GAIN_POINTS)
SOURCE = generate(SOURCES, _modules, _POINTS)
install(globals(), _modules, SOURCE, BOOKS_BUILT,
        as_shipped=SOURCE == generate(shipped(SOURCES), _modules, _POINTS))
