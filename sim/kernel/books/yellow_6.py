"""The player may pay 1 ruby to move the yellow chip 3 spaces further (one ruby per yellow chip).

Yellow Set 6 (mandrake, draw): a yellow chip may move 3 more spaces for 1 ruby.

Question ``yellow-ruby`` (b = the yellow chip type; 1 pay); default pay once a ruby buys less
(6 rounds left or fewer; declining: never). Round-file key ``yellow_ruby``."""

from __future__ import annotations

from sim.kernel.books.common import scripted_bit, scripting
from sim.kernel.decisions.choices import book_answer
from sim.kernel.decisions.slots import script_slot
from sim.kernel.event_codes import event_code
from sim.kernel.events import record
from sim.kernel.jit import kernel
from sim.kernel.layout import F_RUBIES, F_YELLOW_PTR, G_ROUND, R_ROUNDS
from sim.rules.book_numbers import question_number
from sim.rules.chips import TYPE_VALUE
from sim.rules.declare import SCRIPT_BITS, book, event, script_key

BOOK = book("yellow", 6, "draw", prices=6, choices=('pay a ruby or not, per yellow chip',),
            doc=__doc__,
            script=(script_key("yellow_ruby", SCRIPT_BITS, 16, doc="one per yellow chip: true pays "
                               "a ruby for 3 more spaces"),),
            events=event("yellow_ruby", a="spaces", text="yellow ruby: spaces {spaces}",
                         doc="spaces bought with a ruby"))
EV_YELLOW_RUBY = event_code(BOOK, "yellow_ruby")
QUESTION = question_number("yellow-ruby")
YELLOW_RUBY = script_slot(BOOK, "yellow_ruby")  # its answers in SC


@kernel
def default(P, s, arg, G, R, decline):
    """The built-in answer: pay a ruby for 3 spaces once a ruby buys less than that (6 rounds
    left or fewer); declining: never."""
    return 0 if decline or R[R_ROUNDS] - G[G_ROUND] > 6 else 1


@kernel(inline=True)
def scripted(P, s, q, arg, SC):
    """The round file's answer: the next of its ``yellow_ruby`` (yellow chips are counted in
    ``F_YELLOW_PTR``)."""
    return scripted_bit(P, s, F_YELLOW_PTR, YELLOW_RUBY, SC)


@kernel(inline=True)
def _extra(P, s, t, G, R, SK, SP, SC, rng, E, UF):
    """The extra spaces yellow chip t takes (0 or 3)."""
    if P[s, F_RUBIES] >= 1:
        ok, a = (scripted(P, s, QUESTION, t, SC) if scripting(SK, s)
                 else book_answer(P, s, QUESTION, t, G, R, SK, SP, SC, rng, UF))
        a = a if ok else default(P, s, t, G, R, a != 0)
        if a != 0:
            P[s, F_RUBIES] -= 1
            record(E, G, s, EV_YELLOW_RUBY, 3, 0, 0)
            return 3
    return 0


@kernel(inline=True)
def chip_move(P, s, t, G, R, SK, SP, SC, rng, E, UF):
    """The spaces yellow chip t moves: its value and the extra it takes."""
    return TYPE_VALUE[t] + _extra(P, s, t, G, R, SK, SP, SC, rng, E, UF)
