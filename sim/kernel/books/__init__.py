"""The ingredient books, one module per (colour, set) that has an effect.

Each book is a unit: its declaration in ``sim.rules.books`` (text, timing, choices, questions,
round-file keys; the set becomes choosable by it), its effect in
``sim.kernel.books.<colour>_<set>`` (functions named after the hook point they serve, and the
built-in answer to its question: ``default``, taken where ``book_answer`` has none), and its
lines in the hook table ``sim.kernel.books.hooks``, which the brewing, round, evaluation and
single-potion code call; they never test a book number themselves. ``common`` holds what books
share (the optional extra distance, chips counted in the pot, chips granted from the supply).
The base black book (Sets 1-4, by player count) is ``black_1``; the orange books have no effect.
"""
