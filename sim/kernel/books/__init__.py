"""The ingredient books, one module per (colour, set) that has an effect.

Each book is a unit, its module ``sim.kernel.books.<colour>_<set>``, the same interface a user's
book in a rules file has: its declaration (``BOOK = book(colour, set, timing, doc=text,
choices=..., ...)``, ``sim.rules.declare``: what ``sim.rules.books`` and ``quacks rules`` show,
read without importing the kernel), its effect in functions named after the book hook points
(``BOOK_HOOK_POINTS``) and the built-in answer to its question (``default``, taken where
``book_answer`` has none). The hook table ``sim.kernel.books.hooks``, which the brewing, round,
evaluation and single-potion code call, is generated from the declarations; nothing else tests a
book number. ``common`` holds what books share (the optional extra distance, chips counted in the
pot, chips granted from the supply). The base black book (Sets 1-4, by player count) is
``black_1``; the orange books have no effect.
"""
