"""The decision slots and the layout of a strategy's arrays, for strategy files.

A re-export of the public constants of :mod:`sim.kernel.decisions.slots`, where they live (the
kernel reads them). User strategy files may keep writing ``from strategies.slots import
SLOT_CUSTOM``; that is a contract. Nothing inside the project imports this module
(``tests/test_layers.py`` checks it).
"""

from sim.kernel.decisions.slots import *  # noqa: F403 (every public constant)
from sim.rules.book_files import script_keys
from sim.rules.book_numbers import QUESTION_IDS, question_number

# the shipped books' questions (the ``a`` a book slot function gets), named as strategy files knew
# them before each book named its own: ``Q_GREEN_CHIP`` ... (sim.rules.book_numbers)
globals().update({"Q_" + q.upper().replace("-", "_"): question_number(q) for q in QUESTION_IDS})
# red Set 2's answers to ``red-after``: the index of each word of its round-file key
RED_PLACE, RED_KEEP, RED_RETURN = (script_keys()["red_after"][0][1].words.index(w)
                                   for w in ("place", "keep", "return"))
