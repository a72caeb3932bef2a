"""The decisions the ingredient books leave to the player, as the kernel numbers them: the ``a`` a
strategy's book slot gets (``sim.kernel.decisions.slots.Q_*``). What each one's argument ``b`` and
answer mean is declared with the books, ``sim.rules.books.BOOK_QUESTIONS``, which the kernel does
not import (editing a book's text recompiles no kernel module).
"""

from __future__ import annotations

# (id, colour, set), numbered 1.. in this order: the order is a contract (new ones go at the end)
QUESTIONS: tuple[tuple[str, str, int], ...] = (
    ("green-chip", "green", 2),
    ("green-ruby", "green", 4),
    ("red-after", "red", 2),
    ("purple-trade", "purple", 2),
    ("purple-upgrade", "purple", 4),
    ("green-first", "green", 5),
    ("red-hold", "red", 6),
    ("yellow-ruby", "yellow", 6),
    ("red-place", "red", 6),
)
QUESTION_IDS: tuple[str, ...] = tuple(q[0] for q in QUESTIONS)


def question_number(question_id: str) -> int:
    """The number (1..) of the book question with this id."""
    return QUESTION_IDS.index(question_id) + 1
