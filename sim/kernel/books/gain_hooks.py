"""The books' hook points that the cards call too, generated as ``sim.kernel.books.hooks`` is
(``sim.kernel.books.table``), from the books that have a function of one of them: ``chip_bought``
(a chip a seat gains, bought or given by a card, may go elsewhere than its bag: black Set 5) and
``bag_refilled`` (a seat's bag refilled before a potion, or a card's restart or draws: red Set 2's
chips kept beside the pot stay out). Kept apart from the full table, which imports every book
(green Set 6 calls the cards' hook table): so a card calls a hook point, never a book, without an
import circle.

The Numba cache stamps this module with the books it imports (the marker lines below, read by
``sim.numba_cache``; ``tests/test_rules_books_plugin.py`` checks they name exactly the shipped
books with such a function); with a rules file loaded, every kernel that depends on it is cached
apart (``sim.numba_cache.RULES_TABLES``).
"""

# numba-cache-depends: sim/kernel/books/black_5.py
# numba-cache-depends: sim/kernel/books/green_5.py
# numba-cache-depends: sim/kernel/books/red_2.py

from __future__ import annotations

# the generated source's names (it runs in this module's namespace)
from sim.kernel.books.table import GAIN_POINTS, book_modules, generate, ordered_sources, shipped
from sim.kernel.jit import kernel  # noqa: F401
from sim.kernel.layout import R_BOOK  # noqa: F401
from sim.kernel.rules_modules import install
from sim.rules.book_files import BOOKS_BUILT

SOURCES = ordered_sources()
_modules = book_modules(SOURCES, GAIN_POINTS)
SOURCE = generate(SOURCES, _modules, GAIN_POINTS)
install(globals(), _modules, SOURCE, BOOKS_BUILT,
        as_shipped=SOURCE == generate(shipped(SOURCES), _modules, GAIN_POINTS))
